"""Syntax slips a designer makes, each reported where it is with a hint that fixes it: the
hint applied, the file checks clean (language/parser.py, `_slip`, `_value_if_without_else`)."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli.commands import main

GAME = """\
game pig "Pig" { players 2..2 seats [north, south] }
var score: player -> int = 0
procedure play() {
    rule "Pig: each seat rolls until it stops or rolls a one"
    for p in players {
        let going = true
        while going {
            may p "roll" {
                roll d from 1..6
                if d == 1 {
                    going = false
                } else {
                    let bonus = if d == 6 then 1 else 0
                    score[p] += d + bonus
                }
            } else {
                going = false
            }
        }
    }
    game over best(players, q => score[q])
}
"""


def _check(capsys, tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "pig.game"
    path.write_text(text)
    code = main(["check", str(path), "--budget", "0"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.err


def _line(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_the_game_checks_clean(capsys, tmp_path):
    assert _check(capsys, tmp_path, GAME) == (0, "")


def test_an_else_without_the_closing_brace_before_it_is_hinted_with_the_brace(capsys, tmp_path):
    text = GAME.replace("                } else {", "                else {")
    code, err = _check(capsys, tmp_path, text)
    assert code == 2
    assert f"pig.game:{_line(text, 'else {')}:17: error: unexpected 'else'" in err
    assert "hint: `else` follows the closing '}' of the `if`'s block: write `} else {`" in err


def test_an_if_value_without_else_is_reported_on_its_own_line(capsys, tmp_path):
    """Before: at the next line's first word ("unexpected 'score'", expected 'else', 'or')."""
    text = GAME.replace("then 1 else 0", "then 1")
    code, err = _check(capsys, tmp_path, text)
    assert code == 2
    line = _line(text, "let bonus")
    assert f"pig.game:{line}:49: error: an `if` written as a value has no `else`" in err  # (where `else` goes)
    assert "`if COND then A else B` (`else 0`)" in err
    assert _check(capsys, tmp_path, text.replace("then 1", "then 1 else 0")) == (0, "")


def test_may_without_its_player_is_hinted_with_the_player(capsys, tmp_path):
    """Before: "a text in double quotes is expected here", at the block's '{'."""
    text = GAME.replace('may p "roll"', 'may "roll"')
    code, err = _check(capsys, tmp_path, text)
    assert code == 2
    assert 'say who may act before the label: `may PLAYER "label" { ... }`' in err


def test_a_choose_with_a_bare_label_and_a_block_is_hinted_as_a_choose_is_written(capsys, tmp_path):
    """A `choose` written as a `may` is (a label, then a block): before, "expected '}', ..."."""
    text = GAME.replace(
        '            may p "roll" {\n                roll d from 1..6\n',
        '            choose k from [1, 2] by p "how many" {\n                roll d from 1..6\n',
    )
    code, err = _check(capsys, tmp_path, text)
    assert code == 2
    assert 'write `choose NAME from LIST by PLAYER label "..."`, then the statements that use NAME' in err
