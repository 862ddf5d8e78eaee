"""Designers' mistakes `gamedef check` used to pass, each refused (or warned of) at its
line with a hint that fixes it; and its remembered verdicts kept in step with the test
files its warnings read."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.commands import main
from interpreter.lsp import analysis as A

DICE = """\
game dice "Dice" {
    players 2..3
    seats [north, east, south]
}

var score: player -> int = 0
var rolls: int = 0

procedure play() {
    rule "Dice: each seat may roll once; the highest wins"
    for p in players {
        may p "roll" {
            roll d from 1..6
            rolls += 1
            score[p] += d
        }
    }
    game over best(players, p => score[p])
}
"""

READS_ROLLS = """\
include "dice.game"

test counted "Each roll is counted" {
    rule "Dice: each seat may roll once; the highest wins"
    players 2
    dice [3, 4]
    play "roll", "roll"
    expect rolls == 2
}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("GAMEDEF_CACHE", str(where))
    return where


def _check(capsys, path: Path) -> tuple[int, str]:
    code = main(["check", str(path), "--budget", "5"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.err


NEVER_READ = "variable 'rolls' is never read"


def test_a_check_remembered_is_checked_again_when_only_a_test_file_changed(cache, tmp_path, capsys):
    """`rolls` is read by the test beside the game alone: no warning. The test edited to
    read something else, the game's rules unchanged, the warning comes: the remembered
    verdict (keyed by the rules alone before) no longer answers."""
    game = tmp_path / "dice.game"
    game.write_text(DICE)
    tests = tmp_path / "dice.test.game"
    tests.write_text(READS_ROLLS)
    code, err = _check(capsys, game)
    assert code == 0 and NEVER_READ not in err
    assert list(cache.glob("*.verdict"))  # remembered
    tests.write_text(READS_ROLLS.replace("expect rolls == 2", "expect score[north] == 3"))
    code, err = _check(capsys, game)
    assert code == 0 and NEVER_READ in err
    assert f"{game}:7:1: warning: {NEVER_READ}" in err
    tests.write_text(READS_ROLLS)  # and back: read again, no warning
    code, err = _check(capsys, game)
    assert code == 0 and NEVER_READ not in err


def test_the_language_server_checks_again_when_only_a_test_file_changed(tmp_path):
    """The language server's recent checks are keyed by the test files beside the game too."""
    game = tmp_path / "dice.game"
    game.write_text(DICE)
    tests = tmp_path / "dice.test.game"
    tests.write_text(READS_ROLLS)

    def said() -> list[str]:
        return [d.message for d in A.analyse(str(game), DICE).diagnostics]

    assert NEVER_READ not in said()
    tests.write_text(READS_ROLLS.replace("expect rolls == 2", "expect score[north] == 3"))
    assert NEVER_READ in said()
    tests.unlink()
    assert NEVER_READ in said()
    tests.write_text(READS_ROLLS)
    assert NEVER_READ not in said()
