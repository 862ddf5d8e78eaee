"""Taking back a move at the web table (docs/web.md, Playing together): a seat asks to take
back its last move, every other human seat must agree (AI seats have no say; alone with
AI seats, it is done at once); nothing hidden is ever shown by it (a draw or a die, a card
from another's hand, a line told to one seat alone: refused); a move made during the vote
ends the request; a request or a vote sent twice counts once; the store is the one truth
(its step goes on, every copy in memory follows). The same store rules run on PostgreSQL
in tests/web/test_web_postgres.py."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import create_app  # noqa: E402
from interpreter.web.store import MoveConflict, SqliteStore, Store, TableRecord  # noqa: E402
from interpreter.web.tables import Tables, WebError  # noqa: E402

RECORD = TableRecord("u1", "tictactoe", (), {}, 2, 9, {"x": "human", "o": "human"}, {"x": "a", "o": "b"}, "s")


def check_undo_store(store: Store) -> None:
    """The store's rules for taking back moves (any store): a truncation with a step that
    goes on; a vote kept in one transaction; a move ending a request; nothing twice."""
    store.create(RECORD, False)
    for n, (seat, label) in enumerate([("x", "a1"), ("o", "b1"), ("x", "c1"), ("o", "a2")]):
        assert store.add_move("u1", n, seat, label, f"k{n}", False, step=n).step == n + 1
    assert store.take_back("u1", 2, step=3) is None  # the table is at step 4: an older request changes nothing
    assert store.take_back("u1", 2, step=4) == 5
    news = store.news("u1", since=0)
    assert (news.step, news.count, news.moves) == (5, 2, [("x", "a1"), ("o", "b1")])
    assert store.step("u1") == 5 and store.count("u1") == 2 and store.news("u1", since=2).moves == []
    with pytest.raises(MoveConflict):  # move 2 again, by a page that saw step 3 (the same count, another position)
        store.add_move("u1", 2, "x", "b2", None, False, step=3)
    assert store.add_move("u1", 2, "x", "b2", "k9", False, step=5).step == 6
    # a request voted on by two seats: the first agreement is kept, the second takes the moves back
    request = {"seat": "x", "to": 2, "step": 6, "voters": ["o", "p"], "agreed": [], "what": "x's last move"}
    assert store.ask_undo("u1", dict(request)) and store.ask_undo("u1", dict(request))  # the same request again
    assert not store.ask_undo("u1", {**request, "seat": "o"})  # another while it is answered: refused
    assert not store.ask_undo("u1", {**request, "step": 5})  # made on an older position: refused
    assert store.vote_undo("u1", "o", True, 5).outcome == "gone"  # a vote on an older request
    assert store.vote_undo("u1", "o", True, 6).outcome == "agreed"
    assert store.vote_undo("u1", "o", True, 6).outcome == "agreed"  # given twice, counted once
    assert store.undo_request("u1")["agreed"] == ["o"]
    done = store.vote_undo("u1", "p", True, 6)
    assert (done.outcome, done.step) == ("done", 7) and store.undo_request("u1") is None
    assert store.moves("u1") == [("x", "a1"), ("o", "b1")] and store.vote_undo("u1", "p", True, 6).outcome == "gone"
    # a refusal ends it; a move made while a request waits ends it too
    assert store.ask_undo("u1", {**request, "step": 7})
    assert store.vote_undo("u1", "o", False, 7).outcome == "refused" and store.undo_request("u1") is None
    assert store.ask_undo("u1", {**request, "step": 7})
    moved = store.add_move("u1", 2, "x", "c3", None, False, step=7)
    assert moved.lapsed and store.undo_request("u1") is None
    assert store.vote_undo("u1", "o", True, 7).outcome == "gone"
    assert store.played("u1", "k0") == 1  # a key's answer is the step it was played at


def test_the_sqlite_store_takes_moves_back_by_its_rules():
    store = SqliteStore(":memory:")
    try:
        check_undo_store(store)
    finally:
        store.close()


def test_an_older_tables_file_gets_steps_equal_to_its_moves(tmp_path):
    """A file written before steps: each table's step is its number of moves."""
    import sqlite3

    db = tmp_path / "old.sqlite"
    store = SqliteStore(db)
    store.create(RECORD, False)
    store.add_move("u1", 0, "x", "a1", None, False)
    store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE tables SET step = -1")  # as the column is added to an older file
    store = SqliteStore(db)
    try:
        assert store.step("u1") == 1
    finally:
        store.close()


# ---- at the table --------------------------------------------------------------------------


def start(client: TestClient, game: str, **fields: str) -> dict[str, str]:
    """A new table whose human seats' pages are open (each taken by a person)."""
    r = client.post("/tables", data={"game": game, **fields})
    assert r.status_code == 200, r.text
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    for link in links.values():
        assert client.get(link).status_code == 200
    links["spectator"] = re.search(r'class="spectator-link" href="(/t/[^"]+)"', r.text).group(1)
    return links


def seen(client: TestClient, link: str) -> int:
    return int(re.search(r'id="seen" value="(\d+)"', client.get(link + "/board").text).group(1))


def words(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def move(client: TestClient, link: str, index: int) -> None:
    r = client.post(link + "/move", data={"index": str(index), "seen": str(seen(client, link))})
    assert r.status_code == 200, r.text


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite", ["tictactoe", "walls_and_wonders"])) as c:
        yield c


def test_two_people_take_back_a_move_when_the_other_agrees(client):
    links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="1")
    x, o = links["x"], links["o"]
    move(client, x, 4)  # x: b2
    move(client, o, 0)  # o: a1
    move(client, x, 0)
    at = seen(client, x)
    assert at == 3
    assert client.post(o + "/undo", data={"seen": "2"}).status_code == 409  # asked on an older position
    asked = client.post(o + "/undo", data={"seen": str(at)})
    assert (asked.status_code, asked.text) == (200, "asked")
    again = client.post(o + "/undo", data={"seen": str(at)})  # a double click: the same request
    assert (again.status_code, again.text) == (200, "asked")
    x_talk, o_talk, watching = (client.get(link + "/talk").text for link in (x, o, links["spectator"]))
    assert "Do you agree?" in x_talk and 'data-agree="yes"' in x_talk and f'data-step="{at}"' in x_talk
    assert "waiting for the others" in o_talk and 'data-agree="yes"' not in o_talk and "Withdraw" in o_talk
    assert "0 of 1 agreed" in watching and "data-agree" not in watching
    assert "o asks to take back o's last move (move 2) and the 1 move after it" in words(watching)
    assert "a1" not in x_talk + watching  # the move is named by its number: no label reaches another page
    assert client.post(links["spectator"] + "/vote", data={"agree": "yes", "seen": str(at)}).status_code == 403
    assert client.post(x + "/vote", data={"agree": "maybe", "seen": str(at)}).status_code == 400
    assert seen(client, x) == at  # nothing taken back before the vote
    done = client.post(x + "/vote", data={"agree": "yes", "seen": str(at)})
    assert (done.status_code, done.text) == (200, "taken back")
    assert client.post(x + "/vote", data={"agree": "yes", "seen": str(at)}).status_code == 409  # once
    board = client.get(o + "/board").text
    assert 'id="seen" value="4"' in board and "Your turn (o)" in board  # the step went on; o to move again
    assert client.get(x + "/board").text.count("data-move") == 0
    assert "taken back, every player agreeing" in words(client.get(x + "/talk").text)
    assert client.post(x + "/move", data={"index": "0", "seen": str(at)}).status_code == 409  # the old position
    move(client, o, 1)  # o plays again on the position taken back to
    story = client.get(links["spectator"] + "/board").text.split('id="log"')[1]
    assert re.findall(r"<div[^>]*>([^<]*)</div>", story) == ["x marks b2", "o marks b1"]  # a1 and c1 are gone


def test_a_refusal_or_a_move_during_the_vote_takes_nothing_back(client):
    links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="1")
    x, o = links["x"], links["o"]
    move(client, x, 4)
    at = seen(client, x)
    assert client.post(x + "/undo", data={"seen": str(at)}).text == "asked"
    assert client.post(o + "/vote", data={"agree": "no", "seen": str(at)}).text == "refused"
    assert seen(client, o) == at and "o refuses: no move is taken back" in words(client.get(x + "/talk").text)
    assert client.post(x + "/undo", data={"seen": str(at)}).text == "asked"
    move(client, o, 0)  # o plays instead of answering: the request was about the position before
    assert client.post(o + "/vote", data={"agree": "yes", "seen": str(at)}).status_code == 409
    talk = words(client.get(x + "/talk").text)
    assert "lapsed: a move was made" in talk and "Take back my last move" in client.get(x + "/talk").text
    assert seen(client, x) == at + 1
    assert client.post(x + "/undo", data={"seen": str(at + 1)}).text == "asked"
    assert client.post(x + "/vote", data={"agree": "no", "seen": str(at + 1)}).text == "refused"  # withdrawn
    assert "x withdraws" in words(client.get(o + "/talk").text)


def test_alone_with_an_ai_seat_a_move_is_taken_back_at_once(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite", ["tictactoe"], ai_threads=1)) as client:
        links = start(client, "tictactoe", seat_x="human", seat_o="first", seed="1")
        x = links["x"]
        move(client, x, 4)
        for _ in range(200):  # the AI's answer comes in the background
            if seen(client, x) == 2:
                break
            time.sleep(0.05)
        assert seen(client, x) == 2
        assert client.post(links["spectator"] + "/undo", data={"seen": "2"}).status_code == 403
        r = client.post(x + "/undo", data={"seen": "2"})
        assert (r.status_code, r.text) == (200, "taken back")
        board = client.get(x + "/board").text
        assert 'id="seen" value="3"' in board and "Your turn (x)" in board
        assert board.count('class="move"') == 9  # the empty board again: x's first decision
        assert client.post(x + "/undo", data={"seen": "3"}).status_code == 409  # no move of x's left


def test_a_seat_nobody_has_taken_has_no_say(client):
    """A human seat whose link was never opened (nobody sits there) is not asked."""
    r = client.post("/tables", data={"game": "tictactoe", "name": "Ada", "seat_x": "human", "seat_o": "human"})
    mine = re.search(r'class="your-seat" href="(/t/[^"]+)"', r.text).group(1)
    move(client, mine, 4)
    assert client.post(mine + "/undo", data={"seen": "1"}).text == "taken back"
    assert seen(client, mine) == 2


def test_a_seat_with_no_move_is_refused(client):
    links = start(client, "tictactoe", seat_x="human", seat_o="human", seed="1")
    r = client.post(links["o"] + "/undo", data={"seen": "0"})
    assert r.status_code == 409 and "no move to take back" in r.text
    assert client.post(links["o"] + "/undo", data={"seen": "zero"}).status_code == 400


# ---- nothing hidden shown --------------------------------------------------------------------

SECRETS = """
game secrets "Secrets" { players 2..2 seats [west, east] }
entity Card { rank: int }
card c1 "One" { rank 1 }
card c2 "Two" { rank 2 }
card c3 "Three" { rank 3 }
card c4 "Four" { rank 4 }
var hand: player -> list Card = [] seen by owner
var shown: list Card = []
var deck: list Card = [] seen by none
var score: player -> int = 0
procedure play() {
    rule "1 Each side is dealt a card; the rest is the deck"
    hand[west] = [c1]
    hand[east] = [c2]
    deck = [c3, c4]
    choose n from [1, 2] by west label "west adds {n}"
    score[west] += n
    choose n from [1, 2] by east label "east adds {n}"
    score[east] += n
    choose n from [1, 2] by west label "west adds {n} again"
    score[west] += n
    choose r from ["show", "keep"] by east label "east: {r}"
    if r == "show" {
        shown = hand[east]
        hand[east] = []
    }
    choose n from [1, 2] by west label "west adds {n} more"
    score[west] += n
    choose r from ["draw", "rest"] by west label "west: {r}"
    if r == "draw" {
        shuffle deck
    }
    choose n from [1, 2] by east label "east adds {n} more"
    game over best(players, p => score[p])
}
"""


def test_taking_back_never_shows_what_was_hidden(tmp_path):
    path = tmp_path / "secrets.game"
    path.write_text(SECRETS)
    store = SqliteStore(":memory:")
    tables = Tables(store)
    table = tables.create(str(path), 2, {"west": "human", "east": "first"}, seed=3)
    west = table.record.tokens["west"]

    def play(index: int) -> None:
        seat = table.state.pending.player
        tables.move(table, table.record.tokens[seat], index, table.step)

    play(0)  # west adds 1
    play(0)  # east adds 1
    with pytest.raises(WebError, match="only a person"):
        tables.undo(table, table.record.tokens["east"], table.step)  # an AI seat's link asks nothing
    assert tables.undo(table, west, table.step) == "taken back"  # nothing hidden was shown: at once
    assert len(table.moves) == 0 and table.state.pending.player == "west"
    for index in (0, 0, 0, 0):  # west, east, west; east shows the card from its hand
        play(index)
    with pytest.raises(WebError, match="something hidden from west was shown") as err:
        tables.undo(table, west, table.step)  # back before east's card came out of its hand
    assert err.value.status == 409 and len(table.moves) == 4
    play(0)  # west adds 1 more
    play(0)  # west draws: the deck is shuffled
    with pytest.raises(WebError, match="a card was drawn or a die rolled"):
        tables.undo(table, west, table.step)
    store.close()


def test_a_card_shown_from_the_askers_own_hand_may_be_taken_back(tmp_path):
    """What only the asker knew, the asker may show: east takes back showing its own card."""
    path = tmp_path / "secrets.game"
    path.write_text(SECRETS)
    store = SqliteStore(":memory:")
    tables = Tables(store)
    table = tables.create(str(path), 2, {"west": "first", "east": "human"}, seed=3)
    east = table.record.tokens["east"]
    for _ in range(4):
        tables.move(table, table.record.tokens[table.state.pending.player], 0, table.step)
    assert table.game.var(table.state, "shown") == ("c2",)
    assert tables.undo(table, east, table.step) == "taken back"
    assert len(table.moves) == 3 and table.game.var(table.state, "shown") == ()
    store.close()


def test_every_copy_in_memory_follows_a_take_back_made_elsewhere(tmp_path):
    """Two servers' copies of one table: a take-back through one is seen by the other's next
    request (the store's step), which replays only from where the moves differ."""
    db = tmp_path / "t.sqlite"
    store = SqliteStore(db)
    first, second = Tables(store), Tables(store)
    table = first.create("tictactoe", 2, {"x": "human", "o": "human"}, seed=1)
    tid, x, o = table.record.id, table.record.tokens["x"], table.record.tokens["o"]
    store.take_seat(tid, "x", "Ada")
    store.take_seat(tid, "o", "Grace")
    first.move(table, x, 0, 0)
    first.move(table, o, 0, 1)
    other = second.get(tid)
    kept = other.states[1]
    assert len(other.moves) == 2
    assert first.undo(table, o, 2) == "asked" and first.vote(table, x, True, 2) == "taken back"
    again = second.get(tid)
    assert again is other and len(other.moves) == 1 and other.step == 3 and other.states[1] is kept
    second.move(other, o, 3, 3)
    assert first.get(tid).moves == other.moves and table.step == 4
    store.close()


def test_the_shared_rules_run_on_a_file_store_too(tmp_path: Path):
    store = SqliteStore(tmp_path / "rules.sqlite")
    try:
        check_undo_store(store)
    finally:
        store.close()
