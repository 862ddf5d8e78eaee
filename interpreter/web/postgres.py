"""Tables kept in PostgreSQL (psycopg 3): the store several `gamedef serve` processes share.

The same interface and the same rule as the SQLite store (web/store.py): move `n` is
written only while the table has `n` moves, in one transaction (the table's row is locked
for it, so two processes racing for one turn are put in order), and a key already played
is found, never played twice. Each committed move is announced with NOTIFY in the same
transaction, so PostgreSQL delivers it to every listening process only once it is
committed: each process LISTENs on its own connection, in a thread, and tells its hub,
whose event streams then wake their pages. A stream also asks the store now and then,
so a notification lost with a dropped connection delays a page, never freezes it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from interpreter.web.store import Committed, MoveConflict, StoreUnavailable, TableRecord, record_of

CHANNEL = "gamedef_moves"
SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variants TEXT NOT NULL,
    options TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    agents TEXT NOT NULL,
    tokens TEXT NOT NULL,
    spectator TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    moves INTEGER NOT NULL DEFAULT 0,
    ai_turn BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat TEXT NOT NULL,
    label TEXT NOT NULL,
    key TEXT,
    PRIMARY KEY (table_id, n),
    UNIQUE (table_id, key)
);
CREATE INDEX IF NOT EXISTS tables_ai_turn ON tables (ai_turn);
"""
CONNECT_TIMEOUT = 5  # seconds
RELISTEN_AFTER = 1.0  # seconds before a lost listening connection is opened again

log = logging.getLogger("gamedef.web")


class PostgresStore:
    """Tables in the PostgreSQL database at `url`; a connection per thread that uses it."""

    def __init__(self, url: str):
        self._url = url
        self._local = threading.local()
        self._closing = threading.Event()
        self._all: list[psycopg.Connection[Any]] = []
        self._all_lock = threading.Lock()
        self._run(lambda cur: cur.execute(SCHEMA))

    def _connection(self) -> psycopg.Connection[Any]:
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = psycopg.connect(self._url, connect_timeout=CONNECT_TIMEOUT)
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    def _run(self, work: Callable[[psycopg.Cursor[Any]], Any]) -> Any:
        """`work` in one transaction, committed; a lost or refused database is StoreUnavailable."""
        try:
            conn = self._connection()
            with conn.transaction(), conn.cursor() as cur:
                return work(cur)
        except MoveConflict:
            raise
        except psycopg.Error as err:
            lost: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
            if lost is not None and lost.broken:
                self._local.conn = None
            reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise StoreUnavailable(f"the tables database cannot be reached ({reason})") from None

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
            ai_turn,
        )
        self._run(
            lambda cur: cur.execute(
                "INSERT INTO tables (id, game, variants, options, players, seed, agents, tokens, spectator, created,"
                " moves, ai_turn) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 0, %s)",
                row,
            )
        )

    def table(self, table_id: str) -> TableRecord | None:
        row = self._run(
            lambda cur: cur.execute(
                "SELECT id, game, variants, options, players, seed, agents, tokens, spectator FROM tables"
                " WHERE id = %s",
                (table_id,),
            ).fetchone()
        )
        return None if row is None else record_of(row)

    def moves(self, table_id: str, since: int = 0) -> list[tuple[str, str]]:
        rows = self._run(
            lambda cur: cur.execute(
                "SELECT seat, label FROM moves WHERE table_id = %s AND n >= %s ORDER BY n", (table_id, since)
            ).fetchall()
        )
        return [(seat, label) for seat, label in rows]

    def count(self, table_id: str) -> int:
        row = self._run(lambda cur: cur.execute("SELECT moves FROM tables WHERE id = %s", (table_id,)).fetchone())
        return 0 if row is None else int(row[0])

    def add_move(self, table_id: str, n: int, seat: str, label: str, key: str | None, ai_turn: bool) -> Committed:
        def work(cur: psycopg.Cursor[Any]) -> Committed:
            row = cur.execute("SELECT moves FROM tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
            if key is not None:
                done = cur.execute("SELECT n FROM moves WHERE table_id = %s AND key = %s", (table_id, key)).fetchone()
                if done is not None:
                    return Committed(count=int(done[0]) + 1, played=False)
            have = -1 if row is None else int(row[0])
            if have != n:
                raise MoveConflict(f"move {n} was asked, and the table has {have}")
            cur.execute(
                "INSERT INTO moves (table_id, n, seat, label, key) VALUES (%s, %s, %s, %s, %s)",
                (table_id, n, seat, label, key),
            )
            cur.execute("UPDATE tables SET moves = %s, ai_turn = %s WHERE id = %s", (n + 1, ai_turn, table_id))
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {n + 1}"))
            return Committed(count=n + 1, played=True)

        return self._run(work)

    def played(self, table_id: str, key: str) -> int | None:
        row = self._run(
            lambda cur: cur.execute("SELECT n FROM moves WHERE table_id = %s AND key = %s", (table_id, key)).fetchone()
        )
        return None if row is None else int(row[0]) + 1

    def waiting_for_ai(self, limit: int = 1000) -> list[str]:
        rows = self._run(
            lambda cur: cur.execute(
                "SELECT id FROM tables WHERE ai_turn ORDER BY created LIMIT %s", (limit,)
            ).fetchall()
        )
        return [r[0] for r in rows]

    def listen(self, heard: Callable[[str, int], None]) -> None:
        """Hear every process's committed moves, in a thread, until the store is closed."""
        thread = threading.Thread(target=self._listen, args=(heard,), name="gamedef-listen", daemon=True)
        thread.start()

    def _listen(self, heard: Callable[[str, int], None]) -> None:
        while not self._closing.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                    while not self._closing.is_set():
                        for note in conn.notifies(timeout=0.5):
                            table_id, _, count = note.payload.partition(" ")
                            if count.isdigit():
                                heard(table_id, int(count))
            except psycopg.Error as err:
                if not self._closing.is_set():
                    log.warning("gamedef serve: listening for other servers' moves: %s (trying again)", err)
                    time.sleep(RELISTEN_AFTER)

    def close(self) -> None:
        self._closing.set()
        with self._all_lock:
            for conn in self._all:
                try:
                    conn.close()
                except psycopg.Error:
                    pass
            self._all.clear()
