"""The typed, frozen syntax tree of a .game file.

Every node carries the `Span` it came from so that later passes can point at the
source. Nodes are plain data: the checker and compiler walk them, nothing else does.
"""

from __future__ import annotations

from typing import TypeVar, dataclass_transform

import attrs

from interpreter.core.errors import Span

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, kw_only_default=True)
def frozen(cls: type[_T]) -> type[_T]:
    """A syntax tree node: frozen attrs, keyword arguments only (declared as a dataclass
    transform so that type checkers see each node's fields)."""
    return attrs.frozen(kw_only=True)(cls)


# ---- types --------------------------------------------------------------------
@frozen
class NamedType:
    span: Span
    name: str


@frozen
class ListType:
    span: Span
    element: TypeExpr


@frozen
class OptionalType:
    span: Span
    inner: TypeExpr


@frozen
class MapType:
    span: Span
    key: TypeExpr
    value: TypeExpr


TypeExpr = NamedType | ListType | OptionalType | MapType


# ---- expressions ----------------------------------------------------------------
@frozen
class Int:
    span: Span
    value: int


@frozen
class Str:
    """A string; `parts` alternates literal text and interpolated `{expr}`s."""

    span: Span
    parts: tuple[str | Expr, ...]


@frozen
class Bool:
    span: Span
    value: bool


@frozen
class NoneLit:
    span: Span


@frozen
class Name:
    span: Span
    id: str


@frozen
class ListLit:
    span: Span
    items: tuple[Expr, ...]


@frozen
class ForClause:
    """`for var in iterable [if condition]`, one clause of a comprehension."""

    span: Span
    var: str
    iterable: Expr
    condition: Expr | None


@frozen
class Comprehension:
    """`[element for a in xs if c for b in ys ...]`: the first clause is the outer loop;
    a clause's iterable and condition may use the names of the clauses before it."""

    span: Span
    element: Expr
    clauses: tuple[ForClause, ...]


@frozen
class Range:
    span: Span
    low: Expr
    high: Expr


@frozen
class BinOp:
    """Arithmetic, comparison, membership and logic: `op` is the operator's text."""

    span: Span
    op: str
    left: Expr
    right: Expr


@frozen
class Not:
    span: Span
    operand: Expr


@frozen
class Neg:
    span: Span
    operand: Expr


@frozen
class IfExpr:
    span: Span
    condition: Expr
    then: Expr
    otherwise: Expr


@frozen
class Member:
    span: Span
    obj: Expr
    name: str


@frozen
class Index:
    span: Span
    obj: Expr
    key: Expr


@frozen
class Call:
    span: Span
    func: str
    args: tuple[Expr, ...]


@frozen
class Lambda:
    span: Span
    param: str
    body: Expr


Expr = (
    Int
    | Str
    | Bool
    | NoneLit
    | Name
    | ListLit
    | Comprehension
    | Range
    | BinOp
    | Not
    | Neg
    | IfExpr
    | Member
    | Index
    | Call
    | Lambda
)


# ---- statements -------------------------------------------------------------------
@frozen
class Let:
    span: Span
    name: str
    value: Expr


@frozen
class Assign:
    """`name = v`, `name[k1][k2] = v`, and the `+=` / `-=` forms (`op` is "=", "+", "-")."""

    span: Span
    name: str
    keys: tuple[Expr, ...]
    op: str
    value: Expr


@frozen
class If:
    span: Span
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: tuple[Stmt, ...] | None


@frozen
class For:
    span: Span
    var: str
    iterable: Expr
    body: tuple[Stmt, ...]


@frozen
class While:
    span: Span
    condition: Expr
    body: tuple[Stmt, ...]


@frozen
class Choose:
    """A decision: `player` picks one of `options`, bound to `var`."""

    span: Span
    var: str
    options: Expr
    player: Expr
    prompt: Str | None
    label: Expr | None
    optional: bool
    secret: bool = False


@frozen
class May:
    """A yes/no decision: run `body` if `player` takes the option called `text`. Its
    question is `prompt`, or "you may TEXT" without one."""

    span: Span
    player: Expr
    text: Str
    body: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] | None
    prompt: Str | None = None


@frozen
class Roll:
    span: Span
    var: str
    source: Expr


@frozen
class Shuffle:
    """`shuffle deck` or `shuffle draw_pile[p]`: a list variable or entry, in random order."""

    span: Span
    name: str
    keys: tuple[Expr, ...] = ()


@frozen
class Emit:
    span: Span
    event: str
    args: tuple[Expr, ...]


@frozen
class Perform:
    """`perform c.slot(args)`, optionally `cancellable by EVENT(args)`: the event is
    emitted first, and a trigger of it may `cancel` the slot before it resolves."""

    span: Span
    entity: Expr
    slot: str
    args: tuple[Expr, ...]
    cancel_event: str | None = None
    cancel_args: tuple[Expr, ...] = ()


@frozen
class Cancel:
    """`cancel`: the effect about to resolve (a `perform ... cancellable by`) will not."""

    span: Span


@frozen
class Log:
    span: Span
    text: Str
    audience: Expr | None
    headline: bool = False  # `log headline "..."`: a key event, kept in the short narration


@frozen
class Win:
    span: Span
    winners: Expr


@frozen
class GameOver:
    span: Span
    winners: Expr


@frozen
class Require:
    span: Span
    condition: Expr
    message: Str


@frozen
class Break:
    span: Span


@frozen
class Return:
    """`return` or `return value` (in a procedure declared with a result type)."""

    span: Span
    value: Expr | None = None


@frozen
class Cite:
    """`rule "Section"`: the rulebook section the surrounding code encodes."""

    span: Span
    section: str


@frozen
class Note:
    """`interpretation "..."`: the reading chosen where the rulebook is ambiguous."""

    span: Span
    text: str


@frozen
class CallStmt:
    span: Span
    name: str
    args: tuple[Expr, ...]


Stmt = (
    Let
    | Assign
    | If
    | For
    | While
    | Choose
    | May
    | Roll
    | Shuffle
    | Emit
    | Perform
    | Log
    | Win
    | GameOver
    | Require
    | Break
    | Return
    | Cite
    | Note
    | CallStmt
)


# ---- declarations ---------------------------------------------------------------------
@frozen
class Param:
    span: Span
    name: str
    type: TypeExpr


@frozen
class GameHeader:
    span: Span
    name: str
    title: str
    min_players: int
    max_players: int
    seats: tuple[str, ...]
    rulebook: str | None
    roles: tuple[tuple[int, tuple[str, ...]], ...]
    default_players: int = 0  # `players 1..4 default 4`: the count used when none is given
    summary: str | None = None  # `summary "twid.md"`: the rules in brief, beside the game file
    seat_titles: tuple[tuple[str, str], ...] = ()  # `seats [us "US", ...]`: seats as written for players
    # `3 players when static == us: [...]`: (count, seats, option, value), used when the option has that value
    option_roles: tuple[tuple[int, tuple[str, ...], str, str], ...] = ()
    # `1 players: [solo] with [us, eu]`: (the seats played, the seats also in play that
    # nobody plays), for the role rules that name some
    present: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    players_span: Span | None = None  # where `players MIN..MAX` is written, for its errors
    seats_span: Span | None = None  # where `seats [...]` is written


@frozen
class Include:
    """`include "PATH"` (a file beside this one) or `include NAME` (`bundled`: a bundled
    game or card set by name, `twid`, `berlin_wall/variants`, `twid/promos`)."""

    span: Span
    path: str
    bundled: bool = False


@frozen
class Option:
    span: Span
    name: str
    type: TypeExpr
    default: Expr
    choices: Expr | None
    description: str


@frozen
class EnumMember:
    span: Span
    name: str
    title: str


@frozen
class Enum:
    span: Span
    name: str
    members: tuple[EnumMember, ...]


@frozen
class Field:
    """An entity property; `visible` None = always seen, an Expr = seen when true."""

    span: Span
    name: str
    type: TypeExpr
    visible: Expr | None
    hidden: bool
    changeable: bool = False  # read through the query of its name, which modifiers change
    unique: bool = False  # no two components of the entity have the same value (none aside)


@frozen
class SlotSignature:
    """`slot effect(s: player, by: player, how: Use)` in an entity: the parameters every
    card of the kind takes in that slot, declared once. A card's bare `effect { ... }`
    takes them (`interpreter.language.signatures`); one that writes its own must match."""

    span: Span
    name: str
    params: tuple[Param, ...]


@frozen
class Entity:
    span: Span
    name: str
    fields: tuple[Field, ...]
    short: Str | None
    slots: tuple[SlotSignature, ...] = ()


@frozen
class FieldValue:
    span: Span
    name: str
    value: Expr


@frozen
class Generate:
    span: Span
    kind: str
    name_template: Str
    iterators: tuple[tuple[str, Expr], ...]
    values: tuple[FieldValue, ...]


@frozen
class Trigger:
    span: Span
    event: str
    names: tuple[str, ...]
    where: Expr | None
    body: tuple[Stmt, ...]


@frozen
class LeaveHook:
    """`when self leaves in_play { ... }` in a card: runs whenever the card stops being
    in the list variable named (discarded, removed, cancelled: however it leaves)."""

    span: Span
    var: str
    body: tuple


@frozen
class Card:
    """A named component, or (`extends` set) the behaviour of a row a `table` declared.

    `has_title`/`has_kind` say whether the title and kind were written, so a card
    that extends a table row can be told apart from one that contradicts it."""

    span: Span
    name: str
    title: str
    kind: str
    props: tuple[FieldValue, ...]
    slots: tuple[tuple[str, tuple[Stmt, ...], Span, tuple[Param, ...]], ...]
    text: str
    triggers: tuple[Trigger, ...]
    statics: tuple[StaticModifier, ...] = ()
    leaves: tuple[LeaveHook, ...] = ()
    has_title: bool = True
    has_kind: bool = True
    has_text: bool = True
    extends: Span | None = None  # the table row this card adds slots and triggers to
    # The slots written without parentheses (`effect { ... }`): they take the parameters
    # their kind's entity declares for them (`slot effect(...)`), if it declares any.
    bare_slots: tuple[str, ...] = ()


@frozen
class Var:
    span: Span
    name: str
    type: TypeExpr
    default: Expr
    seen_by: str
    zone: bool = False  # a place components are in: each in at most one zone, once (checked on load)
    # `from LO to HI`: every number the variable holds (each entry, each item) is within
    bounds: tuple[int, int] | None = None


@frozen
class Grid:
    span: Span
    name: str
    columns: Expr
    rows: Expr


@frozen
class Graph:
    span: Span
    name: str


@frozen
class Link:
    """`link a [b, c] as kind`: links both ways, of an optional kind (an enum member)."""

    span: Span
    node: str
    others: tuple[str, ...]
    kind: str | None = None


@frozen
class Reading:
    """`with "P" as none`: a cell holding exactly `text` is read as `value`."""

    span: Span
    text: str
    value: Expr


@frozen
class Column:
    """`prop = column`: a table column read as the property `prop` of every row."""

    span: Span
    prop: str
    column: str
    separator: str | None  # `separated by ";"`, for a `list T` property
    readings: tuple[Reading, ...]
    counter: str | None = None  # `counted by ":"`: a list item `US:2` is two items `US`


@frozen
class DataTable:
    """`table Entity from "file" { ... }`: one component of `kind` per row of a file.

    `name_columns` give each row's title (their cells joined by spaces: `named by power,
    tile_id` titles a row "German attack_1"), and its name made from the title
    (`renames` give a name outright); `titled by` takes the title from another column.
    `empty` are cell texts that mean an empty cell (a spreadsheet's "-")."""

    span: Span
    kind: str
    path: str
    name_columns: tuple[str, ...]
    name_span: Span | None
    renames: tuple[tuple[str, str], ...]
    title_column: str | None
    columns: tuple[Column, ...]
    ignored: tuple[tuple[str, Span], ...]
    empty: tuple[str, ...]

    @property
    def name_column(self) -> str | None:
        """The `named by` columns as written (`power, tile_id`), for messages; None without."""
        return ", ".join(self.name_columns) or None


@frozen
class Links:
    """`links from "file" [between a and b]`: each row links two nodes, both ways."""

    span: Span
    path: str
    columns: tuple[str, str] | None
    kind_column: str | None = None  # `as kind`: the column naming each link's kind


@frozen
class Event:
    span: Span
    name: str
    params: tuple[Param, ...]


@frozen
class Def:
    span: Span
    name: str
    params: tuple[Param, ...]
    body: Expr


@frozen
class Query:
    """A value the core rules ask for, with its base; cards' modifiers change it."""

    span: Span
    name: str
    params: tuple[Param, ...]
    type: TypeExpr
    base: Expr


@frozen
class Modifier:
    """`q(a, b) = v`, `+= v`, `-= v`, `forbid q(a, b)`, `allow q(a, b)`, each `where c`.

    `names` bind the query's arguments for `value` and `where`; `op` is one of
    "=", "+", "-", "forbid", "allow"."""

    span: Span
    query: str
    names: tuple[str, ...]
    op: str
    value: Expr | None
    where: Expr | None


@frozen
class StaticModifier:
    """`while c: modifier`, in force whenever `c` holds (in a card, `self` is the card)."""

    span: Span
    condition: Expr
    modifier: Modifier


@frozen
class Grant:
    """A statement putting a modifier in force from now: `until EVENT:` (gone when the
    event is next emitted), `forever:`, and `once` (gone when `consume`d)."""

    span: Span
    until: str | None
    once: bool
    modifier: Modifier


@frozen
class Consume:
    """`consume q(args)`: the one-use modifiers now changing q(args) are used up."""

    span: Span
    query: str
    args: tuple[Expr, ...]


@frozen
class LinkStmt:
    """`link a, b`: from now on the two nodes are linked, for `neighbours`, `adjacent`,
    `reachable` and `path_steps` alike."""

    span: Span
    a: Expr
    b: Expr
    kind: str | None = None


@frozen
class Procedure:
    """`procedure name(params) [: result] { body }`."""

    span: Span
    name: str
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    result: TypeExpr | None = None


@frozen
class Remove:
    span: Span
    kind: str
    name: str


@frozen
class Replace:
    span: Span
    decl: Decl


@frozen
class Variant:
    span: Span
    name: str
    title: str
    base: str | None
    decls: tuple[Decl, ...]
    excludes: tuple[str, ...]
    cites: tuple[str, ...]
    notes: tuple[str, ...]


Decl = (
    GameHeader
    | Include
    | Option
    | Enum
    | Entity
    | Generate
    | Card
    | Var
    | Grid
    | Graph
    | Link
    | DataTable
    | Links
    | Event
    | Def
    | Query
    | StaticModifier
    | Procedure
    | Trigger
    | Variant
    | Remove
    | Replace
)


@frozen
class TestStep:
    """One step of a designer's test, in order: `play` a move (by its label or a unique
    part of it), `arrange` the position, or `expect` something of the position reached.

    `kind` is play, arrange (statements that change the position: `body`), holds (an
    expression), until (an expression: the first label is played until it holds), offered,
    not_offered, logged, not_logged (`seat`: the lines told to that seat, when given),
    winner, over or not_over."""

    span: Span
    kind: str
    text: str = ""
    expr: Expr | None = None
    names: tuple[str, ...] = ()
    body: tuple[Stmt, ...] = ()
    # A `holds` or `until` condition's test forms (`offered("a") and not logged("b")`), each
    # put in the condition as a name: (that name, its kind: offered, logged, over, winner,
    # modifiers..., its text, the seat a `logged` form reads the narration of, or "").
    forms: tuple[tuple[str, str, str, str], ...] = ()
    seat: str = ""


@frozen
class Test:
    """`test name "title" { ... }`: a start, moves and what must hold (`gamedef test`).

    Tests are not part of the game: the program sets them aside (`Program.tests`) and
    the rules hash leaves their text out (`source_range`, character offsets)."""

    span: Span
    name: str
    title: str
    players: int | None = None
    seed: int = 0
    variants: tuple[str, ...] = ()
    options: tuple[tuple[str, Expr], ...] = ()
    state: str | None = None
    dice: tuple[int, ...] = ()
    run: tuple[Stmt, ...] | None = None
    steps: tuple[TestStep, ...] = ()
    citations: tuple[str, ...] = ()
    source_range: tuple[int, int] = (0, 0)
    # where each setting is written, for its errors: ("players", span), ("variant:NAME", span), ("option:NAME", span)
    settings: tuple[tuple[str, Span], ...] = ()


@frozen
class Module:
    """One parsed file."""

    path: str
    source: str
    decls: tuple[Decl, ...]


_PARTS: dict[type, tuple[str, ...]] = {}  # a node class's fields but its span, in order


def _parts(t: type) -> tuple[str, ...]:
    found = _PARTS.get(t)
    if found is None:
        found = _PARTS[t] = tuple(f.name for f in attrs.fields(t) if f.name != "span") if attrs.has(t) else ()
    return found


def shape(node):
    """A syntax tree as plain tuples without its places (spans): two trees with the same
    shape say the same thing, wherever they are written (two programs the same rules, two
    conditions the same test)."""
    if isinstance(node, tuple | list):
        return tuple(shape(n) for n in node)
    if isinstance(node, Span):  # a place kept beside a node (where a header's `players` is written)
        return "(place)"
    if attrs.has(type(node)):
        return (type(node).__name__, *(shape(getattr(node, name)) for name in _parts(type(node))))
    if isinstance(node, frozenset | set):
        return tuple(sorted(map(repr, node)))
    if isinstance(node, dict):
        return tuple(sorted((repr(k), shape(v)) for k, v in node.items()))
    return node


def walk(node):
    """Every node of a syntax tree (tuples and lists are walked through), depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple | list):
            stack.extend(n)
            continue
        yield n
        parts = _PARTS.get(type(n))
        if parts is None:
            parts = _parts(type(n))
        for name in parts:
            stack.append(getattr(n, name))


def names_in(node) -> set[str]:
    """Every name an expression reads (a superset of its free names: bound ones too),
    for finding which locals a modifier stated in a procedure must capture."""
    return {n.id for n in walk(node) if isinstance(n, Name)}


def find_all(node, kind: type) -> list:
    """Every node of `kind` in a syntax tree."""
    return [n for n in walk(node) if isinstance(n, kind)]


def contains(node, kind: type) -> bool:
    """Whether a syntax tree holds a node of `kind` (a statement used anywhere in a game)."""
    return any(isinstance(n, kind) for n in walk(node))


# ---- the view ------------------------------------------------------------------------------
@frozen
class ViewLine:
    """`text "... {expr}" [when COND]`: one line of text, shown only when COND holds;
    `status "..."` the same, a part of the one-line status (`gamedef play`'s bottom line)
    rather than a line of the view."""

    span: Span
    text: Expr
    when: Expr | None = None
    status: bool = False


@frozen
class ViewBoard:
    """`grid VAR`: a map keyed by a grid's cells, drawn as the grid."""

    span: Span
    var: str


@frozen
class ViewTable:
    """`table "Title" for r in ROWS [by GROUP] for c in COLS: CELL [when COND]`."""

    span: Span
    title: str
    row: str
    rows: Expr
    group: Expr | None
    column: str
    columns: Expr
    cell: Expr
    label: Expr | None = None  # `as TEXT`: how a row is named (its value, without it)
    when: Expr | None = None  # shown only when this holds


@frozen
class ViewLines:
    """`list "Title" for x in ITEMS [by GROUP] [as LABEL]: TEXT [layout NAME] [when COND]`:
    one line per item, grouped; with a layout, TEXT is a list of cells drawn as one row."""

    span: Span
    title: str
    var: str
    items: Expr
    group: Expr | None
    text: Expr
    when: Expr | None = None  # shown only when this holds
    label: Expr | None = None  # `as TEXT`: a row's name, before its text
    layout: str | None = None  # `layout pyramid`: the rows' cells drawn centred, a row on the next


@frozen
class ViewPlaces:
    """`layout KIND by X, Y`: a map's nodes of KIND drawn where their number fields X and Y
    put them (columns of the table the components are read from), not where a computed
    layout would."""

    span: Span
    kind: str
    x: str
    y: str


@frozen
class View:
    """`view { ... }`: how the game shows a position; `viewer` is the seat looking."""

    span: Span
    items: tuple


@frozen
class Estimate:
    """`estimate p [from LO to HI]: EXPR`: how good a position still in play looks to seat
    `p`, between LO and HI (the payoff's bounds when not given): search agents score a
    rollout cut short by it (docs §3.20)."""

    span: Span
    var: str
    low: int | None
    high: int | None
    value: Expr


@frozen
class About:
    """`about NAME "TEXT"`: what a component or an enum member is or does, in a line, for
    `gamedef cards` and `about NAME` in `gamedef play` (a zone, a sheet's item, a tile: the
    things that carry no printed `text`)."""

    span: Span
    name: str
    text: str


@frozen
class Invariant:
    """`invariant "RULE": EXPR`: a truth every position of the game keeps (cited from the
    rule it follows from), checked when a saved state is loaded and by the tests after
    every move (docs §3.8)."""

    span: Span
    text: str
    value: Expr


@frozen
class Payoff:
    """`payoff p from LO to HI [sum S]: EXPR`: each seat's payoff once the game is over,
    between LO and HI (the bounds search agents and game-theory tools need); `sum S`
    declares that the payoffs of every finished game add up to S (0: zero-sum)."""

    span: Span
    var: str
    low: int
    high: int
    value: Expr
    total: int | None = None
