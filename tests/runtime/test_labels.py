"""Labels of moves: written once for options that read nothing but themselves, written
again at every decision when they read the position."""

from __future__ import annotations

import textwrap

import pytest

from interpreter import IllegalMove, Move, load_game

GAME = """
game labels "Labels" {
    players 1..1
    seats [p1]
}
var score: int = 0
procedure play() {
    rule "Play: three picks"
    for round in 1..3 {
        choose n from [1, 2] by p1 label "take {n}"
        choose m from [1, 2] by p1 label "add {m} to {score}"
        score += n + m
    }
    game over [p1]
}
"""


def test_labels_that_read_the_position_follow_it_and_others_are_kept(tmp_path):
    path = tmp_path / "labels.game"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    game = load_game(path)
    state = game.start(players=1, seed=1)
    seen = []
    firsts = []
    while state.result is None:
        labels = game.labels(state)
        seen.append(labels)
        if labels[0].startswith("take"):
            firsts.append(game._shared_labels(state))
        state = game.apply(state, labels[-1])
    assert seen == [
        ["take 1", "take 2"],
        ["add 1 to 0", "add 2 to 0"],
        ["take 1", "take 2"],
        ["add 1 to 4", "add 2 to 4"],  # the score read anew
        ["take 1", "take 2"],
        ["add 1 to 8", "add 2 to 8"],
    ]
    assert firsts[0] is firsts[1] is firsts[2]  # "take {n}" reads only n: written once


LOCALS = """
game locals "Labels of locals" {
    players 1..1
    seats [p1]
}
var score: int = 0
procedure play() {
    rule "Play: a pick per round, its labels reading the round's locals"
    for round in 1..2 {
        let bonus = [10, 20][round - 1]
        choose k from [1, 2] by p1 label "{k} + {bonus} in round {round}"
        score += k + bonus
    }
    game over [p1]
}
"""


def test_labels_that_read_locals_are_kept_by_their_values(tmp_path):
    """A label reading its option and the procedure's locals (and lists the rule wrote)
    is the same for the same values of them: written once, in any game, and the moves
    with it; a local with another value gives other labels."""
    path = tmp_path / "locals.game"
    path.write_text(textwrap.dedent(LOCALS), encoding="utf-8")
    game = load_game(path)
    kept, moves = [], []
    for seed in (1, 2):
        state = game.start(players=1, seed=seed)
        labels = []
        while state.result is None:
            labels.append(game.labels(state))
            kept.append(game._shared_labels(state))
            moves.append(game.legal_moves(state))
            state = game.apply(state, moves[-1][0])
        assert labels == [["1 + 10 in round 1", "2 + 10 in round 1"], ["1 + 20 in round 2", "2 + 20 in round 2"]]
        assert game.var(state, "score") == 1 + 10 + 1 + 20
    assert kept[0] is kept[2] and kept[1] is kept[3] and kept[0] is not kept[1]
    assert moves[0][0] is moves[2][0] and moves[1][1] is moves[3][1]


def test_the_same_labels_for_another_player_are_that_players_moves():
    """Kuhn poker asks both players "check or bet" with the same options: the labels are
    kept once for those values, and each player's moves name that player, in a new list
    each time (a caller may change it)."""
    game = load_game("kuhn_poker")
    first = game.start(players=2, seed=3)
    moves = game.legal_moves(first)
    assert [(m.player, m.label) for m in moves] == [("p1", "check"), ("p1", "bet")]
    moves.clear()
    second = game.apply(first, "check")
    assert [(m.player, m.label) for m in game.legal_moves(second)] == [("p2", "check"), ("p2", "bet")]
    assert [(m.player, m.label) for m in game.legal_moves(first)] == [("p1", "check"), ("p1", "bet")]


def test_a_move_just_offered_is_applied_and_any_other_is_found_by_its_label_or_refused():
    """`apply(state, move)` with a move `legal_moves(state)` just gave finds it among them
    (interpreter/runtime/engine.py, `_offered`); a label, an equal move made anew, or a move of
    another state all give the same positions, and another player's move is refused."""
    game = load_game("kuhn_poker")
    first = game.start(players=2, seed=3)
    moves = game.legal_moves(first)
    by_move = game.apply(first, moves[1])
    assert by_move.vars == game.apply_index(first, 1).vars
    assert game.apply(first, "bet").vars == by_move.vars
    assert game.apply(first, Move("p1", "bet")).vars == by_move.vars
    game.legal_moves(by_move)  # another state's moves offered last
    assert game.apply(first, moves[0]).vars == game.apply_index(first, 0).vars
    game.legal_moves(first)
    with pytest.raises(IllegalMove, match="it is p1's decision, not p2's"):
        game.apply(first, Move("p2", "bet"))
    with pytest.raises(IllegalMove):
        game.apply(first, Move("p1", "fold"))
