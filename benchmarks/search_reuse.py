"""What IS-MCTS's tree reuse keeps: the visits a search starts with, against those it adds.

    python -m benchmarks.search_reuse [--game twid] [--players 4] [--iterations 100] [--depth 10] [--searches 40]

Every seat `ismcts:N:dD` (N iterations a move, so the figures do not depend on the
machine's load), told each move as `gamedef simulate` tells it (`ISMCTSAgent.seen`), in the
seeded game from its start, until `--searches` searches have run (forced moves are not
searches). Printed: the searches that kept a subtree, and the visits at their roots kept
from the search before against the N each adds; then the CPU time of those searches, and
of the same seeded game played again without reuse (its moves then differ), one after
the other in this process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from interpreter import load_game
from interpreter.play.mcts import ISMCTSAgent, hidden_information
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.resample import unresampled


def play(name: str, players: int, iterations: int, depth: int | None, searches: int, reuse: bool, seed: int):
    """(kept visits per search, CPU seconds): the game of `seed` until `searches` searches ran."""
    plain = load_game(name)
    game = load_game(name, chance=True) if hidden_information(plain) and unresampled(plain) else plain
    state = game.start(players=players, seed=seed)
    agents = {
        p: ISMCTSAgent(iterations, seed=seed * 10 + i, depth=depth, reuse=reuse) for i, p in enumerate(state.players)
    }
    drawer = random.Random(seed)
    kept: list[int] = []
    start = time.process_time()
    while state.result is None and len(kept) < searches:
        seat = state.pending.player
        if seat == CHANCE:
            weights = [p for _, p in game.chance_outcomes(state)]
            index = drawer.choices(range(len(weights)), weights=weights)[0]
        else:
            agent = agents[seat]
            index = agent.choose(game, state)
            if len(state.pending.values) > 1:
                kept.append(agent.last_kept)
        label = game.labels(state)[index]
        for agent in agents.values():
            agent.seen(game, state, label)
        state = game.apply_index(state, index)
    return kept, time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="twid")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--searches", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    depth = args.depth or None
    kept, with_reuse = play(args.game, args.players, args.iterations, depth, args.searches, True, args.seed)
    _, without = play(args.game, args.players, args.iterations, depth, args.searches, False, args.seed)
    hits = [k for k in kept if k]
    print(f"{args.game}, {args.players} players, ismcts:{args.iterations}:d{args.depth}, {len(kept)} searches")
    print(f"  kept a subtree: {len(hits)} of {len(kept)} searches")
    if hits:
        print(
            f"  visits kept at the root: mean {statistics.fmean(hits):.1f} (median {statistics.median(hits):.0f}, "
            f"max {max(hits)}) against {args.iterations} added: the search starts "
            f"{100 * statistics.fmean(hits) / args.iterations:.0f}% of a search ahead where it kept one"
        )
    print(f"  CPU: {with_reuse:.1f} s with reuse, {without:.1f} s without")


if __name__ == "__main__":
    main()
