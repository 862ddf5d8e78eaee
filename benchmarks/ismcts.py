"""Measure the information-set search (`ismcts:N`): strength on Kuhn poker, speed per game.

    python -m benchmarks.ismcts [--hands 1000] [--iterations 100] [--seconds 1]

Strength: IS-MCTS against uniform random on Kuhn poker, `--hands` hands with each seat
(seeds 0 to hands - 1), the mean chips won per hand with a 95% interval. Speed: iterations
per second of one search from the first decision of a seeded game of each bundled game
it plays (each iteration resamples the hidden cards, then plays to the end).
"""

from __future__ import annotations

import argparse
import math
import random
import time

from interpreter import load_game
from interpreter.play.mcts import ISMCTSAgent


def kuhn_strength(hands: int, iterations: int) -> tuple[float, float, float]:
    """(mean chips per hand, low, high of the 95% interval) for IS-MCTS against random."""
    game = load_game("kuhn_poker")
    chips: list[float] = []
    for seat in ("p1", "p2"):
        agent, rng = ISMCTSAgent(iterations, seed=7), random.Random(11)
        for hand in range(hands):
            state = game.start(seed=hand)
            while not game.is_over(state):
                if state.pending.player == seat:
                    state = game.apply_index(state, agent.choose(game, state))
                else:
                    state = game.apply_index(state, rng.randrange(len(state.pending.values)))
            chips.append(game.returns(state)[seat])
    mean = sum(chips) / len(chips)
    sd = math.sqrt(sum((c - mean) ** 2 for c in chips) / (len(chips) - 1))
    half = 1.96 * sd / math.sqrt(len(chips))
    return mean, mean - half, mean + half


def iterations_per_second(name: str, players: int, seconds: float) -> float:
    game = load_game(name)
    state = game.start(players=players, seed=1)
    while len(state.pending.values) < 2:  # the first real choice
        state = game.apply_index(state, 0)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        ISMCTSAgent(1, seed=done).choose(game, state)
        done += 1
    return done / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="Kuhn hands per seat (default 1000)")
    parser.add_argument("--iterations", type=int, default=100, help="IS-MCTS iterations a decision (default 100)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per game for the speed (default 1)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    mean, low, high = kuhn_strength(args.hands, args.iterations)
    took = time.perf_counter() - start
    print(
        f"Kuhn poker, ismcts:{args.iterations} against random, {2 * args.hands} hands: "
        f"{mean:+.3f} chips a hand (95% interval {low:+.3f} to {high:+.3f}), {took:.1f} s"
    )
    print(f"\n{'game':<24} {'players':>7} {'iterations/s':>13}")
    for name, players in (("kuhn_poker", 2), ("twid", 2), ("twid", 4)):  # the games with hidden hands
        print(f"{name:<24} {players:>7} {iterations_per_second(name, players, args.seconds):>13,.1f}")


if __name__ == "__main__":
    main()
