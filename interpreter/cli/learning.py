"""`gamedef learn`: an estimate fitted from self-play games (interpreter/play/learned.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from interpreter.cli.shared import load_named, start_game
from interpreter.core.errors import UsageError
from interpreter.play.agents import LEARN_EXTRA, needs_chance, parse_agents
from interpreter.runtime.game import ChanceGame, Game

MAX_PLAYOUTS = 10_000  # `--playouts`: games played on from each position kept, at most


def cmd_learn(args) -> int:
    """Play seeded self-play games, fit the estimate, and for `--rounds` R above 1 play as
    many again greedily by the fit R-1 times, each on the next seeds, refitting on all the
    games so far: labels from better games than random ones (docs/balancing.md). Write the model."""
    try:
        from interpreter.play import learned
    except ImportError as err:  # numpy: an optional extra
        raise UsageError(f"gamedef learn needs {err.name}", LEARN_EXTRA) from None
    from interpreter.cli.terminal import progress

    td_lambda, hidden, epsilon = _checked(args)
    game = load_named(args)
    if needs_chance(game, [args.agent] + (["greedy"] if args.rounds > 1 else [])):
        game = ChanceGame(game.compiled, game.name, game.variants, game.options)
    first = start_game(game, args)  # --players and the options checked once
    seats = first.players
    items = [f"{seat}={args.agent}" for seat in seats]
    parse_agents(items, game, seats, args.seed)  # the kind checked before any game is played
    agents = lambda state, seed: parse_agents(items, game, state.players, seed)[0]  # as `simulate` seeds them
    if args.playouts is not None and epsilon:
        agents = _exploring(agents, epsilon)

    out = Path(args.out or f"{game.name}.learned.json")
    if args.ranked:
        return _ranked(game, args, seats, agents, out)
    if args.explore is not None:
        played = _explored(game, args, len(seats))
    else:
        print(
            f"{game.header.title}: {args.games} self-play games by {args.agent}, {len(seats)} players", file=sys.stderr
        )
        with progress(args.games, "games") as advance:
            played = learned.self_play(
                game, args.games, args.seed, len(seats), agents, args.positions, args.max_decisions, advance
            )
    about = {
        "agent": args.agent,
        "games": args.games,
        "seed": args.seed,
        "rounds": args.rounds,
        "td_lambda": td_lambda,
        "hidden": hidden,
        "explore": args.explore,
        "epsilon": epsilon,
        "round_games": args.round_games or args.games,
    }
    summaries = bool(args.summaries)
    labels = None
    if args.playouts is not None:
        about["playouts"] = args.playouts
        kept = sum(len(states) for _, states, _ in played)
        print(f"  each of {kept} positions played on {args.playouts} times by {args.agent}", file=sys.stderr)
        with progress(kept, "positions") as advance:
            labels = learned.playout_labels(game, played, agents, args.playouts, args.seed, args.max_decisions, advance)
    model = learned.fit(
        game, played, about, td_lambda=td_lambda, hidden=hidden, summaries=summaries, position_labels=labels
    )
    greedy = [f"{seat}=greedy" for seat in seats]
    per_round = args.round_games or args.games
    next_seed = args.seed + args.games
    for done in range(1, args.rounds):
        view = learned.with_model(game, model)  # the game estimated by the last fit

        def greedy_by_fit(state, seed, view=view):
            return parse_agents(greedy, view, state.players, seed)[0]

        by_fit = _exploring(greedy_by_fit, epsilon) if epsilon else greedy_by_fit

        random_part = f", one decision in {1 / epsilon:g} random" if epsilon else ""
        print(
            f"round {done + 1} of {args.rounds}: {per_round} games greedy by the last fit{random_part}",
            file=sys.stderr,
        )
        with progress(per_round, "games") as advance:
            played += learned.self_play(
                view,
                per_round,
                next_seed,
                len(seats),
                by_fit,
                args.positions,
                args.max_decisions,
                advance,
            )
        next_seed += per_round
        model = learned.fit(game, played, about, td_lambda=td_lambda, hidden=hidden, summaries=summaries)
        won = sum(1 for _, _, payoffs in played[-per_round:] if max(payoffs.values()) > min(payoffs.values()))
        print(f"  {won} of the round's {per_round} games ended with a winner", file=sys.stderr)
    learned.save(model, out)
    fitted = model.header["fit"]
    if not any(f["label_variance"] for f in fitted.values()):
        print(
            f"warning: every game ended with the same payoffs ({', '.join(seats)}): there was nothing to learn",
            file=sys.stderr,
        )
        print(
            "    hint: learn from games that someone wins: another --agent, or more --max-decisions",
            file=sys.stderr,
        )
    print(f"wrote {out}: {len(model.columns)} features, {model.header['positions']} positions")
    if model.network is not None:
        print(f"  with a network of {hidden} hidden units, trained {model.network.epochs} epochs")
    elif hidden:
        print(f"  without a network: the games held out did not favour one of {hidden} hidden units")
    for seat in seats:
        f = fitted[seat]
        explained = 1 - f["mean_squared_error"] / f["label_variance"] if f["label_variance"] else 0.0
        share = f"{100 * explained:.0f}%"
        print(f"  {game.seat_title(seat)}: explains {share} of the payoff's variance (penalty {f['penalty']:g})")
    print(f"use it: gamedef simulate {args.game} --games 100 --agent {seats[0]}=greedy:learned={out}")
    return 0


def _explored(game, args, players: int) -> list:
    """`--explore I`: each of the N seeded games searched for a win (play/explore.py), at
    most I iterations each; the games won, as self-play gives them. None won is an error
    worded as what to try, since a fit on nothing learns nothing."""
    from interpreter.cli.terminal import progress
    from interpreter.play import explore

    print(
        f"{game.header.title}: {args.games} games searched for a win, at most {args.explore:,} iterations each, "
        f"{players} players",
        file=sys.stderr,
    )
    if isinstance(game, ChanceGame):  # the search does not pick the dice: the game's seed draws them
        game = Game(game.compiled, game.name, game.variants, game.options)
    played, iterations = [], 0
    with progress(args.games, "games") as advance:
        for seed in range(args.seed, args.seed + args.games):
            found, about = explore.explore(game, seed, players, args.explore, positions=args.positions)
            iterations += about["iterations"]
            if found is not None:
                played.append(found)
            advance()
    print(
        f"  won {len(played)} of {args.games} games ({iterations:,} iterations in all)",
        file=sys.stderr,
    )
    if not played:
        raise UsageError(
            f"the search found no game anyone wins in {args.games} games of {args.explore:,} iterations",
            "search longer (--explore) or more games (--games)",
        )
    return played


def _checked(args) -> tuple[float, int, float]:
    """The options checked before any game is played: (TD lambda, hidden units, epsilon)."""
    from interpreter.play import explore, learned
    from interpreter.play.simulate import check_scale

    check_scale(args.games, 1)
    if args.rounds > learned.MAX_ROUNDS:
        raise UsageError(
            f"--rounds {args.rounds}: at most {learned.MAX_ROUNDS} rounds",
            "each round plays --games N games more: for example --rounds 2",
        )
    if not 1 <= args.positions <= 10_000:
        raise UsageError(
            f"--positions {args.positions}: from 1 to 10000 positions a game", "for example --positions 40"
        )
    td_lambda = learned.TD_LAMBDA if args.td_lambda is None else args.td_lambda
    if not 0.0 <= td_lambda <= 1.0:
        raise UsageError(f"--td-lambda {args.td_lambda}: a number from 0 to 1", "for example --td-lambda 0.7")
    hidden = learned.HIDDEN if args.hidden is None else args.hidden
    if not 0 <= hidden <= learned.MAX_HIDDEN:
        raise UsageError(f"--hidden {args.hidden}: from 0 to {learned.MAX_HIDDEN} units", "for example --hidden 32")
    epsilon = 0.0 if args.epsilon is None else args.epsilon
    if not 0.0 <= epsilon <= 1.0:
        raise UsageError(f"--epsilon {args.epsilon}: a number from 0 to 1", "for example --epsilon 0.1")
    if args.explore is not None and args.explore > explore.MAX_ITERATIONS:
        raise UsageError(
            f"--explore {args.explore}: at most {explore.MAX_ITERATIONS:,} iterations a game",
            "for example --explore 3000",
        )
    if args.explore is not None and args.agent != "random":
        raise UsageError(
            f"--explore searches each game by random decisions: --agent {args.agent} would not be used",
            "drop --agent, or --explore to learn from games your agent plays",
        )
    if args.ranked:
        _refuse_with_ranked(args)
    if args.playouts is not None:
        _refuse_with_playouts(args)
    return td_lambda, hidden, epsilon


def _exploring(agents, epsilon: float):
    """`agents` with each seat's decision random with probability `epsilon` (a chance
    seat's draws left as they are, or the dice would not be fair): the greedy games of the
    rounds after the first, and with `--playouts` every game and playout."""
    from interpreter.play import explore
    from interpreter.runtime.chance import CHANCE

    def by_seat(state, seed):
        chosen = agents(state, seed)
        return {
            seat: a if seat == CHANCE else explore.Exploring(a, epsilon, seed * 1_000 + i)
            for i, (seat, a) in enumerate(chosen.items())
        }

    return by_seat


def _refuse_with_playouts(args) -> None:
    """`--playouts` labels the positions of --agent's games by playing on from them: the
    options that label positions otherwise, or play other games, do not mix with it."""
    for given, flag in (
        (args.ranked, "--ranked"),
        (args.explore is not None, "--explore"),
        (args.td_lambda is not None, "--td-lambda"),
        (args.rounds > 1, "--rounds"),
        (args.round_games is not None, "--round-games"),
    ):
        if given:
            raise UsageError(
                f"--playouts labels the positions of --agent's games by playing on from them: {flag} does not apply",
                f"drop {flag}, or --playouts to label positions by their game's end",
            )
    if args.playouts > MAX_PLAYOUTS:
        raise UsageError(f"--playouts {args.playouts}: at most {MAX_PLAYOUTS} a position", "for example --playouts 32")


def _refuse_with_ranked(args) -> None:
    """`--ranked` copies the moves of `--agent`'s games: the options that label positions or
    play other games have nothing to act on."""
    for given, flag in (
        (args.explore is not None, "--explore"),
        (args.td_lambda is not None, "--td-lambda"),
        (args.hidden is not None, "--hidden"),
        (args.rounds > 1, "--rounds"),
        (args.round_games is not None, "--round-games"),
        (args.epsilon is not None, "--epsilon"),
    ):
        if given:
            raise UsageError(
                f"--ranked fits the moves of --agent's games: {flag} does not apply to it",
                f"drop {flag}, or --ranked to regress the payoff",
            )
    if args.agent == "random":
        raise UsageError(
            "--ranked copies the moves of --agent, and random moves rank nothing",
            "name a stronger player: for example --agent ismcts:200 or --agent greedy",
        )


def _ranked(game, args, seats, agents, out: Path) -> int:
    """`--ranked`: the expert's games (`--agent`), then the conditional logit of its moves
    (play/ranked.py), written as a model the agents read like any other."""
    from interpreter.cli.terminal import progress
    from interpreter.play import learned, ranked

    print(f"{game.header.title}: {args.games} games by {args.agent}, {len(seats)} players", file=sys.stderr)
    with progress(args.games, "games") as advance:
        played, choices = ranked.expert_play(
            game, args.games, args.seed, len(seats), agents, args.positions, args.max_decisions, advance
        )
    about = {"agent": args.agent, "games": args.games, "seed": args.seed, "rounds": 1, "ranked": True}
    print(f"  the positions after every move of {len(choices)} decisions", file=sys.stderr)
    with progress(len(choices), "decisions") as advance:
        model = ranked.fit_ranked(game, played, choices, about, summaries=bool(args.summaries), advance=advance)
    learned.save(model, out)
    r = model.header["ranked"]
    print(f"wrote {out}: {len(model.columns)} features, {r['decisions']} decisions of {r['moves']} positions")
    held = "" if r["held_out_agreement"] is None else f", {100 * r['held_out_agreement']:.1f}% on the games held out"
    print(
        f"  takes {args.agent}'s move in {100 * r['agreement']:.1f}% of the decisions{held} (penalty {r['penalty']:g})"
    )
    for seat in seats:
        f = model.header["fit"][seat]
        explained = 1 - f["mean_squared_error"] / f["label_variance"] if f["label_variance"] else 0.0
        print(f"  {game.seat_title(seat)}: its value explains {100 * explained:.0f}% of the payoff's variance")
    print(f"use it: gamedef simulate {args.game} --games 100 --agent {seats[0]}=greedy:learned={out}")
    return 0
