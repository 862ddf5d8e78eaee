"""What `gamedef check` used to pass or mishandle (docs/language.md §16.3): each case is a
designer's mistake `check` must refuse at its line with a hint that fixes it, or a defect of
`check` itself (its output through a pipe, its budget, games that never get past setup).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from repo_paths import ROOT

from interpreter.cli.commands import main


def write(folder: Path, source: str, name: str = "house.game") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def check_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


OK_GAME = """
game okg "Ok" { players 2..2 seats [north, south] }
var n: int = 0
procedure play() {
    rule "Ok: each seat picks a number"
    for p in players {
        choose k from [1, 2] by p label "pick {k}"
        n += k
    }
    log "the total: {n}"
    game over []
}
"""


# ---- the output, through one pipe -----------------------------------------------------------------
def test_check_output_through_one_pipe_is_in_order_and_in_whole_lines(tmp_path):
    """`gamedef check a.game b.game 2>&1 | cat`: the first file's summary (standard output,
    block-buffered in a pipe) comes before the second file's error (standard error), each a
    whole line of its own."""
    good = write(tmp_path, OK_GAME, "good.game")
    bad = write(tmp_path, OK_GAME.replace("n += k", "n += kk"), "bad.game")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["GAMEDEF_CACHE"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-m", "interpreter", "check", str(good), str(bad), "--budget", "0.3"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # one pipe for both, as `2>&1 | cat` makes
        text=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 2, done.stdout
    assert lines[0].startswith(f"{good}: ok (0 variants); played "), lines
    assert lines[1] == f"{bad}:7:14: error: unknown name 'kk'", lines
    assert lines[2:] == ["            n += kk", "                 ^^", "    hint: did you mean 'k'?"], lines


# ---- the budget holds inside a move ---------------------------------------------------------------
# The game above, whose count then spins: a loop that ends only at the step budget.
SPIN = OK_GAME.replace(
    '    log "the total: {n}"\n',
    "    while n < 100 {\n        n = n + count([k for k in 1..40 if k > n + 100])\n    }\n",
)


def test_a_move_that_runs_past_the_budget_is_stopped_at_the_budget_and_reported_at_its_loop(capsys, tmp_path):
    """A loop that ends only at the step budget: its million steps (each turn reads a list of
    40) take several seconds, which `check` spent whole after the budget ran out; now the
    move is stopped when the budget runs out (within a generous 2x here) and reported at the
    loop, as computing far too long, with the game that reproduces it; or, on a machine
    quick enough to spend the million steps within the budget, at the step budget's own
    error there. (3 s: enough for the loop to spend `SLOW_STEPS` before the deadline on a
    machine busy with other work.)"""
    path = write(tmp_path, SPIN)
    code, out, err = check_cli(capsys, str(path), "--budget", "3")
    assert code == 2
    spent = re.search(r"in (\d+\.\d) s of a 3 s budget", out)
    assert spent and float(spent[1]) < 6.0, out
    assert re.search(
        rf"{re.escape(str(path))}:(9|10):\d+: error: in play: (no decision after [\d,]+ steps \(loop turns, "
        r"list items read, calls\), when check's budget ran out in this move"
        r"|more than 1,000,000 steps without a decision \(loop turns, list items read, calls, nodes searched\))"
        r": a rule loops forever or computes far too much\?",
        err,
    ), err
    assert f"reproduce it: gamedef run {path} --players 2 --seed 1 --moves" in err
    assert err.count("error:") == 1  # one loop, once, wherever each game was stopped in it


def test_the_budget_timer_gives_back_a_timer_already_running(tmp_path):
    """The timer `check` keeps inside a move is its own: a SIGALRM handler and timer set
    before (a test runner's) are put back, with what was left of the timer."""
    signal = pytest.importorskip("signal")
    if not hasattr(signal, "setitimer"):
        pytest.skip("no interval timers here")
    from interpreter.play.exercise import _Timer

    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 50.0)
        with _Timer(deadline=time.monotonic() + 100):
            pass
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 40.0 < left <= 50.0
        assert signal.getsignal(signal.SIGALRM) is not None and not fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_the_budget_running_out_anywhere_in_a_game_cuts_it_short_and_raises_nothing(tmp_path, monkeypatch):
    """The timer may fire anywhere while a game is played: in a move, in setup, or between
    (while the random players are dealt, as one did: here dealing them is made slow, so
    the budget runs out there): the game is cut short, never an exception out of the play."""
    from interpreter import load_game
    from interpreter.play import exercise

    game = load_game(write(tmp_path, SPIN.replace("while n < 100", "while n < 0")))
    tracker = exercise._Tracker(game, [])
    dealt = exercise.parse_agents

    def slowly_dealt(*args):
        time.sleep(0.2)
        return dealt(*args)

    monkeypatch.setattr(exercise, "parse_agents", slowly_dealt)
    line = exercise._Line(game, (), 2)
    took, err, at = exercise._play(line, 1, tracker, time.monotonic() + 0.05)
    assert (took, err, at) == (0, None, 0) and not line.whole


# ---- games that never get past setup --------------------------------------------------------------
ENDS_IN_SETUP = """
game ends "Ends" { players 2..3 seats [north, south, east] }
var n: int = 0
procedure setup() {
    rule "Ends: setup deals the counters"
    n = 3
    SETUP_END
}
procedure play() {
    rule "Ends: each seat picks a number"
    for p in players {
        choose k from [1, 2] by p label "pick {k}"
        n += k
    }
    log "the total: {n}"
    game over []
}
"""


@pytest.mark.parametrize(
    ("end", "where", "message"),
    [
        (
            "game over []",
            "6:5",
            "error: every game check played at 2 or 3 players ended before its first decision: nothing was played",
        ),
        (
            'require count(players) >= 5 else "{count(players)} players are too few"',
            "6:5",
            "error: setup refused every player count check played (2 or 3 players): 2 players are too few",
        ),
        (
            "n = 3 / (n - n)",
            "6:5",
            "error: in setup: division by zero (check played it: 2 players, seed 1, before the first decision",
        ),
        (
            "if count(players) == 3 {\n        game over []\n    }",
            "7:9",
            "warning: every game check played at 3 players ended before its first decision",
        ),
    ],
    ids=["ends-in-setup", "require-refuses-every-count", "error-in-setup", "ends-at-one-count"],
)
def test_games_that_stop_in_setup_are_said_once_and_not_played_for_the_whole_budget(
    capsys, tmp_path, end, where, message
):
    """Every game stops before its first decision: `check` used to play them for its whole
    budget (tens of thousands of games) and say nothing. Two games a player count show it;
    then it says where, at which counts, and stops."""
    path = write(tmp_path, ENDS_IN_SETUP.replace("SETUP_END", end))
    code, out, err = check_cli(capsys, str(path), "--budget", "30")
    assert f"{path}:{where}: {message}" in err, err
    assert "hint: " in err
    played = re.search(r"played (\d+) games .* in (\d+\.\d) s of a 30 s budget", out)
    assert played, out
    assert int(played[1]) <= 2 * 4 and float(played[2]) < 10, out  # not the whole budget
    assert code == (0 if message.startswith("warning") else 2)


def test_a_count_setup_refuses_is_not_warned_of_when_others_play(capsys, tmp_path):
    """A `require` that refuses some player counts is a rule of the game (Berlin Wall's
    stacks): nothing to say while other counts play."""
    refuse = 'require count(players) < 3 else "three need the big box"'
    path = write(tmp_path, ENDS_IN_SETUP.replace("SETUP_END", refuse))
    code, out, err = check_cli(capsys, str(path), "--budget", "5")
    assert code == 0 and "setup" not in err, err


# ---- a test reading the narration of a seat not in play ----------------------------------------------
TOLD = """
game told "Told" {
    players 2..4
    seats [north, south, east, west]
}
var n: int = 0
procedure play() {
    rule "Told: each seat picks a number"
    for p in players {
        choose k from [1, 2] by p label "pick {k}"
        log to p "you picked {k}"
        n += k
    }
    game over []
}

test west_is_told "Each seat is told its pick" {
    rule "Told: each seat picks a number"
    players 2
    play "pick 1", "pick 2"
    EXPECT
}
"""


@pytest.mark.parametrize(
    ("expect", "message", "hint"),
    [
        (
            'expect logged("you picked", west)',
            'test west_is_told: logged("...", west) names west, which is not in play with 2 players '
            "(the seats in play: north, south): the test would fail here whatever the game does",
            "name a seat in play (north, south), or give the test the players that have west: `players N`",
        ),
        (
            'expect n == 3 and logged("you picked", west)',
            'test west_is_told: logged("...", west) names west, which is not in play with 2 players',
            "`players N`",
        ),
        (
            'expect logged("you picked", wset)',
            "test west_is_told: logged(\"...\", wset) names 'wset', which is no seat of the game",
            "did you mean 'west'?",
        ),
        (
            "expect winner() == [east]",
            "test west_is_told: winner() == [east] names east, which is not in play with 2 players",
            "(north, south)",
        ),
        (
            "expect deciding() == west or ended()",
            "test west_is_told: deciding() == west names west, which is not in play with 2 players",
            "`players N`",
        ),
    ],
    ids=["logged", "logged-in-a-condition", "no-such-seat", "winner", "deciding"],
)
def test_a_test_reading_a_seat_not_in_play_is_a_check_error_at_its_line(capsys, tmp_path, expect, message, hint):
    """`gamedef test` fails `logged("...", west)` at 2 players (no seat west plays); `check`
    says it at the step's line, as it does a write to such a seat."""
    path = write(tmp_path, TOLD.replace("EXPECT", expect))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 2
    assert f"{path}:{line_of(path, expect)}:12: error: {message}" in err, err
    assert hint in err
    if "wset" in expect:
        return
    path.write_text(path.read_text().replace("players 2\n", "players 4\n"))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0, err  # with four players, west and east play


# ---- triggers that set themselves, or each other, off ------------------------------------------------
ECHO = """
game g { players 2..2 seats [a, b] }
event scored(p: player)
event cheered(p: player)
var vp: player -> int = 0
when scored(p) {
    rule "Scoring: a seat that scores gains 1 VP, and scores again"
    vp[p] += 1
    emit scored(p)
}
OTHER
procedure play() {
    rule "Play"
    choose p from players by a label "{p} scores"
    emit scored(p)
    game over [p]
}
"""


def test_a_trigger_that_sets_itself_off_until_another_ends_the_game_is_a_warning_naming_that_trigger(capsys, tmp_path):
    """`when scored(p) { ... emit scored(p) }` beside a trigger of `scored` that may `win`: not
    certain to loop (the win may come), so no error, but the loop runs until that trigger
    ends the game: a warning at the `emit`, naming where that trigger is."""
    other = 'when scored(p) where vp[p] >= 5 {\n    rule "Victory: 5 VP win"\n    win p\n}'
    path = write(tmp_path, ECHO.replace("OTHER", other))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0, err
    assert (
        f"{path}:8:5: warning: this trigger of 'scored' emits 'scored' on every path, so it sets itself off "
        f"again and again: it stops only when the trigger at {path}:10 ends the game"
    ) in err, err
    assert "hint: emit 'scored' only under a condition this trigger changes" in err


def test_two_triggers_that_set_each_other_off_are_an_error_before_play(capsys, tmp_path):
    """`when scored { emit cheered }` and `when cheered { emit scored }`, on every path and
    nothing able to end the game on the way: an endless recursion, found without playing."""
    text = ECHO.replace("    emit scored(p)\n}\nOTHER", "    emit cheered(p)\n}\nOTHER", 1)
    other = (
        'when cheered(p) {\n    rule "Cheering: a cheered seat scores"\n    log "{p} is cheered"\n    emit scored(p)\n}'
    )
    path = write(tmp_path, text.replace("OTHER", other))
    code, out, err = check_cli(capsys, str(path), "--budget", "5")
    assert code == 2 and "played" not in out, err
    assert (
        f"{path}:8:5: error: this trigger of 'scored' emits 'cheered', whose trigger at {path}:10 emits 'scored' "
        "on every path: each sets the other off again, an endless recursion once either runs"
    ) in err, err
    assert err.count("error:") == 1  # the pair once
    # a condition one of them changes lets it stop: left to play
    path.write_text(path.read_text().replace("when cheered(p) {", "when cheered(p) where vp[p] < 3 {"))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0 and "error" not in err, err


# ---- a choice whose options may be empty in some positions ----------------------------------------
HAND = """
game hands "Hands" { players 2..2 seats [north, south] }
entity Gem {
    worth: int
    slot effect(p: player)
}
var hand: player -> list Gem = []
var score: player -> int = 0
card ruby "Ruby" : Gem {
    worth 5
    effect {
        rule "Hands: Ruby trades a gem worth 4 or more for 2 points"
        BODY
    }
}
card pebble "Pebble" : Gem {
    worth 1
    effect {
        rule "Hands: Pebble scores 1"
        score[p] += 1
    }
}
procedure play() {
    rule "Hands: each seat is dealt two gems and plays one"
    for p in players {
        hand[p] = [ruby, pebble]
        choose g from hand[p] by p label "play {g}"
        perform g.effect(p)
    }
    game over []
}
"""

TRADE = 'choose x from [g for g in hand[p] if g.worth >= 4] by p label "trade {x}"\n        score[p] += 2'


@pytest.mark.parametrize(
    ("body", "warned"),
    [
        (TRADE, True),
        ('let big = [g for g in hand[p] if g.worth >= 4]\n        choose x from big by p label "trade {x}"', True),
        (f"if count([g for g in hand[p] if g.worth >= 4]) > 0 {{\n            {TRADE}\n        }}", False),
        (
            "let big = [g for g in hand[p] if g.worth >= 4]\n        if count(big) == 0 {\n            return\n"
            '        }\n        choose x from big by p label "trade {x}"',
            False,
        ),
        (TRADE.replace('"trade {x}"', '"trade {x}" optional'), False),
        ('choose x from [g for g in members(Gem) if g.worth >= 4] by p label "take {x}"', False),  # no state
        ('choose x from hand[p] by p label "trade {x}"', False),  # not filtered
    ],
    ids=["filtered", "through-a-let", "guarded", "checked-before", "optional", "constant-list", "unfiltered"],
)
def test_a_choice_from_a_filtered_list_with_no_guard_is_a_warning_with_the_fix(capsys, tmp_path, body, warned):
    """`choose x from [g for g in hand[p] if g.worth >= 4]`: empty in the positions where no
    gem in hand is worth 4, which random play may never meet; a warning at the `choose`,
    unless it is `optional`, guarded by a condition on what the list reads, or a list of
    constants (the same in every position)."""
    path = write(tmp_path, HAND.replace("BODY", body))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0, err
    line = line_of(path, "choose x from")
    message = (
        f"{path}:{line}:9: warning: this choice may have no options: its list is filtered (`if ...`) from what "
        "the game holds (hand), and nothing before it makes sure an option is left; with none, the game stops "
        "with an error"
    )
    assert (message in err) == warned, err
    if warned:
        assert "hint: guard it (`if count(LIST) > 0 { choose ... }`), or write `optional` after it" in err


def test_a_number_compared_with_none_is_a_warning_that_it_never_is(capsys, tmp_path):
    """`roll n from 1..6` then `if n == none`: a number is never none, so the branch never
    runs (and `!= none` always does); the designer meant another value, or one that may be
    none."""
    compared = "        if k == none {\n            n += 1\n        }\n"
    path = write(tmp_path, OK_GAME.replace("        n += k\n", compared))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0
    assert f"{path}:7:12: warning: `k` is int, never none: this is always false" in err, err
    assert "hint: compare it with a value it can take" in err
    path.write_text(path.read_text().replace("k == none", "k != none"))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert f"{path}:7:12: warning: `k` is int, never none: this is always true" in err, err


# ---- mistakes written from the docs, that check passed or worded badly ---------------------------------
DICE = """
game dice "Dice Duel" {
    players 2..3
    seats [red, blue, green]
}
enum Mood { calm, angry }
entity Token {
    mood: Mood
    slot effect(p: player)
}
var score: player -> int = 0
var round: int = 1
var pool: list int = []
card star "Star" : Token {
    mood calm
    effect {
        rule "Dice Duel 5: the Star scores 1"
        score[p] += 1
    }
}
procedure turn(p: player) {
    rule "Dice Duel 2: on a turn, roll a die and keep it or pass"
    roll n from 1..6
    may p "keep {n}" {
        score[p] += n
        pool = append(pool, n)
    }
    perform star.effect(p)
}
procedure play() {
    rule "Dice Duel 4: three rounds, the highest score wins"
    while round <= 3 {
        for p in players {
            turn(p)
        }
        round += 1
    }
    log "the dice kept: {pool}"
    game over best(players, p => score[p])
}
"""


@pytest.mark.parametrize(
    ("old", "new", "where", "message", "hint"),
    [
        (
            "pool = append(pool, n)",
            "pool = append(n, pool)",
            "pool = append",
            "append() takes a list first, not int",
            "the list comes first: `append(pool, n)`",
        ),
        (
            "round += 1",
            "round += count(round)",
            "count(round)",
            "count() takes a list first, not int",
            "`count(xs)` takes a list",
        ),
        (
            "round += 1",
            "round += count(score)",
            "count(score)",
            "count() takes a list, and `score` is a map of int by player",
            "read one entry, `score[...]`",
        ),
        (
            "game over best(players, p => score[p])",
            "game over score",
            "game over score",
            "`game over` takes a list of winners, and `score` is a map of int by player",
            "`game over best(players, p => score[p])`",
        ),
        (
            "mood calm",
            "mood happy",
            "mood happy",
            "unknown name 'happy': Token.mood is Mood, one of calm, angry",
            "write one of calm, angry",
        ),
        (
            "roll n from 1..6\n",
            'roll n from 1..6\n    log to all "{p} rolls {n}"\n',
            "log to all",
            "`log to all`: a `log to` tells one seat",
            "`log` alone tells everyone: drop `to all`",
        ),
        (
            "        round += 1\n",
            '        round += 1\n        while true {\n            log "again"\n        }\n',
            "while true",
            "this loop never ends once it starts: its condition never changes, and nothing in it leaves the loop",
            "leave it with `break` (or `return`, `game over`) once its work is done",
        ),
    ],
    ids=[
        "append-swapped",
        "count-of-a-number",
        "count-of-a-map",
        "game-over-a-map",
        "member-not-of-the-enum",
        "log-to-all",
        "while-true",
    ],
)
def test_a_mistake_written_from_the_docs_is_an_error_at_its_line_with_the_fix(
    capsys, tmp_path, old, new, where, message, hint
):
    """Written from docs/language.md by a new designer: a built-in that takes a list given a
    number or a whole map (it passed the checker, and stopped at run time as a `+`), `game
    over` given a map, a property given a member its type lacks (the nearest name of the
    whole game was offered, `near` for `early`), `log to all` (no hint), and `while true`
    with no way out (its message read "its condition reads nothing that changes, which its
    body never changes")."""
    path = write(tmp_path, DICE.replace(old, new, 1))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 2
    line = line_of(path, where)
    assert re.search(rf"{re.escape(str(path))}:{line}:\d+: error: {re.escape(message)}", err), err
    assert hint in err, err


def test_the_dice_game_the_mistakes_are_written_into_checks(capsys, tmp_path):
    code, _, err = check_cli(capsys, str(write(tmp_path, DICE)), "--budget", "0")
    assert code == 0 and "warning" not in err, err


def test_a_cards_effect_without_a_rule_is_a_warning(capsys, tmp_path):
    """Every rule cites its rulebook section: a procedure or trigger without `rule` is an
    error, and a card's effect was not even warned of."""
    path = write(tmp_path, DICE.replace('        rule "Dice Duel 5: the Star scores 1"\n', ""))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0
    assert f"{path}:{line_of(path, 'effect {')}:5: warning: card star's effect cites no rulebook section" in err, err


def test_a_loop_on_a_local_nothing_changes_names_it_in_the_hint(capsys, tmp_path):
    """`let k = 0` then `while k < 3 { ... }` with a decision inside and no `k += 1`: the
    error names k and hints `k += 1`, not ending the game."""
    body = 'let k = 0\n    while k < 3 {\n        may p "wait" {\n            score[p] += 1\n        }\n    }'
    path = write(tmp_path, DICE.replace("    perform star.effect(p)\n", f"    perform star.effect(p)\n    {body}\n"))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 2
    at = line_of(path, "while k < 3")
    assert f"{path}:{at}:5: error: this loop never ends, and the game with it: its condition reads k" in err, err
    assert "hint: change k in the loop (`k += 1`)" in err


def test_a_tests_dice_no_roll_can_give_are_an_error_at_the_dice(capsys, tmp_path):
    """`dice [7]` where every roll of the game is of 1..6: `gamedef test` stops at the roll
    ("pinned result 7 is not one of 1, 2, ..."), whatever the game does."""
    test = 'test sevens "A seven" {\n    rule "Dice Duel 2"\n    players 2\n    dice [3, 7]\n    expect round == 1\n}\n'
    path = write(tmp_path, DICE + test)
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 2
    message = "error: test sevens: dice [3, 7] pins 7, which no roll of the game gives (its rolls give 1 to 6)"
    assert f"{path}:{line_of(path, 'dice [3, 7]')}:5: {message}" in err, err
    path.write_text(path.read_text().replace("dice [3, 7]", "dice [3, 6]"))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0, err


def test_a_tests_dice_are_read_against_a_huge_roll_at_once(capsys, tmp_path):
    """A roll of 1..1000000000000 is read as its ends, not as its numbers (which took
    longer than any budget, unbounded): a test's die beyond it is said at once, with the
    rolls as runs."""
    huge = DICE.replace("roll n from 1..6", "roll n from 1..1000000000000", 1)
    assert huge != DICE
    test = 'test big "A big one" {\n    rule "Dice Duel 2"\n    players 2\n    dice [0]\n    expect round == 1\n}\n'
    path = write(tmp_path, huge + test)
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 2
    assert "pins 0, which no roll of the game gives (its rolls give 1 to 1000000000000" in err, err


def test_a_tests_dice_are_read_against_its_own_variants_rolls(capsys, tmp_path):
    """A variant that replaces the rolling procedure with one that rolls nothing does not
    make the test of the game without it wrong: the test's dice are its own rules' rolls."""
    variant = (
        'variant calm "Calm"{\n    rule "House: no rolls"\n    replace procedure turn(p: player) {\n'
        '        rule "House: a turn scores 1"\n        score[p] += 1\n    }\n}\n'
    )
    test = 'test sixes "A six" {\n    rule "Dice Duel 2"\n    players 2\n    dice [6]\n    expect round == 1\n}\n'
    path = write(tmp_path, DICE + variant + test)
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0, err


def test_a_game_whose_play_asks_nothing_is_a_warning_not_an_error(capsys, tmp_path):
    """A game that ends in play() before any decision (a fixture, a game played by no one)
    plays nothing: said as a warning at its end; ended in setup(), it is an error."""
    path = write(tmp_path, OK_GAME.replace("    for p in players {", "    game over []\n    for p in players {"))
    code, _, err = check_cli(capsys, str(path), "--budget", "5")
    assert code == 0, err
    message = "warning: every game check played at 2 players ended before its first decision: nothing was played"
    assert f"{path}:5:5: {message}" in err, err
    assert "hint: a game with no decision plays nothing" in err
