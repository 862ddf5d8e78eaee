"""The Wall is Down, post-9/11 cards 68-88 (cards/twid/post_2.game) and the promo cards
Silvio Berlusconi and Madrid bombings (cards/twid/promos.game): each test sets up a
position, resolves the card's text and checks what the printed text says."""

from __future__ import annotations

from tests.twid_helpers import inf, labels, play, scenario

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    r"test_nord_stream_russia_may_decline_in_two_players",
]


def ops_labels(g, s, card_title, kind):
    """Play a card from the hand for operations of `kind` and return the targets offered."""
    s = play(g, s, f"play {card_title}", f"{card_title} for operations", f"{kind} operation")
    return s, labels(g, s)


def vp(g, s):
    return g.var(s, "vp")


# ---- 68 Hu Jintao ------------------------------------------------------------------------------


def test_hu_jintao_gives_up_two_edges_and_spreads_the_influence_plus_one():
    g, s = scenario(
        texts=[("east", "hu_jintao")],
        clear=True,
        influence={"east": {"taiwan": 3, "india": 2, "japan": 1}, "west": {"taiwan": 1}},
    )
    assert labels(g, s) == ["give up the edge in India", "give up the edge in Taiwan", "give up the edge in Japan"]
    s = play(g, s, "give up the edge in Taiwan", "give up the edge in India")
    # Taiwan: 3 -> 1 (tied with the West); India: 2 -> 0. Four removed: five to add.
    assert inf(g, s, "east", "taiwan") == 1 and inf(g, s, "east", "india") == 0
    offered = labels(g, s)
    assert {"influence in Brazil", "influence in Mexico", "influence in Nigeria", "influence in Vietnam"} <= set(
        offered
    )
    assert "influence in Russia" not in offered and "influence in United States" not in offered
    assert "influence in France" not in offered and "influence in Iraq" not in offered
    for country in ["Brazil", "Mexico", "Nigeria", "Vietnam"]:
        s = play(g, s, f"influence in {country}")
        assert f"influence in {country}" not in labels(g, s)  # no more than 1 per country
    s = play(g, s, "influence in Taiwan")
    assert g.is_over(s)
    for country in ["brazil", "mexico", "nigeria", "vietnam"]:
        assert inf(g, s, "east", country) == 1
    assert inf(g, s, "east", "taiwan") == 2
    assert "hu_jintao" in g.var(s, "removed")


def test_hu_jintao_with_one_edge_in_four_players_is_chinas():
    g, s = scenario(
        players=4,
        texts=[("china", "hu_jintao")],
        clear=True,
        influence={"china": {"vietnam": 2}, "russia": {"india": 3}},
    )
    assert labels(g, s) == ["give up the edge in Vietnam"]
    s = play(g, s, "give up the edge in Vietnam")
    assert inf(g, s, "china", "vietnam") == 0
    s = play(g, s, "influence in Cuba", "influence in Angola")
    s = play(g, s, "influence in India")
    assert g.is_over(s)
    assert [inf(g, s, "china", x) for x in ["cuba", "angola", "india"]] == [1, 1, 1]
    assert inf(g, s, "russia", "india") == 3


def test_hu_jintao_without_an_edge_adds_one_influence():
    g, s = scenario(players=4, texts=[("china", "hu_jintao")], clear=True)
    s = play(g, s, "influence in Peru")
    assert g.is_over(s) and inf(g, s, "china", "peru") == 1


# ---- 69 Hugo Chávez ----------------------------------------------------------------------------


def test_hugo_chavez_removes_west_influence_and_keeps_the_us_out_of_venezuela_while_in_play():
    g, s = scenario(
        players=4,
        texts=[("russia", "hugo_chavez")],
        influence={"us": {"venezuela": 1, "colombia": 1}, "eu": {"venezuela": 1, "brazil": 1}},
        turns=["us", "eu"],
        hands={"us": ["iraq_war"], "eu": ["iraq_war"]},
    )
    assert labels(g, s) == ["remove 1 of US's influence in Venezuela", "remove 1 of EU's influence in Venezuela"]
    s = play(g, s, "remove 1 of US's influence in Venezuela")
    assert inf(g, s, "us", "venezuela") == 0 and inf(g, s, "eu", "venezuela") == 1
    assert inf(g, s, "russia", "venezuela") == 1
    assert g.var(s, "in_play") == ("hugo_chavez",)
    s, offered = ops_labels(g, s, "Iraq war", "influence")
    assert "influence in Colombia (1)" in offered and not any("Venezuela" in x for x in offered)
    s = play(g, s, "stop placing influence")
    s, offered = ops_labels(g, s, "Iraq war", "influence")
    assert "influence in Venezuela (2)" in offered  # the EU is not kept out


def test_hugo_chavez_out_of_play_lets_the_us_back_into_venezuela():
    # Global positioning discards a personality in play: Chávez's ban ends with it.
    g, s = scenario(
        players=4,
        texts=[("russia", "hugo_chavez")],
        influence={"us": {"colombia": 1}},
        turns=["us"],
        hands={"us": ["iraq_war"]},
        variables={"supremacy": {"global_positioning": "us"}},
    )
    s = play(g, s, "don't use Global positioning")  # the text is not cancelled
    assert g.var(s, "in_play") == ("hugo_chavez",)
    s = play(g, s, "remove supremacy on Global positioning: discard a personality in play", "discard Hugo Chávez")
    assert g.var(s, "in_play") == ()
    s, offered = ops_labels(g, s, "Iraq war", "influence")
    assert "influence in Venezuela (3)" in offered


def test_hugo_chavez_in_two_players_keeps_the_west_out():
    g, s = scenario(
        texts=[("east", "hugo_chavez")],
        influence={"west": {"venezuela": 2, "colombia": 1}},
        turns=["west"],
        hands={"west": ["iraq_war"]},
    )
    assert inf(g, s, "west", "venezuela") == 1 and inf(g, s, "east", "venezuela") == 1
    s, offered = ops_labels(g, s, "Iraq war", "influence")
    assert not any("Venezuela" in x for x in offered)


# ---- 70 Invasion of Afghanistan ----------------------------------------------------------------


def test_invasion_of_afghanistan_costs_the_us_a_vp_unless_9_11_is_removed():
    g, s = scenario(players=4, texts=[("us", "invasion_of_afghanistan")], clear=True, vp={"us": 3})
    assert vp(g, s)["us"] == 2
    assert inf(g, s, "us", "afghanistan") == 1 and inf(g, s, "us", "pakistan") == 1
    assert "invasion_of_afghanistan" in g.var(s, "removed")
    g, s = scenario(
        texts=[("west", "invasion_of_afghanistan")],
        clear=True,
        vp={"west": 3},
        variables={"removed": ["_9_11_attacks"]},
    )
    assert vp(g, s)["west"] == 3
    assert inf(g, s, "west", "afghanistan") == 1 and inf(g, s, "west", "pakistan") == 1


# ---- 71 Invasion of Crimea ---------------------------------------------------------------------


def test_invasion_of_crimea_takes_the_west_edge_away_in_ukraine():
    g, s = scenario(
        players=4,
        texts=[("russia", "invasion_of_crimea")],
        clear=True,
        influence={"eu": {"ukraine": 3}},
        vp={"russia": 2},
    )
    assert inf(g, s, "russia", "ukraine") == 1 and inf(g, s, "eu", "ukraine") == 1
    assert vp(g, s)["russia"] == 1
    # Russia keeps the edge it gains; the West is not touched then.
    g, s = scenario(
        texts=[("east", "invasion_of_crimea")], clear=True, influence={"west": {"ukraine": 1}, "east": {"ukraine": 1}}
    )
    assert inf(g, s, "east", "ukraine") == 2 and inf(g, s, "west", "ukraine") == 1


# ---- 72 Iraq war -------------------------------------------------------------------------------


def test_iraq_war_costs_a_vp_and_takes_the_edge_in_iraq():
    g, s = scenario(texts=[("west", "iraq_war")], clear=True, influence={"east": {"iraq": 2}}, vp={"west": 4})
    assert vp(g, s)["west"] == 3 and inf(g, s, "west", "iraq") == 3
    g, s = scenario(
        players=4, texts=[("us", "iraq_war")], clear=True, influence={"china": {"iraq": 1}, "us": {"iraq": 1}}
    )
    assert inf(g, s, "us", "iraq") == 2 and inf(g, s, "eu", "iraq") == 0


# ---- 73 Julian Assange -------------------------------------------------------------------------


def test_julian_assange_costs_the_us_three_vp_and_every_other_player_one():
    g, s = scenario(players=4, texts=[("russia", "julian_assange")], vp={"us": 5, "eu": 2, "russia": 3, "china": 1})
    assert vp(g, s) == {"us": 2, "eu": 1, "russia": 2, "china": 0}
    g, s = scenario(texts=[("east", "julian_assange")], vp={"west": 6, "east": 4})
    assert vp(g, s) == {"west": 3, "east": 3}


# ---- 74 Kim Jong Il ----------------------------------------------------------------------------


def test_kim_jong_il_clears_the_west_and_bars_it_from_north_korea_while_in_play():
    g, s = scenario(
        players=4,
        texts=[("china", "kim_jong_il")],
        clear=True,
        influence={"us": {"north_korea": 2, "south_korea": 1}, "eu": {"north_korea": 1}, "russia": {"north_korea": 1}},
        turns=["us"],
        hands={"us": ["war_on_terror"]},
    )
    assert [inf(g, s, t, "north_korea") for t in ["us", "eu", "russia", "china"]] == [0, 0, 1, 1]
    assert g.var(s, "in_play") == ("kim_jong_il",)
    s, offered = ops_labels(g, s, "War on terror", "influence")
    assert "influence in South Korea (3)" in offered and not any("North Korea" in x for x in offered)
    # The same turn without the card in play: North Korea is offered for both operations.
    g, s = scenario(
        players=4,
        clear=True,
        influence={"us": {"south_korea": 1}, "china": {"north_korea": 1}},
        turns=["us"],
        hands={"us": ["war_on_terror"]},
    )
    _, offered = ops_labels(g, s, "War on terror", "influence")
    assert "influence in North Korea (4)" in offered
    _, offered = ops_labels(g, s, "War on terror", "destabilization")
    assert "destabilize North Korea" in offered


def test_kim_jong_il_bars_west_coups_in_north_korea():
    g, s = scenario(
        players=4,
        clear=True,
        influence={"us": {"south_korea": 1}, "china": {"north_korea": 1, "vietnam": 1}},
        in_play=["kim_jong_il"],
        turns=["us"],
        hands={"us": ["iraq_war"]},
    )
    _, offered = ops_labels(g, s, "Iraq war", "destabilization")
    assert offered == ["destabilize Vietnam"]


# ---- 75 Kyoto Protocol -------------------------------------------------------------------------


def test_kyoto_protocol_each_player_gives_up_a_token_or_a_vp():
    g, s = scenario(
        texts=[("west", "kyoto_protocol")],
        vp={"west": 3, "east": 3},
        variables={"supremacy": {"financial_markets": "west", "mass_media": "west", "drones": "east"}},
    )
    # Mass media is on the public opinion track: not offered.
    assert labels(g, s) == ["remove West's supremacy on Financial markets", "West keeps its tokens and loses 1 VP"]
    s = play(g, s, "remove West's supremacy on Financial markets")
    assert labels(g, s) == ["remove East's supremacy on Drones", "East keeps its tokens and loses 1 VP"]
    s = play(g, s, "East keeps its tokens and loses 1 VP")
    assert g.is_over(s)
    assert vp(g, s) == {"west": 3, "east": 2}
    sup = g.var(s, "supremacy")
    assert sup["financial_markets"] is None and sup["mass_media"] == "west" and sup["drones"] == "east"


def test_kyoto_protocol_players_without_tokens_lose_a_vp():
    g, s = scenario(players=4, texts=[("us", "kyoto_protocol")], vp={"us": 2, "eu": 2, "russia": 2, "china": 2})
    assert g.is_over(s)
    assert vp(g, s) == {"us": 1, "eu": 1, "russia": 1, "china": 1}


# ---- 76 Libyan civil war -----------------------------------------------------------------------


def test_libyan_civil_war_removes_gaddafi_and_clears_libya():
    g, s = scenario(
        players=4,
        texts=[("us", "libyan_civil_war")],
        in_play=["muammar_gaddafi"],
        influence={"russia": {"libya": 2}, "eu": {"libya": 1}},
        vp={"russia": 3},
    )
    assert "muammar_gaddafi" in g.var(s, "removed") and "muammar_gaddafi" not in g.var(s, "in_play")
    assert vp(g, s)["russia"] == 2  # the edge holder
    assert [inf(g, s, t, "libya") for t in ["us", "eu", "russia", "china"]] == [1, 0, 0, 0]
    assert "libyan_civil_war" in g.var(s, "removed")


def test_libyan_civil_war_with_gaddafi_out_of_play_forbids_his_text_for_good():
    g, s = scenario(
        texts=[("west", "libyan_civil_war"), ("east", "muammar_gaddafi")],
        clear=True,
        influence={"west": {"libya": 1}, "east": {"libya": 1}},
        vp={"west": 2, "east": 2},
    )
    assert vp(g, s) == {"west": 2, "east": 2}  # no edge in Libya: nobody loses a VP
    assert "the text of Muammar Gaddafi cannot be played now" in g.narrate(s)
    assert "muammar_gaddafi" not in g.var(s, "in_play")
    assert "muammar_gaddafi" in g.var(s, "discard")  # not triggered: discarded, not removed
    assert inf(g, s, "east", "libya") == 0 and inf(g, s, "west", "libya") == 1
    # Without Libyan civil war, Gaddafi's text resolves.
    g, s = scenario(texts=[("east", "muammar_gaddafi")], clear=True)
    assert g.var(s, "in_play") == ("muammar_gaddafi",) and inf(g, s, "east", "libya") == 1


def test_libyan_civil_war_makes_libya_no_oil_country_even_with_gaddafi_back_in_play():
    # OPEC counts Libya for its edger while Gaddafi is in play ...
    g, s = scenario(
        texts=[("east", "opec", "east", "scoring_use")],
        clear=True,
        in_play=["muammar_gaddafi"],
        influence={"east": {"libya": 1}},
        vp={"east": 5, "west": 5},
    )
    assert vp(g, s)["east"] == 5 + 1 - 2
    # ... and not after Libyan civil war: the edger of Libya loses 1 VP, and Libya stays
    # out of OPEC's count even were Gaddafi in play again (put back by hand here, at
    # PRISM's decision between the two texts).
    g, s = scenario(
        texts=[("east", "libyan_civil_war"), ("east", "prism"), ("east", "opec", "east", "scoring_use")],
        clear=True,
        in_play=["muammar_gaddafi"],
        influence={"west": {"libya": 2, "mexico": 1, "japan": 1}},
        vp={"east": 5, "west": 5},
    )
    assert vp(g, s)["west"] == 5 - 1 - 1 and inf(g, s, "east", "libya") == 1 and inf(g, s, "west", "libya") == 0
    s = g.with_var(s, "in_play", ["muammar_gaddafi"])
    s = play(g, s, "West loses 1 influence in Mexico")
    lines = g.narrate(s)
    # Nobody edges an oil country: no line for the VP per oil country, only the loss.
    assert g.is_over(s) and "OPEC: everybody −2 VP" in lines and not any(" edges " in x for x in lines)
    assert vp(g, s) == {"west": 3 - 2, "east": 5 - 2}
    g, s = scenario(
        texts=[("west", "libyan_civil_war"), ("west", "opec", "west", "scoring_use")],
        clear=True,
        in_play=["muammar_gaddafi"],
        vp={"west": 5, "east": 5},
    )
    assert inf(g, s, "west", "libya") == 1 and vp(g, s)["west"] == 5 - 2


# ---- 77 New START ------------------------------------------------------------------------------


def test_new_start_the_us_and_russia_may_trade_a_technology_token_for_a_vp():
    g, s = scenario(
        players=4,
        texts=[("eu", "new_start")],
        vp={"us": 1, "russia": 1},
        variables={
            "supremacy": {
                "drones": "us",
                "financial_markets": "us",
                "communications": "russia",
                "global_positioning": "china",
            }
        },
    )
    assert labels(g, s) == ["remove US's supremacy on Drones to gain 1 VP", "US keeps its technology tokens"]
    s = play(g, s, "remove US's supremacy on Drones to gain 1 VP")
    assert labels(g, s) == [
        "remove Russia's supremacy on Communications to gain 1 VP",
        "Russia keeps its technology tokens",
    ]
    s = play(g, s, "Russia keeps its technology tokens")
    assert g.is_over(s)
    assert vp(g, s) == {"us": 2, "eu": 0, "russia": 1, "china": 0}
    sup = g.var(s, "supremacy")
    assert sup["drones"] is None and sup["financial_markets"] == "us" and sup["communications"] == "russia"


def test_new_start_in_two_players_and_out_of_the_solo_deck():
    g, s = scenario(
        texts=[("east", "new_start")], vp={"west": 1, "east": 1}, variables={"supremacy": {"communications": "east"}}
    )
    assert labels(g, s) == [
        "remove East's supremacy on Communications to gain 1 VP",
        "East keeps its technology tokens",
    ]
    s = play(g, s, "remove East's supremacy on Communications to gain 1 VP")
    assert vp(g, s) == {"west": 1, "east": 2}
    g, s = scenario(players=1)
    assert "new_start" not in g.var(s, "post_deck") and "nwo" in g.var(s, "post_deck")
    g, s = scenario(players=2)
    assert "new_start" in g.var(s, "post_deck")


# ---- 78 Nord Stream 1 --------------------------------------------------------------------------


def test_nord_stream_lets_the_eu_count_russia_at_the_oil_scoring():
    g, s = scenario(
        players=4,
        texts=[("us", "nord_stream_1"), ("us", "opec", "us", "scoring_use")],
        clear=True,
        influence={"russia": {"russia_country": 2}},
        vp={"eu": 5, "russia": 5, "us": 5, "china": 5},
        variables={"round": 3},
    )
    offered = labels(g, s)
    assert "influence in Germany" in offered and "influence in United Kingdom" not in offered
    assert "Russia adds no influence" in offered and "influence in Austria" not in offered
    s = play(g, s, "influence in Germany")
    assert inf(g, s, "russia", "germany") == 1
    # pre-9/11 OPEC: 1 VP per oil country, then -2: the EU and Russia both count Russia.
    assert vp(g, s) == {"us": 3, "eu": 4, "russia": 4, "china": 3}


def test_nord_stream_without_it_the_eu_does_not_count_russia():
    g, s = scenario(
        players=4,
        texts=[("us", "opec", "us", "scoring_use")],
        clear=True,
        influence={"russia": {"russia_country": 2}},
        vp={"eu": 5, "russia": 5, "us": 5, "china": 5},
    )
    assert vp(g, s)["eu"] == 3 and vp(g, s)["russia"] == 4


def test_nord_stream_russia_may_decline_in_two_players():
    g, s = scenario(texts=[("west", "nord_stream_1")])
    s = play(g, s, "East adds no influence")
    assert g.is_over(s) and "nord_stream_1" in g.var(s, "removed")


# ---- 79 NWO ------------------------------------------------------------------------------------


def test_nwo_ends_the_game_after_two_vp_only_in_rounds_6_to_8():
    g, s = scenario(texts=[("west", "nwo")], vp={"west": 6, "east": 5}, variables={"round": 6})
    assert g.is_over(s) and g.result(s) == ("east",)
    assert vp(g, s) == {"west": 4, "east": 5}
    assert "NWO: the game ends" in g.narrate(s)
    g, s = scenario(players=4, texts=[("russia", "nwo")], vp={"russia": 6, "us": 3}, variables={"round": 8})
    assert g.result(s) == ("russia",) and vp(g, s)["russia"] == 4


def test_nwo_text_cannot_be_played_before_round_6():
    g, s = scenario(texts=[("west", "nwo")], vp={"west": 6, "east": 5}, variables={"round": 5})
    assert "the text of NWO cannot be played now" in g.narrate(s)
    assert vp(g, s) == {"west": 6, "east": 5} and "nwo" in g.var(s, "discard")
    g, s = scenario(turns=["west"], hands={"west": ["nwo"]}, variables={"round": 5})
    s = play(g, s, "play NWO")
    assert "NWO for its text" not in labels(g, s) and "NWO for operations" in labels(g, s)
    g, s = scenario(turns=["west"], hands={"west": ["nwo"]}, variables={"round": 7})
    s = play(g, s, "play NWO")
    assert "NWO for its text" in labels(g, s)


# ---- 80 PRISM ----------------------------------------------------------------------------------


def test_prism_costs_the_us_a_vp_and_influence_where_the_eu_is_too():
    g, s = scenario(
        players=4,
        texts=[("china", "prism")],
        clear=True,
        influence={"us": {"france": 1, "mexico": 2, "japan": 1}, "eu": {"france": 2, "japan": 1}},
        vp={"us": 4},
    )
    assert labels(g, s) == ["US loses 1 influence in France", "US loses 1 influence in Japan"]
    s = play(g, s, "US loses 1 influence in Japan")
    assert vp(g, s)["us"] == 3
    assert inf(g, s, "us", "japan") == 0 and inf(g, s, "us", "france") == 1 and inf(g, s, "eu", "japan") == 1


def test_prism_in_two_players_any_west_country():
    g, s = scenario(texts=[("east", "prism")], clear=True, influence={"west": {"mexico": 2}}, vp={"west": 1})
    s = play(g, s, "West loses 1 influence in Mexico")
    assert inf(g, s, "west", "mexico") == 1 and vp(g, s)["west"] == 0


# ---- 81 Second eastern adhesion ----------------------------------------------------------------


def test_second_eastern_adhesion_makes_romania_and_bulgaria_eu():
    g, s = scenario(
        players=4,
        texts=[("eu", "second_eastern_adhesion")],
        clear=True,
        influence={"russia": {"romania": 1, "bulgaria": 1, "ukraine": 1}},
        vp={"eu": 2},
        turns=["us"],
        hands={"us": ["iraq_war"]},
    )
    assert labels(g, s) == ["influence in Romania", "influence in Bulgaria"]
    s = play(g, s, "influence in Bulgaria")
    assert inf(g, s, "eu", "bulgaria") == 1 and vp(g, s)["eu"] == 3
    # EU members are a superpower's countries: no destabilization there any more.
    _, offered = ops_labels(g, s, "Iraq war", "destabilization")
    assert offered == ["destabilize Ukraine"]
    g, s = scenario(
        players=4,
        clear=True,
        influence={"russia": {"romania": 1, "bulgaria": 1, "ukraine": 1}},
        turns=["us"],
        hands={"us": ["iraq_war"]},
    )
    _, offered = ops_labels(g, s, "Iraq war", "destabilization")
    assert offered == ["destabilize Romania", "destabilize Ukraine", "destabilize Bulgaria"]


# ---- 82 South America --------------------------------------------------------------------------


def test_south_america_scores_presence_domination_control_and_conflictive_countries():
    g, s = scenario(
        players=4,
        texts=[("us", "south_america_scoring", "us", "scoring_use")],
        clear=True,
        influence={"us": {"venezuela": 1, "argentina": 1, "peru": 1}, "china": {"chile": 1}, "eu": {"brazil": 1}},
    )
    # US: presence 0, domination 1 (most, conflictive and not), 2 conflictive; no control (Chile, Brazil)
    # China and the EU: presence 0 + 1 conflictive each.
    assert vp(g, s) == {"us": 3, "eu": 1, "russia": 0, "china": 1}
    g, s = scenario(
        texts=[("east", "south_america_scoring", "east", "scoring_use")],
        clear=True,
        influence={"east": {"venezuela": 1, "argentina": 1, "chile": 1, "brazil": 1, "peru": 1}},
    )
    # East: domination 1 + control 2 + 4 conflictive
    assert vp(g, s) == {"west": 0, "east": 7}


# ---- 83 Syrian civil war -----------------------------------------------------------------------


def test_syrian_civil_war_clears_syria_for_russia_at_a_vp():
    g, s = scenario(
        players=4,
        texts=[("us", "syrian_civil_war")],
        clear=True,
        influence={"us": {"syria": 2}, "china": {"syria": 1}},
        vp={"russia": 2},
    )
    assert [inf(g, s, t, "syria") for t in ["us", "eu", "russia", "china"]] == [0, 0, 1, 0]
    assert vp(g, s)["russia"] == 1
    g, s = scenario(texts=[("west", "syrian_civil_war")], clear=True, influence={"east": {"syria": 3}}, vp={"east": 1})
    assert inf(g, s, "east", "syria") == 1 and vp(g, s)["east"] == 0


# ---- 84 The Kirchners --------------------------------------------------------------------------


def test_the_kirchners_open_argentina_and_its_neighbours_to_the_east():
    g, s = scenario(
        players=4,
        texts=[("russia", "the_kirchners")],
        clear=True,
        influence={"russia": {"ukraine": 1}, "us": {"mexico": 1}},
        turns=["russia", "us"],
        hands={"russia": ["julian_assange"], "us": ["iraq_war"]},
    )
    assert labels(g, s) == [
        "influence in Argentina",
        "influence in Chile",
        "influence in Paraguay",
        "influence in Uruguay",
    ]
    s = play(g, s, "influence in Paraguay")
    assert inf(g, s, "russia", "paraguay") == 1 and g.var(s, "in_play") == ("the_kirchners",)
    s, offered = ops_labels(g, s, "Julian Assange", "influence")
    assert {"influence in Argentina (2)", "influence in Chile (3)", "influence in Uruguay (2)"} <= set(offered)
    assert "influence in Peru (2)" not in offered and "influence in Brazil (2)" not in offered
    s = play(g, s, "stop placing influence")
    _, offered = ops_labels(g, s, "Iraq war", "influence")
    assert not any("Argentina" in x for x in offered)  # not for the US
    # Out of play (Global positioning discards it), Argentina is out of Russia's reach again.
    g, s = scenario(
        players=4,
        texts=[("russia", "the_kirchners")],
        clear=True,
        influence={"russia": {"ukraine": 1}},
        turns=["russia"],
        hands={"russia": ["julian_assange"]},
        variables={"supremacy": {"global_positioning": "us"}},
    )
    s = play(g, s, "don't use Global positioning", "influence in Chile")
    s = play(g, s, "remove supremacy on Global positioning: discard a personality in play", "discard The Kirchners")
    assert g.var(s, "in_play") == () and "the_kirchners" in g.var(s, "removed")  # marked *: removed as it leaves play
    _, offered = ops_labels(g, s, "Julian Assange", "influence")
    assert "influence in Poland (3)" in offered and "influence in Argentina (2)" in offered  # next to Chile now
    assert "influence in Uruguay (2)" not in offered and "influence in Paraguay (2)" not in offered


# ---- 85 The mother of all wars -----------------------------------------------------------------


def test_the_mother_of_all_wars_is_a_coup_without_vp_loss():
    g, s = scenario(
        players=4,
        texts=[("us", "the_mother_of_all_wars")],
        clear=True,
        influence={"russia": {"iraq": 2, "syria": 1}},
        vp={"us": 2},
        pins=(6,),
    )
    assert labels(g, s) == ["destabilize Syria", "destabilize Iraq"]
    s = play(g, s, "destabilize Iraq")  # 6 + 2 - 2 x 3 = 2 points
    s = play(g, s, "remove 1 of Russia's", "add 1 influence")
    assert g.is_over(s)
    assert inf(g, s, "russia", "iraq") == 1 and inf(g, s, "us", "iraq") == 1
    assert vp(g, s)["us"] == 2  # Iraq is conflictive: no VP lost all the same
    assert "the_mother_of_all_wars" in g.var(s, "discard")


def test_the_mother_of_all_wars_with_nothing_to_destabilize_does_nothing():
    g, s = scenario(texts=[("west", "the_mother_of_all_wars")], clear=True, vp={"west": 2})
    assert g.is_over(s) and vp(g, s)["west"] == 2


# ---- 86 Viktor Yushchenko ----------------------------------------------------------------------


def test_viktor_yushchenko_costs_russia_a_vp_and_influence_in_ukraine():
    g, s = scenario(
        players=4,
        texts=[("us", "viktor_yushchenko")],
        clear=True,
        influence={"russia": {"ukraine": 2}},
        vp={"russia": 3},
    )
    assert inf(g, s, "russia", "ukraine") == 1 and vp(g, s)["russia"] == 2
    g, s = scenario(
        texts=[("west", "viktor_yushchenko")], clear=True, influence={"east": {"ukraine": 1}}, vp={"east": 1}
    )
    assert inf(g, s, "east", "ukraine") == 0 and vp(g, s)["east"] == 0


# ---- 87 Vladimir Putin -------------------------------------------------------------------------


def test_vladimir_putin_adds_one_influence_in_russia_or_two_with_fsb():
    g, s = scenario(players=4, texts=[("russia", "vladimir_putin")], clear=True)
    assert inf(g, s, "russia", "russia_country") == 1 and g.var(s, "in_play") == ("vladimir_putin",)
    g, s = scenario(players=4, texts=[("russia", "vladimir_putin")], clear=True, in_play=["fsb_creation"])
    s = play(g, s, "don't use FSB creation")  # the personality's text is not cancelled
    assert inf(g, s, "russia", "russia_country") == 2
    assert g.var(s, "in_play") == ("fsb_creation", "vladimir_putin")


def test_vladimir_putin_offers_a_coup_where_the_edge_was_gained_next_to_russia():
    # The EU gains the edge in Ukraine with a 3-ops card: Russia may discard Putin for a
    # coup there with 3 ops.
    g, s = scenario(
        players=4,
        clear=True,
        influence={"eu": {"poland": 1}},
        in_play=["vladimir_putin"],
        turns=["eu"],
        hands={"eu": ["iraq_war"]},
        vp={"russia": 3},
        pins=(5,),
    )
    s, offered = ops_labels(g, s, "Iraq war", "influence")
    s = play(g, s, "influence in Ukraine (2)")
    assert labels(g, s) == ["discard Vladimir Putin: a coup in Ukraine with 3 ops", "don't use Vladimir Putin"]
    s = play(g, s, "discard Vladimir Putin: a coup in Ukraine with 3 ops")
    # 5 + 3 - 2 x 2 = 4 points; Ukraine is conflictive: Russia loses 1 VP.
    # Card 87: "Russia player can discard this card": discarded, although marked *.
    assert vp(g, s)["russia"] == 2 and "vladimir_putin" in g.var(s, "discard")
    assert "vladimir_putin" not in g.var(s, "removed")
    assert g.var(s, "in_play") == ()
    s = play(g, s, "remove 1 of EU's", "add 1 influence", "add 1 influence", "stop")
    assert inf(g, s, "eu", "ukraine") == 0 and inf(g, s, "russia", "ukraine") == 2
    assert g.is_over(s)  # the EU's last point buys nothing


def test_vladimir_putin_may_be_kept_in_play():
    g, s = scenario(
        players=4,
        clear=True,
        influence={"eu": {"poland": 1}},
        in_play=["vladimir_putin"],
        turns=["eu"],
        hands={"eu": ["iraq_war"]},
    )
    s, _ = ops_labels(g, s, "Iraq war", "influence")
    s = play(g, s, "influence in Ukraine (2)", "don't use Vladimir Putin")
    assert g.var(s, "in_play") == ("vladimir_putin",) and inf(g, s, "eu", "ukraine") == 1


def test_vladimir_putin_uses_the_ops_of_the_card_that_gave_the_edge_and_not_in_china():
    # Hu Jintao (4 ops) gives China the edge in the Stan States, next to Russia: a 4-ops coup.
    g, s = scenario(players=4, texts=[("china", "hu_jintao")], clear=True, in_play=["vladimir_putin"])
    s = play(g, s, "influence in Stan States")
    assert labels(g, s) == ["discard Vladimir Putin: a coup in Stan States with 4 ops", "don't use Vladimir Putin"]
    # In China itself: no coup offered.
    g, s = scenario(players=4, texts=[("china", "hu_jintao")], clear=True, in_play=["vladimir_putin"])
    s = play(g, s, "influence in China")
    assert g.is_over(s) and inf(g, s, "china", "china_country") == 1
    assert g.var(s, "in_play") == ("vladimir_putin",)


def test_vladimir_putin_ignores_edges_away_from_russia():
    g, s = scenario(
        players=4,
        clear=True,
        influence={"us": {"mexico": 1}, "china": {"guatemala": 1}},
        in_play=["vladimir_putin"],
        turns=["us"],
        hands={"us": ["iraq_war"]},
    )
    s, _ = ops_labels(g, s, "Iraq war", "influence")
    s = play(g, s, "influence in Guatemala (2)", "influence in Guatemala (1)")
    assert inf(g, s, "us", "guatemala") == 2 and g.is_over(s)
    assert g.var(s, "in_play") == ("vladimir_putin",)


# ---- 88 War on terror --------------------------------------------------------------------------


def test_war_on_terror_us_coups_in_the_middle_east_and_africa_lose_no_vp():
    def coup(country, in_play):
        g, s = scenario(
            players=4,
            clear=True,
            influence={"russia": {"iraq": 1, "venezuela": 1, "angola": 1}},
            in_play=in_play,
            turns=["us"],
            hands={"us": ["iraq_war"]},
            vp={"us": 3},
            pins=(1,),
        )
        s, _ = ops_labels(g, s, "Iraq war", "destabilization")
        s = play(g, s, f"destabilize {country}")
        return vp(g, s)["us"]

    assert coup("Iraq", ["war_on_terror"]) == 3
    assert coup("Angola", ["war_on_terror"]) == 3
    assert coup("Venezuela", ["war_on_terror"]) == 2  # South America: the usual VP loss
    assert coup("Iraq", []) == 2


def test_war_on_terror_is_put_in_play():
    g, s = scenario(texts=[("west", "war_on_terror")])
    assert g.var(s, "in_play") == ("war_on_terror",) and "war_on_terror" not in g.var(s, "removed")


# ---- P2 Silvio Berlusconi ----------------------------------------------------------------------


def test_silvio_berlusconi_first_epoch_clears_russia_from_italy_and_gains_a_vp():
    g, s = scenario(
        players=4,
        texts=[("eu", "silvio_berlusconi")],
        clear=True,
        influence={"russia": {"italy": 2}, "china": {"italy": 1}},
        vp={"eu": 1},
        promos=True,
    )
    assert inf(g, s, "russia", "italy") == 0 and inf(g, s, "china", "italy") == 1
    assert vp(g, s)["eu"] == 2
    assert "silvio_berlusconi" in g.var(s, "removed")


def test_silvio_berlusconi_second_epoch_costs_the_eu_a_vp():
    g, s = scenario(
        players=4,
        texts=[("russia", "silvio_berlusconi")],
        clear=True,
        influence={"russia": {"italy": 2}},
        vp={"eu": 1, "russia": 1},
        variables={"epoch": "post"},
        promos=True,
    )
    assert inf(g, s, "russia", "italy") == 2 and vp(g, s) == {"us": 0, "eu": 0, "russia": 1, "china": 0}


def test_promo_cards_are_in_the_deck_only_with_the_option():
    g, s = scenario(players=2, promos=True)
    assert "silvio_berlusconi" in g.var(s, "deck") and "madrid_bombings" in g.var(s, "post_deck")
    g, s = scenario(players=2)
    assert "silvio_berlusconi" not in g.var(s, "deck") and "madrid_bombings" not in g.var(s, "post_deck")


# ---- P3 Madrid bombings ------------------------------------------------------------------------


def test_madrid_bombings_the_eu_chooses_spain_portugal_or_afghanistan():
    g, s = scenario(
        players=4,
        texts=[("russia", "madrid_bombings")],
        clear=True,
        influence={"us": {"spain_portugal": 1}, "eu": {"spain_portugal": 2, "afghanistan": 1}},
        promos=True,
    )
    assert g.current_player(s) == "eu"
    assert labels(g, s) == ["remove 1 West influence in Spain-Portugal", "remove 1 of EU's influence in Afghanistan"]
    s2 = play(g, s, "remove 1 of EU's influence in Afghanistan")
    assert inf(g, s2, "eu", "afghanistan") == 0 and inf(g, s2, "eu", "spain_portugal") == 2
    s = play(g, s, "remove 1 West influence in Spain-Portugal")
    assert labels(g, s) == [
        "remove 1 of US's influence in Spain-Portugal",
        "remove 1 of EU's influence in Spain-Portugal",
    ]
    s = play(g, s, "remove 1 of US's influence in Spain-Portugal")
    assert inf(g, s, "us", "spain_portugal") == 0 and inf(g, s, "eu", "spain_portugal") == 2
    assert inf(g, s, "eu", "afghanistan") == 1


def test_madrid_bombings_with_only_one_removal_possible_or_none():
    g, s = scenario(
        texts=[("east", "madrid_bombings")], clear=True, influence={"west": {"spain_portugal": 1}}, promos=True
    )
    assert labels(g, s) == ["remove 1 West influence in Spain-Portugal"]
    s = play(g, s, "remove 1 West influence in Spain-Portugal")
    assert g.is_over(s) and inf(g, s, "west", "spain_portugal") == 0
    g, s = scenario(texts=[("east", "madrid_bombings")], clear=True, promos=True)
    assert g.is_over(s) and "madrid_bombings" in g.var(s, "removed")


# ---- P1 Conspiracy theory ------------------------------------------------------------------------
def test_conspiracy_theory_plays_another_players_card_switching_us_and_russia():
    g, s = scenario(
        players=4,
        texts=[("china", "conspiracy_theory")],
        hands={"us": ["boris_yeltsin", "europe_scoring"], "eu": ["nwo"]},
        promos=True,
        conspiracy_pick="seen",
    )
    # Seen: only hands with a text that can be played now (NWO: turns 6 to 8 only).
    assert labels(g, s) == ["pick from US's hand"]
    s = play(g, s, "pick from US's hand")
    # A punctuation card may be picked: its text is its scoring (6.2.2).
    assert labels(g, s) == ["play Boris Yeltsin switched", "play Europe switched"]
    s = play(g, s, "play Boris Yeltsin switched")
    # "US gains 1 influence in Russia", switched: Russia gains it (in Russia, the country:
    # the map's countries are places, not players, and are not switched).
    assert inf(g, s, "russia", "russia_country") == 2 and inf(g, s, "us", "russia_country") == 0
    assert g.var(s, "hand")["us"] == ("europe_scoring",)
    assert "boris_yeltsin" in g.var(s, "removed")  # marked *: its text was triggered
    assert g.var(s, "modifiers_in_force") == ()  # the switch ends with the text


def test_conspiracy_theory_with_two_players_switches_the_blocks():
    g, s = scenario(
        texts=[("east", "conspiracy_theory")], hands={"west": ["boris_yeltsin"]}, promos=True, conspiracy_pick="seen"
    )
    s = play(g, s, "pick from West's hand", "play Boris Yeltsin switched")
    assert inf(g, s, "east", "russia_country") == 2 and inf(g, s, "west", "russia_country") == 0
    # After the switched text, the names mean what they print again.
    g, s = scenario(
        texts=[("east", "conspiracy_theory"), ("west", "katrina")],
        hands={"west": ["boris_yeltsin"]},
        vp={"west": 3, "east": 3},
        promos=True,
        conspiracy_pick="seen",
    )
    s = play(g, s, "pick from West's hand", "play Boris Yeltsin switched")
    assert g.var(s, "vp") == {"west": 2, "east": 3}  # Katrina: the US (West) loses 1 VP
