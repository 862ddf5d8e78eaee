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


# ---- 1 Angolan civil war ----------------------------------------------------------------


def test_angolan_civil_war_on_3_gains_a_vp_removes_one_of_each_other_and_edges_angola():
    # East edges Angola itself: 4 - 1 = 3.
    g, s = scenario(clear=True, influence={"east": {"angola": 2}}, texts=[("west", "angolan_civil_war")], pins=(4,))
    assert g.is_over(s)
    assert vp(g, s)["west"] == 1
    assert inf(g, s, "east", "angola") == 1 and inf(g, s, "west", "angola") == 2
    assert "angolan_civil_war" in g.var(s, "removed")


def test_angolan_civil_war_counts_angola_and_its_neighbours_edged_by_others_only():
    # East edges Angola and Congo (-2), West's own Botswana does not count: 4 - 2 = 2 fails.
    infl = {"east": {"angola": 1, "congo": 1}, "west": {"botswana": 1}}
    g, s = scenario(clear=True, influence=infl, texts=[("west", "angolan_civil_war")], pins=(4,))
    assert vp(g, s)["west"] == 0 and inf(g, s, "west", "angola") == 0 and inf(g, s, "east", "angola") == 1
    assert "angolan_civil_war" in g.var(s, "removed")
    # The same position on a 5: 5 - 2 = 3 succeeds.
    g, s = scenario(clear=True, influence=infl, texts=[("west", "angolan_civil_war")], pins=(5,))
    assert vp(g, s)["west"] == 1 and inf(g, s, "west", "angola") == 1 and inf(g, s, "east", "angola") == 0


def test_angolan_civil_war_with_four_players_hits_every_other_player_in_angola():
    infl = {"us": {"angola": 1}, "eu": {"angola": 1}, "russia": {"angola": 2}, "china": {"south_africa": 1}}
    g, s = scenario(players=4, clear=True, influence=infl, texts=[("us", "angolan_civil_war")], pins=(5,))
    # China edges South Africa (-1) and Russia Angola (-1): 5 - 2 = 3.
    assert vp(g, s)["us"] == 1
    assert [inf(g, s, t, "angola") for t in ("eu", "russia")] == [0, 1]
    assert inf(g, s, "us", "angola") == 2  # edge over Russia's 1


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


# ---- 4 Boris Yeltsin -------------------------------------------------------------------------


def test_boris_yeltsin_gives_the_us_one_influence_in_russia():
    g, s = scenario(texts=[("west", "boris_yeltsin")])
    assert inf(g, s, "west", "russia_country") == 1
    assert "boris_yeltsin" in g.var(s, "removed")
    g, s = scenario(players=4, texts=[("eu", "boris_yeltsin")])
    assert inf(g, s, "us", "russia_country") == 1 and inf(g, s, "eu", "russia_country") == 0


# ---- 5 Chechen wars --------------------------------------------------------------------------


def test_chechen_wars_played_by_russia_takes_the_edge_in_caucasus_and_costs_a_vp():
    g, s = scenario(influence={"west": {"caucasus_states": 2}}, vp={"east": 3}, texts=[("east", "chechen_wars")])
    assert inf(g, s, "east", "caucasus_states") == 3  # 1 at the start, 2 more to beat West's 2
    assert vp(g, s)["east"] == 2
    assert "chechen_wars" in g.var(s, "discard")
    g, s = scenario(
        players=4, vp={"russia": 3}, influence={"china": {"caucasus_states": 1}}, texts=[("russia", "chechen_wars")]
    )
    assert inf(g, s, "russia", "caucasus_states") == 2 and vp(g, s)["russia"] == 2


def test_chechen_wars_played_by_another_removes_russia_until_it_loses_the_edge():
    g, s = scenario(
        influence={"east": {"caucasus_states": 3}, "west": {"caucasus_states": 1}}, texts=[("west", "chechen_wars")]
    )
    assert inf(g, s, "east", "caucasus_states") == 1 and inf(g, s, "west", "caucasus_states") == 1
    assert vp(g, s) == {"west": 0, "east": 0}
    # With four players China playing it is "otherwise": Russia's edge goes.
    g, s = scenario(players=4, vp={"russia": 3}, texts=[("china", "chechen_wars")])
    assert inf(g, s, "russia", "caucasus_states") == 0 and vp(g, s)["russia"] == 3
    # West takes it from East's hand with IMF intervention: played by West, not by Russia.
    g, s = scenario(hands={"east": ["chechen_wars"]}, vp={"east": 3}, texts=[("west", "imf_intervention")])
    s = play(g, s, "look at East's hand", "play East's Chechen wars for its text")
    assert inf(g, s, "east", "caucasus_states") == 0 and vp(g, s)["east"] == 3
    assert "chechen_wars" in g.var(s, "discard") and list(g.var(s, "hand")["east"]) == []


# ---- 6 Congo wars ----------------------------------------------------------------------------


def test_congo_wars_on_3_removes_one_of_each_other_and_edges_congo_without_vp():
    # Congo itself edged by East does not count (only its neighbours do).
    g, s = scenario(
        clear=True, influence={"east": {"congo": 3}, "west": {"congo": 1}}, texts=[("west", "congo_wars")], pins=(3,)
    )
    assert inf(g, s, "east", "congo") == 2 and inf(g, s, "west", "congo") == 3
    assert vp(g, s)["west"] == 0
    assert "congo_wars" in g.var(s, "discard")


def test_congo_wars_loses_one_per_neighbour_edged_by_another_player():
    infl = {"us": {"angola": 1}, "china": {"congo": 1, "cameroon": 1, "zimbabwe": 1}}
    # Russia resolves: China edges Cameroon and Zimbabwe (-2), the US Angola (-1): 5 - 3 = 2.
    g, s = scenario(players=4, clear=True, influence=infl, texts=[("russia", "congo_wars")], pins=(5,))
    assert inf(g, s, "russia", "congo") == 0 and inf(g, s, "china", "congo") == 1
    # 6 - 3 = 3: China loses 1 in Congo, Russia gains 1 (enough for the edge).
    g, s = scenario(players=4, clear=True, influence=infl, texts=[("russia", "congo_wars")], pins=(6,))
    assert inf(g, s, "russia", "congo") == 1 and inf(g, s, "china", "congo") == 0


# ---- 7 Democracy in Nigeria ---------------------------------------------------------------------


def test_democracy_in_nigeria_gains_a_vp_and_influence_and_stays_in_play():
    g, s = scenario(texts=[("west", "democracy_in_nigeria")])
    assert vp(g, s)["west"] == 1 and inf(g, s, "west", "nigeria") == 1
    assert "democracy_in_nigeria" in g.var(s, "in_play") and "democracy_in_nigeria" not in g.var(s, "removed")
    g, s = scenario(players=4, texts=[("eu", "democracy_in_nigeria")])
    assert vp(g, s)["eu"] == 1 and inf(g, s, "eu", "nigeria") == 1 and vp(g, s)["us"] == 0


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


# ---- 8 Economic crisis -------------------------------------------------------------------------


def test_economic_crisis_first_epoch_turns_east_influence_into_west():
    g, s = scenario(clear=True, influence={"east": {"iraq": 2, "cuba": 1}}, texts=[("west", "economic_crisis")])
    assert labels(g, s) == ["remove East influence in Cuba", "remove East influence in Iraq"]
    s = play(g, s, "remove East influence in Iraq")
    assert inf(g, s, "east", "iraq") == 1 and inf(g, s, "west", "iraq") == 1 and inf(g, s, "east", "cuba") == 1
    assert "economic_crisis" in g.var(s, "discard")


def test_economic_crisis_second_epoch_turns_west_influence_into_east():
    variables = {"epoch": "post"}
    g, s = scenario(
        clear=True,
        variables=variables,
        influence={"west": {"iraq": 1}, "east": {"cuba": 1}},
        texts=[("east", "economic_crisis")],
    )
    assert labels(g, s) == ["remove West influence in Iraq"]
    s = play(g, s, "remove West influence in Iraq")
    assert inf(g, s, "west", "iraq") == 0 and inf(g, s, "east", "iraq") == 1
    # Nothing to remove: nothing happens.
    g, s = scenario(
        clear=True, variables=variables, influence={"east": {"cuba": 1}}, texts=[("west", "economic_crisis")]
    )
    assert g.is_over(s) and inf(g, s, "east", "cuba") == 1 and inf(g, s, "west", "cuba") == 0


def test_economic_crisis_with_four_players_names_whose_influence_moves():
    infl = {"russia": {"iraq": 1}, "china": {"iraq": 1}}
    g, s = scenario(players=4, clear=True, influence=infl, texts=[("russia", "economic_crisis")])
    s = play(g, s, "remove East influence in Iraq")
    assert labels(g, s) == ["remove 1 of Russia's in Iraq", "remove 1 of China's in Iraq"]
    s = play(g, s, "remove 1 of China's in Iraq")
    assert labels(g, s) == ["add 1 US influence in Iraq", "add 1 EU influence in Iraq"]
    s = play(g, s, "add 1 EU influence in Iraq")
    assert [inf(g, s, t, "iraq") for t in ("us", "eu", "russia", "china")] == [0, 1, 1, 0]
    # A West player places its own.
    g, s = scenario(players=4, clear=True, influence={"russia": {"iraq": 1}}, texts=[("us", "economic_crisis")])
    s = play(g, s, "remove East influence in Iraq")
    assert g.is_over(s) and inf(g, s, "us", "iraq") == 1 and inf(g, s, "russia", "iraq") == 0


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


def test_el_jefe_goes_in_play_and_gives_china_and_russia_influence_in_cuba():
    g, s = scenario(clear=True, texts=[("east", "el_jefe")])
    assert inf(g, s, "east", "cuba") == 2
    assert "el_jefe" in g.var(s, "in_play") and "el_jefe" not in g.var(s, "removed")
    g, s = scenario(players=4, clear=True, texts=[("china", "el_jefe")])
    assert [inf(g, s, t, "cuba") for t in ("us", "eu", "russia", "china")] == [0, 0, 1, 1]


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


# ---- 11 Embassy asylum ---------------------------------------------------------------------------


def test_embassy_asylum_plays_a_personality_from_the_discard_pile_for_its_text():
    discard = ["katrina", "boris_yeltsin", "el_jefe"]
    g, s = scenario(clear=True, variables={"discard": discard}, texts=[("east", "embassy_asylum")])
    assert labels(g, s) == ["play Boris Yeltsin for its text", "play El Jefe for its text"]
    s = play(g, s, "play El Jefe for its text")
    assert inf(g, s, "east", "cuba") == 2 and "el_jefe" in g.var(s, "in_play")
    assert list(g.var(s, "discard")) == ["katrina", "boris_yeltsin", "embassy_asylum"]
    g, s = scenario(clear=True, variables={"discard": discard}, texts=[("east", "embassy_asylum")])
    s = play(g, s, "play Boris Yeltsin for its text")
    assert inf(g, s, "west", "russia_country") == 1
    assert "boris_yeltsin" in g.var(s, "removed") and "boris_yeltsin" not in g.var(s, "discard")


def test_embassy_asylum_with_no_personality_discarded_does_nothing():
    g, s = scenario(players=4, variables={"discard": ["katrina"]}, texts=[("china", "embassy_asylum")])
    assert g.is_over(s) and list(g.var(s, "discard")) == ["katrina", "embassy_asylum"]


def test_embassy_asylum_personality_can_be_cancelled_by_fsb_creation():
    texts = [("russia", "fsb_creation"), ("china", "embassy_asylum")]
    g, s = scenario(players=4, clear=True, variables={"discard": ["el_jefe"]}, texts=texts)
    s = play(g, s, "play El Jefe for its text")
    assert labels(g, s) == ["remove FSB creation from the game: cancel the text of El Jefe", "don't use FSB creation"]
    s = play(g, s, "remove FSB creation from the game: cancel the text of El Jefe")
    assert inf(g, s, "china", "cuba") == 0 and "el_jefe" not in g.var(s, "in_play")
    assert "el_jefe" in g.var(s, "discard") and "fsb_creation" in g.var(s, "removed")


# ---- 12 Empire of war -----------------------------------------------------------------------------


def test_empire_of_war_successful_destabilization_allows_a_second_on_a_calm_country():
    infl = {"east": {"angola": 1, "botswana": 2, "cuba": 1}}
    g, s = scenario(clear=True, influence=infl, vp={"west": 3}, texts=[("west", "empire_of_war")], pins=(1, 6))
    assert labels(g, s) == ["destabilize Cuba", "destabilize Angola"]  # conflictive only
    s = play(g, s, "destabilize Angola")  # 1 + 2 - 2 = 1: successful, West loses 1 VP
    assert vp(g, s)["west"] == 2
    s = play(g, s, "remove 1 of East's")
    assert labels(g, s) == ["destabilize Botswana"]  # non-conflictive only
    s = play(g, s, "destabilize Botswana")  # 6 + 2 - 4 = 4
    s = play(g, s, "remove 1 of East's", "remove 1 of East's", "add 1 influence", "add 1 influence")
    assert g.is_over(s)
    assert (
        inf(g, s, "east", "angola") == 0 and inf(g, s, "east", "botswana") == 0 and inf(g, s, "west", "botswana") == 2
    )
    assert vp(g, s)["west"] == 2  # Botswana is not conflictive


def test_empire_of_war_failed_destabilization_ends_it():
    infl = {"east": {"cuba": 1, "botswana": 1}}
    g, s = scenario(clear=True, influence=infl, vp={"west": 3}, texts=[("west", "empire_of_war")], pins=(4,))
    s = play(g, s, "destabilize Cuba")  # 4 + 2 - 6 = 0: not successful
    assert g.is_over(s) and vp(g, s)["west"] == 2 and inf(g, s, "east", "botswana") == 1


def test_empire_of_war_is_the_us_destabilizing_with_four_players():
    infl = {"china": {"angola": 1}}
    g, s = scenario(players=4, clear=True, influence=infl, vp={"us": 2}, texts=[("eu", "empire_of_war")], pins=(3,))
    s = play(g, s, "destabilize Angola")  # 3 + 2 - 2 = 3
    s = play(g, s, "add 1 influence", "stop")
    assert (
        inf(g, s, "us", "angola") == 1
        and inf(g, s, "eu", "angola") == 0
        and vp(g, s) == {"us": 1, "eu": 0, "russia": 0, "china": 0}
    )
    assert g.is_over(s)  # no non-conflictive country with another's influence


# ---- 13 Europe ---------------------------------------------------------------------------------------


def test_europe_scoring_presence_domination_conflictive_and_countries_next_to_home():
    infl = {"west": {"france": 1, "italy": 1, "balkan_states": 1}, "east": {"ukraine": 1, "poland": 1}}
    g, s = scenario(clear=True, influence=infl, turns=["west"], hands={"west": ["europe_scoring", "katrina"]})
    s = play(g, s, "play Europe", "score Europe")
    # West: presence 2 + domination 2 + 1 conflictive - 1 (Poland, next to Germany) = 4.
    # East: presence 2 + 1 conflictive (no domination: fewer countries) = 3.
    assert vp(g, s) == {"west": 4, "east": 3}
    assert "europe_scoring" in g.var(s, "discard")


def test_europe_scoring_control_and_four_players():
    infl = {
        "eu": {"france": 1, "italy": 1, "balkan_states": 1, "ukraine": 1},
        "russia": {"poland": 1},
        "china": {"finland": 1},
    }
    g, s = scenario(players=4, clear=True, influence=infl, texts=[("us", "europe_scoring", "us", "scoring_use")])
    # EU: presence 2 + domination 2 + control 3 (both conflictive countries) + 2 conflictive
    # - 1 (Poland, next to Germany) = 8. Russia: presence 2 - 1 (Ukraine, edged by the EU next
    # to Russia) - 1 (Finland, edged by China next to Russia) = 0. China: presence 2. The US: 0.
    assert vp(g, s) == {"us": 0, "eu": 8, "russia": 0, "china": 2}


# ---- 14 Fall of the Berlin Wall --------------------------------------------------------------------


def test_fall_of_the_berlin_wall_early_by_west():
    g, s = scenario(
        clear=True,
        influence={"east": {"germany": 2}},
        variables={"round": 3},
        texts=[("west", "fall_of_the_berlin_wall")],
    )
    assert inf(g, s, "east", "germany") == 1 and inf(g, s, "west", "germany") == 1
    assert vp(g, s)["west"] == 2  # 1 + 1 (turns 1-4)
    assert "fall_of_the_berlin_wall" in g.var(s, "removed")
    g, s = scenario(clear=True, variables={"round": 5}, texts=[("west", "fall_of_the_berlin_wall")])
    assert vp(g, s)["west"] == 1 and inf(g, s, "west", "germany") == 1


def test_fall_of_the_berlin_wall_played_by_east_for_operations():
    text = ("west", "fall_of_the_berlin_wall", "east", "ops_use")
    g, s = scenario(clear=True, influence={"east": {"germany": 1}}, variables={"round": 4}, texts=[text])
    assert vp(g, s)["west"] == 3 and inf(g, s, "east", "germany") == 0
    g, s = scenario(clear=True, variables={"round": 6}, texts=[text])
    assert vp(g, s)["west"] == 2


def test_fall_of_the_berlin_wall_with_four_players():
    infl = {"russia": {"germany": 1}, "china": {"germany": 1}}
    g, s = scenario(
        players=4,
        clear=True,
        influence=infl,
        variables={"round": 2},
        texts=[("eu", "fall_of_the_berlin_wall", "russia", "ops_use")],
    )
    assert [inf(g, s, t, "germany") for t in ("us", "eu", "russia", "china")] == [0, 1, 0, 1]
    assert vp(g, s) == {"us": 3, "eu": 0, "russia": 0, "china": 0}
    # Should an East player resolve it (through another card), it names the West superpower.
    g, s = scenario(
        players=4, clear=True, variables={"round": 7}, texts=[("china", "fall_of_the_berlin_wall", "us", "text_use")]
    )
    assert labels(g, s) == ["add 1 US influence in Germany", "add 1 EU influence in Germany"]
    s = play(g, s, "add 1 US influence in Germany")
    assert inf(g, s, "us", "germany") == 1 and vp(g, s)["us"] == 1


# ---- 15 FSB creation ---------------------------------------------------------------------------------


def test_fsb_creation_gives_russia_influence_and_goes_in_play():
    g, s = scenario(clear=True, texts=[("east", "fsb_creation")])
    assert inf(g, s, "east", "russia_country") == 1 and "fsb_creation" in g.var(s, "in_play")
    g, s = scenario(players=4, clear=True, texts=[("china", "fsb_creation")])
    assert inf(g, s, "russia", "russia_country") == 1 and inf(g, s, "china", "russia_country") == 0


def test_fsb_creation_cancels_a_personality_text_and_leaves_the_game():
    g, s = scenario(clear=True, texts=[("east", "fsb_creation"), ("west", "boris_yeltsin")])
    assert labels(g, s) == [
        "remove FSB creation from the game: cancel the text of Boris Yeltsin",
        "don't use FSB creation",
    ]
    s = play(g, s, "remove FSB creation from the game: cancel the text of Boris Yeltsin")
    assert inf(g, s, "west", "russia_country") == 0
    assert "fsb_creation" in g.var(s, "removed") and "fsb_creation" not in g.var(s, "in_play")
    # The cancelled text was not triggered: Boris Yeltsin (*) is discarded, not removed.
    assert "boris_yeltsin" in g.var(s, "discard") and "boris_yeltsin" not in g.var(s, "removed")


def test_fsb_creation_may_let_the_text_resolve_and_ignores_other_cards():
    g, s = scenario(clear=True, texts=[("east", "fsb_creation"), ("west", "boris_yeltsin")])
    s = play(g, s, "don't use FSB creation")
    assert inf(g, s, "west", "russia_country") == 1 and "fsb_creation" in g.var(s, "in_play")
    assert "boris_yeltsin" in g.var(s, "removed")
    g, s = scenario(clear=True, texts=[("east", "fsb_creation"), ("east", "katrina")])
    assert g.is_over(s) and "fsb_creation" in g.var(s, "in_play")


def test_fsb_creation_is_russias_to_use_with_four_players_also_on_a_header():
    texts = [("china", "fsb_creation"), ("russia", "el_jefe", "russia", "header_use")]
    g, s = scenario(players=4, clear=True, texts=texts)
    assert g.current_player(s) == "russia"
    s = play(g, s, "remove FSB creation from the game: cancel the text of El Jefe")
    assert inf(g, s, "china", "cuba") == 0 and "el_jefe" in g.var(s, "discard")


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


def test_imf_intervention_played_card_goes_where_its_text_sends_it():
    hands = {"russia": ["katrina"], "eu": ["maastrich_treaty"]}
    g, s = scenario(players=4, hands=hands, vp={"us": 2}, texts=[("us", "imf_intervention")])
    assert labels(g, s) == ["look at EU's hand", "look at Russia's hand", "look at no hand"]
    s = play(g, s, "look at Russia's hand", "play Russia's Katrina for its text")
    assert vp(g, s)["us"] == 1 and "katrina" in g.var(s, "removed") and list(g.var(s, "hand")["russia"]) == []
    g, s = scenario(players=4, hands=hands, texts=[("us", "imf_intervention")])
    s = play(g, s, "look at EU's hand", "play none of them")
    assert g.is_over(s) and list(g.var(s, "hand")["eu"]) == ["maastrich_treaty"]


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


def test_immigrants_on_a_country_without_edge_just_adds():
    g, s = scenario(clear=True, texts=[("east", "immigrants")])
    s = play(g, s, "East influence in Canada")
    assert g.is_over(s) and inf(g, s, "east", "canada") == 1
    # With four players, China's edge in Canada lets China negate Russia's influence.
    g, s = scenario(
        players=4, clear=True, influence={"china": {"canada": 1}}, vp={"china": 2}, texts=[("russia", "immigrants")]
    )
    s = play(g, s, "East influence in Canada")
    assert labels(g, s) == [
        "lose 2 VP to negate Immigrants in Canada",
        "don't negate Immigrants: Russia adds 1 influence in Canada",
    ]
    s = play(g, s, "lose 2 VP to negate Immigrants in Canada")
    assert vp(g, s)["china"] == 0 and inf(g, s, "russia", "canada") == 0


# ---- 19 Israeli-Palestinian wars ----------------------------------------------------------------------------


def test_israeli_palestinian_wars_on_1_or_less_gives_vp_to_all_but_the_us_and_costs_us_influence():
    # The US edges Syria, Jordan and Lebanon: -1 for Israel and Egypt, -2; a 3 gives 1.
    infl = {"west": {"israel": 2, "syria": 1, "jordan": 1, "lebanon": 1}, "east": {"israel": 3}}
    g, s = scenario(clear=True, influence=infl, texts=[("east", "israeli_palestinian_wars")], pins=(3,))
    assert vp(g, s) == {"west": 0, "east": 1}
    assert inf(g, s, "west", "israel") == 1
    assert labels(g, s) == [
        "remove US influence in Jordan",
        "remove US influence in Lebanon",
        "remove US influence in Syria",
    ]
    s = play(g, s, "remove US influence in Jordan")
    assert inf(g, s, "west", "jordan") == 0 and inf(g, s, "west", "syria") == 1
    # A 4 gives 2: nothing.
    g, s = scenario(clear=True, influence=infl, texts=[("east", "israeli_palestinian_wars")], pins=(4,))
    assert g.is_over(s) and vp(g, s) == {"west": 0, "east": 0} and inf(g, s, "west", "israel") == 2


def test_israeli_palestinian_wars_with_four_players():
    g, s = scenario(
        players=4, clear=True, influence={"us": {"israel": 1}}, texts=[("china", "israeli_palestinian_wars")], pins=(6,)
    )
    # Only Israel is edged by the US: -4 for the neighbours; 6 - 4 = 2: nothing.
    assert g.is_over(s) and vp(g, s) == {"us": 0, "eu": 0, "russia": 0, "china": 0}
    g, s = scenario(
        players=4, clear=True, influence={"us": {"israel": 1}}, texts=[("china", "israeli_palestinian_wars")], pins=(5,)
    )
    assert g.is_over(s) and vp(g, s) == {"us": 0, "eu": 1, "russia": 1, "china": 1}
    assert inf(g, s, "us", "israel") == 0


# ---- 20 Katrina ------------------------------------------------------------------------------------------------


def test_katrina_us_loses_one_vp():
    g, s = scenario(vp={"west": 3}, texts=[("east", "katrina")])
    assert vp(g, s)["west"] == 2 and "katrina" in g.var(s, "removed")
    g, s = scenario(players=4, vp={"us": 3, "eu": 3}, texts=[("china", "katrina")])
    assert vp(g, s) == {"us": 2, "eu": 3, "russia": 0, "china": 0}


# ---- 21 Khobar towers attack ------------------------------------------------------------------------------


def test_khobar_towers_attack_removes_one_west_influence_in_saudi_arabia():
    g, s = scenario(
        clear=True,
        influence={"west": {"saudi_arabia": 2}, "east": {"saudi_arabia": 1}},
        texts=[("east", "khobar_towers_attack")],
    )
    assert inf(g, s, "west", "saudi_arabia") == 1 and inf(g, s, "east", "saudi_arabia") == 1
    assert "khobar_towers_attack" in g.var(s, "removed")
    g, s = scenario(
        players=4,
        clear=True,
        influence={"us": {"saudi_arabia": 1}, "eu": {"saudi_arabia": 1}},
        texts=[("russia", "khobar_towers_attack")],
    )
    assert labels(g, s) == ["remove 1 of US's in Saudi Arabia", "remove 1 of EU's in Saudi Arabia"]
    s = play(g, s, "remove 1 of EU's in Saudi Arabia")
    assert (inf(g, s, "us", "saudi_arabia"), inf(g, s, "eu", "saudi_arabia")) == (1, 0)
    g, s = scenario(players=4, clear=True, texts=[("russia", "khobar_towers_attack")])
    assert g.is_over(s)


# ---- 22 Maastrich Treaty ------------------------------------------------------------------------------------


def test_maastrich_treaty_adds_eu_influence_in_up_to_two_listed_countries_and_a_vp():
    g, s = scenario(clear=True, texts=[("west", "maastrich_treaty")])
    assert labels(g, s) == [
        "EU influence in Germany",
        "EU influence in France",
        "EU influence in Italy",
        "EU influence in Spain-Portugal",
        "EU influence in Benelux",
        "EU influence in Denmark",
        "EU influence in Greece",
        "stop adding EU influence",
    ]
    s = play(g, s, "EU influence in Greece")
    assert "EU influence in Greece" not in labels(g, s)
    s = play(g, s, "EU influence in Denmark")
    assert g.is_over(s)
    assert inf(g, s, "west", "greece") == 1 and inf(g, s, "west", "denmark") == 1 and vp(g, s)["west"] == 1
    assert "maastrich_treaty" in g.var(s, "removed")


def test_maastrich_treaty_with_four_players_is_the_eus_and_may_stop():
    g, s = scenario(players=4, clear=True, texts=[("us", "maastrich_treaty")])
    s = play(g, s, "EU influence in France", "stop adding EU influence")
    assert inf(g, s, "eu", "france") == 1 and inf(g, s, "us", "france") == 0
    assert vp(g, s) == {"us": 0, "eu": 1, "russia": 0, "china": 0}


# ---- 23 Made in China ---------------------------------------------------------------------------------------


def test_made_in_china_adds_china_influence_in_the_us_an_eu_country_and_another():
    g, s = scenario(players=4, clear=True, texts=[("russia", "made_in_china")])
    assert inf(g, s, "china", "united_states") == 1
    assert "China influence in France" in labels(g, s) and "China influence in Mexico" not in labels(g, s)
    s = play(g, s, "China influence in France")
    assert "China influence in France" not in labels(g, s) and "China influence in United States" not in labels(g, s)
    assert "China influence in Russia" in labels(g, s)
    s = play(g, s, "China influence in Mexico")
    assert g.is_over(s)
    assert [inf(g, s, "china", x) for x in ("united_states", "france", "mexico")] == [1, 1, 1]
    assert inf(g, s, "russia", "mexico") == 0
    assert "made_in_china" in g.var(s, "discard")
    g, s = scenario(clear=True, texts=[("east", "made_in_china")])
    s = play(g, s, "China influence in Italy", "China influence in Japan")
    assert [inf(g, s, "east", x) for x in ("united_states", "italy", "japan")] == [1, 1, 1]
