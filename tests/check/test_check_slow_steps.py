"""`check`'s play stops a move still computing when its budget runs out, and reports it as a
rule that loops only by the steps it spent, never by the time it took: a move's steps are
the same at any load, its CPU time is not (play/exercise.py, `SLOW_STEPS`)."""

from __future__ import annotations

import time
import types

import pytest

from interpreter.cli.commands import main
from interpreter.core.errors import Diagnostic, GameRuntimeError, Span
from interpreter.play import exercise

signal = pytest.importorskip("signal")
pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers here")

GAME = """
game slowg "Slow" { players 2..2 seats [north, south] }

var n: int = 0

procedure play() {
    rule "Slow: each seat adds one, twenty times"
    for k in 1..20 {
        for p in players {
            may p "add" {
                n += 1
            }
        }
    }
    game over [north]
}
"""


def test_a_move_slow_for_another_reason_than_its_steps_is_a_game_cut_short():
    """A move the deadline stopped after long in CPU but few steps (the machine busy in it:
    a collection of a big heap, a loaded machine) is not a rule that loops: the game is cut
    short. Before, a move that had computed half a second was reported as looping (a bundled
    game's was, on a loaded machine, in a move that takes 6,000 steps)."""
    timer = exercise._Timer(deadline=time.monotonic() + 100)
    end = time.process_time() + 0.7
    while time.process_time() < end:  # CPU spent in the move, no step of the rules
        pass
    timer.fired, timer.steps = True, 6_000
    err = GameRuntimeError([Diagnostic(Span("slow.game", 9, 5), "no decision after 6,000 steps", "")])
    line = types.SimpleNamespace(whole=True)
    assert timer.stopped(line, err) is None and line.whole is False
    timer.steps = exercise.SLOW_STEPS
    assert timer.stopped(line, err) is err


def test_a_move_that_spends_steps_to_the_deadline_is_reported_with_them(capsys, tmp_path):
    """The same game with a loop that ends only at the step budget in its first move: at the
    deadline it has spent more than `SLOW_STEPS`, and is reported at the loop with them."""
    path = tmp_path / "slow.game"
    path.write_text(
        GAME.replace(
            "n += 1\n", "n += 1\n                while n > 0 {\n                    n = n + 0\n                }\n", 1
        )
    )
    code = main(["check", str(path), "--budget", "1"])
    err = capsys.readouterr().err
    assert code == 2, err
    if "no decision after " in err:  # stopped at the deadline
        steps = int(err.split("no decision after ", 1)[1].split(" steps", 1)[0].replace(",", ""))
        assert steps >= exercise.SLOW_STEPS
    else:  # (a fast machine: the step budget came first)
        assert "more than 1,000,000 steps" in err, err
