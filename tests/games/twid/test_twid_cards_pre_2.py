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


# ---- 26 Neocolonialism ----------------------------------------------------------------------------


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


# ---- 27 Neoliberalism -----------------------------------------------------------------------------


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


# ---- 32 Osama bin Laden ---------------------------------------------------------------------------


def test_osama_bin_laden_in_play_at_9_11_costs_the_us_and_leaves_play():
    influence = {"west": {"jordan": 1, "cuba": 1}}
    g, s = rounds(rounds_listed=[4, 5], influence=influence, in_play=["osama_bin_laden"], vp={"west": 3})
    assert g.current_player(s) == "west"
    assert labels(g, s) == ["remove 1 US influence in Jordan"]
    s = play(g, s, "remove 1 US influence in Jordan")
    assert vp(g, s)["west"] == 2 and inf(g, s, "west", "jordan") == 0 and inf(g, s, "west", "cuba") == 1
    assert g.var(s, "epoch") == "post"
    assert where(g, s, "osama_bin_laden") == "discard"  # "then discard this card", although marked *


# ---- 34 Petrodollars ------------------------------------------------------------------------------


def test_petrodollars_murdoch_oligarchs_and_shock_doctrine_are_removed_in_solo():
    g = game()

    def dealt_or_in_deck(s):
        return set(g.var(s, "deck")) | {c for h in g.var(s, "hand").values() for c in h}

    solo, duo = dealt_or_in_deck(g.start(players=1, seed=1)), dealt_or_in_deck(g.start(players=2, seed=1))
    for card in ("petrodollars", "rupert_murdoch", "russian_oligarchs", "shock_doctrine"):
        assert card not in solo and card in duo
    assert "oil_crisis" in solo
