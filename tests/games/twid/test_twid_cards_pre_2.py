"""The Wall is Down, pre-9/11 cards 24 to 46 (cards/twid/pre_2.game): each card's printed
text, asserted on the positions it leads to (influence, VP, supremacy, where the card ends).

Most tests use the scenario harness (tests/twid_helpers.py). Cards that react to a round
starting or to 9/11 (Neoliberalism, Osama bin Laden) are tested on the bundled game with a
small variant written here, whose play() resolves the listed texts and then starts (and
ends) the listed rounds with the core's own start_round().
"""

from __future__ import annotations

import os
import tempfile
from functools import cache
from pathlib import Path

import pytest
from repo_paths import ROOT

from interpreter import load_game
from tests.twid_helpers import game, inf, labels, play, scenario

CORE = ROOT / "gamedefs" / "twid.game"

ROUNDS_VARIANT = """
var rounds_texts: list TwidCard = []
var rounds_sides: list player = []
var rounds_listed: list int = []
variant rounds "Scripted texts, then rounds that start and end" of twid {
    rule "Test: card texts, then the listed rounds start and end"
    replace procedure play() {
        rule "Test: the texts are resolved, then each listed round starts (cards dealt, 9/11 at round 5) and ends"
        for k in 0..count(rounds_texts) - 1 {
            let c = rounds_texts[k]
            let done = resolve_text(rounds_sides[k], c, rounds_sides[k], text_use)
            after_use(c, done)
            emit action_done(rounds_sides[k])
        }
        for r in rounds_listed {
            start_round(r)
            emit round_ended(r)
        }
        game over []
    }
}
"""


@cache
def rounds_game():
    folder = Path(tempfile.mkdtemp(prefix="twid_pre2_"))
    path = folder / "rounds.game"
    path.write_text(f'include "{os.path.relpath(CORE, folder)}"\n' + ROUNDS_VARIANT, encoding="utf-8")
    return load_game(path, variants=["rounds"])


def rounds(*, players=2, texts=(), rounds_listed=(), influence=None, vp=None, in_play=(), variables=None, seed=0):
    """(game, state): an empty board but for `influence`, the texts resolved, then the rounds."""
    g = rounds_game()

    def arrange(s):
        sides = g.var(s, "influence").keys()
        s = g.with_var(s, "influence", {side: dict.fromkeys(g.compiled.types["Country"], 0) for side in sides})
        if influence:
            s = g.with_var(s, "influence", influence)
        if vp:
            s = g.with_var(s, "vp", vp)
        s = g.with_var(s, "in_play", list(in_play))
        for name, value in (variables or {}).items():
            s = g.with_var(s, name, value)
        s = g.with_var(s, "rounds_texts", [c for _, c in texts])
        s = g.with_var(s, "rounds_sides", [side for side, _ in texts])
        s = g.with_var(s, "rounds_listed", list(rounds_listed))
        return g.with_var(s, "ranking", list(g.seats_for(players)))

    return g, g.start(players=players, seed=seed, arrange=arrange)


def vp(g, s):
    return dict(g.var(s, "vp"))


def where(g, s, card):
    """Which zone holds a card: in_play, discard, removed (or None)."""
    zones = [z for z in ("in_play", "discard", "removed") if card in g.var(s, z)]
    assert len(zones) <= 1
    return zones[0] if zones else None


def supremacy(g, s):
    return {n: p for n, p in g.var(s, "supremacy").items() if p is not None}


# ---- 24 Middle East -------------------------------------------------------------------------------
def test_middle_east_scores_presence_domination_and_conflictive_countries():
    # West edges Iraq (conflictive) and Jordan; East edges Syria: West 2 + 2 + 1, East 2.
    influence = {"west": {"iraq": 2, "jordan": 1}, "east": {"syria": 1, "iraq": 1}}
    g, s = scenario(texts=[("west", "middle_east_scoring", "west", "scoring_use")], influence=influence, clear=True)
    assert vp(g, s) == {"west": 5, "east": 2}
    assert where(g, s, "middle_east_scoring") == "discard"


def test_middle_east_control_needs_every_conflictive_country():
    conflictive = ["libya", "egypt", "israel", "iraq", "saudi_arabia", "iran"]
    influence = {"west": {**dict.fromkeys(conflictive, 1), "jordan": 1}}
    g, s = scenario(texts=[("west", "middle_east_scoring", "west", "scoring_use")], influence=influence, clear=True)
    # presence 2, domination 2, control 2, +6 conflictive; no edge of the East: 12 (a win).
    assert vp(g, s)["west"] == 12
    assert g.is_over(s)


# ---- 25 Muammar Gaddafi ---------------------------------------------------------------------------
def test_gaddafi_gains_influence_in_libya_and_stays_in_play():
    g, s = scenario(texts=[("east", "muammar_gaddafi")], clear=True)
    assert inf(g, s, "east", "libya") == 1
    assert where(g, s, "muammar_gaddafi") == "in_play"


def test_gaddafi_makes_libya_an_oil_country_for_opec_while_in_play():
    texts = [("east", "muammar_gaddafi"), ("east", "opec", "east", "scoring_use")]
    g, s = scenario(texts=texts, vp={"west": 5, "east": 5}, clear=True)
    assert vp(g, s) == {"west": 3, "east": 4}  # East edges Libya: +1, then -2 each
    # Without Gaddafi in play Libya is no oil country.
    influence = {"east": {"libya": 1}}
    g, s = scenario(
        texts=[("east", "opec", "east", "scoring_use")], vp={"west": 5, "east": 5}, influence=influence, clear=True
    )
    assert vp(g, s) == {"west": 3, "east": 3}


def test_gaddafi_forbids_destabilization_on_libya_until_he_leaves_play():
    influence = {"east": {"libya": 1, "egypt": 1}, "west": {"egypt": 1}}
    hands = {"west": ["yugoslav_wars"]}
    g, s = scenario(texts=[("east", "muammar_gaddafi")], turns=["west"], influence=influence, hands=hands, clear=True)
    s = play(g, s, "play Yugoslav wars", "Yugoslav wars for operations", "destabilization operation")
    assert "destabilize Egypt" in labels(g, s) and "destabilize Libya" not in labels(g, s)
    # The Global positioning holder discards the personality in play: Libya may be
    # destabilized again, and is no oil country any more.
    variables = {"supremacy": {"global_positioning": "west"}}
    g, s = scenario(
        texts=[("east", "muammar_gaddafi")],
        turns=["west"],
        influence=influence,
        hands=hands,
        variables=variables,
        clear=True,
    )
    s = play(g, s, "don't use Global positioning")  # not cancelling the text as it resolves
    s = play(g, s, "remove supremacy on Global positioning: discard a personality in play", "discard Muammar Gaddafi")
    assert where(g, s, "muammar_gaddafi") == "removed"  # marked *: out of play, out of the game
    s = play(g, s, "play Yugoslav wars", "Yugoslav wars for operations", "destabilization operation")
    assert "destabilize Libya" in labels(g, s)


# ---- 26 Neocolonialism ----------------------------------------------------------------------------
def test_neocolonialism_removes_at_most_two_vp_from_the_west_player_then_west_may_add_influence():
    g, s = scenario(texts=[("east", "neocolonialism")], vp={"west": 5, "east": 1}, clear=True)
    assert labels(g, s) == ["remove 1 VP from West", "stop removing VP"]
    s = play(g, s, "remove 1 VP from West", "remove 1 VP from West")
    # No more than 2 VP per player: the West player now places influence.
    assert g.current_player(s) == "west"
    assert "add no influence" in labels(g, s)
    s = play(g, s, "influence in Cuba")
    assert vp(g, s) == {"west": 3, "east": 1}
    assert inf(g, s, "west", "cuba") == 1
    assert where(g, s, "neocolonialism") == "discard"


def test_neocolonialism_with_four_players_spreads_up_to_three_vp_over_us_and_eu():
    g, s = scenario(players=4, texts=[("russia", "neocolonialism")], vp={"us": 1, "eu": 4}, clear=True)
    s = play(g, s, "remove 1 VP from US")
    assert labels(g, s) == ["remove 1 VP from US", "remove 1 VP from EU", "stop removing VP"]
    s = play(g, s, "remove 1 VP from EU", "remove 1 VP from EU")
    assert vp(g, s)["us"] == 0 and vp(g, s)["eu"] == 2
    assert g.current_player(s) == "us"
    s = play(g, s, "add no influence")
    assert g.current_player(s) == "eu"
    s = play(g, s, "influence in Poland")
    assert inf(g, s, "eu", "poland") == 1 and sum(g.var(s, "influence")["us"].values()) == 0


def test_neocolonialism_may_stop_early():
    g, s = scenario(players=4, texts=[("china", "neocolonialism")], vp={"us": 3, "eu": 3}, clear=True)
    s = play(g, s, "remove 1 VP from EU", "stop removing VP", "add no influence", "add no influence")
    assert vp(g, s) == {"us": 3, "eu": 2, "russia": 0, "china": 0}


# ---- 27 Neoliberalism -----------------------------------------------------------------------------
def test_neoliberalism_adds_two_west_influence_in_one_country_and_stays_in_play():
    g, s = scenario(texts=[("west", "neoliberalism")], clear=True)
    s = play(g, s, "influence in Argentina")
    assert inf(g, s, "west", "argentina") == 2
    assert where(g, s, "neoliberalism") == "in_play"
    g, s = scenario(players=4, texts=[("eu", "neoliberalism")], clear=True)
    assert g.current_player(s) == "eu"
    s = play(g, s, "influence in Japan")
    assert inf(g, s, "eu", "japan") == 2 and g.var(s, "neoliberalism_owner") == "eu"


def test_neoliberalism_takes_one_west_influence_each_round_and_is_discarded_with_three():
    g, s = rounds(texts=[("west", "neoliberalism")], rounds_listed=[2, 3, 4], influence={"west": {"japan": 1}})
    s = play(g, s, "influence in Argentina")
    # Round 2 begins: the West player moves 1 of its influence onto the card.
    assert sorted(labels(g, s)) == ["remove 1 influence in Argentina", "remove 1 influence in Japan"]
    s = play(g, s, "remove 1 influence in Japan")
    assert inf(g, s, "west", "japan") == 0
    assert g.var(s, "neoliberalism_tokens") == 1 and where(g, s, "neoliberalism") == "in_play"
    s = play(g, s, "remove 1 influence in Argentina")  # round 3
    assert g.var(s, "neoliberalism_tokens") == 2 and where(g, s, "neoliberalism") == "in_play"
    s = play(g, s, "remove 1 influence in Argentina")  # round 4: the third token
    assert inf(g, s, "west", "argentina") == 0
    assert where(g, s, "neoliberalism") == "discard"
    assert g.var(s, "neoliberalism_tokens") == 0
    assert g.is_over(s)


def test_neoliberalism_with_four_players_takes_either_west_superpowers_influence():
    """Card 27 Neoliberalism: "Each turn, remove 1 West influence from any country and place it
    on this card"; Players: "In 3-4 player games, ... West [stands] for (US or EU)". The EU
    holds the card: the US's tokens in Canada are West influence too, and the EU chooses."""
    influence = {"eu": {"france": 2}, "us": {"canada": 2}}
    variables = {"neoliberalism_owner": "eu", "neoliberalism_tokens": 2}
    g, s = rounds(players=4, rounds_listed=[3], influence=influence, in_play=["neoliberalism"], variables=variables)
    assert g.current_player(s) == "eu"
    assert sorted(labels(g, s)) == ["remove 1 influence in Canada", "remove 1 influence in France"]
    s = play(g, s, "remove 1 influence in Canada")
    assert inf(g, s, "eu", "france") == 2 and inf(g, s, "us", "canada") == 1
    assert where(g, s, "neoliberalism") == "discard"


@pytest.mark.parametrize("players", [3, 4])
def test_neoliberalism_takes_the_other_west_superpowers_token_when_the_holder_has_none(players):
    """Card 27 Neoliberalism: "remove 1 West influence from any country and place it on this
    card"; West is the US or the EU with three or four players (the static EU of a
    three-player game included). The US holds the card with no influence on the board; the
    EU has 1 in France: France's token goes onto the card."""
    variables = {"neoliberalism_owner": "us", "neoliberalism_tokens": 1}
    influence = {"eu": {"france": 1}}
    g, s = rounds(
        players=players, rounds_listed=[3], influence=influence, in_play=["neoliberalism"], variables=variables
    )
    assert g.current_player(s) == "us"
    assert labels(g, s) == ["remove 1 influence in France"]
    s = play(g, s, "remove 1 influence in France")
    # (with three players the static EU's row is left out of the variable once it is all 0)
    assert g.var(s, "influence").get("eu", {}).get("france", 0) == 0
    assert g.var(s, "neoliberalism_tokens") == 2 and where(g, s, "neoliberalism") == "in_play"


def test_neoliberalism_holder_chooses_whose_token_where_both_west_colours_are():
    """Card 27 Neoliberalism with four players: where the US and the EU both have influence,
    the holder (the player who resolved the text) chooses whose token goes onto the card."""
    influence = {"eu": {"france": 1}, "us": {"france": 1}}
    variables = {"neoliberalism_owner": "us", "neoliberalism_tokens": 0}
    g, s = rounds(players=4, rounds_listed=[3], influence=influence, in_play=["neoliberalism"], variables=variables)
    s = play(g, s, "remove 1 influence in France")
    assert g.current_player(s) == "us"
    assert sorted(labels(g, s)) == ["remove 1 of EU's in France", "remove 1 of US's in France"]
    s = play(g, s, "remove 1 of EU's in France")
    assert inf(g, s, "eu", "france") == 0 and inf(g, s, "us", "france") == 1
    assert g.var(s, "neoliberalism_tokens") == 1


def test_neoliberalism_places_nothing_when_no_west_influence_is_left():
    variables = {"neoliberalism_owner": "west", "neoliberalism_tokens": 1}
    g, s = rounds(rounds_listed=[2], in_play=["neoliberalism"], variables=variables)
    assert g.is_over(s)
    assert g.var(s, "neoliberalism_tokens") == 1 and where(g, s, "neoliberalism") == "in_play"


# ---- 28 Northern adhesion -------------------------------------------------------------------------
def test_northern_adhesion_makes_austria_finland_and_sweden_eu():
    influence = {"west": {"sweden": 1, "austria": 1}, "east": {"austria": 1}}
    hands = {"east": ["muammar_gaddafi"]}
    g, s = scenario(turns=["east"], influence=influence, hands=hands, clear=True)
    s = play(g, s, "play Muammar Gaddafi", "Muammar Gaddafi for operations", "destabilization operation")
    assert "destabilize Austria" in labels(g, s)
    g, s = scenario(texts=[("west", "northern_adhesion")], turns=["east"], influence=influence, hands=hands, clear=True)
    assert labels(g, s) == ["influence in Austria", "influence in Finland", "influence in Sweden"]
    s = play(g, s, "influence in Finland")
    assert inf(g, s, "west", "finland") == 1 and vp(g, s)["west"] == 1
    assert where(g, s, "northern_adhesion") == "removed"
    # Austria is now an EU country: no destabilization there (and East can influence only).
    s = play(g, s, "play Muammar Gaddafi")
    assert "Muammar Gaddafi for operations" in labels(g, s)
    s = play(g, s, "Muammar Gaddafi for operations")
    assert "destabilization operation" not in labels(g, s)


def test_northern_adhesion_with_four_players_is_the_eus():
    g, s = scenario(players=4, texts=[("us", "northern_adhesion")], clear=True)
    assert g.current_player(s) == "eu"
    s = play(g, s, "influence in Sweden")
    assert inf(g, s, "eu", "sweden") == 1 and inf(g, s, "us", "sweden") == 0
    assert vp(g, s) == {"us": 0, "eu": 1, "russia": 0, "china": 0}


# ---- 29 Oil crisis --------------------------------------------------------------------------------
def test_oil_crisis_changes_the_next_opec_scoring_only():
    influence = {"west": {"iraq": 1, "saudi_arabia": 1}, "east": {"iran": 1}}
    opec = ("west", "opec", "west", "scoring_use")
    g, s = scenario(texts=[("east", "oil_crisis"), opec], vp={"west": 5, "east": 5}, influence=influence, clear=True)
    # West: +2 oil, +1 most oil, -2; East: +1 oil, -1, -2.
    assert vp(g, s) == {"west": 6, "east": 3}
    assert where(g, s, "oil_crisis") == "discard"
    assert g.var(s, "modifiers_in_force") == ()
    g, s = scenario(
        texts=[("east", "oil_crisis"), opec, opec], vp={"west": 5, "east": 5}, influence=influence, clear=True
    )
    assert vp(g, s) == {"west": 6, "east": 2}  # the second OPEC is the printed one: +2 -2, +1 -2


def test_oil_crisis_on_a_global_tie_everybody_loses_one_vp():
    influence = {"west": {"iraq": 1}, "east": {"iran": 1}}
    texts = [("east", "oil_crisis"), ("west", "opec", "west", "scoring_use")]
    g, s = scenario(texts=texts, vp={"west": 5, "east": 5}, influence=influence, clear=True)
    assert vp(g, s) == {"west": 3, "east": 3}  # +1, -1, -2 each


def test_oil_crisis_with_four_players_rewards_every_tied_leader():
    influence = {"us": {"iraq": 1}, "eu": {"saudi_arabia": 1}, "russia": {"iran": 1}}
    texts = [("russia", "oil_crisis"), ("us", "opec", "us", "scoring_use")]
    g, s = scenario(
        players=4, texts=texts, vp=dict.fromkeys(["us", "eu", "russia", "china"], 5), influence=influence, clear=True
    )
    # Three leaders with 1 oil country each: +1 +1 -2; China: -1 -2.
    assert vp(g, s) == {"us": 5, "eu": 5, "russia": 5, "china": 2}


# ---- 30 Oil thirst --------------------------------------------------------------------------------
def test_oil_thirst_forces_the_us_next_action_to_a_costlier_coup_on_an_oil_country():
    influence = {"east": {"iraq": 1, "cuba": 1}}
    hands = {"west": ["yugoslav_wars", "northern_adhesion"]}
    g, s = scenario(
        texts=[("east", "oil_thirst")],
        turns=["west", "west"],
        influence=influence,
        hands=hands,
        vp={"west": 5},
        clear=True,
        pins=(6,),
    )
    s = play(g, s, "play Yugoslav wars")
    assert labels(g, s) == ["Yugoslav wars for operations"]  # no text, no NWO
    s = play(g, s, "Yugoslav wars for operations")
    assert labels(g, s) == ["destabilization operation"]
    s = play(g, s, "destabilization operation")
    assert labels(g, s) == ["destabilize Iraq"]  # Cuba is no oil country
    s = play(g, s, "destabilize Iraq")
    assert vp(g, s)["west"] == 3  # Iraq is conflictive: 1 VP, and 1 more
    s = play(g, s, "remove 1 of East's", "stop")
    assert inf(g, s, "east", "iraq") == 0
    # The next action is free again.
    s = play(g, s, "play Northern adhesion")
    assert "Northern adhesion for its text" in labels(g, s)
    assert g.var(s, "oil_thirst_stage") == 0


def test_oil_thirst_played_by_the_us_for_operations_binds_its_following_action():
    influence = {"east": {"iraq": 1, "cuba": 1}, "west": {"cuba": 1}}
    hands = {"west": ["oil_thirst", "yugoslav_wars"]}
    g, s = scenario(turns=["west", "west"], influence=influence, hands=hands, clear=True, pins=(1,))
    s = play(g, s, "play Oil thirst", "Oil thirst for operations", "destabilization operation", "text first")
    # The operation chosen before the text is not restricted to oil countries.
    assert "destabilize Cuba" in labels(g, s)
    s = play(g, s, "destabilize Cuba")
    assert vp(g, s)["west"] == 0
    s = play(g, s, "play Yugoslav wars")
    assert labels(g, s) == ["Yugoslav wars for operations"]
    s = play(g, s, "Yugoslav wars for operations", "destabilization operation")
    assert labels(g, s) == ["destabilize Iraq"]


def test_oil_thirst_with_four_players_binds_the_us_only():
    influence = {"russia": {"iraq": 1, "cuba": 1}}
    hands = {"eu": ["yugoslav_wars"], "us": ["rupert_murdoch"]}
    g, s = scenario(
        players=4, texts=[("russia", "oil_thirst")], turns=["eu", "us"], influence=influence, hands=hands, clear=True
    )
    s = play(g, s, "play Yugoslav wars")
    assert "Yugoslav wars for its text" in labels(g, s)
    s = play(g, s, "Yugoslav wars for operations", "destabilization operation")
    assert "destabilize Cuba" in labels(g, s)
    g, s = scenario(
        players=4, texts=[("russia", "oil_thirst")], turns=["us"], influence=influence, hands=hands, clear=True
    )
    s = play(g, s, "play Rupert Murdoch")
    assert labels(g, s) == ["Rupert Murdoch for operations"]


def test_oil_thirst_without_an_oil_target_obliges_nothing():
    hands = {"west": ["yugoslav_wars"]}
    g, s = scenario(
        texts=[("east", "oil_thirst")], turns=["west"], influence={"east": {"cuba": 1}}, hands=hands, clear=True
    )
    # 6.2.3: the part that cannot be applied is ignored: the action is free.
    assert labels(g, s) == ["play Yugoslav wars"]
    s = play(g, s, "play Yugoslav wars")
    assert labels(g, s) == [
        "Yugoslav wars for operations",
        "Yugoslav wars for its text",
        "Yugoslav wars to the NWO track",
    ]
    s = play(g, s, "Yugoslav wars for operations")
    assert labels(g, s) == ["influence operation", "destabilization operation"]
    s = play(g, s, "destabilization operation")
    assert labels(g, s) == ["destabilize Cuba"]  # not an oil country: no obligation to meet


# ---- 31 OPEC --------------------------------------------------------------------------------------
def test_opec_pre_and_post_9_11():
    influence = {"west": {"iraq": 1, "canada": 1, "cuba": 1}}
    texts = [("east", "opec", "east", "scoring_use")]
    g, s = scenario(texts=texts, vp={"west": 5, "east": 5}, influence=influence, clear=True)
    assert vp(g, s) == {"west": 5, "east": 3}
    g, s = scenario(
        texts=texts, vp={"west": 5, "east": 5}, influence=influence, variables={"epoch": "post"}, clear=True
    )
    assert vp(g, s) == {"west": 5, "east": 1}
    assert where(g, s, "opec") == "discard"


# ---- 32 Osama bin Laden ---------------------------------------------------------------------------
def test_osama_bin_laden_the_us_removes_influence_and_may_influence_the_middle_east():
    influence = {"east": {"iraq": 2, "afghanistan": 1, "cuba": 1}, "west": {"cuba": 1}}
    hands = {"west": ["yugoslav_wars"]}
    g, s = scenario(texts=[("east", "osama_bin_laden")], turns=["west"], influence=influence, hands=hands, clear=True)
    assert g.current_player(s) == "west"
    assert labels(g, s) == ["remove influence in Iraq", "remove influence in Afghanistan"]
    s = play(g, s, "remove influence in Afghanistan")
    assert inf(g, s, "east", "afghanistan") == 0
    assert where(g, s, "osama_bin_laden") == "in_play"
    s = play(g, s, "play Yugoslav wars", "Yugoslav wars for operations", "influence operation")
    assert "influence in Jordan (2)" in labels(g, s) and "influence in Afghanistan (2)" in labels(g, s)
    assert "influence in India (3)" not in labels(g, s)
    # Without the card the West, far from the Middle East, cannot reach it.
    g, s = scenario(turns=["west"], influence=influence, hands=hands, clear=True)
    s = play(g, s, "play Yugoslav wars", "Yugoslav wars for operations", "influence operation")
    assert "influence in Jordan (2)" not in labels(g, s)


def test_osama_bin_laden_in_play_at_9_11_costs_the_us_and_leaves_play():
    influence = {"west": {"jordan": 1, "cuba": 1}}
    g, s = rounds(rounds_listed=[4, 5], influence=influence, in_play=["osama_bin_laden"], vp={"west": 3})
    assert g.current_player(s) == "west"
    assert labels(g, s) == ["remove 1 US influence in Jordan"]
    s = play(g, s, "remove 1 US influence in Jordan")
    assert vp(g, s)["west"] == 2 and inf(g, s, "west", "jordan") == 0 and inf(g, s, "west", "cuba") == 1
    assert g.var(s, "epoch") == "post"
    assert where(g, s, "osama_bin_laden") == "discard"  # "then discard this card", although marked *


def test_osama_bin_laden_played_post_9_11_resolves_at_once_with_four_players():
    influence = {"us": {"iraq": 1}, "china": {"iraq": 1}}
    texts = [("eu", "osama_bin_laden")]
    g, s = scenario(players=4, texts=texts, influence=influence, vp={"us": 4}, variables={"epoch": "post"}, clear=True)
    assert g.current_player(s) == "us"
    s = play(g, s, "remove influence in Iraq")
    assert labels(g, s) == ["remove 1 of US's in Iraq", "remove 1 of China's in Iraq"]
    s = play(g, s, "remove 1 of China's in Iraq")
    s = play(g, s, "remove 1 US influence in Iraq")
    assert inf(g, s, "us", "iraq") == 0 and inf(g, s, "china", "iraq") == 0
    assert vp(g, s)["us"] == 3
    assert where(g, s, "osama_bin_laden") == "discard"  # "then discard this card", although marked *


# ---- 33 Party Congress ----------------------------------------------------------------------------
def test_party_congress_one_influence_outside_the_eu_russia_and_the_us():
    g, s = scenario(texts=[("east", "party_congress")], clear=True)
    options = labels(g, s)
    assert "influence in Cuba" in options and "influence in Japan" in options
    for banned in ("France", "Germany", "Russia", "United States"):
        assert f"influence in {banned}" not in options
    assert not any("three regions" in o for o in options)  # no China influence in China
    s = play(g, s, "influence in Cuba")
    assert inf(g, s, "east", "cuba") == 1


def test_party_congress_trades_china_influence_for_three_regions():
    g, s = scenario(players=4, texts=[("us", "party_congress")], influence={"china": {"china_country": 2}}, clear=True)
    assert g.current_player(s) == "china"
    s = play(g, s, "remove 1 China influence in China for 1 influence in three regions")
    assert inf(g, s, "china", "china_country") == 1
    s = play(g, s, "influence in Cuba")
    assert "influence in Mexico" not in labels(g, s) and "influence in Brazil" in labels(g, s)
    s = play(g, s, "influence in Turkey")  # Europe and Middle East both taken
    assert "influence in Egypt" not in labels(g, s) and "influence in Poland" not in labels(g, s)
    s = play(g, s, "influence in Vietnam")
    assert [inf(g, s, "china", x) for x in ("cuba", "turkey", "vietnam")] == [1, 1, 1]
    assert where(g, s, "party_congress") == "discard"


# ---- 34 Petrodollars ------------------------------------------------------------------------------
def test_petrodollars_gains_or_removes_supremacy_on_the_two_economy_slots():
    variables = {"supremacy": {"fiscal_paradises": "east"}}
    g, s = scenario(texts=[("west", "petrodollars")], variables=variables, clear=True)
    s = play(g, s, "don't use Fiscal paradises")  # the East, holding it, does not cancel this economy text
    # Sovereign funds is post-9/11 with an East ahead: both ignored.
    assert supremacy(g, s) == {"sovereign_funds": "west"}
    g, s = scenario(
        players=4, texts=[("russia", "petrodollars")], variables={"supremacy": {"sovereign_funds": "russia"}}
    )
    assert supremacy(g, s) == {"fiscal_paradises": "russia", "sovereign_funds": "russia"}


def test_petrodollars_murdoch_oligarchs_and_shock_doctrine_are_removed_in_solo():
    g = game()

    def dealt_or_in_deck(s):
        return set(g.var(s, "deck")) | {c for h in g.var(s, "hand").values() for c in h}

    solo, duo = dealt_or_in_deck(g.start(players=1, seed=1)), dealt_or_in_deck(g.start(players=2, seed=1))
    for card in ("petrodollars", "rupert_murdoch", "russian_oligarchs", "shock_doctrine"):
        assert card not in solo and card in duo
    assert "oil_crisis" in solo


# ---- 35 Rupert Murdoch ----------------------------------------------------------------------------
def test_rupert_murdoch_us_gains_up_to_two_public_opinion_slots():
    g, s = scenario(texts=[("west", "rupert_murdoch")], clear=True)
    # Information leaks: post-9/11 and a veto on the US; State propaganda: a veto on the EU.
    # With two players West is the EU too: State propaganda's EU veto keeps it out.
    assert labels(g, s) == ["supremacy on Mass media", "stop"]
    s = play(g, s, "supremacy on Mass media")
    assert supremacy(g, s) == {"mass_media": "west"}
    assert where(g, s, "rupert_murdoch") == "removed"


def test_rupert_murdoch_with_four_players_replaces_a_holder_and_may_stop():
    variables = {
        "supremacy": {"mass_media": "eu", "information_leaks": "china"},
        "claimed": ["mass_media", "information_leaks"],
        "epoch": "post",
    }
    g, s = scenario(players=4, texts=[("eu", "rupert_murdoch")], variables=variables)
    assert g.current_player(s) == "us"
    assert labels(g, s) == [
        "supremacy on State propaganda",
        "supremacy on Mass media",
        "supremacy on Information leaks",
        "stop",
    ]
    s = play(g, s, "supremacy on Mass media", "stop")
    assert supremacy(g, s) == {"mass_media": "us", "information_leaks": "china"}


# ---- 36 Russian oligarchs -------------------------------------------------------------------------
def test_russian_oligarchs_russia_takes_an_economy_slot():
    g, s = scenario(texts=[("east", "russian_oligarchs")], variables={"supremacy": {"financial_markets": "west"}})
    assert labels(g, s) == [
        "Russia takes Financial markets",
        "Russia takes Fiscal paradises",
        "Russia takes Sovereign funds",
    ]
    s = play(g, s, "Russia takes Financial markets")
    assert supremacy(g, s) == {"financial_markets": "east"}
    g, s = scenario(
        players=4, texts=[("china", "russian_oligarchs")], variables={"supremacy": {"sovereign_funds": "china"}}
    )
    assert g.current_player(s) == "china"
    s = play(g, s, "Russia takes Sovereign funds")  # post-9/11 slot, pre-9/11: ignored
    assert supremacy(g, s) == {"sovereign_funds": "russia"}
    assert where(g, s, "russian_oligarchs") == "discard"


# ---- 37 Rwandan genocide --------------------------------------------------------------------------
def test_rwandan_genocide_west_loses_a_vp_and_may_pay_another_for_congo():
    g, s = scenario(texts=[("east", "rwandan_genocide")], vp={"west": 3}, clear=True)
    assert vp(g, s)["west"] == 2 and g.current_player(s) == "west"
    s = play(g, s, "lose 1 more VP to add 2 influence in Congo")
    assert vp(g, s)["west"] == 1 and inf(g, s, "west", "congo") == 2
    assert where(g, s, "rwandan_genocide") == "removed"


def test_rwandan_genocide_with_four_players_each_west_player_decides():
    g, s = scenario(players=4, texts=[("russia", "rwandan_genocide")], vp={"us": 2, "eu": 2}, clear=True)
    assert vp(g, s)["us"] == 1 and vp(g, s)["eu"] == 1
    s = play(g, s, "don't add influence in Congo", "lose 1 more VP to add 2 influence in Congo")
    assert vp(g, s) == {"us": 1, "eu": 0, "russia": 0, "china": 0}
    assert inf(g, s, "eu", "congo") == 2 and inf(g, s, "us", "congo") == 0


# ---- 38 Shock doctrine ----------------------------------------------------------------------------
def test_shock_doctrine_takes_an_economy_slot_from_another_player():
    g, s = scenario(texts=[("west", "shock_doctrine")], variables={"supremacy": {"financial_markets": "east"}})
    # Sovereign funds: post-9/11.
    assert labels(g, s) == [
        "supremacy on Financial markets",
        "supremacy on Fiscal paradises",
        "remove supremacy on up to two slots instead",
    ]
    s = play(g, s, "supremacy on Financial markets")
    assert supremacy(g, s) == {"financial_markets": "west"}


def test_shock_doctrine_may_instead_remove_supremacy_on_two_slots():
    """Card 38: "Alternatively, you may remove supremacy on up to two slots": the Economy
    slots of the sentence before, held by another player."""
    variables = {
        "supremacy": {
            "financial_markets": "russia",
            "sovereign_funds": "china",
            "drones": "china",
            "mass_media": "china",
            "communications": "us",
        }
    }
    g, s = scenario(players=4, texts=[("us", "shock_doctrine")], variables=variables)
    s = play(g, s, "remove supremacy on up to two slots instead")
    assert labels(g, s) == [
        "remove Russia's supremacy on Financial markets",
        "remove China's supremacy on Sovereign funds",
        "stop",
    ]
    s = play(g, s, "remove Russia's supremacy on Financial markets", "remove China's supremacy on Sovereign funds")
    assert supremacy(g, s) == {"drones": "china", "mass_media": "china", "communications": "us"}


# ---- 39 Slobodan Milosevic ------------------------------------------------------------------------
def test_slobodan_milosevic_russia_and_china_gain_in_the_balkans():
    g, s = scenario(texts=[("east", "slobodan_milosevic")], clear=True)
    assert inf(g, s, "east", "balkan_states") == 2
    assert where(g, s, "slobodan_milosevic") == "removed"
    g, s = scenario(
        players=4, texts=[("china", "slobodan_milosevic")], influence={"eu": {"balkan_states": 1}}, clear=True
    )
    assert [inf(g, s, p, "balkan_states") for p in ("us", "eu", "russia", "china")] == [0, 1, 1, 1]


# ---- 40 Somali civil war --------------------------------------------------------------------------
def test_somali_civil_war_clears_somalia_and_opens_it_to_everyone():
    influence = {"east": {"somalia": 2, "kenya": 1}, "west": {"somalia": 1, "cuba": 1}}
    hands = {"west": ["wolfowitz_doctrine"]}
    g, s = scenario(texts=[("east", "somali_civil_war")], turns=["west"], influence=influence, hands=hands, clear=True)
    assert inf(g, s, "east", "somalia") == 1 and inf(g, s, "west", "somalia") == 0
    assert where(g, s, "somali_civil_war") == "in_play"
    s = play(g, s, "play Wolfowitz doctrine", "Wolfowitz doctrine for operations", "influence operation")
    assert "influence in Somalia (3)" in labels(g, s)  # no West influence near; East has the edge
    assert "influence in Kenya (3)" not in labels(g, s)
    g, s = scenario(turns=["west"], influence=influence, hands=hands, clear=True)
    s = play(g, s, "play Wolfowitz doctrine", "Wolfowitz doctrine for operations", "influence operation")
    assert "influence in Somalia (2)" not in labels(g, s)


def test_somali_civil_war_links_somalia_to_saudi_arabia():
    hands = {"east": ["party_congress"]}
    g, s = scenario(turns=["east"], influence={"east": {"somalia": 1}}, hands=hands, clear=True)
    s = play(g, s, "play Party Congress", "Party Congress for operations", "influence operation")
    assert "influence in Saudi Arabia (3)" not in labels(g, s) and "influence in Kenya (2)" in labels(g, s)
    g, s = scenario(
        texts=[("east", "somali_civil_war")],
        turns=["east"],
        influence={"west": {"somalia": 2}},
        hands=hands,
        clear=True,
    )
    assert inf(g, s, "west", "somalia") == 0 and inf(g, s, "east", "somalia") == 1
    s = play(g, s, "play Party Congress", "Party Congress for operations", "influence operation")
    assert "influence in Saudi Arabia (3)" in labels(g, s) and "influence in Kenya (2)" in labels(g, s)


# ---- 41 South Lebanon Conflict --------------------------------------------------------------------
def test_south_lebanon_conflict_protects_the_us_in_lebanon():
    influence = {"east": {"lebanon": 3, "syria": 1}}
    hands = {"east": ["muammar_gaddafi"], "west": ["yugoslav_wars"]}
    g, s = scenario(
        texts=[("west", "south_lebanon_conflict")],
        turns=["east", "west"],
        influence=influence,
        hands=hands,
        clear=True,
        pins=(6,),
    )
    assert inf(g, s, "west", "lebanon") == 1 and where(g, s, "south_lebanon_conflict") == "in_play"
    s = play(
        g,
        s,
        "play Muammar Gaddafi",
        "Muammar Gaddafi for operations",
        "destabilization operation",
        "destabilize Lebanon",
    )
    # 6 + 2 - 2: the West's influence cannot be removed.
    assert "remove 1 of West's" not in labels(g, s)
    s = play(g, s, "stop")
    # No other player has the edge: the US pays Lebanon's stability only.
    s = play(g, s, "play Yugoslav wars", "Yugoslav wars for operations", "influence operation")
    assert "influence in Lebanon (1)" in labels(g, s)


def test_south_lebanon_conflict_ends_when_it_leaves_play():
    influence = {"east": {"lebanon": 3, "syria": 1}, "west": {"lebanon": 1}}
    hands = {"east": ["muammar_gaddafi"], "west": ["yugoslav_wars"]}
    g, s = scenario(turns=["west", "east"], influence=influence, hands=hands, clear=True, pins=(6,))
    s = play(g, s, "play Yugoslav wars", "Yugoslav wars for operations", "influence operation")
    assert "influence in Lebanon (2)" in labels(g, s)
    s = play(g, s, "stop placing influence")
    s = play(
        g,
        s,
        "play Muammar Gaddafi",
        "Muammar Gaddafi for operations",
        "destabilization operation",
        "destabilize Lebanon",
    )
    assert "remove 1 of West's" in labels(g, s)


def test_south_lebanon_conflict_with_four_players_is_the_us():
    influence = {"eu": {"lebanon": 2}, "us": {"lebanon": 1}}
    hands = {"us": ["wolfowitz_doctrine"]}
    g, s = scenario(players=4, turns=["us"], influence=influence, hands=hands, clear=True)
    s = play(g, s, "play Wolfowitz doctrine", "Wolfowitz doctrine for operations", "influence operation")
    assert "influence in Lebanon (2)" in labels(g, s)  # the EU has the edge
    influence = {"eu": {"lebanon": 2}}
    g, s = scenario(
        players=4, texts=[("eu", "south_lebanon_conflict")], turns=["us"], influence=influence, hands=hands, clear=True
    )
    assert inf(g, s, "us", "lebanon") == 1 and inf(g, s, "eu", "lebanon") == 2
    s = play(g, s, "play Wolfowitz doctrine", "Wolfowitz doctrine for operations", "influence operation")
    assert "influence in Lebanon (1)" in labels(g, s)  # the EU may not hold the edge now


# ---- 42 Sudan civil wars --------------------------------------------------------------------------
def test_sudan_civil_wars_west_pre_9_11_succeeds_on_three_plus_one():
    g, s = scenario(texts=[("west", "sudan_civil_wars")], influence={"east": {"sudan": 3}}, clear=True, pins=(3,))
    assert inf(g, s, "east", "sudan") == 1 and inf(g, s, "west", "sudan") == 1
    assert where(g, s, "sudan_civil_wars") == "removed"
    g, s = scenario(texts=[("west", "sudan_civil_wars")], influence={"east": {"sudan": 3}}, clear=True, pins=(2,))
    assert inf(g, s, "east", "sudan") == 3 and inf(g, s, "west", "sudan") == 0


def test_sudan_civil_wars_counts_the_blocks_edges_around_sudan():
    influence = {"east": {"egypt": 1, "ethiopia": 1, "kenya": 1}, "west": {"sudan": 1, "egypt": 1}}
    g, s = scenario(texts=[("east", "sudan_civil_wars")], influence=influence, clear=True, pins=(2,))
    assert inf(g, s, "west", "sudan") == 1  # 2 + Ethiopia only (Egypt tied, Kenya not adjacent): 3
    g, s = scenario(
        texts=[("east", "sudan_civil_wars")], influence=influence, variables={"epoch": "post"}, clear=True, pins=(2,)
    )
    assert inf(g, s, "west", "sudan") == 0 and inf(g, s, "east", "sudan") == 1  # + post-9/11 East: 4


def test_sudan_civil_wars_with_four_players_removes_two_tokens_as_chosen():
    influence = {"us": {"sudan": 1}, "china": {"sudan": 2}, "russia": {"ethiopia": 1}}
    g, s = scenario(players=4, texts=[("russia", "sudan_civil_wars")], influence=influence, clear=True, pins=(3,))
    assert labels(g, s) == ["remove 1 of US's in Sudan", "remove 1 of China's in Sudan"]
    s = play(g, s, "remove 1 of US's in Sudan")  # then only China's is left: removed without asking
    assert g.is_over(s)
    assert [inf(g, s, p, "sudan") for p in ("us", "china", "russia")] == [0, 1, 1]


# ---- 43 Tiananmen protests ------------------------------------------------------------------------
def test_tiananmen_protests():
    influence = {"west": {"china_country": 2}, "east": {"china_country": 1}}
    g, s = scenario(texts=[("west", "tiananmen_protests")], influence=influence, vp={"east": 4}, clear=True)
    assert vp(g, s)["east"] == 2
    assert inf(g, s, "east", "china_country") == 2 and inf(g, s, "west", "china_country") == 0
    assert where(g, s, "tiananmen_protests") == "removed"
    influence = {"russia": {"china_country": 1}, "us": {"china_country": 1}, "china": {"china_country": 2}}
    g, s = scenario(
        players=4, texts=[("us", "tiananmen_protests")], influence=influence, vp={"china": 1, "russia": 1}, clear=True
    )
    assert [inf(g, s, p, "china_country") for p in ("us", "eu", "russia", "china")] == [0, 0, 0, 3]
    # China had 1 VP: the second goes to the player with the fewest VP (the US, first of those tied).
    assert vp(g, s) == {"us": 1, "eu": 0, "russia": 1, "china": 0}


# ---- 44 Uncomfortable democracies -----------------------------------------------------------------
def test_uncomfortable_democracies_gain_a_vp_and_influence_in_south_america():
    g, s = scenario(texts=[("east", "uncomfortable_democracies")], clear=True)
    assert vp(g, s)["east"] == 1
    assert labels(g, s) == [
        "influence in Venezuela",
        "influence in Ecuador",
        "influence in Bolivia",
        "influence in Brazil",
        "influence in Argentina",
        "remove up to 2 influence in Ukraine",
        "remove up to 2 influence in Israel",
    ]
    s = play(g, s, "influence in Bolivia")
    assert inf(g, s, "east", "bolivia") == 1 and where(g, s, "uncomfortable_democracies") == "discard"


def test_uncomfortable_democracies_or_remove_up_to_two_in_ukraine():
    influence = {"us": {"ukraine": 1}, "eu": {"ukraine": 2}}
    g, s = scenario(players=4, texts=[("china", "uncomfortable_democracies")], influence=influence, clear=True)
    s = play(g, s, "remove up to 2 influence in Ukraine", "remove 1 of US's in Ukraine")
    assert labels(g, s) == ["remove 1 of EU's in Ukraine", "stop removing"]
    s = play(g, s, "remove 1 of EU's in Ukraine")
    assert [inf(g, s, p, "ukraine") for p in ("us", "eu")] == [0, 1]
    assert vp(g, s)["china"] == 1


# ---- 45 Wolfowitz doctrine ------------------------------------------------------------------------
def test_wolfowitz_doctrine_removes_east_influence_from_oil_or_conflictive_countries():
    influence = {"east": {"iraq": 2, "cuba": 1, "jordan": 1}}
    g, s = scenario(texts=[("west", "wolfowitz_doctrine")], influence=influence, vp={"west": 2}, clear=True)
    assert labels(g, s) == ["remove East influence in Cuba", "remove East influence in Iraq", "stop removing"]
    s = play(g, s, "remove East influence in Iraq", "remove East influence in Iraq")
    assert inf(g, s, "east", "iraq") == 0 and inf(g, s, "east", "cuba") == 1
    assert vp(g, s)["west"] == 1
    assert where(g, s, "wolfowitz_doctrine") == "removed"


def test_wolfowitz_doctrine_with_four_players_the_us_decides_and_may_stop():
    influence = {"russia": {"iraq": 1}, "china": {"iraq": 1}, "eu": {"iraq": 1}}
    g, s = scenario(players=4, texts=[("eu", "wolfowitz_doctrine")], influence=influence, vp={"us": 1}, clear=True)
    assert g.current_player(s) == "us"
    s = play(g, s, "remove East influence in Iraq")
    assert labels(g, s) == ["remove 1 of Russia's in Iraq", "remove 1 of China's in Iraq"]
    s = play(g, s, "remove 1 of China's in Iraq", "stop removing")
    assert [inf(g, s, p, "iraq") for p in ("eu", "russia", "china")] == [1, 1, 0]
    assert vp(g, s)["us"] == 0


# ---- 46 Yugoslav wars -----------------------------------------------------------------------------
def test_yugoslav_wars_eu_loses_a_vp_and_takes_the_edge_in_the_balkans():
    g, s = scenario(
        texts=[("west", "yugoslav_wars")], influence={"east": {"balkan_states": 2}}, vp={"west": 2}, clear=True
    )
    assert inf(g, s, "west", "balkan_states") == 3 and vp(g, s)["west"] == 1
    assert where(g, s, "yugoslav_wars") == "removed"
    influence = {"russia": {"balkan_states": 2}, "eu": {"balkan_states": 1}, "us": {"balkan_states": 1}}
    g, s = scenario(players=4, texts=[("us", "yugoslav_wars")], influence=influence, vp={"eu": 1}, clear=True)
    assert [inf(g, s, p, "balkan_states") for p in ("us", "eu", "russia")] == [1, 3, 2]
    assert vp(g, s)["eu"] == 0
