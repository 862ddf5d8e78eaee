"""Random playouts of OpenSpiel's pure-Python tic-tac-toe, as an external speed reference.

OpenSpiel ships a Python implementation of tic-tac-toe (`open_spiel.python.games.tic_tac_toe`,
registered as "python_tic_tac_toe"); its game logic runs in Python, only the `pyspiel.State`
base class is C++. It gives a second, independent point of comparison next to our own
hand-written baseline. OpenSpiel is optional: without it, `measure` returns None.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any


@dataclass
class Measurement:
    games: int
    decisions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds


def load_game() -> Any | None:
    """The python_tic_tac_toe game object, or None if open_spiel is not importable."""
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers the game)
    except ImportError:
        return None
    return pyspiel.load_game("python_tic_tac_toe")


def random_playout(game: Any, seed: int) -> int:
    """Play one game choosing uniformly among legal actions; return the number of decisions."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    return decisions


def measure(games: int = 200, seed: int = 0) -> Measurement | None:
    """Time `games` random playouts (seeds seed, seed+1, ...); None without open_spiel."""
    game = load_game()
    if game is None:
        return None
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        decisions += random_playout(game, seed + i)
    return Measurement(games, decisions, time.perf_counter() - start)


if __name__ == "__main__":
    result = measure()
    if result is None:
        print("open_spiel not installed")
    else:
        print(f"{result.games_per_s:,.0f} games/s, {result.decisions_per_s:,.0f} decisions/s")
