"""The checker's types: int, bool, str, player, enums, components, grid cells, `list T`
(a tuple ("list", T)) and `T?` (("opt", T)); `any` where a type is not known.

These are values, not classes, so a type can be compared, joined and shown without a
registry; the checker (checker.py) and the view checks (view_secrets.py) share them.

A `T?` is a value that may be none, and it does not stand where a `T` is needed
(`fits`) until the checker has narrowed it (`x != none`, `x ?? d`). So that the error
can say where the none may come from, a `T?` carries a note of why it may be none
(`Opt.why`: "discard may be empty", "`ops` is declared `int?` in Card"); the note is
not part of the type: two `T?` are equal, and show and print alike, whatever their notes.
"""

from __future__ import annotations

from typing import Any

ANY, INT, BOOL, STR, NONE, PLAYER = "any", "int", "bool", "str", "none", "player"


def lst(t) -> tuple:
    return ("list", t)


class Opt(tuple):
    """`T?`: the tuple ("opt", T), with `why` it may be none (not compared, not shown).
    `trusted`: `first` or `last` of a list the rules work out (not a pile of the game's
    state), which stands where a `T` is needed and is none at run time only if the list
    is empty. A variable's value (or a map's entry) declared `T?` is never trusted: the
    rules may set it back to none, so it is narrowed before it is used as a `T`."""

    why: str
    trusted: bool

    def __new__(cls, t, why: str = "", trusted: bool = False) -> Opt:
        made = super().__new__(cls, ("opt", t))
        made.why = why
        made.trusted = trusted
        return made

    def __getnewargs__(self) -> tuple:  # copied and pickled as the type it is
        return (self[1], self.why, self.trusted)


def opt(t, why: str = "", trusted: bool = False) -> Any:
    """`t?`; `why` a value of it may be none, for the error where one is used as a `t`.
    An optional type stays as it is, keeping its own note unless it has none."""
    if t in (ANY, NONE):
        return t
    if is_opt(t):
        if t.__class__ is Opt and (t.why or not why) and t.trusted == trusted:
            return t
        return Opt(t[1], why or why_none(t), trusted)
    return Opt(t, why, trusted)


def trusted(t) -> bool:
    """Is `t` a variable's `T?` that stands where a `T` is needed (`Opt.trusted`)?"""
    return getattr(t, "trusted", False)


def is_opt(t) -> bool:
    """Is `t` a `T?`, a value that may be none?"""
    return isinstance(t, tuple) and t[0] == "opt"


def why_none(t) -> str:
    """Why a value of `T?` type `t` may be none, as its note says ("" if it has none)."""
    return getattr(t, "why", "")


def strip(t) -> Any:
    return t[1] if isinstance(t, tuple) and t[0] == "opt" else t


def join(a, b) -> Any:
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
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "list":
        inner = lst(join(a[1], b[1]))
    elif a == b:
        inner = a
    else:
        return ANY
    return opt(inner, why, kept) if optional else inner


def show(t) -> str:
    if isinstance(t, tuple):
        return f"list {show(t[1])}" if t[0] == "list" else f"{show(t[1])}?"
    return t


def fits(actual, expected) -> bool:
    """Can a value of type `actual` stand where `expected` is wanted? A `T?` cannot
    stand where a `T` is needed: it may be none (the checker narrows it first)."""
    if ANY in (actual, expected) or actual == expected:
        return True
    if isinstance(expected, tuple) and expected[0] == "opt":
        return actual == NONE or fits(strip(actual), expected[1])
    if isinstance(actual, tuple) and actual[0] == "opt":
        return trusted(actual) and fits(actual[1], expected)
    if isinstance(actual, tuple) and isinstance(expected, tuple):
        return fits(actual[1], expected[1])
    return False
