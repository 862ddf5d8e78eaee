"""A game `check` plays that runs on and on without ending (a goal out of reach) is a
warning before `gamedef run` plays to its decision limit (play/exercise.py, `LONG_GAME`)."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli.commands import main

GAME = """\
game race "Race" { players 2..2 seats [north, south] }
var steps: player -> int = 0
procedure play() {
    rule "Race: each seat steps one or two; the first to the goal wins"
    while true {
        for p in players {
            choose k from [1, 2] by p label "step {k}"
            steps[p] += k
            if steps[p] >= GOAL {
                win p
            }
        }
    }
}
"""


def _check(capsys, tmp_path: Path, goal: int) -> tuple[int, str]:
    path = tmp_path / "race.game"
    path.write_text(GAME.replace("GOAL", str(goal)))
    code = main(["check", str(path), "--budget", "5"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.err


def test_a_goal_out_of_reach_is_told_before_play(capsys, tmp_path, monkeypatch):
    from interpreter.play import exercise

    monkeypatch.setattr(exercise, "LONG_GAME", 3_000)  # (a game of this race takes about 2 decisions a step)
    code, err = _check(capsys, tmp_path, 1_000_000)
    assert code == 0  # a warning: a long game may yet end
    assert "race.game:1:1: warning: a game check played at 2 players (seed " in err
    assert "decisions without ending: can every game end?" in err
    assert "play that game, with its seed, to watch it" in err


def test_a_goal_within_reach_is_not(capsys, tmp_path, monkeypatch):
    from interpreter.play import exercise

    monkeypatch.setattr(exercise, "LONG_GAME", 3_000)
    code, err = _check(capsys, tmp_path, 30)
    assert (code, err) == (0, "")
