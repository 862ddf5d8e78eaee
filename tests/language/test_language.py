"""The language, end to end: small inline programs parsed, checked, compiled and run.

Each test writes a tiny game, loads it with `load_game` (the real pipeline) and looks at
the variables (`game.var`), the narration (`game.narrate`), the legal moves and the result.
"""

from __future__ import annotations

import textwrap
import tomllib
from pathlib import Path

import pytest
import tomli_w
from checked_code import compiled_with_checker, expression
from repo_paths import ROOT

import interpreter.compile.passes
import interpreter.runtime.machine
from interpreter import GameDefError, GameRuntimeError, load_game
from interpreter.compile.scope import Scope
from interpreter.runtime.saving import load_state, save_state, state_from_dict, state_to_dict

HEADER = "game t { players 2..2 seats [a, b] }\n"


def build(tmp_path: Path, source: str, name: str = "t.game", **kwargs):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return load_game(path, **kwargs)


def program(body: str, decls: str = "") -> str:
    """A game whose `play` runs `body` and ends with no winner."""
    return (
        HEADER
        + textwrap.dedent(decls).strip("\n")
        + '\nprocedure play() {\n    rule "Play"\n'
        + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
        + "\n    game over []\n}\n"
    )


def run(tmp_path: Path, body: str, decls: str = "", seed: int = 1, **kwargs):
    """Load the program and start it (it must ask no decision); returns (game, final state)."""
    game = build(tmp_path, program(body, decls), **kwargs)
    return game, game.start(players=2, seed=seed)


def logged(tmp_path: Path, body: str, decls: str = "") -> list[str]:
    game, state = run(tmp_path, body, decls)
    assert game.is_over(state)
    return game.narrate(state)


# ---- expressions ----------------------------------------------------------------------------------
def test_arithmetic_and_precedence(tmp_path):
    game, state = run(
        tmp_path,
        """
        r = [1 + 2 * 3, (1 + 2) * 3, 10 - 3 - 2, 7 / 2, 7 % 3, -2 * 3, 2 * -3, 100 / 10 / 5, 2 * 3 % 4]
        truths = [1 < 2 and 2 < 3, not 1 == 2, true or false and false, (true or false) and false,
             3 in 1..5, 6 not in 1..5, 1 + 1 == 2, not true or true, 4 >= 4, 3 != 3]
    """,
        decls="""
        var r: list int = []
        var truths: list bool = []
    """,
    )
    assert game.var(state, "r") == (7, 9, 5, 3, 1, -6, -6, 2, 2)
    assert game.var(state, "truths") == (True, True, True, False, True, True, True, True, True, False)


def test_ranges(tmp_path):
    game, state = run(
        tmp_path,
        """
        r = [count(1..6), count(3..2), sum(1 + 1..2 * 2)]
        xs = 0 - 1..1
    """,
        decls="""
        var r: list int = []
        var xs: list int = []
    """,
    )
    assert game.var(state, "r") == (6, 0, 9)  # `..` binds looser than + and *
    assert game.var(state, "xs") == (-1, 0, 1)


def test_comprehensions(tmp_path):
    game, state = run(
        tmp_path,
        """
        squares = [x * x for x in 1..6 if x % 2 == 1]
        sizes = [count([y for y in 1..x]) for x in 1..4]
        pairs = [count([q for q in players if q != p]) for p in players]
        empty = [x for x in 1..5 if x > 5]
    """,
        decls="""
        var squares: list int = []
        var sizes: list int = []
        var pairs: list int = []
        var empty: list int = [7]
    """,
    )
    assert game.var(state, "squares") == (1, 9, 25)
    assert game.var(state, "sizes") == (1, 2, 3, 4)
    assert game.var(state, "pairs") == (1, 1)
    assert game.var(state, "empty") == ()


def test_comprehensions_with_several_for_clauses(tmp_path):
    game = build(
        tmp_path,
        HEADER
        + """
        var pairs: list list int = []
        var kept: list list int = []
        var triples: int = 0
        var counts: list int = []
        var truths: list bool = []
        var seats: list list player = []
        procedure play() {
            rule "Play"
            pairs = [[x, y] for x in 1..3 for y in 1..2]
            kept = [[x, y] for x in 1..4 if x % 2 == 0 for y in x..4 if y != x]
            triples = count([x for x in 1..4 for y in 1..x for z in [y] if x + y + z > 6])
            counts = [count([1 for p in players for q in players if p != q]), count([0 for x in 1..3 for y in []])]
            truths = [any([x * y == 6 for x in 1..3 for y in 1..3]), all([x < y for x in 1..2 for y in 3..4]),
                      any([x == y for x in [1, 2] for y in [3] if x > 5]), all([x != y for x in 1..2 for y in 1..2])]
            seats = [[p, q] for p in players for q in players if p != q]
            game over []
        }
        """,
    )
    state = game.start(players=2)
    assert game.var(state, "pairs") == ((1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2))
    assert game.var(state, "kept") == ((2, 3), (2, 4))
    assert game.var(state, "triples") == 5  # x + 2y > 6: (3, 2), (3, 3), (4, 2), (4, 3), (4, 4)
    assert game.var(state, "counts") == (2, 0)
    assert game.var(state, "truths") == (True, True, False, False)
    assert game.var(state, "seats") == (("a", "b"), ("b", "a"))


def test_a_constant_comprehension_with_several_clauses_is_computed_at_load(tmp_path):
    game = build(
        tmp_path,
        HEADER
        + """
        var n: int = 0
        def pairs() = [[x, y] for x in 1..3 for y in x..3]
        procedure play() {
            rule "Play"
            n = count(pairs())
            game over []
        }
        """,
    )
    compiled, checker = compiled_with_checker(game.compiled.program)  # the compiler's state, kept past the passes
    span = compiled.tables.header.span

    def static(text: str) -> bool:
        return compiled.expressions.static.is_static(expression(checker, text, span, {}), Scope(), set())

    assert static("[[x, y] for x in 1..3 for y in x..3 if x != y]")
    assert static("pairs()")
    assert not static("[[x, y] for x in 1..3 for y in players]")
    assert not static("[[x, y] for x in 1..3 for y in 1..3 if y > n]")
    assert not static("[x for x in players for y in 1..3]")
    assert game.var(game.start(players=2), "n") == 6


def test_every_for_clause_spends_the_step_budget(tmp_path, monkeypatch):
    """The inner clause's list is charged once per item of the outer one: 60 x 60 items
    are past a budget of 5,000 steps, 20 x 20 are not."""
    monkeypatch.setattr(interpreter.runtime.machine, "STEP_LIMIT", 5000)
    source = """
        var n: int = 0
        var size: int = SIZE
        procedure play() {
            rule "Play"
            n = count([1 for x in 1..size for y in 1..size for z in [x]])
            game over []
        }
        """
    game = build(tmp_path, HEADER + source.replace("SIZE", "60"))
    with pytest.raises(GameRuntimeError, match="in play: more than 5,000 steps without a decision"):
        game.start(players=2)
    game = build(tmp_path, HEADER + source.replace("SIZE", "20"))
    assert game.var(game.start(players=2), "n") == 400


@pytest.mark.parametrize(
    "body",
    [
        "n = sum([x for x in l])",  # a comprehension's result, read again whole
        "n = count([y for y in [x for x in l] if y > 0])",  # iterated by another comprehension
        "for y in [x for x in l] { n += 1 }",  # by a `for` statement
        "n = count(concat(l, l))",
        "n = count([1 for x in l for y in [x]])",  # a list written in the rule, per turn
        "n = index_of(l, 60)",
        "n = count([x for x in l if x == 3])",  # counted by Python's tuple.count
    ],
)
def test_lists_made_from_long_lists_still_spend_the_step_budget(tmp_path, monkeypatch, body):
    """A list whose making spent a step per item is not charged again where it is read,
    and a short list fixed by the rule is free, but a loop over them still runs out."""
    monkeypatch.setattr(interpreter.runtime.machine, "STEP_LIMIT", 5000)
    source = f"""
        var n: int = 0
        var size: int = 60
        procedure play() {{
            rule "Play"
            let l = 1..size
            let i = 0
            while i < 200 {{
                {body}
                i += 1
            }}
            game over []
        }}
        """
    game = build(tmp_path, HEADER + source)
    with pytest.raises(GameRuntimeError, match="in play: more than 5,000 steps without a decision"):
        game.start(players=2)


def test_if_expressions(tmp_path):
    game, state = run(
        tmp_path,
        """
        r = [if 1 > 2 then 10 else 20, if false then 1 else if true then 2 else 3,
             if count(players) == 2 then 5 else 6]
        s = if 2 > 1 then "yes" else "no"
    """,
        decls="""
        var r: list int = []
        var s: str = ""
    """,
    )
    assert game.var(state, "r") == (20, 2, 5)
    assert game.var(state, "s") == "yes"


def test_a_list_literal_joins_the_types_of_its_items(tmp_path):
    game = build(
        tmp_path,
        HEADER
        + """
        entity Army { n: int }
        card army_a "Army A" : Army { n 1 }
        card army_b "Army B" : Army { n 2 }
        var at_most_one: Army? = army_b
        var got: list Army? = []
        var nested: list list Army? = []
        procedure play() {
            rule "Play"
            let xs = [none, army_a]
            xs = [none]
            let ys = [army_a, at_most_one]
            ys = [none, none]
            let zs = [[none], [army_a]]
            zs = [[none, none]]
            let w = if true then army_a else at_most_one
            w = none
            got = concat(xs, ys)
            nested = [[army_b], [none]]
            choose c from [none, army_a] by a label if c == none then "nothing" else "{c}"
            got = append(got, c)
            game over []
        }
        """,
    )
    state = game.start(players=2)
    assert game.labels(state) == ["nothing", "Army A"]
    state = game.apply(state, "Army A")
    assert game.var(state, "got") == (None, None, None, "army_a")
    assert game.var(state, "nested") == (("army_b",), (None,))


@pytest.mark.parametrize(
    ("statements", "message"),
    [
        ("let xs = [none, army_a]\n    xs = [1]", "'xs' holds list Army?, not list int"),
        ("let xs = [army_a, at_most_one]\n    xs = 3", "'xs' holds list Army?, not int"),
        ("let xs = [[none], [army_a]]\n    xs = [3]", "'xs' holds list list Army?, not list int"),
        ("let xs = [army_a, army_b]\n    xs = [none]", "'xs' holds list Army, not list none"),
        ("let x = if true then none else army_a\n    x = 2", "'x' holds Army?, not int"),
        ("let x = if true then army_a else at_most_one\n    x = 2", "'x' holds Army?, not int"),
        ("let xs = [[], [army_a]]\n    xs = [1]", "'xs' holds list list Army, not list int"),
        ("let xs = concat([army_a], [none])\n    xs = [1]", "'xs' holds list Army?, not list int"),
        ("let xs = append([army_a], none)\n    xs = [1]", "'xs' holds list Army?, not list int"),
        ("let xs = [army_a] + [none]\n    xs = 3", "'xs' holds list Army?, not int"),
    ],
)
def test_the_joined_type_is_the_one_checked(tmp_path, statements, message):
    with pytest.raises(GameDefError, match=message.replace("?", "\\?")):
        build(
            tmp_path,
            HEADER
            + f"""
entity Army {{ n: int }}
card army_a "Army A" : Army {{ n 1 }}
card army_b "Army B" : Army {{ n 2 }}
var at_most_one: Army? = none
procedure play() {{
    rule "Play"
    {statements}
    game over []
}}
""",
        )


def test_lambdas_with_best(tmp_path):
    game, state = run(
        tmp_path,
        """
        top = best([3, 1, 3, 2], x => x)
        low = best([3, 1, 3, 2], x => 0 - x)
        none_of = best([], x => x)
        seats = best(players, p => if p == b then 1 else 0)
        tied = best(players, p => 0)
    """,
        decls="""
        var top: list int = []
        var low: list int = []
        var none_of: list int = [9]
        var seats: list player = []
        var tied: list player = []
    """,
    )
    assert game.var(state, "top") == (3, 3)
    assert game.var(state, "low") == (1,)
    assert game.var(state, "none_of") == ()
    assert game.var(state, "seats") == ("b",)
    assert game.var(state, "tied") == ("a", "b")


def test_a_def_whose_body_is_a_constant_gives_it_for_any_arguments(tmp_path):
    """A rule hook a variant may replace (`def end_ok(c: Cell) = true`): the constant,
    whatever it is asked of, in a test of a search's walk ends too."""
    assert logged(
        tmp_path,
        """
        log "{flag(a, 5)} {zero(b)} {count([q for q in players if flag(q, 1)])} {nothing(a)}"
        log "{path_steps(a1, 2, [], c => end_ok(c))} {path_steps(a1, 2, [], c => not end_ok(c))}"
        """,
        decls="""
        grid Cell 3 by 1
        def flag(p: player, n: int) = true
        def zero(p: player) = 0
        def nothing(p: player) = none
        def end_ok(c: Cell) = true
        """,
    ) == ["yes 0 2 none", "b1 nothing"]


def test_string_interpolation(tmp_path):
    lines = logged(
        tmp_path,
        r"""
        let n = 3
        log "{a} has {n} points, {n * 2} doubled"
        log "{true} {false} {none} {[1, 2]} {[]} {hearts} {big_joker} {members(Suit)}"
        log "braces: \{n\} {{n}} quote: \" done"
        log "{str(n)}! {count(players)}"
    """,
        decls="""
        enum Suit { hearts "Hearts", spades, big_joker }
    """,
    )
    assert lines == [
        "a has 3 points, 6 doubled",
        "yes no none 1, 2 nothing Hearts big joker Hearts, spades, big joker",
        'braces: {n} {n} quote: " done',
        "3! 2",
    ]


# ---- statements -----------------------------------------------------------------------------------
def test_for_while_break(tmp_path):
    game, state = run(
        tmp_path,
        """
        for i in 1..10 {
            if i == 4 {
                break
            }
            seen = append(seen, i)
        }
        let k = 0
        while true {
            k += 1
            if k > 2 {
                break
            }
            seen = append(seen, 10 * k)
        }
        for i in 1..2 {
            for j in 1..5 {
                if j > i {
                    break
                }
                seen = append(seen, 100 * i + j)
            }
        }
        let n = 3
        while n > 0 {
            n -= 1
        }
        seen = append(seen, n)
    """,
        decls="""
        var seen: list int = []
    """,
    )
    assert game.var(state, "seen") == (1, 2, 3, 10, 20, 101, 201, 202, 0)


def test_elif_else_and_return(tmp_path):
    game, state = run(
        tmp_path,
        """
        for i in 1..4 {
            classify(i)
        }
    """,
        decls="""
        var seen: list str = []
        procedure classify(i: int) {
            rule "Classify"
            if i == 1 {
                seen = append(seen, "one")
            } elif i == 2 {
                seen = append(seen, "two")
            } else {
                if i == 4 {
                    return
                }
                seen = append(seen, "many")
            }
            seen = append(seen, "after {i}")
        }
    """,
    )
    assert game.var(state, "seen") == ("one", "after 1", "two", "after 2", "many", "after 3")


def test_choose_default_labels_label_and_duplicates(tmp_path):
    game = build(
        tmp_path,
        program(
            """
        choose s from members(Suit) by a prompt "pick a suit"
        choose n from [3, 1, 3, 3] by b label "take {n}"
        picked = [s == spades, n == 3]
    """,
            decls="""
        enum Suit { hearts "Hearts ♥", spades }
        var picked: list bool = []
    """,
        ),
    )
    state = game.start(players=2)
    assert game.current_player(state) == "a"
    assert game.prompt(state) == "pick a suit"
    assert game.labels(state) == ["Hearts ♥", "spades"]
    state = game.apply(state, "spades")
    assert game.current_player(state) == "b"
    assert game.labels(state) == ["take 3", "take 1", "take 3 (2)", "take 3 (3)"]
    assert [str(m) for m in game.legal_moves(state)][:2] == ["b: take 3", "b: take 1"]
    state = game.apply(state, "take 3 (3)")
    assert game.is_over(state)
    assert game.var(state, "picked") == (True, True)


def test_choose_optional_with_no_options_binds_none(tmp_path):
    game, state = run(
        tmp_path,
        """
        choose x from [y for y in 1..3 if y > 5] by a optional
        got = x == none
    """,
        decls="""
        var got: bool = false
    """,
    )
    assert game.var(state, "got") is True


def test_choose_with_no_options_is_a_runtime_error(tmp_path):
    game = build(
        tmp_path,
        program("""
        choose x from [y for y in 1..3 if y > 5] by a
    """),
    )
    with pytest.raises(GameRuntimeError, match="no options"):
        game.start(players=2)


def test_an_error_after_an_if_points_at_its_own_statement(tmp_path):
    """The branch's jump to the statement after the `if` is replaced by that statement's
    step (interpreter/compile/statements.py, `_thread_jumps`): the error still names its line."""
    game = build(
        tmp_path,
        program(
            """
        if total > 5 {
            total = 2
        } else {
            total = 3
        }
        choose x from [y for y in 1..3 if y > 5] by a
    """,
            decls="var total: int = 6",
        ),
    )
    with pytest.raises(GameRuntimeError, match="no options") as info:
        game.start(players=2)
    (d,) = info.value.diagnostics
    assert d.span.line == 10, d  # the `choose`, not the `if` (line 4)


def test_steps_that_only_jump_are_replaced_by_where_they_lead(tmp_path):
    game = build(
        tmp_path,
        program(
            """
        while true {
            for i in 1..3 {
                if i == 2 {
                    total += i
                } else {
                    total -= 1
                }
            }
            choose x from [1, 2] by a
            if x == 2 {
                break
            }
        }
    """,
            decls="var total: int = 0",
        ),
    )
    play = game.compiled.procs["play"]
    assert not [op for op in play.ops if hasattr(op, "jump")]
    state = game.apply_index(game.apply_index(game.start(players=2), 0), 1)
    assert game.var(state, "total") == 0 and state.result == ()


def test_may_offers_the_text_and_pass(tmp_path):
    game = build(
        tmp_path,
        program(
            """
        for p in players {
            may p "draw {p}" {
                drew = append(drew, p)
            } else {
                log "{p} passes"
            }
        }
    """,
            decls="""
        var drew: list player = []
    """,
        ),
    )
    state = game.start(players=2)
    assert game.labels(state) == ["draw a", "pass"]
    state = game.apply(state, "draw a")
    assert game.labels(state) == ["draw b", "pass"]
    state = game.apply(state, "pass")
    assert game.is_over(state)
    assert game.var(state, "drew") == ("a",)
    assert game.narrate(state) == ["b passes"]


def test_roll_takes_pinned_results(tmp_path):
    source = program(
        """
        roll x from 1..6
        roll s from members(Suit)
        roll y from 1..6
        rolled = [x, y]
        suit = s
    """,
        decls="""
        enum Suit { hearts, spades }
        var rolled: list int = []
        var suit: Suit = hearts
    """,
    )
    game = build(tmp_path, source)
    state = game.start(players=2, pins=(4, "spades", 6))
    assert game.var(state, "rolled") == (4, 6)
    assert game.var(state, "suit") == "spades"
    # Unpinned rolls come from the seeded generator: the same seed, the same dice.
    assert game.start(players=2, seed=9).vars == game.start(players=2, seed=9).vars
    with pytest.raises(GameRuntimeError, match="pinned result 7"):
        game.start(players=2, pins=(7,))


def test_a_shuffle_is_one_draw_per_position_from_the_last():
    """`rng.shuffled` is Fisher-Yates with `next_below(i + 1)` for each position i from
    the last down, written out in one loop: the same draws, so the same orders."""
    from interpreter.core import rng

    for seed in range(50):
        state, items = rng.seed_state(seed), list(range(seed % 13))
        for i in range(len(items) - 1, 0, -1):
            state, j = rng.next_below(state, i + 1)
            items[i], items[j] = items[j], items[i]
        assert rng.shuffled(rng.seed_state(seed), tuple(range(seed % 13))) == (state, tuple(items))


def test_shuffle_is_determined_by_the_seed(tmp_path):
    game = build(
        tmp_path,
        program(
            """
        shuffle deck
    """,
            decls="""
        var deck: list int = 1..20
    """,
        ),
    )
    orders = [game.var(game.start(players=2, seed=seed), "deck") for seed in range(6)]
    assert all(sorted(o) == list(range(1, 21)) for o in orders)
    assert game.var(game.start(players=2, seed=3), "deck") == orders[3]
    assert len(set(orders)) > 1
    assert any(o != tuple(range(1, 21)) for o in orders)


def test_emit_runs_handlers_in_declaration_order_where_they_hold(tmp_path):
    game, state = run(
        tmp_path,
        """
        emit scored(a, 3)
        trace = append(trace, "after 3")
        emit scored(b, 7)
        trace = append(trace, "after 7")
    """,
        decls="""
        event scored(p: player, n: int)
        var trace: list str = []
        when scored(p, n) {
            rule "First"
            trace = append(trace, "first {p} {n}")
        }
        when scored(p, n) where n > 5 {
            rule "Big scores"
            trace = append(trace, "big {n}")
        }
        when scored(who, points) where who == a {
            rule "A's scores"
            trace = append(trace, "a scored {points}")
        }
        when scored(p, n) {
            rule "Last"
            trace = append(trace, "last")
        }
    """,
    )
    assert game.var(state, "trace") == (
        "first a 3",
        "a scored 3",
        "last",
        "after 3",
        "first b 7",
        "big 7",
        "last",
        "after 7",
    )


def test_where_conditions_are_evaluated_before_the_first_handler_runs(tmp_path):
    game, state = run(
        tmp_path,
        """
        emit ping()
    """,
        decls="""
        event ping()
        var flag: bool = false
        var trace: list str = []
        when ping() {
            rule "Set"
            flag = true
        }
        when ping() where flag {
            rule "Only if set before"
            trace = append(trace, "saw flag")
        }
    """,
    )
    assert game.var(state, "flag") is True
    assert game.var(state, "trace") == ()


def test_handler_may_ask_for_a_decision_before_emit_returns(tmp_path):
    game = build(
        tmp_path,
        program(
            """
        emit ping(a)
        trace = append(trace, "after")
    """,
            decls="""
        event ping(p: player)
        var trace: list str = []
        when ping(p) {
            rule "Answer"
            choose n from [1, 2] by p
            trace = append(trace, "chose {n}")
        }
    """,
        ),
    )
    state = game.start(players=2)
    assert game.labels(state) == ["1", "2"]
    state = game.apply(state, "2")
    assert game.var(state, "trace") == ("chose 2", "after")


def test_card_triggers_bind_self(tmp_path):
    game, state = run(
        tmp_path,
        """
        for c in members(Spell) {
            emit played(a, c)
        }
    """,
        decls="""
        entity Spell {
            power: int
        }
        event played(p: player, c: Spell)
        var total: int = 0
        card fireball "Fireball" : Spell {
            power 3
            text "Deal 3."
            when played(p, c) where c == self {
                log "{p} casts {self}: {self.text} ({self.power})"
                total += self.power
            }
        }
        card frost : Spell {
            power 1
            when played(p, c) where c == self {
                total -= self.power * 10
            }
        }
    """,
    )
    assert game.var(state, "total") == 3 - 10
    assert game.narrate(state) == ["a casts Fireball: Deal 3. (3)"]


def test_perform_runs_a_card_slot_with_self(tmp_path):
    # Was a known gap (docs 5.10) until the grammar read `perform postfix(args)`.
    game, state = run(
        tmp_path,
        """
        perform fireball.cast()
        for c in members(Spell) {
            perform c.cast()
        }
    """,
        decls="""
        entity Spell {
            power: int
        }
        var total: int = 0
        card fireball "Fireball" : Spell {
            power 3
            cast {
                log "{self} deals {self.power}"
                total += self.power
            }
        }
        card dud : Spell {
            power 1
        }
    """,
    )
    assert game.var(state, "total") == 6
    assert game.narrate(state) == ["Fireball deals 3", "Fireball deals 3"]


def test_log_to_a_player_is_seen_only_by_that_player(tmp_path):
    game, state = run(
        tmp_path,
        """
        log "everyone sees this"
        log to a "only a sees {count(players)}"
        log to b "only b"
    """,
    )
    assert game.narrate(state, "a") == ["everyone sees this", "only a sees 2"]
    assert game.narrate(state, "b") == ["everyone sees this", "only b"]
    assert game.narrate(state) == ["everyone sees this", "only a sees 2", "only b"]
    assert game.observation(state, "a")["log"] == ["everyone sees this", "only a sees 2"]


def test_a_win_inside_a_loop_ends_the_game_there(tmp_path):
    """`win` in a loop of simple statements (one native step, interpreter/compile/blocks.py)
    ends the run at once: nothing after it runs, in the loop or after it."""
    game, state = run(
        tmp_path,
        """
        for p in players {
            log "{p} checks"
            if p == b {
                win p
            }
            log "{p} goes on"
        }
        log "never"
        """,
    )
    assert game.result(state) == ("b",)
    assert game.narrate(state) == ["a checks", "a goes on", "b checks"]


def test_first_and_last_of_a_list_or_nothing(tmp_path):
    assert logged(
        tmp_path,
        """
        let xs = [3, 1, 2]
        let none_yet = [x for x in xs if x > 5]
        log "{first(xs)} {last(xs)} {first(none_yet)} {last(none_yet)} {first([[1, 2]])} {last([0])}"
        """,
    ) == ["3 2 none none 1, 2 0"]


@pytest.mark.parametrize(
    ("ending", "result"),
    [
        ("win a", ("a",)),
        ("win [b, a]", ("b", "a")),
        ("game over []", ()),
        ("game over [b]", ("b",)),
        ("game over best(players, p => if p == a then 2 else 1)", ("a",)),
    ],
)
def test_win_and_game_over(tmp_path, ending, result):
    game = build(
        tmp_path,
        HEADER
        + f"""
        procedure play() {{
            rule "Play"
            {ending}
            log "never"
        }}
    """,
    )
    state = game.start(players=2)
    assert game.is_over(state)
    assert game.result(state) == result
    assert game.legal_moves(state) == []
    assert "never" not in game.narrate(state)


# ---- variants and options -------------------------------------------------------------------------
VARIANTS = (
    HEADER
    + """
event stepped()
var trace: list str = []
var unused: int = 0
def bonus() = 1
procedure step() {
    rule "Step"
    trace = append(trace, "base step")
    emit stepped()
}
procedure play() {
    rule "Play"
    step()
    trace = append(trace, "bonus {bonus()}")
    game over []
}
variant double "Double bonus" {
    rule "Variant: double"
    replace def bonus() = 2
}
variant triple "Triple bonus" {
    rule "Variant: triple"
    replace def bonus() = 3
}
variant quiet "Quiet step" {
    rule "Variant: quiet"
    replace procedure step() {
        rule "Quiet step"
        trace = append(trace, "quiet step")
    }
    remove var unused
}
variant hooked "Hooked" {
    rule "Variant: hook"
    var hooks: int = 0
    when stepped() {
        rule "Variant: hook on every step"
        hooks += 1
        trace = append(trace, "hook {hooks}")
    }
}
variant loud "Loud" {
    rule "Variant: loud"
    excludes [quiet]
}
"""
)


@pytest.mark.parametrize(
    ("variants", "trace"),
    [
        ((), ("base step", "bonus 1")),
        (("double",), ("base step", "bonus 2")),
        (("double", "triple"), ("base step", "bonus 3")),
        (("triple", "double"), ("base step", "bonus 2")),
        (("quiet",), ("quiet step", "bonus 1")),
        (("hooked",), ("base step", "hook 1", "bonus 1")),
        (("hooked", "quiet"), ("quiet step", "bonus 1")),
        (("quiet", "hooked", "double"), ("quiet step", "bonus 2")),
        (("loud", "double"), ("base step", "bonus 2")),
    ],
)
def test_variants_overlay_in_order(tmp_path, variants, trace):
    game = build(tmp_path, VARIANTS, variants=list(variants))
    state = game.start(players=2)
    assert game.var(state, "trace") == trace
    assert game.variants == tuple(variants)
    assert ("unused" in game.compiled.vars) == ("quiet" not in variants)
    assert ("hooks" in game.compiled.vars) == ("hooked" in variants)


@pytest.mark.parametrize("variants", [["quiet", "loud"], ["loud", "quiet"]])
def test_variant_excludes(tmp_path, variants):
    with pytest.raises(GameDefError, match="cannot be combined"):
        build(tmp_path, VARIANTS, variants=variants)


def test_variants_change_the_rules_hash(tmp_path):
    base = build(tmp_path, VARIANTS)
    double = build(tmp_path, VARIANTS, variants=["double"])
    assert base.rules_hash != double.rules_hash
    assert build(tmp_path, VARIANTS).rules_hash == base.rules_hash


OPTIONS = (
    HEADER
    + """
option size: int = 3 choices [2, 3, 4] "board size"
option fast: bool = false "skip the long part"
grid Cell size by size
var n: int = size
var cells: int = 0
procedure play() {
    rule "Play"
    cells = count(members(Cell))
    if fast {
        log "fast"
    }
    game over []
}
"""
)


@pytest.mark.parametrize(
    ("options", "n", "lines"),
    [
        ({}, 3, []),
        ({"size": 4}, 4, []),
        ({"size": 2, "fast": True}, 2, ["fast"]),
    ],
)
def test_options_with_choices(tmp_path, options, n, lines):
    game = build(tmp_path, OPTIONS, options=options)
    state = game.start(players=2)
    assert game.var(state, "n") == n
    assert game.var(state, "cells") == n * n
    assert game.narrate(state) == lines


def test_option_outside_its_choices_is_refused(tmp_path):
    with pytest.raises(GameDefError) as info:
        build(tmp_path, OPTIONS, options={"size": 5})
    (d,) = info.value.diagnostics
    assert d.message == "option 'size' = 5 is not allowed"
    assert d.hint == "choose from 2, 3, 4"


# ---- grids and graphs -----------------------------------------------------------------------------
GRID = (
    HEADER
    + """
grid Cell 3 by 3
grid_placeholder
procedure play() {
    rule "Play"
    let a1 = cell_at(Cell, 1, 1)
    let b1 = cell_at(Cell, 2, 1)
    let b2 = cell_at(Cell, 2, 2)
    let c2 = cell_at(Cell, 3, 2)
    BODY
    game over []
}
"""
)


def grid_log(tmp_path, *lines: str) -> list[str]:
    body = "\n    ".join(f'log "{line}"' for line in lines)
    game = build(tmp_path, GRID.replace("grid_placeholder\n", "").replace("BODY", body))
    return game.narrate(game.start(players=2))


def test_grid_cells_and_coordinates(tmp_path):
    assert grid_log(
        tmp_path,
        "{members(Cell)}",
        "{column(c2)} {row(c2)} {cell_at(Cell, 2, 3)} {cell_at(Cell, 4, 1)}",
        "{neighbour(a1, right)} {neighbour(a1, down)} {neighbour(a1, up)} {neighbour(a1, left)}",
        "{neighbours(b2)} / {neighbours(a1)}",
        "{adjacent(a1, b1)} {adjacent(a1, b2)} {opposite(up)} {opposite(left)}",
    ) == [
        "a1, b1, c1, a2, b2, c2, a3, b3, c3",
        "3 2 b3 none",
        "b1 a2 none none",
        "b1, b3, a2, c2 / a2, b1",
        "yes no down right",
    ]


def test_path_steps_exact_length_and_self_avoiding(tmp_path):
    assert grid_log(
        tmp_path,
        "{path_steps(a1, 1)} / {path_steps(a1, 2)}",
        # A walk of 8 steps from the centre visits every cell (it exists in every direction),
        # from a corner too; from an edge cell it cannot (the colouring of the 3x3 board).
        "{path_steps(b2, 8)} / {path_steps(a1, 8)} / {path_steps(b1, 8)}",
        "{path_steps(a1, 9)} / {path_steps(a1, 0)}",
        # `avoid` and the end condition.
        "{path_steps(a1, 2, [b1])} / {path_steps(a1, 2, [], x => x == b2)}",
    ) == [
        "a2, b1 / a2, b1",
        "b1, b3, a2, c2 / a2, b1 / nothing",
        "nothing / nothing",
        "a2 / a2, b1",
    ]


def test_counting_the_items_equal_to_a_value(tmp_path):
    assert logged(
        tmp_path,
        """
        let l = [1, 3, 3, 5, 3]
        let k = 3
        log "{count([y for y in l if y == k])} {count([y for y in l if 5 == y])} {count([y for y in [] if y == 1])}"
        log "{count([y for y in l if y == y])} {count([y for y in l if y == k + 2])}"
        log "{count([y for y in 1..4 if y == 2])}"
        """,
    ) == ["3 1 0", "5 1", "1"]


def test_whether_a_filtered_list_has_an_item_is_the_same_answer_as_counting_them(tmp_path):
    """`count(evens(l)) > 0`, its function a comprehension of the items (from one list or
    several), stops at the first."""
    assert logged(
        tmp_path,
        """
        let l = [1, 3, 4, 5]
        log "{count(evens(l)) > 0} {count(evens([1, 3])) > 0} {count(evens(l)) == 0} {count(evens([])) == 0}"
        log "{count(evens(l)) >= 1} {count(evens(l)) < 1} {count(evens([5])) <= 0} {count(evens(l)) != 0}"
        log "{count(evens(l))} {count(evens(l)) > 1} {count(big(l, 3)) > 0} {count(big(l, 5)) > 0}"
        let g = [[1, 3], [4, 0], [5]]
        log "{count(tenths(g, 3)) > 0} {count(tenths([[1], [2]], 3)) == 0} {count(tenths(g, 99)) > 0}"
        """,
        decls="""
        def evens(xs: list int) = [x for x in xs if x % 2 == 0]
        def big(xs: list int, n: int) = [x for x in xs if x > n]
        # Items from two lists: the answer is known at 4, before 10 / 0 is computed;
        # asking past it would divide by zero.
        def tenths(g: list list int, n: int) = [y for r in g for y in r if 10 / y < n]
        """,
    ) == ["yes no no yes", "yes no yes yes", "1 no yes no", "yes yes yes"]


def test_any_all_and_count_of_comprehensions_run_as_loops(tmp_path):
    """`any`, `all` and `count` of a comprehension become plain loops (a function of
    their own, an inner one over one list written in place); the answers are Python's."""
    texts = logged(
        tmp_path,
        """
        let g = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
        log "{any([all([x > 3 for x in row]) for row in g])} {all([any([x == 5 for x in row]) for row in g])}"
        log "{count([x for r in g for x in r if x % 2 == 0])} {count([r for r in g if any([x > 7 for x in r])])}"
        log "{[r for r in 1..3 if any([x == r + 3 for x in g[r - 1]])]} {any([true for x in []])}"
        log "{all([false for x in []])} {sum([x * 2 for r in g for x in r if x > 4])} {sum([x for x in []])}"
        let name = "v"
        log "{[k for k in 1..3 if count([x for x in g[k - 1] if x > k * 2]) > 0]} {has(g, name)}"
        let w1 = ["a if b", "x"]
        let w2 = ["x", "for ]) y"]
        log "{count(odd_words(w1)) > 0} {count(odd_words(w2)) > 0} {count(odd_words([])) > 0}"
        """,
        decls="""
        def has(g: list list int, name: str) = any([all([x > 0 and name != "_v1 in" for x in row]) for row in g])
        def odd_words(ws: list str) = [w for w in ws if w != "x" and w != " if ])" and w != "y for x in"]
        """,
    )
    assert texts == ["yes no", "4 1", "2 no", "yes 70 0", "1, 2, 3 yes", "yes yes no"]


def test_any_all_and_first_of_a_comprehension_compute_no_item_past_their_answer(tmp_path):
    """docs/language.md §7: the items after the answer are never computed; here the
    next item would divide by zero."""
    assert logged(
        tmp_path,
        """
        let xs = [1, 0, 2]
        log "{first([x for x in xs if 10 / x > 1])} {first([x for x in xs if x > 5])} {first([x * 3 for x in xs])}"
        log "{any([10 / x > 1 for x in xs])} {all([10 / x > 20 for x in xs])}"
        """,
    ) == ["1 none 3", "yes no"]


def test_a_read_the_same_on_every_turn_of_a_loop_fails_only_where_the_rule_reads_it(tmp_path):
    """A loop's reads that don't depend on its item (`chips[who]`) are made once, before
    it (interpreter/compile/lazy.py, `_hoisted`); one that fails there (who is none)
    fails only if the loop reaches it, and then where the rule reads it."""
    decls = """
        enum Suit { red, blue, green, white, black, gold, silver, grey }
        var chips: player -> Suit -> int = 1
        def held(who: player?, xs: list Suit) = any([chips[who][x] > 1 for x in xs])
        def guarded(who: player?, xs: list Suit) = any([who != none and chips[who][x] > 0 for x in xs])
        def rich(who: player?) = [x for x in members(Suit) if who != none and chips[who][x] > 1]
        """
    body = """
        chips[b][green] = 3
        let nobody = if count(players) > 5 then a else none
        log "{held(a, members(Suit))} {held(b, members(Suit))} {held(nobody, [])}"
        log "{guarded(nobody, members(Suit))} {guarded(b, [blue])} {rich(a)} {rich(b)} {rich(nobody)}"
        """
    assert logged(tmp_path, body, decls) == ["no yes no", "no yes nothing green nothing"]
    game = build(tmp_path, program(body + 'log "{held(nobody, [red])}"', decls))
    with pytest.raises(GameRuntimeError, match="a value is none where a component") as err:
        game.start(players=2)
    assert err.value.diagnostics[0].span.line == 13  # the third log of `play`
    assert "_list" in repr(game.compiled.ns.keys())  # `rich`, a function reading chips[who] once


def test_loops_of_any_and_all_spend_the_step_budget_as_comprehensions_do(tmp_path, monkeypatch):
    """The list of a loop written for `any` spends a step per item where it starts, as
    `charge` does: 100 turns of a search over 60 x 60 items are past 5,000 steps."""
    monkeypatch.setattr(interpreter.runtime.machine, "STEP_LIMIT", 5000)
    source = """
        var n: int = 0
        var size: int = SIZE
        procedure play() {
            rule "Play"
            let l = 1..size
            let i = 0
            while i < 100 {
                if any([all([y != x * 1000 for y in l]) and x < 0 for x in l]) {
                    n += 1
                }
                i += 1
            }
            game over []
        }
        """
    game = build(tmp_path, HEADER + source.replace("SIZE", "60"))
    with pytest.raises(GameRuntimeError, match="in play: more than 5,000 steps without a decision"):
        game.start(players=2)
    game = build(tmp_path, HEADER + source.replace("SIZE", "5"))
    assert game.var(game.start(players=2), "n") == 0


def test_a_computed_argument_a_def_reads_again_is_computed_once(tmp_path, monkeypatch):
    """An inlined def reading its parameter three times gets a computed argument once (as
    a def's arguments are), not once per reading: ten calls over a list of 40 made from a
    range fit in 1,800 steps only so."""
    monkeypatch.setattr(interpreter.runtime.machine, "STEP_LIMIT", 1800)
    source = """
        var size: int = 40
        var n: int = 0
        def spread(xs: list int) = count(xs) + max(xs) + min(xs)
        procedure play() {
            rule "Play"
            let i = 0
            while i < 10 {
                n += spread([x * 2 for x in 1..size])
                i += 1
            }
            game over []
        }
        """
    game = build(tmp_path, HEADER + source)
    assert game.var(game.start(players=2), "n") == 10 * (40 + 80 + 2)
    monkeypatch.setattr(interpreter.compile.passes, "computes", lambda node: False)  # each reading computes it
    game = build(tmp_path, HEADER + source, name="again.game")
    with pytest.raises(GameRuntimeError, match="more than 1,800 steps"):
        game.start(players=2)


def test_whether_path_steps_finds_a_step_is_the_same_answer_as_counting_them(tmp_path):
    """`count(path_steps(...)) > 0` (and == 0, >= 1, ...) stops at the first next node found."""
    assert grid_log(
        tmp_path,
        "{count(path_steps(b2, 8)) > 0} {count(path_steps(b1, 8)) > 0} {count(path_steps(a1, 2)) >= 1}",
        "{count(path_steps(a1, 9)) == 0} {count(path_steps(a1, 2, [], x => x == b2)) != 0}",
        "{count(path_steps(a1, 2, [a2, b1])) < 1} {count(path_steps(a1, 2)) <= 0} {count(path_steps(a1, 2))}",
    ) == ["yes no yes", "yes yes", "yes no 2"]


def test_path_steps_never_revisits_on_a_line(tmp_path):
    game = build(
        tmp_path,
        HEADER
        + """
        grid Line 3 by 1
        procedure play() {
            rule "Play"
            let a1 = cell_at(Line, 1, 1)
            let b1 = cell_at(Line, 2, 1)
            log "{path_steps(a1, 2)} / {path_steps(a1, 3)} / {path_steps(b1, 1)} / {path_steps(b1, 2)}"
            game over []
        }
    """,
    )
    # From the middle of a line of three, no walk of two steps avoids going back.
    assert game.narrate(game.start(players=2)) == ["b1 / nothing / a1, c1 / nothing"]


def test_reachable_over_a_graph_with_a_predicate(tmp_path):
    game = build(
        tmp_path,
        HEADER
        + """
        enum Town { ann, bo, cy, dee, eve }
        graph roads
        link ann [bo, cy]
        link cy [dee]
        link bo [ann]
        var blocked: list Town = []
        procedure play() {
            rule "Play"
            log "{neighbours(ann)} / {neighbours(dee)} / {neighbours(eve)}"
            log "{reachable(ann, dee)} {reachable(ann, eve)} {reachable(dee, bo)} {reachable(ann, ann)}"
            let avoid_cy = reachable(ann, dee, t => t != cy)
            log "{avoid_cy} {reachable(ann, cy, t => false)} {reachable(bo, dee, t => t != cy)}"
            log "{adjacent(cy, ann)} {adjacent(bo, cy)}"
            log "{path_steps(bo, 3)} {path_steps(bo, 4)}"
            game over []
        }
    """,
    )
    assert game.narrate(game.start(players=2)) == [
        "bo, cy / cy / nothing",  # links go both ways; `link bo [ann]` again adds nothing
        "yes no yes yes",
        "no yes no",
        "yes no",
        "ann nothing",
    ]


def test_grid_cells_can_be_named(tmp_path):
    # Cells named in the source (docs sections 6 and 7), once unknown to the checker.
    game = build(
        tmp_path,
        HEADER
        + """
        grid Cell 2 by 2
        procedure play() {
            rule "Play"
            log "{neighbour(a1, down) == a2} {column(b2)}"
            game over []
        }
    """,
    )
    assert game.narrate(game.start(players=2)) == ["yes 2"]


def test_two_grids_keep_their_own_geometry(tmp_path):
    game = build(
        tmp_path,
        HEADER
        + """
        grid Board 3 by 3
        grid Track 3 by 1
        procedure play() {
            rule "Play"
            log "{neighbours(cell_at(Board, 1, 1))} / {neighbour(cell_at(Track, 2, 1), down)}"
            game over []
        }
    """,
    )
    assert game.narrate(game.start(players=2)) == ["a2, b1 / none"]


# ---- hidden information -----------------------------------------------------------------------------
def test_visible_when_and_seen_by_in_observations(tmp_path):
    game, state = run(
        tmp_path,
        """
        up[first(members(Tile))] = true
        row = members(Tile)
        hand[a] = 5
        hand[b] = 6
    """,
        decls="""
        entity Tile {
            value: int visible when up[self]
            colour: int
            mark: int hidden
        }
        generate Tile named "t{v}" for v in 1..2 { value = v  colour = v * 10  mark = 0 }
        var up: Tile -> bool = false
        var row: list Tile = []
        var hand: player -> int = 0 seen by owner
        var box: int = 3 seen by none
    """,
    )
    obs = game.observation(state, "a")["vars"]
    # t1 is face up but `mark` is never visible: shown as its visible properties, not by name.
    assert obs["row"] == [{"of": "Tile", "value": 1, "colour": 10}, {"of": "Tile", "colour": 20}]
    assert obs["hand"] == {"a": 5, "b": {"hidden": 1}}
    assert obs["box"] == {"hidden": 1}
    assert game.observation(state, "b")["vars"]["hand"] == {"a": {"hidden": 1}, "b": 6}
    spectator = game.observation(state, None)["vars"]
    assert spectator["hand"] == {"a": {"hidden": 1}, "b": {"hidden": 1}}
    # A map keyed by components hides the entries of components its viewer cannot fully see
    # (a `Piece -> Cell` map would otherwise say where each hidden piece lies).
    assert spectator["up"] == {"t1": {"hidden": 1}, "t2": {"hidden": 1}}


def test_fields_with_the_same_condition_are_hidden_together_and_others_apart(tmp_path):
    """A condition written alike on several fields (however spaced) is asked once for them
    all (`visibility_groups`); a field with another condition, or `hidden`, keeps its own."""
    game, state = run(
        tmp_path,
        """
        row = members(Tile)
        up[members(Tile)[0]] = true
        near[members(Tile)[1]] = true
    """,
        decls="""
        entity Tile {
            value: int visible when up[self] or viewer == a
            colour: int visible when up[ self ]  or  viewer == a
            size: int visible when near[self]
            mark: int hidden
        }
        generate Tile named "t{v}" for v in 1..2 { value = v  colour = v * 10  size = v + 4  mark = 0 }
        var up: Tile -> bool = false
        var near: Tile -> bool = false
        var row: list Tile = []
    """,
    )
    groups = game.compiled.visibility_groups["Tile"]
    assert sorted(fields for _, fields in groups) == [("mark",), ("size",), ("value", "colour")]
    assert game.observation(state, "b")["vars"]["row"] == [
        {"of": "Tile", "value": 1, "colour": 10},
        {"of": "Tile", "size": 6},
    ]
    assert game.observation(state, "a")["vars"]["row"] == [
        {"of": "Tile", "value": 1, "colour": 10},
        {"of": "Tile", "value": 2, "colour": 20, "size": 6},
    ]


def test_fully_visible_entities_are_shown_by_name(tmp_path):
    game, state = run(
        tmp_path,
        """
        row = members(Tile)
    """,
        decls="""
        entity Tile {
            value: int visible when up[self]
        }
        generate Tile named "t{v}" for v in 1..2 { value = v }
        var up: Tile -> bool = true
        var row: list Tile = []
    """,
    )
    assert game.observation(state, "b")["vars"]["row"] == ["t1", "t2"]


# ---- the engine ------------------------------------------------------------------------------------
def test_step_limit_stops_an_endless_loop(tmp_path, monkeypatch):
    monkeypatch.setattr(interpreter.runtime.machine, "STEP_LIMIT", 2000)
    game = build(
        tmp_path,
        program("""
        let k = 0
        while true {
            k += 1
        }
    """),
    )
    with pytest.raises(GameRuntimeError) as info:
        game.start(players=2)
    (d,) = info.value.diagnostics
    assert "steps" in d.message
    assert d.message.startswith("in play: ")
    assert d.span.line >= 4


def test_step_limit_error_points_at_the_loop(tmp_path, monkeypatch):
    monkeypatch.setattr(interpreter.runtime.machine, "STEP_LIMIT", 2000)
    game = build(
        tmp_path,
        program("""
        let k = 0
        while true {
            k += 1
        }
    """),
    )
    with pytest.raises(GameRuntimeError) as info:
        game.start(players=2)
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.column) == (6, 5), d


def test_step_limit_counts_between_decisions_only(tmp_path, monkeypatch):
    monkeypatch.setattr(interpreter.runtime.machine, "STEP_LIMIT", 50)
    game = build(
        tmp_path,
        program(
            """
        for round in 1..10 {
            for i in 1..20 {
                total += 1
            }
            choose x from [1] by a
        }
    """,
            decls="""
        var total: int = 0
    """,
        ),
    )
    state = game.start(players=2)
    while not game.is_over(state):
        state = game.apply_index(state, 0)
    assert game.var(state, "total") == 200


TICTACTOE = ROOT / "examples" / "tictactoe.game"


def test_state_is_hashable_immutable_and_equal_for_the_same_moves():
    game = load_game(TICTACTOE)
    moves = ["b2", "a1", "c3"]

    def play(seed):
        state = game.start(players=2, seed=seed)
        for m in moves:
            state = game.apply(state, m)
        return state

    s1, s2 = play(4), play(4)
    assert s1 == s2 and hash(s1) == hash(s2) and s1 is not s2
    assert len({s1, s2}) == 1
    with pytest.raises(AttributeError):  # a state cannot be changed in place
        s1.vars = ()
    start = game.start(players=2)
    before = (start.vars, start.frames, start.pending, hash(start))
    after = game.apply(start, "a1")
    assert (start.vars, start.frames, start.pending, hash(start)) == before
    assert after != start
    assert game.apply(start, "a1") == after
    assert game.apply(start, "c3") != after


SAVE = (
    HEADER
    + """
var total: int = 0
var history: list int = []
procedure turn(p: player, i: int) {
    rule "Turn"
    let before = i * 10
    choose x from [1, 2, 3] by p label "add {x}"
    roll d from 1..6
    total += before + x + d
    history = append(history, d)
    may p "bonus" {
        total += 100
    }
}
procedure play() {
    rule "Play"
    for i in 1..3 {
        for p in players {
            turn(p, i)
        }
    }
    game over best(players, q => if q == a then total % 2 else 1 - total % 2)
}
"""
)


def test_pending_choice_survives_save_and_load(tmp_path):
    game = build(tmp_path, SAVE)
    state = game.start(players=2, seed=11)
    state = game.apply(state, "add 2")
    state = game.apply(state, "pass")
    state = game.apply(state, "add 3")  # now in b's first turn, waiting on `may`, in a loop
    assert game.labels(state) == ["bonus", "pass"]
    assert state.frames and all(len(f[2]) > 0 for f in state.frames)  # locals mid-procedure

    copy = state_from_dict(game, state_to_dict(game, state))
    assert (copy.vars, copy.frames, copy.pending, copy.rng, copy.decisions) == (
        state.vars,
        state.frames,
        state.pending,
        state.rng,
        state.decisions,
    )
    save_state(game, state, tmp_path / "state.toml")
    from_file = load_state(game, tmp_path / "state.toml")
    assert (from_file.vars, from_file.frames, from_file.pending, from_file.rng) == (
        state.vars,
        state.frames,
        state.pending,
        state.rng,
    )

    moves = ["bonus", "add 1", "pass", "add 3", "bonus", "add 2", "pass", "add 1", "bonus"]
    finals = []
    for s in (state, copy, from_file):
        for m in moves:
            s = game.apply(s, m)
        finals.append(s)
    assert all(game.is_over(s) for s in finals)
    assert finals[1].vars == finals[0].vars == finals[2].vars
    assert finals[1].result == finals[0].result == finals[2].result
    assert len(game.var(finals[0], "history")) == 6


def test_inlined_function_does_not_clobber_the_callers_loop_variable(tmp_path):
    game, state = run(
        tmp_path,
        """
        for x in 1..3 {
            let e = evens([x, 10, 20])
            got = append(got, x)
            for y in [7] {
                sizes = append(sizes, count(evens([x, y])) + x)
            }
        }
        got = concat(got, [doubled(x) for x in 1..2])
    """,
        decls="""
        var got: list int = []
        var sizes: list int = []
        def evens(xs: list int) = [x for x in xs if x % 2 == 0]
        def doubled(y: int) = sum([x * 2 for x in [y]])
    """,
    )
    assert game.var(state, "got") == (1, 2, 3, 2, 4)
    assert game.var(state, "sizes") == (1, 3, 3)


def test_numbered_duplicate_labels_are_unique(tmp_path):
    game = build(
        tmp_path,
        program("""
        choose s from ["x", "x", "x (2)"] by a
    """),
    )
    labels = game.labels(game.start(players=2))
    assert len(set(labels)) == 3, labels


def test_a_var_called_label_is_refused_as_a_keyword(tmp_path):
    source = program(
        """
        let x = 1
        label = x + 1
    """,
        decls="""
        var label: int = 0
    """,
    )
    try:
        game = build(tmp_path, source)
    except GameDefError as err:  # the name is a keyword: rejected, saying so
        (d,) = err.diagnostics
        assert "keyword" in f"{d.message} {d.hint}", err.render()
        return
    assert game.var(game.start(players=2), "label") == 2


# ---- maps of maps ------------------------------------------------------------------------------------
NESTED = """
game sheet { players 2..2 seats [a, b] }
enum Item { missile, wall, clock }
var parts: player -> Item -> list int = [0, 0] seen by owner
var done: player -> Item -> bool = false
procedure play() {
    rule "Sheet"
    parts[a][wall][1] = 3
    parts[b][missile] = [1, 2]
    parts[a][clock][0] += 2
    done[b][clock] = true
    log "{parts[a][wall]} {parts[a][clock][0]} {done[b][clock]} {parts[b][missile]}"
    choose x from [1, 2] by a
    game over [a]
}
"""


def test_a_map_of_maps_is_read_and_written_entry_by_entry(tmp_path):
    path = tmp_path / "sheet.game"
    path.write_text(NESTED)
    game = load_game(str(path))
    state = game.start(players=2)
    assert game.narrate(state) == ["0, 3 2 yes 1, 2"]
    assert game.var(state, "parts")["a"] == {"missile": (0, 0), "wall": (0, 3), "clock": (2, 0)}
    assert game.var(state, "done")["b"]["clock"] is True and game.var(state, "done")["a"]["clock"] is False
    # seen by owner: b's whole sheet is hidden from a
    view = game.observation(state, "a")["vars"]["parts"]
    assert view["a"]["wall"] == [0, 3] and view["b"] == {"hidden": 3}
    copy = state_from_dict(game, tomllib.loads(tomli_w.dumps(state_to_dict(game, state))))
    assert copy == state
    changed = game.with_var(state, "parts", {"b": {"wall": [9, 9]}})
    assert game.var(changed, "parts")["b"] == {"missile": (1, 2), "wall": (9, 9), "clock": (0, 0)}


def test_a_map_of_maps_checks_every_key(tmp_path):
    path = tmp_path / "bad.game"
    path.write_text(NESTED.replace("parts[a][wall][1] = 3", "parts[wall][a][1] = 3"))
    with pytest.raises(GameDefError) as info:
        load_game(str(path))
    text = info.value.render()
    assert "'parts' is keyed by player, not Item" in text and "'parts' is keyed by Item, not player" in text


def test_shuffle_an_entry_sort_and_join_text(tmp_path):
    path = tmp_path / "shuffle.game"
    path.write_text("""
game sh { players 2..2 seats [a, b] }
var piles: player -> list int = [1, 2, 3, 4, 5, 6]
var word: str = ""
procedure play() {
    rule "x"
    shuffle piles[b]
    word = "ab" + "cd"
    log "{piles[a]} / {sort(piles[b])} / {sort_by(piles[b], x => 0 - x)} / {word}"
    choose x from [1] by a
    game over []
}
""")
    game = load_game(str(path))
    state = game.start(players=2, seed=3)
    piles = game.var(state, "piles")
    assert piles["a"] == (1, 2, 3, 4, 5, 6)  # only b's pile is shuffled
    assert sorted(piles["b"]) == [1, 2, 3, 4, 5, 6] and piles["b"] != (1, 2, 3, 4, 5, 6)
    assert game.narrate(state) == ["1, 2, 3, 4, 5, 6 / 1, 2, 3, 4, 5, 6 / 6, 5, 4, 3, 2, 1 / abcd"]
    again = game.start(players=2, seed=3)
    assert game.var(again, "piles") == piles  # the same seed shuffles the same way


# ---- a `may` inside a `may` -------------------------------------------------------------------------
NESTED_MAY = (
    HEADER
    + """
entity Spell { power: int }
event played(p: player, c: Spell)
var trace: list str = []
card fireball "Fireball" : Spell {
    power 3
    when played(p, c) where c == self {
        may p "outer {self}" {
            may p "inner {self}" {
                trace = append(trace, "trigger: both")
            } else {
                trace = append(trace, "trigger: outer only")
            }
        }
    }
    cast {
        may a "cast" {
            may b "counter" {
                trace = append(trace, "slot: countered")
            }
            trace = append(trace, "slot: cast")
        } else {
            trace = append(trace, "slot: none")
        }
    }
}
procedure nested(p: player) {
    rule "Nested"
    may p "first" {
        may p "second" {
            trace = append(trace, "{p}: yes yes")
        } else {
            trace = append(trace, "{p}: yes no")
        }
        trace = append(trace, "{p}: after the inner may")
    } else {
        trace = append(trace, "{p}: no")
    }
}
procedure play() {
    rule "Play"
    nested(a)
    nested(b)
    emit played(a, fireball)
    perform fireball.cast()
    game over []
}
"""
)


@pytest.mark.parametrize(
    ("answers", "trace"),
    [
        (
            ["first", "second", "first", "pass", "outer Fireball", "inner Fireball", "cast", "counter"],
            [
                "a: yes yes",
                "a: after the inner may",
                "b: yes no",
                "b: after the inner may",
                "trigger: both",
                "slot: countered",
                "slot: cast",
            ],
        ),
        (
            ["pass", "pass", "outer Fireball", "pass", "cast", "pass"],
            ["a: no", "b: no", "trigger: outer only", "slot: cast"],
        ),
        (["first", "pass", "pass", "pass", "pass"], ["a: yes no", "a: after the inner may", "b: no", "slot: none"]),
    ],
)
def test_a_may_inside_a_may_asks_both_and_survives_save_and_load(tmp_path, answers, trace):
    # Was a compiler crash (KeyError '\0may'): the inner `may` removed the outer one's answer.
    game = build(tmp_path, NESTED_MAY)
    state = game.start(players=2)
    for answer in answers:
        assert answer in game.labels(state) and game.labels(state)[-1] == "pass"
        copy = state_from_dict(game, tomllib.loads(tomli_w.dumps(state_to_dict(game, state))))
        assert copy == state  # mid-way, between the two questions as well
        state = game.apply(copy, answer)
    assert game.is_over(state)
    assert game.var(state, "trace") == tuple(trace)


def test_a_text_the_rules_write_is_shown_as_written_even_when_it_spells_a_name(tmp_path):
    """`Block.West` is titled "W"; the text "West" (a literal, or one built by
    interpolation) is a text, not the member's name, and reads "West" everywhere."""
    path = tmp_path / "texts.game"
    path.write_text(
        textwrap.dedent(
            """\
            game texts "Texts" { players 1..1 seats [p1] }
            enum Block { West "W", East "E" }
            var side: Block = West
            var word: str = "none yet"
            view {
                text "side {side}, word {word}"
            }
            procedure play() {
                rule "Play"
                let t = "West"
                word = "{t}"
                log "side {side}; the word {t}; built {word}"
                choose x from [t, "East"] by p1
                game over []
            }
            """
        ),
        encoding="utf-8",
    )
    from interpreter.runtime.render import render

    g = load_game(path)
    s = g.start()
    assert g.narrate(s) == ["side W; the word West; built West"]
    assert g.labels(s) == ["West", "East"]
    assert render(g, s, "p1").splitlines()[0] == "side W, word West"
    assert g.compiled.rt.display("West") == "W"  # the member's name still reads as its title


def test_a_label_of_literal_text_alone_or_of_the_chosen_value_alone(tmp_path):
    path = tmp_path / "labels.game"
    path.write_text(
        'game labels "Labels" { players 1..1 seats [p1] }\n'
        'procedure play() {\n    rule "Play"\n'
        '    choose c from [1, 2] by p1 label "nothing"\n'
        '    choose d from [none, true, 3] by p1 label "{d}"\n'
        "    game over []\n}\n",
        encoding="utf-8",
    )
    g = load_game(path)
    s = g.start()
    assert g.labels(s) == ["nothing", "nothing (2)"]
    assert g.labels(g.apply_index(s, 0)) == ["none", "yes", "3"]


def test_a_may_asks_its_prompt_or_you_may_and_its_text(tmp_path):
    path = tmp_path / "may.game"
    path.write_text(
        textwrap.dedent(
            """
            game asking "Asking" {
                players 1..1
                seats [p1]
            }
            var score: int = 0
            procedure play() {
                rule "Play: two offers"
                may p1 "take {score + 1} point" {
                    score += 1
                }
                may p1 "take {score + 2} points" prompt "double or nothing with {score}?" {
                    score += 2
                }
                game over [p1]
            }
            """
        ),
        encoding="utf-8",
    )
    game = load_game(path)
    state = game.start(players=1, seed=1)
    assert (game.prompt(state), game.labels(state)) == ("you may take 1 point", ["take 1 point", "pass"])
    state = game.apply(state, "take 1 point")
    assert (game.prompt(state), game.labels(state)) == ("double or nothing with 1?", ["take 3 points", "pass"])


ROLES_BY_OPTION = """
game t {
    players 2..3
    seats [a, b, c]
    roles {
        2 players: [a, b]
        3 players when left_out == a: [b, c, a]
        3 players: [a, b, c]
    }
}
option left_out: player = c choices [a, c] "who plays last"
procedure play() {
    rule "Play"
    game over players
}
"""


def test_roles_may_depend_on_an_option(tmp_path):
    """`N players when OPTION == VALUE: [...]` (docs §3.1): the seats in play follow the
    option; without a matching rule, the plain `N players` rule is used."""
    assert build(tmp_path, ROLES_BY_OPTION).seats_for(3) == ("a", "b", "c")
    g = build(tmp_path, ROLES_BY_OPTION, options={"left_out": "a"})
    assert g.seats_for(3) == ("b", "c", "a") and g.seats_for(2) == ("a", "b")
    s = g.start(players=3)
    assert g.is_over(s) and g.result(s) == ("b", "c", "a")


@pytest.mark.parametrize(
    "change, message",
    [
        ("when left_out == a", "when leftout == a"),
        ("when left_out == a", "when left_out == x"),
        ("3 players when", "5 players when"),
    ],
)
def test_roles_by_option_refuse_an_unknown_option_value_or_count(tmp_path, change, message):
    """An unknown option, a value not of its type, or a count out of range is a clear error."""
    source = ROLES_BY_OPTION.replace(change, message)
    with pytest.raises(GameDefError, match="roles: "):
        build(tmp_path, source)


# ---- none: `??` and narrowing -----------------------------------------------------------------
NONE_DECLS = """
entity Card { ops: int? }
card scoring { }
card coup { ops 3 }
var discard: list Card = [scoring, coup]
var empty: list Card = []
var got: list int = []
var maybe: int? = none
def ops_of(c: Card) = c.ops
"""


@pytest.mark.parametrize("optimise", [True, False])
def test_coalesce_gives_the_value_or_else_the_default(tmp_path, optimise):
    game, state = run(
        tmp_path,
        """
        got = [c.ops ?? 0 for c in discard]
        got = append(got, ops_of(scoring) ?? 7)
        got = append(got, ops_of(coup) ?? 7)
        got = append(got, maybe ?? 1 + 1)
        got = append(got, maybe ?? none ?? 4)
        maybe = 5
        got = append(got, maybe ?? 4)
        got = append(got, if coup.ops ?? 0 >= 3 then 1 else 0)
        got = append(got, count(none ?? 1..3))
        """,
        NONE_DECLS,
        optimise=optimise,
    )
    # none: 0, and 3; a def's none: 7, and its 3; looser than `+`: 2; read from the right: 4;
    # a value: 5; tighter than `>=`: (coup.ops ?? 0) >= 3; looser than `..`: none ?? (1..3)
    assert game.var(state, "got") == (0, 3, 7, 3, 2, 4, 5, 1, 3)


def test_coalesce_computes_its_default_only_when_needed(tmp_path):
    # `xs[5]` would be out of range: never computed when the value is not none.
    game, state = run(
        tmp_path,
        """
        let xs = [1, 2]
        got = [coup.ops ?? xs[5], ops_of(coup) ?? xs[5]]
        """,
        NONE_DECLS,
    )
    assert game.var(state, "got") == (3, 3)
    with pytest.raises(GameRuntimeError, match="out of range"):
        run(tmp_path, "let xs = [1, 2]\ngot = [ops_of(scoring) ?? xs[5]]", NONE_DECLS)


def test_narrowed_values_run_in_the_branch_that_knows_them(tmp_path):
    game, state = run(
        tmp_path,
        """
        for c in discard {
            if c.ops != none and c.ops >= 3 {
                got = append(got, c.ops)
            } else {
                got = append(got, 0)
            }
        }
        let top = last(empty)
        if top == none {
            got = append(got, 99)
        } else {
            got = append(got, top.ops ?? 1)
        }
        """,
        NONE_DECLS,
    )
    assert game.var(state, "got") == (0, 3, 99)


# ---- seats in play (docs/language.md §3.1) ---------------------------------------------------------
SEATED = """\
    game s "S" {
        players 1..3
        seats [a "Ann", b "Bob", c "Cy", solo "Solo"]
        roles {
            1 players: [solo] with [a, b]
            2 players: [a, b]
            3 players: [a, b, c]
        }
    }
    var score: player -> int = 0
    var marks: player -> player -> int = 0
    procedure add(p: player, n: int) {
        rule "Scoring"
        score[p] += n
    }
    procedure play() {
        rule "Play"
        BODY
        game over []
    }
    """


def seated(tmp_path: Path, body: str):
    return build(tmp_path, SEATED.replace("BODY", body))


def test_a_write_to_a_seat_not_in_play_is_an_error_naming_the_seats_in_play(tmp_path):
    """§3.1: writing an entry of a map keyed first by player for a seat the player count
    does not have stops the game with the seats in play and the count (never a silent
    write); a player key further in is not a seat's own (a colour's slot on a map), and a
    `with` seat is in play though nobody plays it."""
    game = seated(tmp_path, "add(c, 1)")
    with pytest.raises(GameRuntimeError) as info:
        game.start(players=2)
    message = info.value.diagnostics[0].message
    assert (
        message == "in add: score[Cy] is written, but Cy is not in play: with 2 players the seats in play are Ann, Bob"
    )
    assert "str" not in message and "KeyError" not in message
    state = game.start(players=3)
    assert game.var(state, "score") == {"a": 0, "b": 0, "c": 1}
    game = seated(tmp_path, "marks[a][c] = 2")
    assert game.var(game.start(players=2), "marks")["a"]["c"] == 2
    game = seated(tmp_path, "marks[c][a] = 2")
    with pytest.raises(GameRuntimeError) as info:
        game.start(players=1)
    assert info.value.diagnostics[0].message == (
        "in play: marks[Cy] is written, but Cy is not in play: "
        "with 1 player the seats in play are Solo (and Ann, Bob, played by nobody)"
    )
    game = seated(tmp_path, "add(a, 1)\nmarks[b][a] = 2")  # `with [a, b]`: in play with one player
    state = game.start(players=1)
    assert game.var(state, "score")["a"] == 1 and game.var(state, "marks")["b"]["a"] == 2


def test_check_warns_of_a_seat_constant_some_player_count_lacks_unless_guarded(tmp_path):
    """`check` warns, at the line, of a seat constant written to, passed to a procedure that
    writes to its entries, or asked a decision, when a player count lacks the seat; a
    guard that tests `players` (or any function) silences it, as does a loop variable."""
    from interpreter.check.checker import check_program
    from interpreter.language.program import load_program

    body = "\n        ".join(
        [
            "score[c] += 1",
            "add(c, 2)",
            "choose x from [1, 2] by c",
            "if c in players { add(c, 1) }",
            "for p in players { add(p, 1) }",
            "add(a, 1)",
        ]
    )
    path = tmp_path / "s.game"
    path.write_text(textwrap.dedent(SEATED.replace("BODY", body)))
    found = check_program(load_program(path))
    warnings = [(d.span.line, d.message) for d in found if "never read" not in d.message]  # (score: written only)
    tail = (
        "but Cy is not in play with 1 or 2 players (with 1, the seats are Ann, Bob, Solo): "
        "the game stops there with an error"
    )
    assert warnings == [
        (18, f"score[c] is written, {tail}"),
        (19, f"c is passed to add(), which writes an entry keyed by it, {tail}"),
        (20, f"c is asked a decision, {tail}"),
    ]


def test_roles_with_names_seats_of_the_game(tmp_path):
    with pytest.raises(GameDefError) as info:
        build(tmp_path, SEATED.replace("[solo] with [a, b]", "[solo] with [a, bb]").replace("BODY", ""))
    [d] = info.value.diagnostics
    assert d.message == "roles: `with` names 'bb', which is not a seat" and d.hint == "did you mean 'b'?"
