"""What several `gamedef` commands share: reading options and arguments, loading the game
named (in chance mode when an agent needs it), playing a game out with agents, its result
line and transcript, replaying a transcript, and the columns of `list` and `info`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interpreter.cli.terminal import listing, say
from interpreter.compile.compiled import CompiledGame
from interpreter.compile.compiler import compile_game
from interpreter.core.errors import GameRuntimeError, UsageError
from interpreter.core.limits import MAX_DECISIONS
from interpreter.core.options import option_value
from interpreter.language.sources import confined
from interpreter.play.agents import listeners, needs_chance, resampling_kinds, tell
from interpreter.runtime.engine import IllegalMove
from interpreter.runtime.game import ChanceGame, Game
from interpreter.runtime.load import load_game
from interpreter.runtime.machine import Move, State
from interpreter.runtime.saving import Transcript, load_state, write_transcript


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, not {value}")
    return value


MAX_BUDGET = 3600.0  # seconds `check --budget` may play: an hour is a simulation's work, not a check's


def budget_seconds(text: str) -> float:
    """`check --budget SECONDS`: a number from 0 (no play) to MAX_BUDGET."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not 0 <= value <= MAX_BUDGET:  # refuses nan and inf too
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to {MAX_BUDGET:g}, not {text}")
    return value


def parse_options(items: list[str]) -> dict[str, Any]:
    options = {}
    for item in items or []:
        if "=" not in item:
            raise UsageError(f"--option needs NAME=VALUE, got '{item}'", "`gamedef info GAME` lists the options")
        name, value = item.split("=", 1)
        options[name.strip()] = option_value(value.strip())
    return options


def load_named(args) -> Game:
    """The game the arguments name; a first load says what it is doing (terminal.first_load)."""
    from interpreter.cli.terminal import first_load

    with first_load() as tell:
        return load_game(args.game, variants=args.variant or [], options=parse_options(args.option), progress=tell)


def searchers(items: Sequence[str] | None) -> str:
    """The agents that redraw hidden information, named as given, with what they redraw:
    "greedy:d2:n1 redraws what its seat", or "ismcts:2 and greedy redraw what their seats"."""
    kinds = resampling_kinds(items)
    if len(kinds) == 1:
        return f"{kinds[0]} redraws what its seat"
    return f"{', '.join(kinds[:-1])} and {kinds[-1]} redraw what their seats"


def chance_if_needed(args, game: Game) -> Game:
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
        f"note: {searchers(args.agent)} cannot see in {game.header.title} by replaying the moves, so the game is "
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
    told = listeners(agents)  # a search that keeps its tree is told every move, as in `simulate`
    if narrate:
        for line in game.narrate(state, viewer, headlines=headlines):
            out(line)
    while not game.is_over(state):
        check_cap(state, max_decisions)
        assert state.pending is not None  # the game is not over
        player = state.pending.player
        i = agents[player].choose(game, state)
        tell(told, game, state, i)
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
                    lines = [f"{lines[0]}  {gap_text(skipped).strip()}", *lines[1:]]
                    skipped.clear()
                elif any(x.startswith("== ") for x in lines):
                    skipped.clear()
        if show_moves and (not lines or lines[0] != shown):  # a game that narrates its moves itself
            out(f"  > {shown}")
        for line in lines:
            out(line)
    return state, moves


def gap_text(skipped: list[str]) -> str:
    """`(Round 2 to Round 10: no key event)`, added to the next heading told: the headings
    of the story that the short narration left out, so that a jump from Round 1 to Round 11
    is not silent."""
    first, last = skipped[0][3:].split(":")[0], skipped[-1][3:].split(":")[0]
    return f"  ({first}{'' if first == last else f' to {last}'}: no key event)"


def relative_to(path: str | None, transcript: str) -> str:
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
        if named and relative_to(named, args.transcript).startswith(".."):
            print(
                f"note: the transcript names {named} outside its folder; `gamedef replay` reads files only "
                "from the transcript's folder (give the state with `replay --from-state`)",
                file=sys.stderr,
            )
    write_transcript(
        Transcript(
            game=game.name if not Path(args.game).suffix else relative_to(args.game, args.transcript),
            players=len(state.players),
            seed=args.seed,
            moves=moves,
            variants=list(args.variant or []),
            options=parse_options(args.option),
            rules_hash=game.rules_hash,
            agents=kinds,
            dice=list(getattr(args, "die", None) or []),
            start=relative_to(from_state, args.transcript),
            result=list(game.result(state) or ()),
            chance=isinstance(game, ChanceGame),
        ),
        args.transcript,
    )
    print(f"transcript written to {args.transcript}")


def start_game(game: Game, args, pins: tuple = ()) -> State:
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


def beside(base: Path, name: str, field: str) -> Path:
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
        name = str(beside(base, name, "game"))
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
        state = load_state(game, beside(base, t.start, "start"))
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


def shown_path(path: str) -> str:
    """A file as the user would name it: relative to the current folder when inside it."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


def options_of(path, variants=()) -> CompiledGame:
    """A game's options with these variants, compiled as far as the options only."""
    from interpreter.language.program import load_program

    return compile_game(load_program(path, tuple(variants)), {}, options_only=True)


def option_lines(g: CompiledGame, names, indent: str) -> list[str]:
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
        out.extend(entry(indent, f"--option {name}={typed(g.options[name])}", f"{d.description}{choices}"))
    return out


def put(text: str) -> None:
    """A listing's line(s): wrapped to the terminal's width under their column (terminal.listing)."""
    listing(text.split("\n"))


DESCRIPTIONS = 42  # the column where descriptions start in `list` and `info`


def entry(indent: str, left: str, text: str) -> list[str]:
    """An option or variant and its description, the description at one column for all;
    a name too long for it puts the description on the next line."""
    head = indent + left
    if len(head) <= DESCRIPTIONS - 2:
        return [f"{head:<{DESCRIPTIONS}}{text}".rstrip()]
    return [head, f"{'':<{DESCRIPTIONS}}{text}".rstrip()]


def installed_version() -> str:
    """The installed distribution's version, or "unknown" when it is not installed: what
    `--version` prints and a `--json` document of many games records beside its rules'
    digest, so a game can be replayed by the gamedef that played it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gamedef")
    except PackageNotFoundError:
        return "unknown"
