"""Rules that cannot end, found without running them (`gamedef check`).

Two shapes are certain from the syntax tree alone, and these are the only ones reported
(a check that guessed would cry wolf on games that end through a called rule):

- **recursion without a base case**: a procedure or def that calls itself on every path
  through its body, with nothing on the way that could stop it first (no `return`, `win`,
  `game over` or `break`, no call of another procedure, no `perform` or `emit` whose
  triggers might end the game). A def is an expression, so it recurses endlessly when the
  call to itself is evaluated whatever its arguments: not under one branch of an `if`,
  not on the right of an `and` or `or`.
- **a loop that changes nothing**: a `while` whose body writes none of the variables its
  condition reads (followed through the defs the condition calls) and has no way out
  (no `break`, `return`, `win` or `game over`, no decision, no roll, no call of a
  procedure, no `perform` or `emit`): once its condition holds, it holds for ever.

- **a trigger that sets itself off**: a `when EVENT` whose body emits EVENT on every path,
  before anything could stop it, where its `where` (if any) reads nothing the body
  changes and no other trigger of EVENT could end the game: once it runs, it runs again.
- **triggers that set each other off round a longer ring, or under a condition that never
  changes**: `when a { emit b }`, `when b { emit c }`, `when c { emit a }`; or an `emit`
  under an `if` whose condition reads nothing the ring changes (variables no rule it runs
  writes, or, in a trigger that emits its own event, its parameters passed on unchanged:
  `when scored(p, n) { if n > 0 { emit scored(p, n) } }`): once the condition holds, it
  holds every time round.
- **a phase that never ends**: a `while` whose condition reads none of the variables
  written by its body and by every rule the body may run (the procedures it calls, the
  triggers of the events it emits, the card slots it performs, the cards' `leaves`
  hooks), and from which no path leaves (no `break` or `return` in it, no `win` or
  `game over` in it or in those rules): its decisions go on for ever.

Each is an error at the call or the loop, with the fix as a hint.
"""

from __future__ import annotations

from interpreter.core.errors import Diagnostic
from interpreter.language import syntax as ast

# Statements after which a path may stop, or that may run rules that stop the game.
_ENDS = (ast.Win, ast.GameOver, ast.Return, ast.Break, ast.Perform, ast.Emit)
# Statements through which a loop's body may leave, decide, draw or run other rules.
_OUTS = (*_ENDS, ast.Choose, ast.May, ast.Roll, ast.Shuffle, ast.CallStmt)


BASE_CASE = {"procedure": "`if n == 0 { return }` before the call", "def": "`if n == 0 then 0 else ...`"}


def _expr_calls(e, name: str) -> ast.Call | None:
    """The call of `name` that evaluating `e` always makes, or None."""
    if isinstance(e, ast.Call):
        if e.func == name:
            return e
        return next((c for c in (_expr_calls(a, name) for a in e.args) if c is not None), None)
    if isinstance(e, ast.IfExpr):
        found = _expr_calls(e.condition, name)
        if found is not None:
            return found
        then = _expr_calls(e.then, name)
        return then if then is not None and _expr_calls(e.otherwise, name) is not None else None
    if isinstance(e, ast.BinOp):
        if e.op in ("and", "or"):
            return _expr_calls(e.left, name)  # the right is evaluated only sometimes
        return _expr_calls(e.left, name) or _expr_calls(e.right, name)
    if isinstance(e, ast.Not | ast.Neg):
        return _expr_calls(e.operand, name)
    if isinstance(e, ast.Member):
        return _expr_calls(e.obj, name)
    if isinstance(e, ast.Index):
        return _expr_calls(e.obj, name) or _expr_calls(e.key, name)
    if isinstance(e, ast.ListLit):
        return next((c for c in (_expr_calls(x, name) for x in e.items) if c is not None), None)
    if isinstance(e, ast.Range):
        return _expr_calls(e.low, name) or _expr_calls(e.high, name)
    if isinstance(e, ast.Comprehension):
        return _expr_calls(e.clauses[0].iterable, name) if e.clauses else None
    return None  # a literal, a name, a lambda (called only if something calls it)


def _may_stop(node, name: str, procedures: set[str]) -> bool:
    """Whether running `node` may end the path or the game before anything else: a
    statement of `_ENDS`, or a call of a procedure other than `name`."""
    for n in ast.walk(node):
        if isinstance(n, _ENDS):
            return True
        if isinstance(n, ast.CallStmt) and n.name != name:
            return True
        if isinstance(n, ast.Call) and n.func in procedures and n.func != name:
            return True
    return False


def _stmt_exprs(s) -> list:
    """The expressions a statement evaluates every time it runs, in order."""
    if isinstance(s, ast.Let):
        return [s.value]
    if isinstance(s, ast.Assign):
        return [*s.keys, s.value]
    if isinstance(s, ast.If):
        return [s.branches[0][0]]
    if isinstance(s, ast.For):
        return [s.iterable]
    if isinstance(s, ast.While):
        return [s.condition]
    if isinstance(s, ast.Choose):
        return [s.options, s.player]
    if isinstance(s, ast.Roll):
        return [s.source]
    if isinstance(s, ast.Require):
        return [s.condition]
    if isinstance(s, ast.CallStmt):
        return list(s.args)
    return []


def _body_calls(body, name: str, procedures: set[str]):
    """The node calling `name` that every path through `body` reaches before anything could
    stop it, or None."""
    for s in body:
        if isinstance(s, ast.CallStmt) and s.name == name:
            return s
        for e in _stmt_exprs(s):
            found = _expr_calls(e, name)
            if found is not None:
                return found
        if isinstance(s, ast.If) and s.otherwise is not None:
            calls = [_body_calls(b, name, procedures) for _, b in s.branches]
            calls.append(_body_calls(s.otherwise, name, procedures))
            if all(c is not None for c in calls):
                return calls[0]
        if _may_stop(s, name, procedures):
            return None
    return None


def _reads(e, defs: dict[str, ast.Def], seen: set[str]) -> set[str] | None:
    """The names an expression reads, through the defs it calls; None when it asks a query
    (which modifiers may change from anywhere) or calls a procedure."""
    names = set(ast.names_in(e))
    for call in ast.find_all(e, ast.Call):
        names.add(call.func)
    out = set(names)
    for n in names:
        if n in defs and n not in seen:
            seen.add(n)
            inner = _reads(defs[n].body, defs, seen)
            if inner is None:
                return None
            out |= inner
    return out


def _writes(body) -> set[str]:
    out = set()
    for n in ast.walk(body):
        if isinstance(n, ast.Assign):
            out.add(n.name)
        elif isinstance(n, ast.Let):
            out.add(n.name)
        elif isinstance(n, ast.For | ast.Roll | ast.Choose):
            out.add(n.var)
    return out


RING_STEPS = 20_000  # steps of the search for rings of triggers, over the whole file (`_walk`)
MAX_RINGS = 50  # rings of triggers weighed and told, at most


def endless(decls) -> list[Diagnostic]:
    """The endless recursions and loops of a program's declarations (see the module's doc)."""
    procedures = {d.name for d in decls if isinstance(d, ast.Procedure)}
    defs = {d.name: d for d in decls if isinstance(d, ast.Def)}
    queries = {d.name for d in decls if isinstance(d, ast.Query)}
    found: list[Diagnostic] = []
    for d in decls:
        call = None
        if isinstance(d, ast.Procedure):
            call = _body_calls(d.body, d.name, procedures)
            kind = "procedure"
        elif isinstance(d, ast.Def):
            call = _expr_calls(d.body, d.name)
            kind = "def"
        if call is not None:
            found.append(
                Diagnostic(
                    call.span,
                    f"{kind} '{d.name}' calls itself on every path, before anything could stop it: "
                    "an endless recursion",
                    "give it a base case that does not call it, e.g. "
                    + (
                        "`if n == 0 { return }` before the call"
                        if kind == "procedure"
                        else "`if n == 0 then 0 else ...`"
                    ),
                )
            )
    rules = _Rules(decls)
    found.extend(rules.self_triggering(defs))
    for loop in ast.find_all(list(decls), ast.While):
        if isinstance(loop.condition, ast.Bool) and not loop.condition.value:
            continue  # never runs
        if any(isinstance(n, _OUTS) for n in ast.walk(loop.body)):
            phase = rules.never_ending_phase(loop, defs, queries)
            if phase is not None:
                found.append(phase)
            continue
        if any(isinstance(n, ast.Call) and n.func in procedures for n in ast.walk(loop.body)):
            continue
        reads = _reads(loop.condition, defs, set())
        if reads is None or reads & queries or reads & procedures:
            continue
        if reads & _writes(loop.body):
            continue
        what = ", ".join(sorted(n for n in reads if n not in defs))
        found.append(
            Diagnostic(
                loop.span,
                f"this loop never ends once it starts: its condition reads {what}, which its body never changes, "
                "and nothing in it leaves the loop"
                if what
                else "this loop never ends once it starts: its condition never changes, and nothing in it leaves "
                "the loop",
                "change what the condition reads inside the loop, or leave it with `break`"
                if what
                else "leave it with `break` (or `return`, `game over`) once its work is done",
            )
        )
    return found


# Statements that end the game, or leave a loop from inside its own body.
_GAME_ENDS = (ast.Win, ast.GameOver)
_LEAVES = (ast.Break, ast.Return)


class _Rules:
    """What each rule may run: the procedures, the triggers by event, the card slots by
    name and the `leaves` hooks, for following a body into every rule it may set going."""

    def __init__(self, decls):
        self.procedures = {d.name: d.body for d in decls if isinstance(d, ast.Procedure)}
        self.variables = {d.name for d in decls if isinstance(d, ast.Var)}
        self.queries = {d.name for d in decls if isinstance(d, ast.Query)}
        # the names bound as locals anywhere (`let k = 0`): a loop's condition may read one
        self.locals = {n.name for n in ast.find_all(list(decls), ast.Let)}
        self.locals |= {n.var for kind in (ast.For, ast.Choose, ast.Roll) for n in ast.find_all(list(decls), kind)}
        self.triggers: dict[str, list[ast.Trigger]] = {}
        self.slots: dict[str, list] = {}
        self.hooks: list = []
        for d in decls:
            if isinstance(d, ast.Trigger):
                self.triggers.setdefault(d.event, []).append(d)
            elif isinstance(d, ast.Card):
                for t in d.triggers:
                    self.triggers.setdefault(t.event, []).append(t)
                for name, body, _, _ in d.slots:
                    self.slots.setdefault(name, []).append(body)
                self.hooks.extend(hook.body for hook in d.leaves)

    def closure(self, body) -> list:
        """`body` and the bodies of every rule it may run, directly or through others."""
        out, todo, seen = [], [body], set()
        todo.extend(self.hooks)
        while todo:
            b = todo.pop()
            if id(b) in seen:
                continue
            seen.add(id(b))
            out.append(b)
            for n in ast.walk(b):
                if isinstance(n, ast.CallStmt) and n.name in self.procedures:
                    todo.append(self.procedures[n.name])
                elif isinstance(n, ast.Call) and n.func in self.procedures:
                    todo.append(self.procedures[n.func])
                elif isinstance(n, ast.Emit):
                    todo.extend(t.body for t in self.triggers.get(n.event, ()))
                    todo.extend(t.where for t in self.triggers.get(n.event, ()) if t.where is not None)
                elif isinstance(n, ast.Perform):
                    todo.extend(self.slots.get(n.slot, ()))
                    if n.cancel_event is not None:
                        todo.extend(t.body for t in self.triggers.get(n.cancel_event, ()))
        return out

    def never_ending_phase(self, loop: ast.While, defs: dict, queries: set[str]) -> Diagnostic | None:
        """The error for a `while` no path leaves and whose condition nothing it runs
        changes (the module's doc), or None."""
        if any(isinstance(n, _LEAVES) for n in ast.walk(loop.body)):
            return None
        reads = _reads(loop.condition, defs, set())
        if reads is None or reads & queries or reads & set(self.procedures):
            return None
        bodies = self.closure(loop.body)
        if any(isinstance(n, _GAME_ENDS) for b in bodies for n in ast.walk(b)):
            return None
        if reads & set().union(*(_writes(b) for b in bodies)):
            return None
        changeable = sorted(reads & (self.variables | self.locals))
        shown = ", ".join(changeable)
        what = f"its condition reads {shown}, which nothing it runs changes" if shown else "its condition never changes"
        return Diagnostic(
            loop.span,
            f"this loop never ends, and the game with it: {what}, and no `win`, `game over`, `break` "
            "or `return` is in it or in the rules it runs",
            f"change {shown} in the loop (`{changeable[0]} += 1`), or end the game in it"
            if shown
            else "end the game in it (`game over best(players, p => score[p])`), or leave it with `break`",
        )

    def _may_stop(self, t: ast.Trigger) -> bool:
        """Whether trigger `t`'s `where` reads something its body (or a rule it runs)
        changes, or a procedure's result: then it may stop setting itself off."""
        if t.where is None:
            return False
        reads = set(ast.names_in(t.where)) | {c.func for c in ast.find_all(t.where, ast.Call)}
        return bool(reads & set().union(*(_writes(b) for b in self.closure(t.body))) or reads & set(self.procedures))

    def _enders(self, event: str, besides: list) -> list:
        """The other triggers of `event` (not in `besides`) that may end the game, or stop
        the event going round (a `perform` or `cancel`), themselves or through a rule they run."""
        out = []
        for o in self.triggers.get(event, ()):
            if any(o is b for b in besides):
                continue
            if any(isinstance(n, (*_GAME_ENDS, ast.Perform, ast.Cancel)) for n in ast.walk(o.body)) or any(
                isinstance(n, _GAME_ENDS) for b in self.closure(o.body) for n in ast.walk(b)
            ):
                out.append(o)
        return out

    def self_triggering(self, defs: dict | None = None) -> list[Diagnostic]:
        """The triggers that emit their own event on every path before anything could stop
        them (the module's doc): an error when nothing else could end the game on the way
        round, a warning naming the trigger that would when one might (then the event goes
        round until that trigger's condition holds, and the game ends there, or it never
        does); and the same for two triggers that set each other off (`when a { emit b }`,
        `when b { emit a }`)."""
        found = []
        for event, triggers in self.triggers.items():
            for t in triggers:
                emit = _first_emit(t.body, event)
                if emit is None or self._may_stop(t):
                    continue
                enders = self._enders(event, [t])
                if not enders:
                    found.append(
                        Diagnostic(
                            emit.span,
                            f"this trigger of '{event}' emits '{event}' on every path, so it sets itself off again: "
                            "an endless recursion once it runs",
                            f"emit another event here, or emit '{event}' only under a condition the trigger changes",
                        )
                    )
                    continue
                found.append(
                    Diagnostic(
                        emit.span,
                        f"this trigger of '{event}' emits '{event}' on every path, so it sets itself off again and "
                        f"again: it stops only when the trigger at {_at(enders[0])} ends the game",
                        f"emit '{event}' only under a condition this trigger changes (`if not done {{ done = true; "
                        f"emit {event}(...) }}`), or emit another event here",
                        "warning",
                    )
                )
        found.extend(self._cycles())
        found.extend(self._rings(defs or {}))
        return found

    def _guarded_emit(self, t: ast.Trigger, defs: dict) -> tuple[ast.Emit, bool] | None:
        """The first `emit` that every run of trigger `t` reaches before anything could stop
        it, once the conditions of the `if`s around it hold, and whether any did; None when
        there is none, or when a condition may change (it reads a local, a query, a
        procedure's result, or a parameter of the trigger not passed on unchanged to its
        own event). Whether a condition's variables change is asked of the whole ring
        (`_rings`)."""
        params = list(t.names)
        conditions: list = []

        def first(body) -> ast.Emit | None:
            for s in body:
                if isinstance(s, ast.Emit):
                    return s
                if isinstance(s, ast.If):
                    if s.otherwise is not None:
                        found = [_first_any_emit(b) for _, b in s.branches] + [_first_any_emit(s.otherwise)]
                        if all(f is not None for f in found) and len({f.event for f in found if f}) == 1:
                            return found[0]
                    kept = len(conditions)
                    for cond, inner in s.branches:
                        conditions.append(cond)
                        emit = first(inner)
                        if emit is not None:
                            return emit
                    del conditions[kept:]  # no branch emits: on past it, if nothing in it could stop
                if any(isinstance(n, (*_ENDS, ast.CallStmt, ast.Choose, ast.May)) for n in ast.walk(s)):
                    return None
            return None

        emit = first(t.body)
        if emit is None:
            return None
        for cond in conditions:
            reads = _reads(cond, defs, set())
            if reads is None or reads & (set(self.procedures) | self.queries | (self.locals - set(params))):
                return None
            for name in reads & set(params):
                i = params.index(name)
                passed = emit.args[i] if emit.event == t.event and i < len(emit.args) else None
                if not (isinstance(passed, ast.Name) and passed.id == name):
                    return None
        return emit, bool(conditions)

    def _walk(self, start, path: list, edges: dict, found: list, seen: set, budget: list[int]) -> None:
        """The rings from `start` along `path`: each event at most once (a ring through an
        event twice holds a shorter one), 16 triggers at most, and `budget[0]` steps in all
        over every start, so that a file of many triggers of each event (whose rings are
        as many as the choices of one trigger per event) is checked in bounded time; the
        rings past it, and past `MAX_RINGS`, are left to play. One ring is kept for each
        set of events: every trigger of an event runs when it is emitted."""
        _, emit, _ = edges[id(path[-1])]
        for u in self.triggers.get(emit.event, ()):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            if u is start:
                ring = frozenset(x.event for x in path)  # (one ring told per set of events)
                if ring not in seen and len(found) < MAX_RINGS:
                    seen.add(ring)
                    found.append(list(path))
            elif id(u) in edges and all(u.event != x.event for x in path) and len(path) < 16:
                self._walk(start, [*path, u], edges, found, seen, budget)

    def _rings(self, defs: dict) -> list[Diagnostic]:
        """Rings of triggers the other checks leave (`self_triggering`, `_cycles`): three or
        more triggers each setting the next off on every path, or any ring whose emit is
        under an `if` that never changes; an error at the first trigger's emit, in the
        order of the source."""
        edges: dict[int, tuple[ast.Trigger, ast.Emit, bool]] = {}
        for triggers in self.triggers.values():
            for t in triggers:
                found = self._guarded_emit(t, defs)
                if found is not None and not self._may_stop(t):
                    edges[id(t)] = (t, *found)
        by_id = {i: edge[0] for i, edge in edges.items()}
        found_rings: list[list[ast.Trigger]] = []
        seen_rings: set[frozenset[str]] = set()
        order = sorted(by_id.values(), key=lambda t: (t.span.path, t.span.line, t.span.column))
        budget = [RING_STEPS]
        for start in order:
            self._walk(start, [start], edges, found_rings, seen_rings, budget)
        out = []
        for ring in found_rings:
            emits = [edges[id(t)][1] for t in ring]
            conditional = any(edges[id(t)][2] for t in ring)
            if not conditional and len(ring) <= 2:
                continue  # told by `self_triggering` or `_cycles`, when certain
            if any(self._enders(edges[id(t)][0].event, ring) for t in ring):
                continue
            written = set().union(*(_writes(b) for t in ring for b in self.closure(t.body)))
            if conditional and any(
                (_reads(c, defs, set()) or set()) & (written - set(t.names))
                for t in ring
                for c in _conditions_to(t.body, edges[id(t)][1])
            ):
                continue
            names = " -> ".join(f"'{t.event}' ({_at(t)})" for t in ring)
            back = f"'{ring[0].event}'"
            if conditional and len(ring) == 1:
                message = (
                    f"this trigger of '{ring[0].event}' emits '{ring[0].event}' under a condition nothing it does "
                    "changes (what it reads, or its parameters passed on as they came): once the condition holds, "
                    "it sets itself off again and again, an endless recursion"
                )
                hint = "change what the condition reads before the emit (`done = true`), or emit another event"
            elif conditional:
                message = (
                    f"this trigger of '{ring[0].event}' emits '{emits[0].event}' under a condition nothing on the "
                    f"way round changes, and the triggers it sets off come back to {back}: "
                    f"{names}: once the condition holds, an endless recursion"
                )
                hint = "change what the condition reads before the emit (`done = true`), or emit another event"
            else:
                message = (
                    f"this trigger of '{ring[0].event}' emits '{emits[0].event}', and the triggers it sets off "
                    f"come back to {back} on every path: {names}: an endless recursion once any of them runs"
                )
                hint = "emit one of them only under a condition the triggers change, or emit another event"
            out.append(Diagnostic(emits[0].span, message, hint))
        return out

    def _cycles(self) -> list[Diagnostic]:
        """Two triggers of different events each emitting the other's event on every path,
        before anything could stop them, neither `where` reading what they change and no
        other trigger of either event able to end the game: an error at the first's emit."""
        found = []
        said: set[frozenset[int]] = set()
        for event, triggers in self.triggers.items():
            for t in triggers:
                emit = _first_any_emit(t.body)
                if emit is None or emit.event == event or self._may_stop(t):
                    continue
                for u in self.triggers.get(emit.event, ()):
                    back = _first_any_emit(u.body)
                    if back is None or back.event != event or self._may_stop(u):
                        continue
                    pair = frozenset((id(t), id(u)))
                    if pair in said or self._enders(event, [t]) or self._enders(emit.event, [u]):
                        continue
                    said.add(pair)
                    found.append(
                        Diagnostic(
                            emit.span,
                            f"this trigger of '{event}' emits '{emit.event}', whose trigger at {_at(u)} emits "
                            f"'{event}' on every path: each sets the other off again, an endless recursion once "
                            "either runs",
                            "emit one of them only under a condition the triggers change, or emit another event",
                        )
                    )
        return found


def _at(t) -> str:
    """Where a trigger is written, as a message names it: FILE:LINE."""
    return f"{t.span.path}:{t.span.line}"


def _conditions_to(body, emit: ast.Emit) -> list:
    """The conditions of the `if`s (and of the branches before) on the way to `emit` in `body`."""
    for s in body:
        if s is emit:
            return []
        if isinstance(s, ast.If):
            seen = []
            for cond, inner in s.branches:
                seen.append(cond)
                if any(n is emit for n in ast.walk(inner)):
                    return seen + _conditions_to(inner, emit)
            if s.otherwise is not None and any(n is emit for n in ast.walk(s.otherwise)):
                return []
    return []


def _first_any_emit(body) -> ast.Emit | None:
    """The first `emit` (of any event) that every path through `body` reaches, at its top
    level, before anything could stop it."""
    for s in body:
        if isinstance(s, ast.Emit):
            return s
        if any(isinstance(n, (*_ENDS, ast.CallStmt, ast.Choose, ast.May)) for n in ast.walk(s)):
            return None
    return None


def _first_emit(body, event: str) -> ast.Emit | None:
    """The `emit EVENT` every path through `body` reaches before anything could stop it."""
    for s in body:
        if isinstance(s, ast.Emit) and s.event == event:
            return s
        if isinstance(s, ast.If) and s.otherwise is not None:
            found = [_first_emit(b, event) for _, b in s.branches] + [_first_emit(s.otherwise, event)]
            if all(f is not None for f in found):
                return found[0]
        if any(isinstance(n, (*_ENDS, ast.CallStmt, ast.Choose, ast.May)) for n in ast.walk(s)):
            return None
    return None
