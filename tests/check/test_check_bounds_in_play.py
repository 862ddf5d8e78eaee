"""`check` plays the rules it checks against the game's own invariants: a number past its
variable's declared bounds, or an `invariant` that stops holding, is an error at the
declaration it breaks, with the game that reproduces it (play/exercise.py, `_broken`).
Play itself never checks them: before, a rule writing past a bound passed `check` and ran."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli.commands import main
from interpreter.play import exercise

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


def test_random_moves_from_a_test_position_that_breaks_an_invariant_are_not_held_to_it(tmp_path):
    """A test may arrange a position in part (a card put in a hand and still in the deck, as
    one of examples/twid_house_rules.test.game's does; here: five taken where the invariant
    allows three): the random moves `check` plays from it are not held to an invariant its
    start breaks, which no rule broke. The game's own lines still are."""
    import time

    from interpreter.runtime.load import load_game

    (tmp_path / "tally.game").write_text(GAME.replace("LIMIT", "10").replace("CAP", "3"))
    game = load_game(tmp_path / "tally.game")
    start = game.start(players=2, seed=1)
    slot = game.compiled.vars["taken"].slot
    arranged = start._replace(vars=(*start.vars[:slot], (5, 0), *start.vars[slot + 1 :]))
    tracker = exercise._Tracker(game, [])
    test_line = exercise._Line(game, (), None, lambda seed: arranged, test=object())  # type: ignore[arg-type]
    timer = exercise._Timer(time.monotonic() + 30)
    assert exercise._timed_play(test_line, 1, tracker, time.monotonic() + 30, timer)[1] is None
    game_line = exercise._Line(game, (), None, lambda seed: arranged)
    broken = exercise._timed_play(game_line, 1, tracker, time.monotonic() + 30, timer)[1]
    assert broken is not None and "does not hold" in broken.diagnostics[0].message
