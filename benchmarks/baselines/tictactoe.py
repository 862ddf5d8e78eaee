"""Hand-written tic-tac-toe, a speed baseline for the gamedef interpreter.

It mirrors the move granularity of the .game definition: one decision per move, and a move is
the label of an empty cell ("a1".."c3", letter = column, digit = row). X moves first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

CELLS: tuple[str, ...] = tuple(f"{col}{row}" for row in "123" for col in "abc")
INDEX: dict[str, int] = {label: i for i, label in enumerate(CELLS)}
# Board indices are row * 3 + col; these are the eight lines of three.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip
# For each cell, only the lines through it need checking after a move there.
LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if i in line) for i in range(9)
)
MARKS = ("X", "O")


@dataclass
class State:
    """Mutable game state; `board` holds "", "X" or "O" per cell."""

    board: list[str] = field(default_factory=lambda: [""] * 9)
    to_move: int = 0
    moves_made: int = 0
    winner: int | None = None
    over: bool = False


def new_game(players: int = 2, seed: int = 0) -> State:
    """Start an empty board; tic-tac-toe has no chance, so the seed is unused."""
    if players != 2:
        raise ValueError("tic-tac-toe is a 2-player game")
    return State()


def legal_moves(state: State) -> list[str]:
    """Labels of the empty cells, or [] once the game is over."""
    if state.over:
        return []
    board = state.board
    return [CELLS[i] for i in range(9) if not board[i]]


def apply(state: State, move: str) -> State:
    """Place the mover's mark, then check for a line through that cell or a full board."""
    i = INDEX[move]
    board = state.board
    if state.over or board[i]:
        raise ValueError(f"illegal move {move!r}")
    mark = MARKS[state.to_move]
    board[i] = mark
    state.moves_made += 1
    for a, b, c in LINES_THROUGH[i]:
        if board[a] == board[b] == board[c] == mark:
            state.winner = state.to_move
            state.over = True
            return state
    if state.moves_made == 9:
        state.over = True
    else:
        state.to_move ^= 1
    return state


def is_over(state: State) -> bool:
    return state.over


def random_playout(players: int = 2, seed: int = 0) -> int:
    """Play one game choosing uniformly among legal moves; return the number of decisions."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    decisions = 0
    while moves := legal_moves(state):
        apply(state, rng.choice(moves))
        decisions += 1
    return decisions
