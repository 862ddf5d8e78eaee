"""Links added during play (`link a, b`): the map's adjacency as the state has it.

A game whose rules never say `link` keeps the built-ins over its fixed links. One that
does gets a variable `links_added` ([node, node, kind or none], both directions) and versions of
`neighbours`, `adjacent`, `reachable` and `path_steps` that read it, so a link made by a
card ("Somalia is now linked to Saudi Arabia") is seen by every rule that follows links.
"""

from __future__ import annotations

from interpreter.core.builtins import _path_steps, _reachable
from interpreter.core.limits import capped

ADDED = "links_added"
DYNAMIC = ("neighbours", "adjacent", "reachable", "path_steps", "link_kind")


def dynamic_builtins(rt, slot: int) -> dict:
    """The link-following built-ins as functions of (vm, args...), reading `vm.vars[slot]`."""

    def neighbours(vm, node, kind=None):
        base = rt.adjacent(node)
        extra = vm.vars[slot]
        if extra:
            base = base + tuple(b for a, b, _ in extra if a == node and b not in base)
        if kind is None:
            return base
        added = {(a, b): k for a, b, k in extra}
        return tuple(m for m in base if added.get((node, m), rt.link_kind.get((node, m))) == kind)

    def link_kind(vm, a, b):
        for x, y, k in vm.vars[slot]:
            if (x, y) == (a, b):
                return k
        return rt.link_kind.get((a, b))

    def adjacent(vm, a, b):
        return b in neighbours(vm, a)

    def reachable(vm, start, goal, through=None):
        return _reachable(lambda n: neighbours(vm, n))(vm, start, goal, through)

    def path_steps(vm, start, n, avoid=(), end_ok=None, first=False):
        extra = vm.vars[slot]
        links = rt.links
        if extra:
            links = dict(links)
            for a, b, _ in extra:
                if b not in links.get(a, ()):
                    links[a] = links.get(a, ()) + (b,)
        return _path_steps(links)(vm, start, n, avoid, end_ok, first)

    return {
        "neighbours": neighbours,
        "adjacent": adjacent,
        "reachable": reachable,
        "path_steps": path_steps,
        "link_kind": link_kind,
    }


def link_op(slot: int, a, b, kind: str | None, nxt: int):
    """The step of `link a, b [as kind]`: both directions recorded once."""

    def op(vm, L):
        x, y = a(vm, L), b(vm, L)
        links = vm.vars[slot]
        known = {(p, q) for p, q, _ in links}
        new = tuple((p, q, kind) for p, q in ((x, y), (y, x)) if (p, q) not in known and x != y)
        if new:
            vm.vars[slot] = capped(links + new)
        return nxt

    return op
