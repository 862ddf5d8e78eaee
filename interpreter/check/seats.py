"""Seats named where they may not be in play: `check`'s warnings for a seat constant a rule
writes to, or asks a decision of, at a player count that has no such seat.

A game's seats in play depend on the player count when its header has `roles` (The Wall
is Down plays `west` and `east` with two players, `us` and the others with three or four)
or declares more seats than its fewest players take. Writing `vp[us]` with two players
would change what no rule reads, so the runtime refuses it (`VM.seat_written`); this
warns where it can tell before any game is played:

* a seat constant as the key of a write to a variable keyed first by player (`vp[us] += 1`);
* a seat constant passed to a procedure whose parameter is written to that way, directly
  or through the procedures it calls (`add_influence(us, x, 1)`);
* a seat constant asked a decision (`choose ... by us`, `may us ...`),

when the seat is missing at some allowed player count and the line is not guarded: an
enclosing `if`, `elif` or `while` whose condition names `players`, the seat itself, or
any function or query (which may well test the player count, as `two_player()` does) is
taken as a guard. The rule has few false alarms by design: a seat named through a rule
that maps it (`side(us)`) is not a constant where it is written, and is not warned of.
"""

from __future__ import annotations

from typing import Any

from interpreter.core.errors import Diagnostic, Span, did_you_mean
from interpreter.language import syntax as ast
from interpreter.language.program import Program


def in_play_by_count(header: ast.GameHeader) -> dict[int, set[str]]:
    """The seats that may be in play at each allowed player count: the seats of every role
    rule for that count (whatever the options) and their `with` seats, or the first N
    seats where no rule gives the count (as the engine picks them)."""
    present = dict(header.present)
    out: dict[int, set[str]] = {}
    rules = [(count, names) for count, names in header.roles]
    rules += [(count, names) for count, names, _, _ in header.option_roles]
    for n in range(header.min_players, header.max_players + 1):
        seats: set[str] = set()
        found = False
        for count, names in rules:
            if count == n:
                found = True
                seats.update(names)
                seats.update(present.get(tuple(names), ()))
        if not found:
            seats.update(header.seats[:n])
        out[n] = seats
    return out


def _seat_keyed(program: Program) -> dict[str, frozenset[int]]:
    """Each variable keyed first by player, with the depth of that key (0), as the runtime
    checks it (compile/blocks.py)."""
    out: dict[str, frozenset[int]] = {}
    for d in program.decls:
        t = d.type if isinstance(d, ast.Var) else None
        if isinstance(t, ast.MapType) and isinstance(t.key, ast.NamedType) and t.key.name == "player":
            out[d.name] = frozenset((0,))
    return out


def _children(s) -> list[tuple[Any, tuple]]:
    """The blocks inside a statement, each with the condition that guards it (None: none)."""
    out: list[tuple[Any, tuple]] = []
    if isinstance(s, ast.If):
        out = [(cond, body) for cond, body in s.branches]
        if s.otherwise:  # guarded by the first condition, false
            out.append((s.branches[0][0], s.otherwise))
    elif isinstance(s, ast.While):
        out = [(s.condition, s.body)]
    elif isinstance(s, ast.For):
        out = [(None, s.body)]
    elif isinstance(s, ast.May):
        out = [(None, s.body)] + ([(None, s.otherwise)] if s.otherwise else [])
    return out


def _calls(s) -> ast.Call | None:
    """The procedure call a statement makes, if any (a call, or `let`/`=` of one)."""
    if isinstance(s, ast.CallStmt):
        return ast.Call(span=s.span, func=s.name, args=s.args)
    value = getattr(s, "value", None) if isinstance(s, ast.Let | ast.Assign | ast.Return) else None
    return value if isinstance(value, ast.Call) else None


class _Seats:
    def __init__(self, program: Program):
        self.program = program
        self.keyed = _seat_keyed(program)
        self.procs = {d.name: d for d in program.decls if isinstance(d, ast.Procedure)}
        self.functions = {d.name for d in program.decls if isinstance(d, ast.Def | ast.Query)}
        h = program.header
        self.by_count = in_play_by_count(h)
        seats = set(h.seats) | {s for _, names in h.roles for s in names}
        seats |= {s for _, names, _, _ in h.option_roles for s in names}
        self.missing = {
            s: [n for n, here in sorted(self.by_count.items()) if s not in here]
            for s in seats
            if any(s not in here for here in self.by_count.values())
        }
        self.titles = dict(h.seat_titles)
        # a query from a seat to a seat (`side(us)`): the usual way to name a seat in play
        self.mapping = next(
            (
                d.name
                for d in program.decls
                if isinstance(d, ast.Query)
                and len(d.params) == 1
                and all(isinstance(t, ast.NamedType) and t.name == "player" for t in (d.params[0].type, d.type))
            ),
            None,
        )
        self.written = self._written_params()
        self.diags: list[Diagnostic] = []
        # locals that hold a seat constant (`let w = us`, `for q in [north, west]`), in the body walked
        self.aliases: dict[str, str] = {}

    # -- which procedure parameters end up as the key of a write --------------------------
    def _written_params(self) -> dict[str, set[int]]:
        written: dict[str, set[int]] = {name: set() for name in self.procs}
        # each procedure's writes and calls, found once (the loop below runs to a fixed point)
        relevant = {
            name: [s for s in ast.walk(proc.body) if isinstance(s, ast.CallStmt | ast.Let | ast.Assign | ast.Return)]
            for name, proc in self.procs.items()
        }
        changed = True
        while changed:
            changed = False
            for name, proc in self.procs.items():
                params = [p.name for p in proc.params]
                found = set(written[name])
                for s in relevant[name]:
                    if isinstance(s, ast.Assign) and s.name in self.keyed:
                        for depth in self.keyed[s.name]:
                            key = s.keys[depth] if depth < len(s.keys) else None
                            if isinstance(key, ast.Name) and key.id in params:
                                found.add(params.index(key.id))
                    call = _calls(s) if isinstance(s, ast.CallStmt | ast.Let | ast.Assign | ast.Return) else None
                    if call is not None and call.func in written:
                        for j in written[call.func]:
                            arg = call.args[j] if j < len(call.args) else None
                            if isinstance(arg, ast.Name) and arg.id in params:
                                found.add(params.index(arg.id))
                if found != written[name]:
                    written[name] = found
                    changed = True
        return written

    # -- the walk ------------------------------------------------------------------------
    def _guards(self, cond: ast.Expr | None, seat: str) -> bool:
        if cond is None:
            return False
        for n in ast.walk(cond):
            if isinstance(n, ast.Name) and n.id in ("players", seat):
                return True
            if isinstance(n, ast.Call) and n.func in self.functions:
                return True
            if isinstance(n, ast.Name) and n.id in self.functions:  # a def of no parameters
                return True
        return False

    def _seat(self, e, bound: set[str]) -> str | None:
        """The seat a constant names that is missing at some player count, or None."""
        if isinstance(e, ast.Name) and e.id in self.aliases:
            return self.aliases[e.id]
        if isinstance(e, ast.Name) and e.id in self.missing and e.id not in bound:
            return e.id
        return None

    def body(self, stmts, bound: set[str], guards: tuple) -> None:
        for s in stmts:
            self.stmt(s, bound, guards)

    def _alias(self, s, bound: set[str]) -> None:
        """A local that takes a seat constant names that seat where it is written to
        (`let w = us` then `add_influence(w, x, 1)`); assigned anything else, it no longer does."""
        if isinstance(s, ast.Let | ast.Assign) and not getattr(s, "keys", ()):
            seat = self._seat(s.value, bound)
            if seat is not None:
                self.aliases[s.name] = seat
            else:
                self.aliases.pop(s.name, None)
        elif isinstance(s, ast.For):
            self.aliases.pop(s.var, None)
            items = s.iterable.items if isinstance(s.iterable, ast.ListLit) else ()
            seat = next((x for x in (self._seat(i, bound) for i in items) if x is not None), None)
            if seat is not None:
                self.aliases[s.var] = seat
        elif isinstance(s, ast.Choose | ast.Roll):
            self.aliases.pop(s.var, None)

    def stmt(self, s, bound: set[str], guards: tuple) -> None:
        self._alias(s, bound)
        if isinstance(s, ast.Assign) and s.name in self.keyed:
            for depth in self.keyed[s.name]:
                seat = self._seat(s.keys[depth], bound) if depth < len(s.keys) else None
                if seat is not None:
                    shown = s.name + "".join(f"[{_text(k)}]" for k in s.keys)
                    self.warn(s.span, seat, guards, f"{shown} is written")
        call = _calls(s)
        if call is not None and call.func in self.written:
            for j in sorted(self.written[call.func]):
                seat = self._seat(call.args[j], bound) if j < len(call.args) else None
                if seat is not None:
                    what = f"{seat} is passed to {call.func}(), which writes an entry keyed by it"
                    self.warn(call.span, seat, guards, what)
        if isinstance(s, ast.Choose | ast.May):
            seat = self._seat(s.player, bound)
            if seat is not None:
                self.warn(s.span, seat, guards, f"{seat} is asked a decision")
        for cond, inner in _children(s):
            self.body(inner, bound, (*guards, cond))

    def warn(self, span, seat: str, guards: tuple, what: str) -> None:
        if any(self._guards(g, seat) for g in guards):
            return
        counts = self.missing[seat]
        n = counts[0]
        title = self.titles.get(seat, seat)
        order = self.program.header.seats
        listed = sorted(self.by_count[n], key=lambda x: (order.index(x) if x in order else len(order), x))
        here = ", ".join(self.titles.get(x, x) for x in listed)
        at = " or ".join(str(c) for c in counts)
        self.diags.append(
            Diagnostic(
                span,
                f"{what}, but {title} is not in play with {at} player{'s' if counts[-1] != 1 else ''} "
                f"(with {n}, the seats are {here}): the game stops there with an error",
                f"guard it (`if {seat} in players {{ ... }}`), or name the seat through a rule that "
                "gives the seat in play at every count" + (f", as {self.mapping}({seat})" if self.mapping else ""),
                "warning",
            )
        )


def _text(e) -> str:
    if isinstance(e, ast.Name):
        return e.id
    return "..."


def _bound(params, body) -> set[str]:
    """Every local name a body binds (and its parameters): a local named like a seat hides it."""
    names = {p.name for p in params}
    for s in ast.walk(body):
        if isinstance(s, ast.Let):
            names.add(s.name)
        elif isinstance(s, ast.For | ast.Choose | ast.Roll):
            names.add(s.var)
    return names


def seat_warnings(program: Program) -> list[Diagnostic]:
    """The warnings described in the module's doc, for the procedures, triggers and cards."""
    seats = _Seats(program)
    if not seats.missing:
        return _test_seats(program, seats)  # (a test may still name a seat the game lacks)
    for d in program.decls:
        seats.aliases = {}
        if isinstance(d, ast.Procedure):
            seats.body(d.body, _bound(d.params, d.body), ())
        elif isinstance(d, ast.Trigger):
            seats.body(d.body, _bound((), d.body) | set(d.names), ())
        elif isinstance(d, ast.Card):
            for t in d.triggers:
                seats.body(t.body, _bound((), t.body) | set(t.names), ())
            for hook in d.leaves:
                seats.body(hook.body, _bound((), hook.body), ())
            for _, body, _, params in d.slots:
                seats.aliases = {}
                seats.body(body, _bound(params, body), ())
    return seats.diags + _test_seats(program, seats)


def _test_reads(program: Program, t: ast.Test, n: int, here: set[str]) -> list[Diagnostic]:
    """A test's `logged("TEXT", SEAT)` (alone or in a condition) and `winner() == [SEATS]`
    naming a seat that is no seat of the game, or not in play at the test's player count:
    `gamedef test` fails it whatever the game does, so `check` says it at the step's line."""
    h = program.header
    order = h.seats
    seats = set(order) | {s for _, names in h.roles for s in names}
    seats |= {s for _, names, _, _ in h.option_roles for s in names}
    listed = ", ".join(sorted(here, key=lambda x: order.index(x) if x in order else len(order)))
    out: list[Diagnostic] = []
    if not order:  # seats the header does not name: the checker does not know their names
        return out
    keyed = _seat_keyed(program)
    for step in t.steps:
        out.extend(_seat_reads(t, step, keyed, seats, here, n, listed))
        named = [(step.seat, "logged")] if step.seat else []
        named += [(f[3], "logged") for f in step.forms if f[3]]
        named += [(seat, "winner") for seat in step.names] if step.kind == "winner" else []
        deciders = {f[0] for f in step.forms if f[1] == "decider"}
        if deciders and step.expr is not None:  # `expect deciding() == west`
            for b in ast.find_all(step.expr, ast.BinOp):
                if b.op == "==" and isinstance(b.left, ast.Name) and isinstance(b.right, ast.Name):
                    ids = [b.left.id, b.right.id]
                    other = ids[1] if ids[0] in deciders else ids[0] if ids[1] in deciders else None
                    if other in seats:  # a seat written out (not a variable holding one)
                        named.append((other, "deciding"))
        for seat, form in named:
            if seat in here:
                continue
            what = {
                "logged": f'logged("...", {seat})',
                "deciding": f"deciding() == {seat}",
                "winner": f"winner() == [{', '.join(step.names)}]",
            }[form]
            if seat not in seats:
                hint = did_you_mean(seat, sorted(seats)) or f"the game's seats: {', '.join(order)}"
                message = f"test {t.name}: {what} names '{seat}', which is no seat of the game"
                out.append(Diagnostic(step.span, message, hint))
            elif seat not in here:
                out.append(
                    Diagnostic(
                        step.span,
                        f"test {t.name}: {what} names {seat}, which is not in play with {n} players "
                        f"(the seats in play: {listed}): the test would fail here whatever the game does",
                        f"name a seat in play ({listed}), or give the test the players that have {seat}: `players N`",
                    )
                )
            if form == "winner":  # one error for the list
                break
    return out


def _seat_reads(
    t: ast.Test, step: ast.TestStep, keyed: dict, seats: set[str], here: set[str], n: int, listed: str
) -> list[Diagnostic]:
    """An `expect` or `reach` condition reading a variable keyed by player at a seat of the
    game that is not in play at the test's player count (`score[green]` with `players 2`):
    the entry holds its starting value whatever the game does, so the condition tests
    nothing of the game, and `check` says so where it is read."""
    if step.expr is None:
        return []
    out: list[Diagnostic] = []
    for e in ast.find_all(step.expr, ast.Index):
        if not (isinstance(e.obj, ast.Name) and e.obj.id in keyed and isinstance(e.key, ast.Name)):
            continue
        seat = e.key.id
        if seat in seats and seat not in here:
            out.append(
                Diagnostic(
                    e.span,
                    f"test {t.name}: {e.obj.id}[{seat}] reads {seat}, which is not in play with {n} players "
                    f"(the seats in play: {listed}): it holds its starting value whatever the game does",
                    f"read a seat in play ({listed}), or give the test the players that have {seat}: `players N`",
                )
            )
    return out


def _roll_values(program: Program) -> list[tuple[int, int]] | None:
    """Every result a `roll` of the game (or of its tests) can give, when each rolls from
    numbers written out (`1..6`, `[1, 2, 3]`), as runs of whole numbers (low, high), in
    order, runs that touch joined; None when one rolls from anything else. Runs, not the
    numbers themselves: a roll of `1..1000000000000` is one pair, not a million million."""
    runs: list[tuple[int, int]] = []
    for r in ast.find_all((program.decls, program.tests), ast.Roll):
        src = r.source
        if isinstance(src, ast.Range) and isinstance(src.low, ast.Int) and isinstance(src.high, ast.Int):
            if src.low.value <= src.high.value:
                runs.append((src.low.value, src.high.value))
        elif isinstance(src, ast.ListLit) and all(isinstance(x, ast.Int) for x in src.items):
            runs.extend((x.value, x.value) for x in src.items if isinstance(x, ast.Int))
        else:
            return None
    joined: list[tuple[int, int]] = []
    for low, high in sorted(runs):
        if joined and low <= joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], max(joined[-1][1], high))
        else:
            joined.append((low, high))
    return joined


class _Rolls:
    """What the game's and its tests' `roll`s can give, found once for all the tests
    (each walk is of the whole program: one per test made `check` quadratic in a file
    of many tests and long rules)."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self._any: bool | None = None
        self._runs: list[tuple[int, int]] | None = None
        self._runs_known = False

    @property
    def any(self) -> bool:
        """Does the game or a test roll at all?"""
        if self._any is None:
            found = ast.find_all((self.program.decls, self.program.tests), ast.Roll)
            self._any = bool(found)
        return self._any

    @property
    def runs(self) -> list[tuple[int, int]] | None:
        """`_roll_values` of the program."""
        if not self._runs_known:
            self._runs, self._runs_known = _roll_values(self.program), True
        return self._runs


def _test_dice(program: Program, t: ast.Test, rolls: _Rolls) -> list[Diagnostic]:
    """A test's `dice [...]` pinning a result no `roll` of the game can give (`dice [7]`
    where every roll is of 1..6): `gamedef test` stops at that roll whatever the game
    does, so `check` says it at the `dice` line."""
    if not t.dice or t.state is not None or sorted(set(t.variants)) != sorted(v.name for v in program.variants):
        return []  # (a test is checked with exactly its variants: their rolls are its own)
    span = t.span
    text = program.sources.get(t.span.path, "")
    at = text.find("dice", t.source_range[0], t.source_range[1]) if text else -1
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        span = Span(t.span.path, line, at - text.rfind("\n", 0, at))
    if not rolls.any:
        # nothing to pin: the test would pass as if the dice were rolled as written
        return [
            Diagnostic(
                span,
                f"test {t.name}: dice [{', '.join(map(str, t.dice))}] pins the results of `roll`s, and the game "
                "rolls none",
                "remove the `dice` line; a shuffle is set by `seed N`, or lay the cards out in `arrange { ... }`",
            )
        ]
    runs = rolls.runs
    if not runs:  # rolls of anything but numbers written out, or empty ranges
        return []
    bad = [d for d in t.dice if not any(low <= d <= high for low, high in runs)]
    if not bad:
        return []
    if len(runs) == 1:
        gives = f"{runs[0][0]} to {runs[0][1]}"
    elif all(low == high for low, high in runs):
        gives = ", ".join(str(low) for low, _ in runs)
    else:
        gives = ", ".join(f"{low} to {high}" if low != high else str(low) for low, high in runs)
    return [
        Diagnostic(
            span,
            f"test {t.name}: dice [{', '.join(map(str, t.dice))}] pins {bad[0]}, which no roll of the game gives "
            f"(its rolls give {gives})",
            "each value pins the next `roll`'s result, in order: give results the rolls can give",
        )
    ]


def _test_seats(program: Program, seats: _Seats) -> list[Diagnostic]:
    """A test's `arrange` or `run` that writes to a seat not in play at the test's player
    count (`score[west] = 3` with `players 2` where west is the fourth seat): the count is
    the test's, so the write is certain to stop the test, and is an error at its line."""
    out: list[Diagnostic] = []
    h = program.header
    rolls = _Rolls(program)
    for t in program.tests:
        n = t.players if t.players is not None else (h.default_players or h.min_players)
        here = seats.by_count.get(n)
        if here is None:
            continue  # a count the header does not allow: an error of its own (checker.py)
        out.extend(_test_reads(program, t, n, here))
        out.extend(_test_dice(program, t, rolls))
        bodies = [step.body for step in t.steps if step.kind == "arrange"] + ([t.run] if t.run is not None else [])
        for body in bodies:
            bound = _bound((), body)
            for s in ast.walk(body):
                if not isinstance(s, ast.Assign) or s.name not in seats.keyed or not s.keys:
                    continue
                key = s.keys[0]
                if isinstance(key, ast.Name) and key.id not in bound and key.id in seats.missing and key.id not in here:
                    shown = s.name + "".join(f"[{_text(k)}]" for k in s.keys)
                    order = h.seats
                    listed = ", ".join(sorted(here, key=lambda x: order.index(x) if x in order else len(order)))
                    out.append(
                        Diagnostic(
                            s.span,
                            f"test {t.name}: {shown} is written, but {key.id} is not in play with {n} players "
                            f"(the seats in play: {listed}): the test would stop here",
                            f"write to a seat in play ({listed}), or give the test the players that have "
                            f"{key.id}: `players N`",
                        )
                    )
    return out
