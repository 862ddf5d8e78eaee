"""`gamedef simulate`: many games played by agents, in parallel, summed up for a designer.

A balance question ("does West win more than East?", "how long is a game?", "how do games
end?") needs hundreds of games and an honest error bar, not one narrated game. Game i of a
simulation is the game `gamedef run GAME --seed S+i` plays with the same agents (the same
seats' agents, seeded as `run` seeds them), so any game in the table can be watched again
with `run`, and the figures are the same whatever the number of worker processes: a seed
fixes its game, and the records are put back in seed order before anything is counted.

Nothing here knows a game: win rates are read from `result()`, the length from the
decision count and from a variable named `round` when a game has one, and the endings from
the last key-event line (`log headline`) each game narrates, with seat names and numbers
written as SEAT and N so that "west reaches 10 VP" and "east reaches 12 VP" group together.

Cards are read the same way, from the language and not from a game's log: a card is a
component with a printed text (`interpreter/runtime/cardlist.py`), and a seat plays a card, for
these figures, when it chooses that card in a decision (the value of the option it picks
is the card). A `.game` file is free to move cards between lists and to narrate what it
likes, but every card a player plays, discards or picks reaches the rules as a choice.

The games may also be played by workers elsewhere that the caller started (`Workers`: the
command line's Ray cluster, cli/ray_workers.py): the same chunks of seeds, sent to them
instead of to local processes, and the same records. Reporting them (text, CSV, charts)
is the front end's (cli/simulation_report.py, cli/charts.py).
"""

from __future__ import annotations

import math
import os
import re
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Container, Generator, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from interpreter.core import trace
from interpreter.core.errors import ArgumentError, GameDefError, UnfinishedGameError, UsageError
from interpreter.core.limits import MAX_GAMES, MAX_JOBS
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.game import ChanceGame, Game
from interpreter.runtime.machine import State

Z_95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval
ROUND_VAR = "round"  # a game's round counter, if it has one by this name


# ---- what a worker needs, and what it sends back ---------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """Everything a worker process needs to load the game and play any seed: plain data,
    so it pickles (a loaded `Game` holds compiled closures and does not)."""

    game: str
    variants: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    players: int | None = None
    agents: tuple[str, ...] = ()  # the --agent SEAT=KIND items as typed
    max_decisions: int = 100_000
    chance: bool = False  # chance mode, for an ismcts agent that must redraw hidden numbers (agents.needs_chance)
    # the kinds of component whose choices are counted (`gamedef balance --component`); () counts the cards
    components: tuple[str, ...] = ()
    # the `player -> number` variable that is each seat's score (`--score`); None: the first of
    # SCORE_VARS the game declares as such, if any
    score: str | None = None
    # `def` constants given other values (`gamedef balance --sweep` over a def): name -> value
    constants: dict[str, Any] = field(default_factory=dict)

    def load(self) -> Game:
        from interpreter.runtime.load import load_game

        return load_game(
            self.game,
            variants=list(self.variants),
            options=dict(self.options),
            chance=self.chance,
            constants=dict(self.constants) or None,
        )


@dataclass(frozen=True)
class GameRecord:
    """One finished game: what the summary, the CSV and the plots are made from."""

    seed: int
    winners: tuple[str, ...]
    decisions: int
    rounds: int | None  # the final value of the game's `round` variable, if it has one
    headline: str  # the last key-event line of the game, as narrated ('' if none)
    ending: str  # that line with seats and numbers normalised: the ending's group
    # (seat, card, times the seat chose it), in the order first chosen; empty for a game without cards
    cards: tuple[tuple[str, str, int], ...] = ()
    # (seat, payoff) in seat order: `game.returns` at the end (docs/language.md §3.19)
    payoffs: tuple[tuple[str, float], ...] = ()
    first: str = ""  # the first seat asked to decide (never the chance seat): who moved first
    # (seat, card, times a slot of the card ran during that seat's moves), in the order first run:
    # a card that acted (its text resolved), not only one chosen
    performed: tuple[tuple[str, str, int], ...] = ()
    # Why a seat wins (`Setup.score`'s variable, when the game has one): (seat, source, points
    # gained or lost from it), a source being `card:NAME` or `rule:CITATION`; the times the
    # lead (a single seat ahead) passed to another seat; each round's scores as they last
    # stood in it, in `score_seats`' order.
    gains: tuple[tuple[str, str, float], ...] = ()
    lead_changes: int | None = None
    score_by_round: tuple[tuple[int, tuple[float, ...]], ...] = ()
    score_seats: tuple[str, ...] = ()


class _Failure(Exception):
    """A game that could not be finished, carried back from a worker as plain data (the
    engine's own exceptions do not survive pickling with their hints intact): the
    decisions it ran to without an end (`limit`), or a rule that failed (`rules`), or
    another refusal with its hint."""

    def __init__(self, seed: int, message: str, hint: str | None, limit: int | None = None, rules: bool = False):
        super().__init__(seed, message, hint, limit, rules)
        self.seed, self.message, self.hint, self.limit, self.rules = seed, message, hint, limit, rules

    def error(self, game: str) -> UsageError:
        """The error the caller raises for it, the game named as the setup names it."""
        if self.limit is not None or self.rules:
            return UnfinishedGameError(self.message, self.seed, game, self.limit)
        return UsageError(self.message, self.hint)


# ---- statistics -----------------------------------------------------------------------------------
def wilson(wins: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion `wins / n`.

    Wilson rather than the normal approximation because win rates near 0 or 1 and small
    samples are common here, where p ± z·sqrt(p(1-p)/n) leaves [0, 1] or shrinks to a point.
    `wins` may be fractional (shared wins); the formula only needs the proportion."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0 or n wins the bound is exactly 0 or 1 (the formula gives it only up to rounding).
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return (low, high)


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def normalise(line: str, seats: Sequence[str]) -> str:
    """An ending line as its group: each seat's name -> SEAT, each number -> N.

    Seats are replaced as whole words, longest first (so a seat named `red` leaves
    `reduced` alone and `p1` is not read inside `p10`)."""
    if seats:
        names = "|".join(re.escape(s) for s in sorted(seats, key=len, reverse=True))
        line = re.sub(rf"(?<!\w)(?:{names})(?!\w)", "SEAT", line)
    return _NUMBER.sub("N", line)


def mean_interval(values: Sequence[float], z: float = Z_95) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its normal-approximation 95% interval, mean ± z
    times the standard error (the sample's standard deviation over the square root of
    n); a single value has no spread to tell, so its interval is the whole real line,
    written as the mean itself at both ends only when every value is the same."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if n == 1:
        return mean, -math.inf, math.inf
    half = z * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def _spread(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {
        "mean": statistics.fmean(values),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


# ---- cards --------------------------------------------------------------------------------------------
def card_catalogue(game: Game) -> dict[str, tuple[str, str]]:
    """Each card of the game, by name: its kind and its title, in declaration order.

    A card is what `gamedef cards` lists, a component with a printed text: the language's
    own notion, so no game has to declare anything for its cards to be counted. Empty for
    a game without cards (tic-tac-toe, or Kuhn poker, whose cards carry only a rank)."""
    from interpreter.runtime.cardlist import card_kinds

    compiled = game.compiled
    out: dict[str, tuple[str, str]] = {}
    for kind in card_kinds(compiled):
        for name in compiled.types[kind]:
            out.setdefault(name, (kind, compiled.rt.display(name)))
    return out


def component_catalogue(game: Game, kinds: Sequence[str] = ()) -> dict[str, tuple[str, str]]:
    """The components counted when chosen: the members of `kinds` (any kind of entity or
    enum the game declares, by its name), or the game's cards when `kinds` is empty; name ->
    (kind, title), in declaration order. An unknown kind is the caller's to refuse."""
    if not kinds:
        return card_catalogue(game)
    compiled = game.compiled
    out: dict[str, tuple[str, str]] = {}
    for kind in kinds:
        for name in compiled.types.get(kind, ()):
            out.setdefault(name, (kind, compiled.rt.display(name)))
    return out


SCORE_VARS = ("score", "vp", "points")  # a seat's score, by the names games give it


def score_probe(
    game: Game, name: str | None, players: Sequence[str]
) -> tuple[Callable[[Sequence[Any]], tuple[Any, ...]] | None, list[str]]:
    """The function that reads the playing seats' scores from a position's variables, and
    those seats in its order: the variable `name`, or the first of SCORE_VARS declared as a
    map from player to a number; (None, []) when there is none. A `name` that is no such
    variable is refused."""
    from interpreter.language import syntax as ast

    compiled = game.compiled
    for candidate in (name,) if name else SCORE_VARS:
        info = compiled.vars.get(candidate)
        kind = getattr(info, "decl", None) and info.decl.type  # type: ignore[union-attr]
        if (
            info is None
            or info.key_index is None
            or not isinstance(kind, ast.MapType)
            or getattr(kind.key, "name", None) != "player"
            or getattr(kind.value, "name", None) not in ("int", "float", "number")
        ):
            if name:
                raise ArgumentError(
                    "score",
                    f"{game.header.title} has no variable '{name}' from player to a number",
                    given=name,
                    hint="name the variable that holds each seat's score, as `var vp: player -> int`",
                )
            continue
        slot = info.slot
        seats = [seat for seat in players if seat in info.key_index]
        at = tuple(info.key_index[seat] for seat in seats)
        return (lambda variables, slot=slot, at=at: tuple(variables[slot][i] for i in at)), seats
    return None, []


def procedure_citations(game: Game) -> dict[str, str]:
    """Each procedure's first `rule "..."` citation, by its name: how a point the rules gave
    is named in the report."""
    from interpreter.language import syntax as ast

    out: dict[str, str] = {}
    for decl in game.compiled.program.decls:
        if isinstance(decl, ast.Procedure):
            for node in ast.walk(decl.body):
                if isinstance(node, ast.Cite):
                    out[decl.name] = node.section
                    break
    return out


def _leader(scores: Sequence[Any]) -> int | None:
    """The one seat (its index) strictly ahead, or None on a tie for the lead."""
    best = max(scores) if scores else None
    ahead = [i for i, x in enumerate(scores) if x == best]
    return ahead[0] if len(ahead) == 1 else None


def chosen_card(state: State, index: int, cards: Container[str]) -> str | None:
    """The card the pending decision's option `index` is, if it is one: the value the seat
    picks, not its label, so that a card counts however the game words the option."""
    pending = state.pending
    assert pending is not None  # asked of the decision an agent has just answered
    value = pending.values[index]
    return value if isinstance(value, str) and value in cards else None


# ---- playing ------------------------------------------------------------------------------------------
def play_game(game: Game, setup: Setup, seed: int) -> GameRecord:
    """Play the game of one seed to its end, as `gamedef run --seed SEED` with the same
    agents would, keeping only what the summary needs (no labels, no transcript): the
    winners, the length, the ending, and which seat chose which card how often."""
    from interpreter.play.agents import listeners, parse_agents, tell

    cards = frozenset(component_catalogue(game, setup.components))
    chosen: dict[tuple[str, str], int] = {}  # (seat, card) -> times, in the order first chosen
    performed: dict[tuple[str, str], int] = {}  # (seat, card) -> times a slot of it ran in the seat's moves
    state = game.start(players=setup.players, seed=seed)
    agents, _ = parse_agents(list(setup.agents), game, state.players, seed)
    told = listeners(agents)  # the agents that keep their search tree between moves (mcts.py)
    # In chance mode a move is run again from its base at every draw: not traced (docs/balancing.md).
    probe, score_seats = (None, []) if isinstance(game, ChanceGame) else score_probe(game, setup.score, state.players)
    slot_codes = frozenset(code.index for code in game.compiled.slots.values())
    citations = procedure_citations(game)
    code_names = [code.name for code in game.compiled.codes]
    gains: dict[tuple[str, str], float] = {}  # (seat, source) -> points gained (or lost)
    lead_changes, last_leader = 0, None
    round_info = game.compiled.vars.get(ROUND_VAR)
    round_slot = round_info.slot if round_info is not None and round_info.keys is None else None
    by_round: dict[Any, tuple[float, ...]] = {}  # round -> each seat's score as it last stood in it
    # The key events when the game marks them; otherwise its last narrated line of all.
    headlines = any(f.headline for f in game.compiled.formats)
    last = first = ""
    lines = game.narrate(state, headlines=headlines)
    if lines:
        last = lines[-1]
    while state.result is None:
        if state.decisions >= setup.max_decisions:
            raise _Failure(
                seed,
                f"the game of seed {seed} has not ended after {setup.max_decisions:,} decisions",
                None,
                limit=setup.max_decisions,
            )
        seat = state.pending.player  # type: ignore[union-attr]  # not over: a decision waits (no check per move)
        if not first and seat != CHANCE:
            first = seat
        index = agents[seat].choose(game, state)
        tell(told, game, state, index)
        card = chosen_card(state, index, cards) if cards and seat != CHANCE else None
        if card is not None:
            chosen[seat, card] = chosen.get((seat, card), 0) + 1
        tracer = trace.Tracer(probe, slot_codes, citations, code_names)
        tracer.start(state.vars)
        token = trace.TRACER.set(tracer)  # only around the move itself: an agent's search is not traced
        try:
            state = game.apply_index(state, index)
        finally:
            trace.TRACER.reset(token)
        tracer.settle(state.vars, state.frames)
        for who, _slot in tracer.performed:
            if who in cards and seat != CHANCE:
                performed[seat, who] = performed.get((seat, who), 0) + 1
        for (i, source), points in tracer.gains.items():
            key = (score_seats[i], source)
            gains[key] = gains.get(key, 0.0) + points
        if probe is not None:
            scores = probe(state.vars)
            leader = _leader(scores)
            if leader is not None:
                if last_leader is not None and leader != last_leader:
                    lead_changes += 1
                last_leader = leader
            if round_slot is not None:
                by_round[state.vars[round_slot]] = tuple(float(x) for x in scores)
        if state.log:
            lines = game.narrate(state, headlines=headlines)
            if lines:
                last = lines[-1]
    rounds = None
    info = game.compiled.vars.get(ROUND_VAR)
    if info is not None and info.keys is None:  # a plain variable, not a map
        value = game.var(state, ROUND_VAR)
        if isinstance(value, int) and not isinstance(value, bool):
            rounds = value
    return GameRecord(
        seed,
        tuple(state.result),
        state.decisions,
        rounds,
        last,
        normalise(last, state.players + tuple(map(game.seat_title, state.players))),
        tuple((seat, card, times) for (seat, card), times in chosen.items()),
        tuple((seat, float(value)) for seat, value in game.returns(state).items()),
        first,
        tuple((seat, card, times) for (seat, card), times in performed.items()),
        tuple((seat, source, points) for (seat, source), points in gains.items() if points),
        lead_changes if probe is not None else None,
        tuple((r, scores) for r, scores in by_round.items() if isinstance(r, int) and not isinstance(r, bool)),
        tuple(score_seats),
    )


def _play_seeds(game: Game, setup: Setup, seeds: Iterable[int]) -> list[GameRecord]:
    """Games in this process; a rule error or an endless game becomes a `_Failure` naming the seed."""
    out = []
    for seed in seeds:
        try:
            out.append(play_game(game, setup, seed))
        except UsageError as err:
            raise _Failure(seed, f"seed {seed}: {err.message}", err.hint) from None
        except GameDefError as err:
            raise _Failure(
                seed, f"the game of seed {seed} stopped on an error in the rules:\n{err.render()}", None, rules=True
            ) from None
    return out


_worker: tuple[Game, Setup] | None = None  # the game a worker process plays, loaded once


def _init_worker(setup: Setup) -> None:
    """Give a worker process its game, once: loading The Wall is Down takes about a second,
    several games' worth. A forked worker already holds the game the parent loaded (set
    just before the fork); a spawned one loads it."""
    global _worker
    if _worker is None or _worker[1] != setup:
        _worker = (setup.load(), setup)


def _play_chunk(seeds: Sequence[int]) -> list[GameRecord] | _Failure:
    """A worker's chunk of seeds; a failure is returned, not raised, so that it arrives
    as the plain `_Failure` it is."""
    assert _worker is not None
    game, setup = _worker
    try:
        return _play_seeds(game, setup, seeds)
    except _Failure as failure:
        return failure


def remote_chunk(setup: Setup, seeds: Sequence[int]) -> list[GameRecord] | _Failure:
    """What a worker elsewhere runs (a Ray task, `Workers`): a chunk of seeds, the game
    loaded on the worker's first chunk and kept for the next ones (a worker process runs
    many). A failure is returned as plain data, not raised."""
    _init_worker(setup)
    return _play_chunk(seeds)


class Workers(Protocol):
    """Workers elsewhere that play chunks of seeds: a cluster a front end has started and
    will stop (the command line's Ray, cli/ray_workers.py). play/ only hands them chunks:
    it never starts, reaches or stops a cluster, and never imports one's library."""

    def cpus(self) -> int:
        """The CPUs the games may use: the chunks are sized by them."""
        ...

    def play(
        self, setup: Setup, chunks: Sequence[Sequence[int]]
    ) -> Generator[tuple[int, list[GameRecord] | _Failure], None, None]:
        """Each chunk played by `remote_chunk(setup, chunk)` on a worker, yielded as (its
        first seed, what `remote_chunk` returned) as each ends, in any order. Closed
        before its end (a failed game, Ctrl-C), it drops the chunks not yet played."""
        ...


def check_scale(games: int, jobs: int) -> None:
    """Refuse a number of games or jobs past MAX_GAMES or MAX_JOBS before any work: a
    record is kept per game and a process started per job, so a mistyped number would
    otherwise end in a MemoryError or a machine full of workers."""
    if games > MAX_GAMES:
        raise ArgumentError(
            "games",
            f"the limit is {MAX_GAMES:,} games",
            given=games,
            hint="run several simulations",
            using="seed",
        )
    if jobs > MAX_JOBS:
        raise ArgumentError(
            "jobs",
            f"the limit is {MAX_JOBS} worker processes",
            given=jobs,
            hint=f"this machine lets {default_jobs()} run at once",
        )


def _chunks(seeds: Sequence[int], jobs: int) -> list[Sequence[int]]:
    """At least 16 chunks per worker (one game each when there are fewer games than that):
    small enough for a progress bar that moves and for the workers to finish together,
    large enough that sending them costs nothing. Rounded down, not up: 40 long games on 2
    workers were 20 chunks of two, and the last chunk's second game ran alone on one core
    while the other waited (a game of look-ahead players takes a minute or two)."""
    size = max(1, len(seeds) // (jobs * 16))
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


def _quiet(total: int) -> AbstractContextManager[Callable[[], None]]:
    return nullcontext(lambda: None)


def _context():
    """fork where the system has it safely (Linux): the workers inherit the loaded game and
    start at once. Elsewhere the platform's default, and each worker loads the game."""
    import multiprocessing

    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return None


def _simulate_elsewhere(
    setup: Setup,
    seeds: Sequence[int],
    workers: Workers,
    watch: Callable[[int], AbstractContextManager[Callable[[], None]]],
    each: Callable[[list[GameRecord]], None] | None = None,
) -> list[GameRecord]:
    """The seeds' records, played by `workers`: the same chunks and the same worker code
    as local processes, so the same records (a game depends only on its seed)."""
    done: dict[int, list[GameRecord]] = {}
    results = workers.play(setup, _chunks(seeds, workers.cpus()))
    try:
        with watch(len(seeds)) as advance:
            for first, got in results:
                if isinstance(got, _Failure):
                    raise got
                done[first] = got
                if each is not None:
                    each(got)
                for _ in got:
                    advance()
    finally:  # a failed game or Ctrl-C: the chunks not yet played are dropped
        results.close()
    return [r for first in sorted(done) for r in done[first]]


def simulate(
    setup: Setup,
    games: int,
    seed: int,
    jobs: int,
    game: Game | None = None,
    watch: Callable[[int], AbstractContextManager[Callable[[], None]]] = _quiet,
    workers: Workers | None = None,
    each: Callable[[list[GameRecord]], None] | None = None,
) -> list[GameRecord]:
    """Play seeds seed..seed+games-1 and return their records in seed order.

    With `jobs` 1 the games are played here (with `game`, if already loaded); otherwise in
    `jobs` worker processes, each given the game once. Given `workers` (a cluster the
    caller started, such as Ray), they are played there instead, in the same chunks.
    `watch(games)` is entered once the work is under way (a progress bar: entered after the
    workers are forked, so no thread of its own is copied into them) and yields a function
    called once per game finished. `each` is called here with the records of each chunk of
    games as it ends, in the order they end (`gamedef balance --keep` writes them down
    as they come, from one pool of workers that stays busy to the end). Raises UsageError
    for a game that cannot be finished."""
    global _worker
    check_scale(games, jobs)
    seeds = range(seed, seed + games)  # a range: sliced into chunks, never a list of every seed
    try:
        if workers is not None:
            return _simulate_elsewhere(setup, seeds, workers, watch, each)
        if jobs <= 1:
            game = game or setup.load()
            records = []
            with watch(games) as advance:
                for s in seeds:
                    played = _play_seeds(game, setup, [s])
                    records.extend(played)
                    if each is not None:
                        each(played)
                    advance()
            return records
        from concurrent.futures import ProcessPoolExecutor, as_completed

        done: dict[int, list[GameRecord]] = {}
        _worker = (game, setup) if game is not None else None  # what a forked worker inherits
        try:
            with ProcessPoolExecutor(
                max_workers=jobs, mp_context=_context(), initializer=_init_worker, initargs=(setup,)
            ) as pool:
                futures = {pool.submit(_play_chunk, chunk): chunk[0] for chunk in _chunks(seeds, jobs)}
                try:
                    with watch(games) as advance:
                        for future in as_completed(futures):
                            got = future.result()
                            if isinstance(got, _Failure):
                                raise got
                            done[futures[future]] = got
                            if each is not None:
                                each(got)
                            for _ in got:
                                advance()
                except BaseException:  # a failed game or Ctrl-C: no more chunks are started
                    pool.shutdown(wait=True, cancel_futures=True)
                    raise
        finally:
            _worker = None
        return [r for first in sorted(done) for r in done[first]]
    except _Failure as failure:
        raise failure.error(setup.game) from None


# ---- the summary ----------------------------------------------------------------------------------
def _share(wins: float, n: int) -> dict[str, Any]:
    """A win rate over `n` seat-games with its interval; no rate (None) when there are none."""
    low, high = wilson(wins, n)
    return {"seat_games": n, "wins": wins, "rate": wins / n if n else None, "low": low, "high": high}


def card_summary(
    records: Sequence[GameRecord], seats: Sequence[str], cards: Mapping[str, tuple[str, str]]
) -> list[dict[str, Any]]:
    """Each card's figures, every card of `cards` (name -> kind, title) in its order.

    The unit is a seat in a game (a seat-game): the seats that chose the card at least once
    in a game, against all the other seat-games of the simulation (the same seat in games
    where it did not choose it, and the other seats). Each side's win rate counts a shared
    win as a share, as the seats' win rates do, so the two sides' seat-games add up to
    games × seats and their wins to all the wins. `difference` is the first rate minus the
    second (None when a side is empty): a card whose choosers win more than the others.

    Where the seats are unequal, a card one side plays more often takes on that side's win
    rate; `by_seat` sets each seat against itself (its games with the card, its games
    without), which that does not bias."""
    share = [{w: 1 / len(r.winners) for w in r.winners} for r in records]
    total_wins = sum(sum(won.values()) for won in share)
    seat_wins = {s: sum(won.get(s, 0.0) for won in share) for s in seats}
    n, total = len(records), len(records) * len(seats)
    games: Counter[str] = Counter()  # games in which some seat chose the card
    times: Counter[str] = Counter()  # decisions in which a seat chose it
    seat_games: dict[str, Counter[str]] = {card: Counter() for card in cards}  # per seat: games it chose it in
    wins: dict[str, Counter[str]] = {card: Counter() for card in cards}  # per seat: its wins (shares) in those
    for r, won in zip(records, share):
        for seat, card, k in r.cards:  # one entry per (seat, card) of the game
            times[card] += k
            seat_games.setdefault(card, Counter())[seat] += 1  # (setdefault: a card missing from `cards`)
            # A Counter of win shares (floats): typeshed types a Counter's counts as int only.
            wins.setdefault(card, Counter())[seat] += won.get(seat, 0.0)  # type: ignore[assignment]
        games.update({card for _, card, _ in r.cards})
    out = []
    for card, by_seat in seat_games.items():
        kind, title = cards.get(card, ("", card))
        n1, w1 = sum(by_seat.values()), sum(wins[card].values())
        chose, others = _share(w1, n1), _share(total_wins - w1, total - n1)
        difference = None if chose["rate"] is None or others["rate"] is None else chose["rate"] - others["rate"]
        per_seat = {
            s: {
                "chose_it": _share(wins[card][s], by_seat[s]),
                "did_not": _share(seat_wins[s] - wins[card][s], n - by_seat[s]),
            }
            for s in seats
        }
        out.append(
            {
                "card": card,
                "title": title,
                "kind": kind,
                "games": games[card],
                "times": times[card],
                "chosen_by": {s: by_seat[s] for s in seats if by_seat[s]},
                "chose_it": chose,
                "others": others,
                "difference": difference,
                "by_seat": per_seat,
            }
        )
    return out


def summarise(
    records: Sequence[GameRecord], seats: Sequence[str], cards: Mapping[str, tuple[str, str]] | None = None
) -> dict[str, Any]:
    """The figures a designer reads, as plain data (the JSON document without its header).

    A win shared by k seats counts 1/k to each of them, so the seats' win rates and the
    no-winner share add up to 100%; the Wilson interval is computed from that share.
    `cards` (from `card_catalogue`) adds each card's figures; without it (or for a game
    without cards, whose catalogue is empty) `cards` is None, as `rounds` is for a game
    without a round counter, so that a tool can tell "no cards" from "no card chosen"."""
    n = len(records)
    wins = {s: 0.0 for s in seats}
    for r in records:
        for w in r.winners:
            wins[w] = wins.get(w, 0.0) + 1 / len(r.winners)
    win_rates = []
    for s, won in wins.items():
        low, high = wilson(won, n)
        win_rates.append({"seat": s, "wins": won, "rate": won / n if n else 0.0, "low": low, "high": high})
    payoffs = []
    for s in seats:
        values = [v for r in records for seat, v in r.payoffs if seat == s]
        if values:
            mean, low, high = mean_interval(values)
            payoffs.append({"seat": s, "games": len(values), "mean": mean, "low": low, "high": high})
    nobody = sum(1 for r in records if not r.winners)
    low, high = wilson(nobody, n)
    endings = Counter(r.ending for r in records)
    example: dict[str, str] = {}
    won_by: dict[str, dict[str, float]] = {}  # per ending: each seat's wins (shares) in those games
    for r in records:
        example.setdefault(r.ending, r.headline)
        tally = won_by.setdefault(r.ending, {})
        for w in r.winners:
            tally[w] = tally.get(w, 0.0) + 1 / len(r.winners)
    rounds = [r.rounds for r in records if r.rounds is not None]
    return {
        "games": n,
        "win_rates": win_rates,
        "payoffs": payoffs,
        "no_winner": {"games": nobody, "rate": nobody / n if n else 0.0, "low": low, "high": high},
        "shared_wins": sum(1 for r in records if len(r.winners) > 1),
        "decisions": _spread([r.decisions for r in records]),
        "rounds": _spread(rounds) if len(rounds) == n else None,
        "endings": [
            {
                "ending": e,
                "games": c,
                "share": c / n,
                "won_by": {s: won_by[e][s] for s in seats if won_by[e].get(s)},
                "example": example[e],
            }
            for e, c in sorted(endings.items(), key=lambda item: (-item[1], item[0]))
        ],
        "cards": card_summary(records, seats, cards) if cards else None,
    }


def document(
    header: dict[str, Any],
    records: Sequence[GameRecord],
    seats: Sequence[str],
    cards: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The `--json` document: what was simulated, the summary, and every game's record."""
    return {**header, **summarise(records, seats, cards), "records": [_record_dict(r) for r in records]}


def _record_dict(r: GameRecord) -> dict[str, Any]:
    """A record for JSON: its cards as {seat: {card: times}}, which reads better than triples."""
    d = asdict(r)
    d["winners"] = list(r.winners)
    chosen: dict[str, dict[str, int]] = {}
    for seat, card, times in r.cards:
        chosen.setdefault(seat, {})[card] = times
    d["cards"] = chosen
    acted: dict[str, dict[str, int]] = {}
    for seat, card, times in r.performed:
        acted.setdefault(seat, {})[card] = times
    d["performed"] = acted
    gained: dict[str, dict[str, float]] = {}
    for seat, source, points in r.gains:
        gained.setdefault(seat, {})[source] = points
    d["gains"] = gained
    d["payoffs"] = dict(r.payoffs)
    return d


def default_jobs() -> int:
    """The cores this process may use (a container or `taskset` may allow fewer than the machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
