"""Compile a checked program once, at load (docs/architecture.md, principle 8).

The compile is a pipeline of passes (`PASSES`, in order) over one working state, the
`Compiler`; its output is a `CompiledGame` (game.py), the documented structure the
runtime reads and the cache keeps. The compiler itself is thrown away: nothing it
holds for its own work (scopes, counters, the syntax it is walking, pending loops)
reaches the game, and the game cache refuses to store it.

Each pass is a function `(compiler, decls) -> None` whose docstring says what it reads
and what it produces; `Pass.reads` and `Pass.produces` say the same as data, and
tests/test_compiled_game.py checks that a pass changes only what it declares and reads
only what the passes before it produced. The passes build the tables: options, enums,
components and their properties, grids and links, variables with their key domains,
events and their triggers. Expressions become Python functions (expressions.py),
procedure bodies flat step tables (statements.py, blocks.py). Every name is resolved
here, to a slot or a constant, so the playout loop never walks the syntax tree or looks
a name up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.compile import codecache, emit
from interpreter.compile.blocks import BlockCompiler
from interpreter.compile.expressions import ExpressionCompiler, Scope
from interpreter.compile.game import CompiledGame, Runtime, VarInfo, shown_list
from interpreter.compile.modifiers import CompiledModifier, ModifierCompiler, QueryFunction
from interpreter.compile.statements import Code, Handler, StatementCompiler
from interpreter.compile.views import Item, compile_view
from interpreter.core.builtins import DELTA, DIRECTIONS
from interpreter.core.errors import Diagnostic, GameDefError, Span, did_you_mean, explain
from interpreter.core.limits import MAX_COMPONENTS, MAX_MAP_ENTRIES, MAX_NAME, LimitExceeded, no_collection
from interpreter.core.links import ADDED, dynamic_builtins, link_op
from interpreter.language import syntax as ast
from interpreter.language.program import Program
from interpreter.language.tables import Binding, CellReader, LoadedTable, Vocabulary, link_pairs

__all__ = ["PASSES", "CompiledGame", "Compiler", "Pass", "Runtime", "VarInfo", "compile_game", "shown_list"]

RESOLVING = "effects_resolving"  # the cancellable effects now announced, innermost last: cancelled?


def _cell_name(x: int, y: int) -> str:
    letters = ""
    n = x
    while n > 0:
        n, r = divmod(n - 1, 26)
        letters = chr(97 + r) + letters
    return f"{letters}{y}"


class Compiler(ExpressionCompiler, BlockCompiler, StatementCompiler, ModifierCompiler):
    """The compile's working state: the tables being built and what the expression,
    statement, block and modifier compilers (the mixins) keep while they work. Every
    attribute is declared here, in `__init__`; `finish` copies the tables the runtime
    needs into a `CompiledGame`."""

    def __init__(self, program: Program, options: dict[str, Any] | None = None, optimise: bool = True) -> None:
        """`optimise=False` compiles the rules as written: no procedure or def written in
        place of its call, no def turned into a look-up table, no query answered in
        place, no run of statements joined into one generated function; every statement
        is a step of its own. The same game, slower: tests/test_optimisations.py plays
        games both ways and requires the same positions, moves and results."""
        # -- the inputs
        self.program = program
        self.header = program.header
        self.given: dict[str, Any] = dict(options or {})  # the options asked for (checked by `settle_options`)
        self.optimise = optimise
        seats = self.header.seats or tuple(f"p{i}" for i in range(1, self.header.max_players + 1))
        listed = self.header.roles + tuple(r[:2] for r in self.header.option_roles)
        roles = tuple(r for _, names in listed for r in names if r not in seats)
        self.seats = tuple(seats) + tuple(dict.fromkeys(roles))  # role names are seats too
        self.dynamic_links = ast.contains(program.decls, ast.LinkStmt)  # a `link` statement anywhere
        self.cancel_events = {p.cancel_event for p in ast.find_all(program.decls, ast.Perform) if p.cancel_event}
        # -- the tables the passes build (their meanings: CompiledGame's fields)
        self.rt = Runtime()
        self.claimed: dict[str, str] = {}  # every global name -> what it names, to report clashes
        self.types: dict[str, tuple] = {}
        self.constants: dict[str, Any] = {}
        self.options: dict[str, Any] = {}
        self.option_decls: dict[str, ast.Option] = {}
        self.option_choices: dict[str, tuple | None] = {}
        self.entity_decls: dict[str, ast.Entity] = {}
        self.kind_of: dict[str, str] = {}
        self.fields: dict[str, dict[str, Any]] = {}
        self.about: dict[str, str] = {}
        self.event_decls: dict[str, ast.Event] = {}
        self.vars: dict[str, VarInfo] = {}
        self.var_order: list[VarInfo] = []
        self.queries: dict[str, QueryFunction] = {}  # filled by `lay_out_variables`; expressions before it see none
        self.query_decls: dict[str, ast.Query] = {}
        self.query_guards: dict[str, tuple[int, ...]] = {}  # a query -> the slots its answers in place depend on
        self.modifier_list: list[CompiledModifier] = []
        self.expiring: set[str] = set()  # events named by an `until`: their emit ends modifiers
        self.changeable: set[str] = set()  # fields read through a query (`changeable`)
        self.grants_slot: int | None = None
        self.links_slot: int | None = None
        self.cancel_slot: int | None = None
        self.visibility: dict[str, list[tuple[str, Any]]] = {}
        self.short_fns: dict[str, list] = {}
        self.leave_hooks: dict[str, dict[str, Code]] = {}
        self.codes: list[Code] = []
        self.procs: dict[str, Code] = {}
        self.proc_decls: dict[str, ast.Procedure] = {}
        self.defs: dict[str, list] = {}
        self.def_decls: dict[str, ast.Def] = {}
        self.handlers: dict[str, list[Handler]] = {}
        self.slots: dict[tuple[str, str], Code] = {}
        self.choices: list[tuple] = []
        self.choice_spans: list[Span | None] = []
        self.formats: list[tuple] = []
        self.format_spans: list[Span] = []
        self.headline_formats: set[int] = set()
        self.uses_chance = False
        self.blocks: list[tuple] = []
        self.payoff: tuple | None = None
        self.estimate: tuple | None = None
        self.invariants: list[tuple] = []
        self.view: tuple[Item, ...] = ()
        # -- the statement compiler's state while it compiles one body (statements.py)
        self._code: Code | None = None
        self._where: Any = None
        self._loops: list[list[int]] = []
        self._returns: list[tuple] = []
        self._inline_stack: list[str] = []
        self._merge_at: tuple[Code, int] | None = None  # where a body written in place joins its caller
        # -- the components pass's readers of table cells
        self._vocabularies: dict[str, Vocabulary | None] = {}
        self._init_expressions()  # the expression compiler's own state (expressions.py)

    def run(self, passes: tuple[Pass, ...] | None = None) -> Compiler:
        """Run `passes` (all of them by default) in order; the compiled code they make is
        kept by codecache for the next compile of the same rules and options."""
        decls = self.program.decls
        with codecache.loading(f"{self.program.rules_hash} {sorted(self.given.items())!r}"):
            for step in PASSES if passes is None else passes:
                step.run(self, decls)
        return self

    def finish(self) -> CompiledGame:
        """The last pass: the tables the runtime reads, as a `CompiledGame`. Reads every
        table the passes produced; produces the compiled game (the compiler is not in it)."""
        enums = tuple(
            k for k, members in self.types.items() if members and self.claimed.get(members[0], "") == f"a member of {k}"
        )
        return CompiledGame(
            program=self.program,
            header=self.header,
            optimised=self.optimise,
            seats=self.seats,
            options=self.options,
            option_decls=self.option_decls,
            option_choices=self.option_choices,
            types=self.types,
            enums=enums,
            constants=self.constants,
            kind_of=self.kind_of,
            entity_decls=self.entity_decls,
            fields=self.fields,
            about=self.about,
            rt=self.rt,
            visibility=self.visibility,
            short_fns=self.short_fns,
            vars=self.vars,
            var_order=self.var_order,
            grants_slot=self.grants_slot,
            links_slot=self.links_slot,
            cancel_slot=self.cancel_slot,
            ns=self.ns,
            codes=self.codes,
            procs=self.procs,
            defs=self.defs,
            def_decls=self.def_decls,
            queries=self.queries,
            modifier_list=self.modifier_list,
            slots=self.slots,
            handlers=self.handlers,
            event_decls=self.event_decls,
            leave_hooks=self.leave_hooks,
            choices=self.choices,
            choice_spans=self.choice_spans,
            formats=self.formats,
            format_spans=self.format_spans,
            headline_formats=self.headline_formats,
            uses_chance=self.uses_chance,
            blocks=self.blocks,
            payoff=self.payoff,
            estimate=self.estimate,
            invariants=self.invariants,
            view=self.view,
        )

    # ---- errors -------------------------------------------------------------

    def _about(self, d: ast.About) -> None:
        """`about NAME "..."`: kept for `cards` and `about`; NAME must be a component or an
        enum member (a misspelt name would otherwise leave its text unseen)."""
        what = self.claimed.get(d.name, "")
        if not (what.startswith("a member of") or d.name in self.rt.titles and not what.startswith("a seat")):
            from interpreter.core.errors import did_you_mean

            known = [n for n in self.rt.titles if not self.claimed.get(n, "").startswith("a seat")]
            self.fail(
                d.span,
                f"`about {d.name}`: nothing called '{d.name}' is a component or an enum member",
                did_you_mean(d.name, known) or "name a card, a component of a table, or an enum member",
            )
        if d.name in self.about:
            self.fail(d.span, f"'{d.name}' has two `about` texts", "keep one (a variant replaces it with `replace`)")
        self.about[d.name] = d.text

    def fail(self, span: Span, message: str, hint: str | None = None):
        raise GameDefError([Diagnostic(span, message, hint)])

    def claim(self, name: str, what: str, span: Span) -> None:
        """Give a global name its one meaning: a seat, a cell, a component, an enum
        member, a variable, a function... A second meaning would silently shadow the
        first (`grid Cell 16 by 1` would make the seat `p1` a cell), so it is an error."""
        other = self.claimed.get(name)
        if other is not None and other != what:
            self.fail(span, f"'{name}' names both {other} and {what}", "rename one of them: names are global")
        self.claimed[name] = what

    def loaded(self, span: Span, compute):
        """`compute()` run at load; a rule error or a limit there is a diagnostic at `span`."""
        try:
            return compute()
        except GameDefError:
            raise
        except Exception as exc:
            hint = exc.hint if isinstance(exc, LimitExceeded) else None
            message = exc.message if isinstance(exc, LimitExceeded) else explain(exc)
            self.fail(span, f"cannot compute this at load: {message}", hint)

    # ---- tables -------------------------------------------------------------
    def _links_var(self) -> None:
        """A game that adds links in play keeps them in a variable; see links.py."""
        if not self.dynamic_links:
            return
        span = self.header.span
        any_list = ast.ListType(span=span, element=ast.NamedType(span=span, name="any"))
        self._var(
            ast.Var(span=span, name=ADDED, type=any_list, default=ast.ListLit(span=span, items=()), seen_by="all")
        )
        self.links_slot = self.vars[ADDED].slot
        for name, f in dynamic_builtins(self.rt, self.links_slot).items():
            self.ns[f"_dl_{name}"] = f

    def _s_LinkStmt(self, s: ast.LinkStmt, scope) -> None:
        a, b = self.expr(s.a, scope), self.expr(s.b, scope)
        if s.kind is not None and not self.claimed.get(s.kind, "").startswith("a member of"):
            self.fail(s.span, f"'{s.kind}' is not an enum member: a link's kind is one", "enum LinkKind { land, sea }")
        self._emit(link_op(self.links_slot, a, b, s.kind, self._here() + 1), s.span)

    def _compile_behaviour(self, d) -> None:
        if isinstance(d, ast.Def):
            self._compile_def(d)
        elif isinstance(d, ast.Query):
            self._compile_query(d)
        elif isinstance(d, ast.StaticModifier):
            self._static_modifier(d, None)
        elif isinstance(d, ast.Procedure):
            self._body(self.procs[d.name], [p.name for p in d.params], d.body)
        elif isinstance(d, ast.Trigger):
            self._trigger(d, None)
        else:
            for t in d.triggers:
                self._trigger(t, d.name)
            for m in d.statics:
                self._static_modifier(m, d.name)
            for hook in d.leaves:
                self._body(self.leave_hooks[hook.var][d.name], ["self"], hook.body)
            for slot_name, body, span, params in d.slots:
                code = self._new_code(f"{d.name}.{slot_name}", span)
                self._body(code, ["self"] + [p.name for p in params], body)
                self.slots[(d.name, slot_name)] = code

    def _check_option_type(self, d: ast.Option, value) -> None:
        t = d.type.name if isinstance(d.type, ast.NamedType) else None
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "str": isinstance(value, str),
        }.get(t, value in self.types.get(t, ()) if t else True)
        if not ok:
            allowed = (
                {"int": "a whole number", "bool": "true or false", "str": "a text"}.get(
                    t, "one of " + ", ".join(map(str, self.types.get(t, ())))
                )
                if t
                else "a value"
            )
            choices = [str(x) for x in self.types.get(t, ())] if t else []
            default = self._const(d.default)  # the checker has already checked it
            example = f"for example --option {d.name}={str(default).lower() if isinstance(default, bool) else default}"
            self.fail(
                _argument("option", d.name, value),
                f"option '{d.name}' must be {allowed}, not {value!r}",
                did_you_mean(str(value), choices) or example,
            )

    def _const(self, e: ast.Expr):
        return self.loaded(e.span, lambda: self.expr(e, Scope())(self.load_vm, []))

    def _grid(self, d: ast.Grid) -> None:
        cols, rows = self._const(d.columns), self._const(d.rows)
        if not (isinstance(cols, int) and isinstance(rows, int) and cols > 0 and rows > 0):
            self.fail(d.span, f"a grid needs a positive number of columns and rows, not {cols!r} by {rows!r}")
        if cols * rows + len(self.rt.coords) + len(self.kind_of) > MAX_COMPONENTS:
            self.fail(
                d.span,
                f"a grid of {cols} by {rows} is past the limit of {MAX_COMPONENTS:,} cells and components",
                "a board game's grid has at most a few hundred cells",
            )
        cells = []
        prefix = "" if not any(k[0] != d.name for k in self.rt.cell_at) else f"{d.name.lower()}_"
        for y in range(1, rows + 1):
            for x in range(1, cols + 1):
                name = prefix + _cell_name(x, y)  # a second grid's cells: track_a1, ...
                cells.append(name)
                self.claim(name, f"a cell of {d.name}", d.span)
                self.rt.coords[name] = (x, y)
                self.rt.cell_at[(d.name, x, y)] = name
                self.constants[name] = name
        for direction in DIRECTIONS:  # the directions name something only where there is a grid
            self.claim(direction, "a Direction", d.span)
        for name in cells:
            x, y = self.rt.coords[name]
            near = []
            for direction in DIRECTIONS:
                dx, dy = DELTA[direction]
                other = self.rt.cell_at.get((d.name, x + dx, y + dy))
                if other is not None:
                    self.rt.step[(name, direction)] = other
                    near.append(other)
            self.rt.links[name] = tuple(near)
        self.types[d.name] = tuple(cells)
        self.constants[d.name] = d.name

    def _add_entity(self, kind: str, name: str, title: str, values: dict, span: Span) -> None:
        if name in self.kind_of:
            self.fail(span, f"two components are named '{name}'", "names must be unique")
        if not isinstance(name, str) or not name:
            self.fail(span, f"a component's name must be a text, not {name!r}")
        if len(self.kind_of) + len(self.rt.coords) >= MAX_COMPONENTS:
            self.fail(span, f"more than {MAX_COMPONENTS:,} components", "a game needs far fewer: check the ranges")
        self.claim(name, f"a {kind}", span)
        self.kind_of[name] = kind
        self.constants[name] = name
        self.rt.titles[name] = title
        self.types[kind] = self.types.get(kind, ()) + (name,)
        for f, v in values.items():
            self.fields.setdefault(f, {})[name] = v

    def _table_kinds(self, t: LoadedTable) -> set[str]:
        """The types a table's cells name values of (the kinds its properties hold)."""
        types = {f.name: f.type for f in self.entity_decls[t.decl.kind].fields}
        out: set[str] = set()
        for c in t.decl.columns:
            if c.prop in types:
                out.update(n.name for n in ast.find_all(types[c.prop], ast.NamedType))
        return out

    def _generate(self, d: ast.Generate, waiting: list[LoadedTable] = (), later: set[str] = frozenset()) -> None:
        """One component per combination of the loops. `waiting` are the tables whose
        values are read after it, since their cells name components of `later` (kinds a
        generate makes): a generate reading one of them is an error that says so."""
        if d.kind not in self.entity_decls:
            self.fail(d.span, f"unknown entity '{d.kind}'")
        reads = {m.name for m in ast.find_all(d, ast.Member)}
        late = {c.prop: t for t in reversed(waiting) for c in t.decl.columns if c.prop in reads}

        def too_early(prop: str, t: LoadedTable):
            kinds = " and ".join(sorted(self._table_kinds(t) & later))
            self.fail(
                d.span,
                f"this generate reads {t.decl.kind}.{prop}, which table {t.decl.kind} ({t.decl.span}) gives only "
                f"after the generates, since its cells name {kinds} components",
                f"a generate cannot read a table whose cells name the components it makes: write {prop} in "
                "the generate, or read it from another table",
            )

        for prop, t in late.items():
            if prop not in self.fields:  # no component has it yet: the read could not compile
                too_early(prop, t)
        names = [n for n, _ in d.iterators]
        scope = Scope(names)
        at_load = self.load_vm  # components exist before a game starts: every seat, no variables
        # A loop's list may use the loops before it (`level in 1..5, pos in 1..6 - level`).
        domains = [self.expr(e, Scope(names[:i])) for i, (_, e) in enumerate(d.iterators)]
        name_fn = self.expr(d.name_template, scope)
        value_fns = {fv.name: self.expr(fv.value, scope) for fv in d.values}
        optional = _optional_fields(self.entity_decls[d.kind])

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
                    self.fail(d.span, f"a component's name has {len(name):,} characters; the limit is {MAX_NAME}")
                values = {f: fn(at_load, combo) for f, fn in value_fns.items()}
                # Every component has a title and a text, and none for an optional property not given.
                values.setdefault("title", name)
                values.setdefault("text", "")
                for f in optional:
                    values.setdefault(f, None)
                self._add_entity(d.kind, name, name, values, d.span)

        def make_all_or_explain():
            try:
                make_all()
            except KeyError as exc:  # a property of a row whose table is read later
                row = exc.args[0] if exc.args else None
                for prop, t in late.items():
                    if any(r.name == row for r in t.rows):
                        too_early(prop, t)
                raise

        self.loaded(d.span, make_all_or_explain)

    def _card_props(self, d: ast.Card) -> None:
        values = {fv.name: self._const(fv.value) for fv in d.props}
        if d.extends is not None:  # a table's row: the table made the component
            if d.has_text:
                values["text"] = d.text
            for f, v in values.items():
                self.fields.setdefault(f, {})[d.name] = v
            return
        values["title"] = d.title
        values["text"] = d.text
        entity = self.entity_decls.setdefault(d.kind, ast.Entity(span=d.span, name=d.kind, fields=(), short=None))
        for f in _optional_fields(entity):  # an optional property the card does not give is none, as in a table
            values.setdefault(f, None)
        self._add_entity(d.kind, d.name, d.title, values, d.span)

    # ---- tables -------------------------------------------------------------
    def _vocabulary(self, type_name: str) -> Vocabulary | None:
        """The values a cell of a finite type may name, once every component exists."""
        if type_name not in self._vocabularies:
            values = self.types.get(type_name)
            self._vocabularies[type_name] = None if values is None else Vocabulary(values, self.rt.titles, self.claimed)
        return self._vocabularies[type_name]

    def _removed_rows(self) -> Vocabulary:
        titles = {r.name: r.title for t in self.program.tables for r in t.rows if r.name in t.removed}
        return Vocabulary(tuple(titles), titles)

    def _table_values(self, t: LoadedTable) -> None:
        """Each row's properties, read from its cells; every bad cell reported at once."""
        decl = t.decl
        entity = self.entity_decls[decl.kind]
        types = {f.name: f.type for f in entity.fields}
        types.setdefault("text", ast.NamedType(span=decl.span, name="str"))
        reader = CellReader(t.sheet, self._vocabulary, self._removed_rows(), decl.empty)
        bindings = [
            Binding(f"{decl.kind}.{c.prop}", c, types[c.prop], {r.text: self._const(r.value) for r in c.readings})
            for c in decl.columns
        ]
        optional = _optional_fields(entity)
        for row in t.live():
            for b in bindings:
                self.fields.setdefault(b.column.prop, {})[row.name] = reader.read(row.row, b)
            for name in optional:  # a property no column gives is none, unless a card gives it
                self.fields.setdefault(name, {}).setdefault(row.name, None)
        reader.problems.check()

    def _table_links(self, t: LoadedTable) -> None:
        """The links a `links` file lists, both ways, after the links declared before it."""
        nodes = Vocabulary(tuple(self.rt.titles) + tuple(self.rt.coords), self.rt.titles, self.claimed)
        added: dict[str, list[str]] = {}
        seen: set[tuple[str, str]] = set()
        members = tuple(m for m, what in self.claimed.items() if what.startswith("a member of"))
        kinds = Vocabulary(members, self.rt.titles, self.claimed)
        for a, b, kind in link_pairs(t, nodes, self._removed_rows(), kinds):
            for x, y in ((a, b), (b, a)):
                if kind is not None:
                    self.rt.link_kind[(x, y)] = kind
                if (x, y) not in seen and y not in self.rt.links.get(x, ()):
                    seen.add((x, y))
                    added.setdefault(x, []).append(y)
        for x, ys in added.items():
            self.rt.links[x] = self.rt.links.get(x, ()) + tuple(ys)

    def _variant_allowing(self, name: str, value) -> str | None:
        """A variant not in play that redeclares option `name` with `value` among its choices
        (Wall of China's stacks 4 to 8): where an option error can point."""
        chosen = {v.name for v in self.program.variants}
        for v in self.program.all_variants.values():
            if v.name in chosen:
                continue
            for x in v.decls:
                d = x.decl if isinstance(x, ast.Replace) else x
                if isinstance(d, ast.Option) and d.name == name and d.choices is not None:
                    try:
                        if value in self._const(d.choices):
                            return v.name
                    except GameDefError:
                        continue
        return None

    def _domain(self, t: ast.TypeExpr) -> tuple:
        if isinstance(t, ast.NamedType) and t.name in self.types:
            return self.types[t.name]
        self.fail(t.span, "a map's key must be a finite type (player, an enum, an entity or a grid)")

    def _var(self, d: ast.Var) -> None:
        self.claim(d.name, "a variable", d.span)
        default = self.expr(d.default, Scope())
        levels = []
        t = d.type
        entries = 1
        while isinstance(t, ast.MapType):
            keys = self._domain(t.key)
            levels.append((keys, {k: i for i, k in enumerate(keys)}))
            entries *= max(1, len(keys))
            if entries > MAX_MAP_ENTRIES:
                self.fail(d.span, f"'{d.name}' would have more than {MAX_MAP_ENTRIES:,} entries", "use fewer keys")
            t = t.value
        for keys, _ in reversed(levels):  # every entry starts at the default value
            default = (lambda inner, n: lambda vm, L: (inner(vm, L),) * n)(default, len(keys))
        keys, key_index = levels[0] if levels else (None, None)
        info = VarInfo(d.name, len(self.var_order), keys, key_index, default, d.seen_by, d, tuple(levels))
        self.vars[d.name] = info
        self.var_order.append(info)

    def _new_code(self, name: str, span: Span) -> Code:
        code = Code(len(self.codes), name, span)
        self.codes.append(code)
        return code


# ---- the passes, in the order `PASSES` runs them ------------------------------


def name_seats(c: Compiler, decls: tuple) -> None:
    """Seats and directions: names every other phase may use.

    Reads: nothing. Produces: `types`, `constants`, `claimed`, `rt`.
    """
    c.types["player"] = c.seats
    for seat in c.seats:
        c.claim(seat, "a seat", c.header.span)
        c.constants[seat] = seat
    # Seats' titles are kept apart from the components' titles, which table cells name.
    c.rt.seat_titles.update(c.header.seat_titles)
    c.types["Direction"] = DIRECTIONS
    for d in DIRECTIONS:
        c.constants[d] = d


def name_enums(c: Compiler, decls: tuple) -> None:
    """Enum members: global names, with their titles.

    Reads: nothing. Produces: `types`, `constants`, `claimed`, `rt`.
    """
    for d in decls:
        if isinstance(d, ast.Enum):
            c.types[d.name] = tuple(m.name for m in d.members)
            for m in d.members:
                c.claim(m.name, f"a member of {d.name}", m.span)
                c.constants[m.name] = m.name
                c.rt.titles[m.name] = m.title


def settle_options(c: Compiler, decls: tuple) -> None:
    """The options in force: the given values (checked against the declared type and
    choices; an unknown option names the variant that declares it) or the defaults.

    Reads: `types`, `rt`, `constants`, `defs`, `vars`, `queries`. Produces:
    `option_decls`, `options`, `option_choices`, `claimed`, `ns`.
    """
    for d in decls:
        if isinstance(d, ast.Option):
            c.option_decls[d.name] = d
    unknown = set(c.given) - set(c.option_decls)
    for name in sorted(unknown):
        declaring = [
            v.name
            for v in c.program.all_variants.values()
            if any(isinstance(x, ast.Option) and x.name == name for x in v.decls)
        ]
        c.fail(
            _argument("option", name, c.given[name]),
            f"unknown option '{name}'",
            (f"the variant {declaring[0]} declares it: add --variant {declaring[0]}" if declaring else None)
            or did_you_mean(name, c.option_decls)
            or (
                "options: " + ", ".join(c.option_decls)
                if c.option_decls
                else "this game (with these variants) has no options"
            ),
        )
    for name, d in c.option_decls.items():
        if name in c.given:
            c._check_option_type(d, c.given[name])
        value = c.given[name] if name in c.given else c._const(d.default)
        c.claim(name, "an option", d.span)
        allowed = None  # any value of its type
        if d.choices is not None:
            allowed = c._const(d.choices)
            if not isinstance(allowed, tuple):
                c.fail(d.choices.span, "an option's choices must be a list or a range")
            if value not in allowed:
                opening = c._variant_allowing(name, value)
                c.fail(
                    _argument("option", name, value) if name in c.given else d.span,
                    f"option '{name}' = {value!r} is not allowed",
                    f"choose from {c.rt.display(tuple(allowed))}"
                    + (f", or add --variant {opening}, which allows it" if opening else ""),
                )
        c.options[name] = value
        c.option_choices[name] = allowed


def make_components(c: Compiler, decls: tuple) -> None:
    """Grids, entities, defs' names, then the components: table rows first (cards and
    generates may name them), cards' properties, generated components, and the tables'
    values, each read as soon as the components its cells name exist.

    Reads: `options`, `queries`, `vars`. Produces: `entity_decls`, `types`, `def_decls`,
    `defs`, `claimed`, `kind_of`, `constants`, `rt`, `fields`, `ns`.
    """
    for d in decls:
        if isinstance(d, ast.Grid):
            c._grid(d)
        elif isinstance(d, ast.Entity):
            c.entity_decls[d.name] = d
            c.types[d.name] = ()
    for d in decls:
        if isinstance(d, ast.Def):
            c.claim(d.name, "a function", d.span)
            c.def_decls[d.name] = d
            c.defs[d.name] = [None]
    for t in c.program.tables:
        if isinstance(t.decl, ast.Table):  # rows first: cards and generate may name them
            for row in t.live():
                c._add_entity(t.decl.kind, row.name, row.title, {"title": row.title, "text": ""}, row.span)
    for d in decls:
        if isinstance(d, ast.Card):
            c._card_props(d)
    c._vocabularies = {}
    generates = [d for d in decls if isinstance(d, ast.Generate)]
    waiting = [t for t in c.program.tables if isinstance(t.decl, ast.Table)]
    for i, d in enumerate(generates):
        # A table's values are read before a generate, so that it may read them
        # (`n in 1..t.count`), unless its cells name components a generate still makes.
        later = {g.kind for g in generates[i:]}
        ready = [t for t in waiting if not c._table_kinds(t) & later]
        for t in ready:
            c._table_values(t)
        waiting = [t for t in waiting if t not in ready]
        c._generate(d, waiting, later)
    for t in waiting:
        c._table_values(t)


def link_map_and_events(c: Compiler, decls: tuple) -> None:
    """The links of the map (written and from tables) and the events.

    Reads: `claimed`. Produces: `rt`, `event_decls`.
    """
    for d in decls:
        if isinstance(d, ast.Link):
            if d.kind is not None and not c.claimed.get(d.kind, "").startswith("a member of"):
                c.fail(d.span, f"'{d.kind}' is not an enum member: a link's kind is one", "enum LinkKind { land, sea }")
            for other in d.others:
                for a, b in ((d.node, other), (other, d.node)):
                    if b not in c.rt.links.get(a, ()):
                        c.rt.links[a] = c.rt.links.get(a, ()) + (b,)
                    if d.kind is not None:
                        c.rt.link_kind[(a, b)] = d.kind
        elif isinstance(d, ast.Links):
            c._table_links(next(t for t in c.program.tables if t.decl is d))
        elif isinstance(d, ast.Event):
            c.event_decls[d.name] = d


def gather_abouts(c: Compiler, decls: tuple) -> None:
    """What each component or enum member does, in a line: `about NAME "..."`, or an
    entity's `about: str` field (a table column). Once every component is made.

    Reads: `claimed`, `fields`, `rt`. Produces: `about`.
    """
    for d in decls:
        if isinstance(d, ast.About):
            c._about(d)
    for name, text in c.fields.get("about", {}).items():
        if isinstance(text, str) and text:
            c.about.setdefault(name, text)


def lay_out_variables(c: Compiler, decls: tuple) -> None:
    """Queries, then the variables (whose defaults may ask them), the built-in
    variables for grants, added links and cancelled effects, and the queries' guards.

    Reads: `types`, `constants`, `options`, `fields`, `defs`, `rt`. Produces: `queries`,
    `query_decls`, `query_guards`, `modifier_list`, `expiring`, `changeable`,
    `grants_slot`, `links_slot`, `cancel_slot`, `vars`, `var_order`, `claimed`, `ns`.
    """
    c._init_queries(decls)
    for d in decls:
        if isinstance(d, ast.Var):
            c._var(d)
    c._grants_var()
    c._links_var()
    c._query_guards(decls)
    if c.cancel_events or ast.contains(c.program.decls, ast.Cancel):
        # effects about to resolve, innermost last: True once cancelled
        span = c.header.span
        any_list = ast.ListType(span=span, element=ast.NamedType(span=span, name="bool"))
        empty = ast.ListLit(span=span, items=())
        c._var(ast.Var(span=span, name=RESOLVING, type=any_list, default=empty, seen_by="all"))
        c.cancel_slot = c.vars[RESOLVING].slot


def compile_visibility(c: Compiler, decls: tuple) -> None:
    """Each entity's field visibility rules and its short form (how a board shows it).

    Reads: `entity_decls`, `types`, `constants`, `options`, `fields`, `defs`, `vars`,
    `queries`, `changeable`. Produces: `visibility`, `short_fns`, `ns`.
    """
    for name, ent in c.entity_decls.items():
        rules = []
        c._self_fields = {f.name for f in ent.fields}
        for f in ent.fields:
            if f.hidden:
                rules.append((f.name, lambda vm, L: False))
            elif f.visible is not None:
                rules.append((f.name, c.expr(f.visible, Scope(["self", "viewer"]))))
        c.visibility[name] = rules
        if ent.short is not None:
            c._short_mode = True
            c.short_fns[name] = [p if isinstance(p, str) else c.expr(p, Scope(["self"])) for p in ent.short.parts]
            c._short_mode = False
        c._self_fields = set()


def compile_behaviour(c: Compiler, decls: tuple) -> None:
    """Procedures (their code slots first, so calls between them resolve), then every
    def, query, modifier, procedure body, trigger and card slot; then the queries
    specialised for the modifiers that may be in force.

    Reads: `types`, `constants`, `options`, `fields`, `rt`, `def_decls`, `vars`,
    `event_decls`, `leave_hooks`, `query_decls`, `query_guards`, `changeable`,
    `grants_slot`, `links_slot`, `cancel_slot`. Produces: `procs`, `proc_decls`,
    `codes`, `defs`, `queries`, `modifier_list`, `expiring`, `handlers`, `slots`,
    `choices`, `choice_spans`, `formats`, `format_spans`, `headline_formats`,
    `uses_chance`, `blocks`, `ns`.
    """
    for d in decls:
        if isinstance(d, ast.Procedure):
            c.procs[d.name] = c._new_code(d.name, d.span)
            c.proc_decls[d.name] = d
            if d.result is not None:  # the slot after the parameters: where its value goes
                c.procs[d.name].result_slot = len(d.params)
    for d in decls:
        if isinstance(d, ast.Def | ast.Query | ast.StaticModifier | ast.Procedure | ast.Trigger | ast.Card):
            try:
                c._compile_behaviour(d)
            except LimitExceeded as exc:  # generated code past what Python compiles
                c.fail(d.span, exc.message, exc.hint)
    c._specialise_queries()


def compile_payoff_and_view(c: Compiler, decls: tuple) -> None:
    """The payoff, the view, and the one procedure a game must have: `play()`.

    Reads: `types`, `constants`, `options`, `fields`, `defs`, `def_decls`, `vars`,
    `queries`, `query_decls`, `query_guards`, `changeable`, `procs`. Produces: `payoff`,
    `estimate`, `invariants`, `view`, `ns`.
    """
    payoffs = [d for d in decls if isinstance(d, ast.Payoff)]
    if payoffs:
        p = payoffs[0]
        c.payoff = (c.expr(p.value, Scope([p.var])), p.low, p.high, p.total, p.span)
    # (the rule it cites, closure, span) of each `invariant`: checked on a state's load
    c.invariants = [(d.text, c.expr(d.value, Scope()), d.span) for d in decls if isinstance(d, ast.Invariant)]
    estimates = [d for d in decls if isinstance(d, ast.Estimate)]
    if estimates:
        e = estimates[0]
        low, high = (e.low, e.high) if e.low is not None else (c.payoff[1:3] if c.payoff else (-1, 1))
        c.estimate = (c.expr(e.value, Scope([e.var])), low, high, e.span)
    views = [d for d in decls if isinstance(d, ast.View)]
    if len(views) > 1:
        c.fail(views[1].span, "a game has one view", "merge the two, or `replace view { ... }` in a variant")
    c.view = compile_view(c, views[0]) if views else ()
    if "play" not in c.procs:
        c.fail(
            c.header.span,
            "the game has no `procedure play()`",
            "add `procedure play() { ... }`: the turn structure of the game",
        )


def compile_leave_hooks(c: Compiler, decls: tuple) -> None:
    """`when self leaves L` hooks, by list variable and card. An assignment to a
    watched variable compares the list before and after and pushes the hook of each
    card that left it, to run right after that step.

    Reads: nothing. Produces: `leave_hooks`, `codes`, `ns`.
    """
    for d in decls:
        if isinstance(d, ast.Card):
            for hook in d.leaves:
                code = c._new_code(f"when {d.name} leaves {hook.var}", hook.span)
                c.leave_hooks.setdefault(hook.var, {})[d.name] = code
    for var, hooks in c.leave_hooks.items():
        c.ns[f"_left_{var}"] = _leaver(hooks)


@attrs.frozen
class Pass:
    """One step of the compile: `run(compiler, decls)` reads the tables named in `reads`
    (made by the passes before it, or the compiler's inputs: the program, its header,
    the options asked for, the seats) and builds or adds to those in `produces`."""

    name: str
    run: Callable[[Compiler, tuple], None]
    reads: tuple[str, ...]
    produces: tuple[str, ...]


INPUTS = ("program", "header", "given", "optimise", "seats", "dynamic_links", "cancel_events")  # set by __init__

PASSES: tuple[Pass, ...] = (
    Pass("seats", name_seats, (), ("types", "constants", "claimed", "rt")),
    Pass("enums", name_enums, (), ("types", "constants", "claimed", "rt")),
    Pass(
        "options",
        settle_options,
        ("types", "rt", "constants", "defs", "vars", "queries"),
        ("option_decls", "options", "option_choices", "claimed", "ns"),
    ),
    Pass(
        "components",
        make_components,
        ("options", "queries", "vars"),
        ("entity_decls", "types", "def_decls", "defs", "claimed", "kind_of", "constants", "rt", "fields", "ns"),
    ),
    Pass("map and events", link_map_and_events, ("claimed",), ("rt", "event_decls")),
    Pass("abouts", gather_abouts, ("claimed", "fields", "rt"), ("about",)),
    Pass(
        "variables",
        lay_out_variables,
        ("types", "constants", "options", "fields", "defs", "rt"),
        (
            "queries",
            "query_decls",
            "query_guards",
            "modifier_list",
            "expiring",
            "changeable",
            "grants_slot",
            "links_slot",
            "cancel_slot",
            "vars",
            "var_order",
            "claimed",
            "ns",
        ),
    ),
    Pass(
        "visibility",
        compile_visibility,
        ("entity_decls", "types", "constants", "options", "fields", "defs", "vars", "queries", "changeable"),
        ("visibility", "short_fns", "ns"),
    ),
    Pass("leave hooks", compile_leave_hooks, (), ("leave_hooks", "codes", "ns")),
    Pass(
        "behaviour",
        compile_behaviour,
        (
            "types",
            "constants",
            "options",
            "fields",
            "rt",
            "def_decls",
            "vars",
            "event_decls",
            "leave_hooks",
            "query_decls",
            "query_guards",
            "changeable",
            "grants_slot",
            "links_slot",
            "cancel_slot",
        ),
        (
            "procs",
            "proc_decls",
            "codes",
            "defs",
            "queries",
            "modifier_list",
            "expiring",
            "handlers",
            "slots",
            "choices",
            "choice_spans",
            "formats",
            "format_spans",
            "headline_formats",
            "uses_chance",
            "blocks",
            "ns",
        ),
    ),
    Pass(
        "payoff and view",
        compile_payoff_and_view,
        (
            "types",
            "constants",
            "options",
            "fields",
            "defs",
            "def_decls",
            "vars",
            "queries",
            "query_decls",
            "query_guards",
            "changeable",
            "procs",
        ),
        ("payoff", "estimate", "invariants", "view", "ns"),
    ),
)
OPTIONS_ONLY = PASSES[:3]  # as far as the options: what `gamedef list` and `info` show


def compile_game(
    program: Program, options: dict[str, Any] | None = None, *, options_only: bool = False, optimise: bool = True
) -> CompiledGame:
    """The compiled game of a checked program with these options: every pass, then
    `finish`. `options_only`: stop once the options are known (their values, choices
    and descriptions), for `gamedef list` and `info`, which show them for every variant
    and need nothing else (a whole compile of each would take seconds); the tables past
    the options are then empty. See `Compiler` for `optimise`.

    With Python's cycle collector held off (as `load_game` holds it off around the
    whole load): the compile makes hundreds of thousands of tree nodes, each of which
    counts towards the next collection, and none of them in a cycle; a collection would
    walk every object of the program for nothing (about a sixth of The Wall is Down's
    compile, for the LSP's re-checks and any caller of this function directly)."""
    with no_collection():
        compiler = Compiler(program, options, optimise)
        try:
            return compiler.run(OPTIONS_ONLY if options_only else None).finish()
        finally:
            emit.forget()  # the texts the emitter kept for the last tree: no tree outlives the compile


def _leaver(hooks: dict[str, Code]):
    """The function run after an assignment to a watched list: each card with a hook that
    was in the old list and is not in the new one gets its hook pushed, in list order."""

    def left(vm, old, new):
        if old is new:
            return
        gone = [c for c in old if c in hooks and c not in new]
        for c in reversed(gone):
            code = hooks[c]
            vm.push([code, 0, [c] + [None] * (code.nlocals - 1)])

    return left


def _argument(flag: str, name: str, value=None) -> Span:
    """Where a mistake in a command-line argument is reported: the argument itself
    (`--option ground=left: error: ...`), not a line of a file the user did not write."""
    shown = name if value is None else f"{name}={str(value).lower() if isinstance(value, bool) else value}"
    return Span(f"--{flag} {shown}", 0, 0)


def _optional_fields(entity: ast.Entity) -> list[str]:
    """The properties a component of `entity` may leave out: of an optional type (`T?`),
    they are none where a table's row, a card or a generate does not give them."""
    return [f.name for f in entity.fields if isinstance(f.type, ast.OptionalType)]
