"""Broken .game files and the diagnostics a designer sees for them.

Every case is a small inline source run through the real pipeline (`load_game`: parse,
include, variants, check, compile). The rendered diagnostic, with the temporary path
replaced by `<file>`, is compared with a syrupy snapshot; each case also asserts its
key fact directly (the position and a word of the message or the did-you-mean), so a
regression reads plainly in the test even if someone refreshes the snapshots.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from repo_paths import ROOT

from interpreter import GameDefError, GameRuntimeError, load_game
from interpreter.check.checker import check_program
from interpreter.cli import terminal
from interpreter.cli.commands import main
from interpreter.core.errors import OptionError, SettingError
from interpreter.language.program import load_program

EXAMPLES = ROOT / "examples"
POSITION = re.compile(r"^<file>:(\d+):(\d+): (error|warning): ")


def write(tmp_path: Path, source: str, name: str = "broken.game") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def rendered(err: GameDefError, path: Path) -> str:
    text = err.render()
    for form in {str(path.resolve()), str(path)}:
        text = text.replace(form, "<file>")
    return text


def load_error(tmp_path: Path, source: str, **kwargs) -> tuple[GameDefError, str]:
    path = write(tmp_path, source)
    with pytest.raises(GameDefError) as info:
        load_game(path, **kwargs)
    return info.value, rendered(info.value, path)


# Each case: id, source, load_game keyword arguments, "LINE:COL" of the first diagnostic,
# and a fragment its rendering must contain (the message's key words or the hint).
CASES = [
    # ---- syntax ------------------------------------------------------------------------------
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            if true {
                game over []
        }
        """,
        {},
        "4:13",
        "this '{' of `if true` in procedure play is never closed",
        id="syntax-missing-brace",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            whle true {
                game over []
            }
        }
        """,
        {},
        "4:10",
        "'whle' is not a keyword: did you mean 'while'?",
        id="syntax-misspelt-whle",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedur play() {
            rule "Play"
        }
        """,
        {},
        "2:1",
        "did you mean 'procedure'?",
        id="syntax-misspelt-procedure",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            let x = 1 $ 2
            game over []
        }
        """,
        {},
        "4:15",
        "unexpected character '$'",
        id="syntax-stray-character",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play
            game over []
        }
        """,
        {},
        "3:10",
        "unterminated string",
        id="syntax-unterminated-string",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            let x =
        """,
        {},
        "4:11",
        "unexpected end of file",
        id="syntax-end-of-file",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            log "total {1 +} now"
            game over []
        }
        """,
        {},
        "4:17",
        "bad expression in string: {1 +}",
        id="syntax-bad-interpolation",
    ),
    pytest.param(
        """
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "1:1",
        "no `game` header in this file",
        id="no-game-header",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            let left = = 2
            game over []
        }
        """,
        {},
        "4:16",
        "an expression is expected after '='",
        id="syntax-operand-missing",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            log "first
            log "second"
            log "third"
            game over []
        }
        """,
        {},
        "4:9",
        "unterminated string",
        id="syntax-string-open-where-it-opens",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var n: int = 0
        procedure play() {
            rule "Play"
            if n > 1 {
                log "many"
            } else if n == 1 {
                log "one"
            }
            game over []
        }
        """,
        {},
        "7:12",
        "write `elif CONDITION { ... }`",
        id="syntax-else-if",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var n: int = 0
        card spark "Spark" {
            effect {
                if n > 1 {
                    n = 0
            }
        }
        card flare "Flare" {
            effect { n = 1 }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "5:18",
        "this '{' of `if n > 1` in card spark is never closed",
        id="syntax-unclosed-brace-where-it-opens",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        entity Spell {
            slot effect(s: player, power: int)
        }
        card spark "Spark" : Spell {
            effect(s) {
                log "spark"
            }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "6:15",
        "write `effect { ... }` to take the parameters its kind declares",
        id="syntax-slot-header-without-types",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var n: int = 0
        card spark "Spark" {
            effect {
                if n > 1 {
                    n = 0
                }
                }
                log "after"
            }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "9:9",
        "the '}' at 8:9 closes `effect` (line 4), so what follows is outside it",
        id="syntax-brace-too-many",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var n: int = 0
        procedure play() {
            rule "Play"
            if n = 1 {
                log "one"
            }
            game over []
        }
        """,
        {},
        "5:10",
        "to compare, write `==`",
        id="syntax-assignment-as-comparison",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var n: int = 0
        procedure play() {
            rule "Play"
            n = max(n, 2
            game over []
        }
        """,
        {},
        "6:5",
        "the '(' at line 5:12 is not closed: add ')'",
        id="syntax-parenthesis-not-closed",
    ),
    # ---- unknown names, with did-you-mean ----------------------------------------------------
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            let total = 1
            let y = totl + 1
            game over []
        }
        """,
        {},
        "5:13",
        "unknown name 'totl'\n",
        id="unknown-name",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: int = 0
        procedure play() {
            rule "Play"
            scor = 1
            game over []
        }
        """,
        {},
        "5:5",
        "did you mean 'score'?",
        id="unknown-variable",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure turn(p: player) {
            rule "Turn"
        }
        procedure play() {
            rule "Play"
            trun(a)
            game over []
        }
        """,
        {},
        "7:5",
        "did you mean 'turn'?",
        id="unknown-procedure",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        def double(n: int) = n * 2
        procedure play() {
            rule "Play"
            let x = doubel(2)
            game over []
        }
        """,
        {},
        "5:13",
        "did you mean 'double'?",
        id="unknown-function",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        def double(n: int) = n * 2
        procedure play() {
            rule "Play"
            double(2)
            game over []
        }
        """,
        {},
        "5:5",
        "'double' is a function (def)",
        id="function-called-as-procedure",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        event scored(p: player)
        procedure play() {
            rule "Play"
            emit scord(a)
            game over []
        }
        """,
        {},
        "5:5",
        "did you mean 'scored'?",
        id="unknown-event-emitted",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        event scored(p: player)
        when scord(p) {
            rule "Scoring"
        }
        procedure play() {
            rule "Play"
            emit scored(a)
            game over []
        }
        """,
        {},
        "3:1",
        "did you mean 'scored'?",
        id="unknown-event-handled",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: player -> itn = 0
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "2:22",
        "did you mean 'int'?",
        id="unknown-type",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        entity Tile {
            value: int
        }
        generate Tile named "t{v}" for v in 1..3 { value = v }
        procedure play() {
            rule "Play"
            let x = first(members(Tile)).valeu
            game over []
        }
        """,
        {},
        "8:13",
        "did you mean 'value'?",
        id="unknown-property",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        enum Suit { hearts, spades }
        procedure play() {
            rule "Play"
            let x = members(Siut)
            game over []
        }
        """,
        {},
        "5:21",
        "did you mean 'Suit'?",
        id="members-of-unknown-type",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var deck: list int = []
        procedure play() {
            rule "Play"
            shuffle dek
            game over []
        }
        """,
        {},
        "5:5",
        "did you mean 'deck'?",
        id="shuffle-unknown-variable",
    ),
    # ---- arity -------------------------------------------------------------------------------
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: player -> int = 0
        entity Spell {
            slot effect(s: player, power: int)
        }
        card spark "Spark" : Spell {
            effect(by: player) {
                score[s] += power
                score[s] += power
                score[s] += power
            }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "7:5",
        "does not match Spell's `slot effect(s: player, power: int)`, declared at <file>:4:5",
        id="slot-header-differs",
    ),
    # A declared slot's parameter read where that slot's declaration is not in force: one error
    # a slot, saying why, never "did you mean 'us'?" (a seat that would compile, meaning another).
    pytest.param(
        """
        game t { players 2..2 seats [us, them] }
        var score: player -> int = 0
        entity Spell {
            slot effect(s: player, power: int)
        }
        entity Rune { }
        card spark "Spark" {
            effect {
                score[s] += 1
                score[s] += power
            }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "9:15",
        "card 'spark' names no kind, so its `effect` has no parameter 's'",
        id="slot-parameter-card-without-kind",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [us, them] }
        var score: player -> int = 0
        entity Spell {
            slot effect(s: player, power: int)
        }
        entity Rune { }
        card spark "Spark" : Rune {
            effect {
                score[s] += 1
                score[s] += power
            }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "9:15",
        'if it is a Spell, write `card spark "Spark" : Spell`',
        id="slot-parameter-card-of-another-kind",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [us, them] }
        var score: player -> int = 0
        entity Spell {
            slot effect(s: player, power: int)
        }
        entity Rune { }
        card spark "Spark" : Spell {
            efect {
                score[s] += 1
                score[s] += power
            }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "9:15",
        "Spell, which declares no `slot efect`",
        id="slot-parameter-slot-misspelt",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [us, them] }
        var score: player -> int = 0
        entity Spell {
            slot efect(s: player, power: int)
        }
        entity Rune { }
        card spark "Spark" : Spell {
            effect {
                score[s] += 1
                score[s] += power
            }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "9:15",
        "one of the two names is misspelt",
        id="slot-parameter-declaration-misspelt",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [us, them] }
        var score: player -> int = 0
        entity Spell {
            slot effect(s: player, power: int)
        }
        entity Rune { }
        card spark "Spark" {
            effect(by: player) {
                score[s] += 1
                score[by] += power
            }
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "9:15",
        "the header `effect(by: player)` of card 'spark' has no parameter 's'",
        id="slot-parameter-own-header-lacks-it",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [us, them] }
        var score: player -> int = 0
        procedure gain(s: player) {
            rule "Gain"
            score[s] += 1
        }
        procedure play() {
            rule "Play"
            score[s] += 1
            game over []
        }
        """,
        {},
        "9:11",
        "no parameter or local 's' here (it is a parameter of procedure gain)",
        id="parameter-of-another-procedure-is-not-a-seat",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure turn(p: player) {
            rule "Turn"
        }
        procedure play() {
            rule "Play"
            turn(a, b)
            game over []
        }
        """,
        {},
        "7:5",
        "procedure 'turn' takes 1 argument, given 2",
        id="arity-procedure",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        def double(n: int) = n * 2
        procedure play() {
            rule "Play"
            let x = double(1, 2)
            game over []
        }
        """,
        {},
        "5:13",
        "function 'double' takes 1 argument, given 2",
        id="arity-function",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            let x = count([1], [2])
            game over []
        }
        """,
        {},
        "4:13",
        "count() takes 1 argument, given 2",
        id="arity-builtin",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        event scored(p: player)
        when scored(p) {
            rule "Scoring"
        }
        procedure play() {
            rule "Play"
            emit scored()
            game over []
        }
        """,
        {},
        "8:5",
        "event 'scored' takes 1 argument, given 0",
        id="arity-emit",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        event scored(p: player)
        when scored(p, q) {
            rule "Scoring"
        }
        procedure play() {
            rule "Play"
            emit scored(a)
            game over []
        }
        """,
        {},
        "3:1",
        "this trigger names 2: scored(p: player)",
        id="arity-trigger-names",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        query bonus(p: player): int = 0
        while true: bonus(p, q) += 1
        procedure play() {
            rule "Play"
            log "{bonus(a)}"
            game over []
        }
        """,
        {},
        "3:13",
        "this modifier names 2: bonus(p: player)",
        id="arity-modifier",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: player -> int = 0
        card spark "Spark" {
            effect(p: player) {
                score[p] += 1
            }
        }
        procedure play() {
            rule "Play"
            perform spark.effect(a, b)
            game over []
        }
        """,
        {},
        "10:5",
        "slot 'effect' takes 1 argument(s), given 2: `effect(p: player)` in card 'spark'",
        id="arity-perform-undeclared-slot",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure turn(p: player) {
            rule "Turn"
        }
        procedure play() {
            rule "Play"
            turn(3)
            game over []
        }
        """,
        {},
        "7:5",
        "argument 1 of procedure 'turn' should be player, not int",
        id="argument-type",
    ),
    # ---- types -------------------------------------------------------------------------------
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            if 1 { log "one" }
            game over []
        }
        """,
        {},
        "4:8",
        "an `if` condition must be bool, not int",
        id="type-condition-not-bool",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            let x = 1 + true
            game over []
        }
        """,
        {},
        "4:17",
        "`+` needs numbers, not bool",
        id="type-plus-non-number",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: int = 0
        procedure play() {
            rule "Play"
            score = true
            game over []
        }
        """,
        {},
        "5:13",
        "'score' holds int, not bool",
        id="type-bool-into-int-var",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: player -> int = 0
        procedure play() {
            rule "Play"
            score[1] = 2
            game over []
        }
        """,
        {},
        "5:11",
        "'score' is keyed by player, not int",
        id="type-map-keyed-wrongly",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: int -> int = 0
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "2:12",
        "a map's key must be a finite type, not int",
        id="type-map-key-not-finite",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            win 3
        }
        """,
        {},
        "4:9",
        "`win` takes a player or a list of players, not int",
        id="type-win-int",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            game over a
        }
        """,
        {},
        "4:15",
        "`game over` takes a list of winners, not player",
        id="type-game-over-player",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            let same = a == 3
            game over []
        }
        """,
        {},
        "4:16",
        "comparing player with int is always false",
        id="type-compare-incompatible",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            for i in 5 { log "{i}" }
            game over []
        }
        """,
        {},
        "4:14",
        "expected a list here, not int",
        id="type-for-over-int",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        option size: int = true
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "2:20",
        "option 'size' is int, its default is bool",
        id="type-option-default",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            a = b
            game over []
        }
        """,
        {},
        "4:5",
        "'a' is not a variable and cannot change",
        id="assign-to-seat",
    ),
    # ---- structure ---------------------------------------------------------------------------
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            break
            game over []
        }
        """,
        {},
        "4:5",
        "`break` outside a loop",
        id="break-outside-loop",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        enum Suit { hearts, spades }
        var held: Suit -> int = 0 seen by owner
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "3:1",
        "`seen by owner` needs a map keyed by player",
        id="seen-by-owner-not-player-map",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure turn() {
            rule "Turn"
        }
        """,
        {},
        "1:1",
        "the game has no `procedure play()`",
        id="missing-play",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            game over []
        }
        """,
        {},
        "2:1",
        "procedure play cites no rulebook section",
        id="procedure-without-rule",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: int = 0
        var score: int = 1
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "3:1",
        "var 'score' is declared twice",
        id="duplicate-declaration",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        enum Suit { hearts, spades }
        enum Colour { hearts, blue }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "3:15",
        "'hearts' already names a Suit",
        id="duplicate-constant",
    ),
    # ---- procedures that return a value; comprehensions ----------------------------------------
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure twice(n: int): int {
            rule "Twice"
            return n * 2
        }
        procedure play() {
            rule "Play"
            let x = twice(1) + 1
            game over []
        }
        """,
        {},
        "8:13",
        "hint: call it as a statement of its own: `let x = twice(...)`, then use x",
        id="procedure-call-inside-expression",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure twice(n: int): int {
            rule "Twice"
            if n > 9 {
                return
            }
            return n * 2
        }
        procedure play() {
            rule "Play"
            let x = twice(1)
            game over []
        }
        """,
        {},
        "5:9",
        "`return` without a value in a procedure that returns int",
        id="return-without-value",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure turn(p: player) {
            rule "Turn"
            return 3
        }
        procedure play() {
            rule "Play"
            turn(a)
            game over []
        }
        """,
        {},
        "4:12",
        "hint: declare its result type: procedure NAME(...): TYPE { ... }",
        id="return-value-without-result",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure turn(p: player) {
            rule "Turn"
            return
            log_turn(p)
        }
        procedure log_turn(p: player) {
            rule "Turn"
            log "{p} is done"
        }
        procedure play() {
            rule "Play"
            turn(a)
            game over []
        }
        """,
        {},
        "5:5",
        "`return` reads the next line as its value: a `return` must end its block",
        id="statement-after-return-read-as-value",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var moves: int = 0
        procedure turn(p: player) {
            rule "Turn"
            return
            moves = 1
        }
        procedure play() {
            rule "Play"
            turn(a)
            game over []
        }
        """,
        {},
        "6:11",
        "`return` reads the next line as the value it returns: a `return` must end its block",
        id="syntax-statement-after-return",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure name_of(p: player): str {
            rule "Names"
            return 3
        }
        procedure play() {
            rule "Play"
            let n = name_of(a)
            game over []
        }
        """,
        {},
        "4:12",
        "procedure 'name_of' returns str, not int",
        id="return-wrong-type",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure turn(p: player) {
            rule "Turn"
        }
        procedure play() {
            rule "Play"
            let x = turn(a)
            game over []
        }
        """,
        {},
        "7:13",
        "hint: declare its result type (procedure turn(...): TYPE) and `return` a value",
        id="result-of-procedure-without-result",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure bonus(n: int): int {
            rule "Bonus"
            if n > 3 {
                return 1
            } elif n > 1 {
                return 2
            }
        }
        procedure play() {
            rule "Play"
            let x = bonus(2)
            game over []
        }
        """,
        {},
        "2:1",
        "procedure 'bonus' returns int, but the end of its body can be reached",
        id="result-end-reachable",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play(): int {
            rule "Play"
            game over []
        }
        """,
        {},
        "2:19",
        "`play()` cannot return a value: nothing calls it",
        id="play-with-result",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        entity Army { n: int }
        procedure strongest(): Armi {
            rule "Combat"
            return none
        }
        procedure play() {
            rule "Play"
            let x = strongest()
            game over []
        }
        """,
        {},
        "3:24",
        "hint: did you mean 'Army'?",
        id="result-unknown-type",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var total: int = 0
        procedure twice(n: int): int {
            rule "Twice"
            return n * 2
        }
        procedure play() {
            rule "Play"
            total += twice(1, 2)
            game over []
        }
        """,
        {},
        "9:14",
        "procedure 'twice' takes 1 argument, given 2",
        id="result-call-arity",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var got: list int = []
        procedure play() {
            rule "Play"
            let others = [1, 2]
            got = [x + y for x in 1..3 for y in othres if x != y]
            game over []
        }
        """,
        {},
        "6:41",
        "hint: did you mean 'others'?",
        id="comprehension-second-clause-unknown-name",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var got: list int = []
        procedure play() {
            rule "Play"
            got = [x + y for x in 1..3 for y in x]
            game over []
        }
        """,
        {},
        "5:41",
        "expected a list here, not int",
        id="comprehension-second-clause-not-a-list",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var got: list int = []
        procedure play() {
            rule "Play"
            got = [x for x in 1..3 if x > 1 for y in 1..3 if y]
            game over []
        }
        """,
        {},
        "5:54",
        "a comprehension's `if` must be bool, not int",
        id="comprehension-second-if-not-bool",
    ),
    # ---- variants and includes ---------------------------------------------------------------
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure turn() {
            rule "Turn"
        }
        procedure play() {
            rule "Play"
            turn()
            game over []
        }
        variant v "V" {
            replace procedure trun() {
                rule "Variant turn"
            }
        }
        """,
        {"variants": ["v"]},
        "11:5",
        "variant replaces unknown procedure 'trun'",
        id="variant-replaces-unknown",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            game over []
        }
        variant v "V" {
            replace invariant "no rule": true
        }
        """,
        {"variants": ["v"]},
        "7:5",
        "`replace` needs a declaration with a name, and an invariant has none",
        id="variant-replaces-an-unnamed-declaration",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            game over []
        }
        variant v "V" {
            procedure play() {
                rule "Variant play"
                game over []
            }
        }
        """,
        {"variants": ["v"]},
        "7:5",
        "write `replace` before it",
        id="variant-redeclares",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: int = 0
        procedure play() {
            rule "Play"
            game over []
        }
        variant v "V" {
            remove var scroe
        }
        """,
        {"variants": ["v"]},
        "8:5",
        "did you mean 'score'?",
        id="variant-removes-unknown",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: int = 0
        procedure play() {
            rule "Play"
            game over []
        }
        test scored {
            arrange { score = 2 }
            expect scroe == 2
        }
        """,
        {},
        "9:12",
        "unknown name 'scroe'",
        id="test-block-misspelt-name",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        def goal() = 3
        procedure play() {
            rule "Play"
            game over []
        }
        replace def no_such_def() = 1
        """,
        {},
        "7:1",
        "`replace` names unknown def 'no_such_def'",
        id="replace-outside-a-variant-unknown",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        def goal() = 3
        procedure play() {
            rule "Play"
            game over []
        }
        remove def gaol
        """,
        {},
        "7:1",
        "did you mean 'goal'?",
        id="remove-outside-a-variant-unknown",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        entity Gem { number: str unique }
        card ruby "Ruby" : Gem { number "4" }
        card opal "Opal" : Gem { number "5" }
        card jade "Jade" : Gem { number "4" }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "5:1",
        "Gem.number is unique, and 'jade' has number \"4\", as 'ruby' has",
        id="unique-property-given-twice",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        include "nowhere/cards.game"
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        {},
        "2:1",
        "include finds no file: nowhere/cards.game",
        id="include-finds-nothing",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        var score: player -> int = 0
        card spark "Spark" {
            efect {
                rule "Spark: the leaders score 1"
                score[a] += 1
            }
        }
        card flare "Flare" {
            effect {
                rule "Flare: b scores 1"
                score[b] += 1
            }
        }
        procedure play() {
            rule "Play"
            for c in members(Card) {
                perform c.effect()
            }
            game over []
        }
        """,
        {},
        "4:5",
        "card 'spark': no rule performs a slot `efect`, so its code never runs\n"
        "        efect {\n        ^\n    hint: did you mean `effect`?",
        id="slot-never-performed-misspelt",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        entity Crop { yield_points: int }
        card wheat "Wheat" : Crop { yield_points 2 }
        card rye "Rye" : Corp { yield_points 1 }
        procedure play() {
            rule "Play"
            choose c from members(Crop) by a label "{c}"
            game over []
        }
        """,
        {},
        "4:1",
        "card 'rye' is of kind 'Corp', which no entity declares: a kind of its own, which no rule of Crop reaches\n"
        '    card rye "Rye" : Corp { yield_points 1 }\n    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
        "    hint: did you mean `: Crop`?",
        id="card-kind-misspelt",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        entity Crop { yield_points: int  bonus: int? }
        card wheat "Wheat" : Crop { yield_points 2 }
        card rye "Rye" { yield_points 1  bonus 2 }
        procedure play() {
            rule "Play"
            choose c from members(Crop) by a label "{c}"
            game over []
        }
        """,
        {},
        "4:1",
        "card 'rye' names no kind, so it is a Card, which no rule of Crop reaches",
        id="card-kind-left-out",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        def length() = 3
        replace def length() = 5
        procedure play() {
            rule "Play"
            choose n from 1..length() by a label "{n}"
            game over []
        }
        """,
        {},
        "3:1",
        "`replace` outside a variant changes what an included file declares, and def 'length' is declared "
        "in this file, at line 2",
        id="replace-of-its-own-files-declaration",
    ),
    pytest.param(
        """
        game t { players 2..2 seats [a, b] }
        enum Region { north_r, south_r }
        var influence: player -> Region -> int = 0
        procedure add_influence(s: player, x: Region, n: int) {
            rule "Influence"
            influence[s][x] += n
        }
        procedure play() {
            rule "Play"
            add_influence(north_r, a, 1)
            game over []
        }
        """,
        {},
        "10:5",
        "arguments 1 and 2 of procedure 'add_influence' are in each other's place: it takes player then Region, "
        "given Region then player",
        id="arguments-swapped",
    ),
]


HEADER_CASES = [
    ("game t { players 4..2 seats [a, b, c, d] }", "1:10", "`players 4..2` allows no count: the least comes first"),
    ("game t { players 2..3 seats [a, b, a] }", "1:23", "seat 'a' is named twice in `seats [...]`"),
    ("game t { players 2..4 seats [a, b, c] }", "1:23", "`players 2..4` allows 4 players, but only 3 seats are named"),
]


@pytest.mark.parametrize(("header", "where", "fragment"), HEADER_CASES, ids=["reversed", "seat-twice", "too-few-seats"])
def test_a_header_whose_counts_and_seats_disagree_is_refused_at_the_item(tmp_path, header, where, fragment):
    """A header that allows no count, names a seat twice, or allows more players than it has
    seats (with no `roles` rule for that count) is refused at its `players` or `seats` item,
    before any game is played (`gamedef run --players 4` would stop at its start)."""
    _, text = load_error(tmp_path, header + '\nprocedure play() {\n    rule "Play"\n    game over []\n}\n')
    assert text.startswith(f"<file>:{where}: error: "), text
    assert fragment in text, text


def test_more_players_than_seats_is_fine_when_roles_give_that_count(tmp_path):
    """`roles` gives 3 players their seats: two seats named is not too few."""
    path = write(
        tmp_path,
        "game t { players 2..3 seats [a, b] roles { 3 players: [a, b] } }\n"
        'procedure play() {\n    rule "Play"\n    game over []\n}\n',
    )
    assert check_program(load_program(path)) == []


def test_a_byte_order_mark_is_not_part_of_the_file(tmp_path):
    """A file saved by an editor that writes a byte-order mark first (Notepad) reads as the
    same file without it: it checks, and a mistake on its first line is placed as if the mark
    were not there."""
    source = 'game t { players 2..2 seats [a, b] }\nprocedure play() {\n    rule "Play"\n    game over []\n}\n'
    path = tmp_path / "bom.game"
    path.write_bytes(b"\xef\xbb\xbf" + source.encode())
    assert check_program(load_program(path)) == []
    path.write_bytes(b"\xef\xbb\xbf" + source.replace("players 2..2", "players 2..2 seat [a]").encode())
    with pytest.raises(GameDefError) as info:
        load_game(path)
    assert info.value.diagnostics[0].span.line == 1 and info.value.diagnostics[0].span.column == 23, rendered(
        info.value, path
    )


def case(name: str) -> str:
    """The source of the case with this id."""
    return next(c.values[0] for c in CASES if c.id == name)


@pytest.mark.parametrize(("source", "kwargs", "where", "fragment"), CASES)
def test_broken_game(tmp_path, snapshot, source, kwargs, where, fragment):
    err, text = load_error(tmp_path, source, **kwargs)
    assert text.startswith(f"<file>:{where}: error: "), text
    assert fragment in text + "\n", text
    assert "Traceback" not in text
    # Every diagnostic has a position in the file and renders with it.
    for d in err.diagnostics:
        assert d.span.line > 0 and d.span.column > 0, d
    headlines = [line for line in text.splitlines() if not line.startswith(" ")]
    assert headlines and all(POSITION.match(line) for line in headlines), text
    assert text == snapshot


def test_checker_reports_every_error_at_once(tmp_path, snapshot):
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        var score: int = 0
        procedure play() {
            rule "Play"
            scor = 1
            let y = 1 + true
            if 3 { log "x" }
            game over []
        }
    """,
    )
    with pytest.raises(GameDefError) as info:
        check_program(load_program(path))
    text = rendered(info.value, path)
    assert [m.group(1, 2) for m in map(POSITION.match, text.splitlines()) if m] == [
        ("5", "5"),
        ("6", "17"),
        ("7", "8"),
    ]
    assert text == snapshot


def test_error_in_an_included_file_names_that_file(tmp_path):
    (tmp_path / "parts").mkdir()
    write(
        tmp_path,
        """
        def double(n: int) = n * 2
        def triple(n: int) = n * trhee
    """,
        "parts/helpers.game",
    )
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        include "parts/helpers.game"
        procedure play() {
            rule "Play"
            log "{double(2)} {triple(1)}"
            game over []
        }
    """,
    )
    with pytest.raises(GameDefError) as info:
        load_game(path)
    (d,) = info.value.diagnostics
    assert Path(d.span.path).name == "helpers.game"
    assert (d.span.line, d.span.column) == (2, 26)
    assert "unknown name 'trhee'" in d.message


# ---- runtime errors -------------------------------------------------------------------------------
RUNTIME = """
    game t { players 2..2 seats [a, b] }
    entity Card {
        rank: int
    }
    generate Card named "c{r}" for r in 1..3 { rank = r }
    procedure forbid(p: player, n: int) {
        rule "Turn: one is forbidden"
        require false else "boom: {p} chose {n}"
    }
    procedure turn(p: player, n: int) {
        rule "Turn"
        if n == 1 {
            forbid(p, n)
        }
        let r = first([c for c in members(Card) if c.rank > 5]).rank
    }
    procedure play() {
        rule "Play"
        choose n from [1, 2] by a
        turn(a, n)
        game over []
    }
"""


def test_runtime_require_names_procedure_and_line(tmp_path, snapshot):
    path = write(tmp_path, RUNTIME)
    game = load_game(path)
    state = game.start(players=2, seed=1)
    with pytest.raises(GameRuntimeError) as info:
        game.apply(state, "1")
    text = rendered(info.value, path)
    assert text.startswith("<file>:8:5: error: in forbid: boom: a chose 1")
    assert 'require false else "boom: {p} chose {n}"' in text
    assert text == snapshot


SEATS = """
game s { players 2..3 seats [a, b, c] }
var score: player -> int = 0
procedure add(p: player) {
    rule "Scoring"
    score[p] += 1
}
procedure play() {
    rule "Play"
    add(c)
    game over best(players, q => score[q])
}
"""


def test_a_seat_not_in_play_is_a_runtime_error_and_a_check_warning(tmp_path, snapshot):
    """A write to a seat the player count lacks names the seats in play and the count (no
    Python in it); `check` warns of it at the call beforehand."""
    path = write(tmp_path, SEATS)
    game = load_game(path)
    with pytest.raises(GameRuntimeError) as info:
        game.start(players=2, seed=1)
    text = rendered(info.value, path)
    assert text.startswith("<file>:5:5: error: in add: score[c] is written, but c is not in play: with 2 players")
    warnings = check_program(load_program(path))
    shown = "\n".join(rendered(GameDefError([d]), path) for d in warnings)
    assert shown.startswith("<file>:9:5: warning: c is passed to add()")
    assert text + "\n" + shown == snapshot


def test_runtime_property_of_none_names_procedure_and_line(tmp_path, snapshot):
    path = write(tmp_path, RUNTIME)
    game = load_game(path)
    state = game.start(players=2, seed=1)
    with pytest.raises(GameRuntimeError) as info:
        game.apply(state, "2")
    text = rendered(info.value, path)
    assert text.startswith("<file>:15:5: error: in turn: ")
    assert text == snapshot


def test_runtime_require_inside_if_points_at_the_require(tmp_path):
    # Regression: between 750ec97 and 9a3495c a step's own error named the step where its frame
    # was last entered (here the `if`), not the failing `require`.
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            choose n from [1, 2] by a
            if n == 1 {
                require false else "boom"
            }
            game over []
        }
    """,
    )
    game = load_game(path)
    with pytest.raises(GameRuntimeError) as info:
        game.apply(game.start(players=2), "1")
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.column) == (6, 9), d


# A rule error raised through the VM (roll, pins, empty choice) inside a compiled run of
# statements lands on the failing statement, not the run's first one.
RUNTIME_CASES = [
    pytest.param("let z = xs[5]", (), "out of range", id="index-out-of-range"),
    pytest.param("let i = index_of(xs, 7)", (), "the item is not in the list", id="index-of-absent"),
    pytest.param("let q = 10 / (y - 1)", (), "division by zero", id="division-by-zero"),
    pytest.param("roll d from [x for x in xs if x > 5]", (), "roll from an empty list", id="roll-from-empty"),
    pytest.param("roll d from 1..6", (9,), "pinned result 9 is not one of", id="pinned-die-not-allowed"),
    pytest.param(
        "choose c from [x for x in xs if x > 5] by a",
        (),
        "a choice has no options",
        id="choice-without-options",
    ),
    pytest.param('require y > 1 else "y is {y}"', (), "y is 1", id="require"),
    # a decision's step written out in the run of statements before it
    pytest.param("choose c from [xs[5]] by a", (), "out of range", id="choice-options-out-of-range"),
]


@pytest.mark.parametrize(("statement", "pins", "fragment"), RUNTIME_CASES)
def test_runtime_error_is_placed_on_the_failing_statement(tmp_path, statement, pins, fragment):
    path = write(
        tmp_path,
        f"""
        game t {{ players 2..2 seats [a, b] }}
        procedure play() {{
            rule "Play"
            let xs = [1, 2]
            let y = 1
            {statement}
            log "after"
            game over []
        }}
    """,
    )
    game = load_game(path)
    with pytest.raises(GameRuntimeError) as info:
        game.start(players=2, pins=pins)
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.column) == (6, 5), rendered(info.value, path)
    assert d.message.startswith("in play: ") and fragment in d.message


def test_procedures_ending_without_a_result_is_a_runtime_error(tmp_path):
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            log "nothing decides this game"
        }
    """,
    )
    with pytest.raises(GameRuntimeError) as info:
        load_game(path).start(players=2)
    (d,) = info.value.diagnostics
    assert "ended without `win` or `game over`" in d.message
    assert d.span.line in (2, 4)


def test_runtime_error_in_setup_is_raised_by_start(tmp_path):
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        procedure setup() {
            rule "Setup"
            require count(players) > 2 else "needs {count(players)} > 2 players"
        }
        procedure play() {
            rule "Play"
            game over []
        }
    """,
    )
    game = load_game(path)
    with pytest.raises(GameRuntimeError) as info:
        game.start(players=2)
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.column) == (4, 5)
    assert d.message == "in setup: needs 2 > 2 players"


# ---- the command line -----------------------------------------------------------------------------
def test_cli_check_broken_file_exits_2_without_traceback(tmp_path, capsys):
    path = write(tmp_path, case("unknown-variable"))
    assert main(["check", str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.replace(str(path.resolve()), "<file>").replace(str(path), "<file>")
    assert "Traceback" not in captured.out + captured.err
    assert err.startswith("<file>:5:5: error: unknown variable 'scor'")
    assert "hint: did you mean 'score'?" in err


def test_cli_check_syntax_error_exits_2(tmp_path, capsys):
    path = write(tmp_path, case("syntax-misspelt-whle"))
    assert main(["check", str(path)]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    assert ":4:10: error: unexpected 'true'" in captured.err


def test_cli_check_good_file_exits_0(capsys):
    assert main(["check", str(EXAMPLES / "tictactoe.game")]) == 0
    captured = capsys.readouterr()
    assert "ok (0 variants)" in captured.out
    assert captured.err == ""


def test_cli_check_bundled_game_with_variants_exits_0(capsys):
    assert main(["check", "berlin_wall"]) == 0
    assert "berlin_wall: ok (8 variants)" in capsys.readouterr().out


def test_cli_check_missing_file_exits_2(capsys):
    assert main(["check", "no_such_game"]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert "no game file or bundled game named 'no_such_game'" in captured.err
    assert "hint:" in captured.err


# ---- several syntax errors: each broken declaration left out, the rest read and checked ------------
THREE_BROKEN = """
game t { players 2..2 seats [a, b] }
var n: int = 0
def double(x: int) = x * 2
procedure first() {
    rule "First"
    let left = = 2
}
procedure second() {
    rule "Second"
    log "unclosed
    log "closed"
}
procedure third() {
    rule "Third"
    if n > 1 {
        log "many"
    } else if n == 1 {
        log "one"
    }
}
procedure play() {
    rule "Play"
    first()
    n = double(1, 2)
    game over [nobody]
}
"""


def test_three_syntax_errors_are_each_reported_at_their_line(tmp_path):
    """Three broken procedures give three errors, each where it is, not only the first."""
    err, text = load_error(tmp_path, THREE_BROKEN)
    places = [(d.span.line, d.span.column) for d in err.diagnostics]
    assert places == [(6, 16), (10, 9), (17, 12)], text
    assert [d.message for d in err.diagnostics] == ["unexpected '='", "unterminated string", "unexpected 'if'"]


def test_check_reports_syntax_errors_and_checks_what_parsed(tmp_path, capsys):
    """`gamedef check` of a file with syntax errors also checks the declarations that
    parsed: `play`'s unknown name and its call of `double` with 3 arguments are reported;
    its call of `first`, which did not parse, is not called unknown (it is not: it is broken)."""
    path = write(tmp_path, THREE_BROKEN)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.replace(str(path.resolve()), "<file>").replace(str(path), "<file>")
    headlines = [line for line in err.splitlines() if not line.startswith(" ")]
    assert headlines == [
        "<file>:6:16: error: unexpected '='",
        "<file>:10:9: error: unterminated string",
        "<file>:17:12: error: unexpected 'if'",
        "<file>:24:9: error: function 'double' takes 1 argument, given 2: double(x: int)",
        "<file>:25:16: error: unknown name 'nobody'",
    ], err
    assert "first" not in err.split("17:12")[1]


def test_a_broken_statement_costs_its_line_only(tmp_path, capsys):
    """Two broken statements in one procedure are both reported, and the procedure is still
    checked without those lines: its unknown name `nn` is the third error, while `left`,
    which only the broken `let` would have bound, is not reported unknown."""
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        var n: int = 0
        procedure play() {
            rule "Play"
            let left = = 2
            n = left + 1
            log "oops
            n = nn + 1
            game over []
        }
        """,
    )
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.replace(str(path.resolve()), "<file>").replace(str(path), "<file>")
    headlines = [line for line in err.splitlines() if not line.startswith(" ")]
    assert headlines == [
        "<file>:5:16: error: unexpected '='",
        "<file>:7:9: error: unterminated string",
        "<file>:8:9: error: unknown name 'nn'",
    ], err


def test_a_name_a_broken_statement_bound_is_excused_only_where_it_was_in_scope(tmp_path, capsys):
    """`let s = = 1` left out: `s` after it in that procedure is not reported, but an `s`
    in another procedure, where it never was bound, is an error still."""
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        var n: int = 0
        procedure first() {
            rule "First"
            let s = = 1
            n = s
        }
        procedure play() {
            rule "Play"
            first()
            n = s
            game over []
        }
        """,
    )
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.replace(str(path.resolve()), "<file>").replace(str(path), "<file>")
    headlines = [line for line in err.splitlines() if not line.startswith(" ")]
    assert headlines == ["<file>:5:13: error: unexpected '='", "<file>:11:9: error: unknown name 's'"], err


def test_a_statement_back_at_the_blocks_indentation_names_the_open_brace(tmp_path):
    """A line indented as the `{` of the block it is read in, after an indented body, means
    the block's `}` is missing: the error is at that `{`, not at the line the parser met."""
    err, text = load_error(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        var n: int = 0
        card spark "Spark" {
            effect {
                n = 1
            ops 3
        }
        procedure play() {
            rule "Play"
            game over []
        }
        """,
    )
    assert text.splitlines()[0] == "<file>:4:12: error: this '{' of `effect` in card spark is never closed", text
    assert "`ops 3` at line 6 is read as part of it" in text
    assert len(err.diagnostics) == 1


def test_syntax_errors_are_bounded(tmp_path):
    """A file of many broken declarations: the first MAX_SYNTAX_ERRORS, then one saying more follow."""
    from interpreter.core.limits import MAX_SYNTAX_ERRORS

    broken = "".join(
        f'procedure p{i}() {{\n    rule "R"\n    let x = = {i}\n}}\n' for i in range(MAX_SYNTAX_ERRORS + 5)
    )
    err, text = load_error(tmp_path, "game t { players 2..2 seats [a, b] }\n" + broken)
    assert len(err.diagnostics) == MAX_SYNTAX_ERRORS + 1
    assert [d.span.line for d in err.diagnostics[:MAX_SYNTAX_ERRORS]] == [4 + 4 * i for i in range(MAX_SYNTAX_ERRORS)]
    last = err.diagnostics[-1]
    assert last.message.startswith("... and more syntax errors") and last.span.line == 4 + 4 * MAX_SYNTAX_ERRORS


def test_every_bundled_file_parses():
    """The recovery's layout rules and the one-line strings change nothing for a good file:
    every bundled game, card set and example parses without an error."""
    from interpreter.language.parser import parse_text

    root = ROOT
    files = sorted({*root.glob("gamedefs/**/*.game"), *root.glob("cards/**/*.game"), *EXAMPLES.glob("*.game")})
    assert len(files) > 10
    for file in files:
        assert parse_text(file.read_text(encoding="utf-8"), str(file)).decls, file


def test_a_diagnostic_shows_the_line_the_parser_counted():
    """Lines are counted at "\\n" as the parser counts them (a form feed is no line break),
    and a position past the end of the text shown (a file changed since it was parsed, an
    editor's unsaved text) shows no line rather than failing."""
    from interpreter.core.errors import Diagnostic, Span

    assert Diagnostic(Span("x.game", 2, 1), "m").render({"x.game": "a\x0cb\nc"}).splitlines()[1] == "    c"
    assert Diagnostic(Span("x.game", 2, 1), "m").render({"x.game": "a\n"}).splitlines()[0] == "x.game:2:1: error: m"
    assert Diagnostic(Span("x.game", 9, 1), "m", "h").render({"x.game": "a\n"}) == "x.game:9:1: error: m\n    hint: h"


SLIP_HEADER = "game t { players 2..2 seats [a, b] }\nvar n: int = 0\nvar xs: list int = []\n"


@pytest.mark.parametrize(
    ("source", "where", "hint"),
    [
        ('card c "C" {\n    ops: 3\n}\n', "5:8", "a card's property is written without ':': `ops VALUE`"),
        ("def f(x) = x + 1\n", "4:8", "a parameter is written with its type: `x: TYPE`"),
        ("procedure p() {\n    let x == 2\n}\n", "5:12", "`==` compares; one `=` gives a value"),
        ('procedure p() {\n    choose x from xs\n    log "x"\n}\n', "6:5", "say who chooses"),
        ("procedure p() {\n    n = max(n, )\n}\n", "5:16", "a ',' before ')' with nothing after it"),
        ('procedure p() {\n    if n > 1 && n < 3 {\n        log "x"\n    }\n}\n', "5:14", "write `and`"),
        ('procedure p() {\n    if !n {\n        log "x"\n    }\n}\n', "5:8", "write `not`"),
        ("procedure p() {\n    log 'hi'\n}\n", "5:9", 'texts are in double quotes: "..."'),
        ("procedure p() {\n    n++\n}\n", "5:6", "there is no `++`: write `NAME += 1`"),
        (
            'procedure p() {\n    if n > 1 {\n        log "a"\n    } elseif n > 0 {\n        log "b"\n    }\n}\n',
            "7:14",
            "write `elif CONDITION { ... }`",
        ),
        ("procedure p() {\n    rule Setup\n}\n", "5:10", 'a text in double quotes is expected here: "..."'),
        ("procedure p() {\n    n = 1;\n}\n", "5:10", "remove the ';'"),
        ("procedure p {\n    n = 1\n}\n", "4:13", "write the parentheses even without parameters"),
        ("var m = 0\n", "4:7", "a variable is declared with its type: `var NAME: TYPE = VALUE`"),
        ("procedure p() {\n    log \u201chi\u201d\n}\n", "5:9", "a curly quote, as a word processor writes it"),
        ("var order: list player = [n, e s]\n", "4:32", "a ',' is missing between `e` and `s`?"),
        ("procedure p() {\n    n = max([n, x y])\n}\n", "5:19", "a ',' is missing between `x` and `y`?"),
        (
            "def f(x: int) = if x == 1 then 2 elif x == 2 then 3 else 4\n",
            "4:34",
            "`if COND then A else B` has no `elif`: write `else if COND2 then B else C`",
        ),
        (
            'procedure p() {\n    if n > 1 then {\n        log "x"\n    }\n}\n',
            "5:14",
            "an `if` statement's condition is followed by its block, `if COND { ... }`",
        ),
        (
            'card c "C" { ops 1\n    remove procedure p\n}\n',
            "5:5",
            "`remove` stands in a variant, or outside any declaration",
        ),
    ],
    ids=[
        "card-property-colon",
        "parameter-without-type",
        "let-with-double-equals",
        "choose-without-by",
        "trailing-comma",
        "double-ampersand",
        "exclamation-not",
        "single-quotes",
        "plus-plus",
        "elseif",
        "rule-without-quotes",
        "semicolon",
        "procedure-without-parentheses",
        "var-without-type",
        "curly-quotes",
        "missing-comma-in-a-list",
        "missing-comma-in-a-call",
        "elif-in-an-if-expression",
        "then-before-a-block",
        "remove-inside-a-card",
    ],
)
def test_a_common_slip_is_hinted_with_its_fix(tmp_path, source, where, hint):
    """Slips from other languages or from haste: each at its token, hinted with the fix."""
    _, text = load_error(tmp_path, SLIP_HEADER + source)
    assert text.startswith(f"<file>:{where}: error: "), text
    assert hint in text.split("hint:", 1)[1], text


# ---- diagnostics that once were poor ---------------------------------------------------------------
def test_unterminated_string_is_named_as_such(tmp_path):
    _, text = load_error(tmp_path, case("syntax-unterminated-string"))
    assert "string" in text.splitlines()[0] and "quote it" not in text


def test_missing_brace_at_end_of_file_suggests_a_brace(tmp_path):
    _, text = load_error(tmp_path, case("syntax-missing-brace"))
    assert "'}'" in text


def test_bad_interpolation_hint_has_no_lark_internals(tmp_path):
    _, text = load_error(tmp_path, case("syntax-bad-interpolation"))
    assert "Token(" not in text


def test_runtime_property_of_none_says_none(tmp_path):
    game = load_game(write(tmp_path, RUNTIME))
    with pytest.raises(GameRuntimeError) as info:
        game.apply(game.start(players=2), "2")
    assert "KeyError" not in info.value.diagnostics[0].message
    assert "none" in info.value.diagnostics[0].message


def test_option_value_of_the_wrong_type_is_rejected(tmp_path):
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        option fast: bool = false "play fast"
        procedure play() {
            rule "Play"
            if fast { log "fast" }
            game over []
        }
    """,
    )
    with pytest.raises(GameDefError):
        load_game(path, options={"fast": 5})


OPTIONS_GAME = """
    game t { players 2..2 seats [a, b] }
    option fast: bool = false "play fast"
    option rounds: int = 3 "how many rounds"
    procedure play() {
        rule "Play"
        if fast { log "fast" }
        game over []
    }
"""


@pytest.mark.parametrize(
    ("given", "value"),
    [
        ({"fast": "true"}, {"fast": True, "rounds": 3}),
        ({"fast": "False"}, {"fast": False, "rounds": 3}),
        ({"fast": True, "rounds": "5"}, {"fast": True, "rounds": 5}),
        ({"rounds": " -2 "}, {"fast": False, "rounds": -2}),
    ],
)
def test_a_text_option_value_from_python_is_read_as_the_command_line_reads_it(tmp_path, given, value):
    """`load_game(options={"fast": "true"})` means what `--option fast=true` means: a text
    given for a truth or number option is read the one way (core/options.py); the game
    and a state saved from it hold the value, not the text."""
    game = load_game(write(tmp_path, OPTIONS_GAME), options=given)
    assert game.compiled.options == value
    assert game.options == {k: value[k] for k in given}


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (
            {"fast": "yes"},
            "option 'fast' must be true or false (from Python, a bool or the text 'true' or 'false', "
            "in any case), not 'yes'",
        ),
        ({"fast": 1}, "option 'fast' must be true or false"),
        (
            {"rounds": "five"},
            "option 'rounds' must be a whole number (from Python, an int or its digits as a text: "
            "'5', '-2'), not 'five'",
        ),
        ({"rounds": "9" * 5000}, "option 'rounds' must be a whole number"),
        ({"rounds": 2**70}, "option 'rounds' must be a whole number"),
    ],
    ids=["bool-text", "bool-int", "int-text", "int-digits-past-the-limit", "int-past-the-limit"],
)
def test_a_wrong_option_value_says_what_is_accepted(tmp_path, given, message):
    with pytest.raises(GameDefError) as info:
        load_game(write(tmp_path, OPTIONS_GAME), options=given)
    assert message in str(info.value), str(info.value)


@pytest.mark.parametrize(
    ("variants", "expected"),
    [
        (["fsat"], ["--variant fsat: error: unknown variant 'fsat'", "    hint: did you mean 'fast'?"]),
        (
            ["quiet", "fast", "loud"],
            ["--variant loud: error: variant 'loud' cannot be combined with 'quiet'", "    hint: choose one of them"],
        ),
    ],
    ids=["unknown-variant", "variant-excluded-combination"],
)
def test_a_variant_mistake_is_reported_at_the_variant_named(tmp_path, variants, expected):
    """A variant chosen by name is an argument, not a line of the file: the message names it,
    as the library's setting (`variant fsat`) and on the command line as its flag."""
    err, text = load_error(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            game over []
        }
        variant fast "Fast" {
            rule "Fast play"
        }
        variant loud "Loud" {
            rule "Loud"
            excludes [quiet]
        }
        variant quiet "Quiet" {
            rule "Quiet"
        }
        """,
        variants=variants,
    )
    assert isinstance(err, SettingError) and err.setting == "variant"
    assert terminal.rendered(err).splitlines() == expected
    assert text.splitlines() == [expected[0].removeprefix("--"), *expected[1:]]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"sizee": 4}, ["--option sizee=4: error: unknown option 'sizee'", "    hint: did you mean 'size'?"]),
        ({"size": 5}, ["--option size=5: error: option 'size' = 5 is not allowed", "    hint: choose from 3, 4"]),
    ],
    ids=["option-unknown", "option-bad-value"],
)
def test_an_option_mistake_is_reported_at_the_option_given(tmp_path, options, expected):
    """Options are given to load_game (or on the command line): the message names the one
    given, as the library's setting (`option size=5`) and on the command line as its flag."""
    err, text = load_error(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        option size: int = 3 choices [3, 4] "board size"
        procedure play() {
            rule "Play"
            game over []
        }
        """,
        options=options,
    )
    assert isinstance(err, OptionError) and (err.name, err.setting) == (next(iter(options)), "option")
    assert terminal.rendered(err).splitlines() == expected
    assert text.splitlines() == [expected[0].removeprefix("--"), *expected[1:]]


def test_the_bundled_games_truth_option_given_as_a_text_from_python():
    """The call that was refused ("must be true or false, not 'true'")."""
    game = load_game("downfall_of_empires", options={"pass_full_stacks": "true"})
    assert game.compiled.options["pass_full_stacks"] is True


# ---- none: a value that may be none, used where a value is needed --------------------------
NONE_GAME = """
game t {{ players 2..2 seats [a, b] }}
entity Card {{ ops: int? }}
card scoring {{ }}
card coup {{ ops 3 }}
var discard: list Card = [scoring, coup]
var vp: player -> int = 0
procedure gain_vp(p: player, n: int) {{
    rule "VP"
    vp[p] += n
}}
procedure play() {{
    rule "Play"
    {body}
    game over []
}}
var top: int? = none
var held: player -> Card? = none
"""

# Each case: id, the statements of `play` (one line, on line 13), "LINE:COL" and a fragment of
# the first error, and the same statements with the error's hint applied (which must check).
NONE_CASES = [
    pytest.param(
        "gain_vp(a, last(discard).ops)",
        "13:16",
        "`last(discard)` may be none (discard may be empty): `.ops` of it would fail",
        "if last(discard) != none { gain_vp(a, last(discard).ops ?? 0) }",
        id="none-last-of-a-pile",
    ),
    pytest.param(
        "for c in discard { if c.ops >= 3 { gain_vp(a, 1) } }",
        "13:27",
        "`>=` needs numbers, but `c.ops` may be none (`ops` is declared `int?` in Card)",
        "for c in discard { if c.ops ?? 0 >= 3 { gain_vp(a, 1) } }",
        id="none-optional-property-compared",
    ),
    pytest.param(
        'let c = first(discard)\n    log "{c.ops}"',
        "14:11",
        "`c` may be none (discard may be empty): `.ops` of it would fail",
        'let c = first(discard)\n    if c != none { log "{c.ops}" }',
        id="none-local-from-first",
    ),
    pytest.param(
        "choose c from concat(discard, [none]) by a\n    gain_vp(a, c.ops ?? 0)",
        "14:16",
        "`c` may be none (it is none in one case)",
        "choose c from concat(discard, [none]) by a\n    if c != none { gain_vp(a, c.ops ?? 0) }",
        id="none-chosen-stop",
    ),
    pytest.param(
        "let n = coup.ops + 1\n    let m = if vp[a] > 0 then none else 2\n    gain_vp(b, m)",
        "15:16",
        "argument 2 of procedure 'gain_vp' should be int, but `m` may be none (it is none in one case)",
        "let n = coup.ops + 1\n    let m = if vp[a] > 0 then none else 2\n    gain_vp(b, m ?? 0)",
        id="none-argument",
    ),
    pytest.param(
        "gain_vp(a, top + 1)",
        "13:16",
        "`+` needs numbers, but `top` may be none (`top` is declared `int?`)",
        "if top != none { gain_vp(a, top + 1) }",
        id="none-variable",
    ),
    pytest.param(
        'log "{held[a].title}"',
        "13:11",
        "`held[a]` may be none (the entries of `held` are declared `Card?`): `.title` of it would fail",
        'if held[a] != none { log "{held[a].title}" }',
        id="none-map-entry",
    ),
]


@pytest.mark.parametrize(("body", "where", "fragment", "fixed"), NONE_CASES)
def test_a_value_that_may_be_none_is_refused_where_a_value_is_needed(tmp_path, snapshot, body, where, fragment, fixed):
    err, text = load_error(tmp_path, NONE_GAME.format(body=body))
    assert text.startswith(f"<file>:{where}: error: "), text
    assert fragment in text, text
    assert "hint: check it first" in text
    assert text == snapshot
    # The hint's fix checks, and the game runs (each decision: its first option).
    game = load_game(write(tmp_path, NONE_GAME.format(body=fixed), "fixed.game"))
    assert game.is_over(game.playout(game.start(players=2, seed=1), lambda n: 0))


def test_narrowing_follows_the_flow(tmp_path):
    """`x == none` with a `return` (or `break`) before, `and`, `else`, `require`, `count(xs) > 0`:
    each leaves the value narrowed (a variable's and a map entry's too); an assignment or a
    procedure call in between does not."""
    ok = """
    if top == none {
        top = 2
    }
    gain_vp(a, top)
    held[a] = coup
    log "{held[a].title}"
    let c = first(discard)
    if c == none {
        game over []
    }
    log "{c.ops != none and c.ops > 1}"
    for d in discard {
        if d.ops == none {
            break
        }
        gain_vp(a, d.ops)
    }
    require last(discard) != none else "empty"
    log "{if count(discard) > 0 then last(discard).ops ?? 0 else 0}"
    """
    game = load_game(write(tmp_path, NONE_GAME.format(body=textwrap.dedent(ok).strip().replace("\n", "\n    "))))
    assert game.is_over(game.start(players=2, seed=1))
    changed = """
    if last(discard) != none {
        discard = []
        log "{last(discard).ops}"
    }
    """
    _, text = load_error(tmp_path, NONE_GAME.format(body=textwrap.dedent(changed).strip().replace("\n", "\n    ")))
    assert "`last(discard)` may be none" in text
    called = """
    if top != none {
        gain_vp(b, 1)
        gain_vp(a, top)
    }
    """
    _, text = load_error(tmp_path, NONE_GAME.format(body=textwrap.dedent(called).strip().replace("\n", "\n    ")))
    assert "`top` may be none (`top` is declared `int?`)" in text  # gain_vp may have set it back to none


def test_a_runtime_type_error_names_no_python_type(tmp_path):
    """`first` of a list the rules work out is trusted where a `T` is needed; if it is none
    when the rule runs, the error is in the language's words (it was `'>=' not supported
    between instances of 'NoneType' and 'int'`)."""
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        procedure play() {
            rule "Play"
            let top = first([x for x in [1, 2] if x > 5])
            if top >= 3 {
                log "high"
            }
            game over []
        }
        """,
    )
    with pytest.raises(GameRuntimeError) as info:
        load_game(path).start(players=2)
    message = info.value.diagnostics[0].message
    assert message.startswith("in play: `>=` cannot compare none with a number"), message
    for python in ("NoneType", "'int'", "TypeError", "tuple", "not supported between instances"):
        assert python not in message, message


def test_what_one_trigger_narrowed_is_not_known_in_the_next(tmp_path):
    """Each trigger, slot and hook of a card starts knowing nothing: a `where` narrows its own
    body only."""
    _, text = load_error(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        entity Card { ops: int? }
        event played(c: Card?)
        card coup {
            ops 3
            when played(c) where c != none {
                log "{c.ops ?? 0}"
            }
            when played(c) {
                log "{c.ops ?? 0}"
            }
        }
        procedure play() {
            rule "Play"
            emit played(coup)
            game over []
        }
        """,
    )
    assert text.startswith("<file>:10:15: error: `c` may be none (event 'played' gives `c` as `Card?`)"), text


def test_a_property_one_component_gives_is_not_none(tmp_path):
    """`ops: int?` is none for The Wall is Down's punctuation cards: `self.ops` of a card that
    writes `ops 2`, and `empire_of_war.ops` of a row whose cell holds 2, are numbers;
    `europe_scoring.ops` (its cell reads "P" as none) may be none."""
    path = write(
        tmp_path,
        """
        include twid

        card velvet "Velvet" : TwidCard {
            number "91"
            epoch pre
            ops 2
            block West
            types [Political]
            subtype none
            removed_after_text true
            text "House card"
            effect {
                rule "House card 91"
                gain_vp(s, empire_of_war.ops + velvet.ops + self.ops)
                gain_vp(s, europe_scoring.ops)
            }
        }
        """,
    )
    with pytest.raises(GameDefError) as info:
        check_program(load_program(path))
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.column) == (15, 20), d
    assert "`europe_scoring.ops` may be none" in d.message


def test_a_default_after_a_value_never_none_is_a_warning(tmp_path):
    path = write(
        tmp_path,
        """
        game t { players 2..2 seats [a, b] }
        var vp: player -> int = 0
        procedure play() {
            rule "Play"
            vp[a] = vp[b] ?? 0
            game over best(players, p => vp[p])
        }
        """,
    )
    (w,) = check_program(load_program(path))
    assert (w.span.line, w.span.column) == (5, 13), w
    assert w.message == "`vp[b]` is int, never none: `?? 0` is never used"


def test_an_optional_choice_may_be_none(tmp_path):
    """`choose ... optional` asks nothing of an empty list and binds none: its local is a `T?`
    after the choice (its label reads each option, never none)."""
    source = """
        game t {{ players 2..2 seats [a, b] }}
        entity Card {{ ops: int }}
        card coup {{ ops 3 }}
        var vp: player -> int = 0
        procedure play() {{
            rule "Play"
            choose c from [x for x in members(Card) if x.ops > 5] by a label "take {{c.ops}}" optional
            {use}
            game over []
        }}
        """
    _, text = load_error(tmp_path, source.format(use="vp[a] = c.ops"))
    assert text.startswith(
        "<file>:8:13: error: `c` may be none (an `optional` choose gives none when its list is empty)"
    ), text
    game = load_game(write(tmp_path, source.format(use="if c != none { vp[a] = c.ops }"), "fixed.game"))
    assert game.var(game.start(players=2), "vp") == {"a": 0, "b": 0}


@pytest.mark.parametrize(("statement", "pins", "fragment"), RUNTIME_CASES)
def test_runtime_error_is_placed_on_its_statement_after_other_blocks_and_branches(tmp_path, statement, pins, fragment):
    """A run of statements' code has lines of its own after the runs compiled before it
    (another procedure's, the run before a decision); each `if`, `elif`, `else`, `while`
    and `for` before the failing statement takes its lines: the error still lands on it."""
    path = write(
        tmp_path,
        f"""
        game t {{ players 2..2 seats [a, b] }}
        var total: int = 0
        procedure warm() {{
            rule "Warm"
            total += 1
            for k in 1..3 {{ total += k }}
        }}
        procedure play() {{
            rule "Play"
            warm()
            choose n from [1, 2] by a
            let xs = [1, 2]
            let y = 1
            if y > 5 {{ log "big" }} elif y > 3 {{ log "mid" }} else {{ log "small" }}
            while total < 20 {{ total += 1 }}
            for x in xs {{ total += x }}
            {statement}
            log "after"
            game over []
        }}
    """,
    )
    game = load_game(path)
    state = game.start(players=2, pins=pins)
    with pytest.raises(GameRuntimeError) as info:
        game.apply(state, "1")
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.column) == (17, 5), rendered(info.value, path)
    assert d.message.startswith("in play: ") and fragment in d.message


def test_a_house_card_that_misses_its_kinds_slot_header_hears_why_once(tmp_path):
    """A card added to The Wall is Down whose `effect` reads `s` where TwidCard's
    `slot effect(s: player, by: player, how: Use)` is not in force (the card names no kind,
    names the wrong kind, or misspells the slot) is one error at the first use of a declared
    parameter, saying why and how to fix it; its other uses of `s`, `by` and `how` are the
    same mistake, and no hint offers the seat `us` for the parameter `s`."""
    path = write(
        tmp_path,
        """
        include twid

        card velvet_a "Velvet A" {
            effect {
                rule "House card A"
                gain_vp(s, 1)
                add_influence(by, czech_republic_slovakia, if how == text_use then 2 else 1)
            }
        }
        card velvet_c "Velvet C" : TwidCard {
            number "90"
            epoch pre
            ops 3
            block West
            subtype none
            types [Political]
            removed_after_text true
            efect {
                rule "House card C"
                gain_vp(s, 1)
                gain_vp(s, 2)
            }
        }
        procedure house_rule() {
            rule "House rule"
            gain_vp(s, 1)
        }
        """,
    )
    with pytest.raises(GameDefError) as info:
        check_program(load_program(path))
    text = rendered(info.value, path)
    assert [(d.span.line, d.span.column) for d in info.value.diagnostics] == [(6, 17), (20, 17), (26, 13)], text
    a, c, proc = info.value.diagnostics
    assert a.message == "unknown name 's': card 'velvet_a' names no kind, so its `effect` has no parameter 's'"
    assert a.hint is not None and 'write `card velvet_a "Velvet A" : TwidCard`' in a.hint
    assert "TwidCard, which declares no `slot efect`" in c.message
    assert c.hint is not None and "write `effect { ... }` here" in c.hint
    assert proc.message == "unknown name 's'" and proc.hint is not None and "(it is a parameter of" in proc.hint
    assert "'us'" not in text


# ---- a test block's mistakes, found by `check` where they are written -----------------------------
SEATS_GAME = """
game t { players 2..4 seats [north, east, south, west] }
option rounds: int = 4 choices 1..8 "rounds"
var score: player -> int = 0
variant long "Long" {
    rule "Variant"
    replace def length() = 2
}
def length() = 1
procedure play() {
    rule "Play"
    choose n from [1, 2] by north label "{n}"
    score[north] += n
    game over [north]
}
"""


def diagnostics(path: Path) -> list:
    """What `check` says of a file: its errors and warnings."""
    try:
        return check_program(load_program(path))
    except GameDefError as err:
        return list(err.diagnostics)


TEST_CASES = [
    ("players 5", "3:5", "test a: t is for 2 to 4 players, not 5", "write `players N`, N from 2 to 4"),
    ("option round = 3", "4:5", "test a: unknown option 'round'", "did you mean 'rounds'?"),
    ("option rounds = 12", "4:21", "test a: option 'rounds' = 12 is not allowed", "choose from 1, 2, 3"),
    ('option rounds = "4"', "4:21", "test a: option 'rounds' is int, not str", None),
    ("variant lon", "4:5", "test a: unknown variant 'lon'", "did you mean 'long'?"),
    ("expect score[north]", "4:12", "`expect` takes a condition (true or false), and `score[north]` is int", None),
    (
        "arrange {\n        score[west] = 3\n    }",
        "5:9",
        "score[west] is written, but west is not in play with 2",
        None,
    ),
    ('expect "1" in offered', "4:19", "unknown name 'offered'", "a test's `offered` is called: `offered()`"),
]


@pytest.mark.parametrize(
    ("item", "where", "message", "hint"),
    TEST_CASES,
    ids=[
        "players",
        "unknown-option",
        "option-value",
        "option-type",
        "unknown-variant",
        "expect-int",
        "seat-not-in-play",
        "offered-not-called",
    ],
)
def test_a_tests_mistake_is_a_check_error_at_its_item(tmp_path, item, where, message, hint):
    """`gamedef test` refuses a test whose player count, options or variants the game does
    not allow, fails an `expect` of a number whatever came, and stops at a write to a seat the
    test's count lacks: `check` says so first, at the line of the item."""
    write(tmp_path, SEATS_GAME, "g.game")
    path = write(
        tmp_path, f'include "g.game"\ntest a "A" {{\n    players 2\n    {item}\n    expect true\n}}\n', "g.test.game"
    )
    if item.startswith("players"):
        path.write_text(path.read_text().replace("    players 2\n", ""))
    diags = diagnostics(path)
    errors = [d for d in diags if d.severity == "error"]
    assert errors, diags
    assert f"{errors[0].span.line}:{errors[0].span.column}" == where, errors
    assert message in errors[0].message, errors
    if hint is not None:
        assert hint in (errors[0].hint or ""), errors


def test_a_test_written_twice_is_a_check_error_at_the_second(tmp_path):
    """Two tests of one name: `gamedef test` refuses the file; `check` says so at the second."""
    write(tmp_path, SEATS_GAME, "g.game")
    one = 'test a "A" {\n    players 2\n    expect true\n}\n'
    path = write(tmp_path, f'include "g.game"\n{one}{one}', "g.test.game")
    errors = [d for d in diagnostics(path) if d.severity == "error"]
    assert [(d.span.line, d.message) for d in errors] == [(6, "test 'a' is written twice")], errors


def test_a_seat_named_through_a_local_is_warned_of(tmp_path):
    """`let w = west` then `score[w] += 1`, and `for q in [north, west]`: the local holds the
    seat constant, which two players lack: the same warning as `score[west] += 1`."""
    path = write(
        tmp_path,
        SEATS_GAME.replace(
            "    score[north] += n\n",
            "    let w = west\n    score[w] += n\n    for q in [north, west] {\n        score[q] += 1\n    }\n",
        ),
    )
    warnings = [d for d in diagnostics(path) if d.severity == "warning" and "not in play" in d.message]
    assert [(d.span.line, "west is not in play with 2 or 3 players" in d.message) for d in warnings] == [
        (13, True),
        (15, True),
    ], warnings


def test_a_runtime_error_in_a_tests_code_names_the_test_block_not_its_internal_name():
    """The code an `arrange` runs is named as the designer wrote it."""
    from interpreter.language.testcode import shown_name

    assert shown_name("__test_0_arrange_3") == "the test's `arrange`"
    assert shown_name("__test_12_run") == "the test's `run`"
    assert shown_name("__test_2_expect_1_left") == "the test's `expect`"
    assert shown_name("turn") == "turn"


def test_the_cards_of_a_kind_no_entity_declares_give_what_they_give(tmp_path):
    """§3.7: a kind no entity declares has the properties its cards give: a card giving two
    is not told the second is no property of the kind its first made."""
    path = write(
        tmp_path,
        """
        game k { players 2..2 seats [a, b] }
        card ruby "Ruby" : Gem { power 1  weight 2 }
        card opal "Opal" : Gem { power 3  weight 4 }
        procedure play() {
            rule "Play"
            choose g from members(Gem) by a label "{g} {g.power} {g.weight}"
            game over []
        }
        """,
    )
    assert diagnostics(path) == []


@pytest.mark.parametrize(
    ("written", "hint"), [("fals", "did you mean `false`?"), ("True", "did you mean `true`?"), ("null", "write `none`")]
)
def test_a_misspelt_truth_or_none_is_hinted_with_the_word(tmp_path, written, hint):
    """`promo fals` is `false` misspelt, not a name of the game that happens to be close."""
    path = write(
        tmp_path,
        "game t { players 2..2 seats [a, b] }\nvar failures: int = 0\nvar flag: bool? = none\n"
        f'procedure play() {{\n    rule "Play"\n    flag = {written}\n    failures += 1\n    game over []\n}}\n',
    )
    errors = [d for d in diagnostics(path) if d.severity == "error"]
    assert [(d.span.line, d.message) for d in errors] == [(6, f"unknown name '{written}'")], errors
    assert hint in (errors[0].hint or ""), errors


MAX_MIN_GAME = """
game t { players 2..2 seats [a, b] }
entity Crop { bonus: int? }
card rye "Rye" : Crop { bonus 2 }
card oat "Oat" : Crop { }
var score: player -> int = 0
procedure play() {
    rule "Play"
    STATEMENT
    game over []
}
"""


@pytest.mark.parametrize(
    ("statement", "column", "fragment", "fixed"),
    [
        (
            "score[a] = max(score[a], oat.bonus)",
            30,
            "`max` of two values compares numbers, but `oat.bonus` may be none",
            "score[a] = max(score[a], oat.bonus ?? 0)",
        ),
        (
            "score[a] = min([c.bonus for c in members(Crop)])",
            20,
            "`min` of a list whose items may be none (`bonus` is declared `int?` in Crop)",
            "score[a] = min([c.bonus ?? 0 for c in members(Crop)])",
        ),
        (
            "score[a] = sum([c.bonus for c in members(Crop)])",
            20,
            "`sum` of a list whose items may be none",
            "score[a] = sum([c.bonus for c in members(Crop) if c.bonus != none])",
        ),
        ("score[a] = max(score[b])", 20, "`max` takes a list of numbers", "score[a] = max([score[b], 1])"),
    ],
    ids=["max-of-two", "min-of-a-list", "sum-of-a-list", "max-of-one-number"],
)
def test_max_min_and_sum_of_values_that_may_be_none_are_refused(tmp_path, statement, column, fragment, fixed):
    """`max(a, b)` with `b: int?`, `min`/`sum` of a list that may hold none, and `max` of one
    number stop the rule when it runs (a run-time error at play): `check` refuses them at the
    value, and the hint's fix checks."""
    path = write(tmp_path, MAX_MIN_GAME.replace("STATEMENT", statement))
    errors = [d for d in diagnostics(path) if d.severity == "error"]
    assert [(d.span.line, d.span.column) for d in errors] == [(8, column)], errors
    assert fragment in errors[0].message, errors
    path = write(tmp_path, MAX_MIN_GAME.replace("STATEMENT", fixed))
    assert [d for d in diagnostics(path) if d.severity == "error"] == []


@pytest.mark.parametrize(
    ("statement", "hint"),
    [
        ('let t = "round " + score[a]', 'build text by interpolation: "... {score[a]}" puts the value in the text'),
        ('log "round " + score[a]', "text is built by interpolation, not `+`: write the value inside the text"),
        ('for p in player {\n        log "{p}"\n    }', "`players` is the list of the seats in play"),
        ('for c in Crop {\n        log "{c}"\n    }', "`members(Crop)` lists its members"),
    ],
    ids=["text-joined-with-plus", "a-log-joined-with-plus", "the-type-player-for-players", "a-kind-for-its-members"],
)
def test_a_type_slip_is_hinted_with_the_designers_fix(tmp_path, statement, hint):
    """Text joined with `+` is built by interpolation; a loop over a type means its members."""
    path = write(tmp_path, MAX_MIN_GAME.replace("STATEMENT", statement))
    errors = [d for d in diagnostics(path) if d.severity == "error"]
    assert len(errors) == 1 and errors[0].span.line == 8, errors
    assert hint in (errors[0].hint or ""), errors


LITERAL_GAME = """
game t { players 2..2 seats [west, east] }
enum Block { West, East }
entity Thing { number: str  flag: bool  size: int  block: Block  bonus: int? }
card a "A" : Thing { PROPS }
var score: player -> int = 0
procedure play() {
    rule "Play"
    score[west] += a.bonus ?? DEFAULT
    game over []
}
"""


@pytest.mark.parametrize(
    ("props", "default", "message", "hint"),
    [
        ("number 91  flag true  size 1  block West", "0", "Thing.number is str, not int", 'a text is in quotes: "91"'),
        ('number "1"  flag "false"  size 1  block West', "0", "Thing.flag is bool, not str", "without quotes: false"),
        ('number "1"  flag true  size "2"  block West', "0", "Thing.size is int, not str", "without quotes: 2"),
        ('number "1"  flag true  size 1  block west', "0", "Thing.block is Block, not player", "did you mean `West`"),
        ('number "1"  flag true  size 1  block West', "east", "the default after `??` of `a.bonus`", "a.bonus ?? 0"),
    ],
    ids=["number-for-text", "text-for-truth", "text-for-number", "seat-for-enum-member", "default-of-another-type"],
)
def test_a_value_written_as_another_type_is_hinted_with_how_to_write_it(tmp_path, props, default, message, hint):
    """A card's `number 91` where the kind says text, `flag "false"`, `block west` (the seat)
    for `West` (the member), and a `??` default of another type: one error each, at the
    value, whose hint writes it right."""
    path = write(tmp_path, LITERAL_GAME.replace("PROPS", props).replace("DEFAULT", default))
    errors = [d for d in diagnostics(path) if d.severity == "error"]
    assert len(errors) == 1 and message in errors[0].message, errors
    assert hint in (errors[0].hint or ""), errors


def test_a_number_in_quotes_assigned_to_a_number_is_hinted_without_quotes(tmp_path):
    """`score[a] += "1"`: the text "1" where a number is held; the hint writes it bare."""
    path = write(tmp_path, MAX_MIN_GAME.replace("STATEMENT", 'score[a] += "1"'))
    errors = [d for d in diagnostics(path) if d.severity == "error"]
    assert [(d.span.line, d.message, d.hint) for d in errors] == [
        (8, "'score' holds int, not str", "write it without quotes: 1")
    ], errors
