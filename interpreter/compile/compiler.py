"""Compile a checked program once, at load (docs/architecture.md, principle 8).

The compile is a pipeline of passes (`PASSES`, in order) driven by one working state,
the `Compiler`; its output is a `CompiledGame` (compiled.py), the documented structure
the runtime reads and the cache keeps. The compiler itself is thrown away: nothing it
holds for its own work (scopes, counters, the syntax it is walking, pending loops, the
tables its compilers look names up in) reaches the game, and the game cache refuses to
store it.

Each pass is a function `(compiler, decls, *sections) -> Section`: it takes the records
earlier passes returned that it needs, and returns a frozen record of what it made
(`Components`, `Variables`, `Behaviour`...: compiled.py). Its signature is its
declaration: `Pass.of` reads it, `PASSES` is refused at import if a pass takes a record
no earlier pass makes, and `finish` makes the `CompiledGame` of the records, one section
each. The passes build the tables: options, enums, components and their properties,
grids and links, variables with their key domains, events and their triggers.
Expressions become Python functions (expressions.py), procedure bodies flat step tables
(statements.py, blocks.py). Every name is resolved here, to a slot or a constant, so the
playout loop never walks the syntax tree or looks a name up.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

import attrs

from interpreter.check.symbols import SymbolTable
from interpreter.compile import codecache, lazy
from interpreter.compile.blocks import BlockCompiler
from interpreter.compile.compiled import (
    SECTIONS,
    Abouts,
    Behaviour,
    CompiledGame,
    Components,
    EstimateFunction,
    Events,
    FieldVisibility,
    GlobalNames,
    InvariantCheck,
    OptionsInForce,
    PayoffAndView,
    PayoffFunction,
    Runtime,
    Variables,
    VarInfo,
    section_name,
    shown_list,
)
from interpreter.compile.declarations import DeclarationCompiler
from interpreter.compile.expressions import ExpressionCompiler
from interpreter.compile.modifiers import ModifierCompiler
from interpreter.compile.passtables import INPUTS, PassTables
from interpreter.compile.scope import Scope
from interpreter.compile.statements import StatementCompiler
from interpreter.compile.steps import Code
from interpreter.compile.views import compile_view
from interpreter.core import collector
from interpreter.core.builtins import DIRECTIONS
from interpreter.core.errors import OptionError, did_you_mean
from interpreter.core.limits import LimitExceeded
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
    (`PASSES`) drive them, and each returns its record (`results`); `finish` makes the
    `CompiledGame` of those records. Nothing here reaches the compiled game but what the
    records hold, and the game cache refuses to store any of it (`WORKING_STATE`)."""

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
        self.results: dict[type, Any] = {}  # each pass's record, by its class

    def run(self, passes: tuple[Pass, ...] | None = None) -> Compiler:
        """Run `passes` (all of them by default) in order, each given the records of the
        earlier passes it takes; the compiled code they make is kept by codecache for the
        next compile of the same game, variants and options. The file is found by those
        names, not by the rules' digest: after an edit, the code of every tree the edit left
        as it was is read back rather than compiled again."""
        program = self.tables.program
        decls = program.decls
        chosen = [v.name for v in program.variants]
        key = f"{program.header.name} {chosen!r} {sorted(self.tables.given.items())!r}"
        self.tables.ns[lazy.CODES] = key  # where the code compiled later is kept too
        with codecache.loading(key):
            for step in PASSES if passes is None else passes:
                self.results[step.makes] = step.run(self, decls, *(self.results[t] for t in step.takes))
        return self

    def finish(self) -> CompiledGame:
        """The compiled game: what the compile was given, the two tables every pass adds to
        (`rt`, the generated code's `ns`), and each pass's record as its section. A pass
        not run (a compile that stopped at the options) leaves its section empty."""
        t = self.tables
        sections: dict[str, Any] = {
            section_name(cls): self.results[cls] if cls in self.results else cls() for cls in SECTIONS
        }
        return CompiledGame(program=t.program, header=t.header, optimised=t.optimise, rt=t.rt, ns=t.ns, **sections)


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
# Each pass's parameters after `(c, decls)` are the records of earlier passes whose tables
# it (or a compiler it drives) reads or fills in; its return type is the record it makes.


def name_seats_and_enums(c: Compiler, decls: tuple) -> GlobalNames:
    """Seats, directions and enum members: names every other pass may use, with their
    titles. Makes the tables of finite types and constants (the components add theirs)."""
    t = c.tables
    t.types["player"] = t.seats
    for seat in t.seats:
        t.claim(seat, "a seat", t.header.span)
        t.constants[seat] = seat
    # Seats' titles are kept apart from the components' titles, which table cells name.
    t.rt.seat_titles.update(t.header.seat_titles)
    t.types["Direction"] = DIRECTIONS
    for d in DIRECTIONS:
        t.constants[d] = d
    enums = []
    for d in decls:
        if isinstance(d, ast.Enum):
            t.types[d.name] = tuple(m.name for m in d.members)
            for m in d.members:
                t.claim(m.name, f"a member of {d.name}", m.span)
                t.constants[m.name] = m.name
                t.rt.titles[m.name] = m.title
            if d.members:
                enums.append(d.name)
    return GlobalNames(seats=t.seats, enums=tuple(dict.fromkeys(enums)), types=t.types, constants=t.constants)


def settle_options(c: Compiler, decls: tuple, names: GlobalNames) -> OptionsInForce:
    """The options in force: the given values (checked against the declared type and
    choices, which may name enum members; an unknown option names the variant that
    declares it) or the defaults."""
    t = c.tables
    option_decls: dict[str, ast.Option] = {}
    option_choices: dict[str, tuple | None] = {}
    for d in decls:
        if isinstance(d, ast.Option):
            option_decls[d.name] = d
    unknown = set(t.given) - set(option_decls)
    for name in sorted(unknown):
        declaring = [
            v.name
            for v in t.program.all_variants.values()
            if any(isinstance(x, ast.Option) and x.name == name for x in v.decls)
        ]
        raise OptionError(
            name,
            t.given[name],
            "unknown",
            f"unknown option '{name}'",
            did_you_mean(name, option_decls)
            or (
                "options: " + ", ".join(option_decls)
                if option_decls
                else "this game (with these variants) has no options"
            ),
            variant=declaring[0] if declaring else None,
        )
    for name, d in option_decls.items():
        given = name in t.given
        value = c.declarations.check_option_type(d, t.given[name]) if given else c.declarations.const(d.default)
        t.claim(name, "an option", d.span)
        allowed = None  # any value of its type
        if d.choices is not None:
            allowed = c.declarations.const(d.choices)
            if not isinstance(allowed, tuple):
                t.fail(d.choices.span, "an option's choices must be a list or a range")
            if value not in allowed:
                opening = c.declarations.variant_allowing(name, value)
                message = f"option '{name}' = {value!r} is not allowed"
                choose = f"choose from {t.rt.display(tuple(allowed))}"
                if name in t.given:
                    raise OptionError(name, value, "choices", message, choose, variant=opening)
                opened = f", or choose the variant {opening}, which allows it" if opening else ""
                t.fail(d.span, message, choose + opened)
        t.options[name] = value
        option_choices[name] = allowed
    return OptionsInForce(values=t.options, decls=option_decls, choices=option_choices)


def make_components(c: Compiler, decls: tuple, names: GlobalNames, options: OptionsInForce) -> Components:
    """Grids, entities, defs' names, then the components: table rows first (cards and
    generates may name them), cards' properties, generated components, and the tables'
    values, each read as soon as the components its cells name exist. Adds the kinds,
    grids and components to `names`' types and constants; option values may be read."""
    t = c.tables
    for d in decls:
        if isinstance(d, ast.Grid):
            c.declarations.add_grid(d)
        elif isinstance(d, ast.Entity):
            t.entity_decls[d.name] = d
            t.types[d.name] = ()
    for d in decls:
        if isinstance(d, ast.Def):
            t.claim(d.name, "a function", d.span)
            t.def_decls[d.name] = d
            t.defs[d.name] = [None]
    for table in t.program.tables:
        if isinstance(table.decl, ast.DataTable):  # rows first: cards and generate may name them
            for row in table.live():
                c.declarations.add_entity(
                    table.decl.kind, row.name, row.title, {"title": row.title, "text": ""}, row.span
                )
    for d in decls:
        if isinstance(d, ast.Card):
            c.declarations.card_props(d)
    c.declarations.forget_vocabularies()  # (read once every component a cell may name exists)
    generates = [d for d in decls if isinstance(d, ast.Generate)]
    waiting = [table for table in t.program.tables if isinstance(table.decl, ast.DataTable)]
    for i, d in enumerate(generates):
        # A table's values are read before a generate, so that it may read them
        # (`n in 1..t.count`), unless its cells name components a generate still makes.
        later = {g.kind for g in generates[i:]}
        ready = [table for table in waiting if not c.declarations.table_kinds(table) & later]
        for table in ready:
            c.declarations.table_values(table)
        waiting = [table for table in waiting if table not in ready]
        c.declarations.generate(d, waiting, later)
    for table in waiting:
        c.declarations.table_values(table)
    c.declarations.unique_values(decls)
    return Components(
        kind_of=t.kind_of, entity_decls=t.entity_decls, fields=t.fields, def_decls=t.def_decls, defs=t.defs
    )


def link_map_and_events(c: Compiler, decls: tuple, names: GlobalNames, components: Components) -> Events:
    """The links of the map (written, whose kind is an enum member, and from tables, whose
    cells name components), kept in `rt.links` where the built-ins read them; and the
    events."""
    t = c.tables
    members = {m for e in names.enums for m in names.types[e]}
    events: dict[str, ast.Event] = {}
    for d in decls:
        if isinstance(d, ast.Link):
            if d.kind is not None and d.kind not in members:
                t.fail(d.span, f"'{d.kind}' is not an enum member: a link's kind is one", "enum LinkKind { land, sea }")
            for other in d.others:
                for a, b in ((d.node, other), (other, d.node)):
                    if b not in t.rt.links.get(a, ()):
                        t.rt.links[a] = t.rt.links.get(a, ()) + (b,)
                    if d.kind is not None:
                        t.rt.link_kind[(a, b)] = d.kind
        elif isinstance(d, ast.Links):
            c.declarations.table_links(next(table for table in t.program.tables if table.decl is d))
        elif isinstance(d, ast.Event):
            events[d.name] = d
    return Events(decls=events)


def gather_abouts(c: Compiler, decls: tuple, components: Components) -> Abouts:
    """What each component or enum member does, in a line: `about NAME "..."`, or an
    entity's `about: str` field (a table column). Once every component is made."""
    about: dict[str, str] = {}
    for d in decls:
        if isinstance(d, ast.About):
            c.declarations.add_about(d, about)
    for name, text in components.fields.get("about", {}).items():
        if isinstance(text, str) and text:
            about.setdefault(name, text)
    return Abouts(texts=about)


def lay_out_variables(
    c: Compiler, decls: tuple, names: GlobalNames, options: OptionsInForce, components: Components
) -> Variables:
    """Queries, then the variables (whose defaults may ask them and read options, constants,
    properties and defs), the built-in variables for grants, added links and cancelled
    effects, and the queries' guards."""
    t = c.tables
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
    if t.cancel_events or t.cancels:
        # effects about to resolve, innermost last: True once cancelled
        span = t.header.span
        any_list = ast.ListType(span=span, element=ast.NamedType(span=span, name="bool"))
        empty = ast.ListLit(span=span, items=())
        c.declarations.declare_var(ast.Var(span=span, name=RESOLVING, type=any_list, default=empty, seen_by="all"))
        t.cancel_slot = t.vars[RESOLVING].slot
    return Variables(
        vars=t.vars,
        order=t.var_order,
        grants_slot=t.grants_slot,
        links_slot=t.links_slot,
        cancel_slot=t.cancel_slot,
        queries=t.queries,
        modifier_list=t.modifier_list,
    )


def compile_visibility(
    c: Compiler,
    decls: tuple,
    names: GlobalNames,
    options: OptionsInForce,
    components: Components,
    variables: Variables,
) -> FieldVisibility:
    """Each entity's field visibility rules and its short form (how a board shows it):
    expressions, which may read anything made so far."""
    rules_by_kind: dict[str, list] = {}
    groups_by_kind: dict[str, list] = {}
    short_fns: dict[str, list] = {}
    for name, ent in components.entity_decls.items():
        rules = []
        c.expressions.self_fields.names = {f.name for f in ent.fields}
        # each condition once, by its shape (spans left out), with the fields it governs
        at: dict = {}
        groups: list[tuple[Any, list[str]]] = []
        for f in ent.fields:
            condition = f.visible
            if not f.hidden and condition is None:
                continue
            key = "hidden" if f.hidden or condition is None else ast.shape(condition)
            if key not in at:
                at[key] = len(groups)
                if f.hidden or condition is None:
                    rule = lambda vm, L: False  # noqa: E731  # a field nobody sees
                else:
                    rule = c.expressions.expr(condition, Scope(["self", "viewer"]))
                groups.append((rule, []))
            rule, fields = groups[at[key]]
            fields.append(f.name)
            rules.append((f.name, rule))
        rules_by_kind[name] = rules
        groups_by_kind[name] = [(rule, tuple(fields)) for rule, fields in groups]
        if ent.short is not None:
            c.expressions.self_fields.short = True
            short_fns[name] = [
                p if isinstance(p, str) else c.expressions.expr(p, Scope(["self"])) for p in ent.short.parts
            ]
            c.expressions.self_fields.short = False
        c.expressions.self_fields.names = set()
    return FieldVisibility(rules=rules_by_kind, short_fns=short_fns, groups=groups_by_kind)


def compile_behaviour(
    c: Compiler,
    decls: tuple,
    names: GlobalNames,
    options: OptionsInForce,
    components: Components,
    variables: Variables,
) -> Behaviour:
    """The `when self leaves L` hooks' step tables and the procedures' (first, so that
    assignments and calls find them), then every def, query, modifier, procedure body,
    trigger and card slot; then the queries specialised for the modifiers that may be in
    force. Fills in `components`' defs and `variables`' queries and modifiers."""
    t = c.tables
    make_leave_hooks(c, decls)
    for d in decls:
        if isinstance(d, ast.Procedure):
            t.procs[d.name] = t.new_code(d.name, d.span)
            t.proc_decls[d.name] = d
            if d.result is not None:  # the slot after the parameters: where its value goes
                t.procs[d.name].result_slot = len(d.params)
    for d in decls:
        if isinstance(d, ast.Def | ast.Query | ast.StaticModifier | ast.Procedure | ast.Trigger | ast.Card):
            try:
                _compile_behaviour(c, d)
            except LimitExceeded as exc:  # generated code past what Python compiles
                t.fail(d.span, exc.message, exc.hint)
    c.modifiers.specialise_queries()
    return Behaviour(
        codes=t.codes,
        procs=t.procs,
        slots=t.slots,
        handlers=t.handlers,
        leave_hooks=t.leave_hooks,
        choices=t.choices,
        choice_spans=t.choice_spans,
        formats=t.formats,
        uses_chance=t.uses_chance,
        block_lines=t.block_lines,
    )


def make_leave_hooks(c: Compiler, decls: tuple) -> None:
    """`when self leaves L` hooks, by list variable and card, their step tables still
    empty. An assignment to a watched variable compares the list before and after and
    pushes the hook of each card that left it, to run right after that step."""
    for d in decls:
        if isinstance(d, ast.Card):
            for hook in d.leaves:
                code = c.tables.new_code(f"when {d.name} leaves {hook.var}", hook.span)
                c.tables.leave_hooks.setdefault(hook.var, {})[d.name] = code
    for var, hooks in c.tables.leave_hooks.items():
        c.tables.ns[f"_left_{var}"] = _leaver(hooks)


Compiled = ast.Def | ast.Query | ast.StaticModifier | ast.Procedure | ast.Trigger | ast.Card  # what has code


def _compile_behaviour(c: Compiler, d: Compiled) -> None:
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


def compile_payoff_and_view(
    c: Compiler,
    decls: tuple,
    names: GlobalNames,
    options: OptionsInForce,
    components: Components,
    variables: Variables,
    behaviour: Behaviour,
) -> PayoffAndView:
    """The payoff, the estimate, the invariants, the view, and the one procedure a game
    must have: `play()`."""
    t = c.tables
    payoff = None
    payoffs = [d for d in decls if isinstance(d, ast.Payoff)]
    if payoffs:
        p = payoffs[0]
        payoff = PayoffFunction(c.expressions.expr(p.value, Scope([p.var])), p.low, p.high, p.total, p.span)
    invariants = tuple(
        InvariantCheck(d.text, c.expressions.expr(d.value, Scope()), d.span)
        for d in decls
        if isinstance(d, ast.Invariant)
    )
    estimate = None
    estimates = [d for d in decls if isinstance(d, ast.Estimate)]
    if estimates:
        e = estimates[0]
        if e.low is not None and e.high is not None:
            low, high = e.low, e.high
        else:
            low, high = (payoff.low, payoff.high) if payoff is not None else (-1, 1)
        estimate = EstimateFunction(c.expressions.expr(e.value, Scope([e.var])), low, high, e.span)
    views = [d for d in decls if isinstance(d, ast.View)]
    if len(views) > 1:
        t.fail(views[1].span, "a game has one view", "merge the two, or `replace view { ... }` in a variant")
    view = compile_view(c.expressions, views[0]) if views else ()
    if "play" not in behaviour.procs:
        t.fail(
            t.header.span,
            "the game has no `procedure play()`",
            "add `procedure play() { ... }`: the turn structure of the game",
        )
    return PayoffAndView(payoff=payoff, estimate=estimate, invariants=invariants, view=view)


@attrs.frozen
class Pass:
    """One step of the compile, read from its function's signature: `run(compiler, decls,
    *takes)` is given the records of the earlier passes named by its parameters' types
    (`takes`) and returns its own (`makes`)."""

    name: str
    run: Callable[..., Any]
    takes: tuple[type, ...]
    makes: type

    @classmethod
    def of(cls, name: str, run: Callable[..., Any]) -> Pass:
        hints = typing.get_type_hints(run)
        params = list(inspect.signature(run).parameters)[2:]  # after (compiler, decls)
        return cls(name, run, tuple(hints[p] for p in params), hints["return"])


def _in_order(*passes: Pass) -> tuple[Pass, ...]:
    """The passes, refused if one takes a record no earlier pass makes, two make the same,
    or what they make is not the compiled game's sections, in order."""
    made: list[type] = []
    for step in passes:
        early = [cls.__name__ for cls in step.takes if cls not in made]
        if early or step.makes in made:
            raise TypeError(f"pass {step.name}: takes {early} before a pass makes it, or makes a record twice")
        made.append(step.makes)
    if tuple(made) != SECTIONS:
        raise TypeError(f"the passes make {made}, the compiled game's sections are {SECTIONS}")
    return passes


PASSES: tuple[Pass, ...] = _in_order(
    Pass.of("seats and enums", name_seats_and_enums),
    Pass.of("options", settle_options),
    Pass.of("components", make_components),
    Pass.of("map and events", link_map_and_events),
    Pass.of("abouts", gather_abouts),
    Pass.of("variables", lay_out_variables),
    Pass.of("visibility", compile_visibility),
    Pass.of("behaviour", compile_behaviour),
    Pass.of("payoff and view", compile_payoff_and_view),
)
OPTIONS_ONLY = PASSES[:2]  # as far as the options: what `gamedef list` and `info` show


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
    compile, for the LSP's re-checks and any caller of this function directly). What the
    compile made is then moved to the collector's oldest generation (core/collector.py)."""
    with collector.loading():
        compiler = Compiler(program, options, optimise, symbols)
        game = compiler.run(OPTIONS_ONLY if options_only else None).finish()
        del compiler  # (its working state freed now, not moved with the game)
    return game


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
