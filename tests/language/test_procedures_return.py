"""Procedures that return values (docs/language.md 3.13, 5.4 and 5.15).

Each program is run through the real pipeline (`load_game`) and judged by the values it
computes. A procedure is compiled in two ways: copied into its caller (inlined: its
locals live in the caller's frame) or, when it calls itself, run in a frame of its own
pushed on the stack. Both must deliver the returned value, also when a decision is asked
inside the procedure before it returns and the position is saved and loaded meanwhile.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.runtime.saving import load_state, save_state, state_from_dict, state_to_dict

HEADER = "game t { players 2..2 seats [a, b] }\n"


def build(tmp_path: Path, source: str):
    path = tmp_path / "t.game"
    path.write_text(HEADER + textwrap.dedent(source).strip("\n") + "\n", encoding="utf-8")
    return load_game(path)


def finish(game, state, moves):
    for m in moves:
        state = game.apply(state, m)
    return state


# ---- return values ----------------------------------------------------------------------------------
def test_a_returned_value_reaches_let_assignment_entry_and_tail_call(tmp_path):
    game = build(
        tmp_path,
        """
        var out: list int = []
        var total: int = 5
        var score: player -> int = 0
        procedure twice(n: int): int {
            rule "Twice"
            return n * 2
        }
        procedure quad(n: int): int {
            rule "Quad"
            let t = twice(n)
            return twice(t)
        }
        procedure sign(n: int): int {
            rule "Sign"
            if n < 0 {
                return -1
            } elif n == 0 {
                return 0
            }
            return 1
        }
        procedure play() {
            rule "Play"
            let x = twice(21)
            out = append(out, x)
            x = quad(x)
            out = append(out, x)
            total += twice(10)
            total -= sign(-7)
            score[b] = quad(1)
            score[b] += twice(1)
            twice(99)
            for n in [-3, 0, 8] {
                let s = sign(n)
                out = append(out, s)
            }
            game over []
        }
        """,
    )
    state = game.start(players=2, seed=1)
    assert game.var(state, "out") == (42, 168, -1, 0, 1)
    assert game.var(state, "total") == 5 + 20 + 1
    assert game.var(state, "score") == {"a": 0, "b": 4 + 2}


def test_recursion_runs_in_pushed_frames(tmp_path):
    game = build(
        tmp_path,
        """
        var out: list int = []
        procedure fib(n: int): int {
            rule "Fibonacci"
            if n < 2 {
                return n
            }
            let x = fib(n - 1)
            let y = fib(n - 2)
            return x + y
        }
        procedure depth(n: int): int {
            rule "Depth: a tail call"
            if n == 0 {
                return 0
            }
            return depth(n - 1)
        }
        procedure play() {
            rule "Play"
            for n in 0..10 {
                let f = fib(n)
                out = append(out, f)
            }
            let d = depth(300)
            out = append(out, d)
            game over []
        }
        """,
    )
    state = game.start(players=2)
    assert game.var(state, "out") == (0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 0)


def test_return_leaves_loops_with_its_value(tmp_path):
    game = build(
        tmp_path,
        """
        var out: list int = []
        procedure first_over(xs: list int, n: int): int {
            rule "Search"
            for x in xs {
                let k = 0
                while true {
                    k += 1
                    if k * x > n {
                        return x * 100 + k
                    }
                    if k == 3 {
                        break
                    }
                }
            }
            return -1
        }
        procedure play() {
            rule "Play"
            let r = first_over([1, 2, 5, 9], 12)
            let s = first_over([1, 2], 50)
            out = [r, s]
            game over []
        }
        """,
    )
    state = game.start(players=2)
    assert game.var(state, "out") == (503, -1)


ASKING = """
var out: list int = []
var asked: int = 0
event asked_for(p: player)
when asked_for(p) {
    rule "Bonus: asked in a trigger before the procedure returns"
    may p "bonus" {
        asked += 1000
    }
}
procedure ask(p: player, n: int): int {
    rule "Ask: n choices, each worth 10 times the one before"
    if n == 0 {
        return 0
    }
    choose k from 1..3 by p label "{n}: take {k}"
    let rest = ask(p, n - 1)
    emit asked_for(p)
    return rest * 10 + k
}
procedure play() {
    rule "Play"
    let x = ask(a, 3)
    out = append(out, x)
    out = append(out, asked)
    game over []
}
"""


def test_a_value_returned_after_decisions_survives_save_and_load(tmp_path):
    """`ask` is inlined in play(); its recursive calls run in pushed frames. A decision is
    asked in each, and the value returned after it must land in the caller's slot."""
    game = build(tmp_path, ASKING)
    moves = ["3: take 2", "2: take 3", "1: take 1", "bonus", "pass", "bonus"]
    state = game.start(players=2, seed=3)
    assert game.labels(state) == ["3: take 1", "3: take 2", "3: take 3"]
    assert len(state.frames) == 1  # the first `ask` is inlined into play()
    reference = finish(game, state, moves)
    assert game.is_over(reference)
    assert game.var(reference, "out") == (1 * 100 + 3 * 10 + 2, 2000)

    for n in range(1, len(moves)):  # save at every decision: inlined and pushed frames
        middle = finish(game, state, moves[:n])
        path = tmp_path / f"state{n}.toml"
        save_state(game, middle, path)
        loaded = load_state(game, path)
        assert (loaded.vars, loaded.frames, loaded.pending) == (middle.vars, middle.frames, middle.pending)
        final = finish(game, loaded, moves[n:])
        assert (final.vars, final.result) == (reference.vars, reference.result)
    deepest = finish(game, state, moves[:2])  # waiting in `ask(a, 1)`: two frames pushed
    assert len(deepest.frames) == 3
    assert game.labels(deepest) == ["1: take 1", "1: take 2", "1: take 3"]


def test_a_saved_result_slot_must_be_a_slot_of_the_caller(tmp_path):
    game = build(tmp_path, ASKING)
    state = finish(game, game.start(players=2, seed=3), ["3: take 2"])
    data = state_to_dict(game, state)
    frame = data["frames"][1]
    assert frame["code"] == "ask"  # its locals: p, n, then the caller's slot for the result
    assert frame["locals"][:2] == ["a", 2] and 0 <= frame["locals"][2] < len(data["frames"][0]["locals"])
    state_from_dict(game, data)
    frame["locals"][2] = 999
    with pytest.raises(Exception, match="where the result goes"):
        state_from_dict(game, data)


def test_the_same_procedure_inlined_and_pushed_returns_the_same(tmp_path):
    """`pick` is inlined into play() but pushed inside `again` (which calls itself)."""
    game = build(
        tmp_path,
        """
        var out: list int = []
        procedure pick(p: player): int {
            rule "Pick"
            choose k from [1, 2] by p label "take {k}"
            if k == 1 {
                return 10
            }
            return 20
        }
        procedure again(p: player, n: int): int {
            rule "Again"
            if n == 0 {
                return 0
            }
            let v = pick(p)
            let rest = again(p, n - 1)
            return v + rest
        }
        procedure play() {
            rule "Play"
            let direct = pick(a)
            let nested = again(b, 2)
            out = [direct, nested]
            game over []
        }
        """,
    )
    state = game.start(players=2)
    assert len(state.frames) == 1  # pick(a), inlined into play()
    state = game.apply(state, "take 2")
    assert len(state.frames) == 1  # pick(b) in again(b, 2), both inlined
    pushed = game.apply(state, "take 1")
    assert len(pushed.frames) == 2  # pick(b) in again(b, 1): a frame of its own
    state = game.apply(pushed, "take 2")
    assert game.var(state, "out") == (20, 10 + 20)


def test_results_of_any_type_from_triggers_and_card_slots(tmp_path):
    game = build(
        tmp_path,
        """
        entity Army { power: player  size: int }
        card red "Red army" : Army { power a  size 3 }
        card blue "Blue army" : Army { power b  size 5 }
        var got: list Army? = []
        var sizes: list int = []
        event counted(p: player)
        procedure largest(p: player): Army? {
            rule "Largest army of a power, if larger than 4"
            let mine = [x for x in members(Army) if x.power == p and x.size > 4]
            if count(mine) == 0 {
                return none
            }
            return first(sort_by(mine, x => 0 - x.size))
        }
        procedure sizes_of(xs: list Army): list int {
            rule "Sizes"
            return [x.size for x in xs]
        }
        when counted(p) {
            rule "Count in a trigger"
            let x = largest(p)
            got = append(got, x)
        }
        card tally "Tally" : Army {
            power b  size 0
            effect(p: player) {
                sizes = sizes_of([red, blue])
            }
        }
        procedure play() {
            rule "Play"
            emit counted(a)
            emit counted(b)
            perform tally.effect(a)
            game over []
        }
        """,
    )
    state = game.start(players=2)
    assert game.var(state, "got") == (None, "blue")
    assert game.var(state, "sizes") == (3, 5)
