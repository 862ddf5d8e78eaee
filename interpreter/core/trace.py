"""What a run of the rules did, for tools that ask: which components' slots ran, and who
gained points from which card or rule.

`gamedef balance` asks which cards actually acted in a game, not only which were chosen
(a card held and picked in a secret header phase, then played for its operations, never
ran its text), and where each seat's points came from. A tool sets `TRACER` to a `Tracer`
around one `apply`; the engine hands it to the working copy of the state, and then:

* each `perform c.SLOT()` that finds the slot tells `perform` (the card and slot);
* when the tracer has a `probe` (a function from the variables to a seat-indexed tuple of
  scores), each procedure call and return first settles the scores changed since the
  last call or return, crediting them to the innermost card slot running, else to the
  procedure that called the one running (`score_region > gain_vp`: the scoring, not the
  bookkeeping), as its `rule "..."` citation when it has one.

Unset (the default, and always in search and play), a call or return costs one attribute
test. A context variable, so that threads (the web server's) never see another's tracer.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from contextvars import ContextVar
from typing import Any


class Tracer:
    """One move's (or one game's) trace: `performed` (card, slot) in order, and `gains`
    (seat index, source) -> points, where a source is `card:NAME` or `rule:TEXT`."""

    __slots__ = ("performed", "gains", "probe", "slot_codes", "citations", "names", "_last")

    def __init__(
        self,
        probe: Callable[[Sequence[Any]], Sequence[float]] | None = None,
        slot_codes: Container[int] = (),
        citations: Mapping[str, str] | None = None,
        names: Sequence[str] = (),
    ):
        self.performed: list[tuple[str, str]] = []
        self.gains: dict[tuple[int, str], float] = {}
        self.probe = probe
        self.slot_codes = slot_codes  # the indices of the step tables that are card slots
        self.citations = citations or {}  # procedure name -> its first `rule` citation
        self.names = names  # each step table's procedure name, by index
        self._last: Sequence[float] | None = None

    def start(self, variables: Sequence[Any]) -> None:
        """The scores before the move: what the first settlement is measured from."""
        if self.probe is not None:
            self._last = tuple(self.probe(variables))

    def perform(self, vm: Any, who: str, slot: str) -> None:
        self.performed.append((who, slot))

    def settle(self, variables: Sequence[Any], frames: Sequence[Any]) -> None:
        """Credit the scores changed since the last settlement to the source running now."""
        if self.probe is None or self._last is None:
            return
        now = tuple(self.probe(variables))
        if now == self._last:
            return
        source = self._source(frames)
        for i, (before, after) in enumerate(zip(self._last, now)):
            if after != before:
                key = (i, source)
                self.gains[key] = self.gains.get(key, 0.0) + (after - before)
        self._last = now

    def _source(self, frames: Sequence[Any]) -> str:
        # A frame is [code, step, locals] once running, (code index, step, locals) when frozen.
        indices = [frame[0] if isinstance(frame[0], int) else frame[0].index for frame in frames]
        for frame, index in zip(reversed(frames), reversed(indices)):
            if index in self.slot_codes:
                return f"card:{frame[2][0]}"  # a slot's first local is its card
        names = [self.names[index] for index in indices]
        name = names[-2] if len(names) >= 2 else names[-1] if names else ""
        cited = self.citations.get(name)
        return f"rule:{cited}" if cited else f"rule:{name}"


TRACER: ContextVar[Tracer | None] = ContextVar("tracer", default=None)
