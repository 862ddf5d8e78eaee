"""Downfall of Empires: what a seat sees of the rules in play, with pinned dice: the prompts,
the moves and narration as other seats see them, the secret technology tiles and the view. The
rules themselves (the worked examples 15.1-15.6 and the scenarios per section) are test blocks in
gamedefs/downfall_of_empires.test.game. A scenario starts the harness game (tests/doe/harness.game:
the bundled game whose play() runs the listed Powers' turns) from a position arranged here."""

from __future__ import annotations

from tests.doe_helpers import labels, play, scenario, var

G1, G2, G3 = "German 5(2) 9", "German 5(2) 10", "German 5(2) 11"
R1 = "Russian 3(1) 9"
F1 = "French 4(2) 1"


# ---- 8. Recruitment: the question counts its steps in words ----------------------------------------


def test_the_recruit_question_counts_its_steps_in_words():
    g, s = scenario(["GE"], clear=False)
    s = play(g, s, "recruit")
    assert g.prompt(s) == "recruit (3 steps left)"
    s = play(g, s, labels(g, s)[0])
    while not g.prompt(s).startswith("recruit ("):  # where, and at what strength
        s = play(g, s, "full (2 steps)" if "full (2 steps)" in labels(g, s) else labels(g, s)[0])
    assert g.prompt(s) == "recruit (1 step left)"


# ---- 2. and 10. Secret technology tiles ---------------------------------------------------------
def test_starting_tiles_are_secret_from_the_other_seats():
    from interpreter import load_game
    from interpreter.runtime.render import render

    g = load_game("downfall_of_empires")
    s = g.start(players=4, seed=1)
    label = "start researching Manoeuvre"
    assert g.move_view(s, label, "franco_british") == "(secret choice)"
    assert g.move_view(s, label, "german") == label
    s = g.apply(s, label)
    assert g.narrate(s, player="german") == ["the Germans put Manoeuvre in box 1"]
    for other in ("franco_british", "russian", "austro_hungarian"):
        assert g.narrate(s, player=other) == []
        seen = g.observation(s, other)
        assert seen["vars"]["tiles"]["german"] == {"hidden": 4}
        assert "Manoeuvre" not in str(seen["log"])
        assert "Manoeuvre" not in render(g, s, other)
    assert g.observation(s, "german")["vars"]["tiles"]["german"]["GE"]["manoeuvre"] == 1
    assert "Manoeuvre" in render(g, s, "german")


def test_starting_tiles_in_two_players_stay_within_the_coalition_seat():
    from interpreter import load_game

    g = load_game("downfall_of_empires")
    s = g.start(players=2, seed=1)
    for label in ("start researching Attack 1", "start researching Defense 1"):
        s = g.apply(s, label)
    assert g.observation(s, "entente")["vars"]["tiles"]["central"] == {"hidden": 4}
    assert g.var(s, "tiles")["central"]["GE"]["attack_1"] == 1


def test_a_research_action_is_secret_but_seen_to_happen():
    g, s = scenario(["FB"])
    s = play(g, s, "research")
    # everyone reads that research is done; only the seat reads which tile
    assert g.narrate(s, player="german") == ["the Franco-British research a technology"]
    assert g.move_view(s, "Aviation to box 1", "german") == "(secret choice)"
    s = play(g, s, "Aviation to box 1")
    assert g.narrate(s, player="german") == []
    assert g.narrate(s, player="franco_british") == ["the Franco-British put Aviation in box 1"]
    assert g.observation(s, "russian")["vars"]["tiles"]["franco_british"] == {"hidden": 4}
    assert var(g, s, "shown")["FB"]["aviation"] is False


# ---- 10. Secret tiles: the questions asked about a tile tell nobody who holds it -----------------------
def quiet_choice(legal):
    """The same answer in both positions: decline every tile, stop every list."""
    for label in ("pass", "done activating", "no more support", "no more attacks", "end the turn"):
        if label in legal:
            return label
    return legal[0]


def as_seen_by(g, s, observer, script):
    """Play `script` (then quiet choices to the end) and return what `observer` sees of each
    decision: whose it is, the move as shown to the observer, the narration it may read, and for
    its own decisions the prompt and the moves."""
    seen, script = [], list(script)
    while not g.is_over(s):
        player = g.legal_moves(s)[0].player
        legal = labels(g, s)
        label = script.pop(0) if script else quiet_choice(legal)
        mine = (g.prompt(s), legal) if player == observer else None
        shown = g.move_view(s, label, observer)
        s = play(g, s, label)
        seen.append((player, mine, shown, g.narrate(s, observer)))
    return seen


def test_whether_an_enemy_holds_tanks_aviation_or_manoeuvre_is_not_told_by_the_questions():
    # §10: "Technologies are selected in secret and are not revealed until they are used". The
    # Franco-British attack a German trench with missions to spend and a fourth army to spare, once
    # holding Tanks 1, Aviation, Manoeuvre and Offensive, once none: they use none of them.
    F2, F3, F4 = "French 4(2) 2", "French 4(2) 3", "French 4(2) 4"
    script = ["activation", f"activate {F1} in Metz", "stay in Metz"]
    script += [f"activate {F2} in Verdun", "stay in Verdun", f"activate {F3} in Verdun", "stay in Verdun"]
    script += ["done activating", f"attack {G1} in Metz", f"{F1} attacks"]
    views = []
    for tiles in (["tanks_1", "aviation", "manoeuvre", "offensive"], []):
        g, s = scenario(
            ["FB"],
            at={F1: "metz", G1: "metz", F2: "verdun", F3: "verdun", F4: "paris"},
            trench={"metz": 1},
            trench_owner={"metz": "GE"},
            missions={"FB": 3},
            tech={"FB": tiles} if tiles else None,
            pins=(3, 3),
        )
        views.append(as_seen_by(g, s, "german", script))
    holder, other = views
    assert holder == other
    # the fourth-army, air-support and tanks questions were asked in both, secretly
    secret = [(player, shown) for player, _, shown, _ in holder if shown == "(secret choice)"]
    assert secret == [("franco_british", "(secret choice)")] * 3


def test_whether_a_defender_holds_aviation_is_not_told_by_the_question_to_cancel():
    # §10.4: "If the defender has air support he can cancel the attacker's by spending a mission";
    # the Germans fly, the Franco-British (with or without Aviation) let the air support stand.
    script = ["activation", f"activate {G1} in Lille", "stay in Lille", "done activating"]
    script += [f"attack {F1} in Lille", f"{G1} attacks", "spend a mission on air support (2 left)"]
    views = []
    for tiles in (["aviation"], []):
        g, s = scenario(
            ["GE"],
            at={G1: "lille", F1: "lille"},
            missions={"GE": 2, "FB": 2},
            tech={"GE": ["aviation"], "FB": tiles},
            pins=(3, 3),
        )
        views.append(as_seen_by(g, s, "german", script))
    assert views[0] == views[1]
    assert ("franco_british", None, "(secret choice)") in [x[:3] for x in views[0]]


# ---- 10. A question about a tile is not asked of a Power that cannot hold the tile ---------------------
# A Power with Aviation, Tanks or Manoeuvre among its tiles could be asked about them at every chance, as
# a secret choice, so that being asked tells nothing (the tests above). Whether a Power can hold a tile
# in use at all is public: a tile works from the turn after a research action put it in box 2, and
# Aviation and Tanks raise the mission marker by two when completed (13.). Where all can tell that it
# cannot, the only answer would be "pass": the question is not asked, and nobody learns anything.
# `script_record` makes the scenario's public record of research the one arranged here.
def record(researched=(), gained=(), power="GE"):
    """What all have seen of a Power's research: the turns of its research actions and of its mission
    marker's rises of two (Aviation or Tanks completed)."""
    return dict(
        script_record=True,
        researched_in={power: list(researched)},
        missions_gained_in={power: list(gained)},
    )


def tile_questions(g, s, observer):
    """Answer every tile question with "pass" up to the first loss of the combat; return each
    question as (seat asked, prompt, the move as `observer` sees it)."""
    asked = []
    while "pass" in labels(g, s):
        player = g.legal_moves(s)[0].player
        asked.append((player, g.prompt(s), g.move_view(s, "pass", observer)))
        s = play(g, s, "pass")
    assert any(label.endswith("takes the loss") for label in labels(g, s)), labels(g, s)
    return asked


def german_attack_in_lille(**more):
    g, s = scenario(["GE"], at={G1: "lille", F1: "lille"}, missions={"GE": 2, "FB": 2}, pins=(3, 3), **more)
    s = play(g, s, "activation", f"activate {G1} in Lille", "stay in Lille", "done activating")
    return g, play(g, s, f"attack {F1} in Lille", f"{G1} attacks")


def test_no_air_support_question_before_the_power_can_have_aviation_in_use():
    # turn 5: no research yet, or Aviation completed in this very turn (used from the next): not asked
    for researched, gained in (((), ()), ((3,), ()), ((5,), (5,))):
        g, s = german_attack_in_lille(**record(researched, gained))
        assert tile_questions(g, s, "franco_british") == []
        assert labels(g, s) == [f"{F1} takes the loss"]  # the next decision is the combat's loss
    # Aviation possibly completed in an earlier turn: the question is asked, secretly, whether or not
    # the Germans hold it
    g, s = german_attack_in_lille(**record((3,), (4,)))
    prompt = f"air support for the attack on {F1} in Lille?"
    assert tile_questions(g, s, "franco_british") == [("german", prompt, "(secret choice)")]
    g, s = german_attack_in_lille(tech={"GE": ["aviation"]}, **record((3,), (4,)))
    assert labels(g, s) == ["spend a mission on air support (2 left)", "pass"]


def test_no_question_to_cancel_air_support_for_a_defender_that_cannot_have_aviation():
    fly = "spend a mission on air support (2 left)"
    g, s = german_attack_in_lille(tech={"GE": ["aviation"]}, **record((3,), (4,)))
    s = play(g, s, fly)
    assert tile_questions(g, s, "german") == []  # the Franco-British have no record: not asked
    more = dict(script_record=True, researched_in={"GE": [3], "FB": [2]}, missions_gained_in={"GE": [4], "FB": [2]})
    g, s = german_attack_in_lille(tech={"GE": ["aviation"]}, **more)
    s = play(g, s, fly)
    prompt = "the Germans fly air support over Lille: cancel it?"
    assert tile_questions(g, s, "german") == [("franco_british", prompt, "(secret choice)")]


def french_attack_on_metz(level, researched, gained, options=()):
    """The Franco-British attack a German trench of `level` in Metz with missions to spend; their
    record: `researched` research actions and `gained` rises of the mission marker, in turn 4."""
    g, s = scenario(
        ["FB"],
        at={F1: "metz", G1: "metz"},
        trench={"metz": level},
        trench_owner={"metz": "GE"},
        missions={"FB": 3},
        pins=(3, 3),
        options=options,
        **record([4] * researched, [4] * gained, power="FB"),
    )
    s = play(g, s, "activation", f"activate {F1} in Metz", "stay in Metz", "done activating")
    s = play(g, s, f"attack {G1} in Metz", f"{F1} attacks")
    return [prompt for _, prompt, _ in tile_questions(g, s, "german")]


def test_no_tanks_question_before_the_power_can_have_tanks_of_the_trench_level():
    air = f"air support for the attack on {G1} in Metz?"
    tanks = f"tanks against the trench for the attack on {G1} in Metz?"
    # Tanks 1 needs four other tiles researched first (four research actions) and one of its own
    assert french_attack_on_metz(1, 4, 1) == [air]
    assert french_attack_on_metz(1, 5, 1) == [air, tanks]
    # a level-2 trench needs Tanks 2: one more research action and a second rise of the marker
    assert french_attack_on_metz(2, 5, 1) == [air]
    assert french_attack_on_metz(2, 6, 1) == [air]
    assert french_attack_on_metz(2, 6, 2) == [air, tanks]
    # with tanks_count_box_1 the four other tiles count in box 1, where the three starting ones lie
    box_1 = (("tanks_count_box_1", True),)
    assert french_attack_on_metz(1, 1, 1, box_1) == [air]
    assert french_attack_on_metz(1, 2, 1, box_1) == [air, tanks]


def test_no_fourth_army_question_before_the_power_can_have_manoeuvre_in_use():
    armies = [G1, G2, G3, "German 5(2) 12"]
    fourth = "activate a fourth army? (Manoeuvre)"
    for researched, asked in (((), False), ((5,), False), ((4,), True)):
        g, s = scenario(["GE"], at=dict.fromkeys(armies, "cologne"), **record(researched))
        s = play(g, s, "activation")
        for a in armies[:3]:
            s = play(g, s, f"activate {a} in Cologne", "stay in Cologne")
        assert (g.prompt(s) == fourth) is asked, researched
        if asked:  # without Manoeuvre in use, its only answer, told to the others as a secret choice
            assert labels(g, s) == ["done activating"]
            assert g.move_view(s, "done activating", "russian") == "(secret choice)"
        else:  # the activation is over: the Germans choose their next action
            assert g.prompt(s).endswith(", action 2 of 3") and "end the turn" in labels(g, s)


def test_skipping_a_question_the_public_record_answers_tells_the_others_nothing():
    # The Germans hold Aviation in box 1 or not at all, and have not researched: all can tell they
    # cannot fly, so neither is asked, and the Franco-British see the same game.
    views = []
    for tiles in ({"aviation": 1}, {"attack_1": 1}):
        g, s = german_attack_in_lille(tiles={"german": {"GE": tiles}}, **record())
        seen = []
        while not g.is_over(s):
            label = labels(g, s)[0] if "end the turn" not in labels(g, s) else "end the turn"
            seen.append((g.legal_moves(s)[0].player, g.move_view(s, label, "franco_british")))
            s = play(g, s, label)
            seen.append(tuple(g.narrate(s, "franco_british")))
        views.append(seen)
    assert views[0] == views[1]
    assert not any(x == (p, "(secret choice)") for x in views[0] for p in ("german", "franco_british"))


# ---- 10. The view: how many tiles each other Power holds face down, never which ------------------------
FACE_DOWN = "Technology tiles face down (how many, not which):"


def face_down_lines(text):
    """The lines of the view's face-down count, without their indent."""
    lines = text.splitlines()
    start = lines.index(FACE_DOWN) + 1
    out = []
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        out.append(line.strip())
    return out


def test_the_view_counts_the_other_powers_face_down_tiles_and_names_none():
    from interpreter import load_game
    from interpreter.runtime.render import render

    g = load_game("downfall_of_empires")
    s = g.start(players=4, seed=1)
    starting = {
        "GE": ["Manoeuvre", "Poison gas", "Assault troopers"],
        "FB": ["Manoeuvre", "Offensive", "Aviation"],
        "RU": ["Attack 1", "Defense 1", "Offensive"],
        "AH": ["Attack 1", "Defense 1", "Aviation"],
    }
    for tiles in starting.values():
        s = play(g, s, *[f"start researching {t}" for t in tiles])
    # the Germans lay a fourth tile: everyone sees one more face down, nobody but them which
    s = play(g, s, "research", "Offensive to box 1")
    seen = render(g, s, "austro_hungarian")
    assert face_down_lines(seen) == ["Germans: 4 tiles", "Franco-British: 3 tiles", "Russians: 3 tiles"]
    assert "Austro-Hungarians, box 1: Attack 1, Defense 1, Aviation" in seen  # its own, by box
    for hidden in ("Manoeuvre", "Poison gas", "Assault troopers", "Offensive"):
        assert hidden not in seen
    assert face_down_lines(render(g, s, "german")) == [
        "Franco-British: 3 tiles",
        "Russians: 3 tiles",
        "Austro-Hungarians: 3 tiles",
    ]
    # a spectator reads every Power's count and no tile
    spectator = render(g, s, None)
    assert face_down_lines(spectator)[0] == "Germans: 4 tiles" and len(face_down_lines(spectator)) == 4
    assert "Manoeuvre" not in spectator and "Aviation" not in spectator
    # two players: the Central Powers' seat reads the two Entente Powers' counts
    g2 = load_game("downfall_of_empires")
    s2 = g2.start(players=2, seed=1)
    for tiles in starting.values():
        s2 = play(g2, s2, *[f"start researching {t}" for t in tiles])
    assert face_down_lines(render(g2, s2, "central")) == ["Franco-British: 3 tiles", "Russians: 3 tiles"]


def test_a_tile_revealed_in_combat_leaves_the_face_down_count():
    from interpreter.runtime.render import render

    g, s = scenario(["GE"], at={G1: "lodz", R1: "lodz"}, tech={"GE": ["attack_1", "manoeuvre"]}, pins=(3, 3))
    assert face_down_lines(render(g, s, "russian"))[0] == "Germans: 2 tiles"
    s = play(g, s, "activation", f"activate {G1} in Lodz", "stay in Lodz", "done activating")
    s = play(g, s, f"attack {R1} in Lodz", f"{G1} attacks")
    seen = render(g, s, "russian")
    assert face_down_lines(seen)[0] == "Germans: 1 tile"  # Attack 1 is shown; Manoeuvre stays face down
    assert "Germans: Attack 1" in seen and "Manoeuvre" not in seen


def test_the_points_left_of_a_move_are_counted_in_words():
    # the prompt of a move (what the seat reads); the zones offered are in downfall_of_empires.test.game
    g, s = scenario(["GE"], at={G1: "posen"})
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Breslau (cost 1)")
    assert g.prompt(s) == f"{G1} in Breslau: 3 movement points left"
    s = play(g, s, "to Krakow (cost 1)")
    assert g.prompt(s) == f"{G1} in Krakow: 2 movement points left"
    g, s = scenario(["GE"], at={G1: "posen"})
    s = play(g, s, "activation", f"activate {G1} in Posen", "move", "to Lodz (cost 2)", "to Krakow (cost 1)")
    assert g.prompt(s) == f"{G1} in Krakow: 1 movement point left"
