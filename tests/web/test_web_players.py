"""The web table for players (docs/web.md, The lobby; Playing together): a table started
from the lobby by name offers its free seats to strangers, who join by name; the seats'
names, the chat and a rematch; card texts where a card is named; the replay after the
game; the game's variants and options as the form's controls."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import create_app  # noqa: E402


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite", ["tictactoe", "twid", "walls_and_wonders"])) as c:
        yield c


def text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_a_stranger_joins_a_free_seat_from_the_lobby_by_name(client):
    r = client.post(
        "/tables", data={"game": "tictactoe", "name": "Ada", "seat_x": "human", "seat_o": "human", "listed": "on"}
    )
    assert r.status_code == 200
    mine = re.search(r'class="your-seat" href="(/t/[^"]+)"', r.text).group(1)
    table_id = mine.split("/")[2]
    lobby = client.get("/").text
    assert f'action="/t/{table_id}/join"' in lobby and "x: Ada" in text(lobby) and "o: free" in text(lobby)
    joined = client.post(f"/t/{table_id}/join", data={"seat": "o", "name": "Grace"}, follow_redirects=False)
    assert joined.status_code == 303
    link = joined.headers["location"]
    assert link.startswith(f"/t/{table_id}/") and link != mine
    assert "Your turn" not in client.get(link + "/board").text and "Your turn (x)" in client.get(mine + "/board").text
    assert f'action="/t/{table_id}/join"' not in client.get("/").text  # no free seat: no longer offered
    again = client.post(f"/t/{table_id}/join", data={"seat": "o", "name": "Eve"})
    assert again.status_code == 409  # taken
    players = text(client.get(mine + "/talk").text)
    assert "x: Ada" in players and "o: Grace" in players and "Grace takes o" in players
    assert client.post(f"/t/{table_id}/join", data={"seat": "x", "name": ""}).status_code == 400


def test_a_table_not_listed_is_not_in_the_lobby_and_an_opened_link_takes_its_seat(client):
    r = client.post("/tables", data={"game": "tictactoe", "seat_x": "human", "seat_o": "human"})
    table_id = re.search(r'data-seat="x" href="/t/([^/]+)/', r.text).group(1)
    assert table_id not in client.get("/").text
    r = client.post("/tables", data={"game": "tictactoe", "name": "Ada", "seat_o": "human", "listed": "on"})
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    table_id = links["o"].split("/")[2]
    assert f'action="/t/{table_id}/join"' in client.get("/").text
    client.get(links["o"])  # the creator handed o's link to a friend, who opened it
    assert f'action="/t/{table_id}/join"' not in client.get("/").text


def test_seats_chat_and_spectators_read(client):
    r = client.post("/tables", data={"game": "tictactoe", "name": "Ada", "seat_o": "human"})
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    spectator = re.search(r'class="spectator-link" href="(/t/[^"]+)"', r.text).group(1)
    assert client.post(links["x"] + "/chat", data={"text": "  good <b>luck</b>  "}).text == "1"
    assert client.post(spectator + "/chat", data={"text": "hi"}).status_code == 403
    assert client.post(links["o"] + "/chat", data={"text": "x" * 301}).status_code == 400
    talk = client.get(spectator + "/talk").text
    assert "good &lt;b&gt;luck&lt;/b&gt;" in talk and "<b>luck" not in talk  # escaped: a line is text
    with client.stream("GET", links["o"] + "/events") as events:
        lines = []
        for line in events.iter_lines():
            lines.append(line)
            if line.startswith("data: 0"):
                break
    assert "data: 0" in lines


def test_the_end_offers_a_replay_and_a_rematch_for_the_same_people(client):
    r = client.post("/tables", data={"game": "tictactoe", "name": "Ada", "seat_o": "human", "seed": "3"})
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    assert client.get(links["x"] + "/replay").status_code == 409  # not while the game is on
    assert client.post(links["x"] + "/rematch").status_code == 409
    n = 0
    while "Game over" not in client.get(links["x"] + "/board").text:
        mover = links["x"] if n % 2 == 0 else links["o"]
        assert client.post(mover + "/move", data={"index": "0", "seen": str(n)}).status_code == 200
        n += 1
    board = client.get(links["o"] + "/board").text
    assert 'class="end"' in board and "The game is over" in board
    first = client.get(links["x"] + "/replay?step=0").text
    last = client.get(links["x"] + f"/replay?step={n}").text
    assert f"after move 0 of {n}" in first and f"after move {n} of {n}" in last and first != last
    assert client.get(links["x"] + "/replay?step=nonsense").status_code == 400
    again = client.post(links["x"] + "/rematch", follow_redirects=False)
    assert again.status_code == 303
    new_x = again.headers["location"]
    new_o = client.post(links["o"] + "/rematch", follow_redirects=False).headers["location"]
    assert new_x.split("/")[2] == new_o.split("/")[2] != links["x"].split("/")[2]  # one rematch for both
    assert new_x != new_o and "Your turn (x)" in client.get(new_x + "/board").text
    assert "x: Ada" in text(client.get(new_o + "/talk").text)  # the same people in the same seats


def test_a_cards_printed_text_is_on_the_page_where_it_is_named(client):
    """The Wall is Down: a header button names a card; its tooltip is the card's text, and
    the card's name in the seat's view carries the text (hover, focus, tap)."""
    r = client.post("/tables", data={"game": "twid", "players": "2", "seat_west": "human", "seat_east": "human"})
    links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
    board = client.get(links["west"] + "/board").text
    buttons = re.findall(r'<button class="move" data-move="\d+" title="([^"]*)">header: ([^<]*)</button>', board)
    assert buttons, "no header button carries its card's text"
    about, card = html.unescape(buttons[0][0]), html.unescape(buttons[0][1])
    assert about.startswith(card + ": ") and len(about) > len(card) + 10
    assert re.search(
        r'<span class="card" tabindex="0" title="[^"]+">' + re.escape(html.escape(card)) + "</span>", board
    )


def test_the_new_table_form_draws_variants_and_options_from_the_games_declarations(client):
    form = client.get("/new/walls_and_wonders").text
    assert 'name="variant" value="hidden_victory"' in form and 'data-excludes="suit_victory every_victory"' in form
    assert re.search(r'<select name="option_victory">.*?construction', form, re.S)
    twid = client.get("/new/twid").text
    assert 'type="checkbox" name="option_promos" value="true"' in twid
    r = client.post(
        "/tables",
        data={
            "game": "walls_and_wonders",
            "seat_p1": "human",
            "variant": "hidden_victory",
            "option_victory": "attrition",
        },
    )
    table = client.app.state.tables.get(re.search(r'data-seat="p1" href="/t/([^/]+)/', r.text).group(1))
    assert table.record.variants == ("hidden_victory",)
    r = client.post("/tables", data={"game": "walls_and_wonders", "seat_p1": "human", "option_victory": "attrition"})
    table = client.app.state.tables.get(re.search(r'data-seat="p1" href="/t/([^/]+)/', r.text).group(1))
    assert table.record.options == {"victory": "attrition"}


def test_a_creator_with_a_name_plays_the_first_seat_in_play_when_the_form_made_none_a_persons(client):
    """The Wall is Down: the form's first seat is the solo player's, not in play at 2; the
    two seats in play were left to the computer: the creator takes West, not a refusal."""
    r = client.post(
        "/tables",
        data={
            "game": "twid",
            "players": "2",
            "name": "Ada",
            "seat_solo": "human",
            "seat_west": "random",
            "seat_east": "random",
        },
    )
    assert r.status_code == 200, r.text
    table = client.app.state.tables.get(re.search(r'href="/t/([^/]+)/', r.text).group(1))
    assert table.record.agents == {"west": "human", "east": "random"}
    r = client.post("/tables", data={"game": "tictactoe", "seat_x": "random", "seat_o": "random"})
    assert r.status_code == 400  # with no name, no one plays: refused


CARD_ASKS = """
game cardask "Card asks" { players 2..2 seats [west, east] }
enum Country { france "France", spain "Spain" }
var influence: Country -> int = 0
card truman "Truman Doctrine" {
    text "Remove all the influence in one country."
    effect {
        rule "Card 19: remove all influence in a country"
        choose c from [france, spain] by west prompt "choose a country" label "clear {c}"
        influence[c] = 0
        choose n from [1, 2] by east prompt "Truman Doctrine: east adds how much?" label "add {n}"
    }
}
procedure play() {
    rule "1 East places influence, then West plays Truman Doctrine"
    choose c from [france, spain] by east prompt "choose a country" label "influence in {c}"
    influence[c] += 1
    perform truman.effect()
    game over [west]
}
"""


def test_a_choice_made_while_a_card_is_carried_out_names_the_card(tmp_path):
    """The issue's own words: a choice's prompt names the card it is about, at the web table
    and in the terminal alike, from where the engine stands (no prompt of the game's own
    changed); a prompt naming the card already is not named twice, and one asked outside
    every card is as the game wrote it."""
    from interpreter.cli.human import HumanAgent
    from interpreter.runtime.load import load_game

    path = tmp_path / "cardask.game"
    path.write_text(CARD_ASKS)
    game = load_game(path)
    state = game.start(players=2, seed=1)
    assert (game.question(state), game.card_in_play(state)) == ("choose a country", None)
    state = game.apply(state, "influence in France")
    assert game.prompt(state) == "choose a country" and game.question(state) == "Truman Doctrine: choose a country"
    said: list[str] = []
    HumanAgent("west", ask=lambda _: "clear France", say=said.append).choose(game, state)
    assert "\nwest, Truman Doctrine: choose a country:" in said
    later = game.apply(state, "clear France")
    assert game.question(later) == "Truman Doctrine: east adds how much?"  # named once
    with TestClient(create_app(tmp_path / "t.sqlite", [str(path)])) as client:
        r = client.post("/tables", data={"game": str(path), "seat_west": "human", "seat_east": "human"})
        links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
        client.post(links["east"] + "/move", data={"index": "0", "seen": "0"})
        board = client.get(links["west"] + "/board").text
        prompt = text(re.search(r'<p class="prompt">(.*?)</p>', board, re.S).group(1))
        assert prompt == "Truman Doctrine: choose a country"
        assert [text(b) for b in re.findall(r'<button class="move"[^>]*>(.*?)</button>', board)] == [
            "clear France",
            "clear Spain",
        ]


OPS_ASK = """
game opsask "Operations" { players 2..2 seats [west, east] }
enum Country { france "France", spain "Spain" }
var influence: Country -> int = 0
card truman "Truman Doctrine" {
    text "Remove all the influence in one country."
    effect { rule "Card 19" influence[france] = 0 }
}
procedure operations(p: player, c: Card) {
    rule "Operations: a card played for its operations places one influence"
    choose x from [france, spain] by p prompt "{p}: place 1 influence" label "influence in {x}"
    influence[x] += 1
}
procedure play() {
    rule "1 West plays Truman Doctrine for its operations"
    operations(west, truman)
    game over [west]
}
"""


def test_a_choice_after_a_card_was_played_for_its_operations_does_not_name_it(tmp_path):
    """A card given to a procedure that has returned is no longer what a choice is about:
    the next turn's question is not headed by it (a procedure the compiler inlined keeps
    its locals after it returns, so the engine names only a card its running text holds)."""
    from interpreter.runtime.load import load_game

    path = tmp_path / "opsask.game"
    path.write_text(
        OPS_ASK.replace(
            "    game over [west]",
            '    choose y from [1, 2] by east prompt "next turn" label "{y}"\n    game over [west]',
        )
    )
    game = load_game(path)
    state = game.apply(game.start(players=2, seed=1), "influence in France")
    assert game.prompt(state) == "next turn" and game.question(state) == "next turn"


@pytest.mark.parametrize("optimise", [True, False], ids=["inlined", "plain"])
def test_a_card_played_for_its_operations_heads_their_prompt_at_the_table_and_then_no_more(tmp_path, optimise):
    """The issue's words, "a choice's prompt names the card it is about", for a card played
    for its operations: the operations' prompt is headed by the card, on the web page as
    in the engine, whether the compiler wrote the procedure in place or not; the next
    turn's prompt, after the procedure has returned, is headed by no card."""
    from interpreter.runtime.load import load_game

    path = tmp_path / "opsask.game"
    path.write_text(
        OPS_ASK.replace(
            "    game over [west]",
            '    choose y from [1, 2] by east prompt "next turn" label "{y}"\n    game over [west]',
        )
    )
    game = load_game(path, optimise=optimise)
    state = game.start(players=2, seed=1)
    assert game.question(state) == "Truman Doctrine: west: place 1 influence"
    later = game.apply(state, "influence in France")
    assert game.card_in_play(later) is None and game.question(later) == "next turn"
    if not optimise:
        return  # the web table loads the game as `gamedef serve` does
    with TestClient(create_app(tmp_path / "t.sqlite", [str(path)])) as client:
        r = client.post("/tables", data={"game": str(path), "seat_west": "human", "seat_east": "human"})
        links = dict(re.findall(r'data-seat="(\w+)" href="(/t/[^"]+)"', r.text))
        board = client.get(links["west"] + "/board").text
        prompt = text(re.search(r'<p class="prompt">(.*?)</p>', board, re.S).group(1))
        assert prompt == "Truman Doctrine: west: place 1 influence"
        client.post(links["west"] + "/move", data={"index": "0", "seen": "0"})
        board = client.get(links["east"] + "/board").text
        prompt = text(re.search(r'<p class="prompt">(.*?)</p>', board, re.S).group(1))
        assert prompt == "next turn"


HIDDEN_CARD = """
game hiddencard "Hidden card" { players 2..2 seats [west, east] }
card trap "Trap" {
    text "The other side chooses a number."
    effect {
        rule "Trap"
        choose n from [1, 2] by west prompt "choose a number" label "{n}"
    }
}
var hand: player -> list Card = [] seen by owner
procedure play() {
    rule "1 The trap is in HOLDER's hand, face down, while its text is carried out"
    hand[HOLDER] = [trap]
    perform trap.effect()
    game over [west]
}
"""


@pytest.mark.parametrize(("holder", "question"), [("east", "choose a number"), ("west", "Trap: choose a number")])
def test_a_card_hidden_from_the_seat_deciding_is_not_named_to_it(tmp_path, holder, question):
    from interpreter.runtime.load import load_game

    path = tmp_path / "hiddencard.game"
    path.write_text(HIDDEN_CARD.replace("HOLDER", holder))
    game = load_game(path)
    state = game.start(players=2, seed=1)
    assert state.pending.player == "west" and game.question(state) == question


def test_a_variant_or_option_the_game_cannot_take_is_refused_in_the_forms_words(client):
    """The form's settings refused as the page offers them, not as a command line's flags."""
    base = {"game": "walls_and_wonders", "seat_p1": "human"}
    r = client.post("/tables", data={**base, "variant": "hiden_victory"})
    assert r.status_code == 400 and r.text == "unknown variant 'hiden_victory': did you mean 'hidden_victory'?"
    r = client.post("/tables", data={**base, "options": "victry=attrition"})
    assert r.status_code == 400 and r.text.startswith("unknown option 'victry': did you mean 'victory'?"), r.text
    assert "--" not in r.text
