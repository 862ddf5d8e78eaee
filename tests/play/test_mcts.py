"""The Monte Carlo tree search player (`interpreter/play/mcts.py`, agent kind `mcts:N`).

Its strength is checked where the answer is known (tic-tac-toe: never lose to random play,
take a win, block a loss); its fairness by refusing games with hidden information and by
never reading the state's own random generator. Every game count here is the full one
(100 a side): the whole file runs in a few seconds, so nothing is marked slow.
"""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.core.errors import UsageError
from interpreter.play.agents import RandomAgent, make_agent
from interpreter.play.mcts import MCTSAgent, hidden_information


@pytest.fixture(scope="module")
def ttt():
    return load_game("tictactoe")


def position(game, x: list[str], o: list[str]):
    """A tic-tac-toe position with x to move (equal marks) or o (x has one more)."""

    def arrange(s):
        s = game.with_var(s, "board", {c: "x" for c in x} | {c: "o" for c in o})
        return game.with_var(s, "marks", len(x) + len(o))

    return game.start(seed=0, arrange=arrange)


def play(game, agents: dict, seed: int):
    s = game.start(seed=seed)
    while not game.is_over(s):
        s = game.apply_index(s, agents[s.pending.player].choose(game, s))
    return game.result(s)


@pytest.mark.parametrize("side", ["x", "o"])
def test_mcts_never_loses_to_random_in_100_games_a_side(ttt, side):
    other = "o" if side == "x" else "x"
    outcomes = {"win": 0, "draw": 0, "loss": 0}
    for k in range(100):
        result = play(ttt, {side: MCTSAgent(200, seed=k), other: RandomAgent(10_000 + k)}, seed=k)
        outcomes["draw" if not result else "win" if side in result else "loss"] += 1
    assert outcomes["loss"] == 0, outcomes
    assert outcomes["win"] > 70, outcomes  # it plays to win, not only not to lose


@pytest.mark.parametrize("seed", range(5))
def test_mcts_takes_an_immediate_win(ttt, seed):
    s = position(ttt, x=["a1", "b1"], o=["a2", "b2"])  # x to move: c1 wins
    assert ttt.labels(s)[MCTSAgent(200, seed=seed).choose(ttt, s)] == "c1"


@pytest.mark.parametrize("seed", range(5))
def test_mcts_blocks_an_immediate_loss(ttt, seed):
    s = position(ttt, x=["a1", "c3"], o=["b1", "b2"])  # x to move, no win of its own: o threatens b3
    assert ttt.labels(s)[MCTSAgent(200, seed=seed).choose(ttt, s)] == "b3"


@pytest.mark.parametrize("seed", range(5))
def test_mcts_as_o_prefers_its_own_win_to_blocking(ttt, seed):
    s = ttt.apply(position(ttt, x=["a1", "a2"], o=["b1", "b2"]), "c3")  # x threatens a3, o wins on b3
    assert s.pending.player == "o"
    assert ttt.labels(s)[MCTSAgent(200, seed=seed).choose(ttt, s)] == "b3"


def test_a_single_legal_move_is_returned_without_search(ttt):
    s = position(ttt, x=["a1", "c1", "a2", "b3"], o=["b1", "b2", "c2", "a3"])  # only c3 is left, no line yet
    agent = MCTSAgent(200, seed=0)
    assert agent.choose(ttt, s) == 0 and agent.last_iterations == 0


def test_mcts_is_reproducible_with_a_seed(ttt):
    def moves(seed: int) -> list[int]:
        agents = {"x": MCTSAgent(50, seed=seed), "o": MCTSAgent(50, seed=seed + 1)}
        s, made = ttt.start(seed=0), []
        while not ttt.is_over(s):
            made.append(agents[s.pending.player].choose(ttt, s))
            s = ttt.apply_index(s, made[-1])
        return made

    assert moves(3) == moves(3)


def test_the_search_never_reads_the_games_own_random_generator():
    # Missiles, Now! rolls dice: a search playing out the state's generator would know
    # the real rolls to come. The agent draws its own, so only its seed matters.
    game = load_game("missiles_now")
    s = game.start(players=2, seed=1)
    while len(s.pending.values) < 2:
        s = game.apply_index(s, 0)
    other = s._replace(rng=s.rng ^ 0x5DEECE66D)
    a, b = MCTSAgent(8, seed=7), MCTSAgent(8, seed=7)
    assert a.choose(game, s) == b.choose(game, other)
    assert a.last_root == b.last_root and sum(a.last_root[0]) == 8


def test_a_rollout_past_the_cap_is_a_draw(ttt):
    s = ttt.start(seed=0)
    agent = MCTSAgent(30, seed=0, max_rollout=0)  # every rollout stops at once: 0 for all
    assert 0 <= agent.choose(ttt, s) < 9 and agent.last_iterations == 30


# ---- the agent kind on the command line -----------------------------------------------------
def test_run_with_an_mcts_agent(capsys):
    assert main(["run", "tictactoe", "--agent", "x=mcts:100", "--agent", "o=random", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "== game over after" in out and "o wins" not in out


def test_play_against_an_mcts_agent(monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 5))  # x takes the first free square each time
    assert main(["play", "tictactoe", "--seat", "x", "--agent", "o=mcts:100"]) == 0
    assert "== game over after" in capsys.readouterr().out


@pytest.mark.parametrize("spec", ["mcts:abc", "mcts:0", "mcts:-3", "mcts", "mcts:", "mcts:0s", "mcts:xs", "mcts:9999s"])
def test_a_bad_mcts_spec_is_a_usage_error(capsys, spec):
    assert main(["run", "tictactoe", "--agent", f"x={spec}"]) == 2
    err = capsys.readouterr().err
    assert f"agent '{spec}' for x: mcts needs a number of iterations or of seconds" in err
    assert "hint: mcts:N searches N iterations" in err and "mcts:200 or mcts:0.5s" in err


def test_a_search_may_be_given_seconds_instead_of_iterations():
    from interpreter.play.mcts import ISMCTSAgent

    agent = make_agent("mcts:0.05s", "x", 1)
    assert isinstance(agent, MCTSAgent) and agent.seconds == 0.05
    g = load_game("tictactoe")
    assert 0 <= agent.choose(g, g.start()) < 9 and agent.last_iterations > 1
    kuhn = load_game("kuhn_poker")
    agent = make_agent("ismcts:0.05s", "p1", 1, kuhn)
    assert isinstance(agent, ISMCTSAgent) and agent.seconds == 0.05
    assert agent.choose(kuhn, kuhn.start()) in (0, 1) and sum(stats[0] for stats in agent.last_root.values()) > 1


def test_mcts_is_listed_among_the_kinds(capsys):
    assert main(["run", "tictactoe", "--agent", "x=mtcs"]) == 2
    assert "mcts:N" in capsys.readouterr().err


def test_mcts_refuses_kuhn_poker_naming_its_hidden_variables(capsys):
    assert main(["run", "kuhn_poker", "--agent", "p1=mcts:50", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "mcts reads the whole state, so in" in err
    assert "variable 'hand' is seen by owner" in err and "variable 'deck' is seen by none" in err
    assert "IS-MCTS" in err


def test_make_agent_refuses_hidden_information_given_the_game():
    twid = load_game("twid")
    with pytest.raises(UsageError) as caught:
        make_agent("mcts:50", "us", 0, game=twid)
    assert "variable 'hand' is seen by owner" in caught.value.message and "secret choose" in caught.value.message
    assert "IS-MCTS" in caught.value.hint
    assert isinstance(make_agent("mcts:50", "x", 0, game=load_game("tictactoe")), MCTSAgent)


def test_hidden_information_reads_fields_and_secret_chooses():
    assert hidden_information(load_game("tictactoe")) == []
    assert hidden_information(load_game("missiles_now")) == []
    assert any("'Piece.value'" in reason for reason in hidden_information(load_game("berlin_wall")))
    assert "3 secret chooses" in hidden_information(load_game("walls_and_wonders"))


# ---- the designer's estimate (docs §3.20) --------------------------------------------------------
RACE = """
game race "A race" {
    players 2..2
    seats [north, south]
}

var steps: player -> int = 0

payoff p from -1 to 1 sum 0: (if steps[p] >= 10 then 1 else -1)

estimate p from -10 to 10: SIGN (steps[p] - steps[first([q for q in players if q != p])])

procedure play() {
    rule "Race: in turn each moves 1 or 2 steps; the first to reach 10 wins"
    while true {
        for p in players {
            choose n from [1, 2] by p prompt "how many steps?" label "{n}"
            steps[p] += n
            if steps[p] >= 10 {
                win p
            }
        }
    }
}
"""


def _race(tmp_path, sign: str = ""):
    path = tmp_path / f"race{'_minus' if sign else ''}.game"
    path.write_text(RACE.replace("SIGN", sign), encoding="utf-8")
    return load_game(str(path))


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_a_rollout_cut_at_depth_is_scored_by_the_estimate(tmp_path, kind):
    """docs §3.20: with a depth, rollouts stop and the estimate scores them. At depth 0
    the search sees only the estimate: it takes 2 steps when the estimate rewards a lead,
    and 1 step when the estimate is turned upside down (so it is what is read)."""
    for sign, wanted in (("", "2"), ("-", "1")):
        game = _race(tmp_path, sign)
        state = game.start(seed=1)
        agent = make_agent(f"{kind}:40:d0", "north", 3, game)
        assert game.labels(state)[agent.choose(game, state)] == wanted


def test_with_the_estimate_a_shallow_search_wins_the_race_against_random(tmp_path):
    """The race (docs §3.20): moving first and taking 2 steps whenever it matters wins
    against any opponent; the depth-2 search with the estimate wins every game."""
    game = _race(tmp_path)
    for seed in range(10):
        state = game.start(seed=seed)
        agents = {"north": make_agent("mcts:30:d2", "north", seed, game), "south": RandomAgent(seed)}
        while state.result is None:
            seat = state.pending.player
            index = agents[seat].choose(game, state)
            if seat == "north" and game.var(state, "steps")["north"] < 8:
                assert game.labels(state)[index] == "2"
            state = game.apply_index(state, index)
        assert state.result == ("north",)


def test_a_depth_without_an_estimate_is_a_usage_error(ttt, capsys):
    """A rollout depth needs an estimate: tic-tac-toe declares none."""
    with pytest.raises(UsageError, match="declares none"):
        make_agent("mcts:20:d3", "x", 0, ttt)
    assert main(["run", "tictactoe", "--agent", "x=mcts:20:d3"]) == 2
    assert "estimate" in capsys.readouterr().err
    assert main(["run", "tictactoe", "--agent", "x=mcts:20:x3"]) == 2
    assert "rollout depth" in capsys.readouterr().err


def test_an_estimate_that_is_not_a_number_is_refused_with_its_position(tmp_path, capsys):
    """The estimate is a whole number for the seat (docs §3.20), checked like the payoff."""
    path = tmp_path / "bad.game"
    path.write_text(RACE.replace("SIGN (", "(").replace("steps[p] - steps[", "steps[p] == steps["), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "an estimate must be int" in err and "bad.game:11:" in err


def test_the_wall_is_down_estimate_follows_the_vp_lead():
    """The Wall is Down, 1. Goal: VP decide the game, so a seat 6 VP ahead is estimated
    well ahead (the estimate appended to gamedefs/twid.game), its rival as far behind."""
    from interpreter.play.mcts import scaled_estimates

    game = load_game("twid")
    state = game.start(players=2, seed=1)
    before = scaled_estimates(game, state)
    ahead = scaled_estimates(game, game.with_var(state, "vp", {"west": 6, "east": 0}))
    assert ahead["west"] - before["west"] == pytest.approx(18 / 40)  # 3 per VP, on a range of 80
    assert ahead["east"] == pytest.approx(-ahead["west"])


def test_downfall_of_empires_estimate_counts_armies_at_full_strength():
    """Downfall of Empires, 5. Victory points (and the armies that take and hold cities):
    the German seat with every army reduced is estimated lower than with none reduced."""
    from interpreter.play.mcts import scaled_estimates

    game = load_game("downfall_of_empires")
    state = game.start(seed=1)
    owner = game.var(state, "owner")
    german = {a for a, w in owner.items() if w == "GE" and game.var(state, "at")[a] is not None}
    assert german
    worn = game.with_var(state, "reduced", {a: a in german for a in owner})
    assert scaled_estimates(game, worn)["german"] < scaled_estimates(game, state)["german"]


@pytest.mark.slow  # a whole game of The Wall is Down with four searching seats (about a minute)
def test_a_four_seat_game_of_the_wall_is_down_with_every_seat_searching_on_a_time_budget_ends():
    """Every seat `ismcts:0.02s:d10`: the game reaches its end (1. Goal: 10 VP, or the
    final scoring after round 8), and no move takes far beyond its budget (a search stops
    at the first iteration to end after it)."""
    import time

    game = load_game("twid")
    state = game.start(players=4, seed=5)
    agents = {seat: make_agent("ismcts:0.02s:d10", seat, i, game) for i, seat in enumerate(state.players)}
    slowest = 0.0
    while state.result is None:
        start = time.perf_counter()
        index = agents[state.pending.player].choose(game, state)
        slowest = max(slowest, time.perf_counter() - start)
        state = game.apply_index(state, index)
    assert state.result and set(state.result) <= set(state.players)
    assert slowest < 2.0, slowest
