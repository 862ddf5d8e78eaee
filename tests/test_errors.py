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

from interpreter import GameDefError, GameRuntimeError, load_game
from interpreter.check.checker import check_program
from interpreter.cli.commands import main
from interpreter.language.program import load_program

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
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
        "6:1",
        "unexpected end of file",
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
        "this trigger names 2",
        id="arity-trigger-names",
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
]


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
    pytest.param("let i = index_of(xs, 7)", (), "ValueError", id="index-of-absent"),
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
    """A variant chosen by name is an argument, not a line of the file: the message names it."""
    _, text = load_error(
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
    assert text.splitlines() == expected


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"sizee": 4}, ["--option sizee=4: error: unknown option 'sizee'", "    hint: did you mean 'size'?"]),
        ({"size": 5}, ["--option size=5: error: option 'size' = 5 is not allowed", "    hint: choose from 3, 4"]),
    ],
    ids=["option-unknown", "option-bad-value"],
)
def test_an_option_mistake_is_reported_at_the_option_given(tmp_path, options, expected):
    """Options are given to load_game (or on the command line): the message names the one given."""
    _, text = load_error(
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
    assert text.splitlines() == expected


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
