"""A fourth round of designers' mistakes, made on a trick-taking game, a variant of Walls
and Wonders and their tests, written from the docs alone: each one `gamedef check` passed
(and play then went wrong or stopped), reported at another line, or reported with a hint
that did not fix it. Each is now refused (or warned of) at its line, first, with a hint
that fixes it; the language server says the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli.commands import main
from interpreter.lsp import analysis as A

TRICKS = """\
game tricks "Three-suit tricks" {
    players 3..4
    seats [north, east, south, west]
}

enum Suit { red "Red", green "Green", blue "Blue" }

entity PlayCard {
    suit: Suit
    rank: int
}
generate PlayCard named "{suit}_{rank}" for suit in members(Suit), rank in 1..8 {
    suit = suit
    rank = rank
}

option tricks_to_play: int = 5 choices 3..6 "tricks in a hand"

var deck: list PlayCard = [] seen by none
var hand: player -> list PlayCard = [] seen by owner
var table_cards: list PlayCard = []
var led: Suit? = none
var won: player -> int = 0
var leader: player? = none

def legal(p: player) = if led == none or count([c for c in hand[p] if c.suit == led]) == 0
    then hand[p] else [c for c in hand[p] if c.suit == led]
def winner_of(order: list player) = first([q for q in order if table_cards[index_of(order, q)].suit == led
    and table_cards[index_of(order, q)].rank == max([c.rank for c in table_cards if c.suit == led])])

view {
    text "Trick on the table: {table_cards}"
    table "Tricks" for p in players for k in ["won"]: won[p]
    text "Your hand: {hand[viewer]}" when viewer != none
}

payoff p from 0 to 6: won[p]

procedure setup() {
    rule "Deal: shuffle the 24 cards and deal each player as many as there are tricks"
    deck = members(PlayCard)
    shuffle deck
    for p in players {
        for k in 1..tricks_to_play {
            hand[p] = append(hand[p], deck[0])
            deck = without(deck, deck[0])
        }
    }
    leader = first(players)
}

procedure play() {
    rule "Play: each trick, the leader plays any card, the others follow suit if able"
    for t in 1..tricks_to_play {
        let order = rotate(players, leader ?? players[0])
        table_cards = []
        led = none
        for p in order {
            choose c from legal(p) by p prompt "{p}: play a card" label "play {c}"
            hand[p] = without(hand[p], c)
            table_cards = append(table_cards, c)
            if led == none {
                led = c.suit
            }
        }
        let w = winner_of(order)
        won[w] += 1
        leader = w
        log "{w} wins trick {t}"
    }
    rule "End: most tricks wins"
    win best(players, p => won[p])
}
"""

TESTS = """\
include "tricks.game"

def pc(s: Suit, r: int) = first([c for c in members(PlayCard) if c.suit == s and c.rank == r])

test highest_of_led_suit_wins "The highest card of the led suit wins the trick" {
    rule "Play: each trick, the leader plays any card, the others follow suit if able"
    players 3
    arrange {
        hand[north] = [pc(red, 5), pc(blue, 2)]
        hand[east] = [pc(red, 1), pc(green, 8)]
        hand[south] = [pc(blue, 7), pc(green, 1)]
        leader = north
    }
    play "play Red_5", "play Red_1", "play Blue_7"
    expect won[north] == 1
    expect logged("north wins trick 1")
}
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEDEF_CACHE", str(tmp_path / "cache"))


def _write(folder: Path, text: str, name: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _line(text: str, words: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if words in line)


def _check(capsys, path: Path) -> tuple[int, str]:
    """`gamedef check PATH --budget 0` (no play): its exit code and what it printed."""
    code = main(["check", str(path), "--budget", "0"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.err


def _first(err: str) -> tuple[int, str, str, str]:
    """The first diagnostic printed: its line, severity, message and hint."""
    m = re.search(r"^\S+?:(\d+):\d+: (error|warning): (.*)$", err, re.M)
    assert m is not None, err
    hint = re.search(r"^\s+hint: (.*)$", err[m.end() :], re.M)
    return int(m.group(1)), m.group(2), m.group(3), hint.group(1) if hint else ""


def _lsp_first(path: Path) -> tuple[int, str]:
    """The language server's first diagnostic of the file, with what compiling adds."""
    analysis = A.analyse(str(path), path.read_text())
    found = [d for d in (*analysis.diagnostics, *A.compile_diagnostics(analysis)) if d.span.path == str(path)]
    assert found, "the language server says nothing"
    first = min(found, key=lambda d: (d.severity != "error", d.span.line))
    return first.span.line, first.message


# (what the designer did, old text, new text, the line's words, severity, message, hint) on TRICKS
GAME_MISTAKES = [
    (
        "a position where the card is meant: without() finds nothing, the same card is dealt to all",
        "deck = without(deck, deck[0])",
        "deck = without(deck, 0)",
        "without(deck, 0)",
        "error",
        "without() of a list of PlayCard takes a PlayCard, not int",
        "name the item itself, not its position",
    ),
    (
        "a whole list appended as one card",
        "append(hand[p], deck[0])",
        "append(hand[p], deck)",
        "append(hand[p], deck)",
        "error",
        "append() of a list of PlayCard takes a PlayCard, not list PlayCard",
        "concat(hand[p], deck)",
    ),
    (
        "a card looked for among seats, always false",
        "if led == none {",
        "if c in players {",
        "if c in players",
        "error",
        "a list of player never holds PlayCard: this `in` is always false",
        "look for a player in it",
    ),
    (
        "a number's starting value written []",
        "var won: player -> int = 0",
        "var won: player -> int = []",
        "var won",
        "error",
        "'won' holds int, its starting value is `[]`, a list",
        "start it at 0",
    ),
    (
        "none for a variable that may not be none",
        "var led: Suit? = none",
        "var led: Suit = none",
        "var led",
        "error",
        "'led' holds Suit, its starting value is none",
        "declare it `Suit?`",
    ),
    (
        "a brace never closed in a text: shown as written, no value put in",
        'log "{w} wins trick {t}"',
        'log "{w} wins trick {t"',
        "wins trick",
        "error",
        "this '{' in a string is never closed",
        "`{VALUE}` puts a value in the text",
    ),
    (
        "an enum member written twice",
        'blue "Blue" }',
        'blue "Blue", red "Red again" }',
        "enum Suit",
        "error",
        "'red' is a member of Suit twice",
        "remove this one",
    ),
    (
        "a generate over a range written downwards: no card at all",
        "rank in 1..8",
        "rank in 8..1",
        "generate PlayCard",
        "error",
        "the range 8..1 is empty: a range counts up from its first number",
        "write `1..8`",
    ),
    (
        "a def named like a built-in: every count(...) of the game would call it",
        "def legal(p: player)",
        "def count(p: player) = won[p]\ndef legal(p: player)",
        "def count",
        "error",
        "'count' is a built-in function, and this declaration takes its place in every rule: the rules call it "
        "as the built-in, at ",
        "'count_of'",
    ),
    (
        "best() given a map, not a score per item",
        "win best(players, p => won[p])",
        "win best(players, won)",
        "win best",
        "error",
        "best() takes a score for each item, written `x => SCORE`, not `won`",
        "best(players, x => won[x])",
    ),
    (
        "play() given a parameter the game never gives",
        "procedure play() {",
        "procedure play(n: int) {",
        "procedure play",
        "error",
        "`play()` cannot take parameters: the game starts it with none to give",
        "remove them",
    ),
    (
        "a view drawing a list as a grid",
        'text "Trick on the table: {table_cards}"',
        "grid table_cards",
        "grid table_cards",
        "error",
        "`grid table_cards` draws a map keyed by a grid's cells, and 'table_cards' is list PlayCard",
        'text "...{table_cards}"',
    ),
    (
        "a status shown when a whole map holds",
        'text "Your hand: {hand[viewer]}" when viewer != none',
        'status "tricks: {won[viewer]}" when won',
        'status "tricks',
        "error",
        "a view item's `when` must be bool, and `won` is a map of int by player",
        "won[viewer] > 0",
    ),
    (
        "a property no card has, and no close name: the hint lists those it has",
        "led = c.suit",
        "led = c.colour",
        "c.colour",
        "error",
        "PlayCard has no property 'colour'",
        "PlayCard's properties: suit, rank",
    ),
    (
        "a number given in quotes to a def",
        "        won[w] += 1\n",
        '        won[w] += bonus("1")\n',
        'bonus("1")',
        "error",
        "argument 1 of function 'bonus' should be int, not str",
        "write it without quotes: 1",
    ),
    (
        "a whole map as one branch of an `if`: play stopped at another line",
        "    then hand[p] else",
        "    then hand else",
        "then hand else",
        "error",
        "`hand` is a map of list PlayCard by player: an `if` gives one value",
        "read one entry, `hand[...]`",
    ),
    (
        "`seen by` a seat",
        "= [] seen by owner",
        "= [] seen by north",
        "seen by north",
        "error",
        "unexpected 'north'",
        "`seen by` takes all, owner or none",
    ),
    (
        "an option's description before its choices",
        '= 5 choices 3..6 "tricks in a hand"',
        '= 5 "tricks in a hand" choices 3..6',
        "option tricks_to_play",
        "error",
        "unexpected 'choices'",
        "the description comes last",
    ),
    (
        "a history only ever appended to from itself",
        "            hand[p] = without(hand[p], c)\n",
        "            hand[p] = without(hand[p], c)\n            history[p] = append(history[p], c)\n",
        "var history",
        "warning",
        "variable 'history' is never read",
        "read it in a rule",
    ),
    (
        "a loop variable named like a seat",
        '        for p in order {\n            choose c from legal(p) by p prompt "{p}: play a card" label "play {c}"\n'
        "            hand[p] = without(hand[p], c)\n",
        '        for north in order {\n            choose c from legal(north) by north prompt "{north}: play a card" '
        'label "play {c}"\n            hand[north] = without(hand[north], c)\n',
        "for north in order",
        "warning",
        "this local 'north' hides the seat north wherever it is in scope",
        "give it a name of its own",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "where", "severity", "message", "hint"),
    [m[1:] for m in GAME_MISTAKES],
    ids=[m[0][:60] for m in GAME_MISTAKES],
)
def test_a_mistake_in_the_game_is_found_first_at_its_line(capsys, tmp_path, old, new, where, severity, message, hint):
    text = _edit(TRICKS, old, new)
    if "bonus" in new:
        text = _edit(text, "def legal(p: player)", "def bonus(n: int) = n + 1\ndef legal(p: player)")
    if "history" in new:
        text = _edit(
            text, "var leader: player? = none", "var leader: player? = none\nvar history: player -> list PlayCard = []"
        )
    path = _write(tmp_path, text, "tricks.game")
    code, err = _check(capsys, path)
    assert code == (2 if severity == "error" else 0), err
    line, said, told, hint_said = _first(err)
    assert (line, said) == (_line(text, where), severity) and told.startswith(message), err
    assert hint in hint_said, err
    lsp_line, lsp_message = _lsp_first(path)
    assert lsp_line == line and lsp_message.startswith(message)


def test_a_def_named_like_a_built_in_and_fitting_its_calls_is_a_warning(capsys, tmp_path):
    """`def abs(n: int)`: the language calls it for every `abs(x)` (a game may mean that),
    so alone it is a warning at the def; where the rules call it as the built-in (above),
    the calls' errors are one error at the def."""
    text = _edit(TRICKS, "def legal(p: player)", "def abs(n: int) = n\ndef legal(p: player)")
    text = _edit(text, "won[w] += 1", "won[w] += abs(1)")
    path = _write(tmp_path, text, "tricks.game")
    code, err = _check(capsys, path)
    line, severity, message, _ = _first(err)
    assert (code, line, severity) == (0, _line(text, "def abs"), "warning"), err
    assert message == "'abs' is a built-in function: a def of that name would take its place in every rule"


def test_an_appended_history_is_unread_unless_a_zone_or_read_elsewhere(capsys, tmp_path):
    """Only updated from itself, a history is never read (a warning); a `zone` (the engine
    keeps each component in one place) or one a view shows is read: no warning."""
    appended = _edit(
        TRICKS,
        "            hand[p] = without(hand[p], c)\n",
        "            hand[p] = without(hand[p], c)\n            history[p] = append(history[p], c)\n",
    )
    for declared, more, warned in (
        ("var history: player -> list PlayCard = []", "", True),
        ("var history: player -> list PlayCard = [] zone", "", False),
        (
            "var history: player -> list PlayCard = []",
            '    text "Played: {history[viewer]}" when viewer != none\n',
            False,
        ),
    ):
        text = _edit(appended, "var leader: player? = none", f"var leader: player? = none\n{declared}")
        text = _edit(text, "view {\n", "view {\n" + more)
        path = _write(tmp_path, text, "tricks.game")
        code, err = _check(capsys, path)
        assert code == 0 and ("variable 'history' is never read" in err) == warned, err


def test_a_header_players_count_is_reported_at_the_count_not_as_no_header(capsys, tmp_path):
    """`players 2` (one number) was reported first as "no `game` header in this file" at
    line 1, then as "unexpected 'seats'": the first message is now the real one, at the
    count, with the range it means; written as the hint says, the file checks."""
    text = _edit(TRICKS, "players 3..4", "players 3")
    path = _write(tmp_path, text, "tricks.game")
    code, err = _check(capsys, path)
    assert code == 2 and "no `game` header" not in err, err
    line, _, message, hint = _first(err)
    assert (line, message) == (2, "`players 3` is one number: `players` takes the range of player counts"), err
    assert "`players 3..3`" in hint
    assert _lsp_first(path) == (2, message)
    path.write_text(_edit(TRICKS, "players 3..4", "players 3..3"))
    code, err = _check(capsys, path)
    assert code == 0 and "warning" not in err, err  # the fixture's one mistake was the count


def test_a_default_out_of_range_is_reported_without_no_header(capsys, tmp_path):
    text = _edit(TRICKS, "players 3..4", "players 3..4 default 5")
    path = _write(tmp_path, text, "tricks.game")
    code, err = _check(capsys, path)
    assert code == 2 and "no `game` header" not in err, err
    assert _first(err)[:3] == (1, "error", "the default of 5 players is outside 3..4"), err


def test_two_labels_without_a_comma_are_told_so(capsys, tmp_path):
    _write(tmp_path, TRICKS, "tricks.game")
    text = _edit(TESTS, 'play "play Red_5", "play Red_1"', 'play "play Red_5" "play Red_1"')
    path = _write(tmp_path, text, "tricks.test.game")
    code, err = _check(capsys, path)
    line, _, message, hint = _first(err)
    assert code == 2 and line == _line(text, 'play "play Red_5"'), err
    assert hint == (
        'a \',\' is missing between "play Red_5" and "play Red_1": write them as a list, `"play Red_5", "play Red_1"`'
    )


# (what the designer did, old text, new text, the line's words, message, hint) on TESTS
TEST_MISTAKES = [
    (
        "dice pinned in a game that rolls none: the test passes whatever they say",
        '    play "play Red_5"',
        '    dice [3]\n    play "play Red_5"',
        "dice [3]",
        "test highest_of_led_suit_wins: dice [3] pins the results of `roll`s, and the game rolls none",
        "remove the `dice` line",
    ),
    (
        "a state file that is not there",
        "    players 3\n",
        '    players 3\n    state "start.toml"\n',
        'state "start.toml"',
        "test highest_of_led_suit_wins: the state file 'start.toml' is not there",
        "as `gamedef run` saves a state",
    ),
    (
        "an arrangement that asks a decision",
        "        leader = north\n",
        '        leader = north\n        choose q from players by north label "{q}"\n',
        "choose q from players",
        "`choose` in an `arrange` asks a decision or ends the game: an arrangement only sets the position",
        "`run { ... }`",
    ),
    (
        "a generated card written by its name",
        "hand[north] = [pc(red, 5), pc(blue, 2)]",
        "hand[north] = [red_5, pc(blue, 2)]",
        "red_5",
        "unknown name 'red_5'",
        "first([c for c in members(PlayCard) if c.PROPERTY == VALUE])",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "where", "message", "hint"), [m[1:] for m in TEST_MISTAKES], ids=[m[0][:60] for m in TEST_MISTAKES]
)
def test_a_mistake_in_a_test_is_found_at_its_line(capsys, tmp_path, old, new, where, message, hint):
    _write(tmp_path, TRICKS, "tricks.game")
    text = _edit(TESTS, old, new)
    path = _write(tmp_path, text, "tricks.test.game")
    code, err = _check(capsys, path)
    assert code == 2, err
    line, severity, said, hint_said = _first(err)
    assert (line, severity, said) == (_line(text, where), "error", message), err
    assert hint in hint_said, err
    assert _lsp_first(path) == (line, message)


def test_the_default_seats_are_not_names_and_the_hint_says_what_is(capsys, tmp_path):
    """A header without `seats` has the seats p1, p2, ...; `hand[p1]` in a test was
    "unknown name 'p1'" with no hint."""
    game = _edit(TRICKS, "    seats [north, east, south, west]\n", "")
    game = game.replace("hand[north]", "hand[p1]")
    _write(tmp_path, game, "tricks.game")
    text = (
        'include "tricks.game"\n\ntest dealt "Five cards each" {\n    rule "Deal"\n    players 3\n'
        "    expect count(hand[p1]) == 5\n}\n"
    )
    path = _write(tmp_path, text, "tricks.test.game")
    code, err = _check(capsys, path)
    line, _, message, hint = _first(err)
    assert (code, line, message) == (2, 6, "unknown name 'p1'"), err
    assert "`members(player)[0]`" in hint
    path.write_text(text.replace("hand[p1]", "hand[members(player)[0]]"))
    assert main(["test", str(path)]) == 0


# ---- variants ---------------------------------------------------------------------------------
BIG_HANDS = """\
include walls_and_wonders

variant big_hands "House rule: bigger starting hands" {
    rule "House rule: each player draws a larger starting hand"
    option hand_size: int = 7 choices 5..9 "cards in the starting hand"
    replace procedure setup() {
        rule "The Game Landscape: each player shuffles his or her own deck"
        for p in players {
            draw_pile[p] = [c for c in members(PlayingCard) if c.owner == p]
            shuffle draw_pile[p]
        }
        starting_draw()
        assign_goals()
        for p in players {
            rule "House rule: the starting hand has hand_size cards"
            for k in 1..hand_size {
                draw(p)
            }
        }
    }
}
"""

VARIANT_MISTAKES = [
    (
        "a variant named like one of the game's: only one could ever be chosen",
        "variant big_hands",
        "variant suit_victory",
        "variant suit_victory",
        "variant 'suit_victory' is declared twice",
        "rename one",
    ),
    (
        "an exclusion of a variant the game does not have",
        "    option hand_size",
        "    excludes [suit_victory, hiden_victory]\n    option hand_size",
        "excludes",
        "variant 'big_hands' excludes unknown variant 'hiden_victory'",
        "did you mean 'hidden_victory'?",
    ),
    (
        "a replaced variable of another type, which the game's rules still count",
        "    option hand_size",
        "    replace var passes: bool = false\n    option hand_size",
        "replace var passes",
        "this `replace` makes 'passes' hold bool, but the rules still use it as before",
        "keep the type the rules use it as",
    ),
    (
        "setup() replaced with a parameter",
        "replace procedure setup() {",
        "replace procedure setup(n: int) {",
        "replace procedure setup",
        "`setup()` cannot take parameters: the game starts it with none to give",
        "count(players)",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "where", "message", "hint"),
    [m[1:] for m in VARIANT_MISTAKES],
    ids=[m[0][:60] for m in VARIANT_MISTAKES],
)
def test_a_mistake_in_a_variant_is_found_at_its_line(capsys, tmp_path, old, new, where, message, hint):
    text = _edit(BIG_HANDS, old, new)
    path = _write(tmp_path, text, "big_hands.game")
    code, err = _check(capsys, path)
    assert code == 2, err
    line, severity, said, hint_said = _first(err)
    assert (line, severity) == (_line(text, where), "error"), err
    assert said.startswith(message), err
    assert hint in hint_said, err
    lsp_line, lsp_message = _lsp_first(path)
    assert lsp_line == line and lsp_message.startswith(message)
    path.write_text(BIG_HANDS)  # the variant as written, before the mistake: it checks
    assert _check(capsys, path)[0] == 0


def test_a_long_file_of_unused_defs_is_told_in_a_bounded_number_of_warnings(capsys, tmp_path):
    """6,000 defs never used were told in 6,000 warnings (24,000 lines): now 20 of each kind
    one by one, then one naming how many more and the first of them."""
    unused = "".join(f"def extra{k}(p: player) = won[p] + {k}\n" for k in range(60))
    text = TRICKS + unused
    path = _write(tmp_path, text, "tricks.game")
    code, err = _check(capsys, path)
    assert code == 0, err
    assert err.count("warning:") == 21, err
    assert f"{path}:{_line(text, 'def extra20(')}:1: warning: 40 more like this: function '...' is never used " in err
    assert "(extra20, extra21, extra22, extra23, extra24, ...)" in err


@pytest.mark.parametrize(
    ("old", "new", "where", "hint"),
    [
        (
            'text "Your hand: {hand[viewer]}" when viewer != none',
            'text "Your hand: {hand[viewer]}" when viewer',
            "Your hand",
            "say what must hold: `viewer != none`",
        ),
        ("from legal(p) by p", "from legal(p) by c", "choose c from", "name the seat: a loop's `p`"),
        (
            "if led == none {",
            "if count(table_cards) {",
            "if count(table_cards)",
            "compare it, `count(table_cards) > 0`",
        ),
        (
            "if led == none {",
            "if table_cards {",
            "if table_cards {",
            "a list is no condition: `count(table_cards) > 0`",
        ),
        (
            "            table_cards = append(table_cards, c)\n",
            "            table_cards = c\n",
            "table_cards = c",
            "a list of one: `[c]`",
        ),
    ],
    ids=[
        "a seat that may be none as a condition",
        "a card choosing",
        "a number as a condition",
        "a list as a condition",
        "one card for a list",
    ],
)
def test_a_value_of_another_type_gets_a_hint_that_fixes_it(capsys, tmp_path, old, new, where, hint):
    """These were reported at their line with no hint at all."""
    text = _edit(TRICKS, old, new)
    path = _write(tmp_path, text, "tricks.game")
    code, err = _check(capsys, path)
    line, severity, _, said = _first(err)
    assert (code, line, severity) == (2, _line(text, where), "error"), err
    assert hint in said, err
