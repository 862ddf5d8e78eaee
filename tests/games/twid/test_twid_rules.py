"""The Wall is Down, the core rules section by section, as scripted scenarios.

Each test lays out a position (tests/twid_helpers.py) and asserts what the rulebook
(rules/the_wall_is_down.md) says should follow: setup, the header ranking and its
tie-break, influence costs and reach, destabilization, region scoring, VP overflow and
underflow, the NWO track's vetoes and aheads, the deck's transitions and the redraw.
"""

from __future__ import annotations

import pytest

from tests.twid_helpers import game, inf, labels, play, scenario

COUNTRIES_2P_WEST = {
    "united_states": 2,
    "canada": 1,
    "united_kingdom": 2,
    "benelux": 1,
    "germany": 3,
    "france": 2,
    "spain_portugal": 1,
    "italy": 1,
    "japan": 1,
}
COUNTRIES_2P_EAST = {
    "ukraine": 1,
    "russia_country": 1,
    "caucasus_states": 1,
    "stan_states": 1,
    "china_country": 2,
    "north_korea": 1,
}


def placed(g, s, side: str) -> dict[str, int]:
    return {x: n for x, n in g.var(s, "influence")[side].items() if n}


def cards_of(g, **props) -> list[str]:
    fields = g.compiled.fields
    return [c for c in g.compiled.types["TwidCard"] if all(fields[k][c] == v for k, v in props.items())]


# ---- 2. Setup --------------------------------------------------------------------------------
def test_two_players_start_with_the_blocks_starting_influence_and_seven_cards():
    g = game()
    s = g.start(players=2, seed=3)
    assert placed(g, s, "west") == COUNTRIES_2P_WEST
    assert placed(g, s, "east") == COUNTRIES_2P_EAST
    assert {p: len(h) for p, h in g.var(s, "hand").items()} == {"west": 7, "east": 7}
    assert len(g.var(s, "deck")) == 46 - 14 and len(g.var(s, "post_deck")) == 42
    assert g.var(s, "vp") == {"west": 0, "east": 0}
    assert g.var(s, "round") == 1 and g.var(s, "epoch") == "pre"
    assert g.prompt(s) == "West: choose your header card"


def test_four_players_start_with_each_superpowers_influence():
    g = game()
    s = g.start(players=4, seed=3)
    assert placed(g, s, "us") == {"united_states": 2, "canada": 1, "united_kingdom": 1, "germany": 1, "japan": 1}
    assert placed(g, s, "eu") == {
        "united_kingdom": 1,
        "benelux": 1,
        "germany": 2,
        "france": 2,
        "spain_portugal": 1,
        "italy": 1,
    }
    assert placed(g, s, "russia") == {"ukraine": 1, "russia_country": 1, "caucasus_states": 1, "stan_states": 1}
    assert placed(g, s, "china") == {"china_country": 2, "north_korea": 1}
    assert all(len(h) == 4 for h in g.var(s, "hand").values())


def test_three_players_hold_five_cards_and_the_eu_stays_on_the_board():
    g = game()
    s = g.start(players=3, seed=3)
    assert set(g.var(s, "hand")) >= {"us", "russia", "china"}
    assert [len(g.var(s, "hand")[p]) for p in ("us", "russia", "china")] == [5, 5, 5]
    assert "eu" not in g.var(s, "hand")  # no hand: nobody plays the EU
    assert placed(g, s, "eu")["germany"] == 2  # the static superpower's influence is on the map


def test_the_promo_cards_join_their_epoch_decks_only_with_the_option():
    g = game(promos=True)
    s = g.start(players=2, seed=3)
    assert len(g.var(s, "deck")) + 14 == 48 and len(g.var(s, "post_deck")) == 43
    plain = game().start(players=2, seed=3)
    everywhere = set(game().var(plain, "deck")) | set(game().var(plain, "post_deck"))
    assert not everywhere & {"conspiracy_theory", "silvio_berlusconi", "madrid_bombings"}


# ---- 6.1 Header phase ------------------------------------------------------------------------
def started(players: int, hands: dict[str, list[str]], **options):
    g = game(**options)
    return g, g.start(players=players, seed=5, arrange=lambda s: g.with_var(s, "hand", hands))


def test_the_header_ranking_goes_from_the_highest_number_and_punctuation_counts_zero():
    hands = {
        "west": ["europe_scoring", "boris_yeltsin", "katrina", "g20", "empire_of_war", "oil_crisis", "immigrants"],
        "east": ["anti_globalization_movement", "black_monday", "congo_wars", "el_jefe", "maastrich_treaty"]
        + ["neocolonialism", "party_congress"],
    }
    g, s = started(2, hands)
    s = play(g, s, "header: Europe", "header: Congo wars")
    assert "header ranking: East, West" in g.narrate(s)
    assert g.var(s, "ranking") == ("east", "west")


def test_the_us_player_breaks_ties_keeping_the_blocks_alternating():
    hands = {
        "us": ["boris_yeltsin", "katrina", "g20", "empire_of_war"],  # Boris Yeltsin: 3 W
        "eu": ["maastrich_treaty", "oil_crisis", "immigrants", "black_monday"],  # Maastrich: 3 W
        "russia": ["el_jefe", "congo_wars", "neocolonialism", "katrina"][:3] + ["embassy_asylum"],  # El Jefe: 3 E
        "china": ["anti_globalization_movement", "party_congress", "khobar_towers_attack", "chechen_wars"],
    }
    hands["russia"] = ["el_jefe", "congo_wars", "neocolonialism", "embassy_asylum"]
    g, s = started(4, hands)
    s = play(g, s, "header: Boris Yeltsin", "header: Maastrich Treaty", "header: El Jefe")
    s = play(g, s, "header: Anti-globalization movement")
    # Three cards of 3 ops: the US player orders them; all three may go first.
    assert labels(g, s) == ["US plays next", "EU plays next", "Russia plays next"]
    s = play(g, s, "US plays next")
    # After the US (West), only Russia keeps the blocks alternating: no choice is asked.
    assert g.var(s, "ranking") == ("us", "russia", "eu", "china")


def test_header_choices_are_secret_until_all_are_revealed():
    hands = {
        "west": ["europe_scoring", "boris_yeltsin", "katrina", "g20", "empire_of_war", "oil_crisis", "immigrants"],
        "east": ["anti_globalization_movement", "black_monday", "congo_wars", "el_jefe", "maastrich_treaty"]
        + ["neocolonialism", "party_congress"],
    }
    g, s = started(2, hands)
    assert g.move_view(s, "header: Boris Yeltsin", "east") == "(secret choice)"
    s = play(g, s, "header: Boris Yeltsin")
    seen = g.observation(s, "east")
    assert seen["vars"]["header"]["west"] == {"hidden": 1}
    assert not any("Boris" in line for line in g.narrate(s, player="east"))


# ---- 6.2.1 Influence ---------------------------------------------------------------------------
def influence_turn(influence, card="fall_of_the_berlin_wall", side="west", **kw):
    g, s = scenario(turns=[side], hands={side: [card]}, influence=influence, clear=True, **kw)
    title = g.compiled.rt.display(card)
    s = play(g, s, f"play {title}", f"{title} for operations", "influence operation")
    return g, s


def test_influence_costs_the_stability_plus_one_where_another_side_has_the_edge():
    g, s = influence_turn({"west": {"germany": 1}, "east": {"poland": 1}})
    options = labels(g, s)
    # Germany's neighbours: the stability, +1 in Poland where East has the edge.
    assert "influence in Poland (4)" in options
    assert "influence in France (3)" in options
    assert "influence in Germany (4)" in options
    assert "influence in Ukraine (3)" not in options and not any("Ukraine" in o for o in options)
    assert options[-1] == "stop placing influence"
    s = play(g, s, "influence in Poland (4)")
    assert inf(g, s, "west", "poland") == 1 and g.is_over(s)  # 4 points spent


def test_influence_has_no_domino_effect():
    g, s = influence_turn({"west": {"germany": 1}})
    s = play(g, s, "influence in Poland (3)")
    # One point left: Ukraine (stability 2) is next to Poland, but Poland was not within
    # reach when the operation began... and nothing of stability 1 is near Germany.
    assert g.is_over(s)
    assert inf(g, s, "west", "poland") == 1


def test_spare_points_go_on_to_other_countries_within_reach():
    g, s = influence_turn({"west": {"spain_portugal": 1}})  # Spain-Portugal: stability 2
    s = play(g, s, "influence in Spain-Portugal (2)")
    assert "influence in Spain-Portugal (2)" in labels(g, s)  # 2 points left
    s = play(g, s, "influence in Spain-Portugal (2)")
    assert inf(g, s, "west", "spain_portugal") == 3 and g.is_over(s)


# ---- 6.2.1 Destabilization ---------------------------------------------------------------------
def destabilization(influence, pins, vp=None, card="democracy_in_nigeria"):
    g, s = scenario(
        turns=["west"], hands={"west": [card]}, influence=influence, clear=True, pins=pins, vp=vp or {"west": 3}
    )
    title = g.compiled.rt.display(card)
    return g, play(g, s, f"play {title}", f"{title} for operations", "destabilization operation")


def test_destabilization_targets_countries_with_another_sides_influence_but_no_superpower_country():
    g, s = destabilization({"east": {"angola": 1, "germany": 1, "china_country": 2}, "west": {"cuba": 1}}, (4,))
    assert labels(g, s) == ["destabilize Angola"]


def test_destabilization_rolls_die_plus_ops_minus_twice_the_stability_and_costs_a_vp_if_conflictive():
    g, s = destabilization({"east": {"angola": 2}}, (4,))
    s = play(g, s, "destabilize Angola")
    assert "West destabilizes Angola: roll 4 + 2 ops − 2 × stability 1 = 4" in g.narrate(s)
    assert g.var(s, "vp")["west"] == 2  # Angola is conflictive
    assert labels(g, s) == ["add 1 influence", "remove 1 of East's", "stop"]
    s = play(g, s, "remove 1 of East's", "remove 1 of East's", "add 1 influence", "add 1 influence")
    assert inf(g, s, "east", "angola") == 0 and inf(g, s, "west", "angola") == 2
    assert g.is_over(s)


def test_a_failed_destabilization_changes_nothing_but_the_vp():
    g, s = destabilization({"east": {"iraq": 2}}, (1,))  # Iraq: stability 3, conflictive
    s = play(g, s, "destabilize Iraq")
    assert "West destabilizes Iraq: roll 1 + 2 ops − 2 × stability 3 = −3" in g.narrate(s)  # a minus sign
    assert inf(g, s, "east", "iraq") == 2 and g.var(s, "vp")["west"] == 2 and g.is_over(s)


def test_a_non_conflictive_country_costs_no_vp():
    g, s = destabilization({"east": {"guatemala": 1}}, (6,))
    s = play(g, s, "destabilize Guatemala", "stop")
    assert g.var(s, "vp")["west"] == 3


# ---- 6.2.2 Punctuation cards ---------------------------------------------------------------------
def test_region_scoring_presence_domination_control_conflictive_and_neighbours_losses():
    g, s = scenario(
        texts=[("west", "europe_scoring")],
        influence={"west": {"ukraine": 1, "balkan_states": 1, "france": 1}},
        vp={"east": 3},
        clear=True,
    )
    # West edges 3 European countries, every conflictive one (Ukraine, Balkan States) and a
    # calm one: presence 2 + domination 2 + control 3 + 2 conflictive = 9.
    assert g.var(s, "vp")["west"] == 9
    # East loses 1: Ukraine, edged by West, is next to Russia.
    assert g.var(s, "vp")["east"] == 2
    lines = g.narrate(s)
    assert "Europe: West edges 3 (2 conflictive): +9 VP" in lines
    assert "Europe: East −1 VP (1 country at or next to its home edged by others)" in lines


def test_a_scoring_card_leaves_one_key_event_with_each_net_change_and_the_vp():
    g, s = scenario(
        turns=["west"],
        hands={"west": ["europe_scoring", "boris_yeltsin"]},
        influence={"west": {"ukraine": 1, "balkan_states": 1, "france": 1}},
        vp={"east": 0},
        clear=True,
    )
    s = play(g, s, "play Europe", "score Europe")
    # West +9; East loses 1 below 0, and the point goes to West: West +10 in all, East
    # unchanged, so East is not named.
    short = ["Europe scored: West +10; VP now West 10, East 0", "West reaches 10 VP"]
    assert g.narrate(s, headlines=True)[-2:] == short


def test_domination_needs_more_countries_than_any_other_player():
    g, s = scenario(
        texts=[("east", "europe_scoring")],
        influence={"west": {"ukraine": 1, "france": 1}, "east": {"balkan_states": 1, "romania": 1}},
        vp={"west": 3, "east": 3},
        clear=True,
    )
    # Two countries each: presence and the conflictive country only. West loses 1 for the
    # Balkan States (next to Greece and Italy, EU countries), East 1 for Ukraine (next to Russia).
    assert g.var(s, "vp") == {"west": 3 + 2 + 1 - 1, "east": 3 + 2 + 1 - 1}


# ---- 1. Goal: VP ----------------------------------------------------------------------------------
def test_vp_lost_below_zero_go_to_the_lowest_players_own_block_first():
    # The rulebook's example: US 1 VP loses 3; EU and China 0, Russia 2.
    g, s = scenario(players=4, losses=[("us", 3)], vp={"us": 1, "eu": 0, "china": 0, "russia": 2})
    assert g.var(s, "vp") == {"us": 0, "eu": 1, "russia": 2, "china": 1}


def test_ten_vp_at_the_end_of_a_text_wins():
    g, s = scenario(texts=[("west", "europe_scoring")], influence={"west": {"france": 1}}, vp={"west": 8}, clear=True)
    assert g.is_over(s) and g.result(s) == ("west",)
    assert "West reaches 10 VP" in g.narrate(s)


def test_alternate_goal_records_a_dominant_superpower_and_keeps_the_vp_above_ten():
    g, s = scenario(
        texts=[("west", "europe_scoring")],
        influence={"west": {"france": 1, "ukraine": 1}},
        vp={"west": 8},
        clear=True,
        alternate_goal=True,
    )
    # Presence 2, domination 2, Ukraine 1; East, at 0 VP, loses 1 for Ukraine (next to
    # Russia) and hands it to West: 8 + 5 + 1 = 14, of which 10 become the counter.
    assert g.var(s, "dominant")["west"] == 1 and g.var(s, "vp")["west"] == 4
    assert "West is a dominant superpower in round 0 (4 VP kept)" in g.narrate(s)
    assert g.result(s) == ()  # the harness ends without a winner: nobody won


def test_after_round_eight_ties_go_to_edged_conflictive_and_oil_countries_then_initiative():
    common = dict(vp={"west": 5, "east": 5}, clear=True, variables={"script_final": True})
    g, s = scenario(influence={"west": {"mexico": 1}, "east": {"cuba": 1}}, **common)
    assert g.result(s) == ("west",)  # Mexico is conflictive and oil (2), Cuba conflictive (1)
    g, s = scenario(influence={"west": {"cuba": 1}, "east": {"panama": 1}}, **common)
    assert g.result(s) == ("west",)  # tied: the first in the header ranking (west, east)
    s2 = scenario(
        influence={"west": {"cuba": 1}, "east": {"panama": 1}},
        variables={"script_final": True, "ranking": ["east", "west"]},
        vp={"west": 5, "east": 5},
        clear=True,
    )
    assert s2[0].result(s2[1]) == ("east",)


# ---- 7. NWO -------------------------------------------------------------------------------------
def nwo_labels(side: str, players: int = 4, **kw):
    card = "katrina" if side in ("us", "eu", "west") else "boris_yeltsin"
    g, s = scenario(players=players, turns=[side], hands={side: [card]}, **kw)
    title = g.compiled.rt.display(card)
    return g, play(g, s, f"play {title}", f"{title} to the NWO track")


def test_vetoes_and_aheads_decide_who_may_take_a_slot_first():
    g, s = nwo_labels("eu")
    # Pre-9/11 slots only; State propaganda vetoes the EU; Mass media and Global
    # positioning let only the US be first; Financial markets lets only West be first.
    assert labels(g, s) == ["Financial markets (Economy)", "Fiscal paradises (Economy)", "Communications (Technology)"]
    g, s = nwo_labels("russia")
    assert labels(g, s) == [
        "Fiscal paradises (Economy)",
        "State propaganda (Public opinion)",
        "Communications (Technology)",
    ]


def test_once_taken_a_slot_is_open_to_all_and_a_token_is_removed_by_another_player():
    g, s = nwo_labels("eu", variables={"supremacy": {"mass_media": "us"}, "claimed": ["mass_media"]})
    assert "Mass media (Public opinion)" in labels(g, s)
    s = play(g, s, "Mass media (Public opinion)")
    assert g.var(s, "supremacy")["mass_media"] is None  # removed, not taken
    g, s = nwo_labels("us", variables={"supremacy": {"mass_media": "us"}, "claimed": ["mass_media"]})
    assert "Mass media (Public opinion)" not in labels(g, s)  # already the US's


def test_post_9_11_slots_open_in_the_second_epoch():
    g, s = nwo_labels("us", variables={"epoch": "post"})
    assert "Drones (Technology)" in labels(g, s) and "Sovereign funds (Economy)" not in labels(g, s)


def test_with_two_players_a_veto_or_ahead_for_a_superpower_applies_to_its_block():
    g, s = nwo_labels("west", players=2)
    assert "State propaganda (Public opinion)" not in labels(g, s)  # vetoed for the EU
    assert "Mass media (Public opinion)" in labels(g, s)  # ahead for the US


def test_mass_media_adds_one_to_influence_ops():
    g, s = influence_turn(
        {"west": {"spain_portugal": 1}}, card="boris_yeltsin", variables={"supremacy": {"mass_media": "west"}}
    )
    assert "West has 4 points of influence to place with Boris Yeltsin" in g.narrate(s)


# ---- 5. Rounds and the deck ------------------------------------------------------------------------
def run_until(g, s, test, limit=5000):
    import random

    rnd = random.Random(7)
    for _ in range(limit):
        if g.is_over(s) or test(s):
            return s
        s = g.apply_index(s, rnd.randrange(len(g.legal_moves(s))))
    raise AssertionError("not reached")


def zones(g, s) -> list[str]:
    out = list(g.var(s, "deck")) + list(g.var(s, "post_deck")) + list(g.var(s, "discard"))
    out += list(g.var(s, "removed")) + list(g.var(s, "in_play"))
    for h in g.var(s, "hand").values():
        out += list(h)
    out += [c for c in g.var(s, "revealed").values() if c] + [c for c in g.var(s, "header").values() if c]
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_five_shuffles_the_post_9_11_deck_in_and_round_seven_the_discard_pile(seed):
    g = game()
    s = g.start(players=2, seed=seed)
    s = run_until(g, s, lambda st: g.var(st, "round") == 5)
    if g.is_over(s):
        pytest.skip("this game ended before round 5")
    post = set(cards_of(g, epoch="post")) - {"madrid_bombings"}
    assert g.var(s, "post_deck") == () and g.var(s, "epoch") == "post"
    assert post <= set(g.var(s, "deck")) | {c for h in g.var(s, "hand").values() for c in h}
    before = run_until(g, s, lambda st: g.var(st, "round") == 6)
    s = run_until(g, before, lambda st: g.var(st, "round") == 7)
    if not g.is_over(s):
        assert "the discard pile is shuffled into the deck" in " ".join(g.narrate(s))


def test_with_three_or_four_players_a_hand_of_four_punctuation_cards_is_drawn_again():
    g = game()
    punct = cards_of(g, ops=None)
    others = [c for c in cards_of(g, epoch="pre") if c not in punct]

    def arrange(s):
        deck = []
        for k in range(4):
            deck += [punct[k], others[3 * k], others[3 * k + 1], others[3 * k + 2]]
        deck += others[12:30]
        s = g.with_var(s, "post_deck", [c for c in g.var(s, "post_deck") if c not in deck])
        return g.with_var(s, "deck", deck)

    s = g.start(players=4, seed=2, arrange=arrange)
    assert any(line.startswith("US shows a hand of 4 punctuation cards") for line in g.narrate(s))
    hand = g.var(s, "hand")["us"]
    assert len(hand) == 4 and sum(c in punct for c in hand) < 4
    assert sorted(zones(g, s)) == sorted(set(zones(g, s)))  # no card twice


def test_a_punctuation_card_must_be_played_before_the_round_ends():
    g, s = scenario(turns=["west"], hands={"west": ["europe_scoring", "middle_east_scoring", "boris_yeltsin"]})
    assert labels(g, s) == ["play Europe", "play Middle East"]  # two actions left, two punctuation cards
    s = play(g, s, "play Europe")
    assert labels(g, s) == ["score Europe"]


# ---- review findings: edges gained by removal, coups without VP, the header's punctuation ---
def test_an_edge_gained_because_another_sides_influence_is_removed_is_an_edge_gained():
    # Color revolution removes Russia's influence in Ukraine: the US (1) now has the edge,
    # which Vladimir Putin, in play, sees.
    g, s = scenario(
        players=4,
        texts=[("us", "color_revolution")],
        influence={"us": {"ukraine": 1}, "russia": {"ukraine": 2}},
        in_play=["vladimir_putin"],
    )
    s = play(g, s, "all Russian influence in Ukraine")
    assert "US gains the edge in Ukraine" in g.narrate(s)
    assert labels(g, s) == [
        "discard Vladimir Putin: a coup in Ukraine with 3 ops",
        "don't use Vladimir Putin",
    ]  # Color revolution: 3 ops


def test_war_on_terror_coups_cost_no_vp_whatever_other_cards_add():
    g, s = scenario(
        turns=["west"],
        hands={"west": ["democracy_in_nigeria"]},
        influence={"east": {"israel": 1}},
        in_play=["war_on_terror", "hezbollah"],
        vp={"west": 3},
        pins=(1,),
        clear=True,
    )
    s = play(g, s, "play Democracy in Nigeria", "Democracy in Nigeria for operations", "destabilization operation")
    s = play(g, s, "destabilize Israel")
    assert g.var(s, "vp")["west"] == 3  # Israel: conflictive, and Hezbollah adds 1: still nothing


def test_a_header_card_cannot_leave_a_punctuation_card_stuck_in_hand():
    hands = {
        "us": ["europe_scoring", "middle_east_scoring", "opec", "boris_yeltsin"],
        "eu": ["maastrich_treaty", "oil_crisis", "immigrants", "black_monday"],
        "russia": ["el_jefe", "congo_wars", "neocolonialism", "embassy_asylum"],
        "china": ["anti_globalization_movement", "party_congress", "khobar_towers_attack", "chechen_wars"],
    }
    g = game()
    s = g.start(players=4, seed=5, arrange=lambda st: g.with_var(st, "hand", hands))
    # Three punctuation cards and two actions: one of them must be the header.
    assert labels(g, s) == ["header: Europe", "header: Middle East", "header: OPEC"]


def test_with_three_players_the_static_superpowers_edges_count_against_domination():
    g, s = scenario(
        players=3,
        texts=[("us", "europe_scoring")],
        influence={"us": {"ukraine": 1, "poland": 1}, "eu": {"france": 1, "italy": 1}},
        vp={"us": 3, "russia": 3, "china": 3},
        clear=True,
    )
    # The US edges 2 (one conflictive), as many as the static EU: no domination.
    assert g.var(s, "vp")["us"] == 3 + 2 + 1
