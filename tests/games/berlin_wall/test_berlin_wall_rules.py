"""Berlin Wall, base game: one scripted scenario per rule of the rulebook (rules/berlin_wall.md).

Each test names the rulebook section it checks in its docstring. Dice are pinned
(`pins`: the rolls for first player, then each turn's roll) and positions are set up
with `with_var`, so every assertion is about the state the rulebook says.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from bw_helpers import (
    all_cells,
    all_pieces,
    begin,
    clear,
    column,
    end_turn,
    game,
    give,
    is_step,
    kind_of,
    put,
    row,
    self_avoiding_ends,
    walk,
    walk_ends,
    walks,
)


@pytest.fixture(scope="module")
def g():
    return game()


def roll_of(g, s) -> int:
    return g.var(s, "move_roll")


# ---- Setup -------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_lays_48_face_down_pieces_tiles_and_coins_alternating(g, players):
    """Setup: the wall is 12 columns 4 deep of tiles and coins, alternating, all face down;
    a piecepack is 24 tiles and 24 coins (Definitions: Numbering, Ace = 1, Null = 6)."""
    s = g.start(players=players, seed=11)
    wall = g.var(s, "wall")
    assert list(wall) == all_cells(12, 4)
    assert None not in wall.values()
    assert sorted(wall.values()) == sorted(all_pieces(4))  # all 48, each once
    assert len(set(wall.values())) == 48
    for c, piece in wall.items():
        assert kind_of(piece) == ("tile" if (column(c) + row(c)) % 2 == 0 else "coin"), c
    assert not any(g.var(s, "face_up").values())
    assert g.var(s, "box") == ()
    assert all(v == () for v in g.var(s, "collected").values())
    assert all(v is None for v in g.var(s, "hammer").values())
    # the deal is random: another seed lays another wall
    assert g.var(g.start(players=players, seed=12), "wall") != wall


def test_setup_each_player_places_a_hammer_anywhere_in_seat_order(g):
    """Setup: each player places his hammer anywhere on the wall (in seat order, before the
    roll for first player); Definitions: two hammers may share the same space."""
    s = g.start(players=4, seed=1, pins=(6, 1, 1, 1))
    choices = []
    for seat, where in zip(["red", "black", "green", "blue"], ["e3", "e3", "a1", "l4"], strict=True):
        assert s.pending.player == seat
        assert g.prompt(s) == "place your hammer"
        assert g.labels(s) == [f"hammer on {c}" for c in all_cells()]
        assert s.pins == (6, 1, 1, 1)  # nobody has rolled yet
        choices.append(where)
        s = g.apply(s, f"hammer on {where}")
    assert g.var(s, "hammer") == {"red": "e3", "black": "e3", "green": "a1", "blue": "l4"}
    lines = g.narrate(s)
    assert lines[0] == "blue places the blue hammer on l4"
    assert "red rolls 6 for first player" in lines and "red goes first" in lines


def test_first_player_is_the_highest_roll(g):
    """Setup: each player rolls a die; highest number goes first."""
    s = begin(g, ("a1", "b1", "c1"), pins=(2, 6, 4, 5))
    assert g.narrate(s) == [
        "green places the green hammer on c1",
        "red rolls 2 for first player",
        "black rolls 6 for first player",
        "green rolls 4 for first player",
        "black goes first",
        "black rolls 5",
    ]
    assert g.var(s, "first_player") == "black"
    assert s.pending.player == "black" and roll_of(g, s) == 5
    assert g.prompt(s) == "move whose hammer 5 spaces?"


def test_ties_reroll_among_the_tied_players(g):
    """Setup: re-roll in case of ties (only the tied players roll again, until one is highest)."""
    s = begin(g, ("a1", "b1", "c1", "d1"), pins=(5, 5, 2, 5, 3, 4, 4, 1, 6, 2))
    assert g.narrate(s)[1:] == [
        "red rolls 5 for first player",
        "black rolls 5 for first player",
        "green rolls 2 for first player",
        "blue rolls 5 for first player",
        "red rolls 3 for first player",  # green is out; red, black, blue re-roll
        "black rolls 4 for first player",
        "blue rolls 4 for first player",
        "black rolls 1 for first player",  # black and blue tie again
        "blue rolls 6 for first player",
        "blue goes first",
        "blue rolls 2",
    ]
    assert s.pending.player == "blue" and s.pins == ()


def test_turns_go_clockwise_from_the_first_player(g):
    """Game Play: in turn (seat order, starting with the first player)."""
    s = begin(g, ("a1", "b1", "c1"), pins=(1, 1, 6, 1, 1, 1, 1, 1))
    seen = []
    for _ in range(4):
        seen.append(s.pending.player)
        s = end_turn(g, s)
    assert seen == ["green", "red", "black", "green"]


# ---- Moving ------------------------------------------------------------------------------------
@pytest.mark.parametrize("start", ["e2", "a1", "l3"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_a_move_is_exactly_the_roll_in_orthogonal_steps_never_twice_on_a_space(g, start, n):
    """Game Play: move a hammer exactly the number on the die in orthogonal steps; you may not
    pass through or land on a space twice in one turn (including the start and the finish)."""
    s = begin(g, (start, "l4" if start != "l4" else "a1"), pins=(6, 1, n))
    assert g.prompt(s) == ("move whose hammer 1 space?" if n == 1 else f"move whose hammer {n} spaces?")
    s = g.apply(s, "move red hammer")
    every = walks(g, s)
    assert every, "some walk must be open"
    for path in every:
        assert len(path) == n
        cells = (start,) + path
        assert len(set(cells)) == len(cells), f"a space entered twice: {cells}"
        for a, b in pairwise(cells):
            assert abs(column(a) - column(b)) + abs(row(a) - row(b)) == 1, f"not orthogonal: {a}->{b}"
    assert {p[-1] for p in every} == self_avoiding_ends(start, n)
    if n >= 2:
        assert start not in {p[-1] for p in every}  # not even by a loop back to the start


def test_the_start_space_cannot_be_entered_again(g):
    """Game Play: you may not pass through or land on a space twice (this includes the space you
    started on)."""
    s = g.apply(begin(g, ("a1", "l4"), pins=(6, 1, 2)), "move red hammer")
    assert g.labels(s) == ["step to a2", "step to b1"]
    s = walk(g, s, "b1")
    assert g.labels(s) == ["step to b2", "step to c1"]  # not back to a1
    s = g.apply(begin(g, ("a1", "l4"), pins=(6, 1, 3)), "move red hammer")
    s = walk(g, s, "a2")
    assert g.labels(s) == ["step to a3", "step to b2"]
    assert walk_ends(g, s, "red") == {"a4", "b3", "b1", "c2"}


def test_only_steps_that_complete_the_walk_are_offered_and_visited_spaces_count_after_rolling_again(g):
    """Game Play: exactly the number rolled, no space twice in one turn; the spaces of the turn's
    earlier moves (before a roll again) still count."""
    s = begin(g, ("c1", "l4"), pins=(6, 1, 3, 2))
    s = put(g, s, "a2", "coin-3-Suns-1", face_up=True)
    s = walk(g, g.apply(s, "move red hammer"), "b1", "b2", "a2")
    s = g.apply(s, "collect CS3")
    assert g.var(s, "visited") == ("c1", "b1", "b2", "a2")
    assert roll_of(g, s) == 2
    s = g.apply(s, "move red hammer")
    # a1 is free but a dead end (its other neighbour b1 was entered this turn); b2 was entered
    assert g.labels(s) == ["step to a3"]
    assert walk_ends(g, s, "red") == {"a4", "b3"}


def test_a_dead_end_is_offered_when_it_is_the_last_step(g):
    """Game Play: exactly the number rolled: a space with no way on is fine as the last step."""
    s = begin(g, ("c1", "l4"), pins=(6, 1, 3, 1))
    s = put(g, s, "a2", "coin-3-Suns-1", face_up=True)
    s = walk(g, g.apply(s, "move red hammer"), "b1", "b2", "a2")
    s = g.apply(g.apply(s, "collect CS3"), "move red hammer")
    assert g.labels(s) == ["step to a1", "step to a3"]


def test_a_hammer_is_offered_only_if_it_can_move(g):
    """Game Play: move your hammer or someone else's the exact number: a hammer boxed in by the
    spaces already entered this turn cannot be chosen."""
    s = begin(g, ("b1", "h3"), pins=(6, 1, 3, 4))
    s = put(g, s, "a1", "tile-3-Suns-1", face_up=True)
    s = walk(g, g.apply(s, "move red hammer"), "b2", "a2", "a1")
    s = g.apply(s, "collect TS3")
    assert s.pending.player == "red" and roll_of(g, s) == 4
    assert g.labels(s) == ["move black hammer"]  # red's hammer at a1: a2 and b1 already entered


def test_when_no_hammer_can_move_the_turn_ends(g):
    """Game Play: no space twice in one turn; with every hammer boxed in, the turn ends."""
    s = begin(g, ("b1", "a1"), pins=(6, 1, 3, 4, 5))
    s = put(g, s, "a1", "tile-3-Suns-1", face_up=True)
    s = walk(g, g.apply(s, "move red hammer"), "b2", "a2", "a1")
    s = g.apply(s, "collect TS3")
    assert "no hammer can move 4 spaces; the turn ends" in g.narrate(s)
    assert s.pending.player == "black" and roll_of(g, s) == 5
    assert g.var(s, "collected")["red"] == ("tile-3-Suns-1",)


def test_hammers_cross_and_end_on_empty_spaces_and_share_spaces(g):
    """Definitions: hammers may end a turn in a gap or hole, and two hammers may share a space;
    Game Play: holes are empty spaces hammers may pass over and end on without penalty."""
    s = begin(g, ("a1", "a3"), pins=(6, 1, 2, 3, 2))
    s = clear(g, s, "a2", "a3")
    s = walk(g, g.apply(s, "move red hammer"), "a2", "a3")  # over the gap at a2 onto black's (empty) space
    assert g.var(s, "hammer") == {"red": "a3", "black": "a3"}
    # no flip, no collect: red's turn is over
    assert s.pending.player == "black" and roll_of(g, s) == 3
    # black crosses two gaps and ends on a third: a complete turn, with no flip to decide
    s = clear(g, s, "b3", "c3", "c4")
    s = walk(g, g.apply(s, "move black hammer"), "b3", "c3")
    assert "step to c4" in g.labels(s)
    s = walk(g, s, "c4")
    assert g.var(s, "hammer") == {"red": "a3", "black": "c4"}
    assert s.pending.player == "red" and roll_of(g, s) == 2


# ---- Landing with your own hammer ----------------------------------------------------------------
def test_own_hammer_on_a_face_down_piece_may_flip_it(g):
    """Game Play: if you moved your own hammer and the piece you land on is face down, you may
    flip it over; a piece that does not match the die ends the turn."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 4))
    s = put(g, s, "c1", "tile-5-Arms-1", face_up=False)
    s = walk(g, g.apply(s, "move red hammer"), "b1", "c1")
    assert s.pending.player == "red"
    assert g.labels(s) == ["flip c1", "pass"]
    s = g.apply(s, "flip c1")
    assert g.var(s, "face_up")["tile-5-Arms-1"] is True
    assert g.var(s, "wall")["c1"] == "tile-5-Arms-1"
    assert g.narrate(s)[:2] == [
        "red flips c1: TA5",
        "TA5 does not match 2; the turn ends",
    ]
    assert s.pending.player == "black" and roll_of(g, s) == 4


def test_pass_ends_the_turn_without_flipping(g):
    """Game Play: you *may* flip it over; a face-down piece is not collected even if it would
    match (only a flipped, matching piece may be picked up)."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 4))
    s = put(g, s, "c1", "tile-2-Arms-1", face_up=False)  # it would match the 2 rolled
    s = walk(g, g.apply(s, "move red hammer"), "b1", "c1")
    s = g.apply(s, "pass")
    assert g.var(s, "face_up")["tile-2-Arms-1"] is False
    assert g.var(s, "wall")["c1"] == "tile-2-Arms-1"
    assert g.var(s, "collected")["red"] == ()
    assert s.pending.player == "black" and roll_of(g, s) == 4


def test_dumb_luck_a_flipped_match_is_collected_with_one_extra_roll(g):
    """Game Play: 'Dumb Luck': matching the die to a face-down piece gives no bonus beyond the
    additional roll."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 5))
    s = put(g, s, "c1", "tile-2-Arms-1", face_up=False)
    s = walk(g, g.apply(s, "move red hammer"), "b1", "c1")
    s = g.apply(s, "flip c1")
    assert g.labels(s) == ["collect TA2", "pass"]
    s = g.apply(s, "collect TA2")
    assert g.var(s, "collected")["red"] == ("tile-2-Arms-1",)
    assert s.pending.player == "red" and roll_of(g, s) == 5 and s.pins == ()


def test_a_face_up_matching_piece_may_be_collected_then_roll_again(g):
    """Game Play: if the piece matches the die you may remove it, add it to your collection and
    roll again; pick the piece up, leaving your hammer where the piece was."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 3, 6))
    s = put(g, s, "b3", "coin-3-Moons-1", face_up=True)
    s = walk(g, g.apply(s, "move red hammer"), "a2", "a3", "b3")
    assert g.labels(s) == ["collect CM3", "pass"]  # face up: no flip offered
    s = g.apply(s, "collect CM3")
    assert g.var(s, "collected") == {"red": ("coin-3-Moons-1",), "black": ()}
    assert g.var(s, "wall")["b3"] is None
    assert g.var(s, "hammer")["red"] == "b3"
    assert g.var(s, "face_up")["coin-3-Moons-1"] is True
    assert "coin-3-Moons-1" not in g.var(s, "wall").values()
    assert g.narrate(s) == ["red collects CM3, 1 of 12", "red rolls 6"]
    assert s.pending.player == "red" and roll_of(g, s) == 6
    assert g.prompt(s) == "move whose hammer 6 spaces?"


def test_keep_playing_until_no_match(g):
    """Game Play: keep playing until you don't match a piece of wall to your die."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1, 1, 1, 4))
    s = put(g, s, "a2", "coin-1-Suns-1")
    s = put(g, s, "a3", "tile-1-Suns-1")
    s = put(g, s, "a4", "coin-1-Moons-1")
    for c in ["a2", "a3", "a4"]:
        s = walk(g, g.apply(s, "move red hammer"), c)
        s = g.apply(s, g.labels(s)[0])
    assert g.var(s, "collected")["red"] == ("coin-1-Suns-1", "tile-1-Suns-1", "coin-1-Moons-1")
    assert s.pending.player == "red" and roll_of(g, s) == 4


def test_declining_a_match_ends_the_turn(g):
    """Game Play: you *may* remove a matching piece; leaving it ends the turn."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1, 2))
    s = put(g, s, "a2", "coin-1-Suns-1")
    s = walk(g, g.apply(s, "move red hammer"), "a2")
    s = g.apply(s, "pass")
    assert g.var(s, "wall")["a2"] == "coin-1-Suns-1"
    assert g.var(s, "collected")["red"] == ()
    assert "red leaves the piece at a2 in the wall; the turn ends" in g.narrate(s)
    assert s.pending.player == "black" and roll_of(g, s) == 2


def test_a_face_up_piece_that_does_not_match_ends_the_turn(g):
    """Game Play: if the piece is face up you do not flip it; if you land on a piece that does not
    match your die roll, your turn ends."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1, 2))
    s = put(g, s, "a2", "coin-5-Suns-1")
    s = walk(g, g.apply(s, "move red hammer"), "a2")
    assert g.narrate(s)[-3:] == [
        "red moves the red hammer to a2",
        "CS5 does not match 1; the turn ends",
        "black rolls 2",
    ]
    assert s.pending.player == "black"
    assert g.var(s, "wall")["a2"] == "coin-5-Suns-1"


@pytest.mark.parametrize("face_up", [True, False])
def test_moving_someone_elses_hammer_flips_and_collects_nothing(g, face_up):
    """Game Play: if you moved someone else's hammer, no pieces of the wall are flipped and no
    pieces are collected by that hammer's owner; the turn ends."""
    s = begin(g, ("a1", "l3"), pins=(6, 1, 1, 3))
    s = put(g, s, "l4", "tile-1-Crowns-1", face_up=face_up)  # matches the 1 rolled
    s = walk(g, g.apply(s, "move black hammer"), "l4")
    assert g.var(s, "hammer") == {"red": "a1", "black": "l4"}
    assert g.var(s, "face_up")["tile-1-Crowns-1"] is face_up
    assert g.var(s, "wall")["l4"] == "tile-1-Crowns-1"
    assert g.var(s, "collected") == {"red": (), "black": ()}
    assert s.pending.player == "black" and roll_of(g, s) == 3
    assert g.prompt(s) == "move whose hammer 3 spaces?"


# ---- Object --------------------------------------------------------------------------------------
def test_the_twelfth_piece_wins_at_once(g):
    """Object / Game Play: the first player to obtain 12 pieces wins; the game is over the moment
    a player picks up his twelfth piece (no roll again)."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 6))
    s = put(g, s, "a3", "tile-2-Moons-1")
    s = give(g, s, "red", ["h1", "i1", "j1", "k1", "l1", "h2", "i2", "j2", "k2", "l2", "k3"])
    assert len(g.var(s, "collected")["red"]) == 11
    s = walk(g, g.apply(s, "move red hammer"), "a2", "a3")
    s = g.apply(s, "collect TM2")
    assert g.is_over(s) and g.result(s) == ("red",)
    assert len(g.var(s, "collected")["red"]) == 12
    assert s.pending is None and g.legal_moves(s) == []
    assert s.pins == (6,)  # the extra roll never happens
    assert g.narrate(s) == ["red collects TM2, 12 of 12"]


def test_eleven_pieces_do_not_win(g):
    """Object: 12 pieces are needed; the eleventh piece gives only the roll again."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 6))
    s = put(g, s, "a3", "tile-2-Moons-1")
    s = give(g, s, "red", ["h1", "i1", "j1", "k1", "l1", "h2", "i2", "j2", "k2", "l2"])
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "a2", "a3"), "collect TM2")
    assert not g.is_over(s) and s.pending.player == "red" and roll_of(g, s) == 6


def _small_wall(g, s, red: int, black: int, keep: list[str]):
    """A position where red and black hold `red` and `black` pieces and only `keep` is still walled."""
    others = [c for c in all_cells() if c not in keep]
    s = give(g, s, "red", others[:red])
    s = give(g, s, "black", others[red : red + black])
    return clear(g, s, *others[red + black :])


@pytest.mark.parametrize("red, black, result", [(5, 3, ("red",)), (4, 4, ("red", "black"))])
def test_when_nobody_can_reach_12_the_most_pieces_win(g, red, black, result):
    """Object (interpretation in berlin_wall.game: if nobody can reach 12 pieces any more, the most
    pieces wins and ties share): checked at the end of each turn."""
    s = begin(g, ("a1", "a2"), pins=(6, 1, 1))
    s = _small_wall(g, s, red, black, keep=["e3", "f3", "g3"])
    pieces = sum(1 for p in g.var(s, "wall").values() if p is not None)
    assert pieces == 3 and len(g.var(s, "box")) == 48 - 3 - red - black
    s = end_turn(g, s)
    assert g.is_over(s) and g.result(s) == result
    assert "nobody can collect 12 pieces any more" in g.narrate(s)


def test_the_game_goes_on_while_someone_can_still_reach_12(g):
    """Object: a player with 9 pieces and 3 left on the wall can still get 12: play goes on."""
    s = begin(g, ("a1", "a2"), pins=(6, 1, 1, 2))
    s = _small_wall(g, s, 9, 1, keep=["e3", "f3", "g3"])
    s = end_turn(g, s)
    assert not g.is_over(s) and s.pending.player == "black"
    assert is_step(g, g.apply(s, g.labels(s)[0]))


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
