"""Two things the generated code no longer does at run time, because the rule's text
already answers them (docs/architecture.md): a decision between options written in the
rule copies and tests no list at every decision, and a write keyed by a `for` variable
running over the seats in play tests no seat. The games play as before."""

from __future__ import annotations

import ast
import random
import textwrap
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compile import codecache, lazy
from interpreter.core.errors import GameRuntimeError

GAME = """
game t {
    players 2..3
    seats [a, b, c]
}
var score: player -> int = 0
var picks: list int = []
procedure add(p: player, n: int) {
    rule "Scoring"
    score[p] += n
}
procedure play() {
    rule "Play"
    for p in players {
        score[p] += 10
    }
    choose x from [1, 2, 3] by a label "take {x}"
    picks = append(picks, x)
    BODY
    game over [a]
}
"""


def _load(tmp_path: Path, monkeypatch, body: str = "") -> tuple:
    """The game with `body` at the end of play(), and the Python its steps were written as."""
    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    texts: list[str] = []
    real = codecache.compiled

    def recording(tree: ast.Module, key: bytes, name: str):
        texts.append(ast.unparse(tree))
        return real(tree, key, name)

    monkeypatch.setattr(codecache, "compiled", recording)
    path = tmp_path / "t.game"
    path.write_text(textwrap.dedent(GAME.replace("BODY", body)), encoding="utf-8")
    game = load_game(path)
    lazy.force(game.compiled.ns)  # every function written, those compiled when first called too
    return game, texts


def test_a_decision_between_options_written_in_the_rule_reads_them_as_made_at_load(tmp_path, monkeypatch):
    """`choose x from [1, 2, 3]`: its step takes the options made at load as they are (no
    `tuple(...)` copy, no test for an empty or too long list), and offers and plays them."""
    game, texts = _load(tmp_path, monkeypatch)
    steps = [t for t in texts if "vm.suspend(" in t]
    assert steps and all("values = _k" in t and "_unusual" not in t and "tuple(_k" not in t for t in steps)
    state = game.start(players=2)
    assert game.labels(state) == ["take 1", "take 2", "take 3"]
    assert game.var(game.apply_index(state, 2), "picks") == (3,)
    end = game.playout(game.start(players=2, seed=4), random.Random(4).randrange)
    assert end.result == ("a",) and game.var(end, "picks")[0] in (1, 2, 3)


def test_a_decision_between_options_computed_in_play_is_still_tested(tmp_path, monkeypatch):
    """Options computed in play may be none: the step tests them, and an empty list
    is the rule's error at the `choose` (or, `optional`, no answer)."""
    body = "choose y from [v for v in picks if v > 5] by b\n    "
    game, texts = _load(tmp_path, monkeypatch, body)
    assert any("_unusual" in t for t in texts if "vm.suspend(" in t)
    with pytest.raises(GameRuntimeError) as info:
        game.apply_index(game.start(players=2), 0)
    assert "a choice has no options" in info.value.diagnostics[0].message
    game, _ = _load(tmp_path, monkeypatch, body.replace("by b", "by b optional"))
    assert game.apply_index(game.start(players=2), 0).result == ("a",)


def test_a_write_keyed_by_a_seat_of_a_loop_over_the_seats_tests_no_seat(tmp_path, monkeypatch):
    """`for p in players { score[p] += 10 }` writes only seats in play: no test; the
    procedure's parameter and a loop over a list the rule wrote are still tested, and
    a seat out of play written through them stops the game (§3.1)."""
    game, texts = _load(tmp_path, monkeypatch)
    loop = [t for t in texts if "+= 10" in t]
    assert loop and all("seat_written" not in t for t in loop)
    assert any("seat_written" in t and "+ L[1]" in t for t in texts)  # add(p, n): score[p] += n
    state = game.start(players=2)
    assert game.var(state, "score") == {"a": 10, "b": 10}
    assert game.var(game.start(players=3), "score") == {"a": 10, "b": 10, "c": 10}
    game, _ = _load(tmp_path, monkeypatch, "for q in [a, c] {\n        score[q] += 1\n    }\n    ")
    with pytest.raises(GameRuntimeError) as info:
        game.apply_index(game.start(players=2), 0)
    assert "score[c] is written, but c is not in play" in info.value.diagnostics[0].message
    assert game.var(game.apply_index(game.start(players=3), 0), "score") == {"a": 11, "b": 10, "c": 11}
