"""The compiled game: what the compiler hands the runtime, and what the cache keeps.

`CompiledGame` is the compile's one output and the runtime's one input: `Game`, the VM,
observation, saving, rendering and the card lists read these fields and nothing else. It
is made of the records the compile's passes return (compiler.py, `PASSES`), one section
per pass (`GlobalNames`, `Components`, `Variables`, `Behaviour`...), with what the compile
was given and the two tables every pass adds to (`rt`, `ns`); the names the runtime reads
(`vars`, `procs`, `choices`...) are properties onto the sections. It is a plain, declared
structure, separate from the compiler's working state (the `Compiler` and its tables, which are
thrown away once the game is built): every field below has its type and a one-line
meaning (`meaning` in its metadata; tests/compile/test_compiled_game.py requires one), and
`FORMAT_VERSION` names the layout. The game cache (gamecache.py) pickles this object,
its functions and code objects included, so its fields are a file format: change a
field, or what one holds, and raise `FORMAT_VERSION`, so that no older entry is read.

The tables here are filled once, by the compiler, and only read afterwards: the
generated functions and step tables hold references to the same dicts and lists (a
table of a field's values, a procedure's steps), which is why they are not copied
into immutable types here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.compile.queries import CompiledModifier, QueryFunction
from interpreter.compile.steps import Choice, Code, Handler, LogFormat
from interpreter.core.builtins import Text
from interpreter.core.errors import Span
from interpreter.core.limits import MAX_SHOWN, too_long
from interpreter.language import syntax as ast
from interpreter.language.program import Program


@attrs.frozen
class Item:
    """A view item compiled: its kind, title, closures and the size of its frame."""

    kind: str  # text, status, grid, table, list, places
    title: str = ""
    text: tuple = ()  # literal strings and closures, shown in turn
    when: Any = None  # an item shown only when this holds
    rows: Any = None
    group: Any = None
    columns: Any = None
    cell: Any = None
    var: str = ""
    label: Any = None
    frame: int = 0
    layout: str = ""  # a list's `layout NAME`: its rows are cells, drawn so (pyramid, rows)
    fields: tuple[str, ...] = ()  # places: the number properties giving a node's x and y


FORMAT_VERSION = 4  # the layout of `CompiledGame`: raise it when a field or its contents change
BLOCK_FILE = "<gamedef block>"  # the file name of every native block's code (blocks.py, runtime/machine.py)

Closure = Callable[[Any, list], Any]  # a compiled expression: (vm, frame locals) -> value


def _field(meaning: str, **kwargs: Any) -> Any:
    """A declared field with its one-line meaning, kept where a test and a reader find it."""
    return attrs.field(metadata={"meaning": meaning}, **kwargs)


def shown_list(items: tuple, show: Callable[[Any], str]) -> str:
    """A list as text, its items `show`n and joined by commas; refused past MAX_SHOWN
    characters as it is written (a list of long texts would otherwise make gigabytes)."""
    if not items:
        return "nothing"
    parts = []
    size = 0
    for item in items:
        part = show(item)
        size += len(part) + 2
        if size > MAX_SHOWN:
            raise too_long("a list written as text", size, MAX_SHOWN, "write a count or the first items")
        parts.append(part)
    return ", ".join(parts)


class Runtime:
    """PassTables shared by compiled closures and built-ins: geometry, links, names. (Built
    before the compiled game exists: the built-ins are bound to it as the compile starts.)"""

    def __init__(self) -> None:
        self.titles: dict[str, str] = {}
        self.seat_titles: dict[str, str] = {}
        self.coords: dict[str, tuple[int, int]] = {}
        self.cell_at: dict[tuple[str, int, int], str] = {}
        self.step: dict[tuple[str, str], str] = {}
        self.links: dict[str, tuple[str, ...]] = {}
        self.link_kind: dict[tuple[str, str], str] = {}  # (a, b) -> the link's kind, where it has one

    def adjacent(self, node: str) -> tuple[str, ...]:
        return self.links.get(node, ())

    def display(self, value: Any) -> str:
        t = value.__class__
        if t is str:  # a component, member or seat: its title (the commonest, first)
            title = self.titles.get(value)
            return title if title is not None else self.seat_titles.get(value, value)
        if t is int:
            return str(value)
        if t is Text:
            return value
        if value is None:
            return "none"
        if value is True:
            return "yes"
        if value is False:
            return "no"
        if isinstance(value, tuple):
            return shown_list(value, self.display)
        if isinstance(value, str):
            title = self.titles.get(value)
            return title if title is not None else self.seat_titles.get(value, value)
        return str(value)

    def members(self, values: Any) -> Any:
        return values


@attrs.define
class VarInfo:
    """A state variable as compiled: where it lives in `State.vars` and its key domains."""

    name: str = _field("the variable's name")
    slot: int = _field("its index in `State.vars`")
    keys: tuple | None = _field("a map variable's outer key domain (None: not a map)")
    key_index: dict | None = _field("outer key -> its index in the map's tuple")
    default: Closure = _field("computes the starting value (every map entry at the default)")
    seen_by: str = _field("who sees it: all, owner or none")
    decl: ast.Var = _field("its declaration (type, zone, span)")
    levels: tuple = _field("(keys, index) of every key, outer first: `A -> B -> V` has two", default=())


# ---- the passes' results: the sections of the compiled game ----------------------
#
# Each pass of the compile (compiler.py, `PASSES`) returns one of these records; a pass's
# parameters are the records of earlier passes it needs, so its signature is what it
# reads and what it produces. A record is frozen (its fields are not rebound), but the
# tables in it are the compile's own dicts and lists, shared by reference with the
# generated functions and step tables that read them (a property's table of values, a
# procedure's steps); they are filled once, during the compile, and only read afterwards.
# Every record's default is the empty section: what a compile stopped early (`gamedef list`
# needs only the options) holds for the passes it did not run.


@attrs.frozen
class GlobalNames:
    """The names every other pass may use: the seats, the directions and the enums' members
    (their titles are in `Runtime.titles`), and the tables of finite types and constants
    they begin, which the components pass completes (each component, entity kind and grid)."""

    seats: tuple[str, ...] = _field("every seat, declared or numbered, then the roles' names", default=())
    enums: tuple[str, ...] = _field("the names of the enums (kinds whose members are named values)", default=())
    types: dict[str, tuple] = _field("a finite type's name -> its values (seats, enums, entities, grids)", factory=dict)
    constants: dict[str, Any] = _field("every global name that is a constant -> its value", factory=dict)


@attrs.frozen
class OptionsInForce:
    """The options this game was compiled with: given or default, checked."""

    values: dict[str, Any] = _field("the value of every option in force", factory=dict)
    decls: dict[str, ast.Option] = _field("every option's declaration, by name", factory=dict)
    choices: dict[str, tuple | None] = _field("the values each option allows (None: any of its type)", factory=dict)


@attrs.frozen
class Components:
    """Every component with its kind and properties, and the defs (named here, so that the
    components' values may call them; their functions are compiled by the behaviour pass)."""

    kind_of: dict[str, str] = _field("a component -> its entity kind", factory=dict)
    entity_decls: dict[str, ast.Entity] = _field("an entity kind -> its declaration (fields, short form)", factory=dict)
    fields: dict[str, dict[str, Any]] = _field("a property -> {component: value}", factory=dict)
    def_decls: dict[str, ast.Def] = _field("a def's name -> its declaration", factory=dict)
    defs: dict[str, list] = _field(
        "a def's name -> [its function] (a list: calls may bind it before it exists)", factory=dict
    )


@attrs.frozen
class Events:
    """The events declared (the map's links, written or from tables, are in `Runtime.links`)."""

    decls: dict[str, ast.Event] = _field("an event's name -> its declaration", factory=dict)


@attrs.frozen
class Abouts:
    """What each component or enum member does, in a line."""

    texts: dict[str, str] = _field("a component or enum member -> its `about` text", factory=dict)


@attrs.frozen
class Variables:
    """The state's variables, declared and the engine's own, and the queries (made first:
    a variable's default may ask one; their bodies and modifiers are compiled by the
    behaviour pass)."""

    vars: dict[str, VarInfo] = _field("every variable (declared or the engine's own), by name", factory=dict)
    order: list[VarInfo] = _field("the variables in slot order", factory=list)
    grants_slot: int | None = _field("slot of the stated modifiers in force, if the game has queries", default=None)
    links_slot: int | None = _field("slot of the links added in play, if a `link` statement exists", default=None)
    cancel_slot: int | None = _field("slot of the cancellable effects now resolving, if any", default=None)
    queries: dict[str, QueryFunction] = _field("a query's name -> its base and modifiers", factory=dict)
    modifier_list: list[CompiledModifier] = _field(
        "every modifier, by the id a stated one has in the state", factory=list
    )


@attrs.frozen
class FieldVisibility:
    """Who sees each entity's fields, and its short form."""

    rules: dict[str, list[tuple[str, Closure]]] = _field(
        "an entity kind -> (field, who may see it) rules; a field with no rule: seen by all", factory=dict
    )
    short_fns: dict[str, list] = _field("an entity kind -> parts of its short form (texts and closures)", factory=dict)
    groups: dict[str, list[tuple[Closure, tuple[str, ...]]]] = _field(
        "an entity kind -> each distinct rule of `rules` with the fields it governs: a condition written "
        "alike on several fields (a card's suit, rank and value) is asked once",
        factory=dict,
    )


@attrs.frozen
class Behaviour:
    """The rules as code: step tables, functions, queries, triggers, decisions, log texts."""

    codes: list[Code] = _field("every step table (procedures, triggers, slots, hooks), by index", factory=list)
    procs: dict[str, Code] = _field("a procedure's name -> its step table", factory=dict)
    slots: dict[tuple[str, str], Code] = _field("(card, slot name) -> the slot's step table", factory=dict)
    handlers: dict[str, list[Handler]] = _field("an event -> the triggers that handle it, in order", factory=dict)
    leave_hooks: dict[str, dict[str, Code]] = _field(
        "a list variable -> card -> its `when self leaves` code", factory=dict
    )
    choices: list[Choice] = _field("each decision point: how its labels and prompt are written", factory=list)
    choice_spans: list[Span | None] = _field("where each decision point is written", factory=list)
    formats: list[LogFormat] = _field(
        "each `log` text: its parts, where it is written, whether it is a headline", factory=list
    )
    uses_chance: bool = _field("a `roll` or a `shuffle` somewhere in the rules", default=False)
    block_lines: list[tuple | None] = _field(
        "(span, procedure) of each line of the native blocks' code, by line number less one: to place their errors",
        factory=list,
    )


@attrs.frozen
class PayoffFunction:
    """`payoff`: each seat's value of a finished game, within its bounds."""

    value: Closure = _field("the seat's payoff: (vm, [seat]) -> number")
    low: int = _field("the least payoff a seat may get")
    high: int = _field("the greatest payoff a seat may get")
    total: int | None = _field("what every finished game's payoffs sum to (`sum N`), if declared")
    span: Span = _field("where the payoff is written")


@attrs.frozen
class EstimateFunction:
    """`estimate`: each seat's value of a position in play, clamped into its bounds."""

    value: Closure = _field("the seat's estimate: (vm, [seat]) -> number")
    low: int = _field("the least estimate (the payoff's, if the estimate names none)")
    high: int = _field("the greatest estimate (the payoff's, if the estimate names none)")
    span: Span = _field("where the estimate is written")


@attrs.frozen
class InvariantCheck:
    """`invariant "rule" { ... }`: checked when a state is loaded."""

    rule: str = _field("the rule it cites")
    check: Closure = _field("(vm, []) -> True if the state keeps it")
    span: Span = _field("where it is written")


@attrs.frozen
class PayoffAndView:
    """How a game ends and is shown."""

    payoff: PayoffFunction | None = _field("the game's `payoff`, if declared", default=None)
    estimate: EstimateFunction | None = _field("the game's `estimate`, if declared", default=None)
    invariants: tuple[InvariantCheck, ...] = _field("each `invariant`: checked on a state's load", default=())
    view: tuple[Item, ...] = _field("the compiled `view` items (empty: the generic renderer)", default=())


SECTIONS = (
    GlobalNames,
    OptionsInForce,
    Components,
    Events,
    Abouts,
    Variables,
    FieldVisibility,
    Behaviour,
    PayoffAndView,
)  # every pass's result, in the order of the passes (compiler.py checks it against `PASSES`)


def section_name(cls: type) -> str:
    """The compiled game's field that holds a section: its class's name in snake case."""
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(cls.__name__))


@attrs.define(slots=True, eq=False)
class CompiledGame:
    """Everything the engine needs, built once from a program and its options: what the
    compile was given, the two tables every pass adds to (`rt`, `ns`), and one section per
    pass (the record it returned). The tables the runtime reads by name (`vars`, `procs`,
    `choices`...) are properties onto the sections."""

    # -- the source and the choices made at load
    program: Program = _field("the checked program it was compiled from: syntax tree, header, sources")
    header: ast.GameHeader = _field("the game's header: name, title, seats, players (program.header)")
    optimised: bool = _field("compiled with the optimisations (False: the rules as written, for tests)")
    # -- made as the compile starts, added to by every pass, bound into the generated code
    rt: Runtime = _field("titles, grid geometry and links: what built-ins and display read")
    ns: dict[str, Any] = _field("the globals of the generated code: tables, constants, built-ins, queries")
    # -- the passes' results, in their order
    global_names: GlobalNames = _field("the seats, enums, finite types and constants (pass: seats and enums)")
    options_in_force: OptionsInForce = _field("the options' values, declarations and choices (pass: options)")
    components: Components = _field("the components, their kinds and properties, the defs (pass: components)")
    events: Events = _field("the events' declarations (pass: map and events)")
    abouts: Abouts = _field("each component's or member's `about` text (pass: abouts)")
    variables: Variables = _field("the state's variables, the engine's slots, the queries (pass: variables)")
    field_visibility: FieldVisibility = _field("who sees each field, and short forms (pass: visibility)")
    behaviour: Behaviour = _field("step tables, functions, queries, decisions, log texts (pass: behaviour)")
    payoff_and_view: PayoffAndView = _field("payoff, estimate, invariants and view (pass: payoff and view)")
    format_version: int = _field(
        "FORMAT_VERSION when it was built: the cache reads only its own", default=FORMAT_VERSION
    )

    # ---- the tables by the names the runtime reads (each a section's field) ----------
    @property
    def seats(self) -> tuple[str, ...]:
        return self.global_names.seats

    @property
    def enums(self) -> tuple[str, ...]:
        return self.global_names.enums

    @property
    def options(self) -> dict[str, Any]:
        return self.options_in_force.values

    @property
    def option_decls(self) -> dict[str, ast.Option]:
        return self.options_in_force.decls

    @property
    def option_choices(self) -> dict[str, tuple | None]:
        return self.options_in_force.choices

    @property
    def types(self) -> dict[str, tuple]:
        return self.global_names.types

    @property
    def constants(self) -> dict[str, Any]:
        return self.global_names.constants

    @property
    def kind_of(self) -> dict[str, str]:
        return self.components.kind_of

    @property
    def entity_decls(self) -> dict[str, ast.Entity]:
        return self.components.entity_decls

    @property
    def fields(self) -> dict[str, dict[str, Any]]:
        return self.components.fields

    @property
    def def_decls(self) -> dict[str, ast.Def]:
        return self.components.def_decls

    @property
    def event_decls(self) -> dict[str, ast.Event]:
        return self.events.decls

    @property
    def about(self) -> dict[str, str]:
        return self.abouts.texts

    @property
    def vars(self) -> dict[str, VarInfo]:
        return self.variables.vars

    @property
    def var_order(self) -> list[VarInfo]:
        return self.variables.order

    @property
    def grants_slot(self) -> int | None:
        return self.variables.grants_slot

    @property
    def links_slot(self) -> int | None:
        return self.variables.links_slot

    @property
    def cancel_slot(self) -> int | None:
        return self.variables.cancel_slot

    @property
    def visibility(self) -> dict[str, list[tuple[str, Closure]]]:
        return self.field_visibility.rules

    @property
    def visibility_groups(self) -> dict[str, list[tuple[Closure, tuple[str, ...]]]]:
        return self.field_visibility.groups

    @property
    def short_fns(self) -> dict[str, list]:
        return self.field_visibility.short_fns

    @property
    def leave_hooks(self) -> dict[str, dict[str, Code]]:
        return self.behaviour.leave_hooks

    @property
    def codes(self) -> list[Code]:
        return self.behaviour.codes

    @property
    def procs(self) -> dict[str, Code]:
        return self.behaviour.procs

    @property
    def defs(self) -> dict[str, list]:
        return self.components.defs

    @property
    def queries(self) -> dict[str, QueryFunction]:
        return self.variables.queries

    @property
    def modifier_list(self) -> list[CompiledModifier]:
        return self.variables.modifier_list

    @property
    def slots(self) -> dict[tuple[str, str], Code]:
        return self.behaviour.slots

    @property
    def handlers(self) -> dict[str, list[Handler]]:
        return self.behaviour.handlers

    @property
    def choices(self) -> list[Choice]:
        return self.behaviour.choices

    @property
    def choice_spans(self) -> list[Span | None]:
        return self.behaviour.choice_spans

    @property
    def formats(self) -> list[LogFormat]:
        return self.behaviour.formats

    @property
    def uses_chance(self) -> bool:
        return self.behaviour.uses_chance

    @property
    def block_lines(self) -> list[tuple | None]:
        return self.behaviour.block_lines

    @property
    def payoff(self) -> PayoffFunction | None:
        return self.payoff_and_view.payoff

    @property
    def estimate(self) -> EstimateFunction | None:
        return self.payoff_and_view.estimate

    @property
    def invariants(self) -> tuple[InvariantCheck, ...]:
        return self.payoff_and_view.invariants

    @property
    def view(self) -> tuple[Item, ...]:
        return self.payoff_and_view.view

    def enum_kinds(self) -> set[str]:
        """The names of the game's enums (kinds whose members are named values, not components)."""
        return set(self.enums)

    def render_log(self, entry: tuple, hidden: Callable[[Any], bool] | None = None) -> str:
        """A log entry as text: the format's literal parts with its values displayed.
        `hidden(value)` names the components the reader may not see; they are written
        as "a hidden KIND", so a log line cannot give a face-down piece away."""
        _, fmt, values = entry
        it = iter(values)
        display = self.rt.display
        kind_of = self.kind_of

        def show(v: Any) -> str:
            if hidden is not None:
                if isinstance(v, tuple):
                    return shown_list(v, show)
                if isinstance(v, str) and v in kind_of and hidden(v):
                    return f"a hidden {kind_of[v]}"
            return display(v)

        line = "".join(p if p is not None else show(next(it)) for p in self.formats[fmt].parts)
        if len(line) > MAX_SHOWN:
            raise too_long("a log line", len(line), MAX_SHOWN, "log a count or the first items")
        return line
