"""Downfall of Empires: the Italian front, trenches, Russia's 1916 duty and movement through
occupied zones, each against its rulebook section (positions arranged on the harness game,
tests/doe/harness.game; dice pinned attacker's first)."""

from __future__ import annotations

from doe_helpers import finish, labels, play, scenario, var

G1, G2 = "German 5(2) 9", "German 5(2) 10"
R1, R2, R3 = "Russian 3(1) 9", "Russian 3(1) 10", "Russian 3(1) 11"
A1, A2 = "Austro-Hungarian 3(1) 1", "Austro-Hungarian 3(1) 2"
F1 = "French 4(2) 1"
ITALY_FB = {z: "FB" for z in ("venice", "asiago", "milan", "turin", "rome")}


def attack_in_place(g, s, attacker, zone_name, defender, *then):
    """One activation: `attacker` stays in its zone and attacks `defender` there."""
    return play(
        g, s, "activation", f"activate {attacker} in {zone_name}", f"stay in {zone_name}", "done activating",
        f"attack {defender} in {zone_name}", f"{attacker} attacks", *then,
    )  # fmt: skip


# ---- 9.1 the Italian front ----------------------------------------------------------------------
def test_italian_front_bars_a_russian_army_from_moving_in():
    """§9.1: in Italy and Austria-Hungary's frontier zones with Italy only Austro-Hungarian and
    Italian armies stand, besides one German and one French or British army: a Russian army in
    Vienna may not move into Trentino or Trieste, though it may into Budapest."""
    g, s = scenario(["RU"], at={R1: "vienna"}, control={"vienna": "RU"})
    moves = labels(g, play(g, s, "activation", f"activate {R1} in Vienna", "move"))
    assert "to Budapest (cost 2)" in moves
    assert not any(m.startswith(("to Trentino", "to Trieste")) for m in moves)


def test_italian_front_bars_a_russian_retreat_into_it():
    """§9.1 with §9.2: a Russian army in Vienna, beaten but saved by its trench, must retreat to
    a zone of its side; Trentino and Trieste (Russian-held) are on the Italian front, closed to
    Russians, so it retreats to Krakow."""
    control = {"vienna": "RU", "trentino": "RU", "trieste": "RU", "krakow": "RU"}
    g, s = scenario(
        ["AH"], at={A1: "vienna", R1: "vienna"}, control=control, trench={"vienna": 1}, trench_owner={"vienna": "RU"},
        pins=(6, 1),
    )  # fmt: skip
    s = attack_in_place(g, s, A1, "Vienna", R1, f"{R1} takes the loss", "the trench takes the loss")
    assert labels(g, s) == ["retreat to Krakow"]


def test_italian_front_still_admits_one_german_army():
    """§9.1: one German army may stand on the front: with none there, a German army in Munich may
    move into Trentino."""
    g, s = scenario(["GE"], at={G1: "munich"})
    assert "to Trentino (cost 1)" in labels(g, play(g, s, "activation", f"activate {G1} in Munich", "move"))


# ---- 11. trenches ---------------------------------------------------------------------------------
def test_an_enemy_army_passing_through_removes_a_lone_trench():
    """§11: a trench is removed when its zone holds only armies of an enemy Power. A German army
    moves from Posen through Lodz (a Russian trench, no Russian army) on to Krakow: the trench is
    gone although no army stands in Lodz at the end of the move or of the turn."""
    g, s = scenario(["GE"], at={G1: "posen"}, trench={"lodz": 1}, trench_owner={"lodz": "RU"})
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Lodz (cost 2)")
    assert var(g, s, "trench")["lodz"] == 0 and var(g, s, "trench_owner")["lodz"] is None
    s = play(g, s, "to Krakow (cost 1)", "stop in Krakow")
    s = finish(g, s)
    assert var(g, s, "trench")["lodz"] == 0 and var(g, s, "at")[G1] == "krakow"


def test_a_trench_with_its_own_army_stays_when_an_enemy_enters():
    """§11: the trench goes only when none of its side's armies is left: a German army entering
    Lodz, where a Russian army holds a Russian trench, leaves the trench standing."""
    g, s = scenario(["GE"], at={G1: "posen", R1: "lodz"}, trench={"lodz": 1}, trench_owner={"lodz": "RU"})
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Lodz (cost 2)")
    assert var(g, s, "trench")["lodz"] == 1


# ---- 9. Russia's 1916 duty ------------------------------------------------------------------------
def test_russias_1916_duty_counts_two_different_armies_not_two_attacks():
    """§9: Russia must attack at least two German or Austro-Hungarian armies in 1916 (our reading:
    two different armies). Autumn 1916: A1 was attacked in an earlier turn of the year; attacking
    it again would be a second attack but not a second army, so the attack Russia must make is on
    A2."""
    g, s = scenario(["RU"], at={R1: "lemberg", A1: "lemberg", A2: "lemberg"}, turn=10, ru_attacked_1916=[A1])
    assert "end the turn" not in labels(g, s)
    s = play(g, s, "missions", "activation", f"activate {R1} in Lemberg", "stay in Lemberg", "done activating")
    assert labels(g, s) == [f"attack {A2} in Lemberg"]
    s = play(g, s, f"attack {A2} in Lemberg", f"{R1} attacks")
    assert var(g, s, "ru_attacked_1916") == (A1, A2)


# ---- 3. and 9.1 movement through occupied zones ----------------------------------------------------
def test_a_zone_holds_armies_of_two_powers_at_most():
    """§3: a zone can hold armies of two enemy Powers (our reading: of two Powers at most). With a
    German and a Russian army in Lodz, an Austro-Hungarian army may not join them from Krakow;
    with the option more_powers_per_zone it may."""
    at = {G1: "lodz", R1: "lodz", A1: "krakow"}
    g, s = scenario(["AH"], at=at)
    moves = labels(g, play(g, s, "activation", f"activate {A1} in Krakow", "move"))
    assert not any(m.startswith("to Lodz") for m in moves) and "to Vienna (cost 1)" in moves
    g, s = scenario(["AH"], at=at, options=(("more_powers_per_zone", True),))
    assert "to Lodz (cost 2)" in labels(g, play(g, s, "activation", f"activate {A1} in Krakow", "move"))


def test_a_german_army_is_not_ceded_where_three_powers_would_stand():
    """§3 with §14: German G1 stands in Austro-Hungarian Przemysl with a Russian army (1915); G2
    moves in from Krakow. Ceding G2 would leave German, Austro-Hungarian and Russian armies in one
    zone, so it is not offered; with the option more_powers_per_zone it is."""
    at = {G1: "przemysl", R1: "przemysl", G2: "krakow"}
    for options, offered in (((), False), ((("more_powers_per_zone", True),), True)):
        g, s = scenario(["GE"], at=at, control={"przemysl": "AH"}, options=options)
        s = play(g, s, "activation", f"activate {G2} in Krakow", "move", "to Przemysl (cost 1)")
        assert (f"cede {G2} to the Austro-Hungarians" in labels(g, s)) == offered


def test_an_army_joining_its_side_among_enemies_ends_its_move_unless_the_option():
    """§9.1 (our reading): an army entering a zone with enemy armies ends its move there, even
    where armies of its side stand. With move_on_from_enemies it may go on, but only to a zone
    of its side (9.1: from a zone with enemies only to one controlled by its side)."""
    at = {G1: "posen", G2: "lodz", R1: "lodz"}
    g, s = scenario(["GE"], at=at)
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Lodz (cost 2)")
    assert not any(m.startswith("to ") for m in labels(g, s))
    assert var(g, s, "at")[G1] == "lodz"
    g, s = scenario(["GE"], at=at, options=(("move_on_from_enemies", True),))
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Lodz (cost 2)")
    moves = labels(g, s)
    assert "to Krakow (cost 1)" in moves and not any(m.startswith("to Warsaw") for m in moves)


def test_no_army_passes_through_a_zone_its_power_fills():
    """§3 (our reading): the stacking limit binds every zone entered, so a German army in Berlin
    cannot pass through Posen, where three German armies stand, on its way east."""
    g, s = scenario(["GE"], at={G1: "posen", G2: "posen", "German 5(2) 11": "posen", "German 5(2) 12": "berlin"})
    moves = labels(g, play(g, s, "activation", "activate German 5(2) 12 in Berlin", "move"))
    assert not any(m.startswith("to Posen") for m in moves)


def test_with_the_option_an_army_passes_through_a_full_stack_without_stopping():
    """§3, the option pass_full_stacks: the German army from Berlin may go through Posen (three
    German armies) on to Lodz, but may not stop in Posen."""
    at = {G1: "posen", G2: "posen", "German 5(2) 11": "posen", "German 5(2) 12": "berlin"}
    g, s = scenario(["GE"], at=at, options=(("pass_full_stacks", True),))
    s = play(g, s, "activation", "activate German 5(2) 12 in Berlin", "move", "to Posen (cost 1)")
    assert "stop in Posen" not in labels(g, s) and "to Lodz (cost 2)" in labels(g, s)
    s = play(g, s, "to Lodz (cost 2)")
    assert var(g, s, "at")["German 5(2) 12"] == "lodz"


def test_gamedef_rules_lists_these_readings_and_options(capsys):
    """Every reading above is written beside its rule and every option is listed by `gamedef rules`."""
    from interpreter.cli import main

    assert main(["rules", "downfall_of_empires"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for option in ("more_powers_per_zone", "pass_full_stacks", "move_on_from_enemies", "italian_limit_per_zone"):
        assert f"`{option}` (false)" in out
    for reading in (
        "no army of another nation (Russian, American, Ottoman, Serbian, Bulgarian, Romanian) may be there at all",
        "the trench is removed the moment the zone holds only enemy armies",
        "Russia's duty counts armies, not attacks",
        "an army entering a zone with enemy armies ends its move there",
        "no army passes through a zone where its Power already has as many armies as the limit",
        "armies of two Powers at most in a zone",
    ):
        assert reading in out, reading
