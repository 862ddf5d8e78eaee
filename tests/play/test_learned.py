"""The learned estimate (`interpreter/play/learned.py`, `gamedef learn`, agent part `:learned=FILE`).

A model fitted from self-play games must rank an obviously won position above a lost one,
come back from its file unchanged, be refused for another game or changed rules, and be
the same model for the same seed. The games here are small (a race to ten points written
below, tic-tac-toe), so the whole file takes a few seconds.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy", reason="the learned estimate needs numpy: pip install '.[learn]'")

from interpreter import load_game  # noqa: E402
from interpreter.cli.commands import main  # noqa: E402
from interpreter.cli.terminal import advice  # noqa: E402
from interpreter.core.errors import ModelFileError, ModelMismatch, UsageError  # noqa: E402
from interpreter.play import learned  # noqa: E402
from interpreter.play.agents import make_agent, parse_agents  # noqa: E402

# A race: in turn each player adds 1 or 2 to their score; the first to 10 wins. The payoff
# follows the scores, so what a seat sees (both scores) tells who is ahead.
RACE = """
game race "Race to ten" {
    players 2..2
    seats [a, b]
}

var score: player -> int = 0

view {
    status "{score[a]} to {score[b]}"
}

procedure play() {
    rule "Race: each turn a player adds 1 or 2 to their score"
    while true {
        for p in players {
            choose n from [1, 2] by p prompt "advance" label "{n}"
            score[p] += n
            if score[p] >= 10 {
                rule "Race: the first to ten points wins"
                win p
            }
        }
    }
}
"""


def _write(folder, text: str = RACE):
    path = folder / "race.game"
    path.write_text(text, encoding="utf-8")
    return path


def _fit(game, games: int = 40, seed: int = 1) -> learned.Model:
    def agents(state, s):
        return parse_agents([], game, state.players, s)[0]  # random players

    played = learned.self_play(game, games, seed, None, agents, positions=10)
    return learned.fit(game, played, {"agent": "random", "games": games, "seed": seed})


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    return load_game(_write(tmp_path_factory.mktemp("race")))


@pytest.fixture(scope="module")
def race_model(race):
    return _fit(race)


def _at(game, a: int, b: int):
    """The race with a to move at scores a and b."""
    return game.start(seed=0, arrange=lambda s: game.with_var(s, "score", {"a": a, "b": b}))


def test_the_learned_estimate_ranks_a_winning_position_above_a_losing_one(race, race_model):
    ahead, behind = _at(race, 9, 2), _at(race, 2, 9)
    assert race_model.value(race, ahead, "a") > race_model.value(race, behind, "a") + 0.5
    assert race_model.value(race, behind, "b") > race_model.value(race, ahead, "b") + 0.5
    # and through the game's view that the agents read
    view = learned.with_model(race, race_model)
    assert view.estimate_bounds() == (-1.0, 1.0)
    assert view.estimates(ahead)["a"] > 0 > view.estimates(ahead)["b"]


# Bank or pass: each player in turn banks a point or not, four times; then a die gives one of
# them two points; the higher score wins. Banking is always right, for either seat, but in
# random games the die hides it: each seat's own points decide its payoff only a little.
BANK = """
game bank "Bank or pass" {
    players 2..2
    seats [a, b]
}

var score: player -> int = 0

view {
    status "{score[a]} to {score[b]}"
}

procedure play() {
    rule "Bank: four rounds; in each, every player in turn banks a point or passes"
    for r in 1..4 {
        for p in players {
            choose n from [0, 1] by p prompt "bank" label "{n}"
            score[p] += n
        }
    }
    rule "Bank: then a die gives a or b two points, on 1 to 3 or 4 to 6"
    roll d from 1..6
    if d <= 3 {
        score[a] += 2
    } else {
        score[b] += 2
    }
    game over best(players, p => score[p])
}
"""


def _margins(game, model) -> list[tuple[str, float]]:
    """At each decision of a game where everyone banks, the mover's value of banking minus
    passing by `model` (b's last decision left out: the die settles it at once)."""
    from interpreter.play.mcts import move_scores

    view = learned.with_model(game, model)
    state, out = game.start(seed=0), []
    for _ in range(7):
        seat = state.pending.player
        passing, banking = move_scores(view, state, range(2), seat)
        out.append((seat, banking - passing))
        state = game.apply_index(state, 1)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_each_seat_ranks_its_winning_move_first(tmp_path, seed):
    """Fitted from 30 random games, the model ranks banking above passing for each seat."""
    bank = load_game(_write(tmp_path, BANK))
    for seat, margin in _margins(bank, _fit(bank, games=30, seed=seed)):
        assert margin > 0, f"{seat} would pass"


def test_the_seats_of_a_symmetric_game_weigh_their_own_points_alike(tmp_path):
    """From fewer games (20) the die can hide banking's worth, but both seats must then err
    alike. A regression per seat on the seats' places as declared learnt each seat's own
    points apart, and in 7 of these 8 fits ranked banking first for b and last for a (so
    Missiles, Now!'s USSR lost to random play); relative to the viewer, "my points" is one
    number learnt from both seats' games."""
    bank = load_game(_write(tmp_path, BANK))
    for seed in range(1, 9):
        margins = _margins(bank, _fit(bank, games=20, seed=seed))
        signs = {seat: {m > 0 for s, m in margins if s == seat} for seat in ("a", "b")}
        assert signs["a"] == signs["b"] and len(signs["a"]) == 1, f"seed {seed}: {margins}"


def test_the_tensor_is_relative_to_its_viewer(race):
    """Each seat's view puts its own score first: the same numbers for mirrored positions."""
    from interpreter.play.features import TensorLayout

    layout = TensorLayout(race, 2, relative=True)
    plain = TensorLayout(race, 2)
    state = _at(race, 7, 3)
    mine = layout.encode(race.observation(state, "a"), "a")
    theirs = layout.encode(race.observation(state, "b"), "b")
    at = next(offset for name, offset, _ in layout.segments if name == "score")
    assert list(mine[at : at + 2]) == [7, 3] and list(theirs[at : at + 2]) == [3, 7]
    assert list(plain.encode(race.observation(state, "b"), "b")[at : at + 2]) == [7, 3]  # as declared
    # a to move: the first seat in a's view, the next one in b's
    assert list(mine[2:4]) == [1, 0] and list(theirs[2:4]) == [0, 1]


@pytest.mark.parametrize("a, b, lead", [(7, 3, 1.0), (3, 7, -1.0), (5, 5, 0.0)])
def test_a_relative_tensor_says_who_leads_a_number_kept_per_seat(race, a, b, lead):
    """The lead is a's from a's view and b's from b's: 1 ahead, -1 behind, 0 level."""
    from interpreter.play.features import TensorLayout

    layout = TensorLayout(race, 2, relative=True)
    at = next(offset for name, offset, size in layout.segments if name == "score lead")
    state = _at(race, a, b)
    assert layout.encode(race.observation(state, "a"), "a")[at] == lead
    assert layout.encode(race.observation(state, "b"), "b")[at] == -lead
    assert "score lead" not in [name for name, _, _ in TensorLayout(race, 2).segments]  # the adapters' tensor


def test_a_saved_model_reads_back_the_same(tmp_path, race, race_model):
    path = tmp_path / "race.json"
    learned.save(race_model, path)
    back = learned.load(path)
    assert back.to_json() == race_model.to_json()
    for a, b in ((9, 2), (2, 9), (5, 5), (0, 7)):
        s = _at(race, a, b)
        assert back.value(race, s, "a") == pytest.approx(race_model.value(race, s, "a"), abs=1e-12)
    back.check(race, 2)  # the game it was fitted for


def test_a_seeded_learn_is_reproducible(race, race_model):
    assert _fit(race).to_json() == race_model.to_json()
    assert _fit(race, seed=2).to_json() != race_model.to_json()


def test_a_model_is_refused_for_another_game(tmp_path, race_model):
    path = tmp_path / "race.json"
    learned.save(race_model, path)
    ttt = load_game("tictactoe")
    with pytest.raises(UsageError, match=r"fitted for Race to ten \(race\), not Tic-tac-toe"):
        learned.load(path).check(ttt)
    with pytest.raises(UsageError, match="fitted for Race to ten"):
        make_agent(f"greedy:learned={path}", "x", 1, ttt)


def test_a_model_is_refused_for_changed_rules(tmp_path, race, race_model):
    path = tmp_path / "race.json"
    learned.save(race_model, path)
    folder = tmp_path / "edited"
    folder.mkdir()
    edited = load_game(_write(folder, RACE.replace("score[p] >= 10", "score[p] >= 12")))
    with pytest.raises(UsageError, match="fitted for other rules of Race to ten") as err:
        make_agent(f"greedy:learned={path}", "a", 1, edited)
    # the library says what differs and names no command; the command line words the one to run
    assert isinstance(err.value, ModelMismatch) and (err.value.field, err.value.game) == ("rules", "race")
    assert "gamedef" not in (err.value.hint or "")
    assert advice(err.value) == "fit it again: gamedef learn race"
    with pytest.raises(ModelMismatch) as err:
        learned.load(path).check(race, 3)
    assert (err.value.field, err.value.players) == ("players", 3) and "gamedef" not in (err.value.hint or "")
    assert advice(err.value) == "fit one for 3: gamedef learn race --players 3"
    with pytest.raises(ModelFileError) as bad:
        learned.load(tmp_path / "absent.json")
    assert "gamedef" not in (bad.value.hint or "")
    assert advice(bad.value) == "a learned estimate is the file `gamedef learn GAME --out FILE` writes"


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(format="something else"), 'no "format"'),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d["columns"].append(10**9), "'columns'"),
        (lambda d: d["weights"]["a"].pop(), "weights of a"),
        (lambda d: d["weights"].pop("b"), "name each seat once"),
        (lambda d: d.update(players="two"), "'players'"),
    ],
)
def test_a_damaged_model_file_is_refused_with_a_message(tmp_path, race_model, change, message):
    data = race_model.to_json()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        learned.load(path)


def test_not_json_and_a_missing_file_are_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(UsageError, match="not a learned estimate"):
        learned.load(path)
    with pytest.raises(UsageError, match="cannot read the learned estimate"):
        learned.load(tmp_path / "absent.json")


def test_the_greedy_agent_plays_a_game_without_an_estimate_by_a_learned_one(tmp_path):
    """Tic-tac-toe declares no estimate: plain greedy is refused, greedy with a model plays,
    and beats random play far more often than random play beats it."""
    ttt = load_game("tictactoe")
    with pytest.raises(UsageError, match="declares none"):
        make_agent("greedy", "x", 1, ttt)
    with pytest.raises(UsageError, match="only an agent that reads the estimate"):
        make_agent("random:learned=x.json", "x", 1, ttt)
    out = tmp_path / "ttt.json"
    assert main(["learn", "tictactoe", "--games", "150", "--out", str(out)]) == 0
    wins = 0
    for seed in range(40):
        s = ttt.start(seed=seed)
        agents, _ = parse_agents([f"o=greedy:learned={out}"], ttt, s.players, seed)
        while s.result is None:
            s = ttt.apply_index(s, agents[s.pending.player].choose(ttt, s))
        wins += s.result == ("o",)
    assert wins >= 28  # random play as o wins about a third of its games against random x


def test_the_command_writes_the_same_file_for_the_same_seed(tmp_path, capsys):
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    assert main(["learn", "tictactoe", "--games", "30", "--out", str(first)]) == 0
    assert main(["learn", "tictactoe", "--games", "30", "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    out = capsys.readouterr().out
    assert f"wrote {first}" in out and "x: explains" in out
    header = json.loads(first.read_bytes())
    assert (header["game"], header["games"], header["agent"], header["players"]) == ("tictactoe", 30, "random", 2)


def test_more_rounds_play_greedily_by_the_last_fit_and_refit_on_all(tmp_path, capsys):
    out = tmp_path / "ttt.json"
    assert main(["learn", "tictactoe", "--games", "20", "--rounds", "2", "--out", str(out)]) == 0
    assert "round 2 of 2: 20 games greedy by the last fit" in capsys.readouterr().err
    header = json.loads(out.read_bytes())
    assert header["rounds"] == 2
    one = tmp_path / "one.json"
    assert main(["learn", "tictactoe", "--games", "20", "--out", str(one)]) == 0
    first = json.loads(one.read_bytes())["positions"]
    assert first < header["positions"] <= 2 * first + 20 * 5  # the first round's positions, and the second's


def test_the_command_warns_when_every_game_ended_alike(tmp_path, capsys):
    """A race nobody can win (as Walls and Wonders' random games): every payoff is 0, so
    the model learns nothing, and the command says so (and still writes the file)."""
    game = _write(tmp_path, RACE.replace("win p", "game over []"))
    out = tmp_path / "race.json"
    assert main(["learn", str(game), "--games", "5", "--out", str(out)]) == 0
    assert "every game ended with the same payoffs (a, b): there was nothing to learn" in capsys.readouterr().err
    assert out.exists()
    assert main(["learn", str(_write(tmp_path)), "--games", "5", "--out", str(out)]) == 0
    assert "nothing to learn" not in capsys.readouterr().err


def test_the_command_refuses_bad_arguments(capsys):
    assert main(["learn", "tictactoe", "--positions", "0"]) == 2
    assert "--positions 0" in capsys.readouterr().err
    assert main(["learn", "tictactoe", "--rounds", "21"]) == 2
    assert "--rounds 21: at most 20 rounds" in capsys.readouterr().err
    assert main(["learn", "tictactoe", "--games", "3", "--agent", "greedy"]) == 2  # no estimate to be greedy by
    assert "declares none" in capsys.readouterr().err


def test_an_agent_with_a_learned_estimate_still_asks_for_chance_mode_where_it_redraws():
    """Downfall of Empires' secret research is redrawn only in chance mode: `needs_chance`
    reads the kind before `:learned=FILE`, whose path holds an `=` of its own."""
    from interpreter.play.agents import needs_chance

    doe = load_game("downfall_of_empires")
    assert needs_chance(doe, ["central=greedy:learned=doe.json"])
    assert needs_chance(doe, ["ismcts:50:d10:learned=x=y.json"])
    assert not needs_chance(doe, ["central=mcts:50:d10:learned=greedy.json"])


# Match: each player in turn picks a first and a second number, 0 or 1; a wins if a's two
# numbers match, else b. Whether a wins is "my first equals my second", which no weighing of
# the two numbers (nor of who leads in each) can say: a linear estimate cannot rank a's
# second choice both ways, a network of a few units can.
MATCH = """
game match "Match" {
    players 2..2
    seats [a, b]
}

var first: player -> int = 0
var second: player -> int = 0

view {
    status "{first[a]} {second[a]} against {first[b]} {second[b]}"
}

procedure play() {
    for p in players {
        rule "Match: each player picks a first number, then a second, 0 or 1"
        choose n from [0, 1] by p prompt "first" label "{n}"
        first[p] = n
        choose m from [0, 1] by p prompt "second" label "{m}"
        second[p] = m
    }
    rule "Match: a wins if a's two numbers are equal, else b"
    if first[a] == second[a] {
        win a
    } else {
        win b
    }
}
"""


def _second_choice_margins(game, model) -> dict[int, float]:
    """For a's first number 0 and 1: a's value of a second number equal to it minus that of
    the other, by `model`."""
    from interpreter.play.mcts import move_scores

    view = learned.with_model(game, model)
    out = {}
    for first in (0, 1):
        state = game.apply_index(game.start(seed=0), first)
        scores = move_scores(view, state, range(2), "a")
        out[first] = scores[first] - scores[1 - first]
    return out


def test_a_network_learns_what_the_linear_part_cannot_weigh(tmp_path):
    match = load_game(_write(tmp_path, MATCH))

    def agents(state, s):
        return parse_agents([], match, state.players, s)[0]  # random players

    played = learned.self_play(match, 200, 1, None, agents, positions=4)
    about = {"agent": "random", "games": 200, "seed": 1}
    linear = learned.fit(match, played, about)
    assert linear.network is None
    assert min(_second_choice_margins(match, linear).values()) <= 0  # one of the two it gets wrong
    model = learned.fit(match, played, about, hidden=8)
    assert model.network is not None and model.header["network"]["hidden"] == 8
    assert min(_second_choice_margins(match, model).values()) > 0.2  # both right, clearly
    # the file keeps the network, and a damaged one is refused
    path = tmp_path / "match.json"
    learned.save(model, path)
    again = learned.load(path)
    assert _second_choice_margins(match, again) == pytest.approx(_second_choice_margins(match, model), abs=1e-5)
    data = json.loads(path.read_bytes())
    data["network"]["w2"].pop()
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(UsageError, match="the network's 'w2' is not 8 numbers"):
        learned.load(path)
    # the same fit every time (a fixed seed)
    assert learned.fit(match, played, about, hidden=8).to_json() == model.to_json()


def test_a_network_the_games_held_out_do_not_favour_is_left_out(race):
    """In the race "my points" and "theirs" say it all: the linear part alone is kept."""
    model = _fit(race)
    with_network = learned.fit(
        race,
        learned.self_play(race, 40, 1, None, lambda st, s: parse_agents([], race, st.players, s)[0], 10),
        {},
        hidden=8,
    )
    assert model.network is None
    assert with_network.to_json()["weights"] == model.to_json()["weights"]


def test_td_lambda_returns_lean_on_the_next_positions_value():
    """lambda 1: every position's label is the payoff; lambda 0: the next position's value;
    between, the mix, discounted back from the end."""
    import numpy as np

    values = np.array([0.2, -0.4, 0.6])
    payoff = np.array([1.0, 1.0, 1.0])
    games = {0: [0, 1, 2]}
    assert list(learned._lambda_returns(values, payoff, games, 1.0)) == [1.0, 1.0, 1.0]
    assert list(learned._lambda_returns(values, payoff, games, 0.0)) == [-0.4, 0.6, 1.0]
    half = learned._lambda_returns(values, payoff, games, 0.5)
    assert half[2] == 1.0 and half[1] == pytest.approx(0.8) and half[0] == pytest.approx(0.5 * -0.4 + 0.5 * 0.8)


@pytest.mark.parametrize("seed", [1, 2])
def test_td_labels_still_rank_each_seats_winning_move_first(tmp_path, seed):
    bank = load_game(_write(tmp_path, BANK))

    def agents(state, s):
        return parse_agents([], bank, state.players, s)[0]

    played = learned.self_play(bank, 30, seed, None, agents, positions=10)
    model = learned.fit(bank, played, {}, td_lambda=0.5)
    for seat, margin in _margins(bank, model):
        assert margin > 0, f"{seat} would pass"


def test_a_model_of_an_earlier_version_is_refused_with_advice(tmp_path, race_model):
    data = race_model.to_json()
    data["version"] = 3
    del data["network"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match="version 3, this gamedef reads version 4") as err:
        learned.load(path)
    assert advice(err.value) == "fit it again with this gamedef (the file `gamedef learn GAME --out FILE` writes)"


def test_the_command_takes_td_lambda_and_hidden_units(tmp_path, capsys):
    out = tmp_path / "ttt.json"
    assert main(["learn", "tictactoe", "--games", "20", "--td-lambda", "0.5", "--hidden", "4", "--out", str(out)]) == 0
    header = json.loads(out.read_bytes())
    assert (header["td_lambda"], header["hidden"]) == (0.5, 4)
    assert "a network" in capsys.readouterr().out  # kept or not, the command says which
    assert main(["learn", "tictactoe", "--td-lambda", "1.5"]) == 2
    assert "--td-lambda 1.5: a number from 0 to 1" in capsys.readouterr().err
    assert main(["learn", "tictactoe", "--hidden", "1000"]) == 2
    assert "--hidden 1000: from 0 to 256 units" in capsys.readouterr().err
