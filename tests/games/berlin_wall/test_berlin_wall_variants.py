"""Berlin Wall's eight variants (rules/berlin_wall.md, "Variants"), one scripted scenario per rule.

Dice are pinned (Crazy 8's first pins the die drawn, by suit name; Pair-a-dice pins two
dice) and positions are built with `with_var`.
"""

from __future__ import annotations

import json
import random

import pytest
from bw_helpers import (
    all_cells,
    all_pieces,
    begin,
    cell,
    clear,
    column,
    end_turn,
    game,
    give,
    kind_of,
    put,
    row,
    self_avoiding_ends,
    suit_of,
    walk,
    walk_ends,
)

from interpreter import GameDefError, GameRuntimeError, UsageError, load_game

SUITS = ["suns", "moons", "crowns", "arms"]


def roll_of(g, s) -> int:
    return g.var(s, "move_roll")


def play_randomly(g, players: int, seed: int):
    s = g.start(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over(s):
        s = g.apply_index(s, rng.randrange(len(s.pending.values)))
    return s


# ---- Variant 1: The Crazy 8's Rule ---------------------------------------------------------------
@pytest.fixture(scope="module")
def crazy():
    return game("crazy_8s")


def diagonal_suit(c: str) -> str:
    return SUITS[((column(c) - row(c)) % 8) // 2]


def test_crazy_8s_coins_are_laid_on_diagonals_by_suit(crazy):
    """Variant 1: set up with the coins in a diagonal pattern, all coins of one colour on its
    diagonals (interpretation: suit = ((column - row) mod 8) / 2; a suit whose diagonals hold
    more than its 6 coins takes the left-over coins of the short suits)."""
    for seed in range(5):
        s = crazy.start(players=2, seed=seed)
        wall = crazy.var(s, "wall")
        coin_cells = [c for c in all_cells() if (column(c) + row(c)) % 2 == 1]
        assert all(kind_of(wall[c]) == "coin" for c in coin_cells)
        slots = {suit: [c for c in coin_cells if diagonal_suit(c) == suit] for suit in SUITS}
        # the 12 x 4 wall has 7 coin spaces on the Suns and Arms diagonals, 5 on the others
        sizes = {suit: len(cells) for suit, cells in slots.items()}
        assert sizes == {"suns": 7, "moons": 5, "crowns": 5, "arms": 7}
        for suit, cells in slots.items():
            on_diagonal = [c for c in cells if suit_of(wall[c]) == suit]
            assert len(on_diagonal) == min(6, len(cells)), (seed, suit)
        # every coin of a short suit lies on its own diagonals
        for c in coin_cells:
            if suit_of(wall[c]) in ("moons", "crowns") and diagonal_suit(c) in ("moons", "crowns"):
                assert suit_of(wall[c]) == diagonal_suit(c)
        # tiles are not arranged by suit, and the wall is still all face down
        assert not any(crazy.var(s, "face_up").values())


def test_crazy_8s_the_die_is_drawn_at_random_each_turn(crazy):
    """Variant 1: instead of rolling their own die, at the start of each turn the player draws one
    of the dice at random (the colour is known before rolling); the die goes back after the turn."""
    s = begin(crazy, ("a1", "l4"), pins=(6, 1, "arms", 3, "arms", 2))
    assert crazy.narrate(s)[-2:] == ["red draws the Arms die", "red rolls 3"]
    assert crazy.var(s, "die_suit") == "arms"  # not red's own colour (Suns)
    s = end_turn(crazy, s)
    assert crazy.narrate(s)[-2:] == ["black draws the Arms die", "black rolls 2"]  # the same die again


def test_crazy_8s_rolling_again_keeps_the_drawn_die(crazy):
    """Variant 1: the die is drawn at the start of the turn; a roll again rolls the same die."""
    s = begin(crazy, ("a1", "l4"), pins=(6, 1, "moons", 1, 4))
    s = put(crazy, s, "a2", "coin-1-Suns-1")
    s = walk(crazy, crazy.apply(s, "move red hammer"), "a2")
    s = crazy.apply(s, "collect CS1")
    assert crazy.narrate(s)[-1] == "red rolls 4"
    assert crazy.var(s, "die_suit") == "moons" and s.pins == ()


def test_crazy_8s_a_piece_of_the_dies_colour_may_be_collected_even_face_down(crazy):
    """Variant 1: if the colour of the die matches the piece you land on you may pick it up; you may
    turn the piece over to check its colour (and turn it back): no flip is needed."""
    s = begin(crazy, ("a1", "l4"), pins=(6, 1, "moons", 2, 6))
    s = put(crazy, s, "c1", "tile-5-Moons-1", face_up=False)  # 5 does not match the 2 rolled
    s = walk(crazy, crazy.apply(s, "move red hammer"), "b1", "c1")
    assert crazy.labels(s) == ["flip c1", "pass"]
    s = crazy.apply(s, "pass")
    assert crazy.labels(s) == ["collect TM5", "pass"]
    s = crazy.apply(s, "collect TM5")
    assert crazy.var(s, "collected")["red"] == ("tile-5-Moons-1",)
    assert crazy.var(s, "wall")["c1"] is None and crazy.var(s, "hammer")["red"] == "c1"
    assert s.pending.player == "red" and roll_of(crazy, s) == 6  # still receives the extra roll


def test_crazy_8s_a_face_down_piece_of_another_colour_is_not_collected(crazy):
    """Variant 1 (works with the number rule of the main game): a face-down piece of another colour
    is not collected, even if its number would match."""
    s = begin(crazy, ("a1", "l4"), pins=(6, 1, "moons", 2, "suns", 6))
    s = put(crazy, s, "c1", "tile-2-Arms-1", face_up=False)
    s = walk(crazy, crazy.apply(s, "move red hammer"), "b1", "c1")
    s = crazy.apply(s, "pass")
    assert s.pending.player == "black"
    assert crazy.var(s, "wall")["c1"] == "tile-2-Arms-1"


def test_crazy_8s_the_number_rule_still_works(crazy):
    """Variant 1: an additional rule that works with the number rule of the main game."""
    s = begin(crazy, ("a1", "l4"), pins=(6, 1, "moons", 2, 5))
    s = put(crazy, s, "c1", "tile-2-Arms-1", face_up=True)
    s = walk(crazy, crazy.apply(s, "move red hammer"), "b1", "c1")
    assert crazy.labels(s) == ["collect TA2", "pass"]
    s = crazy.apply(s, "collect TA2")
    assert crazy.var(s, "collected")["red"] == ("tile-2-Arms-1",)
    assert s.pending.player == "red" and roll_of(crazy, s) == 5


def test_crazy_8s_no_bonus_if_number_and_colour_both_match(crazy):
    """Variant 1: there is no bonus if number and colour match: one piece, one extra roll."""
    s = begin(crazy, ("a1", "l4"), pins=(6, 1, "moons", 2, 5))
    s = put(crazy, s, "c1", "tile-2-Moons-1", face_up=True)
    s = walk(crazy, crazy.apply(s, "move red hammer"), "b1", "c1")
    s = crazy.apply(s, "collect TM2")
    assert crazy.var(s, "collected")["red"] == ("tile-2-Moons-1",)
    assert s.pending.player == "red" and roll_of(crazy, s) == 5 and s.pins == ()
    assert crazy.prompt(s) == "move whose hammer 5 spaces?"


def test_crazy_8s_declining_a_face_down_colour_match_reveals_nothing_to_the_others(crazy):
    """Variant 1: you may turn the piece over to check its colour, 'just be sure to turn it back':
    the others must not learn what it is."""
    s = begin(crazy, ("a1", "l4"), pins=(6, 1, "moons", 2, "suns", 4))
    s = put(crazy, s, "c1", "tile-5-Moons-1", face_up=False)
    s = walk(crazy, crazy.apply(s, "move red hammer"), "b1", "c1")
    s = crazy.apply(crazy.apply(s, "pass"), "pass")  # no flip, no collect
    assert crazy.var(s, "face_up")["tile-5-Moons-1"] is False
    assert s.pending.player == "black"
    assert not any("tile-5-Moons-1" in line for line in crazy.narrate(s, "black"))
    assert "tile-5-Moons-1" not in json.dumps(crazy.observation(s, "black")["log"])


# ---- Variant 2: Gravity --------------------------------------------------------------------------
def _collect_c2_then_move_black_to_c1(g, more=(1,)):
    """Red collects c2 (an inner space, so it leaves a hole), rolls again and moves black's hammer
    from f1 to c1 over e1, d1, ending the turn.

    Returns (the state before the turn ends, the state after, the wall before).
    """
    s = begin(g, ("c4", "f1"), pins=(6, 1, 2, 3) + tuple(more))
    s = put(g, s, "c2", "coin-2-Suns-1")
    s = walk(g, g.apply(s, "move red hammer"), "c3", "c2")
    s = g.apply(s, "collect CS2")
    before = s
    s = walk(g, g.apply(s, "move black hammer"), "e1", "d1", "c1")
    return before, s, g.var(before, "wall")


def test_gravity_a_hole_is_filled_towards_the_ground_at_the_end_of_the_turn():
    """Variant 2: when a player removes a piece, at the end of his turn he shifts all pieces of wall
    above the hole towards the ground (default ground: down, the side of row 4)."""
    g = game("gravity")
    before, s, wall0 = _collect_c2_then_move_black_to_c1(g)
    assert g.var(before, "wall")["c2"] is None  # still a hole while the turn goes on
    wall = g.var(s, "wall")
    assert wall["c2"] == wall0["c1"] and wall["c1"] is None  # c1 fell into c2; the top is a gap now
    assert {c: p for c, p in wall.items() if c not in ("c1", "c2")} == {
        c: p for c, p in wall0.items() if c not in ("c1", "c2")
    }
    assert "the wall shifts into c2" in g.narrate(s)
    assert s.pending.player == "black"


def test_gravity_hammers_slide_with_the_wall_and_a_squished_hammer_rides_the_piece_that_moved_in():
    """Variant 2: hammers slide on the pieces of the wall; a hammer squished between two pieces is
    put on the piece that moved into its space."""
    g = game("gravity")
    _, s, wall0 = _collect_c2_then_move_black_to_c1(g)
    # black stood on c1 and slid down with its piece; red stood in the hole and now stands on that piece
    assert g.var(s, "hammer") == {"red": "c2", "black": "c2"}
    assert g.var(s, "wall")["c2"] == wall0["c1"]


@pytest.mark.parametrize(
    "ground, moved, gap",
    [
        ("down", {"c2": "c1"}, "c1"),
        ("up", {"c2": "c3", "c3": "c4"}, "c4"),
        ("left", {cell(x, 2): cell(x + 1, 2) for x in range(3, 12)}, "l2"),
        ("right", {"c2": "b2", "b2": "a2"}, "a2"),
    ],
)
def test_gravity_the_ground_option_sets_the_direction(ground, moved, gap):
    """Variant 2: choose one side of the wall to be the ground; pieces above the hole shift towards
    it (the ground is agreed before play: option `ground`)."""
    g = game("gravity", ground=ground)
    _, s, wall0 = _collect_c2_then_move_black_to_c1(g)
    wall = g.var(s, "wall")
    for to, frm in moved.items():
        assert wall[to] == wall0[frm], (to, frm)
    assert wall[gap] is None
    untouched = set(all_cells()) - set(moved) - {gap}
    assert all(wall[c] == wall0[c] for c in untouched)
    assert sum(p is not None for p in wall.values()) == 47


def test_gravity_the_default_ground_is_down_and_other_grounds_are_rejected():
    """Variant 2: choose one side of the wall to be the ground (up, down, left or right)."""
    assert game("gravity").options == {}
    with pytest.raises(GameDefError, match=r"option 'ground'.*'sideways'"):
        game("gravity", ground="sideways")
    with pytest.raises(GameDefError, match=r"unknown option 'ground'|option 'ground'"):
        game(ground="down")  # no ground without Gravity


def test_gravity_gaps_on_the_edge_are_left():
    """Variant 2: always fill in holes, always leave gaps (an emptied space on the wall's edge)."""
    g = game("gravity")
    s = begin(g, ("c2", "l4"), pins=(6, 1, 2, 3))
    s = put(g, s, "a2", "coin-2-Suns-1")
    wall0 = g.var(s, "wall")
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "b2", "a2"), "collect CS2")
    s = end_turn(g, s)
    wall = g.var(s, "wall")
    assert wall["a2"] is None
    assert {c: p for c, p in wall.items() if c != "a2"} == {c: p for c, p in wall0.items() if c != "a2"}
    assert not any("shifts" in line for line in g.narrate(s))


def test_gravity_two_empty_spaces_side_by_side_are_not_a_hole():
    """Definitions: a hole is an empty section with wall on all 4 sides (interpretation in
    variants.game: only single spaces with wall on all four sides are filled)."""
    g = game("gravity")
    before, _, _ = _collect_c2_then_move_black_to_c1(g)
    s = clear(g, before, "c3")  # c2 and c3 both empty: each has an empty neighbour
    s = walk(g, g.apply(s, "move black hammer"), "e1", "d1", "c1")
    assert g.var(s, "wall")["c2"] is None and g.var(s, "wall")["c3"] is None


def test_gravity_with_holes_at_setup_is_refused():
    """Variant 4: holes may be laid at setup only when not playing Gravity or Nullo Gravity."""
    g = game("wall_of_china", "gravity", holes=3, rows=4)
    with pytest.raises(GameRuntimeError, match="holes may be laid only without Gravity or Nullo Gravity"):
        g.start(players=2, seed=1)


# ---- Variant 3: Nullo Gravity --------------------------------------------------------------------
@pytest.mark.parametrize(
    "side, moved, gap",
    [
        ("up", {"c2": "c1"}, "c1"),
        ("down", {"c2": "c3", "c3": "c4"}, "c4"),
        ("right", {cell(x, 2): cell(x + 1, 2) for x in range(3, 12)}, "l2"),
        ("left", {"c2": "b2", "b2": "a2"}, "a2"),
    ],
)
def test_nullo_gravity_the_player_who_made_the_hole_chooses_the_side(side, moved, gap):
    """Variant 3: no ground; the player who made the hole chooses which row or column to shift into
    it, moving all the pieces of that row or column and leaving a gap."""
    g = game("nullo_gravity")
    _, s, wall0 = _collect_c2_then_move_black_to_c1(g)
    assert s.pending.player == "red"
    assert g.prompt(s) == "fill the hole at c2 from which side?"
    assert g.labels(s) == [f"shift {d} into c2" for d in ("up", "down", "left", "right")]
    s = g.apply(s, f"shift {side} into c2")
    wall = g.var(s, "wall")
    for to, frm in moved.items():
        assert wall[to] == wall0[frm], (to, frm)
    assert wall[gap] is None
    assert all(wall[c] == wall0[c] for c in set(all_cells()) - set(moved) - {gap})
    assert s.pending.player == "black"  # then the next turn starts
    hammers = g.var(s, "hammer")
    assert hammers["red"] == "c2"  # the hammer in the hole stays, on the piece that moved in
    assert hammers["black"] == ("c2" if side == "up" else "c1")  # black rides c1's piece only if it moved


def test_nullo_gravity_fills_every_hole_one_by_one():
    """Variant 3: a player cannot leave a hole unfilled (several holes: one choice each, in reading order)."""
    g = game("nullo_gravity")
    s = begin(g, ("c4", "l4"), pins=(6, 1, 2, 3, 1))
    s = put(g, s, "c2", "coin-2-Suns-1")
    s = put(g, s, "e3", "tile-3-Suns-1")
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "c3", "c2"), "collect CS2")
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "d2", "e2", "e3"), "collect TS3")
    s = walk(g, g.apply(s, "move black hammer"), "l3")
    assert g.prompt(s) == "fill the hole at c2 from which side?"
    s = g.apply(s, "shift up into c2")
    assert g.prompt(s) == "fill the hole at e3 from which side?" and s.pending.player == "red"
    s = g.apply(s, "shift down into e3")
    wall = g.var(s, "wall")
    assert wall["c1"] is None and wall["e4"] is None and wall["c2"] and wall["e3"]
    assert s.pending.player == "black"


def test_nullo_gravity_and_gravity_exclude_each_other():
    """Variant 3: like Variant 2, except there is no ground: the two cannot be played together."""
    with pytest.raises(GameDefError, match="variant 'nullo_gravity' cannot be combined with 'gravity'"):
        game("gravity", "nullo_gravity")
    with pytest.raises(GameDefError, match="cannot be combined"):
        game("nullo_gravity", "gravity")


# ---- Variant 4: Wall of China --------------------------------------------------------------------
def test_wall_of_china_default_is_a_2_by_12_wall():
    """Variant 4: lay out the wall in a 2 by 12 array; the rest of the piecepack stays boxed."""
    g = game("wall_of_china")
    s = g.start(players=2, seed=3)
    wall = g.var(s, "wall")
    assert list(wall) == all_cells(12, 2)
    assert None not in wall.values()
    for c, p in wall.items():
        assert kind_of(p) == ("tile" if (column(c) + row(c)) % 2 == 0 else "coin")
    assert sorted(list(wall.values()) + list(g.var(s, "box"))) == sorted(all_pieces(4))
    assert len(g.var(s, "box")) == 24


@pytest.mark.parametrize("columns, rows", [(6, 4), (2, 12), (20, 2), (8, 6)])
def test_wall_of_china_any_rectangle(columns, rows):
    """Variant 4: ... or any other array of your choice; the pattern must be a rectangle."""
    g = game("wall_of_china", columns=columns, rows=rows, stacks=8 if columns * rows > 48 else 4)
    s = g.start(players=2, seed=1)
    wall = g.var(s, "wall")
    assert list(wall) == all_cells(columns, rows)
    assert None not in wall.values() and len(set(wall.values())) == columns * rows
    s = g.apply(g.apply(s, f"hammer on {cell(columns, rows)}"), "hammer on a1")
    assert g.var(s, "hammer") == {"red": cell(columns, rows), "black": "a1"}


def test_wall_of_china_more_stacks_more_pieces_and_players():
    """Variant 4: add another piecepack or piecepack stack (one suit: 6 tiles and 6 coins) to
    include more players; hammers of the same colour are told apart (seats red_2, ...)."""
    g = game("wall_of_china", stacks=6, rows=6)
    s = g.start(players=6, seed=2)
    assert s.players == ("red", "black", "green", "blue", "red_2", "black_2")
    wall = g.var(s, "wall")
    assert sorted(wall.values()) == sorted(all_pieces(6))
    assert "tile-1-Suns-2" in wall.values() and "coin-6-Moons-2" in wall.values()
    for i, seat in enumerate(s.players):
        assert s.pending.player == seat
        s = g.apply(s, f"hammer on {all_cells(12, 6)[i]}")
    assert "black 2 places the black 2 hammer on f1" in g.narrate(s)


def test_wall_of_china_five_players_need_five_stacks():
    """Variant 4 / Setup: more than 4 players need an additional stack per player."""
    g = game("wall_of_china")
    with pytest.raises(GameRuntimeError) as err:
        g.start(players=5, seed=1)
    assert "5 players need 5 piecepack stacks: use Wall of China's option stacks" in str(err.value)
    s = game("wall_of_china", stacks=5).start(players=5, seed=1)
    assert s.players[-1] == "red_2"
    with pytest.raises(UsageError, match="2 to 4 players, not 5"):
        game().start(players=5)  # the base game seats at most 4
    with pytest.raises(UsageError, match="2 to 8 players, not 9"):
        game("wall_of_china", stacks=8).start(players=9)


def test_wall_of_china_holes_in_place_at_setup():
    """Variant 4: without Gravity or Nullo Gravity the game may be set up with holes already in place."""
    g = game("wall_of_china", rows=4, holes=5)
    for seed in range(4):
        s = g.start(players=2, seed=seed)
        wall = g.var(s, "wall")
        empty = [c for c, p in wall.items() if p is None]
        assert len(empty) == 5
        assert len(g.var(s, "box")) == 5
        assert sorted([p for p in wall.values() if p] + list(g.var(s, "box"))) == sorted(all_pieces(4))
    with pytest.raises(GameRuntimeError, match="a wall of 48 spaces cannot have 48 holes"):
        game("wall_of_china", rows=4, holes=48).start(players=2)


@pytest.mark.parametrize("variant", ["gravity", "nullo_gravity"])
def test_wall_of_china_holes_are_refused_with_gravity(variant):
    """Variant 4: holes in place only if you are not playing Gravity or Nullo Gravity: the game
    loads, and setup stops with a GameRuntimeError (a GameDefError) naming the rule and line."""
    g = game("wall_of_china", variant, holes=2)
    with pytest.raises(GameRuntimeError) as err:
        g.start(players=2, seed=1)
    assert isinstance(err.value, GameDefError)
    text = str(err.value)
    assert "in lay_wall: holes may be laid only without Gravity or Nullo Gravity" in text
    assert "berlin_wall.game:" in text
    game("wall_of_china", variant, holes=0).start(players=2, seed=1)  # no holes: fine


def test_wall_of_china_options_are_closed_without_the_variant():
    """Variant 4: the base game's wall is 12 by 4, one piecepack, no holes."""
    for name, value in [("columns", 10), ("rows", 2), ("stacks", 5), ("holes", 1)]:
        with pytest.raises(GameDefError, match=rf"option '{name}'.*\b{value}\b"):
            game(**{name: value})


def test_wall_of_china_when_nobody_can_reach_12_the_most_pieces_win():
    """Object (interpretation: when nobody can reach 12 pieces the most pieces win, ties share)
    on the 2 by 12 wall of China, four players holding 5, 5, 5 and 4 of its 24 pieces."""
    g = game("wall_of_china")
    s = begin(g, ("a1", "a2", "b1", "b2"), pins=(6, 1, 1, 1, 2))
    for seat, cells in [("red", "cdefg"), ("black", "hijkl"), ("green", "cdefg"), ("blue", "hijk")]:
        s = give(g, s, seat, [f"{c}{1 if seat in ('red', 'black') else 2}" for c in cells])
    s = end_turn(g, s)
    assert g.result(s) == ("red", "black", "green")
    assert "nobody can collect 12 pieces any more" in g.narrate(s)


def test_wall_of_china_the_wall_grows_with_the_stacks():
    """Variant 4: each stack added to the wall to include more players adds its 12 pieces
    (interpretation: rows 0, the default, sizes the wall: 24 pieces for 4 stacks, 12 more a stack)."""
    for stacks, rows in [(4, 2), (5, 3), (6, 4), (7, 5), (8, 6)]:
        g = game("wall_of_china", stacks=stacks)
        s = g.start(players=stacks, seed=1)
        wall = g.var(s, "wall")
        assert list(wall) == all_cells(12, rows) and None not in wall.values()
        assert len(g.var(s, "box")) == 24
    for options, columns, rows in [({"columns": 6}, 6, 4), ({"columns": 10, "stacks": 5}, 10, 4)]:
        g = game("wall_of_china", **options)  # 24 pieces in rows of 6; 36 in rows of 10, the last filled up
        assert list(g.var(g.start(players=2, seed=1), "wall")) == all_cells(columns, rows)


@pytest.mark.parametrize(
    "options, players, message",
    [
        ({"columns": 6, "rows": 2}, 2, "a wall of 12 pieces (6 by 2, 0 holes) is too small for 2 players, who need 24"),
        ({"stacks": 8, "rows": 2}, 8, "a wall of 24 pieces (12 by 2, 0 holes) is too small for 8 players, who need 48"),
        ({"rows": 4, "holes": 30}, 2, "a wall of 18 pieces (12 by 4, 30 holes) is too small for 2 players"),
    ],
)
def test_wall_of_china_a_wall_too_small_to_win_is_refused(options, players, message):
    """Object (interpretation): a wall smaller than the rulebook's 2 by 12 (24 pieces, 6 a player)
    is refused at setup, naming the options to set."""
    with pytest.raises(GameRuntimeError) as err:
        game("wall_of_china", **options).start(players=players, seed=1)
    assert message in str(err.value)
    assert "set option rows (0 sizes the wall from the stacks), columns or holes" in str(err.value)


# ---- Variant 5: Wall of Jericho ------------------------------------------------------------------
@pytest.fixture(scope="module")
def jericho():
    return game("wall_of_jericho")


def _seventh_piece(g, extra_pins=()):
    """Red (holding 6 pieces) collects a seventh on a2 and rolls again; black's turn follows."""
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1, 2, 3) + tuple(extra_pins))
    s = put(g, s, "a2", "coin-1-Suns-1")
    s = put(g, s, "c3", "tile-4-Arms-1", face_up=False)
    s = give(g, s, "red", ["h1", "i1", "j1", "k1", "l1", "h2"])
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "a2"), "collect CS1")
    return s


def test_jericho_the_turn_after_the_seventh_piece_offers_a_flip_before_rolling(jericho):
    """Variant 5: the next turn after you collect your seventh piece, before you roll, you may flip
    over any additional face-down piece; you don't get to collect it if it matches your roll."""
    g = jericho
    s = _seventh_piece(g, extra_pins=(4, 6))
    assert len(g.var(s, "collected")["red"]) == 7
    # this turn goes on as usual
    assert s.pending.player == "red" and g.prompt(s) == "move whose hammer 2 spaces?"
    s = end_turn(g, s)  # red's turn ends
    s = end_turn(g, s)  # black's turn (roll 3) ends
    assert s.pending.player == "red"
    assert g.labels(s) == ["flip one face-down piece (Wall of Jericho)", "pass"]
    assert s.pins == (4, 6)  # red has not rolled yet
    s = g.apply(s, "flip one face-down piece (Wall of Jericho)")
    hidden = [c for c, p in g.var(s, "wall").items() if p and not g.var(s, "face_up")[p]]
    assert g.labels(s) == [f"flip {c}" for c in hidden]
    s = g.apply(s, "flip c3")
    assert g.var(s, "face_up")["tile-4-Arms-1"] is True
    assert g.narrate(s)[:2] == ["red flips c3: TA4", "red rolls 4"]
    # it matches the 4 now rolled, but it is not collected
    assert g.var(s, "wall")["c3"] == "tile-4-Arms-1" and len(g.var(s, "collected")["red"]) == 7
    assert g.prompt(s) == "move whose hammer 4 spaces?"
    # once only: red's following turn rolls at once
    s = end_turn(g, s)
    s = end_turn(g, s)
    assert s.pending.player == "red" and g.prompt(s).startswith("move whose hammer")


def test_jericho_passing_uses_the_flip_up(jericho):
    """Variant 5: you *may* flip; the chance comes on the next turn only."""
    g = jericho
    s = end_turn(g, end_turn(g, _seventh_piece(g)))
    s = g.apply(s, "pass")
    assert g.var(s, "jericho")["red"] == 2
    assert g.prompt(s).startswith("move whose hammer")
    s = end_turn(g, end_turn(g, s))
    assert s.pending.player == "red" and g.prompt(s).startswith("move whose hammer")


def test_jericho_with_no_face_down_pieces_the_rule_is_ignored(jericho):
    """Variant 5: if there are no face-down pieces of wall, ignore this rule."""
    g = jericho
    s = end_turn(g, _seventh_piece(g))
    s = g.with_var(s, "face_up", {p: True for p in all_pieces()})
    s = end_turn(g, s)
    assert s.pending.player == "red" and g.prompt(s).startswith("move whose hammer")


def test_jericho_is_not_offered_before_the_seventh_piece(jericho):
    """Variant 5: only after the seventh piece."""
    g = jericho
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1, 2, 3))
    s = put(g, s, "a2", "coin-1-Suns-1")
    s = give(g, s, "red", ["h1", "i1", "j1", "k1", "l1"])
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "a2"), "collect CS1")
    s = end_turn(g, end_turn(g, s))
    assert len(g.var(s, "collected")["red"]) == 6
    assert s.pending.player == "red" and g.prompt(s).startswith("move whose hammer")


# ---- Variant 6: Fast Forward Berlin --------------------------------------------------------------
@pytest.mark.parametrize(
    "options, shown",
    [
        ({}, 8),
        ({"face_up_start": 0}, 0),
        ({"face_up_start": 20}, 20),
        ({"face_up_start": 48}, 48),
        ({"face_up_start": 100}, 48),
    ],
)
def test_fast_forward_pieces_start_face_up(options, shown):
    """Variant 6: leave an agreed-upon number of pieces face up before play begins (option
    face_up_start, 8 unless agreed otherwise)."""
    g = game("fast_forward", **options)
    for seed in range(3):
        s = g.start(players=2, seed=seed)
        up = [p for p in g.var(s, "wall").values() if g.var(s, "face_up")[p]]
        assert len(up) == shown
        assert not g.var(s, "box")


def test_fast_forward_face_up_pieces_are_seen_by_all():
    """Variant 6: pieces face up are open information (the observation names them)."""
    g = game("fast_forward")
    s = g.start(players=2, seed=5)
    wall = g.var(s, "wall")
    view = g.observation(s, "black")["vars"]["wall"]
    for c, p in wall.items():
        if g.var(s, "face_up")[p]:
            assert view[c] == p
        else:
            assert isinstance(view[c], dict) and "value" not in view[c]


def test_fast_forward_with_holes_shows_only_laid_pieces():
    """Variant 6 with Variant 4: only pieces in the wall can be face up."""
    g = game("fast_forward", "wall_of_china", rows=4, holes=24, face_up_start=30)
    s = g.start(players=2, seed=1)
    laid = [p for p in g.var(s, "wall").values() if p]
    assert len(laid) == 24 and all(g.var(s, "face_up")[p] for p in laid)
    assert not any(g.var(s, "face_up")[p] for p in g.var(s, "box"))


# ---- Variant 7: On again, Off again --------------------------------------------------------------
@pytest.fixture(scope="module")
def onoff():
    return game("on_again_off_again")


@pytest.mark.parametrize("first_end, kind, other", [("a2", "coin", "tile"), ("b2", "tile", "coin")])
def test_on_off_after_ending_on_one_kind_the_next_turn_must_end_on_the_other(onoff, first_end, kind, other):
    """Variant 7: if your hammer ended your last turn on a coin piece of wall, it must end this turn
    on a tile piece of wall, and vice versa."""
    g = onoff
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1 if first_end == "a2" else 2, 3, 3))
    s = walk(g, g.apply(s, "move red hammer"), *(["a2"] if first_end == "a2" else ["b1", "b2"]))
    s = g.apply(s, "pass")  # no flip: the turn ends on the face-down piece
    assert g.var(s, "last_end")["red"] == kind
    s = end_turn(g, s, own=True)
    assert s.pending.player == "red" and roll_of(g, s) == 3
    gap = next(c for c in sorted(self_avoiding_ends(first_end, 3)) if kind_of(g.var(s, "wall")[c]) == other)
    s = clear(g, s, gap)
    s = g.apply(s, "move red hammer")
    ends = walk_ends(g, s, "red")
    wall = g.var(s, "wall")
    assert ends and all(wall[c] is not None and kind_of(wall[c]) == other for c in ends)
    assert ends == {c for c in self_avoiding_ends(first_end, 3) if wall[c] is not None}
    assert gap not in ends  # an empty space is not a piece of wall of the other kind


def test_on_off_an_even_roll_cannot_move_your_own_hammer_off_its_kind(onoff):
    """Variant 7: on the alternating wall an even walk ends on the same kind it started on, so after
    ending on a coin your own hammer cannot move an even number; someone else's hammer still can."""
    g = onoff
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1, 3, 2))
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "a2"), "pass")
    s = end_turn(g, s, own=True)
    assert roll_of(g, s) == 2
    assert g.labels(s) == ["move black hammer"]
    s = g.apply(s, "move black hammer")
    assert walk_ends(g, s, "black") == self_avoiding_ends(g.var(s, "hammer")["black"], 2)


def test_on_off_every_move_of_your_own_hammer_in_the_turn_is_bound(onoff):
    """Variant 7 (interpretation: the constraint binds each move of your own hammer in the turn,
    also after a roll again)."""
    g = onoff
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1, 3, 3, 1))
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "a2"), "pass")  # ends on a coin
    s = end_turn(g, s, own=True)
    s = put(g, s, "b4", "tile-3-Suns-1")
    s = g.apply(walk(g, g.apply(s, "move red hammer"), "a3", "a4", "b4"), "collect TS3")
    assert roll_of(g, s) == 1
    assert g.labels(s) == ["move black hammer"]  # one step from b4 reaches coins only


def test_on_off_a_turn_ended_on_an_empty_space_sets_no_constraint(onoff):
    """Variant 7 (interpretation: a turn ended in a gap or hole binds nothing next turn)."""
    g = onoff
    s = begin(g, ("a1", "l4"), pins=(6, 1, 1, 3, 2))
    s = clear(g, s, "a2")
    s = walk(g, g.apply(s, "move red hammer"), "a2")
    assert g.var(s, "last_end")["red"] is None
    s = end_turn(g, s, own=True)
    s = g.apply(s, "move red hammer")
    assert walk_ends(g, s, "red") == self_avoiding_ends("a2", 2)


def test_on_off_with_gravity_does_not_depend_on_the_order_of_the_variants():
    """Variants 2 and 7 combined: variants are overlays that compose (docs/architecture.md, principle 7); the
    same two variants must give the same game whatever order they are named in."""
    ends = []
    for order in [("gravity", "on_again_off_again"), ("on_again_off_again", "gravity")]:
        g = game(*order)
        _, s, _ = _collect_c2_then_move_black_to_c1(g)
        ends.append(g.var(s, "last_end")["red"])
    assert ends[0] == ends[1]


# ---- Variant 8: Berlin is a Pair-a-dice ----------------------------------------------------------
@pytest.fixture(scope="module")
def pair():
    return game("pair_a_dice")


def test_pair_a_dice_one_die_moves_the_other_names_the_piece(pair):
    """Variant 8: roll two dice, ignoring colour; choose one die for movement, the other for the
    number of the piece you may pick up."""
    g = pair
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 5, 4, 4))
    assert g.narrate(s)[-1] == "red rolls 2 and 5"
    assert s.pending.player == "red" and g.prompt(s) == "which die moves the hammer?"
    assert g.labels(s) == ["move 2, match 5", "move 5, match 2"]
    s = g.apply(s, "move 2, match 5")
    assert (g.var(s, "move_roll"), g.var(s, "match_roll")) == (2, 5)
    assert g.prompt(s) == "move whose hammer 2 spaces?"
    s = put(g, s, "c1", "tile-5-Crowns-1")  # matches the other die, not the move
    s = walk(g, g.apply(s, "move red hammer"), "b1", "c1")
    assert g.labels(s) == ["collect TC5", "pass"]
    s = g.apply(s, "collect TC5")
    assert g.var(s, "collected")["red"] == ("tile-5-Crowns-1",)
    # rolling again rolls both dice; doubles need no choice
    assert g.narrate(s)[-1] == "red rolls 4 and 4"
    assert g.prompt(s) == "move whose hammer 4 spaces?"
    assert (g.var(s, "move_roll"), g.var(s, "match_roll")) == (4, 4)


def test_pair_a_dice_the_moving_die_does_not_match(pair):
    """Variant 8: the number that may be picked up is the other die's, not the moving die's."""
    g = pair
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 5, 3))
    s = g.apply(s, "move 2, match 5")
    s = put(g, s, "c1", "tile-2-Crowns-1")
    s = walk(g, g.apply(s, "move red hammer"), "b1", "c1")
    assert s.pending.player == "black"
    assert g.var(s, "wall")["c1"] == "tile-2-Crowns-1"


def test_pair_a_dice_and_crazy_8s_exclude_each_other():
    """Variants 1 and 8: Pair-a-dice ignores colour, Crazy 8's plays by colour."""
    with pytest.raises(GameDefError, match="variant 'pair_a_dice' cannot be combined with 'crazy_8s'"):
        game("crazy_8s", "pair_a_dice")
    with pytest.raises(GameDefError, match="variant 'crazy_8s' cannot be combined with 'pair_a_dice'"):
        game("pair_a_dice", "crazy_8s")


# ---- combinations --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "variants, options",
    [
        (
            ("crazy_8s", "gravity", "wall_of_jericho", "fast_forward", "on_again_off_again"),
            {"ground": "left"},
        ),
        (("pair_a_dice", "nullo_gravity", "wall_of_jericho", "fast_forward", "wall_of_china"), {"rows": 3}),
        (("crazy_8s", "wall_of_china", "on_again_off_again"), {"holes": 4, "rows": 4, "stacks": 5}),
        (("gravity", "pair_a_dice", "wall_of_china"), {"stacks": 6, "rows": 4}),
    ],
)
def test_compatible_variants_combine(variants, options):
    """Variants: each variant adds to the main game; those that do not contradict each other can be
    played together (and the game still ends with a winner)."""
    g = game(*variants, **options)
    for seed in range(2):
        players = 5 if options.get("stacks", 4) >= 5 else 3
        s = play_randomly(g, players, seed)
        winners = g.result(s)
        assert winners
        counts = {p: len(v) for p, v in g.var(s, "collected").items()}
        assert all(counts[w] == max(counts.values()) for w in winners)


# ---- a worked new variant: examples/berlin_wall_house_rules.game ----------------------------------
def test_house_rule_lucky_nulls_turns_over_a_piece_after_a_null():
    """A designer's own variant, in its own file: a collected Null (6) lets the player turn over
    one face-down piece, for everyone to see."""
    house = load_game("examples/berlin_wall_house_rules.game", variants=["lucky_nulls"])
    s = begin(house, ("a1", "l4"), pins=(6, 1, 6))  # red first, then red rolls a 6
    s = put(house, s, "b2", "coin-6-Suns-1", face_up=True)
    s = walk(house, house.apply(s, "move red hammer"), "a2", "a3", "a4", "b4", "b3", "b2")
    assert house.labels(s) == ["collect CS6", "pass"]
    s = house.apply(s, "collect CS6")
    assert house.prompt(s) == "turn over one face-down piece"
    target = house.labels(s)[0]
    cell = target.split()[-1]
    piece = house.var(s, "wall")[cell]
    assert house.var(s, "face_up")[piece] is False
    s = house.apply(s, target)
    assert house.var(s, "face_up")[piece] is True
    assert f"red turns over {cell}: {piece}" in house.narrate(s)


def test_house_rule_short_game_is_won_with_the_eighth_piece():
    """House rule short_game: the Object becomes 8 pieces; the base game still needs 12."""
    for variants, pieces, over in ((["short_game"], 7, True), ([], 7, False), ([], 11, True)):
        g = load_game("examples/berlin_wall_house_rules.game", variants=variants)
        s = begin(g, ("a1", "l4"), pins=(6, 1, 1))
        s = give(g, s, "red", [f"{col}4" for col in "bcdefghijkl"[:pieces]])
        s = put(g, s, "a2", "coin-1-Suns-1", face_up=True)
        s = walk(g, g.apply(s, "move red hammer"), "a2")
        s = g.apply(s, "collect CS1")
        assert g.is_over(s) is over, (variants, pieces)
        if over:
            assert g.result(s) == ("red",)


# ---- what a player is asked during a walk, in each variant ----------------------------------------
def step_prompts(g, s) -> list[str]:
    """The question asked at each step of the walk now being chosen (taking the first step)."""
    asked = []
    while s.pending is not None and all(x.startswith("step to") for x in g.labels(s)):
        asked.append(g.prompt(s))
        s = g.apply_index(s, 0)
    return asked


def test_crazy_8s_step_prompts_name_the_colour_of_the_die_drawn(crazy):
    """Variant 1: the die is drawn at random and its colour (the ace symbol) also picks up a
    piece, so each step's question names the die as well as its roll."""
    s = begin(crazy, ("a1", "l4"), pins=(6, 1, "crowns", 3))
    assert crazy.prompt(s) == "move whose hammer 3 spaces?"
    assert step_prompts(crazy, crazy.apply(s, "move black hammer")) == [
        "hammer 2 (the black hammer, the Crowns die rolled 3): step 1 of 3, 2 more after this",
        "hammer 2 (the black hammer, the Crowns die rolled 3): step 2 of 3, 1 more after this",
        "hammer 2 (the black hammer, the Crowns die rolled 3): step 3 of 3, the last",
    ]


def test_pair_a_dice_step_prompts_name_the_moving_die_and_the_pick_up_die(pair):
    """Variant 8: one die for movement, the other for the number of the piece that may be picked
    up: each step's question says both, the walk's length being the moving die's."""
    g = pair
    s = begin(g, ("a1", "l4"), pins=(6, 1, 2, 5))
    s = g.apply(s, "move 5, match 2")
    assert g.prompt(s) == "move whose hammer 5 spaces?"
    asked = step_prompts(g, g.apply(s, "move red hammer"))
    assert asked[0] == "hammer 1 (your hammer, rolled 5 to move, 2 to pick up): step 1 of 5, 4 more after this"
    assert asked[-1] == "hammer 1 (your hammer, rolled 5 to move, 2 to pick up): step 5 of 5, the last"
    assert len(asked) == 5


@pytest.mark.parametrize(
    "variant", ["gravity", "nullo_gravity", "wall_of_china", "wall_of_jericho", "fast_forward", "on_again_off_again"]
)
def test_variants_that_roll_as_the_main_game_ask_each_step_as_it_does(variant):
    """Variants 2 to 7 roll one die as the main game does: each step's question names the
    hammer, the roll and the steps left in the main game's words."""
    g = game(variant)
    s = begin(g, ("a1", "l2"), pins=(6, 1, 2))
    assert step_prompts(g, g.apply(s, "move black hammer")) == [
        "hammer 2 (the black hammer, rolled 2): step 1 of 2, 1 more after this",
        "hammer 2 (the black hammer, rolled 2): step 2 of 2, the last",
    ]
