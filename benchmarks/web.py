"""The web table's speed: a move's round trip on localhost for each bundled game, and
many tables at once (a bounded load test against 127.0.0.1 only).

    python -m benchmarks.web              # round trips, then 50 tables with AI seats

A round trip is a seat's POST of a move and the GETs of its board until the board is the
seat's turn again (or the game's end): the AI seats answer in the background, so it
includes their moves. Its wall-clock time moves
with whatever else the machine runs; the CPU time this process spent on it (client and
server threads together) moves much less, so both are shown. Needs the `web` extra.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from starlette.testclient import TestClient

from interpreter.runtime.load import load_game
from interpreter.web.app import create_app

GAMES = ["tictactoe", "kuhn_poker", "berlin_wall", "walls_and_wonders", "missiles_now", "twid", "downfall_of_empires"]


def _links(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', page))


def _until_my_turn(client: TestClient, link: str, timeout: float = 60.0) -> None:
    """Ask for the board until it offers the seat a move or the game is over."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        board = client.get(link + "/board").text
        if 'class="move"' in board or "Game over" in board or "Waiting for" not in board:
            return
        time.sleep(0.002)


def round_trips(client: TestClient, game: str, moves: int = 15, cpu: list[float] | None = None) -> list[float]:
    g = load_game(game)
    seats = g.seats_for(g.compiled.header.default_players or g.compiled.header.min_players)
    form = {"game": game, "seed": "1", **{f"seat_{s}": "random" for s in seats[1:]}}
    page = client.post("/tables", data=form).text  # the first seat a person, the others random
    link = _links(page)[seats[0]]
    times = []
    for _ in range(moves):
        _until_my_turn(client, link)  # the AI seats may move first
        board = client.get(link + "/board").text
        if "Game over" in board:
            break
        if 'class="move"' not in board:  # another seat (a secret choice) is to move: not ours
            break
        seen = re.search(r'id="seen" value="(\d+)"', board).group(1)
        t0, c0 = time.perf_counter(), time.process_time()
        r = client.post(link + "/move", data={"index": "0", "seen": seen})
        _until_my_turn(client, link)
        times.append(time.perf_counter() - t0)
        if cpu is not None:
            cpu.append(time.process_time() - c0)
        if r.status_code != 200:
            break
    return times


def load(client: TestClient, tables: int = 50, moves: int = 9) -> tuple[int, int, float]:
    """`tables` tic-tac-toe tables, each a person against a random seat, played at once
    from `tables` threads: (moves made, errors, seconds)."""
    errors, made = [0], [0]

    def one() -> None:
        page = client.post("/tables", data={"game": "tictactoe", "seat_x": "human", "seat_o": "random"}).text
        link = _links(page)["x"]
        for _ in range(moves):
            board = client.get(link + "/board")
            if board.status_code != 200:
                errors[0] += 1
                return
            if "Game over" in board.text:
                return
            seen = re.search(r'id="seen" value="(\d+)"', board.text).group(1)
            r = client.post(link + "/move", data={"index": "0", "seen": seen})
            if r.status_code != 200:
                errors[0] += 1
                return
            made[0] += 1
            _until_my_turn(client, link)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=one) for _ in range(tables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    return made[0], errors[0], time.perf_counter() - t0


def main() -> int:
    with tempfile.TemporaryDirectory() as folder, TestClient(create_app(Path(folder) / "t.sqlite", GAMES)) as client:
        print("| game | moves | median round trip (ms) | slowest (ms) | median CPU (ms) |")
        print("|---|---:|---:|---:|---:|")
        for game in GAMES:
            cpu: list[float] = []
            times = round_trips(client, game, cpu=cpu)
            if times:
                print(
                    f"| {game} | {len(times)} | {statistics.median(times) * 1000:.1f} | {max(times) * 1000:.1f} "
                    f"| {statistics.median(cpu) * 1000:.1f} |"
                )
        made, errors, seconds = load(client)
        print(f"\n50 tables at once: {made} moves, {errors} errors, {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
