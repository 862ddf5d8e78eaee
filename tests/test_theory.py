"""What search agents and game-theory tools ask of a game (interpreter/theory.py,
interpreter/chance.py, the IS-MCTS agent): returns and payoffs, chance mode, stable action
numbers, information states, resampling, and an IS-MCTS agent that never reads what its
seat cannot see. Every bundled game is played through chance mode and the action numbers."""

from __future__ import annotations

import math
import random
from functools import cache

import pytest

from interpreter import bundled_games, load_game
from interpreter.chance import CHANCE
from interpreter.mcts import ISMCTSAgent

GAMES = ["tictactoe", "kuhn_poker", "berlin_wall", "walls_and_wonders", "missiles_now", "twid", "downfall_of_empires"]


@cache
def chance_game(name):
    return load_game(name, chance=True)


@cache
def plain(name):
    return load_game(name)


def play(g, s, *labels):
    for label in labels:
        s = g.apply(s, label)
    return s


# ---- returns --------------------------------------------------------------------------------------
def test_the_default_returns_split_plus_one_among_winners_and_minus_one_among_losers():
    g = plain("twid")
    s = g.start(players=4, seed=1)
    assert g.returns(s) == {"us": 0.0, "eu": 0.0, "russia": 0.0, "china": 0.0}  # not over
    one = g.returns(s._replace(result=("china",)))
    assert one["china"] == 1.0 and math.isclose(one["us"], -1 / 3) and math.isclose(sum(one.values()), 0.0)
    assert g.returns(s._replace(result=("us", "eu"))) == {"us": 0.5, "eu": 0.5, "russia": -0.5, "china": -0.5}
    assert set(g.returns(s._replace(result=())).values()) == {0.0}  # nobody won
    assert g.utility_bounds() == (-1.0, 1.0) and g.metadata().zero_sum


def test_kuhn_poker_declares_its_payoff_the_chips_won():
    g = chance_game("kuhn_poker")
    s = play(g, g.start(), "draw Jack", "draw Queen")  # p1 holds the Jack, p2 the Queen
    assert g.current_player(s) == "p1" and g.labels(s) == ["check", "bet"]
    s = play(g, s, "bet", "call")
    assert g.result(s) == ("p2",) and g.returns(s) == {"p1": -2.0, "p2": 2.0}
    s = play(g, g.start(), "draw King", "draw Queen", "check", "bet", "fold")
    assert g.returns(s) == {"p1": -1.0, "p2": 1.0}
    m = g.metadata()
    assert g.utility_bounds() == (-2.0, 2.0) and m.zero_sum and m.chance and not m.perfect_information
    assert not m.simultaneous and (m.min_players, m.max_players) == (2, 2)


def test_a_payoff_with_bounds_the_wrong_way_round_is_refused(tmp_path):
    from interpreter import GameDefError

    path = tmp_path / "bad.game"
    path.write_text(
        'game bad "Bad" { players 2..2 }\npayoff p from 3 to -1: 0\n'
        'procedure play() {\n    rule "Play"\n    game over []\n}\n',
        encoding="utf-8",
    )
    with pytest.raises(GameDefError, match="a payoff from 3 to -1 is empty"):
        load_game(path)


def test_metadata_tells_perfect_information_and_secret_choices_apart():
    ttt, twid = plain("tictactoe").metadata(), plain("twid").metadata()
    assert ttt.perfect_information and not ttt.chance and not ttt.simultaneous
    assert not twid.perfect_information and twid.simultaneous and twid.chance


# ---- chance mode ----------------------------------------------------------------------------------
def test_a_shuffle_is_one_draw_per_card_with_its_probability():
    g = chance_game("kuhn_poker")
    s = g.start()
    assert g.current_player(s) == CHANCE and g.prompt(s) == "chance: the next card of a shuffle"
    first = g.chance_outcomes(s)
    assert [(m.label, p) for m, p in first] == [("draw Jack", 1 / 3), ("draw Queen", 1 / 3), ("draw King", 1 / 3)]
    s = play(g, s, "draw King")
    assert [(m.label, p) for m, p in g.chance_outcomes(s)] == [("draw Jack", 0.5), ("draw Queen", 0.5)]
    s = play(g, s, "draw Jack")  # the last card is what is left: no third draw
    assert g.current_player(s) == "p1"
    assert g.var(s, "hand") == {"p1": ("K",), "p2": ("J",)} and g.var(s, "deck") == ("Q",)


def test_a_roll_is_a_chance_decision_and_a_die_with_a_repeated_face_weighs_it(tmp_path):
    path = tmp_path / "dice.game"
    path.write_text(
        'game dice "Dice" { players 1..1 seats [p1] }\nvar got: int = 0\n'
        'procedure play() {\n    rule "Roll"\n    roll d from [1, 2, 2]\n    got = d\n'
        "    choose x from [d, d + 1] by p1\n    game over []\n}\n",
        encoding="utf-8",
    )
    g = load_game(path, chance=True)
    s = g.start()
    assert [(m.label, p) for m, p in g.chance_outcomes(s)] == [("roll 1", 1 / 3), ("roll 2", 2 / 3)]
    s = play(g, s, "roll 2")
    assert g.var(s, "got") == 2 and g.labels(s) == ["2", "3"]
    assert g.is_over(play(g, s, "3"))


@pytest.mark.parametrize("name", GAMES)
def test_every_bundled_game_plays_through_chance_mode_and_stable_action_numbers(name):
    """Random games (capped) in chance mode: every draw's probabilities sum to 1, every
    decision's action numbers are distinct, inside the space, and name their options back."""
    g = chance_game(name)
    actions = g.action_space()
    rng = random.Random(3)
    s = g.start()
    draws = 0
    for _ in range(400):
        if g.is_over(s):
            break
        ids = actions.ids(s)
        assert len(set(ids)) == len(ids) and all(0 <= a < actions.size for a in ids)
        i = rng.randrange(len(ids))
        assert actions.index(s, ids[i]) == i
        if g.current_player(s) == CHANCE:
            draws += 1
            assert math.isclose(sum(p for _, p in g.chance_outcomes(s)), 1.0)
        s = g.apply_index(s, i)
    assert (draws > 0) == g.metadata().chance


def test_an_action_number_is_the_same_move_in_every_position():
    g = plain("tictactoe")
    actions = g.action_space()
    s = g.start()
    a1 = actions.ids(s)[g.labels(s).index("a1")]
    later = play(g, s, "b2", "c3")
    assert actions.ids(later)[g.labels(later).index("a1")] == a1
    assert g.action_space() is actions  # made once


# ---- information states ---------------------------------------------------------------------------
def test_an_information_state_holds_what_the_seat_saw_and_nothing_else():
    g = chance_game("kuhn_poker")
    jq = play(g, g.start(), "draw Jack", "draw Queen")
    jk = play(g, g.start(), "draw Jack", "draw King")
    assert g.information_state(jq, "p1") == g.information_state(jk, "p1")  # p2's card unseen
    assert g.information_state(jq, "p2") != g.information_state(jk, "p2")
    bet = play(g, jq, "bet")
    assert g.information_state(bet, "p2") != g.information_state(jq, "p2")  # the bet is recalled
    assert "p1: bet" in g.information_state(bet, "p2")
    with pytest.raises(Exception, match="chance=True"):
        plain("kuhn_poker").information_state(plain("kuhn_poker").start(), "p1")


def test_a_secret_choice_is_recalled_by_its_chooser_only():
    g = chance_game("twid")
    s = g.start(players=2)
    while g.current_player(s) == CHANCE:
        s = g.apply_index(s, 0)
    chooser = g.current_player(s)
    label = g.labels(s)[0]
    after = g.apply_index(s, 0)
    other = next(p for p in after.players if p != chooser)
    assert f"{chooser}: {label}" in g.information_state(after, chooser)
    assert f"{chooser}: (secret choice)" in g.information_state(after, other)


# ---- resampling and IS-MCTS -----------------------------------------------------------------------
def test_resample_deals_the_hidden_cards_again_and_keeps_the_seats_own():
    g = plain("kuhn_poker")
    s = g.start(seed=4)
    mine = g.var(s, "hand")["p1"]
    rng = random.Random(0)
    theirs = set()
    for _ in range(40):
        r = g.resample(s, "p1", rng)
        assert g.var(r, "hand")["p1"] == mine and r.rng != s.rng
        assert sorted(g.var(r, "hand")["p2"] + g.var(r, "deck")) == sorted(g.var(s, "hand")["p2"] + g.var(s, "deck"))
        theirs.add(g.var(r, "hand")["p2"])
    assert len(theirs) == 2  # either hidden card may be the opponent's


def _swap_hidden_kuhn(g, s):
    """The same position for p2, p1's card and the deck's exchanged."""
    return g.with_var(g.with_var(s, "hand", {"p1": g.var(s, "deck")}), "deck", g.var(s, "hand")["p1"])


def test_ismcts_chooses_the_same_whatever_the_hidden_parts_hold():
    g = plain("kuhn_poker")
    for seed in range(6):
        s = play(g, g.start(seed=seed), "bet")  # p2 faces a bet
        other = _swap_hidden_kuhn(g, s)
        assert g.var(other, "hand")["p1"] != g.var(s, "hand")["p1"]
        assert ISMCTSAgent(60, seed=1).choose(g, s) == ISMCTSAgent(60, seed=1).choose(g, other)
    t = plain("twid")
    s = t.start(players=2, seed=2)
    hands, deck = t.var(s, "hand"), t.var(s, "deck")
    east = hands["east"]
    swapped = t.with_var(t.with_var(s, "hand", {"east": deck[: len(east)]}), "deck", east + deck[len(east) :])
    seat = s.pending.player
    assert seat == "west"
    assert ISMCTSAgent(20, seed=3).choose(t, s) == ISMCTSAgent(20, seed=3).choose(t, swapped)


def test_ismcts_wins_chips_from_a_random_kuhn_player():
    """IS-MCTS (100 iterations) against uniform random, 300 hands a side: its mean chips per
    hand has a 95% interval above 0."""
    g = plain("kuhn_poker")
    chips = []
    for seat in ("p1", "p2"):
        agent, rng = ISMCTSAgent(100, seed=7), random.Random(11)
        for hand in range(300):
            s = g.start(seed=hand)
            while not g.is_over(s):
                mine = s.pending.player == seat
                s = g.apply_index(s, agent.choose(g, s) if mine else rng.randrange(len(s.pending.values)))
            chips.append(g.returns(s)[seat])
    mean = sum(chips) / len(chips)
    sd = math.sqrt(sum((c - mean) ** 2 for c in chips) / (len(chips) - 1))
    assert mean - 1.96 * sd / math.sqrt(len(chips)) > 0, mean


def test_every_bundled_game_is_listed_here():
    assert set(GAMES) <= set(bundled_games())


def test_ismcts_refuses_a_game_whose_hidden_parts_it_cannot_redraw(capsys):
    from interpreter.cli import main
    from interpreter.theory import unresampled

    assert unresampled(plain("kuhn_poker")) == [] and unresampled(plain("twid")) == []
    assert unresampled(plain("downfall_of_empires")) == ["tiles", "tile_ready"]
    assert unresampled(plain("berlin_wall")) == ["the face-down fields of Piece"]
    assert main(["run", "downfall_of_empires", "--agent", "germany=ismcts:5"]) == 2
    err = capsys.readouterr().err
    assert "ismcts would read hidden values it cannot redraw in Downfall of Empires: tiles, tile_ready" in err
    with pytest.raises(Exception, match="face-down fields of PlayingCard"):
        ISMCTSAgent(5).choose(plain("walls_and_wonders"), plain("walls_and_wonders").start(players=2))


def test_a_payoff_outside_its_bounds_is_a_rule_error(tmp_path):
    from interpreter import GameRuntimeError

    path = tmp_path / "wide.game"
    path.write_text(
        'game wide "Wide" { players 2..2 seats [p1, p2] }\npayoff p from -1 to 1: 5\n'
        'procedure play() {\n    rule "Play"\n    win [p1]\n}\n',
        encoding="utf-8",
    )
    g = load_game(path)
    with pytest.raises(GameRuntimeError, match="the payoff of p1 is 5, outside -1 to 1"):
        g.returns(g.start())
