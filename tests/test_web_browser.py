"""The web table in a real browser (Debian's Chromium, driven by Playwright): a person
plays The Wall is Down against AI seats by clicking countries on the map and buttons.
Slow, and skipped where Playwright or the browser is missing (CI installs both)."""

from __future__ import annotations

import shutil
import socket
import threading
import time

import pytest

pytestmark = pytest.mark.slow

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
if BROWSER is None:
    pytest.skip("no chromium on this machine", allow_module_level=True)

from interpreter.web.app import create_app  # noqa: E402


@pytest.fixture
def server(tmp_path):
    """The app on uvicorn at a free port of 127.0.0.1 (this machine only)."""
    app = create_app(tmp_path / "tables.sqlite", ["twid", "tictactoe"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def test_a_person_plays_the_wall_is_down_against_ai_by_clicking_the_map(server, tmp_path):
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(server + "/")
        form = page.locator("#game-twid form")
        form.locator("select[name=seat_us]").select_option("human")
        form.locator("input[name=seed]").fill("3")
        form.locator("button[type=submit]").click()
        page.locator("a.seat-link[data-seat=us]").click()
        page.wait_for_selector("#status")
        clicked_on_map = 0
        for _ in range(60):
            seen = int(page.locator("#seen").get_attribute("value"))
            if "Game over" in page.locator("#status").inner_text():
                break
            node = page.locator("svg.map g.node.playable")
            if node.count() > 0:
                node.first.click()
                clicked_on_map += 1
            elif page.locator("button.move").count() > 0:
                page.locator("button.move").first.click()
            else:
                page.wait_for_timeout(200)
                continue
            page.wait_for_function(f"Number(document.getElementById('seen').value) > {seen}", timeout=30000)
            if clicked_on_map >= 3:
                break
        assert clicked_on_map >= 3, "no country on the map was ever clickable"
        assert page.locator("svg.map g.node").count() >= 80  # the 89-country map drawn
        page.screenshot(path=str(tmp_path / "twid.png"))
        browser.close()
