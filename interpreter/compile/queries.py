"""Queries as the runtime answers them: a base value, then the modifiers in force.

The compiled side of modifiers.py: `QueryFunction` is what generated code calls for a
query, `CompiledModifier` one modifier of it (a card's static one, or one put in force by
a statement and kept in the state), `specialised` the call the game's namespace holds
once every modifier is known. These are parts of the compiled game and are kept by its
cache; nothing here refers to the compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.compile.steps import Closure
from interpreter.core.limits import capped

GRANTS = "modifiers_in_force"  # the variable holding the stated modifiers: (id, captured values, until, once)


@attrs.define
class CompiledModifier:
    query: str
    op: str
    value: Closure | None
    where: Closure | None
    active: Closure | None = None  # a static modifier's `while` condition
    owner: str | None = None  # the card a static modifier belongs to (`self`)
    captured: int = 0  # how many locals a stated modifier captured
    # The variables' slots a static modifier's condition reads, if it reads nothing else
    # (no query, no call that may read more, no players): its truth is then the same
    # while those variables hold the same values. None: it may read anything.
    reads: tuple[int, ...] | None = None
    # Its `where` and value read nothing but their frame (the query's arguments, its card,
    # the values it captured), constants and pure built-ins: see `_memoised`.
    pure: bool = False


class QueryFunction:
    """A compiled query: base value, then the modifiers in force, in the documented order."""

    __slots__ = ("name", "base", "statics", "stated", "grants_slot", "mods", "pure")

    def __init__(self, name: str, base: Closure):
        self.name = name
        self.base = base
        self.pure = False  # the base reads nothing but the arguments, constants and pure built-ins
        self.statics: list[CompiledModifier] = []
        self.stated: set[int] = set()  # ids of statement modifiers on this query
        self.grants_slot: int | None = None
        self.mods: list[CompiledModifier] = []

    def __call__(self, vm, args: tuple):
        value = self.base(vm, list(args))
        found: list = []
        for m in self.statics:  # (a static modifier always has its `while` condition: `active`)
            active = m.active(vm, [m.owner])  # type: ignore[misc]
            if active and (m.where is None or m.where(vm, [m.owner, *args])):
                found.append((m, [m.owner, *args]))
        if self.stated:
            for mid, captured, _until, _once in vm.vars[self.grants_slot]:
                if mid in self.stated:
                    m = self.mods[mid]
                    L = [*args, *captured]
                    if m.where is None or m.where(vm, L):
                        found.append((m, L))
        if not found:
            return value
        return _combine(vm, value, found)


def specialised(q: QueryFunction, idle: list | None = None, guard: tuple[int, ...] | None = None):
    """`q` as one closure over its modifiers, once they are all known: what the generated
    code calls (`_q_NAME`). A query no modifier touches is its base alone; the others test
    only the kinds of modifiers they have, with no attribute read per call.

    `idle`, if the generated code guards the base written in place with it (see
    `_query_guards`), is kept as the values of the `guard` variables last seen with no
    modifier of `q` in force; else it holds values no variable ever holds."""
    base, stated, slot = q.base, frozenset(q.stated), q.grants_slot
    # An expression only reads its frame, so the arguments' tuple serves as one as it is.
    statics = tuple((m, m.active, m.where, m.owner, (m.owner,)) for m in q.statics)
    mods = q.mods
    if not statics and not stated:
        return base
    in_force, watch, memo = _in_force(statics)
    reads = {i for m in q.statics for i in (m.reads or (-1,))}
    if idle is not None and not (guard is not None and reads <= set(guard) and (not stated or slot in guard)):
        idle = None  # (not what the guard reads: the generated code always calls)

    # The modifiers in force on this query, kept for the last list of them seen: that list
    # is an immutable tuple, the same object from state to state until a modifier comes or
    # goes, so most calls look at none of the others (a game with many `forever` cards).
    seen: list = [None, ()]

    def mine_in_force(grants: tuple) -> tuple:
        """The stated modifiers of this query in `grants`, as (modifier, captured)."""
        if grants is not seen[0]:
            seen[1] = tuple((mods[mid], captured) for mid, captured, _until, _once in grants if mid in stated)
            seen[0] = grants
        return seen[1]

    def call(vm, args):
        value = base(vm, args)
        found = None
        # (the one variable the conditions read still holds the value last seen: no call)
        now = memo[1] if watch is not None and vm.vars[watch] is memo[0] else in_force(vm)
        for m, where, owner in now:
            if where is None or where(vm, (owner, *args)):
                if found is None:
                    found = []
                found.append((m, [owner, *args]))
        if stated:
            for m, captured in mine_in_force(vm.vars[slot]):
                L = [*args, *captured]
                if m.where is None or m.where(vm, L):
                    if found is None:
                        found = []
                    found.append((m, L))
        return value if found is None else _combine(vm, value, found)

    mine = [m for mid, m in enumerate(mods) if mid in stated]
    if q.pure and all(m.pure for m in q.statics) and all(m.pure for m in mine) and (watch is not None or not statics):
        call = _memoised(call, watch, slot)
    if idle is None:
        return call

    # A guard of one variable: its value last seen with a modifier in force (while one is,
    # the guard fails at every call and the call comes here: then it is made at once).
    assert guard is not None  # an idle list is kept only with its guard (above)
    busy: list = [NEVER]
    alone = guard[0] if len(guard) == 1 else None

    def refreshed(vm, args):
        """A call that found the guard's values changed: whether any modifier is in force
        for them is known again (both lists are kept for those values), then answered.
        The guard keeps the values last seen with none in force: the same values always
        mean the same modifiers in force, so they stay right while other values pass."""
        values = vm.vars
        if alone is not None and values[alone] is busy[0]:
            return call(vm, args)
        stated_now = mine_in_force(values[slot]) if stated else ()
        now = memo[1] if watch is not None and values[watch] is memo[0] else in_force(vm)
        if not now and not stated_now:
            idle[:] = [values[i] for i in guard]
        elif alone is not None:
            busy[0] = values[alone]
        return call(vm, args)

    return refreshed


def _memoised(call, watch: int | None, slot: int | None):
    """`call` with its answers kept, when the answer is a function of the arguments alone
    as long as the same modifiers are in force: the base and every modifier's value and
    `where` read only their arguments (`pure`), and whether a static one is in force
    depends on one variable (`watch`). Answers are kept per pair of values (that
    variable's, the stated modifiers' list): values are immutable, so the same objects
    mean the same modifiers. A query asked for every country at every decision (`is_eu`
    in The Wall is Down) is then a lookup. The pair and its answers are one tuple, read
    once per call, so two games sharing a compiled game never mix answers."""
    memo: list = [(object(), object(), {})]

    def kept(vm, args):
        values = vm.vars
        w = values[watch] if watch is not None else None
        g = values[slot] if slot is not None else None
        seen = memo[0]
        if seen[0] is not w or seen[1] is not g:
            seen = (w, g, {})
            memo[0] = seen
        answers = seen[2]
        value = answers.get(args, _MISSING)
        if value is _MISSING:
            if len(answers) >= MAX_KEPT:
                answers.clear()
            value = answers[args] = call(vm, args)
        return value

    return kept


_MISSING = object()
NEVER = object()  # what no variable holds: a guard compared with it never passes
MAX_KEPT = 4096  # answers kept for one set of modifiers in force


def _in_force(statics: tuple) -> tuple:
    """(a function giving the static modifiers whose condition holds, in declaration
    order, as (modifier, where, owner); the one variable's slot they all read, or None;
    the [value, modifiers] last seen there).

    When every condition reads only variables (a card's `while self in in_play`), their
    answers are kept for the values last seen: values are immutable, so the same objects
    in those slots mean the same answers, and most calls compare one reference instead
    of testing every card that could modify the query. Else each call tests them all."""
    reads = [m.reads for m, *_ in statics]
    memo: list = [object(), ()]  # the value(s) seen, the modifiers then in force

    def test(vm) -> tuple:
        return tuple((m, where, owner) for m, active, where, owner, frame in statics if active(vm, frame))

    if not statics:
        return (lambda vm: ()), None, memo
    if any(r is None for r in reads):
        return test, None, memo
    slots = tuple(sorted({i for r in reads for i in r}))
    if not slots:  # conditions of constants only

        def fixed(vm) -> tuple:
            if memo[0].__class__ is object:
                memo[0], memo[1] = (), test(vm)
            return memo[1]

        return fixed, None, memo
    if len(slots) == 1:
        (slot,) = slots

        def one(vm) -> tuple:
            memo[1] = test(vm)
            memo[0] = vm.vars[slot]
            return memo[1]

        return one, slot, memo

    def many(vm) -> tuple:
        values = vm.vars
        if memo[0].__class__ is object or any(values[i] is not v for i, v in zip(slots, memo[0])):
            memo[1] = test(vm)
            memo[0] = tuple([values[j] for j in slots])
        return memo[1]

    return many, None, memo


def _combine(vm, value, found: list):
    adds = 0
    allowed = forbidden = False
    for m, L in found:
        op = m.op
        if op == "=":
            value = m.value(vm, L)
        elif op == "+":
            adds += m.value(vm, L)
        elif op == "-":
            adds -= m.value(vm, L)
        elif op == "allow":
            allowed = True
        else:
            forbidden = True
    if adds:
        value = capped(value + adds)
    if forbidden:
        return False
    if allowed:
        return True
    return value


def expirer(slot: int | None) -> Callable[[Any, str], None]:
    """What an `emit` runs when its event ends modifiers (`until` it): removes them from
    the stated modifiers in force, kept in variable `slot`. (A plain function of the
    slot: a step must hold no reference to the compiler, which is not kept.)"""

    def expire(vm: Any, event: str) -> None:
        grants = vm.vars[slot]
        if grants:
            vm.vars[slot] = tuple(x for x in grants if x[2] != event)

    return expire


def unset_query(vm, L):  # pragma: no cover - every query's base is compiled before the game runs
    raise AssertionError("query used before it was compiled")
