"""The hand-written influence operations (benchmarks/baselines/twid_influence.py) play the
same games as the interpreter on benchmarks/scenarios/twid_influence.game.

A speed ratio means something only if both sides do the same work: at every decision the
labels must be the same, in the same order, and at the end every side's influence in every
country. Several ways of choosing are used, so that edges change hands, costs rise by the
edge's +1 and countries fill up, not only the positions random picks reach.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import pytest
from repo_paths import ROOT

from benchmarks.baselines import twid_influence as baseline
from interpreter import Game, GameRuntimeError, load_game

SCENARIO = ROOT / "benchmarks" / "scenarios" / "twid_influence.game"


@cache
def scenario() -> Game:
    return load_game(SCENARIO, variants=("influence_only",))


def interpreter_influence(game: Game, state) -> dict[str, dict[str, int]]:
    """The interpreter's influence by side and country title (the baseline's keys)."""
    titles = game.compiled.rt.titles  # component name -> title, as labels show it
    return {side: {titles[x]: n for x, n in row.items()} for side, row in game.var(state, "influence").items()}


# Ways of choosing: (seed, number of options) -> a function of n giving an index.
def at_random(seed: int) -> Callable[[int], int]:
    return random.Random(seed).randrange


def never_stop(seed: int) -> Callable[[int], int]:
    """A random country, never the stop option (the last): operations spend their points."""
    rng = random.Random(seed)
    return lambda n: rng.randrange(max(1, n - 1))


def first_country(seed: int) -> Callable[[int], int]:
    """Always the first country offered: the same few countries fill up to their 8 tokens."""
    return lambda n: 0


def last_country(seed: int) -> Callable[[int], int]:
    """Always the last country before the stop option: the far end of the map."""
    return lambda n: max(0, n - 2)


STRATEGIES = [at_random, never_stop, first_country, last_country]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("strategy", STRATEGIES, ids=lambda f: f.__name__)
def test_same_decisions_and_influence(players: int, seed: int, strategy) -> None:
    game = scenario()
    state = game.start(players=players, seed=seed)
    mine = baseline.new_game(players, seed)
    pick = strategy(seed)
    assert baseline.influence(mine) == interpreter_influence(game, state), "starting influence"
    decisions = 0
    while not game.is_over(state):
        labels = game.labels(state)
        assert baseline.legal_moves(mine) == labels, f"decision {decisions}"
        i = pick(len(labels))
        state = game.apply_index(state, i)
        baseline.apply(mine, i)
        decisions += 1
    assert baseline.is_over(mine) and baseline.legal_moves(mine) == []
    assert game.result(state) == ()
    assert mine.decisions == decisions == state.decisions
    assert baseline.influence(mine) == interpreter_influence(game, state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_are_the_same_games(players: int) -> None:
    """benchmarks/run.py's two paths, `Game.playout` and `random_playout`, from one seed."""
    game = scenario()
    for seed in range(10):
        end = game.playout(game.start(players=players, seed=seed), random.Random(seed).randrange)
        assert baseline.random_playout(players, seed) == end.decisions


def test_labels_as_moves() -> None:
    """`apply` also takes a label, as the other baselines' moves are."""
    mine = baseline.new_game(2)
    label = baseline.legal_moves(mine)[1]
    baseline.apply(mine, label)
    assert mine.decisions == 1 and mine.influence[0][baseline.TITLES.index("Mexico")] == 1


def test_solo_is_refused_by_both() -> None:
    with pytest.raises(GameRuntimeError, match="2 to 4 players"):
        scenario().start(players=1, seed=0)
    with pytest.raises(ValueError, match="2 to 4 players"):
        baseline.new_game(1)
