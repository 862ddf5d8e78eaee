"""Games someone wins, found without an estimate: an archive of coarse cells (Go-Explore).

A learned estimate (play/learned.py) learns from how games end. Where random games never
end with a winner (every label the same), there is nothing to learn, and greedy play by
a flat model is no better than random play, so playing better games cannot start. This
module searches one seeded game for a won end, with nothing of the game but its rules:

* a *cell* is a coarse summary of a position: for each state variable, how much it holds
  (a list its length, a number itself, a flag or a value 1, nothing 0), a map summed over
  its entries and split into as many equal parts as the game has seats (a map keyed by
  seat, or by components made seat by seat, so gives each seat's share), each sum taken
  to its whole square root. Coarse, so the archive does not dilute into millions of
  cells each visited once; not so coarse that progress (a seat's pile growing) goes
  unseen;
* the archive keeps, for each cell found, a position that reaches it (positions are
  immutable values, kept as they are) and the decisions that led there, and among the
  positions of a cell the one reached in the fewest decisions;
* each iteration picks a cell, the rarely picked and rarely seen more often, goes back to
  its position and plays `STEPS` random decisions from it (every seat's: the search plays
  all the seats, it is no player), adding each new cell it finds;
* it stops at the first end with a winner: that game, from its start to its end, is what
  the estimate learns from, every seat labelled with the payoff it got.

It is seeded (the same seed finds the same game) and bounded (iterations, cells).

Its limit is that the decisions it tries are random: where random decisions spend what a
win needs faster than a path that keeps it is found, and a cell does not show what is left
(which cards, not how many), it finds no win. Walls and Wonders is such a game
(docs/balancing.md measures how far it gets there).
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Callable
from itertools import accumulate

from interpreter.language import syntax as ast
from interpreter.play.mcts import scaled_returns
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.game import Game
from interpreter.runtime.machine import State

ITERATIONS = 2000  # iterations a game where the caller names none (`gamedef learn --explore I` always does)
STEPS = 100  # random decisions played from a cell's position each iteration (20 reached less far: docs)
MAX_CELLS = 20_000  # the archive stops growing here (memory: some 16 kB a cell in Walls and Wonders)
REWEIGH = 200  # the weights are read again after (cells / this) iterations: a reading costs a pass over the cells
MAX_ITERATIONS = 1_000_000  # `--explore I`: at most this many a game


def _measure(t: ast.TypeExpr, parts: int) -> Callable[[object], list[int]]:
    """How much a value of declared type `t` holds, as a list of sums (module docstring):
    a map as `parts` sums where its keys split evenly, else one."""
    if isinstance(t, ast.MapType):
        inner = _measure(t.value, 1)

        def of_map(value: object) -> list[int]:
            if not isinstance(value, tuple) or not value:
                return [0]
            split = parts if len(value) % parts == 0 else 1
            size = len(value) // split
            return [sum(inner(v)[0] for v in value[i : i + size]) for i in range(0, len(value), size)]

        return of_map
    if isinstance(t, ast.ListType):
        return lambda value: [len(value) if isinstance(value, tuple | list) else 0]

    def of_value(value: object) -> list[int]:
        if value is None or value is False:
            return [0]
        if value is True:
            return [1]
        if isinstance(value, int):
            return [value]
        return [1]

    return of_value


class Cells:
    """The cell of a position of one game (module docstring)."""

    def __init__(self, game: Game):
        compiled = game.compiled
        parts = max(1, len(compiled.seats))
        self._measures = [_measure(info.decl.type, parts) for info in compiled.var_order]
        # Each variable's last value and its coarse sums: a move changes few variables, and
        # the others are the very same objects in the next position, so they are not summed again.
        self._last: list[tuple[object, list[int]]] = [(_UNSEEN, [])] * len(self._measures)

    def cell(self, state: State) -> tuple[int, ...]:
        out: list[int] = []
        last = self._last
        for i, (measure, value) in enumerate(zip(self._measures, state.vars)):
            seen, sums = last[i]
            if seen is not value:
                sums = [_coarse(v) for v in measure(value)]
                last[i] = (value, sums)
            out.extend(sums)
        return tuple(out)


_UNSEEN = object()  # no value yet


def _coarse(v: int) -> int:
    """A sum as a cell reads it: its whole square root (sign kept), so small amounts stay
    apart and large ones share a cell."""
    return math.isqrt(v) if v >= 0 else -math.isqrt(-v) - 1


class _Entry:
    __slots__ = ("state", "path", "chosen", "seen")

    def __init__(self, state: State, path: tuple | None):
        self.state, self.path = state, path  # path: (state, the path before it) back to the start
        self.chosen = 0  # times picked to explore from
        self.seen = 0  # times reached again


def explore(
    game: Game,
    seed: int,
    players: int | None,
    iterations: int = ITERATIONS,
    steps: int = STEPS,
    positions: int = 40,
) -> tuple[tuple[int, list[State], dict[str, float]] | None, dict[str, int]]:
    """Search the game of `seed` for an end with a winner (module docstring): the game found
    as `learned.self_play` gives one (seed, up to `positions` positions where a seat decides,
    each seat's scaled payoff), or None; and what the search did (iterations, cells)."""
    rng = random.Random(seed)
    cells = Cells(game)
    start = game.start(players=players, seed=seed)
    archive: dict[tuple[int, ...], _Entry] = {cells.cell(start): _Entry(start, (start, None))}
    entries = list(archive.values())
    won: tuple | None = None
    done = 0
    picking: list[_Entry] = []
    read = 0  # the iteration the weights were last read at
    totals: list[float] = []
    for done in range(1, iterations + 1):
        if done - read >= len(picking) // REWEIGH:  # the weights read afresh now and then: each costs a pass
            read, picking = done, list(entries)
            totals = list(accumulate(1.0 / math.sqrt(e.chosen + 1) + 1.0 / math.sqrt(e.seen + 1) for e in picking))
        entry = picking[bisect(totals, rng.random() * totals[-1])]
        entry.chosen += 1
        state, path = entry.state, entry.path
        for _ in range(steps):
            if state.result is not None:
                break
            state = game.apply_index(state, rng.randrange(len(state.pending.values)))  # type: ignore[union-attr]  # not over
            path = (state, path)
            if state.result is not None:
                if state.result:  # someone won
                    won = path
                break
            key = cells.cell(state)
            found = archive.get(key)
            if found is None:
                if len(archive) < MAX_CELLS:
                    archive[key] = found = _Entry(state, path)
                    entries.append(found)
            else:
                found.seen += 1
                if state.decisions < found.state.decisions:
                    found.state, found.path = state, path
        if won is not None:
            break
    about = {"iterations": done, "cells": len(archive)}
    if won is None:
        return None, about
    end = won[0]
    seen = []
    node: tuple | None = won[1]
    while node is not None:
        st = node[0]
        pending = st.pending
        if pending is not None and pending.player != CHANCE and len(pending.values) > 1:
            seen.append(st)
        node = node[1]
    seen.reverse()
    kept = random.Random(seed).sample(seen, min(positions, len(seen)))
    return (seed, kept, scaled_returns(game, end)), about


class Exploring:
    """A seat's agent that takes a random decision with probability `epsilon`, else its
    agent's: the greedy games of `gamedef learn --rounds` see positions off their own line
    of play, and a seat that would only repeat one line learns what else its moves lead to."""

    def __init__(self, inner, epsilon: float, seed: int):
        self.inner, self.epsilon, self.rng = inner, epsilon, random.Random(seed)

    def choose(self, game: Game, state: State) -> int:
        if self.rng.random() < self.epsilon:
            return self.rng.randrange(len(state.pending.values))  # type: ignore[union-attr]  # a decision waits
        return self.inner.choose(game, state)
