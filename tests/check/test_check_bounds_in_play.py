"""`check` plays the rules it checks against the game's own invariants: a number past its
variable's declared bounds, or an `invariant` that stops holding, is an error at the
declaration it breaks, with the game that reproduces it (play/exercise.py, `_broken`).
Play itself never checks them: before, a rule writing past a bound passed `check` and ran."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli.commands import main

GAME = """\
game tally "Tally" { players 2..2 seats [north, south] }
var taken: player -> int = 0 from 0 to LIMIT
invariant "Tally: no seat takes more than the limit": all([taken[p] <= CAP for p in players])
procedure play() {
    rule "Tally: each seat takes one, three times round"
    for k in 1..3 {
        for p in players {
            may p "take" {
                taken[p] += 1
            }
        }
    }
    game over []
}
"""


def _check(capsys, tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "tally.game"
    path.write_text(text)
    code = main(["check", str(path), "--budget", "2"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.err


def test_a_rule_that_writes_past_a_bound_is_an_error_at_the_bound(capsys, tmp_path):
    code, err = _check(capsys, tmp_path, GAME.replace("LIMIT", "2").replace("CAP", "10"))
    assert code == 2
    assert "tally.game:2:1: error: in play: vars.taken." in err
    assert ": 3 is outside the bounds of 'taken', 0 to 2, after a move of the rules" in err
    assert "reproduce it: gamedef run " in err


def test_an_invariant_that_stops_holding_is_an_error_at_the_invariant(capsys, tmp_path):
    code, err = _check(capsys, tmp_path, GAME.replace("LIMIT", "10").replace("CAP", "2"))
    assert code == 2
    assert "tally.game:3:1: error: in play: 'Tally: no seat takes more than the limit'" in err
    assert "does not hold" in err


def test_rules_that_keep_their_invariants_check_clean(capsys, tmp_path):
    code, err = _check(capsys, tmp_path, GAME.replace("LIMIT", "3").replace("CAP", "3"))
    assert code == 0, err
    assert err == ""
