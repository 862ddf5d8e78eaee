"""The commands that play games: `run` (AI players, narrated), `play` (a person at the
terminal), `replay` (a transcript checked move by move) and `serve` (the web table)."""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from pathlib import Path

from interpreter.cli.human import HumanAgent, QuitRequest, SaveRequest, UndoRequest
from interpreter.cli.shared import (
    Capped,
    chance_if_needed,
    check_cap,
    load_named,
    parse_options,
    play_out,
    replay,
    result_line,
    start_game,
    write_run_transcript,
)
from interpreter.cli.terminal import emphasised, say, show_view
from interpreter.core.errors import UsageError
from interpreter.play.agents import listeners, parse_agents, resolve_seat, tell
from interpreter.runtime.engine import IllegalMove
from interpreter.runtime.game import Game
from interpreter.runtime.load import find_game
from interpreter.runtime.machine import State
from interpreter.runtime.saving import load_state, read_transcript, save_state


def _run_json(args, game: Game, state: State, agents: dict) -> int:
    """`run --json`, for tools: one JSON document per line. First the game, then one per
    decision (who, the move, the lines it wrote), then the result."""

    def emit(doc: dict) -> None:
        print(json.dumps(doc, ensure_ascii=False))

    emit(
        {
            "game": game.name,
            "title": game.header.title,
            "players": list(state.players),
            "seed": args.seed,
            "variants": list(args.variant or []),
            "options": parse_options(args.option),
            "narration": game.narrate(state),
        }
    )
    told = listeners(agents)  # a search that keeps its tree is told every move, as in `simulate`
    while not game.is_over(state):
        check_cap(state, args.max_decisions)
        assert state.pending is not None  # the game is not over
        player = state.pending.player
        i = agents[player].choose(game, state)
        tell(told, game, state, i)
        label = game.labels(state)[i]
        state = game.apply_index(state, i)
        emit({"decision": state.decisions, "seat": player, "move": label, "narration": game.narrate(state)})
    emit({"result": list(game.result(state) or ()), "decisions": state.decisions})
    return 0


def cmd_run(args) -> int:
    game = chance_if_needed(args, load_named(args))
    if args.from_state:
        state = load_state(game, args.from_state)
    else:
        state = start_game(game, args, tuple(args.die or ()))
    agents, kinds = parse_agents(args.agent, game, state.players, args.seed, human=HumanAgent)
    if args.json:
        return _run_json(args, game, state, agents)
    say(
        f"== {game.header.title}"
        + (f" ({', '.join(args.variant)})" if args.variant else "")
        + f": {', '.join(map(game.seat_title, state.players))}; seed {args.seed}"
    )
    # The short narration (the lines the game marks `log headline`) unless asked for all.
    short = any(f.headline for f in game.compiled.formats) and not (args.verbose or args.moves)
    from interpreter.cli.terminal import counter

    try:
        with counter("decisions") if args.quiet else nullcontext() as tick:  # a quiet run shows it is working
            state, moves = play_out(
                game,
                state,
                agents,
                narrate=not args.quiet,
                show_moves=args.moves,
                max_decisions=args.max_decisions,
                record=bool(args.transcript),
                headlines=short,
                tick=tick,
            )
    except Capped as stopped:  # the position it reached is kept: `run --from-state` goes on from it
        if args.save_state:
            save_state(game, stopped.state, args.save_state)
            kept = f"the position it reached is in {args.save_state} (go on with --from-state)"
            stopped.hint = f"{stopped.hint}; {kept}" if stopped.hint else kept
        raise
    from interpreter.runtime.render import render

    if not args.quiet:
        print()
        show_view(render(game, state, None))
    if short and not args.quiet:
        say("(the key events only: --verbose for the whole story, --moves for every move)", "dim")
    emphasised(result_line(game, state))
    if args.transcript:
        write_run_transcript(args, game, state, moves, kinds)
    if args.save_state:
        save_state(game, state, args.save_state)
    return 0


def cmd_replay(args) -> int:
    t = read_transcript(args.transcript)

    def rules_note(game: Game) -> None:
        if t.rules_hash and t.rules_hash != game.rules_hash:
            print(
                f"note: the rules changed since this transcript was written ({t.rules_hash} -> {game.rules_hash})",
                file=sys.stderr,
            )

    try:
        game, state = replay(t, Path(args.transcript).parent, args.from_state)
    except IllegalMove as err:
        if err.game is not None:
            rules_note(err.game)  # a changed rule is the likely reason a move is no longer legal
        print(f"{args.transcript}: {err}", file=sys.stderr)
        return 1
    rules_note(game)
    result = list(game.result(state) or ()) if game.is_over(state) else None
    if args.json:
        from interpreter.runtime.saving import state_to_dict

        print(json.dumps(state_to_dict(game, state), indent=1, sort_keys=True))
    if t.result is not None and result != t.result:
        print(
            f"{args.transcript}: result differs: transcript says {t.result}, replay gives {result}",
            file=sys.stderr,
        )
        return 1
    if not args.json:
        if result is None:
            outcome = f"the game is not over: {game.current_player(state)} decides next"
        else:
            outcome = f"{' and '.join(result)} win{'s' if len(result) == 1 else ''}" if result else "no winner"
        print(f"{args.transcript}: {len(t.moves)} moves replayed; {outcome}")
    return 0


def cmd_play(args) -> int:
    """A person plays one seat against AI seats: the seat's view before each of its
    decisions (when it changed), the moves numbered, `undo` back to the previous decision,
    the final view and the result; `--transcript` writes the game."""
    from interpreter.runtime.render import render

    game = chance_if_needed(args, load_named(args))
    state = load_state(game, args.from_state) if args.from_state else start_game(game, args, tuple(args.die or ()))
    args.seat = resolve_seat(game, args.seat, state.players, "seat")
    agents, kinds = parse_agents(args.agent, game, state.players, args.seed, human=HumanAgent)
    kinds[args.seat] = "human"
    terminal = sys.stdin.isatty() and sys.stdout.isatty()  # piped answers (tests, scripts) are read as before
    human = HumanAgent(args.seat, compact=terminal)
    names = ", ".join(map(game.seat_title, state.players))
    start = f"from {args.from_state}" if args.from_state else f"seed {args.seed}"
    say(f"== {game.header.title}: you are {game.seat_title(args.seat)}; {names}; {start}")
    for line in game.narrate(state, args.seat):
        say(line)
    moves: list[str] = []
    history: list[tuple[State, int]] = []  # the positions of your decisions, and the moves made before each
    try:
        state = _play_loop(args, game, state, agents, human, moves, history)
    except (SaveRequest, KeyboardInterrupt):  # Ctrl-C: the game is kept, never lost
        where = args.save_state or f"gamedef-{Path(args.game).stem}-seed{args.seed}.toml"
        save_state(game, state_now[0], where)
        print()
        say(f"-- saved to {where}: go on with `gamedef play {args.game} --seat {args.seat} --from-state {where}`")
        return 130
    if state is None:
        return 0
    print()
    show_view(render(game, state, args.seat))
    emphasised(result_line(game, state))
    if args.transcript:
        write_run_transcript(args, game, state, moves, kinds)
    return 0


state_now: list = [None]  # the position of the game in play, for Ctrl-C at any moment


def _play_loop(args, game: Game, state: State, agents: dict, human: HumanAgent, moves: list, history: list):
    """The turns of `play` to the end (the final state), or None when the person quits."""
    state_now[0] = state
    told = listeners(agents)  # a search that keeps its tree is told every move (an undo starts it afresh)
    while not game.is_over(state):
        check_cap(state, args.max_decisions)
        assert state.pending is not None  # the game is not over
        player = state.pending.player
        if player == args.seat:
            try:
                i = human.choose(game, state, can_undo=bool(history))
            except QuitRequest:
                say(f"-- you left the game after {state.decisions} decisions")
                return None
            except UndoRequest:
                state, made = history.pop()
                del moves[made:]
                human.last_view = None
                say("-- back to your previous decision")
                continue
            history.append((state, len(moves)))
        else:
            i = agents[player].choose(game, state)
        tell(told, game, state, i)
        label = game.labels(state)[i]
        moves.append(f"{player}: {label}")
        shown = f"{game.seat_title(player)}: {game.move_view(state, label, args.seat)}"
        state = game.apply_index(state, i)
        state_now[0] = state
        lines = game.narrate(state, args.seat)
        if player != args.seat and (not lines or lines[0] != shown):
            say(f"  > {shown}")
        for line in lines:
            say(line)
    return state


def cmd_serve(args) -> int:
    """`gamedef serve`: the web table on uvicorn (the `web` extra)."""
    try:
        from interpreter.web.serve import serve, where
        from interpreter.web.store import StoreUnavailable
    except ImportError as err:
        raise UsageError(
            f"gamedef serve needs the web extra ({err.name} is missing)", 'pip install "gamedef[web]"'
        ) from None
    for name in args.games:
        find_game(name)  # an unknown game is an argument error, before the server starts
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port} is not a port", "a number from 1 to 65535, for example 8000")
    hosts = list(args.allow_host or [])
    if args.host not in ("0.0.0.0", "::"):
        hosts.append(args.host)
    say(f"gamedef serve: http://{args.host}:{args.port}/ (tables kept in {where(args.db)}; Ctrl-C stops)")
    try:
        serve(args.db, args.games or None, args.host, args.port, hosts, args.ai_workers)
    except StoreUnavailable as err:
        raise UsageError(str(err), "choose another file with --db, or move this one away") from None
    return 0
