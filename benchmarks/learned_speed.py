"""The learned estimate's cost against the written one, per position (all seats at once).

    python -m benchmarks.learned_speed [--games NAME ...] [--positions 300]

For each game (two players): a model fitted by `gamedef learn`'s own code from 40 random
games, with the components' summaries (`--summaries`) and without; then, over the same
`--positions` positions of random games (seeds 1000 on), the time `scaled_estimates` takes
by the game's written `estimate` and by each model, and their ratio to the written one. The
learned estimate reads the seat's observation (built from the visibility rules) and its
tensor; the written one reads the state, so the ratio is the price of not writing one.
Needs the learn extra (numpy).
"""

from __future__ import annotations

import argparse
import random
import time

from interpreter import load_game
from interpreter.play import learned
from interpreter.play.agents import parse_agents
from interpreter.play.mcts import scaled_estimates

GAMES = ("twid", "walls_and_wonders")


def positions(game, count: int) -> list:
    """`count` positions of random games where a seat decides, seeds 1000 on."""
    out: list = []
    seed = 1000
    while len(out) < count:
        rng = random.Random(seed)
        state = game.start(players=2, seed=seed)
        while state.result is None and len(out) < count:
            if len(state.pending.values) > 1:
                out.append(state)
            state = game.apply_index(state, rng.randrange(len(state.pending.values)))
        seed += 1
    return out


def per_position(game, states: list) -> float:
    """Milliseconds per position of every seat's estimate (the best of three passes)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for state in states:
            scaled_estimates(game, state)
        best = min(best, time.perf_counter() - start)
    return 1000 * best / len(states)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    print("| game | written estimate, ms | learned, ms (ratio) | learned with summaries, ms (ratio) |")
    print("|---|---|---|---|")
    for name in args.games:
        game = load_game(name)

        def randomly(state, seed, game=game):
            return parse_agents([], game, state.players, seed)[0]

        played = learned.self_play(game, 40, 1, 2, randomly)
        about = {"agent": "random", "games": 40, "seed": 1}
        states = positions(game, args.positions)
        written = per_position(game, states)
        cells = [name, f"{written:.3f}"]
        for summaries in (False, True):
            model = learned.fit(game, played, about, summaries=summaries)
            took = per_position(learned.with_model(game, model), states)
            cells.append(f"{took:.2f} ({took / written:.0f}x)")
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
