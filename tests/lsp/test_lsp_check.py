"""The language server's diagnostics are `gamedef check`'s static part (before it compiles
and plays): the same messages, hints, severities and places, for files broken in each way
the check knows: syntax errors, unknown names, a value that may be none, a seat that may
not be in play, a recursion that cannot end, an error only a variant has, a warning."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lsp import analysis as A

HEAD = 'game g "G" {\n    players 2..3\n    seats [a, b, c]\n}\n'
PLAY = 'procedure play() {\n    rule "G 1"\n    game over players\n}\n'

BROKEN = {
    "syntax_and_unknown": HEAD
    + PLAY
    + 'procedure one() {\n    rule "G 2"\n    log "x" +\n}\n'
    + 'procedure two() {\n    rule "G 3"\n    let x = scroe + 1\n}\n',
    "unknown_name": HEAD + "var score: int = 0\n" + PLAY.replace("game over", "score = scor + 1\n    game over"),
    "null_misuse": HEAD
    + "entity Spell {\n    cost: int?\n}\n"
    + 'card spark "Spark": Spell {\n    cost 2\n}\n'
    + "def price(s: Spell) = s.cost + 1\n"
    + PLAY.replace("game over", 'log "{price(spark)}"\n    game over'),
    "seat_warning": HEAD + "var vp: player -> int = 0\n" + PLAY.replace("game over", "vp[c] += 1\n    game over"),
    "endless": HEAD
    + PLAY.replace("game over", "spin(1)\n    game over")
    + 'procedure spin(n: int) {\n    rule "G 4"\n    spin(n + 1)\n}\n',
    "variant_only": HEAD
    + "def goal() = 3\n"
    + 'variant short "Short" {\n    rule "House rule: shorter"\n    replace def goal() = gaol + 1\n}\n'
    + PLAY.replace("game over", 'log "{goal()}"\n    game over'),
    "warning_only": HEAD + PLAY + 'procedure unused() {\n    rule "G 5"\n}\n',
}

LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning): (?P<message>.*)$")


def _from_check(path: Path, capsys) -> set[tuple]:
    """What `gamedef check --budget 0 FILE` prints: each diagnostic's place, severity,
    message and hint."""
    main(["check", "--budget", "0", str(path)])
    out: list[list] = []
    for row in capsys.readouterr().err.splitlines():
        m = LINE.match(row)
        if m:
            out.append([m["path"], int(m["line"]), int(m["column"]), m["severity"], m["message"], None])
        elif row.startswith("    hint: ") and out:
            out[-1][5] = row.removeprefix("    hint: ")
    return {tuple(x) for x in out}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_server_says_what_check_says(name: str, tmp_path: Path, capsys):
    """Each broken file: the analysis the server publishes holds exactly the diagnostics
    `check` prints for it, and at least one (each file is broken)."""
    path = tmp_path / f"{name}.game"
    text = BROKEN[name]
    path.write_text(text)
    expected = _from_check(path, capsys)
    found = A.analyse(str(path), text)
    got = {(d.span.path, d.span.line, d.span.column, d.severity, d.message, d.hint) for d in found.diagnostics}
    assert expected, f"check found nothing in {name}"
    assert got == expected


def test_each_broken_file_is_broken_its_own_way(tmp_path: Path):
    """The files above do show what they are named for (so the comparison covers each)."""
    said = {}
    for name, text in BROKEN.items():
        path = tmp_path / f"{name}.game"
        path.write_text(text)
        said[name] = " | ".join(d.message for d in A.analyse(str(path), text).diagnostics)
    assert "unexpected" in said["syntax_and_unknown"] and "unknown name 'scroe'" in said["syntax_and_unknown"]
    assert "unknown name 'scor'" in said["unknown_name"]
    assert "`s.cost` may be none" in said["null_misuse"]
    assert "'c'" in said["seat_warning"] or "c" in said["seat_warning"]
    assert "spin" in said["endless"]
    assert "unknown name 'gaol'" in said["variant_only"]
    assert "procedure 'unused' is never called" in said["warning_only"]
