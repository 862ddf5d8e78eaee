"""The adapters' numbers for learners and the ecosystem's algorithms (docs/adapters.md):
the generic observation and information-state tensors (interpreter/adapters/tensors.py),
serialization of OpenSpiel states, resampling for OpenSpiel's IS-MCTS, OpenSpiel's
`rl_environment` with its tabular Q-learner, and PettingZoo's Box observations.
Each section skips without its library."""

from __future__ import annotations

import pickle
import random
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def sa() -> ModuleType:
    """The OpenSpiel adapter, or a skip without open_spiel."""
    pytest.importorskip("pyspiel")
    from interpreter.adapters import spiel_adapter

    return spiel_adapter


def _all_states(game) -> list:
    from open_spiel.python.algorithms.get_all_states import get_all_states

    return list(get_all_states(game, depth_limit=-1, include_terminals=False, include_chance_states=False).values())


def _partition(states, player: int, key) -> set[frozenset]:
    """The classes of states `player` cannot tell apart by `key` (their positions' texts)."""
    classes: dict = {}
    for s in states:
        classes.setdefault(key(s, player), set()).add(str(s) + repr(s.history()))
    return {frozenset(c) for c in classes.values()}


def test_kuhn_information_state_tensor_tells_apart_exactly_the_information_sets(sa):
    """Kuhn (1950): a player knows their own card and the betting so far, nothing else.
    The tensor (built from the declarations alone) must split the decision points into
    the same 6 classes per player, of 2 histories each, as the information state."""
    game = sa.load("kuhn_poker")
    states = _all_states(game)
    decisions = [s for s in states if s.current_player() >= 0]
    assert len(decisions) == 24
    for player in (0, 1):
        mine = [s for s in decisions if s.current_player() == player]
        by_string = _partition(mine, player, lambda s, p: s.information_state_string(p))
        by_tensor = _partition(mine, player, lambda s, p: tuple(s.information_state_tensor(p)))
        assert by_tensor == by_string
        assert len(by_tensor) == 6 and all(len(c) == 2 for c in by_tensor)


def test_kuhn_observation_tensor_shows_nothing_the_observation_hides(sa):
    """Kuhn (1950): each player sees only their own card: positions that differ only in
    the other's card read the same for a player, in the tensor as in the observation."""
    game = sa.load("kuhn_poker")
    states = _all_states(game)
    for player in (0, 1):
        by_string = _partition(states, player, lambda s, p: s.observation_string(p))
        by_tensor = _partition(states, player, lambda s, p: tuple(s.observation_tensor(p)))
        for cls in by_string:  # the tensor is never finer than the observation
            assert any(cls <= t for t in by_tensor)
        # and it does show the seat's own card: the deals of player 0's first decision differ
    first = [s for s in states if s.current_player() == 0 and len(s.history()) == 2]
    assert len({tuple(s.observation_tensor(0)) for s in first}) == 3


def test_tictactoe_observation_tensor_is_the_board_by_declared_types(sa):
    """Tic-tac-toe: a mark on a square is the one-hot of its player at that square
    (`var board: Cell -> player?`), beside the marks count (`var marks: int`)."""
    game = sa.load("tictactoe")
    state = game.new_initial_state()
    engine = game.engine
    for action in state.legal_actions():
        if engine.labels(state.engine_state)[state.legal_actions().index(action)] == "c1":
            state.apply_action(action)
            break
    layout = game._shared.layout()
    segments = {name: (at, size) for name, at, size in layout.segments}
    assert set(segments) == {"viewer", "to_move", "board", "marks"}
    tensor = state.observation_tensor(1)
    at, size = segments["board"]
    board = [tensor[at + i * 2 : at + i * 2 + 2] for i in range(9)]  # squares a1 b1 c1 a2 ... by declaration
    assert size == 18
    marked = [i for i, pair in enumerate(board) if any(pair)]
    assert marked == [2] and board[2] == [1.0, 0.0]  # c1, by x
    assert tensor[segments["marks"][0]] == 1.0
    assert tensor[segments["viewer"][0] : segments["viewer"][0] + 2] == [0.0, 1.0]
    assert tensor[segments["to_move"][0] : segments["to_move"][0] + 2] == [0.0, 1.0]


@pytest.mark.parametrize("name,moves", [("kuhn_poker", 10), ("twid", 40)])
def test_states_serialize_and_deserialize(sa, name, moves):
    """A state saved by OpenSpiel (its attributes pickled) and loaded again is the same
    position: same history, same text, same legal actions and tensors."""
    import pyspiel

    game = sa.load(name, players=2, max_game_length=500)
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(loaded) == str(state)
    copied = pickle.loads(pickle.dumps(state))
    assert str(copied) == str(state)
    if not state.is_terminal() and not state.is_chance_node():
        p = state.current_player()
        assert again.information_state_tensor(p) == state.information_state_tensor(p)


def test_a_resampled_kuhn_state_keeps_what_the_seat_knows_and_redraws_the_rest(sa):
    """Kuhn (1950): a player knows their own card, not the other's. A resampled state
    reads the same to the seat; the other's card is redrawn among the two left."""
    import pyspiel

    game = sa.load("kuhn_poker")
    state = game.new_initial_state()
    state.apply_action(13)  # Jack to p1
    state.apply_action(14)  # Queen to p2
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(30):
        world = state.resample_from_infostate(0, sampler)
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.observation_tensor(0) == state.observation_tensor(0)
        others.add(world.engine_state.vars[game.engine.compiled.vars["hand"].slot][1])
    assert others == {("Q",), ("K",)}
    with pytest.raises(ValueError, match="resampled"):
        world.serialize()


def test_openspiels_ismcts_bot_plays_whole_kuhn_hands(sa):
    """OpenSpiel's own IS-MCTS, which resamples at every iteration, plays Kuhn hands to the
    end against a random player; the returns are Kuhn's (zero-sum, at most 2 chips)."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = sa.load("kuhn_poker")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(3))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 60, random_state=np.random.RandomState(4))
    rng = np.random.RandomState(7)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        assert returns[0] + returns[1] == 0 and abs(returns[0]) in (1, 2)


def _qlearning_curve(sa, blocks: int, per_block: int, evaluations: int) -> list[float]:
    """The Q-learner's mean return as x against a random o, before training and after
    each block of training episodes (docs/adapters.md shows a longer curve)."""
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    np.random.seed(1)
    game = sa.load("tictactoe")
    env = rl_environment.Environment(game)
    env.seed(1)
    n = env.action_spec()["num_actions"]
    learner = tabular_qlearner.QLearner(player_id=0, num_actions=n, step_size=0.5)
    opponent = random_agent.RandomAgent(player_id=1, num_actions=n)
    agents = [learner, opponent]

    def episode(learn: bool) -> float:
        ts = env.reset()
        while not ts.last():
            out = agents[ts.observations["current_player"]].step(ts, is_evaluation=not learn)
            ts = env.step([out.action])
        for a in agents:
            a.step(ts, is_evaluation=not learn)
        return ts.rewards[0]

    curve = [float(np.mean([episode(False) for _ in range(evaluations)]))]
    for _ in range(blocks):
        for _ in range(per_block):
            episode(True)
        curve.append(float(np.mean([episode(False) for _ in range(evaluations)])))
    return curve


def test_rl_environment_runs_on_the_information_state_tensor(sa):
    """`rl_environment` picks the information-state tensor and gives its size."""
    from open_spiel.python import rl_environment

    game = sa.load("tictactoe")
    env = rl_environment.Environment(game)
    ts = env.reset()
    assert len(ts.observations["info_state"][0]) == game.information_state_tensor_size()
    assert ts.observations["legal_actions"][0] == game.new_initial_state().legal_actions()


@pytest.mark.slow  # about 20 s of training
def test_openspiels_tabular_q_learner_learns_tictactoe_through_the_tensor(sa):
    """Trained for 800 episodes against a random o, keyed by the information-state
    tensor, the Q-learner's mean return as x rises well above its untrained one."""
    curve = _qlearning_curve(sa, blocks=2, per_block=400, evaluations=200)
    assert curve[-1] >= curve[0] + 0.2, curve


# ---- PettingZoo -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def za() -> ModuleType:
    """The PettingZoo adapter, or a skip without pettingzoo."""
    pytest.importorskip("pettingzoo")
    from interpreter.adapters import zoo_adapter

    return zoo_adapter


def test_pettingzoo_observations_are_the_tensor_in_a_box(za, sa):
    """The default observation is the same generic tensor OpenSpiel gets (a float Box),
    beside the action mask; PettingZoo's api_test accepts it."""
    import numpy as np
    from pettingzoo.test import api_test

    env = za.env("kuhn_poker")
    api_test(env, num_cycles=5)
    env.reset(seed=3)
    raw = env.unwrapped
    space = env.observation_space("p1")["observation"]
    assert space.dtype == np.float32 and space.shape == (raw.layout.size,)
    obs, *_ = env.last()
    agent = env.agent_selection
    expected = raw.layout.encode(raw.game.observation(raw.game_state, agent), agent)
    assert np.array_equal(obs["observation"], expected) and space.contains(obs["observation"])
    game = sa.load("kuhn_poker")
    assert raw.layout.size == game.observation_tensor_size()
