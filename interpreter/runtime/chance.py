"""Chance mode: every random draw is a decision of a `chance` seat, with its probability.

Game-theory tools (OpenSpiel's CFR, exact expectimax, a tree drawn by hand) need the
game's randomness as explicit nodes: "roll 4" with probability 1/6, a shuffle as one draw
per card ("draw K" with probability 1/3, then one of the two left, ...). Ordinary play
keeps its seeded generator, which is faster; `load_game(name, chance=True)` gives a
`ChanceGame` instead (runtime/game.py: the `ChanceEngine` here with `Game`'s tools), whose
states carry:

* a `ChanceNode` while a draw is pending: the position the move was made in, the move, the
  results drawn so far, and the options with their probabilities. `apply_index` on it
  adds one result and runs the move again from its position, the drawn results replayed
  in order, until it needs one more (a new node) or reaches the next decision. A move's
  rules never pause mid-step, so a re-run is how a draw deep inside a step is asked
  for; each costs one run of the move so far.
* the trail of moves: who chose, what, whether it was secret, and what the move logged:
  the record `information_state` reads (every seat recalls everything it saw).

Nothing here knows a game. Ordinary `Game` objects and their playouts are untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

from interpreter.core.errors import UsageError
from interpreter.runtime.engine import Engine
from interpreter.runtime.machine import VM, Move, Pending, State

CHANCE = "chance"  # the seat that draws


class Draw(BaseException):  # noqa: N818 - a signal, not an error
    """Raised inside a run of chance mode when the rules need a result not yet drawn.

    A BaseException so that it passes the VM's handler, which turns every Exception a
    step raises into a rule error."""

    def __init__(self, kind: str, options: tuple):
        super().__init__(kind)
        self.kind, self.options = kind, options


class ChanceNode(NamedTuple):
    """A pending draw: `move` made in `base` (both None for the start, with `players`)."""

    base: State | None
    move: int | None
    players: int
    outcomes: tuple
    kind: str  # "roll" or "draw"
    probabilities: tuple[float, ...]


class ChanceTrail(NamedTuple):
    """What chance mode keeps beside a state: the draw pending, if any, and the trail of
    (player, label, secret, log) of every move and draw since the start."""

    node: ChanceNode | None
    trail: tuple


class ChanceVM(VM):
    """A VM whose random results come from `outcomes`, in order, and ask for the next."""

    __slots__ = ("outcomes", "used")

    def __init__(self, game, state: State, outcomes: tuple = ()):
        super().__init__(game, state)
        self.outcomes, self.used = outcomes, 0

    def _draw(self, kind: str, options: tuple):
        if self.used < len(self.outcomes):
            self.used += 1
            return self.outcomes[self.used - 1]
        raise Draw(kind, options)

    def random_choice(self, options: tuple):
        if not options:
            raise self.rule_error("roll from an empty list")
        return self._draw("roll", tuple(options))

    def shuffled(self, items: tuple) -> tuple:
        self.budget -= len(items)
        if self.budget < 0:
            self.out_of_steps()
        rest, out = list(items), []
        while len(rest) > 1:  # one draw per card; the last is what is left
            value = self._draw("draw", tuple(rest))
            rest.remove(value)
            out.append(value)
        return tuple(out + rest)


def _distinct(options: tuple) -> tuple[tuple, tuple[float, ...]]:
    """The distinct options in order, each with its share of the list (a die listing 6
    twice gives 6 a probability of 2/7)."""
    counts: dict = {}
    for v in options:
        counts[v] = counts.get(v, 0) + 1
    total = len(options)
    return tuple(counts), tuple(float(Fraction(n, total)) for n in counts.values())


class ChanceEngine(Engine):
    """An engine whose random draws are the `chance` seat's decisions (module docstring)."""

    def start(
        self,
        players: int | None = None,
        seed: int = 0,
        pins: tuple = (),
        arrange: Callable[[State], State] | None = None,
        main: str = "play",
    ) -> State:
        """The position after setup, its first random result a decision of the chance seat.
        Only the game's own `play()` is played here (another `main` is a designer's test's,
        run on a plain game), and no result is pinned or position arranged."""
        if pins or arrange is not None:
            raise UsageError("chance mode draws every random result itself: no pins, no arrange")
        if main != "play":
            raise UsageError(f"chance mode plays the game's own play(), not {main}()")
        players = (self.header.default_players or self.header.min_players) if players is None else players
        return self._resume(None, None, players, (), ())

    def _resume(self, base: State | None, move: int | None, players: int, outcomes: tuple, trail: tuple) -> State:
        """Run the move (or the start) again with `outcomes` drawn: the next node or decision."""
        g = self.compiled
        made: list[ChanceVM] = []

        def make(game, s: State) -> ChanceVM:
            made.append(ChanceVM(game, s, outcomes))
            return made[-1]

        try:
            if base is None:
                state = self._started(players, 0, (), None, make).freeze(0)
            else:
                vm = make(g, base)
                p = base.pending
                assert p is not None and move is not None  # a move resumed in the state that waited for it
                vm.thaw_top()[2][p.slot] = p.values[move]
                vm.run()
                state = vm.freeze(base.decisions + 1)
        except Draw as draw:
            values, probabilities = _distinct(draw.options)
            node = ChanceNode(base, move, players, outcomes, draw.kind, probabilities)
            # Shown at the node: the position the move was made in (at the start, as far as
            # setup has gone); the variables are only read, never run from.
            at = base if base is not None else made[-1].freeze(0)._replace(vars=tuple(made[-1].vars), frames=())
            pending = Pending(CHANCE, values, -1, -1)
            return at._replace(pending=pending, log=(), result=None, chance=ChanceTrail(node, trail))
        return state._replace(chance=ChanceTrail(None, trail + ((None, None, False, state.log),)))

    def apply_index(self, state: State, i: int) -> State:
        record: ChanceTrail = state.chance
        node = record.node
        p = state.pending
        assert p is not None  # a move is applied to a state waiting for one
        if node is not None:  # a draw: its result joins those drawn, and the move runs again
            value = p.values[i]
            label = self._chance_label(node.kind, value)
            trail = record.trail + ((CHANCE, label, True, ()),)
            return self._resume(node.base, node.move, node.players, node.outcomes + (value,), trail)
        label = self.labels(state)[i]
        secret = bool(self.compiled.choices[p.choice].secret)
        nxt = self._resume(state, i, len(state.players), (), record.trail + ((p.player, label, secret, ()),))
        return nxt

    def playout(self, state: State, pick, limit: int | None = None) -> State:
        """As `Game.playout`, a move at a time: a draw is a node of its own here, and a
        move is run again from its base state with the results drawn so far."""
        done = 0
        while state.pending is not None and (limit is None or done < limit):
            state = self.apply_index(state, pick(len(state.pending.values)))
            done += 1
        return state

    def _chance_label(self, kind: str, value) -> str:
        return f"{kind} {self.compiled.rt.display(value)}"

    def _write_labels(self, state: State) -> list[str]:
        node = state.chance.node if state.chance is not None else None
        if node is None:
            return super()._write_labels(state)
        pending = state.pending
        assert pending is not None  # a chance node waits for its draw
        return [self._chance_label(node.kind, v) for v in pending.values]

    def prompt(self, state: State) -> str:
        node = state.chance.node if state.chance is not None else None
        if node is None:
            return super().prompt(state)
        return "chance: a roll" if node.kind == "roll" else "chance: the next card of a shuffle"

    def move_view(self, state: State, label: str, viewer: str | None) -> str:
        if state.pending is not None and state.pending.player == CHANCE:
            return label if viewer is None else "(a random draw)"
        return super().move_view(state, label, viewer)

    def is_chance_node(self, state: State) -> bool:
        return state.pending is not None and state.pending.player == CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Move, float]]:
        """The pending draw's results as moves of the `chance` seat, with probabilities."""
        if not self.is_chance_node(state):
            return []
        node = state.chance.node
        values = state.pending.values  # type: ignore[union-attr]  # a chance node waits for its draw
        return [
            (Move(CHANCE, label, value), pr)
            for label, value, pr in zip(self.labels(state), values, node.probabilities, strict=True)
        ]
