"""The checker's types, as frozen values: int, bool, str, player, enums, components, grid
cells (`Named`), `list T` (`ListOf`), `T?` (`Maybe`), `any` where a type is not known
(`Unknown`), the type of `none` itself (`NoneType`), a variable's map (`MapOf`) and a
type's own name used as a value (`TypeName`).

One representation, from the checker's first look at a type to the symbol table
(check/symbols.py) that the compiler, saving and the language server read: a type is
compared, hashed, matched (`isinstance(t, ListOf)`) and shown (`str(t)`, worded as error
messages word it) as a value, never taken apart as a tuple. The classes are frozen attrs
classes with slots, so the checker's many comparisons and dictionary keys stay cheap.

A `T?` is a value that may be none, and it does not stand where a `T` is needed
(`fits`) until the checker has narrowed it (`x != none`, `x ?? d`). So that the error
can say where the none may come from, a `T?` carries a note of why it may be none
(`Maybe.why`: "discard may be empty", "`ops` is declared `int?` in Card"); the note is
not part of the type: two `T?` are equal, and show and print alike, whatever their notes.
"""

from __future__ import annotations

import attrs


@attrs.frozen(slots=True)
class Type:
    """A type of the checker. Shown (`str`) as it is written in a `.game` file."""

    def __str__(self) -> str:
        return "any"


@attrs.frozen(slots=True)
class Unknown(Type):
    """A type the checker does not know (`any`: an error already reported, the items of
    `[]`, a loop variable of a `generate`): it fits everything."""


@attrs.frozen(slots=True)
class NoneType(Type):
    """The type of `none` itself."""

    def __str__(self) -> str:
        return "none"


@attrs.frozen(slots=True)
class Named(Type):
    """int, bool, str, player, Direction, an enum, an entity or card kind, a grid."""

    name: str

    def __str__(self) -> str:
        return self.name


@attrs.frozen(slots=True)
class ListOf(Type):
    """`list T`."""

    item: Type

    def __str__(self) -> str:
        return f"list {self.item}"


@attrs.frozen(slots=True)
class Maybe(Type):
    """`T?`: a `T` or none. `why` says where the none may come from; `trusted`: `first` or
    `last` of a list the rules work out (not a pile of the game's state), which stands
    where a `T` is needed and is none at run time only if the list is empty. A variable's
    value (or a map's entry) declared `T?` is never trusted: the rules may set it back to
    none, so it is narrowed before it is used as a `T`. Neither is compared nor shown."""

    inner: Type
    why: str = attrs.field(default="", eq=False)
    trusted: bool = attrs.field(default=False, eq=False)

    def __str__(self) -> str:
        return f"{self.inner}?"


@attrs.frozen(slots=True)
class MapOf(Type):
    """A variable's map `K -> V` (`K1 -> K2 -> V` for several keys)."""

    keys: tuple[Type, ...]
    value: Type

    def __str__(self) -> str:
        return " -> ".join(str(t) for t in (*self.keys, self.value))


@attrs.frozen(slots=True)
class TypeName(Type):
    """A type's own name used as a value (`members(Suit)`)."""

    of: Type

    def __str__(self) -> str:
        return f"the type {self.of}"


UNKNOWN = ANY = Unknown()
NONE_TYPE = NONE = NoneType()
INT, BOOL, STR, PLAYER, DIRECTION = Named("int"), Named("bool"), Named("str"), Named("player"), Named("Direction")


def lst(t: Type) -> ListOf:
    return ListOf(t)


def opt(t: Type, why: str = "", trusted: bool = False) -> Type:
    """`t?`; `why` a value of it may be none, for the error where one is used as a `t`.
    An optional type stays as it is, keeping its own note unless it has none."""
    if t is ANY or t is NONE or isinstance(t, Unknown | NoneType):
        return t
    if isinstance(t, Maybe):
        if (t.why or not why) and t.trusted == trusted:
            return t
        return Maybe(t.inner, why or t.why, trusted)
    return Maybe(t, why, trusted)


def trusted(t: Type) -> bool:
    """Is `t` a variable's `T?` that stands where a `T` is needed (`Maybe.trusted`)?"""
    return isinstance(t, Maybe) and t.trusted


def is_opt(t: Type) -> bool:
    """Is `t` a `T?`, a value that may be none?"""
    return isinstance(t, Maybe)


def is_list(t: Type) -> bool:
    """Is `t` a `list T`?"""
    return isinstance(t, ListOf)


def why_none(t: Type) -> str:
    """Why a value of `T?` type `t` may be none, as its note says ("" if it has none)."""
    return t.why if isinstance(t, Maybe) else ""


def strip(t: Type) -> Type:
    """`T` for a `T?`; any other type as it is."""
    return t.inner if isinstance(t, Maybe) else t


def kind_of(t: Type) -> str | None:
    """The name of the component kind (or enum, grid, ...) a value of `t` is, through a
    `T?`: the kind whose properties a `.` after it reads; None for a list, a map, unknown."""
    if isinstance(t, Maybe):
        t = t.inner
    return t.name if isinstance(t, Named) else None


def join(a: Type, b: Type) -> Type:
    """The type of a value that is either an `a` or a `b` (the items of one list literal,
    the two branches of an `if`, two lists joined): none joined with T is T?, T with T?
    is T?, list T with list U is list (T joined with U), an unknown type (`any`, such as
    the items of `[]`) takes the other, but stays unknown with none; unrelated types join
    to any (not checked)."""
    if a == b or (b == ANY and a != NONE):
        return a
    if a == ANY:
        return ANY if b == NONE else b
    if a == NONE:
        return opt(b, "it is none in one case")
    if b == NONE:
        return opt(a, "it is none in one case")
    optional = is_opt(a) or is_opt(b)
    why = why_none(a) or why_none(b)
    kept = all(trusted(x) for x in (a, b) if is_opt(x))  # trusted only if nothing else may be none
    a, b = strip(a), strip(b)
    inner: Type
    if isinstance(a, ListOf) and isinstance(b, ListOf):
        inner = ListOf(join(a.item, b.item))
    elif a == b:
        inner = a
    else:
        return ANY
    return opt(inner, why, kept) if optional else inner


def show(t: Type) -> str:
    """`t` as error messages word it (its `str`)."""
    return str(t)


def fits(actual: Type, expected: Type) -> bool:
    """Can a value of type `actual` stand where `expected` is wanted? A `T?` cannot
    stand where a `T` is needed: it may be none (the checker narrows it first)."""
    if actual == expected or actual == ANY or expected == ANY:
        return True
    if isinstance(expected, Maybe):
        return actual == NONE or fits(strip(actual), expected.inner)
    if isinstance(actual, Maybe):
        return actual.trusted and fits(actual.inner, expected)
    if isinstance(actual, ListOf) and isinstance(expected, ListOf):
        return fits(actual.item, expected.item)
    if isinstance(actual, TypeName) and isinstance(expected, TypeName):
        return fits(actual.of, expected.of)
    return False
