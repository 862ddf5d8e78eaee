"""Walls and Wonders' estimate (gamedefs/walls_and_wonders.game, docs §3.20), read by the
one-ply `greedy` agent: in positions laid out before the first turn, the whole turn greedy
plays follows the rulebook's "Tips" and its goal (a complete five-tier Wonder).
"""

from __future__ import annotations

import pytest
from waw_helpers import game, start

from interpreter.play.mcts import GreedyAgent


def turn(g, s, seed: int, seat: str = "p1") -> list[str]:
    """The labels of the moves greedy makes in `seat`'s turn (its action and what follows)."""
    made = []
    while s.result is None and s.pending.player == seat:
        i = GreedyAgent(seed).choose(g, s)
        made.append(g.labels(s)[i])
        s = g.apply_index(s, i)
    return made


def test_a_low_card_that_fits_is_built_and_the_ace_kept():
    """Wonders: the base takes 10 or higher, the top a single Ace. Tips: "conserve high value
    cards, so that you have them in hand when you reach the upper tiers": with a 10 and an
    Ace that both fit the empty base, greedy never builds the Ace, and builds the 10 on most
    seeds (else it draws: it scores a draw in a redrawn draw pile, and some have a high card
    on top)."""
    g = game()
    s = start(g, p1=dict(hand=["10h", "As", "3c"]), first="p1")
    made = [turn(g, s, seed)[:2] for seed in range(10)]
    assert all(m in (["place a card on your Wonder", "build with the 10 of hearts"], ["draw a card"]) for m in made)
    assert made.count(["draw a card"]) <= 3, made


@pytest.mark.parametrize("seed", range(3))
def test_an_exposed_base_card_is_walled_with_a_nine(seed):
    """Attacking another player's wall / Resolving attacks: an exposed base card falls to any
    attack, and a wall card holds against an equal or lower card. Tips: "nines are valuable
    wall cards": with nothing to build, greedy walls its exposed base card with the 9 of
    its hand rather than the 2, or drawing."""
    g = game()
    s = start(g, p1=dict(hand=["2c", "9d", "5h"], wonder={(1, 1): "10s"}), first="p1")
    made = turn(g, s, seed)
    assert made == ["place a card on your wall", "wall with the 9 of diamonds", "wall in front of slot 1 (0 cards)"]


@pytest.mark.parametrize("seed", range(3))
def test_the_last_reachable_ace_is_not_spent_on_the_base(seed):
    """Wonders: the fifth level is a single Ace; Tips: "all players have the cards they need
    ... if they can get to them and keep them out of the discard pile". With three Aces
    discarded, building the last one on the base would leave the Wonder without its top:
    greedy draws instead."""
    g = game()
    s = start(g, p1=dict(hand=["As", "4c"], discard=["Ac", "Ad", "Ah"]), first="p1")
    assert "place a card on your Wonder" in g.labels(s)
    assert turn(g, s, seed) == ["draw a card"]
