"""Hand-written Kuhn poker, a speed baseline for the gamedef interpreter.

Three cards J < Q < K; each player antes 1 and is dealt one card from a deck shuffled by the
RNG. Every betting action is one decision, matching the .game definition's granularity:
player 1 "check"/"bet"; after a check player 2 "check"/"bet"; after a bet the other player
"fold"/"call". A fold or a showdown ends the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

CARDS = ("J", "Q", "K")  # index order is rank order


@dataclass
class State:
    """Mutable game state; `history` is the sequence of betting actions so far.

    `rng` is the game's single source of randomness, shared with the random agent.
    """

    rng: random.Random
    cards: list[int]
    pot: int = 2
    contributed: list[int] = field(default_factory=lambda: [1, 1])
    to_act: int = 0
    history: list[str] = field(default_factory=list)
    winner: int | None = None
    over: bool = False


def new_game(players: int = 2, seed: int = 0) -> State:
    """Shuffle the deck with random.Random(seed), deal one card each and take the antes."""
    if players != 2:
        raise ValueError("Kuhn poker is a 2-player game")
    rng = random.Random(seed)
    deck = [0, 1, 2]
    rng.shuffle(deck)
    return State(rng=rng, cards=deck[:2])


def legal_moves(state: State) -> list[str]:
    """Facing a bet: fold or call; otherwise check or bet. [] once the game is over."""
    if state.over:
        return []
    if state.history and state.history[-1] == "bet":
        return ["fold", "call"]
    return ["check", "bet"]


def _finish(state: State, winner: int) -> None:
    state.winner = winner
    state.over = True


def apply(state: State, move: str) -> State:
    """Record the action, move chips, and end the game on a fold or a showdown."""
    if move not in legal_moves(state):
        raise ValueError(f"illegal move {move!r}")
    player = state.to_act
    state.history.append(move)
    if move in ("bet", "call"):
        state.pot += 1
        state.contributed[player] += 1
    if move == "fold":
        _finish(state, 1 - player)
    elif move == "call" or (move == "check" and len(state.history) == 2):
        # Showdown: after a call, or after check-check.
        _finish(state, 0 if state.cards[0] > state.cards[1] else 1)
    else:
        state.to_act = 1 - player
    return state


def is_over(state: State) -> bool:
    return state.over


def random_playout(players: int = 2, seed: int = 0) -> int:
    """Play one game choosing uniformly among legal moves; return the number of decisions."""
    state = new_game(players, seed)
    rng = state.rng
    decisions = 0
    while moves := legal_moves(state):
        apply(state, rng.choice(moves))
        decisions += 1
    return decisions
