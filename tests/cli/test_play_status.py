"""The status line beside `gamedef play`'s prompt, declared by each game (`status` items of
its view, docs/language.md §3.18): what it shows, that it fits 80 columns, that a seat
never reads another's secret in it, and that nothing is guessed from variable names."""

from __future__ import annotations

import random
import re
import textwrap

import pytest
from repo_paths import ROOT

from interpreter import GameDefError, load_game
from interpreter.cli.human import HumanAgent, status_line
from interpreter.runtime.render import render, status_text
from interpreter.runtime.resample import resample

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # The longest game's case (the six other games stay).
    r"test_a_seat_s_status_is_the_same_whatever_the_others_secrets\[downfall_of_empires\]",
]

WIDTH = 79  # an 80-column terminal, its last column left free

# Every bundled game and example, with the player counts its status is checked at (the
# most seats: the longest lists of scores).
GAMES = [
    ("twid", 4),
    ("twid", 2),
    ("twid", 1),
    ("downfall_of_empires", 4),
    ("downfall_of_empires", 2),
    ("berlin_wall", 4),
    ("walls_and_wonders", 5),
    ("walls_and_wonders", 8),
    ("missiles_now", 4),
    ("missiles_now", 6),
    ("examples/tictactoe.game", 2),
    ("examples/kuhn_poker.game", 2),
]


def _path(name: str) -> str:
    return str(ROOT / name) if name.startswith("examples/") else name


def _playout(name: str, players: int, steps: int, seed: int = 1):
    """The positions of a random game: its first `steps` (the start included)."""
    game = load_game(_path(name))
    state = game.start(players=players, seed=seed)
    rng = random.Random(seed)
    states = [state]
    while not game.is_over(state) and len(states) < steps:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    return game, states


@pytest.mark.parametrize(("name", "players"), GAMES, ids=[f"{n.split('/')[-1]}-{p}" for n, p in GAMES])
def test_every_game_declares_a_status_that_fits_80_columns(name, players):
    """Every bundled game declares its status, and for every seat of a random game's
    positions it is within 79 columns whole (status_line never has to cut it)."""
    game, states = _playout(name, players, 400)
    for state in states[::3] + states[-1:]:
        for seat in state.players:
            text = status_text(game, state, seat)
            assert text, (name, seat)
            assert len(text) <= WIDTH, (name, seat, len(text), text)
            assert status_line(game, state, seat) == text


def test_the_wall_is_down_status_has_round_phase_each_side_s_vp_and_own_hand():
    """The Wall is Down, 5. Rounds and 6.1 Header phase: the round, the phase, every
    superpower's VP and the size of one's own hand (never its cards: one line)."""
    game, states = _playout("twid", 4, 1)
    state = states[0]
    hands = game.var(state, "hand")
    line = status_line(game, state, "us")
    assert line == f"round 1/8, headers | VP US 0, EU 0, Russia 0, China 0 | your hand {len(hands['us'])}"
    assert status_line(game, state, "eu").endswith(f"your hand {len(hands['eu'])}")
    for card in hands["us"]:
        assert game.compiled.rt.display(card) not in line


def test_the_wall_is_down_status_shows_the_vp_as_they_change():
    """1. Goal: the VP track of each superpower, as it stands after each move."""
    game, states = _playout("twid", 2, 400, seed=3)
    changed = [s for s in states if any(game.var(s, "vp").values())]
    assert changed, "no VP scored in 400 random moves"
    state = changed[-1]
    vp = game.var(state, "vp")
    assert f"VP West {vp['west']}, East {vp['east']}" in status_line(game, state, "west")


def test_downfall_of_empires_status_has_the_turn_the_power_to_play_and_each_power_s_vp():
    """Downfall of Empires, 4. Powers and 5. Victory points: the turn and its season, the
    Power whose turn it is, and each Power's VP if the game ended now."""
    game, states = _playout("downfall_of_empires", 4, 60)
    state = states[-1]
    playing = game.var(state, "playing")
    line = status_line(game, state, "german")
    title = game.compiled.rt.display(playing)
    assert re.fullmatch(
        rf"turn \d+/18 (Summer|Autumn|Winter|Spring) 19\d\d \| {title} play \| VP GE \S+ FB \S+ RU \S+ AH \S+", line
    ), line
    assert line.startswith(f"turn {game.var(state, 'turn')}/18 ")


def test_a_game_without_a_status_says_whose_turn_and_guesses_nothing(tmp_path):
    """No guessing from variable names: a game whose vars are called `round`, `vp` and
    `hand` but that declares no status gets whose turn it is, nothing else."""
    path = tmp_path / "plain.game"
    path.write_text(
        textwrap.dedent(
            """
            game plain "Plain" { players 2..2 seats [north "North", south "South"] }
            var round: int = 3
            var vp: player -> int = 2
            var hand: player -> list int = [7] seen by owner
            procedure play() {
                rule "Play: north says yes or no"
                choose x from [1, 2] by north
                game over []
            }
            """
        ),
        encoding="utf-8",
    )
    game = load_game(path)
    state = game.start(players=2, seed=1)
    assert status_text(game, state, "north") is None
    assert status_line(game, state, "north") == "your turn"
    assert status_line(game, state, "south") == "North to play"


STATUS_GAME = """
game shown "A status" { players 2..2 seats [north "North", south "South"] }
var lap: int = 2
var score: player -> int = 0
var hand: player -> list int = [] seen by owner
var deck: list int = [5, 6] seen by none
def score_entry(p: player) = "{p} {score[p]}"
procedure setup() {
    rule "Setup"
    hand[north] = [1, 2]
    hand[south] = [3]
    score[south] = 4
}
procedure play() {
    rule "Play"
    choose x from [1, 2] by north
    game over []
}
VIEW
"""


def _status_game(tmp_path, view: str):
    path = tmp_path / "shown.game"
    path.write_text(textwrap.dedent(STATUS_GAME.replace("VIEW", view)), encoding="utf-8")
    return load_game(path)


def test_status_items_are_the_status_line_not_lines_of_the_view(tmp_path):
    """Only the parts whose `when` holds, joined by ` | `; none of them in the view."""
    game = _status_game(
        tmp_path,
        """view {
    text "Lap {lap}"
    status "lap {lap}"
    status "score {[score_entry(p) for p in players]}"
    status "your cards {hand[viewer]}" when viewer != none
    status "deck {count(deck)}" when lap > 5
}""",
    )
    state = game.start(players=2)
    assert status_line(game, state, "north") == "lap 2 | score North 0, South 4 | your cards 1, 2"
    assert status_line(game, state, "south") == "lap 2 | score North 0, South 4 | your cards 3"
    assert status_text(game, state, None) == "lap 2 | score North 0, South 4"
    assert render(game, state, "north") == "Lap 2"


def test_a_view_of_status_items_only_leaves_the_view_to_the_generic_one(tmp_path):
    game = _status_game(tmp_path, 'view {\n    status "lap {lap}"\n}')
    state = game.start(players=2)
    assert "lap: 2" in render(game, state, "north").splitlines()
    assert status_line(game, state, "north") == "lap 2"


@pytest.mark.parametrize(
    ("view", "message"),
    [
        ('view {\n    status "{hand[south]}"\n}', "the view reads 'hand', which only its owner may see"),
        ('view {\n    status "{deck}"\n}', "the view reads 'deck', which nobody may see"),
        ('view {\n    status "lap" when first(deck) == 5\n}', "the view reads 'deck', which nobody may see"),
    ],
)
def test_a_status_that_would_show_a_secret_is_refused_with_its_position(tmp_path, view, message):
    """11. Hidden information: a status is held to a view's rules."""
    with pytest.raises(GameDefError) as info:
        _status_game(tmp_path, view)
    text = info.value.render()
    assert message in text and "shown.game:" in text, text


def test_a_status_longer_than_the_line_is_cut_and_marked(tmp_path):
    game = _status_game(tmp_path, 'view {\n    status "lap {lap} ' + "x" * 100 + '"\n}')
    line = status_line(game, game.start(players=2), "north")
    assert len(line) == WIDTH and line.endswith("…")


@pytest.mark.parametrize(
    ("name", "players", "steps", "chance"),
    [
        ("twid", 4, 60, False),
        ("examples/kuhn_poker.game", 2, 1, False),
        ("walls_and_wonders", 3, 60, False),
        ("downfall_of_empires", 4, 40, True),
    ],
    ids=["twid", "kuhn_poker", "walls_and_wonders", "downfall_of_empires"],
)
def test_a_seat_s_status_is_the_same_whatever_the_others_secrets(name, players, steps, chance):
    """11. Hidden information: the others' hands, the deck and secret research redrawn
    (runtime/resample.py: a position the seat cannot tell from this one) leave the seat's
    status as it was, so it tells nothing of them."""
    game = load_game(_path(name), chance=chance)
    state = game.start(players=players, seed=2)
    rng = random.Random(2)
    for _ in range(steps):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    redrawn = 0
    for seat in state.players:
        for k in range(2):
            other = resample(game, state, seat, random.Random(k))
            redrawn += other.vars != state.vars
            assert status_text(game, other, seat) == status_text(game, state, seat), seat
    assert redrawn, "nothing was redrawn: the test would show nothing"


def test_kuhn_poker_status_shows_one_s_own_card_only():
    """Kuhn poker: each player sees only their own card (the status says which)."""
    game, states = _playout("examples/kuhn_poker.game", 2, 1)
    state = states[0]
    hands = game.var(state, "hand")
    for seat, other in (("p1", "p2"), ("p2", "p1")):
        line = status_line(game, state, seat)
        mine = game.compiled.rt.display(hands[seat][0])
        theirs = game.compiled.rt.display(hands[other][0])
        assert line.endswith(f"your card {mine}") and theirs not in line


def test_the_compact_screen_shows_the_game_s_status():
    """At a terminal the status stands where the view was (it was 50-118 lines)."""
    game, states = _playout("downfall_of_empires", 4, 1)
    shown: list[str] = []
    human = HumanAgent("german", ask=lambda prompt: "1", say=shown.append, compact=True)
    human.choose(game, states[0])
    assert shown[0] == status_line(game, states[0], "german")
    assert shown[0].startswith("turn 1/18 Summer 1914 | Germans play | VP GE ")


def test_the_documented_status_example_reads_as_the_reference_says(tmp_path):
    """docs/language.md §3.18's status example: North's line at the start, and a
    spectator's, as the text after it says."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    block = re.search(r'```game\n(game race "A status line".*?)```', text, re.S)
    assert block is not None
    said = re.search(r"At the start North's status line reads `([^`]*)`", text)
    assert said is not None
    path = tmp_path / "race.game"
    path.write_text(block.group(1), encoding="utf-8")
    game = load_game(path)
    state = game.start(players=2, seed=1)
    assert status_line(game, state, "north") == said.group(1)
    assert status_text(game, state, None) == "lap 1 of 3 | score North 0, South 0"
    state = game.apply(state, "draw")
    assert status_line(game, state, "north").endswith("your hand 1")
    assert status_line(game, state, "south").endswith("your hand 0")


def test_the_web_table_shows_the_status_above_the_view(tmp_path):
    """The browser table's view of a seat starts with the same status line as `play`'s."""
    from interpreter.web.board import draw

    game = _status_game(
        tmp_path,
        'view {\n    text "Lap {lap}"\n    status "lap {lap}"\n'
        '    status "your cards {hand[viewer]}" when viewer != none\n}',
    )
    state = game.start(players=2)
    assert draw(game, state, "south", []).parts[:2] == [
        '<pre class="view" tabindex="0">lap 2 | your cards 3</pre>',
        '<pre class="view" tabindex="0">Lap 2</pre>',
    ]
    assert draw(game, state, None, []).parts[:2] == [
        '<pre class="view" tabindex="0">lap 2</pre>',
        '<pre class="view" tabindex="0">Lap 2</pre>',
    ]


def test_status_is_a_keyword_only_in_a_view_so_a_variable_may_be_called_so(tmp_path):
    """Downfall of Empires' setup table has a column `status`: the word stays a name outside a view."""
    path = tmp_path / "named.game"
    path.write_text(
        textwrap.dedent(
            """
            game named "Named" { players 2..2 seats [a, b] }
            var status: int = 0
            view {
                text "status {status}"
                status "s {status}"
            }
            procedure play() {
                rule "Play"
                status = 2
                choose x from [1, 2] by a label "{x} {status}"
                game over []
            }
            """
        ),
        encoding="utf-8",
    )
    game = load_game(path)
    state = game.start(players=2)
    assert render(game, state, "a") == "status 2" and status_line(game, state, "a") == "s 2"


def test_the_widest_statuses_still_fit_80_columns():
    """The longest numbers a status can show: Berlin Wall's four players one piece short of
    twelve after a roll of 6 (Object); The Wall is Down's four superpowers at 10 VP or more
    in the last action phase of the last round (1. Goal, 5. Rounds)."""
    game = load_game("berlin_wall")
    state = game.start(players=4, seed=1)
    pieces = list(game.compiled.types["Piece"])[:44]
    state = game.with_var(state, "collected", {p: pieces[11 * i : 11 * (i + 1)] for i, p in enumerate(state.players)})
    state = game.with_var(state, "move_roll", 6)
    state = game.with_var(state, "match_roll", 6)
    line = status_text(game, state, "red")
    assert line == "12 pieces win: red 11, black 11, green 11, blue 11 | die: move 6, collect a 6"
    assert len(line) <= WIDTH
    game = load_game("twid")
    state = game.start(players=4, seed=1)
    state = game.with_var(state, "vp", {"us": 12, "eu": 11, "russia": 13, "china": 10})
    state = game.with_var(state, "round", 8)
    state = game.with_var(state, "action_phase", 2)
    state = game.with_var(state, "hand", {p: game.var(state, "deck")[:9] for p in state.players})
    line = status_text(game, state, "us")
    assert line == "round 8/8, action 2/2 | VP US 12, EU 11, Russia 13, China 10 | your hand 9"
    assert len(line) <= WIDTH
