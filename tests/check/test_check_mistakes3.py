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


# ---- what `check` finds before play -------------------------------------------------------


def _found(tmp_path: Path, text: str, name: str = "house.game") -> list[tuple[int, str, str, str]]:
    """(line, severity, message, hint) of what `gamedef check` says before playing: the
    checker's errors and warnings, then the rules that cannot end."""
    from interpreter.check.checker import check_game
    from interpreter.check.endless import endless
    from interpreter.core.errors import GameDefError
    from interpreter.language.program import load_program

    path = tmp_path / name
    path.write_text(text)
    program = load_program(str(path))
    try:
        found = list(check_game(program)[1])
    except GameDefError as err:
        found = list(err.diagnostics)
    found += endless(program.decls)
    # a fixture's helper some cases leave unused is no mistake of the case
    found = [d for d in found if not d.message.endswith(("is never called", "is never used"))]
    return [(d.span.line, d.severity, d.message, d.hint or "") for d in found]


def _line(text: str, words: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if words in line)


def _runs(tmp_path: Path, text: str, name: str = "fixed.game") -> None:
    """The game loads (checked and compiled) and plays to its end from a few seeds."""
    from interpreter import load_game

    path = tmp_path / name
    path.write_text(text)
    game = load_game(str(path))
    for seed in (1, 2, 3):
        state = game.start(players=2, seed=seed)
        for _ in range(500):
            if game.is_over(state):
                break
            state = game.apply(state, game.legal_moves(state)[0])
        assert game.is_over(state)


GEMS = """\
game gems "Gems" {
    players 2..2
    seats [north, south]
}

entity Gem {
    worth: int
    slot effect(p: player)
}

var held: player -> Gem -> bool = false
var score: player -> int = 0
var turns: int = 0

def mine(p: player) = [g for g in members(Gem) if held[p][g]]

card ruby "Ruby" : Gem {
    worth 3
    effect {
        rule "Gems: Ruby: give one of your gems to the other player"
        CHOICE
    }
}

card pearl "Pearl" : Gem {
    worth 1
    effect {
        rule "Gems: Pearl: take it"
        held[p][pearl] = true
    }
}

procedure give(p: player, xs: list Gem) {
    rule "Gems: giving a gem away"
    choose g from xs by p label "give {g}"
    held[p][g] = false
}

procedure play() {
    rule "Gems: each turn a seat takes a gem and its effect runs"
    while turns < 6 {
        for p in players {
            choose g from members(Gem) by p label "take {g}"
            turns += 1
            perform g.effect(p)
            score[p] += g.worth
        }
    }
    game over best(players, p => score[p])
}
"""


def test_a_card_choosing_from_a_defs_list_that_may_be_empty_is_warned_of(tmp_path):
    """`choose g from mine(p)`: the def's body is a list filtered from what the game holds,
    empty when the seat holds nothing (it stops the game with an error at that choice)."""
    text = GEMS.replace("CHOICE", 'choose g from mine(p) by p label "give {g}"\n        held[p][g] = false')
    found = _found(tmp_path, text)
    line = _line(text, "choose g from mine(p)")
    assert [(n, sev) for n, sev, message, _ in found if "may have no options" in message] == [(line, "warning")]
    hint = next(h for n, _, _, h in found if n == line)
    assert "optional" in hint and "if g != none" in hint
    # the hint applied: optional, and what happens with nothing to choose
    fixed = GEMS.replace(
        "CHOICE",
        'choose g from mine(p) by p label "give {g}" optional\n        if g != none {\n'
        "            held[p][g] = false\n        }",
    )
    assert _found(tmp_path, fixed) == []
    _runs(tmp_path, fixed)
    # a guard before it is a check too
    guarded = GEMS.replace(
        "CHOICE",
        'if count(mine(p)) > 0 {\n            choose g from mine(p) by p label "give {g}"\n'
        "            held[p][g] = false\n        }",
    )
    assert _found(tmp_path, guarded) == []


def test_a_call_handing_a_procedure_a_list_that_may_be_empty_is_warned_of_at_the_call(tmp_path):
    """`give(p, [...filtered...])`, where `give` chooses from its list without `optional`:
    the warning is at the call, which is where the list is made and may be checked."""
    text = GEMS.replace("CHOICE", "give(p, [g for g in members(Gem) if held[p][g]])")
    found = _found(tmp_path, text)
    line = _line(text, "give(p, [g for g")
    said = [(n, sev, message, hint) for n, sev, message, hint in found if "empty list" in message]
    assert [(n, sev) for n, sev, _, _ in said] == [(line, "warning")]
    assert f"chooses from it (line {_line(text, 'choose g from xs')})" in said[0][2]
    assert "if count(LIST) > 0 { give(...) }" in said[0][3]
    guarded = GEMS.replace(
        "CHOICE", "if count(mine(p)) > 0 {\n            give(p, [g for g in members(Gem) if held[p][g]])\n        }"
    )
    assert _found(tmp_path, guarded) == []
    _runs(tmp_path, guarded)
    # a list of constants is the same in every position: play finds it empty if it ever is
    assert _found(tmp_path, GEMS.replace("CHOICE", "give(p, [ruby, pearl])")) == []


BELLS = """\
game bells "Bells" {
    players 2..2
    seats [north, south]
}

event rang(p: player)
event echoed(p: player)
event answered(p: player)
var rings: int = 0

when rang(p) {
    rule "Bells: a ring echoes"
    emit echoed(p)
}

when echoed(p) {
    rule "Bells: an echo is answered"
    emit answered(p)
}

when answered(p) {
    rule "Bells: an answer rings again"
    ANSWER
}

procedure play() {
    rule "Bells: each seat may ring"
    for p in players {
        may p "ring" {
            rings += 1
            emit rang(p)
        }
    }
    game over []
}
"""


def test_three_triggers_setting_each_other_off_round_a_ring_are_an_error(tmp_path):
    text = BELLS.replace("ANSWER", "emit rang(p)")
    found = _found(tmp_path, text)
    errors = [(n, message) for n, sev, message, _ in found if sev == "error"]
    assert len(errors) == 1
    line, message = errors[0]
    assert line == _line(text, "emit echoed(p)")
    assert "'rang'" in message and "'echoed'" in message and "'answered'" in message
    assert "endless recursion" in message
    # the hint applied: emit one of them only under a condition the triggers change
    fixed = BELLS.replace("ANSWER", "if rings < 3 {\n        rings += 1\n        emit rang(p)\n    }")
    assert _found(tmp_path, fixed) == []
    _runs(tmp_path, fixed)


def test_a_ring_whose_emit_is_under_a_condition_nothing_changes_is_an_error(tmp_path):
    """`if rings > 0 { emit rang(p) }` at the end of the ring: `rings` is written by no rule
    of the ring, so once it holds it holds every time round."""
    text = BELLS.replace("ANSWER", "if rings > 0 {\n        emit rang(p)\n    }")
    found = _found(tmp_path, text)
    errors = [(n, message) for n, sev, message, _ in found if sev == "error"]
    assert [n for n, _ in errors] == [_line(text, "emit echoed(p)")]
    assert "under a condition nothing on the way round changes" in errors[0][1]
    # the condition changed on the way round: not certain, nothing said
    changes = BELLS.replace("ANSWER", "if rings > 0 {\n        rings -= 1\n        emit rang(p)\n    }")
    assert _found(tmp_path, changes) == []


SCORES = """\
game scores "Scores" {
    players 2..2
    seats [north, south]
}

event scored(p: player, n: int)
var score: player -> int = 0

when scored(p, n) {
    rule "Scores: a big score is told"
    log "{p} scores {n}"
    BODY
}

procedure play() {
    rule "Scores: each seat may score"
    for p in players {
        may p "score" {
            roll d from 1..6
            score[p] += d
            emit scored(p, d)
        }
    }
    game over best(players, p => score[p])
}
"""


def test_a_trigger_emitting_its_own_event_under_a_condition_of_its_parameters_passed_on_is_an_error(tmp_path):
    text = SCORES.replace("BODY", "if n > 3 {\n        emit scored(p, n)\n    }")
    found = _found(tmp_path, text)
    errors = [(n, message, hint) for n, sev, message, hint in found if sev == "error"]
    assert [n for n, _, _ in errors] == [_line(text, "        emit scored(p, n)")]
    assert "sets itself off again and again" in errors[0][1]
    # the parameter changed on the way (n - 1 each time round): it ends, nothing said
    ends = SCORES.replace("BODY", "if n > 3 {\n        emit scored(p, n - 1)\n    }")
    assert _found(tmp_path, ends) == []
    _runs(tmp_path, ends)


def test_a_variable_of_an_included_file_of_ones_own_never_read_is_warned_of(tmp_path):
    """`include "shared.game"` beside the game: its declarations are the designer's, warned
    of as the game's own (a bundled game's, `include twid`, are not: tested with the house
    rules in examples/, whose check says nothing of The Wall is Down's variables)."""
    (tmp_path / "shared.game").write_text("var tally: int = 0\nvar seen_count: int = 0\n")
    text = (
        DICE.replace("var rolls: int = 0\n", 'var rolls: int = 0\ninclude "shared.game"\n')
        .replace("rolls += 1", "rolls += 1\n            tally += rolls")
        .replace("game over best", 'log "{rolls} rolls"\n    game over best')
    )
    found = [(n, message) for n, sev, message, _ in _found(tmp_path, text, "dice.game") if sev == "warning"]
    assert (1, "variable 'tally' is never read") in found
    assert (2, "variable 'seen_count' is never read") in found
    assert all("rolls" not in message for _, message in found)


def test_a_tests_option_outside_a_long_range_is_hinted_with_the_range(tmp_path):
    """`option goal = 5` where the goal is `choices 10..100`: the hint says `10 to 100`, not
    the ninety-one numbers one by one."""
    (tmp_path / "dice.game").write_text(
        DICE.replace("var rolls", 'option goal: int = 30 choices 10..100 "points to win"\nvar rolls').replace(
            "game over best", 'log "{rolls} rolls, goal {goal}"\n    game over best'
        )
    )
    text = 'include "dice.game"\n\ntest short "A short game" {\n    rule "Dice"\n    option goal = 5\n}\n'
    found = _found(tmp_path, text, "dice.test.game")
    assert [(n, message, hint) for n, sev, message, hint in found if sev == "error"] == [
        (5, "test short: option 'goal' = 5 is not allowed", "choose from 10 to 100")
    ]


def test_a_second_let_of_one_name_in_a_block_is_warned_of(tmp_path):
    """`let going = true` then `let going = false` where `going = false` was meant: the
    loop reading `going` never runs, and the game goes round without a decision; the check
    says so at the second `let`, and the hint applied (an assignment) plays to the end."""
    text = DICE.replace(
        '    for p in players {\n        may p "roll" {',
        '    let going = true\n    let going = false\n    for p in players {\n        may p "roll" {',
    ).replace("game over best", 'log "{going} {rolls}"\n    game over best')
    found = _found(tmp_path, text, "dice.game")
    said = [(n, sev, message, hint) for n, sev, message, hint in found if "already a local" in message]
    assert [(n, sev) for n, sev, _, _ in said] == [(_line(text, "let going = false"), "warning")]
    assert "`going = ...`" in said[0][3]
    fixed = text.replace("let going = false", "going = false")
    assert _found(tmp_path, fixed, "dice.game") == []
    _runs(tmp_path, fixed)


def test_removing_what_the_rules_still_use_is_one_error_at_the_remove(tmp_path):
    """`remove procedure gain` in a file that includes a game whose rules call `gain`:
    one error at the `remove` (where the designer's mistake is), naming the first use and
    how many more, not one error at each use inside the game included."""
    (tmp_path / "base.game").write_text(
        DICE.replace("var rolls: int = 0\n", "var rolls: int = 0\n")
        .replace("score[p] += d", "gain(p, d)")
        .replace("game over best", 'log "{rolls}"\n    game over best')
        + 'procedure gain(p: player, n: int) {\n    rule "Dice: a roll scores"\n    score[p] += n\n}\n'
    )
    text = 'include "base.game"\n\nremove procedure gain\n'
    found = [(n, sev, message, hint) for n, sev, message, hint in _found(tmp_path, text) if sev == "error"]
    assert len(found) == 1, found
    line, _, message, hint = found[0]
    assert line == 3
    assert message.startswith("`remove procedure gain`: the rules still use it, at ")
    assert "base.game:" in message
    assert "drop this `remove`" in hint
    # the hint applied: the remove dropped, the file checks clean
    assert _found(tmp_path, 'include "base.game"\n') == []


def test_an_unknown_one_letter_name_in_a_cards_slot_is_hinted_with_the_slots_parameters(tmp_path):
    """`score[q] += 1` in a card's `effect`, whose parameter is `p`: the hint names the
    slot's own parameters (not a parameter of some other rule of the same letter)."""
    text = GEMS.replace("CHOICE", "score[q] += 1")
    found = [(n, message, hint) for n, sev, message, hint in _found(tmp_path, text) if sev == "error"]
    assert found == [
        (
            _line(text, "score[q] += 1"),
            "unknown name 'q'",
            "this `effect` has the parameters p (`slot effect(p: player)` of Gem): use one of them, "
            "or bind the name with `let`",
        )
    ]
    fixed = GEMS.replace("CHOICE", "score[p] += 1")
    assert _found(tmp_path, fixed) == []
    _runs(tmp_path, fixed)


def test_replacing_with_other_parameters_than_the_game_calls_is_one_error_at_the_replace(tmp_path):
    """`replace procedure gain(p: player)` where the included game calls `gain(p, d)`: one
    error at the `replace`, not one at each call inside the included game."""
    (tmp_path / "base.game").write_text(
        DICE.replace("score[p] += d", "gain(p, d)").replace("game over best", 'log "{rolls}"\n    game over best')
        + 'procedure gain(p: player, n: int) {\n    rule "Dice: a roll scores"\n    score[p] += n\n}\n'
    )
    text = (
        'include "base.game"\n\nreplace procedure gain(p: player) {\n'
        '    rule "House rule: a roll scores 1"\n    score[p] += 1\n}\n'
    )
    found = [(n, message, hint) for n, sev, message, hint in _found(tmp_path, text) if sev == "error"]
    assert len(found) == 1, found
    line, message, hint = found[0]
    assert line == 3
    assert message.startswith("this `replace` gives 'gain' the parameters (p: player), but the rules still call it")
    assert "(procedure 'gain' takes 1 argument, given 2)" in message
    assert "keep the parameters" in hint
    fixed = text.replace("gain(p: player)", "gain(p: player, n: int)")
    assert _found(tmp_path, fixed) == []


def _many_triggers(events: int, each: int) -> str:
    """A game whose events e0 .. e(N-1) each have `each` triggers emitting the next event:
    one ring of events, as many rings of triggers as the ways to pick one trigger per event."""
    lines = ['game many "Many" {', "    players 2..2", "    seats [north, south]", "}", "var n: int = 0"]
    lines += [f"event e{i}(p: player)" for i in range(events)]
    for i in range(events):
        for k in range(each):
            lines += [f"when e{i}(p) {{", f'    rule "Many: {i}.{k}"', f"    emit e{(i + 1) % events}(p)", "}"]
    lines += ["procedure play() {", '    rule "Many: play"', "    for p in players {", '        may p "go" {']
    lines += ["            n += 1", "            emit e0(p)", "        }", "    }", "    game over []", "}"]
    return "\n".join(lines) + "\n"


def test_a_ring_of_events_with_many_triggers_each_is_told_once(tmp_path):
    """Every trigger of an event runs when it is emitted, so a ring of events is one
    endless recursion, told once (at its first trigger's emit), however many triggers each
    event has: before, each choice of one trigger per event was a ring of its own (3 ** 4
    errors here), and a file of ten events with five triggers each searched 5 ** 10 rings."""
    text = _many_triggers(4, 3)
    errors = [(n, message) for n, sev, message, _ in _found(tmp_path, text) if sev == "error"]
    assert len(errors) == 1
    assert errors[0][0] == _line(text, "emit e1(p)")
    assert all(f"'e{i}'" in errors[0][1] for i in range(4))


def test_the_search_for_rings_is_bounded(tmp_path, monkeypatch):
    """A file of many triggers is checked in bounded steps (`RING_STEPS`): the search stops
    there, and what it found by then is told."""
    from interpreter.check import endless

    steps = []
    walk = endless._Rules._walk

    def counted(self, start, path, edges, found, seen, budget):
        steps.append(1)
        return walk(self, start, path, edges, found, seen, budget)

    monkeypatch.setattr(endless._Rules, "_walk", counted)
    monkeypatch.setattr(endless, "RING_STEPS", 500)
    errors = [n for n, sev, _, _ in _found(tmp_path, _many_triggers(10, 5)) if sev == "error"]
    assert len(steps) <= 500 + 10 * 5  # (a call per step, and one per start)
    assert len(errors) <= 1
