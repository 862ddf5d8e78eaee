"""Tables kept in SQLite: what a table is (game, variants, options, players, seed, who
plays each seat, the private links) and every move, in order.

A move is committed before the server answers the request that made it, so a server
killed at any moment loses no move it acknowledged; a table is rebuilt by replaying its
moves from its start, which the engine makes exact (the same seed and moves give the
same game). The state itself is never stored: it is derived, so it cannot disagree
with the moves.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import attrs

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variants TEXT NOT NULL,
    options TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    agents TEXT NOT NULL,
    tokens TEXT NOT NULL,
    spectator TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat TEXT NOT NULL,
    label TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


@attrs.frozen
class TableRecord:
    """A table as stored: enough to start it again and replay its moves."""

    id: str
    game: str
    variants: tuple[str, ...]
    options: dict[str, Any]
    players: int
    seed: int
    agents: dict[str, str]  # seat -> "human" or an agent kind (random, mcts:0.2s, ...)
    tokens: dict[str, str]  # seat -> its private token
    spectator: str  # the spectators' token


class Store:
    """One SQLite file (`:memory:` for tests), used from the server's threads in turn."""

    def __init__(self, path: str | Path):
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a committed move survives a crash
        self._db.executescript(SCHEMA)

    def create(self, record: TableRecord) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.game,
                    json.dumps(list(record.variants)),
                    json.dumps(record.options),
                    record.players,
                    record.seed,
                    json.dumps(record.agents),
                    json.dumps(record.tokens),
                    record.spectator,
                    time.time(),
                ),
            )

    def add_move(self, table_id: str, n: int, seat: str, label: str) -> None:
        """Move number `n` (from 0) of the table; a second move with the same number is
        refused by the primary key, so two requests racing for one turn cannot both land."""
        with self._lock:
            self._db.execute("INSERT INTO moves VALUES (?, ?, ?, ?)", (table_id, n, seat, label))

    def table(self, table_id: str) -> TableRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, variants, options, players, seed, agents, tokens, spectator FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
        if row is None:
            return None
        return TableRecord(
            id=row[0],
            game=row[1],
            variants=tuple(json.loads(row[2])),
            options=json.loads(row[3]),
            players=row[4],
            seed=row[5],
            agents=json.loads(row[6]),
            tokens=json.loads(row[7]),
            spectator=row[8],
        )

    def moves(self, table_id: str) -> list[tuple[str, str]]:
        """The table's moves in order, as (seat, label)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, label FROM moves WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
        return [(seat, label) for seat, label in rows]

    def recent(self, limit: int = 20) -> list[tuple[str, str, int]]:
        """The newest tables: (id, game, players)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, players FROM tables ORDER BY created DESC LIMIT ?", (limit,)
            ).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
