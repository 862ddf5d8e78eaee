"""`gamedef check` after an edit checks what the edit changed (play/verdicts.py).

A variant set whose rules an earlier check found whole (checked, compiled, every line of
play ended by playing enough, no run-time error, no game cut by the budget) is recalled:
the same rules, seeded the same way, would play the same games. And the lines of play are
shared between two processes, which changes no game (play/exercise.py `jobs`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli.commands import main
from interpreter.language.program import load_program
from interpreter.play.exercise import exercise

GEMS = """\
game gems "Gems" {
    players 2..3
    seats [north, south, east]
}

entity Gem {
    slot effect(p: player)
}

var taken: int = 0

card calm "Calm" : Gem {
    effect {
        rule "Gems: Calm logs"
        log "{p} is calm"
    }
}

card cursed "Cursed" : Gem {
    effect {
        rule "Gems: Cursed"
        CURSE
    }
}

procedure play() {
    rule "Gems: each seat takes a gem three times, and its effect runs"
    while taken < 6 {
        for p in players {
            choose g from members(Gem) by p label "take {g}"
            taken += 1
            perform g.effect(p)
        }
    }
    game over []
}

variant loud "Loud" {
    rule "Gems variant: Calm shouts"
    replace card calm "Calm" : Gem {
        effect {
            rule "Gems variant: Calm shouts"
            log "{p} shouts LOUD"
        }
    }
}

variant sharp "Sharp" {
    rule "Gems variant: Cursed cuts"
    replace card cursed "Cursed" : Gem {
        effect {
            rule "Gems variant: Cursed cuts"
            log "{p} is cut SHARP"
        }
    }
}
"""

EMPTY_CHOICE = 'choose x from [g for g in members(Gem) if g == none] by p label "{x}"'
PLAYED = re.compile(r"played (\d+) games \(([\d,]+) decisions(?:, (\d+) of them as an earlier check played them)?")


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("GAMEDEF_CACHE", str(where))
    return where


def check(capsys, path: Path) -> tuple[int, str, str, tuple[int, int, int]]:
    code = main(["check", str(path), "--budget", "30"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    found = PLAYED.search(out.out)
    assert found, out.out
    return code, out.out, out.err, (int(found[1]), int(found[2].replace(",", "")), int(found[3] or 0))


def compiled_sets(monkeypatch) -> list[tuple[str, ...]]:
    """The variant sets `check` compiles, as it compiles them."""
    from interpreter.cli import designing

    seen: list[tuple[str, ...]] = []
    real = designing.load_game

    def spy(name, variants=(), **kw):
        seen.append(tuple(variants))
        return real(name, variants=variants, **kw)

    monkeypatch.setattr(designing, "load_game", spy)
    return seen


def test_a_second_check_of_the_same_rules_recalls_every_game_and_compiles_nothing(cache, tmp_path, capsys, monkeypatch):
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", 'log "{p} is cursed"'))
    seen = compiled_sets(monkeypatch)
    code, out, _, (games, decisions, recalled) = check(capsys, path)
    assert code == 0 and recalled == 0 and "(enough:" in out
    assert seen == [(), ("loud",), ("sharp",)]
    seen.clear()
    code, out, _, again = check(capsys, path)
    assert code == 0 and again == (games, decisions, games)  # the same games, every one recalled
    assert seen == []  # nothing checked or compiled again
    assert list(cache.glob("*.verdict"))


def test_an_edit_to_one_variant_checks_and_plays_that_variant_alone(cache, tmp_path, capsys, monkeypatch):
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", 'log "{p} is cursed"'))
    _, _, _, (games, decisions, _) = check(capsys, path)
    path.write_text(path.read_text().replace("shouts LOUD", "shouts VERY LOUD"))  # in place: no line moves
    seen = compiled_sets(monkeypatch)
    code, out, _, (games2, decisions2, recalled) = check(capsys, path)
    assert code == 0
    assert seen == [("loud",)]
    assert 0 < recalled < games2
    # A log's words change no choice: the same games, those of `loud` played again.
    assert (games2, decisions2) == (games, decisions)


def test_an_edit_that_breaks_a_variant_is_found_though_the_rest_is_recalled(cache, tmp_path, capsys):
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", 'log "{p} is cursed"'))
    check(capsys, path)
    line = next(i for i, text in enumerate(GEMS.splitlines(), 1) if "is cut SHARP" in text)
    path.write_text(path.read_text().replace('log "{p} is cut SHARP"', EMPTY_CHOICE))
    code, _, err, (_, _, recalled) = check(capsys, path)
    assert code == 2 and recalled > 0
    assert f"{path}:{line}:13: error: in cursed.effect: a choice has no options" in err
    assert "--variant sharp" in err  # the game that reproduces it


def test_a_check_that_met_an_error_is_not_remembered(cache, tmp_path, capsys):
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", EMPTY_CHOICE))
    first = check(capsys, path)
    second = check(capsys, path)
    assert first[0] == second[0] == 2
    assert "a choice has no options" in second[2]
    assert second[3][:2] == first[3][:2]
    # `loud` keeps the broken Cursed, so only `sharp` (which replaces it) is whole and recalled
    assert 0 < second[3][2] < second[3][0]


def test_a_verdict_file_that_is_not_one_is_ignored(cache, tmp_path, capsys):
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", 'log "{p} is cursed"'))
    _, _, _, (games, decisions, _) = check(capsys, path)
    broken = ['{"format": 1}', "not json", '{"format": 1, "key": 3, "warnings": [], "lines": [{"players": -1}]}']
    files = sorted(cache.glob("*.verdict"))
    for f, text in zip(files, broken, strict=False):
        f.write_text(text)
    code, _, _, (games2, decisions2, recalled) = check(capsys, path)
    assert code == 0 and (games2, decisions2) == (games, decisions)
    assert recalled < games  # those sets played again


def test_two_processes_play_the_same_games_as_one(tmp_path, monkeypatch):
    """The lines shared between this process and a forked copy: the same games, counts and
    problems, each problem with the first game that met it, in the same order."""
    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", EMPTY_CHOICE))
    program = load_program(path)
    sets = [[], ["loud"], ["sharp"]]
    reports = [exercise(str(path), 60, sets, programs={(): program}, jobs=jobs) for jobs in (1, 2)]
    one, two = reports
    assert one.problems and one.problems == two.problems
    assert (one.games, one.decisions, one.reached, one.counts) == (two.games, two.decisions, two.reached, two.counts)
    assert one.records == two.records


def _gems_played_alone(tmp_path, monkeypatch):
    """The gems game with an empty choice, its three variant sets, and what one process's
    check plays of them: what a check in two processes must give again."""
    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", EMPTY_CHOICE))
    program = load_program(path)
    sets = [[], ["loud"], ["sharp"]]
    return path, program, sets, exercise(str(path), 60, sets, programs={(): program}, jobs=1)


def test_a_forked_copy_that_fails_leaves_the_rest_of_the_games_to_this_process(tmp_path, monkeypatch):
    """The copy ends in the middle of a game (here: its fourth fails in the interpreter):
    the lines go on in this process from the counts and problems the copy sent, the game
    it left half played is played again, and the games and problems are those of one
    process."""
    import os

    from interpreter.play import exercise as module

    path, program, sets, one = _gems_played_alone(tmp_path, monkeypatch)
    here = os.getpid()
    real = module._play
    started: list[int] = []

    def failing(line, seed, tracker, deadline):
        if os.getpid() != here:
            started.append(seed)
            if len(started) == 4:
                raise RuntimeError("the copy fails")
        return real(line, seed, tracker, deadline)

    monkeypatch.setattr(module, "_play", failing)
    two = exercise(str(path), 60, sets, programs={(): program}, jobs=2)
    assert one.problems and one.problems == two.problems
    assert (one.games, one.decisions, one.reached, one.counts) == (two.games, two.decisions, two.reached, two.counts)
    assert one.records == two.records


def test_without_a_temporary_file_to_share_one_process_plays_every_line(tmp_path, monkeypatch, capsys):
    """The board the two processes share needs a temporary file (its lock, the copy's
    problems): where none can be made, this process plays alone, the same games, and the
    check says nothing of it."""
    import tempfile

    path, program, sets, one = _gems_played_alone(tmp_path, monkeypatch)

    def refused(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(tempfile, "TemporaryFile", refused)
    two = exercise(str(path), 60, sets, programs={(): program}, jobs=2)
    assert one.problems == two.problems and (one.games, one.decisions) == (two.games, two.decisions)
    assert main(["check", str(path), "--budget", "30"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_the_two_processes_take_the_next_game_whichever_line_it_is(tmp_path, monkeypatch):
    """The lines are not split in halves before play: each process takes the next game of
    any line, so a process held up by a slow game (here this one's first game, held until
    the other has played a game of every other line, or 30 s) leaves the other to play the
    rest, the lines it would have played in halves too. (Held until then, not for a fixed
    time: on a loaded machine the other process may not have started within a second; and
    whichever line this one's first game is: the copy may run first after the fork and
    have taken the first lines already.)"""
    import os
    import time

    from interpreter.play import exercise as module

    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", 'log "{p} is cursed"'))
    log = tmp_path / "games.log"
    here = os.getpid()
    real = module._play
    every = {(v, p) for v in ("", "loud", "sharp") for p in (2, 3)}  # the lines: each set at 2 and 3 players
    held: list[tuple[str, int]] = []

    def theirs_so_far() -> set[tuple[str, int]]:
        lines = log.read_text().splitlines() if log.exists() else []
        return {(v, int(p)) for pid, v, p, _ in (x.split("|") for x in lines) if int(pid) != here}

    def logged(line, seed, tracker, deadline):
        if os.getpid() == here and not held:  # this process's first game is slow
            held.append((",".join(line.variants), line.players))
            until = time.monotonic() + 30
            while time.monotonic() < until and not every - set(held) <= theirs_so_far():
                time.sleep(0.05)
        with open(log, "a") as out:
            out.write(f"{os.getpid()}|{','.join(line.variants)}|{line.players}|{seed}\n")
        return real(line, seed, tracker, deadline)

    monkeypatch.setattr(module, "_play", logged)
    sets = [[], ["loud"], ["sharp"]]
    two = exercise(str(path), 60, sets, programs={(): load_program(path)}, jobs=2)
    games = [line.split("|") for line in log.read_text().splitlines()]
    assert len(games) == two.games
    assert len({(v, p, s) for _, v, p, s in games}) == len(games)  # no game played twice
    assert {(v, int(p)) for _, v, p, _ in games} == every
    # In halves, the copy would have played three of the six lines alone; it played every
    # line but the one this process was held on.
    assert every - set(held) <= theirs_so_far(), (held, theirs_so_far())


TESTS = """include "gems.game"

test calm_first "North takes Calm first" {
    players 2
    variant loud
    arrange {
        taken = 1
    }
    expect offered("take calm")
}
"""


def test_the_moves_from_a_tests_position_are_recalled_until_the_test_changes(cache, tmp_path, capsys):
    path = tmp_path / "gems.game"
    path.write_text(GEMS.replace("CURSE", 'log "{p} is cursed"'))
    tests = tmp_path / "gems.test.game"
    tests.write_text(TESTS)
    assert main(["test", str(tests)]) == 0  # its game compiled and kept: check plays from its position
    capsys.readouterr()
    _, _, _, (games, decisions, recalled) = check(capsys, path)
    assert recalled == 0
    _, _, _, again = check(capsys, path)
    assert again == (games, decisions, games)  # the test's moves too
    tests.write_text(TESTS.replace("taken = 1", "taken = 2"))
    assert main(["test", str(tests)]) == 0
    capsys.readouterr()
    _, _, _, (games3, _, recalled3) = check(capsys, path)
    assert recalled3 < games3  # the changed test's position played again


def test_the_tests_compiled_together_are_digested_once_for_all_their_keys(monkeypatch):
    """A test's verdict is named by its group's tests too: the group is digested once, not
    once per test (Downfall of Empires has a hundred tests in one group: digesting the group
    for each spent check's whole budget before a game was played)."""
    from interpreter.core.errors import Span
    from interpreter.language import digests
    from interpreter.language import syntax as ast
    from interpreter.play import verdicts

    made: list[object] = []
    real = digests.plain_digest

    def counted(value):
        made.append(value)
        return real(value)

    monkeypatch.setattr(digests, "plain_digest", counted)
    group = tuple(ast.Test(span=Span("t.game", i + 1, 1), name=f"t{i}", title=f"test {i}") for i in range(40))
    keys = {verdicts.test_key("rules", t, group, (2, 10)) for t in group}
    assert len(keys) == 40
    assert sum(1 for v in made if v is group) == 1


# ---- the included game's digests, kept with its trees ----------------------------------------------
BASE = """\
game gems "Gems" {
    players 2..2
    seats [north, south]
}

entity Gem {
    power: int
    slot effect(p: player)
}

table Gem from "gems.tsv" {
    named by name
    power
}

card ruby {
    effect {
        rule "Gems: Ruby shines"
        log "{p} shines"
    }
}

card opal {
    effect {
        rule "Gems: Opal glows"
        log "{p} glows"
    }
}

def goal() = 1

procedure play() {
    rule "Gems: each seat takes a gem and its effect runs"
    for p in players {
        choose g from members(Gem) by p label "take {g}"
        perform g.effect(p)
    }
    game over []
}
"""

MINE = """\
include "gems.game"

variant bright "Bright" {
    rule "House rule: a higher goal"
    replace def goal() = 2
}
"""


def _as_a_new_process() -> None:
    """Forget what this process kept of the files it read (trees, tables, digests), as the
    next command, a new process, starts: what it knows comes from the cache directory."""
    from interpreter.language import datatables, digests, parser, signatures

    parser._parse_cached.cache_clear()
    datatables._read_table.cache_clear()
    datatables._EXTENDED.clear()
    signatures._SIGNED.clear()
    digests._parts.clear()
    digests._recipes.clear()


def _gems_files(tmp_path: Path) -> Path:
    (tmp_path / "gems.game").write_text(BASE)
    (tmp_path / "gems.tsv").write_text("name\tpower\nRuby\t2\nOpal\t3\n")
    mine = tmp_path / "mine.game"
    mine.write_text(MINE)
    return mine


def _rules(path: Path) -> list[str | None]:
    """The rules digests of the file alone and of its variant, as `check` makes them."""
    from interpreter.compile.gamecache import rules_digest

    return [rules_digest(load_program(path, vs), {}, optimise=False) for vs in ((), ("bright",))]


def test_after_an_edit_only_the_edited_files_declarations_are_digested(cache, tmp_path, monkeypatch):
    """The digests of a file's declarations are kept with its tree (language/digests.py): a
    check after an edit to the designer's file digests that file's declarations, not the
    included game's, nor the cards its table's rows extend, nor the table (each digested as
    what it was made of). The rules digests are those of everything digested afresh, and a
    change to the included game's table is a change of its rules."""
    from interpreter.language import digests

    mine = _gems_files(tmp_path)
    first = _rules(mine)
    assert None not in first and first[0] != first[1]
    _as_a_new_process()
    mine.write_text(MINE.replace("goal() = 2", "goal() = 3"))
    made: list[object] = []
    real = digests.plain_digest
    monkeypatch.setattr(digests, "plain_digest", lambda value: made.append(value) or real(value))
    second = _rules(mine)
    declarations = [v for v in made if type(v).__module__ == "interpreter.language.syntax"]
    assert declarations and {v.span.path for v in declarations} == {str(mine)}
    assert second[0] == first[0] and second[1] != first[1]  # the file alone is the included game, unchanged
    _as_a_new_process()
    for tree in cache.glob("*.tree"):
        tree.unlink()
    made.clear()
    assert _rules(mine) == second  # every declaration digested again: the same digests
    assert {v.span.path for v in made if type(v).__module__ == "interpreter.language.syntax"} == {
        str(mine),
        str(tmp_path / "gems.game"),
    }
    (tmp_path / "gems.tsv").write_text("name\tpower\nRuby\t2\nOpal\t4\n")
    _as_a_new_process()
    third = _rules(mine)
    assert third[0] != second[0] and third[1] != second[1]


def test_a_trees_digests_that_are_not_one_per_declaration_make_it_a_miss(cache, tmp_path, monkeypatch):
    """The digests kept with a tree are read as untrusted data: a tuple of one digest per
    declaration, each of a digest's size, or the file is parsed again (and its entry
    written again)."""
    import pickle

    from interpreter.language import parser

    mine = _gems_files(tmp_path)
    first = _rules(mine)
    for n, tree in enumerate(sorted(cache.glob("*.tree"))):
        module, kept = pickle.loads(tree.read_bytes())  # the test's own file
        wrong = (kept[:-1], tuple(d[:8] for d in kept), [*kept])[n % 3]
        tree.write_bytes(pickle.dumps((module, wrong)))
    _as_a_new_process()
    parsed: list[str] = []
    real = parser.parse_text
    monkeypatch.setattr(parser, "parse_text", lambda text, p: parsed.append(p) or real(text, p))
    assert _rules(mine) == first
    assert sorted(parsed) == sorted([str(mine), str(tmp_path / "gems.game")])
    _as_a_new_process()
    parsed.clear()
    assert _rules(mine) == first and parsed == []  # written again, whole
