"""`gamedef learn`: an estimate fitted from self-play games (interpreter/play/learned.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from interpreter.cli.shared import load_named, start_game
from interpreter.core.errors import UsageError
from interpreter.play.agents import LEARN_EXTRA, needs_chance, parse_agents
from interpreter.runtime.game import ChanceGame


def cmd_learn(args) -> int:
    """Play seeded self-play games, fit each seat's estimate, write the model."""
    try:
        from interpreter.play import learned
    except ImportError as err:  # numpy: an optional extra
        raise UsageError(f"gamedef learn needs {err.name}", LEARN_EXTRA) from None
    from interpreter.cli.terminal import progress
    from interpreter.play.simulate import check_scale

    check_scale(args.games, 1)
    if not 1 <= args.positions <= 10_000:
        raise UsageError(
            f"--positions {args.positions}: from 1 to 10000 positions a game", "for example --positions 40"
        )
    game = load_named(args)
    if needs_chance(game, [args.agent]):
        game = ChanceGame(game.compiled, game.name, game.variants, game.options)
    first = start_game(game, args)  # --players and the options checked once
    seats = first.players
    items = [f"{seat}={args.agent}" for seat in seats]
    parse_agents(items, game, seats, args.seed)  # the kind checked before any game is played
    agents = lambda state, seed: parse_agents(items, game, state.players, seed)[0]  # as `simulate` seeds them

    out = Path(args.out or f"{game.name}.learned.json")
    print(f"{game.header.title}: {args.games} self-play games by {args.agent}, {len(seats)} players", file=sys.stderr)
    with progress(args.games, "games") as advance:
        played = learned.self_play(
            game, args.games, args.seed, len(seats), agents, args.positions, args.max_decisions, advance
        )
    about = {"agent": args.agent, "games": args.games, "seed": args.seed}
    model = learned.fit(game, played, about)
    learned.save(model, out)
    fitted = model.header["fit"]
    print(f"wrote {out}: {len(model.columns)} features, {model.header['positions']} positions")
    for seat in seats:
        f = fitted[seat]
        explained = 1 - f["mean_squared_error"] / f["label_variance"] if f["label_variance"] else 0.0
        share = f"{100 * explained:.0f}%"
        print(f"  {game.seat_title(seat)}: explains {share} of the payoff's variance (penalty {f['penalty']:g})")
    print(f"use it: gamedef simulate {args.game} --games 100 --agent {seats[0]}=greedy:learned={out}")
    return 0
