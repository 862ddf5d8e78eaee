"""The Wall is Down as a newcomer meets it in a terminal (issue 10): an optional ability asks
by its name and what it does, and is declined by name; a move's label does not repeat the
seat that makes it; a card text (or a part of one) that cannot be applied says so
(rulebook 6.2.3: "If part of the text cannot be applied ..., the card can still be played,
being such part ignored")."""

from __future__ import annotations

import random

import pytest

from interpreter.cli.human import HumanAgent
from tests.twid_helpers import game, inf, labels, play, scenario

STATE_PROPAGANDA = (
    "China: use State propaganda? (NWO, one use: remove your supremacy token to add 1 influence"
    " in a country where you have the edge)"
)


# ---- optional abilities: the question and both answers name the ability -----------------------
def state_propaganda_offered():
    # Katrina resolves; the action is done and China, holding State propaganda and the
    # edge in Chile, may use it.
    return scenario(
        players=4,
        texts=[("china", "katrina")],
        influence={"china": {"chile": 2}},
        variables={"supremacy": {"state_propaganda": "china"}},
    )


def test_an_nwo_ability_is_offered_by_name_with_what_it_does_and_declined_by_name():
    g, s = state_propaganda_offered()
    assert g.current_player(s) == "china"
    assert g.prompt(s) == STATE_PROPAGANDA
    assert labels(g, s) == ["remove supremacy on State propaganda: add 1 influence", "don't use State propaganda"]
    declined = play(g, s, "don't use State propaganda")
    assert g.var(declined, "supremacy")["state_propaganda"] == "china"
    used = play(g, s, "remove supremacy on State propaganda: add 1 influence", "influence in Chile")
    assert g.var(used, "supremacy")["state_propaganda"] is None and inf(g, used, "china", "chile") == 3


def test_the_terminal_menu_asks_about_the_ability_not_your_move_or_pass():
    g, s = state_propaganda_offered()
    said = []
    answer = HumanAgent("china", ask=lambda _: "2", say=said.append, width=100).choose(g, s)
    assert answer == 1
    # The question names the seat once (the prompt starts with it), then the two answers.
    assert said[1:] == [
        f"\n{STATE_PROPAGANDA}:",
        "    1. remove supremacy on State propaganda: add 1 influence",
        "    2. don't use State propaganda",
    ]


def test_a_card_in_play_offers_its_ability_by_name_and_says_what_it_cancels():
    g, s = scenario(clear=True, texts=[("east", "fsb_creation"), ("west", "boris_yeltsin")])
    assert g.current_player(s) == "east"
    assert g.prompt(s) == (
        "East: use FSB creation to cancel the text of Boris Yeltsin?"
        " (remove FSB creation from the game to cancel a personality's text)"
    )
    assert labels(g, s) == [
        "remove FSB creation from the game: cancel the text of Boris Yeltsin",
        "don't use FSB creation",
    ]


def test_a_text_that_offers_a_choice_names_both_answers():
    # Immigrants: the edge holder negates it by losing 2 VP, or lets the influence in.
    g, s = scenario(
        players=4, clear=True, influence={"us": {"canada": 1}}, vp={"us": 3}, texts=[("china", "immigrants")]
    )
    s = play(g, s, "East influence in Canada")
    assert g.current_player(s) == "us"
    assert (
        g.prompt(s)
        == "US: negate Immigrants in Canada? (you have the edge there: lose 2 VP, or China adds 1 influence)"
    )
    assert labels(g, s) == [
        "lose 2 VP to negate Immigrants in Canada",
        "don't negate Immigrants: China adds 1 influence in Canada",
    ]


def test_the_solo_player_reads_whose_ability_it_is():
    # The solo player decides for every superpower: the labels name the one deciding.
    g, s = scenario(players=1, texts=[("russia", "fsb_creation"), ("us", "boris_yeltsin")])
    assert g.current_player(s) == "solo"
    assert g.prompt(s).startswith("Russia: use FSB creation to cancel the text of Boris Yeltsin?")
    assert labels(g, s) == [
        "Russia: remove FSB creation from the game: cancel the text of Boris Yeltsin",
        "Russia: don't use FSB creation",
    ]


@pytest.mark.parametrize(("players", "seeds"), [(4, range(1, 7)), (2, range(1, 4))])
def test_no_move_label_repeats_the_seat_that_makes_it(players, seeds):
    # `gamedef run --moves` and `gamedef play` print "SEAT: LABEL": a label starting with
    # the seat read "China: China: remove supremacy ...". Optional abilities must be met.
    g = game()
    abilities = 0
    for seed in seeds:
        rnd = random.Random(seed)
        s = g.start(players=players, seed=seed)
        while not g.is_over(s):
            title = g.seat_title(g.current_player(s))
            moves = labels(g, s)
            assert "pass" not in moves, (g.prompt(s), moves)
            assert not any(m.startswith(f"{title}:") for m in moves), moves
            abilities += any(m.startswith("don't use ") for m in moves)
            s = g.apply_index(s, rnd.randrange(len(moves)))
    assert abilities > 10


# ---- texts that cannot be applied say so ---------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "line"),
    [
        ("khobar_towers_attack", "Khobar towers attack: no effect — no West influence in Saudi Arabia to remove"),
        ("black_monday", "Black Monday: no effect — no NWO economy slot is held by West"),
        (
            "color_revolution",
            "Color revolution: no effect — no East influence in Caucasus States, Ukraine, Balkan States"
            " or Stan States to remove",
        ),
        ("embassy_asylum", "Embassy asylum: no effect — no personality in the discard pile can be played for its text"),
        ("the_mother_of_all_wars", "The mother of all wars: no effect — East has no country to destabilize"),
        (
            "arab_spring",
            "Arab Spring: no effect — no West influence in Egypt, Tunisia, Morocco, Saudi Arabia or Gulf States"
            " to remove",
        ),
        ("alba", "ALBA: no effect — no West influence in Venezuela, Ecuador, Bolivia, Cuba or Honduras to remove"),
    ],
)
def test_a_text_with_nothing_to_act_on_says_it_has_no_effect(card, line):
    g, s = scenario(clear=True, texts=[("east", card)])
    assert g.is_over(s)
    narration = g.narrate(s)
    assert narration[0].startswith("East resolves the text of ")
    assert line in narration
    # The line follows the text it resolves.
    assert narration.index(line) == 1


def test_a_text_that_applies_says_no_no_effect():
    g, s = scenario(clear=True, influence={"west": {"saudi_arabia": 2}}, texts=[("east", "khobar_towers_attack")])
    assert inf(g, s, "west", "saudi_arabia") == 1
    assert not any("no effect" in line for line in g.narrate(s))


def test_a_part_of_a_text_that_cannot_be_applied_is_said_ignored():
    g, s = scenario(clear=True, texts=[("east", "hezbollah")])
    assert "Hezbollah: South Lebanon Conflict is not in play; that part of the text is ignored" in g.narrate(s)
    assert "hezbollah" in g.var(s, "in_play")
    # Fall of the Berlin Wall: no Russian influence to remove; the rest applies.
    g, s = scenario(clear=True, texts=[("east", "fall_of_the_berlin_wall")])
    narration = g.narrate(s)
    assert narration[1:3] == ["East has no influence in Germany to lose", "West adds 1 influence in Germany (now 1)"]
    # Yugoslav wars: the EU already has the edge in Balkan states.
    g, s = scenario(
        clear=True, influence={"west": {"balkan_states": 1}}, vp={"west": 2}, texts=[("east", "yugoslav_wars")]
    )
    assert "West already has the edge in Balkan States" in g.narrate(s) and inf(g, s, "west", "balkan_states") == 1
    # Chechen wars, played by the West: Russia's influence is removed until it has no edge.
    g, s = scenario(clear=True, texts=[("west", "chechen_wars", "west", "ops_use")])
    assert "East does not have the edge in Caucasus States" in g.narrate(s)


def test_the_superpower_nobody_plays_gains_and_loses_no_vp_and_the_narration_says_so():
    # Three players: the EU is static. Yugoslav wars: "EU loses 1VP".
    g, s = scenario(players=3, clear=True, texts=[("russia", "yugoslav_wars")])
    assert "EU loses no VP: nobody plays it" in g.narrate(s)


# ---- the header phase: a header chosen lies face down, and the view says so ------------------
def test_a_header_chosen_face_down_is_shown_as_chosen_never_by_name():
    from interpreter.runtime.render import render

    g = game()
    s = g.start(players=4, seed=3)
    assert g.current_player(s) == "us"
    while g.current_player(s) != "china":  # US, EU and Russia choose their headers
        s = play(g, s, labels(g, s)[0])
    lines = render(g, s, "china").splitlines()
    at = lines.index("Header cards:")
    assert lines[at + 1 : at + 4] == [
        "    US: chosen, face down",
        "    EU: chosen, face down",
        "    Russia: chosen, face down",
    ]
    assert lines[at + 4] == "Cards in hand:"  # China has not chosen
