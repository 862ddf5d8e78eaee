"""How the interpreter's cost grows with the board and the players: Berlin Wall's Wall of China.

    python -m benchmarks.growth [--seconds 2]

Random playouts (`Game.playout`, as in `benchmarks.run`) on walls from 12 by 2 to 24 by 4
and 12 by 8 (the eight stacks' 96 pieces), with 2 players, then on one wall with 2 to 8
players. Decisions per second should stay roughly flat: a decision's work is a hammer's
walk over its neighbours, which does not grow with the wall. A fall that follows the
number of cells or of players means some cost scales with the whole state (a copy, a scan
of every cell) rather than with the work of the move.
"""

from __future__ import annotations

import argparse
import random

from interpreter import load_game

from .run import measure


def playouts(columns: int, rows: int, stacks: int, players: int):
    game = load_game(
        "berlin_wall",
        variants=["wall_of_china"],
        options={"columns": columns, "rows": rows, "stacks": stacks},
    )

    def playout(seed: int) -> int:
        state = game.start(players=players, seed=seed)
        return game.playout(state, random.Random(seed).randrange, 50_000).decisions

    return playout


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration (default 2)")
    args = parser.parse_args(argv)
    print(f"{'wall':>8} {'cells':>6} {'stacks':>6} {'players':>7} {'decisions/s':>12} {'decisions/game':>15}")
    walls = [(12, 2, 4), (12, 4, 4), (16, 4, 6), (24, 4, 8), (16, 6, 8), (12, 8, 8)]
    configs = [(c, r, s, 2) for c, r, s in walls] + [(12, 8, 8, p) for p in (4, 6, 8)]
    for columns, rows, stacks, players in configs:
        games, decisions, seconds = measure(playouts(columns, rows, stacks, players), args.seconds)
        print(
            f"{columns:>4} x{rows:>2} {columns * rows:>6} {stacks:>6} {players:>7} "
            f"{decisions / seconds:>12,.0f} {decisions / games:>15,.0f}"
        )


if __name__ == "__main__":
    main()
