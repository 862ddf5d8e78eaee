"""Search agents on every bundled game: a search must never crash on a game the project ships.

Each bundled game is played to its end with every seat on each search agent that accepts
it (`mcts` for the games of perfect information, `ismcts` for all), the agents made from
the same `SEAT=KIND` specs as `--agent`, the game loaded as the command line loads it (in
chance mode where ismcts needs the record of the moves). Three iterations a decision is the
fewest that descends below a root of two moves, so a random draw met inside the tree (the
`KeyError: 'chance'` once raised there) is reached; the rollouts are cut short, since the
tree, not the rollout, is what is under test. The whole games are `slow`; the regression
test of the draw inside the tree is not.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter import load_game
from interpreter.play.agents import RandomAgent, needs_chance, parse_agents
from interpreter.play.mcts import ISMCTSAgent, MCTSAgent, draw, hidden_information
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.game import ChanceGame

GAMES = ["berlin_wall", "walls_and_wonders", "missiles_now", "twid", "downfall_of_empires", "tictactoe", "kuhn_poker"]
ITERATIONS = 3
ROLLOUT = 4  # decisions of random play after the tree, then a draw for all
# Berlin Wall has no end by repetition: seats that all pick alike can move a hammer to and
# fro for ever (every seat on `first` does), as searches this short, with no payoff seen in
# their rollouts, may. Past this many decisions the seats play at random to the end.
SEARCHED = 5_000
# Downfall of Empires searched to its end takes some 20 minutes here (each IS-MCTS decision
# replays the record to redraw the others' secret research): its first decisions, through
# the first turns' combats (draws of the chance seat inside the tree), are searched.
SEARCHED_IN = {"downfall_of_empires": 150}

BET = """
game bet "Bet on a die" {
    players 2..2
    seats [p1, p2]
}
var got: int = 0
procedure play() {
    rule "Bet: p1 adds 0 or 5 to a die and wins on 6 or more"
    choose x from [0, 5] by p1
    roll d from [1, 2, 2, 3, 4, 5, 6]
    got = d
    if d + x >= 6 {
        win p1
    } else {
        win p2
    }
}
"""


@pytest.fixture(scope="module")
def bet(tmp_path_factory) -> ChanceGame:
    path = tmp_path_factory.mktemp("bet") / "bet.game"
    path.write_text(BET, encoding="utf-8")
    return load_game(path, chance=True)


@pytest.mark.parametrize("agent", [MCTSAgent, ISMCTSAgent])
def test_a_draw_inside_the_search_tree_is_sampled_not_credited(bet, agent):
    """In chance mode a roll after a move is a decision of the `chance` seat, which has no
    payoff: a search that goes below the move must draw it, not score it (it raised
    KeyError: 'chance'), and still finds the move that wins on every roll."""
    s = bet.start()
    assert bet.labels(s) == ["0", "5"]
    assert bet.current_player(bet.apply(s, "5")) == CHANCE  # the draw follows the move
    assert bet.labels(s)[agent(20, seed=1).choose(bet, s)] == "5"


def test_a_draw_in_the_tree_follows_its_probabilities(bet):
    """A face printed twice is drawn twice as often: the draw is the die's, not uniform over
    the distinct results."""
    s = bet.apply(bet.start(), "0")
    labels = bet.labels(s)
    rng = random.Random(5)
    counts = Counter(labels[draw(bet, s, rng)] for _ in range(7000))
    assert set(counts) == {f"roll {n}" for n in range(1, 7)}
    assert 1800 < counts["roll 2"] < 2200 and all(900 < counts[f"roll {n}"] < 1100 for n in (1, 3, 4, 5, 6))


def _cases() -> list[tuple[str, str]]:
    return [(name, kind) for name in GAMES for kind in ("mcts", "ismcts") if kind == "ismcts" or _perfect(name)]


def _perfect(name: str) -> bool:
    return not hidden_information(load_game(name))


@pytest.mark.slow
@pytest.mark.parametrize("name, kind", _cases())
def test_every_seat_on_a_search_agent_plays_a_bundled_game_to_its_end(name, kind):
    """The game's default number of players (its fewest if it has none), every seat on
    `KIND:3`, the game loaded as `gamedef run --agent SEAT=KIND:3` loads it."""
    game = load_game(name)
    seats = game.start().players
    specs = [f"{seat}={kind}:{ITERATIONS}" for seat in seats]
    if needs_chance(game, specs):
        game = ChanceGame(game.compiled, game.name, game.variants, game.options)
    agents, _ = parse_agents(specs, game, seats, seed=3)
    for seat in seats:
        assert isinstance(agents[seat], MCTSAgent if kind == "mcts" else ISMCTSAgent)
        agents[seat].max_rollout = ROLLOUT
    at_random = RandomAgent(3)
    state = game.start(players=len(seats))
    while not game.is_over(state):
        player = state.pending.player
        searched = state.decisions < SEARCHED_IN.get(name, SEARCHED)
        agent = agents[player] if player == CHANCE or searched else at_random
        state = game.apply_index(state, agent.choose(game, state))
        assert state.decisions < 100_000
    assert game.result(state) is not None
