"""Missiles, Now!: one scripted scenario per rule and per item option (rules/missiles_now.md).

Each test names the rulebook section (or help-sheet item) it checks in its docstring. Dice
are pinned (`pins`: three dice per collection, then any re-rolls, in the order rolled) and
sheets are set with `with_var` at a decision that comes before the rule being checked, so
every assertion is about the marks, complete boxes, active boxes and winner the rules say.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from repo_paths import ROOT

from interpreter import load_game
from interpreter.core.errors import GameRuntimeError

GAME = ROOT / "gamedefs" / "missiles_now.game"

ITEMS = (
    "missile",
    "missile_crisis",
    "space_race",
    "berlin_wall",
    "propaganda",
    "espionage",
    "counterintelligence",
    "red_telephone",
    "russian_roulette",
    "doomsday_clock",
)
TITLE = {
    "missile": "Missile",
    "missile_crisis": "Missile Crisis",
    "space_race": "Space Race",
    "berlin_wall": "Berlin Wall",
    "propaganda": "Propaganda",
    "espionage": "Espionage",
    "counterintelligence": "Counterintelligence",
    "red_telephone": "Red Telephone",
    "russian_roulette": "Russian Roulette",
    "doomsday_clock": "Doomsday Clock",
}
SPY_PARTS = "Espionage: swap the parts of two incomplete items of an opponent"
SPY_SWAP = "Espionage: swap one complete item with an opponent"
PHONE_PARTS = "Red Telephone: one part on each of three incomplete items"
PHONE_CLOCK = "Red Telephone: switch off an active Doomsday Clock"
ROULETTE_DELETE = "Russian Roulette: delete two complete items, then two collections"
ROULETTE_MISSILE = "Russian Roulette: give up a Missile and collect for a Missile"
CLOCK_START = "Doomsday Clock: activate its three boxes"
CLOCK_ADJUST = "Doomsday Clock: one box more or less on an active clock"

# Each preparation collection rolls 1, 2, 3 and marks 1 part of Berlin Wall (2 + 3).
PREP = (1, 2, 3)
PREP_MOVE = "parts 1, item 2+3"


@cache
def game(**options):
    return load_game(GAME, options=options)


def begin(players: int = 2, pins=(), **options):
    """The game after its preparation, at the first turn's collection decision.

    `pins` start with the first turn's three dice. The preparation's marks are left as they are.
    """
    g = game(**options)
    s = g.start(players=players, seed=1, pins=PREP * 2 * players + tuple(pins))
    for _ in range(2 * players):
        s = g.apply(s, PREP_MOVE)
    return g, s


def sheet(g, s, complete=None, parts=None, active=None):
    """Every sheet set to the given marks, everything else blank (including the first Missile)."""
    for name, given in (("complete", complete), ("parts", parts), ("active", active)):
        full = {p: dict.fromkeys(ITEMS, 0) for p in s.players}
        for p, marks in (given or {}).items():
            full[p].update(marks)
        s = g.with_var(s, name, full)
    return s


def at(g, s, name: str, player: str) -> dict:
    """One player's marks of one kind, only the non-zero ones."""
    return {i: v for i, v in g.var(s, name)[player].items() if v}


def play(g, s, *labels: str):
    for label in labels:
        s = g.apply(s, label)
    return s


def start(players=2, pins=(), first="parts 1, item 2+3", complete=None, parts=None, active=None, **options):
    """Begin, set the sheets, and make the first turn's collection with `first`."""
    g, s = begin(players, pins, **options)
    s = sheet(g, s, complete, parts, active)
    return g, g.apply(s, first)


# ---- Preparation ----------------------------------------------------------------------------------
def test_preparation_marks_the_first_missile_and_two_collections_each_in_seat_order():
    """Preparation: each player marks the first complete box of Missile, then rolls for collection
    twice; a collection's leftover parts carry on to the Missile's next line."""
    g = game()
    s = g.start(players=2, seed=1, pins=(1, 1, 4, 5, 1, 1, 2, 2, 3, 6, 6, 2, 1, 2, 3))
    assert s.pending.player == "usa"
    assert g.prompt(s) == (
        "USA: you roll 1, 1 and 4; which die marks the parts? The pair left gives the item: "
        "1+4 = 5 Berlin Wall, 1+1 = 2 Missile"
    )  # the seat once, and the item each pair selects, in the order of the moves
    assert g.labels(s) == ["parts 1, item 1+4", "parts 4, item 1+1"]
    assert g.var(s, "complete")["usa"]["missile"] == 1 and g.var(s, "complete")["ussr"]["missile"] == 1
    s = g.apply(s, "parts 4, item 1+1")
    assert s.pending.player == "usa"
    assert g.labels(s) == ["parts 5, item 1+1", "parts 1, item 5+1"]  # the two 1s are one choice
    s = g.apply(s, "parts 5, item 1+1")  # 4 + 5 parts: the second line completes, 4 parts on the third
    assert s.pending.player == "ussr"
    s = play(g, s, "parts 3, item 2+2")
    assert g.labels(s) == ["parts 6 (re-rolled to 1-5), item 6+2", "parts 2, item 6+6"]
    s = g.apply(s, "parts 2, item 6+6")
    assert s.pending.player == "usa"  # the first turn
    assert g.prompt(s).startswith("USA: you roll 1, 2 and 3;")
    assert at(g, s, "complete", "usa") == {"missile": 2}
    assert at(g, s, "parts", "usa") == {"missile": 4}
    assert at(g, s, "complete", "ussr") == {"missile": 1}
    assert at(g, s, "parts", "ussr") == {"space_race": 3, "doomsday_clock": 2}


def test_three_missiles_during_the_preparation_win_at_once():
    """Winning the game 1: three complete Missiles win, checked as soon as a sheet changes."""
    g = game()
    s = g.start(players=2, seed=1, pins=(5, 1, 1, 5, 1, 1))
    s = play(g, s, "parts 5, item 1+1", "parts 5, item 1+1")
    assert g.is_over(s) and g.result(s) == ("usa",)
    assert g.var(s, "complete")["usa"]["missile"] == 3
    assert s.decisions == 2


def test_the_superpower_takes_the_first_turn_and_play_passes_to_the_left():
    """Preparation: the winner of the last game (option `superpower`) becomes the Superpower and
    plays first; turns pass clockwise (seat order)."""
    turn = (4, 4, 1, 4, 4, 1)  # a collection, a search: 1 part of Espionage each
    g, s = begin(3, turn * 4, superpower="ussr")
    order = []
    for _ in range(4):
        order.append(s.pending.player)
        s = play(g, s, "parts 1, item 4+4", "search", "parts 1, item 4+4")
    assert order == ["ussr", "china", "usa", "ussr"]
    g, s = begin(3, turn)
    assert s.pending.player == "usa"  # by default the game owner, the first seat


def test_a_superpower_not_in_play_is_refused():
    """Preparation: the Superpower must be one of the players."""
    with pytest.raises(GameRuntimeError, match="does not play"):
        game(superpower="cuba").start(players=2, seed=1)


# ---- Collection -------------------------------------------------------------------------------------
def test_collection_offers_each_die_for_the_parts_and_marks_the_item_of_the_other_two():
    """Turn phases 1) Collection: two dice give the cost of an item, the third the parts."""
    g, s = begin(2, (3, 5, 2))
    s = sheet(g, s)
    assert g.labels(s) == ["parts 3, item 5+2", "parts 5, item 3+2", "parts 2, item 3+5"]
    s = g.apply(s, "parts 2, item 3+5")
    assert at(g, s, "parts", "usa") == {"espionage": 2}
    assert g.narrate(s)[-1] == "USA marks 2 parts of Espionage"
    assert g.labels(s) == ["search"]


def test_equal_dice_are_one_choice():
    """Turn phases 1) Collection: which die is which only matters by its value."""
    g, s = begin(2, (2, 2, 2))
    assert g.labels(s) == ["parts 2, item 2+2"]


def test_a_pair_summing_to_seven_is_rerolled_until_it_does_not():
    """Turn phases, Important: both dice of a pair summing to 7 are re-rolled until they do not."""
    g, s = begin(2, (3, 4, 5, 2, 5, 6, 6))
    s = sheet(g, s)
    s = g.apply(s, "parts 5, item 3+4")
    assert g.narrate(s) == [
        "USA rolls 3, 4 and 5: 5 for the parts, item 3 + 4 = 7, re-rolled",
        "USA re-rolls the pair: item 2 + 5 = 7, re-rolled",
        "USA re-rolls the pair: item 6 + 6 = 12, Doomsday Clock",
        "USA marks 5 parts of Doomsday Clock",
        "USA completes Doomsday Clock (1 of 1)",
    ]
    assert at(g, s, "complete", "usa") == {"doomsday_clock": 1}
    assert at(g, s, "parts", "usa") == {}


def test_a_six_on_the_parts_die_is_rerolled():
    """Turn phases, Important: a parts die showing 6 is rolled again until it does not. The
    prompt, the move and the narration say so: a 6 offered for the parts is no ordinary choice
    of six parts but the way to keep the other pair for the item (issue 10)."""
    g, s = begin(2, (6, 1, 2, 6, 3))
    s = sheet(g, s)
    assert g.prompt(s) == (
        "USA: you roll 6, 1 and 2; which die marks the parts? The pair left gives the item: "
        "1+2 = 3 Missile Crisis, 6+2 = 8 Espionage, 6+1 = 7 (re-rolled). A 6 never marks parts: "
        "choose the 6 for the parts to keep the other two dice for the item; the 6 is then "
        "re-rolled until it shows 1 to 5"
    )
    assert g.labels(s) == ["parts 6 (re-rolled to 1-5), item 1+2", "parts 1, item 6+2", "parts 2, item 6+1"]
    s = g.apply(s, "parts 6 (re-rolled to 1-5), item 1+2")
    assert g.narrate(s) == [
        "USA rolls 6, 1 and 2: 6 for the parts (a 6 never marks parts: re-rolled), item 1 + 2 = 3, Missile Crisis",
        "USA re-rolls the parts die: 6",
        "USA re-rolls the parts die: 3",
        "USA marks 3 parts of Missile Crisis",
    ]
    assert at(g, s, "parts", "usa") == {"missile_crisis": 3}


def test_a_completed_line_erases_its_parts_and_the_rest_starts_the_next_line():
    """Important (Elements): five parts complete an item: the parts are erased and the complete
    box checked; a new line begins once the previous is complete (leftover parts go on)."""
    g, s = start(
        pins=(4, 1, 1), first="parts 4, item 1+1", complete={"usa": {"missile": 1}}, parts={"usa": {"missile": 3}}
    )
    assert at(g, s, "complete", "usa") == {"missile": 2}
    assert at(g, s, "parts", "usa") == {"missile": 2}
    assert "USA completes Missile (2 of 3)" in g.narrate(s)


def test_parts_beyond_the_last_line_are_lost():
    """Important (Elements): a line whose complete box is checked takes no parts (interpretation:
    leftover parts with every complete box checked are lost)."""
    g, s = start(
        pins=(5, 4, 4), first="parts 5, item 4+4", complete={"usa": {"espionage": 2}}, parts={"usa": {"espionage": 4}}
    )
    assert at(g, s, "complete", "usa") == {"espionage": 3}
    assert at(g, s, "parts", "usa") == {}
    assert g.narrate(s)[-1] == "USA loses 4 parts: every Espionage line is complete"
    g, s = start(pins=(4, 2, 3), first="parts 4, item 2+3", complete={"usa": {"berlin_wall": 1}})
    assert at(g, s, "complete", "usa") == {"berlin_wall": 1}
    assert at(g, s, "parts", "usa") == {}
    g, s = start(pins=(4, 3, 3), first="parts 4, item 3+3", parts={"usa": {"propaganda": 3}})
    assert at(g, s, "complete", "usa") == {"propaganda": 1}
    assert at(g, s, "parts", "usa") == {}


def test_completing_a_third_missile_wins_at_once():
    """Winning the game 1: having three complete Missiles (after any collection)."""
    g, s = start(
        pins=(4, 1, 1), first="parts 4, item 1+1", complete={"usa": {"missile": 2}}, parts={"usa": {"missile": 1}}
    )
    assert g.is_over(s) and g.result(s) == ("usa",)
    assert at(g, s, "complete", "usa") == {"missile": 3}


# ---- Phase 2: Attack or Search; end of the turn ------------------------------------------------------
def test_only_items_whose_conditions_are_met_are_offered():
    """Turn phases a) Attack: check every condition before playing; Counterintelligence is never
    played in its owner's turn; Propaganda needs an opponent with complete items; Space Race an
    item with three parts (Special rules: Opponent Effectiveness; a play by mistake is never offered)."""
    usa = {
        "missile": 1,
        "missile_crisis": 1,
        "space_race": 1,
        "berlin_wall": 1,
        "propaganda": 1,
        "counterintelligence": 1,
    }
    g, s = start(pins=(1, 2, 3), complete={"usa": usa})
    assert g.prompt(s) == "USA: attack with a complete item, or search"
    assert g.labels(s) == ["play Missile", "play Missile Crisis", "play Berlin Wall", "search"]


def test_search_is_a_second_collection_then_the_turn_ends():
    """Turn phases b) Search: a second collection; then the next player's turn."""
    g, s = start(pins=(1, 2, 3, 2, 4, 4, 5, 5, 5))
    s = g.apply(s, "search")
    assert s.pending.player == "usa" and g.prompt(s).startswith("USA: you roll 2, 4 and 4;")
    s = g.apply(s, "parts 2, item 4+4")
    assert at(g, s, "parts", "usa") == {"berlin_wall": 1, "espionage": 2}
    assert s.pending.player == "ussr" and g.prompt(s).startswith("USSR: you roll 5, 5 and 5;")


def test_end_of_turn_keeps_seven_complete_items_chosen_by_the_player():
    """End of the turn: at most 7 complete item marks; the player erases the excess, keeping the
    ones they want."""
    usa = {"missile": 2, "space_race": 3, "espionage": 3, "red_telephone": 1}
    g, s = start(pins=(1, 2, 3, 1, 2, 3, 4, 4, 4), complete={"usa": usa})
    s = g.apply(s, "search")
    s = g.apply(s, "parts 1, item 2+3")
    assert s.pending.player == "usa" and g.prompt(s) == "USA: you have 9 complete items; keep 7"
    assert g.labels(s) == [
        "erase a complete Missile",
        "erase a complete Space Race",
        "erase a complete Espionage",
        "erase a complete Red Telephone",
    ]
    s = g.apply(s, "erase a complete Espionage")
    assert g.prompt(s) == "USA: you have 8 complete items; keep 7"
    s = g.apply(s, "erase a complete Red Telephone")
    assert at(g, s, "complete", "usa") == {"missile": 2, "space_race": 3, "espionage": 2}
    assert s.pending.player == "ussr"


# ---- Missile ----------------------------------------------------------------------------------------
def test_missile_rolls_for_collection_then_plays_one_additional_item():
    """Missile: roll for collection, then play one additional complete item (Golden rule: a
    second item this turn)."""
    g, s = start(pins=(1, 2, 3, 3, 1, 1), complete={"usa": {"missile": 1, "berlin_wall": 1}})
    assert g.labels(s) == ["play Missile", "play Berlin Wall", "search"]
    s = g.apply(s, "play Missile")
    assert at(g, s, "complete", "usa") == {"berlin_wall": 1}  # the played Missile's box is erased
    s = g.apply(s, "parts 3, item 1+1")
    assert at(g, s, "parts", "usa") == {"missile": 3}
    assert g.prompt(s) == "Missile: play one additional complete item"
    assert g.labels(s) == ["play Berlin Wall", "play no additional item"]
    s = g.apply(s, "play Berlin Wall")
    assert at(g, s, "complete", "usa") == {}
    assert at(g, s, "active", "usa") == {"berlin_wall": 1}
    assert s.pending.player == "ussr"


def test_missile_additional_item_may_be_declined():
    """Missile (interpretation): the additional item is a bonus the player may decline."""
    g, s = start(pins=(1, 2, 3, 3, 1, 1), complete={"usa": {"missile": 2, "berlin_wall": 1}})
    s = play(g, s, "play Missile", "parts 3, item 1+1", "play no additional item")
    assert at(g, s, "complete", "usa") == {"missile": 1, "berlin_wall": 1}
    assert at(g, s, "active", "usa") == {}
    assert s.pending.player == "ussr"


def test_missile_collection_then_missile_crisis_reaches_three_missiles_and_wins():
    """Missile: collection, then an additional item; with three complete Missiles you win."""
    usa = {"missile": 2, "missile_crisis": 1, "berlin_wall": 1, "red_telephone": 1}
    g, s = start(pins=(1, 2, 3, 5, 1, 1), complete={"usa": usa})
    s = play(g, s, "play Missile", "parts 5, item 1+1")
    assert at(g, s, "complete", "usa")["missile"] == 2  # 2 - 1 played + 1 collected
    assert not g.is_over(s)
    assert g.labels(s) == [
        "play Missile",
        "play Missile Crisis",
        "play Berlin Wall",
        "play Red Telephone",
        "play no additional item",
    ]
    s = play(g, s, "play Missile Crisis", "delete a complete Berlin Wall", "delete a complete Red Telephone")
    assert g.is_over(s) and g.result(s) == ("usa",)
    assert at(g, s, "complete", "usa") == {"missile": 3}


# ---- Missile Crisis ------------------------------------------------------------------------------------
def test_missile_crisis_deletes_two_items_and_completes_a_missile():
    """Missile Crisis: delete two complete items of your sheet, then complete one Missile (its
    parts are erased and its complete box checked)."""
    usa = {"missile_crisis": 1, "berlin_wall": 1, "red_telephone": 1, "missile": 1}
    g, s = start(pins=(1, 2, 3), complete={"usa": usa}, parts={"usa": {"missile": 3}})
    s = g.apply(s, "play Missile Crisis")
    assert g.prompt(s) == "delete a complete item (1 of 2)"
    assert g.labels(s) == [
        "delete a complete Missile",
        "delete a complete Berlin Wall",
        "delete a complete Red Telephone",
    ]
    s = play(g, s, "delete a complete Berlin Wall", "delete a complete Red Telephone")
    assert at(g, s, "complete", "usa") == {"missile": 2}
    assert at(g, s, "parts", "usa") == {}
    assert s.pending.player == "ussr"


def test_missile_crisis_needs_two_other_complete_items():
    """Missile Crisis: two complete items must be there to delete (its own box is erased first)."""
    g, s = start(pins=(1, 2, 3), complete={"usa": {"missile_crisis": 1, "missile": 1}})
    assert "play Missile Crisis" not in g.labels(s)


# ---- Space Race -----------------------------------------------------------------------------------------
def test_space_race_completes_an_item_with_three_parts_and_plays_it():
    """Space Race: an incomplete item with at least three parts, except Missile, Space Race and
    Counterintelligence, is completed and played (its new box erased as it is played)."""
    parts = {
        "missile": 4,
        "space_race": 3,
        "berlin_wall": 3,
        "propaganda": 4,
        "counterintelligence": 4,
        "red_telephone": 3,
        "doomsday_clock": 2,
    }
    g, s = start(pins=(4, 4, 1), first="parts 1, item 4+4", complete={"usa": {"space_race": 2}}, parts={"usa": parts})
    assert g.labels(s) == ["play Space Race", "search"]
    s = g.apply(s, "play Space Race")
    assert g.prompt(s) == "Space Race: which item do you complete and play?"
    # Propaganda has no opponent with complete items to exchange with: it could not be played
    assert g.labels(s) == ["complete and play Berlin Wall", "complete and play Red Telephone"]
    s = g.apply(s, "complete and play Berlin Wall")
    assert at(g, s, "complete", "usa") == {"space_race": 1}
    assert at(g, s, "active", "usa") == {"berlin_wall": 1}
    assert g.var(s, "parts")["usa"]["berlin_wall"] == 0
    assert g.var(s, "parts")["usa"]["espionage"] == 1
    assert s.pending.player == "ussr"


def test_space_race_is_not_offered_without_a_target():
    """Space Race: without an eligible item with three parts it cannot be played."""
    parts = {"missile": 4, "space_race": 4, "counterintelligence": 4, "berlin_wall": 2}
    g, s = start(pins=(4, 4, 1), first="parts 1, item 4+4", complete={"usa": {"space_race": 1}}, parts={"usa": parts})
    assert g.labels(s) == ["search"]


# ---- Berlin Wall ---------------------------------------------------------------------------------------
def test_berlin_wall_protects_its_owner_until_the_start_of_their_next_turn():
    """Berlin Wall: while active, Propaganda, Espionage, Red Telephone and Doomsday Clock cannot
    affect its owner (Opponent Effectiveness); it is deactivated at the beginning of the owner's
    next turn, before the collection (Golden rule: active after the end of the turn)."""
    ussr = {
        "missile": 1,
        "propaganda": 1,
        "espionage": 1,
        "red_telephone": 1,
        "doomsday_clock": 1,
    }
    g, s = start(
        pins=(4, 4, 1, 1, 2, 3, 4, 4, 1),
        first="parts 1, item 4+4",
        complete={"usa": {"berlin_wall": 1, "missile": 2}, "ussr": ussr},
        parts={"usa": {"space_race": 2, "doomsday_clock": 1}},
        active={"usa": {"doomsday_clock": 3}},
    )
    assert at(g, s, "active", "usa") == {"doomsday_clock": 3}  # set after this turn's countdown
    s = g.apply(s, "play Berlin Wall")
    assert at(g, s, "active", "usa") == {"berlin_wall": 1, "doomsday_clock": 3}
    assert s.pending.player == "ussr"
    s = g.apply(s, "parts 1, item 2+3")
    # no Propaganda or Espionage against usa; Red Telephone only for its parts; no clock to adjust
    assert g.labels(s) == [
        "play Missile",
        "play Red Telephone",
        "play Doomsday Clock",
        "search",
    ]
    s = g.apply(s, "play Red Telephone")
    assert g.labels(s) == [PHONE_PARTS]
    s = play(g, s, PHONE_PARTS, "1 part on Missile", "1 part on Missile Crisis", "1 part on Space Race")
    assert s.pending.player == "usa"
    lines = g.narrate(s)
    assert lines.index("USA's Berlin Wall is deactivated") < lines.index("USA's Doomsday Clock: 2 active boxes left")
    assert at(g, s, "active", "usa") == {"doomsday_clock": 2}


def test_an_opponent_behind_a_berlin_wall_cannot_be_aimed_at_others_can():
    """Special rules: Opponent Effectiveness: only opponents without an active Berlin Wall."""
    g, s = start(
        players=3,
        pins=(4, 4, 1),
        first="parts 1, item 4+4",
        complete={"usa": {"espionage": 1}},
        parts={"ussr": {"missile": 2, "berlin_wall": 1}, "china": {"missile": 3, "propaganda": 1}},
        active={"ussr": {"berlin_wall": 1}},
    )
    s = play(g, s, "play Espionage", SPY_PARTS)
    assert g.labels(s) == ["spy on China"]


def test_a_berlin_wall_already_active_is_not_played_again():
    """Berlin Wall (interpretation): an item whose active box is checked cannot be activated again."""
    g, s = start(pins=(1, 2, 3, 5, 2, 3), complete={"usa": {"missile": 1, "berlin_wall": 1}})
    s = play(g, s, "play Missile")
    s = g.with_var(s, "active", {"usa": {"berlin_wall": 1}})
    s = g.apply(s, "parts 5, item 2+3")
    assert g.labels(s) == ["play no additional item"]


# ---- Propaganda --------------------------------------------------------------------------------------
def test_propaganda_exchanges_two_items_chosen_by_each_side():
    """Propaganda: choose an opponent; exchange two complete items you choose with two complete
    items of theirs, which they choose."""
    g, s = start(
        pins=(1, 2, 3),
        complete={
            "usa": {"propaganda": 1, "missile": 1, "berlin_wall": 1, "space_race": 1},
            "ussr": {"missile": 1, "espionage": 2, "red_telephone": 1},
        },
    )
    s = g.apply(s, "play Propaganda")
    assert g.labels(s) == ["propaganda against USSR"]
    s = g.apply(s, "propaganda against USSR")
    assert g.labels(s) == ["give Missile", "give Space Race", "give Berlin Wall"]
    s = play(g, s, "give Berlin Wall")
    assert g.labels(s) == ["give Missile", "give Space Race"]
    s = g.apply(s, "give Space Race")
    assert s.pending.player == "ussr"
    assert g.labels(s) == ["give Missile", "give Espionage", "give Red Telephone"]
    s = g.apply(s, "give Espionage")
    assert g.labels(s) == ["give Missile", "give Espionage", "give Red Telephone"]
    s = g.apply(s, "give Espionage")
    assert at(g, s, "complete", "usa") == {"missile": 1, "espionage": 2}
    assert at(g, s, "complete", "ussr") == {"missile": 1, "space_race": 1, "berlin_wall": 1, "red_telephone": 1}
    assert s.pending.player == "ussr" and "you roll" in g.prompt(s)  # no Counterintelligence: next turn


def test_propaganda_offers_only_exchanges_that_fit_both_sheets():
    """Propaganda (interpretation): a received item needs a free complete box; only exchanges
    where both sheets can take what they receive are offered, to both players."""
    g, s = start(
        pins=(1, 2, 3),
        complete={
            "usa": {"propaganda": 1, "espionage": 2, "berlin_wall": 1, "red_telephone": 1},
            "ussr": {"berlin_wall": 1, "red_telephone": 1},
        },
    )
    s = play(g, s, "play Propaganda", "propaganda against USSR")
    # giving Espionage would bring back a second Berlin Wall or Red Telephone to usa
    assert g.labels(s) == ["give Berlin Wall", "give Red Telephone"]
    s = g.apply(s, "give Red Telephone")
    assert g.labels(s) == ["give Berlin Wall"]
    g, s = start(
        pins=(1, 2, 3),
        complete={
            "usa": {"propaganda": 1, "berlin_wall": 1, "missile": 1},
            "ussr": {"berlin_wall": 1, "missile": 1, "espionage": 1},
        },
    )
    s = play(g, s, "play Propaganda", "propaganda against USSR", "give Missile", "give Berlin Wall")
    assert g.labels(s) == ["give Missile", "give Berlin Wall", "give Espionage"]
    s = g.apply(s, "give Missile")
    assert g.labels(s) == ["give Berlin Wall"]  # ussr cannot keep its own Berlin Wall and take usa's
    s = g.apply(s, "give Berlin Wall")
    assert at(g, s, "complete", "usa") == {"missile": 1, "berlin_wall": 1}
    assert at(g, s, "complete", "ussr") == {"missile": 1, "berlin_wall": 1, "espionage": 1}


def test_propaganda_needs_an_opponent_with_two_complete_items():
    """Propaganda: the opponent must have two complete items to exchange."""
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"propaganda": 1, "missile": 1, "berlin_wall": 1}, "ussr": {"missile": 1}},
    )
    assert "play Propaganda" not in g.labels(s)


def test_a_received_item_filling_the_last_box_erases_that_lines_parts():
    """Propaganda / Espionage (interpretation): an item received on the line being filled checks
    its complete box, and that line's parts are erased."""
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"espionage": 1, "doomsday_clock": 1}, "ussr": {"red_telephone": 1}},
        parts={"ussr": {"doomsday_clock": 3}},
    )
    s = play(g, s, "play Espionage", SPY_SWAP, "spy on USSR", "give Doomsday Clock", "take USSR's Red Telephone")
    assert at(g, s, "complete", "ussr") == {"doomsday_clock": 1}
    assert at(g, s, "parts", "ussr") == {}
    assert at(g, s, "complete", "usa") == {"red_telephone": 1}


# ---- Espionage ------------------------------------------------------------------------------------------
def test_espionage_first_option_swaps_the_parts_of_two_items_of_an_opponent():
    """Espionage, first option: exchange the values of two incomplete items with at least one part
    on one opponent's sheet."""
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"espionage": 1}},
        parts={"ussr": {"missile": 4, "doomsday_clock": 1, "berlin_wall": 2}},
    )
    s = g.apply(s, "play Espionage")
    assert g.prompt(s) == "Espionage: choose one option"
    assert g.labels(s) == [SPY_PARTS]  # usa has no complete item left to exchange
    s = play(g, s, SPY_PARTS, "spy on USSR")
    assert g.labels(s) == [
        "exchange the parts of USSR's Missile",
        "exchange the parts of USSR's Berlin Wall",
        "exchange the parts of USSR's Doomsday Clock",
    ]
    s = g.apply(s, "exchange the parts of USSR's Missile")
    assert g.labels(s) == ["with the parts of USSR's Berlin Wall", "with the parts of USSR's Doomsday Clock"]
    s = g.apply(s, "with the parts of USSR's Doomsday Clock")
    assert at(g, s, "parts", "ussr") == {"missile": 1, "berlin_wall": 2, "doomsday_clock": 4}
    assert at(g, s, "complete", "usa") == {}
    assert g.narrate(s)[-2:] == [
        "USA spies on USSR, to exchange the parts of Missile (4 parts) and Doomsday Clock (1 part)",
        "USSR now has 1 part on Missile and 4 on Doomsday Clock",
    ]


def test_espionage_never_exchanges_what_would_change_nothing():
    """Espionage: exchanging two items with as many parts, or an item for a box of the same item,
    changes nothing; neither is offered (our reading), so an Espionage with nothing else to do is
    not offered at all."""
    g, s = start(pins=(1, 2, 3), complete={"usa": {"espionage": 1}}, parts={"ussr": {"missile": 2, "berlin_wall": 2}})
    assert "play Espionage" not in g.labels(s)
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"espionage": 1}},
        parts={"ussr": {"missile": 2, "berlin_wall": 2, "doomsday_clock": 3}},
    )
    s = play(g, s, "play Espionage", SPY_PARTS, "spy on USSR")
    assert len(g.labels(s)) == 3  # each has a partner with other parts: the Doomsday Clock
    s = g.apply(s, "exchange the parts of USSR's Missile")
    assert g.labels(s) == ["with the parts of USSR's Doomsday Clock"]  # not the Berlin Wall, also 2
    g, s = start(pins=(1, 2, 3), complete={"usa": {"espionage": 2}, "ussr": {"espionage": 1}})
    assert "play Espionage" not in g.labels(s)  # only Espionage for Espionage


def test_espionage_second_option_exchanges_one_complete_item_each_chosen_by_the_spy():
    """Espionage, second option: choose an opponent; exchange one complete item of yours with one
    of theirs, both chosen by you; a Berlin Wall the opponent already has cannot be given."""
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"espionage": 2, "berlin_wall": 1}, "ussr": {"berlin_wall": 1, "doomsday_clock": 1}},
    )
    s = g.apply(s, "play Espionage")
    assert g.labels(s) == [SPY_SWAP]
    s = play(g, s, SPY_SWAP, "spy on USSR")
    # the Berlin Wall could only go for USSR's Berlin Wall (USSR has no room for a second one),
    # an exchange that changes nothing: it is not offered
    assert g.labels(s) == ["give Espionage"]
    s = g.apply(s, "give Espionage")
    assert g.labels(s) == ["take USSR's Doomsday Clock"]  # usa has no room for a second Berlin Wall
    s = g.apply(s, "take USSR's Doomsday Clock")
    assert at(g, s, "complete", "usa") == {"berlin_wall": 1, "doomsday_clock": 1}
    assert at(g, s, "complete", "ussr") == {"berlin_wall": 1, "espionage": 1}


def test_espionage_taking_a_third_missile_wins():
    """Winning the game, Important: with two Missiles and an Espionage, taking a third Missile from
    an opponent wins the game."""
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"espionage": 1, "missile": 2, "berlin_wall": 1}, "ussr": {"missile": 1, "red_telephone": 1}},
    )
    s = play(g, s, "play Espionage", SPY_SWAP, "spy on USSR", "give Berlin Wall", "take USSR's Missile")
    assert g.is_over(s) and g.result(s) == ("usa",)
    assert at(g, s, "complete", "usa") == {"missile": 3}
    assert at(g, s, "complete", "ussr") == {"berlin_wall": 1, "red_telephone": 1}


# ---- Counterintelligence ---------------------------------------------------------------------------------
def test_counterintelligence_cancels_espionage_then_its_player_rolls_for_collection():
    """Counterintelligence: played in an opponent's turn, it cancels one Espionage; then its player
    rolls for collection (Golden rule: an item played out of turn)."""
    g, s = start(
        pins=(1, 2, 3, 3, 4, 4),
        complete={"usa": {"espionage": 1, "berlin_wall": 1}, "ussr": {"missile": 1, "counterintelligence": 1}},
    )
    s = play(g, s, "play Espionage", SPY_SWAP, "spy on USSR", "give Berlin Wall", "take USSR's Missile")
    assert s.pending.player == "ussr"
    assert g.labels(s) == ["cancel USA's Espionage with Counterintelligence", "pass"]
    s = g.apply(s, "cancel USA's Espionage with Counterintelligence")
    assert s.pending.player == "ussr" and g.prompt(s).startswith("USSR: you roll 3, 4 and 4;")
    s = g.apply(s, "parts 3, item 4+4")
    assert at(g, s, "complete", "usa") == {"berlin_wall": 1}  # the Espionage is spent, nothing exchanged
    assert at(g, s, "complete", "ussr") == {"missile": 1}
    assert at(g, s, "parts", "ussr") == {"espionage": 3}
    assert s.pending.player == "ussr" and g.prompt(s).startswith("USSR: you roll")  # ussr's own turn


def test_counterintelligence_passed_lets_the_espionage_resolve():
    """Counterintelligence: only if its holder plays it."""
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"espionage": 1, "berlin_wall": 1}, "ussr": {"missile": 1, "counterintelligence": 1}},
    )
    s = play(g, s, "play Espionage", SPY_SWAP, "spy on USSR", "give Berlin Wall", "take USSR's Missile", "pass")
    assert at(g, s, "complete", "usa") == {"missile": 1}
    assert at(g, s, "complete", "ussr") == {"berlin_wall": 1, "counterintelligence": 1}


def test_counterintelligence_is_offered_clockwise_and_the_first_to_accept_cancels_propaganda():
    """Counterintelligence: any opponent of the active player holding it may cancel a Propaganda
    (interpretation: offered clockwise from the active player once the exchange is declared)."""
    g, s = start(
        players=3,
        pins=(1, 2, 3, 2, 2, 2),
        complete={
            "usa": {"propaganda": 1, "missile": 1, "berlin_wall": 1},
            "ussr": {"missile": 1, "red_telephone": 1, "counterintelligence": 1},
            "china": {"counterintelligence": 1},
        },
    )
    s = play(g, s, "play Propaganda")
    assert g.labels(s) == ["propaganda against USSR"]  # china has one complete item only
    s = play(g, s, "propaganda against USSR", "give Missile", "give Berlin Wall", "give Missile", "give Red Telephone")
    assert s.pending.player == "ussr"
    assert g.labels(s) == ["cancel USA's Propaganda with Counterintelligence", "pass"]
    s = g.apply(s, "pass")
    assert s.pending.player == "china"
    s = g.apply(s, "cancel USA's Propaganda with Counterintelligence")
    s = g.apply(s, "parts 2, item 2+2")
    assert at(g, s, "complete", "usa") == {"missile": 1, "berlin_wall": 1}
    assert at(g, s, "complete", "ussr") == {"missile": 1, "red_telephone": 1, "counterintelligence": 1}
    assert at(g, s, "complete", "china") == {}
    assert at(g, s, "parts", "china") == {"space_race": 2}
    assert s.pending.player == "ussr"


def test_a_counterintelligence_collection_can_win_in_an_opponents_turn():
    """Counterintelligence + Winning the game 1: a third Missile completed by the reacting player's
    collection wins at once, in the opponent's turn."""
    g, s = start(
        pins=(1, 2, 3, 1, 1, 1),
        complete={"usa": {"espionage": 1, "berlin_wall": 1}, "ussr": {"missile": 2, "counterintelligence": 1}},
        parts={"ussr": {"missile": 4}},
    )
    s = play(g, s, "play Espionage", SPY_SWAP, "spy on USSR", "give Berlin Wall", "take USSR's Missile")
    s = play(g, s, "cancel USA's Espionage with Counterintelligence", "parts 1, item 1+1")
    assert g.is_over(s) and g.result(s) == ("ussr",)
    assert at(g, s, "complete", "ussr") == {"missile": 3}


def test_the_seven_item_limit_applies_to_the_reacting_player_at_the_end_of_the_turn():
    """End of the turn (interpretation): every sheet is brought back to 7 complete items, the
    active player first; a Counterintelligence collection can push another player over."""
    ussr = {"counterintelligence": 1, "missile": 2, "space_race": 3, "espionage": 2}
    g, s = start(
        pins=(1, 2, 3, 1, 6, 6),
        complete={"usa": {"espionage": 1, "berlin_wall": 1}, "ussr": ussr},
        parts={"ussr": {"doomsday_clock": 4}},
    )
    s = play(g, s, "play Espionage", SPY_SWAP, "spy on USSR", "give Berlin Wall", "take USSR's Missile")
    s = play(g, s, "cancel USA's Espionage with Counterintelligence", "parts 1, item 6+6")
    assert s.pending.player == "ussr" and g.prompt(s) == "USSR: you have 8 complete items; keep 7"
    s = g.apply(s, "erase a complete Space Race")
    assert at(g, s, "complete", "ussr") == {"missile": 2, "space_race": 2, "espionage": 2, "doomsday_clock": 1}
    assert s.pending.player == "ussr" and g.prompt(s).startswith("USSR: you roll")


# ---- Red Telephone ----------------------------------------------------------------------------------------
def test_red_telephone_first_option_marks_one_part_on_three_different_incomplete_items():
    """Red Telephone, first option: collect three parts into three different incomplete items (an
    item with all its complete boxes checked is not incomplete; a fifth part completes it)."""
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"red_telephone": 1, "berlin_wall": 1}},
        parts={"usa": {"missile": 4}},
    )
    s = g.apply(s, "play Red Telephone")
    assert g.labels(s) == [PHONE_PARTS]  # no active Doomsday Clock anywhere
    s = g.apply(s, PHONE_PARTS)
    assert g.prompt(s) == "Red Telephone: part 1 of 3"
    everything_but_the_wall = [f"1 part on {TITLE[i]}" for i in ITEMS if i != "berlin_wall"]
    assert g.labels(s) == everything_but_the_wall  # Red Telephone itself is incomplete again
    s = g.apply(s, "1 part on Missile")
    assert g.narrate(s) == ["USA marks 1 part of Missile (Red Telephone)", "USA completes Missile (1 of 3)"]
    assert g.labels(s) == [x for x in everything_but_the_wall if x != "1 part on Missile"]
    s = play(g, s, "1 part on Red Telephone", "1 part on Doomsday Clock")
    assert at(g, s, "complete", "usa") == {"missile": 1, "berlin_wall": 1}
    assert at(g, s, "parts", "usa") == {"red_telephone": 1, "doomsday_clock": 1}


def test_red_telephone_second_option_switches_off_an_active_doomsday_clock():
    """Red Telephone, second option: deactivate one active Doomsday Clock (the owner's own too; an
    opponent behind a Berlin Wall is protected)."""
    g, s = begin(3, (1, 2, 3))
    s = sheet(
        g,
        s,
        complete={"usa": {"red_telephone": 1}},
        active={
            "usa": {"doomsday_clock": 3},
            "ussr": {"doomsday_clock": 2},
            "china": {"doomsday_clock": 3, "berlin_wall": 1},
        },
    )
    s = play(g, s, "parts 1, item 2+3", "play Red Telephone")
    assert g.labels(s) == [PHONE_PARTS, PHONE_CLOCK]
    s = g.apply(s, PHONE_CLOCK)
    assert g.labels(s) == ["USA's Doomsday Clock", "USSR's Doomsday Clock"]
    s = g.apply(s, "USSR's Doomsday Clock")
    assert g.var(s, "active")["ussr"]["doomsday_clock"] == 0
    assert g.var(s, "active")["usa"]["doomsday_clock"] == 3
    assert g.var(s, "active")["china"]["doomsday_clock"] == 3


# ---- Russian Roulette -------------------------------------------------------------------------------------
def test_russian_roulette_first_option_deletes_two_items_then_two_collections():
    """Russian Roulette, first option: delete two complete items, then roll for collection twice."""
    g, s = start(
        pins=(1, 2, 3, 4, 4, 2, 3, 3, 3),
        complete={"usa": {"russian_roulette": 1, "berlin_wall": 1, "missile": 1}},
    )
    s = g.apply(s, "play Russian Roulette")
    assert g.labels(s) == [ROULETTE_DELETE, ROULETTE_MISSILE]
    s = play(g, s, ROULETTE_DELETE, "delete a complete Missile", "delete a complete Berlin Wall")
    assert at(g, s, "complete", "usa") == {}
    s = play(g, s, "parts 2, item 4+4", "parts 3, item 3+3")
    assert at(g, s, "parts", "usa") == {"espionage": 2, "propaganda": 3}
    assert s.pending.player == "ussr"


def test_russian_roulette_first_option_needs_two_other_complete_items():
    """Russian Roulette, first option: two complete items must be there to delete."""
    g, s = start(pins=(1, 2, 3), complete={"usa": {"russian_roulette": 1, "berlin_wall": 1}})
    s = g.apply(s, "play Russian Roulette")
    assert g.labels(s) == [ROULETTE_MISSILE]


def test_russian_roulette_second_option_wins_by_completing_a_missile():
    """Russian Roulette, second option: erase a complete Missile, roll for collection; completing a
    Missile wins (Winning the game 3)."""
    g, s = start(
        pins=(1, 2, 3, 2, 1, 1),
        complete={"usa": {"russian_roulette": 1, "missile": 1}},
        parts={"usa": {"missile": 3}},
    )
    s = play(g, s, "play Russian Roulette", ROULETTE_MISSILE)
    assert at(g, s, "complete", "usa") == {}  # the Missile is erased first
    s = g.apply(s, "parts 2, item 1+1")
    assert g.is_over(s) and g.result(s) == ("usa",)
    assert at(g, s, "complete", "usa") == {"missile": 1}


def test_russian_roulette_second_option_missing_ends_the_turn():
    """Russian Roulette, second option: otherwise the turn ends (the Missile stays erased)."""
    g, s = start(
        pins=(1, 2, 3, 2, 1, 1, 5, 5, 5),
        complete={"usa": {"russian_roulette": 1, "missile": 2}},
        parts={"usa": {"missile": 2}},
    )
    s = play(g, s, "play Russian Roulette", ROULETTE_MISSILE, "parts 2, item 1+1")
    assert not g.is_over(s)
    assert at(g, s, "complete", "usa") == {"missile": 1}
    assert at(g, s, "parts", "usa") == {"missile": 4, "berlin_wall": 1}
    assert g.narrate(s)[-1] == "USA misses: the turn ends"
    assert s.pending.player == "ussr"


def test_russian_roulette_second_option_without_a_missile_erases_nothing():
    """Russian Roulette, second option (interpretation): chosen without a Missile, nothing is erased."""
    g, s = start(pins=(1, 2, 3, 5, 1, 1), complete={"usa": {"russian_roulette": 1}})
    s = play(g, s, "play Russian Roulette", ROULETTE_MISSILE, "parts 5, item 1+1")
    assert g.is_over(s) and g.result(s) == ("usa",)


# ---- Doomsday Clock ---------------------------------------------------------------------------------------
def test_doomsday_clock_first_option_activates_three_boxes_once():
    """Doomsday Clock, first option: activate its three boxes; only one active clock per player."""
    g, s = start(pins=(1, 2, 3) * 4, complete={"usa": {"doomsday_clock": 1}})
    s = g.apply(s, "play Doomsday Clock")
    assert g.labels(s) == [CLOCK_START]
    s = g.apply(s, CLOCK_START)
    assert at(g, s, "active", "usa") == {"doomsday_clock": 3}
    s = play(g, s, "parts 1, item 2+3", "search", "parts 1, item 2+3")  # ussr's turn
    # usa's next turn: one box goes before the collection, and the turn goes on
    assert s.pending.player == "usa" and g.prompt(s).startswith("USA: you roll")
    assert "USA's Doomsday Clock: 2 active boxes left" in g.narrate(s)
    assert at(g, s, "active", "usa") == {"doomsday_clock": 2}
    s = g.with_var(s, "complete", {"usa": {"doomsday_clock": 1}})
    s = g.apply(s, "parts 1, item 2+3")
    s = g.apply(s, "play Doomsday Clock")
    assert g.labels(s) == [CLOCK_ADJUST]  # a second clock cannot be started


def test_doomsday_clock_second_option_moves_one_box_of_any_active_clock():
    """Doomsday Clock, second option: on an active clock, yours or an opponent's, activate or
    deactivate one box (a full clock can only lose one; taking the last box does not win)."""
    g, s = begin(2, (1, 2, 3))
    s = sheet(
        g,
        s,
        complete={"usa": {"doomsday_clock": 1, "missile": 1}, "ussr": {"missile": 1}},
        active={"usa": {"doomsday_clock": 3}, "ussr": {"doomsday_clock": 1}},
    )
    s = play(g, s, "parts 1, item 2+3", "play Doomsday Clock")
    assert g.labels(s) == [CLOCK_ADJUST]
    s = g.apply(s, CLOCK_ADJUST)
    assert g.labels(s) == ["USA's Doomsday Clock", "USSR's Doomsday Clock"]
    s = g.apply(s, "USA's Doomsday Clock")
    assert g.labels(s) == ["deactivate a box"]
    s = g.apply(s, "deactivate a box")
    assert g.var(s, "active")["usa"]["doomsday_clock"] == 2
    # then ussr's turn begins: its clock's last box goes, with a complete Missile on its sheet
    assert g.is_over(s) and g.result(s) == ("ussr",)
    g, s = begin(2, (1, 2, 3))
    s = sheet(
        g,
        s,
        complete={"usa": {"doomsday_clock": 1, "missile": 1}, "ussr": {"missile": 1}},
        active={"ussr": {"doomsday_clock": 1}},
    )
    s = play(g, s, "parts 1, item 2+3", "play Doomsday Clock")
    assert g.labels(s) == [CLOCK_START, CLOCK_ADJUST]
    s = play(g, s, CLOCK_ADJUST, "USSR's Doomsday Clock")
    assert g.labels(s) == ["activate a box", "deactivate a box"]
    s = g.apply(s, "deactivate a box")
    assert not g.is_over(s)
    assert g.var(s, "active")["ussr"]["doomsday_clock"] == 0
    g, s = begin(2, (1, 2, 3))
    s = sheet(g, s, complete={"usa": {"doomsday_clock": 1}}, active={"ussr": {"doomsday_clock": 2}})
    s = play(g, s, "parts 1, item 2+3", "play Doomsday Clock", CLOCK_ADJUST, "USSR's Doomsday Clock", "activate a box")
    lines = g.narrate(s)
    # 3 boxes, then ussr's own countdown takes one at the start of ussr's turn
    assert lines.index("Round 1: USA activates a box of USSR's Doomsday Clock: 3 active boxes") < lines.index(
        "USSR's Doomsday Clock: 2 active boxes left"
    )
    assert g.var(s, "active")["ussr"]["doomsday_clock"] == 2 and s.pending.player == "ussr"


def test_doomsday_clock_of_an_opponent_behind_a_berlin_wall_cannot_be_touched():
    """Berlin Wall: cancels the Doomsday Clock effects that would affect its owner."""
    g, s = begin(2, (1, 2, 3))
    s = sheet(
        g,
        s,
        complete={"usa": {"doomsday_clock": 1}},
        active={"usa": {"doomsday_clock": 0}, "ussr": {"doomsday_clock": 2, "berlin_wall": 1}},
    )
    s = play(g, s, "parts 1, item 2+3", "play Doomsday Clock")
    assert g.labels(s) == [CLOCK_START]


def _countdown(missiles: int):
    """USA's clock has one box left when USSR's turn ends; USA has `missiles` complete Missiles."""
    g, s = begin(2, (1, 2, 3, 1, 2, 3, 5, 5, 5), superpower="ussr")
    s = sheet(g, s, complete={"usa": {"missile": missiles}}, active={"usa": {"doomsday_clock": 1}})
    assert s.pending.player == "ussr"
    return g, play(g, s, "parts 1, item 2+3", "search", "parts 1, item 2+3")


def test_doomsday_clock_last_box_with_a_missile_wins():
    """Doomsday Clock: at the beginning of its owner's turn, before the collection, one box goes;
    the last box going with a complete Missile on the sheet wins (Winning the game 2)."""
    g, s = _countdown(1)
    assert g.is_over(s) and g.result(s) == ("usa",)
    assert g.var(s, "active")["usa"]["doomsday_clock"] == 0
    assert g.narrate(s)[-1] == "Round 1: USA's Doomsday Clock strikes midnight"


def test_doomsday_clock_last_box_without_a_missile_ends_the_turn():
    """Doomsday Clock: otherwise, end your turn (interpretation: the countdown's end without a
    Missile costs the turn; no collection is made)."""
    g, s = _countdown(0)
    assert not g.is_over(s)
    assert s.pending.player == "ussr" and g.prompt(s).startswith("USSR: you roll 5, 5 and 5;")
    assert g.var(s, "active")["usa"]["doomsday_clock"] == 0
    ran_out = "Round 1: USA's Doomsday Clock runs out with no Missile to fire: USA's turn ends"
    assert ran_out in g.narrate(s, headlines=True)


# ---- the view --------------------------------------------------------------------------------------
def test_the_sheet_shows_each_items_cost_first_as_the_printed_sheet_does():
    """Components (the player sheet): each line starts with the item's cost, the sum the pair
    of dice must show: 2, 3, 4, 5, 6, 8, 9, 10, 11, 12."""
    from interpreter.runtime.render import render

    g = game()
    s = g.start(players=2, seed=1)
    lines = render(g, s, "usa").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Sheets: cost"))
    rows = [line.split()[:2] for line in lines[at + 2 : at + 12]]
    assert [int(cost) for cost, _ in rows] == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]
    assert [name for _, name in rows] == ["Missile", "Missile", "Space", "Berlin", "Propaganda", "Espionage"] + [
        "Counterintelligence",
        "Red",
        "Russian",
        "Doomsday",
    ]


def test_the_view_says_which_berlin_walls_and_doomsday_clocks_are_active_in_words():
    """Berlin Wall and Doomsday Clock: their active boxes, told as what they mean (until when the
    wall stands, how many boxes the clock has left), and "none" when nothing is active."""
    from interpreter.runtime.render import render

    g = game()
    s = g.start(players=2, seed=1)
    assert "Berlin Walls and Doomsday Clocks active: none" in render(g, s, "usa").splitlines()
    s = sheet(g, s, active={"usa": {"berlin_wall": 1, "doomsday_clock": 2}, "ussr": {"doomsday_clock": 3}})
    lines = render(g, s, "usa").splitlines()
    at = lines.index("Berlin Walls and Doomsday Clocks active:")
    assert lines[at + 1 : at + 3] == [
        "    USA: Berlin Wall (until USA's next turn), Doomsday Clock with 2 of 3 boxes left",
        "    USSR: Doomsday Clock with 3 of 3 boxes left",
    ]


# ---- the narration: the key events of `gamedef run` (issue 10) -------------------------------------------
SECOND_MISSILE = "Round 1: USA has two complete Missiles, one short of winning"


def test_a_second_missile_is_a_key_event_dated_by_its_round_however_it_comes():
    """Winning the game 1: two complete Missiles are one short of the win, so a sheet reaching two
    is told in the short narration (`log headline`), dated by its round, whether the Missile comes
    from a collection, from Missile Crisis or from an exchange; completing other items, or a first
    Missile, is told only in the whole narration."""
    g, s = start(
        pins=(4, 1, 1), first="parts 4, item 1+1", complete={"usa": {"missile": 1}}, parts={"usa": {"missile": 3}}
    )
    assert g.narrate(s, headlines=True) == [SECOND_MISSILE]
    assert "USA completes Missile (2 of 3)" in g.narrate(s)
    # Missile Crisis completes the Missile
    usa = {"missile_crisis": 1, "berlin_wall": 1, "red_telephone": 1, "missile": 1}
    g, s = start(pins=(1, 2, 3), complete={"usa": usa})
    s = g.apply(s, "play Missile Crisis")
    assert g.narrate(s) == ["USA plays Missile Crisis"] and g.narrate(s, headlines=True) == []  # no key event
    s = play(g, s, "delete a complete Berlin Wall", "delete a complete Red Telephone")
    assert at(g, s, "complete", "usa") == {"missile": 2}
    assert g.narrate(s, headlines=True) == [SECOND_MISSILE]
    # Espionage takes the Missile from an opponent
    g, s = start(
        pins=(1, 2, 3),
        complete={"usa": {"espionage": 1, "missile": 1, "berlin_wall": 1}, "ussr": {"missile": 1, "red_telephone": 1}},
    )
    s = play(g, s, "play Espionage", SPY_SWAP, "spy on USSR", "give Berlin Wall", "take USSR's Missile")
    assert at(g, s, "complete", "usa") == {"missile": 2}
    assert g.narrate(s, headlines=True) == [SECOND_MISSILE]
    # a first Missile, or another item completed, is no key event
    g, s = start(pins=(4, 1, 1), first="parts 4, item 1+1", parts={"usa": {"missile": 3}})
    assert at(g, s, "complete", "usa") == {"missile": 1}
    assert "USA completes Missile (1 of 3)" in g.narrate(s)
    assert g.narrate(s, headlines=True) == []
    g, s = start(pins=(5, 4, 4), first="parts 5, item 4+4")
    assert "USA completes Espionage (1 of 3)" in g.narrate(s)
    assert g.narrate(s, headlines=True) == []


def test_the_doomsday_clock_events_are_key_events_dated_by_their_round():
    """Doomsday Clock and Red Telephone: a clock switched off or running out is told in the short
    narration, with its round, the round it was set in, and who did it; starting or moving it is
    told in the whole narration."""
    g, s = start(pins=(1, 2, 3), complete={"usa": {"doomsday_clock": 1}})
    s = g.apply(s, "play Doomsday Clock")
    assert g.narrate(s) == ["USA plays Doomsday Clock"] and g.narrate(s, headlines=True) == []
    s = g.apply(s, CLOCK_START)
    # a clock is told once in the short narration, when it ends, with the round it was set in
    assert g.narrate(s) == ["Round 1: USA's Doomsday Clock is ticking (3 boxes)"] and g.narrate(s, headlines=True) == []
    g, s = begin(2, (1, 2, 3))
    s = sheet(g, s, complete={"usa": {"doomsday_clock": 1}}, active={"ussr": {"doomsday_clock": 3}})
    s = g.with_var(s, "clock_set", {"ussr": 5})
    s = play(g, s, "parts 1, item 2+3", "play Doomsday Clock", CLOCK_ADJUST, "USSR's Doomsday Clock")
    s = g.apply(s, "deactivate a box")
    assert g.narrate(s)[0] == "Round 1: USA deactivates a box of USSR's Doomsday Clock: 2 active boxes"
    assert g.narrate(s, headlines=True) == []  # the clock still runs (1 box left once USSR's turn begins)
    g, s = begin(2, (1, 2, 3))
    s = sheet(g, s, complete={"usa": {"doomsday_clock": 1}}, active={"ussr": {"doomsday_clock": 1}})
    s = g.with_var(s, "clock_set", {"ussr": 5})
    s = play(g, s, "parts 1, item 2+3", "play Doomsday Clock", CLOCK_ADJUST, "USSR's Doomsday Clock")
    s = g.apply(s, "deactivate a box")
    assert g.narrate(s, headlines=True) == [
        "Round 1: USA switches off USSR's Doomsday Clock (set in round 5) by deactivating its last box"
    ]
    g, s = begin(2, (1, 2, 3))
    s = sheet(g, s, complete={"usa": {"red_telephone": 1}}, active={"ussr": {"doomsday_clock": 2}})
    s = g.with_var(s, "clock_set", {"ussr": 5})
    s = play(g, s, "parts 1, item 2+3", "play Red Telephone", PHONE_CLOCK, "USSR's Doomsday Clock")
    assert g.narrate(s, headlines=True) == [
        "Round 1: USA switches off USSR's Doomsday Clock (set in round 5) with the Red Telephone"
    ]


def test_every_round_is_marked_and_every_tenth_round_gives_the_standings():
    """How to play (turns passing from the Superpower): the whole narration marks each round
    (`== Round N`); the short narration gives the standings (complete Missiles, all complete
    items) when the first round begins, after the preparation, and then every ten rounds."""
    first = game().start(players=2, seed=1)
    assert game().narrate(first) == ["== Preparation: each player has one complete Missile and makes two collections"]
    g, s = begin(2)
    assert g.narrate(s, headlines=True) == [
        "== Round 1: complete Missiles USA 1, USSR 1; complete items in all USA 1, USSR 1"
    ]
    assert g.var(s, "round") == 1
    rng = random.Random(4)
    marks, standings = [], []
    while not g.is_over(s) and g.var(s, "round") < 22:
        s = g.apply_index(s, rng.randrange(len(s.pending.values)))
        marks += [line for line in g.narrate(s) if line.startswith("== Round")]
        for line in g.narrate(s, headlines=True):
            if line.startswith("== Round"):
                complete = g.var(s, "complete")  # the new round's first collection is pending
                expected = "complete Missiles {}; complete items in all {}".format(
                    ", ".join(f"{g.seat_title(p)} {complete[p]['missile']}" for p in s.players),
                    ", ".join(f"{g.seat_title(p)} {sum(complete[p].values())}" for p in s.players),
                )
                standings.append(line)
                counts = re.sub(r" \([^)]*\)", "", line)  # the counts, without why they changed
                assert counts.endswith(expected), (line, expected)
    assert g.var(s, "round") == 22, "the game should last 22 rounds with this seed"
    assert [m.split(":")[0] for m in marks] == [f"== Round {n}" for n in range(2, 23)]
    assert [m.split(":")[0] for m in standings] == ["== Round 11", "== Round 21"]
