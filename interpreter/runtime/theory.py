"""What search agents and game-theory tools ask of any game, beyond playing it.

* `returns`: each seat's payoff once the game is over: the game's `payoff` declaration
  (docs/language.md §3.19), else 1 for a win and -1 for a loss, shared: the winners split +1 and the
  losers -1, so every game is zero-sum and a draw is 0 for all.
* `utility_bounds`, `metadata`: what OpenSpiel's `GameInfo` and `GameType` declare.
* `ActionSpace`: a stable number for every move, the same in every position and every
  process: the decision point's block, then the chosen value's place in the game's
  vocabulary (its names, small numbers, yes and no), or the option's position when the
  value is of neither kind (a list of cards chosen together, a large number).
* `information_state`: what a seat knows, with perfect recall: every move it saw (a
  secret one as "(secret choice)"), every line logged to it, and its observation now.
  It reads the trail that chance mode keeps (`load_game(..., chance=True)`).
* `resample`, `unresampled`: a position the seat cannot tell from this one
  (interpreter/runtime/resample.py).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from interpreter.core.errors import UsageError
from interpreter.core.limits import MAX_CHOICES
from interpreter.runtime.engine import Engine
from interpreter.runtime.machine import VM, State
from interpreter.runtime.observe import observe


def returns(game: Engine, state: State) -> dict[str, float]:
    """Each seat's payoff: all 0 until the game is over."""
    seats = state.players
    if state.result is None:
        return dict.fromkeys(seats, 0.0)
    payoff = game.compiled.payoff
    if payoff is not None:
        low, high = payoff.low, payoff.high
        vm = VM(game.compiled, state)
        values = {p: float(payoff.value(vm, [p])) for p in seats}
        outside = [p for p, v in values.items() if not low <= v <= high]
        if outside:  # agents scale by the bounds, game-theory tools trust them
            from interpreter.core.errors import Diagnostic, GameRuntimeError

            p = outside[0]
            raise GameRuntimeError(
                [
                    Diagnostic(
                        payoff.span, f"the payoff of {p} is {values[p]:g}, outside {low} to {high}", "widen the bounds"
                    )
                ]
            )
        return values
    winners = [p for p in seats if p in state.result]
    losers = [p for p in seats if p not in state.result]
    if not winners or not losers:
        return dict.fromkeys(seats, 0.0)
    return {p: (1.0 / len(winners) if p in state.result else -1.0 / len(losers)) for p in seats}


def estimates(game: Engine, state: State, seats: tuple[str, ...] | list[str]) -> dict[str, float] | None:
    """Each of `seats`' value of a position by the game's `estimate` (docs/language.md
    §3.20), clamped into its declared bounds; None for a game that declares none."""
    estimate = game.compiled.estimate
    if estimate is None:
        return None
    fn, low, high = estimate.value, estimate.low, estimate.high
    vm = VM(game.compiled, state)
    return {p: min(max(float(fn(vm, [p])), low), high) for p in seats}


def estimate_bounds(game: Engine) -> tuple[float, float] | None:
    """The bounds the game's `estimate` declares, or None for a game without one."""
    estimate = game.compiled.estimate
    return (float(estimate.low), float(estimate.high)) if estimate is not None else None


def utility_bounds(game: Engine) -> tuple[float, float]:
    payoff = game.compiled.payoff
    return (float(payoff.low), float(payoff.high)) if payoff is not None else (-1.0, 1.0)


class Metadata(NamedTuple):
    """What kind of game it is, as game-theory libraries classify games."""

    chance: bool  # random draws (rolls, shuffles)
    perfect_information: bool  # nothing hidden from any seat
    simultaneous: bool  # secret choices: moves others see only once all have chosen
    zero_sum: bool  # the returns of every finished game sum to 0 (`payoff ... sum 0`)
    min_players: int
    max_players: int
    max_length: int  # decisions: the command line's cap on a game's length


def metadata(game: Engine) -> Metadata:
    from interpreter.core.limits import MAX_DECISIONS

    g = game.compiled
    face_down = any(f.visible is not None for ent in g.entity_decls.values() for f in ent.fields)
    hidden = face_down or any(info.seen_by != "all" for info in g.var_order)
    secret = any(c.secret for c in g.choices)
    return Metadata(
        chance=g.uses_chance,
        perfect_information=not hidden and not secret,
        simultaneous=secret,
        zero_sum=g.payoff is None or g.payoff.total == 0,
        min_players=game.header.min_players,
        max_players=game.header.max_players,
        max_length=MAX_DECISIONS,
    )


class ActionSpace:
    """Stable numbers for moves (module docstring): `size` numbers, `ids(state)` the
    legal moves' numbers in option order, `index(state, id)` the option a number names."""

    SMALL = range(-64, 1025)  # numbers chosen as themselves (a count, a sum of dice)
    POSITIONS = 64  # options of any other kind, by position

    def __init__(self, game: Engine):
        g = game.compiled
        names = list(g.seats) + [v for t in g.types.values() for v in t if isinstance(v, str)]
        vocabulary: list[Any] = [None, False, True, *dict.fromkeys(names), *self.SMALL]
        self._index = {(type(v), v): i for i, v in enumerate(vocabulary)}
        self._values = len(vocabulary)
        self.block = self._values + self.POSITIONS  # the numbers of one decision point
        self.size = self.block * (len(g.choices) + 1)  # the last block: chance's draws

    def _number(self, point: int, value: Any, position: int) -> int:
        i = self._index.get((type(value), value)) if isinstance(value, str | int | bool) or value is None else None
        if i is None:
            if position >= self.POSITIONS:
                raise UsageError(
                    f"an option at position {position + 1} of a decision of values without names",
                    f"action numbers cover {self.POSITIONS} such options",
                )
            i = self._values + position
        return point * self.block + i

    def ids(self, state: State) -> list[int]:
        p = state.pending
        if p is None:
            return []
        point = p.choice if p.choice >= 0 else (self.size // self.block) - 1
        return [self._number(point, v, i) for i, v in enumerate(p.values)]

    def index(self, state: State, action: int) -> int:
        ids = self.ids(state)
        try:
            return ids.index(action)
        except ValueError:
            raise UsageError(f"action {action} is not legal here", f"legal: {ids[:12]}") from None


assert ActionSpace.POSITIONS <= MAX_CHOICES


def information_state(game: Engine, state: State, seat: str) -> str:
    """What `seat` knows (module docstring), as one canonical string."""
    record = state.chance
    if record is None:
        raise UsageError(
            "information states need the record of the moves: load the game with chance=True",
            "load_game(name, chance=True)",
        )
    from interpreter.runtime.observe import hidden_test

    render = game.compiled.render_log
    hidden = hidden_test(game.compiled, state, seat)
    parts = []
    for player, label, secret, log in record.trail:
        if player is not None and player != "chance":
            parts.append(f"{player}: {label if not secret or player == seat else '(secret choice)'}")
        parts.extend(render(e, hidden) for e in log if e[0] is None or e[0] == seat)
    now = observe(game.compiled, state, seat)
    now.pop("log", None)  # already in the trail
    parts.append(json.dumps(now, sort_keys=True, separators=(",", ":")))
    return "\n".join(parts)
