"""Missiles, Now!: invariants over random playouts.

Every random game ends (2 to 6 players) with one winner who meets a win condition; replaying
the move labels reproduces the same states; after every move every sheet stays within the
bounds of the printed sheet; at the end of each turn nobody has more than 7 complete boxes;
the short narration of `gamedef run` stays a readable summary, dated by rounds (issue 10).
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from repo_paths import ROOT

from interpreter import Move, load_game
from interpreter.cli.commands import main

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # Missiles, Now!: 2 players stays.
    r"test_every_random_game_ends_with_one_winner_by_a_win_condition\[[3-6]\]",
]

GAME = ROOT / "gamedefs" / "missiles_now.game"
LINES = {
    "missile": 3,
    "missile_crisis": 1,
    "space_race": 3,
    "berlin_wall": 1,
    "propaganda": 1,
    "espionage": 3,
    "counterintelligence": 1,
    "red_telephone": 1,
    "russian_roulette": 1,
    "doomsday_clock": 1,
}
ACTIVE = {i: 0 for i in LINES} | {"berlin_wall": 1, "doomsday_clock": 3}
SEEDS = {2: 120, 3: 80, 4: 60, 5: 15, 6: 15}


@cache
def game():
    return load_game(GAME)


def playout(players: int, seed: int):
    """Every state of one random game, and the labels chosen."""
    g = game()
    s = g.start(players=players, seed=seed)
    rng = random.Random(seed)
    states, labels = [s], []
    while not g.is_over(s):
        assert s.pending is not None and s.pending.values, "no legal move in a live game"
        i = rng.randrange(len(s.pending.values))
        labels.append(Move(s.pending.player, g.labels(s)[i]))
        s = g.apply_index(s, i)
        states.append(s)
        assert len(labels) < 50_000, f"{players} players, seed {seed}: no end in sight"
    return states, labels


@cache
def recorded(players: int, seed: int):
    return playout(players, seed)


def win_reason(g, s) -> str:
    last = g.narrate(s)[-1]
    if last.endswith("has three complete Missiles"):
        return "missiles"
    if last.endswith("completes a Missile with Russian Roulette"):
        return "roulette"
    if last.endswith("strikes midnight") and "Doomsday Clock" in last:
        return "clock"
    return last


@pytest.mark.parametrize("players", sorted(SEEDS))
def test_every_random_game_ends_with_one_winner_by_a_win_condition(players):
    """Winning the game: every random game ends, won by one player through one of the three win
    conditions (and the winner's sheet shows it)."""
    g = game()
    reasons = set()
    for seed in range(SEEDS[players]):
        states, _ = recorded(players, seed) if seed < 3 else playout(players, seed)
        s = states[-1]
        assert g.is_over(s) and g.legal_moves(s) == []
        (winner,) = g.result(s)
        reason = win_reason(g, s)
        reasons.add(reason)
        complete = g.var(s, "complete")[winner]
        if reason == "missiles":
            assert complete["missile"] == 3
        elif reason == "clock":
            assert complete["missile"] >= 1 and g.var(s, "active")[winner]["doomsday_clock"] == 0
        else:
            assert reason == "roulette", reason
            assert complete["missile"] >= 1
    if SEEDS[players] >= 60:
        assert reasons == {"missiles", "roulette", "clock"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replaying_the_labels_gives_the_same_states(players):
    """A game replayed move by move, by label, from the same start reproduces every state."""
    g = game()
    for seed in range(3):
        states, labels = recorded(players, seed)
        r = g.start(players=players, seed=seed)
        assert r == states[0]
        for n, move in enumerate(labels, 1):
            r = g.apply(r, move)
            assert r == states[n], f"seed {seed}: replay differs after move {n} ({move})"
        assert g.result(r) == g.result(states[-1])


def check_sheets(g, s, where: str) -> None:
    parts, complete, active = g.var(s, "parts"), g.var(s, "complete"), g.var(s, "active")
    for p in s.players:
        for item, lines in LINES.items():
            c, n, a = complete[p][item], parts[p][item], active[p][item]
            assert 0 <= c <= lines, (where, p, item, c)
            assert 0 <= n <= 4, (where, p, item, n)
            assert n == 0 or c < lines, (where, p, item, "parts on a line whose box is checked")
            assert 0 <= a <= ACTIVE[item], (where, p, item, a)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sheets_stay_within_bounds_after_every_move(players):
    """Important (Elements) and the sheet: parts 0 to 4 on a line without its complete box checked,
    complete boxes up to the item's lines, active boxes up to the printed ones (Berlin Wall 1,
    Doomsday Clock 3, none elsewhere)."""
    g = game()
    for seed in range(3):
        states, _ = recorded(players, seed)
        for n, s in enumerate(states):
            check_sheets(g, s, f"seed {seed}, after move {n}")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nobody_has_more_than_seven_complete_items_at_the_end_of_a_turn(players):
    """End of the turn: at most 7 complete items. A turn ends when the next player's first collection
    is offered (a decision by another player than the one before, who is not reacting)."""
    g = game()
    checked = 0
    for seed in range(3):
        states, labels = recorded(players, seed)
        for n in range(1, len(states) - 1):
            s = states[n]
            new_turn = (
                labels[n - 1].player != s.pending.player
                and g.prompt(s).startswith(f"{g.seat_title(s.pending.player)}: you roll")
                and not labels[n - 1].label.startswith("cancel ")
            )
            if new_turn:
                totals = {p: sum(v.values()) for p, v in g.var(s, "complete").items()}
                assert max(totals.values()) <= 7, (seed, n, totals)
                checked += 1
    assert checked > 20


# A key event dated by its round (or the preparation), or the round marker with the standings.
DATED = re.compile(
    r"^(== Round (\d+): complete Missiles .*; complete items in all .*|Round (\d+): .*|Preparation: .*)$"
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_short_narration_is_dated_by_round_and_leaves_out_the_routine(players):
    """Issue 10 (a readable summary): every line of the short narration (`log headline`) is dated
    by the round it happens in, the rounds only go forward, the standings come every ten rounds,
    and routine events (rolls, items played or completed, exchanges) are left to `--verbose`."""
    g = game()
    for seed in range(3):
        states, _ = recorded(players, seed)
        last, standings = 0, []
        for s in states:
            for line in g.narrate(s, headlines=True):
                m = DATED.match(line)
                assert m, (seed, line)
                n = int(m.group(2) or m.group(3) or 0)
                assert last <= n <= g.var(s, "round"), (seed, line)
                last = n
                if m.group(2):
                    standings.append(n)
                assert " plays " not in line and " rolls " not in line and " exchange" not in line, line
                assert not re.search(r"completes .* \(\d of \d\)", line), line
        assert standings == list(range(1, g.var(states[-1], "round") + 1, 10)), (seed, standings)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gamedef_run_tells_a_game_in_at_most_80_lines(players, capsys):
    """Issue 10: `gamedef run missiles_now` (the short narration, then the final sheets and the
    result) is a summary of a few dozen lines, not one line per roll: at most 80 lines for
    seeds 1 to 10 (before: 126 to 831 lines), starting with the standings of round 1."""
    counts = []
    for seed in range(1, 11):
        assert main(["run", str(GAME), "--players", str(players), "--seed", str(seed)]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[1].startswith("== Round 1: complete Missiles "), out[:3]
        assert out[-1].startswith("== game over after ")
        counts.append(len(out))
    assert max(counts) <= 80, counts
    assert sum(counts) / len(counts) <= 50, counts
