"""Walls and Wonders, rule by rule (rules/walls_and_wonders.md).

Positions are laid out between setup and the first turn (`Game.start(arrange=...)`,
through `waw_helpers.start`), so each test plays real moves from a position the rulebook
describes and asserts the state the rulebook says.
"""

from __future__ import annotations

import pytest
from waw_helpers import SUITS, card, cards_of, deck, game, slot, start, value

BUILD, WALL, ATTACK, DRAW = "place a card on your Wonder", "place a card on your wall", "attack", "draw a card"


def play(g, s, *labels):
    for label in labels:
        s = g.apply(s, label)
    return s


def wonder_of(g, s, owner):
    return {k: v for k, v in g.var(s, "wonder").items() if k.startswith(owner + " ") and v is not None}


# ---- the game landscape and the start ------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_setup_each_player_has_a_deck_turns_one_card_and_draws_five(players):
    g = game()
    s = g.start(players=players, seed=5)
    seats = s.players
    for p in seats:
        assert sorted(cards_of(g, s, p)) == sorted(deck(p))
        assert len(g.var(s, "hand")[p]) == 5
        discard = g.var(s, "discard")[p]
        assert g.var(s, "start_card")[p] == discard[0]
        assert len(g.var(s, "draw_pile")[p]) == 52 - 5 - len(discard)
        assert all(g.var(s, "face_up")[c] for c in discard)
    assert s.pending.player == g.var(s, "first_player")
    assert g.labels(s)[-1] == DRAW


def _strength(name: str) -> tuple[int, int]:
    """Rank first, then suit in the order spades > hearts > diamonds > clubs."""
    suit = name.split(" of ")[1].split(" ")[0]
    return value(name), list(SUITS.values()).index(suit)


def test_the_highest_starting_card_goes_first_ties_by_suit_and_equal_cards_draw_again():
    g = game()
    rank_ties = redraws = 0
    for seed in range(1, 120):
        s = g.start(players=4, seed=seed)
        turned = g.var(s, "discard")
        firsts = {p: turned[p][0] for p in s.players}
        values = [_strength(c)[0] for c in firsts.values()]
        top = max(values)
        if values.count(top) > 1:
            rank_ties += 1
        if any(len(turned[p]) > 1 for p in s.players):
            redraws += 1
            # only players whose first cards were equal and highest turned again
            again = {p for p in s.players if len(turned[p]) > 1}
            best = max(_strength(c) for c in firsts.values())
            assert again == {p for p in s.players if _strength(firsts[p]) == best}
            contenders = again
            k = 1
            while len(contenders) > 1:
                best = max(_strength(turned[p][k]) for p in contenders)
                contenders = {p for p in contenders if _strength(turned[p][k]) == best}
                k += 1
            assert g.var(s, "first_player") in contenders
        else:
            winner = max(s.players, key=lambda p: _strength(firsts[p]))
            assert g.var(s, "first_player") == winner
    assert rank_ties > 5 and redraws > 0  # the seeds cover both kinds of tie


def test_play_proceeds_clockwise_from_the_first_player():
    g = game()
    s = start(g, players=4, first="p3")
    order = []
    for _ in range(5):
        order.append(s.pending.player)
        s = g.apply(s, DRAW)
    assert order == ["p3", "p4", "p1", "p2", "p3"]


def test_drawing_takes_the_top_card_of_your_own_draw_pile():
    g = game()
    s = start(g, p1=dict(hand=["2c"], draw=["Ah", "3c"]), first="p1")
    s = g.apply(s, DRAW)
    assert g.var(s, "hand")["p1"] == (card("2c", "p1"), card("Ah", "p1"))
    assert g.var(s, "draw_pile")["p1"][0] == card("3c", "p1")


# ---- the Wonder ---------------------------------------------------------------------------------


def test_the_base_takes_only_ten_or_higher():
    g = game()
    s = start(g, p1=dict(hand=["9s", "10s", "Ah"]), first="p1")
    s = g.apply(s, BUILD)
    assert g.labels(s) == ["build with the 10 of spades", "build with the ace of hearts"]
    s = g.apply(s, "build with the 10 of spades")
    assert g.labels(s) == [f"on level 1 slot {k}" for k in range(1, 6)]
    s = g.apply(s, "on level 1 slot 2")
    assert wonder_of(g, s, "p1") == {slot("p1", 1, 2): card("10s", "p1")}
    assert g.var(s, "face_up")[card("10s", "p1")]


def test_a_nine_alone_cannot_build_and_the_action_is_not_offered():
    g = game()
    s = start(g, p1=dict(hand=["9s", "2c"]), first="p1")
    assert BUILD not in g.labels(s)


@pytest.mark.parametrize(
    "short, level, ok",
    [("10h", 2, False), ("Jh", 2, True), ("Jh", 3, False), ("Qh", 3, True), ("Qh", 4, False), ("Kh", 4, True)]
    + [("Kh", 5, False), ("Ah", 5, True)],
)
def test_each_level_has_its_minimum_card(short, level, ok):
    g = game()
    # a full pyramid up to the level below, one slot free at `level`
    tiers = {1: ["10s", "10d", "10c", "Jd", "Jc"], 2: ["Js", "Qd", "Qc", "Kd"], 3: ["Qs", "Kc", "Ks"], 4: ["Ac", "As"]}
    wonder = {(lv, i + 1): c for lv in range(1, level) for i, c in enumerate(tiers[lv])}
    s = start(g, p1=dict(hand=[short, "2c"], wonder=wonder), first="p1")
    if not ok:
        assert BUILD not in g.labels(s)
        return
    s = play(g, s, BUILD, f"build with the {card(short, 'p1').rsplit(' (', 1)[0]}")
    assert f"on level {level} slot 1" in g.labels(s)


def test_an_upper_card_needs_two_adjacent_supporting_cards():
    g = game()
    s = start(g, p1=dict(hand=["Qs"], wonder={(1, 1): "10s", (1, 3): "10h", (1, 4): "Jh"}), first="p1")
    s = play(g, s, BUILD, "build with the queen of spades")
    # slot 1 of level 2 rests on base slots 1 and 2 (2 empty); slot 3 rests on 3 and 4
    assert g.labels(s) == ["on level 1 slot 2", "on level 1 slot 5", "on level 2 slot 3"]


def test_the_single_ace_on_top_ends_the_game_with_a_construction_victory():
    g = game()
    tiers = {1: ["10s", "10d", "10c", "Jd", "Jc"], 2: ["Js", "Qd", "Qc", "Kd"], 3: ["Qs", "Kc", "Ks"], 4: ["Ac", "As"]}
    wonder = {(lv, i + 1): c for lv in range(1, 5) for i, c in enumerate(tiers[lv])}
    s = start(g, p1=dict(hand=["Ah"], wonder=wonder), first="p1")
    s = play(g, s, BUILD, "build with the ace of hearts", "on level 5 slot 1")
    assert g.result(s) == ("p1",)
    assert g.var(s, "wonder")[slot("p1", 5, 1)] == card("Ah", "p1")


# ---- the wall -------------------------------------------------------------------------------------


def test_a_wall_card_goes_face_down_in_front_of_a_base_card_and_its_choice_is_secret():
    g = game()
    s = start(g, p1=dict(hand=["9s", "2c"], wonder={(1, 2): "10s"}), first="p1")
    s = play(g, s, WALL)
    s2 = g.apply(s, "wall with the 9 of spades")
    assert g.move_view(s, g.legal_moves(s)[0], "p2") == "(secret choice)"
    assert g.labels(s2) == ["wall in front of slot 2 (0 cards)"]
    s2 = g.apply(s2, "wall in front of slot 2 (0 cards)")
    assert g.var(s2, "wall")[slot("p1", 1, 2)] == (card("9s", "p1"),)
    assert not g.var(s2, "face_up")[card("9s", "p1")]
    # the owner sees their own wall card; the opponent sees only whose card it is
    assert g.observation(s2, "p1")["vars"]["wall"][slot("p1", 1, 2)] == [card("9s", "p1")]
    assert g.observation(s2, "p2")["vars"]["wall"][slot("p1", 1, 2)] == [{"of": "PlayingCard", "owner": "p1"}]
    assert all("9 of spades" not in line for line in g.narrate(s2, "p2"))


def test_wall_cards_stack_on_a_wall_and_need_a_base_card_or_a_stack():
    g = game()
    # slot 1: base card; slot 3: a stack whose base card is gone; slot 5: nothing
    s = start(g, p1=dict(hand=["2c"], wonder={(1, 1): "10s"}, wall={3: ["4c"]}), first="p1")
    s = play(g, s, WALL, "wall with the 2 of clubs")
    assert g.labels(s) == ["wall in front of slot 1 (0 cards)", "wall in front of slot 3 (1 card)"]
    s = g.apply(s, "wall in front of slot 3 (1 card)")
    assert g.var(s, "wall")[slot("p1", 1, 3)] == (card("4c", "p1"), card("2c", "p1"))


def test_no_wall_without_a_base_card_or_stack():
    g = game()
    s = start(g, p1=dict(hand=["2c"]), first="p1")
    assert WALL not in g.labels(s)


# ---- attacks --------------------------------------------------------------------------------------


def test_only_opponent_locations_with_a_wall_or_base_card_can_be_attacked_once_each():
    g = game()
    s = start(
        g,
        players=3,
        p1=dict(hand=["5c", "6c", "7c"], wonder={(1, 1): "10s"}),
        p2=dict(wonder={(1, 2): "10s"}, wall={4: ["3c"]}),
        p3=dict(wonder={(1, 5): "10s"}),
        first="p1",
    )
    s = g.apply(s, ATTACK)
    assert g.labels(s) == ["attack p2 at slot 2", "attack p2 at slot 4", "attack p3 at slot 5"]
    s = play(g, s, "attack p2 at slot 4", "with the 5 of clubs")
    assert g.labels(s) == ["attack p2 at slot 2", "attack p3 at slot 5", "resolve the attack"]
    s = play(g, s, "attack p3 at slot 5", "with the 6 of clubs")
    assert g.labels(s) == ["attack p2 at slot 2", "resolve the attack"]


def test_an_exposed_base_card_falls_the_attacker_discarding_an_uncovered_wonder_card():
    g = game()
    s = start(
        g,
        p1=dict(hand=["2c"]),
        p2=dict(wonder={(1, 1): "10s", (1, 2): "Jh", (1, 3): "10h", (2, 1): "Qs"}, wall={1: ["9c"], 2: ["9d"]}),
        first="p1",
    )
    s = play(g, s, ATTACK, "attack p2 at slot 3", "with the 2 of clubs")
    # the card on level 2 covers base slots 1 and 2: only it and base slot 3 are uncovered
    assert g.labels(s) == ["discard p2's 10 of hearts", "discard p2's queen of spades"]
    s = g.apply(s, "discard p2's queen of spades")
    assert g.var(s, "wonder")[slot("p2", 2, 1)] is None
    assert g.var(s, "discard")["p2"][-1] == card("Qs", "p2")
    assert g.var(s, "discard")["p1"][-1] == card("2c", "p1")  # the attacker's card, in every case
    assert s.pending.player == "p2"


def test_a_lower_wall_card_is_discarded_and_an_emptied_stack_lets_the_attack_through():
    g = game()
    s = start(g, p1=dict(hand=["8c"]), p2=dict(wonder={(1, 4): "Ks"}, wall={4: ["7d"]}), first="p1")
    s = play(g, s, ATTACK, "attack p2 at slot 4", "with the 8 of clubs")
    assert g.var(s, "wall")[slot("p2", 1, 4)] == ()
    assert card("7d", "p2") in g.var(s, "discard")["p2"]
    assert g.labels(s) == ["discard p2's king of spades"]
    s = g.apply(s, "discard p2's king of spades")
    assert wonder_of(g, s, "p2") == {}


def test_a_lower_wall_card_over_another_is_discarded_but_the_wall_still_stands():
    g = game()
    s = start(g, p1=dict(hand=["8c"]), p2=dict(wonder={(1, 4): "Ks"}, wall={4: ["Ad", "7d"]}), first="p1")
    s = play(g, s, ATTACK, "attack p2 at slot 4", "with the 8 of clubs")
    assert g.var(s, "wall")[slot("p2", 1, 4)] == (card("Ad", "p2"),)
    assert not g.var(s, "face_up")[card("Ad", "p2")]  # only the top card was turned over
    assert wonder_of(g, s, "p2") == {slot("p2", 1, 4): card("Ks", "p2")}
    assert s.pending.player == "p2"


@pytest.mark.parametrize("wall_card", ["8d", "9d"])
def test_an_equal_or_higher_wall_card_holds_and_stays_known(wall_card):
    g = game()
    s = start(g, p1=dict(hand=["8c"]), p2=dict(hand=["2c"], wonder={(1, 4): "Ks"}, wall={4: [wall_card]}), first="p1")
    s = play(g, s, ATTACK, "attack p2 at slot 4", "with the 8 of clubs")
    top = card(wall_card, "p2")
    assert g.var(s, "wall")[slot("p2", 1, 4)] == (top,)
    assert g.var(s, "face_up")[top]
    assert g.var(s, "discard")["p1"][-1] == card("8c", "p1")
    # once turned over it stays known to everyone, also under a card added later
    s = play(g, s, WALL, "wall with the 2 of clubs", "wall in front of slot 4 (1 card)")
    seen = g.observation(s, "p1")["vars"]["wall"][slot("p2", 1, 4)]
    assert seen[0] == top and seen[1] == {"of": "PlayingCard", "owner": "p2"}


def test_attacks_on_several_locations_of_several_opponents_resolve_independently():
    g = game()
    s = start(
        g,
        players=3,
        p1=dict(hand=["Kc", "Qc", "2c", "3c"]),
        p2=dict(wonder={(1, 1): "10s", (1, 2): "10h"}, wall={1: ["5d"], 2: ["Ad"]}),
        p3=dict(wonder={(1, 3): "Js", (1, 4): "Jh"}),
        first="p1",
    )
    s = play(g, s, ATTACK, "attack p2 at slot 1", "with the king of clubs")
    s = play(g, s, "attack p2 at slot 2", "with the 2 of clubs")
    s = play(g, s, "attack p3 at slot 3", "with the queen of clubs")
    s = play(g, s, "attack p3 at slot 4", "with the 3 of clubs")  # the hand is empty: resolve
    # p2 slot 1: 5 < K breaks the only wall card: success; the attacker picks a Wonder card of p2
    assert g.labels(s) == ["discard p2's 10 of spades", "discard p2's 10 of hearts"]
    s = g.apply(s, "discard p2's 10 of hearts")
    # p2 slot 2: the ace holds against the 2; p3 slot 3 is exposed: success
    assert g.var(s, "wall")[slot("p2", 1, 2)] == (card("Ad", "p2"),)
    assert g.labels(s) == ["discard p3's jack of spades", "discard p3's jack of hearts"]
    s = g.apply(s, "discard p3's jack of spades")
    # p3 slot 4 exposed: a second success against p3
    assert g.labels(s) == ["discard p3's jack of hearts"]
    s = g.apply(s, "discard p3's jack of hearts")
    assert wonder_of(g, s, "p3") == {}
    assert wonder_of(g, s, "p2") == {slot("p2", 1, 1): card("10s", "p2")}
    assert sorted(g.var(s, "discard")["p1"][-4:]) == sorted(card(c, "p1") for c in ["Kc", "Qc", "2c", "3c"])
    assert s.pending.player == "p2"


def test_a_location_emptied_earlier_in_the_same_attack_has_nothing_left_to_hit():
    g = game()
    s = start(g, p1=dict(hand=["2c", "3c"]), p2=dict(wonder={(1, 1): "10s", (1, 2): "10h"}), first="p1")
    s = play(g, s, ATTACK, "attack p2 at slot 1", "with the 2 of clubs")
    s = play(g, s, "attack p2 at slot 2", "with the 3 of clubs")
    s = g.apply(s, "discard p2's 10 of hearts")  # the first success takes slot 2's card
    # slot 1 still stands; slot 2 was emptied: the second attack finds nothing there
    assert wonder_of(g, s, "p2") == {slot("p2", 1, 1): card("10s", "p2")}
    assert s.pending.player == "p2"
    assert any("nothing is left to attack" in line for line in g.narrate(s))


def test_an_attack_needs_a_card_in_hand_and_a_target():
    g = game()
    s = start(g, p1=dict(hand=["2c"]), p2=dict(), first="p1")
    assert ATTACK not in g.labels(s)


# ---- the end of the game --------------------------------------------------------------------------


def test_the_game_ends_when_every_hand_and_draw_pile_is_empty():
    g = game(victory="economic")
    s = start(
        g,
        p1=dict(hand=["Kc"], wonder={(1, 1): "10s"}, rest="discard"),
        p2=dict(wonder={(1, 1): "10s", (1, 2): "10h"}, rest="discard"),
        first="p1",
    )
    s = play(g, s, ATTACK, "attack p2 at slot 2", "with the king of clubs")
    s = g.apply(s, "discard p2's 10 of spades")
    # p1 and p2 both have one card in play: the economic victory needs strictly more
    assert g.is_over(s) and g.result(s) == ()


def test_a_player_with_cards_but_no_legal_action_passes_and_when_nobody_can_act_the_game_ends():
    g = game(victory="military")
    s = start(
        g,
        p1=dict(hand=["2c"], rest="discard"),  # nothing to build on, no wall, nothing to attack
        p2=dict(hand=["3c"], draw=["4c"], rest="discard"),
        first="p1",
    )
    assert s.pending.player == "p2" and g.labels(s) == [DRAW]
    assert "p1 has cards but no legal action and passes" in g.observation(s, "p2")["log"]
    s = g.apply(s, DRAW)  # p2 draws its last card; then neither player can ever act again
    assert g.is_over(s)
    # both discarded all 20 of their Wonder cards: nobody has fewer, so nobody wins
    assert g.result(s) == ()


# ---- victory conditions -------------------------------------------------------------------------------


def test_economic_victory_counts_wall_and_wonder_cards_in_play():
    g = game(victory="economic")
    s = start(
        g,
        p1=dict(hand=["2c"], wonder={(1, 1): "10s"}, wall={1: ["3c", "4c"]}, rest="discard"),
        p2=dict(wonder={(1, 1): "10s", (1, 2): "10h", (1, 3): "10d"}, rest="discard"),
        first="p1",
    )
    s = play(g, s, WALL, "wall with the 2 of clubs", "wall in front of slot 1 (2 cards)")
    assert g.result(s) == ("p1",)  # 4 cards in play against 3


def _attrition_case(p2_layout, players=2, p3_layout=None, discard="jack of spades"):
    """p1 attacks p2's exposed base slot 1; the success discards p2's `discard`."""
    g = game(victory="attrition")
    layouts = dict(p1=dict(hand=["2c", "3c"], wonder={(1, 1): "10s"}), p2=p2_layout, first="p1")
    if p3_layout is not None:
        layouts["p3"] = p3_layout
    s = start(g, players=players, **layouts)
    s = play(g, s, ATTACK, "attack p2 at slot 1", "with the 2 of clubs", "resolve the attack")
    return g, g.apply(s, f"discard p2's {discard}")


# p2's Wonder: a full base, 10 10 10 10 J; the 10 slots above need 10 cards J+, 6 Q+, 3 K+, 1 A.
FULL_BASE = {(1, 1): "10s", (1, 2): "10h", (1, 3): "10d", (1, 4): "10c", (1, 5): "Js"}
JUST_ENOUGH = ["Ac", "Ks", "Kh", "Kd", "Kc", "Qs", "Qh", "Jh", "Jd", "Jc"]


def test_attrition_the_attack_that_leaves_no_other_player_able_to_complete_a_wonder_wins():
    # before: exactly the ten cards needed; after losing the base jack, 11 slots need 10+ and 10 remain
    g, s = _attrition_case(dict(hand=JUST_ENOUGH[:5], draw=JUST_ENOUGH[5:], wonder=FULL_BASE, rest="discard"))
    assert g.var(s, "attrition_achieved") == {"p1": True, "p2": False}


def test_attrition_counts_walled_cards_as_out_of_reach():
    # one of the needed jacks sits in p2's wall: p2 could not complete even before the attack
    hand = [c for c in JUST_ENOUGH if c != "Jc"]
    g, s = _attrition_case(dict(hand=hand, wonder=FULL_BASE, wall={2: ["Jc"]}, rest="discard"))
    assert g.var(s, "attrition_achieved")["p1"] is False  # p1 did not make it impossible


def test_attrition_needs_an_ace_for_the_top():
    # enough Wonder cards for every slot, but no ace within reach: impossible from the start
    hand = [c for c in JUST_ENOUGH if c != "Ac"] + ["Qd", "Qc"]
    g, s = _attrition_case(dict(hand=hand, wonder=FULL_BASE, rest="discard"))
    assert g.var(s, "attrition_achieved")["p1"] is False


# p2's Wonder built up to one king on level 4: 10 10 10 10 J / J J Q K / Q Q Q / K
HIGH = {(1, 1): "10s", (1, 2): "10h", (1, 3): "10d", (1, 4): "10c", (1, 5): "Js"}
HIGH |= {(2, 1): "Jh", (2, 2): "Jd", (2, 3): "Qs", (2, 4): "Ks", (3, 1): "Qh", (3, 2): "Qd", (3, 3): "Qc", (4, 1): "Kc"}


@pytest.mark.parametrize(
    "reach, achieved",
    [
        # losing the level-3 queen: 3 empty slots need Q+, K+, A; an ace, a king and a jack are
        # three Wonder cards (enough in total) but only two of them are Q+: impossible
        (["Ac", "Kh", "Jc"], True),
        # an ace and two kings fill the queen's slot, the king's and the top: still possible
        (["Ac", "Kh", "Kd"], False),
    ],
)
def test_attrition_checks_each_level_not_only_the_total(reach, achieved):
    g, s = _attrition_case(dict(hand=reach, wonder=HIGH, rest="discard"), discard="queen of clubs")
    assert g.var(s, "wonder")[slot("p2", 3, 3)] is None
    assert g.var(s, "attrition_achieved")["p1"] is achieved


def test_attrition_needs_every_other_player_unable_in_a_multiplayer_game():
    p2 = dict(hand=JUST_ENOUGH, wonder=FULL_BASE, rest="discard")
    g, s = _attrition_case(p2, players=3, p3_layout=dict())  # p3 keeps a whole deck
    assert g.var(s, "attrition_achieved")["p1"] is False


def test_construction_precludes_attrition_and_a_wonder_ends_the_game():
    g = game("every_victory")
    tiers = {1: ["10s", "10d", "10c", "Jd", "Jc"], 2: ["Js", "Qd", "Qc", "Kd"], 3: ["Qs", "Kc", "Ks"], 4: ["Ac", "As"]}
    wonder = {(lv, i + 1): c for lv in range(1, 5) for i, c in enumerate(tiers[lv])}
    s = start(g, p1=dict(hand=["Ah"], wonder=wonder), p2=dict(wonder={(1, 1): "10s"}), first="p1")
    s = play(g, s, BUILD, "build with the ace of hearts", "on level 5 slot 1")
    log = "\n".join(g.narrate(s))
    assert "p1 meets the construction condition" in log
    assert "attrition" not in log
    # p1 has 15 cards in play against 1, and fewer Wonder cards discarded: p1 wins, p2 does not
    assert g.result(s) == ("p1",)


# ---- what the players see: discard piles, victory conditions, hidden victory cards ---------------


def _view(g, s, viewer):
    from interpreter.runtime.render import render

    return render(g, s, viewer).splitlines()


def test_discard_piles_are_face_up_and_shown_with_their_wonder_cards():
    """The Game Landscape / Starting the Game: the discard pile is face up (the starting cards
    are discarded face up); the military victory counts its 10, J, Q, K and A."""
    g = game(victory="military")
    s = start(g, p1=dict(hand=["2c"], discard=["Kh", "3d"]), p2=dict(discard=["5s"]), first="p1")
    lines = _view(g, s, "p2")
    at = lines.index("Discard piles (face up, top card last):")
    assert lines[at + 1 : at + 3] == [
        "    p1: KH, 3D (Wonder cards among them, 10 to A: 1)",
        "    p2: 5S (Wonder cards among them, 10 to A: 0)",
    ]
    # one condition agreed for all, no suit involved: the view names no suit
    assert "    p1: military" in lines and "Your victory condition: military" in lines


def test_a_successful_attack_names_the_defender_once():
    """Resolving attacks: the attacker discards one top card of the defender's Wonder; the move
    and the narration say whose card it is once."""
    g = game()
    s = start(g, p1=dict(hand=["Kc"]), p2=dict(wonder={(1, 1): "10s"}), first="p1")
    s = play(g, s, ATTACK, "attack p2 at slot 1", "with the king of clubs")
    assert g.labels(s) == ["discard p2's 10 of spades"]
    s = g.apply(s, "discard p2's 10 of spades")
    assert "p1 discards p2's 10 of spades from level 1 of the Wonder" in g.narrate(s)
    assert not any("(p2)" in line for line in g.narrate(s))


_TIERS = {1: ["10s", "10d", "10c", "Jd", "Jc"], 2: ["Js", "Qd", "Qc", "Kd"], 3: ["Qs", "Kc", "Ks"], 4: ["Ac", "As"]}
FULL_WONDER_BUT_TOP = {(lv, i + 1): c for lv in range(1, 5) for i, c in enumerate(_TIERS[lv])}


def test_hidden_victory_your_own_condition_is_in_your_view_only_and_every_card_is_revealed_at_the_end():
    """Winning the game: a second, hidden card determines each player's victory condition
    (interpretation: seen by its owner only, revealed to everyone at the end)."""
    g = game("hidden_victory")
    s = start(g, p1=dict(hand=["Ah"], wonder=FULL_WONDER_BUT_TOP), p2=dict(wonder={(1, 1): "10s"}), first="p1")
    suit_of = {"construction": "spades", "attrition": "hearts", "economic": "diamonds", "military": "clubs"}
    goals = {p: f"{goal} ({suit_of[goal]})" for p, goal in g.var(s, "goal").items()}
    cards = g.var(s, "victory_card")
    for viewer in ("p1", "p2"):
        lines = _view(g, s, viewer)
        assert [line for line in lines if line.startswith("Your victory")] == [
            f"Your victory condition: {goals[viewer]}"
        ]
        assert "    p1: a hidden victory card, revealed at the end" in lines
    spectator = _view(g, s, None)
    assert not any(line.startswith("Your victory condition") for line in spectator)
    s = play(g, s, BUILD, "build with the ace of hearts", "on level 5 slot 1")
    assert g.is_over(s)
    narration = g.narrate(s, None)
    spectator = _view(g, s, None)
    for p in ("p1", "p2"):
        name = cards[p].rsplit(" (", 1)[0]
        assert f"{p} reveals the hidden victory card: the {name}, {goals[p]}" in narration
        assert f"    {p}: {goals[p]}, by the {name}" in spectator
        assert g.var(s, "face_up")[cards[p]]


# ---- the Wonder drawn as a pyramid, hidden cards never shown as "none" ------------------------------


def _wonder_lines(lines, owner):
    """The five lines of `owner`'s Wonder in the view, level 5 first."""
    at = lines.index(f"  {owner}:", lines.index("Wonders (slot 1 on the left; each card rests on the two below it):"))
    return lines[at + 1 : at + 6]


def test_each_wonder_is_drawn_as_a_pyramid_each_card_centred_over_the_two_below_it():
    """Wonders: 'a pyramid of cards', each card above the base 'on top of two supporting cards
    from the previous level' (viewed edge on): each level is drawn centred over the one below,
    a card half over each of the two it rests on, not left-aligned in columns."""
    g = game()
    wonder = dict(FULL_WONDER_BUT_TOP)
    del wonder[(4, 1)], wonder[(3, 2)]
    s = start(g, p1=dict(hand=["Ah"], wonder=wonder), p2=dict(wonder={(1, 2): "10h", (1, 3): "Ad", (2, 2): "Kh"}))
    lines = _view(g, s, None)
    assert _wonder_lines(lines, "p1") == [
        "      level 5                 .",
        "      level 4              .    AS",
        "      level 3          QS     .    KS",
        "      level 2       JS    QD    QC    KD",
        "      level 1   10S   10D   10C    JD    JC",
    ]
    assert _wonder_lines(lines, "p2") == [
        "      level 5                 .",
        "      level 4              .     .",
        "      level 3           .     .     .",
        "      level 2        .    KH     .     .",
        "      level 1     .   10H    AD     .     .",
    ]
    # the geometry, whatever the cards: slot k of a level ends midway between the ends of
    # slots k and k + 1 below it (the cards it rests on)
    for owner in ("p1", "p2"):
        rows = _wonder_lines(lines, owner)
        ends = {}
        for level, line in zip(range(5, 0, -1), rows, strict=True):
            cells = line[len("      level 5") :]
            ends[level] = [
                i + 1 for i in range(len(cells)) if cells[i] != " " and (i + 1 == len(cells) or cells[i + 1] == " ")
            ]
            assert len(ends[level]) == 6 - level
        for level in range(2, 6):
            for k in range(6 - level):
                assert 2 * ends[level][k] == ends[level - 1][k] + ends[level - 1][k + 1], (owner, level, k)


def test_face_down_wall_cards_and_hidden_hands_are_shown_as_such_never_as_none():
    """Placing a wall card: face down; the hand and draw pile are hidden. A zone that holds
    hidden cards reads as its face-down cards or their number, never 'none'."""
    g = game()
    s = start(g, p1=dict(hand=["2c", "3c"], wonder={(1, 1): "10s"}, wall={1: ["9d", "4h"]}), first="p1")
    for viewer in (None, "p2"):
        lines = _view(g, s, viewer)
        assert "Walls (top card last):" in lines
        at = lines.index("Walls (top card last):")
        assert lines[at + 1 : at + 3] == ["  p1:", "      before base slot 1: ??, ??"]
        assert "    p1: 2 in hand, 47 to draw, 0 discarded" in lines
    own = _view(g, s, "p1")
    assert "      before base slot 1: 9D, 4H" in own
    assert "Your hand: 2C, 3C" in own


# ---- wording: counts, card names in choices, the victory conditions reported ----------------------


def test_counts_of_one_card_are_singular_in_prompts_labels_narration_and_view():
    g = game(victory="military")
    s = start(g, p1=dict(hand=["2c"], wonder={(1, 1): "10s"}, discard=["Kh"]), first="p1")
    assert g.prompt(s).startswith("p1: your action (1 card in hand,")
    s = play(g, s, WALL, "wall with the 2 of clubs")
    assert g.labels(s) == ["wall in front of slot 1 (0 cards)"]
    s = g.apply(s, "wall in front of slot 1 (0 cards)")
    assert "p1 adds a face-down card to the wall in front of slot 1 (1 card)" in g.narrate(s)
    lines = _view(g, s, "p2")
    assert any(line.startswith("    p1: ") and line.endswith("(Wonder cards among them, 10 to A: 1)") for line in lines)


def test_a_players_own_cards_are_named_without_their_owner_in_labels_and_prompts():
    """Each player has their own deck: a player's options are their own cards, so the move
    and its prompt name the card alone."""
    g = game()
    s = start(g, p1=dict(hand=["Js", "2c"]), first="p1")
    s = g.apply(s, BUILD)
    assert g.labels(s) == ["build with the jack of spades"]
    s = g.apply(s, "build with the jack of spades")
    assert g.prompt(s) == "where does the jack of spades go?"
    s = g.apply(s, "on level 1 slot 1")
    s = g.apply(s, DRAW)  # p2
    s = g.apply(s, WALL)
    assert g.labels(s) == ["wall with the 2 of clubs"]


def test_with_one_condition_for_all_only_that_condition_is_reported_and_no_suit_is_named():
    """Winning the game: players could agree beforehand what constitutes victory; only that
    condition decides, so the end reports no other (p2, with no 10 to A discarded, would meet military)."""
    g = game()
    s = start(
        g,
        p1=dict(hand=["Ah"], wonder=FULL_WONDER_BUT_TOP, discard=["Kh", "Qh"]),
        p2=dict(wonder={(1, 1): "10s"}, wall={1: ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]}),
        first="p1",
    )
    s = play(g, s, BUILD, "build with the ace of hearts", "on level 5 slot 1")
    log = g.narrate(s)
    assert "p1 meets the construction condition" in log
    assert not any(line.startswith("p2 meets") for line in log)
    assert g.result(s) == ("p1",)
    lines = _view(g, s, "p1")
    assert "    p1: construction" in lines and "Your victory condition: construction" in lines


def test_the_suit_variants_name_the_suit_beside_the_condition():
    g = game("suit_victory")
    s = start(g, p1=dict(hand=["2c"]), first="p1")
    goal = g.var(s, "goal")["p1"]
    suit = {"construction": "spades", "attrition": "hearts", "economic": "diamonds", "military": "clubs"}[goal]
    lines = _view(g, s, "p2")
    assert f"    p1: {goal} ({suit})" in lines
