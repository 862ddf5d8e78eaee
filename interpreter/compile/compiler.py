"""Compile a checked program once, at load (docs/architecture.md, principle 8).

The compile is a pipeline of passes (`PASSES`, in order) over one working state, the
`Compiler`; its output is a `CompiledGame` (compiled.py), the documented structure the
runtime reads and the cache keeps. The compiler itself is thrown away: nothing it
holds for its own work (scopes, counters, the syntax it is walking, pending loops)
reaches the game, and the game cache refuses to store it.

Each pass is a function `(compiler, decls) -> None` whose docstring says what it reads
and what it produces; `Pass.reads` and `Pass.produces` say the same as data, and
tests/compile/test_compiled_game.py checks that a pass changes only what it declares and reads
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

from interpreter.check.symbols import SymbolTable
from interpreter.compile import codecache
from interpreter.compile.blocks import BlockCompiler
from interpreter.compile.compiled import CompiledGame, Runtime, VarInfo, shown_list
from interpreter.compile.declarations import DeclarationCompiler, argument_span
from interpreter.compile.expressions import ExpressionCompiler
from interpreter.compile.modifiers import ModifierCompiler
from interpreter.compile.passtables import INPUTS, PassTables
from interpreter.compile.scope import Scope
from interpreter.compile.statements import StatementCompiler
from interpreter.compile.steps import Code
from interpreter.compile.views import compile_view
from interpreter.core.builtins import DIRECTIONS
from interpreter.core.errors import did_you_mean
from interpreter.core.limits import LimitExceeded, no_collection
from interpreter.language import syntax as ast
from interpreter.language.program import Program

__all__ = [
    "INPUTS",
    "PASSES",
    "WORKING_STATE",
    "CompiledGame",
    "Compiler",
    "Pass",
    "PassTables",
    "Runtime",
    "VarInfo",
    "compile_game",
    "shown_list",
]

RESOLVING = "effects_resolving"  # the cancellable effects now announced, innermost last: cancelled?


class Compiler:
    """The compile's working state: the shared tables (passtables.py) and the four compilers
    that fill them, each holding only its own working state and the collaborators it
    calls, given when it is made (expressions first, statements last). The passes
    (`PASSES`) drive them; `finish` copies the tables the runtime needs into a
    `CompiledGame`. Nothing here reaches the compiled game, and the game cache refuses
    to store any of it (`WORKING_STATE`)."""

    def __init__(
        self,
        program: Program,
        options: dict[str, Any] | None = None,
        optimise: bool = True,
        symbols: SymbolTable | None = None,
    ) -> None:
        """`optimise=False` compiles the rules as written: no procedure or def written in
        place of its call, no def turned into a look-up table, no query answered in
        place, no run of statements joined into one generated function; every statement
        is a step of its own. The same game, slower: tests/compile/test_optimisations.py plays
        games both ways and requires the same positions, moves and results. `symbols`: the
        checker's table of this program (what each name is, compile/names.py); made by a
        check of its own when first needed if not given."""
        self.tables = PassTables(program, options, optimise, symbols)
        self.expressions = ExpressionCompiler(self.tables)
        self.modifiers = ModifierCompiler(self.tables, self.expressions)
        self.native = BlockCompiler(self.tables, self.expressions)
        self.statements = StatementCompiler(self.tables, self.expressions, self.native, self.modifiers)
        self.declarations = DeclarationCompiler(self.tables, self.expressions)

    def run(self, passes: tuple[Pass, ...] | None = None) -> Compiler:
        """Run `passes` (all of them by default) in order; the compiled code they make is
        kept by codecache for the next compile of the same game, variants and options. The
        file is found by those names, not by the rules' digest: after an edit, the code of
        every tree the edit left as it was is read back rather than compiled again."""
        program = self.tables.program
        decls = program.decls
        chosen = [v.name for v in program.variants]
        with codecache.loading(f"{program.header.name} {chosen!r} {sorted(self.tables.given.items())!r}"):
            for step in PASSES if passes is None else passes:
                step.run(self, decls)
        return self

    def finish(self) -> CompiledGame:
        """The last pass: the tables the runtime reads, as a `CompiledGame`. Reads every
        table the passes produced; produces the compiled game (the compiler is not in it)."""
        t = self.tables
        enums = tuple(
            k for k, members in t.types.items() if members and t.claimed.get(members[0], "") == f"a member of {k}"
        )
        return CompiledGame(
            program=t.program,
            header=t.header,
            optimised=t.optimise,
            seats=t.seats,
            options=t.options,
            option_decls=t.option_decls,
            option_choices=t.option_choices,
            types=t.types,
            enums=enums,
            constants=t.constants,
            kind_of=t.kind_of,
            entity_decls=t.entity_decls,
            fields=t.fields,
            about=t.about,
            rt=t.rt,
            visibility=t.visibility,
            short_fns=t.short_fns,
            vars=t.vars,
            var_order=t.var_order,
            grants_slot=t.grants_slot,
            links_slot=t.links_slot,
            cancel_slot=t.cancel_slot,
            ns=t.ns,
            codes=t.codes,
            procs=t.procs,
            defs=t.defs,
            def_decls=t.def_decls,
            queries=t.queries,
            modifier_list=t.modifier_list,
            slots=t.slots,
            handlers=t.handlers,
            event_decls=t.event_decls,
            leave_hooks=t.leave_hooks,
            choices=t.choices,
            choice_spans=t.choice_spans,
            formats=t.formats,
            format_spans=t.format_spans,
            headline_formats=t.headline_formats,
            uses_chance=t.uses_chance,
            block_lines=t.block_lines,
            payoff=t.payoff,
            estimate=t.estimate,
            invariants=t.invariants,
            view=t.view,
        )


Behaviour = ast.Def | ast.Query | ast.StaticModifier | ast.Procedure | ast.Trigger | ast.Card  # what has code

WORKING_STATE = (
    Compiler,
    PassTables,
    ExpressionCompiler,
    ModifierCompiler,
    BlockCompiler,
    StatementCompiler,
    DeclarationCompiler,
)

# ---- the passes, in the order `PASSES` runs them ------------------------------


def name_seats(c: Compiler, decls: tuple) -> None:
    """Seats and directions: names every other phase may use.

    Reads: nothing. Produces: `types`, `constants`, `claimed`, `rt`.
    """
    c.tables.types["player"] = c.tables.seats
    for seat in c.tables.seats:
        c.tables.claim(seat, "a seat", c.tables.header.span)
        c.tables.constants[seat] = seat
    # Seats' titles are kept apart from the components' titles, which table cells name.
    c.tables.rt.seat_titles.update(c.tables.header.seat_titles)
    c.tables.types["Direction"] = DIRECTIONS
    for d in DIRECTIONS:
        c.tables.constants[d] = d


def name_enums(c: Compiler, decls: tuple) -> None:
    """Enum members: global names, with their titles.

    Reads: nothing. Produces: `types`, `constants`, `claimed`, `rt`.
    """
    for d in decls:
        if isinstance(d, ast.Enum):
            c.tables.types[d.name] = tuple(m.name for m in d.members)
            for m in d.members:
                c.tables.claim(m.name, f"a member of {d.name}", m.span)
                c.tables.constants[m.name] = m.name
                c.tables.rt.titles[m.name] = m.title


def settle_options(c: Compiler, decls: tuple) -> None:
    """The options in force: the given values (checked against the declared type and
    choices; an unknown option names the variant that declares it) or the defaults.

    Reads: `types`, `rt`, `constants`, `defs`, `vars`, `queries`. Produces:
    `option_decls`, `options`, `option_choices`, `claimed`, `ns`.
    """
    for d in decls:
        if isinstance(d, ast.Option):
            c.tables.option_decls[d.name] = d
    unknown = set(c.tables.given) - set(c.tables.option_decls)
    for name in sorted(unknown):
        declaring = [
            v.name
            for v in c.tables.program.all_variants.values()
            if any(isinstance(x, ast.Option) and x.name == name for x in v.decls)
        ]
        c.tables.fail(
            argument_span("option", name, c.tables.given[name]),
            f"unknown option '{name}'",
            (f"the variant {declaring[0]} declares it: add --variant {declaring[0]}" if declaring else None)
            or did_you_mean(name, c.tables.option_decls)
            or (
                "options: " + ", ".join(c.tables.option_decls)
                if c.tables.option_decls
                else "this game (with these variants) has no options"
            ),
        )
    for name, d in c.tables.option_decls.items():
        given = name in c.tables.given
        value = c.declarations.check_option_type(d, c.tables.given[name]) if given else c.declarations.const(d.default)
        c.tables.claim(name, "an option", d.span)
        allowed = None  # any value of its type
        if d.choices is not None:
            allowed = c.declarations.const(d.choices)
            if not isinstance(allowed, tuple):
                c.tables.fail(d.choices.span, "an option's choices must be a list or a range")
            if value not in allowed:
                opening = c.declarations.variant_allowing(name, value)
                c.tables.fail(
                    argument_span("option", name, value) if name in c.tables.given else d.span,
                    f"option '{name}' = {value!r} is not allowed",
                    f"choose from {c.tables.rt.display(tuple(allowed))}"
                    + (f", or add --variant {opening}, which allows it" if opening else ""),
                )
        c.tables.options[name] = value
        c.tables.option_choices[name] = allowed


def make_components(c: Compiler, decls: tuple) -> None:
    """Grids, entities, defs' names, then the components: table rows first (cards and
    generates may name them), cards' properties, generated components, and the tables'
    values, each read as soon as the components its cells name exist.

    Reads: `options`, `queries`, `vars`. Produces: `entity_decls`, `types`, `def_decls`,
    `defs`, `claimed`, `kind_of`, `constants`, `rt`, `fields`, `ns`.
    """
    for d in decls:
        if isinstance(d, ast.Grid):
            c.declarations.add_grid(d)
        elif isinstance(d, ast.Entity):
            c.tables.entity_decls[d.name] = d
            c.tables.types[d.name] = ()
    for d in decls:
        if isinstance(d, ast.Def):
            c.tables.claim(d.name, "a function", d.span)
            c.tables.def_decls[d.name] = d
            c.tables.defs[d.name] = [None]
    for t in c.tables.program.tables:
        if isinstance(t.decl, ast.Table):  # rows first: cards and generate may name them
            for row in t.live():
                c.declarations.add_entity(t.decl.kind, row.name, row.title, {"title": row.title, "text": ""}, row.span)
    for d in decls:
        if isinstance(d, ast.Card):
            c.declarations.card_props(d)
    c.declarations.forget_vocabularies()  # (read once every component a cell may name exists)
    generates = [d for d in decls if isinstance(d, ast.Generate)]
    waiting = [t for t in c.tables.program.tables if isinstance(t.decl, ast.Table)]
    for i, d in enumerate(generates):
        # A table's values are read before a generate, so that it may read them
        # (`n in 1..t.count`), unless its cells name components a generate still makes.
        later = {g.kind for g in generates[i:]}
        ready = [t for t in waiting if not c.declarations.table_kinds(t) & later]
        for t in ready:
            c.declarations.table_values(t)
        waiting = [t for t in waiting if t not in ready]
        c.declarations.generate(d, waiting, later)
    for t in waiting:
        c.declarations.table_values(t)
    c.declarations.unique_values(decls)


def link_map_and_events(c: Compiler, decls: tuple) -> None:
    """The links of the map (written and from tables) and the events.

    Reads: `claimed`. Produces: `rt`, `event_decls`.
    """
    for d in decls:
        if isinstance(d, ast.Link):
            if d.kind is not None and not c.tables.claimed.get(d.kind, "").startswith("a member of"):
                c.tables.fail(
                    d.span, f"'{d.kind}' is not an enum member: a link's kind is one", "enum LinkKind { land, sea }"
                )
            for other in d.others:
                for a, b in ((d.node, other), (other, d.node)):
                    if b not in c.tables.rt.links.get(a, ()):
                        c.tables.rt.links[a] = c.tables.rt.links.get(a, ()) + (b,)
                    if d.kind is not None:
                        c.tables.rt.link_kind[(a, b)] = d.kind
        elif isinstance(d, ast.Links):
            c.declarations.table_links(next(t for t in c.tables.program.tables if t.decl is d))
        elif isinstance(d, ast.Event):
            c.tables.event_decls[d.name] = d


def gather_abouts(c: Compiler, decls: tuple) -> None:
    """What each component or enum member does, in a line: `about NAME "..."`, or an
    entity's `about: str` field (a table column). Once every component is made.

    Reads: `claimed`, `fields`, `rt`. Produces: `about`.
    """
    for d in decls:
        if isinstance(d, ast.About):
            c.declarations.add_about(d)
    for name, text in c.tables.fields.get("about", {}).items():
        if isinstance(text, str) and text:
            c.tables.about.setdefault(name, text)


def lay_out_variables(c: Compiler, decls: tuple) -> None:
    """Queries, then the variables (whose defaults may ask them), the built-in
    variables for grants, added links and cancelled effects, and the queries' guards.

    Reads: `types`, `constants`, `options`, `fields`, `defs`, `rt`. Produces: `queries`,
    `query_decls`, `query_guards`, `modifier_list`, `expiring`, `changeable`,
    `grants_slot`, `links_slot`, `cancel_slot`, `vars`, `var_order`, `claimed`, `ns`.
    """
    c.modifiers.init_queries(decls)
    for d in decls:
        if isinstance(d, ast.Var):
            c.declarations.declare_var(d)
    grants = c.modifiers.grants_var()
    if grants is not None:
        c.declarations.declare_var(grants)
        c.modifiers.grants_declared()
    c.declarations.declare_links_var()
    c.modifiers.guard_queries(decls)
    if c.tables.cancel_events or ast.contains(c.tables.program.decls, ast.Cancel):
        # effects about to resolve, innermost last: True once cancelled
        span = c.tables.header.span
        any_list = ast.ListType(span=span, element=ast.NamedType(span=span, name="bool"))
        empty = ast.ListLit(span=span, items=())
        c.declarations.declare_var(ast.Var(span=span, name=RESOLVING, type=any_list, default=empty, seen_by="all"))
        c.tables.cancel_slot = c.tables.vars[RESOLVING].slot


def compile_visibility(c: Compiler, decls: tuple) -> None:
    """Each entity's field visibility rules and its short form (how a board shows it).

    Reads: `entity_decls`, `types`, `constants`, `options`, `fields`, `defs`, `vars`,
    `queries`, `changeable`. Produces: `visibility`, `short_fns`, `ns`.
    """
    for name, ent in c.tables.entity_decls.items():
        rules = []
        c.expressions.self_fields.names = {f.name for f in ent.fields}
        for f in ent.fields:
            if f.hidden:
                rules.append((f.name, lambda vm, L: False))
            elif f.visible is not None:
                rules.append((f.name, c.expressions.expr(f.visible, Scope(["self", "viewer"]))))
        c.tables.visibility[name] = rules
        if ent.short is not None:
            c.expressions.self_fields.short = True
            c.tables.short_fns[name] = [
                p if isinstance(p, str) else c.expressions.expr(p, Scope(["self"])) for p in ent.short.parts
            ]
            c.expressions.self_fields.short = False
        c.expressions.self_fields.names = set()


def compile_behaviour(c: Compiler, decls: tuple) -> None:
    """Procedures (their code slots first, so calls between them resolve), then every
    def, query, modifier, procedure body, trigger and card slot; then the queries
    specialised for the modifiers that may be in force.

    Reads: `types`, `constants`, `options`, `fields`, `rt`, `def_decls`, `vars`,
    `event_decls`, `leave_hooks`, `query_decls`, `query_guards`, `changeable`,
    `grants_slot`, `links_slot`, `cancel_slot`. Produces: `procs`, `proc_decls`,
    `codes`, `defs`, `queries`, `modifier_list`, `expiring`, `handlers`, `slots`,
    `choices`, `choice_spans`, `formats`, `format_spans`, `headline_formats`,
    `uses_chance`, `block_lines`, `ns`.
    """
    for d in decls:
        if isinstance(d, ast.Procedure):
            c.tables.procs[d.name] = c.tables.new_code(d.name, d.span)
            c.tables.proc_decls[d.name] = d
            if d.result is not None:  # the slot after the parameters: where its value goes
                c.tables.procs[d.name].result_slot = len(d.params)
    for d in decls:
        if isinstance(d, ast.Def | ast.Query | ast.StaticModifier | ast.Procedure | ast.Trigger | ast.Card):
            try:
                _compile_behaviour(c, d)
            except LimitExceeded as exc:  # generated code past what Python compiles
                c.tables.fail(d.span, exc.message, exc.hint)
    c.modifiers.specialise_queries()


def _compile_behaviour(c: Compiler, d: Behaviour) -> None:
    """One def, query, static modifier, procedure body, trigger or card, compiled by its compiler."""
    if isinstance(d, ast.Def):
        c.expressions.compile_def(d)
    elif isinstance(d, ast.Query):
        c.modifiers.compile_query(d)
    elif isinstance(d, ast.StaticModifier):
        c.modifiers.static_modifier(d, None)
    elif isinstance(d, ast.Procedure):
        c.statements.compile_body(c.tables.procs[d.name], [p.name for p in d.params], d.body)
    elif isinstance(d, ast.Trigger):
        c.statements.compile_trigger(d, None)
    else:
        for t in d.triggers:
            c.statements.compile_trigger(t, d.name)
        for m in d.statics:
            c.modifiers.static_modifier(m, d.name)
        for hook in d.leaves:
            c.statements.compile_body(c.tables.leave_hooks[hook.var][d.name], ["self"], hook.body)
        for slot_name, body, span, params in d.slots:
            code = c.tables.new_code(f"{d.name}.{slot_name}", span)
            c.statements.compile_body(code, ["self"] + [p.name for p in params], body)
            c.tables.slots[(d.name, slot_name)] = code


def compile_payoff_and_view(c: Compiler, decls: tuple) -> None:
    """The payoff, the view, and the one procedure a game must have: `play()`.

    Reads: `types`, `constants`, `options`, `fields`, `defs`, `def_decls`, `vars`,
    `queries`, `query_decls`, `query_guards`, `changeable`, `procs`. Produces: `payoff`,
    `estimate`, `invariants`, `view`, `ns`.
    """
    payoffs = [d for d in decls if isinstance(d, ast.Payoff)]
    if payoffs:
        p = payoffs[0]
        c.tables.payoff = (c.expressions.expr(p.value, Scope([p.var])), p.low, p.high, p.total, p.span)
    # (the rule it cites, closure, span) of each `invariant`: checked on a state's load
    c.tables.invariants = [
        (d.text, c.expressions.expr(d.value, Scope()), d.span) for d in decls if isinstance(d, ast.Invariant)
    ]
    estimates = [d for d in decls if isinstance(d, ast.Estimate)]
    if estimates:
        e = estimates[0]
        low, high = (e.low, e.high) if e.low is not None else (c.tables.payoff[1:3] if c.tables.payoff else (-1, 1))
        c.tables.estimate = (c.expressions.expr(e.value, Scope([e.var])), low, high, e.span)
    views = [d for d in decls if isinstance(d, ast.View)]
    if len(views) > 1:
        c.tables.fail(views[1].span, "a game has one view", "merge the two, or `replace view { ... }` in a variant")
    c.tables.view = compile_view(c.expressions, views[0]) if views else ()
    if "play" not in c.tables.procs:
        c.tables.fail(
            c.tables.header.span,
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
                code = c.tables.new_code(f"when {d.name} leaves {hook.var}", hook.span)
                c.tables.leave_hooks.setdefault(hook.var, {})[d.name] = code
    for var, hooks in c.tables.leave_hooks.items():
        c.tables.ns[f"_left_{var}"] = _leaver(hooks)


@attrs.frozen
class Pass:
    """One step of the compile: `run(compiler, decls)` reads the tables named in `reads`
    (made by the passes before it, or the compiler's inputs: the program, its header,
    the options asked for, the seats) and builds or adds to those in `produces`."""

    name: str
    run: Callable[[Compiler, tuple], None]
    reads: tuple[str, ...]
    produces: tuple[str, ...]


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
            "block_lines",
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
    program: Program,
    options: dict[str, Any] | None = None,
    *,
    options_only: bool = False,
    optimise: bool = True,
    symbols: SymbolTable | None = None,
) -> CompiledGame:
    """The compiled game of a checked program with these options: every pass, then
    `finish`. `symbols` is what the check of `program` resolved (`check_game`): the
    compiler reads each name's binding there rather than resolving it again; without it,
    the program is checked again the first time a name is compiled. `options_only`: stop
    once the options are known (their values, choices and descriptions), for `gamedef
    list` and `info`, which show them for every variant and need nothing else (a whole
    compile of each would take seconds); the tables past the options are then empty. See `Compiler` for `optimise`.

    With Python's cycle collector held off (as `load_game` holds it off around the
    whole load): the compile makes hundreds of thousands of tree nodes, each of which
    counts towards the next collection, and none of them in a cycle; a collection would
    walk every object of the program for nothing (about a sixth of The Wall is Down's
    compile, for the LSP's re-checks and any caller of this function directly)."""
    with no_collection():
        compiler = Compiler(program, options, optimise, symbols)
        return compiler.run(OPTIONS_ONLY if options_only else None).finish()


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
