"""What each name the compiler meets is: the checker's answer, read from its symbol table.

The checker resolves every name of the program (check/checker.py) and keeps each use's
`Binding` in its `SymbolTable` (check/symbols.py). The compiler does not resolve a name a
second time: for a name written as an expression it asks `Names.kind` whether the checker
found a local (a parameter, a `let`, a loop variable, `self`), a variable, an option, a
constant (a seat, a component, an enum member, a cell), a def, the seats (`players`) or a
property of `self` read by its bare name, and compiles what that kind is. So too for a
call (`call`: a query, def, procedure or built-in) and an assignment's target (`target`:
a local or a variable). Where each is kept (a local's slot, a variable's slot, a
constant's value, a def's function, a procedure's steps) is the compiler's own. (A member,
`x.name`, has one meaning, a property of a component, whatever names a local or a
variable bears: the compiler reads the property's table of that name.)

A name no use was recorded for is one the compiler wrote itself: a temporary holding a
call's result, a `may`'s hidden answer, the `self` of a property read by bare name (its
own locals), or the variable a `shuffle` statement names (`written`, a variable by what
the statement means). The table of a program is a function of the program, so the compile caches,
keyed by the program's rules, stay right.
"""

from __future__ import annotations

from interpreter.check.checker import Checker
from interpreter.check.symbols import SymbolTable, name_span
from interpreter.language import syntax as ast
from interpreter.language.program import Program

# The kinds of binding that are a local of the body being compiled (a slot of its frame,
# a comprehension's or lambda's variable, an inlined function's argument).
LOCAL_KINDS = frozenset({"local", "parameter", "self"})

# What a call may name: a query (asked with the modifiers in force), a def, a procedure
# (a statement of its own, or the value of a `let`, assignment or `return`), or a
# built-in function of the language (core/builtins.py, `members`, `initial`).
CALL_KINDS = frozenset({"query", "def", "procedure", "builtin"})


class Names:
    """The checker's bindings of one program's names, as the compiler reads them. Given the
    table `check` made (`compile_game(program, symbols=...)`), or, for a caller that did not
    keep it, the table of a check made on first need (a compile of the options alone
    seldom needs one)."""

    def __init__(self, program: Program, symbols: SymbolTable | None = None) -> None:
        self._program = program
        self._symbols = symbols
        self._own: dict[ast.Name, str] = {}  # names the compiler wrote for what a statement names
        # Each name's and call's answer, by the node (kept, so that its id is no other
        # node's): the compiler asks of one node many times (is it static, is it a
        # built-in's, can it grow, ...), and a node's id is quicker to find than its span.
        self._known: dict[int, tuple[ast.Expr, str]] = {}

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
        known = self._known.get(id(e))
        if known is not None and known[0] is e:
            return known[1]
        b = self.symbols.uses.get(e.span)
        if b is None or b.name != e.id:
            kind = self._own.get(e, "local") if self._own else "local"
        else:
            kind = b.kind
        self._known[id(e)] = (e, kind)
        return kind

    def call(self, e: ast.Call) -> str:
        """What the call `e` names, as the checker resolved it: a kind of `CALL_KINDS`,
        or "" if the checker resolved nothing there (a name no declaration gives)."""
        known = self._known.get(id(e))
        if known is not None and known[0] is e:
            return known[1]
        b = self.symbols.uses.get(name_span(e.span, e.func))
        kind = b.kind if b is not None and b.name == e.func and b.kind in CALL_KINDS else ""
        self._known[id(e)] = (e, kind)
        return kind

    def target(self, s: ast.Assign) -> str:
        """What the target of the assignment `s` is, as the checker resolved it: a local
        ("local", "parameter") or a variable ("var"); "" if the checker resolved nothing
        there. An assignment the compiler writes itself says what its target is."""
        b = self.symbols.uses.get(name_span(s.span, s.name))
        return b.kind if b is not None and b.name == s.name else ""
