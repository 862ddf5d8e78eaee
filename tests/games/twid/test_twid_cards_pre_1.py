"""The Wall is Down, pre-9/11 cards 1-23 (cards/twid/pre_1.game): each card's printed text,
resolved from arranged positions with 2 and 4 players.

Lasting effects ("this turn", "until turn 6", "while in play") are also played through the
end of a round, with a small harness of this file (ROUND_END) that resolves texts, plays
actions, ends the round, starts the next one and plays more actions, logging a few of the
core's questions (`probe ...`) at each step."""

from __future__ import annotations

import os
import tempfile
from functools import cache
from pathlib import Path

from repo_paths import ROOT

from interpreter import load_game
from tests.twid_helpers import game, inf, labels, play, scenario

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    r"test_anti_globalization_economy_cards_have_one_op_less_until_the_round_ends",
]

CORE = ROOT / "gamedefs" / "twid.game"

ROUND_END = """include "{core}"

variant round_end "Texts and actions, the end of the round and the next one's start, more actions" of twid {{
    rule "Test harness: a round ends between two lists of actions"
    var text_sides: list player = []
    var text_cards: list TwidCard = []
    var text_how: list Use = []
    var turns_before: list player = []
    var turns_after: list player = []
    replace procedure play() {{
        rule "Harness: the texts, the actions, the end of the round and the next one's start, more actions"
        for k in 0..count(text_cards) - 1 {{
            let done = resolve_text(text_sides[k], text_cards[k], text_sides[k], text_how[k])
            after_use(text_cards[k], done)
            emit action_done(text_sides[k])
        }}
        probe()
        for s in turns_before {{
            take_action(s, 2)
        }}
        emit round_ended(round)
        round += 1
        log "Round {{round}}"
        emit round_started(round)
        probe()
        for s in turns_after {{
            take_action(s, 2)
        }}
        game over []
    }}
    procedure probe() {{
        rule "Harness: the core's answers to a few questions"
        log "probe oil: {{[x for x in members(Country) if x.oil]}}"
        log "probe oil counted: {{[x for s in sides() for x in members(Country) if counts_as_oil(s, x)]}}"
        log "probe Nigeria stability: {{nigeria.stability}}"
        log "probe Cuba influence ops: {{[s for s in sides() if can_influence(s, cuba)]}}"
    }}
}}
"""

_TMP = tempfile.TemporaryDirectory(prefix="twid_pre_1_")


@cache
def round_end_game():
    folder = Path(_TMP.name)
    path = folder / "round_end.game"
    path.write_text(ROUND_END.format(core=os.path.relpath(CORE, folder)))
    return load_game(path, variants=["round_end"])


def round_end(*, players=2, texts=(), before=(), after=(), hands=None, rnd=2, influence=None, clear=False, seed=0):
    """(game, state): texts (side, card[, how]) resolve, `before` sides act, round `rnd` ends,
    round `rnd` + 1 starts, `after` sides act."""
    g = round_end_game()

    def arrange(s):
        if clear:
            sides = g.var(s, "influence").keys()
            s = g.with_var(s, "influence", {t: dict.fromkeys(g.compiled.types["Country"], 0) for t in sides})
        if influence:
            s = g.with_var(s, "influence", influence)
        s = g.with_var(s, "text_sides", [t[0] for t in texts])
        s = g.with_var(s, "text_cards", [t[1] for t in texts])
        s = g.with_var(s, "text_how", [t[2] if len(t) > 2 else "text_use" for t in texts])
        s = g.with_var(s, "turns_before", list(before))
        s = g.with_var(s, "turns_after", list(after))
        s = g.with_var(s, "round", rnd)
        if hands:
            s = g.with_var(s, "hand", hands)
        return g.with_var(s, "ranking", list(g.seats_for(players)))

    return g, g.start(players=players, seed=seed, arrange=arrange)


def probes(g, s, what):
    return [line for line in g.narrate(s) if line.startswith(f"probe {what}:")]


def influence_points(g, s, title):
    """Play a card of the player's own block for an influence operation: (state, points)."""
    s = play(g, s, f"play {title}", f"{title} for operations", "influence operation")
    line = [x for x in g.narrate(s) if x.endswith(f" of influence to place with {title}")][-1]
    points = int(line.split(" has ")[1].split()[0])
    if "stop placing influence" in labels(g, s):
        s = play(g, s, "stop placing influence")
    return s, points


def vp(g, s):
    return dict(g.var(s, "vp"))


def solo_cards(seed):
    g = game()
    s = g.start(players=1, seed=seed)
    cards = list(g.var(s, "deck")) + list(g.var(s, "post_deck"))
    for hand in g.var(s, "hand").values():
        cards += list(hand)
    return cards, g.var(s, "header")


# ---- 2 Anti-globalization movement -------------------------------------------------------


def test_anti_globalization_economy_cards_have_one_op_less_until_the_round_ends():
    hands = {"west": ["maastrich_treaty", "fall_of_the_berlin_wall", "efta_agreement"], "east": ["made_in_china"]}
    g, s = round_end(
        texts=[("east", "anti_globalization_movement")], before=["west", "east", "west"], after=["west"], hands=hands
    )
    s, maastricht = influence_points(g, s, "Maastrich Treaty")  # Political/Economy, 3 ops
    s, made_in_china = influence_points(g, s, "Made in China")  # East's own economy card, 4 ops
    s, berlin = influence_points(g, s, "Fall of the Berlin Wall")  # Political, 4 ops
    assert (maastricht, made_in_china, berlin) == (2, 3, 4)
    s, efta = influence_points(g, s, "EFTA agreement")  # next round: Economy, 3 ops
    assert efta == 3
    assert g.is_over(s) and g.var(s, "modifiers_in_force") == ()


# ---- 3 Black Monday ------------------------------------------------------------------------


def test_black_monday_takes_the_west_supremacy_off_the_economy_slots_only():
    held = {"financial_markets": "west", "sovereign_funds": "east", "mass_media": "west"}
    g, s = scenario(variables={"supremacy": held}, texts=[("east", "black_monday")])
    sup = g.var(s, "supremacy")
    assert sup["financial_markets"] is None and sup["sovereign_funds"] == "east" and sup["mass_media"] == "west"
    assert "black_monday" in g.var(s, "removed")
    held = {"financial_markets": "us", "fiscal_paradises": "eu", "sovereign_funds": "china", "mass_media": "eu"}
    g, s = scenario(players=4, variables={"supremacy": held}, texts=[("russia", "black_monday")])
    # The EU may first cancel the economy text with Fiscal paradises; it lets it resolve.
    assert labels(g, s) == ["cancel the text of Black Monday with Fiscal paradises", "don't use Fiscal paradises"]
    s = play(g, s, "don't use Fiscal paradises")
    assert g.is_over(s)
    sup = g.var(s, "supremacy")
    assert (sup["financial_markets"], sup["fiscal_paradises"]) == (None, None)
    assert (sup["sovereign_funds"], sup["mass_media"]) == ("china", "eu")


def test_black_monday_and_imf_intervention_are_not_in_a_solo_game():
    for seed in (1, 2):
        cards, _ = solo_cards(seed)
        assert "black_monday" not in cards and "imf_intervention" not in cards
        assert "katrina" in cards and "g20" in cards
    g = game()
    s = g.start(players=2, seed=1)
    cards = list(g.var(s, "deck")) + [c for h in g.var(s, "hand").values() for c in h]
    assert "black_monday" in cards and "imf_intervention" in cards


# ---- 7 Democracy in Nigeria ---------------------------------------------------------------------


def test_democracy_in_nigeria_makes_nigeria_stability_2_while_in_play():
    # An influence op next to Nigeria: its cost is its stability, 2 with the card, 1 without.
    base = {
        "clear": True,
        "influence": {"west": {"cameroon": 1}},
        "turns": ["west"],
        "hands": {"west": ["maastrich_treaty"]},
    }
    g, s = scenario(in_play=["democracy_in_nigeria"], **base)
    s = play(g, s, "play Maastrich Treaty", "Maastrich Treaty for operations", "influence operation")
    assert "influence in Nigeria (2)" in labels(g, s)
    g, s = scenario(**base)
    s = play(g, s, "play Maastrich Treaty", "Maastrich Treaty for operations", "influence operation")
    assert "influence in Nigeria (1)" in labels(g, s)
    g, s = round_end(texts=[("west", "democracy_in_nigeria")], rnd=4)
    assert probes(g, s, "Nigeria stability") == ["probe Nigeria stability: 2"] * 2


# ---- 9 EFTA agreement ---------------------------------------------------------------------------


def test_efta_agreement_gives_the_eu_norway_and_makes_it_oil_until_turn_6():
    g, s = round_end(texts=[("west", "efta_agreement")], rnd=5)
    assert inf(g, s, "west", "norway") == 1
    oil = probes(g, s, "oil")
    assert "Norway" in oil[0] and "Norway" not in oil[1]  # round 6 starts: the card leaves play
    assert "probe oil counted: United States, Canada, Norway, Russia, China" == probes(g, s, "oil counted")[0]
    assert "efta_agreement" in g.var(s, "removed") and "efta_agreement" not in g.var(s, "in_play")


def test_efta_agreement_stays_in_play_through_the_earlier_rounds():
    g, s = round_end(players=4, texts=[("us", "efta_agreement")], rnd=3)
    assert inf(g, s, "eu", "norway") == 1 and inf(g, s, "us", "norway") == 0
    assert all("Norway" in line for line in probes(g, s, "oil"))
    assert "efta_agreement" in g.var(s, "in_play")
    # Norway counts for the side with its edge only.
    assert all("Norway" in line for line in probes(g, s, "oil counted"))


# ---- 10 El Jefe --------------------------------------------------------------------------------


def test_el_jefe_keeps_the_us_from_influence_ops_in_cuba_while_in_play():
    # West holds the US (2 influence at the start); Cuba is next to it.
    base = {"turns": ["west"], "hands": {"west": ["fall_of_the_berlin_wall"]}}
    g, s = scenario(**base)
    s = play(g, s, "play Fall of the Berlin Wall", "Fall of the Berlin Wall for operations", "influence operation")
    assert "influence in Cuba (3)" in labels(g, s)
    g, s = scenario(in_play=["el_jefe"], **base)
    s = play(g, s, "play Fall of the Berlin Wall", "Fall of the Berlin Wall for operations", "influence operation")
    assert not any("Cuba" in x for x in labels(g, s)) and "influence in Mexico (2)" in labels(g, s)
    # With four players only the US is kept out; the EU may influence Cuba.
    g, s = round_end(players=4, texts=[("russia", "el_jefe")])
    assert probes(g, s, "Cuba influence ops") == ["probe Cuba influence ops: EU, Russia, China"] * 2


# ---- 16 G20 --------------------------------------------------------------------------------------------


def test_g20_gives_your_ops_plus_one_until_the_round_ends():
    hands = {"west": ["maastrich_treaty", "efta_agreement"], "east": ["made_in_china"]}
    g, s = round_end(texts=[("west", "g20")], before=["west", "east"], after=["west"], hands=hands)
    s, maastricht = influence_points(g, s, "Maastrich Treaty")
    s, made_in_china = influence_points(g, s, "Made in China")
    assert (maastricht, made_in_china) == (4, 4)  # West 3 + 1; East's own 4
    s, efta = influence_points(g, s, "EFTA agreement")
    assert efta == 3
    assert g.var(s, "modifiers_in_force") == ()


def test_g20_as_header_with_four_players_gives_the_first_op_another_plus_one():
    hands = {"us": ["fall_of_the_berlin_wall", "maastrich_treaty", "efta_agreement"]}
    g, s = round_end(players=4, texts=[("us", "g20", "header_use")], before=["us", "us"], after=["us"], hands=hands)
    s, first = influence_points(g, s, "Fall of the Berlin Wall")
    s, second = influence_points(g, s, "Maastrich Treaty")
    s, later = influence_points(g, s, "EFTA agreement")
    assert (first, second, later) == (6, 4, 3)


def test_g20_header_bonus_needs_four_players_and_the_header():
    hands = {"west": ["fall_of_the_berlin_wall", "maastrich_treaty"]}
    g, s = round_end(texts=[("west", "g20", "header_use")], before=["west", "west"], hands=hands)
    s, first = influence_points(g, s, "Fall of the Berlin Wall")
    s, second = influence_points(g, s, "Maastrich Treaty")
    assert (first, second) == (5, 4)
    hands = {"us": ["fall_of_the_berlin_wall"]}
    g, s = round_end(players=4, texts=[("us", "g20")], before=["us"], hands=hands)
    s, first = influence_points(g, s, "Fall of the Berlin Wall")
    assert first == 5


# ---- 17 IMF intervention -----------------------------------------------------------------------------


def test_imf_intervention_looks_at_a_hand_and_plays_one_of_its_cards():
    hands = {"east": ["katrina", "europe_scoring", "el_jefe"]}
    g, s = scenario(clear=True, hands=hands, vp={"west": 2}, texts=[("west", "imf_intervention")])
    assert labels(g, s) == ["look at East's hand", "look at no hand"]
    s = play(g, s, "look at East's hand")
    assert any("East's hand: Katrina, Europe, El Jefe" == x for x in g.narrate(s, "west"))
    # A punctuation card may be taken too: its text is its scoring (6.2.2).
    assert labels(g, s) == [
        "play East's Katrina for its text",
        "play East's Europe for its text",
        "play East's El Jefe for its text",
        "play none of them",
    ]
    s = play(g, s, "play East's El Jefe for its text")
    assert inf(g, s, "east", "cuba") == 2 and "el_jefe" in g.var(s, "in_play")
    assert list(g.var(s, "hand")["east"]) == ["katrina", "europe_scoring"]
    assert "imf_intervention" in g.var(s, "discard")


# ---- 18 Immigrants ---------------------------------------------------------------------------------------


def test_immigrants_adds_east_influence_unless_the_edge_holder_pays_2_vp():
    g, s = scenario(vp={"west": 3}, texts=[("east", "immigrants")])
    assert labels(g, s)[:2] == ["East influence in United States", "East influence in Canada"]
    assert "East influence in Germany" in labels(g, s) and "East influence in Mexico" not in labels(g, s)
    s = play(g, s, "East influence in United States")
    assert labels(g, s) == [
        "lose 2 VP to negate Immigrants in United States",
        "don't negate Immigrants: East adds 1 influence in United States",
    ]
    s2 = play(g, s, "lose 2 VP to negate Immigrants in United States")
    assert vp(g, s2)["west"] == 1 and inf(g, s2, "east", "united_states") == 0
    s3 = play(g, s, "don't negate Immigrants: East adds 1 influence in United States")
    assert vp(g, s3)["west"] == 3 and inf(g, s3, "east", "united_states") == 1
