"""The compiled game: what the compiler hands the runtime, and what the cache keeps.

`CompiledGame` is the compile's one output (compiler.py builds it in its last pass,
`finish`) and the runtime's one input: `Game`, the VM, observation, saving, rendering
and the card lists read these fields and nothing else. It is a plain, declared
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
from interpreter.compile.steps import Choice, Code, Handler
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


FORMAT_VERSION = 3  # the layout of `CompiledGame`: raise it when a field or its contents change
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


@attrs.define(slots=True, eq=False)
class CompiledGame:
    """Everything the engine needs, built once from a program and its options."""

    # -- the source and the choices made at load
    program: Program = _field("the checked program it was compiled from: syntax tree, header, sources")
    header: ast.GameHeader = _field("the game's header: name, title, seats, players (program.header)")
    optimised: bool = _field("compiled with the optimisations (False: the rules as written, for tests)")
    seats: tuple[str, ...] = _field("every seat, declared or numbered, then the roles' names")
    options: dict[str, Any] = _field("the value of every option in force")
    option_decls: dict[str, ast.Option] = _field("every option's declaration, by name")
    option_choices: dict[str, tuple | None] = _field("the values each option allows (None: any of its type)")
    # -- names and components
    types: dict[str, tuple] = _field("a finite type's name -> its values (seats, enums, entities, grids)")
    enums: tuple[str, ...] = _field("the names of the enums (kinds whose members are named values)")
    constants: dict[str, Any] = _field("every global name that is a constant -> its value")
    kind_of: dict[str, str] = _field("a component -> its entity kind")
    entity_decls: dict[str, ast.Entity] = _field("an entity kind -> its declaration (fields, short form)")
    fields: dict[str, dict[str, Any]] = _field("a property -> {component: value}")
    about: dict[str, str] = _field("a component or enum member -> its `about` text")
    rt: Runtime = _field("titles, grid geometry and links: what built-ins and display read")
    visibility: dict[str, list[tuple[str, Closure]]] = _field(
        "an entity kind -> (field, who may see it) rules; a field with no rule: seen by all"
    )
    short_fns: dict[str, list] = _field("an entity kind -> parts of its short form (texts and closures)")
    # -- the state's variables
    vars: dict[str, VarInfo] = _field("every variable (declared or the engine's own), by name")
    var_order: list[VarInfo] = _field("the variables in slot order")
    grants_slot: int | None = _field("slot of the stated modifiers in force, if the game has queries")
    links_slot: int | None = _field("slot of the links added in play, if a `link` statement exists")
    cancel_slot: int | None = _field("slot of the cancellable effects now resolving, if any")
    # -- behaviour
    ns: dict[str, Any] = _field("the globals of the generated code: tables, constants, built-ins, queries")
    codes: list[Code] = _field("every step table (procedures, triggers, slots, hooks), by index")
    procs: dict[str, Code] = _field("a procedure's name -> its step table")
    defs: dict[str, list] = _field("a def's name -> [its function] (a list: calls may bind it before it exists)")
    def_decls: dict[str, ast.Def] = _field("a def's name -> its declaration")
    queries: dict[str, QueryFunction] = _field("a query's name -> its base and modifiers")
    modifier_list: list[CompiledModifier] = _field("every modifier, by the id a stated one has in the state")
    slots: dict[tuple[str, str], Code] = _field("(card, slot name) -> the slot's step table")
    handlers: dict[str, list[Handler]] = _field("an event -> the triggers that handle it, in order")
    event_decls: dict[str, ast.Event] = _field("an event's name -> its declaration")
    leave_hooks: dict[str, dict[str, Code]] = _field("a list variable -> card -> its `when self leaves` code")
    # -- decisions, narration and errors
    choices: list[Choice] = _field("each decision point: how its labels and prompt are written")
    choice_spans: list[Span | None] = _field("where each decision point is written")
    formats: list[tuple] = _field("each `log` text's parts: literal strings and None for a value")
    format_spans: list[Span] = _field("where each `log` is written")
    headline_formats: set[int] = _field("the `log headline` formats: the short narration")
    uses_chance: bool = _field("a `roll` or a `shuffle` somewhere in the rules")
    block_lines: list[tuple | None] = _field(
        "(span, procedure) of each line of the native blocks' code, by line number less one: to place their errors"
    )
    # -- the end of a game, and how it is shown
    payoff: tuple | None = _field("(closure of the seat, low, high, sum, span) of `payoff`, if declared")
    estimate: tuple | None = _field("(closure of the seat, low, high, span) of `estimate`, if declared")
    invariants: list = _field("(the rule it cites, closure, span) of each `invariant`: checked on a state's load")
    view: tuple[Item, ...] = _field("the compiled `view` items (empty: the generic renderer)")
    format_version: int = _field(
        "FORMAT_VERSION when it was built: the cache reads only its own", default=FORMAT_VERSION
    )

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

        line = "".join(p if p is not None else show(next(it)) for p in self.formats[fmt])
        if len(line) > MAX_SHOWN:
            raise too_long("a log line", len(line), MAX_SHOWN, "log a count or the first items")
        return line
