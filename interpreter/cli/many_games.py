"""The commands that play many games: `bench` (speed), `simulate` (win rates of the agents
given) and `balance` (the designer's report across seats and player counts)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path

from interpreter.cli.human import HumanAgent
from interpreter.cli.shared import installed_version, load_named, parse_options, searchers, start_game
from interpreter.cli.terminal import listing
from interpreter.core.errors import UsageError
from interpreter.play.agents import needs_chance, parse_agents
from interpreter.play.simulate import Workers
from interpreter.runtime.game import ChanceGame


def cmd_bench(args) -> int:
    """Random playouts from successive seeds: speed, decisions per game, each seat's wins."""
    from interpreter.cli.terminal import progress
    from interpreter.play.agents import RandomAgent
    from interpreter.play.simulate import check_scale

    check_scale(args.games, 1)
    game = load_named(args)
    decisions = 0
    wins: dict[str, float] = {}
    seats: tuple[str, ...] = ()
    start_game(game, args)  # the arguments checked once, as the other commands do
    start = time.perf_counter()
    with progress(args.games, "games") as advance:
        for seed in range(args.seed, args.seed + args.games):
            state = game.start(players=args.players, seed=seed)
            seats = state.players
            agent = RandomAgent(seed)  # its choices, in one working copy (`Game.playout`)
            state = game.playout(state, agent.rng.randrange, args.max_decisions - state.decisions)
            if state.result is None:
                n = seed - args.seed + 1
                raise UsageError(
                    f"game {n} (seed {seed}) has not ended after {args.max_decisions:,} decisions",
                    "raise --max-decisions N, or check the rules for a game that cannot end",
                )
            decisions += state.decisions
            for w in state.result:  # a shared win counts as a share for each winner
                wins[w] = wins.get(w, 0) + 1 / len(state.result)
            advance()
    games = args.games
    elapsed = time.perf_counter() - start
    print(
        f"{game.header.title}: {games} random games in {elapsed:.2f}s: "
        f"{games / elapsed:.1f} games/s, {decisions / elapsed:.0f} decisions/s, "
        f"{decisions / games:.0f} decisions per game"
    )
    shares = ", ".join(f"{game.seat_title(p)} {100 * wins.get(p, 0) / games:.1f}%" for p in seats)
    nobody = games - sum(wins.values())
    print(f"wins: {shares}" + (f", nobody {100 * nobody / games:.1f}%" if nobody > 0.5 else ""))
    return 0


def cmd_simulate(args) -> int:
    """Many games by AI players, in parallel: win rates with intervals, length, endings, cards."""
    from interpreter.cli import charts
    from interpreter.cli import simulation_report as report
    from interpreter.cli.ray_workers import LOCAL_RAY, import_ray, ray_workers
    from interpreter.cli.terminal import progress
    from interpreter.play import simulate as sim

    sim.check_scale(args.games, 1 if args.jobs is None else args.jobs)  # before the game is loaded
    if args.ray is not None:
        import_ray()  # Ray is an optional extra: say how to install it before loading anything
    game = load_named(args)
    chance = needs_chance(game, args.agent)
    if chance:
        game = ChanceGame(game.compiled, game.name, game.variants, game.options)
        print(
            f"note: {searchers(args.agent)} cannot see in {game.header.title} by replaying the moves, so the games "
            "are played in chance mode: the chance seat draws every random result from each game's seed",
            file=sys.stderr,
        )
    jobs = sim.default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError(
            f"--jobs {jobs}: at least one job is needed",
            f"--jobs 1 plays in this process; this machine lets {sim.default_jobs()} run at once",
        )
    cards = sim.card_catalogue(game)
    if args.csv == "cards" and not cards:
        raise UsageError(
            f"--csv cards: {game.header.title} has no cards (components with a printed text)",
            "`gamedef cards GAME` lists a game's cards; --csv alone gives one row per game",
        )
    first = start_game(game, args)  # checks --players and the options before any worker starts
    seats = first.players
    _, kinds = parse_agents(
        args.agent, game, seats, args.seed, human=HumanAgent
    )  # unknown seats and kinds, here and once
    if "human" in kinds.values():
        seat = next(s for s, k in kinds.items() if k == "human")
        raise UsageError(
            f"--agent {seat}=human: a simulation has nobody to ask", "use `gamedef play` to play a seat yourself"
        )
    setup = sim.Setup(
        game=args.game,
        variants=tuple(args.variant or ()),
        options=parse_options(args.option),
        players=len(seats),
        agents=tuple(args.agent or ()),
        max_decisions=args.max_decisions,
        chance=chance,
    )
    if args.plot:
        charts.plot_folder(Path(args.plot))
    jobs = min(jobs, args.games)
    start = time.perf_counter()
    watch = lambda n: progress(n, "games")
    with ray_workers(args.ray, jobs) if args.ray is not None else nullcontext() as workers:
        records = sim.simulate(setup, args.games, args.seed, jobs, game=game, watch=watch, workers=workers)
    elapsed = time.perf_counter() - start
    header = {
        "game": game.name,
        "title": game.header.title,
        "players": len(seats),
        "seats": list(seats),
        "first_seed": args.seed,
        "agents": kinds,
        "variants": list(args.variant or []),
        "options": setup.options,
        "seat_titles": {seat: game.seat_title(seat) for seat in seats},
        # what a game is replayed by, with its seed and the agents above (`gamedef run`)
        "rules_hash": game.rules_hash,
        "version": installed_version(),
    }
    doc = sim.document(header, records, seats, cards)
    if args.json:
        print(json.dumps(doc, indent=1))
    elif args.csv == "cards":
        report.write_cards_csv(doc, sys.stdout)
    elif args.csv:
        report.write_csv(records, sys.stdout)
    else:
        listing(report.text_report(doc, top_cards=args.cards))
        if args.ray is None:
            where = f"with {jobs} job{'s' if jobs != 1 else ''}"
        else:
            where = f"on a local Ray instance of {jobs} CPUs" if args.ray == LOCAL_RAY else f"on Ray at {args.ray}"
        print(f"\n({len(records)} games in {elapsed:.1f}s {where})")
    if args.plot:
        for path in charts.plot(doc, records, Path(args.plot)):
            print(f"chart written to {path}", file=sys.stderr if args.json or args.csv else sys.stdout)
    return 0


def cmd_balance(args) -> int:
    """The balance report: every player count (or --players), win rates per seat, the first
    player, length, endings and each component, as text, JSON or an HTML page."""
    from interpreter.cli import balance_report as report
    from interpreter.cli.ray_workers import import_ray
    from interpreter.play import balance as bal
    from interpreter.play import simulate as sim

    jobs = sim.default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError(f"--jobs {jobs}: at least one job is needed", "--jobs 1 plays in this process")
    sim.check_scale(args.games, jobs)
    if args.ray is not None:
        import_ray()
    html = report.html_target(Path(args.html)) if args.html else None
    game = load_named(args)
    agents = list(args.agent or ())
    counts = bal.game_counts(game, args.players)
    bal.check_components(game, args.component or ())
    bal.check_agent_seats(game, counts, agents)
    chance = needs_chance(game, agents)
    if chance:
        game = ChanceGame(game.compiled, game.name, game.variants, game.options)
    for count in counts:  # unknown agent kinds, and a setup that refuses a count, before any game
        seats = start_game(game, argparse.Namespace(players=count, seed=args.seed)).players
        _, kinds = parse_agents(bal.seat_agents(game, seats, agents), game, seats, args.seed, human=HumanAgent)
        if "human" in kinds.values():
            raise UsageError("--agent human: a balance report has nobody to ask", "use `gamedef play`")
    if chance:
        print(
            f"note: {game.header.title} is played in chance mode for ismcts and greedy,"
            " which redraw its secret numbers (see `gamedef simulate`)",
            file=sys.stderr,
        )
    setup = sim.Setup(
        game=args.game,
        variants=tuple(args.variant or ()),
        options=parse_options(args.option),
        max_decisions=args.max_decisions,
        chance=chance,
        components=tuple(args.component or ()),
        score=args.score,
    )
    if args.score:  # said before any game is played
        sim.score_probe(game, args.score, game.seats_for(counts[0]))
    plan = bal.Plan(setup, tuple(counts), args.games, args.seed, tuple(agents), args.correction)
    keep = Path(args.keep) if args.keep else None
    base = None
    if args.against and not args.sweep:  # the base loaded (and its counts checked) before any game is played
        base_setup, base_name = bal.base_setup(setup, args.against)
        base_game = base_setup.load()
        bal.game_counts(base_game, counts)
        base = (replace(plan, setup=base_setup), base_game, base_name)
    with _workers(args, jobs) as workers:  # one Ray session for every count, the base's too
        if args.sweep:
            return _sweep(args, game, plan, jobs, keep, html, workers)
        return _report(args, game, plan, base, jobs, keep, html, workers)


def _workers(args, jobs: int) -> AbstractContextManager[Workers | None]:
    """The Ray session of `--ray` (started here, shut down when the command ends), or none."""
    from interpreter.cli.ray_workers import ray_workers

    return ray_workers(args.ray, jobs) if args.ray is not None else nullcontext()


def _report(args, game, plan, base, jobs: int, keep: Path | None, html: Path | None, workers) -> int:
    """The balance report of `plan`, against `base` (its plan, game and name) with
    `--against`, as text, JSON or a page."""
    from interpreter.cli import balance_report as report
    from interpreter.cli.terminal import progress
    from interpreter.play import balance as bal

    watch = lambda n, k: progress(n, f"games, {k} player{'s' if k != 1 else ''}")
    base_plan, base_game, base_name = base if base is not None else (None, None, "")
    doc, by_count = bal.run(plan, jobs, game=game, watch=watch, workers=workers, keep=keep)
    doc["version"] = installed_version()  # with `rules_hash` and each record's seed: what replays a game
    base_by_count: dict = {}
    if base_plan is not None and base_game is not None:
        base_watch = lambda n, k: progress(n, f"games of the base, {k} player{'s' if k != 1 else ''}")
        base_doc, base_by_count = bal.run(base_plan, jobs, game=base_game, watch=base_watch, workers=workers, keep=keep)
        changed = bal.changed_components(game, base_game, plan.setup.components)
        rules = bal.changed_rules(game, base_game)
        doc["against"] = bal.against(base_doc, base_by_count, doc, by_count, base_name, args.against, changed, rules)
    if args.json:
        records = {"records": bal.records_dict(by_count)}
        if base_plan is not None:
            records["base_records"] = bal.records_dict(base_by_count)
        print(json.dumps({**doc, **records}, indent=1))
    else:
        listing(report.text_report(doc, top=args.top))
    if html is not None:
        for path in report.write_html(doc, by_count, html, report.command_line(args.game, doc, html)):
            print(f"written: {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def _sweep(args, game, plan, jobs: int, keep: Path | None, html: Path | None, workers) -> int:
    """`balance --sweep NAME=LO..HI`: the report's games once per value, summed up as the
    win rate of each seat against the value, as text, JSON or a page with its chart."""
    from interpreter.cli import balance_report as report
    from interpreter.cli.terminal import progress
    from interpreter.play import balance as bal

    name, low, high = args.sweep
    if args.against:
        raise UsageError("--sweep and --against: one at a time", "sweep the changed rules, or compare two of them")
    kind = bal.sweep_kind(game, name)
    if kind == "option" and name in plan.setup.options:
        raise UsageError(f"--sweep {name} and --option {name}: the sweep sets it", f"leave out --option {name}")
    values = list(range(low, high + 1))
    if kind == "option":  # every value checked before any game: the game says what it accepts
        for value in values:
            replace(plan.setup, options={**plan.setup.options, name: value}).load()

    def watch(n: int, k: int):
        return progress(n, f"games, {k} player{'s' if k != 1 else ''}")

    doc = bal.sweep(plan, name, values, kind, jobs, watch=watch, workers=workers, keep=keep)
    doc.update(game=game.name, title=game.header.title, games=plan.games, first_seed=plan.seed)
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        listing(report.sweep_lines(doc))
    if html is not None:
        for path in report.write_sweep_html(doc, html):
            print(f"written: {path}", file=sys.stderr if args.json else sys.stdout)
    elif not args.json:
        print("(--html FILE draws the chart of these win rates)")
    return 0
