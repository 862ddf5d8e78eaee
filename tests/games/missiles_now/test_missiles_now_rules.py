"""Missiles, Now!: what the rules tests in the game's own language cannot read.

The rules themselves, one scenario per rule and per item option, are test blocks beside the
game (gamedefs/missiles_now.test.game, run by tests/runtime/test_designer_tests.py). Left
here: a start the game refuses, what the players are asked (the prompts), what each seat sees
(the view) and the short narration of `gamedef run` (`log headline`), which the test language
does not read. Each test names the rulebook section it concerns in its docstring. Dice are
pinned (`pins`: three dice per collection, then any re-rolls, in the order rolled) and sheets
are set with `with_var` at a decision that comes before the one being checked.
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
SPY_SWAP = "Espionage: swap one complete item with an opponent"
PHONE_PARTS = "Red Telephone: one part on each of three incomplete items"
PHONE_CLOCK = "Red Telephone: switch off an active Doomsday Clock"
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


# ---- the start -------------------------------------------------------------------------------------
def test_a_superpower_not_in_play_is_refused():
    """Preparation: the Superpower must be one of the players. A start that is refused is no
    position a test block can begin from, so this stays here."""
    with pytest.raises(GameRuntimeError, match="does not play"):
        game(superpower="cuba").start(players=2, seed=1)


# ---- the prompts -------------------------------------------------------------------------------------
def test_the_collection_prompt_names_the_seat_once_and_the_item_of_each_pair():
    """Turn phases 1) Collection (the prompt): the dice rolled, the seat once, and the item each
    pair selects, in the order of the moves; with a 6, why a 6 is chosen for the parts (issue 10).
    The moves and their outcome are tested in missiles_now.test.game."""
    g = game()
    s = g.start(players=2, seed=1, pins=(1, 1, 4))
    assert g.prompt(s) == (
        "USA: you roll 1, 1 and 4; which die marks the parts? The pair left gives the item: "
        "1+4 = 5 Berlin Wall, 1+1 = 2 Missile"
    )
    g, s = begin(2, (6, 1, 2))
    assert g.prompt(s) == (
        "USA: you roll 6, 1 and 2; which die marks the parts? The pair left gives the item: "
        "1+2 = 3 Missile Crisis, 6+2 = 8 Espionage, 6+1 = 7 (re-rolled). A 6 never marks parts: "
        "choose the 6 for the parts to keep the other two dice for the item; the 6 is then "
        "re-rolled until it shows 1 to 5"
    )


def test_the_prompts_say_what_is_decided_and_the_count_to_erase():
    """Turn phases a) Attack, End of the turn, and the items' choices (the prompts): what each
    decision is about, and how many complete items a sheet has over the limit of 7. The moves
    offered and their outcome are tested in missiles_now.test.game."""
    usa = {"missile": 1, "missile_crisis": 1, "berlin_wall": 1, "red_telephone": 1}
    g, s = start(pins=(1, 2, 3, 3, 1, 1), complete={"usa": usa}, parts={"usa": {"missile": 4}})
    assert g.prompt(s) == "USA: attack with a complete item, or search"
    assert g.prompt(g.apply(s, "play Missile Crisis")) == "delete a complete item (1 of 2)"
    s = play(g, s, "play Missile", "parts 3, item 1+1")
    assert g.prompt(s) == "Missile: play one additional complete item"
    assert g.prompt(play(g, s, "play Red Telephone")) == "Red Telephone: choose one option"
    assert g.prompt(play(g, s, "play Red Telephone", PHONE_PARTS)) == "Red Telephone: part 1 of 3"
    parts = {"berlin_wall": 3}
    g, s = start(pins=(4, 4, 1), first="parts 1, item 4+4", complete={"usa": {"space_race": 1}}, parts={"usa": parts})
    assert g.prompt(g.apply(s, "play Space Race")) == "Space Race: which item do you complete and play?"
    usa = {"missile": 2, "space_race": 3, "espionage": 3, "red_telephone": 1}
    g, s = start(pins=(1, 2, 3, 1, 2, 3), complete={"usa": usa})
    s = play(g, s, "search", "parts 1, item 2+3")
    assert g.prompt(s) == "USA: you have 9 complete items; keep 7"
    s = g.apply(s, "erase a complete Espionage")
    assert g.prompt(s) == "USA: you have 8 complete items; keep 7"


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
