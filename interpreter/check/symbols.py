"""What the checker found, kept for the tools that read a program: the symbol table.

While it checks, the checker resolves every name and works out the type of every
expression; `SymbolTable` keeps both, so that a tool asks the checker's answer rather than
resolving names a second time (the language server's hover, definition and completion
read it, and the compiler compiles each name, call, assignment and member as it says).
For each use of a name (a name expression, a call's function, an assignment's target, a
member's property) it keeps the `Binding` it resolved to (what the name is, where it is
declared, its type); for each expression, its type; for each local bound
(parameter, `let`, loop variable, `choose`, `roll`, comprehension or lambda variable), its
binding; and each definition's result type.

The types here are the checker's own (check/types.py: `Type` and its kinds, frozen attrs
classes), recorded as the checker works them out, so that a reader compares, shows and
matches them as values (`isinstance(t, ListOf)`), never by taking a tuple apart.
"""

from __future__ import annotations

import bisect

import attrs

from interpreter.check.types import (  # the one representation of a type, named here for the readers
    NONE_TYPE,
    UNKNOWN,
    ListOf,
    MapOf,
    Maybe,
    Named,
    NoneType,
    Type,
    TypeName,
    Unknown,
    kind_of,
)
from interpreter.core.errors import Span

__all__ = [
    "NONE_TYPE",
    "UNKNOWN",
    "Binding",
    "ListOf",
    "MapOf",
    "Maybe",
    "Named",
    "NoneType",
    "SymbolTable",
    "Type",
    "TypeName",
    "Unknown",
    "kind_of",
    "name_span",
]


def name_span(span: Span, name: str) -> Span:
    """Where `name` is written when it begins the node at `span`: a call's function, an
    assignment's target. Their uses are recorded there (a call or an assignment has no
    node of its own for the name)."""
    return Span(span.path, span.line, span.column, span.column + len(name))


@attrs.frozen
class Binding:
    """What a name resolves to: its kind (local, parameter, self, var, option, constant,
    def, query, procedure, event, field, type, builtin, players), where it is declared
    (None for a built-in), and its type (a var's map type, a def's result, a field's)."""

    name: str
    kind: str
    declared: Span | None
    type: Type


@attrs.define
class SymbolTable:
    """The checker's record of one program: every name use with its binding, every
    expression with its type, every local with its binding, each def's result type and
    each kind's properties. Filled by `Checker.run` (check/checker.py)."""

    # by where the name is written: a name expression's span; a call's function and an
    # assignment's target at their name (`name_span`); a member's property at its name
    uses: dict[Span, Binding] = attrs.field(factory=dict)
    types: dict[Span, Type] = attrs.field(factory=dict)  # by the expression's span (the outermost at it)
    locals: dict[Span, Binding] = attrs.field(factory=dict)  # by where the local is bound
    defs: dict[str, Type] = attrs.field(factory=dict)  # a def's result type, by its name
    fields: dict[str, dict[str, Binding]] = attrs.field(factory=dict)  # kind -> property -> binding
    globals: dict[str, Binding] = attrs.field(factory=dict)  # each variable, option and constant, by name
    # each procedure's locals with every type each was bound with (`Checker(scope_types=True)`)
    scopes: dict[str, dict[str, set[Type]]] = attrs.field(factory=dict)
    _index: dict[tuple[str, int], list[tuple[int, int, Span]]] | None = attrs.field(default=None, init=False)

    def use(self, span: Span, binding: Binding) -> None:
        self.uses[span] = binding
        self._index = None

    def merge(self, other: SymbolTable) -> None:
        """Add what `other` (the same program with a variant) knows and this does not."""
        for span, b in other.uses.items():
            self.uses.setdefault(span, b)
        for span, t in other.types.items():
            self.types.setdefault(span, t)
        for span, b in other.locals.items():
            self.locals.setdefault(span, b)
        for name, t in other.defs.items():
            self.defs.setdefault(name, t)
        for name, b in other.globals.items():
            self.globals.setdefault(name, b)
        for kind, fields in other.fields.items():
            mine_fields = self.fields.setdefault(kind, {})
            for name, b in fields.items():
                mine_fields.setdefault(name, b)
        self._index = None

    def use_at(self, path: str, line: int, column: int) -> tuple[Span, Binding] | None:
        """The name use written at `line`:`column` of `path` (1-based), if one is."""
        if self._index is None:
            index: dict[tuple[str, int], list[tuple[int, int, Span]]] = {}
            for span in self.uses:
                if span.end_column is not None:
                    index.setdefault((span.path, span.line), []).append((span.column, span.end_column, span))
            for row in index.values():
                row.sort(key=lambda x: (x[0], x[1]))
            self._index = index
        row = self._index.get((path, line), [])
        i = bisect.bisect_right(row, (column, 1 << 30))
        for start, end, span in reversed(row[:i]):
            if start <= column < end or column == end:  # the cursor just after a name is on it
                return span, self.uses[span]
        return None

    def type_ending_at(self, path: str, line: int, end: int) -> Type | None:
        """The type of the outermost expression that ends just before column `end` of
        `line` (what a `.` written there reads a property of)."""
        best: tuple[int, Type] | None = None
        for span, t in self.types.items():
            if span.path == path and span.line == line and span.end_column == end:
                if best is None or span.column < best[0]:
                    best = (span.column, t)
        return best[1] if best is not None else None
