"""Views: how a game shows a position, declared in the game (`view { ... }`), and the
generic view that shows every variable when a game declares none."""

from __future__ import annotations

import textwrap

import pytest

from interpreter import GameDefError, load_game
from interpreter.runtime.render import render
from tests.twid_helpers import game as twid

INFLUENCE_TITLE = (
    "Influence (* the edge; (n on X's slot) extra tokens on another superpower's slot; "
    "[stability, C conflictive, oil]):"
)


GAME = """
game shown "A view" { players 2..2 seats [north, south] }
enum Colour { red "Red", blue "Blue" }
entity Piece {
    colour: Colour visible when face_up[self]
    short "{colour}"
}
card p1 "first piece" : Piece { colour red }
card p2 "second piece" : Piece { colour blue }
entity Town { region: Colour }
card york "York" : Town { region red }
card leeds "Leeds" : Town { region red }
card bath "Bath" : Town { region blue }
grid Cell 2 by 1
var on: Cell -> Piece? = none
var face_up: Piece -> bool = false
var deck: list Piece = [] seen by none
var hand: player -> list Piece = [] seen by owner
var troops: player -> Town -> int = 0
var score: player -> int = 0

def towns() = [t for t in members(Town) if troops[north][t] + troops[south][t] > 0]
VIEW
procedure setup() {
    rule "Setup"
    on[a1] = p1
    face_up[p1] = true
    deck = [p2]
    hand[north] = [p1]
    troops[north][york] = 2
    troops[south][bath] = 1
    score[south] = 3
}
procedure play() {
    rule "Play"
    choose x from [1, 2] by north
    game over []
}
"""

VIEW = """
view {
    text "Score: {score[north]} to {score[south]}; deck {count(deck)}"
    text "Your hand: {if viewer == none then [] else hand[viewer]}"
    grid on
    table "Troops" for t in towns() by t.region for p in players: troops[p][t]
    list "Pieces" for x in [p1, p2]: "{x} on the table"
}
"""


def load(tmp_path, view: str = VIEW, name: str = "shown.game"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(GAME.replace("VIEW", view)), encoding="utf-8")
    return load_game(path)


def test_a_declared_view_shows_text_grid_table_and_list_for_each_viewer(tmp_path):
    g = load(tmp_path)
    s = g.start(players=2)
    lines = render(g, s, "north").splitlines()
    assert lines[:2] == ["Score: 0 to 3; deck 1", "Your hand: Red"]  # a piece shows its short form
    assert lines[lines.index("Troops:") + 1].split() == ["north", "south"]
    assert [line.split() for line in lines[lines.index("Troops:") + 2 :][:4]] == [
        ["Red"],
        ["York", "2", "0"],
        ["Blue"],
        ["Bath", "0", "1"],
    ]
    # The second piece is face down: its colour is not shown, to anyone.
    assert lines[-2:] == ["    Red on the table", "    ? on the table"]
    assert render(g, s, "south").splitlines()[1] == "Your hand: none"
    assert render(g, s, None).splitlines()[1] == "Your hand: none"


@pytest.mark.parametrize(
    ("view", "message"),
    [
        ('view {\n    text "{deck}"\n}', "the view reads 'deck', which nobody may see"),
        ('view {\n    text "{hand[north]}"\n}', "the view reads 'hand', which only its owner may see"),
        (
            'def secret() = count([x for x in deck if face_up[x]])\nview {\n    text "{secret()}"\n}',
            "the view reads 'deck' (through 'secret'), which nobody may see",
        ),
        (
            'def mine(p: player?) = if p == none then [] else hand[p]\nview {\n    text "{mine(viewer)}"\n}',
            "the view reads 'hand' (through 'mine'), which only its owner may see",
        ),
        ('view {\n    list "L" for x in deck: "{x}"\n}', "the view reads 'deck'"),
        ("view {\n    grid nowhere\n}", "unknown variable 'nowhere'"),
        ('view {\n    text "{nothing}"\n}', "unknown name 'nothing'"),
    ],
)
def test_a_view_that_would_show_a_secret_or_names_nothing_is_refused(tmp_path, view, message):
    with pytest.raises(GameDefError) as info:
        load(tmp_path, view)
    text = info.value.render()
    assert message in text and "shown.game:" in text, text


def test_a_list_or_table_with_when_is_shown_only_when_it_holds(tmp_path):
    view = """view {
    list "Pieces" for x in [p1, p2]: "{x}" when viewer != none
    table "Troops" for t in members(Town) for p in players: troops[p][t] when viewer == none
}"""
    g = load(tmp_path, view)
    s = g.start(players=2)
    seated, spectator = render(g, s, "north").splitlines(), render(g, s, None).splitlines()
    assert "Pieces:" in seated and "Troops:" not in seated
    assert "Troops:" in spectator and "Pieces:" not in spectator
    with pytest.raises(GameDefError, match="the view reads 'deck'"):
        load(tmp_path, 'view {\n    list "L" for x in [p1]: "{x}" when count(deck) > 0 and deck[0] == p1\n}')


def test_a_view_may_tell_whether_a_hidden_slot_holds_a_card_but_not_which(tmp_path):
    extra = "var chosen: player -> Piece? = none seen by owner\n"
    view = 'view {\n    list "Chosen" for p in players: "{p}: {if chosen[p] != none then 1 else 0} face down"\n}'
    g = load(tmp_path, extra + view)
    assert render(g, g.start(players=2), None).splitlines() == [
        "Chosen:",
        "    north: 0 face down",
        "    south: 0 face down",
    ]
    with pytest.raises(GameDefError, match="the view reads 'chosen'"):
        load(tmp_path, extra + 'view {\n    text "{chosen[north] == p1}"\n}')


def test_a_game_has_one_view(tmp_path):
    with pytest.raises(GameDefError, match="a game has one view"):
        load(tmp_path, 'view {\n    text "a"\n}\nview {\n    text "b"\n}')


def test_without_a_view_every_variable_is_shown_whatever_its_keys(tmp_path):
    g = load(tmp_path, "")
    lines = render(g, g.start(players=2), None).splitlines()
    # A face-down piece's own entries are not shown to a spectator.
    assert "face_up: first piece=yes, second piece=(1 hidden)" in lines
    assert "troops: north=York=2, Leeds=0, Bath=0, south=York=0, Leeds=0, Bath=1" in lines
    assert "deck: (1 hidden)" in lines


def test_the_wall_is_down_shows_its_board_tracks_and_each_players_own_hand():
    g = twid()
    s = g.start(players=4, seed=2)
    us = render(g, s, "us").splitlines()
    eu = render(g, s, "eu").splitlines()
    assert us[0] == "Round 1 of 8, pre 9/11; the headers are not ranked yet"
    table = us[us.index(INFLUENCE_TITLE) :]
    assert table[1].split() == ["US", "EU", "Russia", "China"]
    germany = next(line for line in table if line.strip().startswith("Germany"))
    assert germany.split() == ["Germany", "[4]", "1", "2*"]  # stability 4; the EU has the edge
    first = g.compiled.rt.display(g.var(s, "hand")["us"][0])
    assert any(line.startswith(f"    {first}") for line in us) and not any(
        line.startswith(f"    {first}") for line in eu
    )
    assert "    US: 4" in us[us.index("Cards in hand:") :]
    assert us[-1] == "Deck: 30 cards; discard pile: 0; removed: 0"


def test_a_text_with_when_is_shown_only_when_it_holds_so_a_spectator_sees_no_hand(tmp_path):
    hand_line = '"Your hand: {if viewer == none then [] else hand[viewer]}"'
    g = load(tmp_path, VIEW.replace(hand_line, '"Your hand: {hand[viewer]}" when viewer != none'))
    s = g.start(players=2)
    assert render(g, s, "north").splitlines()[1] == "Your hand: Red"
    assert not any(line.startswith("Your hand") for line in render(g, s, None).splitlines())
    with pytest.raises(GameDefError, match="a view item's `when` must be"):
        load(tmp_path, VIEW.replace(hand_line, '"Your hand: {hand[viewer]}" when 3'))
    with pytest.raises(GameDefError, match="the view reads 'deck', which nobody may see"):
        load(tmp_path, VIEW.replace(hand_line, '"x" when count([d for d in deck if face_up[d]]) > 0'))


def test_a_seat_title_is_how_narration_views_and_results_write_the_seat(tmp_path, capsys):
    from interpreter.cli.commands import main

    text = GAME.replace("seats [north, south]", 'seats [north "The North", south]').replace("VIEW", "")
    text = text.replace(
        "    choose x from [1, 2] by north\n",
        '    log "{north} and {south} look"\n    choose x from [1, 2] by north\n    win [north]\n',
    )
    path = tmp_path / "titled.game"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    g = load_game(path)
    s = g.start(players=2)
    assert g.narrate(s) == ["The North and south look"]
    assert g.seat_title("north") == "The North" and g.seat_title("south") == "south"
    assert g.labels(s) == ["1", "2"] and s.pending.player == "north"  # moves keep the name
    assert main(["run", str(path), "--agent", "THE NORTH=first"]) == 0
    out = capsys.readouterr().out
    assert "== A view: The North, south; seed 1" in out and "The North wins" in out


def test_a_list_line_keeps_the_leading_spaces_a_def_gives_it_so_rows_can_be_offset(tmp_path):
    """A list's lines are written as their text says, leading spaces included: a game draws
    rows offset from one another (Walls and Wonders' Wonder pyramid) with a def that pads them."""
    view = """def pad(k: int) = ["", "  ", "    "][k - 1]
view {
    list "Stack" for k in [3, 2, 1]: "row {k} {pad(k)}{troops[north][york]}"
}"""
    g = load(tmp_path, view)
    lines = render(g, g.start(players=2), None).splitlines()
    assert lines == ["Stack:", "    row 3     2", "    row 2   2", "    row 1 2"]
