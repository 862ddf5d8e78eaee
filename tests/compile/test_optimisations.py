"""The compiler's optimisations change nothing a game does (docs/architecture.md).

`load_game(..., optimise=False)` compiles the rules as written: no procedure or def
written in place of its call, no def turned into a table, no query answered in place, no
run of statements joined into one generated function. Every canonical transcript and
many random games are played both ways, and every position (variables and the random
generator), the moves offered, the lines logged and the result must be the same.
"""

from __future__ import annotations

import random

import pytest
from repo_paths import TESTS

from interpreter import load_game
from interpreter.runtime.saving import read_transcript

TRANSCRIPTS = sorted((TESTS / "transcripts").glob("*.toml"))
SMALL = ("base_", "tictactoe", "kuhn", "crazy", "gravity", "fast_forward", "nullo", "pair", "on_again", "wall_of")
_games: dict = {}


def both(name: str, variants=(), options=None):
    key = (name, tuple(variants), tuple(sorted((options or {}).items())))
    if key not in _games:
        _games[key] = (
            load_game(name, variants=variants, options=options or {}),
            load_game(name, variants=variants, options=options or {}, optimise=False),
        )
    return _games[key]


def same_game(fast, slow, a, b, moves) -> int:
    """Plays `moves` (labels, or a random generator's picks) on both; the count played."""
    n = 0
    while a.result is None:
        labels = fast.labels(a)
        assert labels == slow.labels(b), f"decision {n}: the moves offered differ"
        assert a.vars == b.vars and a.rng == b.rng, f"decision {n}: the positions differ"
        assert fast.narrate(a) == slow.narrate(b), f"decision {n}: the lines logged differ"
        if isinstance(moves, random.Random):
            i = moves.randrange(len(labels))
        else:
            if n >= len(moves):
                break
            i = labels.index(moves[n].split(": ", 1)[1])
        a, b = fast.apply_index(a, i), slow.apply_index(b, i)
        n += 1
    assert a.result == b.result and a.vars == b.vars and fast.narrate(a) == slow.narrate(b)
    return n


LOOP_AT_THE_START = """
game g {
    players 1..1
    seats [solo]
}
var deck: list int = [1, 2, 3, 4, 5, 6]
var hand: list int = []
var reshuffles: int = 0
procedure draw_all() {
    rule "Dealing"
    while count(hand) < 4 {
        hand = append(hand, deck[0])
        deck = without(deck, deck[0])
    }
}
procedure play() {
    rule "Play"
    if count(deck) > 0 {
        reshuffles += 1
        log "the deck is prepared ({count(deck)} cards)"
    }
    draw_all()
    choose x from hand by solo label "keep {x}"
    win solo
}
"""


@pytest.mark.parametrize("optimise", [True, False])
def test_a_loop_at_the_start_of_a_procedure_written_in_place_repeats_nothing_before_it(tmp_path, optimise):
    """A run of statements followed by a call of a procedure whose body starts with a
    `while` runs once, however many times the loop turns (the optimised build once joined
    the run to the loop's test, so each turn ran it again: The Wall is Down's round 7
    shuffled the deck again between each pass of the deal)."""
    path = tmp_path / "g.game"
    path.write_text(LOOP_AT_THE_START, encoding="utf-8")
    game = load_game(path, optimise=optimise)
    state = game.start(players=1, seed=1)
    assert game.var(state, "reshuffles") == 1
    assert game.var(state, "hand") == (1, 2, 3, 4)
    assert [line for line in game.narrate(state) if "prepared" in line] == ["the deck is prepared (6 cards)"]


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, id=p.stem, marks=() if p.stem.startswith(SMALL) else pytest.mark.slow) for p in TRANSCRIPTS],
)
def test_every_canonical_transcript_plays_the_same_with_the_optimisations_off(path):
    t = read_transcript(path)
    fast, slow = both(t.game, t.variants, t.options)
    a, b = fast.start(players=t.players, seed=t.seed), slow.start(players=t.players, seed=t.seed)
    assert same_game(fast, slow, a, b, t.moves) == len(t.moves)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, players",
    [
        ("tictactoe", 2),
        ("kuhn_poker", 2),
        ("berlin_wall", 3),
        ("walls_and_wonders", 3),
        ("missiles_now", 3),
        ("twid", 2),
        ("twid", 4),
        ("downfall_of_empires", 4),
    ],
)
def test_random_games_play_the_same_with_the_optimisations_off(name, players):
    fast, slow = both(name)
    games = 40 if name in ("tictactoe", "kuhn_poker", "berlin_wall") else 6
    for seed in range(games):
        a, b = fast.start(players=players, seed=seed), slow.start(players=players, seed=seed)
        same_game(fast, slow, a, b, random.Random(seed))


SAME_CALLS = """
game g {
    players 1..1
    seats [solo]
}
var pile: list int = [4, 9, 2, 7]
var big: int = 0
var small: int = 0
var both: int = 0
def above(xs: list int, n: int) = [x for x in xs if x > n]
def spread(xs: list int, n: int) = count(above(xs, n)) + count(above(xs, n + 1))
procedure first_pass() {
    rule "First"
    big = spread(pile, 3)
    small = spread(pile, 3) - count(above([1, 5], 3))
}
procedure play() {
    rule "Play"
    first_pass()
    both = spread(pile, 3) + count([y for y in pile if count(above(pile, y)) > 0])
    choose x from pile by solo label "keep {x}"
    win solo
}
"""


@pytest.mark.parametrize("optimise", [True, False])
def test_a_def_written_in_place_with_the_same_arguments_is_built_once(tmp_path, monkeypatch, optimise):
    """A def's body written in place again with the same argument trees (here `spread(pile,
    3)`, three times, through a procedure written in place) is built once and that tree
    given again; the game plays as written: `above(pile, 3)` is [4, 9, 7], `above(pile,
    4)` [9, 7], `above([1, 5], 3)` [5], and every item of the pile but 9 has one above it."""
    from interpreter.compile import expressions
    from interpreter.language import syntax

    path = tmp_path / "g.game"
    path.write_text(SAME_CALLS, encoding="utf-8")
    built: list[str] = []
    node = expressions.ExpressionCompiler._node

    def counting(self, e, scope, py):
        if self._inlining[-1:] == ["spread"] and type(e) is syntax.BinOp and type(e.left) is syntax.Call:
            built.append("spread")  # its body, being written in place
        return node(self, e, scope, py)

    monkeypatch.setattr(expressions.ExpressionCompiler, "_node", counting)
    game = load_game(path, optimise=optimise)
    state = game.start(players=1, seed=1)
    assert (game.var(state, "big"), game.var(state, "small"), game.var(state, "both")) == (5, 4, 8)
    if optimise:  # spread's body (`count(above(...)) + ...`) built once for its three calls
        assert built == ["spread"]
