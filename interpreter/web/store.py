"""Where tables are kept: what a table is (game, variants, options, players, seed, who
plays each seat, the private links), every move in order, who sits at each seat, and what
the players said. The store is the one truth of a table: every page, every process and
every restart reads the moves from it.

A move is committed before the server answers the request that made it, so a server
killed at any moment loses no move it acknowledged. Move `n` of a table is written only
while the table has exactly `n` moves (the check and the write are one transaction, the
table's row held for it), so two requests racing for one turn, in one process or in
several, cannot both land; a move sent again with the same key (a retried request) is
found, never played twice. The state itself is never stored: it is derived by replaying
the moves from the start, which the engine makes exact, so it cannot disagree with them.

Two stores share the SQL below (`SqlStore`): SQLite, one file, for one server process (the
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
CREATE TABLE IF NOT EXISTS notes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""
# Added since the first version of the file: each is added once, on the first start that
# lacks it, so a file written by an older server is brought up to date in place.
COLUMNS = {
    "tables": (
        ("moves", "INTEGER NOT NULL DEFAULT 0"),  # the number of moves
        ("ai_turn", "INTEGER NOT NULL DEFAULT 0"),  # an AI seat is to move
        ("over", "INTEGER NOT NULL DEFAULT 0"),  # the game has ended
        ("listed", "INTEGER NOT NULL DEFAULT 0"),  # its free seats are offered in the lobby
        ("names", "TEXT NOT NULL DEFAULT '{}'"),  # seat -> the name of who took it ('' unnamed)
        ("rematch", "TEXT"),  # the table started again with the same settings, if one was
        ("step", "INTEGER NOT NULL DEFAULT -1"),  # moves made plus moves taken back (never goes down)
        ("undo", "TEXT"),  # the request to take back a move being voted on (JSON), if any
    ),
    "moves": (
        ("key", "TEXT"),  # the request's idempotency key, when it sent one
        ("step", "INTEGER"),  # the table's step after it (its request's answer)
    ),
}
# A table written before steps were counted has taken nothing back: its step is its moves.
STEPS_FROM_MOVES = "UPDATE tables SET step = moves WHERE step < 0"
INDEXES = (
    "CREATE UNIQUE INDEX IF NOT EXISTS moves_key ON moves (table_id, key)",
    "CREATE INDEX IF NOT EXISTS tables_ai_turn ON tables (ai_turn)",
    "CREATE INDEX IF NOT EXISTS tables_listed ON tables (listed, over)",
)
BUSY_TIMEOUT = 5.0  # seconds a writer waits for another's lock before the store says it is busy
MAX_NOTES = 500  # lines of chat a table keeps (the oldest go first)

Rows = Any  # a cursor: fetchone(), fetchall()
Execute = Callable[[str, tuple], Rows]


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
    """What `add_move` did: `count` is the table's number of moves after it and `step` its
    step; `played` is False when the key had already been played (the same request, sent
    again); `lapsed`: a request to take back a move was being voted on, and this move ended it."""

    count: int
    played: bool
    step: int = 0
    lapsed: bool = False


@attrs.frozen
class News:
    """What a copy in memory needs to catch up: the table's step and number of moves, and
    its moves from the number asked (one read, so the three agree)."""

    step: int
    count: int
    moves: list[tuple[str, str]]


@attrs.frozen
class Voted:
    """What a vote on a request to take back moves did: `outcome` is `gone` (no such
    request now: the position changed, or it was refused or done), `refused`, `agreed`
    (more seats must agree) or `done` (the moves are taken back); `step` is the table's."""

    outcome: str
    step: int
    request: dict[str, Any] | None = None


@attrs.frozen
class Listing:
    """A table as the lobby shows it: its game and seats, who sits where, whether it is on."""

    id: str
    game: str
    players: int
    agents: dict[str, str]
    names: dict[str, str]
    spectator: str
    moves: int
    over: bool


class StoreUnavailable(Exception):
    """The store cannot be read or written (a damaged or locked file, a lost database):
    the tables it holds answer 503 with this reason until it is back."""


class MoveConflict(Exception):
    """Another move took this move's number first: the asker saw an older position."""


class Store(Protocol):
    """The interface of a table store."""

    def create(self, record: TableRecord, ai_turn: bool, listed: bool = False, names: dict | None = None) -> None:
        """Keep a new table; `ai_turn`: its first decision is an AI seat's; `listed`: its
        free seats are offered in the lobby; `names`: the seats already taken."""
        ...

    def table(self, table_id: str) -> TableRecord | None: ...

    def moves(self, table_id: str, since: int = 0) -> list[tuple[str, str]]:
        """The table's moves from number `since` on, in order, as (seat, label)."""
        ...

    def count(self, table_id: str) -> int: ...

    def step(self, table_id: str) -> int:
        """The table's step: its moves made plus its moves taken back. It never goes down,
        so a page that saw step N has seen the latest position exactly when the step is N."""
        ...

    def news(self, table_id: str, since: int) -> News:
        """The table's step, its number of moves, and its moves from number `since` on."""
        ...

    def undo_request(self, table_id: str) -> dict[str, Any] | None:
        """The request to take back moves being voted on, if any."""
        ...

    def ask_undo(self, table_id: str, request: dict[str, Any]) -> bool:
        """Keep `request` (its `step` the table's when asked), unless the table has moved
        since or another request is being voted on: whether it is the one kept."""
        ...

    def vote_undo(self, table_id: str, seat: str, agree: bool, step: int) -> Voted:
        """`seat`'s vote on the request made at `step`; the last agreement takes the moves back."""
        ...

    def take_back(self, table_id: str, to: int, step: int) -> int | None:
        """Keep the first `to` moves alone, if the table is still at `step`: its new step."""
        ...

    def add_move(
        self,
        table_id: str,
        n: int,
        seat: str,
        label: str,
        key: str | None,
        ai_turn: bool,
        over: bool = False,
        step: int | None = None,
    ) -> Committed:
        """Commit move `n`; raises MoveConflict if the table no longer has `n` moves (or is
        no longer at `step`, when given: moves taken back and made again since)."""
        ...

    def played(self, table_id: str, key: str) -> int | None:
        """The table's count of moves after the move sent with `key`, if one was."""
        ...

    def waiting_for_ai(self, limit: int = 1000) -> list[str]:
        """Tables whose next decision is an AI seat's (to resume after a restart)."""
        ...

    def names(self, table_id: str) -> dict[str, str]:
        """Who sits at each taken seat (a seat not in it is free)."""
        ...

    def take_seat(self, table_id: str, seat: str, name: str) -> bool:
        """Take the seat for `name` if it is free; False if someone has it."""
        ...

    def listed(self, limit: int = 50) -> list[Listing]:
        """The lobby's tables, newest first: listed, not over."""
        ...

    def add_note(self, table_id: str, seat: str, text: str) -> int:
        """Keep a line of the table's chat; the number of lines said so far."""
        ...

    def notes(self, table_id: str, last: int = 50) -> list[tuple[str, str]]:
        """The table's last lines of chat, oldest first, as (seat, text)."""
        ...

    def set_rematch(self, table_id: str, rematch: str) -> str:
        """Record the table's rematch, unless one is recorded: the rematch's id either way."""
        ...

    def rematch_of(self, table_id: str) -> str | None: ...

    def listen(self, moved: Callable[[str, int], None], talked: Callable[[str, int], None]) -> None:
        """Call `moved(table_id, count)` for each move committed by another process, and
        `talked(table_id, count)` for each line of chat."""
        ...

    def close(self) -> None: ...


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


RECORD = "id, game, variants, options, players, seed, agents, tokens, spectator"


class SqlStore:
    """The store's rules written once in SQL, for any database: a subclass gives
    `_read(work)` (work on a consistent view) and `_write(table_id, work)` (work in one
    transaction, the table's row held until it commits). Queries use `?` placeholders."""

    def _read(self, work: Callable[[Execute], Any]) -> Any:
        raise NotImplementedError

    def _write(self, table_id: str | None, work: Callable[[Execute], Any]) -> Any:
        raise NotImplementedError

    def create(self, record: TableRecord, ai_turn: bool, listed: bool = False, names: dict | None = None) -> None:
        row = (
            *(record.id, record.game, json.dumps(list(record.variants)), json.dumps(record.options)),
            *(record.players, record.seed, json.dumps(record.agents), json.dumps(record.tokens), record.spectator),
            *(time.time(), ai_turn, listed, json.dumps(names or {})),
        )
        self._write(
            None,
            lambda ex: ex(
                f"INSERT INTO tables ({RECORD}, created, moves, ai_turn, listed, names, over, step)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, FALSE, 0)",
                row,
            ),
        )

    def table(self, table_id: str) -> TableRecord | None:
        row = self._read(lambda ex: ex(f"SELECT {RECORD} FROM tables WHERE id = ?", (table_id,)).fetchone())
        return None if row is None else record_of(row)

    def moves(self, table_id: str, since: int = 0) -> list[tuple[str, str]]:
        rows = self._read(
            lambda ex: ex(
                "SELECT seat, label FROM moves WHERE table_id = ? AND n >= ? ORDER BY n", (table_id, since)
            ).fetchall()
        )
        return [(seat, label) for seat, label in rows]

    def count(self, table_id: str) -> int:
        row = self._read(lambda ex: ex("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone())
        return int(row[0])

    def step(self, table_id: str) -> int:
        row = self._read(lambda ex: ex("SELECT step FROM tables WHERE id = ?", (table_id,)).fetchone())
        return 0 if row is None else int(row[0])

    def news(self, table_id: str, since: int) -> News:
        # One statement, so the step, the count and the moves are of one moment (PostgreSQL
        # gives each statement of a transaction its own snapshot).
        rows = self._read(
            lambda ex: ex(
                "SELECT t.step, t.moves, m.seat, m.label FROM tables t"
                " LEFT JOIN moves m ON m.table_id = t.id AND m.n >= ? WHERE t.id = ? ORDER BY m.n",
                (since, table_id),
            ).fetchall()
        )
        if not rows:
            return News(0, 0, [])
        return News(int(rows[0][0]), int(rows[0][1]), [(r[2], r[3]) for r in rows if r[2] is not None])

    def add_move(
        self,
        table_id: str,
        n: int,
        seat: str,
        label: str,
        key: str | None,
        ai_turn: bool,
        over: bool = False,
        step: int | None = None,
    ) -> Committed:
        def work(ex: Execute) -> Committed:
            if key is not None:
                done = ex("SELECT n, step FROM moves WHERE table_id = ? AND key = ?", (table_id, key)).fetchone()
                if done is not None:
                    count = int(done[0]) + 1
                    return Committed(count=count, played=False, step=count if done[1] is None else int(done[1]))
            have, now, undo = ex("SELECT moves, step, undo FROM tables WHERE id = ?", (table_id,)).fetchone()
            if int(have) != n or (step is not None and int(now) != step):
                raise MoveConflict(f"move {n} was asked at step {step}, and the table has {have} at step {now}")
            after = int(now) + 1
            row = (table_id, n, seat, label, key, after)
            ex("INSERT INTO moves (table_id, n, seat, label, key, step) VALUES (?, ?, ?, ?, ?, ?)", row)
            ex(
                "UPDATE tables SET moves = ?, step = ?, ai_turn = ?, over = ?, undo = NULL WHERE id = ?",
                (n + 1, after, ai_turn, over, table_id),
            )
            self._announce(ex, f"{table_id} {after}")
            return Committed(count=n + 1, played=True, step=after, lapsed=undo is not None)

        return self._write(table_id, work)

    def undo_request(self, table_id: str) -> dict[str, Any] | None:
        row = self._read(lambda ex: ex("SELECT undo FROM tables WHERE id = ?", (table_id,)).fetchone())
        return None if row is None or not row[0] else dict(json.loads(row[0]))

    def ask_undo(self, table_id: str, request: dict[str, Any]) -> bool:
        def work(ex: Execute) -> bool:
            row = ex("SELECT step, undo FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None or int(row[0]) != request["step"]:
                return False
            if row[1]:  # a request is being voted on: kept if it is this one (the same request again)
                return bool(json.loads(row[1]) == request)
            ex("UPDATE tables SET undo = ? WHERE id = ?", (json.dumps(request), table_id))
            return True

        return bool(self._write(table_id, work))

    def vote_undo(self, table_id: str, seat: str, agree: bool, step: int) -> Voted:
        def work(ex: Execute) -> Voted:
            row = ex("SELECT step, undo FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return Voted("gone", 0)
            now = int(row[0])
            request = json.loads(row[1]) if row[1] else None
            if request is None or now != step or request["step"] != step:
                return Voted("gone", now, request)
            if not agree:
                ex("UPDATE tables SET undo = NULL WHERE id = ?", (table_id,))
                return Voted("refused", now, request)
            if seat not in request["agreed"]:
                request["agreed"].append(seat)
            if set(request["voters"]) <= set(request["agreed"]):
                return Voted("done", self._truncate(ex, table_id, request["to"], now), request)
            ex("UPDATE tables SET undo = ? WHERE id = ?", (json.dumps(request), table_id))
            return Voted("agreed", now, request)

        result: Voted = self._write(table_id, work)
        return result

    def take_back(self, table_id: str, to: int, step: int) -> int | None:
        def work(ex: Execute) -> int | None:
            row = ex("SELECT step, moves FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None or int(row[0]) != step or not 0 <= to <= int(row[1]):
                return None
            return self._truncate(ex, table_id, to, step)

        return self._write(table_id, work)

    def _truncate(self, ex: Execute, table_id: str, to: int, step: int) -> int:
        """Keep the table's first `to` moves, in the caller's transaction: its step goes on by
        one (every copy in memory and every page sees the change), and the position it comes
        back to is a person's decision (whoever asked to take back their own move)."""
        ex("DELETE FROM moves WHERE table_id = ? AND n >= ?", (table_id, to))
        after = step + 1
        ex(
            "UPDATE tables SET moves = ?, step = ?, undo = NULL, ai_turn = FALSE, over = FALSE WHERE id = ?",
            (to, after, table_id),
        )
        self._announce(ex, f"{table_id} {after}")
        return after

    def _announce(self, ex: Execute, news: str) -> None:
        """Tell the other processes of a committed move (`TABLE COUNT`) or line of chat
        (`TABLE talk COUNT`), in its transaction (PostgreSQL)."""

    def played(self, table_id: str, key: str) -> int | None:
        query = "SELECT n, step FROM moves WHERE table_id = ? AND key = ?"
        row = self._read(lambda ex: ex(query, (table_id, key)).fetchone())
        if row is None:
            return None
        return int(row[0]) + 1 if row[1] is None else int(row[1])

    def waiting_for_ai(self, limit: int = 1000) -> list[str]:
        rows = self._read(
            lambda ex: ex("SELECT id FROM tables WHERE ai_turn ORDER BY created LIMIT ?", (limit,)).fetchall()
        )
        return [r[0] for r in rows]

    def names(self, table_id: str) -> dict[str, str]:
        row = self._read(lambda ex: ex("SELECT names FROM tables WHERE id = ?", (table_id,)).fetchone())
        return {} if row is None else dict(json.loads(row[0]))

    def take_seat(self, table_id: str, seat: str, name: str) -> bool:
        def work(ex: Execute) -> bool:
            row = ex("SELECT names FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return False
            names = json.loads(row[0])
            if seat in names:
                return False
            names[seat] = name
            ex("UPDATE tables SET names = ? WHERE id = ?", (json.dumps(names), table_id))
            return True

        return self._write(table_id, work)

    def listed(self, limit: int = 50) -> list[Listing]:
        rows = self._read(
            lambda ex: ex(
                "SELECT id, game, players, agents, names, spectator, moves FROM tables WHERE listed AND NOT over"
                " ORDER BY created DESC LIMIT ?",
                (limit,),
            ).fetchall()
        )
        return [
            Listing(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], int(r[6]), over=False) for r in rows
        ]

    def add_note(self, table_id: str, seat: str, text: str) -> int:
        def work(ex: Execute) -> int:
            last = ex("SELECT MAX(n) FROM notes WHERE table_id = ?", (table_id,)).fetchone()[0]
            n = 0 if last is None else int(last) + 1
            ex("INSERT INTO notes (table_id, n, seat, text) VALUES (?, ?, ?, ?)", (table_id, n, seat, text))
            ex("DELETE FROM notes WHERE table_id = ? AND n < ?", (table_id, n + 1 - MAX_NOTES))
            self._announce(ex, f"{table_id} talk {n + 1}")
            return n + 1

        return self._write(table_id, work)

    def notes(self, table_id: str, last: int = 50) -> list[tuple[str, str]]:
        rows = self._read(
            lambda ex: ex(
                "SELECT seat, text FROM notes WHERE table_id = ? ORDER BY n DESC LIMIT ?", (table_id, last)
            ).fetchall()
        )
        return [(seat, text) for seat, text in reversed(rows)]

    def set_rematch(self, table_id: str, rematch: str) -> str:
        def work(ex: Execute) -> str:
            row = ex("SELECT rematch FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is not None and row[0]:
                return str(row[0])
            ex("UPDATE tables SET rematch = ? WHERE id = ?", (rematch, table_id))
            return rematch

        return self._write(table_id, work)

    def rematch_of(self, table_id: str) -> str | None:
        row = self._read(lambda ex: ex("SELECT rematch FROM tables WHERE id = ?", (table_id,)).fetchone())
        return None if row is None or not row[0] else str(row[0])


def _unavailable(err: sqlite3.Error, path: str) -> StoreUnavailable:
    text = str(err)
    if "locked" in text or "busy" in text:
        return StoreUnavailable(f"the tables file is busy ({text}); try again in a moment")
    return StoreUnavailable(
        f"the tables file {path} cannot be read ({text}): it may be damaged; the server's operator can move it "
        "away and start again"
    )


class SqliteStore(SqlStore):
    """One SQLite file (`:memory:` for tests), for one server process: its threads take
    turns on one connection, each write one transaction (BEGIN IMMEDIATE: the file's write
    lock is taken before the first read, so a read and its write see the same table)."""

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
            for table, columns in COLUMNS.items():
                have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                for name, kind in columns:
                    if name not in have:
                        self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
            for statement in INDEXES:
                self._db.execute(statement)
            self._db.execute(STEPS_FROM_MOVES)
        except sqlite3.Error as err:
            raise _unavailable(err, self._path) from None

    def _run(self, work: Callable[[Execute], Any], write: bool) -> Any:
        with self._lock:
            try:
                if not write:
                    return work(self._db.execute)
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = work(self._db.execute)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                return result
            except sqlite3.Error as err:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise _unavailable(err, self._path) from None

    def _read(self, work: Callable[[Execute], Any]) -> Any:
        return self._run(work, write=False)

    def _write(self, table_id: str | None, work: Callable[[Execute], Any]) -> Any:
        return self._run(work, write=True)

    def listen(self, moved: Callable[[str, int], None], talked: Callable[[str, int], None]) -> None:
        """Nothing to hear: one process writes this file, and it tells its own pages."""

    def close(self) -> None:
        with self._lock:
            self._db.close()
