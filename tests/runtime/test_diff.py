"""`gamedef diff` with variants and outcomes (docs/language.md §16.2).

A variant's change is seen with `--variant V`; rules that equal the baseline are said to,
instead of a silent "0 of N transcripts differ"; `--games N` plays the same seeds under
both rules and sets win rates, length and endings side by side with their intervals.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.cli.commands import main
from interpreter.core.paths import ROOT
from interpreter.play.simulate import wilson

# O's first move is forced to the centre when it is free: the first decision O takes
# offers other labels, and the outcome of random games moves towards O.
CENTRE = """

variant centre "O takes the centre" {
    rule "House rule (not in the rulebook): O's first mark goes in the centre when it is free"
    replace def empty_cells() = (if marks == 1 and board[b2] == none then [b2]
                                 else [c for c in members(Cell) if board[c] == none])
}
"""

# X wins at once: every game is one decision long.
X_WINS = """

variant x_wins "X wins after one mark" {
    rule "House rule (not in the rulebook): the first mark wins"
    replace procedure play() {
        rule "House rule: the first mark wins"
        turn(x)
        win x
    }
}
"""


ALIKE = "  {} of {} games ended alike under both rules (winners, length, last key event, cards chosen)"


def diff(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["diff", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


@pytest.fixture
def folder(tmp_path: Path, capsys) -> Path:
    """Tic-tac-toe with two variants of one's own, and three transcripts of its base game."""
    game = tmp_path / "tictactoe.game"
    shutil.copy(ROOT / "examples" / "tictactoe.game", game)
    game.write_text(game.read_text() + CENTRE + X_WINS)
    for seed in (1, 2, 3):
        assert (
            main(["run", str(game), "--seed", str(seed), "--quiet", "--transcript", str(tmp_path / f"g{seed}.toml")])
            == 0
        )
    capsys.readouterr()
    return tmp_path


def test_a_variant_is_diffed_against_the_rules_without_it(capsys, folder):
    """`--variant V` plays the transcripts under the variant and in step under their own
    rules: the first decision whose labels differ is O's first, when the centre is free."""
    code, out, err = diff(capsys, str(folder / "g1.toml"), "--variant", "x_wins")
    assert code == 1 and "warning" not in err
    assert "g1.toml: differs at move 2" in out  # after X's mark, the game is over under x_wins
    assert "the game is now over before this move, won by ['x']" in out
    code, out, err = diff(capsys, str(folder), "--variant", "centre")
    assert code == 1 and "warning" not in err
    differing = [x for x in out.splitlines() if "differs at" in x]
    assert out.splitlines()[-1] == f"{len(differing)} of 3 transcripts differ" and differing
    for line in differing:
        assert "differs at move 2 (o: " in line
    assert "labels newly offered: nothing" in out


def test_rules_equal_to_the_baseline_are_warned_of(capsys, folder, tmp_path_factory):
    """A file whose changes are all in variants, diffed without one, cannot differ: said,
    with the variant to choose; a copy of the game elsewhere is the same rules too."""
    code, out, err = diff(capsys, str(folder / "g1.toml"), "--game", str(folder / "tictactoe.game"))
    assert code == 0 and out.splitlines()[-1] == "0 of 1 transcripts differ"
    assert (
        "warning: " in err and "has the same rules as the transcripts' own game (tictactoe): nothing can differ" in err
    )
    assert "hint: its changes may be in a variant: --variant centre (its variants: centre, x_wins)" in err
    copy = tmp_path_factory.mktemp("elsewhere") / "tictactoe.game"
    copy.write_text((ROOT / "examples" / "tictactoe.game").read_text())
    code, out, err = diff(capsys, str(folder / "g1.toml"), "--game", str(copy))
    assert code == 0 and "has the same rules as the transcripts' own game" in err
    assert "hint: edit the rules, or name the edited file with --game" in err
    # an edit in place of a rule is no warning
    copy.write_text(copy.read_text().replace('log "{p} marks {c}"', 'log "{p} puts a mark on {c}"'))
    code, out, err = diff(capsys, str(folder / "g1.toml"), "--game", str(copy))
    assert code == 1 and "warning" not in err


def test_games_sets_the_outcomes_of_both_rules_side_by_side_with_their_intervals(capsys, folder):
    """`--games 40`: the same 40 seeds under both rules. Under x_wins X wins every game in
    one decision: X's win rate is 40 of 40 with its Wilson interval, beside the base game's
    own figures, and marked where the intervals do not overlap."""
    code, out, _ = diff(capsys, str(folder / "g1.toml"), "--variant", "x_wins", "--games", "40")
    assert code == 1
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("outcomes of 40 games"))
    assert lines[start] == (
        "outcomes of 40 games by random players, 2 players, seeds 1..40 (95% intervals; * where they do not overlap):"
    )
    assert lines[start + 1].split() == ["before", "after", "(x_wins)"]
    x_row = next(x for x in lines[start:] if x.strip().startswith("x wins"))
    low, high = wilson(40, 40)
    assert x_row.rstrip().endswith(f"100% [{low:.0%}, {high:.0%}] *")
    before = re.search(r"x wins\s+(\d+)% \[(\d+)%, (\d+)%\]", x_row)
    assert before is not None and int(before[1]) < 100
    decisions = next(x for x in lines[start:] if x.strip().startswith("decisions (mean)"))
    assert decisions.rstrip().endswith("1.0 [1.0, 1.0] *")
    assert "endings (the last key event):" in out
    assert lines[-1] == ALIKE.format(0, 40)


def test_games_under_the_same_rules_end_alike_and_exit_0(capsys, folder):
    code, out, err = diff(capsys, str(folder / "g1.toml"), "--game", str(folder / "tictactoe.game"), "--games", "10")
    assert code == 0 and "nothing can differ" in err
    assert (
        out.splitlines()[-1]
        == "  10 of 10 games ended alike under both rules (winners, length, last key event, cards chosen)"
    )


def test_games_needs_two_sets_of_rules(capsys, folder):
    code, _, err = diff(capsys, str(folder / "g1.toml"), "--games", "10")
    assert code == 2 and "--games compares two sets of rules" in err and "--variant V" in err
    code, _, err = diff(capsys, str(folder / "g1.toml"), "--variant", "no_such")
    assert code == 2 and "unknown variant 'no_such'" in err


def test_a_file_that_includes_the_game_is_diffed_against_it_with_its_variant(capsys, folder):
    """A designer's file of variants (`include` the game, add a variant) against the game's
    own transcripts: without the variant it is the same rules (said so), with it the
    variant's change is seen."""
    house = folder / "house.game"
    house.write_text('include "tictactoe.game"\n' + X_WINS.replace("x_wins", "x_first"))
    (folder / "tictactoe.game").write_text((ROOT / "examples" / "tictactoe.game").read_text())
    code, out, err = diff(capsys, str(folder / "g2.toml"), "--game", str(house))
    assert code == 0 and "hint: its changes may be in a variant: --variant x_first" in err
    code, out, err = diff(capsys, str(folder / "g2.toml"), "--game", str(house), "--variant", "x_first")
    assert code == 1 and "warning" not in err
    assert "g2.toml: differs at move 2" in out
