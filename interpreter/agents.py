"""Players that choose moves: random, first-legal, and a person at the terminal.

Agents see only their own observation and the labelled legal moves; their own
randomness is separate from the game's, so a transcript replays without them.
"""

from __future__ import annotations

import random
from typing import Protocol

from .engine import Game, State
from .errors import UsageError


class Agent(Protocol):
    def choose(self, game: Game, state: State) -> int: ...


class RandomAgent:
    """Picks uniformly among the legal moves."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game: Game, state: State) -> int:
        return self.rng.randrange(len(state.pending.values))


class FirstAgent:
    """Always takes the first legal move: a deterministic, dull opponent."""

    def choose(self, game: Game, state: State) -> int:
        return 0


class HumanAgent:
    """Shows the position to a person and asks for a move by number or label."""

    def __init__(self, seat: str, ask=None, say=print):
        self.seat, self.say = seat, say
        self.ask = ask or (lambda prompt: input(prompt))  # looked up at each call

    def choose(self, game: Game, state: State) -> int:
        from .render import render

        self.say(render(game, state, self.seat))
        labels = game.labels(state)
        prompt = game.prompt(state)
        self.say(f"\n{self.seat}, {prompt or 'your move'}:")
        for i, label in enumerate(labels, 1):
            self.say(f"  {i:>3}. {label}")
        while True:
            try:
                answer = self.ask("> ").strip()
            except EOFError:
                raise UsageError("input ended before the game did") from None
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            if answer in labels:
                return labels.index(answer)
            self.say(f"'{answer}' is not a legal move here: type a number from 1 to {len(labels)} or a label")


KINDS = ("random", "first", "human")


def make_agent(kind: str, seat: str, seed: int) -> Agent:
    if kind == "random":
        return RandomAgent(seed)
    if kind == "first":
        return FirstAgent()
    if kind == "human":
        return HumanAgent(seat)
    from .errors import did_you_mean

    raise UsageError(f"unknown agent kind '{kind}'", did_you_mean(kind, KINDS) or f"kinds: {', '.join(KINDS)}")
