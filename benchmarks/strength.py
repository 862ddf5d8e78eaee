"""Strength, measured: each agent against random and against each other, on every bundled game.

    python -m benchmarks.strength [--games N] [--seed S] [--only GAME ...] [--match GAME:PLAYERS:A,B ...]
                                  [--option K=V ...] [--jobs J] [--out FILE]
    python -m benchmarks.strength --table FILE ...

A match `A vs B` on a game of P players is played P times over the same seeds (`--games`
games each time, seeds S to S+N-1): once with A in each seat and B in every other seat,
so a seat's own advantage cancels (for two players: the same deals with the seats swapped).
Reported per match: the games, A's wins (a win shared by k seats counts 1/k), its win
rate with the 95% Wilson interval (as `gamedef simulate` gives it), A's fair share (1/P),
the games no one won, A's mean payoff with its 95% interval (the game's `payoff`, or +1
shared by the winners and -1 by the others), and the seconds the match took. Each game is
the game `gamedef run GAME --seed S --agent SEAT=KIND ...` plays with the same agents, so
any of them can be watched again. A game that stops on an error in the rules is left out
of the figures and listed under its row.

The agents searched at a time per move (`ismcts:0.5s`) are not reproducible (the
machine's speed decides how many iterations fit); those at a number of iterations
(`mcts:50`) are. `MATCHES` says which each game gets, and why.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass

from interpreter.core.errors import UsageError
from interpreter.play.agents import RESAMPLING
from interpreter.play.simulate import Setup, mean_interval, simulate, wilson
from interpreter.runtime.load import load_game
from interpreter.runtime.resample import unresampled


@dataclass(frozen=True)
class Match:
    """Agent `a` in one seat against `b` in the others, on `game` with `players` seats."""

    game: str
    players: int
    a: str
    b: str
    games: int  # games per seating (the match plays `players` times as many)
    options: tuple[tuple[str, str], ...] = ()  # the game's options (`--option K=V`), if not its defaults


# The games and agents of the table in benchmarks/README.md ("Strength"). Small games at a
# time per move; the long ones at the cheap agents (one ply by the estimate; a search whose
# rollouts are cut at 30 decisions and scored by the estimate, its moves ordered by it).
MATCHES: tuple[Match, ...] = (
    Match("tictactoe", 2, "mcts:0.1s", "random", 50),
    Match("tictactoe", 2, "ismcts:0.1s", "random", 50),
    Match("tictactoe", 2, "mcts:0.1s", "ismcts:0.1s", 50),
    Match("kuhn_poker", 2, "ismcts:0.05s", "random", 500),
    Match("berlin_wall", 2, "greedy", "random", 5),
    Match("berlin_wall", 2, "ismcts:0.1s:d30:o", "random", 5),
    Match("berlin_wall", 2, "ismcts:0.1s:d30:o", "greedy", 5),
    Match("berlin_wall", 4, "greedy", "random", 10),
    Match("walls_and_wonders", 2, "ismcts:0.2s", "random", 5),
    Match("walls_and_wonders", 2, "ismcts:0.2s", "random", 3, (("victory", "economic"),)),
    Match("walls_and_wonders", 2, "greedy", "random", 100),
    Match("walls_and_wonders", 2, "ismcts:0.2s:d30:o", "random", 5),
    Match("walls_and_wonders", 4, "greedy", "random", 10),
    Match("missiles_now", 2, "mcts:0.2s", "random", 5),
    Match("missiles_now", 4, "mcts:0.2s", "random", 2),
    Match("twid", 2, "greedy", "random", 25),
    Match("twid", 2, "ismcts:0.2s:d30", "random", 5),
    Match("twid", 2, "ismcts:0.2s:d30:o", "random", 10),
    Match("twid", 2, "ismcts:0.2s:d30:o", "greedy", 5),
    Match("twid", 2, "ismcts:0.2s:d30:o", "ismcts:0.2s:d30", 10),
    Match("twid", 4, "greedy", "random", 10),
    Match("twid", 4, "ismcts:0.2s:d30:o", "random", 3),
    Match("downfall_of_empires", 4, "greedy", "random", 4),
    # one ply cannot see an offensive pay (the dice, then control at the turn's end): look 6 ahead
    Match("downfall_of_empires", 4, "greedy:d6:n2", "random", 4),
)


def seats_of(game: str, players: int) -> tuple[str, ...]:
    """The seats of a game of `players` players, in order."""
    g = load_game(game)
    return g.start(players=players, seed=0).players


def play_match(match: Match, seed: int, games: int | None = None, jobs: int = 1) -> dict:
    """Play a match (module docstring) and return its figures as plain data."""
    n = games or match.games
    seats = seats_of(match.game, match.players)
    plain = load_game(match.game)
    chance = any(k.startswith(RESAMPLING) for k in (match.a, match.b)) and bool(unresampled(plain))
    wins = nobody = 0.0
    payoffs: list[float] = []
    by_seat = {}
    stopped: list[str] = []  # games that stopped on an error in the rules (left out of the figures)
    started = time.perf_counter()
    for seat in seats:
        agents = tuple(f"{s}={match.a if s == seat else match.b}" for s in seats)
        setup = Setup(match.game, players=match.players, agents=agents, chance=chance, options=dict(match.options))
        records = []
        for s in range(seed, seed + n):  # one at a time: a game stopped by a rule error is counted, not fatal
            try:
                records += simulate(setup, 1, s, jobs)
                print(
                    f"  seed {s}, {match.a} as {seat}: won by {', '.join(records[-1].winners) or 'no one'}"
                    f" ({time.perf_counter() - started:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
            except UsageError as err:
                lines = err.message.splitlines()
                why = next((line for line in lines if "error:" in line), lines[0]).split("error:")[-1].strip()
                stopped.append(f"seed {s}, {match.a} as {seat}: {why}")
        won = sum(1 / len(r.winners) for r in records if seat in r.winners)
        by_seat[seat] = won
        wins += won
        nobody += sum(1 for r in records if not r.winners)
        payoffs += [dict(r.payoffs)[seat] for r in records]
    total = len(payoffs)
    low, high = wilson(wins, total)
    mean, plow, phigh = mean_interval(payoffs)
    return {
        "game": match.game + "".join(f" ({k}={v})" for k, v in match.options),
        "players": match.players,
        "a": match.a,
        "b": match.b,
        "seed": seed,
        "games": total,
        "wins": wins,
        "rate": wins / total,
        "low": low,
        "high": high,
        "share": 1 / len(seats),
        "no_winner": nobody,
        "by_seat": by_seat,
        "payoff": mean,
        "payoff_low": plow,
        "payoff_high": phigh,
        "seconds": round(time.perf_counter() - started, 1),
        "chance_mode": chance,
        "stopped": stopped,
    }


def row(r: dict) -> str:
    """A row of the README's table."""
    seats = ", ".join(f"{s} {w:g}" for s, w in r["by_seat"].items())
    return (
        f"| {r['game']} | {r['players']} | `{r['a']}` | `{r['b']}` | {r['games']} | {r['wins']:g} ({seats}) "
        f"| **{r['rate']:.0%}** ({r['low']:.0%} – {r['high']:.0%}) | {r['share']:.0%} | {r['no_winner']:g} "
        f"| {r['payoff']:+.2f} ({r['payoff_low']:+.2f} to {r['payoff_high']:+.2f}) | {r['seconds']:.0f} |"
        + "".join(f"\n<!-- stopped: {line} -->" for line in r.get("stopped", []))
    )


HEADER = (
    "| game | players | agent A | the others | games | A's wins (by seat) | A's win rate (95%) | fair share "
    "| no winner | A's mean payoff (95%) | seconds |\n|---|---:|---|---|---:|---|---:|---:|---:|---:|---:|"
)


def parse_match(text: str, games: int, options: list[str]) -> Match:
    """`GAME:PLAYERS:A,B` from the command line, with the `--option K=V` given."""
    game, players, rest = text.split(":", 2)
    a, b = rest.split(",")
    return Match(game, int(players), a, b, games, tuple(tuple(o.split("=", 1)) for o in options))  # type: ignore[misc]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, help="games per seating (default: each match's own)")
    ap.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    ap.add_argument("--only", nargs="*", default=[], help="only these games")
    ap.add_argument("--match", action="append", default=[], help="a match GAME:PLAYERS:A,B instead of the table's")
    ap.add_argument("--option", action="append", default=[], help="a game option K=V for the --match matches")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--out", help="append each match's figures to this file, one JSON object a line")
    ap.add_argument("--table", nargs="*", help="print the table of matches saved with --out in these files, no play")
    args = ap.parse_args(argv)
    if args.table:
        print(HEADER)
        for path in args.table:
            with open(path) as f:
                for line in f:
                    print(row(json.loads(line)))
        return
    matches = [parse_match(m, args.games or 10, args.option) for m in args.match] or [
        m for m in MATCHES if not args.only or m.game in args.only
    ]
    print(HEADER, flush=True)
    for m in matches:
        r = play_match(m, args.seed, args.games, args.jobs)
        print(row(r), flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(r) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
