"""The web table under load: many open pages on many tables, against `gamedef serve` in its
own process on 127.0.0.1 (nothing else is ever a target; every loop is bounded).

    python -m benchmarks.web_load [--tables 100] [--pages 5] [--parallel 10]

It starts the server on a fresh SQLite file, opens `--tables` tic-tac-toe tables of two
people each and `--pages` event streams on each (500 by default: each an open page), then
plays every table to its end, `--parallel` tables at a time. For each move it measures the
round trip (the POST until its answer) and the time until every open page of that table
has heard the new count on its stream; it prints their median and 95th percentile, the
moves per second, and the server's memory (resident set) with no table, with every page
open, and after the pages have closed. Needs the `web` extra and httpx (the `browser` extra).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def _rss_mib(pid: int) -> float:
    """The process's resident memory, MiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Page:
    """An open page: its event stream, and when it heard each count."""

    def __init__(self) -> None:
        self.heard: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def listen(self, client: httpx.AsyncClient, url: str, ready: asyncio.Event) -> None:
        async with client.stream("GET", url, timeout=httpx.Timeout(10, read=120)) as r:
            async for line in r.aiter_lines():
                if line.startswith("data: "):
                    self.heard[int(line[6:])] = time.perf_counter()
                    ready.set()
                    self.changed.set()


async def _table(client: httpx.AsyncClient, base: str) -> dict[str, str]:
    r = await client.post(base + "/tables", data={"game": "tictactoe", "seat_x": "human", "seat_o": "human"})
    r.raise_for_status()
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    links["spectator"] = re.search(r'class="spectator-link" href="(/t/[^"]+)"', r.text).group(1)
    return links


async def _play(
    client: httpx.AsyncClient,
    base: str,
    links: dict[str, str],
    pages: list[Page],
    trips: list[float],
    heard: list[float],
) -> int:
    """Play the table to its end (each seat its first move); the moves made."""
    n = 0
    for n in range(9):
        link = links["x" if n % 2 == 0 else "o"]
        t0 = time.perf_counter()
        r = await client.post(base + link + "/move", data={"index": "0", "seen": str(n)})
        trips.append(time.perf_counter() - t0)
        if r.status_code == 409:  # the game is over
            return n
        r.raise_for_status()
        deadline = time.perf_counter() + 30
        for page in pages:
            while n + 1 not in page.heard and time.perf_counter() < deadline:
                page.changed.clear()
                try:
                    await asyncio.wait_for(page.changed.wait(), timeout=1)
                except TimeoutError:
                    pass
        heard.append(max(page.heard.get(n + 1, deadline) for page in pages) - t0)
    return n + 1


async def _run(base: str, pid: int, tables: int, per_table: int, parallel: int) -> None:
    limits = httpx.Limits(max_connections=tables * per_table + parallel + 10, max_keepalive_connections=parallel + 10)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        empty = _rss_mib(pid)
        every = [await _table(client, base) for _ in range(tables)]
        pages = [[Page() for _ in range(per_table)] for _ in every]
        ready = [[asyncio.Event() for _ in range(per_table)] for _ in every]
        seats = ("x", "o", "spectator", "x", "o")
        listeners = [
            asyncio.create_task(page.listen(client, base + links[seats[i % len(seats)]] + "/events", ready[t][i]))
            for t, links in enumerate(every)
            for i, page in enumerate(pages[t])
        ]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for row in ready for e in row)), timeout=120)
        opened = _rss_mib(pid)
        print(f"{len(listeners)} pages open on {tables} tables; server memory {empty:.0f} MiB -> {opened:.0f} MiB")
        trips: list[float] = []
        heard: list[float] = []
        queue: asyncio.Queue[int] = asyncio.Queue()
        for t in range(tables):
            queue.put_nowait(t)
        made = [0]

        async def player() -> None:
            while not queue.empty():
                t = queue.get_nowait()
                moves = await _play(client, base, every[t], pages[t], trips, heard)
                made[0] += moves  # after the await: no other player's count is lost

        t0 = time.perf_counter()
        await asyncio.gather(*(player() for _ in range(parallel)))
        seconds = time.perf_counter() - t0
        played = _rss_mib(pid)
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    await asyncio.sleep(1)
    closed = _rss_mib(pid)
    print(f"{made[0]} moves in {seconds:.1f} s ({made[0] / seconds:.0f} moves/s), {parallel} tables at a time")
    print(
        f"move round trip: median {statistics.median(trips) * 1000:.1f} ms, "
        f"p95 {_percentile(trips, 0.95) * 1000:.1f} ms"
    )
    print(
        f"until every page of the table heard it: median {statistics.median(heard) * 1000:.1f} ms, "
        f"p95 {_percentile(heard, 0.95) * 1000:.1f} ms"
    )
    print(f"server memory: {played:.0f} MiB after the games, {closed:.0f} MiB once the pages closed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--pages", type=int, default=5, help="open pages (event streams) per table")
    parser.add_argument("--parallel", type=int, default=10, help="tables played at the same time")
    args = parser.parse_args(argv)
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "interpreter", "serve", "tictactoe", "--db", f"{folder}/t.sqlite"]
        server = subprocess.Popen([*command, "--port", str(port)], stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(base + "/", timeout=2)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            asyncio.run(_run(base, server.pid, args.tables, args.pages, args.parallel))
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
