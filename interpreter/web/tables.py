"""Tables in play: a game, its states so far, who plays each seat, and their private links.

Every request names a table and a token; the token says which seat (or a spectator) is
asking, and that decides what the answer may show: a seat's view and narration are
those the engine gives that seat, never the whole state. A move is checked (the asker
is the seat to move, the move is legal, the asker saw the latest position), committed to
the store, then applied; the AI seats then move in turn, each move committed as well.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

from interpreter.core.errors import UsageError
from interpreter.core.limits import MAX_DECISIONS
from interpreter.play.agents import Agent, make_agent
from interpreter.runtime.game import Game
from interpreter.runtime.load import load_game
from interpreter.runtime.machine import State
from interpreter.web.board import Narration
from interpreter.web.store import Store, TableRecord

SPECTATOR = ""  # the seat a spectator's token stands for: nobody's secrets
MAX_TABLES_IN_MEMORY = 200  # tables kept replayed in memory; the others are replayed again when asked for
AI_KINDS = ("random", "first", "mcts:0.2s", "ismcts:0.2s", "mcts:1s", "ismcts:1s")


class WebError(Exception):
    """A request the table refuses: its HTTP status and a message for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class Table:
    """A table replayed in memory: its game, every state from the start, its agents."""

    def __init__(self, record: TableRecord, game: Game, states: list[State], labels: list[tuple[str, str]]):
        self.record = record
        self.game = game
        self.states = states  # states[0] is the start; states[n] follows move n - 1
        self.moves = labels  # (seat, label) of each move
        self.lock = threading.Lock()
        self.changed = threading.Condition()
        self.drawn: dict[tuple[int, str], str] = {}  # a page part by (moves seen, seat): the latest only
        self.narration = Narration()
        self.agents: dict[str, Agent] = {
            seat: make_agent(kind, seat, record.seed * 1000 + i, game)
            for i, (seat, kind) in enumerate(sorted(record.agents.items()))
            if kind != "human"
        }

    @property
    def state(self) -> State:
        return self.states[-1]

    def remember(self, moves_seen: int, seat: str, page: str) -> None:
        """Keep a seat's drawing of the latest position (older ones are never asked again)."""
        if moves_seen != len(self.moves):
            return
        for key in [k for k in self.drawn if k[0] != moves_seen]:
            del self.drawn[key]
        self.drawn[(moves_seen, seat)] = page

    def seat_of(self, token: str) -> str:
        """The seat a token stands for (SPECTATOR for the spectators' token)."""
        if secrets.compare_digest(token, self.record.spectator):
            return SPECTATOR
        for seat, own in self.record.tokens.items():
            if secrets.compare_digest(token, own):
                return seat
        raise WebError(404, "no such table, or this link is not one of its seats")


class Tables:
    """Every table: created here, kept in the store, replayed on demand after a restart."""

    def __init__(self, store: Store):
        self.store = store
        self._open: dict[str, Table] = {}
        self._lock = threading.Lock()

    def create(
        self,
        game_name: str,
        players: int | None,
        seats: dict[str, str],
        variants: tuple[str, ...] = (),
        options: dict[str, Any] | None = None,
        seed: int | None = None,
    ) -> Table:
        """A new table; `seats` gives each seat `human` or an AI kind (a seat not named is human)."""
        game = load_game(game_name, variants=variants, options=options or {})
        seed = secrets.randbelow(2**31) if seed is None else seed
        start = game.start(players=players, seed=seed)
        for seat, kind in seats.items():
            if seat not in start.players:
                raise UsageError(f"no seat '{seat}' in this game", "seats: " + ", ".join(start.players))
            if kind != "human" and kind not in AI_KINDS:
                raise UsageError(f"unknown player kind '{kind}'", "kinds: human, " + ", ".join(AI_KINDS))
        agents = {seat: seats.get(seat, "human") for seat in start.players}
        record = TableRecord(
            id=secrets.token_urlsafe(9),
            game=game_name,
            variants=tuple(variants),
            options=dict(options or {}),
            players=len(start.players),
            seed=seed,
            agents=agents,
            tokens={seat: secrets.token_urlsafe(18) for seat in start.players},
            spectator=secrets.token_urlsafe(18),
        )
        table = Table(record, game, [start], [])
        self.store.create(record)
        self._keep(table)
        self.run_agents(table)
        return table

    def get(self, table_id: str) -> Table:
        with self._lock:
            table = self._open.get(table_id)
        if table is not None:
            return table
        record = self.store.table(table_id)
        if record is None:
            raise WebError(404, "no such table, or this link is not one of its seats")
        game = load_game(record.game, variants=record.variants, options=record.options)
        states = [game.start(players=record.players, seed=record.seed)]
        labels = self.store.moves(table_id)
        for _seat, label in labels:  # the moves as committed: replayed exactly
            states.append(game.apply(states[-1], label))
        table = Table(record, game, states, labels)
        self._keep(table)
        return table

    def _keep(self, table: Table) -> None:
        with self._lock:
            if len(self._open) >= MAX_TABLES_IN_MEMORY:
                self._open.pop(next(iter(self._open)))
            self._open[table.record.id] = table

    def move(self, table: Table, token: str, index: int, seen: int) -> None:
        """The seat of `token` takes its option `index`, having seen `seen` moves."""
        seat = table.seat_of(token)
        with table.lock:
            state = table.state
            if seen != len(table.moves):
                raise WebError(409, "the position has changed since you saw it: look again")
            if state.result is not None:
                raise WebError(409, "the game is over")
            if seat == SPECTATOR or state.pending is None or state.pending.player != seat:
                raise WebError(403, "it is not your turn")
            labels = table.game.labels(state)
            if not 0 <= index < len(labels):
                raise WebError(400, f"no move number {index}: there are {len(labels)}")
            self._commit(table, seat, index, labels[index])
        self.run_agents(table)

    def _commit(self, table: Table, seat: str, index: int, label: str) -> None:
        self.store.add_move(table.record.id, len(table.moves), seat, label)  # committed before it counts
        table.states.append(table.game.apply_index(table.state, index))
        table.moves.append((seat, label))
        with table.changed:
            table.changed.notify_all()

    def run_agents(self, table: Table) -> None:
        """The AI seats move while it is their turn (each move committed)."""
        with table.lock:
            while len(table.moves) < MAX_DECISIONS:
                state = table.state
                if state.result is not None or state.pending is None:
                    return
                agent = table.agents.get(state.pending.player)
                if agent is None:
                    return
                index = agent.choose(table.game, state)
                self._commit(table, state.pending.player, index, table.game.labels(state)[index])
