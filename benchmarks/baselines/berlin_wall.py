"""Hand-written Berlin Wall (a piecepack game), a speed baseline for the gamedef interpreter.

The wall is a 12 x 4 grid whose cells alternate face-down tiles and coins. Players walk
hammers over it and collect pieces whose value matches their die roll; 12 pieces wins.

Move granularity mirrors the .game definition, the game being a state machine in which every
decision is one atomic move: hammer placement ("a1".."l4"), choice of hammer ("p1".."p4"), each
single step of a walk (a cell label), then "flip"/"pass" and "collect"/"pass". Dice rolls are
chance events resolved inside `apply`, never decisions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

COLS, ROWS = 12, 4
SUITS = ("suns", "moons", "crowns", "arms")
WIN_PIECES = 12
# Cell index = row * COLS + col; label = column letter + 1-based row digit.
LABELS: tuple[str, ...] = tuple(f"{'abcdefghijkl'[c]}{r + 1}" for r in range(ROWS) for c in range(COLS))
CELL: dict[str, int] = {label: i for i, label in enumerate(LABELS)}
NEIGHBORS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r + dr) * COLS + (c + dc)
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        if 0 <= r + dr < ROWS and 0 <= c + dc < COLS
    )
    for r in range(ROWS)
    for c in range(COLS)
)
TILE_CELLS = [i for i in range(COLS * ROWS) if (i % COLS + i // COLS) % 2 == 0]
COIN_CELLS = [i for i in range(COLS * ROWS) if (i % COLS + i // COLS) % 2 == 1]
SEATS = ("p1", "p2", "p3", "p4")
SEAT_INDEX = {name: i for i, name in enumerate(SEATS)}

PLACE, CHOOSE, WALK, FLIP, COLLECT, OVER = range(6)


@dataclass
class State:
    """Mutable game state.

    `board` maps a cell to the index of the piece lying there (absent = empty cell);
    `pieces[i]` is (kind, suit, value). `visited` holds the cells visited this turn, which
    persist across the roll-move cycles of one turn. `rng` drives every chance event and is
    shared with the random agent.
    """

    rng: random.Random
    players: int
    pieces: list[tuple[str, str, int]]
    board: dict[int, int]
    face_up: set[int] = field(default_factory=set)
    hammers: list[int] = field(default_factory=list)  # cell of hammer i (seat i's hammer)
    collected: list[list[int]] = field(default_factory=list)
    phase: int = PLACE
    current: int = 0
    roll: int = 0
    mover: int = 0  # hammer being walked
    steps_left: int = 0
    movable: list[int] = field(default_factory=list)
    visited: set[int] = field(default_factory=set)
    winner: int | None = None


def new_game(players: int, seed: int) -> State:
    """Shuffle tiles onto tile cells and coins onto coin cells, all face down."""
    if not 2 <= players <= 4:
        raise ValueError("Berlin Wall is for 2 to 4 players")
    rng = random.Random(seed)
    tiles = [("tile", s, v) for s in SUITS for v in range(1, 7)]
    coins = [("coin", s, v) for s in SUITS for v in range(1, 7)]
    rng.shuffle(tiles)
    rng.shuffle(coins)
    pieces = tiles + coins
    board = dict(zip(TILE_CELLS + COIN_CELLS, range(len(pieces)), strict=True))
    return State(rng=rng, players=players, pieces=pieces, board=board, collected=[[] for _ in range(players)])


def _has_walk(cell: int, steps: int, visited: set[int]) -> bool:
    """Depth-first search: can `steps` more steps be taken from `cell` avoiding `visited`?"""
    if steps == 0:
        return True
    for nxt in NEIGHBORS[cell]:
        if nxt not in visited:
            visited.add(nxt)
            found = _has_walk(nxt, steps - 1, visited)
            visited.discard(nxt)
            if found:
                return True
    return False


def _can_walk(state: State, hammer: int, steps: int) -> bool:
    """A walk starts by visiting the hammer's own cell, so include it in the search."""
    start = state.hammers[hammer]
    if start in state.visited:
        return _has_walk(start, steps, state.visited)
    state.visited.add(start)
    found = _has_walk(start, steps, state.visited)
    state.visited.discard(start)
    return found


def _start_cycle(state: State) -> None:
    """Roll the die and offer the hammers that can walk; with none, the turn passes on."""
    while True:
        state.roll = state.rng.randint(1, 6)
        state.movable = [h for h in range(state.players) if _can_walk(state, h, state.roll)]
        if state.movable:
            state.phase = CHOOSE
            return
        state.current = (state.current + 1) % state.players
        state.visited.clear()


def _end_turn(state: State) -> None:
    state.current = (state.current + 1) % state.players
    state.visited.clear()
    _start_cycle(state)


def _choose_first_player(state: State) -> int:
    """Everyone rolls a d6; tied highest roll again until one is highest."""
    contenders = list(range(state.players))
    while len(contenders) > 1:
        rolls = [state.rng.randint(1, 6) for _ in contenders]
        best = max(rolls)
        contenders = [p for p, r in zip(contenders, rolls, strict=True) if r == best]
    return contenders[0]


def _end_game(state: State) -> None:
    """Wall empty: most pieces wins, a tie has no winner."""
    counts = [len(c) for c in state.collected]
    best = max(counts)
    state.winner = counts.index(best) if counts.count(best) == 1 else None
    state.phase = OVER


def legal_moves(state: State) -> list[str]:
    """Labels of the legal decisions in the current phase; [] iff the game is over."""
    phase = state.phase
    if phase == WALK:
        visited, remaining = state.visited, state.steps_left - 1
        moves = []
        for nxt in NEIGHBORS[state.hammers[state.mover]]:
            if nxt not in visited:
                visited.add(nxt)
                if _has_walk(nxt, remaining, visited):
                    moves.append(LABELS[nxt])
                visited.discard(nxt)
        return moves
    if phase == CHOOSE:
        return [SEATS[h] for h in state.movable]
    if phase == PLACE:
        return list(LABELS)
    if phase == FLIP:
        return ["flip", "pass"]
    if phase == COLLECT:
        return ["collect", "pass"]
    return []


def _land(state: State) -> None:
    """Resolve the end of a walk: maybe offer flip or collect, otherwise end the turn."""
    cell = state.hammers[state.mover]
    piece = state.board.get(cell)
    if state.mover != state.current or piece is None:
        _end_turn(state)
    elif piece not in state.face_up:
        state.phase = FLIP
    elif state.pieces[piece][2] == state.roll:
        state.phase = COLLECT
    else:
        _end_turn(state)


def apply(state: State, move: str) -> State:
    """Apply one decision, then run any following chance events up to the next decision."""
    phase = state.phase
    if phase == WALK:
        nxt = CELL[move]
        here = state.hammers[state.mover]
        if nxt not in NEIGHBORS[here] or nxt in state.visited:
            raise ValueError(f"illegal step {move!r}")
        state.visited.add(nxt)
        if not _has_walk(nxt, state.steps_left - 1, state.visited):
            state.visited.discard(nxt)
            raise ValueError(f"step {move!r} leads to a dead end")
        state.hammers[state.mover] = nxt
        state.steps_left -= 1
        if state.steps_left == 0:
            _land(state)
    elif phase == CHOOSE:
        hammer = SEAT_INDEX.get(move)
        if hammer not in state.movable:
            raise ValueError(f"hammer {move!r} cannot move")
        state.mover = hammer
        state.steps_left = state.roll
        state.visited.add(state.hammers[hammer])
        state.phase = WALK
    elif phase == PLACE:
        state.hammers.append(CELL[move])
        if len(state.hammers) < state.players:
            state.current += 1
        else:
            state.current = _choose_first_player(state)
            _start_cycle(state)
    elif phase == FLIP and move in ("flip", "pass"):
        if move == "pass":
            _end_turn(state)
        else:
            piece = state.board[state.hammers[state.mover]]
            state.face_up.add(piece)
            if state.pieces[piece][2] == state.roll:
                state.phase = COLLECT
            else:
                _end_turn(state)
    elif phase == COLLECT and move in ("collect", "pass"):
        if move == "pass":
            _end_turn(state)
        else:
            piece = state.board.pop(state.hammers[state.mover])
            state.face_up.discard(piece)
            state.collected[state.current].append(piece)
            if len(state.collected[state.current]) >= WIN_PIECES:
                state.winner = state.current
                state.phase = OVER
            elif not state.board:
                _end_game(state)
            else:
                _start_cycle(state)  # roll again; visited cells persist for the turn
    else:
        raise ValueError(f"illegal move {move!r}")
    return state


def is_over(state: State) -> bool:
    return state.phase == OVER


def random_playout(players: int, seed: int) -> int:
    """Play one game choosing uniformly among legal moves; return the number of decisions."""
    state = new_game(players, seed)
    rng = state.rng
    decisions = 0
    while moves := legal_moves(state):
        apply(state, rng.choice(moves))
        decisions += 1
    return decisions
