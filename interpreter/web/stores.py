"""Which store a server keeps its tables in, from what `--db` says: a `postgresql://` URL
(web/postgres.py, shared by several server processes) or else a SQLite file (web/store.py)."""

from __future__ import annotations

from pathlib import Path

from interpreter.web.store import SqliteStore, Store, StoreUnavailable


def open_store(where: str | Path) -> Store:
    """The store at `where`: a `postgresql://` URL, or else a SQLite file."""
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        try:
            from interpreter.web.postgres import PostgresStore
        except ImportError:
            raise StoreUnavailable('a postgresql:// store needs psycopg: pip install "gamedef[web,postgres]"') from None
        return PostgresStore(text)
    return SqliteStore(where)
