"""Links added during play (`link a, b`): the map's adjacency as the state has it.

A game whose rules never say `link` keeps the built-ins over its fixed links. One that
does gets a variable `links_added` (pairs of nodes, both directions) and versions of
`neighbours`, `adjacent`, `reachable` and `path_steps` that read it, so a link made by a
card ("Somalia is now linked to Saudi Arabia") is seen by every rule that follows links.
"""

from __future__ import annotations

from .builtins import _path_steps, _reachable
from .limits import capped

ADDED = "links_added"
DYNAMIC = ("neighbours", "adjacent", "reachable", "path_steps")


def dynamic_builtins(rt, slot: int) -> dict:
    """The link-following built-ins as functions of (vm, args...), reading `vm.vars[slot]`."""

    def neighbours(vm, node):
        base = rt.adjacent(node)
        extra = vm.vars[slot]
        if not extra:
            return base
        return base + tuple(b for a, b in extra if a == node and b not in base)

    def adjacent(vm, a, b):
        return b in neighbours(vm, a)

    def reachable(vm, start, goal, through=None):
        return _reachable(lambda n: neighbours(vm, n))(start, goal, through)

    def path_steps(vm, start, n, avoid=(), end_ok=None):
        extra = vm.vars[slot]
        links = rt.links
        if extra:
            links = dict(links)
            for a, b in extra:
                if b not in links.get(a, ()):
                    links[a] = links.get(a, ()) + (b,)
        return _path_steps(links)(start, n, avoid, end_ok)

    return {"neighbours": neighbours, "adjacent": adjacent, "reachable": reachable, "path_steps": path_steps}


def link_op(slot: int, a, b, nxt: int):
    """The step of `link a, b`: both directions recorded once."""

    def op(vm, L):
        x, y = a(vm, L), b(vm, L)
        pairs = vm.vars[slot]
        new = tuple(p for p in ((x, y), (y, x)) if p not in pairs and x != y)
        if new:
            vm.vars[slot] = capped(pairs + new)
        return nxt

    return op
