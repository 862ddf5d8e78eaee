"""The web table as a person uses it, in Debian's Chromium (Playwright): every bundled game
at each of its player counts started from the lobby by clicks, on a laptop's screen
(1280×800) and a phone's (390×844), and a first move played; the lobby, the new-table
page and a table of each game checked for accessibility (axe-core, WCAG 2 level A: no
violation). Slow, and skipped where Playwright, axe-core or the browser is missing."""

from __future__ import annotations

import re
import shutil
import socket
import threading
import time

import pytest

pytestmark = pytest.mark.slow

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")
httpx = pytest.importorskip("httpx")
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
if BROWSER is None:
    pytest.skip("no chromium on this machine", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from interpreter.runtime.load import bundled_games, load_game  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
LEVEL_A = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag21a"]}}


def _counts() -> list[tuple[str, int]]:
    out = []
    for name in bundled_games():
        h = load_game(name).compiled.header
        out.extend((name, n) for n in range(h.min_players, h.max_players + 1))
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("lobby") / "tables.sqlite")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    for name in bundled_games():  # each game compiled once before the clicks (a first compile takes seconds)
        assert httpx.get(f"{base}/new/{name}", timeout=300).status_code == 200
    yield base
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.mark.parametrize("size", SIZES)
def test_every_game_at_every_player_count_starts_from_the_lobby_and_plays(server, browser, size):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(60000)
    failures = []
    for name, count in _counts():
        page = context.new_page()
        try:
            page.goto(server + "/")
            page.locator(f"#game-{name} a.new").click()
            form = page.locator(f"form#game-{name}")
            form.locator("input[name=name]").fill("Tester")
            form.locator("select[name=players]").select_option(str(count))
            form.locator("button[type=submit]").click()
            page.locator("a.your-seat").click()
            expect(page.locator("#status")).to_contain_text(re.compile("Your turn|Waiting for|Game over"))
            deadline = time.monotonic() + 60
            while page.locator("button.move").count() == 0 and time.monotonic() < deadline:
                page.wait_for_timeout(100)  # the AI seats move first
            seen = page.locator("#seen").get_attribute("value")
            page.locator("button.move").first.click()
            expect(page.locator("#seen")).not_to_have_value(seen, timeout=60000)
        except Exception as err:  # every game and count is tried; all failures are reported together
            said = " / ".join(page.locator(f"#{part}").inner_text(timeout=5000)[:200] for part in ("status", "message"))
            failures.append(f"{name} at {count} players ({size}): {str(err).splitlines()[0]} (the page says: {said})")
        finally:
            page.close()
    context.close()
    assert failures == []


def test_the_pages_have_no_level_a_accessibility_violation(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.set_default_timeout(60000)
    page = context.new_page()
    axe = axe_api.Axe()
    found = {}
    page.goto(server + "/")
    found["lobby"] = axe.run(page, options=LEVEL_A).generate_snapshot()
    for name in bundled_games():
        page.goto(server + f"/new/{name}")
        found[f"new {name}"] = axe.run(page, options=LEVEL_A).generate_snapshot()
        page.locator("input[name=name]").fill("Tester")
        page.locator("button[type=submit]").click()
        page.locator("a.your-seat").click()
        expect(page.locator("#status")).to_be_visible()
        found[f"table {name}"] = axe.run(page, options=LEVEL_A).generate_snapshot()
    context.close()
    assert {where: v for where, v in found.items() if v} == {}
