"""Where a game's random playouts spend their time, by part of the interpreter.

    python -m benchmarks.profile [GAME ...] [--games N] [--players K]

Runs random playouts under cProfile and sums each function's own time into a few parts:
the engine (running steps from one decision to the next), the game's rules
as compiled (expressions, native blocks, steps, inlined procedures), the built-in
functions they call (searches such as `path_steps`, list helpers), the random draws, and
the rest. The shares are what `benchmarks/README.md` reports per game.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random

from interpreter import load_game

GAMES = {
    "berlin_wall": 2,
    "walls_and_wonders": 2,
    "missiles_now": 4,
    "twid": 2,
    "downfall_of_empires": 2,
    "tictactoe": 2,
    "kuhn_poker": 2,
}


def part(filename: str, function: str) -> str:
    """The part of the interpreter a function belongs to."""
    if filename.startswith("<gamedef built-in") or filename.endswith("builtins.py") or filename.endswith("links.py"):
        return "built-ins"
    if filename.startswith("<gamedef") or filename.endswith(("statements.py", "blocks.py", "expressions.py")):
        return "rules as compiled"
    if filename.endswith(("engine.py", "machine.py", "limits.py")):
        return "engine"
    if filename.endswith(("random.py", "rng.py")):
        return "random draws"
    if filename.endswith("modifiers.py"):
        return "modifiers"
    return "other"


def profile(name: str, players: int, games: int) -> tuple[float, dict[str, float], list[tuple[float, str]]]:
    """(total seconds, seconds per part, the costliest functions) of `games` playouts."""
    game = load_game(name)

    def playouts() -> None:
        for seed in range(games):  # as `benchmarks.run` plays them: `Game.playout`
            game.playout(game.start(players=players, seed=seed), random.Random(seed).randrange)

    profiler = cProfile.Profile()
    profiler.runcall(playouts)
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    parts: dict[str, float] = {}
    top: list[tuple[float, str]] = []
    for (filename, _, function), (_, _, own, _, _) in stats.items():
        where = part(filename, function)
        parts[where] = parts.get(where, 0.0) + own
        top.append((own, f"{filename.rsplit('/', 1)[-1]}:{function}"))
    total = sum(parts.values())
    return total, parts, sorted(top, reverse=True)[:12]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), help="bundled games (default: all)")
    parser.add_argument("--games", dest="count", type=int, default=20, help="playouts per game (default 20)")
    parser.add_argument("--players", type=int, default=None, help="players (default: as in GAMES)")
    args = parser.parse_args(argv)
    order = ("engine", "rules as compiled", "built-ins", "modifiers", "random draws", "other")
    print(f"{'game':<22}" + "".join(f"{p:>19}" for p in order))
    details = []
    for name in args.games:
        total, parts, top = profile(name, args.players or GAMES.get(name, 2), args.count)
        print(f"{name:<22}" + "".join(f"{100 * parts.get(p, 0.0) / total:>18.0f}%" for p in order))
        details.append((name, total, top))
    for name, total, top in details:
        print(f"\n{name}: the costliest functions (own time)")
        for own, where in top:
            print(f"  {100 * own / total:5.1f}%  {where}")


if __name__ == "__main__":
    main()
