"""The web table's safety (docs/web.md, Safety): no seat's secret reaches another by any
route (page, download, event, answer), one table has one truth however many requests,
pages and restarts meet it, and the web's usual defences hold against a hostile page."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
import tomllib

import pytest
from repo_paths import TESTS

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from interpreter import load_game  # noqa: E402
from interpreter.web import tables as tables_module  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402
from interpreter.web.hub import Hub  # noqa: E402
from interpreter.web.store import SqliteStore, StoreUnavailable  # noqa: E402
from interpreter.web.tables import Tables, WebError  # noqa: E402

TRANSCRIPTS = TESTS / "transcripts"


def start(client: TestClient, game: str, **fields: str) -> dict[str, str]:
    r = client.post("/tables", data={"game": game, **fields})
    assert r.status_code == 200, r.text
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    links["spectator"] = re.search(r'class="spectator-link" href="(/t/[^"]+)"', r.text).group(1)
    return links


def buttons(page: str) -> list[str]:
    import html

    return [html.unescape(b) for b in re.findall(r'<button class="move" data-move="\d+"[^>]*>(.*?)</button>', page)]


def play_transcript(client: TestClient, name: str, upto: int, **extra: str) -> dict[str, str]:
    """A table of the transcript's game and seed, every seat a person, its first `upto` moves played."""
    t = tomllib.loads((TRANSCRIPTS / f"{name}.toml").read_text(encoding="utf-8"))
    seats = {f"seat_{s}": "human" for s in t["agents"]}
    fields = {"players": str(t["players"]), "seed": str(t["seed"]), **seats, **extra}
    if t.get("variants"):
        fields["variants"] = ",".join(t["variants"])
    links = start(client, t["game"], **fields)
    for n, move in enumerate(t["moves"][:upto]):
        seat, label = move.split(": ", 1)
        labels = buttons(client.get(links[seat] + "/board").text)
        r = client.post(links[seat] + "/move", data={"index": str(labels.index(label)), "seen": str(n)})
        assert r.status_code == 200, r.text
    return links


def downloads(client: TestClient, links: dict[str, str]) -> dict[str, str]:
    return {seat: client.get(link + "/transcript").text for seat, link in links.items()}


# ---- no secret by any route -------------------------------------------------------------------


def assert_only_what_the_seat_may_see(client: TestClient, links: dict[str, str]) -> None:
    """The oracle is the game's own `seen by` rules, through the engine: while the game is
    on, a seat's download is its own moves and the narration the engine gives that seat
    (which names nothing the seat may not see), nothing else; no seed (which decides every
    hidden card), and no other seat's move."""
    table = client.app.state.tables.get(links["spectator"].split("/")[2])
    assert table.state.result is None
    for seat, text in downloads(client, links).items():
        data = tomllib.loads(text)
        viewer = None if seat == "spectator" else seat
        assert "seed" not in data and "moves" not in data, seat
        assert data["log"] == [line for s in table.states for line in table.game.narrate(s, viewer, omniscient=False)]
        assert data.get("own_moves", []) == [label for who, label in table.moves if who == seat]
        for who, label in table.moves:
            if who != seat and len(label) > 12:  # a short label ("pass") may be any seat's words
                assert all(label not in line for line in data["log"]) or any(
                    label in line for s in table.states for line in table.game.narrate(s, None, omniscient=False)
                ), (seat, label)


@pytest.mark.parametrize(
    "name", ["twid_2p", "waw_hidden_victory", "missiles_2p", pytest.param("doe_2p", marks=pytest.mark.slow), "base_2p"]
)
def test_every_bundled_games_downloads_hold_only_what_each_seat_may_see(tmp_path, name):
    """Each bundled game, part-way through its canonical game: every seat's and the
    spectators' download is what the engine shows that seat, and no more."""
    game = tomllib.loads((TRANSCRIPTS / f"{name}.toml").read_text(encoding="utf-8"))["game"]
    with TestClient(create_app(tmp_path / "t.sqlite", [game])) as client:
        links = play_transcript(client, name, 15)
        assert_only_what_the_seat_may_see(client, links)


def test_walls_and_wonders_hidden_victory_cards_stay_hidden_in_every_download(tmp_path):
    """Walls and Wonders, hidden victory (a second card, seen only by its owner, revealed at
    the end): mid-game, no other seat's nor the spectators' download names a seat's hidden
    card, and each names the seat's own."""
    with TestClient(create_app(tmp_path / "t.sqlite", ["walls_and_wonders"])) as client:
        links = play_transcript(client, "waw_hidden_victory", 12)
        table = client.app.state.tables.get(links["p1"].split("/")[2])
        g = table.game.compiled
        info = g.vars["victory_card"]
        hidden = {p: g.rt.display(table.state.vars[info.slot][info.key_index[p]]) for p in table.state.players}
        texts = downloads(client, links)
        for seat, text in texts.items():
            for owner, card in hidden.items():
                said = f"{owner}'s hidden victory card is the"
                if seat == owner:
                    assert said in text
                else:  # neither the line nor the card, unless the public story names the card
                    assert said not in text, (seat, owner)
                    assert card not in text or card in texts["spectator"], (seat, owner, card)
        assert_only_what_the_seat_may_see(client, links)


def test_the_wall_is_down_header_chosen_in_secret_is_in_no_other_download(tmp_path):
    """The Wall is Down 5.1 (headers chosen face down, revealed together): once West has
    chosen, East's and the spectators' downloads do not name West's header; West's does."""
    t = tomllib.loads((TRANSCRIPTS / "twid_2p.toml").read_text(encoding="utf-8"))
    west_header = t["moves"][0].split("header: ", 1)[1]
    with TestClient(create_app(tmp_path / "t.sqlite", ["twid"])) as client:
        links = play_transcript(client, "twid_2p", 1)
        texts = downloads(client, links)
        assert west_header in texts["west"]
        assert west_header not in texts["east"] and west_header not in texts["spectator"]
        assert_only_what_the_seat_may_see(client, links)


def test_kuhn_poker_cards_are_in_no_other_download_until_the_showdown(tmp_path):
    """Kuhn poker: each player's card is seen by its owner alone until the showdown."""
    with TestClient(create_app(tmp_path / "t.sqlite", ["kuhn_poker"])) as client:
        links = start(client, "kuhn_poker", seat_p1="human", seat_p2="human", seed="7")
        table = client.app.state.tables.get(links["p1"].split("/")[2])
        assert_only_what_the_seat_may_see(client, links)
        own = {p: client.get(links[p] + "/board").text for p in ("p1", "p2")}
        texts = downloads(client, links)
        observed = {p: load_game("kuhn_poker").observation(table.state, p) for p in ("p1", "p2")}
        assert observed["p1"] != observed["p2"]  # each sees something the other does not
        assert "seed" not in texts["p1"] and "seed" not in texts["p2"] and own["p1"] != own["p2"]


def test_downloads_are_the_whole_transcript_once_the_game_is_over(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite", ["tictactoe"])) as client:
        links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="2")
        n = 0
        while "Game over" not in client.get(links["x"] + "/board").text:
            mover = links["x"] if n % 2 == 0 else links["o"]
            assert client.post(mover + "/move", data={"index": "0", "seen": str(n)}).status_code == 200
            n += 1
        for text in downloads(client, links).values():
            data = tomllib.loads(text)
            assert data["seed"] == 2 and len(data["moves"]) == n and "result" in data


def test_an_event_carries_a_count_and_nothing_else(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite", ["tictactoe"])) as client:
        links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="2")
        with client.stream("GET", links["o"] + "/events") as r:
            lines = []
            for line in r.iter_lines():
                lines.append(line)
                if line.startswith("data:"):
                    break
        assert lines[-1] == "data: 0" and all(x.startswith(("retry:", "data:")) or x == "" for x in lines)


# ---- one table, one truth ------------------------------------------------------------------------


def test_pages_asking_at_once_after_a_restart_share_one_replay(tmp_path):
    """Pages that reconnect together after a restart (or an eviction) get the same table:
    one replay, so a move through any of them is seen by all."""
    db = tmp_path / "t.sqlite"
    first = Tables(SqliteStore(db))
    table = first.create("tictactoe", None, {"x": "human", "o": "human"}, seed=3)
    first.move(table, table.record.tokens["x"], 0, 0)
    second = Tables(SqliteStore(db))  # the server started again
    got: list[object] = []
    barrier = threading.Barrier(8)

    def ask() -> None:
        barrier.wait()
        got.append(second.get(table.record.id))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(t) for t in got}) == 1 and len(got[0].moves) == 1


def test_a_move_through_any_copy_is_seen_by_every_other_and_none_is_lost(tmp_path, monkeypatch):
    """Two servers' copies of one table (or a copy evicted while a request held it): a
    move committed through one is applied by the other before it answers; a move sent
    with an old position is a 409, never a 500, and nothing is lost or duplicated."""
    db = tmp_path / "t.sqlite"
    a, b = Tables(SqliteStore(db)), Tables(SqliteStore(db))
    table = a.create("tictactoe", None, {"x": "human", "o": "human"}, seed=3)
    x, o = table.record.tokens["x"], table.record.tokens["o"]
    copy = b.get(table.record.id)
    assert a.move(table, x, 0, 0) == 1
    assert b.move(copy, o, 0, 1) == 2  # b catches up with a's move first
    with pytest.raises(WebError) as err:
        a.move(table, x, 0, 1)  # a's page saw one move: the position has changed
    assert err.value.status == 409
    assert a.move(table, x, 0, 2) == 3
    assert [s for s, _ in b.get(table.record.id).moves] == ["x", "o", "x"]
    assert a.store.count(table.record.id) == 3
    monkeypatch.setattr(tables_module, "MAX_TABLES_IN_MEMORY", 1)
    a.create("tictactoe", None, {"x": "human", "o": "human"}, seed=4)  # evicts the first
    fresh = a.get(table.record.id)
    assert fresh is not table and len(fresh.moves) == 3
    assert a.move(table, o, 0, 3) == 4  # the evicted copy still moves in order
    assert len(a.get(table.record.id).moves) == 4


def test_a_move_sent_twice_with_its_key_is_played_once(tmp_path):
    """A double click, or a request retried after a lost answer: the same key is one move."""
    with TestClient(create_app(tmp_path / "t.sqlite", ["tictactoe"])) as client:
        links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="2")
        first = client.post(links["x"] + "/move", data={"index": "0", "seen": "0", "key": "k1"})
        again = client.post(links["x"] + "/move", data={"index": "0", "seen": "0", "key": "k1"})
        assert (first.status_code, first.text) == (200, "1") and (again.status_code, again.text) == (200, "1")
        other = client.post(links["x"] + "/move", data={"index": "0", "seen": "0", "key": "k2"})
        assert other.status_code == 409  # a new click on the old position: refused, not played
        bad = client.post(links["o"] + "/move", data={"index": "0", "seen": "1", "key": "x" * 65})
        assert bad.status_code == 400


def test_every_waiting_stream_of_a_table_hears_a_move_whatever_copy_made_it():
    """The hub: streams wait by table id, so every one wakes, and a move told between a
    stream's look and its wait is not missed."""

    async def scenario() -> list[bool]:
        hub = Hub()
        hub.start(asyncio.get_running_loop())
        hub.told("t1", 4)
        waits = [asyncio.create_task(asyncio.wait_for(hub.wait("t1", 4, timeout=5), 6)) for _ in range(50)]
        await asyncio.sleep(0.01)
        assert hub.watchers() == 50
        threading.Thread(target=hub.told, args=("t1", 5)).start()  # told from a worker thread
        done = await asyncio.gather(*waits)
        already = await asyncio.wait_for(hub.wait("t1", 4, timeout=5), 1)  # the count is past: at once
        hub.stop()
        await asyncio.sleep(0)
        stopped = await asyncio.wait_for(hub.wait("t1", 5, timeout=5), 1)  # stopping: no wait at all
        return [d is None for d in done] + [already is None, stopped is None, hub.watchers() == 0]

    assert all(asyncio.run(scenario()))


# ---- a damaged store ---------------------------------------------------------------------------


def test_a_damaged_store_is_a_503_with_a_reason_and_a_garbage_file_a_clear_refusal(tmp_path):
    db = tmp_path / "t.sqlite"
    with TestClient(create_app(db, ["tictactoe"])) as client:
        links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="2")
        table_id = links["x"].split("/")[2]
        client.app.state.tables._open.clear()  # not in memory: it must be read from the store
        with sqlite3.connect(db) as raw:
            raw.execute("DROP TABLE moves")  # as a damaged page would: the moves cannot be read
        r = client.get(links["x"] + "/board")
        assert r.status_code == 503 and "cannot be read" in r.text and "Traceback" not in r.text
        assert table_id not in r.text.split("cannot be read")[0]
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreUnavailable, match="cannot be read"):
        create_app(garbage, ["tictactoe"])
    from interpreter.cli import main

    assert main(["serve", "tictactoe", "--db", str(garbage), "--port", "1"]) == 2


# ---- the web's usual defences ----------------------------------------------------------------------


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite", ["tictactoe"])) as c:
        yield c


def test_every_answer_carries_the_security_headers(client):
    links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="2")
    for url in ("/", links["x"], links["x"] + "/board", "/static/table.js"):
        r = client.get(url)
        assert r.status_code == 200, url
        policy = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert r.headers["x-frame-options"] == "DENY" and r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"  # a link is a key: never sent to another site
    assert client.get(links["x"]).headers["cache-control"] == "no-store"
    assert "<script>" not in client.get(links["x"]).text and "<style>" not in client.get("/").text


def test_a_foreign_host_or_a_cross_site_write_is_refused(client):
    links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="2")
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    move = {"index": "0", "seen": "0"}
    r = client.post(links["x"] + "/move", data=move, headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.post(links["x"] + "/move", data=move, headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    r = client.post("/tables", data={"game": "tictactoe"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert 'id="seen" value="0"' in client.get(links["x"] + "/board").text  # nothing was played
    r = client.post(links["x"] + "/move", data=move, headers={"origin": "http://testserver"})
    assert r.status_code == 200


def test_a_form_move_redirects_to_a_path_never_to_the_host_it_was_sent_to(client):
    links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="2")
    r = client.post(
        links["x"] + "/move", data={"index": "0", "seen": "0"}, headers={"accept": "text/html"}, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == links["x"]


@pytest.mark.parametrize(
    "fields, says",
    [
        ({"seed": str(2**63)}, "seed"),
        ({"seed": "-1"}, "seed"),
        ({"players": "99"}, "players"),
        ({"variants": "x" * 500}, "too long"),
        ({"options": "nonsense"}, "NAME=VALUE"),
    ],
)
def test_every_input_of_a_new_table_is_bounded_and_refused_in_words(client, fields, says):
    r = client.post("/tables", data={"game": "tictactoe", "seat_x": "human", **fields})
    assert r.status_code == 400 and says in r.text, r.text


def test_the_pages_script_keeps_one_move_per_click_and_errors_until_dismissed():
    """The page's script (static/table.js): the second click of a double click is ignored,
    a move carries a key of its own, buttons wait for the answer, and an error stays in
    view with a dismiss button (the board's refresh does not wipe it)."""
    from importlib.resources import files

    script = files("interpreter.web").joinpath("static/table.js").read_text(encoding="utf-8")
    assert "ev.detail > 1" in script and "key: newKey()" in script and "if (busy)" in script
    assert "Dismiss" in script and "cannot be reached" in script
    page = files("interpreter.web").joinpath("templates/table.html").read_text(encoding="utf-8")
    board = files("interpreter.web").joinpath("templates/board.html").read_text(encoding="utf-8")
    assert 'id="message"' in page and 'id="message"' not in board  # outside the part that is redrawn
