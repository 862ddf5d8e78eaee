"""Rules that change rules: queries, and the modifiers cards put on them.

The core rules ask named questions (`ops_value(p, c)`, `can_influence(p, x)`) declared
with a base value (`query ops_value(p: player, c: Card): int = c.ops`). A card changes
the answer without the core naming it, in one of two ways:

* a static modifier on the card, in force whenever its condition holds:
  `while in_play(self): forbid can_influence(p, x) where p == us and x == cuba`;
* a modifier put in force by a statement, with a lifetime, kept in the state:
  `until turn_ended: ops_value(p, c) -= 1 where Economy in c.types` (gone when the
  event is next emitted), `forever: ...`, and `once ...` (gone when `consume`d).

A query's answer: its base; then every `=` in force (the last one wins: static
modifiers in declaration order, then the stated ones in the order they were made);
then every `+=`/`-=` added; then, for a true/false query, `allow` makes it true and
`forbid` false, and a prohibition beats a permission ("can't beats can"). Removing a
card removes all of this with it: nothing outside the card mentions it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.compile.expressions import Closure, Scope
from interpreter.compile.passes import pure, var_reads
from interpreter.core.limits import capped
from interpreter.language import syntax as ast
from interpreter.language.syntax import names_in

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
        for m in self.statics:
            if m.active(vm, [m.owner]) and (m.where is None or m.where(vm, [m.owner, *args])):
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
    if idle is not None and not (reads <= set(guard) and (not stated or slot in guard)):
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
    busy: list = [_NEVER]
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
_NEVER = object()  # what no variable holds: a guard compared with it never passes
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


class ModifierCompiler:
    """Mixed into the compiler: queries, static modifiers, `until`/`forever`/`once`
    statements and `consume`."""

    def _init_queries(self, decls) -> None:
        self.modifier_list: list[CompiledModifier] = []
        self.expiring: set[str] = set()  # events named by an `until`: their emit ends modifiers
        self.grants_slot: int | None = None
        self.changeable: set[str] = set()
        self.query_decls: dict[str, ast.Query] = {}
        for d in decls:
            if isinstance(d, ast.Query):
                self.query_decls[d.name] = d
                self.claim(d.name, "a query", d.span)
                q = QueryFunction(d.name, _unset)
                self.queries[d.name] = q
                self.ns[f"_q_{d.name}"] = q
            elif isinstance(d, ast.Entity):
                for f in d.fields:
                    if f.changeable:  # `x.f` reads the query `f(x)`, based on the component's own value
                        self.claim(f.name, "a changeable property", f.span)
                        table = self.fields.setdefault(f.name, {})
                        q = QueryFunction(f.name, lambda vm, L, table=table: table[L[0]])
                        q.pure = True  # a component's own value: fixed at load
                        self.queries[f.name] = q
                        self.ns[f"_q_{f.name}"] = q
                        self.changeable.add(f.name)

    def _grants_var(self) -> None:
        """The state's list of modifiers put in force by statements, made only for a
        game that has queries (so other games' states are unchanged)."""
        if not self.queries:
            return
        span = self.header.span
        decl = ast.Var(
            span=span,
            name=GRANTS,
            type=ast.ListType(span=span, element=ast.NamedType(span=span, name="any")),
            default=ast.ListLit(span=span, items=()),
            seen_by="all",
        )
        self._var(decl)
        self.grants_slot = self.vars[GRANTS].slot
        for q in self.queries.values():
            q.grants_slot = self.grants_slot

    def _specialise_queries(self) -> None:
        """Once every modifier is compiled, the generated code calls each query's closure."""
        for name, q in self.queries.items():
            self.ns[f"_q_{name}"] = specialised(q, self.ns.get(f"_qi_{name}"), self.query_guards.get(name))

    def _query_guards(self, decls) -> None:
        """For each query, the variables whose values alone decide whether any modifier
        of it is in force: those its static modifiers' conditions read (if they read
        nothing else) and the list of stated modifiers. A call of the query compiles to
        its base, written in place, guarded by those values being the ones last seen
        with no modifier in force (`_qi_NAME`, kept by `specialised`): most calls,
        with no card changing the rule at the time, are then no call at all."""
        slots: dict[str, set[int] | None] = {name: set() for name in self.queries}
        for d in decls:
            statics = [d] if isinstance(d, ast.StaticModifier) else list(d.statics) if isinstance(d, ast.Card) else []
            for m in statics:
                q = m.modifier.query
                if slots.get(q) is not None:
                    reads = var_reads(self.src(m.condition, Scope(["self"]), {}))
                    slots[q] = None if reads is None else slots[q] | set(reads)
        for g in ast.find_all(decls, ast.Grant):
            q = g.modifier.query
            if slots.get(q) is not None and self.grants_slot is not None:
                slots[q].add(self.grants_slot)
        for d in decls:  # a static modifier whose condition reads no variable: always called
            statics = [d] if isinstance(d, ast.StaticModifier) else list(d.statics) if isinstance(d, ast.Card) else []
            for m in statics:
                if slots.get(m.modifier.query) == set():
                    slots[m.modifier.query] = None
        self.query_guards = {q: tuple(sorted(v)) for q, v in slots.items() if v is not None}
        for q, guard in self.query_guards.items():
            self.ns[f"_qi_{q}"] = [_NEVER] * len(guard)

    def _compile_query(self, d: ast.Query) -> None:
        q = self.queries[d.name]
        q.base = self.expr(d.base, Scope([p.name for p in d.params]))
        q.pure = pure(self.src(d.base, Scope([p.name for p in d.params]), {}))

    def _pure_modifier(self, mod: ast.Modifier, names: list[str]) -> bool:
        """Do a modifier's value and `where` read nothing but their frame (`names`)?"""
        return all(pure(self.src(e, Scope(names), {})) for e in (mod.value, mod.where) if e is not None)

    def _static_modifier(self, m: ast.StaticModifier, owner: str | None) -> None:
        mod = m.modifier
        scope = Scope(["self", *mod.names])
        entry = CompiledModifier(
            query=mod.query,
            op=mod.op,
            value=self.expr(mod.value, scope) if mod.value is not None else None,
            where=self.expr(mod.where, scope) if mod.where is not None else None,
            active=self.expr(m.condition, Scope(["self"])),
            owner=owner,
            reads=var_reads(self.src(m.condition, Scope(["self"]), {})),
            pure=self._pure_modifier(mod, ["self", *mod.names]),
        )
        self.queries[mod.query].statics.append(entry)

    def grant_op(self, s: ast.Grant, scope: Scope, nxt: int):
        """The step that puts a modifier in force, capturing the locals it reads."""
        mod = s.modifier
        used = set()
        for e in (mod.value, mod.where):
            if e is not None:
                used |= names_in(e)
        captured = [n for n in sorted(used - set(mod.names)) if n in scope.slots]
        inner = Scope([*mod.names, *captured])
        entry = CompiledModifier(
            query=mod.query,
            op=mod.op,
            value=self.expr(mod.value, inner) if mod.value is not None else None,
            where=self.expr(mod.where, inner) if mod.where is not None else None,
            captured=len(captured),
            pure=self._pure_modifier(mod, [*mod.names, *captured]),
        )
        mid = len(self.modifier_list)
        self.modifier_list.append(entry)
        q = self.queries[mod.query]
        q.stated.add(mid)
        q.mods = self.modifier_list
        slots = tuple(scope.slots[n] for n in captured)
        if s.until is not None:
            self.expiring.add(s.until)
        until, once, g = s.until, s.once, self.grants_slot

        def op(vm, L):
            grant = (mid, tuple([L[i] for i in slots]), until, once)
            vm.vars[g] = capped(vm.vars[g] + (grant,))
            return nxt

        return op

    def consume_op(self, s: ast.Consume, scope: Scope, nxt: int):
        """The step that uses up the one-use modifiers now changing q(args)."""
        args = [self.expr(a, scope) for a in s.args]
        q = self.queries[s.query]
        g = self.grants_slot

        def op(vm, L):
            values = [a(vm, L) for a in args]
            kept = []
            for grant in vm.vars[g]:
                mid, captured, _until, once = grant
                if once and mid in q.stated:
                    m = q.mods[mid]
                    if m.where is None or m.where(vm, [*values, *captured]):
                        continue  # used up
                kept.append(grant)
            vm.vars[g] = tuple(kept)
            return nxt

        return op


def expirer(slot: int | None) -> Callable[[Any, str], None]:
    """What an `emit` runs when its event ends modifiers (`until` it): removes them from
    the stated modifiers in force, kept in variable `slot`. (A plain function of the
    slot: a step must hold no reference to the compiler, which is not kept.)"""

    def expire(vm: Any, event: str) -> None:
        grants = vm.vars[slot]
        if grants:
            vm.vars[slot] = tuple(x for x in grants if x[2] != event)

    return expire


def _unset(vm, L):  # pragma: no cover - every query's base is compiled before the game runs
    raise AssertionError("query used before it was compiled")
