"""Labels by playouts (`learned.playout_labels`, `gamedef learn --playouts S`): each kept
position labelled by the mean payoff of S games played on from it by the same agents,
instead of by its one game's end.

The games are a race to twelve (each turn a step of 1 to 3, the first to twelve wins), so
what a label must be is known: a position whose mover has 11 points is a win for it whatever
is played, and a mover far ahead wins more often than one far behind. So labels read from
the wrong game, the wrong seat's view or one playout only fail here.
"""

from __future__ import annotations

import json

import pytest

np = pytest.importorskip("numpy", reason="the learned estimate needs numpy: pip install '.[learn]'")

from interpreter import load_game  # noqa: E402
from interpreter.cli.commands import main  # noqa: E402
from interpreter.play import learned  # noqa: E402
from interpreter.play.agents import make_agent  # noqa: E402

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
    rule "Race: each turn a player steps 1, 2 or 3"
    while true {
        for p in players {
            choose n from [1, 2, 3] by p prompt "step" label "step {n}"
            score[p] += n
            if score[p] >= 12 {
                rule "Race: the first to twelve points wins"
                win p
            }
        }
    }
}
"""


class Largest:
    """Always the last move offered (the largest step): play that never varies."""

    def choose(self, game, state) -> int:
        return len(state.pending.values) - 1


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    path = tmp_path_factory.mktemp("race") / "race.game"
    path.write_text(RACE, encoding="utf-8")
    return load_game(path)


def _random(state, seed):
    return {p: make_agent("random", p, seed * 10 + i) for i, p in enumerate(state.players)}


def _score(game, state) -> dict[str, int]:
    info = game.compiled.vars["score"]
    raw = state.vars[info.slot]
    return {p: raw[info.key_index[p]] for p in state.players}


def test_a_label_is_the_end_of_the_play_on_when_play_never_varies(race):
    agents = lambda state, seed: {p: Largest() for p in state.players}  # noqa: E731
    played = learned.self_play(race, 4, 1, None, _random, positions=10)
    labels = learned.playout_labels(race, played, agents, 3, seed=7)
    for (_, kept, _), game_labels in zip(played, labels, strict=True):
        assert len(game_labels) == len(kept)
        for state, label in zip(kept, game_labels, strict=True):
            at = state
            while at.result is None:
                at = race.apply_index(at, len(at.pending.values) - 1)
            score = _score(race, at)
            won = max(score, key=score.get)  # the one who reached twelve
            assert label == {p: (1.0 if p == won else -1.0) for p in state.players}


def test_labels_are_means_over_the_playouts_and_the_same_for_the_same_seed(race):
    played = learned.self_play(race, 30, 1, None, _random, positions=10)
    labels = learned.playout_labels(race, played, _random, 60, seed=3)
    assert labels == learned.playout_labels(race, played, _random, 60, seed=3)
    ahead, behind, between = [], [], 0
    for (_, kept, _), game_labels in zip(played, labels, strict=True):
        for state, label in zip(kept, game_labels, strict=True):
            mover = state.pending.player
            other = next(p for p in state.players if p != mover)
            score = _score(race, state)
            assert label[mover] == pytest.approx(-label[other])  # one winner: the payoffs +1 and -1
            if score[mover] >= 11:  # any step reaches twelve
                assert label[mover] == 1.0
            lead = score[mover] - score[other]
            if lead >= 4:
                ahead.append(label[mover])
            elif lead <= -4:
                behind.append(label[mover])
            between += -1.0 < label[mover] < 1.0
    assert ahead and behind and between > 20  # many labels are neither a sure win nor a sure loss
    assert sum(ahead) / len(ahead) > 0.5 > -0.5 > sum(behind) / len(behind)


def test_a_fit_on_playout_labels_values_the_lead(race):
    played = learned.self_play(race, 40, 1, None, _random, positions=10)
    labels = learned.playout_labels(race, played, _random, 20, seed=1)
    model = learned.fit(race, played, {"agent": "random", "playouts": 20}, position_labels=labels)
    view = learned.with_model(race, model)
    state = race.start(seed=0)
    while _score(race, state)["a"] < 8:  # a ahead 8 or more to 1 or 2, a to move
        state = race.apply_index(state, 2 if state.pending.player == "a" else 0)
    values = view.estimates(state)
    assert values["a"] > values["b"]


def test_the_command_writes_a_model_labelled_by_playouts(tmp_path, capsys, race):
    game = tmp_path / "race.game"
    game.write_text(RACE, encoding="utf-8")
    out = tmp_path / "race.learned.json"
    argv = ["learn", str(game), "--games", "20", "--playouts", "8", "--epsilon", "0.1", "--out", str(out)]
    assert main(argv) == 0
    header = json.loads(out.read_text(encoding="utf-8"))
    assert header["playouts"] == 8 and header["positions"] > 0
    assert "played on 8 times by random" in capsys.readouterr().err
    first = out.read_bytes()
    assert main(argv) == 0
    assert out.read_bytes() == first  # the same seed, the same labels, the same file


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--ranked", "--agent", "first"], "--ranked does not apply"),
        (["--rounds", "2"], "--rounds does not apply"),
        (["--td-lambda", "0.5"], "--td-lambda does not apply"),
        (["--playouts", "20000"], "at most 10000"),
    ],
)
def test_the_command_refuses_what_playouts_cannot_use(capsys, extra, message):
    argv = ["learn", "tictactoe", "--games", "3", *extra]
    if "--playouts" not in extra:
        argv += ["--playouts", "4"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "hint:" in err
