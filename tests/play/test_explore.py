"""Games someone wins, found by an archive of coarse cells (`interpreter/play/explore.py`,
`gamedef learn --explore`), and an estimate learnt from them.

The game here is a long race that random play never wins: a seat scores only when it
picks the 4 of five numbers, and needs 13 points in its 20 turns (a random seat: about one
game in 70,000). The search finds won games; a model fitted from them plays
the race, one ply, far better than random play does.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy", reason="the learned estimate needs numpy: pip install '.[learn]'")

from interpreter import load_game  # noqa: E402
from interpreter.cli.commands import main  # noqa: E402
from interpreter.play import explore  # noqa: E402
from interpreter.play.agents import RandomAgent, parse_agents  # noqa: E402

LONG_RACE = """
game longrace "A long race" {
    players 2..2
    seats [a, b]
}

var score: player -> int = 0
var turns: int = 0

view {
    status "{score[a]} to {score[b]}, turn {turns}"
}

procedure play() {
    rule "Race: each turn a player picks a number; a 4 scores a point"
    while true {
        for p in players {
            choose n from [0, 1, 2, 3, 4] by p prompt "pick" label "{n}"
            if n == 4 {
                score[p] += 1
            }
            if score[p] >= 13 {
                rule "Race: the first to thirteen points wins"
                win p
            }
            turns += 1
            if turns >= 40 {
                rule "Race: after twenty turns each, nobody wins"
                game over []
            }
        }
    }
}
"""


@pytest.fixture(scope="module")
def race_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("longrace") / "longrace.game"
    path.write_text(LONG_RACE, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def race(race_file):
    return load_game(race_file)


def _play(game, agents: dict, seed: int) -> tuple[str, ...]:
    state = game.start(seed=seed)
    while state.result is None:
        state = game.apply_index(state, agents[state.pending.player].choose(game, state))
    return state.result


def test_random_play_never_wins_the_long_race(race):
    results = [_play(race, {"a": RandomAgent(s), "b": RandomAgent(s + 1)}, s) for s in range(300)]
    assert results == [()] * 300


def test_the_search_finds_a_won_game_and_the_same_seed_finds_the_same(race):
    found, about = explore.explore(race, 3, None, iterations=3000, positions=100)
    assert found is not None and about["iterations"] < 3000
    seed, positions, payoffs = found
    assert seed == 3 and sorted(payoffs.values()) == [-1.0, 1.0]  # one seat won, the other lost
    winner = next(s for s, v in payoffs.items() if v == 1.0)
    last = max(positions, key=lambda st: st.decisions)
    assert race.observation(last, None)["vars"]["score"][winner] >= 12  # a point from the win
    again, _ = explore.explore(race, 3, None, iterations=3000, positions=100)
    assert again is not None and [st.decisions for st in again[1]] == [st.decisions for st in positions]
    assert again[2] == payoffs


def test_a_search_too_short_finds_nothing(race):
    found, about = explore.explore(race, 3, None, iterations=5)
    assert found is None and about["iterations"] == 5


def test_the_cells_split_a_map_kept_per_seat_and_coarsen_each_sum(race):
    cells = explore.Cells(race)
    state = race.start(seed=0, arrange=lambda s: race.with_var(race.with_var(s, "score", {"a": 9, "b": 2}), "turns", 5))
    assert cells.cell(state) == (3, 1, 2)  # square roots of 9 and 2 (each seat's score), then of 5 turns


@pytest.mark.slow  # two searches of 20 games and 20 greedy games: about 4 s, more on a busy machine
def test_learning_from_the_games_found_plays_better_than_random(race_file, race, tmp_path, capsys):
    out = tmp_path / "race.json"
    assert main(["learn", str(race_file), "--games", "20", "--explore", "3000", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "20 games searched for a win" in err and "won 20 of 20 games" in err
    header = json.loads(out.read_bytes())
    assert (header["explore"], header["games"]) == (3000, 20)
    wins = 0
    for seed in range(101, 121):
        agents, _ = parse_agents([f"a=greedy:learned={out}"], race, ("a", "b"), seed)
        wins += _play(race, agents, seed) == ("a",)
    # A random seat wins about one game in 70,000. The model weighs the lead most (the winner of
    # a game found led), so one ply by it scores while its value is below 1; clamped at 1
    # far ahead, it no longer tells a point from none, and some games run out of turns.
    assert wins >= 5
    again = tmp_path / "again.json"
    assert main(["learn", str(race_file), "--games", "20", "--explore", "3000", "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()  # seeded: the same file


def test_rounds_after_a_search_play_greedily_with_random_decisions(race_file, tmp_path, capsys):
    out = tmp_path / "race.json"
    argv = ["learn", str(race_file), "--games", "6", "--explore", "3000", "--rounds", "2", "--epsilon", "0.25"]
    assert main([*argv, "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "round 2 of 2: 6 games greedy by the last fit, one decision in 4 random" in err
    assert "of the round's 6 games ended with a winner" in err
    assert json.loads(out.read_bytes())["epsilon"] == 0.25


def test_the_command_says_when_the_search_found_no_win(race_file, tmp_path, capsys):
    assert main(["learn", str(race_file), "--games", "2", "--explore", "3", "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert "the search found no game anyone wins in 2 games of 3 iterations" in err
    assert "search longer (--explore) or more games (--games)" in err
    assert main(["learn", str(race_file), "--epsilon", "1.5"]) == 2
    assert "--epsilon 1.5: a number from 0 to 1" in capsys.readouterr().err
    assert main(["learn", str(race_file), "--explore", "10", "--agent", "first"]) == 2
    assert "--explore searches each game by random decisions: --agent first would not be used" in (
        capsys.readouterr().err
    )


def test_an_exploring_seat_takes_random_decisions_as_often_as_asked(race):
    class Zero:
        def choose(self, game, state):
            return 0

    state = race.start(seed=0)
    never = explore.Exploring(Zero(), 0.0, 1)
    always = explore.Exploring(Zero(), 1.0, 1)
    assert {never.choose(race, state) for _ in range(50)} == {0}
    assert len({always.choose(race, state) for _ in range(50)}) == 5


def test_the_search_leaves_the_dice_to_the_games_seed(race, monkeypatch, capsys):
    """In chance mode the dice are the chance seat's moves; the search, which picks every
    seat's moves, would pick them too and find wins by luck no seat has. It searches the
    game itself instead, whose seed draws them."""
    from argparse import Namespace

    from interpreter.cli import learning
    from interpreter.runtime.game import ChanceGame

    searched = []

    def found(game, seed, players, iterations, positions):
        searched.append(type(game))
        return (seed, [game.start(seed=seed)], {"a": 1.0, "b": -1.0}), {"iterations": 1, "cells": 1}

    monkeypatch.setattr(explore, "explore", found)
    chance = ChanceGame(race.compiled, race.name, race.variants, race.options)
    args = Namespace(games=2, seed=1, explore=10, positions=5)
    assert len(learning._explored(chance, args, 2)) == 2
    assert searched and not any(issubclass(t, ChanceGame) for t in searched)
    assert "won 2 of 2 games" in capsys.readouterr().err
