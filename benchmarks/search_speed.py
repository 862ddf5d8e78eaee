"""Search speed on every bundled game: iterations a second at a time budget, and where the time goes.

    python -m benchmarks.search_speed [--seconds 0.5] [--moves 40] [--games NAME ...]

For each bundled game (its default player count, and 4 players where it allows more), a
position `--moves` random decisions (fewer in a game that ends sooner) into a seeded game
(draws included; Downfall of Empires in chance mode, as `ismcts` plays it), then one search
with a budget of `--seconds`: `mcts` for a game without hidden information, else `ismcts`;
and the same search with a rollout depth of 30 scored by the game's `estimate` where it
declares one (`:d30`). Printed: the iterations it ran, and from a profile of a second
search of the same budget the share of its time in each part: `resample` (determinising
what the seat cannot see), `rollout` (`Game.playout`), `tree` (`apply_index`, labels and
move views down the tree), `estimate`.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random

from interpreter import bundled_games, load_game
from interpreter.play.mcts import ISMCTSAgent, MCTSAgent, hidden_information
from interpreter.runtime.resample import unresampled

PARTS = {
    "resample": ("resample",),
    "rollout": ("playout",),
    "tree": ("apply_index", "labels", "move_view"),
    "estimate": ("scaled_estimates",),
}


def position(name: str, players: int, moves: int):
    """(game, state): `moves` random decisions into the game of seed 1, stopping at a real choice."""
    plain = load_game(name)
    chance = bool(hidden_information(plain)) and bool(unresampled(plain))
    game = load_game(name, chance=True) if chance else plain
    state = game.start(players=players, seed=1)
    rng = random.Random(1)
    taken = 0
    while state.result is None and (taken < moves or len(state.pending.values) < 2 or state.pending.player == "chance"):
        state = game.apply_index(state, rng.randrange(len(state.pending.values)))
        taken += 1
    return game, state


def agent_for(game, seconds: float, depth: int | None):
    if hidden_information(game):
        return "ismcts", ISMCTSAgent(0, seed=1, seconds=seconds, depth=depth)
    return "mcts", MCTSAgent(0, seed=1, seconds=seconds, depth=depth)


def shares(profile: cProfile.Profile) -> dict[str, float]:
    """Each part's share of the search's time, by the cumulative time of its functions."""
    stats = pstats.Stats(profile).stats
    total = max((ct for (_, _, fn), (_, _, _, ct, _) in stats.items() if fn in ("choose",)), default=0.0)
    out = {}
    for part, names in PARTS.items():
        # a name may be several nested functions (Game.resample calls resample.resample): the outermost
        spent = sum(max((ct for (_, _, f), (_, _, _, ct, _) in stats.items() if f == n), default=0.0) for n in names)
        out[part] = spent / total if total else 0.0
    return out


def measure(name: str, players: int, seconds: float, moves: int) -> list[str]:
    game, state = position(name, players, moves)
    while state.result is not None and moves:  # a short game: fewer moves in
        moves //= 2
        game, state = position(name, players, moves)
    rows = []
    for depth in (None, 30) if game.compiled.estimate is not None else (None,):
        kind, agent = agent_for(game, seconds, depth)
        agent.choose(game, state)
        done = agent.last_iterations
        profile = cProfile.Profile()
        kind, agent = agent_for(game, seconds, depth)
        profile.runcall(agent.choose, game, state)
        part = shares(profile)
        label = f"{kind}:{seconds:g}s" + (f":d{depth}" if depth is not None else "")
        where = "  ".join(f"{k} {100 * v:3.0f}%" for k, v in part.items() if v >= 0.005)
        rows.append(f"{name:<24} {players:>2}  {label:<16} {done / seconds:>9,.1f}/s  {where}")
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--games", nargs="*", default=None)
    args = parser.parse_args(argv)
    for name in args.games or list(bundled_games()):
        game = load_game(name)
        counts = [game.header.default_players or game.header.min_players]
        if game.header.max_players >= 4 and 4 not in counts:
            counts.append(4)
        for players in counts:
            for row in measure(name, players, args.seconds, args.moves):
                print(row, flush=True)


if __name__ == "__main__":
    main()
