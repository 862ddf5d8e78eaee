"""Measure the interpreter beside hand-written Python versions of the same games.

    python -m benchmarks.run [--seconds 3] [--only TEXT ...] [--repeat N] [--cpu]

For each game: random playouts through the interpreter (`Game.playout`, the searches'
and `gamedef bench`'s path, and `Game.apply_index`, a frozen state per decision) and
through the plain Python baseline in `benchmarks/baselines/`, in the same process, taking
turns, each for about the same time; then the ratios of decisions per second. Also the
time to parse, check and compile each game file, and OpenSpiel's pure-Python tic-tac-toe
when `open-spiel` is installed (the `bench` extra), and a new process's import and
`load_game` once the compiled game is cached (interpreter/compile/gamecache.py).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from interpreter import find_game, load_game
from interpreter.check.checker import check_game
from interpreter.compile import codecache
from interpreter.compile.compiler import compile_game
from interpreter.language.parser import parse_text
from interpreter.language.program import load_program

from .baselines import berlin_wall, kuhn_poker, missiles_now, tictactoe, twid_influence, walls_and_wonders

# The Wall is Down's representative part: its influence operations alone (rule 6.2.1), as
# the scenario variant plays them and baselines/twid_influence.py writes them by hand.
TWID_INFLUENCE = str(Path(__file__).resolve().parent / "scenarios" / "twid_influence.game")


def interpreter_playouts(name: str, players: int, variants=()) -> Callable[[int], int]:
    """Random playouts as searches and `gamedef bench` run them: `Game.playout`, one
    working copy for the whole game, as the hand-written versions mutate their state."""
    game = load_game(name, variants=variants)

    def playout(seed: int) -> int:
        state = game.start(players=players, seed=seed)
        return game.playout(state, random.Random(seed).randrange).decisions

    return playout


def immutable_playouts(name: str, players: int, variants=()) -> Callable[[int], int]:
    """The same playouts a state at a time (`Game.apply_index`): every position frozen."""
    game = load_game(name, variants=variants)

    def playout(seed: int) -> int:
        rng = random.Random(seed)
        state = game.start(players=players, seed=seed)
        while state.result is None:
            state = game.apply_index(state, rng.randrange(len(state.pending.values)))
        return state.decisions

    return playout


# Every bundled game through `legal_moves` + `apply` against `apply_index` (issue: at 0.7 or more).
PUBLIC_API_GAMES = (
    ("Tic-tac-toe", "tictactoe", 2),
    ("Kuhn poker", "kuhn_poker", 2),
    ("Berlin Wall, 2 players", "berlin_wall", 2),
    ("Walls and Wonders, 2", "walls_and_wonders", 2),
    ("Missiles, Now!, 2", "missiles_now", 2),
    ("The Wall is Down, 2", "twid", 2),
    ("Downfall of Empires, 4", "downfall_of_empires", 4),
)


def public_api_playouts(name: str, players: int) -> Callable[[int], int]:
    """Random playouts through the calls a user or an agent makes first: `legal_moves`,
    then `apply(state, move)` with one of them (labels written, a move found by label)."""
    game = load_game(name)

    def playout(seed: int) -> int:
        rng = random.Random(seed)
        state = game.start(players=players, seed=seed)
        while state.result is None:
            moves = game.legal_moves(state)
            state = game.apply(state, moves[rng.randrange(len(moves))])
        return state.decisions

    return playout


# The clock the sides are timed by: the wall clock, or with `--cpu` the process's own CPU
# time, which another process's load on a shared machine disturbs less (caches still shared).
clock = time.perf_counter


def measure(playout: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    """Run playouts with successive seeds for about `seconds`: (games, decisions, time)."""
    games = decisions = 0
    start = clock()
    while True:
        decisions += playout(games)
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games, decisions, elapsed


def measure_games(playout: Callable[[int], int], games: int) -> tuple[int, int, float]:
    """Play the games of seeds 0 to games - 1: (games, decisions, time)."""
    decisions = 0
    start = clock()
    for seed in range(games):
        decisions += playout(seed)
    return games, decisions, clock() - start


def side_by_side(*playouts, seconds: float, rounds: int) -> list[tuple]:
    """Each playout's best round of (games, decisions, time), taking turns: the machine's
    other load slows them all, and the best round is the least disturbed. In a round the
    first plays for its share of the time, and the others play the same seeds, so all
    sides are measured on the same games (games differ in length and in the cost of
    their decisions: different games would weigh their decisions differently)."""
    runs: list[list] = [[] for _ in playouts]
    for _ in range(rounds):
        first = measure(playouts[0], seconds / rounds)
        runs[0].append(first)
        for playout, kept in zip(playouts[1:], runs[1:]):
            kept.append(measure_games(playout, first[0]))
    return [max(kept, key=lambda r: r[1] / r[2]) for kept in runs]


def parse_check_compile(name: str, repeat: int = 5) -> tuple[float, float, float, float]:
    """Parse, check, compile with no cached code, and compile as a new process does when
    an earlier run left its compiled code in the cache (interpreter/compile/codecache.py)."""
    path = find_game(name)
    program = load_program(path)
    games = {p: text for p, text in program.sources.items() if p.endswith(".game")}
    t0 = time.perf_counter()
    for _ in range(repeat):  # every .game file the game includes
        for p, text in games.items():
            parse_text(text, p)
    parse = (time.perf_counter() - t0) / repeat
    t0 = time.perf_counter()
    for _ in range(repeat):
        symbols = check_game(program)[0]
    check = (time.perf_counter() - t0) / repeat
    setting = os.environ.get("GAMEDEF_CACHE")

    def compile_time(cache: str) -> float:
        os.environ["GAMEDEF_CACHE"] = cache
        compile_game(program, symbols=symbols)  # writes the cache file, when there is one
        total = 0.0
        for _ in range(repeat):
            codecache._codes.clear()  # as in a new process
            t0 = time.perf_counter()
            compile_game(program, symbols=symbols)
            total += time.perf_counter() - t0
        return total / repeat

    try:
        with tempfile.TemporaryDirectory() as where:
            cold, cached = compile_time("off"), compile_time(where)
    finally:
        if setting is None:
            os.environ.pop("GAMEDEF_CACHE", None)
        else:
            os.environ["GAMEDEF_CACHE"] = setting
    return parse, check, cold, cached


_NEW_PROCESS = """
import sys, time
t0 = time.perf_counter()
import interpreter
t1 = time.perf_counter()
interpreter.load_game(sys.argv[1])
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def new_process_load(name: str, cache: str, repeat: int = 3) -> tuple[float, float]:
    """(import, load) seconds in a new Python process, best of `repeat`, once an earlier
    process has left the compiled game in the cache directory `cache` (interpreter/compile/gamecache.py)."""
    env = dict(os.environ, GAMEDEF_CACHE=cache)
    command = [sys.executable, "-c", _NEW_PROCESS, name]
    subprocess.run(command, env=env, check=True, capture_output=True)  # fills the cache
    runs = []
    for _ in range(repeat):
        out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout.split()
        runs.append((float(out[0]), float(out[1])))
    return min(r[0] for r in runs), min(r[1] for r in runs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per game and side (default 6)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument(
        "--only",
        action="append",
        metavar="TEXT",
        help="only the rows whose label holds TEXT (any case; may be repeated), "
        "without the compile table: to measure a few rows several times",
    )
    parser.add_argument("--repeat", type=int, default=1, help="measure each row this many times (default 1)")
    parser.add_argument(
        "--cpu", action="store_true", help="time each side by the process's CPU time, not the wall clock"
    )
    args = parser.parse_args(argv)
    global clock
    clock = time.process_time if args.cpu else time.perf_counter
    wanted = [t.casefold() for t in args.only or ()]

    def chosen(label: str) -> bool:
        return not wanted or any(t in label.casefold() for t in wanted)

    rows = [  # (label, game, players, its hand-written version, variants)
        ("Berlin Wall, 2 players", "berlin_wall", 2, berlin_wall, ()),
        ("Berlin Wall, 4 players", "berlin_wall", 4, berlin_wall, ()),
        ("Walls and Wonders, 2p", "walls_and_wonders", 2, walls_and_wonders, ()),
        ("Walls and Wonders, 4p", "walls_and_wonders", 4, walls_and_wonders, ()),
        ("Missiles, Now!, 2p", "missiles_now", 2, missiles_now, ()),
        ("Missiles, Now!, 4p", "missiles_now", 4, missiles_now, ()),
        ("Tic-tac-toe", "tictactoe", 2, tictactoe, ()),
        ("Kuhn poker", "kuhn_poker", 2, kuhn_poker, ()),
        ("TWID influence ops, 2p", TWID_INFLUENCE, 2, twid_influence, ("influence_only",)),
        ("TWID influence ops, 4p", TWID_INFLUENCE, 4, twid_influence, ("influence_only",)),
    ]
    print(
        f"{'game':<24} {'playout dec/s':>14} {'apply_index':>12} {'hand-written':>13} {'ratio':>6}"
        f" {'(apply_index)':>14}   games/s (playout / hand)"
    )
    for label, name, players, baseline, variants in rows:
        if not chosen(label):
            continue
        hand = lambda s, baseline=baseline, players=players: baseline.random_playout(players, s)  # noqa: E731
        sides = (
            interpreter_playouts(name, players, variants),
            immutable_playouts(name, players, variants),
            hand,
        )
        for _ in range(args.repeat):
            (g1, d1, t1), (_, d2, t2), (g3, d3, t3) = side_by_side(*sides, seconds=args.seconds, rounds=args.rounds)
            theirs = d3 / t3
            print(
                f"{label:<24} {d1 / t1:>14,.0f} {d2 / t2:>12,.0f} {theirs:>13,.0f} {(d1 / t1) / theirs:>6.2f}"
                f" {(d2 / t2) / theirs:>14.2f}   {g1 / t1:,.1f} / {g3 / t3:,.1f}"
            )
    print()
    print(f"{'public API':<24} {'legal_moves+apply':>18} {'apply_index':>19} {'ratio':>6}")
    for label, name, players in PUBLIC_API_GAMES:
        if not chosen(f"public API {label}"):
            continue
        api, fast = public_api_playouts(name, players), immutable_playouts(name, players)
        for _ in range(args.repeat):
            (_, d1, t1), (_, d2, t2) = side_by_side(api, fast, seconds=args.seconds, rounds=args.rounds)
            print(f"{label:<24} {d1 / t1:>18,.0f} {d2 / t2:>19,.0f} {(d1 / t1) / (d2 / t2):>6.2f}")
    print()
    if wanted:
        return
    try:
        from .baselines import openspiel_tictactoe

        m = openspiel_tictactoe.measure(games=2000)
    except ImportError:
        m = None
    if m is None:
        print("OpenSpiel python_tic_tac_toe: not installed (pip install '.[bench]')")
    else:
        g1, d1, t1 = measure(interpreter_playouts("tictactoe", 2), args.seconds)
        print(
            f"{'OpenSpiel python ttt':<24} {'':>18} {m.decisions_per_s:>19,.0f} "
            f"{(d1 / t1) / m.decisions_per_s:>6.2f}   (ratio = gamedef tic-tac-toe / OpenSpiel's)"
        )
    print()
    print(
        f"{'game (all its files)':<24} {'parse ms':>9} {'check ms':>9} {'compile ms':>11} {'cached ms':>10}"
        f" {'new process: import ms':>23} {'load ms':>8}"
    )
    with tempfile.TemporaryDirectory() as cache:
        for name in (
            "berlin_wall",
            "walls_and_wonders",
            "missiles_now",
            "twid",
            "downfall_of_empires",
            "tictactoe",
            "kuhn_poker",
        ):
            p, c, k, kc = parse_check_compile(name)
            imported, loaded = new_process_load(name, cache)
            print(
                f"{name:<24} {p * 1000:>9.1f} {c * 1000:>9.1f} {k * 1000:>11.1f} {kc * 1000:>10.1f}"
                f" {imported * 1000:>23.1f} {loaded * 1000:>8.1f}"
            )


if __name__ == "__main__":
    main()
