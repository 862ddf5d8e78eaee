"""The web table (interpreter/web/, docs/web.md): tables start, seats play through their
private links, each seat sees only its own view, refused requests change nothing, and a
table survives a restart of the server (its moves are in SQLite)."""

from __future__ import annotations

import html
import re
import time
import tomllib

import pytest
from repo_paths import TESTS

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import create_app  # noqa: E402

FORM = {"content-type": "application/x-www-form-urlencoded"}
TRANSCRIPTS = TESTS / "transcripts"


def start(client: TestClient, game: str, **fields: str) -> dict[str, str]:
    """Start a table; the links it answers with, by seat (and 'spectator')."""
    r = client.post("/tables", data={"game": game, **fields})
    assert r.status_code == 200, r.text
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    links["spectator"] = re.search(r'class="spectator-link" href="(/t/[^"]+)"', r.text).group(1)
    return links


def seen(client: TestClient, link: str) -> int:
    return int(re.search(r'id="seen" value="(\d+)"', client.get(link + "/board").text).group(1))


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "tables.sqlite", ["tictactoe", "walls_and_wonders", "kuhn_poker"])) as c:
        yield c


def test_the_lobby_offers_each_game_and_its_form_each_seat(client):
    page = client.get("/").text
    assert 'id="game-tictactoe"' in page and 'href="/new/tictactoe"' in page and "2 players" in page
    form = client.get("/new/tictactoe").text
    assert 'name="seat_x"' in form and 'name="seat_o"' in form
    assert client.get("/new/chess").status_code == 404


def test_two_people_play_tictactoe_to_the_end_through_their_own_links(client):
    links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="1")
    assert links["x"] != links["o"]
    for _ in range(9):
        status = client.get(links["x"] + "/board").text
        if "Game over" in status:
            break
        mover = "x" if "Your turn (x)" in status else "o"
        other = "o" if mover == "x" else "x"
        assert 'class="move"' not in client.get(links[other] + "/board").text  # not the other's turn: no moves
        r = client.post(links[mover] + "/move", data={"index": "0", "seen": str(seen(client, links[mover]))})
        assert r.status_code == 200, r.text
    assert "Game over" in client.get(links["o"] + "/board").text
    # the grid is drawn as a board, not only as text
    assert '<table class="grid"' in client.get(links["spectator"] + "/board").text


def test_a_bad_request_is_refused_with_a_reason_and_changes_nothing(client, tmp_path):
    links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="1")
    x, o = links["x"], links["o"]
    n = seen(client, x)
    cases = [
        (o + "/move", {"index": "0", "seen": str(n)}, 403),  # not o's turn
        (x + "/move", {"index": "99", "seen": str(n)}, 400),  # no such move
        (x + "/move", {"index": "0", "seen": str(n + 5)}, 409),  # stale: saw another position
        (x + "/move", {"index": "zero", "seen": "0"}, 400),  # malformed
        (x.rsplit("/", 1)[0] + "/not-a-token/move", {"index": "0", "seen": str(n)}, 404),  # a token of no seat
        (links["spectator"] + "/move", {"index": "0", "seen": str(n)}, 403),  # spectators don't move
    ]
    for url, data, status in cases:
        r = client.post(url, data=data)
        assert r.status_code == status, (url, data, r.text)
        assert r.text  # a reason
    big = client.post(x + "/move", content=b"index=0&" + b"x" * 20000, headers=FORM)
    assert big.status_code == 413
    assert seen(client, x) == n  # nothing changed


def wait_for(client: TestClient, link: str, count: int, timeout: float = 30.0) -> int:
    """Wait until the table has at least `count` moves (AI seats play in the background)."""
    deadline = time.monotonic() + timeout
    while (n := seen(client, link)) < count:
        assert time.monotonic() < deadline, f"the table stayed at {n} moves"
        time.sleep(0.02)
    return n


def test_an_ai_seat_answers_in_the_background_not_inside_the_request(client):
    """docs/web.md, AI seats: the human's move is answered at once with the count after it
    (1); the AI's answer follows from the pool."""
    links = start(client, "tictactoe", seat_x="human", seat_o="random", seed="3")
    r = client.post(links["x"] + "/move", data={"index": "0", "seen": "0"})
    assert r.status_code == 200 and r.text == "1"
    assert wait_for(client, links["x"], 2) == 2  # x's move, then o's


def test_a_table_of_ai_seats_alone_is_refused(client):
    r = client.post("/tables", data={"game": "tictactoe", "seat_x": "random", "seat_o": "mcts:1s"})
    assert r.status_code == 400 and "at least one human seat" in r.text


def test_the_start_form_offers_every_seat_of_every_player_count(client):
    """Walls and Wonders is for 2 to 8: the form has a choice for p1..p8, each saying at
    which counts it is in play; started at 4, p3 and p4 are played as the form chose (not
    silently human), and seats not in play at 2 are left out."""
    form = client.get("/new/walls_and_wonders").text
    form = form[form.index('id="game-walls_and_wonders"') :]
    form = form[: form.index("</form>")]
    for i in range(1, 9):
        assert f'name="seat_p{i}"' in form
    assert re.search(r'data-counts="([\d ]+)"><label>p3 ', form).group(1) == "3 4 5 6 7 8"
    seats = {f"seat_p{i}": "random" for i in range(2, 9)}
    links = start(client, "walls_and_wonders", players="4", seat_p1="human", seed="1", **seats)
    table = client.app.state.tables.get(links["p1"].split("/")[2])
    assert table.record.agents == {"p1": "human", "p2": "random", "p3": "random", "p4": "random"}
    links = start(client, "walls_and_wonders", players="2", seat_p1="human", seed="1", **seats)
    assert client.app.state.tables.get(links["p1"].split("/")[2]).record.agents == {"p1": "human", "p2": "random"}
    r = client.post("/tables", data={"game": "walls_and_wonders", "seat_p9": "human"})
    assert r.status_code == 400 and "no seat 'p9'" in r.text


def test_a_seat_never_sees_another_seats_hand(client):
    """Walls and Wonders: each player's hand is `seen by owner`. A seat's page shows its own
    hand and never the other's (neither its cards' names nor its hand's line); the
    spectator sees no hand."""
    links = start(client, "walls_and_wonders", seat_p1="human", seat_p2="human", seed="2")
    pages = {seat: client.get(links[seat] + "/board").text for seat in ("p1", "p2", "spectator")}
    hand_line = {seat: re.search(r"Your hand: ([^\n<]*)", pages[seat]).group(1) for seat in ("p1", "p2")}
    assert hand_line["p1"] != hand_line["p2"]
    assert hand_line["p2"] not in pages["p1"] and hand_line["p1"] not in pages["p2"]
    assert "(p2)" not in pages["p1"] and "(p1)" not in pages["p2"]  # no card of the other named
    assert "Your hand" not in pages["spectator"] and "(p1)" not in pages["spectator"]


def test_a_restarted_server_resumes_every_table_and_its_transcript_replays(tmp_path):
    """docs/web.md, Nothing lost: the moves are in the store; a new server on the same file
    shows the same position and plays on; once the game is over every link downloads the
    whole transcript, which `gamedef replay` plays again."""
    db = tmp_path / "tables.sqlite"
    with TestClient(create_app(db, ["tictactoe"])) as first:
        links = start(first, "tictactoe", seat_x="human", seat_o="human", seed="5")
        for i in range(3):
            mover = links["x"] if i % 2 == 0 else links["o"]
            assert first.post(mover + "/move", data={"index": "0", "seen": str(i)}).status_code == 200
        before = first.get(links["spectator"] + "/board").text
    with TestClient(create_app(db, ["tictactoe"])) as second:  # a new server, the same file
        assert second.get(links["spectator"] + "/board").text == before
        n = 3
        while "Game over" not in second.get(links["x"] + "/board").text:
            mover = links["x"] if n % 2 == 0 else links["o"]
            assert second.post(mover + "/move", data={"index": "0", "seen": str(n)}).status_code == 200
            n += 1
        transcript = second.get(links["o"] + "/transcript").text
    path = tmp_path / "t.toml"
    path.write_text(transcript, encoding="utf-8")
    from interpreter.cli import main

    assert main(["replay", str(path)]) == 0
    assert transcript.count('"x: ') + transcript.count('"o: ') == n


# ---- whole games through the HTTP API, each seat at its own link ----------------------------
def _buttons(page: str) -> list[str]:
    """The labels of the move buttons of a board, in order."""
    return [html.unescape(b) for b in re.findall(r'<button class="move" data-move="\d+"[^>]*>(.*?)</button>', page)]


def _play_transcript(client: TestClient, name: str, upto: int, check=None) -> dict[str, str]:
    """A table of the transcript's game and seed, every seat a person, its first `upto`
    moves played through each mover's own link by clicking the button of its label;
    `check(links, n, seat, label)` runs before move n."""
    t = tomllib.loads((TRANSCRIPTS / f"{name}.toml").read_text(encoding="utf-8"))
    seats = {f"seat_{s}": "human" for s in t["agents"]}
    links = start(client, t["game"], players=str(t["players"]), seed=str(t["seed"]), **seats)
    for n, move in enumerate(t["moves"][:upto]):
        seat, label = move.split(": ", 1)
        if check is not None:
            check(links, n, seat, label)
        page = client.get(links[seat] + "/board").text
        labels = _buttons(page)
        assert label in labels, (n, move, labels)
        r = client.post(links[seat] + "/move", data={"index": str(labels.index(label)), "seen": str(n)})
        assert r.status_code == 200, r.text
    return links


def test_an_out_of_turn_reaction_is_offered_to_its_seat_alone(tmp_path):
    """Missiles, Now! (Counterintelligence: played only in an opponent's turn, it cancels
    their Espionage or Propaganda). In the USSR's turn, the USA's page offers the reaction
    and the USSR's page waits for it; the USA's answer through its own link cancels it."""
    reaction = "usa: cancel USSR's Propaganda with Counterintelligence"
    t = tomllib.loads((TRANSCRIPTS / "missiles_2p.toml").read_text(encoding="utf-8"))
    at = t["moves"].index(reaction)
    with TestClient(create_app(tmp_path / "t.sqlite", ["missiles_now"])) as client:
        links = _play_transcript(client, "missiles_2p", at)
        usa, ussr = client.get(links["usa"] + "/board").text, client.get(links["ussr"] + "/board").text
        assert reaction.split(": ", 1)[1] in _buttons(usa) and "Your turn (usa)" in usa
        assert _buttons(ussr) == [] and "Waiting for usa" in ussr
        r = client.post(links["ussr"] + "/move", data={"index": "0", "seen": str(at)})
        assert r.status_code == 403  # not the USSR's decision
        answer = client.post(
            links["usa"] + "/move",
            data={"index": str(_buttons(usa).index(reaction.split(": ", 1)[1])), "seen": str(at)},
        )
        assert answer.status_code == 200
        board = html.unescape(re.sub(r"<[^>]+>", "", client.get(links["spectator"] + "/board").text))
        assert "Propaganda is cancelled" in board  # the words as read (card titles are marked in the page)


def test_a_secret_simultaneous_choice_is_seen_by_nobody_until_all_have_chosen(tmp_path):
    """The Wall is Down 5.1 (headers chosen face down, then revealed together): once West
    has chosen its header, East's page, the spectators' page and the event stream do not
    name it; when East has chosen too, both are shown to everyone."""
    t = tomllib.loads((TRANSCRIPTS / "twid_2p.toml").read_text(encoding="utf-8"))
    west_header = t["moves"][0].split("header: ", 1)[1]
    with TestClient(create_app(tmp_path / "t.sqlite", ["twid"])) as client:
        before = {}

        def look(links, n, seat, label):
            if n == 0:
                before.update({s: west_header in client.get(links[s] + "/board").text for s in ("east", "spectator")})

        links = _play_transcript(client, "twid_2p", 1, look)
        assert before == {"east": False, "spectator": False}  # not shown before: a fair test
        for s in ("east", "spectator"):
            assert west_header not in client.get(links[s] + "/board").text, s
            assert west_header not in client.get(links[s]).text, s
        assert west_header in client.get(links["west"] + "/board").text  # West sees its own
        east_page = client.get(links["east"] + "/board").text
        east_label = t["moves"][1].split(": ", 1)[1]
        r = client.post(
            links["east"] + "/move", data={"index": str(_buttons(east_page).index(east_label)), "seen": "1"}
        )
        assert r.status_code == 200
        assert west_header in client.get(links["spectator"] + "/board").text  # revealed together
