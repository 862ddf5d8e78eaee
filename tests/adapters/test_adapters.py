"""The optional adapters (docs/adapters.md): every bundled game as an OpenSpiel game
(interpreter/adapters/spiel_adapter.py), checked by OpenSpiel's own random simulation test and
solved by its CFR on Kuhn poker; and as a PettingZoo AEC environment
(interpreter/adapters/zoo_adapter.py), checked by PettingZoo's api_test. Each section skips
without its extra (`pip install ".[openspiel]"`, `".[pettingzoo]"`)."""

from __future__ import annotations

import collections
import random
from types import ModuleType

import pytest

from interpreter import bundled_games, load_game

# ---- OpenSpiel ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sa() -> ModuleType:
    """The OpenSpiel adapter, or a skip without open_spiel."""
    pytest.importorskip("pyspiel")
    from interpreter.adapters import spiel_adapter

    return spiel_adapter


# OpenSpiel's random simulation test prints and compares states at every step; a
# long game is cut at `max_game_length` decisions (terminal, returns 0) to keep this
# file quick. Kuhn poker, tic-tac-toe and Missiles Now run to their natural end.
# (players, max_game_length, simulations); a game not listed: default count, 100, 2.
SIMULATIONS = {
    "tictactoe": (None, None, 5),
    "kuhn_poker": (None, None, 10),
    "missiles_now": (None, None, 2),
    "berlin_wall": (2, 100, 2),
    "berlin_wall_house_rules": (2, 100, 2),
    "walls_and_wonders": (2, 100, 2),
    "downfall_of_empires": (2, 80, 2),
    "twid": (2, 100, 2),
    "twid_house_rules": (2, 100, 2),
}


@pytest.mark.slow  # whole games: `pytest -m slow`
@pytest.mark.parametrize("name", list(bundled_games()))
def test_openspiel_random_simulation_test_passes_on_every_bundled_game(sa, name):
    import pyspiel

    players, cap, sims = SIMULATIONS.get(name, (None, 100, 2))
    game = sa.load(name, players=players, max_game_length=cap)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_cfr_on_our_kuhn_poker_finds_the_game_value_and_the_tree_matches_openspiels(sa):
    import pyspiel
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
    from open_spiel.python.algorithms.get_all_states import get_all_states

    game = sa.load("kuhn_poker")
    solver = cfr.CFRPlusSolver(game)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])
    assert abs(value[0] - (-1 / 18)) < 0.005 and abs(value[0] + value[1]) < 1e-9
    assert exploitability.exploitability(game, policy) < 0.005

    def tree(g):
        """Node counts by kind, and each player's information sets by their sizes."""
        states = get_all_states(g, include_terminals=True, include_chance_states=True)
        kinds: collections.Counter = collections.Counter()
        infosets: dict = collections.defaultdict(collections.Counter)
        for s in states.values():
            if s.is_terminal():
                kinds["terminal"] += 1
            elif s.is_chance_node():
                kinds["chance"] += 1
            else:
                kinds["decision"] += 1
                infosets[s.current_player()][s.information_state_string()] += 1
        sizes = {p: sorted(c.values()) for p, c in infosets.items()}
        return dict(kinds), sizes

    ours, theirs = tree(game), tree(pyspiel.load_game("kuhn_poker"))
    assert ours == theirs
    assert ours[0] == {"chance": 4, "decision": 24, "terminal": 30}
    assert ours[1] == {0: [2] * 6, 1: [2] * 6}  # 6 information sets a player, 2 deals each


def test_the_game_type_and_info_come_from_the_games_metadata(sa):
    import pyspiel

    kind = pyspiel.GameType
    ttt = sa.load("tictactoe")
    t = ttt.get_type()
    assert t.short_name == "gamedef_tictactoe" and t.dynamics == kind.Dynamics.SEQUENTIAL
    assert t.information == kind.Information.PERFECT_INFORMATION
    assert t.chance_mode == kind.ChanceMode.DETERMINISTIC and ttt.max_chance_outcomes() == 0
    assert t.utility == kind.Utility.ZERO_SUM and t.reward_model == kind.RewardModel.TERMINAL
    assert ttt.num_distinct_actions() == load_game("tictactoe").action_space().size

    kuhn = sa.load("kuhn_poker")
    k = kuhn.get_type()
    assert k.information == kind.Information.IMPERFECT_INFORMATION
    assert k.chance_mode == kind.ChanceMode.EXPLICIT_STOCHASTIC
    assert (kuhn.min_utility(), kuhn.max_utility(), kuhn.utility_sum()) == (-2.0, 2.0, 0.0)
    assert kuhn.max_chance_outcomes() == load_game("kuhn_poker").action_space().block
    assert kuhn.max_game_length() == sa.DEFAULT_MAX_GAME_LENGTH


def test_a_kuhn_hand_through_openspiel_reads_as_the_engines(sa):
    engine = load_game("kuhn_poker", chance=True)
    game = sa.load("kuhn_poker")
    s = game.new_initial_state()
    assert s.is_chance_node() and s.current_player() == -1
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 3 and all(abs(p - 1 / 3) < 1e-12 for _, p in outcomes)
    assert [a for a, _ in outcomes] == sorted(a for a, _ in outcomes)
    assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
    labels = {s.action_to_string(a): a for a, _ in outcomes}
    s.apply_action(labels["draw King"])
    s.apply_action({s.action_to_string(a): a for a, _ in s.chance_outcomes()}["draw Jack"])
    assert s.current_player() == 0
    actions = {s.action_to_string(a): a for a in s.legal_actions()}
    assert set(actions) == {"check", "bet"}
    e = engine.start()
    for label in ("draw King", "draw Jack"):
        e = engine.apply(e, label)
    assert s.information_state_string(0) == engine.information_state(e, "p1")
    assert s.information_state_string(1) == engine.information_state(e, "p2")
    assert s.observation_string(1) == sa.canonical_json(engine.observation(e, "p2"))
    assert "King" in s.information_state_string(0) and "King" not in s.information_state_string(1)
    s.apply_action(actions["bet"])
    s.apply_action({s.action_to_string(a): a for a in s.legal_actions()}["fold"])
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert str(s.clone()) == str(s)


def test_a_game_longer_than_max_game_length_is_cut_short_with_returns_of_zero(sa):
    import pyspiel

    game = sa.load("berlin_wall", max_game_length=5)
    rng = random.Random(3)
    s = game.new_initial_state()
    decisions = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            decisions += 1
    assert decisions == 5 and s.returns() == [0.0, 0.0]
    assert s.current_player() == pyspiel.PlayerId.TERMINAL and "cut short" in str(s)


def test_players_and_length_are_game_parameters_and_variants_get_their_own_name(sa):
    import pyspiel

    assert sa.register("walls_and_wonders") == "gamedef_walls_and_wonders"
    g = pyspiel.load_game("gamedef_walls_and_wonders(players=3,max_game_length=50)")
    assert g.num_players() == 3 and g.max_game_length() == 50
    assert sa.short_name_for("berlin_wall", ["gravity"]) == "gamedef_berlin_wall_gravity"
    gravity = sa.load("berlin_wall", variants=["gravity"], max_game_length=20)
    assert gravity.get_type().short_name == "gamedef_berlin_wall_gravity"
    pyspiel.random_sim_test(gravity, num_sims=1, serialize=False, verbose=False)
    with pytest.raises(ValueError, match="another configuration"):
        sa.register("berlin_wall", variants=["crazy_8s"], short_name="gamedef_berlin_wall_gravity")


# ---- PettingZoo ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def za() -> ModuleType:
    """The PettingZoo adapter, or a skip without pettingzoo."""
    pytest.importorskip("pettingzoo")
    from interpreter.adapters import zoo_adapter

    return zoo_adapter


# api_test's advice for image-like observations and names like "player_0"; a Dict
# observation (as PettingZoo's own board games have) draws all three.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("name", "players"), [("tictactoe", None), ("kuhn_poker", None), ("twid", 2)])
def test_pettingzoo_api_test_passes(za, name, players):
    from pettingzoo.test import api_test

    env = za.env(name, players=players)
    api_test(env, num_cycles=300, verbose_progress=False)


def test_the_action_mask_is_the_legal_moves_and_the_observation_decodes(za):
    env = za.env("kuhn_poker", observation="json")
    raw = env.unwrapped
    game = raw.game
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            state = raw.game_state
            legal = game.action_space().ids(state)
            assert agent == game.current_player(state)
            assert sorted(obs["action_mask"].nonzero()[0].tolist()) == sorted(legal)
            assert len(legal) == len(game.legal_moves(state))
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            assert za.decode_observation(obs["observation"]) == game.observation(state, agent)
            pick = rng.randrange(len(legal))
            env.step(legal[pick])
            if not game.is_over(raw.game_state):
                assert raw.game_state == game.apply_index(state, pick)
    assert env.agents == []


def test_seeds_fix_the_draws_and_rewards_are_the_returns(za):
    def play(seed):
        env = za.env("kuhn_poker")
        env.reset(seed=seed)
        trail, totals = [], collections.Counter()
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            trail.append(bytes(obs["observation"]))
            env.step(int(obs["action_mask"].nonzero()[0][0]))  # always the first legal move
        return trail, dict(totals), env.unwrapped

    first, totals, raw = play(11)
    again, totals_again, _ = play(11)
    assert first == again and totals == totals_again
    assert totals == raw.game.returns(raw.game_state) and sum(totals.values()) == 0
    deals = {tuple(play(seed)[0][:1]) for seed in range(12)}
    assert len(deals) > 1  # the seed reaches the deal


def test_a_game_is_truncated_after_max_steps(za):
    env = za.env("berlin_wall", max_steps=7)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    assert steps == 7 and env.agents == []


def test_an_illegal_action_is_refused(za):
    env = za.env("tictactoe")
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int((mask == 0).nonzero()[0][0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


def test_a_loads_parameters_are_its_own(sa):
    """`load(..., max_game_length=7)` is that game's length; a later `load` of the same game
    without it has the default, whichever came first in the process (before, the first
    load's length became the registration's default, and a test's 500 leaked into another's)."""
    default = min(sa.DEFAULT_MAX_GAME_LENGTH, load_game("tictactoe").metadata().max_length)
    short = "gamedef_tictactoe_lengths"  # (a registration of its own: this test's first)
    assert sa.load("tictactoe", max_game_length=7, short_name=short).max_game_length() == 7
    assert sa.load("tictactoe", short_name=short).max_game_length() == default != 7
