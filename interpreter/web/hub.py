"""Who is waiting for a table to change, and telling them when it has: the event streams'
meeting point, on the server's event loop.

A stream waits for a table by its id, never for an object in memory, so a table evicted
from memory or replayed again after a restart still wakes every page that watches it.
What wakes them is a move committed to the store (or moves taken back): by this process (`told` from the thread
that committed it) or by another process sharing the store (the store's `listen`). The
count a stream sends is the store's; a stream that hears nothing for a while asks the
store again, so a lost notification delays a page by that while at most, never forever.

Waiting costs a future on the event loop, not a thread: hundreds of open pages are cheap.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict

KEPT_COUNTS = 10_000  # the latest count of this many tables is kept (the least recently told go first)


class Hub:
    """Futures waiting for tables to change, by table id; the latest count told of each."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str, set[asyncio.Future[None]]] = {}
        self._counts: OrderedDict[str, int] = OrderedDict()
        self._talk: OrderedDict[str, int] = OrderedDict()  # lines of chat said, by table
        self._lock = threading.Lock()  # the counts are told from worker threads
        self.stopping: asyncio.Event | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Bind to the server's event loop (at start-up, on that loop)."""
        self._loop = loop
        self.stopping = asyncio.Event()

    def stop(self) -> None:
        """The server is stopping: every stream ends now (safe from any thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._stop_now)

    def _stop_now(self) -> None:
        assert self.stopping is not None
        self.stopping.set()
        for table_id in list(self._waiting):
            self._wake(table_id)

    def told(self, table_id: str, count: int) -> None:
        """The table is now at step `count`: its committed moves, plus any taken back (a
        step never goes down, so a later one is always news). Safe from any thread."""
        self._tell(self._counts, table_id, count)

    def talked(self, table_id: str, count: int) -> None:
        """The table's chat now has `count` lines (safe from any thread)."""
        self._tell(self._talk, table_id, count)

    def _tell(self, counts: OrderedDict[str, int], table_id: str, count: int) -> None:
        with self._lock:
            if count <= counts.get(table_id, -1):
                return
            counts[table_id] = count
            counts.move_to_end(table_id)
            while len(counts) > KEPT_COUNTS:
                counts.popitem(last=False)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, table_id)

    def known(self, table_id: str) -> int | None:
        """The latest count told of the table, if any."""
        with self._lock:
            return self._counts.get(table_id)

    def known_talk(self, table_id: str) -> int:
        """The latest count of chat lines told of the table (0 if none)."""
        with self._lock:
            return self._talk.get(table_id, 0)

    def _wake(self, table_id: str) -> None:
        for future in self._waiting.pop(table_id, ()):
            if not future.done():
                future.set_result(None)

    async def wait(self, table_id: str, seen: int, timeout: float, talk: int | None = None) -> None:
        """Return when the table has more than `seen` moves (or its chat more than `talk`
        lines), `timeout` has passed, or the server is stopping. The waiter is registered
        before the counts are looked at, so a move told in between is not missed."""
        assert self._loop is not None and self.stopping is not None, "Hub.start was not called"
        future: asyncio.Future[None] = self._loop.create_future()
        waiting = self._waiting.setdefault(table_id, set())
        waiting.add(future)
        try:
            known = self.known(table_id)
            talked = talk is not None and self.known_talk(table_id) > talk
            if (known is not None and known > seen) or talked or self.stopping.is_set():
                return
            await asyncio.wait({future}, timeout=timeout)
        finally:
            waiting.discard(future)
            if not waiting and self._waiting.get(table_id) is waiting:
                del self._waiting[table_id]

    def watchers(self) -> int:
        """How many streams are waiting now (for the server's own figures)."""
        return sum(len(w) for w in self._waiting.values())
