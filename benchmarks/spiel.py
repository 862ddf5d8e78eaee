"""OpenSpiel's own algorithms through the adapter (docs/adapters.md), measured.

    python -m benchmarks.spiel cfr [--iterations 200] [--rounds 3]
    python -m benchmarks.spiel qlearning [--blocks 6] [--episodes 500] [--evaluations 300]

`cfr`: OpenSpiel's tabular CFR (`cfr.CFRSolver`, pure Python) on our Kuhn poker through
the adapter and on OpenSpiel's pure-Python `python_kuhn_poker`, the same number of
iterations, taking turns, best of `--rounds`; then the exploitability each reaches.
`qlearning`: OpenSpiel's tabular Q-learner as x against a random o on our tic-tac-toe
through `rl_environment` (keyed by the information-state tensor): its mean return over
`--evaluations` games, before training and after each block of `--episodes`.
"""

from __future__ import annotations

import argparse
import time


def cfr_side_by_side(iterations: int, rounds: int) -> None:
    """Seconds for `iterations` CFR iterations on each Kuhn poker, and exploitability."""
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability
    from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

    from interpreter.adapters import spiel_adapter

    games = {
        "gamedef kuhn_poker": spiel_adapter.load("kuhn_poker"),
        "python_kuhn_poker": pyspiel.load_game("python_kuhn_poker"),
    }
    best = dict.fromkeys(games, float("inf"))
    policies = {}
    for _ in range(rounds):
        for name, game in games.items():
            start = time.perf_counter()
            solver = cfr.CFRSolver(game)
            for _ in range(iterations):
                solver.evaluate_and_update_policy()
            best[name] = min(best[name], time.perf_counter() - start)
            policies[name] = solver.average_policy()
    for name, game in games.items():
        gap = exploitability.exploitability(game, policies[name])
        rate = iterations / best[name]
        print(f"{name:20s} {iterations} iterations: {best[name]:.2f} s ({rate:.0f}/s), exploitability {gap:.4f}")


def qlearning_curve(blocks: int, episodes: int, evaluations: int) -> None:
    """The Q-learner's mean return against random, before and after each block."""
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    from interpreter.adapters import spiel_adapter

    np.random.seed(1)
    env = rl_environment.Environment(spiel_adapter.load("tictactoe"))
    env.seed(1)
    n = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(0, n, step_size=0.5), random_agent.RandomAgent(1, n)]

    def episode(learn: bool) -> float:
        ts = env.reset()
        while not ts.last():
            ts = env.step([agents[ts.observations["current_player"]].step(ts, is_evaluation=not learn).action])
        for a in agents:
            a.step(ts, is_evaluation=not learn)
        return ts.rewards[0]

    def evaluate() -> float:
        return float(np.mean([episode(False) for _ in range(evaluations)]))

    print(f"episodes 0: mean return {evaluate():+.3f}")
    for b in range(blocks):
        start = time.perf_counter()
        for _ in range(episodes):
            episode(True)
        took = time.perf_counter() - start
        print(f"episodes {(b + 1) * episodes}: mean return {evaluate():+.3f} ({episodes / took:.0f} episodes/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cfr")
    c.add_argument("--iterations", type=int, default=200)
    c.add_argument("--rounds", type=int, default=3)
    q = sub.add_parser("qlearning")
    q.add_argument("--blocks", type=int, default=6)
    q.add_argument("--episodes", type=int, default=500)
    q.add_argument("--evaluations", type=int, default=300)
    args = parser.parse_args()
    if args.what == "cfr":
        cfr_side_by_side(args.iterations, args.rounds)
    else:
        qlearning_curve(args.blocks, args.episodes, args.evaluations)


if __name__ == "__main__":
    main()
