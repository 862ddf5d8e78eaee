"""A value that may be none given to `rotate` or `index_of` as the item to find (docs/language.md,
null safety): none is in no list, so play stops at the call (`rotate(players, leader)` with
`leader: player?`, set from `first` of a list that may be empty). `check` refuses it at the
argument, naming where the none may come from, with a hint that fixes it; narrowed or
defaulted, it passes and plays."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.cli.commands import main

GAME = """
game rot "Rotate" {
    players 2..2
    seats [north, south]
}
var n: int = 0
var leader: player? = none
procedure setup() {
    rule "Setup: the leader is a seat with more than five points"
    leader = first([p for p in players if n > 5])
}
procedure play() {
    rule "Play: each seat in turn from the leader picks a number"
    for p in USE {
        choose k from [1, 2] by p label "pick {k}"
        n += k
    }
    game over []
}
"""


def check(capsys, tmp_path: Path, use: str) -> tuple[int, str, Path]:
    path = tmp_path / "rot.game"
    path.write_text(textwrap.dedent(GAME).lstrip("\n").replace("USE", use), encoding="utf-8")
    code = main(["check", str(path), "--budget", "1"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out + out.err, path


@pytest.mark.parametrize(
    ("use", "column", "needs"),
    [
        ("rotate(players, leader)", 30, "`rotate` needs an item of the list"),
        ("[players[index_of(players, leader)]]", 41, "`index_of` needs an item of the list"),
    ],
    ids=["rotate", "index_of"],
)
def test_a_value_that_may_be_none_as_the_item_to_find_is_refused_at_it(capsys, tmp_path, use, column, needs):
    code, said, path = check(capsys, tmp_path, use)
    assert code == 2
    assert f"{path}:13:{column}: error: {needs}, but `leader` may be none (`leader` is declared `player?`)" in said
    assert "hint: check it first: `if leader != none { ... }`" in said


@pytest.mark.parametrize(
    "use", ["rotate(players, leader ?? players[0])", "if leader != none then rotate(players, leader) else players"]
)
def test_narrowed_or_given_a_default_it_passes_and_plays(capsys, tmp_path, use):
    code, said, _ = check(capsys, tmp_path, use)
    assert code == 0, said
    assert "no run-time error" in said
