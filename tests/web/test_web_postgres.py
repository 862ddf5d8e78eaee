"""The web table on PostgreSQL (docs/web.md, Several servers): two `gamedef serve` processes
on one database share their tables; a page of one hears the moves made through the other;
two moves racing for one turn through both are put in order (one 200, one 409), never a
500 and never a lost move. The tests start their own PostgreSQL server (Debian's
`postgresql` package) in a temporary folder, and are skipped, saying why, without one."""

from __future__ import annotations

import glob
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("psycopg")
httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from interpreter.web.store import StoreUnavailable  # noqa: E402
from interpreter.web.stores import open_store  # noqa: E402

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A PostgreSQL server of this test run alone, on a free port of 127.0.0.1: its URL."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.skip("no PostgreSQL server here (Debian: apt-get install postgresql)")
    bin_dir = os.path.dirname(found[-1])
    folder = tempfile.mkdtemp(prefix="gamedef-pg-")
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: as its own user
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: PostgreSQL cannot be started")
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = os.path.join(folder, "data"), free_port()
    run = lambda *args: subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=120)  # noqa: E731
    run(f"{bin_dir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    run(f"{bin_dir}/pg_ctl", "-D", data, "-o", options, "-l", os.path.join(folder, "log"), "-w", "start")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def serve(url: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "serve", "tictactoe", "--db", url, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def test_two_server_processes_share_a_table_and_each_page_hears_the_other(database):
    ports = free_port(), free_port()
    a, b = (f"http://127.0.0.1:{p}" for p in ports)
    servers = [serve(database, p) for p in ports]
    heard: list[int] = []
    try:
        r = httpx.post(a + "/tables", data={"game": "tictactoe", "seat_x": "human", "seat_o": "human"}, timeout=30)
        links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))

        def page() -> None:  # a page of server A
            with httpx.stream("GET", a + links["o"] + "/events", timeout=httpx.Timeout(5, read=30)) as events:
                for line in events.iter_lines():
                    if line.startswith("data: "):
                        heard.append(int(line[6:]))
                        if heard[-1] >= 2:
                            return

        listener = threading.Thread(target=page, daemon=True)
        listener.start()
        deadline = time.monotonic() + 30
        while not heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [0]
        assert httpx.post(b + links["x"] + "/move", data={"index": "4", "seen": "0"}, timeout=30).text == "1"
        # o answers through A, having seen the move made through B
        assert httpx.post(a + links["o"] + "/move", data={"index": "0", "seen": "1"}, timeout=30).text == "2"
        listener.join(timeout=30)
        assert heard == [0, 1, 2]
        # a race for x's turn through both servers: one lands, the other is told the position changed
        answers = []
        race = [
            threading.Thread(
                target=lambda base=base: answers.append(
                    httpx.post(base + links["x"] + "/move", data={"index": "0", "seen": "2"}, timeout=30).status_code
                )
            )
            for base in (a, b)
        ]
        for t in race:
            t.start()
        for t in race:
            t.join()
        assert sorted(answers) == [200, 409]
        board_a = httpx.get(a + links["x"] + "/board", timeout=30).text
        board_b = httpx.get(b + links["x"] + "/board", timeout=30).text
        assert 'id="seen" value="3"' in board_a and board_a == board_b
    finally:
        for s in servers:
            s.kill()
            s.wait(timeout=30)


def test_a_database_that_cannot_be_reached_is_a_clear_refusal():
    with pytest.raises(StoreUnavailable, match="cannot be reached"):
        open_store(f"postgresql://nobody@127.0.0.1:{free_port()}/none")


def test_the_store_keeps_the_sqlite_stores_rules(database):
    """The same rules as SQLite: move n only while the table has n; a key played once."""
    from interpreter.web.store import MoveConflict, TableRecord

    store = open_store(database)
    try:
        record = TableRecord("pg1", "tictactoe", (), {}, 2, 9, {"x": "human", "o": "human"}, {"x": "a", "o": "b"}, "s")
        store.create(record, False)
        assert store.add_move("pg1", 0, "x", "a1", "k", False).count == 1
        again = store.add_move("pg1", 0, "x", "a1", "k", False)
        assert (again.count, again.played) == (1, False) and store.played("pg1", "k") == 1
        with pytest.raises(MoveConflict):
            store.add_move("pg1", 0, "o", "b1", None, False)
        assert store.moves("pg1") == [("x", "a1")] and store.count("pg1") == 1
        assert store.table("pg1") == record and store.table("nope") is None
    finally:
        store.close()


def test_the_store_takes_moves_back_by_the_sqlite_stores_rules(database):
    from tests.web.test_web_undo import check_undo_store

    store = open_store(database)
    try:
        check_undo_store(store)
    finally:
        store.close()


def test_a_move_taken_back_through_one_server_is_heard_by_the_others_pages(database):
    ports = free_port(), free_port()
    a, b = (f"http://127.0.0.1:{p}" for p in ports)
    servers = [serve(database, p) for p in ports]
    heard: list[int] = []
    try:
        r = httpx.post(a + "/tables", data={"game": "tictactoe", "seat_x": "human", "seat_o": "human"}, timeout=30)
        links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
        for base, seat in ((a, "x"), (b, "o")):  # each person opens their page: their seat is taken
            assert httpx.get(base + links[seat], timeout=30).status_code == 200
        assert httpx.post(a + links["x"] + "/move", data={"index": "4", "seen": "0"}, timeout=30).text == "1"
        assert httpx.post(b + links["o"] + "/move", data={"index": "0", "seen": "1"}, timeout=30).text == "2"
        assert "o marks a1" in httpx.get(a + links["x"] + "/board", timeout=30).text  # A's copy has both moves

        def page() -> None:  # a page of server A
            with httpx.stream("GET", a + links["x"] + "/events", timeout=httpx.Timeout(5, read=30)) as events:
                for line in events.iter_lines():
                    if line.startswith("data: "):
                        heard.append(int(line[6:]))
                        if heard[-1] >= 3:
                            return

        listener = threading.Thread(target=page, daemon=True)
        listener.start()
        assert httpx.post(b + links["o"] + "/undo", data={"seen": "2"}, timeout=30).text == "asked"
        assert "Do you agree?" in httpx.get(a + links["x"] + "/talk", timeout=30).text  # the request, through A
        assert httpx.post(a + links["x"] + "/vote", data={"agree": "yes", "seen": "2"}, timeout=30).text == "taken back"
        listener.join(timeout=30)
        assert heard[-1] == 3
        boards = [httpx.get(base + links["o"] + "/board", timeout=30).text for base in (a, b)]
        assert boards[0] == boards[1] and 'id="seen" value="3"' in boards[0] and "o marks a1" not in boards[0]
        assert httpx.post(b + links["o"] + "/move", data={"index": "1", "seen": "3"}, timeout=30).text == "4"
    finally:
        for s in servers:
            s.kill()
            s.wait(timeout=30)
