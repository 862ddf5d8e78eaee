"""What each name the compiler meets is: the checker's answer, read from its symbol table.

The checker resolves every name of the program (check/checker.py) and keeps each use's
`Binding` in its `SymbolTable` (check/symbols.py). The compiler does not resolve a name a
second time: for a name written as an expression it asks `Names.kind` whether the checker
found a local (a parameter, a `let`, a loop variable, `self`), a variable, an option, a
constant (a seat, a component, an enum member, a cell), a def, the seats (`players`) or a
property of `self` read by its bare name, and compiles what that kind is. Where the name
is kept (a local's slot, a variable's slot, a constant's value) is the compiler's own.

A name no use was recorded for is one the compiler wrote itself: a temporary holding a
call's result, a `may`'s hidden answer, the `self` of a property read by bare name (its
own locals), or the variable a `shuffle` statement names (`written`, a variable by what
the statement means). The table of a program is a function of the program, so the compile caches,
keyed by the program's rules, stay right.
"""

from __future__ import annotations

from interpreter.check.checker import Checker
from interpreter.check.symbols import SymbolTable
from interpreter.language import syntax as ast
from interpreter.language.program import Program

# The kinds of binding that are a local of the body being compiled (a slot of its frame,
# a comprehension's or lambda's variable, an inlined function's argument).
LOCAL_KINDS = frozenset({"local", "parameter", "self"})


class Names:
    """The checker's bindings of one program's names, as the compiler reads them. Given the
    table `check` made (`compile_game(program, symbols=...)`), or, for a caller that did not
    keep it, the table of a check made on first need (a compile of the options alone
    seldom needs one)."""

    def __init__(self, program: Program, symbols: SymbolTable | None = None) -> None:
        self._program = program
        self._symbols = symbols
        self._own: dict[ast.Name, str] = {}  # names the compiler wrote for what a statement names

    def written(self, span, name: str, kind: str) -> ast.Name:
        """A name the compiler writes itself at `span` for what a statement names (the
        variable a `shuffle` reads): what it is, `kind`, is the statement's own meaning."""
        e = ast.Name(span=span, id=name)
        self._own[e] = kind
        return e

    @property
    def symbols(self) -> SymbolTable:
        if self._symbols is None:
            checker = Checker(self._program)
            checker.run()  # its diagnostics are check's to report; the compile reports its own
            self._symbols = checker.table
        return self._symbols

    def kind(self, e: ast.Name) -> str:
        """What the name `e` is, as the checker resolved it where it is written: a kind of
        `Binding` (local, parameter, self, var, option, constant, def, players, field,
        type); "local" for a name the compiler wrote itself, which no use records."""
        b = self.symbols.uses.get(e.span)
        if b is None or b.name != e.id:
            return self._own.get(e, "local") if self._own else "local"
        return b.kind
