"""Designers' tests in the game's own language (`test` blocks, `gamedef test`): the bundled
test files pass, and the runner reports a wrong expectation at its line with what was
expected and what came (exit 1), a bad file with its position (exit 2)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_paths import ROOT

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.language.program import load_program
from interpreter.runtime.load import bundled_games

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # The post-9/11 cards' tests compile The Wall is Down under three sets of options; the
    # pre-9/11 cards' tests stay.
    r"test_bundled_test_file_passes\[cards/twid/tests/post_9_11",
    # The house-rules examples' own tests (a compile of the game for each variant they test):
    # the bundled games' rule and card tests stay, the classic examples' too.
    r"test_bundled_test_file_passes\[examples/.*house_rules",
]

BUNDLED_TESTS = (
    sorted(ROOT.glob("gamedefs/*.test.game"))
    + sorted(ROOT.glob("examples/*.test.game"))
    + sorted(ROOT.glob("cards/*/tests/*.test.game"))
)

DICE = """game dice "Dice" {
    players 2..2
    seats [a, b]
}
var total: player -> int = 0
procedure play() {
    rule "Dice: each player in turn rolls a die and adds it; a 6 wins at once, 20 in all ends the game"
    while true {
        for p in players {
            roll d from 1..6
            total[p] += d
            log "{p} rolls {d}"
            if d == 6 {
                win p
            }
            choose go from [true, false] by p label if go then "go on" else "stop"
            if not go {
                game over []
            }
        }
    }
}
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["test", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def tictactoe(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "examples" / "tictactoe.game", tmp_path / "tictactoe.game")
    return tmp_path


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_the_bundled_games_carry_their_tests_in_the_language():
    """Downfall of Empires' data and rules, Walls and Wonders', Missiles, Now!'s, The Wall
    is Down's and Berlin Wall's rules, the house-rules examples, the classic examples' rules and The Wall is
    Down's cards carry their tests in the game's own language, not in Python."""
    names = {p.relative_to(ROOT).as_posix() for p in BUNDLED_TESTS}
    assert {"gamedefs/downfall_of_empires.test.game", "gamedefs/walls_and_wonders.test.game"} <= names
    assert {"gamedefs/missiles_now.test.game", "gamedefs/twid.test.game"} <= names
    assert "gamedefs/berlin_wall.test.game" in names
    assert {"examples/tictactoe.test.game", "examples/kuhn_poker.test.game"} <= names
    assert {"cards/twid/tests/pre_9_11.test.game", "cards/twid/tests/post_9_11.test.game"} <= names
    assert len(names) >= 5


@pytest.mark.parametrize("path", BUNDLED_TESTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_bundled_test_file_passes(capsys, path):
    """Each bundled test file passes `gamedef test` (each test cites its card or rule): the
    rules tests of the bundled games run with the default `pytest`, one case a file."""
    code, out, err = run(capsys, str(path))
    assert code == 0, out + err
    assert "tests passed" in out


def test_at_least_thirty_twid_cards_have_tests_in_the_language():
    """Issue 28: at least 30 of The Wall is Down's cards carry tests in this form."""
    cards = set()
    for path in ROOT.glob("cards/twid/tests/*.test.game"):
        for t in load_program(path).tests:
            cards |= {c.split(" ", 2)[1] for c in t.citations if c.startswith("Card ")}
    assert len(cards) >= 30, sorted(cards)


def test_a_passing_test_and_a_wrong_expectation_at_its_line(capsys, tictactoe):
    """Tic-tac-toe's standard rules: three in a row wins. The failing expectation is reported
    at its own line and column, with what was expected and what came; exit 1."""
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\n'
        'test x_wins_a_row "x takes the top row" {\n'
        '    play "a1", "a2", "b1", "b2", "c1"\n'
        "    expect winner() == [x]\n"
        "    expect marks == 5\n"
        '    expect logged("x has three in a row")\n'
        "}\n"
        'test wrong "a wrong count" {\n'
        '    play "a1", "b2"\n'
        "    expect board[a1] == x\n"
        "    expect marks == 3\n"
        '    expect offered("c3")\n'
        '    expect not offered("a1")\n'
        "}\n",
    )
    code, out, _ = run(capsys, str(path))
    assert code == 1
    lines = [x for x in out.splitlines() if "error" in x or ": test " in x]
    assert lines == [f"{path}:11:12: test wrong: expected marks == 3; came marks is 2"]
    assert "1 of 2 tests passed" in out
    fixed = path.read_text().replace("marks == 3", "marks == 2")
    path.write_text(fixed)
    assert run(capsys, str(path))[0] == 0


def test_each_kind_of_expectation_fails_with_what_came(capsys, tictactoe):
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\n'
        "test all_wrong {\n"
        '    play "a1"\n'
        '    expect offered("a1")\n'
        '    expect not offered("b2")\n'
        '    expect logged("o marks")\n'
        "    expect winner() == [o]\n"
        "    expect ended()\n"
        "    expect board[a1] == o and marks == 1\n"
        '    play "a"\n'
        "    expect marks == 99\n"
        "}\n",
    )
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert f"{path}:4:12: test all_wrong: expected a label containing 'a1'; offered: b1; c1; a2; b2;" in out
    assert f"{path}:5:12: test all_wrong: expected no label containing 'b2'; offered: b2" in out
    assert (
        f"{path}:6:12: test all_wrong: expected a logged line containing 'o marks'; the last lines: x marks a1" in out
    )
    assert f"{path}:7:12: test all_wrong: expected winner() == [o]; the game is not over" in out
    assert f"{path}:8:12: test all_wrong: expected the game to be over; o decides next" in out
    assert f"{path}:9:12: test all_wrong: expected board[a1] == o and marks == 1; it is false" in out
    # an ambiguous part of a label stops the test: the expectation after it is not checked
    assert f"{path}:10:10: test all_wrong: cannot play 'a': 'a' is part of 2 labels: a2; a3" in out
    assert "99" not in out


def test_pinned_dice_arrange_and_a_run_block(capsys, tmp_path):
    """`dice` pins the rolls in order; `arrange` sets values before play() (or at the
    decision reached, when written after a move); `run` plays its statements instead of
    play() and then ends the game with no winner."""
    write(tmp_path, "dice.game", DICE)
    path = write(
        tmp_path,
        "dice.test.game",
        'include "dice.game"\n'
        "test pinned {\n"
        "    dice [3, 6]\n"
        "    arrange { total[a] = 10 }\n"
        '    expect logged("a rolls 3")\n'
        "    expect total[a] == 13\n"
        '    play "go on"\n'
        "    expect winner() == [b]\n"
        "}\n"
        "test arranged_between_moves {\n"
        "    dice [2, 2]\n"
        '    play "go on"\n'
        "    arrange { total[a] = 7 }\n"
        '    play "stop"\n'
        "    expect total[a] == 7 and total[b] == 2\n"
        "    expect winner() == []\n"
        "}\n"
        "test a_run_block {\n"
        "    dice [5]\n"
        "    run {\n"
        "        roll d from 1..6\n"
        "        total[b] = d * 2\n"
        "    }\n"
        "    expect total[b] == 10\n"
        "    expect winner() == []\n"
        "}\n",
    )
    code, out, err = run(capsys, str(path))
    assert code == 0, out + err
    assert "3 of 3 tests passed" in out


def test_a_bad_test_is_a_check_error_with_its_position(capsys, tictactoe):
    """A misspelt name in an expectation is caught by the checker before any test runs:
    exit 2, the position, no traceback."""
    path = write(tictactoe, "t.test.game", 'include "tictactoe.game"\ntest t {\n    expect markz == 1\n}\n')
    code, out, err = run(capsys, str(path))
    assert code == 2
    assert f"{path}:3:12: error:" in err and "markz" in err
    path.write_text('include "tictactoe.game"\ntest t {\n    players 3\n}\n')
    code, _, err = run(capsys, str(path))
    assert code == 2 and f"{path}:3:5: error: test t: Tic-tac-toe is for 2 to 2 players, not 3" in err
    path.write_text('include "tictactoe.game"\ntest t {\n    variant nope\n}\n')
    code, _, err = run(capsys, str(path))
    assert code == 2 and "unknown variant 'nope'" in err
    path.write_text('include "tictactoe.game"\n')
    code, _, err = run(capsys, str(path))
    assert code == 2 and "no `test` blocks in this file" in err
    path.write_text('include "tictactoe.game"\ntest t {\n    expect\n}\n')
    code, _, err = run(capsys, str(path))
    assert code == 2 and f"{path}:4:1" in err


def test_test_blocks_do_not_change_the_game_or_its_rules_hash(tictactoe):
    """Tests are not rules: a game file with test blocks runs as before, with the same
    rules hash (transcripts stay valid), and `gamedef list` does not list test files."""
    game = tictactoe / "tictactoe.game"
    before = load_game(game)
    text = game.read_text()
    game.write_text(text + '\ntest t "a test inside the game file" {\n    play "a1"\n    expect marks == 1\n}\n')
    after = load_game(game)
    assert after.rules_hash == before.rules_hash
    s1, s2 = before.start(seed=3), after.start(seed=3)
    assert before.labels(s1) == after.labels(s2)
    assert [d.name for d in load_program(game).tests] == ["t"]
    game.write_text(text.replace("marks += 1", "marks += 2"))
    assert load_game(game).rules_hash != before.rules_hash
    assert not any(name.endswith(".test") for name in bundled_games())


# ---- gamedef diff: what a change did ------------------------------------------------------------
def diff(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["diff", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def record(capsys, game: str, out: Path, seed: int) -> None:
    assert main(["run", game, "--seed", str(seed), "--quiet", "--transcript", str(out)]) == 0
    capsys.readouterr()


def test_diff_of_an_unchanged_game_finds_nothing(capsys, tictactoe):
    for seed in (1, 2):
        record(capsys, str(tictactoe / "tictactoe.game"), tictactoe / f"game{seed}.toml", seed)
    code, out, _ = diff(capsys, str(tictactoe))
    assert code == 0
    assert out.splitlines()[-1] == "0 of 2 transcripts differ"


def test_diff_after_an_edit_in_place_names_the_first_move_no_longer_offered_and_its_rule(capsys, tictactoe):
    """A designer's own folder of transcripts as snapshot tests: after the labels change,
    each transcript differs at its first move, named with the rule in force there."""
    game = tictactoe / "tictactoe.game"
    record(capsys, str(game), tictactoe / "g.toml", 4)
    game.write_text(game.read_text().replace('label "{c}"', 'label "mark {c}"'))
    code, out, _ = diff(capsys, str(tictactoe / "g.toml"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith("g.toml: differs at move 1 (x: " + lines[0].split("(x: ")[1])
    assert "the move recorded is no longer offered; x is offered: mark a1; mark b1;" in lines[1]
    assert lines[2] == "    rules in force:"
    assert f"tictactoe.game:{_line_of(game, 'choose c from')}:" in lines[3]
    assert 'in turn (rule "Tic-tac-toe: standard rules: a move marks one empty square")' in lines[3]


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_diff_against_the_rules_a_transcript_names_finds_changed_options_and_outcomes(capsys, tmp_path):
    """`--game EDITED` plays each transcript against both the rules it names (here the
    bundled tic-tac-toe) and the edited copy, in step: the first decision whose labels or
    logged lines differ, or a different result."""
    record(capsys, "tictactoe", tmp_path / "a.toml", 5)
    edited = tmp_path / "edited" / "tictactoe.game"
    edited.parent.mkdir()
    text = (ROOT / "examples" / "tictactoe.game").read_text()
    edited.write_text(text)
    code, out, _ = diff(capsys, str(tmp_path / "a.toml"), "--game", str(edited))
    assert code == 0, out
    # the centre may not be taken first: the options of the first decision differ
    edited.write_text(
        text.replace(
            "def empty_cells() = [c for c in members(Cell) if board[c] == none]",
            "def empty_cells() = [c for c in members(Cell) if board[c] == none and (marks > 0 or c != b2)]",
        )
    )
    code, out, _ = diff(capsys, str(tmp_path / "a.toml"), "--game", str(edited))
    assert code == 1
    assert (
        "differs at move 1" in out and "labels no longer offered: b2" in out and "labels newly offered: nothing" in out
    )
    # what a move logs
    edited.write_text(text.replace('log "{p} marks {c}"', 'log "{p} puts a mark on {c}"'))
    code, out, _ = diff(capsys, str(tmp_path / "a.toml"), "--game", str(edited))
    assert code == 1 and "differs at move 1" in out
    assert "the move logged: x marks" in out and "it now logs: x puts a mark on" in out
    # the result: three in a row ends the game with nobody winning (the same lines logged)
    edited.write_text(text.replace("        win p\n", "        game over []\n"))
    code, out, _ = diff(capsys, str(tmp_path / "a.toml"), "--game", str(edited))
    assert code == 1
    assert "differs at the result" in out and "result: was won by ['x'], is won by []" in out


def test_diff_of_a_bad_transcript_is_an_error_with_exit_2(capsys, tmp_path):
    (tmp_path / "bad.toml").write_text("game = [\n")
    assert main(["diff", str(tmp_path / "bad.toml")]) == 2
    assert main(["diff", str(tmp_path / "missing")]) == 2
    record(capsys, "tictactoe", tmp_path / "t.toml", 1)
    assert main(["diff", str(tmp_path / "t.toml"), "--game", "kuhn_poker"]) == 2
    said = capsys.readouterr().err
    transcript = tmp_path / "t.toml"
    assert f"gamedef: error: --game kuhn_poker: {transcript} is a transcript of tictactoe, not of kuhn_poker" in said


def test_the_documented_example_passes(capsys, tictactoe):
    """docs/language.md 16.1: the tic-tac-toe tests as documented pass (`reach`, a seat's
    narration and `modifiers()` included)."""
    text = (ROOT / "docs" / "language.md").read_text()
    block = text.split("## 16. Designers' tests", 1)[1].split("```game\n", 1)[1].split("```", 1)[0]
    path = write(tictactoe, "tictactoe.test.game", block)
    code, out, err = run(capsys, str(path))
    assert code == 0, out + err
    assert "4 of 4 tests passed" in out


def test_the_words_of_a_test_stay_free_for_a_games_names(tictactoe):
    """Only `test` is reserved: a game may still name a variable `state`, `seed` or `dice`
    and a procedure `play`, `run`, `expect` or `arrange`, even right after an expression."""
    from interpreter.language.parser import parse_text

    text = (
        "procedure run(n: int) {\n"
        '    rule "x"\n'
        "    let seed = n + 1\n"
        "    dice = seed\n"
        "    let state = 2\n"
        "    expect(state)\n"
        "    let a = 1\n"
        "    arrange(a)\n"
        "    if a == 1 {\n"
        "        a = 2\n"
        "    }\n"
        "    run(a)\n"
        "}\n"
    )
    assert len(parse_text(text, "words.game").decls) == 1


def test_a_test_may_start_from_a_saved_state(capsys, tictactoe):
    """`state "FILE"`: the position saved by `--save-state` (or `save_state`), beside the test."""
    from interpreter.runtime.saving import save_state

    g = load_game(tictactoe / "tictactoe.game")
    s = g.apply(g.apply(g.start(seed=1), "a1"), "b2")
    save_state(g, s, tictactoe / "two_marks.toml")
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\n'
        "test from_a_state {\n"
        '    state "two_marks.toml"\n'
        "    expect marks == 2 and board[b2] == o\n"
        '    play "c3"\n'
        "    expect board[c3] == x\n"
        "}\n"
        "test outside {\n"
        '    state "../elsewhere.toml"\n'
        "}\n",
    )
    code, out, err = run(capsys, str(path), "-k", "from_a")
    assert code == 0, out + err
    code, out, err = run(capsys, str(path), "-k", "outside")
    assert code == 2 and "outside the test's folder" in err


def test_a_condition_that_cannot_be_computed_is_a_failure_not_a_crash(capsys, tictactoe):
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\ntest t {\n    expect lines()[20] == []\n    expect marks == 0\n}\n',
    )
    code, out, err = run(capsys, str(path))
    assert code == 1, out + err
    assert f"{path}:3:12: test t: the condition cannot be computed:" in out
    assert "Traceback" not in out + err


# ---- tests are code: checked by `gamedef check`, forms in any condition ------------------------
def test_check_checks_test_blocks_and_counts_what_tests_call(capsys, tictactoe):
    """`gamedef check` of a test file checks each `test` block's code like the game's: a
    misspelt name in an `arrange` block is an error at its line (exit 2); a procedure of the
    test file that only tests call is not "never called"."""
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\n'
        'procedure fill() {\n    rule "Test position: two marks"\n    marks = 2\n}\n'
        "test t {\n    arrange {\n        fill()\n        markz = 1\n    }\n    expect marks == 2\n}\n",
    )
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:9:9: error: unknown variable 'markz'" in err and "did you mean 'marks'?" in err
    path.write_text(path.read_text().replace("markz", "marks"))
    assert main(["check", str(path)]) == 0
    assert "never called" not in capsys.readouterr().err


def test_a_mistake_in_a_test_is_printed_once(capsys, tictactoe):
    """A comparison's sides are asked again when it fails, but a mistake in them is one
    mistake: `gamedef test` prints it once."""
    path = write(tictactoe, "t.test.game", 'include "tictactoe.game"\ntest t {\n    expect markz == 1\n}\n')
    code, _, err = run(capsys, str(path))
    assert code == 2
    assert err.count("unknown name 'markz'") == 1, err


def test_expect_takes_any_condition_with_the_tests_forms(capsys, tictactoe):
    """`offered`, `logged`, `ended()` and `winner()` are values inside any condition of an
    `expect`: joined by `and`/`or`, under `not`, compared. After x plays a1, the labels
    b2 and c3 are offered and a1 is not."""
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\n'
        "test both {\n"
        '    play "a1"\n'
        '    expect offered("b2") and offered("c3")\n'
        '    expect offered("a1") or logged("x marks a1")\n'
        '    expect not (offered("a1") or ended()) and winner() == []\n'
        "    expect count(winner()) == 0 and marks == 1\n"
        "}\n"
        "test wrong {\n"
        '    play "a1"\n'
        '    expect offered("b2") and offered("a1")\n'
        "}\n",
    )
    code, out, err = run(capsys, str(path))
    assert code == 1, out + err
    assert f'{path}:11:12: test wrong: expected offered("b2") and offered("a1"); it is false' in out
    assert "1 of 2 tests passed" in out
    assert main(["check", str(path)]) == 0, capsys.readouterr().err


def test_offered_without_a_text_is_the_labels_and_deciding_the_seat_to_move(capsys, tictactoe):
    """Tic-tac-toe's standard rules: the players take turns marking an empty square. The
    labels offered are a list matched exactly, in order, and deciding() names the seat
    whose choice it is (none once the game is over); a wrong one says what came."""
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\n'
        "test right {\n"
        '    play "b2"\n'
        "    expect deciding() == o\n"
        '    expect offered() == ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]\n'
        '    expect "b2" not in offered() and count(offered()) == 8\n'
        '    play "a1", "a2", "a3", "c2"\n'
        "    expect deciding() == none and ended()\n"
        "}\n"
        "test wrong {\n"
        '    play "b2"\n'
        '    expect offered() == ["a1"]\n'
        "    expect deciding() == x\n"
        "}\n",
    )
    code, out, _ = run(capsys, str(path))
    assert code == 1
    lines = [x for x in out.splitlines() if ": test " in x]
    assert lines == [
        f'{path}:12:12: test wrong: expected offered() == ["a1"]; came offered() is '
        "['a1', 'b1', 'c1', 'a2', 'c2', 'a3', 'b3', 'c3'], [\"a1\"] is ['a1']",
        f"{path}:13:12: test wrong: expected deciding() == x; came deciding() is o, x is x",
    ]
    assert "1 of 2 tests passed" in out


def test_gamedef_test_with_a_games_name_runs_that_games_test_files(capsys, tmp_path, monkeypatch):
    """`gamedef test NAME` runs the test files of a bundled game (NAME.test.game beside it,
    and those of a `tests/` folder beside its card sets that include it): Berlin Wall's
    house rules have theirs beside them, and Berlin Wall's own (gamedefs/berlin_wall.test.game)
    are not among them (its house rules' file is named after them); a game found by name with
    none is an error with the fix (exit 2), as is a name no game has."""
    import interpreter.runtime.load as load

    code, out, err = run(capsys, "berlin_wall_house_rules")
    assert code == 0, out + err
    assert out.splitlines() == [out.splitlines()[0]]
    assert out.splitlines()[0].startswith("examples/berlin_wall_house_rules.test.game: ")
    assert out.splitlines()[0].endswith(" tests passed")
    write(tmp_path, "dice_alone.game", DICE)
    monkeypatch.setattr(load, "_search_dirs", lambda: [load.BUNDLED, load.EXAMPLES, tmp_path])
    code, out, err = run(capsys, "dice_alone")
    assert code == 2
    assert "the game 'dice_alone' has no test files" in err and "dice_alone.test.game" in err
    code, out, err = run(capsys, "tictactoes")
    assert code == 2 and "no game file or bundled game named 'tictactoes'" in err


def test_the_wall_is_downs_test_files_are_found_beside_its_cards():
    """The Wall is Down's card tests live beside its card sets (cards/twid/tests/), its core rules'
    beside the game (gamedefs/twid.test.game), and `gamedef test twid` finds every one of them, and no
    test file of a game built on it."""
    from interpreter.runtime.designer_tests import game_test_files

    found = {p.relative_to(ROOT).as_posix() for p in game_test_files(ROOT / "gamedefs" / "twid.game")}
    cards = {p.relative_to(ROOT).as_posix() for p in ROOT.glob("cards/twid/tests/*.test.game")}
    assert found == cards | {"gamedefs/twid.test.game"}
    assert "examples/twid_house_rules.test.game" not in found


SECRET = """game secret "Secret" {
    players 2..2
    seats [a, b]
}
event turn_ended()
query bonus(p: player): int = 0
var told: int = 0
procedure play() {
    rule "Secret: a sees its number alone; a's bonus lasts until the turn ends"
    log to a "a's number is 7"
    log "a looks at its number"
    until turn_ended: bonus(p) += 1 where p == a
    choose go from [true] by a label "go"
    emit turn_ended()
    choose go2 from [true] by b label "stop"
    game over []
}
"""


def test_logged_to_a_seat_reads_that_seats_narration(capsys, tmp_path):
    """`logged("TEXT", SEAT)`: the lines told to that seat (to everyone, and to it alone),
    not another seat's; a seat that does not play is refused at its line before any test
    runs (the file does not check)."""
    write(tmp_path, "secret.game", SECRET)
    told = (
        'include "secret.game"\n'
        "test told {\n"
        '    expect logged("number is 7", a) and logged("looks at", b)\n'
        '    expect not logged("number is 7", b)\n'
        '    expect logged("number is 7")\n'
        "}\n"
        "test told_wrong {\n"
        '    expect logged("number is 7", b)\n'
        '    expect not logged("number is 7", a)\n'
        "}\n"
    )
    path = write(tmp_path, "secret.test.game", told)
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert "1 of 2 tests passed" in out
    assert f"{path}:8:12: test told_wrong: expected a logged line told to b containing 'number is 7'" in out
    assert f"{path}:9:12: test told_wrong: expected no logged line told to a containing 'number is 7'" in out
    path = write(tmp_path, "secret.test.game", told.replace("a)\n}", 'a)\n    expect logged("x", c)\n}'))
    code, _, err = run(capsys, str(path))
    assert code == 2
    assert f"{path}:10:12: error: test told_wrong: logged(\"...\", c) names 'c', which is no seat of the game" in err


def test_modifiers_counts_the_stated_modifiers_in_force(capsys, tmp_path):
    """`modifiers()`: the stated modifiers in force, one until the event that ends it."""
    write(tmp_path, "secret.game", SECRET)
    path = write(
        tmp_path,
        "secret.test.game",
        'include "secret.game"\n'
        "test lasting {\n"
        "    expect modifiers() == 1 and bonus(a) == 1\n"
        '    play "go"\n'
        "    expect modifiers() == 0 and bonus(a) == 0\n"
        "}\n"
        "test lasting_wrong {\n"
        '    play "go"\n'
        "    expect modifiers() == 1\n"
        "}\n",
    )
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert "1 of 2 tests passed" in out
    assert f"{path}:9:12: test lasting_wrong: expected modifiers() == 1; came modifiers() is 0" in out


def test_reach_plays_the_first_label_until_the_condition_holds(capsys, tictactoe):
    """`reach CONDITION` plays the first label offered until the condition holds; the game
    ending first is a failure that stops the test, and so is a condition that is no truth."""
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\n'
        "test reached {\n"
        "    reach marks == 3\n"
        "    expect board[a1] == x and board[b1] == o and board[c1] == x and marks == 3\n"
        "    reach marks == 3\n"
        "    expect marks == 3\n"
        "}\n"
        "test never {\n"
        "    reach marks == 10\n"
        "    expect marks == 99\n"
        "}\n",
    )
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert "1 of 2 tests passed" in out
    assert f"{path}:9:11: test never: the game ended before marks == 10 held; won by [x]" in out
    assert "99" not in out  # the test stopped at the `reach`
    # a condition that is no truth is refused before any test runs, at its line
    path.write_text(path.read_text() + "test not_a_truth {\n    reach marks\n}\n")
    code, _, err = run(capsys, str(path))
    assert code == 2
    assert f"{path}:13:11: error: `reach` takes a condition (true or false), and `marks` is int" in err


def test_tests_picked_by_name_then_all_of_them(capsys, tictactoe):
    """`-k` runs some tests of a file; a run of all of them afterwards finds every test's
    code in the compiled game the cache keeps (it is compiled for the whole file)."""
    path = write(
        tictactoe,
        "t.test.game",
        'include "tictactoe.game"\n'
        'test first_one {\n    play "a1"\n    expect marks == 1\n}\n'
        'test second_one {\n    play "b2"\n    expect board[b2] == x\n}\n',
    )
    code, out, err = run(capsys, str(path), "-k", "second")
    assert code == 0, out + err
    assert "1 of 1 tests passed" in out
    code, out, err = run(capsys, str(path))
    assert code == 0, out + err
    assert "2 of 2 tests passed" in out


def test_tests_play_the_rules_as_written_and_a_saved_state_the_optimised_build(capsys, tictactoe, monkeypatch):
    """`gamedef test` compiles the rules as written (no inlining: a tenth of the compile, the
    same game by tests/compile/test_optimisations.py), except for tests that start from a
    saved state, whose procedure frames belong to the optimised build `run` saved them from."""
    from interpreter.runtime import designer_tests
    from interpreter.runtime.saving import save_state

    builds: list[bool] = []
    real = designer_tests.compile_game

    def spy(program, options=None, **kw):
        builds.append(kw.get("optimise", True))
        return real(program, options, **kw)

    monkeypatch.setattr(designer_tests, "compile_game", spy)
    g = load_game(tictactoe / "tictactoe.game")
    save_state(g, g.apply(g.start(seed=1), "a1"), tictactoe / "one_mark.toml")
    setup = 'include "tictactoe.game"\ntest from_setup {\n    play "a1"\n    expect board[a1] == x\n}\n'
    from_state = 'test from_a_state {\n    state "one_mark.toml"\n    play "b2"\n    expect board[b2] == o\n}\n'
    code, out, err = run(capsys, str(write(tictactoe, "t.test.game", setup)))
    assert code == 0, out + err
    assert builds == [False]
    code, out, err = run(capsys, str(write(tictactoe, "s.test.game", setup + from_state)))
    assert code == 0, out + err
    assert builds == [False, True]  # the tests of one group (settings) are compiled together


def test_an_option_mistake_in_a_test_is_said_at_the_test_in_the_tests_words(capsys, tmp_path):
    """An option a test sets that the game cannot take is the test's mistake: at the test,
    its advice written as the test writes variants and options, never as a flag."""
    write(
        tmp_path,
        "g.game",
        'game g { players 2..2 seats [a, b] }\noption size: int = 3 choices [3, 4] "size"\n'
        'procedure play() {\n    rule "Play"\n    game over []\n}\n'
        'variant wide "Wide" {\n    rule "Wide"\n    option depth: int = 1 "depth"\n'
        '    replace option size: int = 3 choices [3, 4, 9] "size"\n}\n',
    )
    cases = [
        (
            "option depth = 2",
            "3:5",
            "unknown option 'depth'",
            "the variant wide declares it: add `variant wide` to the test",
        ),
        (
            "option size = 9",
            "3:19",
            "option 'size' = 9 is not allowed",
            "choose from 3, 4, or add `variant wide` to the test",
        ),
        ("option size = true", "3:19", "option 'size' is int, not bool", None),
    ]
    for setting, where, message, hint in cases:
        path = write(tmp_path, "g.test.game", f'include "g.game"\ntest t {{\n    {setting}\n}}\n')
        code, _, err = run(capsys, str(path))
        assert code == 2 and f"{path}:{where}: error: test t: {message}" in err, err
        assert (hint is None or f"hint: {hint}" in err) and "--" not in err, err
