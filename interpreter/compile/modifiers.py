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

This module compiles them (`ModifierCompiler`); what the running game calls, a query's
answer with the modifiers in force, is in queries.py.
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.expressions import ExpressionCompiler
from interpreter.compile.passes import pure, var_reads
from interpreter.compile.passtables import PassTables
from interpreter.compile.queries import GRANTS, NEVER, CompiledModifier, QueryFunction, specialised, unset_query
from interpreter.compile.scope import Scope
from interpreter.compile.steps import Closure
from interpreter.core.limits import capped
from interpreter.language import syntax as ast
from interpreter.language.syntax import names_in


class ModifierCompiler:
    """Queries, static modifiers, `until`/`forever`/`once` statements and `consume`,
    compiled into the shared tables with the expression compiler's help."""

    def __init__(self, tables: PassTables, expressions: ExpressionCompiler) -> None:
        self.tables = tables
        self.expressions = expressions

    def init_queries(self, decls) -> None:
        for d in decls:
            if isinstance(d, ast.Query):
                self.tables.query_decls[d.name] = d
                self.tables.claim(d.name, "a query", d.span)
                q = QueryFunction(d.name, unset_query)
                self.tables.queries[d.name] = q
                self.tables.ns[f"_q_{d.name}"] = q
            elif isinstance(d, ast.Entity):
                for f in d.fields:
                    if f.changeable:  # `x.f` reads the query `f(x)`, based on the component's own value
                        self.tables.claim(f.name, "a changeable property", f.span)
                        table = self.tables.fields.setdefault(f.name, {})
                        q = QueryFunction(f.name, _own_value(table))
                        q.pure = True  # a component's own value: fixed at load
                        self.tables.queries[f.name] = q
                        self.tables.ns[f"_q_{f.name}"] = q
                        self.tables.changeable.add(f.name)

    def grants_var(self) -> ast.Var | None:
        """The variable holding the modifiers put in force by statements, for a game
        that has queries (so other games' states are unchanged); None for one without.
        The variables pass declares it, then calls `grants_declared`."""
        if not self.tables.queries:
            return None
        span = self.tables.header.span
        decl = ast.Var(
            span=span,
            name=GRANTS,
            type=ast.ListType(span=span, element=ast.NamedType(span=span, name="any")),
            default=ast.ListLit(span=span, items=()),
            seen_by="all",
        )
        return decl

    def grants_declared(self) -> None:
        """Each query learns the slot of the modifiers in force, once declared."""
        self.tables.grants_slot = self.tables.vars[GRANTS].slot
        for q in self.tables.queries.values():
            q.grants_slot = self.tables.grants_slot

    def specialise_queries(self) -> None:
        """Once every modifier is compiled, the generated code calls each query's closure."""
        for name, q in self.tables.queries.items():
            self.tables.ns[f"_q_{name}"] = specialised(
                q, self.tables.ns.get(f"_qi_{name}"), self.tables.query_guards.get(name)
            )

    def guard_queries(self, decls) -> None:
        """For each query, the variables whose values alone decide whether any modifier
        of it is in force: those its static modifiers' conditions read (if they read
        nothing else) and the list of stated modifiers. A call of the query compiles to
        its base, written in place, guarded by those values being the ones last seen
        with no modifier in force (`_qi_NAME`, kept by `specialised`): most calls,
        with no card changing the rule at the time, are then no call at all."""
        slots: dict[str, set[int] | None] = {name: set() for name in self.tables.queries}
        for d in decls:
            statics = [d] if isinstance(d, ast.StaticModifier) else list(d.statics) if isinstance(d, ast.Card) else []
            for m in statics:
                q = m.modifier.query
                found = slots.get(q)
                if found is not None:
                    reads = var_reads(self.expressions.src(m.condition, Scope(["self"]), {}))
                    slots[q] = None if reads is None else found | set(reads)
        for g in self.tables.grants:
            q = g.modifier.query
            found = slots.get(q)
            if found is not None and self.tables.grants_slot is not None:
                found.add(self.tables.grants_slot)
        for d in decls:  # a static modifier whose condition reads no variable: always called
            statics = [d] if isinstance(d, ast.StaticModifier) else list(d.statics) if isinstance(d, ast.Card) else []
            for m in statics:
                if slots.get(m.modifier.query) == set():
                    slots[m.modifier.query] = None
        self.tables.query_guards = {q: tuple(sorted(v)) for q, v in slots.items() if v is not None}
        for q, guard in self.tables.query_guards.items():
            self.tables.ns[f"_qi_{q}"] = [NEVER] * len(guard)

    def compile_query(self, d: ast.Query) -> None:
        q = self.tables.queries[d.name]
        q.base = self.expressions.expr(d.base, Scope([p.name for p in d.params]))
        q.pure = pure(self.expressions.src(d.base, Scope([p.name for p in d.params]), {}))

    def _pure_modifier(self, mod: ast.Modifier, names: list[str]) -> bool:
        """Do a modifier's value and `where` read nothing but their frame (`names`)?"""
        return all(pure(self.expressions.src(e, Scope(names), {})) for e in (mod.value, mod.where) if e is not None)

    def static_modifier(self, m: ast.StaticModifier, owner: str | None) -> None:
        mod = m.modifier
        scope = Scope(["self", *mod.names])
        entry = CompiledModifier(
            query=mod.query,
            op=mod.op,
            value=self.expressions.expr(mod.value, scope) if mod.value is not None else None,
            where=self.expressions.expr(mod.where, scope) if mod.where is not None else None,
            active=self.expressions.expr(m.condition, Scope(["self"])),
            owner=owner,
            reads=var_reads(self.expressions.src(m.condition, Scope(["self"]), {})),
            pure=self._pure_modifier(mod, ["self", *mod.names]),
        )
        self.tables.queries[mod.query].statics.append(entry)

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
            value=self.expressions.expr(mod.value, inner) if mod.value is not None else None,
            where=self.expressions.expr(mod.where, inner) if mod.where is not None else None,
            captured=len(captured),
            pure=self._pure_modifier(mod, [*mod.names, *captured]),
        )
        mid = len(self.tables.modifier_list)
        self.tables.modifier_list.append(entry)
        q = self.tables.queries[mod.query]
        q.stated.add(mid)
        q.mods = self.tables.modifier_list
        slots = tuple(scope.slots[n] for n in captured)
        if s.until is not None:
            self.tables.expiring.add(s.until)
        until, once, g = s.until, s.once, self.tables.grants_slot

        def op(vm, L):
            grant = (mid, tuple([L[i] for i in slots]), until, once)
            vm.vars[g] = capped(vm.vars[g] + (grant,))
            return nxt

        return op

    def consume_op(self, s: ast.Consume, scope: Scope, nxt: int):
        """The step that uses up the one-use modifiers now changing q(args)."""
        args = [self.expressions.expr(a, scope) for a in s.args]
        q = self.tables.queries[s.query]
        g = self.tables.grants_slot

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


def _own_value(table: dict[str, Any]) -> Closure:
    """The base of a changeable property's query: the component's own value."""
    return lambda vm, L: table[L[0]]
