"""The checker's types: int, bool, str, player, enums, components, grid cells, `list T`
(a tuple ("list", T)) and `T?` (("opt", T)); `any` where a type is not known.

These are values, not classes, so a type can be compared, joined and shown without a
registry; the checker (checker.py) and the view checks (views.py) share them.
"""

from __future__ import annotations

from typing import Any

ANY, INT, BOOL, STR, NONE, PLAYER = "any", "int", "bool", "str", "none", "player"


def lst(t) -> tuple:
    return ("list", t)


def opt(t) -> Any:
    return t if t in (ANY, NONE) or (isinstance(t, tuple) and t[0] == "opt") else ("opt", t)


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
        return opt(b)
    if b == NONE:
        return opt(a)
    optional = (isinstance(a, tuple) and a[0] == "opt") or (isinstance(b, tuple) and b[0] == "opt")
    a, b = strip(a), strip(b)
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "list":
        inner = lst(join(a[1], b[1]))
    elif a == b:
        inner = a
    else:
        return ANY
    return opt(inner) if optional else inner


def show(t) -> str:
    if isinstance(t, tuple):
        return f"list {show(t[1])}" if t[0] == "list" else f"{show(t[1])}?"
    return t


def fits(actual, expected) -> bool:
    """Can a value of type `actual` stand where `expected` is wanted?"""
    if ANY in (actual, expected) or actual == expected:
        return True
    if isinstance(expected, tuple) and expected[0] == "opt":
        return actual == NONE or fits(strip(actual), expected[1])
    if isinstance(actual, tuple) and actual[0] == "opt":
        # No flow typing: an optional value may stand where its value is needed;
        # if it is none when the rule runs, the runtime error names the rule.
        return fits(actual[1], expected)
    if isinstance(actual, tuple) and isinstance(expected, tuple):
        return fits(actual[1], expected[1])
    return False
