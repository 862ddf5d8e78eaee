"""Walls and Wonders invariants over random playouts, for 2 to 8 players and each variant.

Every game ends (the cards run out, a Wonder is finished, or nobody can act), with a
legal move in every live state; each player's 52 cards are conserved after every move;
a game replayed from its labels reaches the same states; and no observation or log line
a player can read names a card that player may not see (another player's hand, draw pile,
unrevealed wall card or hidden victory card, or the player's own draw pile).
"""

from __future__ import annotations

import json
import random
import re

import pytest
from waw_helpers import VARIANTS, cards_of, deck, game

from interpreter import Move

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # Walls and Wonders: 2 and 3 players of each variant stay; 4 to 8 players are slow.
    r"\w+\[\w+-[4-8]p\]",
]

CONFIGS = [((), n) for n in (2, 3, 4, 5, 6, 8)] + [((v,), n) for v in VARIANTS for n in (2, 3, 4)]
IDS = [f"{'+'.join(v) or 'base'}-{n}p" for v, n in CONFIGS]
CARD_NAME = re.compile(r"\b(?:[2-9]|10|jack|queen|king|ace) of (?:clubs|diamonds|hearts|spades)\b")


def playout(g, players: int, seed: int):
    s = g.start(players=players, seed=seed)
    rng = random.Random(seed)
    yield s
    while not g.is_over(s):
        assert s.pending is not None and len(s.pending.values) > 0, "no legal move in a live game"
        s = g.apply_index(s, rng.randrange(len(s.pending.values)))
        yield s


_RECORDED: dict = {}


def recorded(variants, players, seed=1) -> list:
    key = (variants, players, seed)
    if key not in _RECORDED:
        _RECORDED[key] = list(playout(game(*variants), players, seed))
    return _RECORDED[key]


@pytest.mark.parametrize("variants, players", CONFIGS, ids=IDS)
def test_every_game_ends_and_each_players_52_cards_are_conserved(variants, players):
    g = game(*variants)
    for seed in (1, 2, 3):
        states = recorded(variants, players, seed)
        end = states[-1]
        assert g.is_over(end)
        assert set(g.result(end)) <= set(end.players)
        for s in states:
            for p in s.players:
                assert sorted(cards_of(g, s, p)) == sorted(deck(p))
        # the game ended for a reason the rules give
        hands = g.var(end, "hand")
        draws = g.var(end, "draw_pile")
        out = all(not hands[p] and not draws[p] for p in end.players)
        tops = [g.var(end, "wonder")[f"{p} level 5 slot 1"] for p in end.players]
        stuck = any("no player can act any more" in line for line in g.narrate(end))
        assert out or any(tops) or stuck


@pytest.mark.parametrize("variants, players", CONFIGS[:3], ids=IDS[:3])
def test_labels_are_unique_and_every_label_is_a_legal_move(variants, players):
    g = game(*variants)
    for s in recorded(variants, players)[:-1:7]:
        labels = g.labels(s)
        assert len(labels) == len(set(labels)) == len(s.pending.values)
        assert g.apply(s, labels[-1]) == g.apply_index(s, len(labels) - 1)


@pytest.mark.parametrize("variants, players", CONFIGS, ids=IDS)
def test_replaying_the_labels_gives_the_same_states(variants, players):
    g = game(*variants)
    states = recorded(variants, players)
    rng = random.Random(1)
    moves = [Move(s.pending.player, g.labels(s)[rng.randrange(len(s.pending.values))]) for s in states[:-1]]
    r = g.start(players=players, seed=1)
    for n, move in enumerate(moves, 1):
        r = g.apply(r, move)
        assert r == states[n], f"replay differs after move {n} ({move})"
    assert g.result(r) == g.result(states[-1])


def _secret_to(g, s, viewer) -> set[str]:
    """The cards `viewer` may not know: face down and someone else's, or in their own draw pile."""
    up = g.var(s, "face_up")
    own_draw = set(g.var(s, "draw_pile")[viewer]) if viewer else set()
    return {c for p in s.players for c in deck(p) if not up[c] and (p != viewer or c in own_draw)}


@pytest.mark.parametrize("variants, players", CONFIGS, ids=IDS)
def test_no_observation_or_readable_log_line_names_a_card_its_viewer_may_not_see(variants, players):
    g = game(*variants)
    looked = 0
    for n, s in enumerate(recorded(variants, players)):
        for viewer in list(s.players) + [None]:
            secret = _secret_to(g, s, viewer)
            if viewer is not None and s.log:
                for line in g.narrate(s, viewer):
                    leaked = [c for c in secret if c in line]
                    assert not leaked, f"{viewer} reads {leaked} in {line!r}"
                    # the narration names a card without its owner ("the 9 of spades") where the
                    # sentence says whose it is: such a name leaks if every card of it is secret
                    for name in CARD_NAME.findall(line):
                        known = [c for p in s.players for c in deck(p) if c.startswith(f"{name} (")]
                        assert not all(c in secret for c in known), f"{viewer} reads {name} in {line!r}"
            if n % 23:
                continue
            obs = g.observation(s, viewer)
            obs["vars"].pop("face_up")  # keyed by every card: the keys carry nothing
            text = json.dumps(obs)
            leaked = [c for c in secret if f'"{c}"' in text]
            assert not leaked, f"{viewer} sees {leaked[:3]}"
            looked += 1
    assert looked > 10


def test_the_owner_sees_their_hand_and_wall_and_the_others_only_the_backs():
    g = game("hidden_victory")
    s = g.start(players=3, seed=4)
    for viewer in s.players:
        obs = g.observation(s, viewer)["vars"]
        for p in s.players:
            if p == viewer:
                assert obs["hand"][p] == list(g.var(s, "hand")[p])
                assert obs["victory_card"][p] == g.var(s, "victory_card")[p]
                assert obs["goal"][p] == g.var(s, "goal")[p]
            else:
                assert obs["hand"][p] == {"hidden": 5}
                assert obs["victory_card"][p] == {"hidden": 1}
                assert obs["goal"][p] == {"hidden": 1}
            assert obs["draw_pile"][p] == {"hidden": len(g.var(s, "draw_pile")[p])}
