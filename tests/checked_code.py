"""Code a test compiles outside its game's rules (an expression written in the test), checked
first among the game's names: the compiler reads what each name is from the checker's
symbol table (interpreter/compile/names.py), as it does for the game's own rules."""

from __future__ import annotations

from typing import Any

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


def expression(checker: Checker, text: str, span: Span, scope: dict[str, Any]):
    """`text` parsed at `span` and checked with the locals `scope` (name -> the checker's
    type: "int", "player", a kind's name), its names now in the checker's table."""
    e = parse_expression(text, span)
    checker.check_expression(e, scope)
    return e
