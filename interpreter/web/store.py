"""Where tables are kept: what a table is (game, variants, options, players, seed, who
plays each seat, the private links) and every move, in order. The store is the one truth
of a table: every page, every process and every restart reads the moves from it.

A move is committed before the server answers the request that made it, so a server
killed at any moment loses no move it acknowledged. Move `n` of a table is written only
while the table has exactly `n` moves (the check and the write are one transaction), so
two requests racing for one turn, in one process or in several, cannot both land; a move
sent again with the same key (a retried request) is found, never played twice. The state
itself is never stored: it is derived by replaying the moves from the start, which the
engine makes exact, so it cannot disagree with them.

Two stores share one interface (`Store`): SQLite, one file, for one server process (the
default), and PostgreSQL (`web/postgres.py`), for several processes behind one proxy.
Either raises `StoreUnavailable` with a plain reason when it cannot be read or written.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

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
# Added since the first version of the file: each ALTER is tried once, on every start, so a
# file written by an older server is brought up to date in place (its tables and moves kept).
COLUMNS = (
    "ALTER TABLE tables ADD COLUMN moves INTEGER NOT NULL DEFAULT -1",  # -1: not yet counted
    "ALTER TABLE tables ADD COLUMN ai_turn INTEGER NOT NULL DEFAULT 0",  # an AI seat is to move
    "ALTER TABLE moves ADD COLUMN key TEXT",  # the request's idempotency key, when it sent one
)
INDEXES = (
    "CREATE UNIQUE INDEX IF NOT EXISTS moves_key ON moves (table_id, key)",
    "CREATE INDEX IF NOT EXISTS tables_ai_turn ON tables (ai_turn)",
)
BUSY_TIMEOUT = 5.0  # seconds a writer waits for another's lock before the store says it is busy


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


@attrs.frozen
class Committed:
    """What `add_move` did: `count` is the table's number of moves after it; `played` is
    False when the key had already been played (the same request, sent again)."""

    count: int
    played: bool


class StoreUnavailable(Exception):
    """The store cannot be read or written (a damaged or locked file, a lost database):
    the tables it holds answer 503 with this reason until it is back."""


class MoveConflict(Exception):
    """Another move took this move's number first: the asker saw an older position."""


class Store(Protocol):
    """The interface of a table store (SQLite here, PostgreSQL in `postgres.py`)."""

    def create(self, record: TableRecord, ai_turn: bool) -> None:
        """Keep a new table; `ai_turn`: its first decision is an AI seat's."""
        ...

    def table(self, table_id: str) -> TableRecord | None: ...

    def moves(self, table_id: str, since: int = 0) -> list[tuple[str, str]]:
        """The table's moves from number `since` on, in order, as (seat, label)."""
        ...

    def count(self, table_id: str) -> int: ...

    def add_move(self, table_id: str, n: int, seat: str, label: str, key: str | None, ai_turn: bool) -> Committed:
        """Commit move `n`; raises MoveConflict if the table no longer has `n` moves."""
        ...

    def played(self, table_id: str, key: str) -> int | None:
        """The table's count of moves after the move sent with `key`, if one was."""
        ...

    def waiting_for_ai(self, limit: int = 1000) -> list[str]:
        """Tables whose next decision is an AI seat's (to resume after a restart)."""
        ...

    def listen(self, heard: Callable[[str, int], None]) -> None:
        """Call `heard(table_id, count)` for each move committed by another process."""
        ...

    def close(self) -> None: ...


def _unavailable(err: sqlite3.Error, path: str) -> StoreUnavailable:
    text = str(err)
    if "locked" in text or "busy" in text:
        return StoreUnavailable(f"the tables file is busy ({text}); try again in a moment")
    return StoreUnavailable(
        f"the tables file {path} cannot be read ({text}): it may be damaged; the server's operator can move it "
        "away and start again"
    )


class SqliteStore:
    """One SQLite file (`:memory:` for tests), for one server process: its threads take
    turns on one connection, each write one transaction."""

    def __init__(self, path: str | Path):
        self._path = str(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self._path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT)
            self._db.execute("PRAGMA journal_mode=WAL")
            # In WAL mode, NORMAL makes a commit durable against the server's crash (kill -9: the
            # commit is in the WAL, which the next start reads), not against the machine's
            # (power lost before the OS wrote it). FULL would add a disk sync to every move:
            # about 9 ms here, one move at a time, the largest part of a move's round trip.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            have = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
            have |= {row[1] for row in self._db.execute("PRAGMA table_info(moves)")}
            for statement in COLUMNS:
                if statement.split("ADD COLUMN ")[1].split()[0] not in have:
                    self._db.execute(statement)
            for statement in INDEXES:
                self._db.execute(statement)
        except sqlite3.Error as err:
            raise _unavailable(err, self._path) from None

    def _run(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            try:
                return work(self._db)
            except sqlite3.Error as err:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise _unavailable(err, self._path) from None

    def create(self, record: TableRecord, ai_turn: bool) -> None:
        row = (
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
            int(ai_turn),
        )
        self._run(
            lambda db: db.execute(
                "INSERT INTO tables (id, game, variants, options, players, seed, agents, tokens, spectator, created,"
                " moves, ai_turn) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                row,
            )
        )

    def table(self, table_id: str) -> TableRecord | None:
        row = self._run(
            lambda db: db.execute(
                "SELECT id, game, variants, options, players, seed, agents, tokens, spectator FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
        )
        return None if row is None else record_of(row)

    def moves(self, table_id: str, since: int = 0) -> list[tuple[str, str]]:
        rows = self._run(
            lambda db: db.execute(
                "SELECT seat, label FROM moves WHERE table_id = ? AND n >= ? ORDER BY n", (table_id, since)
            ).fetchall()
        )
        return [(seat, label) for seat, label in rows]

    def count(self, table_id: str) -> int:
        row = self._run(lambda db: db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone())
        return int(row[0])

    def add_move(self, table_id: str, n: int, seat: str, label: str, key: str | None, ai_turn: bool) -> Committed:
        def work(db: sqlite3.Connection) -> Committed:
            db.execute("BEGIN IMMEDIATE")  # the count read and the write in one transaction
            if key is not None:
                done = db.execute("SELECT n FROM moves WHERE table_id = ? AND key = ?", (table_id, key)).fetchone()
                if done is not None:
                    db.execute("ROLLBACK")
                    return Committed(count=int(done[0]) + 1, played=False)
            have = db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()[0]
            if have != n:
                db.execute("ROLLBACK")
                raise MoveConflict(f"move {n} was asked, and the table has {have}")
            db.execute(
                "INSERT INTO moves (table_id, n, seat, label, key) VALUES (?, ?, ?, ?, ?)",
                (table_id, n, seat, label, key),
            )
            db.execute("UPDATE tables SET moves = ?, ai_turn = ? WHERE id = ?", (n + 1, int(ai_turn), table_id))
            db.execute("COMMIT")
            return Committed(count=n + 1, played=True)

        return self._run(work)

    def played(self, table_id: str, key: str) -> int | None:
        row = self._run(
            lambda db: db.execute("SELECT n FROM moves WHERE table_id = ? AND key = ?", (table_id, key)).fetchone()
        )
        return None if row is None else int(row[0]) + 1

    def waiting_for_ai(self, limit: int = 1000) -> list[str]:
        rows = self._run(
            lambda db: db.execute(
                "SELECT id FROM tables WHERE ai_turn = 1 ORDER BY created LIMIT ?", (limit,)
            ).fetchall()
        )
        return [r[0] for r in rows]

    def listen(self, heard: Callable[[str, int], None]) -> None:
        """Nothing to hear: one process writes this file, and it tells its own pages."""

    def close(self) -> None:
        with self._lock:
            self._db.close()


def record_of(row: Any) -> TableRecord:
    """A stored row (id, game, variants, options, players, seed, agents, tokens, spectator)."""
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
