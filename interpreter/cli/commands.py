"""The `gamedef` command: run, play, check, test, replay, diff, list, rules, bench and simulate games.

Every failure a user can cause (a bad .game file, transcript, saved state or
argument) is reported as a message with a position and a hint, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from interpreter.cli.human import HumanAgent, QuitRequest, SaveRequest, UndoRequest
from interpreter.cli.terminal import clean_output, emphasised, error, listing, say, show_view
from interpreter.compile.compiler import compile_game
from interpreter.compile.game import CompiledGame
from interpreter.core.errors import GameDefError, GameRuntimeError, UsageError
from interpreter.core.limits import MAX_DECISIONS
from interpreter.language.sources import confined
from interpreter.play.agents import KINDS_HELP, needs_chance, parse_agents, resolve_seat
from interpreter.runtime.engine import IllegalMove
from interpreter.runtime.game import ChanceGame, Game
from interpreter.runtime.load import bundled_games, find_game, load_game
from interpreter.runtime.machine import Move, State
from interpreter.runtime.saving import Transcript, load_state, read_transcript, save_state, write_transcript


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, not {value}")
    return value


def _option_value(text: str) -> Any:
    if text.lstrip("-").isdigit():
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    return text


def parse_options(items: list[str]) -> dict[str, Any]:
    options = {}
    for item in items or []:
        if "=" not in item:
            raise UsageError(f"--option needs NAME=VALUE, got '{item}'", "`gamedef info GAME` lists the options")
        name, value = item.split("=", 1)
        options[name.strip()] = _option_value(value.strip())
    return options


def _load(args) -> Game:
    """The game the arguments name; a first load says what it is doing (terminal.first_load)."""
    from interpreter.cli.terminal import first_load

    with first_load() as tell:
        return load_game(args.game, variants=args.variant or [], options=parse_options(args.option), progress=tell)


def _chance_if_needed(args, game: Game) -> Game:
    """The game loaded again in chance mode when `needs_chance`, saying so (the game differs
    from the one `--seed` gives without it: the chance seat draws every random result)."""
    if not needs_chance(game, args.agent):
        return game
    for flag, given in (("--die", getattr(args, "die", None)), ("--from-state", getattr(args, "from_state", None))):
        if given:
            raise UsageError(
                f"{flag} cannot be used with ismcts in {game.header.title}",
                "ismcts and greedy play this game in chance mode,"
                " where the chance seat draws every random result from the seed",
            )
    print(
        f"note: ismcts redraws what it cannot see in {game.header.title} by replaying the moves, so the game is "
        "played in chance mode: the chance seat draws every random result from the seed",
        file=sys.stderr,
    )
    return ChanceGame(game.compiled, game.name, game.variants, game.options)  # the same rules, compiled once


class Capped(UsageError):
    """A game stopped by --max-decisions, with the position it reached (for --save-state)."""

    def __init__(self, message: str, hint: str, state: State):
        super().__init__(message, hint)
        self.state = state


def check_cap(state: State, max_decisions: int) -> None:
    """Stop a game still running after `max_decisions` decisions, naming the option."""
    if state.decisions >= max_decisions:
        raise Capped(
            f"the game has not ended after {max_decisions:,} decisions",
            "raise --max-decisions N, or check the rules for a game that cannot end",
            state,
        )


def play_out(
    game: Game,
    state: State,
    agents: dict,
    out=say,
    narrate: bool = True,
    show_moves: bool = False,
    record: bool = True,
    max_decisions: int = MAX_DECISIONS,
    viewer: str | None = None,
    headlines: bool = False,
    tick=None,
) -> tuple[State, list[str]]:
    """Play to the end with the given agents; returns the final state and the moves by label
    (when `record`: a transcript needs them; a quiet run does not).

    With a `viewer` (a person's seat), the narration shows only what that seat may see."""
    moves: list[str] = []
    skipped: list[str] = []  # headings of the story left out by the short narration since the last line told
    if narrate:
        for line in game.narrate(state, viewer, headlines=headlines):
            out(line)
    while not game.is_over(state):
        check_cap(state, max_decisions)
        player = state.pending.player
        i = agents[player].choose(game, state)
        if record or show_moves:  # labels are written only when someone reads them
            label = game.labels(state)[i]
            moves.append(f"{player}: {label}")
        shown = ""
        if show_moves:
            shown = f"{game.seat_title(player)}: {game.move_view(state, label, viewer) if viewer else label}"
        state = game.apply_index(state, i)
        if tick is not None:
            tick(state.decisions)
        lines = game.narrate(state, viewer, headlines=headlines) if narrate else []
        if narrate and headlines:  # the story's headings left out are said, never skipped silently
            skipped.extend(x for x in game.narrate(state, viewer) if x.startswith("== ") and x not in lines)
            if lines:
                # Before the next heading told, the headings left out since the last one (a key
                # event's own line is dated already: `Round 15: ...`, so none is added before it).
                if skipped and lines[0].startswith("== "):  # said on the heading's own line: no line added
                    lines = [f"{lines[0]}  {_gap(skipped).strip()}", *lines[1:]]
                    skipped.clear()
                elif any(x.startswith("== ") for x in lines):
                    skipped.clear()
        if show_moves and (not lines or lines[0] != shown):  # a game that narrates its moves itself
            out(f"  > {shown}")
        for line in lines:
            out(line)
    return state, moves


def _gap(skipped: list[str]) -> str:
    """`(Round 2 to Round 10: no key event)`, added to the next heading told: the headings
    of the story that the short narration left out, so that a jump from Round 1 to Round 11
    is not silent."""
    first, last = skipped[0][3:].split(":")[0], skipped[-1][3:].split(":")[0]
    return f"  ({first}{'' if first == last else f' to {last}'}: no key event)"


def _relative_to(path: str | None, transcript: str) -> str:
    """A state file's path as the transcript will find it: relative to the transcript."""
    if not path:
        return ""
    return os.path.relpath(Path(path).resolve(), Path(transcript).resolve().parent)


def result_line(game: Game, state: State) -> str:
    """`== game over after N decisions: red wins` (or `red and black win`, `no winner`)."""
    winners = game.result(state)
    if not winners:
        who = "no winner"
    else:
        who = f"{' and '.join(map(game.seat_title, winners))} win{'s' if len(winners) == 1 else ''}"
    return f"== game over after {state.decisions} decisions: {who}"


def write_run_transcript(args, game: Game, state: State, moves: list[str], kinds: dict) -> None:
    """The transcript of a game played by `run` or `play`, with the files it names made
    relative to it (and a note when they lie outside its folder, where replay won't look)."""
    from_state = getattr(args, "from_state", None)
    for named in (from_state, args.game if Path(args.game).suffix else None):
        if named and _relative_to(named, args.transcript).startswith(".."):
            print(
                f"note: the transcript names {named} outside its folder; `gamedef replay` reads files only "
                "from the transcript's folder (give the state with `replay --from-state`)",
                file=sys.stderr,
            )
    write_transcript(
        Transcript(
            game=game.name if not Path(args.game).suffix else _relative_to(args.game, args.transcript),
            players=len(state.players),
            seed=args.seed,
            moves=moves,
            variants=list(args.variant or []),
            options=parse_options(args.option),
            rules_hash=game.rules_hash,
            agents=kinds,
            dice=list(getattr(args, "die", None) or []),
            start=_relative_to(from_state, args.transcript),
            result=list(game.result(state) or ()),
            chance=isinstance(game, ChanceGame),
        ),
        args.transcript,
    )
    print(f"transcript written to {args.transcript}")


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
    while not game.is_over(state):
        check_cap(state, args.max_decisions)
        player = state.pending.player
        i = agents[player].choose(game, state)
        label = game.labels(state)[i]
        state = game.apply_index(state, i)
        emit({"decision": state.decisions, "seat": player, "move": label, "narration": game.narrate(state)})
    emit({"result": list(game.result(state)), "decisions": state.decisions})
    return 0


def _start(game: Game, args, pins: tuple = ()) -> State:
    """`game.start` with the command line's players, seed and dice. A `require` of the
    game's setup that refuses them (`superpower` naming a seat not in play) is an error of
    the arguments, said as the game words it, with the rule's place as a hint."""
    try:
        return game.start(players=args.players, seed=args.seed, pins=pins)
    except GameRuntimeError as err:
        d = err.diagnostics[0]
        text = game.compiled.program.sources.get(d.span.path, "").splitlines()
        line = text[d.span.line - 1] if 0 < d.span.line <= len(text) else ""
        if not line.lstrip().startswith("require"):
            raise
        message = d.message.split(": ", 1)[1] if d.message.startswith("in ") and ": " in d.message else d.message
        raise UsageError(message, f"the game's setup refuses these arguments ({d.span})") from None


def cmd_run(args) -> int:
    game = _chance_if_needed(args, _load(args))
    if args.from_state:
        state = load_state(game, args.from_state)
    else:
        state = _start(game, args, tuple(args.die or ()))
    agents, kinds = parse_agents(args.agent, game, state.players, args.seed, human=HumanAgent)
    if args.json:
        return _run_json(args, game, state, agents)
    say(
        f"== {game.header.title}"
        + (f" ({', '.join(args.variant)})" if args.variant else "")
        + f": {', '.join(map(game.seat_title, state.players))}; seed {args.seed}"
    )
    # The short narration (the lines the game marks `log headline`) unless asked for all.
    short = bool(game.compiled.headline_formats) and not (args.verbose or args.moves)
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
            stopped.hint += f"; the position it reached is in {args.save_state} (go on with --from-state)"
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


def _beside(base: Path, name: str, field: str) -> Path:
    """A file a transcript names: relative to the transcript, inside its folder tree."""
    path = confined(base, name, (base.resolve(),))
    if path is None:
        raise UsageError(
            f"the transcript's {field} {name!r} is outside the transcript's folder",
            "name a file beside the transcript (or below it)"
            + ("; or give the state with --from-state" if field == "start" else ""),
        )
    return path


def replay(t: Transcript, base: Path, start: str | None = None) -> tuple[Game, State]:
    """Re-run a transcript; raises IllegalMove at the first move that is no longer legal.

    The files it names (a .game file, a start state) are read only from the
    transcript's own folder tree; `start` (from the command line) overrides its state."""
    name = t.game
    if name.endswith(".game"):
        name = str(_beside(base, name, "game"))
    if t.chance and (start or t.start or t.dice):
        given = "--from-state" if start else "start" if t.start else "dice"
        raise UsageError(
            f"a transcript played in chance mode (chance = true) cannot name {given}",
            "in chance mode every random result is a `chance: ...` move from the first position",
        )
    game = load_game(name, variants=t.variants, options=t.options, chance=t.chance)
    if start:
        state = load_state(game, start)
    elif t.start:
        state = load_state(game, _beside(base, t.start, "start"))
    else:
        state = game.start(players=t.players, seed=t.seed, pins=tuple(t.dice))
    for n, text in enumerate(t.moves, 1):
        player, sep, label = text.partition(": ")
        if not sep:
            raise UsageError(f"move {n} '{text}' is not 'seat: label'")
        try:
            state = game.apply(state, Move(player, label))
        except IllegalMove as err:
            failed = IllegalMove(f"move {n} ({text})", err.reason)
            failed.game = game  # so the caller can still say whether the rules changed
            raise failed from None
    return game, state


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
        if getattr(err, "game", None) is not None:
            rules_note(err.game)  # a changed rule is the likely reason a move is no longer legal
        print(f"{args.transcript}: {err}", file=sys.stderr)
        return 1
    rules_note(game)
    result = list(game.result(state)) if game.is_over(state) else None
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
            outcome = f"the game is not over: {state.pending.player} decides next"
        else:
            outcome = f"{' and '.join(result)} win{'s' if len(result) == 1 else ''}" if result else "no winner"
        print(f"{args.transcript}: {len(t.moves)} moves replayed; {outcome}")
    return 0


def _shown_path(path: str) -> str:
    """A file as the user would name it: relative to the current folder when inside it."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


def cmd_test(args) -> int:
    """Run the `test` blocks of each file: each failure at its line, with what was
    expected and what came; exit 1 if any failed, 2 for a file that does not check."""
    from interpreter.runtime.designer_tests import run_tests

    total = failed = 0
    bad = False
    for name in args.files:
        try:
            outcomes = run_tests(name, args.k)
        except GameDefError as err:
            print(err.render(), file=sys.stderr)
            bad = True
            continue
        for o in outcomes:
            total += 1
            if o.passed:
                if args.verbose:
                    print(f"{_shown_path(o.test.span.path)}: test {o.test.name}: ok")
                continue
            failed += 1
            for f in o.failures:
                print(f.render().replace(f.span.path, _shown_path(f.span.path), 1))
        passed = sum(o.passed for o in outcomes)
        print(f"{name}: {passed} of {len(outcomes)} tests passed")
    if bad:
        return 2
    if len(args.files) > 1:
        print(f"{total - failed} of {total} tests passed")
    return 1 if failed else 0


def cmd_diff(args) -> int:
    """Play transcripts against the edited rules; per transcript, the first decision that
    goes differently and the rules in force there. Exit 0 when none differs, else 1."""
    from interpreter.core.paths import ROOT
    from interpreter.runtime.transcript_diff import diff_transcript, transcripts_in

    items = args.transcripts
    if not items:
        canonical = ROOT / "tests" / "transcripts"
        if not canonical.is_dir():
            raise UsageError(
                "no transcripts named, and the canonical ones (tests/transcripts/ of a checkout) are not here",
                "name transcripts or a folder of them: gamedef diff MY_GAMES/ --game my.game",
            )
        items = [str(canonical)]
    paths = transcripts_in(items)
    if args.game and not args.transcripts:  # the canonical games of that game only
        name = load_game(args.game).name
        paths = [p for p in paths if Path(read_transcript(p).game).name.removesuffix(".game") == name]
    if not paths:
        raise UsageError("no transcripts to play", "a folder's transcripts are its *.toml files")
    differ = 0
    for path in paths:
        d = diff_transcript(path, args.game)
        shown = _shown_path(str(path))
        if d is None:
            print(f"{shown}: same")
            continue
        differ += 1
        where = f"move {d.decision} ({d.move})" if d.move else "the result"
        print(f"{shown}: differs at {where}")
        for line in d.what:
            print(f"    {line}")
        if d.rules:
            print("    rules in force:")
            for line in d.rules:
                print(f"      {_shown_path(line.split(':', 1)[0])}:{line.split(':', 1)[1]}")
    print(f"{differ} of {len(paths)} transcripts differ")
    return 1 if differ else 0


def cmd_check(args) -> int:
    from interpreter.check.checker import check_program
    from interpreter.language.program import load_program

    failed = False
    for name in args.files:
        try:
            path = find_game(name)
            program = load_program(path)
            warnings = None
            for vs in [[]] + [[v] for v in program.all_variants]:
                found = check_program(load_program(path, vs))
                load_game(str(path), variants=vs)
                # Warn only of what no variant uses either.
                keys = {(d.span, d.message): d for d in found}
                warnings = keys if warnings is None else {k: d for k, d in warnings.items() if k in keys}
            for d in (warnings or {}).values():
                print(d.render(), file=sys.stderr)
            print(f"{name}: ok ({len(program.all_variants)} variants)")
        except GameDefError as err:
            print(err.render(), file=sys.stderr)
            failed = True
    return 2 if failed else 0


def cmd_lsp(args) -> int:
    """The language server for editors (docs/editor.md); its libraries are an optional extra."""
    try:
        from interpreter.lsp.server import main as serve
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing not in ("pygls", "lsprotocol"):
            raise
        error(f"gamedef lsp needs the optional extra 'lsp' ({missing} is not installed)", LSP_HINT)
        return 2
    return serve()


LSP_HINT = "install it with: pip install 'gamedef[lsp]'"


def cmd_new(args) -> int:
    from interpreter.cli.new import make_skeleton

    path = make_skeleton(args.what, args.name, args.of, Path(args.dir))
    test = path.with_name(path.stem + ".test.game")
    print(
        f"wrote {path} and its tests {test}: check it with `gamedef check {path}`, test it with `gamedef test {test}`"
    )
    return 0


def cmd_play(args) -> int:
    """A person plays one seat against AI seats: the seat's view before each of its
    decisions (when it changed), the moves numbered, `undo` back to the previous decision,
    the final view and the result; `--transcript` writes the game."""
    from interpreter.runtime.render import render

    game = _chance_if_needed(args, _load(args))
    state = load_state(game, args.from_state) if args.from_state else _start(game, args, tuple(args.die or ()))
    args.seat = resolve_seat(game, args.seat, state.players, "--seat")
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
    while not game.is_over(state):
        check_cap(state, args.max_decisions)
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


def _options_of(path, variants=()) -> CompiledGame:
    """A game's options with these variants, compiled as far as the options only."""
    from interpreter.language.program import load_program

    return compile_game(load_program(path, tuple(variants)), {}, options_only=True)


def _option_lines(g: CompiledGame, names, indent: str) -> list[str]:
    """`--option NAME=DEFAULT  description (choices: ...)` for the options named, each
    value written as it is typed on the command line."""

    def typed(v) -> str:
        return str(v).lower() if isinstance(v, bool) else str(v)

    out = []
    for name in names:
        d = g.option_decls[name]
        choices = ""
        if d.choices is not None:
            values = list(g.option_choices[name] or ())
            run = (
                len(values) > 5
                and all(type(v) is int for v in values)
                and values == list(range(values[0], values[-1] + 1))
            )
            shown = f"{values[0]} to {values[-1]}" if run else ", ".join(typed(c) for c in values)
            choices = f" (choices: {shown})" if len(values) > 1 else f" (only {shown} unless a variant allows more)"
        out.extend(_entry(indent, f"--option {name}={typed(g.options[name])}", f"{d.description}{choices}"))
    return out


def _put(text: str) -> None:
    """A listing's line(s): wrapped to the terminal's width under their column (terminal.listing)."""
    listing(text.split("\n"))


DESCRIPTIONS = 42  # the column where descriptions start in `list` and `info`


def _entry(indent: str, left: str, text: str) -> list[str]:
    """An option or variant and its description, the description at one column for all;
    a name too long for it puts the description on the next line."""
    head = indent + left
    if len(head) <= DESCRIPTIONS - 2:
        return [f"{head:<{DESCRIPTIONS}}{text}".rstrip()]
    return [head, f"{'':<{DESCRIPTIONS}}{text}".rstrip()]


def cmd_list(args) -> int:
    """Each bundled game with its player counts, options (with their defaults and
    choices) and variants, and the options each variant adds."""
    from interpreter.language.program import load_program

    if getattr(args, "names", False):
        print("\n".join(bundled_games()))
        return 0
    for name, path in bundled_games().items():
        program = load_program(path)
        h = program.header
        count = str(h.min_players) if h.min_players == h.max_players else f"{h.min_players}-{h.max_players}"
        _put(f"{name:<24} {h.title} ({count} players)")
        base = _options_of(path)
        _put("\n".join(_option_lines(base, base.option_decls, "    ")))
        for v in program.all_variants.values():
            _put("\n".join(_entry("    ", f"--variant {v.name}", v.title)))
            game = _options_of(path, [v.name])
            added = [n for n in game.option_decls if n not in base.option_decls]
            for line in _option_lines(game, added, "        "):
                _put(line)
    return 0


def _rulebook_line(path: Path, h) -> str:
    """`rulebook: ...` naming only what is shipped: the rulebook the rules cite is the
    publisher's, shipped only when it lies beside the game as a file of its own; otherwise
    the line says so and points at the rules in brief that the game ships (`summary`)."""
    if not h.rulebook:
        return "rulebook: (none named)"
    shipped = (path.parent / h.rulebook).is_file() and h.rulebook != h.summary
    if shipped:
        return f"rulebook: {path.parent / h.rulebook}"
    brief = f"; the rules in brief: `gamedef rules {path.stem}`" if h.summary else ""
    return f"rulebook: {h.rulebook}, the publisher's, cited by section (not shipped{brief})"


def cmd_info(args) -> int:
    """One game as a newcomer needs it: title, player counts and seats, options, variants
    (with what they exclude and the options they add), and where its rules are cited."""
    from interpreter.check.rules_index import rules_listing
    from interpreter.language.program import load_program

    path = find_game(args.game)
    program = load_program(path)
    game = load_game(str(path))
    h = program.header
    count = str(h.min_players) if h.min_players == h.max_players else f"{h.min_players} to {h.max_players}"
    usual = f", {h.default_players} by default" if h.default_players and h.min_players != h.max_players else ""
    _put(f"{h.title} ({path.stem}): {count} players{usual}")
    for n in range(h.min_players, h.max_players + 1):
        _put(f"    {n} player{'' if n == 1 else 's'}: {', '.join(game.seats_for(n))}")
    _put(_rulebook_line(path, h))
    lines = _option_lines(game.compiled, game.compiled.option_decls, "    ")
    _put("options:" + ("" if lines else " none"))
    for line in lines:
        _put(line)
    _put("variants:" + ("" if program.all_variants else " none"))
    for v in program.all_variants.values():
        excludes = f" (not with {', '.join(v.excludes)})" if v.excludes else ""
        _put("\n".join(_entry("    ", f"--variant {v.name}", f"{v.title}{excludes}")))
        with_v = _options_of(path, [v.name])
        added = [n for n in with_v.option_decls if n not in game.compiled.option_decls]
        for line in _option_lines(with_v, added, "        "):
            _put(line)
    cited = rules_listing(path, []).count("\n")
    brief = " and the rules in brief" if program.header.summary else ""
    _put(f"rules: {cited} lines of rulebook citations and interpretations{brief} (`gamedef rules {path.stem}`)")
    return 0


def cmd_cards(args) -> int:
    """The game's printed cards, filtered; exit 1 when no card matches."""
    from interpreter.runtime.cardlist import card_listing

    game = _load(args)
    width = min(88, shutil.get_terminal_size((88, 24)).columns) if sys.stdout.isatty() else 88
    lines = card_listing(game.compiled, args.kind, args.where or [], args.search, width=width)
    for line in lines:
        _put(line)
    shown = sum(1 for line in lines if not line.startswith("    "))
    from interpreter.runtime.cardlist import card_kinds

    one, many = ("card", "cards") if card_kinds(game.compiled) else ("entry", "entries")
    print(f"({shown} {one if shown == 1 else many})", file=sys.stderr)
    return 0 if shown else 1


def cmd_rules(args) -> int:
    from interpreter.check.rules_index import rules_listing

    print(rules_listing(find_game(args.game), args.variant or []))
    return 0


def cmd_bench(args) -> int:
    """Random playouts from successive seeds: speed, decisions per game, each seat's wins."""
    from interpreter.cli.terminal import progress
    from interpreter.play.agents import RandomAgent
    from interpreter.play.simulate import check_scale

    check_scale(args.games, 1)
    game = _load(args)
    decisions = 0
    wins: dict[str, float] = {}
    seats: tuple[str, ...] = ()
    _start(game, args)  # the arguments checked once, as the other commands do
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


def cmd_serve(args) -> int:
    """`gamedef serve`: the web table on uvicorn (the `web` extra)."""
    try:
        import uvicorn

        from interpreter.web.app import create_app
    except ImportError as err:
        raise UsageError(
            f"gamedef serve needs the web extra ({err.name} is missing)", 'pip install "gamedef[web]"'
        ) from None
    for name in args.games:
        find_game(name)  # an unknown game is an argument error, before the server starts
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port} is not a port", "a number from 1 to 65535, for example 8000")
    app = create_app(args.db, args.games or None)
    say(f"gamedef serve: http://{args.host}:{args.port}/ (tables kept in {args.db}; Ctrl-C stops)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def cmd_simulate(args) -> int:
    """Many games by AI players, in parallel: win rates with intervals, length, endings, cards."""
    from interpreter.cli.terminal import progress
    from interpreter.play import simulate as sim

    sim.check_scale(args.games, 1 if args.jobs is None else args.jobs)  # before the game is loaded
    if args.ray is not None:
        sim.import_ray()  # Ray is an optional extra: say how to install it before loading anything
    game = _load(args)
    chance = needs_chance(game, args.agent)
    if chance:
        game = ChanceGame(game.compiled, game.name, game.variants, game.options)
        print(
            f"note: ismcts redraws what it cannot see in {game.header.title} by replaying the moves, so the games "
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
    first = _start(game, args)  # checks --players and the options before any worker starts
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
        sim.plot_folder(Path(args.plot))
    jobs = min(jobs, args.games)
    start = time.perf_counter()
    watch = lambda n: progress(n, "games")
    records = sim.simulate(setup, args.games, args.seed, jobs, game=game, watch=watch, ray_address=args.ray)
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
    }
    doc = sim.document(header, records, seats, cards)
    if args.json:
        print(json.dumps(doc, indent=1))
    elif args.csv == "cards":
        sim.write_cards_csv(doc, sys.stdout)
    elif args.csv:
        sim.write_csv(records, sys.stdout)
    else:
        listing(sim.text_report(doc, top_cards=args.cards))
        if args.ray is None:
            where = f"with {jobs} job{'s' if jobs != 1 else ''}"
        else:
            where = f"on a local Ray instance of {jobs} CPUs" if args.ray == sim.LOCAL_RAY else f"on Ray at {args.ray}"
        print(f"\n({len(records)} games in {elapsed:.1f}s {where})")
    if args.plot:
        for path in sim.plot(doc, records, Path(args.plot)):
            print(f"chart written to {path}", file=sys.stderr if args.json or args.csv else sys.stdout)
    return 0


def cmd_balance(args) -> int:
    """The balance report: every player count (or --players), win rates per seat, the first
    player, length, endings and each component, as text, JSON or an HTML page."""
    from interpreter.cli.terminal import progress
    from interpreter.play import balance as bal
    from interpreter.play import simulate as sim

    jobs = sim.default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError(f"--jobs {jobs}: at least one job is needed", "--jobs 1 plays in this process")
    sim.check_scale(args.games, jobs)
    if args.ray is not None:
        sim.import_ray()
    html = bal.html_target(Path(args.html)) if args.html else None
    game = _load(args)
    agents = list(args.agent or ())
    counts = bal.game_counts(game, args.players)
    bal.check_components(game, args.component or ())
    bal.check_agent_seats(game, counts, agents)
    chance = needs_chance(game, agents)
    if chance:
        game = ChanceGame(game.compiled, game.name, game.variants, game.options)
    for count in counts:  # unknown agent kinds, and a setup that refuses a count, before any game
        seats = _start(game, argparse.Namespace(players=count, seed=args.seed)).players
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
    )
    plan = bal.Plan(setup, tuple(counts), args.games, args.seed, tuple(agents))
    watch = lambda n, k: progress(n, f"games, {k} player{'s' if k != 1 else ''}")
    keep = Path(args.keep) if args.keep else None
    doc, by_count = bal.run(plan, jobs, game=game, watch=watch, ray_address=args.ray, keep=keep)
    if args.json:
        print(json.dumps({**doc, "records": bal.records_dict(by_count)}, indent=1))
    else:
        listing(bal.text_report(doc, top=args.top))
    if html is not None:
        for path in bal.write_html(doc, by_count, html, bal.command_line(args.game, doc, html)):
            print(f"written: {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def _max_decisions_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--max-decisions",
        type=_positive,
        default=MAX_DECISIONS,
        metavar="N",
        help=f"stop a game that has not ended after N decisions (default {MAX_DECISIONS:,})",
    )


# Each command's --help ends with examples a newcomer can type as they are.
EXAMPLES: dict[str, list[tuple[str, str]]] = {
    "gamedef": [
        ("gamedef list", "the bundled games, their options and variants"),
        ("gamedef run twid --seed 3", "watch four AI players play The Wall is Down"),
        ("gamedef play berlin_wall --seat red", "play a seat yourself"),
        ("gamedef COMMAND --help", "one command's options and examples"),
    ],
    "run": [
        ("gamedef run twid --seed 3", "a whole game, its key events"),
        ("gamedef run berlin_wall --players 3 --variant gravity --verbose", "a variant, the whole story"),
        ("gamedef run twid --agent us=ismcts:50 --quiet", "a search agent for one seat, only the result"),
        ("gamedef run tictactoe --transcript game.toml", "write a transcript for `gamedef replay`"),
    ],
    "play": [
        ("gamedef play berlin_wall --seat red", "you are red; the other seats are random players"),
        ("gamedef play twid --players 2 --seat west --agent east=ismcts:1s", "against a search agent"),
        ("gamedef play twid --seat us --from-state saved.toml", "go on with a game saved on Ctrl-C"),
    ],
    "check": [("gamedef check examples/twid_house_rules.game", "check a file and each of its variants")],
    "replay": [("gamedef replay game.toml", "re-run a transcript, every move checked")],
    "list": [("gamedef list", "every bundled game")],
    "info": [("gamedef info walls_and_wonders", "players, seats, options and variants of one game")],
    "cards": [
        ("gamedef cards twid --search Putin", "the cards whose title or text names Putin"),
        ("gamedef cards twid --where ops=3 --where block=W", "filter by properties"),
        ("gamedef cards missiles_now", "any game's components with a text"),
    ],
    "rules": [("gamedef rules berlin_wall --variant gravity", "the rules in brief, then every citation")],
    "bench": [("gamedef bench tictactoe --games 100", "random playouts: games and decisions a second")],
    "simulate": [
        ("gamedef simulate walls_and_wonders --games 200", "win rates, game length, endings"),
        ("gamedef simulate twid --games 50 --agent us=ismcts:20 --csv", "one CSV row per game"),
    ],
    "balance": [
        ("gamedef balance walls_and_wonders --games 100", "every player count: seats, first player, endings"),
        ("gamedef balance twid --players 2,4 --games 20 --agent ismcts:0.05s:d10 --html twid.html", "a page"),
        ("gamedef balance downfall_of_empires --games 50 --component Action", "how each action fares"),
    ],
}


def _epilog(command: str) -> str:
    rows = EXAMPLES.get(command, [])
    return "examples:\n" + "\n".join(f"  {cmd}\n      {what}" for cmd, what in rows) if rows else ""


class _Version(argparse.Action):
    """`--version`, the installed version looked up only when asked (the lookup reads the
    Python installation's metadata, which no other command needs to touch)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"gamedef {_version()}")
        parser.exit(0)


def _version() -> str:
    """The installed distribution's version (the source tree's pyproject when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gamedef")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamedef",
        description=__doc__.splitlines()[0],
        epilog=_epilog("gamedef"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="print gamedef's version and exit")
    _completion(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def game_args(p, players=True):
        p.add_argument("game", help="a .game file or a bundled game name (see `gamedef list`)")
        if players:
            p.add_argument("--players", type=int, default=None, help="number of players (default: the game's own)")
            p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
        p.add_argument("--variant", action="append", metavar="V", help="apply a variant (repeatable)")
        p.add_argument(
            "--option", action="append", metavar="NAME=VALUE", help="set a game option (repeatable; see `gamedef info`)"
        )

    def sub_parser(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=text,
            description=text[0].upper() + text[1:] + ".",
            epilog=_epilog(name),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    p = sub_parser("run", "play a whole game with AI players, narrated")
    game_args(p)
    p.add_argument("--agent", action="append", metavar="SEAT=KIND", help=f"agent for a seat: {KINDS_HELP}")
    p.add_argument("--transcript", metavar="OUT.toml", help="write the game's transcript")
    p.add_argument("--save-state", metavar="OUT.toml", help="write the final state")
    p.add_argument("--from-state", metavar="STATE.toml", help="start from a saved state")
    p.add_argument("--die", type=int, action="append", help="pin the next random result (repeatable)")
    p.add_argument("--moves", action="store_true", help="show every move, with the whole narration")
    p.add_argument("--verbose", action="store_true", help="the whole narration, not only the key events")
    p.add_argument("--json", action="store_true", help="for tools: one JSON document per line (each move, its lines)")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_run)

    p = sub_parser("play", "play a game yourself in the terminal against AI seats")
    game_args(p)
    p.add_argument("--seat", required=True, help="the seat you play (its name or title, any case)")
    p.add_argument("--from-state", metavar="STATE.toml", help="go on from a saved state (Ctrl-C offers to save one)")
    p.add_argument("--agent", action="append", metavar="SEAT=KIND", help=f"agent for another seat: {KINDS_HELP}")
    p.add_argument("--transcript", metavar="OUT.toml", help="write the game's transcript")
    p.add_argument(
        "--save-state", metavar="OUT.toml", help="where Ctrl-C saves the game (default gamedef-GAME-seedS.toml)"
    )
    p.add_argument("--die", type=int, action="append", help="pin the next random result (repeatable)")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_play)

    p = sub_parser("check", "check .game files (and each of their variants)")
    p.add_argument("files", nargs="+", metavar="FILE", help=".game files or bundled game names")
    p.set_defaults(func=cmd_check)

    p = sub_parser("lsp", "run the language server an editor starts (LSP on stdin and stdout; docs/editor.md)")
    p.set_defaults(func=cmd_lsp)

    p = sub_parser("new", "start a new game, variant or card set in a folder of your own, as a skeleton that runs")
    p.add_argument("what", choices=["game", "variant", "cards"], help="what to start")
    p.add_argument("name", help="its name (lower case, digits, _): the file is NAME.game")
    p.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the folder to write it in (default: here)")
    p.add_argument(
        "--of", metavar="GAME", help="the game a variant or card set builds on: a bundled name or a .game in DIR"
    )
    p.set_defaults(func=cmd_new)

    p = sub_parser("replay", "re-run a transcript and check every move and the result")
    p.add_argument("transcript", help="a transcript written by --transcript (TOML)")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")
    p.add_argument("--from-state", metavar="STATE.toml", help="start from this saved state, not the transcript's")
    p.set_defaults(func=cmd_replay)

    p = sub_parser("test", "run the designers' tests (`test` blocks) of .game files")
    p.add_argument("files", nargs="+", metavar="FILE", help=".game files with test blocks")
    p.add_argument("-k", metavar="WORDS", help="only the tests whose name contains WORDS")
    p.add_argument("--verbose", action="store_true", help="name each test that passes too")
    p.set_defaults(func=cmd_test)

    p = sub_parser("diff", "play transcripts against edited rules: where each first goes differently")
    p.add_argument(
        "transcripts", nargs="*", metavar="TRANSCRIPT", help="transcripts or folders of them (default: the canonical)"
    )
    p.add_argument("--game", metavar="GAME", help="the edited game, played against the rules the transcripts name")
    p.set_defaults(func=cmd_diff)

    p = sub_parser("list", "list the bundled games: players, variants and options")
    p.add_argument("--names", action="store_true", help="only the games' names, one a line (for shell completion)")
    p.set_defaults(func=cmd_list)

    p = sub_parser("info", "one game: players and seats, options, variants, rulebook")
    p.add_argument("game", help="a .game file or a bundled game name (see `gamedef list`)")
    p.set_defaults(func=cmd_info)

    p = sub_parser("cards", "list a game's printed cards: number, title, properties, text")
    p.add_argument("game", help="a .game file or a bundled game name")
    p.add_argument("--variant", action="append", metavar="V", help="apply a variant (repeatable)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a game option")
    p.add_argument("--kind", help="only the cards of this kind (entity)")
    p.add_argument("--where", action="append", metavar="PROP=VALUE", help="only cards whose property has this value")
    p.add_argument("--search", metavar="WORDS", help="only cards whose title or text contains these words")
    p.set_defaults(func=cmd_cards)

    p = sub_parser("rules", "a game's rules in brief, then each rule with its rulebook section and readings")
    p.add_argument("game", help="a .game file or a bundled game name (see `gamedef list`)")
    p.add_argument("--variant", action="append", metavar="V", help="with this variant's rules (repeatable)")
    p.set_defaults(func=cmd_rules)

    p = sub_parser("bench", "random playouts: games/s, decisions/s and each seat's wins")
    game_args(p)
    p.add_argument("--games", type=_positive, default=20, help="number of games (default 20)")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_bench)

    from interpreter.play.simulate import (  # stdlib and the engine only: cheap to import
        LOCAL_RAY,
        TOP_CARDS,
        cards_shown,
    )

    p = sub_parser("simulate", "many games by AI players in parallel: win rates, length, endings, cards")
    game_args(p)
    p.add_argument("--games", type=_positive, required=True, metavar="N", help="number of games (seeds S..S+N-1)")
    p.add_argument("--agent", action="append", metavar="SEAT=KIND", help="agent for a seat (default random)")
    p.add_argument("--jobs", type=int, default=None, metavar="J", help="worker processes (default: every core)")
    p.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        metavar="ADDRESS",
        help="play on Ray: a new local instance of J CPUs, or the cluster at ADDRESS (pip install '.[ray]')",
    )
    p.add_argument(
        "--cards",
        type=cards_shown,
        default=TOP_CARDS,
        metavar="N|all",
        help=f"cards shown in the text report, the largest win-rate differences first (default {TOP_CARDS})",
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="one JSON document: the figures and every game")
    fmt.add_argument(
        "--csv",
        nargs="?",
        const="games",
        choices=["games", "cards"],
        help="CSV: one row per game, or with `cards` one row per card",
    )
    p.add_argument("--plot", metavar="DIR", help="write PNG charts: win rates, game lengths")
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_simulate)

    from interpreter.play.balance import TOP_COMPONENTS, parse_counts

    p = sub_parser("balance", "a balance report over every player count: seats, first player, endings, cards")
    p.add_argument("game", help="a .game file or a bundled game name (see `gamedef list`)")
    p.add_argument(
        "--players", type=parse_counts, metavar="N,M", help="player counts, e.g. 2,4 or 2-4 (default: every count)"
    )
    p.add_argument("--games", type=_positive, default=100, metavar="N", help="games at each count (default 100)")
    p.add_argument("--seed", type=int, default=1, help="the first seed (default 1): games use seeds S..S+N-1")
    p.add_argument("--variant", action="append", metavar="V", help="apply a variant (repeatable)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a game option (repeatable)")
    p.add_argument(
        "--agent",
        action="append",
        metavar="[SEAT=]KIND",
        help="KIND for every seat, or SEAT=KIND for one (default random; repeatable)",
    )
    p.add_argument(
        "--component",
        action="append",
        metavar="KIND",
        help="count the choices of this kind of component (repeatable; default: the game's cards)",
    )
    p.add_argument("--jobs", type=int, default=None, metavar="J", help="worker processes (default: every core)")
    p.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        metavar="ADDRESS",
        help="play on Ray: a new local instance of J CPUs, or the cluster at ADDRESS (pip install '.[ray]')",
    )
    p.add_argument("--html", metavar="FILE", help="write the report as one HTML page (charts beside it)")
    p.add_argument(
        "--keep",
        metavar="FILE",
        help="write each game to FILE as it ends, and read back the games already there (a stopped run goes on)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document: the figures and every game")
    p.add_argument(
        "--top",
        type=cards_shown,
        default=TOP_COMPONENTS,
        metavar="N|all",
        help=f"components listed per count in the text, the largest differences first (default {TOP_COMPONENTS})",
    )
    _max_decisions_arg(p)
    p.set_defaults(func=cmd_balance)

    p = sub_parser("serve", "the web table: play any game in a browser, alone against AI or with friends")
    p.add_argument("games", nargs="*", metavar="GAME", help="the games offered (default: every bundled game)")
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)"
    )
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument("--db", default="gamedef-tables.sqlite", metavar="FILE", help="where tables are kept (SQLite)")
    p.set_defaults(func=cmd_serve)
    return parser


def _completion(parser: argparse.ArgumentParser) -> None:
    """`gamedef --print-completion bash|zsh|tcsh`: a completion script made by shtab from this
    parser (commands, options, and the bundled games' names for GAME); shtab is imported
    only when the script is asked for, so it costs nothing otherwise."""

    class Print(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            import shtab

            for action in _game_arguments(parser):
                action.complete = {"bash": "_gamedef_games", "zsh": "($(gamedef list --names))"}
            preamble = {"bash": '_gamedef_games() { compgen -W "$(gamedef list --names)" -- "$1"; }\n'}
            print(shtab.complete(parser, shell=values, preamble=preamble))
            parser.exit(0)

    parser.add_argument(
        "--print-completion",
        choices=["bash", "zsh", "tcsh"],
        action=Print,
        help='print a shell completion script: `eval "$(gamedef --print-completion bash)"`',
    )


def _game_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The GAME positionals of every command, for completion by the bundled games' names."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for p in action.choices.values():
                found.extend(a for a in p._actions if a.dest == "game")
    return found


def main(argv: list[str] | None = None) -> int:
    """The `gamedef` command; everything it writes passes `terminal.clean` (no escape
    sequence from a game, table, transcript, state or argument reaches the terminal)."""
    with clean_output():
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command == "new" and args.dir == "." and len(extra) == 1 and not extra[0].startswith("-"):
        args.dir = extra[0]  # `new variant NAME --of GAME DIR`: the folder after the option
    elif extra:
        parser.error("unrecognized arguments: " + " ".join(extra))
    if args.command is None:  # `gamedef` alone: what it can do, not an error
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except GameRuntimeError as err:
        pinned = getattr(args, "die", None) and "pinned result" in err.diagnostics[0].message
        if not pinned:
            print(err.render(), file=sys.stderr)
            return 2
        d = err.diagnostics[0]  # a --die value this roll cannot give: the argument's error
        where, rest = d.message.split(": pinned result ", 1)
        value, options = rest.split(" is not one of ", 1)
        hint = "each --die pins the next random result, in order"
        error(f"--die {value}: the roll it pins ({where}) gives {options}", hint)
        return 2
    except GameDefError as err:
        print(err.render(), file=sys.stderr)
        return 2
    except UsageError as err:
        error(err.message, err.hint)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`gamedef run ... | head`): stop quietly
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
