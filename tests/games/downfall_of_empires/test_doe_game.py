"""Downfall of Empires as a whole: invariants over random games of 2, 3 and 4 players (army
counts per nation, stacking, the 18 turns, supply recomputed after every change of control),
replay and save/load identity, and the command line."""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from functools import cache

import pytest
import tomli_w

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.runtime.saving import state_from_dict, state_to_dict


@cache
def game():
    return load_game("downfall_of_empires")


def check_position(g, s):
    at = g.var(s, "at")
    owner = g.var(s, "owner")
    nations = g.compiled.fields["nation"]
    on_map = Counter(nations[a] for a, z in at.items() if z)
    limits = {
        "Germany": 17,
        "AustriaHungary": 10,
        "Ottoman": 5,
        "Bulgaria": 1,
        "France": 11,
        "UK": 8,
        "Serbia": 1,
        "Italy": 5,
        "USA": 2,
        "Russia": 14,
        "Romania": 1,
    }
    for nation, n in on_map.items():
        assert n <= limits[nation], (nation, n)
    stacks = Counter((z, owner[a]) for a, z in at.items() if z)
    limit = g.compiled.fields["stack_limit"]
    for (z, w), n in stacks.items():
        assert n <= limit[z], (z, w, n)
    assert 1 <= g.var(s, "turn") <= 18
    assert all(0 <= m <= 6 for m in g.var(s, "missions").values())
    assert all(0 <= t <= 2 for t in g.var(s, "trench").values())


def random_game(g, players, seed, check=True, limit=5000):
    rnd = random.Random(seed)
    s = g.start(players=players, seed=seed)
    moves = []
    while not g.is_over(s):
        assert len(moves) < limit, "the game does not end"
        if check:
            check_position(g, s)
        legal = [m.label for m in g.legal_moves(s)]
        assert len(legal) == len(set(legal)), legal
        move = rnd.choice(legal)
        moves.append(move)
        s = g.apply(s, move)
    return s, moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_counts_and_stacking_and_end_after_turn_18(players):
    g = game()
    s, moves = random_game(g, players, players)
    assert g.var(s, "turn") == 18
    result = g.result(s)
    assert result and set(result) <= set(g.seats_for(players))
    lines = g.narrate(s)
    assert sum(line.endswith(" VP") for line in lines[-5:-1]) == 4
    vps = {line.split(": ")[0]: int(line.split(": ")[1].split()[0].replace("−", "-")) for line in lines[-5:-1]}
    top = max(vps.values())
    best = ", ".join(w for w, v in vps.items() if v == top)
    shown = str(top).replace("-", "−")
    assert lines[-1] == f"== the most VP: the {best} ({shown} VP)"  # the war's ending, for `simulate`


def test_supply_is_recomputed_after_every_turn():
    """After each Power's turn the stored supply equals a fresh tracing of the lines."""
    g = game()
    rnd = random.Random(7)
    s = g.start(players=4, seed=7)
    last = None
    checked = 0
    while not g.is_over(s) and checked < 6:
        marker = (g.var(s, "turn"), g.var(s, "actions_done"))
        s = g.apply(s, rnd.choice([m.label for m in g.legal_moves(s)]))
        if g.var(s, "turn") != last and last is not None:
            control = g.var(s, "control")
            supplied = g.var(s, "supplied")
            links = g.compiled.rt.links
            zones = g.compiled.types["Zone"]
            city, home, port = (g.compiled.fields[f] for f in ("city", "home_power", "port"))
            for w in ("GE", "FB", "RU", "AH"):
                side = {"GE": "CP", "AH": "CP", "FB": "EN", "RU": "EN"}
                net = {z for z in zones if control[z] == w and ((city[z] and home[z] == w) or (w == "FB" and port[z]))}
                todo = list(net)
                while todo:
                    z = todo.pop()
                    for n in links.get(z, ()):
                        if n in zones and n not in net and control[n] and side[control[n]] == side[w]:
                            net.add(n)
                            todo.append(n)
                expect = {z for z in zones if z in net or any(n in net for n in links.get(z, ()))}
                assert {z for z in zones if supplied[w][z]} == expect, w
            checked += 1
        last = g.var(s, "turn")
        del marker


def test_a_game_replays_to_the_same_state_and_survives_save_and_load():
    g = game()
    s, moves = random_game(g, 2, 11, check=False)
    again = g.start(players=2, seed=11)
    for i, move in enumerate(moves):
        again = g.apply(again, move)
        if i == len(moves) // 2:
            saved = tomllib.loads(tomli_w.dumps(state_to_dict(g, again)))
            assert state_from_dict(g, saved) == again
    assert again == s


def test_gamedef_run_plays_a_whole_game_and_shows_the_view(capsys):
    assert main(["run", "downfall_of_empires", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Central Powers, Franco-British, Russia" in out and "game over" in out
    assert "Victory points" in out and "Diplomacy" in out


def test_a_question_names_the_power_only_when_the_seat_plays_more_than_one(monkeypatch, capsys):
    import io
    import sys

    # four players: Russia plays the Russians alone, so the question does not name them again
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "downfall_of_empires", "--seat", "russian", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Russia, choose starting technology 1 of 3 (box 1):" in out
    assert "Russians" not in out.split("Russia, choose")[1]
    # two players: the Entente plays the Franco-British and the Russians, and is told which
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "downfall_of_empires", "--players", "2", "--seat", "entente", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Entente, the Franco-British: choose starting technology 1 of 3 (box 1):" in out


def test_the_final_view_gives_the_vp_at_the_end_of_the_war_with_minus_signs(capsys):
    assert main(["run", "downfall_of_empires", "--players", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    final = out.split("== game over")[0].rsplit("Turn 18 of 18", 1)[1]
    assert "Victory points at the end of the war, and missions:" in final and "if the game ended now" not in final
    assert " -" not in final.split("Map (")[0]  # −2 VP, with a minus sign
    assert "armies by counter, combat(support) factors, then their numbers" in final
    # the short story names the winning Powers once; the VP of each are the final view's
    story = out.split("== game over")[0].rsplit("Turn 18 of 18", 1)[0]
    assert "== the most VP: the " in story and "Germans: " not in story.split("Autumn 1918")[-1]


FACE_DOWN = "Technology tiles face down (how many, not which):"


def test_gamedef_play_shows_the_others_face_down_tile_counts_and_the_seats_own_tiles(monkeypatch, capsys):
    import io
    import sys

    # the Russians choose their first starting tile, then leave; the Germans and Franco-British
    # (AI seats) have laid their three tiles before
    monkeypatch.setattr(sys, "stdin", io.StringIO("start researching Attack 1\nview\nquit\n"))
    assert main(["play", "downfall_of_empires", "--seat", "russian", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    views = out.split(FACE_DOWN)[1:]
    assert len(views) == 2  # before the seat's first decision, and asked for (`view`) at its second
    for view in views:
        assert view.splitlines()[1:4] == [
            "    Germans: 3 tiles",
            "    Franco-British: 3 tiles",
            "    Austro-Hungarians: 0 tiles",
        ]
    assert "    Russians, box 1: Attack 1" in views[1]
    # no tile of another Power is named: these are not Russian tiles
    for hidden in ("Manoeuvre", "Aviation", "Poison gas", "Assault troopers", "Tanks"):
        assert hidden not in out


def test_gamedef_run_ends_with_every_powers_face_down_tile_count(capsys):
    assert main(["run", "downfall_of_empires", "--players", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.split(FACE_DOWN)[1].splitlines()[1:5]
    powers = ["Germans", "Franco-British", "Russians", "Austro-Hungarians"]
    assert [line.split(":")[0].strip() for line in lines] == powers
    assert all(line.endswith((" tile", " tiles")) for line in lines)


POWER_OF_SEAT = {
    "german": "Germans",
    "franco_british": "Franco-British",
    "russian": "Russians",
    "austro_hungarian": "Austro-Hungarians",
}


@pytest.mark.parametrize("seed", [1, 5])
def test_a_tile_question_is_asked_only_of_a_power_that_may_hold_the_tile_for_all_others_know(seed):
    """§10: the tiles are secret until used; a tile works from the turn after research put it in box
    2, and completing Aviation or Tanks raises the mission marker by two (§13). Reading only the
    narration another seat reads, a Power that has taken no research action in an earlier turn
    cannot have a tile in use, nor can one whose marker has not risen by two in an earlier turn
    have Aviation or Tanks: such a Power is never asked about them (its only answer would be
    "pass"). Whole random games of 4 players, where the questions do come up."""
    g = game()
    rnd = random.Random(seed)
    s = g.start(players=4, seed=seed)
    turn, researched, gained = 0, Counter(), Counter()
    research_now, gained_now = Counter(), Counter()
    asked = Counter()
    while not g.is_over(s):
        player = g.legal_moves(s)[0].player
        power, prompt = POWER_OF_SEAT[player], g.prompt(s)
        earlier_research, earlier_rises = researched[power], gained[power]
        if prompt.startswith("air support for ") or prompt.endswith("cancel it?"):
            assert earlier_rises >= 1, (turn, power, prompt)
            asked["aviation"] += 1
        elif prompt.startswith("tanks against the trench for "):
            assert earlier_rises >= 1 and earlier_research >= 5, (turn, power, prompt)
            asked["tanks"] += 1
        elif "fourth army? (Manoeuvre)" in prompt:
            assert earlier_research >= 1, (turn, power, prompt)
            asked["manoeuvre"] += 1
        s = g.apply(s, rnd.choice([m.label for m in g.legal_moves(s)]))
        observer = "russian" if power != "Russians" else "german"
        for line in g.narrate(s, observer):
            if line.startswith("== Turn "):
                turn += 1
                researched.update(research_now)
                gained.update(gained_now)
                research_now, gained_now = Counter(), Counter()
            for w in POWER_OF_SEAT.values():
                if line == f"the {w} research a technology":
                    research_now[w] += 1
                elif line == f"the {w} gain two missions":
                    gained_now[w] += 1
    assert turn == 18 and asked["aviation"] > 0 and asked["manoeuvre"] > 0
