"""Step tables: what a procedure, a trigger or a card slot compiles to.

A body is a `Code`: a list of steps (Python functions `step(vm, L) -> next step`) with
their spans and the procedure each came from; a half-run procedure is then plain data,
(code index, step, locals). A decision is a `Choice`, an event's handler a `Handler`.
These are parts of the compiled game (compiled.py) and are kept by its cache.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.core.errors import Span

Closure = Callable[[Any, list], Any]  # a compiled expression: (vm, locals) -> value


class Code:
    """One compiled procedure, trigger body or card slot."""

    __slots__ = (
        "index",
        "name",
        "ops",
        "spans",
        "names",
        "nlocals",
        "nparams",
        "span",
        "result_slot",
        "local_names",
        "inlined",
    )

    def __init__(self, index: int, name: str, span: Span):
        self.index, self.name, self.span = index, name, span
        self.ops: list = []
        self.spans: list[Span] = []
        self.names: list[str] = []  # the procedure each step comes from (inlined calls)
        # Each step's inlined calls running there, as the slots of their parameters, the
        # innermost call's first: what a card given to a procedure written in place is while
        # its steps run (`Engine.card_in_play`), and only then; the slots keep their values
        # after the call has returned, and the steps after it name no such call.
        self.inlined: list[tuple[int, ...]] = []
        self.nlocals = 0
        self.nparams = 0
        # A procedure with a result keeps, in this slot after its parameters, the caller's
        # slot that receives the value it returns (None: the caller ignores it).
        self.result_slot: int | None = None
        # Each local's (name as written, the procedure it belongs to: this one or one inlined
        # in it); ("", "") for a value the compiler keeps. A saved state's locals are checked
        # by these (their types as the checker derives them) and a wrong one named.
        self.local_names: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class Choice:
    """A decision point: how its options' labels and its prompt are written, built only
    when asked. (Slotted: read at every `legal_moves`; read by name, never by position.)"""

    labels: Callable[[Any, list, tuple], list[str]] | None  # (vm, locals, values) -> labels; None: values shown
    prompt: Closure  # what the decision asks, in the game's words
    secret: bool  # the answer is shown to the other players as "(secret choice)"
    code: int  # the index of the code it is asked in: a saved state's pending decision is checked by it
    # The locals the labels read, if they read nothing else: the engine keeps labels by
    # the options and these locals' values. None: they may read the position.
    key_slots: tuple[int, ...] | None = None


@attrs.frozen
class LogFormat:
    """A `log` text: read when a log entry (audience, format's index, values) is written out."""

    parts: tuple[str | None, ...]  # literal strings, and None where a value goes
    span: Span  # where the `log` is written: a line past its limit is reported there
    headline: bool  # `log headline`: one of the key events of the short narration


@attrs.define
class Handler:
    code: Code
    where: Closure | None
    has_self: bool
    self_value: str | None
