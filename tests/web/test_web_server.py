"""`gamedef serve` as a process (docs/web.md, Nothing lost; Stopping): killed with SIGKILL
while an AI seat thinks, with three pages' event streams open, and started again on the
same file, it resumes the AI's decision and every page hears every move to the end;
SIGTERM with pages open stops it within two seconds."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db, port: int, *extra: str) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "serve", "tictactoe", "--db", str(db), "--port", str(port), *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start: " + proc.stderr.read().decode(errors="replace"))


class Page(threading.Thread):
    """A page's event stream: it reconnects as a browser's EventSource does, and keeps the
    highest count it heard."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.heard, self.stop = url, -1, threading.Event()
        self.connected = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                with httpx.stream("GET", self.url, timeout=httpx.Timeout(5, read=30)) as r:
                    for line in r.iter_lines():
                        self.connected.set()
                        if line.startswith("data: "):
                            self.heard = max(self.heard, int(line[6:]))
                        if self.stop.is_set():
                            return
            except httpx.HTTPError:
                time.sleep(0.2)


def new_table(base: str, **seats: str) -> dict[str, str]:
    r = httpx.post(base + "/tables", data={"game": "tictactoe", "seed": "4", **seats}, timeout=30)
    assert r.status_code == 200, r.text
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    links["spectator"] = re.search(r'class="spectator-link" href="(/t/[^"]+)"', r.text).group(1)
    return links


def board(base: str, link: str) -> str:
    return httpx.get(base + link + "/board", timeout=30).text


def seen(base: str, link: str) -> int:
    return int(re.search(r'id="seen" value="(\d+)"', board(base, link)).group(1))


def wait_until(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_server_killed_while_an_ai_thinks_resumes_and_every_page_reaches_the_end(tmp_path):
    port, db = free_port(), tmp_path / "tables.sqlite"
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port)
    pages: list[Page] = []
    try:
        links = new_table(base, seat_x="human", seat_o="mcts:1s")
        pages = [Page(base + links[who] + "/events") for who in ("x", "spectator", "x")]
        for page in pages:
            page.start()
        for page in pages:
            assert page.connected.wait(30)
        assert httpx.post(base + links["x"] + "/move", data={"index": "0", "seen": "0"}, timeout=30).text == "1"
        time.sleep(0.3)  # o's search takes a second: the server dies in the middle of it
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        server = serve(db, port)  # the same file: the table waits for o, and o is thought again
        wait_until(lambda: seen(base, links["x"]) >= 2)
        while "Game over" not in board(base, links["x"]):
            n = seen(base, links["x"])
            if "Your turn (x)" in board(base, links["x"]):
                r = httpx.post(base + links["x"] + "/move", data={"index": "0", "seen": str(n)}, timeout=30)
                assert r.status_code == 200, r.text
                wait_until(lambda n=n: seen(base, links["x"]) >= n + 2 or "Game over" in board(base, links["x"]))
        final = seen(base, links["x"])
        wait_until(lambda: all(page.heard == final for page in pages), timeout=30)
    finally:
        for page in pages:
            page.stop.set()
        server.kill()
        server.wait(timeout=30)


def test_sigterm_with_pages_open_stops_the_server_within_two_seconds(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(tmp_path / "tables.sqlite", port)
    pages: list[Page] = []
    try:
        links = new_table(base, seat_x="human", seat_o="human")
        pages = [Page(base + links[who] + "/events") for who in ("x", "o", "spectator")]
        for page in pages:
            page.start()
        for page in pages:
            assert page.connected.wait(30)
        began = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        took = time.monotonic() - began
        assert took < 2.0, f"the server took {took:.1f} s to stop"
        assert b"Traceback" not in server.stderr.read()
    finally:
        for page in pages:
            page.stop.set()
        server.kill()
        server.wait(timeout=30)


def test_a_garbage_tables_file_is_a_clear_message_not_a_traceback(tmp_path):
    db = tmp_path / "garbage.sqlite"
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)  # a header, then garbage
    r = subprocess.run(
        [sys.executable, "-m", "interpreter", "serve", "tictactoe", "--db", str(db), "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "cannot be read" in r.stderr and "Traceback" not in r.stderr, r.stderr
