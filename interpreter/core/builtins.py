"""The built-in functions of the language: generic, game-agnostic, documented.

Each entry has its arity (for the checker) and a factory that binds it to a compiled
game's tables (grid geometry, graph links), returning a plain Python function of
plain values. Nothing here knows any particular game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

DIRECTIONS = ("up", "down", "left", "right")
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
DELTA = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


@attrs.frozen
class Builtin:
    """A built-in function: `arity` is (min, max); `doc` is its one-line reference."""

    name: str
    arity: tuple[int, int]
    doc: str
    factory: Callable[[Any], Callable[..., Any]]
    returns: str = "any"
    takes_vm: bool = False  # called with the running VM first: it spends the step budget itself
    charges: bool = False  # its list arguments spend one step per item (sum, sort, concat, ...)


def _first(xs):
    return xs[0] if xs else None


def _last(xs):
    return xs[-1] if xs else None


def _without(xs, x):
    if x in xs:
        i = xs.index(x)
        return xs[:i] + xs[i + 1 :]
    return xs


def _rotate(xs, x):
    i = xs.index(x)
    return xs[i:] + xs[:i]


def _best(xs, key):
    if not xs:
        return ()
    scores = [key(x) for x in xs]
    top = max(scores)
    return tuple([x for x, s in zip(xs, scores) if s == top])


class Text(str):
    """A text the rules wrote (a string literal, an interpolated `"... {x} ..."`), not a
    name: shown as written, even when it spells a component's or enum member's name
    ("West" the seat's title beside `West`, a member of `Block` titled "W")."""

    __slots__ = ()


def always_true(_value: object) -> bool:
    """The function of a lambda whose body is `true`: searches given it test nothing."""
    return True


class _OutOfSteps(Exception):
    """The search of `path_steps` used up the step budget."""


def _path_steps(links: dict):  # noqa: C901 - unrolled for speed (benchmarks/README.md): Berlin Wall's walks
    """Next nodes from which a walk of exactly `n` steps exists, never revisiting.

    The search backtracks, which can take exponential time on a large board with a
    long walk, so each walk it extends spends a step of the running budget (a walk's
    last node is only tested, and costs nothing more)."""
    empty = ()
    budget = 0  # the running budget during one search (a cell: cheaper than a list item)

    def extendable(node, n, seen, end_ok):
        """Whether a walk of `n` >= 1 more steps leaves `node`, avoiding `seen`. Its last
        two steps are tried in place rather than by a call per node, the bulk of a search
        (each walk extended still spends its step, as a call would)."""
        nonlocal budget
        budget -= 1
        if budget < 0:
            raise _OutOfSteps  # turned into the VM's out-of-steps error below
        if n == 1:
            for nxt in links.get(node, empty):
                if nxt not in seen and (end_ok is None or end_ok(nxt)):
                    return True
            return False
        if n == 2:
            for mid in links.get(node, empty):
                if mid not in seen:
                    budget -= 1  # the walk extended to `mid`
                    if budget < 0:
                        raise _OutOfSteps
                    for nxt in links.get(mid, empty):
                        if nxt != mid and nxt not in seen and (end_ok is None or end_ok(nxt)):
                            return True
            return False
        for nxt in links.get(node, empty):
            if nxt not in seen:
                seen.add(nxt)
                ok = extendable(nxt, n - 1, seen, end_ok)
                seen.discard(nxt)
                if ok:
                    return True
        return False

    def path_steps(vm, start, n, avoid=(), end_ok=None, first=False):
        """The next nodes; with `first` (the compiler's, for `count(path_steps(...)) > 0`)
        at most one: the search stops at the first."""
        nonlocal budget
        if n <= 0:
            return ()
        if end_ok is always_true:
            end_ok = None
        budget = vm.budget
        seen = set(avoid)
        seen.add(start)
        out = []
        try:
            for nxt in links.get(start, empty):
                if nxt not in seen:
                    seen.add(nxt)
                    if (end_ok is None or end_ok(nxt)) if n == 1 else extendable(nxt, n - 1, seen, end_ok):
                        out.append(nxt)
                        if first:
                            break
                    seen.discard(nxt)
        except _OutOfSteps:
            vm.budget = -1
            vm.out_of_steps()
        vm.budget = budget
        return tuple(out)

    return path_steps


def _reachable(adjacent):
    """Whether a path links two nodes; each node reached spends a step of the budget."""

    def reachable(vm, start, goal, through=None):
        if start == goal:
            return True
        frontier, seen = [start], {start}
        try:
            while frontier:
                node = frontier.pop()
                for nxt in adjacent(node):
                    if nxt == goal:
                        return True
                    if nxt not in seen and (through is None or through(nxt)):
                        seen.add(nxt)
                        frontier.append(nxt)
            return False
        finally:
            vm.budget -= len(seen)
            if vm.budget < 0:
                vm.out_of_steps()

    return reachable


def _of_kind(rt, node, near: tuple, kind) -> tuple:
    """The nodes of `near` linked to `node` by a link of `kind`."""
    return tuple(m for m in near if rt.link_kind.get((node, m)) == kind)


def _plain(f):
    return lambda rt: f


BUILTINS: dict[str, Builtin] = {
    builtin.name: builtin
    for builtin in [
        Builtin("count", (1, 1), "number of items in a list", _plain(len), "int"),
        Builtin("sum", (1, 1), "sum of a list of numbers", _plain(lambda xs: sum(xs)), "int"),
        Builtin(
            "max",
            (1, 2),
            "largest of a list (or of two numbers)",
            _plain(lambda a, b=None: max(a) if b is None else max(a, b)),
            "elem",
        ),
        Builtin(
            "min",
            (1, 2),
            "smallest of a list (or of two numbers)",
            _plain(lambda a, b=None: min(a) if b is None else min(a, b)),
            "elem",
        ),
        Builtin("abs", (1, 1), "absolute value", _plain(abs), "int"),
        Builtin("any", (1, 1), "true if any item of a list of truths is true", _plain(any), "bool"),
        Builtin("all", (1, 1), "true if every item is true", _plain(all), "bool"),
        Builtin("first", (1, 1), "first item of a list, or none", _plain(_first), "elem?"),
        Builtin("last", (1, 1), "last item of a list, or none", _plain(_last), "elem?"),
        Builtin(
            "append",
            (2, 2),
            "the list with an item added at the end",
            _plain(lambda xs, x: xs + (x,)),
            "list",
        ),
        Builtin("concat", (2, 2), "two lists joined", _plain(lambda a, b: tuple(a) + tuple(b)), "list"),
        Builtin("without", (2, 2), "the list without the first occurrence of an item", _plain(_without), "list"),
        Builtin("rotate", (2, 2), "the list turned to start at an item (clockwise order)", _plain(_rotate), "list"),
        Builtin(
            "index_of",
            (2, 2),
            "position (from 0) of an item in a list",
            _plain(lambda xs, x: xs.index(x)),
            "int",
        ),
        Builtin("best", (2, 2), "the items with the highest score, `best(xs, x => score)`", _plain(_best), "list"),
        Builtin("sort", (1, 1), "the list in increasing order", _plain(lambda xs: tuple(sorted(xs))), "list"),
        Builtin(
            "sort_by",
            (2, 2),
            "the list ordered by a score, lowest first, ties kept in order: sort_by(xs, x => score)",
            _plain(lambda xs, key: tuple(sorted(xs, key=key))),
            "list",
        ),
        Builtin("str", (1, 1), "a value as text", lambda rt: rt.display, "str"),
        Builtin("members", (1, 1), "every value of a finite type: members(Suit)", lambda rt: rt.members, "list"),
        Builtin("column", (1, 1), "column of a grid cell (from 1)", lambda rt: lambda c: rt.coords[c][0], "int"),
        Builtin(
            "row",
            (1, 1),
            "row of a grid cell (from 1, top row first)",
            lambda rt: lambda c: rt.coords[c][1],
            "int",
        ),
        Builtin(
            "cell_at",
            (3, 3),
            "the cell of a grid at (column, row), or none",
            lambda rt: lambda grid, x, y: rt.cell_at.get((grid, x, y)),
            "cell?",
        ),
        Builtin(
            "neighbour",
            (2, 2),
            "the cell next to a cell in a Direction, or none",
            lambda rt: lambda c, d: rt.step.get((c, d)),
            "cell?",
        ),
        Builtin(
            "neighbours",
            (1, 2),
            "nodes adjacent to a cell or graph node; `neighbours(x, sea)`: by links of that kind only",
            lambda rt: lambda n, k=None: rt.adjacent(n) if k is None else _of_kind(rt, n, rt.adjacent(n), k),
            "list",
        ),
        Builtin(
            "link_kind",
            (2, 2),
            "the kind of the link between two nodes (`link a [b] as sea`), or none",
            lambda rt: lambda a, b: rt.link_kind.get((a, b)),
            "any",
        ),
        Builtin(
            "adjacent",
            (2, 2),
            "true if two nodes are linked",
            lambda rt: lambda a, b: b in rt.adjacent(a),
            "bool",
        ),
        Builtin("opposite", (1, 1), "the opposite Direction", _plain(OPPOSITE.__getitem__), "Direction"),
        Builtin(
            "path_steps",
            (2, 4),
            "next nodes of self-avoiding walks of exact length: path_steps(from, n, avoid, end => ok)",
            lambda rt: _path_steps(rt.links),
            "list",
            takes_vm=True,
        ),
        Builtin(
            "reachable",
            (2, 3),
            "true if a path links two nodes through nodes where `through` holds",
            lambda rt: _reachable(rt.adjacent),
            "bool",
            takes_vm=True,
        ),
    ]
}

# Built-ins whose work grows with their list arguments: each item spends a step.
for _name in "sum max min any all append concat without rotate index_of best sort sort_by str".split():
    BUILTINS[_name] = attrs.evolve(BUILTINS[_name], charges=True)
