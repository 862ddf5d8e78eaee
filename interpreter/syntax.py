"""The typed, frozen syntax tree of a .game file.

Every node carries the `Span` it came from so that later passes can point at the
source. Nodes are plain data: the checker and compiler walk them, nothing else does.
"""

from __future__ import annotations

import attrs

from .errors import Span

frozen = attrs.frozen(kw_only=True)


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
    """A yes/no decision: run `body` if `player` takes the option called `text`."""

    span: Span
    player: Expr
    text: Str
    body: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] | None


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
    span: Span
    entity: Expr
    slot: str
    args: tuple[Expr, ...]


@frozen
class Log:
    span: Span
    text: Str
    audience: Expr | None


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


@frozen
class Include:
    span: Span
    path: str


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


@frozen
class Entity:
    span: Span
    name: str
    fields: tuple[Field, ...]
    short: Str | None


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
class Card:
    span: Span
    name: str
    title: str
    kind: str
    props: tuple[FieldValue, ...]
    slots: tuple[tuple[str, tuple[Stmt, ...], Span, tuple[Param, ...]], ...]
    text: str
    triggers: tuple[Trigger, ...]


@frozen
class Var:
    span: Span
    name: str
    type: TypeExpr
    default: Expr
    seen_by: str


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
    span: Span
    node: str
    others: tuple[str, ...]


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
    | Event
    | Def
    | Procedure
    | Trigger
    | Variant
    | Remove
    | Replace
)


@frozen
class Module:
    """One parsed file."""

    path: str
    source: str
    decls: tuple[Decl, ...]
