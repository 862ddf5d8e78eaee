"""The Wall is Down, post-9/11 cards 47-67 (cards/twid/post_1.game): each test sets a
position, resolves the card as printed, and checks what the printed text says."""

from __future__ import annotations

from tests.twid_helpers import game, inf, labels, play, scenario

FIVE_2P = {"west": 5, "east": 5}
FIVE_4P = {"us": 5, "eu": 5, "russia": 5, "china": 5}


def vp(g, s):
    return g.var(s, "vp")


# ---- 47 9/11 attacks ---------------------------------------------------------------------------
def test_9_11_attacks_with_the_edge_in_the_usa_adds_two_there_and_one_in_two_eu_countries():
    g, s = scenario(texts=[("west", "_9_11_attacks")], vp=FIVE_2P)  # West starts with the USA's edge
    assert "US influence in Greece" in labels(g, s) and "US influence in Poland" not in labels(g, s)
    s = play(g, s, "US influence in France")
    assert "US influence in France" not in labels(g, s)  # two different EU countries
    s = play(g, s, "US influence in Greece")
    assert g.is_over(s)
    assert inf(g, s, "west", "united_states") == 4 and inf(g, s, "west", "france") == 3
    assert inf(g, s, "west", "greece") == 1
    assert vp(g, s) == {"west": 3, "east": 5}
    assert "_9_11_attacks" in g.var(s, "removed")


def test_9_11_attacks_without_the_edge_the_us_takes_it_and_nothing_else():
    influence = {"us": {"united_states": 1}, "russia": {"united_states": 2}}
    g, s = scenario(players=4, texts=[("eu", "_9_11_attacks")], influence=influence, vp=FIVE_4P)
    assert g.is_over(s)  # no EU choice: the edge was not held
    assert inf(g, s, "us", "united_states") == 3
    assert inf(g, s, "us", "france") == 0 and inf(g, s, "eu", "france") == 2
    assert vp(g, s) == {"us": 3, "eu": 5, "russia": 5, "china": 5}


def test_9_11_attacks_in_four_players_the_us_decides_and_places_us_influence():
    g, s = scenario(players=4, texts=[("eu", "_9_11_attacks")], vp=FIVE_4P)
    assert g.current_player(s) == "us"
    s = play(g, s, "US influence in Italy", "US influence in Denmark")
    assert inf(g, s, "us", "united_states") == 4
    assert inf(g, s, "us", "italy") == 1 and inf(g, s, "us", "denmark") == 1 and inf(g, s, "eu", "italy") == 1
    assert vp(g, s)["us"] == 3


# ---- 48 ABM Treaty withdrawal, 49 Abu Grahib ------------------------------------------------------
def test_abm_treaty_withdrawal_two_players_east_loses_two():
    g, s = scenario(texts=[("east", "abm_treaty_withdrawal")], vp=FIVE_2P)
    assert vp(g, s) == {"west": 2, "east": 3}
    assert "abm_treaty_withdrawal" in g.var(s, "removed")


def test_abm_treaty_withdrawal_four_players_russia_and_china_lose_one_each():
    g, s = scenario(players=4, texts=[("china", "abm_treaty_withdrawal")], vp=FIVE_4P)
    assert vp(g, s) == {"us": 2, "eu": 5, "russia": 4, "china": 4}


def test_abm_treaty_withdrawal_us_below_zero_gives_the_rest_to_the_lowest():
    g, s = scenario(
        players=4, texts=[("china", "abm_treaty_withdrawal")], vp={"us": 1, "eu": 3, "russia": 2, "china": 4}
    )
    # US first: loses its 1 VP and gives 2 (to Russia, the lowest, then EU, tied with Russia
    # and of the US's block); then China and Russia lose 1 each.
    assert vp(g, s) == {"us": 0, "eu": 4, "russia": 2, "china": 3}


def test_abu_grahib_us_loses_two():
    g, s = scenario(texts=[("east", "abu_grahib")], vp=FIVE_2P)
    assert vp(g, s) == {"west": 3, "east": 5}
    g, s = scenario(players=4, texts=[("russia", "abu_grahib")], vp=FIVE_4P)
    assert vp(g, s) == {"us": 3, "eu": 5, "russia": 5, "china": 5}
    assert "abu_grahib" in g.var(s, "removed")


# ---- 50 Africa ---------------------------------------------------------------------------------
def test_africa_scoring_four_players_only_the_eu_loses_for_countries_next_to_it():
    influence = {
        "eu": {"nigeria": 1, "kenya": 1},  # conflictive + calm
        "us": {"morocco": 1},  # next to Spain-Portugal
        "russia": {"algeria": 1},  # next to France
    }
    g, s = scenario(
        players=4, clear=True, influence=influence, vp=FIVE_4P, hands={"eu": ["africa_scoring"]}, turns=["eu"]
    )
    s = play(g, s, "play Africa", "score Africa")
    # EU: presence 1 + domination 1 (most edged, a conflictive and a calm) + 1 conflictive,
    # then -2 for Morocco and Algeria; US and Russia: presence 1.
    assert vp(g, s) == {"us": 6, "eu": 6, "russia": 6, "china": 5}
    assert "africa_scoring" in g.var(s, "discard")


def test_africa_scoring_two_players_control_and_west_exposed():
    conflictive = ["nigeria", "congo", "angola", "south_africa", "somalia", "sudan"]
    influence = {"west": {x: 1 for x in [*conflictive, "kenya"]}, "east": {"morocco": 1}}
    g, s = scenario(clear=True, influence=influence, vp=FIVE_2P, hands={"east": ["africa_scoring"]}, turns=["east"])
    s = play(g, s, "play Africa", "score Africa")
    # West: 1 + 1 + 2 + 6 conflictive - 1 (Morocco, next to Spain-Portugal); East: 1
    assert vp(g, s) == {"west": 14, "east": 6}
    assert g.result(s) == ("west",)


def test_africa_scoring_three_players_nobody_is_exposed():
    influence = {"us": {"nigeria": 1}, "russia": {"morocco": 1, "algeria": 1}, "eu": {"kenya": 2}}
    g, s = scenario(
        players=3,
        clear=True,
        influence=influence,
        vp={"us": 5, "russia": 5, "china": 5},
        hands={"us": ["africa_scoring"]},
        turns=["us"],
    )
    s = play(g, s, "play Africa", "score Africa")
    # US: presence 1 + 1 conflictive; Russia: presence 1 (2 edged, most, but no conflictive); the
    # static EU scores nothing and is the only one step 5 could hit.
    assert vp(g, s) == {"us": 7, "russia": 6, "china": 5}


# ---- 51 African Union ----------------------------------------------------------------------------
def test_african_union_removes_one_west_influence_in_africa_but_not_morocco_and_stays_in_play():
    influence = {"us": {"nigeria": 1, "morocco": 1, "egypt": 1}, "eu": {"nigeria": 1, "kenya": 1}}
    g, s = scenario(players=4, clear=True, influence=influence, texts=[("russia", "african_union")])
    # Morocco is excluded; Egypt is in the Middle East on the designer's map.
    assert labels(g, s) == ["remove West influence in Nigeria", "remove West influence in Kenya"]
    s = play(g, s, "remove West influence in Nigeria")
    assert labels(g, s) == ["remove 1 of US's in Nigeria", "remove 1 of EU's in Nigeria"]
    s = play(g, s, "remove 1 of EU's in Nigeria")
    assert inf(g, s, "eu", "nigeria") == 0 and inf(g, s, "us", "nigeria") == 1 and inf(g, s, "us", "morocco") == 1
    assert "african_union" in g.var(s, "in_play") and "african_union" not in g.var(s, "removed")


def test_african_union_two_players_with_no_west_influence_in_africa_only_goes_in_play():
    g, s = scenario(clear=True, influence={"west": {"morocco": 2}}, texts=[("east", "african_union")])
    assert g.is_over(s) and inf(g, s, "west", "morocco") == 2
    assert g.var(s, "in_play") == ("african_union",)


def influence_in_cameroon(in_play):
    influence = {"russia": {"cameroon": 1}}
    g, s = scenario(
        players=4, clear=True, influence=influence, in_play=in_play, hands={"russia": ["abu_grahib"]}, turns=["russia"]
    )
    s = play(g, s, "play Abu Grahib", "Abu Grahib for operations", "influence operation", "influence in Cameroon (1)")
    return g, s


def test_african_union_in_play_one_influence_per_african_country_per_operation():
    g, s = influence_in_cameroon(["african_union"])
    assert "influence in Cameroon (1)" not in labels(g, s)
    assert "influence in Nigeria (1)" in labels(g, s)
    s = play(g, s, "influence in Nigeria (1)")
    assert g.is_over(s)
    assert inf(g, s, "russia", "cameroon") == 2 and inf(g, s, "russia", "nigeria") == 1
    g, s = influence_in_cameroon([])  # not in play: no limit
    assert "influence in Cameroon (1)" in labels(g, s)


def coup(country, in_play, side="russia", victim="eu", players=4, pins=(1,)):
    """`side` destabilizes `country`, where `victim` has 1 influence, with a 2-ops card of its own block."""
    card, title = (
        ("abu_grahib", "Abu Grahib") if side in ("russia", "china", "east") else ("fuck_the_eu", "Fuck the EU")
    )
    vps = FIVE_4P if players == 4 else FIVE_2P
    g, s = scenario(
        players=players,
        clear=True,
        influence={victim: {country: 1}},
        in_play=in_play,
        vp=vps,
        hands={side: [card]},
        turns=[side],
        pins=pins,
    )
    name = country.replace("_", " ").title()
    return g, play(g, s, f"play {title}", f"{title} for operations", "destabilization operation", f"destabilize {name}")


def test_african_union_in_play_coups_in_africa_cost_one_more_vp():
    g, s = coup("kenya", ["african_union"])  # calm: 0 + 1
    assert g.is_over(s) and vp(g, s)["russia"] == 4
    g, s = coup("nigeria", ["african_union"])  # conflictive: 1 + 1
    assert vp(g, s)["russia"] == 3
    g, s = coup("thailand", ["african_union"])  # not in Africa
    assert vp(g, s)["russia"] == 5
    g, s = coup("nigeria", [])  # not in play
    assert vp(g, s)["russia"] == 4


# ---- 52 Al Qaeda ---------------------------------------------------------------------------------
def test_al_qaeda_goes_in_play():
    g, s = scenario(texts=[("east", "al_qaeda")])
    assert g.var(s, "in_play") == ("al_qaeda",) and "al_qaeda" not in g.var(s, "removed")


def al_qaeda_coup(players, side, country, extra):
    influence = {side: {"syria": 1}, **extra}
    hands = {side: ["fuck_the_eu"]}
    vps = FIVE_4P if players == 4 else FIVE_2P
    g, s = scenario(
        players=players,
        clear=True,
        influence=influence,
        in_play=["al_qaeda"],
        vp=vps,
        hands=hands,
        turns=[side],
        pins=(3,),
    )
    s = play(
        g, s, "play Fuck the EU", "Fuck the EU for operations", "destabilization operation", f"destabilize {country}"
    )
    return g, s


def test_al_qaeda_after_a_us_coup_in_the_middle_east_russia_may_remove_west_influence_there():
    extra = {"russia": {"lebanon": 1}, "eu": {"israel": 1, "kenya": 1}, "china": {"iraq": 1}}
    g, s = al_qaeda_coup(4, "us", "Lebanon", extra)
    # 3 + 2 - 2 x 1 = 3 points: the US applies its result first
    assert g.current_player(s) == "us"
    s = play(g, s, "remove 1 of Russia's", "add 1 influence", "add 1 influence")
    assert inf(g, s, "us", "lebanon") == 2
    # then the next East player clockwise from the US (Russia) may remove 1 US or EU influence
    # in the Middle East (not Kenya, in Africa)
    assert g.current_player(s) == "russia"
    assert labels(g, s) == [
        "remove West influence in Lebanon",
        "remove West influence in Syria",
        "remove West influence in Israel",
        "remove nothing",
    ]
    s = play(g, s, "remove West influence in Israel")
    assert g.is_over(s) and inf(g, s, "eu", "israel") == 0 and inf(g, s, "eu", "kenya") == 1
    assert "al_qaeda" in g.var(s, "in_play")  # it stays in play


def test_al_qaeda_may_be_declined():
    g, s = al_qaeda_coup(4, "us", "Lebanon", {"russia": {"lebanon": 1}})
    s = play(g, s, "stop", "remove nothing")
    assert g.is_over(s) and inf(g, s, "us", "syria") == 1


def test_al_qaeda_ignores_coups_by_the_eu_and_outside_its_regions():
    g, s = al_qaeda_coup(4, "eu", "Lebanon", {"russia": {"lebanon": 1}, "us": {"syria": 1}})
    s = play(g, s, "stop")
    assert g.is_over(s)  # EU's coup: nothing
    influence = {"us": {"colombia": 1}, "russia": {"venezuela": 1, "syria": 0}}
    g, s = scenario(
        players=4,
        clear=True,
        influence=influence,
        in_play=["al_qaeda"],
        vp=FIVE_4P,
        hands={"us": ["fuck_the_eu"]},
        turns=["us"],
        pins=(6,),
    )
    s = play(
        g,
        s,
        "play Fuck the EU",
        "Fuck the EU for operations",
        "destabilization operation",
        "destabilize Venezuela",
        "stop",
    )
    assert g.is_over(s)  # South America: nothing


def test_al_qaeda_two_players_west_coup_in_asia_east_removes_in_asia():
    extra = {"east": {"afghanistan": 1}, "west": {"syria": 0, "japan": 1, "iraq": 1}}
    influence = {"west": {"pakistan": 1, **extra["west"]}, "east": extra["east"]}
    g, s = scenario(
        clear=True,
        influence=influence,
        in_play=["al_qaeda"],
        vp=FIVE_2P,
        hands={"west": ["fuck_the_eu"]},
        turns=["west"],
        pins=(1,),
    )
    s = play(
        g, s, "play Fuck the EU", "Fuck the EU for operations", "destabilization operation", "destabilize Afghanistan"
    )
    # 1 + 2 - 4 < 0: nothing to apply; conflictive Afghanistan costs West 1 VP
    assert vp(g, s)["west"] == 4
    assert g.current_player(s) == "east"
    assert labels(g, s) == ["remove West influence in Pakistan", "remove West influence in Japan", "remove nothing"]
    s = play(g, s, "remove West influence in Japan")
    assert inf(g, s, "west", "japan") == 0 and inf(g, s, "west", "iraq") == 1


def test_al_qaeda_not_in_play_does_nothing():
    g, s = scenario(
        players=4,
        clear=True,
        influence={"us": {"syria": 1}, "russia": {"lebanon": 1}},
        vp=FIVE_4P,
        hands={"us": ["fuck_the_eu"]},
        turns=["us"],
        pins=(1,),
    )
    s = play(
        g,
        s,
        "play Fuck the EU",
        "Fuck the EU for operations",
        "destabilization operation",
        "destabilize Lebanon",
        "stop",
    )
    assert g.is_over(s)


# ---- 53 ALBA -------------------------------------------------------------------------------------
def test_alba_removes_up_to_two_us_influence_one_per_listed_country():
    influence = {"us": {"venezuela": 2, "cuba": 1, "honduras": 1, "mexico": 1}, "eu": {"ecuador": 1}}
    g, s = scenario(players=4, clear=True, influence=influence, texts=[("russia", "alba")])
    assert g.current_player(s) == "russia"
    assert labels(g, s) == [
        "remove 1 US influence in Venezuela",
        "remove 1 US influence in Cuba",
        "remove 1 US influence in Honduras",
        "stop removing US influence",
    ]
    s = play(g, s, "remove 1 US influence in Venezuela")
    assert "remove 1 US influence in Venezuela" not in labels(g, s)  # no more than 1 per country
    s = play(g, s, "remove 1 US influence in Cuba")
    assert g.is_over(s)  # two removed
    assert [inf(g, s, "us", x) for x in ["venezuela", "cuba", "honduras", "mexico"]] == [1, 0, 1, 1]
    assert inf(g, s, "eu", "ecuador") == 1
    assert "alba" in g.var(s, "removed")


def test_alba_up_to_two_the_player_may_stop_two_players():
    g, s = scenario(clear=True, influence={"west": {"bolivia": 1, "cuba": 1}}, texts=[("east", "alba")])
    s = play(g, s, "remove 1 US influence in Bolivia", "stop removing US influence")
    assert inf(g, s, "west", "bolivia") == 0 and inf(g, s, "west", "cuba") == 1


# ---- 54 Arab Spring ------------------------------------------------------------------------------
SPRING = {
    "us": {"egypt": 2, "morocco": 1, "gulf_states": 1},
    "eu": {"egypt": 1, "saudi_arabia": 1},
    "russia": {"egypt": 1},
}


def test_arab_spring_removes_all_west_influence_in_egypt():
    g, s = scenario(players=4, clear=True, influence=SPRING, texts=[("china", "arab_spring")])
    # Tunisia has no West influence: not offered
    assert labels(g, s) == [
        "all West influence in Egypt",
        "up to 2 West influence in Morocco, Saudi Arabia or Gulf States",
    ]
    s = play(g, s, "all West influence in Egypt")
    assert g.is_over(s)
    assert [inf(g, s, t, "egypt") for t in ["us", "eu", "russia"]] == [0, 0, 1]
    assert inf(g, s, "us", "morocco") == 1
    assert "arab_spring" in g.var(s, "removed")


def test_arab_spring_or_up_to_two_in_the_gulf_one_per_country():
    g, s = scenario(players=4, clear=True, influence=SPRING, texts=[("china", "arab_spring")])
    s = play(
        g, s, "up to 2 West influence in Morocco, Saudi Arabia or Gulf States", "remove West influence in Saudi Arabia"
    )
    assert labels(g, s) == [
        "remove West influence in Morocco",
        "remove West influence in Gulf States",
        "stop removing West influence",
    ]
    s = play(g, s, "remove West influence in Gulf States")
    assert g.is_over(s)
    assert (
        inf(g, s, "eu", "saudi_arabia") == 0 and inf(g, s, "us", "gulf_states") == 0 and inf(g, s, "us", "morocco") == 1
    )
    assert inf(g, s, "us", "egypt") == 2


def test_arab_spring_two_players_tunisia_and_stopping_early():
    influence = {"west": {"tunisia": 3, "morocco": 2}, "east": {"tunisia": 1}}
    g, s = scenario(clear=True, influence=influence, texts=[("east", "arab_spring")])
    assert labels(g, s) == [
        "all West influence in Tunisia",
        "up to 2 West influence in Morocco, Saudi Arabia or Gulf States",
    ]
    s = play(g, s, "all West influence in Tunisia")
    assert inf(g, s, "west", "tunisia") == 0 and inf(g, s, "east", "tunisia") == 1
    g, s = scenario(clear=True, influence=influence, texts=[("east", "arab_spring")])
    s = play(g, s, "up to 2 West influence in Morocco, Saudi Arabia or Gulf States", "remove West influence in Morocco")
    assert g.is_over(s) and inf(g, s, "west", "morocco") == 1  # no more than 1 per country


# ---- 55 Asia -------------------------------------------------------------------------------------
def test_asia_scoring_uses_the_standard_steps_with_1_2_2():
    influence = {
        "china": {"north_korea": 1, "myanmar": 1, "china_country": 2},
        "us": {"japan": 1, "taiwan": 1},
        "russia": {"russia_country": 1, "stan_states": 1},
    }
    g, s = scenario(
        players=4, clear=True, influence=influence, vp=FIVE_4P, hands={"china": ["asia_scoring"]}, turns=["china"]
    )
    s = play(g, s, "play Asia", "score Asia")
    # China: presence 1 + domination 2 + North Korea 1, -2 for Taiwan (US) and Russia (Russia),
    # next to China. US: presence 1 + Taiwan 1. Russia: presence 1, -1 for China, next to it.
    assert vp(g, s) == {"us": 7, "eu": 5, "russia": 5, "china": 7}
    assert "asia_scoring" in g.var(s, "discard")


def test_asia_scoring_two_players_control():
    conflictive = ["caucasus_states", "afghanistan", "pakistan", "india", "taiwan", "south_korea", "north_korea"]
    influence = {"east": {**dict.fromkeys(conflictive, 1), "china_country": 1}, "west": {"japan": 1}}
    g, s = scenario(
        clear=True, influence=influence, vp={"west": 0, "east": 0}, hands={"west": ["asia_scoring"]}, turns=["west"]
    )
    s = play(g, s, "play Asia", "score Asia")
    # East edges every conflictive country of Asia and China: 1 + 2 + 2 + 7. West: presence 1;
    # Japan, next to the USA, is West's own edge, so nothing is lost.
    assert vp(g, s) == {"west": 1, "east": 12}
    assert g.result(s) == ("east",)


# ---- 56 Austerity plans --------------------------------------------------------------------------
def test_austerity_plans_eu_loses_two_then_us_one_and_eu_up_to_two_in_eu_countries():
    g, s = scenario(players=4, texts=[("us", "austerity_plans")], vp=FIVE_4P)
    assert vp(g, s)["eu"] == 3
    assert g.current_player(s) == "us"
    assert "US influence in Denmark" in labels(g, s) and "US influence in Norway" not in labels(g, s)
    s = play(g, s, "US influence in Denmark")
    assert g.current_player(s) == "eu"
    s = play(g, s, "EU influence in Italy")
    assert "EU influence in Italy" not in labels(g, s)  # up to 2 different countries
    s = play(g, s, "EU influence in Greece")
    assert g.is_over(s)
    assert inf(g, s, "us", "denmark") == 1 and inf(g, s, "eu", "italy") == 2 and inf(g, s, "eu", "greece") == 1
    assert "austerity_plans" in g.var(s, "removed")


def test_austerity_plans_placing_is_optional():
    g, s = scenario(players=4, texts=[("eu", "austerity_plans")], vp=FIVE_4P)
    s = play(g, s, "no US influence", "EU influence in France", "no more EU influence")
    assert g.is_over(s) and inf(g, s, "eu", "france") == 3 and vp(g, s)["eu"] == 3


def test_austerity_plans_after_eastern_adhesion_offers_hungary_and_poland_two_players():
    g, s = scenario(texts=[("west", "eastern_adhesion"), ("west", "austerity_plans")], vp=FIVE_2P)
    s = play(g, s, "influence in Hungary")
    assert vp(g, s)["west"] == 6 - 2
    assert "US influence in Poland" in labels(g, s)
    s = play(g, s, "US influence in Poland", "EU influence in Hungary", "no more EU influence")
    assert inf(g, s, "west", "poland") == 1 and inf(g, s, "west", "hungary") == 2


# ---- 57 BRICS ------------------------------------------------------------------------------------
def test_brics_each_player_gains_per_edged_bric_then_loses_two():
    influence = {
        "us": {"brazil": 1},
        "russia": {"russia_country": 1},
        "china": {"china_country": 2, "india": 1},
        "eu": {"south_africa": 2},
    }
    g, s = scenario(players=4, clear=True, influence=influence, texts=[("russia", "brics")], vp=FIVE_4P)
    assert vp(g, s) == {"us": 4, "eu": 4, "russia": 4, "china": 5}
    assert "brics" in g.var(s, "discard") and "brics" not in g.var(s, "removed")


def test_brics_two_players_and_a_shared_edge_counts_for_nobody():
    influence = {"east": {"russia_country": 2, "china_country": 2, "india": 1, "brazil": 1}, "west": {"brazil": 1}}
    g, s = scenario(clear=True, influence=influence, texts=[("east", "brics")], vp=FIVE_2P)
    assert vp(g, s) == {"west": 3, "east": 6}


# ---- 58 Central/North America --------------------------------------------------------------------
def test_central_north_america_scoring_lost_vp_next_to_the_us():
    influence = {"us": {"united_states": 2}, "russia": {"cuba": 1, "mexico": 1}}
    g, s = scenario(
        players=4,
        clear=True,
        influence=influence,
        vp=FIVE_4P,
        hands={"russia": ["central_north_america_scoring"]},
        turns=["russia"],
    )
    s = play(g, s, "play Central/North America", "score Central/North America")
    # US: presence 0, -2 (Cuba, Mexico next to the USA); Russia: most edged but no calm
    # country: 2 conflictive only.
    assert vp(g, s) == {"us": 3, "eu": 5, "russia": 7, "china": 5}
    assert "central_north_america_scoring" in g.var(s, "discard")


def test_central_north_america_scoring_two_players_control():
    influence = {
        "west": dict.fromkeys(["united_states", "canada", "mexico", "cuba", "panama"], 1),
        "east": {"guatemala": 1},
    }
    g, s = scenario(
        clear=True, influence=influence, vp=FIVE_2P, hands={"east": ["central_north_america_scoring"]}, turns=["east"]
    )
    s = play(g, s, "play Central/North America", "score Central/North America")
    # West: domination 1 + control 3 (the board's value; the card prints 2) + 3 conflictive;
    # East: presence 0.
    assert vp(g, s) == {"west": 12, "east": 5}


# ---- 59 Climate change ---------------------------------------------------------------------------
def test_climate_change_all_lose_one_plus_one_per_economy_or_technology_supremacy():
    supremacy = {
        "financial_markets": "us",
        "drones": "us",
        "mass_media": "us",
        "communications": "russia",
        "state_propaganda": "china",
    }
    g, s = scenario(players=4, texts=[("eu", "climate_change")], vp=FIVE_4P, variables={"supremacy": supremacy})
    # US: 1 + Financial markets + Drones (Mass media is public opinion); Russia: 1 + Communications
    assert vp(g, s) == {"us": 2, "eu": 4, "russia": 3, "china": 4}
    assert "climate_change" in g.var(s, "discard")


def test_climate_change_two_players():
    g, s = scenario(
        texts=[("east", "climate_change")],
        vp=FIVE_2P,
        variables={"supremacy": {"sovereign_funds": "east", "fiscal_paradises": "east"}},
    )
    s = play(g, s, "don't use Fiscal paradises")  # East could cancel this economy text
    assert vp(g, s) == {"west": 4, "east": 2}


# ---- 60 Color revolution -------------------------------------------------------------------------
def test_color_revolution_removes_all_russian_influence_in_one_listed_country():
    influence = {"russia": {"ukraine": 3, "caucasus_states": 1}, "us": {"ukraine": 1}}
    g, s = scenario(players=4, clear=True, influence=influence, texts=[("us", "color_revolution")])
    assert labels(g, s) == ["all Russian influence in Caucasus States", "all Russian influence in Ukraine"]
    s = play(g, s, "all Russian influence in Ukraine")
    assert (
        inf(g, s, "russia", "ukraine") == 0
        and inf(g, s, "us", "ukraine") == 1
        and inf(g, s, "russia", "caucasus_states") == 1
    )
    assert "color_revolution" in g.var(s, "removed")


def test_color_revolution_two_players_starting_position():
    g, s = scenario(texts=[("west", "color_revolution")])
    # East starts with Russian influence in Ukraine, Caucasus States and Stan States
    assert labels(g, s) == [
        "all Russian influence in Caucasus States",
        "all Russian influence in Ukraine",
        "all Russian influence in Stan States",
    ]
    s = play(g, s, "all Russian influence in Stan States")
    assert inf(g, s, "east", "stan_states") == 0


# ---- 61 Eastern adhesion -------------------------------------------------------------------------
def test_eastern_adhesion_hungary_and_poland_become_eu_and_cannot_be_destabilized():
    influence = {"us": {"poland": 1, "ukraine": 1}, "russia": {"russia_country": 1}}
    g, s = scenario(
        players=4,
        clear=True,
        influence=influence,
        vp=FIVE_4P,
        texts=[("us", "eastern_adhesion")],
        hands={"russia": ["abu_grahib"]},
        turns=["russia"],
    )
    assert labels(g, s) == ["influence in Hungary", "influence in Poland"]
    s = play(g, s, "influence in Hungary")
    assert inf(g, s, "us", "hungary") == 1 and vp(g, s) == {"us": 5, "eu": 6, "russia": 5, "china": 5}
    assert "eastern_adhesion" in g.var(s, "removed")
    s = play(g, s, "play Abu Grahib", "Abu Grahib for operations", "destabilization operation")
    assert labels(g, s) == ["destabilize Ukraine"]  # Poland and Hungary are EU countries now
    # without the card, Poland can be destabilized
    g, s = scenario(players=4, clear=True, influence=influence, hands={"russia": ["abu_grahib"]}, turns=["russia"])
    s = play(g, s, "play Abu Grahib", "Abu Grahib for operations", "destabilization operation")
    assert labels(g, s) == ["destabilize Poland", "destabilize Ukraine"]


# ---- 62 Economic rescue --------------------------------------------------------------------------
def test_economic_rescue_up_to_two_west_influence_in_a_single_listed_country():
    g, s = scenario(players=4, texts=[("eu", "economic_rescue")])
    offered = labels(g, s)
    for x in [
        "Brazil",
        "Argentina",
        "South Korea",
        "Indonesia",
        "Thailand",
        "Philippines",
        "Greece",
        "Italy",
        "Spain-Portugal",
    ]:
        assert f"influence in {x}" in offered
    assert "influence in France" not in offered and "influence in Mexico" not in offered
    s = play(g, s, "influence in Greece", "a second influence in Greece")
    assert g.is_over(s) and inf(g, s, "eu", "greece") == 2 and inf(g, s, "us", "greece") == 0
    assert "economic_rescue" in g.var(s, "discard")


def test_economic_rescue_one_or_none_two_players():
    g, s = scenario(texts=[("west", "economic_rescue")])
    s = play(g, s, "influence in Chile", "no second influence")
    assert inf(g, s, "west", "chile") == 1
    g, s = scenario(texts=[("west", "economic_rescue")])
    s = play(g, s, "no influence")
    assert g.is_over(s) and inf(g, s, "west", "chile") == 0


# ---- 63 FOIA -------------------------------------------------------------------------------------
def test_foia_gains_one_vp_and_shows_the_hand_but_one_card():
    hands = {"west": ["fuck_the_eu", "economic_rescue", "_9_11_attacks"]}
    g, s = scenario(texts=[("west", "foia")], vp=FIVE_2P, hands=hands, turns=["west"])
    assert vp(g, s)["west"] == 6
    assert labels(g, s) == ["keep Fuck the EU hidden", "keep Economic rescue hidden", "keep 9/11 attacks hidden"]
    s = play(g, s, "keep 9/11 attacks hidden")
    assert g.var(s, "shown_hand") == {"west": ("fuck_the_eu", "economic_rescue"), "east": ()}
    assert "foia" in g.var(s, "discard")
    # a shown card leaves the shown hand when it is played
    s = play(g, s, "play Fuck the EU", "Fuck the EU for operations", "influence operation", "stop placing influence")
    assert g.var(s, "shown_hand")["west"] == ("economic_rescue",)


def test_foia_with_one_card_left_it_stays_hidden_four_players():
    g, s = scenario(players=4, texts=[("eu", "foia")], vp=FIVE_4P, hands={"eu": ["alba"]})
    assert g.is_over(s)
    assert g.var(s, "shown_hand")["eu"] == () and vp(g, s)["eu"] == 6


def test_foia_the_open_hand_ends_with_the_round():
    g = game()

    def arrange(s):
        deck = list(g.var(s, "deck"))
        s = g.with_var(s, "hand", {"west": ["foia", *deck[:6]], "east": deck[6:13]})
        return g.with_var(s, "deck", deck[13:])

    s = g.start(players=2, seed=1, arrange=arrange)
    s = play(g, s, "header: FOIA")
    shown_during = None
    while g.var(s, "round") == 1 and not g.is_over(s):
        options = labels(g, s)
        hide = [m for m in options if m.startswith("keep ") and m.endswith(" hidden")]
        s = g.apply(s, hide[0] if hide else options[0])
        if hide:
            shown_during = g.var(s, "shown_hand")["west"]
            hand = g.var(s, "hand")["west"]
            assert len(shown_during) == len(hand) - 1 == 5 and set(shown_during) < set(hand)
    assert shown_during is not None  # FOIA resolved in round 1
    assert g.var(s, "round") == 2
    assert g.var(s, "shown_hand")["west"] == ()  # closed again when round 1 ended
    assert g.var(s, "foia_open_hands") == ()


# ---- 64 Fuck the EU ------------------------------------------------------------------------------
def test_fuck_the_eu_moves_one_us_influence_from_the_eu_to_ukraine():
    g, s = scenario(players=4, texts=[("eu", "fuck_the_eu")], influence={"us": {"benelux": 1}})
    # the US starts with 1 in Germany (and in the UK, not listed)
    assert labels(g, s) == ["remove 1 US influence in Benelux", "remove 1 US influence in Germany"]
    s = play(g, s, "remove 1 US influence in Benelux")
    assert inf(g, s, "us", "benelux") == 0 and inf(g, s, "us", "germany") == 1
    assert inf(g, s, "us", "ukraine") == 1
    assert "fuck_the_eu" in g.var(s, "removed")


def test_fuck_the_eu_two_players_and_nothing_to_remove():
    g, s = scenario(texts=[("west", "fuck_the_eu")])
    s = play(g, s, "remove 1 US influence in France")
    assert inf(g, s, "west", "france") == 1 and inf(g, s, "west", "ukraine") == 1
    g, s = scenario(clear=True, texts=[("west", "fuck_the_eu")])
    assert g.is_over(s) and inf(g, s, "west", "ukraine") == 1


# ---- 65 Globalization ----------------------------------------------------------------------------
def test_globalization_each_player_clockwise_from_the_active_one_then_one_more():
    g, s = scenario(players=4, clear=True, texts=[("russia", "globalization")])
    order = []
    for country in ["Japan", "Japan", "Brazil"]:
        order.append(g.current_player(s))
        s = play(g, s, f"influence in {country}")
    order.append(g.current_player(s))
    s = play(g, s, "no influence")
    assert order == ["russia", "china", "us", "eu"]
    assert g.current_player(s) == "russia" and "no additional influence" in labels(g, s)
    s = play(g, s, "additional influence in Japan")
    assert g.is_over(s)
    assert [inf(g, s, t, "japan") for t in ["russia", "china", "us", "eu"]] == [2, 1, 0, 0]
    assert inf(g, s, "us", "brazil") == 1
    assert "globalization" in g.var(s, "discard")


def test_globalization_three_and_two_players():
    g, s = scenario(players=3, clear=True, texts=[("china", "globalization")])
    seen = []
    while not g.is_over(s):
        seen.append(g.current_player(s))
        s = play(g, s, labels(g, s)[0])
    assert seen == ["china", "us", "russia", "china"]  # the static EU adds nothing
    g, s = scenario(clear=True, texts=[("east", "globalization")])
    s = play(g, s, "influence in Iran", "influence in Iran", "additional influence in Iraq")
    assert inf(g, s, "east", "iran") == 1 and inf(g, s, "west", "iran") == 1 and inf(g, s, "east", "iraq") == 1


# ---- 66 Guantanamo -------------------------------------------------------------------------------
def test_guantanamo_us_loses_one_and_can_remove_it_to_cancel_a_personality_text():
    g, s = scenario(texts=[("west", "guantanamo"), ("east", "julian_assange"), ("east", "abu_grahib")], vp=FIVE_2P)
    assert g.var(s, "in_play") == ("guantanamo",)
    assert labels(g, s) == [
        "remove Guantanamo from the game: cancel the text of Julian Assange",
        "don't use Guantanamo",
    ]
    s = play(g, s, "remove Guantanamo from the game: cancel the text of Julian Assange")
    # cancelled: not triggered, so discarded rather than removed; Abu Grahib (not a
    # Personality) then resolves without an offer
    assert g.is_over(s)
    assert "julian_assange" in g.var(s, "discard") and "julian_assange" not in g.var(s, "removed")
    assert "guantanamo" in g.var(s, "removed") and g.var(s, "in_play") == ()
    assert vp(g, s) == {"west": 5 - 1 - 2, "east": 5}


def test_guantanamo_passing_keeps_it_in_play_four_players_the_us_decides():
    g, s = scenario(players=4, texts=[("eu", "guantanamo"), ("russia", "julian_assange")], vp=FIVE_4P)
    assert vp(g, s)["us"] == 4 and vp(g, s)["eu"] == 5
    assert g.current_player(s) == "us"
    s = play(g, s, "don't use Guantanamo")
    assert "guantanamo" in g.var(s, "in_play")
    assert g.is_over(s) and "julian_assange" in g.var(s, "removed")  # its text resolved


def test_guantanamo_not_in_play_offers_nothing():
    g, s = scenario(texts=[("east", "abu_grahib")], in_play=[], vp=FIVE_2P)
    assert g.is_over(s)
    g, s = scenario(texts=[("west", "guantanamo"), ("east", "abu_grahib")], vp=FIVE_2P)
    assert g.is_over(s) and g.var(s, "in_play") == ("guantanamo",)


# ---- 67 Hezbollah --------------------------------------------------------------------------------
def test_hezbollah_removes_south_lebanon_conflict_and_goes_in_play():
    g, s = scenario(texts=[("east", "hezbollah")], in_play=["south_lebanon_conflict"])
    assert g.var(s, "in_play") == ("hezbollah",)
    assert "south_lebanon_conflict" in g.var(s, "removed")
    g, s = scenario(players=4, texts=[("china", "hezbollah")])
    assert g.var(s, "in_play") == ("hezbollah",) and "south_lebanon_conflict" not in g.var(s, "removed")


def influence_near_lebanon(in_play, *places):
    g, s = scenario(
        players=4,
        clear=True,
        influence={"russia": {"syria": 1}},
        in_play=in_play,
        vp=FIVE_4P,
        hands={"russia": ["abu_grahib"]},
        turns=["russia"],
    )
    return g, play(g, s, "play Abu Grahib", "Abu Grahib for operations", "influence operation", *places)


def test_hezbollah_in_play_influence_in_israel_or_lebanon_costs_vp():
    # One operation placing two tokens in Lebanon: 1 VP, once per operation.
    g, s = influence_near_lebanon(["hezbollah"], "influence in Lebanon (1)", "influence in Lebanon (1)")
    assert g.is_over(s) and inf(g, s, "russia", "lebanon") == 2 and vp(g, s)["russia"] == 4
    g, s = influence_near_lebanon(["hezbollah"], "influence in Jordan (2)")
    assert vp(g, s)["russia"] == 5
    g, s = influence_near_lebanon([], "influence in Lebanon (1)", "influence in Lebanon (1)")
    assert vp(g, s)["russia"] == 5


def test_hezbollah_in_play_coups_in_israel_or_lebanon_cost_one_more_vp():
    g, s = coup("israel", ["hezbollah"])  # conflictive: 1 + 1
    assert vp(g, s)["russia"] == 3
    g, s = coup("lebanon", ["hezbollah"], pins=(1,))  # 1 + 2 - 2 = 1 point to use
    s = play(g, s, "stop")
    assert vp(g, s)["russia"] == 4
    g, s = coup("israel", [])
    assert vp(g, s)["russia"] == 4
    g, s = coup("israel", ["hezbollah"], side="west", victim="east", players=2)
    assert vp(g, s)["west"] == 3
