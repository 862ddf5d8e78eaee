"""The machine: what a position is, and the working copy that runs the rules on it.

`State` is one hashable value: the game's variables, the stack of half-run
procedures as (code, step, locals), the pending decision, the random generator and
any pinned dice. A move thaws it into a working `VM`, binds the answer, runs compiled
steps until the next decision or the end, and freezes it again (`runtime/engine.py`
drives this; everything above the engine reads states through it).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, NamedTuple

from interpreter.compile.compiled import BLOCK_FILE, CompiledGame
from interpreter.core import rng
from interpreter.core.errors import Diagnostic, GameRuntimeError, explain
from interpreter.core.limits import (
    MAX_DEPTH,
    MAX_LABEL,
    MAX_LABELS,
    MAX_LOG_LINES,
    STEP_LIMIT,
    too_long,
)
from interpreter.core.trace import Tracer
from interpreter.language.testcode import shown_name

_new_tuple = tuple.__new__


class Move(NamedTuple):
    """A decision by one seat, named by a stable human-readable label, with the value it
    chooses (the component, cell, number... of `Pending.values` its option stands for), so
    that a caller asks which cell a move plays of the move, never of its label's words.
    A move made by hand from a label (`Move(seat, "d3")`) has no value; `apply` finds it
    by its label. (A named tuple: `legal_moves` makes one per option, so it must be cheap.)"""

    player: str
    label: str
    value: Any = None

    def __str__(self) -> str:
        return f"{self.player}: {self.label}"


class Pending(NamedTuple):
    """The decision a state waits for: who decides, between which values.

    The options' labels are written only when asked for (`Game.legal_moves`), from
    the decision point `choice` and the waiting frame's locals: a random playout
    that applies moves by index never formats a label. (A named tuple: made at
    every decision, it must be cheap.)
    """

    player: str
    values: tuple
    slot: int
    choice: int


class State(NamedTuple):
    """A whole position, including any effect half-resolved and waiting for a choice.

    Immutable, hashable and plain data: the variables, the stack of half-run
    procedures as (code index, step, locals), the pending decision, the random
    generator, pinned results, the result once over, and the lines the last move
    logged. (A named tuple: one is made at every decision, so it must be cheap.)
    """

    players: tuple[str, ...]
    vars: tuple
    frames: tuple[tuple[int, int, tuple], ...]
    pending: Pending | None
    rng: int
    pins: tuple = ()
    result: tuple[str, ...] | None = None
    log: tuple[tuple[str | None, int, tuple], ...] = ()  # (audience, format, values)
    decisions: int = 0
    chance: Any = None  # in chance mode (interpreter/runtime/chance.py): the draw pending, the moves so far


class VM:
    """A mutable working copy of a state, alive only inside one `apply`."""

    __slots__ = (
        "game",
        "players",
        "vars",
        "frames",
        "setup_only",
        "rng",
        "pins",
        "pending",
        "result",
        "log",
        "stop",
        "switch",
        "budget",
        "pick",
        "left",
        "step_limit",
        "tracer",
    )

    def __init__(self, game: CompiledGame, state: State, reading: bool = False):
        self.game = game
        self.players = state.players
        # Reading only (labels, prompts: expressions never write): the state's own tuples.
        self.vars = state.vars if reading else list(state.vars)
        # Frames stay frozen tuples (code index, step, locals) until the run reaches them.
        self.frames: list = list(state.frames)
        self.rng = state.rng
        self.pins = state.pins
        self.pending: Pending | None = None
        self.result = state.result
        self.log: list = []
        self.stop = False  # a decision is pending or the game is over
        self.switch = False  # the running frame changed (call, return) or the run stops
        self.setup_only = False
        self.budget = self.step_limit = STEP_LIMIT
        # In a playout (`Game.playout`), decisions are answered where they are asked:
        # option `pick(n)` goes into the slot, for `left` more decisions (-1: no limit).
        self.pick: Callable[[int], int] | None = None
        self.left = 0
        self.tracer: Tracer | None = None  # a tool's trace of this move (core/trace.py), None in play

    # -- called by compiled ops --
    def suspend(self, player, values, slot, choice, L: list) -> None:
        """Wait for `player`'s answer (one of `values`, into slot `slot` of frame locals
        `L`); in a playout, answer it at once and run on, as if the run had stopped here
        and a new one begun: the step budget is renewed and the log is the new move's."""
        if self.left:
            self.left -= 1
            # `left` is set only by a playout, which sets `pick` with it (None otherwise).
            L[slot] = values[self.pick(len(values))]  # type: ignore[misc]
            self.budget = self.step_limit
            del self.log[:]
            return
        if player not in self.players:  # a value edited into a saved state: never a seat-less decision
            raise self.rule_error(f"the player asked is {player!r}, not a seat in play ({', '.join(self.players)})")
        self.pending = _new_tuple(Pending, (player, values, slot, choice))
        self.stop = self.switch = True

    def seat_written(self, seat, var: str) -> None:
        """A write to a map keyed first by player, for `seat`, which is not a player's: allowed for a seat the header's
        roles put in play with no player (`1 players: [solo] with [us, eu]`), else the
        rule's error, naming the seats in play: a write to a seat nobody plays would be
        read by no rule, a silent mistake (a card naming the US with two players)."""
        h = self.game.header
        also = dict(h.present).get(tuple(self.players), ())
        if seat in also:
            return
        titles = self.game.rt.seat_titles
        shown = ", ".join(titles.get(p, p) for p in self.players)
        others = f" (and {', '.join(titles.get(p, p) for p in also)}, played by nobody)" if also else ""
        name = titles.get(seat, seat) if isinstance(seat, str) else "none"
        raise self.rule_error(
            f"{var}[{name}] is written, but {name} is not in play: with {len(self.players)} "
            f"player{'s' if len(self.players) != 1 else ''} the seats in play are {shown}{others}"
        )

    def finish(self, winners: tuple) -> None:
        self.result = winners
        del self.frames[:]
        self.stop = self.switch = True

    def push(self, frame: list) -> None:
        self.budget -= 1  # procedures that call themselves twice must not run forever
        if self.budget < 0:
            self.out_of_steps()
        if len(self.frames) >= MAX_DEPTH:
            raise self.rule_error(f"procedures nested more than {MAX_DEPTH} deep: endless recursion?")
        if self.tracer is not None:
            self.tracer.settle(self.vars, self.frames)
        self.frames.append(frame)
        self.switch = True

    def return_(self) -> int:
        if len(self.frames) == 1:
            if self.setup_only:  # `Game.start(arrange=...)`: stop between setup() and play()
                self.frames.pop()
                self.stop = self.switch = True
                return 0
            raise self.rule_error("the game's procedures ended without `win` or `game over`")
        if self.tracer is not None:
            self.tracer.settle(self.vars, self.frames)
        self.frames.pop()
        self.switch = True
        return 0

    def return_value(self, value, dest) -> int:
        """Return from a procedure with a result: its frame is popped and `value` is
        stored in slot `dest` of the caller's frame (its locals: no value waits anywhere
        else), unless the caller ignores it (`dest` is None)."""
        pc = self.return_()
        if dest is not None:
            self.thaw_top()[2][dest] = value
        return pc

    def log_full(self) -> None:
        raise self.rule_error(f"one move wrote more than {MAX_LOG_LINES:,} log lines (log a summary, not each item)")

    def labels_too_long(self, text: str, size: int) -> None:
        """A decision's labels past MAX_LABEL characters each or MAX_LABELS together."""
        if len(text) > MAX_LABEL:
            raise too_long("an option's label", len(text), MAX_LABEL, "label an option by its name, not its details")
        raise too_long("the labels of this decision", size, MAX_LABELS, "offer fewer options, or shorter labels")

    def out_of_steps(self) -> None:
        raise self.rule_error(
            f"more than {STEP_LIMIT:,} steps without a decision (loop turns, list items read, calls, "
            "nodes searched): "
            "a rule loops forever or computes far too much?"
        )

    def random_choice(self, options: tuple):
        if not options:
            raise self.rule_error("roll from an empty list")
        if self.pins:
            value, self.pins = self.pins[0], self.pins[1:]
            if value not in options:
                shown = ", ".join(map(str, options[:12])) + (", ..." if len(options) > 12 else "")
                raise self.rule_error(f"pinned result {value!r} is not one of {shown}")
            return value
        self.rng, i = rng.next_below(self.rng, len(options))
        return options[i]

    def shuffled(self, items: tuple) -> tuple:
        self.budget -= len(items)  # a shuffle's work, like any list read whole
        if self.budget < 0:
            self.out_of_steps()
        self.rng, items = rng.shuffled(self.rng, items)
        return items

    def thaw_top(self) -> list:
        """The running frame as a mutable [code, step, locals], thawed on first use."""
        fr = self.frames[-1]
        if fr.__class__ is tuple:
            fr = [self.game.codes[fr[0]], fr[1], list(fr[2])]
            self.frames[-1] = fr
        return fr

    def rule_error(self, message: str, span=None, name: str | None = None) -> GameRuntimeError:
        """An error naming the running procedure and the line; `run` places it on the
        step that raised it when the step does not say where."""
        frame = self.thaw_top() if self.frames else None
        if frame is None:
            return GameRuntimeError([Diagnostic(span or self.game.header.span, message)])
        code, pc = frame[0], max(0, min(frame[1], len(frame[0].spans) - 1))
        name = name or (code.names[pc] if code.names else code.name)  # an inlined procedure's own name
        err = GameRuntimeError([Diagnostic(span or code.spans[pc], f"in {shown_name(name)}: {message}")])
        err.raw = (message, span)  # for `run`, to place it on the step that raised
        return err

    # -- the loop --
    def run(self) -> None:
        """Run compiled steps until a decision is pending or the game is over.

        The inner loop keeps the running frame's steps and locals in Python locals and
        leaves it only when a step pushes or pops a frame or stops the run (`switch`).
        Endless loops are caught by the step budget spent on every loop's back edge.
        """
        frames = self.frames
        self.budget = STEP_LIMIT
        fr = None
        pc = 0
        try:
            while not self.stop:
                fr = frames[-1]
                if fr.__class__ is tuple:
                    fr = self.thaw_top()
                ops, pc, L = fr[0].ops, fr[1], fr[2]
                while not self.switch:
                    pc = ops[pc](self, L)
                self.switch = False
                fr[1] = pc
        except GameRuntimeError as err:
            raw = err.raw
            if raw is not None and frames and frames[-1] is fr:
                fr[1] = pc  # the step that raised: the assignment in the loop never happened
                message, span = raw
                where, name = _block_span(self.game, err)
                raise self.rule_error(message, span or where, name) from None
            raise
        except Exception as exc:  # a rule did something impossible: name the rule and line
            if frames and frames[-1] is fr:
                fr[1] = pc
            raise self.rule_error(explain(exc), *_block_span(self.game, exc)) from None

    def freeze(self, decisions: int) -> State:
        frames: list | tuple = self.frames  # the working list, then the state's tuple
        if len(frames) == 1:  # the usual case, without a comprehension
            fr = frames[0]
            frames = (fr if fr.__class__ is tuple else (fr[0].index, fr[1], tuple(fr[2])),)
        elif frames:
            frames = tuple([fr if fr.__class__ is tuple else (fr[0].index, fr[1], tuple(fr[2])) for fr in frames])
        else:
            frames = ()  # a game over
        # tuple.__new__ skips the named tuple's keyword handling: this runs at every decision.
        return _new_tuple(
            State,
            (
                self.players,
                tuple(self.vars),
                frames,
                self.pending,
                self.rng,
                self.pins,
                self.result,
                tuple(self.log),
                decisions,
                None,
            ),
        )


def _block_span(game: CompiledGame, exc: Exception) -> tuple:
    """(span, procedure) of the statement that raised inside a native block, or Nones."""
    tb = exc.__traceback__
    found = (None, None)
    lines = game.block_lines
    while tb is not None:
        # Each block's code has lines of its own (blocks.py): its line number is its place.
        if tb.tb_frame.f_code.co_filename == BLOCK_FILE:
            line = tb.tb_lineno
            place = lines[line - 1] if line is not None and 0 < line <= len(lines) else None
            if place is not None:
                found = place
        tb = tb.tb_next
    return found  # the innermost block line: a statement's own error is more precise


_RUN_CODE = VM.run.__code__


def steps_spent(frame: types.FrameType | None) -> int:
    """The steps spent by the move a signal interrupted (`frame`: where it was), read off the
    machine running it, the innermost `VM.run` on the stack; 0 outside a move. For a tool
    that stops a move from outside (`check`'s budget, play/exercise.py), which sees no
    machine of its own."""
    while frame is not None:
        if frame.f_code is _RUN_CODE:
            vm = frame.f_locals.get("self")
            if isinstance(vm, VM):
                return vm.step_limit - vm.budget
        frame = frame.f_back
    return 0
