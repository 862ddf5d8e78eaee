"""A cell or node of a seat's board plays the move that chooses it, found by the move's
value (`Move.value`), never by the words of its label (docs/web.md)."""

from __future__ import annotations

import random
import re

from interpreter import load_game
from interpreter.web.board import draw


def _clickable(drawing) -> dict[str, int]:
    """Each clickable node of the map (by its name) and each grid cell button (by its
    tooltip, the move's label) with the move index a click plays."""
    found = {n: int(i) for i, n in re.findall(r'data-move="(\d+)"[^>]*data-node="([^"]+)"', drawing.map)}
    for part in drawing.parts:
        found.update({t: int(i) for i, t in re.findall(r'data-move="(\d+)" title="([^"]*)"', part)})
    return found


def _position(game, state, prompt: str):
    """The first position of a seeded random game whose prompt says `prompt`."""
    rng = random.Random(5)
    for _ in range(3000):
        if state.pending is None:
            break
        if prompt in game.prompt(state):
            return state
        state = game.apply_index(state, rng.randrange(len(state.pending.values)))
    raise AssertionError(f"no {prompt!r} in the game played")


def test_an_army_chosen_by_a_move_makes_its_zone_play_it():
    """Downfall of Empires: "activate an army" chooses an army (the move's value is the
    army); its zone, where the viewer sees it stand, plays the move, whatever the label
    says; a move whose value is no place and no piece on one plays nothing."""
    game = load_game("downfall_of_empires")
    state = _position(game, game.start(seed=2), "activate an army")
    seat = state.pending.player
    moves = game.legal_moves(state)
    army = next(m for m in moves if sum(o.label.endswith(m.label.rsplit(" in ", 1)[1]) for o in moves) == 1)
    zone_title = army.label.rsplit(" in ", 1)[1]
    zone = next(n for n in game.compiled.rt.links if game.compiled.rt.display(n) == zone_title)
    clicks = _clickable(draw(game, state, seat, moves))
    assert clicks.get(zone) == moves.index(army)
    relabelled = [m._replace(label=f"option {i}") for i, m in enumerate(moves)]
    assert _clickable(draw(game, state, seat, relabelled)) == clicks  # the value decides, not the words
    assert _clickable(draw(game, state, seat, [m._replace(value=None) for m in moves])) == {}


def test_a_country_chosen_by_its_value_is_clickable_and_one_only_named_by_its_label_is_not():
    """The Wall is Down: placing influence chooses countries (each move's value a
    country): each country node plays its move. A label naming a country plays nothing
    when the move does not choose it."""
    game = load_game("twid")
    state = _position(game, game.start(players=4, seed=1), "points of influence left")
    seat = state.pending.player
    moves = game.legal_moves(state)
    clicks = _clickable(draw(game, state, seat, moves))
    countries = {m.value: i for i, m in enumerate(moves) if m.value in game.compiled.rt.links}
    assert countries and clicks == countries
    named = [m._replace(value="a value that is no place") for m in moves]
    assert _clickable(draw(game, state, seat, named)) == {}


def test_a_grid_cell_plays_the_move_whose_value_it_is():
    """Berlin Wall's first choice puts a hammer on a cell (each move's value a cell):
    every cell is a button playing its own move, its tooltip the move's label."""
    game = load_game("berlin_wall")
    state = game.start(players=2, seed=1)
    moves = game.legal_moves(state)
    clicks = _clickable(draw(game, state, state.pending.player, moves))
    assert clicks == {m.label: i for i, m in enumerate(moves)} and len(clicks) == 48
    relabelled = [m._replace(label=f"option {i}") for i, m in enumerate(moves)]
    clicks = _clickable(draw(game, state, state.pending.player, relabelled))
    assert clicks == {f"option {i}": i for i in range(48)}  # no cell's name in any label: each still plays
