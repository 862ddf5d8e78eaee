"""`Game`, the public API of a loaded game: the engine with the game-theory tools on top.

The engine (runtime/engine.py) runs the rules; the tools here read what it produces:
payoffs and game metadata (runtime/theory.py), redrawing what a seat cannot see
(runtime/resample.py), and what a seat observes (runtime/observe.py). They build on the
engine, so they are reached from this class, which sits above all of them, and the
runtime's modules import one another in one direction only (docs/architecture.md).
The resampler is imported when first asked for: a game loaded to be played, checked or
served never needs it, and a new process's load stays as fast as before.
"""

from __future__ import annotations

import random

from interpreter.runtime import theory
from interpreter.runtime.chance import ChanceEngine
from interpreter.runtime.engine import Engine
from interpreter.runtime.machine import State
from interpreter.runtime.observe import observe


class Game(Engine):
    """A loaded game (docs/architecture.md): start, legal_moves, apply, ... from the engine,
    and for search agents and game-theory tools, the methods below."""

    def returns(self, state: State) -> dict[str, float]:
        """Each seat's payoff: the game's `payoff`, else +1 shared by the winners and -1 by the rest."""
        return theory.returns(self, state)

    def utility_bounds(self) -> tuple[float, float]:
        return theory.utility_bounds(self)

    def estimate(self, state: State, seat: str) -> float | None:
        """How good an unfinished position looks to `seat`, by the game's `estimate`
        (clamped into its bounds, `estimate_bounds()`); None for a game that declares none."""
        values = theory.estimates(self, state, (seat,))
        return None if values is None else values[seat]

    def estimates(self, state: State) -> dict[str, float] | None:
        """Every seat's `estimate` of the position at once (one reading of the state)."""
        return theory.estimates(self, state, state.players)

    def estimate_bounds(self) -> tuple[float, float] | None:
        return theory.estimate_bounds(self)

    def metadata(self) -> theory.Metadata:
        """Chance? perfect information? simultaneous? zero-sum? players, maximum length."""
        return theory.metadata(self)

    def action_space(self) -> theory.ActionSpace:
        """Stable action numbers for every move (`ActionSpace`), made once per game."""
        if self._actions is None:
            self._actions = theory.ActionSpace(self)
        return self._actions

    def information_state(self, state: State, seat: str) -> str:
        """What `seat` knows, with perfect recall (a game loaded with chance=True)."""
        return theory.information_state(self, state, seat)

    def resample(self, state: State, seat: str, rng: random.Random) -> State:
        """A position `seat` cannot tell from `state`: what it cannot see, redrawn."""
        from interpreter.runtime.resample import resample  # below this module: see the docstring

        return resample(self, state, seat, rng)

    def observation(self, state: State, player: str | None) -> dict:
        return observe(self.compiled, state, player)


class ChanceGame(ChanceEngine, Game):
    """A game whose random draws are the `chance` seat's decisions (runtime/chance.py), with
    the same tools as `Game`: what game-theory tools (CFR, expectimax) load."""
