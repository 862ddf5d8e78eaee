"""Code a test compiles outside its game's rules (an expression written in the test), checked
first among the game's names: the compiler reads what each name is from the checker's
symbol table (interpreter/compile/names.py), as it does for the game's own rules."""

from __future__ import annotations

from interpreter.check.checker import Checker
from interpreter.compile.compiler import Compiler
from interpreter.core.errors import Span
from interpreter.language.parser import parse_expression
from interpreter.language.program import Program


def compiled_with_checker(program: Program) -> tuple[Compiler, Checker]:
    """The compiler's working state after every pass, made from the checker's table of
    `program`, and that checker (to check an expression a test compiles later)."""
    checker = Checker(program)
    checker.run()
    return Compiler(program, {}, symbols=checker.table).run(), checker


def expression(checker: Checker, text: str, span: Span, scope: dict[str, str]):
    """`text` parsed at `span` and checked with the locals `scope` (name -> the name of its
    type: "int", "player", a kind's name, read as the program's type of that name), its
    names now in the checker's table."""
    e = parse_expression(text, span)
    checker.check_expression(e, {name: checker.types[t] for name, t in scope.items()})
    return e
