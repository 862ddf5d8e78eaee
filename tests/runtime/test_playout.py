"""`Game.playout`: many decisions in one working copy give exactly the states that
`apply_index`, a frozen state per decision, gives (the searches' rollouts and `gamedef
bench` rely on it), and never change the state they start from."""

from __future__ import annotations

import random

import pytest

from interpreter import load_game
from interpreter.runtime.game import ChanceGame

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # The playout of the longest game (the six other games stay).
    r"test_a_playout_ends_in_the_state_that_apply_index_gives\[downfall_of_empires-4p\]",
]

# (game, variants, players, decisions to play: None for a whole game)
GAMES = [
    ("tictactoe", (), 2, None),
    ("kuhn_poker", (), 2, None),
    ("berlin_wall", (), 3, None),
    ("berlin_wall", ("gravity", "crazy_8s"), 2, None),
    ("walls_and_wonders", (), 4, None),
    ("missiles_now", (), 4, None),
    ("twid", (), 2, 150),
    ("downfall_of_empires", (), 4, 150),
]
IDS = [f"{name}{'+' + '+'.join(v) if v else ''}-{n}p" for name, v, n, _ in GAMES]


def step_by_step(game, state, rng: random.Random, limit: int | None):
    """The reference: one `apply_index` per decision, each choice `rng.randrange(n)`."""
    done = 0
    while state.result is None and (limit is None or done < limit):
        state = game.apply_index(state, rng.randrange(len(state.pending.values)))
        done += 1
    return state


@pytest.fixture(scope="module")
def loaded():
    return {}


def get(loaded, name, variants):
    key = (name, variants)
    if key not in loaded:
        loaded[key] = load_game(name, variants=variants)
    return loaded[key]


@pytest.mark.parametrize("config", GAMES, ids=IDS)
def test_a_playout_ends_in_the_state_that_apply_index_gives(loaded, config):
    name, variants, players, limit = config
    game = get(loaded, name, variants)
    for seed in (1, 2):
        start = game.start(players=players, seed=seed)
        before = (start.vars, start.frames, start.pending, start.rng, start.log)
        expected = step_by_step(game, start, random.Random(seed), limit)
        got = game.playout(start, random.Random(seed).randrange, limit)
        assert got == expected  # variables, frames, pending decision, generator, log, count
        assert got.decisions == expected.decisions
        assert got.decisions == limit or got.result is not None
        assert (start.vars, start.frames, start.pending, start.rng, start.log) == before
        if limit is None:
            assert got.result is not None and got.pending is None


@pytest.mark.parametrize("config", GAMES[:6], ids=IDS[:6])
def test_a_playout_cut_short_goes_on_from_where_it_stopped(loaded, config):
    name, variants, players, _ = config
    game = get(loaded, name, variants)
    start = game.start(players=players, seed=5)
    whole = game.playout(start, random.Random(5).randrange)
    rng = random.Random(5)
    part = game.playout(start, rng.randrange, 1)
    assert part.decisions == 1 and part.result is None
    assert part == step_by_step(game, start, random.Random(5), 1)
    assert game.playout(part, rng.randrange) == whole


def test_nothing_to_play_gives_the_state_back(loaded):
    game = get(loaded, "tictactoe", ())
    start = game.start(seed=0)
    assert game.playout(start, random.Random(0).randrange, 0) is start
    over = game.playout(start, random.Random(0).randrange)
    assert over.result is not None
    assert game.playout(over, random.Random(0).randrange) is over


def test_a_chance_game_plays_out_its_draws_as_decisions(loaded):
    base = get(loaded, "kuhn_poker", ())
    game = ChanceGame(base.compiled, base.name, base.variants, base.options)
    start = game.start(players=2)
    assert game.is_chance_node(start)  # the deal is the first decision
    got = game.playout(start, random.Random(3).randrange)
    assert got == step_by_step(game, start, random.Random(3), None)
    assert got.result is not None


@pytest.mark.parametrize("config", GAMES[:6], ids=IDS[:6])
def test_the_next_move_from_the_state_just_made_is_the_move_from_it_thawed(loaded, config):
    """`start`, `apply_index` and `playout` keep their working copy with the state they
    return (interpreter/runtime/engine.py, `_working`): the next move from that very state runs
    on it. Whether run on it or on the state thawed anew, every next state is the same."""
    name, variants, players, _ = config
    game = get(loaded, name, variants)
    start = game.start(players=players, seed=7)
    on_kept = [game.apply_index(start, 0)]
    part = game.playout(on_kept[0], random.Random(7).randrange, 2)
    if part.pending is not None:
        on_kept.append(game.apply_index(part, 0))
    thawed = [game.apply_index(start, 0)]  # `start` is no longer the state last made
    game.start(players=players, seed=8)
    if part.pending is not None:
        thawed.append(game.apply_index(part, 0))
    assert on_kept == thawed
