"""Helpers for Berlin Wall scenario tests: build a position, walk a hammer, read the wall.

Cells are named column letter + row digit (a1 is the top-left corner, row 1 on top);
`column("c2") == 3`, `row("c2") == 2`. Piece names are "kind-value-Suit-set"; the moves,
the narration and the view show a piece by its code instead ("TS4": tile, Suns, 4).
"""

from __future__ import annotations

from functools import cache

from interpreter import load_game

SEATS = ("red", "black", "green", "blue")


def column(cell: str) -> int:
    return ord(cell[0]) - ord("a") + 1


def row(cell: str) -> int:
    return int(cell[1:])


def cell(col: int, r: int) -> str:
    return f"{chr(ord('a') + col - 1)}{r}"


def all_cells(columns: int = 12, rows: int = 4) -> list[str]:
    """Every cell in reading order (a1, b1, ..., a2, ...), the order of members(Cell)."""
    return [cell(c, r) for r in range(1, rows + 1) for c in range(1, columns + 1)]


def all_pieces(stacks: int = 4) -> list[str]:
    suits = ["Suns", "Moons", "Crowns", "Arms"]
    return [
        f"{kind}-{value}-{suits[(st - 1) % 4]}-{(st - 1) // 4 + 1}"
        for st in range(1, stacks + 1)
        for kind in ("tile", "coin")
        for value in range(1, 7)
    ]


def kind_of(piece: str) -> str:
    return piece.split("-")[0]


def value_of(piece: str) -> int:
    return int(piece.split("-")[1])


def suit_of(piece: str) -> str:
    return piece.split("-")[2].lower()


@cache
def _load(variants: tuple, options: tuple):
    return load_game("berlin_wall", variants=list(variants), options=dict(options))


# The eight variants of Berlin Wall, in rulebook order.
VARIANTS = [
    "crazy_8s",
    "gravity",
    "nullo_gravity",
    "wall_of_china",
    "wall_of_jericho",
    "fast_forward",
    "on_again_off_again",
    "pair_a_dice",
]


def game(*variants: str, **options):
    """The loaded game (cached: a Game is never changed by playing it)."""
    return _load(variants, tuple(sorted(options.items())))


def begin(g, hammers=("a1", "l4"), pins=(), seed=1):
    """Start a game, place the hammers in seat order; returns the state after the last placement.

    `pins` are the first-player rolls followed by the first turn's roll(s).
    """
    s = g.start(players=len(hammers), seed=seed, pins=tuple(pins))
    for where in hammers:
        s = g.apply(s, f"hammer on {where}")
    return s


def put(g, s, where: str, piece: str, face_up: bool = True):
    """The state with `piece` laid on `where` (swapping with wherever it was), face up or down.

    The piece that stood on `where` takes the moved piece's old place, so the 48 pieces
    stay conserved.
    """
    wall = g.var(s, "wall")
    old = wall[where]
    change = {where: piece}
    origin = next((c for c, p in wall.items() if p == piece), None)
    if origin is not None and origin != where:
        change[origin] = old
    elif origin is None and old is not None:
        raise AssertionError(f"{piece} is not on the wall: put() swaps only wall pieces")
    s = g.with_var(s, "wall", change)
    return g.with_var(s, "face_up", {piece: face_up})


def clear(g, s, *cells: str):
    """The state with the pieces on `cells` moved from the wall into the box (gaps left)."""
    wall = g.var(s, "wall")
    moved = [wall[c] for c in cells if wall[c] is not None]
    s = g.with_var(s, "wall", {c: None for c in cells})
    return g.with_var(s, "box", list(g.var(s, "box")) + moved)


def give(g, s, player: str, cells: list[str]):
    """The state where `player` has collected the pieces on `cells` (leaving gaps there)."""
    wall = g.var(s, "wall")
    pieces = [wall[c] for c in cells]
    s = g.with_var(s, "wall", {c: None for c in cells})
    s = g.with_var(s, "face_up", {p: True for p in pieces})
    return g.with_var(s, "collected", {player: list(g.var(s, "collected")[player]) + pieces})


def walk(g, s, *cells: str):
    """Step the hammer being moved through `cells`, one `step to` decision each."""
    for c in cells:
        s = g.apply(s, f"step to {c}")
    return s


def is_step(g, s) -> bool:
    return s.pending is not None and all(x.startswith("step to") for x in g.labels(s))


def walk_ends(g, s, h: str) -> set[str]:
    """Every cell where the walk of hammer `h` now being chosen can end, by trying each step."""
    ends: set[str] = set()

    def go(st):
        if is_step(g, st):
            for i in range(len(st.pending.values)):
                go(g.apply_index(st, i))
        else:
            ends.add(g.var(st, "hammer")[h])

    go(s)
    return ends


def walks(g, s) -> list[tuple[str, ...]]:
    """Every complete walk (the cells entered, in order) of the hammer now being stepped."""
    out = []

    def go(st, path):
        if is_step(g, st):
            for i, c in enumerate(st.pending.values):
                go(g.apply_index(st, i), path + (c,))
        else:
            out.append(path)

    go(s, ())
    return out


def self_avoiding_ends(start: str, n: int, avoid=(), columns=12, rows=4) -> set[str]:
    """Ends of orthogonal walks of exactly n steps that never enter a cell twice (independent oracle)."""
    ends = set()

    def go(c, left, seen):
        if left == 0:
            ends.add(c)
            return
        x, y = column(c), row(c)
        for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            nx, ny = x + dx, y + dy
            if 1 <= nx <= columns and 1 <= ny <= rows:
                nxt = cell(nx, ny)
                if nxt not in seen:
                    go(nxt, left - 1, seen | {nxt})

    go(start, n, set(avoid) | {start})
    return ends


def end_turn(g, s, own: bool = False):
    """Finish the current turn by a walk along the first steps offered.

    By default another player's hammer is moved (which never flips or collects, so the turn
    ends after the walk); with `own`, the player's own hammer is moved and any flip or
    collect offered is declined.
    """
    p = s.pending.player
    labels = g.labels(s)
    if own:
        choice = f"move {p} hammer"
    else:
        choice = next(x for x in labels if x.startswith("move ") and not x.startswith(f"move {p} "))
    s = g.apply(s, choice)
    while is_step(g, s):
        s = g.apply_index(s, 0)
    while (
        s.pending is not None
        and s.pending.player == p
        and g.labels(s)[-1:] == ["pass"]
        and not g.labels(s)[0].startswith("flip one")
    ):
        s = g.apply(s, "pass")
    return s
