"""Designer's mistakes written from the docs alone that `check` mishandled (docs/language.md
§16): each is found before play, at its line, with a hint that fixes it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.cli.commands import main


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
