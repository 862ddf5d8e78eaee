"""Berlin Wall, base game: what a seat is told and shown, which the game's own test language
cannot read (the rules themselves are tested in gamedefs/berlin_wall.test.game,
`gamedef test berlin_wall`): the questions asked, the narration in its order, the view.

Each test names the rulebook section it shows in its docstring. Dice are pinned
(`pins`: the rolls for first player, then each turn's roll) and positions are set up
with `with_var`.
"""

from __future__ import annotations

import pytest
from bw_helpers import (
    begin,
    clear,
    game,
    give,
    is_step,
    put,
    walk,
)


@pytest.fixture(scope="module")
def g():
    return game()


# ---- across games: a test of the language has a single start --------------------------------
def test_another_seed_lays_another_wall(g):
    """Setup (interpretation in berlin_wall.game: the pieces are dealt at random): two seeds lay
    two walls. A test in the game's language starts one game, so this comparison stays here."""
    assert g.var(g.start(players=2, seed=11), "wall") != g.var(g.start(players=2, seed=12), "wall")


# ---- the questions asked and the narration in its order ---------------------------------------
def test_the_questions_name_the_hammer_placement_and_the_roll(g):
    """Setup / Game Play: each player is asked to place a hammer, then each roll asks whose hammer
    moves that many spaces (one space for a 1), again after a roll again and on the next turn."""
    s = g.start(players=2, seed=1, pins=(6, 1, 1, 6, 3))
    assert g.prompt(s) == "place your hammer"
    s = g.apply(s, "hammer on a1")
    assert g.prompt(s) == "place your hammer"
    s = put(g, g.apply(s, "hammer on l4"), "a2", "coin-1-Suns-1", face_up=True)
    assert g.prompt(s) == "move whose hammer 1 space?"
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "a2"), "collect CS1")
    assert g.prompt(s) == "move whose hammer 6 spaces?"
    s = walk(g, g.apply(s, "move black hammer"), "l3", "l2", "l1", "k1", "k2", "k3")
    assert s.pending.player == "black" and g.prompt(s) == "move whose hammer 3 spaces?"


def test_the_narration_tells_the_rolls_for_first_player_in_order(g):
    """Setup: each player rolls, highest first, ties re-roll among the tied: the narration tells
    the rolls in the order rolled, then who goes first and that player's roll."""
    s = begin(g, ("a1", "b1", "c1"), pins=(2, 6, 4, 5))
    assert g.narrate(s) == [
        "green places the green hammer on c1",
        "red rolls 2 for first player",
        "black rolls 6 for first player",
        "green rolls 4 for first player",
        "black goes first",
        "black rolls 5",
    ]
    assert g.prompt(s) == "move whose hammer 5 spaces?"
    s = begin(g, ("a1", "b1", "c1", "d1"), pins=(5, 5, 2, 5, 3, 4, 4, 1, 6, 2))
    assert g.narrate(s)[1:] == [
        "red rolls 5 for first player",
        "black rolls 5 for first player",
        "green rolls 2 for first player",
        "blue rolls 5 for first player",
        "red rolls 3 for first player",
        "black rolls 4 for first player",
        "blue rolls 4 for first player",
        "black rolls 1 for first player",
        "blue rolls 6 for first player",
        "blue goes first",
        "blue rolls 2",
    ]
    assert s.pins == ()


def test_the_narration_of_a_turn_ending_and_of_the_winning_piece(g):
    """Game Play / Object: a piece that does not match ends the turn, then the next player rolls;
    the twelfth piece is the last line told (the game is over, no roll again)."""
    s = put(g, begin(g, ("a1", "l4"), pins=(6, 1, 1, 2)), "a2", "coin-5-Suns-1")
    s = walk(g, g.apply(s, "move red hammer"), "a2")
    assert g.narrate(s)[-3:] == [
        "red moves the red hammer to a2",
        "CS5 does not match 1; the turn ends",
        "black rolls 2",
    ]
    s = put(g, begin(g, ("a1", "l4"), pins=(6, 1, 2, 6)), "a3", "tile-2-Moons-1")
    s = give(g, s, "red", ["h1", "i1", "j1", "k1", "l1", "h2", "i2", "j2", "k2", "l2", "k3"])
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "a2", "a3"), "collect TM2")
    assert g.narrate(s) == ["red collects TM2, 12 of 12"]
    assert s.pins == (6,)


# ---- the view: the wall, its legend, the hammers and the pieces by one name each ---------------
def test_the_view_keeps_pieces_and_hammers_apart_and_explains_the_notation(g):
    """Setup / Definitions: a space shows its piece, then after `·` the numbers of the hammers
    standing there; the legend says so once; a hammer not yet placed says so."""
    from interpreter.runtime.render import render

    s = g.start(players=2, seed=1)
    s = g.apply(s, "hammer on a1")
    lines = render(g, s, "black").splitlines()
    assert "    1: the red hammer, on a1" in lines
    assert "    2: the black hammer, not placed yet" in lines
    assert any(line.startswith("A space: its piece, then after · the numbers of the hammers") for line in lines)
    assert any(line.startswith("A piece: T tile or C coin") for line in lines)
    s = g.apply(s, "hammer on a1")
    s = put(g, s, "a1", "coin-4-Moons-1", face_up=True)
    s = clear(g, s, "b1")
    s = g.with_var(s, "hammer", {"black": "b1"})
    row1 = next(line for line in render(g, s, "red").splitlines() if line.startswith("  1 "))
    assert row1.split()[1:3] == ["CM4·1", ".2"]
    assert all("·" not in c for c in row1.split()[3:])  # pieces without a hammer: no separator


def test_the_narration_names_pieces_and_hammers_as_the_view_does(g):
    """Game Play: the narration names a piece by its code on the wall (TA5) and a hammer by its
    owner's colour (the red hammer), as the view and the moves (`move red hammer`) do."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 4))
    s = put(g, s, "c1", "tile-2-Arms-1", face_up=True)
    s = walk(g, g.apply(s, "move red hammer"), "b1", "c1")
    assert g.labels(s) == ["collect TA2", "pass"]
    s = g.apply(s, "collect TA2")
    lines = g.narrate(s)
    assert "black places the black hammer on l4" in g.narrate(begin(g, ("a1", "l4"), pins=(6, 1, 2)))
    assert "red collects TA2, 1 of 12" in lines
    assert not any("tile-" in line or "coin-" in line for line in lines)
    from interpreter.runtime.render import render

    assert "    red: 1 of 12: TA2" in render(g, s, None).splitlines()


# ---- what a player is asked during a walk ------------------------------------------------------
def step_prompts(g, s) -> list[str]:
    """The question asked at each step of the walk now being chosen (taking the first step)."""
    asked = []
    while is_step(g, s):
        asked.append(g.prompt(s))
        s = g.apply_index(s, 0)
    return asked


def test_each_step_of_a_walk_names_the_hammer_the_roll_and_the_steps_left(g):
    """Game Play: a player rolls his die and moves his hammer or someone else's that exact
    number of spaces, one orthogonal step at a time: each step's question says which hammer
    walks (its number on the wall), what the die rolled, and how many steps are left."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 4))
    assert g.prompt(s) == "move whose hammer 4 spaces?"
    assert step_prompts(g, g.apply(s, "move black hammer")) == [
        "hammer 2 (the black hammer, rolled 4): step 1 of 4, 3 more after this",
        "hammer 2 (the black hammer, rolled 4): step 2 of 4, 2 more after this",
        "hammer 2 (the black hammer, rolled 4): step 3 of 4, 1 more after this",
        "hammer 2 (the black hammer, rolled 4): step 4 of 4, the last",
    ]
    assert step_prompts(g, g.apply(s, "move red hammer")) == [
        "hammer 1 (your hammer, rolled 4): step 1 of 4, 3 more after this",
        "hammer 1 (your hammer, rolled 4): step 2 of 4, 2 more after this",
        "hammer 1 (your hammer, rolled 4): step 3 of 4, 1 more after this",
        "hammer 1 (your hammer, rolled 4): step 4 of 4, the last",
    ]


def test_a_roll_of_one_is_one_space_and_its_only_step(g):
    """Game Play: the exact number on the die; a 1 moves one space, in a single step."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1))
    assert g.prompt(s) == "move whose hammer 1 space?"
    assert step_prompts(g, g.apply(s, "move red hammer")) == [
        "hammer 1 (your hammer, rolled 1): step 1 of 1, the only one"
    ]


def test_a_human_player_sees_the_step_question_addressed_to_their_seat(g):
    """Game Play, as `gamedef play` asks it: the seat choosing, then the hammer, the roll and
    the step, then the spaces the step may enter."""
    from interpreter.cli.human import HumanAgent

    s = begin(g, ("e2", "l4"), pins=(1, 6, 3))  # black goes first
    s = g.apply(s, "move red hammer")
    said: list[str] = []
    HumanAgent("black", ask=lambda _: "1", say=said.append).choose(g, s)
    menu = "\n".join(said).split("\n")
    at = menu.index("black, hammer 1 (the red hammer, rolled 3): step 1 of 3, 2 more after this:")
    assert sorted(line.split(". ", 1)[1] for line in menu[at + 1 :]) == [
        "step to d2",
        "step to e1",
        "step to e3",
        "step to f2",
    ]
