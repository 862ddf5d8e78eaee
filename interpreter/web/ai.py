"""The AI seats of every table, played in the background by a bounded pool.

A search agent thinks for up to a second a decision; inside a request that would hold the
request (and, with several AI seats, a whole game's worth of them) and a worker thread of
the server. Here a table whose AI seat is to move is queued; a few threads take tables in
turn, one decision at a time each, so a table with many AI moves cannot keep the others
waiting; each decision is thought out in a separate process (the `processes` pool) so the
server's own process keeps answering pages meanwhile. The move is then committed like a
person's, through `Tables.commit`, and the table queued again if an AI seat is still to
move. After a restart, the tables the store marks as waiting for an AI seat are queued
again (`resume`), so no table waits forever for a decision a killed server was making.

Each table has a budget of thinking time (`TABLE_BUDGET`); past it, its AI seats play
as `random` for the rest of the game, so one long table cannot hold the pool.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import multiprocessing.pool
import queue
import threading
import time
from collections import OrderedDict
from typing import Any

import attrs

from interpreter.play.agents import Agent, make_agent
from interpreter.runtime.game import Game
from interpreter.runtime.load import load_game
from interpreter.runtime.machine import State
from interpreter.web.tables import Table, Tables, WebError

TABLE_BUDGET = 600.0  # seconds of thinking a table's AI seats may spend, all together
DECISION_WAIT = 300.0  # seconds to wait for one decision (a first compile of a large game included)
KEPT_IN_WORKER = 16  # tables a worker process keeps replayed between decisions
FAILURES_BEFORE_RANDOM = 2  # a seat whose agent fails this often plays `random`

log = logging.getLogger("gamedef.web")


@attrs.frozen
class Decision:
    """What a worker needs to choose a table's next move: the table's rules and moves,
    whose decision it is and how that seat thinks."""

    table_id: str
    game: str
    variants: tuple[str, ...]
    options: dict[str, Any]
    players: int
    seed: int
    moves: tuple[str, ...]
    seat: str
    kind: str
    agent_seed: int


class _Replayed:
    """A table as a worker process keeps it: its game, its latest state, its agents."""

    def __init__(self, decision: Decision):
        self.game: Game = _game(decision)
        self.state: State = self.game.start(players=decision.players, seed=decision.seed)
        self.moves: list[str] = []
        self.agents: dict[tuple[str, str], Agent] = {}


_kept: OrderedDict[str, _Replayed] = OrderedDict()  # per worker process (or per server, with threads)
_games: OrderedDict[str, Game] = OrderedDict()  # one loaded game per rules, shared by the tables kept
_kept_lock = threading.Lock()


def _game(decision: Decision) -> Game:
    key = json.dumps([decision.game, list(decision.variants), decision.options], sort_keys=True)
    with _kept_lock:
        game = _games.get(key)
    if game is None:
        game = load_game(decision.game, variants=decision.variants, options=decision.options)
        with _kept_lock:
            _games[key] = game
            while len(_games) > KEPT_IN_WORKER:
                _games.popitem(last=False)
    return game


def think(decision: Decision) -> int:
    """The index of the move the seat's agent chooses (run in a worker process)."""
    with _kept_lock:
        table = _kept.pop(decision.table_id, None)
    if table is None or tuple(table.moves) != decision.moves[: len(table.moves)]:
        table = _Replayed(decision)
    for label in decision.moves[len(table.moves) :]:
        table.state = table.game.apply(table.state, label)
        table.moves.append(label)
    agent = table.agents.get((decision.seat, decision.kind))
    if agent is None:
        agent = table.agents[(decision.seat, decision.kind)] = make_agent(
            decision.kind, decision.seat, decision.agent_seed, table.game
        )
    index = agent.choose(table.game, table.state)
    with _kept_lock:
        _kept[decision.table_id] = table
        while len(_kept) > KEPT_IN_WORKER:
            _kept.popitem(last=False)
    return index


def _warm() -> None:
    """A worker process's start: import the engine once, before the first decision."""
    import interpreter.play.mcts  # noqa: F401


class AIPlayers:
    """The pool that plays every table's AI seats: `wake(table_id)` when one is to move."""

    def __init__(self, tables: Tables, threads: int = 1, processes: bool = True, budget: float = TABLE_BUDGET):
        self.tables = tables
        self.budget = budget
        self._threads = max(1, threads)
        self._use_processes = processes
        self._pool: multiprocessing.pool.Pool | None = None
        self._queue: queue.Queue[str] = queue.Queue()
        self._queued: set[str] = set()
        self._lock = threading.Lock()
        self._spent: dict[str, float] = {}
        self._failures: dict[tuple[str, str], int] = {}
        self._stopping = threading.Event()
        self._workers: list[threading.Thread] = []
        self.thinking = 0  # decisions being made now

    def start(self) -> None:
        """Start the pool and queue the tables a restart left waiting for an AI seat."""
        if self._use_processes:
            context = multiprocessing.get_context("spawn")  # no copy of the server's threads and loop
            self._pool = context.Pool(self._threads, initializer=_warm)
        for i in range(self._threads):
            worker = threading.Thread(target=self._work, name=f"gamedef-ai-{i}", daemon=True)
            worker.start()
            self._workers.append(worker)
        try:
            for table_id in self.tables.waiting_for_ai():
                self.wake(table_id)
        except Exception as err:  # a store that cannot be read now: its tables resume when next moved
            log.warning("gamedef serve: the tables waiting for an AI seat could not be read: %s", err)

    def stop(self) -> None:
        """Stop at once: a decision being made is dropped (the table resumes at the next start)."""
        self._stopping.set()
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None

    def wake(self, table_id: str) -> None:
        """Queue the table (once) for its AI seat's decision."""
        with self._lock:
            if table_id in self._queued:
                return
            self._queued.add(table_id)
        self._queue.put(table_id)

    def idle(self) -> bool:
        """Nothing queued and nothing being thought (for tests and the load figures)."""
        with self._lock:
            return not self._queued and self.thinking == 0

    def _work(self) -> None:
        while not self._stopping.is_set():
            try:
                table_id = self._queue.get(timeout=0.2)
            except queue.Empty:
                continue
            with self._lock:
                self._queued.discard(table_id)
                self.thinking += 1
            try:
                self._decide(table_id)
            except WebError:
                pass  # the table is gone from the store, or another move took the turn
            except Exception as err:  # one table's failure never stops the pool
                if not self._stopping.is_set():
                    log.warning("gamedef serve: table %s: an AI decision failed: %s", table_id, err)
            finally:
                with self._lock:
                    self.thinking -= 1

    def _decide(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        with table.lock:
            seat = table.ai_to_move()
            if seat is None:
                return
            n = table.step
            decision = self._decision(table, seat)
        started = time.monotonic()
        try:
            index = self._think(decision)
        except Exception as err:  # the agent's error, a worker lost, a decision past its wait
            failures = self._failures[(table_id, seat)] = self._failures.get((table_id, seat), 0) + 1
            log.warning("gamedef serve: table %s: %s could not decide (%s)", table_id, seat, err)
            if failures <= FAILURES_BEFORE_RANDOM + 1 and not self._stopping.is_set():
                self.wake(table_id)  # tried again; past the limit, as `random`
            return
        finally:
            self._spent[table_id] = self._spent.get(table_id, 0.0) + time.monotonic() - started
        if self._stopping.is_set():
            return
        with table.lock:
            table.catch_up(self.tables.store)
            if table.step != n or table.ai_to_move() != seat:
                self.wake(table_id)  # the table moved meanwhile (another process): look again
                return
            labels = table.game.labels(table.state)
            self.tables.commit(table, seat, labels[index], index)  # queues the table again if an AI is next

    def _decision(self, table: Table, seat: str) -> Decision:
        record = table.record
        kind = record.agents[seat]
        over_budget = self._spent.get(record.id, 0.0) > self.budget
        if over_budget or self._failures.get((record.id, seat), 0) > FAILURES_BEFORE_RANDOM:
            kind = "random"
        return Decision(
            table_id=record.id,
            game=record.game,
            variants=record.variants,
            options=record.options,
            players=record.players,
            seed=record.seed,
            moves=tuple(label for _, label in table.moves),
            seat=seat,
            kind=kind,
            agent_seed=(record.seed * 1000 + sorted(record.agents).index(seat)) % 2**63,
        )

    def _think(self, decision: Decision) -> int:
        if not self._use_processes:
            return think(decision)
        pool = self._pool
        if pool is None:
            raise multiprocessing.TimeoutError("the pool is stopping")
        return pool.apply_async(think, (decision,)).get(timeout=DECISION_WAIT)
