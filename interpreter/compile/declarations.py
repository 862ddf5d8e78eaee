"""The declarations' own work: options, grids, components, tables' cells and links,
variables and `about` texts.

The passes (compiler.py) hand each declaration here; what it makes goes into the shared
tables (passtables.py), and any value a declaration computes at load (a card's property, a
generate's loops, an option's default) is an expression compiled by the expression
compiler and run at once with the load's budget.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Any

from interpreter.compile.compiled import VarInfo
from interpreter.compile.expressions import ExpressionCompiler
from interpreter.compile.passtables import PassTables
from interpreter.compile.scope import Scope
from interpreter.core.builtins import DELTA, DIRECTIONS
from interpreter.core.errors import Diagnostic, GameDefError, OptionError, Span, did_you_mean, option_setting
from interpreter.core.limits import MAX_COMPONENTS, MAX_INT, MAX_MAP_ENTRIES, MAX_NAME
from interpreter.core.links import ADDED, dynamic_builtins
from interpreter.core.options import ACCEPTED, option_value
from interpreter.language import syntax as ast
from interpreter.language.datatables import CellReader, ColumnBinding, LoadedTable, Vocabulary, link_pairs


class DeclarationCompiler:
    """Turns the declarations of components, tables, options and variables into the
    shared tables, with the expression compiler for what they compute at load."""

    def __init__(self, tables: PassTables, expressions: ExpressionCompiler) -> None:
        self.tables = tables
        self.expressions = expressions
        self._vocabularies: dict[str, Vocabulary | None] = {}  # the readers of table cells, by type

    # ---- errors -------------------------------------------------------------

    def add_about(self, d: ast.About, about: dict[str, str]) -> None:
        """`about NAME "..."`, added to `about` (the abouts pass's): kept for `cards` and
        `about`; NAME must be a component or an enum member (a misspelt name would
        otherwise leave its text unseen)."""
        what = self.tables.claimed.get(d.name, "")
        if not (what.startswith("a member of") or d.name in self.tables.rt.titles and not what.startswith("a seat")):
            from interpreter.core.errors import did_you_mean

            known = [n for n in self.tables.rt.titles if not self.tables.claimed.get(n, "").startswith("a seat")]
            self.tables.fail(
                d.span,
                f"`about {d.name}`: nothing called '{d.name}' is a component or an enum member",
                did_you_mean(d.name, known) or "name a card, a component of a table, or an enum member",
            )
        if d.name in about:
            self.tables.fail(
                d.span, f"'{d.name}' has two `about` texts", "keep one (a variant replaces it with `replace`)"
            )
        about[d.name] = d.text

    # ---- tables -------------------------------------------------------------
    def declare_links_var(self) -> None:
        """A game that adds links in play keeps them in a variable; see links.py."""
        if not self.tables.dynamic_links:
            return
        span = self.tables.header.span
        any_list = ast.ListType(span=span, element=ast.NamedType(span=span, name="any"))
        self.declare_var(
            ast.Var(span=span, name=ADDED, type=any_list, default=ast.ListLit(span=span, items=()), seen_by="all")
        )
        self.tables.links_slot = self.tables.vars[ADDED].slot
        for name, f in dynamic_builtins(self.tables.rt, self.tables.links_slot).items():
            self.tables.ns[f"_dl_{name}"] = f

    def check_option_type(self, d: ast.Option, value: Any) -> Any:
        """The value given for option `d`, of its declared type, or a GameDefError at the
        option. A text given for a number or truth option (`load_game(options={"fast":
        "true"})`) is read as the command line reads `--option fast=true`
        (core/options.py), so both ways of giving an option accept the same values."""
        t = d.type.name if isinstance(d.type, ast.NamedType) else None
        given = value
        if t in ACCEPTED and isinstance(value, str):
            value = option_value(value)
        ok = t is None or {
            "int": isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT,
            "bool": isinstance(value, bool),
            "str": isinstance(value, str),
        }.get(t, value in self.tables.types.get(t, ()))
        if not ok:
            allowed = (
                {**ACCEPTED, "str": "a text"}.get(t, "one of " + ", ".join(map(str, self.tables.types.get(t, ()))))
                if t
                else "a value"
            )
            choices = [str(x) for x in self.tables.types.get(t, ())] if t else []
            default = self.const(d.default)  # the checker has already checked it
            raise OptionError(
                d.name,
                given,
                "type",
                f"option '{d.name}' must be {allowed}, not {given!r}",
                did_you_mean(str(given), choices),
                example=option_setting(d.name, default),
            )
        return value

    def const(self, e: ast.Expr):
        return self.tables.loaded(e.span, lambda: self.expressions.expr(e, Scope())(self.expressions.load_vm, []))

    def add_grid(self, d: ast.Grid) -> None:
        cols, rows = self.const(d.columns), self.const(d.rows)
        if not (isinstance(cols, int) and isinstance(rows, int) and cols > 0 and rows > 0):
            self.tables.fail(d.span, f"a grid needs a positive number of columns and rows, not {cols!r} by {rows!r}")
        if cols * rows + len(self.tables.rt.coords) + len(self.tables.kind_of) > MAX_COMPONENTS:
            self.tables.fail(
                d.span,
                f"a grid of {cols} by {rows} is past the limit of {MAX_COMPONENTS:,} cells and components",
                "a board game's grid has at most a few hundred cells",
            )
        cells = []
        prefix = "" if not any(k[0] != d.name for k in self.tables.rt.cell_at) else f"{d.name.lower()}_"
        for y in range(1, rows + 1):
            for x in range(1, cols + 1):
                name = prefix + _cell_name(x, y)  # a second grid's cells: track_a1, ...
                cells.append(name)
                self.tables.claim(name, f"a cell of {d.name}", d.span)
                self.tables.rt.coords[name] = (x, y)
                self.tables.rt.cell_at[(d.name, x, y)] = name
                self.tables.constants[name] = name
        for direction in DIRECTIONS:  # the directions name something only where there is a grid
            self.tables.claim(direction, "a Direction", d.span)
        for name in cells:
            x, y = self.tables.rt.coords[name]
            near = []
            for direction in DIRECTIONS:
                dx, dy = DELTA[direction]
                other = self.tables.rt.cell_at.get((d.name, x + dx, y + dy))
                if other is not None:
                    self.tables.rt.step[(name, direction)] = other
                    near.append(other)
            self.tables.rt.links[name] = tuple(near)
        self.tables.types[d.name] = tuple(cells)
        self.tables.constants[d.name] = d.name

    def add_entity(self, kind: str, name: str, title: str, values: dict, span: Span) -> None:
        if name in self.tables.kind_of:
            self.tables.fail(span, f"two components are named '{name}'", "names must be unique")
        if not isinstance(name, str) or not name:
            self.tables.fail(span, f"a component's name must be a text, not {name!r}")
        if len(self.tables.kind_of) + len(self.tables.rt.coords) >= MAX_COMPONENTS:
            self.tables.fail(
                span, f"more than {MAX_COMPONENTS:,} components", "a game needs far fewer: check the ranges"
            )
        self.tables.claim(name, f"a {kind}", span)
        self.tables.kind_of[name] = kind
        self.tables.constants[name] = name
        self.tables.rt.titles[name] = title
        self.tables.types[kind] = self.tables.types.get(kind, ()) + (name,)
        for f, v in values.items():
            self.tables.fields.setdefault(f, {})[name] = v

    def table_kinds(self, t: LoadedTable) -> set[str]:
        """The types a table's cells name values of (the kinds its properties hold)."""
        decl = _table(t)
        types = {f.name: f.type for f in self.tables.entity_decls[decl.kind].fields}
        out: set[str] = set()
        for c in decl.columns:
            if c.prop in types:
                out.update(n.name for n in ast.find_all(types[c.prop], ast.NamedType))
        return out

    def generate(self, d: ast.Generate, waiting: Sequence[LoadedTable] = (), later: Set[str] = frozenset()) -> None:
        """One component per combination of the loops. `waiting` are the tables whose
        values are read after it, since their cells name components of `later` (kinds a
        generate makes): a generate reading one of them is an error that says so."""
        if d.kind not in self.tables.entity_decls:
            self.tables.fail(d.span, f"unknown entity '{d.kind}'")
        reads = {m.name for m in ast.find_all(d, ast.Member)}
        late = {c.prop: t for t in reversed(waiting) for c in _table(t).columns if c.prop in reads}

        def too_early(prop: str, t: LoadedTable):
            kinds = " and ".join(sorted(self.table_kinds(t) & later))
            kind = _table(t).kind
            self.tables.fail(
                d.span,
                f"this generate reads {kind}.{prop}, which table {kind} ({t.decl.span}) gives only "
                f"after the generates, since its cells name {kinds} components",
                f"a generate cannot read a table whose cells name the components it makes: write {prop} in "
                "the generate, or read it from another table",
            )

        for prop, t in late.items():
            if prop not in self.tables.fields:  # no component has it yet: the read could not compile
                too_early(prop, t)
        names = [n for n, _ in d.iterators]
        scope = Scope(names)
        at_load = self.expressions.load_vm  # components exist before a game starts: every seat, no variables
        # A loop's list may use the loops before it (`level in 1..5, pos in 1..6 - level`).
        domains = [self.expressions.expr(e, Scope(names[:i])) for i, (_, e) in enumerate(d.iterators)]
        name_fn = self.expressions.expr(d.name_template, scope)
        value_fns = {fv.name: self.expressions.expr(fv.value, scope) for fv in d.values}
        optional = _optional_fields(self.tables.entity_decls[d.kind])

        def product(i, acc):
            if i == len(domains):
                yield list(acc)
                return
            for v in domains[i](at_load, acc):
                yield from product(i + 1, acc + [v])

        def make_all():
            for combo in product(0, []):
                name = name_fn(at_load, combo)
                if isinstance(name, str) and len(name) > MAX_NAME:
                    self.tables.fail(
                        d.span, f"a component's name has {len(name):,} characters; the limit is {MAX_NAME}"
                    )
                values = {f: fn(at_load, combo) for f, fn in value_fns.items()}
                # Every component has a title and a text, and none for an optional property not given.
                values.setdefault("title", name)
                values.setdefault("text", "")
                for f in optional:
                    values.setdefault(f, None)
                self.add_entity(d.kind, name, name, values, d.span)

        def make_all_or_explain():
            try:
                make_all()
            except KeyError as exc:  # a property of a row whose table is read later
                row = exc.args[0] if exc.args else None
                for prop, t in late.items():
                    if any(r.name == row for r in t.rows):
                        too_early(prop, t)
                raise

        self.tables.loaded(d.span, make_all_or_explain)

    def card_props(self, d: ast.Card) -> None:
        values = {fv.name: self.const(fv.value) for fv in d.props}
        if d.extends is not None:  # a table's row: the table made the component
            if d.has_text:
                values["text"] = d.text
            for f, v in values.items():
                self.tables.fields.setdefault(f, {})[d.name] = v
            return
        values["title"] = d.title
        values["text"] = d.text
        entity = self.tables.entity_decls.setdefault(
            d.kind, ast.Entity(span=d.span, name=d.kind, fields=(), short=None)
        )
        for f in _optional_fields(entity):  # an optional property the card does not give is none, as in a table
            values.setdefault(f, None)
        self.add_entity(d.kind, d.name, d.title, values, d.span)

    def unique_values(self, decls) -> None:
        """A property declared `unique` has a different value on each component of its
        entity (none aside: a component without it): a second card numbered "4" is an
        error at that card, or at the table row or generate that made it, naming the
        first. Components are compared in the order they were made: table rows, cards,
        then generated ones, so the one written later is the one reported."""
        spans: dict[str, Span] = {}
        for t in self.tables.program.tables:
            if isinstance(t.decl, ast.DataTable):
                spans.update((row.name, row.span) for row in t.live())
        generated: dict[str, Span] = {}
        for d in decls:
            if isinstance(d, ast.Card):
                spans.setdefault(d.name, d.span)
            elif isinstance(d, ast.Generate):
                generated.setdefault(d.kind, d.span)
        errors = []
        for kind, entity in self.tables.entity_decls.items():
            for f in entity.fields:
                if not f.unique:
                    continue
                values = self.tables.fields.get(f.name, {})
                first: dict = {}
                for name in self.tables.types.get(kind, ()):
                    value = values.get(name)
                    if value is None:
                        continue
                    if value not in first:
                        first[value] = name
                        continue
                    other = first[value]
                    shown = self.tables.rt.display(value)
                    if isinstance(value, str) and value not in self.tables.claimed:  # a text, as written
                        shown = f'"{value}"'
                    where = spans.get(other, generated.get(kind, entity.span))
                    errors.append(
                        Diagnostic(
                            spans.get(name, generated.get(kind, entity.span)),
                            f"{kind}.{f.name} is unique, and '{name}' has {f.name} {shown}, as '{other}' has",
                            f"'{other}' is at {where}: give '{name}' a {f.name} no other {kind} has",
                        )
                    )
        if errors:
            raise GameDefError(errors)

    # ---- tables -------------------------------------------------------------
    def forget_vocabularies(self) -> None:
        """Drop the readers of table cells made so far: components made since may be named."""
        self._vocabularies = {}

    def _vocabulary(self, type_name: str) -> Vocabulary | None:
        """The values a cell of a finite type may name, once every component exists."""
        if type_name not in self._vocabularies:
            values = self.tables.types.get(type_name)
            self._vocabularies[type_name] = (
                None if values is None else Vocabulary(values, self.tables.rt.titles, self.tables.claimed)
            )
        return self._vocabularies[type_name]

    def _removed_rows(self) -> Vocabulary:
        titles = {r.name: r.title for t in self.tables.program.tables for r in t.rows if r.name in t.removed}
        return Vocabulary(tuple(titles), titles)

    def table_values(self, t: LoadedTable) -> None:
        """Each row's properties, read from its cells; every bad cell reported at once."""
        decl = _table(t)
        entity = self.tables.entity_decls[decl.kind]
        types = {f.name: f.type for f in entity.fields}
        types.setdefault("text", ast.NamedType(span=decl.span, name="str"))
        reader = CellReader(t.sheet, self._vocabulary, self._removed_rows(), decl.empty)
        bindings = [
            ColumnBinding(f"{decl.kind}.{c.prop}", c, types[c.prop], {r.text: self.const(r.value) for r in c.readings})
            for c in decl.columns
        ]
        optional = _optional_fields(entity)
        for row in t.live():
            for b in bindings:
                self.tables.fields.setdefault(b.column.prop, {})[row.name] = reader.read(row.row, b)
            for name in optional:  # a property no column gives is none, unless a card gives it
                self.tables.fields.setdefault(name, {}).setdefault(row.name, None)
        reader.problems.check()

    def table_links(self, t: LoadedTable) -> None:
        """The links a `links` file lists, both ways, after the links declared before it."""
        nodes = Vocabulary(
            tuple(self.tables.rt.titles) + tuple(self.tables.rt.coords), self.tables.rt.titles, self.tables.claimed
        )
        added: dict[str, list[str]] = {}
        seen: set[tuple[str, str]] = set()
        members = tuple(m for m, what in self.tables.claimed.items() if what.startswith("a member of"))
        kinds = Vocabulary(members, self.tables.rt.titles, self.tables.claimed)
        for a, b, kind in link_pairs(t, nodes, self._removed_rows(), kinds):
            for x, y in ((a, b), (b, a)):
                if kind is not None:
                    self.tables.rt.link_kind[(x, y)] = kind
                if (x, y) not in seen and y not in self.tables.rt.links.get(x, ()):
                    seen.add((x, y))
                    added.setdefault(x, []).append(y)
        for x, ys in added.items():
            self.tables.rt.links[x] = self.tables.rt.links.get(x, ()) + tuple(ys)

    def variant_allowing(self, name: str, value) -> str | None:
        """A variant not in play that redeclares option `name` with `value` among its choices
        (Wall of China's stacks 4 to 8): where an option error can point."""
        chosen = {v.name for v in self.tables.program.variants}
        for v in self.tables.program.all_variants.values():
            if v.name in chosen:
                continue
            for x in v.decls:
                d = x.decl if isinstance(x, ast.Replace) else x
                if isinstance(d, ast.Option) and d.name == name and d.choices is not None:
                    try:
                        if value in self.const(d.choices):
                            return v.name
                    except GameDefError:
                        continue
        return None

    def _domain(self, t: ast.TypeExpr) -> tuple:
        if isinstance(t, ast.NamedType) and t.name in self.tables.types:
            return self.tables.types[t.name]
        self.tables.fail(t.span, "a map's key must be a finite type (player, an enum, an entity or a grid)")

    def declare_var(self, d: ast.Var) -> None:
        self.tables.claim(d.name, "a variable", d.span)
        default = self.expressions.expr(d.default, Scope())
        levels = []
        t = d.type
        entries = 1
        while isinstance(t, ast.MapType):
            keys = self._domain(t.key)
            levels.append((keys, {k: i for i, k in enumerate(keys)}))
            entries *= max(1, len(keys))
            if entries > MAX_MAP_ENTRIES:
                self.tables.fail(
                    d.span, f"'{d.name}' would have more than {MAX_MAP_ENTRIES:,} entries", "use fewer keys"
                )
            t = t.value
        for keys, _ in reversed(levels):  # every entry starts at the default value
            default = (lambda inner, n: lambda vm, L: (inner(vm, L),) * n)(default, len(keys))
        outer_keys, key_index = levels[0] if levels else (None, None)
        info = VarInfo(d.name, len(self.tables.var_order), outer_keys, key_index, default, d.seen_by, d, tuple(levels))
        self.tables.vars[d.name] = info
        self.tables.var_order.append(info)


# The compile's working state: never part of a compiled game, never in the game cache.


def _cell_name(x: int, y: int) -> str:
    letters = ""
    n = x
    while n > 0:
        n, r = divmod(n - 1, 26)
        letters = chr(97 + r) + letters
    return f"{letters}{y}"


def _optional_fields(entity: ast.Entity) -> list[str]:
    """The properties a component of `entity` may leave out: of an optional type (`T?`),
    they are none where a table's row, a card or a generate does not give them."""
    return [f.name for f in entity.fields if isinstance(f.type, ast.OptionalType)]


def _table(t: LoadedTable) -> ast.DataTable:
    """The declaration of a `table` (not a `links` file), whose rows are components."""
    assert isinstance(t.decl, ast.DataTable)
    return t.decl
