"""What `gamedef check` plays: the new and changed rules of a file run in real games.

The static checks see names, types and arity; an empty `choose`, a loop without end, an
endless recursion or a none read where a number is needed shows only when a rule runs. So
`check` plays the declarations a file adds or changes, within a time budget, and reports a
run-time error as a check error with what reproduces it.

What is new or changed: the declarations of the program that the games the file
includes by name (`include twid`) do not hold as they are, compared by name and by their
syntax tree (a `replace` of a bundled rule is changed, a new card is new, a trigger added
anywhere is new). A file that includes no game by name is new throughout.

How it plays: seeded random games at every player count, under each variant that brings
a change, taken in turn, game i of a count being exactly `gamedef run FILE --players N
--seed i` (the same random agents, seeded the same way), so a failing game is watched again
with that command; and random moves from each position the designer's tests arrange
(`test` blocks in the file and in its `NAME.test.game`, as `gamedef test` compiled them).
A new card with statements of its own counts as reached when a step of its code runs or a
seat picks it in a decision; a new card of a file that includes a game, never reached, is
warned of (it may be unplayable: never dealt, or its conditions never met). A game of its
own is new throughout, and the summary says how many of its cards were reached.

When it stops: the budget is an upper bound, not a time to fill. Each line of play (a
player count under some variants, or a test's position) is done once it has played
ENOUGH_GAMES games and every new or changed card with rules of its own, procedure and
trigger in its game has been reached ENOUGH_PLAYS times in that line's games (a step of
its code run, or, for a card, a seat picking it); play stops when every line is done, so
a small edit checks in a fraction of a second. A def, query or modifier is written into
the code that asks it (inlined, or a query's answer), so it has no steps of its own to
count: it is exercised by the games its line plays. What no game reaches keeps its lines
playing until the budget is spent, and a new card never reached is warned of.
"""

from __future__ import annotations

import array
import contextlib
import mmap
import os
import pickle
import signal
import tempfile
import threading
import time
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs

from interpreter.core.errors import Diagnostic, GameDefError, GameRuntimeError, Span, UsageError
from interpreter.core.limits import MAX_DECISIONS, LimitExceeded
from interpreter.core.paths import read_roots
from interpreter.language import syntax as ast
from interpreter.language.parser import parse_file
from interpreter.language.program import Program, bundled_names, decl_key, load_program
from interpreter.play import verdicts
from interpreter.play.agents import parse_agents
from interpreter.play.verdicts import LineRecord, Verdict
from interpreter.runtime.game import Game
from interpreter.runtime.load import load_game
from interpreter.runtime.machine import State, steps_spent
from interpreter.runtime.saving import violations

DEFAULT_BUDGET = 3.0  # seconds of play for a file that includes a game (the designer's edit loop)
OWN_GAME_BUDGET = 1.0  # seconds for a game of its own: everything is new, `simulate` plays it at length
ENOUGH_GAMES = 2  # games per line of play (a player count and variants, or a test) before it may stop ...
ENOUGH_PLAYS = 10  # ... once each of its new and changed rules with steps has been reached this many times
TRACKED = ("card", "procedure", "trigger")  # what has steps of its own to count (a card: only with rules)
TEST_SEEDS = 1000  # the seeds of random moves from a test's position: 1000 + k, not a game's seed
# A move still computing when the budget runs out, after this many steps without a decision
# (loop turns, list items read, calls: what the step budget counts, STEP_LIMIT a move), is
# reported as a rule that loops or computes far too much; the step budget would stop it only
# later, after as long as its million steps take. Steps, not seconds: a move's steps are the
# same on any machine at any load (its CPU time is not: a collection of a big heap, a machine
# shared with other work), and the bundled games' moves take at most 42,398 (Downfall of
# Empires, 4 players; The Wall is Down 7,258), a loop that runs away 100,000 within a
# fraction of a second.
SLOW_STEPS = 100_000
# The game's invariants (bounds, zones, `invariant`s) are checked after every this many
# decisions of a game `check` plays, and at its end: a rule that breaks one is found, at a
# small part of the play's time (all of them, after every move, cost as much as the move).
BOUNDS_EVERY = 16
# A game check played that ran this many decisions without ending is told of: random games
# of the bundled games end within 36,000 (Berlin Wall, the longest: 450 games at 2 to 4
# players, median 7,497, the longest 35,789), and a game whose goal can't be reached plays
# on until `gamedef run` stops it at `limits.MAX_DECISIONS` (100,000).
LONG_GAME = 60_000
LOOPS = "a rule loops forever or computes far too much?"  # how the step budget's error, and this, end
OUT_OF_TIME = f"when check's budget ran out in this move: {LOOPS}"
KINDS = {
    ast.Card: "card",
    ast.Procedure: "procedure",
    ast.Trigger: "trigger",
    ast.Def: "def",
    ast.Query: "query",
    ast.StaticModifier: "modifier",
}


STATEMENTS = tuple(t for t in typing.get_args(ast.Stmt) if t not in (ast.Cite, ast.Note))


@attrs.frozen
class Changed:
    """A declaration the file adds (`new`) or changes, with the lines it spans."""

    kind: str
    name: str
    span: Span
    last_line: int
    new: bool
    ruled: bool = False  # steps of its own to reach: a card with statements (an effect, a trigger), not only
    # data, or a procedure or trigger with a body

    def holds(self, span: Span) -> bool:
        return span.path == self.span.path and self.span.line <= span.line <= self.last_line


@attrs.frozen
class Replay:
    """The seeded game of random players that met a problem: what plays it again (the command
    line words it as the `gamedef run` that does)."""

    file: str  # as the user named it
    players: int
    seed: int
    variants: tuple[str, ...]


@attrs.frozen
class Problem:
    """A run-time error met in play, with the first game that met it."""

    diagnostic: Diagnostic  # the error as the engine gave it (at the rule's line)
    where: str  # how it was met: "2 players, seed 3, decision 41"
    replay: Replay | None  # the game that met it; None when met from a test's position
    reached: str = ""  # how a test's position reaches it, when `replay` is None
    times: int = 1  # games that met it


@attrs.frozen
class Report:
    """What one file's play found."""

    budget: float
    spent: float
    games: int
    decisions: int
    changed: tuple[Changed, ...]
    problems: tuple[Problem, ...]
    unreached: tuple[Changed, ...]  # new cards no game reached
    reached: int  # new and changed cards reached
    playable: int  # new and changed cards with rules of their own (steps of code) to reach
    counts: tuple[int, ...]  # the player counts played
    stopped_early: bool = False  # every line played enough before the budget was spent
    recalled: int = 0  # of `games`, those an earlier check played on the same rules (verdicts.py)
    # The variant sets (not recalled) whose play is whole, each with its finished lines: every
    # line ended by playing enough, none met an error or was cut by the budget (verdicts.py).
    records: dict[tuple[str, ...], tuple[LineRecord, ...]] = attrs.Factory(dict)
    # The random moves from a test's position played whole, by their verdict's name.
    test_records: dict[str, LineRecord] = attrs.Factory(dict)
    # Player counts at which no game got past setup (`_setup_stops`), as diagnostics.
    setup_stops: tuple[Diagnostic, ...] = ()
    all_in_setup: bool = False  # every game played stopped in setup

    def diagnostics(self, replaying: Callable[[Replay], str]) -> list[Diagnostic]:
        """The problems as check errors (at the rule's line, with how to reproduce them:
        `replaying` words a game's replay as its caller's users run it) and the unreached
        cards as warnings."""
        out = []
        for p in self.problems:
            d = p.diagnostic
            games = f"; in {p.times} games" if p.times > 1 else ""
            again = replaying(p.replay) if p.replay is not None else p.reached
            out.append(
                Diagnostic(
                    d.span,
                    f"{d.message} (check played it: {p.where}{games})",
                    (f"{d.hint}; " if d.hint else "") + f"reproduce it: {again}",
                )
            )
        out.extend(self.setup_stops)
        for c in self.unreached:
            out.append(
                Diagnostic(
                    c.span,
                    f"new card '{c.name}' was never reached in {self.games} games played by `check`",
                    "is it dealt, or drawn, and can its conditions be met? "
                    "a `test` block that arranges a position for it lets `check` play it from there",
                    "warning",
                )
            )
        return out

    def summary(self) -> str:
        if not self.changed:
            return "nothing new or changed to play"
        kinds: dict[str, int] = {}
        for c in self.changed:
            kinds[c.kind] = kinds.get(c.kind, 0) + 1
        what = ", ".join(f"{n} {_plural(k, n)}" for k, n in kinds.items())
        reached = f"; {self.reached} of {self.playable} cards with rules reached" if self.playable else ""
        counts = ",".join(map(str, self.counts))
        errors = len(self.problems)
        found = f"{errors} run-time error{'s' if errors != 1 else ''}" if errors else "no run-time error"
        enough = (
            " (every game stopped before its first decision)"
            if self.all_in_setup
            else f" (enough: each line of play {ENOUGH_GAMES} games"
            f" and its new and changed rules reached {ENOUGH_PLAYS} times)"
            if self.stopped_early
            else ""
        )
        recalled = (
            f", {self.recalled} of them as an earlier check played them on the same rules" if self.recalled else ""
        )
        return (
            f"played {self.games} game{'s' if self.games != 1 else ''} ({self.decisions:,} decisions{recalled}) "
            f"at {counts} players in {self.spent:.1f} s "
            f"of a {self.budget:g} s budget{enough}, exercising {what} new or changed{reached}: {found}"
        )


def _plural(kind: str, n: int) -> str:
    if n == 1:
        return kind
    return kind[:-1] + "ies" if kind.endswith("y") else kind + "s"


# ---- what is new or changed ---------------------------------------------------------------------
def _last_line(decl) -> int:
    return max((n.span.line for n in ast.walk(decl) if getattr(n, "span", None) is not None), default=decl.span.line)


def _included_games(path: Path, program: Program) -> list[Path]:
    """The bundled games and card sets included by name (`include twid`) from the
    program's files that are not themselves part of one: the game the file builds on."""
    roots = read_roots(path)
    bundle = tuple(r.resolve() for r in roots[1:])
    names = bundled_names(roots[1:])
    found: list[Path] = []
    for source in program.sources:
        p = Path(source).resolve()
        if p != path.resolve() and any(p.is_relative_to(b) for b in bundle):
            continue  # a bundled file: what it includes is the included game's own
        if p.suffix != ".game":
            continue  # a table's file (its text is among the sources too): it includes nothing
        for decl in parse_file(p).decls:
            if isinstance(decl, ast.Include) and decl.bundled and decl.path in names:
                target = names[decl.path]
                if target not in found:
                    found.append(target)
    return found


def included_games(path: Path, program: Program) -> list[Path]:
    """The bundled games and card sets a file builds on (`include twid`), in the order the
    program's files name them: `gamedef balance FILE --against base` plays the first that
    is a game."""
    return _included_games(path, program)


def base_of(path: Path, program: Program) -> tuple[dict, list] | None:
    """The declarations of the games `path` includes by name, by key and unnamed ones; None
    when it includes none (everything is new)."""
    targets = _included_games(path, program)
    if not targets:
        return None
    named: dict = {}
    unnamed: list = []
    for target in targets:
        for decl in load_program(target).decls:
            key = decl_key(decl)
            if key is None:
                unnamed.append(decl)
            else:
                named.setdefault(key, decl)
    return named, unnamed


def changed_declarations(program: Program, base: tuple[dict, list] | None) -> list[Changed]:
    """The cards, procedures, triggers, defs, queries and modifiers of `program` that the
    base (`base_of`) does not hold as they are."""
    out = []
    named, unnamed = base if base is not None else ({}, [])
    for decl in program.decls:
        kind = KINDS.get(type(decl))
        if kind is None:
            continue
        key = decl_key(decl)
        before = named.get(key) if key is not None else None
        if key is None and base is not None and any(decl == u for u in unnamed):
            continue
        if before is not None and before == decl:
            continue
        name = getattr(decl, "name", "") or f"{kind} at line {decl.span.line}"
        last = _last_line(decl) if kind in TRACKED else decl.span.line  # only these have steps to look up
        ruled = kind in TRACKED and any(isinstance(n, STATEMENTS) for n in ast.walk(decl))
        out.append(Changed(kind, name, decl.span, last, before is None, ruled))
    return out


def verdict_key(rules: str, program: Program, base: tuple[dict, list] | None) -> str:
    """The name of the verdict (verdicts.py) of a variant set whose program is `program`,
    its rules as written digested as `rules`: with the rules its play tracks and the play's
    constants, so a change to either is a new verdict."""
    tracked = [(c.kind, c.name, c.span, c.new, c.ruled) for c in changed_declarations(program, base)]
    return verdicts.verdict_key(rules, tracked, (ENOUGH_GAMES, ENOUGH_PLAYS, MAX_DECISIONS))


# ---- playing ------------------------------------------------------------------------------------
class _Tracker:
    """Counts, for the new and changed cards, procedures and triggers, how often each is
    reached: a step of its code running (each such step of the game's step tables wrapped
    while play lasts) or a seat picking a card in a decision. The counts go to the line
    being played (`hits`, set by `exercise` before each game)."""

    def __init__(self, game: Game, cards: list[Changed]):
        self.cards = cards
        self.hits = [0] * len(cards)
        self.by_name = {c.name: i for i, c in enumerate(cards) if c.kind == "card"}
        self.game = game
        self.saved: list[tuple[list, int, Callable]] = []
        self.present: set[int] = set()  # the rules with a step in this game (those it holds)
        by_path: dict[str, list[int]] = {}
        for i, card in enumerate(cards):
            by_path.setdefault(card.span.path, []).append(i)
        for code in game.compiled.codes:
            for step, span in enumerate(code.spans[: len(code.ops)]):
                for i in by_path.get(span.path, ()):
                    if cards[i].holds(span):
                        self.saved.append((code.ops, step, code.ops[step]))
                        code.ops[step] = self._wrap(code.ops[step], i)
                        self.present.add(i)
                        break

    def _wrap(self, op: Callable, i: int) -> Callable:
        tracker = self

        def counted(vm, L):
            tracker.hits[i] += 1
            return op(vm, L)

        return counted

    def picked(self, state: State, index: int) -> None:
        p = state.pending
        if p is not None and self.by_name:
            value = p.values[index]
            if value.__class__ is str and value in self.by_name:
                self.hits[self.by_name[value]] += 1

    def restore(self) -> None:
        for ops, step, op in reversed(self.saved):
            ops[step] = op


@attrs.define
class _Line:
    """One line of play taken in turn: a player count under some variants, or a test's position."""

    game: Game
    variants: tuple[str, ...]
    players: int | None  # None: a test's own
    start: Callable[[int], State] | None = None  # a test's position (seed -> state)
    test: ast.Test | None = None
    played: int = 0
    hits: list[int] = attrs.Factory(list)  # by tracked rule (`exercise`'s `tracked`): times reached here
    decisions: int = 0
    whole: bool = True  # no game of it met an error or was cut short by the budget
    in_setup: int = 0  # games that stopped before their first decision: ended, refused or failed in setup
    setup_stop: int = 0  # how the first of them stopped: ENDED, REFUSED or FAILED (0: none did)
    unended: int = 0  # the decisions of the longest game cut short with no result and no error
    unended_seed: int = 0  # that game's seed

    def done(self, present: list[int]) -> bool:
        """Played enough: ENOUGH_GAMES games, and each of the tracked rules its game holds
        (`present`, their indices) reached ENOUGH_PLAYS times in them; or ENOUGH_GAMES games
        and every one stopped in setup (nothing past setup to reach: more games would
        repeat it for the whole budget)."""
        if self.played < ENOUGH_GAMES:
            return False
        return self.in_setup == self.played or all(self.hits[i] >= ENOUGH_PLAYS for i in present)


class _OutOfTime(LimitExceeded):
    """Raised inside a move still computing when the budget runs out (`_Timer`); the running
    rule's step turns it into the rule's error at its line, as it does any limit passed."""


class _Timer:
    """The budget's end, kept inside a move: `check` plays within its budget even when a
    move computes for seconds without a decision (a loop that ends only at the step budget
    may take seconds to spend its million steps, and with a step that reads a list, far
    longer: 4.8 s of a 2 s budget was seen). A real-time timer (SIGALRM, in the main thread
    of a system that has it) raises `_OutOfTime` in the move running at the deadline;
    elsewhere the deadline is seen between decisions only, as before. The previous handler
    and timer (a test runner's) are put back when the game ends."""

    def __init__(self, deadline: float):
        self.deadline = deadline
        self.armed = False
        self.fired = False
        self.steps = 0  # the steps the move running had spent when the deadline came
        self.decisions = 0  # the decisions the game had played when last seen
        self.previous: typing.Any = None
        self.was: tuple[float, float] = (0.0, 0.0)
        self.since = 0.0

    def __enter__(self) -> _Timer:
        if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
            return self
        self.since = time.monotonic()
        self.previous = signal.signal(signal.SIGALRM, self._fire)
        self.armed = True
        self.was = signal.setitimer(signal.ITIMER_REAL, max(self.deadline - self.since, 0.001))
        return self

    def _fire(self, signum, frame) -> None:
        if not self.armed:  # delivered as the game ended: nothing to stop
            return
        self.armed, self.fired = False, True
        self.steps = steps_spent(frame)
        raise _OutOfTime(f"no decision after {self.steps:,} steps (loop turns, list items read, calls), {OUT_OF_TIME}")

    def __exit__(self, *exc) -> None:
        if self.previous is None:
            return
        self.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        if self.was[0] > 0:  # another timer was running: on with what is left of it
            left = self.was[0] - (time.monotonic() - self.since)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), self.was[1])

    def stopped(self, line: _Line, err: GameRuntimeError | _OutOfTime) -> GameRuntimeError | None:
        """The error a game stopped with, as `check` reports it: the rule's own; or, when
        the budget ran out in a move, the move's when it had spent SLOW_STEPS steps
        (placed at the rule's step it was stopped in), else None, the game cut short."""
        if not self.fired:
            return err if isinstance(err, GameRuntimeError) else None
        line.whole = False
        if isinstance(err, GameRuntimeError) and self.steps >= SLOW_STEPS:
            return err
        return None


def _play(line: _Line, seed: int, tracker: _Tracker, deadline: float) -> tuple[int, GameRuntimeError | None, int]:
    """One game of `line` by random agents; (decisions played, the error met or None, the
    decision it was met at). A game the budget cuts short, between moves or inside one
    (`_Timer`), marks its line not whole."""
    timer = _Timer(deadline)
    try:
        with timer:
            return _timed_play(line, seed, tracker, deadline, timer)
    except _OutOfTime:  # the budget ran out outside a move (choosing, dealing the agents): cut short
        line.whole = False
        return timer.decisions, None, 0


ENDED, REFUSED, FAILED = 1, 2, 3  # how a game stopped before its first decision (`_Line.setup_stop`)


def _stopped_early(line: _Line, how: int) -> None:
    line.in_setup += 1
    line.setup_stop = line.setup_stop or how


def _timed_play(
    line: _Line, seed: int, tracker: _Tracker, deadline: float, timer: _Timer
) -> tuple[int, GameRuntimeError | None, int]:
    game = line.game
    try:
        state = line.start(seed) if line.start is not None else game.start(players=line.players, seed=seed)
        game.narrate(state)
    except (GameRuntimeError, _OutOfTime) as err:
        stopped = timer.stopped(line, err)
        if stopped is not None:
            _stopped_early(line, REFUSED if line.test is None and _refused(game, stopped) else FAILED)
        return 0, stopped, 0
    except UsageError as err:  # a player count the header allows and the seats do not
        _stopped_early(line, FAILED)
        return 0, GameRuntimeError([Diagnostic(game.header.span, err.message, err.hint)]), 0
    if state.result is not None:  # the game ended before its first decision
        _stopped_early(line, ENDED)
    agents, _ = parse_agents([], game, state.players, seed)
    # A test's position may be arranged in part (a card put in a hand, still in the deck):
    # the invariants are the rules' to keep only from a position that keeps them.
    held = line.test is None or not violations(game, state)
    while state.result is None:
        timer.decisions = state.decisions
        if state.decisions >= MAX_DECISIONS or time.monotonic() > deadline:
            line.whole = False
            if state.decisions > line.unended:
                line.unended, line.unended_seed = state.decisions, seed
            break
        seat = state.pending.player  # type: ignore[union-attr]  # not over: a decision waits
        try:
            index = agents[seat].choose(game, state)
            tracker.picked(state, index)
            state = game.apply_index(state, index)
            if state.log:
                game.narrate(state)
        except (GameRuntimeError, _OutOfTime) as err:
            return state.decisions, timer.stopped(line, err), state.decisions + 1
        if held and (state.decisions % BOUNDS_EVERY == 0 or state.result is not None):
            broken = _broken(game, state)
            if broken is not None:
                return state.decisions, broken, state.decisions
    return state.decisions, None, 0


def _broken(game: Game, state: State) -> GameRuntimeError | None:
    """The first of the game's invariants that `state` breaks (a number outside its
    variable's bounds, a component in two places, an `invariant` that does not hold), as an
    error at the declaration it breaks; None if it keeps them all. Play never checks them
    (a rule that breaks one is a bug of the rules): `check` does, for the rules it plays."""
    found = violations(game, state)
    if not found:
        return None
    field, why = found[0]
    name = field.split(".")[1] if field.startswith("vars.") else ""
    info = game.compiled.vars.get(name)
    span = info.decl.span if info is not None and info.decl is not None else game.header.span
    if field == "invariant":
        span = next(
            (i.span for i in game.compiled.invariants if f"({Path(i.span.path).name}:{i.span.line})" in why), span
        )
    where = "" if field == "invariant" else f"{field}: "
    return GameRuntimeError(
        [
            Diagnostic(
                span,
                f"in play: {where}{why}, after a move of the rules",
                "a rule writes past what is declared here: find it in the moves of the game that "
                "reproduces it, or declare what the game really allows",
            )
        ]
    )


def _share(
    lines: list[_Line],
    which: list[int],
    tracked: dict[int, _Tracker],
    present: dict[int, list[int]],
    deadline: float,
    clock: Callable[[], float],
    shown: str,
) -> list[tuple[int, int, tuple, Problem]]:
    """Play the lines `which` of `lines` in turn, a seed at a time, until each is done or the
    budget is spent; their counts are kept on the lines. The problems met: (seed, line,
    key, problem), a problem as its first game met it."""
    met: list[tuple[int, int, tuple, Problem]] = []
    seed = 0
    while which:
        seed += 1
        progressed = False
        for i in which:
            line = lines[i]
            if clock() > deadline:
                break
            if line.done(present[id(line.game)]):
                continue
            tracker = tracked[id(line.game)]
            tracker.hits = line.hits
            s = seed if line.test is None else TEST_SEEDS + seed
            took, err, at = _play(line, s, tracker, deadline)
            progressed = True
            found = _counted(line, s, took, err, at, shown)
            if found is not None:
                met.append((seed, i, found[0], found[1]))
        if not progressed or clock() > deadline:
            break  # every line done, or the budget spent
    return met


def _counted(
    line: _Line, s: int, took: int, err: GameRuntimeError | None, at: int, shown: str
) -> tuple[tuple, Problem] | None:
    """Count game `s` of `line` (its decisions `took`, the error it met at decision `at`)
    on the line; the problem it met, with its key, or None."""
    line.played += 1
    line.decisions += took
    if err is None or (at == 0 and line.test is None and _refused(line.game, err)):
        return None
    line.whole = False
    d = err.diagnostics[0]
    decision = f"decision {at}" if at else "before the first decision"
    if line.test is None:
        assert line.players is not None
        where = f"{line.players} player{'s' if line.players != 1 else ''}, seed {s}, {decision}"
        problem = Problem(d, where, Replay(shown, line.players, s, line.variants))
    else:
        where = f"random moves from the position of test {line.test.name}, seed {s}, {decision}"
        reached = f"the position test {line.test.name} arranges ({line.test.span}), then {decision}"
        problem = Problem(d, where, None, reached)
    if d.message.endswith(LOOPS):  # one loop stopped at different steps, or at the step budget: once
        return (d.message.split(":", 1)[0], LOOPS), problem
    return (d.span, d.message), problem


class _Board:
    """What two processes playing the same lines share: each line's counts (games, decisions,
    whether whole, the times each tracked rule was reached) and whether a process is
    playing a game of it, in an anonymous memory mapping made before the fork (so both
    see one copy), behind a lock (a record lock on a temporary file, which the system
    lets go of when its holder ends, however it ends). A game is claimed and its counts
    written back under the lock; the game itself is played without it. The problems the
    copy meets are appended to another temporary file as each game ends, before its
    counts are written back, so what a copy that fails has counted is all there."""

    # A line's cells: busy, games played, decisions, whole, games stopped before their first
    # decision and how the first of them stopped, the longest game cut short and its seed,
    # then the hits of each tracked rule.
    BUSY, PLAYED, DECISIONS, WHOLE, SETUP, SETUP_STOP, UNENDED, UNENDED_SEED, HITS = range(9)

    def __init__(self, lines: list[_Line], rules: int):
        self.lines = lines
        self.width = self.HITS + rules
        self.memory = mmap.mmap(-1, 8 * self.width * max(1, len(lines)))  # shared with a forked copy
        self.cells = memoryview(self.memory).cast("q")
        for i, line in enumerate(lines):
            self.write(i, line)
        self.lock = tempfile.TemporaryFile()  # never written: its one byte is the lock
        self.problems = tempfile.TemporaryFile(mode="a+b", buffering=0)
        with self.locked():  # a file system without record locks refuses here, not in play
            pass

    def read(self, i: int, line: _Line) -> None:
        """The line's counts as the board has them, onto `line` (this process's copy)."""
        at = i * self.width
        line.played, line.decisions = self.cells[at + self.PLAYED], self.cells[at + self.DECISIONS]
        line.whole = bool(self.cells[at + self.WHOLE])
        line.in_setup, line.setup_stop = self.cells[at + self.SETUP], self.cells[at + self.SETUP_STOP]
        line.unended, line.unended_seed = self.cells[at + self.UNENDED], self.cells[at + self.UNENDED_SEED]
        line.hits = self.cells[at + self.HITS : at + self.width].tolist()

    def write(self, i: int, line: _Line, busy: bool = False) -> None:
        at = i * self.width
        self.cells[at + self.BUSY], self.cells[at + self.PLAYED] = int(busy), line.played
        self.cells[at + self.DECISIONS], self.cells[at + self.WHOLE] = line.decisions, int(line.whole)
        self.cells[at + self.SETUP], self.cells[at + self.SETUP_STOP] = line.in_setup, line.setup_stop
        self.cells[at + self.UNENDED], self.cells[at + self.UNENDED_SEED] = line.unended, line.unended_seed
        self.cells[at + self.HITS : at + self.width] = memoryview(array.array("q", line.hits))

    def busy(self, i: int) -> bool:
        return bool(self.cells[i * self.width + self.BUSY])

    def free(self) -> None:
        """No line's game is being played: the other process ended without finishing (a
        game it left half played is played again)."""
        for i in range(len(self.lines)):
            self.cells[i * self.width + self.BUSY] = 0

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        import fcntl  # a system that forks has record locks (exercise forks only where it can)

        fcntl.lockf(self.lock, fcntl.LOCK_EX, 1, 0, os.SEEK_SET)
        try:
            yield
        finally:
            fcntl.lockf(self.lock, fcntl.LOCK_UN, 1, 0, os.SEEK_SET)

    def send(self, problem: tuple[int, int, tuple, Problem]) -> None:
        """A problem the copy met, for this process (one write, appended whole)."""
        data = pickle.dumps(problem, protocol=pickle.HIGHEST_PROTOCOL)
        os.write(self.problems.fileno(), len(data).to_bytes(8, "little") + data)

    def sent(self) -> list[tuple[int, int, tuple, Problem]]:
        """The problems the copy sent (from this process's own copy, through its file)."""
        self.problems.seek(0)
        raw = self.problems.read()
        out, at = [], 0
        while at + 8 <= len(raw):
            size = int.from_bytes(raw[at : at + 8], "little")
            if at + 8 + size > len(raw):
                break  # cut short as the copy ended
            out.append(pickle.loads(raw[at + 8 : at + 8 + size]))
            at += 8 + size
        return out

    def close(self) -> None:
        self.cells.release()
        self.memory.close()
        self.lock.close()
        self.problems.close()


def _shared_share(
    board: _Board,
    met: Callable[[tuple[int, int, tuple, Problem]], None],
    tracked: dict[int, _Tracker],
    present: dict[int, list[int]],
    deadline: float,
    clock: Callable[[], float],
    shown: str,
) -> None:
    """Play the board's lines, a game at a time, with another process doing the same: each
    time, the game of the line that has played fewest (the first such) of the lines not
    done and not being played. That is the order `_share` plays them in, and a line's
    games are played one after another whichever process plays them (its next seed is
    its games so far plus one), so the games are those one process plays, and the two
    processes finish together whatever the lines cost (a one-player game of a solo mode
    may cost twice a four-player one). Each problem met is given to `met` (as `_share`
    returns them) before the game's counts are written back."""
    lines = board.lines
    while clock() <= deadline:
        chosen = None
        with board.locked():
            for i, line in enumerate(lines):
                if board.busy(i):
                    continue
                board.read(i, line)
                if line.done(present[id(line.game)]):
                    continue
                if chosen is None or line.played < lines[chosen].played:
                    chosen = i
            if chosen is not None:
                board.write(chosen, lines[chosen], busy=True)
        if chosen is None:
            return  # every line done, or being played by the other process, which goes on with it
        line = lines[chosen]
        tracker = tracked[id(line.game)]
        tracker.hits = line.hits
        seed = line.played + 1
        s = seed if line.test is None else TEST_SEEDS + seed
        took, err, at = _play(line, s, tracker, deadline)
        found = _counted(line, s, took, err, at, shown)
        if found is not None:
            met((seed, chosen, found[0], found[1]))
        with board.locked():
            board.write(chosen, line)


def _played(
    lines: list[_Line],
    two: bool,
    tracked: dict[int, _Tracker],
    present: dict[int, list[int]],
    deadline: float,
    clock: Callable[[], float],
    shown: str,
    budget: float,
) -> list[tuple[int, int, tuple, Problem]]:
    """Play the lines: here alone, or (`two`) here and at the same time in a forked copy
    of this process, the two taking the next game from a board they share
    (`_Board`, `_shared_share`: the games are seeded by line, so which process plays a game
    changes no game); the copy sends back its problems through a file. A copy that fails
    leaves the rest of the lines to this process."""
    if budget <= 0:
        return []
    if not two:
        return _share(lines, list(range(len(lines))), tracked, present, deadline, clock, shown)
    try:
        board = _Board(lines, len(lines[0].hits) if lines else 0)
    except OSError:  # no temporary file, or no record lock on it: one process plays them all
        return _share(lines, list(range(len(lines))), tracked, present, deadline, clock, shown)
    child = os.fork()
    if child == 0:  # the copy: play, sending each problem it meets, and leave at once
        status = 1
        try:
            _shared_share(board, board.send, tracked, present, deadline, clock, shown)
            status = 0
        finally:
            os._exit(status)  # no cleanup of the parent's (its files, its exit handlers)
    met: list[tuple[int, int, tuple, Problem]] = []
    try:
        _shared_share(board, met.append, tracked, present, deadline, clock, shown)
        _, status = os.waitpid(child, 0)
        if status != 0:  # the copy failed: the rest of the lines are played here
            board.free()
            _shared_share(board, met.append, tracked, present, deadline, clock, shown)
        for i, line in enumerate(lines):
            board.read(i, line)
        # A game the copy sent a problem of but did not count (it failed in between) was
        # played again here: the same game, met once.
        found = {(m[0], m[1], m[2]): m for m in board.sent()}
        return [*found.values(), *(m for m in met if (m[0], m[1], m[2]) not in found)]
    finally:
        board.close()


def _refused(game: Game, err: GameRuntimeError) -> bool:
    """A setup's `require` refusing a player count (a seat option not in play): not a bug."""
    d = err.diagnostics[0]
    text = game.compiled.program.sources.get(d.span.path, "").splitlines()
    return 0 < d.span.line <= len(text) and text[d.span.line - 1].lstrip().startswith("require")


def exercise(
    file: str,
    budget: float,
    variant_sets: list[list[str]],
    loaded: dict[tuple[str, ...], Game] | None = None,
    test_positions: Callable[..., Iterator[tuple[ast.Test, Game, Callable[[int], State]]]] | None = None,
    clock: Callable[[], float] = time.monotonic,
    shown: str | None = None,
    programs: dict[tuple[str, ...], Program] | None = None,
    remembered: dict[tuple[str, ...], Verdict] | None = None,
    jobs: int = 1,
    digests: dict[tuple[str, ...], str] | None = None,
) -> Report:
    """Play what `file` adds or changes for at most `budget` seconds (see the module's doc).

    `variant_sets`: the variants to check it under (none, then each variant alone), and
    `loaded` the games already loaded for them (by variants), loaded here otherwise;
    `test_positions`, when given, yields the designer's tests' arranged positions, each
    with its game and a function from a seed to its start. `shown`: the file as the
    commands that reproduce a game name it (as the designer typed it); `programs`: the
    programs already assembled for the variant sets, by variants; `remembered`: the
    verdicts of sets an earlier check played whole on the same rules (verdicts.py), by
    variants, whose lines are counted as they were and not played again; `jobs`: 2 plays
    the lines with a forked copy of this process at the same time (where the system
    forks), on a machine with two cores to spare. `digests`: each variant set's rules as
    written (gamecache.rules_digest), by variants: the random moves from a test's position
    whose rules and tests an earlier check played whole are recalled too (verdicts.py).
    `test_positions(skip)` is then given which tests not to give (arranged_positions)."""
    path = Path(file).resolve()
    started = clock()
    deadline = started + budget
    programs = programs or {}
    program = programs.get(()) or load_program(path)
    base = base_of(path, program)
    remembered = remembered or {}
    lines: list[_Line] = []
    changed: dict[tuple, Changed] = {}
    recalled: list[tuple[LineRecord, list[tuple]]] = []  # a remembered line, and its set's tracked rules' keys
    records: dict[tuple[str, ...], tuple[LineRecord, ...]] = {}
    tracked_keys: dict[tuple[str, ...], list[tuple]] = {}
    for vs in variant_sets:
        prog = program if not vs else (programs.get(tuple(vs)) or load_program(path, vs))
        found = changed_declarations(prog, base)
        if not found or (vs and all(c in changed.values() for c in found)):
            if tuple(vs) not in remembered:
                records[tuple(vs)] = ()  # whole: nothing of its own to play
            continue  # nothing this variant brings that another line does not play
        for c in found:
            changed.setdefault((c.kind, c.name, c.span), c)
        keys = tracked_keys[tuple(vs)] = [(c.kind, c.name, c.span) for c in found if c.kind in TRACKED]
        verdict = remembered.get(tuple(vs))
        if verdict is not None:
            recalled.extend((record, keys) for record in verdict.lines)
            continue
        game = (loaded or {}).get(tuple(vs)) or load_game(str(path), variants=vs)
        h = game.header
        for n in range(h.min_players, h.max_players + 1):
            lines.append(_Line(game, tuple(vs), n))
    rules = [c for c in changed.values() if c.kind in TRACKED]
    index = {(c.kind, c.name, c.span): i for i, c in enumerate(rules)}
    test_keys: dict[str, str] = {}  # a test's name -> its verdict's name, for the tests that may be recalled
    test_records: dict[str, LineRecord] = {}

    def recalled_test(test: ast.Test, group: tuple[ast.Test, ...]) -> bool:
        """Whether the random moves from `test`'s position are recalled (then not played)."""
        rules = (digests or {}).get(test.variants)
        keys = tracked_keys.get(test.variants)
        if rules is None or keys is None or test.options:
            return False
        key = test_keys[test.name] = verdicts.test_key(rules, test, group, (ENOUGH_GAMES, ENOUGH_PLAYS, MAX_DECISIONS))
        verdict = verdicts.recall(key)
        if verdict is None or len(verdict.lines) != 1:
            return False
        recalled.append((verdict.lines[0], keys))
        return True

    if (lines or recalled) and test_positions is not None and clock() < deadline:
        for test, game, start in test_positions(recalled_test if digests else None):
            lines.append(_Line(game, test.variants, None, start, test))
    trackers = {id(line.game): line.game for line in lines}
    tracked = {key: _Tracker(g, rules) for key, g in trackers.items()}
    present = {key: sorted(i for i in t.present if rules[i].ruled) for key, t in tracked.items()}
    for line in lines:
        line.hits = [0] * len(rules)
    met: list[tuple[int, int, tuple, Problem]] = []  # (seed, line, key, problem), as met
    try:
        two = jobs > 1 and len(lines) > 1 and hasattr(os, "fork") and budget > 0  # two cores: a forked copy
        met = _played(lines, two, tracked, present, deadline, clock, shown or file, budget)
    finally:
        for t in tracked.values():
            t.restore()
    problems: dict[tuple, Problem] = {}
    for _, _, key, problem in sorted(met, key=lambda m: (m[0], m[1])):  # in the order one process meets them
        if key in problems:
            problems[key] = attrs.evolve(problems[key], times=problems[key].times + 1)
        else:
            problems[key] = problem
    games = sum(line.played for line in lines)
    decisions = sum(line.decisions for line in lines)
    stops = _setup_stops(lines) + _long_games(lines)
    records.update(_whole_sets(lines, tracked_keys, present, index, {vs for vs, _ in stops}))
    test_records = _whole_tests(lines, tracked_keys, test_keys, present, index)
    hits = [sum(line.hits[i] for line in lines) for i in range(len(rules))]
    for record, keys in recalled:
        games += record.played
        decisions += record.decisions
        for k, times in zip(keys, record.hits, strict=True):
            hits[index[k]] += times
    # Only a card with rules of its own is reached or not: a card that is only data (a rank
    # compared, a value counted) runs nothing of its own.
    cards_ruled = [c for c in rules if c.kind == "card" and c.ruled]
    hits = [h for c, h in zip(rules, hits, strict=True) if c.kind == "card" and c.ruled]
    # A game of its own is new throughout: its cards' reach is in the summary, not a warning each.
    warn = games and base is not None
    unreached = tuple(c for c, h in zip(cards_ruled, hits, strict=True) if h == 0 and c.new) if warn else ()
    counts = tuple(
        sorted(
            {line.players for line in lines if line.players is not None} | {r.players for r, _ in recalled if r.players}
        )
    )
    return Report(
        budget=budget,
        spent=clock() - started,
        games=games,
        decisions=decisions,
        changed=tuple(changed.values()),
        problems=tuple(problems.values()),
        unreached=unreached,
        setup_stops=tuple(d for _, d in stops),
        all_in_setup=bool(lines) and all(line.played and line.in_setup == line.played for line in lines),
        reached=sum(1 for h in hits if h),
        playable=len(cards_ruled),
        counts=counts,
        stopped_early=games > 0 and all(line.done(present[id(line.game)]) for line in lines),
        recalled=sum(r.played for r, _ in recalled),
        records=records,
        test_records=test_records,
    )


def _setup_stops(lines: list[_Line]) -> list[tuple[tuple[str, ...], Diagnostic]]:
    """For each variant set, the player counts at which every game `check` played stopped
    before its first decision, said once for the set, with what stopped them (as the
    first of them stopped: `_Line.setup_stop`): an error at the rule if the game ends in setup at every count, a
    warning at some counts only; setup's `require` refusing every count, an error without
    variants and a warning with them (a variant may need options the check leaves at their
    defaults), and refusing some counts, nothing (a count the rules do not take). A setup
    that fails with an error is that error's, reported once already."""
    out: list[tuple[tuple[str, ...], Diagnostic]] = []
    by_set: dict[tuple[str, ...], list[_Line]] = {}
    for line in lines:
        if line.test is None:
            by_set.setdefault(line.variants, []).append(line)
    for variants, own in by_set.items():
        stuck = [line for line in own if line.played and line.in_setup == line.played]
        if not stuck:
            continue
        for kind in (ENDED, REFUSED):
            found = [line for line in stuck if line.setup_stop == kind]
            if not found or (kind == REFUSED and len(found) < len(own)):
                continue
            counts = [line.players for line in found]
            every = len(found) == len(own)
            at = ", ".join(map(str, counts[:-1])) + (" or " if len(counts) > 1 else "") + str(counts[-1])
            at += f" player{'s' if counts[-1] != 1 else ''}"
            under = f" with variant {', '.join(variants)}" if variants else ""
            game = found[0].game
            in_setup = False
            if kind == ENDED:
                span, in_setup = _setup_end(game.compiled.program.decls, game.header.span)
                text = ""
            else:  # the `require` and its message: its first game started again, stopping there at once
                span, text = _refusal(found[0])
            if kind == ENDED:
                message = f"every game check played at {at}{under} ended before its first decision" + (
                    ": nothing was played" if every else ""
                )
                hint = (
                    "setup() prepares the position and play() asks the decisions: does this end every game? "
                    "move it into play(), or put it under a condition the start does not meet"
                    if in_setup
                    else "a game with no decision plays nothing: does this end every game before any is asked?"
                )
                severity = "error" if every and in_setup else "warning"
            else:
                message = f"setup refused every player count check played ({at}{under}): {text}"
                hint = (
                    "nothing after setup was played: loosen this `require`, or give the options it "
                    "reads defaults that pass it (check plays the default options)"
                )
                severity = "warning" if variants else "error"
            out.append((variants, Diagnostic(span, message, hint, severity)))
    return out


def _long_games(lines: list[_Line]) -> list[tuple[tuple[str, ...], Diagnostic]]:
    """A warning for each variant set some game of which ran `LONG_GAME` decisions without
    ending (the longest such game): a goal the rules can't reach, or one reached so seldom
    that random play never does, is told before `gamedef run` plays to its decision limit."""
    out = []
    by_set: dict[tuple[str, ...], _Line] = {}
    for line in lines:
        if line.test is None and line.unended >= LONG_GAME:
            longest = by_set.get(line.variants)
            if longest is None or line.unended > longest.unended:
                by_set[line.variants] = line
    for variants, line in by_set.items():
        under = f" with variant {', '.join(variants)}" if variants else ""
        message = (
            f"a game check played at {line.players} player{'s' if line.players != 1 else ''}{under} (seed "
            f"{line.unended_seed}) ran {line.unended:,} decisions without ending: can every game end? "
            f"(random games of the bundled games end within 36,000; `gamedef run` stops one at {MAX_DECISIONS:,})"
        )
        hint = (
            "check that a way to win or to end the game is reached in play (a goal within reach, a last "
            "round): play that game, with its seed, to watch it"
        )
        out.append((variants, Diagnostic(line.game.header.span, message, hint, "warning")))
    return out


def _refusal(line: _Line) -> tuple[Span, str]:
    """Where setup's `require` refuses the games of `line`, and its message: its first game
    started again (it stopped at the `require` before, so it stops there again)."""
    game = line.game
    try:
        game.start(players=line.players, seed=1)
    except GameRuntimeError as err:
        d = err.diagnostics[0]
        return d.span, d.message.split(": ", 1)[1] if d.message.startswith("in ") and ": " in d.message else d.message
    return game.header.span, ""


def _setup_end(decls, header: Span) -> tuple[Span, bool]:
    """Where a game that ends before its first decision is ended, and whether in setup: the
    first `win` or `game over` of `setup()`; else the first of `play()` (a game that asks
    nothing, or one a rule setup runs ends), else `setup()` or the header."""
    procs = {d.name: d for d in decls if isinstance(d, ast.Procedure) and d.name in ("setup", "play")}
    for name in ("setup", "play"):
        proc = procs.get(name)
        ends = [n for n in ast.walk(proc.body) if isinstance(n, ast.Win | ast.GameOver)] if proc else []
        if ends:
            return min(ends, key=lambda n: (n.span.line, n.span.column)).span, name == "setup"
    return (procs["setup"].span, True) if "setup" in procs else (header, False)


def _whole_sets(
    lines: list[_Line],
    tracked_keys: dict[tuple[str, ...], list[tuple]],
    present: dict,
    index: dict,
    said: set[tuple[str, ...]] = frozenset(),  # type: ignore[assignment]
) -> dict[tuple[str, ...], tuple[LineRecord, ...]]:
    """The variant sets played whole: each line done, none met an error or was cut short;
    not one with something to say of its setup (`said`: a recalled verdict would not say it)."""
    records = {}
    for variants, keys in tracked_keys.items():
        if variants in said:
            continue
        own = [line for line in lines if line.test is None and line.variants == variants]
        if own and all(line.whole and line.done(present[id(line.game)]) for line in own):
            records[variants] = tuple(
                LineRecord(line.players or 0, line.played, line.decisions, tuple(line.hits[index[k]] for k in keys))
                for line in own
            )
    return records


def _whole_tests(
    lines: list[_Line],
    tracked_keys: dict[tuple[str, ...], list[tuple]],
    test_keys: dict[str, str],
    present: dict,
    index: dict,
) -> dict[str, LineRecord]:
    """The tests' positions played whole, by their verdict's name (those that may be recalled)."""
    records = {}
    for line in lines:
        test = line.test
        key = test_keys.get(test.name) if test is not None else None
        if test is None or key is None or not (line.whole and line.done(present[id(line.game)])):
            continue
        keys = tracked_keys[test.variants]
        records[key] = LineRecord(0, line.played, line.decisions, tuple(line.hits[index[k]] for k in keys))
    return records


def default_budget(file: str, program: Program | None = None) -> float:
    """A file that includes a game by name gets DEFAULT_BUDGET, a game of its own OWN_GAME_BUDGET."""
    path = Path(file).resolve()
    try:
        program = program or load_program(path)
    except (GameDefError, UsageError):
        return DEFAULT_BUDGET
    return DEFAULT_BUDGET if _included_games(path, program) else OWN_GAME_BUDGET
