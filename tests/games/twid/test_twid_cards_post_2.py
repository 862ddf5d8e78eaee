"""The Wall is Down, post-9/11 cards 68-88 (cards/twid/post_2.game) and the promo cards
Silvio Berlusconi and Madrid bombings (cards/twid/promos.game): each test sets up a
position, resolves the card's text and checks what the printed text says."""

from __future__ import annotations

from tests.twid_helpers import inf, labels, play, scenario


def ops_labels(g, s, card_title, kind):
    """Play a card from the hand for operations of `kind` and return the targets offered."""
    s = play(g, s, f"play {card_title}", f"{card_title} for operations", f"{kind} operation")
    return s, labels(g, s)


def vp(g, s):
    return g.var(s, "vp")


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


# ---- 76 Libyan civil war -----------------------------------------------------------------------


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
