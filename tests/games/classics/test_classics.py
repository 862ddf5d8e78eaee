"""Two classic games written in the gamedef language: tic-tac-toe and Kuhn poker.

Scripted games, played by move labels, whose results are checked against the rules.
"""

from __future__ import annotations

import pytest
from repo_paths import ROOT

from interpreter import IllegalMove, load_game

EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def ttt():
    return load_game(EXAMPLES / "tictactoe.game")


@pytest.fixture(scope="module")
def kuhn():
    return load_game(EXAMPLES / "kuhn_poker.game")


def play(game, state, labels):
    for label in labels:
        assert not game.is_over(state), f"game ended before {label!r}"
        state = game.apply(state, label)
    return state


def var(game, state, name):
    """A variable's value; a map variable comes back as a dict keyed by its domain."""
    info = game.compiled.vars[name]
    value = state.vars[info.slot]
    return dict(zip(info.keys, value, strict=True)) if info.keys is not None else value


# ---- tic-tac-toe -------------------------------------------------------------------------------
def test_ttt_opening(ttt):
    s = ttt.start(players=2, seed=0)
    assert ttt.current_player(s) == "x"
    assert [m.label for m in ttt.legal_moves(s)] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    s = ttt.apply(s, "b2")
    assert ttt.current_player(s) == "o"
    assert "b2" not in [m.label for m in ttt.legal_moves(s)]
    assert len(ttt.legal_moves(s)) == 8


def test_ttt_x_wins_on_a_diagonal(ttt):
    s = play(ttt, ttt.start(players=2), ["a1", "b1", "b2", "c1", "c3"])
    assert ttt.is_over(s) and ttt.result(s) == ("x",)
    assert ttt.legal_moves(s) == []


def test_ttt_x_wins_on_the_other_diagonal(ttt):
    s = play(ttt, ttt.start(players=2), ["c1", "a1", "b2", "b1", "a3"])
    assert ttt.result(s) == ("x",)


def test_ttt_o_wins_a_column(ttt):
    s = play(ttt, ttt.start(players=2), ["a1", "b1", "a2", "b2", "c3", "b3"])
    assert ttt.result(s) == ("o",)


def test_ttt_o_wins_a_row(ttt):
    s = play(ttt, ttt.start(players=2), ["a1", "a2", "b1", "b2", "a3", "c2"])
    assert ttt.result(s) == ("o",)


def test_ttt_draw(ttt):
    # X O X / X O O / O X X
    s = play(ttt, ttt.start(players=2), ["a1", "b1", "c1", "b2", "b3", "a3", "a2", "c2", "c3"])
    assert ttt.is_over(s) and ttt.result(s) == ()


def test_ttt_win_on_the_last_square_is_not_a_draw(ttt):
    # X O X / O X O / O X X: the ninth mark completes the diagonal
    s = play(ttt, ttt.start(players=2), ["a1", "b1", "c1", "a2", "b2", "c2", "b3", "a3", "c3"])
    assert ttt.result(s) == ("x",)


def test_ttt_illegal_moves(ttt):
    s = ttt.apply(ttt.start(players=2), "a1")
    with pytest.raises(IllegalMove):
        ttt.apply(s, "a1")  # occupied
    with pytest.raises(IllegalMove):
        ttt.apply(s, "d4")  # no such square


# ---- Kuhn poker ---------------------------------------------------------------------------------
def deal(kuhn, p1: str, p2: str):
    """The start of a hand dealing `p1` and `p2` their cards, found by searching seeds."""
    for seed in range(200):
        s = kuhn.start(players=2, seed=seed)
        if var(kuhn, s, "hand") == {"p1": (p1,), "p2": (p2,)}:
            return s
    raise AssertionError(f"no seed deals {p1} and {p2}")


def test_kuhn_setup(kuhn):
    s = kuhn.start(players=2, seed=0)
    hand = var(kuhn, s, "hand")
    assert sorted(hand["p1"] + hand["p2"] + var(kuhn, s, "deck")) == ["J", "K", "Q"]
    assert var(kuhn, s, "chips") == {"p1": 1, "p2": 1} and var(kuhn, s, "pot") == 2
    assert var(kuhn, s, "shown") == {"p1": (), "p2": ()}
    assert kuhn.current_player(s) == "p1"
    assert [m.label for m in kuhn.legal_moves(s)] == ["check", "bet"]
    # hands are private, the deck unseen, and each deal is logged to its owner only
    assert kuhn.compiled.vars["hand"].seen_by == "owner"
    assert kuhn.compiled.vars["deck"].seen_by == "none"
    mine = {p: [line for line in kuhn.narrate(s, p) if "dealt" in line] for p in ("p1", "p2")}
    title = {"J": "Jack", "Q": "Queen", "K": "King"}
    assert mine == {p: [f"{p} is dealt {title[hand[p][0]]}"] for p in ("p1", "p2")}


def test_kuhn_bet_fold(kuhn):
    s = play(kuhn, deal(kuhn, "J", "K"), ["bet"])
    assert kuhn.current_player(s) == "p2"
    assert [m.label for m in kuhn.legal_moves(s)] == ["fold", "call"]
    s = play(kuhn, s, ["fold"])
    assert kuhn.result(s) == ("p1",)  # a bluff with the Jack takes the pot
    assert var(kuhn, s, "chips") == {"p1": 3, "p2": 1}
    assert var(kuhn, s, "shown") == {"p1": (), "p2": ()}  # no showdown after a fold


@pytest.mark.parametrize(
    "p1, p2, winner, chips",
    [
        ("K", "J", "p1", {"p1": 3, "p2": 1}),
        ("J", "Q", "p2", {"p1": 1, "p2": 3}),
    ],
)
def test_kuhn_check_check_showdown(kuhn, p1, p2, winner, chips):
    s = play(kuhn, deal(kuhn, p1, p2), ["check"])
    assert kuhn.current_player(s) == "p2"
    assert [m.label for m in kuhn.legal_moves(s)] == ["check", "bet"]
    s = play(kuhn, s, ["check"])
    assert kuhn.result(s) == (winner,)
    assert var(kuhn, s, "chips") == chips and var(kuhn, s, "pot") == 0
    assert var(kuhn, s, "shown") == {"p1": (p1,), "p2": (p2,)}


@pytest.mark.parametrize(
    "p1, p2, winner, chips",
    [
        ("Q", "K", "p2", {"p1": 0, "p2": 4}),
        ("K", "Q", "p1", {"p1": 4, "p2": 0}),
    ],
)
def test_kuhn_check_bet_call(kuhn, p1, p2, winner, chips):
    s = play(kuhn, deal(kuhn, p1, p2), ["check", "bet"])
    assert kuhn.current_player(s) == "p1"
    assert [m.label for m in kuhn.legal_moves(s)] == ["fold", "call"]
    s = play(kuhn, s, ["call"])
    assert kuhn.result(s) == (winner,)
    assert var(kuhn, s, "chips") == chips
    assert var(kuhn, s, "shown") == {"p1": (p1,), "p2": (p2,)}


def test_kuhn_check_bet_fold(kuhn):
    s = play(kuhn, deal(kuhn, "K", "J"), ["check", "bet", "fold"])
    assert kuhn.result(s) == ("p2",)
    assert var(kuhn, s, "chips") == {"p1": 1, "p2": 3}


def test_kuhn_bet_call(kuhn):
    s = play(kuhn, deal(kuhn, "Q", "J"), ["bet", "call"])
    assert kuhn.result(s) == ("p1",)
    assert var(kuhn, s, "chips") == {"p1": 4, "p2": 0}


def test_kuhn_wrong_labels(kuhn):
    s = kuhn.start(players=2, seed=0)
    with pytest.raises(IllegalMove):
        kuhn.apply(s, "call")  # nothing to call yet
    with pytest.raises(IllegalMove):
        kuhn.apply(play(kuhn, s, ["bet"]), "check")  # facing a bet: fold or call


def test_kuhn_hands_are_hidden_until_the_showdown(kuhn):
    pytest.importorskip("interpreter.runtime.observe")
    s = deal(kuhn, "Q", "K")
    seen = kuhn.observation(s, "p1")["vars"]
    assert seen["hand"]["p1"] == ["Q"] and seen["hand"]["p2"] != ["K"]
    assert seen["deck"] != ["J"]
    s = play(kuhn, s, ["check", "check"])
    assert kuhn.observation(s, "p1")["vars"]["shown"] == {"p1": ["Q"], "p2": ["K"]}
