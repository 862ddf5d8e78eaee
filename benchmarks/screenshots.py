"""The pictures of docs/web.md, taken again: the lobby and a table of each bundled game, as
a person sees it in Chromium a few moves into a seeded game (the last move marked).

    python -m benchmarks.screenshots              # writes docs/images/web/*.png
    python -m benchmarks.screenshots --out DIR    # elsewhere

Needs the `web` and `browser` extras and Debian's `chromium`; with Pillow (the `plot`
extra brings it) each picture is reduced to a palette of 128 colours, which keeps every
one under 150 KB. The server runs on 127.0.0.1 for the time of the script alone.
"""

from __future__ import annotations

import argparse
import io
import random
import re
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

import httpx
import uvicorn
from playwright.sync_api import Page, sync_playwright

from interpreter.runtime.load import load_game
from interpreter.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images" / "web"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
MOST_BYTES = 150_000


class Shot(NamedTuple):
    """A table to picture: the game, its players (the first seat a person's, the others
    `random`), its seed, how many of the person's moves to play first, and whether a
    phone's picture is taken too."""

    game: str
    players: int | None
    seed: int
    moves: int
    phone: bool = False


SHOTS = [
    Shot("twid", 4, 3, 6, phone=True),
    Shot("downfall_of_empires", None, 2, 3, phone=True),
    Shot("berlin_wall", None, 1, 3),
    Shot("walls_and_wonders", 3, 1, 3),
    Shot("missiles_now", None, 1, 2),
    Shot("kuhn_poker", None, 1, 0),
    Shot("tictactoe", None, 1, 2),
]


def serve(db: Path) -> tuple[uvicorn.Server, str]:
    """The web table on a free port of 127.0.0.1, in a thread: the server and its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def table(client: httpx.Client, shot: Shot) -> str:
    """A new table of the shot's game, its first seat a person's and the others `random`,
    played `shot.moves` moves of the person's (random ones, from the seed): the person's link."""
    header = load_game(shot.game).compiled.header
    seats = load_game(shot.game).seats_for(shot.players or header.default_players or header.min_players)
    data = {"game": shot.game, "seed": str(shot.seed), **{f"seat_{s}": "random" for s in seats[1:]}}
    data[f"seat_{seats[0]}"] = "human"
    if shot.players is not None:
        data["players"] = str(shot.players)
    created = client.post("/tables", data=data).text
    link = re.search(r'class="seat-link" data-seat="\w+" href="([^"]+)"', created).group(1)
    rng = random.Random(shot.seed)
    for _ in range(shot.moves):
        board = _my_turn(client, link)
        count = len(re.findall(r'<button class="move"', board))
        if not count:
            break
        seen = re.search(r'id="seen" value="(\d+)"', board).group(1)
        client.post(link + "/move", data={"index": str(rng.randrange(count)), "seen": seen})
    _my_turn(client, link)
    return link


def _my_turn(client: httpx.Client, link: str) -> str:
    """The board once the AI seats have answered (the person's turn, or the end)."""
    deadline = time.monotonic() + 60
    board = client.get(link + "/board").text
    while "Waiting for" in board and time.monotonic() < deadline:
        time.sleep(0.1)
        board = client.get(link + "/board").text
    return board


def picture(page: Page, path: Path) -> int:
    """The page's screen as a PNG at `path`, reduced to a palette when Pillow is here: its size."""
    raw = page.screenshot()
    try:
        from PIL import Image
    except ImportError:
        path.write_bytes(raw)
        return len(raw)
    image = Image.open(io.BytesIO(raw)).convert("RGB").quantize(colors=128)
    image.save(path, optimize=True)
    return path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the folder of the pictures (docs/images/web)")
    args = parser.parse_args(argv)
    browser_path = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser_path is None:
        print("screenshots: no chromium here (Debian: apt-get install chromium)", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        server, base = serve(Path(folder) / "tables.sqlite")
        try:
            with httpx.Client(base_url=base, headers={"origin": base}, timeout=60) as client, sync_playwright() as p:
                browser = p.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
                page = browser.new_page(viewport=DESKTOP)
                page.goto(base + "/")
                sizes["lobby"] = picture(page, args.out / "lobby.png")
                for shot in SHOTS:
                    link = table(client, shot)
                    for name, size in [(shot.game, DESKTOP), *([(shot.game + "_phone", PHONE)] if shot.phone else [])]:
                        page = browser.new_page(viewport=size)
                        page.goto(base + link)
                        page.wait_for_selector("#status")
                        page.wait_for_timeout(300)  # the map's zoom buttons set up (static/map.js)
                        sizes[name] = picture(page, args.out / f"{name}.png")
                        page.close()
                browser.close()
        finally:
            server.should_exit = True
    for name, size in sizes.items():
        print(f"{name + '.png':32} {size / 1000:6.0f} KB{'  (over 150 KB)' if size > MOST_BYTES else ''}")
    return 0 if all(size <= MOST_BYTES for size in sizes.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
