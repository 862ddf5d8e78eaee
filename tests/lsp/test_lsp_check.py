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


# ---- checks kept from one edit to the next -------------------------------------------------
RULES = HEAD + "def goal() = 3\n" + PLAY.replace("game over", 'log "{goal()} {bonus()}"\n    game over')
HOUSE = (
    'include "rules.game"\nvariant short "Short" {{\n    rule "House rule: shorter"\n'
    "    replace def goal() = {goal}\n}}\n"
)


def _messages(analysis: A.Analysis) -> list[str]:
    return [f"{d.span.line}: {d.message}" for d in analysis.diagnostics if d.severity == "error"]


def _count_checks(monkeypatch) -> list[object]:
    """Every program the analysis checks (not one it found checked before)."""
    checked: list[object] = []
    run = A.Checker.run

    def counted(self):
        checked.append(self.program)
        return run(self)

    monkeypatch.setattr(A.Checker, "run", counted)
    return checked


def test_an_edit_in_a_variant_checks_that_variant_again_and_gives_its_new_errors(tmp_path: Path, monkeypatch):
    """A file that includes a game and edits only its variant: at each edit the variant's
    new text is checked (its error comes and goes), the game's own program, equal to the
    one checked before, is not checked again, and what is published is what the check of
    the whole gives."""
    (tmp_path / "rules.game").write_text(RULES + "def bonus() = 1\n")
    house = tmp_path / "house.game"
    house.write_text(HOUSE.format(goal="2"))
    A.analyse(str(house), HOUSE.format(goal="2"))
    checked = _count_checks(monkeypatch)
    broken = A.analyse(str(house), HOUSE.format(goal="gaol + 1"))
    assert _messages(broken) == ["4: unknown name 'gaol'"]
    assert [p.variants[0].name for p in checked] == ["short"]  # the game itself: as before
    mended = A.analyse(str(house), HOUSE.format(goal="4"))
    assert _messages(mended) == []
    assert len(checked) == 2
    again = A.analyse(str(house), HOUSE.format(goal="gaol + 1"))  # a text checked before
    assert _messages(again) == ["4: unknown name 'gaol'"] and len(checked) == 2
    assert mended.table.defs == broken.table.defs  # names and types known all the same


def test_an_included_file_edited_on_disk_is_checked_again(tmp_path: Path, monkeypatch):
    """What a check keeps is found by the program it checked, never by the open file
    alone: an included file changed on disk (or a table it reads) is checked afresh."""
    rules = tmp_path / "rules.game"
    rules.write_text(RULES + "def bonus() = 1\n")
    house = tmp_path / "house.game"
    text = HOUSE.format(goal="2")
    assert _messages(A.analyse(str(house), text)) == []
    checked = _count_checks(monkeypatch)
    rules.write_text(RULES + "def bonus() = bonnus\n")
    assert _messages(A.analyse(str(house), text)) == ["11: unknown name 'bonnus'"]
    assert checked
    rules.write_text(RULES + "def bonus() = 1\n")
    assert _messages(A.analyse(str(house), text)) == []


def test_a_table_edited_on_disk_is_read_again(tmp_path: Path):
    """A table file is kept by its text: a row added on disk is a new component at once."""
    (tmp_path / "spells.tsv").write_text("name\tcost\nSpark\t1\n")
    game = tmp_path / "g.game"
    text = (
        HEAD
        + 'entity Spell {\n    cost: int\n}\ntable Spell from "spells.tsv" {\n    named by name\n    cost\n}\n'
        + PLAY.replace("game over", 'log "{blaze.cost}"\n    game over')
    )
    game.write_text(text)
    assert _messages(A.analyse(str(game), text)) == ["14: unknown name 'blaze'"]
    (tmp_path / "spells.tsv").write_text("name\tcost\nSpark\t1\nBlaze\t2\n")
    assert _messages(A.analyse(str(game), text)) == []
