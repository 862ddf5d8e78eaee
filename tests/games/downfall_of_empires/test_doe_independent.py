"""Downfall of Empires: an independent check of the implementation against the rulebook
and the authored map and tables (gamedefs/downfall_of_empires/).

Every scenario test names the rulebook section it is built from. Positions are arranged with the
harness game (tests/doe/harness.game), which plays only the listed Powers' turns from the arranged
position; dice are pinned with `pins=` (attacker's die first, then the defender's).

Where the rulebook is ambiguous, the test says which reading it checks; the game file records the
same reading beside its rule (`interpretation`).
"""

from __future__ import annotations

import collections
import random

import pytest
from repo_paths import ROOT

from interpreter import load_game
from tests.doe_helpers import finish, harness, labels, play, scenario
from tests.doe_helpers import var as v

DATA = ROOT / "gamedefs" / "downfall_of_empires"  # the shipped map and tables

G1, G2, G3, G4 = "German 5(2) 9", "German 5(2) 10", "German 5(2) 11", "German 5(2) 12"
R1, R2, R3 = "Russian 3(1) 9", "Russian 3(1) 10", "Russian 3(1) 11"
F1, F2 = "French 4(2) 1", "French 4(2) 2"
FR32 = "French 3(2) 1"
B32a, B32b = "British 3(2) 1", "British 3(2) 2"
A1 = "Austro-Hungarian 3(1) 7"
T1 = "Turkish 3(1) 1"
TURKEY = dict(owner={T1: "AH"}, joined={"Ottoman": True}, dormant={T1: False})
ITALY_FB = {z: "FB" for z in ("venice", "asiago", "milan", "turin", "rome")}


def attack_in_place(g, s, attacker, zone_name, defender, *then):
    """One activation: `attacker` stays in its zone and attacks `defender` there."""
    return play(
        g, s, "activation", f"activate {attacker} in {zone_name}", f"stay in {zone_name}", "done activating",
        f"attack {defender} in {zone_name}", f"{attacker} attacks", *then,
    )  # fmt: skip


# ================================================================================================
# 6. Supply
# ================================================================================================
def test_supply_an_army_need_not_control_its_own_zone():
    """§6: "It is not necessary to control the zone where the armies are." A Russian army in
    German-held Lodz (shared with a German army, so control stays German, §3) traces supply
    through Russian Warsaw and keeps its step."""
    g, s = scenario(["GE"], at={R1: "lodz", G1: "lodz"}, control={"lodz": "GE"})
    s = finish(g, s)
    assert v(g, s, "control")["lodz"] == "GE"
    assert R1 not in v(g, s, "out_of_supply")
    assert v(g, s, "at")[R1] == "lodz" and not v(g, s, "reduced")[R1]


def test_supply_cannot_be_traced_through_enemy_zones():
    """§6: supply is traced "through controlled zones". Lodz's Russian neighbours Warsaw and
    Lublin are German-held, the rest are German/A-H zones: the Russian army there loses a step
    immediately."""
    g, s = scenario(["GE"], at={R1: "lodz", G1: "lodz"}, control={"warsaw": "GE", "lublin": "GE"})
    s = finish(g, s)
    assert R1 in v(g, s, "out_of_supply")
    assert v(g, s, "reduced")[R1] and v(g, s, "at")[R1] == "lodz"


def test_supply_by_sea_for_a_french_army_in_an_enemy_port_but_not_inland():
    """§6: "The Franco-British side can be supplied by sea." A French (not only a British) army
    in Turkish-held Gallipoli, a port, keeps its step; the same army in Turkish-held
    Constantinople, inland, with only enemy zones around, is out of supply."""
    control = {"gallipoli": "AH", "constantinople": "AH"}
    g, s = scenario(["FB"], at={F1: "gallipoli", T1: "gallipoli"}, control=control, **TURKEY)
    s = finish(g, s)
    assert F1 not in v(g, s, "out_of_supply") and not v(g, s, "reduced")[F1]

    g, s = scenario(["FB"], at={F1: "constantinople", T1: "constantinople"}, control=control, **TURKEY)
    s = finish(g, s)
    assert F1 in v(g, s, "out_of_supply") and v(g, s, "reduced")[F1]


def test_supply_an_out_of_supply_army_is_eliminated_unless_it_moves_back_into_supply():
    """§6: "Out of supply armies can be activated in their turn. If at the end of their turn they
    are still out of supply, they are eliminated." A reduced Russian army already out of supply
    in Berlin: staying, it is eliminated; moving Berlin-Posen (2)-Lodz (1) it survives, reduced."""
    common = dict(at={R1: "berlin"}, reduced={R1: True}, out_of_supply=[R1])
    g, s = scenario(["RU"], **common)
    stayed = finish(g, s)
    assert v(g, stayed, "at")[R1] is None

    s = play(g, s, "activation", f"activate {R1} in Berlin", "move", "to Posen (cost 2)", "to Lodz (cost 1)")
    s = play(g, s, "stop in Lodz")
    s = finish(g, s)
    assert v(g, s, "at")[R1] == "lodz" and v(g, s, "reduced")[R1]
    assert R1 not in v(g, s, "out_of_supply")


def test_supply_is_checked_after_the_control_change_of_the_same_turn():
    """§3 + §6: control changes at the end of the active player's turn and supply is checked
    after it. A German army occupying Vilna (with Riga already German) makes Vilna German at the
    end of the German turn, which cuts Courland off: Courland passes to the German then."""
    g, s = scenario(["GE"], at={G1: "vilna"}, control={"riga": "GE"})
    s = finish(g, s)
    assert v(g, s, "control")["vilna"] == "GE"
    assert v(g, s, "control")["courland"] == "GE"


def test_supply_a_zone_taken_but_cut_off_passes_back_at_once():
    """§3, §6 (timing is our reading): a lone Russian army sits in Berlin. At the end of the
    Russian turn Berlin becomes Russian (§3), the army is out of supply and loses a step (§6),
    and Berlin, having no supply line to a Russian source, passes to the German who cut it off."""
    g, s = scenario(["RU"], at={R1: "berlin"})
    s = finish(g, s)
    assert v(g, s, "reduced")[R1]  # the army is out of supply: this part holds
    assert v(g, s, "control")["berlin"] == "GE"


# ================================================================================================
# 9.2 Combat (dice pinned: attacker's die, defender's die)
# ================================================================================================
def test_combat_trench_plus_two_in_riga_and_assault_troopers_cut_it_to_one():
    """§9.2, §17: a trench adds +2 in Riga (as in Germany, France-Belgium and Kiev) whatever its
    level; §10.7: German Assault troopers reduce that +2 to +1."""
    common = dict(at={G1: "riga", R1: "riga"}, trench={"riga": 1}, trench_owner={"riga": "RU"}, pins=(3, 3))
    g, s = scenario(["GE"], **common)
    s = attack_in_place(g, s, G1, "Riga", R1)
    assert v(g, s, "last_combat") == (5, 3 + 2, 3, 3, 8, 8)

    g, s = scenario(["GE"], tech={"GE": ["assault_troopers"]}, **common)
    s = attack_in_place(g, s, G1, "Riga", R1)
    assert v(g, s, "last_combat")[:2] == (5, 3 + 1)


def test_combat_mountain_and_trench_do_not_add_up():
    """§9.2: "The defender adds, in its case, the factor for mountain or trench (not both).
    Mountains add +1", a trench outside Germany/France-Belgium/Riga/Kiev +1. In the
    Carpathians (mountain, Austria-Hungary) the A-H army defends at 3 + 1 with or without a trench."""
    for trench in (0, 1):
        g, s = scenario(
            ["RU"],
            at={R1: "carpathians", A1: "carpathians"},
            trench={"carpathians": trench},
            trench_owner={"carpathians": "AH" if trench else None},
            pins=(3, 3),
        )
        s = attack_in_place(g, s, R1, "Carpathians", A1)
        assert v(g, s, "last_combat")[:2] == (3, 4), trench


def test_combat_higher_attack_technology_gives_plus_one_whatever_the_margin():
    """§9.2, §10.1: attacker's Attack vs defender's Defense; the side with the higher level gets
    +1 ("the amount does not matter"). Russian Attack 2 vs A-H Defense 1 in Lemberg (plain):
    3 + 1 against 3."""
    g, s = scenario(
        ["RU"],
        at={R1: "lemberg", A1: "lemberg"},
        tech={"RU": ["attack_1", "attack_2"], "AH": ["defense_1"]},
        pins=(3, 3),
    )
    s = attack_in_place(g, s, R1, "Lemberg", A1)
    assert v(g, s, "last_combat")[:2] == (4, 3)


def test_combat_aviation_duel_and_once_per_turn():
    """§10.4: aviation adds +2 to the attacker by spending a mission; a defender with air support
    may cancel it with a mission, after which the attacker may spend more; usable in one attack
    per turn per Power. §13: a spent mission moves the counter down one box."""
    g, s = scenario(
        ["FB"],
        at={F1: "lille", F2: "lille", G1: "lille", G2: "lille"},
        tech={"FB": ["aviation"], "GE": ["aviation"]},
        missions={"FB": 3, "GE": 1},
        pins=(3, 3, 3, 3),
    )
    s = play(g, s, "activation", f"activate {F1} in Lille", "stay in Lille", f"activate {F2} in Lille", "stay in Lille")
    s = play(g, s, "done activating", f"attack {G1} in Lille", f"{F1} attacks")
    s = play(g, s, "spend a mission on air support (3 left)")
    assert labels(g, s) == ["spend a mission to cancel the air support (1 left)", "pass"]
    s = play(g, s, "spend a mission to cancel the air support (1 left)")
    s = play(g, s, "spend a mission on air support (2 left)")
    assert v(g, s, "last_combat")[:2] == (4 + 2, 5)
    assert v(g, s, "missions")["FB"] == 1 and v(g, s, "missions")["GE"] == 0
    # 9 against 8: the German takes two losses, the French one
    s = play(g, s, f"{G1} takes the loss", f"{G1} takes the loss", f"{F1} takes the loss")
    s = play(g, s, f"attack {G2} in Lille", f"{F2} attacks")
    assert not any("air support" in label for label in labels(g, s))  # once per turn
    assert v(g, s, "last_combat")[:2] == (4, 5)


def test_combat_tanks_1_cancel_a_level_1_trench_but_not_a_level_2():
    """§10.5: Tanks negate the trench factor of the same or lesser level by spending a mission;
    §17: "their defensive factor is not cancelled by Tanks-1" for level-2 trenches. Metz is in
    Germany: trench +2."""
    for level, expected in ((1, (4, 5)), (2, (4, 7))):
        g, s = scenario(
            ["FB"],
            at={F1: "metz", G1: "metz"},
            tech={"FB": ["tanks_1"]},
            missions={"FB": 3},
            trench={"metz": level},
            trench_owner={"metz": "GE"},
            pins=(3, 3),
        )
        s = attack_in_place(g, s, F1, "Metz", G1)
        # first the secret air-support question (Aviation is a Franco-British tile): no Aviation in use
        assert labels(g, s) == ["pass"]
        s = play(g, s, "pass")
        offered = "spend a mission on tanks against the trench in Metz" in labels(g, s)
        assert offered is (level == 1)
        if offered:
            s = play(g, s, "spend a mission on tanks against the trench in Metz")
        else:  # still asked (secretly), so that the question gives nothing away: only "pass"
            assert labels(g, s) == ["pass"]
            s = play(g, s, "pass")
        assert v(g, s, "last_combat")[:2] == expected, level
        assert v(g, s, "missions")["FB"] == (2 if level == 1 else 3)


def test_combat_support_only_from_armies_in_excess_of_the_enemy():
    """§9.2: "Armies that exceed in number those of the enemy in the zone can support the attack
    of one army." Two Germans against two Russians: no support; three against two: one."""
    g, s = scenario(["GE"], at={G1: "lodz", G2: "lodz", R1: "lodz", R2: "lodz"}, pins=(3, 3))
    s = play(g, s, "activation", f"activate {G1} in Lodz", "stay in Lodz", f"activate {G2} in Lodz", "stay in Lodz")
    s = play(g, s, "done activating", f"attack {R1} in Lodz", f"{G1} attacks")
    assert not any("supports" in label for label in labels(g, s))
    assert v(g, s, "last_combat")[0] == 5

    g, s = scenario(["GE"], at={G1: "lodz", G2: "lodz", G3: "lodz", R1: "lodz", R2: "lodz"}, pins=(3, 3))
    s = play(g, s, "activation", f"activate {G1} in Lodz", "stay in Lodz", f"activate {G2} in Lodz", "stay in Lodz")
    s = play(g, s, "done activating", f"attack {R1} in Lodz", f"{G1} attacks")
    assert labels(g, s) == [f"{G2} supports", "no more support"]
    s = play(g, s, f"{G2} supports")
    assert v(g, s, "last_combat")[0] == 5 + 2


def test_combat_a_lone_reduced_defender_is_eliminated_and_the_winner_takes_no_loss():
    """§9.2: 5 + 4 = 9 against 2 + 3 = 5 (higher, not double): 2 losses for the loser, 1 for the
    winner. The reduced Russian is eliminated by the first loss; with no other army or trench to
    take the second, "the winning side does not take any loss"."""
    g, s = scenario(["GE"], at={G1: "lodz", R1: "lodz"}, reduced={R1: True}, pins=(4, 3))
    s = attack_in_place(g, s, G1, "Lodz", R1)
    assert v(g, s, "last_combat") == (5, 2, 4, 3, 9, 5)
    s = play(g, s, f"{R1} takes the loss")
    assert v(g, s, "at")[R1] is None
    assert not v(g, s, "reduced")[G1]
    s = finish(g, s)
    assert not v(g, s, "reduced")[G1]


def test_combat_trench_absorbs_a_loss_and_the_defender_retreats_to_a_controlled_zone():
    """§9.2: a defender that avoids elimination by removing a trench "must retreat to an adjacent
    controlled zone" unless in mountain/forest/desert (Lodz is plain, Russia). Lodz borders
    German Breslau and Posen, A-H Krakow, Russian Warsaw and Lublin."""
    g, s = scenario(["GE"], at={G1: "posen", R1: "lodz"}, trench={"lodz": 1}, trench_owner={"lodz": "RU"}, pins=(5, 2))
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Lodz (cost 2)", "done activating")
    s = play(g, s, f"attack {R1} in Lodz", f"{G1} attacks")
    assert v(g, s, "last_combat") == (5, 3 + 1, 5, 2, 10, 6)
    assert set(labels(g, s)) == {f"{R1} takes the loss", "the trench takes the loss"}
    s = play(g, s, f"{R1} takes the loss", "the trench takes the loss")
    assert sorted(labels(g, s)) == ["retreat to Lublin", "retreat to Warsaw"]
    s = play(g, s, "retreat to Warsaw", f"{G1} takes the loss")
    assert v(g, s, "at")[R1] == "warsaw" and v(g, s, "reduced")[R1] and v(g, s, "trench")["lodz"] == 0


def test_combat_a_level_2_trench_in_france_cancels_the_retreat_a_level_1_does_not():
    """§9.2: no retreat "if the casualty is taken from a level 2 trench in France-Belgium or
    Germany" (the trench goes down to level 1); §17. With a level-1 trench the French army in
    Lille (plain) must retreat."""
    for level in (1, 2):
        g, s = scenario(
            ["GE"], at={G1: "lille", F1: "lille"}, trench={"lille": level}, trench_owner={"lille": "FB"}, pins=(5, 1)
        )
        s = attack_in_place(g, s, G1, "Lille", F1)
        assert v(g, s, "last_combat")[:2] == (5, 4 + 2)  # +2 in France-Belgium whatever the level
        s = play(g, s, f"{F1} takes the loss", "the trench takes the loss")
        must_retreat = any(label.startswith("retreat to") for label in labels(g, s))
        assert must_retreat is (level == 1), level
        if must_retreat:
            assert "retreat to Paris" in labels(g, s)
            s = play(g, s, "retreat to Paris")
        s = play(g, s, f"{G1} takes the loss")
        assert v(g, s, "at")[F1] == ("paris" if level == 1 else "lille")
        assert v(g, s, "trench")["lille"] == level - 1


def test_combat_an_army_is_attacked_only_once_per_turn():
    """§9.2: "An army can only be attacked once in a turn no matter how many activate actions are
    done." A draw (8 against 8) reduces both; a second activation cannot attack the same army."""
    g, s = scenario(["GE"], at={G1: "lodz", G2: "lodz", R1: "lodz", R2: "lodz"}, pins=(3, 5))
    s = attack_in_place(g, s, G1, "Lodz", R1)
    assert v(g, s, "last_combat")[4:] == (8, 8)
    s = play(g, s, f"{G1} takes the loss", f"{R1} takes the loss")
    s = play(g, s, "activation", f"activate {G2} in Lodz", "stay in Lodz", "done activating")
    assert f"attack {R1} in Lodz" not in labels(g, s)
    assert f"attack {R2} in Lodz" in labels(g, s)


def test_combat_an_austro_hungarian_army_does_not_retreat_into_germany():
    """§9.2 + §14 (our reading: a retreat moves the army, so the ban on moving to German zones
    covers it): the A-H army in Krakow loses with its trench absorbing a loss and
    must retreat; it may go to Vienna and other A-H zones, not into German Breslau."""
    g, s = scenario(
        ["RU"], at={R1: "krakow", A1: "krakow"}, trench={"krakow": 1}, trench_owner={"krakow": "AH"}, pins=(6, 1)
    )
    s = attack_in_place(g, s, R1, "Krakow", A1, f"{A1} takes the loss", "the trench takes the loss")
    assert "retreat to Vienna" in labels(g, s)
    assert "retreat to Breslau" not in labels(g, s)


# ================================================================================================
# 3. Stacking (and the Italian-front limit of 9.1)
# ================================================================================================
def test_stacking_a_fourth_army_of_a_power_cannot_enter_by_move_strategic_move_or_recruit():
    """§3: "A Power can have a maximum of 3 armies in a zone." With three Germans in Posen a
    fourth can neither move nor move strategically there; three French in Paris: none raised there."""
    g, s = scenario(["GE"], at={G1: "posen", G2: "posen", G3: "posen", G4: "berlin"})
    s = play(g, s, "activation", f"activate {G4} in Berlin")
    assert "to Posen (cost 1)" not in labels(g, play(g, s, "move"))
    assert "to Breslau (cost 1)" in labels(g, play(g, s, "move"))
    assert "to Posen" not in labels(g, play(g, s, "strategic movement"))

    g, s = scenario(["FB"], at={"French 4(2) 2": "paris", "French 4(2) 3": "paris", "French 4(2) 4": "paris"})
    where = labels(g, play(g, s, "recruit", f"raise {F1}"))
    assert "in Paris" not in where and "in Lille" in where


def test_stacking_two_in_the_caucasus_even_for_recruits_and_enemy_powers_share_a_zone():
    """§3: only 2 per Power in the Caucasus, Syria and Egypt; "A zone can hold armies from two
    enemy Powers (with up to 3 armies per Power)": three Russians in Lodz do not stop a German
    from entering."""
    g, s = scenario(["RU"], at={R1: "caucasus", R2: "caucasus"})
    where = labels(g, play(g, s, "recruit", "raise Russian 3(1) 1"))
    assert "in Caucasus" not in where and "in Kharkov" in where

    g, s = scenario(["GE"], at={R1: "lodz", R2: "lodz", R3: "lodz", G1: "posen"})
    s = play(g, s, "activation", f"activate {G1} in Posen", "move")
    assert "to Lodz (cost 2)" in labels(g, s)


def test_stacking_a_ceded_german_army_counts_for_the_austro_hungarians():
    """§3, §4, §14: three A-H armies stand in Vienna (1915). A German army may enter (it is still
    German), but ceding it there would give the A-H Power four armies in the zone."""
    a = ["Austro-Hungarian 3(1) 1", "Austro-Hungarian 3(1) 2", "Austro-Hungarian 3(1) 3"]
    g, s = scenario(["GE"], at={a[0]: "vienna", a[1]: "vienna", a[2]: "vienna", G1: "munich"})
    s = play(g, s, "activation", f"activate {G1} in Munich", "move", "to Vienna (cost 1)", "stop in Vienna")
    if f"cede {G1} to the Austro-Hungarians" in labels(g, s):
        s = play(g, s, f"cede {G1} to the Austro-Hungarians")
    s = finish(g, s)
    owner, where = v(g, s, "owner"), v(g, s, "at")
    assert sum(1 for x, z in where.items() if z == "vienna" and owner[x] == "AH") <= 3


def test_italian_front_only_one_french_or_british_army_may_move_in():
    """§9.1: "In Italy and the frontier zones of the Austro-Hungarian Empire with Italy, apart from
    Austro-Hungarian and Italian armies there can only be one German army and one French or
    British army." With a French army in Turin another cannot move from Lyon into Turin
    (forbidden under both the per-zone and the whole-area reading); a German army already in
    Trentino keeps a second German out of Trentino."""
    g, s = scenario(["FB"], at={FR32: "turin", F1: "lyon"}, control=ITALY_FB, joined={"Italy": True})
    s = play(g, s, "activation", f"activate {F1} in Lyon", "move")
    assert "to Turin (cost 1)" not in labels(g, s) and "to Orleans (cost 1)" in labels(g, s)

    g, s = scenario(["GE"], at={G1: "trentino", G2: "munich"})
    s = play(g, s, "activation", f"activate {G2} in Munich", "move")
    assert "to Trentino (cost 1)" not in labels(g, s) and "to Vienna (cost 1)" in labels(g, s)


def test_italian_front_limit_also_binds_recruitment():
    """§9.1 + §8: a French 3(2) army stands in Franco-British Turin (Italy has joined). Raising a
    French 4(2) army in Turin would put two French armies there: not allowed."""
    g, s = scenario(["FB"], at={FR32: "turin"}, control=ITALY_FB, joined={"Italy": True})
    where = labels(g, play(g, s, "recruit", f"raise {F1}"))
    assert "in Lyon" in where
    assert "in Turin" not in where


# ================================================================================================
# 9.1 Movement
# ================================================================================================
def test_movement_four_zones_enemy_zones_cost_two():
    """§9.1: "Armies can move up to four zones. Moving into a zone controlled by the enemy counts
    as moving two zones." Posen-Lodz (Russian, 2) leaves 2; Lodz-Warsaw (Russian, 2) leaves none;
    from Lodz, A-H Krakow (an ally's zone) costs 1."""
    g, s = scenario(["GE"], at={G1: "posen"})
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Lodz (cost 2)")
    assert "2 movement points left" in g.prompt(s)
    assert {"to Warsaw (cost 2)", "to Krakow (cost 1)"} <= set(labels(g, s))
    assert "to Posen (cost 1)" not in labels(g, s)  # (our reading) a move does not return to a zone it passed
    s = play(g, s, "to Warsaw (cost 2)")
    assert v(g, s, "at")[G1] == "warsaw"
    assert not any(label.startswith("to ") for label in labels(g, s))  # no movement left


def test_strategic_movement_counts_as_two_armies_and_only_through_controlled_zones():
    """§9.1: strategic movement goes "through any number of controlled zones (and cannot include
    movement by sea). It counts as the movement of two armies." From Posen: far Metz yes, Russian
    Lodz and Warsaw no; afterwards one activation is left of three, and that last army cannot
    move strategically; with Manoeuvre (§10.2, 4 armies) two are left."""
    g, s = scenario(["GE"], at={G1: "posen", G2: "posen", G3: "berlin"})
    s = play(g, s, "activation", f"activate {G1} in Posen", "strategic movement")
    assert "to Metz" in labels(g, s)
    assert "to Lodz" not in labels(g, s) and "to Warsaw" not in labels(g, s)
    s = play(g, s, "to Metz")
    assert v(g, s, "at")[G1] == "metz"
    assert "1 of 3 left, one more with Manoeuvre" in g.prompt(s)
    s = play(g, s, f"activate {G2} in Posen")
    assert "strategic movement" not in labels(g, s)

    g, s = scenario(["GE"], at={G1: "posen", G2: "posen"}, tech={"GE": ["manoeuvre"]})
    s = play(g, s, "activation", f"activate {G1} in Posen", "strategic movement", "to Metz")
    # the prompt tells nothing secret (10.): the holder reads the public count, and may still
    # move strategically with the two slots left to it
    assert "1 of 3 left, one more with Manoeuvre" in g.prompt(s)
    s = play(g, s, f"activate {G2} in Posen")
    assert "strategic movement" in labels(g, s)


def test_strategic_movement_never_by_sea():
    """§9.1: strategic movement "cannot include movement by sea": a British army in London (sea
    links only) has nowhere to go strategically, though it may sail."""
    g, s = scenario(["FB"], at={"British 4(2) 1": "london"})
    s = play(g, s, "activation", "activate British 4(2) 1 in London")
    assert "by sea" in labels(g, s)
    if "strategic movement" in labels(g, s):
        after = play(g, s, "strategic movement")
        assert not any(label.startswith("to ") for label in labels(g, after))


def test_movement_only_one_british_army_to_gallipoli_and_only_in_1915():
    """§9.1, §17: "Only one British army can move to Gallipoli in 1915"; Turkey has joined. In
    Spring 1915 the first British 3(2) army may sail there, the second not (in the same or a later
    turn); Autumn 1914 and Winter 1916: not at all. French armies never sail."""
    kw = dict(joined={"Ottoman": True}, control={"gallipoli": "AH", "constantinople": "AH"})

    def sail(turn, **more):
        g, s = scenario(["FB", "FB"], at={B32a: "london", B32b: "london", FR32: "london"}, turn=turn, **kw, **more)
        return g, play(g, s, "activation", f"activate {B32a} in London", "by sea")

    g, s = sail(4)
    assert "to Gallipoli" in labels(g, s)
    s = play(g, s, "to Gallipoli", f"activate {B32b} in London", "by sea")
    assert "to Gallipoli" not in labels(g, s)
    s = play(g, s, "to Cairo", "done activating", "end the turn", "activation", f"activate {FR32} in London")
    assert "by sea" not in labels(g, s)
    for turn in (2, 7):
        g, s = sail(turn)
        assert "to Gallipoli" not in labels(g, s), turn


def test_movement_never_into_neutral_countries_enemy_squares_or_for_a_h_german_zones():
    """§9.1: no entry into neutral countries (Italy not joined: Trieste-Venice closed); §3: enemy
    armies cannot enter the square areas (Riga-Petrograd); §14: the A-H cannot move to Germany
    or German-controlled zones (Krakow-Breslau, and Lodz once German-held)."""
    g, s = scenario(["AH"], at={A1: "trieste"})
    s = play(g, s, "activation", f"activate {A1} in Trieste", "move")
    assert "to Venice (cost 2)" not in labels(g, s) and "to Venice (cost 1)" not in labels(g, s)
    assert "to Zagreb (cost 1)" in labels(g, s)

    g, s = scenario(["GE"], at={G1: "riga"}, control={"riga": "GE"})
    s = play(g, s, "activation", f"activate {G1} in Riga", "move")
    assert not any("Petrograd" in label for label in labels(g, s))

    for lodz, ok in (("RU", True), ("GE", False)):
        g, s = scenario(["AH"], at={A1: "krakow"}, control={"lodz": lodz})
        s = play(g, s, "activation", f"activate {A1} in Krakow", "move")
        assert not any("Breslau" in label for label in labels(g, s))
        assert ("to Lodz (cost 2)" in labels(g, s)) is ok


def test_control_changes_for_zones_crossed_and_trenches_left_to_the_enemy_are_removed():
    """§3: "a zone is controlled by the Power that was the last one to occupy or cross it solely
    with its armies", at the end of the turn. A German army crossing empty Russian Lodz into Warsaw
    takes both. §11: "When a zone contains one side's trench and only armies of an enemy Power,
    the trench is removed"; shared with a Russian army, the trench and the control stay."""
    g, s = scenario(["GE"], at={G1: "posen"})
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Lodz (cost 2)", "to Warsaw (cost 2)")
    s = finish(g, s)
    assert v(g, s, "control")["lodz"] == "GE" and v(g, s, "control")["warsaw"] == "GE"

    g, s = scenario(["GE"], at={G1: "lodz"}, trench={"lodz": 2}, trench_owner={"lodz": "RU"})
    s = finish(g, s)
    assert v(g, s, "trench")["lodz"] == 0 and v(g, s, "control")["lodz"] == "GE"

    g, s = scenario(["GE"], at={G1: "lodz", R1: "lodz"}, trench={"lodz": 2}, trench_owner={"lodz": "RU"})
    s = finish(g, s)
    assert v(g, s, "trench")["lodz"] == 2 and v(g, s, "control")["lodz"] == "RU"


# ================================================================================================
# 8. Recruitment and 16. Army counts
# ================================================================================================
COUNTER_MIX = {  # §16 (combat factor in the name); §1: 75 army counters
    "German 5(2)": 17, "Austro-Hungarian 3(1)": 10, "Turkish 3(1)": 5, "Bulgarian 3(1)": 1,
    "British 4(2)": 5, "British 3(2)": 3, "French 4(2)": 9, "French 3(2)": 2, "Russian 3(1)": 14,
    "Italian 3(1)": 5, "Serbian 3(1)": 1, "Romanian 3(1)": 1, "American 5(2)": 2,
}  # fmt: skip
# the Power each nation's armies belong to (§4, §12); German armies may be lent to the A-H (§14)
NATION_POWER = {
    "German 5(2)": {"GE", "AH"}, "Austro-Hungarian 3(1)": {"AH"}, "Turkish 3(1)": {"AH"},
    "Bulgarian 3(1)": {"AH"}, "British 4(2)": {"FB"}, "British 3(2)": {"FB"}, "French 4(2)": {"FB"},
    "French 3(2)": {"FB"}, "Italian 3(1)": {"FB"}, "Serbian 3(1)": {"FB"}, "American 5(2)": {"FB"},
    "Russian 3(1)": {"RU"}, "Romanian 3(1)": {"RU"},
}  # fmt: skip


def counter_type(army):
    return army.rsplit(" ", 1)[0]


def test_counter_mix_is_the_rulebook_list_of_armies():
    """§1: 75 army counters; §16: the list of armies per nation and combat factor."""
    armies = harness().compiled.types["Army"]
    assert len(armies) == 75
    assert collections.Counter(map(counter_type, armies)) == COUNTER_MIX


def test_recruitment_cannot_raise_beyond_the_counter_mix():
    """§16 + §8: with all 17 German counters on the map nothing more can be raised; a reduced one
    may still be reinforced (1 step)."""
    germans = [f"German 5(2) {i}" for i in range(1, 18)]
    zones = ["cologne", "metz", "strasbourg", "frankfurt", "munich", "berlin"]
    g, s = scenario(["GE"], at={a: zones[i // 3] for i, a in enumerate(germans)}, reduced={germans[0]: True})
    s = play(g, s, "recruit")
    assert not any(label.startswith("raise") for label in labels(g, s))
    assert labels(g, s) == [f"reinforce {germans[0]} in Cologne", "stop recruiting"]
    s = play(g, s, f"reinforce {germans[0]} in Cologne")
    assert not v(g, s, "reduced")[germans[0]]


def test_recruitment_steps_a_h_two_franco_british_four_from_1917():
    """§8: three steps per recruit action, two for the Austro-Hungarians; the Franco-British four
    from 1917 (Winter 1917 = turn 11). A full army costs 2 steps, a reduced one 1."""
    g, s = scenario(["AH"])
    s = play(g, s, "recruit", "raise Austro-Hungarian 3(1) 1", "in Vienna", "full (2 steps)")
    assert not any(label.startswith("raise") for label in labels(g, s))  # the action is over

    for turn, second_full in ((10, False), (11, True)):
        g, s = scenario(["FB"], turn=turn)
        s = play(g, s, "recruit", f"raise {F1}", "in Paris", "full (2 steps)", f"raise {F2}", "in Paris")
        if second_full:  # 2 of 4 steps left: a full army may be raised
            s = play(g, s, "full (2 steps)")
        # 1 of 3 steps left: the second army can only come in reduced
        assert v(g, s, "at")[F2] == "paris" and v(g, s, "reduced")[F2] is not second_full, turn
        assert not any(label.startswith("raise") for label in labels(g, s))


def test_recruitment_places_cities_contiguous_zones_ports_and_mediterranean_3_2_only():
    """§8: armies are recruited in controlled home cities or contiguous controlled zones; British
    armies in controlled port zones; in the Mediterranean ports (Cairo) only 3(2) armies.
    With Warsaw German-held, no Russian army is raised in Warsaw, nor in Lodz or Lublin whose only
    Russian city neighbour is Warsaw."""
    g, s = scenario(["RU"], control={"warsaw": "GE"})
    where = labels(g, play(g, s, "recruit", "raise Russian 3(1) 1"))
    assert not {"in Warsaw", "in Lodz", "in Lublin"} & set(where)
    assert {"in Vilna", "in Bialystok", "in Kiev"} <= set(where)

    g, s = scenario(["FB"])
    s = play(g, s, "recruit")
    big = labels(g, play(g, s, "raise British 4(2) 1"))
    small = labels(g, play(g, s, f"raise {B32a}"))
    assert "in Cairo" not in big and "in Cairo" in small
    assert set(big) <= {"in London", "in Flanders", "in Le Havre"} and "in London" in big
    assert "in Paris" not in big  # not a port


# ================================================================================================
# Whole random games: the rulebook's invariants on every position
# ================================================================================================
def zone_table():
    rows = [line.rstrip("\n").split("\t") for line in (DATA / "zones.tsv").read_text().splitlines() if line.strip()]
    header = [h.lstrip("# ") for h in rows[0]]
    return {r[0]: dict(zip(header, r)) for r in rows[1:]}


CENTRAL = {"GE", "AH"}
NEUTRAL_COUNTRY_FLAG = {"Ottoman Empire": "Ottoman", "Italy": "Italy", "Bulgaria": "Bulgaria", "Romania": "Romania"}
QUIET = ("end the turn", "done activating", "stop recruiting", "no more attacks", "no more support", "pass")


def violations(g, s, zones):
    """Every breach of a rulebook invariant in position s."""
    out = []
    at, owner, dormant, joined = v(g, s, "at"), v(g, s, "owner"), v(g, s, "dormant"), v(g, s, "joined")
    on_map = {a: z for a, z in at.items() if z}
    # §1/§16: never more armies of a counter type than the counter mix; each army with its Power
    per_type = collections.Counter(map(counter_type, on_map))
    out += [f"§16 {t}: {n} on the map" for t, n in per_type.items() if n > COUNTER_MIX[t]]
    out += [f"§4 {a} owned by {owner[a]}" for a in on_map if owner[a] not in NATION_POWER[counter_type(a)]]
    # per Power: at most the counters its nations (and lent German armies) supply
    per_power = collections.Counter(owner[a] for a in on_map)
    for p, n in per_power.items():
        cap = sum(COUNTER_MIX[t] for t, ps in NATION_POWER.items() if p in ps)
        if n > cap:
            out.append(f"§16 {p}: {n} armies on the map, counter mix {cap}")
    # §3: stacking per Power per zone (2 in Caucasus, Syria, Egypt: the data's stack_limit)
    stacks = collections.Counter((owner[a], z) for a, z in on_map.items())
    out += [
        f"§3 {p} has {n} armies in {z} (limit {zones[z]['stack_limit']})"
        for (p, z), n in stacks.items()
        if n > int(zones[z]["stack_limit"])
    ]
    # §3 (our reading): armies of two Powers at most in a zone
    powers = collections.defaultdict(set)
    for a, z in on_map.items():
        powers[z].add(owner[a])
    out += [f"§3 armies of {sorted(ps)} in {z}" for z, ps in powers.items() if len(ps) > 2]
    # §9.1: the Italian front holds at most one German and one French-or-British army
    front = [a for a, z in on_map.items() if zones[z]["italian_front"] == "yes"]
    germans = [a for a in front if a.startswith("German")]
    western = [a for a in front if a.startswith(("French", "British"))]
    if len(germans) > 1:
        out.append(f"§9.1 Italian front: German armies {[(a, on_map[a]) for a in germans]}")
    if len(western) > 1:
        out.append(f"§9.1 Italian front: French/British armies {[(a, on_map[a]) for a in western]}")
    others = [a for a in front if not a.startswith(("German", "French", "British", "Austro-Hungarian", "Italian"))]
    if others:
        out.append(f"§9.1 Italian front: armies of another nation {[(a, on_map[a]) for a in others]}")
    for a, z in on_map.items():
        # §3: enemy armies never enter the square areas
        if zones[z]["square"] == "yes":
            home = "AH" if z == "ankara" else "RU"
            if (owner[a] in CENTRAL) != (home in CENTRAL):
                out.append(f"§3 enemy {a} in the square {z}")
        # §9.1: no armies in a neutral country but its own (dormant) ones
        flag = NEUTRAL_COUNTRY_FLAG.get(zones[z]["country"])
        if flag and not joined[flag] and not dormant[a]:
            out.append(f"§9.1 {a} in neutral {z}")
    # §13: at most 6 missions; §1/§11: 32 trench counters, levels 1-2
    out += [f"§13 {p} has {m} missions" for p, m in v(g, s, "missions").items() if not 0 <= m <= 6]
    trenches = v(g, s, "trench")
    if sum(1 for lvl in trenches.values() if lvl) > 32:
        out.append("§1 more than 32 trenches")
    out += [f"§11 trench level {lvl} in {z}" for z, lvl in trenches.items() if lvl not in (0, 1, 2)]
    return out


def random_game(players, seed):
    """Play one whole game, choosing with a seeded Random (busy moves preferred so that armies
    move and fight), and return the invariant breaches found on every position."""
    g = load_game("downfall_of_empires")
    zones = zone_table()
    rng = random.Random(seed * 10 + players)
    s = g.start(players=players, seed=seed)
    found, moves = [], 0
    found += [(0, x) for x in violations(g, s, zones)]
    while not g.is_over(s):
        legal = [m.label for m in g.legal_moves(s)]
        busy = [m for m in legal if m not in QUIET and not m.startswith(("stop in", "stay in"))]
        label = rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(legal)
        s = g.apply(s, label)
        moves += 1
        assert moves < 20000, "the game does not end"
        found += [(moves, x) for x in violations(g, s, zones)]
    assert v(g, s, "turn") == 18  # §intro: 18 turns
    return found


@pytest.mark.parametrize(
    "players,seed",
    [
        (2, 1), (2, 2), (2, 3),
        (3, 1), (3, 2),
        (3, 3),
        (4, 1), (4, 2), (4, 3),
    ],
)  # fmt: skip
def test_random_games_keep_the_rulebook_invariants_on_every_position(players, seed):
    """§1/§16 counter mix (per type and per Power), §3 stacking (3 per Power per zone, 2 in the
    Caucasus, Syria, Egypt) and the §9.1 Italian-front limit (read for the whole front), §3 squares,
    §9.1 neutral countries, §13 missions, §1/§11 trenches: checked after every move of whole games
    with 2, 3 and 4 players."""
    found = random_game(players, seed)
    assert not found, found[:5]
