"""The ranked fit (`interpreter/play/ranked.py`, `gamedef learn --ranked`): a model fitted to
an expert's choices over every move it could have made.

The games are a race written below, where the payoff rewards the larger step: an expert that
always takes the smaller one is copied by the ranked fit (greedy by it takes the smaller
step too), where a regression of the payoff on the same games learns the opposite. So a fit
that ignored which move the expert took, or read it the wrong way round, fails here.
"""

from __future__ import annotations

import json

import pytest

np = pytest.importorskip("numpy", reason="the learned estimate needs numpy: pip install '.[learn]'")

from interpreter import load_game  # noqa: E402
from interpreter.cli.commands import main  # noqa: E402
from interpreter.play import learned, ranked  # noqa: E402
from interpreter.play.agents import make_agent  # noqa: E402
from interpreter.play.features import TensorLayout  # noqa: E402
from interpreter.play.mcts import move_scores  # noqa: E402

# A race to twelve in which each step is chosen in two decisions: a pace (1 or 2), then a
# step of the pace or one more. The first decision changes no variable, so the greedy agent
# weighs each pace by the best step it allows (mcts.move_scores' look ahead).
RACE = """
game race "Race to twelve" {
    players 2..2
    seats [a, b]
}

var score: player -> int = 0

view {
    status "{score[a]} to {score[b]}"
}

procedure play() {
    rule "Race: each turn a player picks a pace, then a step of the pace or one more"
    while true {
        for p in players {
            choose pace from [1, 2] by p prompt "pace" label "pace {pace}"
            choose n from [pace, pace + 1] by p prompt "step" label "step {n}"
            score[p] += n
            if score[p] >= 12 {
                rule "Race: the first to twelve points wins"
                win p
            }
        }
    }
}
"""


class Takes:
    """An expert with a fixed taste: the move whose label's number is least (or greatest)."""

    def __init__(self, smallest: bool):
        self.smallest = smallest

    def choose(self, game, state) -> int:
        numbers = [int(label.split()[-1]) for label in game.labels(state)]
        best = min(numbers) if self.smallest else max(numbers)
        return numbers.index(best)


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    path = tmp_path_factory.mktemp("race") / "race.game"
    path.write_text(RACE, encoding="utf-8")
    return load_game(path)


def _games(game, smallest: bool, games: int = 10):
    """Games where `a` is the expert and `b` plays at random, all a's decisions kept."""

    def agents(state, seed):
        return {"a": Takes(smallest), "b": make_agent("random", "b", seed)}

    played, choices = ranked.expert_play(game, games, 1, None, agents, positions=100)
    return played, [c for c in choices if c[1].pending.player == "a"]  # the expert's decisions alone


def _greedy_steps(game, model) -> list[str]:
    """The moves greedy by `model` takes for `a` in its first three turns, b taking pace 1,
    step 1: no move can win yet (a has at most 9 before its fourth turn), so the payoff of a
    move that ends the game, which the agent weighs above any estimate, decides none."""
    view, state, taken = learned.with_model(game, model), game.start(seed=0), []
    while len(taken) < 6:
        labels = game.labels(state)
        if state.pending.player == "a":
            scores = move_scores(view, state, range(len(labels)), "a", 256)
            i = scores.index(max(scores))
            taken.append(labels[i])
        else:
            i = 0
        state = game.apply_index(state, i)
    return taken


@pytest.mark.parametrize("smallest", [True, False])
def test_the_ranked_fit_copies_the_experts_choice_even_against_the_payoff(race, smallest):
    played, choices = _games(race, smallest)
    model = ranked.fit_ranked(race, played, choices, {"agent": "expert", "games": 10, "seed": 1})
    steps = _greedy_steps(race, model)
    want = ["pace 1", "step 1"] if smallest else ["pace 2", "step 3"]
    assert set(steps) == set(want), steps
    r = model.header["ranked"]
    assert r["agreement"] == 1.0
    assert r["held_out_agreement"] == 1.0
    assert model.header["link"] == "tanh"


def test_a_regression_of_the_payoff_on_the_same_games_ranks_the_other_way(race):
    """Why the ranked fit: the payoff rewards the larger step, so a regression on it takes the
    larger one whatever the expert did (the test above would fail with it)."""
    played, _ = _games(race, smallest=True, games=30)
    model = learned.fit(race, played, {"agent": "expert", "games": 30, "seed": 1})
    assert "step 1" not in _greedy_steps(race, model)


def test_a_choice_made_in_two_decisions_is_weighed_by_the_positions_its_second_reaches(race):
    """The pace changes no variable: its decision's positions are the four steps' (two under
    each pace), the expert's pace marking the two under it."""
    state = race.start(seed=0)
    layout = TensorLayout(race, 2, relative=True)
    sets = ranked.choice_sets(race, [(0, state, (1,))], layout, seed=1)
    assert sets.decisions == 1
    assert list(sets.starts) == [0, 4]
    assert list(sets.chosen) == [False, False, True, True]
    mine = next(offset for name, offset, _ in layout.segments if name == "score")  # the viewer's own score
    own = [float(v[list(at).index(mine)]) for at, v in sets.leaves]
    assert sorted(own) == [1.0, 2.0, 2.0, 3.0]  # each position differs from the start by its step


def test_the_model_file_reads_back_with_its_link(tmp_path, race):
    played, choices = _games(race, smallest=True, games=5)
    model = ranked.fit_ranked(race, played, choices, {"agent": "expert", "games": 5, "seed": 1})
    path = tmp_path / "m.json"
    learned.save(model, path)
    back = learned.load(path)
    state = race.start(seed=0)
    assert back.value(race, state, "a") == pytest.approx(model.value(race, state, "a"))
    assert -1.0 < back.value(race, state, "a") < 1.0
    data = json.loads(path.read_text())
    data["link"] = "cube"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(learned.ModelFileError, match="'link' is not"):
        learned.load(tmp_path / "bad.json")


def test_minimise_finds_a_quadratics_minimum():
    a = np.array([[3.0, 1.0], [1.0, 2.0]])
    b = np.array([1.0, -1.0])
    x = ranked.minimise(lambda v: (0.5 * v @ a @ v - b @ v, a @ v - b), np.zeros(2))
    assert np.allclose(x, np.linalg.solve(a, b), atol=1e-6)


def test_the_command_fits_the_agents_moves_and_writes_the_same_file_for_the_same_seed(tmp_path, capsys):
    """`first` takes pace 1, step 1: the ranked model, greedy, takes them too."""
    game = tmp_path / "race.game"
    game.write_text(RACE, encoding="utf-8")
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    for out in (one, two):
        assert main(["learn", str(game), "--games", "10", "--agent", "first", "--ranked", "--out", str(out)]) == 0
    assert one.read_bytes() == two.read_bytes()
    printed = capsys.readouterr().out
    assert "takes first's move in 100.0% of the decisions" in printed
    model = learned.load(one)
    assert model.header["ranked"]["decisions"] > 0
    assert set(_greedy_steps(load_game(game), model)) == {"pace 1", "step 1"}


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--agent", "random"], "random moves rank nothing"),
        (["--agent", "first", "--rounds", "2"], "--rounds does not apply to it"),
        (["--agent", "first", "--hidden", "8"], "--hidden does not apply to it"),
        (["--agent", "first", "--td-lambda", "0.5"], "--td-lambda does not apply to it"),
    ],
)
def test_the_command_refuses_what_a_ranked_fit_cannot_use(capsys, extra, message):
    assert main(["learn", "tictactoe", "--games", "3", "--ranked", *extra]) == 2
    assert message in capsys.readouterr().err


class PrefersPace2:
    """An expert that takes pace 2 and holds its two steps equally good (`best`, as the
    greedy agent says which moves tie), taking one of them at random."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.best: tuple[int, ...] = ()

    def choose(self, game, state) -> int:
        labels = game.labels(state)
        self.best = (labels.index("pace 2"),) if "pace 2" in labels else tuple(range(len(labels)))
        return int(self.rng.choice(self.best))


def test_the_moves_an_expert_held_equally_best_are_all_chosen(race):
    """A draw among tied moves is no choice to copy: the positions keep every move the expert
    held best, and a decision where it held all its moves equal teaches nothing and is left
    out, so only the pace decisions, where it preferred one, are fitted."""

    def agents(state, seed):
        return {"a": PrefersPace2(seed), "b": make_agent("random", "b", seed)}

    played, choices = ranked.expert_play(race, 3, 1, None, agents, positions=100)
    mine = [c for c in choices if c[1].pending.player == "a"]
    paces = [c for c in mine if race.labels(c[1]) == ["pace 1", "pace 2"]]
    steps = [c for c in mine if c not in paces]
    assert paces and steps
    assert all(moves == (1,) for _, _, moves in paces)
    assert all(moves == (0, 1) for _, _, moves in steps)
    layout = TensorLayout(race, 2, relative=True)
    fitted = ranked.choice_sets(race, mine, layout, seed=1).decisions
    # the steps' decisions, all moves chosen, are left out (and so is a pace near the end,
    # where a move that ends the game is no position to rank)
    assert fitted == ranked.choice_sets(race, paces, layout, seed=1).decisions >= len(paces) - 4 > 0


def test_the_greedy_agent_says_which_moves_it_held_equally_best(tmp_path):
    """By an estimate of the points a seat lacks beyond ten (none until then), the two paces
    tie at the start; at 8 points, pace 2 reaches 11 and pace 1 at most 10."""
    path = tmp_path / "race.game"
    path.write_text(RACE + "\nestimate p from 0 to 15: max(score[p] - 10, 0)\n", encoding="utf-8")
    game = load_game(path)
    agent = make_agent("greedy", "a", 1)
    state = game.start(seed=0)
    assert agent.choose(game, state) in (0, 1)
    assert agent.best == (0, 1)
    state = game.with_var(state, "score", {"a": 8, "b": 0})
    assert agent.choose(game, state) == 1
    assert agent.best == (1,)
