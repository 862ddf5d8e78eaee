"""`gamedef serve`: the web table on uvicorn, stopped promptly.

Uvicorn stops by waiting for open connections to end, and an event stream never ends by
itself: so a stop (Ctrl-C, SIGTERM) first ends every stream (the hub's `stop`) and the AI
pool, then lets uvicorn finish, waiting at most `GRACE` seconds for the last answers.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from types import FrameType

import uvicorn

from interpreter.core import background
from interpreter.web.app import create_app

GRACE = 1  # seconds uvicorn waits for answers still being sent when it stops


def where(db: str | Path) -> str:
    """The store as it may be printed: a database URL without its user and password."""
    text = str(db)
    if "://" not in text:
        return text
    parts = urllib.parse.urlsplit(text)
    return f"{parts.scheme}://{parts.hostname or ''}{':' + str(parts.port) if parts.port else ''}{parts.path}"


def serve(db: str | Path, games: list[str] | None, host: str, port: int, hosts: Iterable[str], ai_threads: int) -> None:
    """Serve the web table until stopped; the AI seats are played by worker processes. A
    game it compiles is kept for the next load at once, not as the process ends
    (core/background.py): the server keeps running."""
    background.forbid()
    app = create_app(db, games, hosts=hosts, ai_threads=ai_threads, ai_processes=True)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            app.state.hub.stop()  # every event stream ends now, so its connection closes
            app.state.players.stop()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACE, access_log=False
    )
    Server(config).run()
