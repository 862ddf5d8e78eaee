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

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from interpreter.web.store import STEPS_FROM_MOVES, Execute, MoveConflict, SqlStore, StoreUnavailable

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
    ai_turn BOOLEAN NOT NULL DEFAULT FALSE,
    over BOOLEAN NOT NULL DEFAULT FALSE,
    listed BOOLEAN NOT NULL DEFAULT FALSE,
    names TEXT NOT NULL DEFAULT '{}',
    rematch TEXT,
    step INTEGER NOT NULL DEFAULT 0,
    undo TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat TEXT NOT NULL,
    label TEXT NOT NULL,
    key TEXT,
    step INTEGER,
    PRIMARY KEY (table_id, n),
    UNIQUE (table_id, key)
);
CREATE TABLE IF NOT EXISTS notes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE INDEX IF NOT EXISTS tables_ai_turn ON tables (ai_turn);
CREATE INDEX IF NOT EXISTS tables_listed ON tables (listed, over);
ALTER TABLE tables ADD COLUMN IF NOT EXISTS step INTEGER NOT NULL DEFAULT -1;
ALTER TABLE tables ADD COLUMN IF NOT EXISTS undo TEXT;
ALTER TABLE moves ADD COLUMN IF NOT EXISTS step INTEGER;
"""
CONNECT_TIMEOUT = 5  # seconds
RELISTEN_AFTER = 1.0  # seconds before a lost listening connection is opened again

log = logging.getLogger("gamedef.web")


class PostgresStore(SqlStore):
    """Tables in the PostgreSQL database at `url`: the store's SQL (web/store.py) on a
    connection per thread that uses it."""

    def __init__(self, url: str):
        self._url = url
        self._local = threading.local()
        self._closing = threading.Event()
        self._all: list[psycopg.Connection[Any]] = []
        self._all_lock = threading.Lock()
        self._run(None, lambda ex: ex(SCHEMA, ()))
        self._run(None, lambda ex: ex(STEPS_FROM_MOVES, ()))

    def _connection(self) -> psycopg.Connection[Any]:
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = psycopg.connect(self._url, connect_timeout=CONNECT_TIMEOUT)
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    def _run(self, table_id: str | None, work: Callable[[Execute], Any]) -> Any:
        """`work` in one transaction, committed (the table's row held from its start when
        `table_id` is given); a lost or refused database is StoreUnavailable."""
        try:
            conn = self._connection()
            with conn.transaction(), conn.cursor() as cur:

                def ex(query: str, params: tuple) -> Any:
                    return cur.execute(query.replace("?", "%s") if params else query, params or None)

                if table_id is not None:
                    ex("SELECT 1 FROM tables WHERE id = ? FOR UPDATE", (table_id,))
                return work(ex)
        except MoveConflict:
            raise
        except psycopg.Error as err:
            lost: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
            if lost is not None and lost.broken:
                self._local.conn = None
            reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise StoreUnavailable(f"the tables database cannot be reached ({reason})") from None

    def _read(self, work: Callable[[Execute], Any]) -> Any:
        return self._run(None, work)

    def _write(self, table_id: str | None, work: Callable[[Execute], Any]) -> Any:
        return self._run(table_id, work)

    def _announce(self, ex: Execute, news: str) -> None:
        ex("SELECT pg_notify(?, ?)", (CHANNEL, news))

    def listen(self, moved: Callable[[str, int], None], talked: Callable[[str, int], None]) -> None:
        """Hear every process's committed moves and chat, in a thread, until the store is closed."""
        thread = threading.Thread(target=self._listen, args=(moved, talked), name="gamedef-listen", daemon=True)
        thread.start()

    def _listen(self, moved: Callable[[str, int], None], talked: Callable[[str, int], None]) -> None:
        while not self._closing.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                    while not self._closing.is_set():
                        for note in conn.notifies(timeout=0.5):
                            words = note.payload.split(" ")
                            if len(words) == 2 and words[1].isdigit():
                                moved(words[0], int(words[1]))
                            elif len(words) == 3 and words[1] == "talk" and words[2].isdigit():
                                talked(words[0], int(words[2]))
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
