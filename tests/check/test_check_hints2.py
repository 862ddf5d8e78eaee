"""Designer's mistakes written from the docs alone that `check` mishandled (docs/language.md
§16): each is found before play, at its line, with a hint that fixes it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.check.checker import check_game
from interpreter.cli.commands import main
from interpreter.language.program import load_program
from interpreter.runtime.load import find_game


def write(folder: Path, source: str, name: str = "house.game") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def check_cli(capsys, path: Path) -> tuple[int, str]:
    """`gamedef check PATH --budget 0`: its exit code and its standard error."""
    code = main(["check", str(path), "--budget", "0"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.err


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


PICK = """
game pick "Pick" { players 2..2 seats [north, south] }
var n: int = 0
var pool: list int = [1, 2]
procedure play() {
    rule "Pick: each seat picks a number"
    for p in players {
        CHOOSE
        log "{p} picks {k}"
    }
    game over []
}
"""


# ---- `choose` without `by SEAT` --------------------------------------------------------------------
@pytest.mark.parametrize("option", ['label "pick {k}"', 'prompt "pick one"', "optional", "secret"])
def test_a_choose_without_by_is_told_to_say_who_chooses_at_its_option(capsys, tmp_path, option):
    """`choose k from pool label "..."` (the `by SEAT` left out, docs/language.md §5.5) was
    told "'label' is a keyword", as if a variable were called so; it is told, at the option,
    that the `by PLAYER` comes before it."""
    chosen = f"choose k from pool {option}"
    path = write(tmp_path, PICK.replace("CHOOSE", chosen))
    code, err = check_cli(capsys, path)
    word = option.split()[0]
    assert code == 2
    assert f"{path}:{line_of(path, chosen)}:28: error: unexpected '{word}'" in err, err
    assert (
        f"hint: a `choose` needs `by PLAYER` before its {word}: `choose NAME from LIST by PLAYER {word} ...`" in err
    ), err
    assert "is a keyword" not in err
    fixed = write(tmp_path, PICK.replace("CHOOSE", f"choose k from pool by p {option}"))
    assert check_cli(capsys, fixed)[0] == 0  # the hint's form is right


def test_a_variable_named_label_is_still_told_label_is_a_keyword(capsys, tmp_path):
    """The keyword's own hint stays where a name was meant (`var label: ...`)."""
    path = write(tmp_path, PICK.replace("CHOOSE", "let k = 1").replace("var n: int = 0", "var label: int = 0"))
    code, err = check_cli(capsys, path)
    assert code == 2
    assert "'label' is a keyword" in err, err


# ---- `var` without its starting value ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("declared", "fixed"),
    [
        ("var x: int", "var x: int = 0"),
        ("var ready: player -> bool  # who has passed", "var ready: player -> bool = false"),
        ("var marks: player -> list int", "var marks: player -> list int = []"),
        ("var chosen: int?", "var chosen: int? = none"),
    ],
    ids=["int", "map-with-comment", "list", "maybe"],
)
def test_a_var_without_a_value_is_reported_at_its_own_line_with_the_value_it_needs(capsys, tmp_path, declared, fixed):
    """`var x: int` with no `= VALUE` was reported at the next line ("unexpected
    'procedure'", "expected '='"); it is reported at the `var`, with the declaration
    written whole, and the rest of the file is still read (one error, not a missing
    `procedure play()`)."""
    path = write(
        tmp_path,
        PICK.replace("CHOOSE", "choose k from pool by p").replace("var n: int = 0", f"var n: int = 0\n{declared}"),
    )
    code, err = check_cli(capsys, path)
    name = declared.split()[1].rstrip(":")
    assert code == 2
    lines = err.splitlines()
    assert lines[0] == f"{path}:{line_of(path, declared)}:1: error: variable '{name}' has no starting value", err
    assert lines[-1] == f"    hint: write `{fixed}`", err
    assert err.count("error:") == 1, err
    path.write_text(path.read_text().replace(declared, fixed))
    assert check_cli(capsys, path)[0] == 0  # the hint's declaration is right


def test_a_var_without_a_value_at_the_end_of_the_file_is_reported_at_its_line(capsys, tmp_path):
    path = write(tmp_path, PICK.replace("CHOOSE", "choose k from pool by p") + "var last: Foo\n\n# the end\n")
    code, err = check_cli(capsys, path)
    assert code == 2
    assert f"{path}:{line_of(path, 'var last')}:1: error: variable 'last' has no starting value" in err, err
    assert "hint: write `var last: Foo = VALUE`, the value it holds when the game starts" in err


# ---- a test reading a seat not in play -----------------------------------------------------------
THREE = """
game three "Three" { players 2..3 seats [north, south, green] }
var score: player -> int = 0
procedure play() {
    rule "Three: each seat picks a number and scores it"
    for p in players {
        choose k from [1, 2] by p label "pick {k}"
        score[p] += k
    }
    game over []
}
test green_scores_nothing "Green has no score yet" {
    players 2
    EXPECT
}
"""


@pytest.mark.parametrize(
    "expect", ["expect score[green] == 0", "expect score[north] >= 1 and score[green] == 0", "reach score[green] > 0"]
)
def test_a_test_reading_a_seat_not_in_play_at_its_count_is_an_error_at_its_line(capsys, tmp_path, expect):
    """`expect score[green] == 0` with `players 2`, green being the game's third seat: the
    entry keeps its starting value whatever the game does, so the test asserts nothing
    (`gamedef test` passes it); `check` refuses it at its line, as it does
    `logged("...", green)` there (check/seats.py)."""
    path = write(tmp_path, THREE.replace("EXPECT", expect))
    column = 5 + expect.index("score[green]")  # at the read itself
    code, err = check_cli(capsys, path)
    assert code == 2
    assert (
        f"{path}:{line_of(path, expect)}:{column}: error: test green_scores_nothing: score[green] reads green, "
        "which is not in play with 2 players (the seats in play: north, south): it holds its starting value whatever "
        "the game does" in err
    ), err
    assert "hint: read a seat in play (north, south), or give the test the players that have green: `players N`" in err
    path.write_text(path.read_text().replace("players 2", "players 3"))
    assert check_cli(capsys, path)[0] == 0, capsys.readouterr()  # at three players green plays


# ---- a var or an option no rule reads ---------------------------------------------------------------
READS = """
game reads "Reads" { players 2..2 seats [north, south] }
option bonus: int = 0 choices 0..2
option slow: bool = false
var shown: int = 0
var paid: player -> int = 0
var guessed: player -> int = 0
var tested: int = 0
var total: int = 0
var tally: int = 0
view {
    text "Shown: {shown}"
}
payoff p from -5 to 5: paid[p]
estimate p from -10 to 10: guessed[p]
procedure play() {
    rule "Reads: each seat picks a number"
    for p in players {
        choose k from [1, 2] by p label "pick {k}"
        shown += k
        paid[p] = k
        guessed[p] += k
        tested += 1
        total += k
        tally += k
    }
    if total > 3 {
        game over [north]
    }
    game over []
}
variant rich "Rich: the bonus is paid" {
    replace procedure play() {
        rule "Reads: the bonus is paid"
        paid[north] = bonus
        game over []
    }
}
test counted "Each pick is counted" {
    expect tested == 0
}
"""


def test_a_var_or_an_option_no_rule_reads_is_warned_of_at_its_declaration(capsys, tmp_path):
    """`tally` is written but read by nothing, `slow` read by nothing: a warning at each
    declaration, as a def never called is. What a view (`shown`), a payoff (`paid`), an
    estimate (`guessed`), a test (`tested`) or a rule (`total`) reads is read, and so is an
    option only a variant reads (`bonus`): none of these is warned of."""
    path = write(tmp_path, READS)
    code, err = check_cli(capsys, path)
    assert code == 0, err
    assert f"{path}:{line_of(path, 'var tally')}:1: warning: variable 'tally' is never read" in err, err
    assert f"{path}:{line_of(path, 'option slow')}:1: warning: option 'slow' is never read" in err, err
    assert "hint: read it in a rule (a view, a payoff or a test reads it too), or remove it" in err
    assert err.count("never read") == 2, err


def test_a_var_only_the_test_file_beside_the_game_reads_is_read(capsys, tmp_path):
    """A game's tests are usually in `NAME.test.game` beside it, which `check NAME.game`
    does not load: a variable only they read (Downfall of Empires' `last_combat`) is read."""
    game = write(tmp_path, READS.replace("    expect tested == 0", "    expect total >= 0"), "reads.game")
    code, err = check_cli(capsys, game)
    assert "variable 'tested' is never read" in err, err  # no test reads it
    write(tmp_path, 'include "reads.game"\ndef counted() = tested\n', "reads.test.game")
    code, err = check_cli(capsys, game)
    assert code == 0, err
    assert "'tested'" not in err, err
    assert "variable 'tally' is never read" in err, err


BUNDLED = (
    "berlin_wall",
    "downfall_of_empires",
    "missiles_now",
    "twid",
    "walls_and_wonders",
    "kuhn_poker",
    "tictactoe",
    "berlin_wall_house_rules",
    "twid_house_rules",
)


@pytest.mark.slow  # every bundled game and variant checked: 2 s with its trees cached, 7 s without
def test_no_bundled_game_has_a_var_that_nothing_reads():
    """Each bundled game checks with no false alarm and no true one: under no set of its
    variants is a variable written and never read by any rule, view or test (Downfall of
    Empires' `seat` and `eliminated` and The Wall is Down's `acting` were, and are gone), and
    no option goes unread (Walls and Wonders' `victory` is read by the game, not by its
    variants; Berlin Wall's `die_suit` by a variant)."""
    told = {}
    for name in BUNDLED:
        path = find_game(name)
        program = load_program(path)
        sets = [[]] + [[v] for v in program.all_variants]
        warned: set | None = None
        for variants in sets:
            found = {d.message for d in check_game(load_program(path, variants))[1] if "never read" in d.message}
            warned = found if warned is None else warned & found
        told[name] = sorted(warned or ())
    assert told == {name: [] for name in BUNDLED}


def test_a_var_only_a_grid_view_draws_is_read(capsys, tmp_path):
    """`view { grid on }` names the variable it draws without an expression: it is read
    (docs/language.md §3.18's example draws `on` so)."""
    path = write(
        tmp_path,
        """
        game board "Board" { players 2..2 seats [north, south] }
        grid Cell 2 by 1
        var on: Cell -> int = 0
        view {
            grid on
        }
        procedure play() {
            rule "Board: north marks a1"
            choose c from [a1, b1] by north label "mark {c}"
            on[c] = 1
            game over []
        }
        """,
    )
    code, err = check_cli(capsys, path)
    assert code == 0, err
    assert "never read" not in err, err
