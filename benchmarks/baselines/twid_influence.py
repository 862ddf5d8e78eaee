"""Hand-written influence operations of The Wall is Down, a speed baseline for the gamedef interpreter.

The whole game is too large to write twice, so this plays one representative part of it:
the scenario benchmarks/scenarios/twid_influence.game (variant `influence_only`). After the
game's setup (the starting influence of the designer's map), the players take turns, each
making one influence operation of 4 points (rule 6.2.1), 12 operations in all.

An operation, as gamedefs/twid.game's `influence_op` plays it: the countries within reach
are fixed when it starts (where the side has influence, or next to it); the side then
repeatedly picks a country within reach that it can afford (cost = stability, +1 if another
side has the edge there), that has room (8 tokens a country) and while it has cubes in
supply (80 a side with two players, 40 otherwise), or stops; each pick adds 1 influence. The
decisions carry the .game's labels, in its order: "influence in COUNTRY (COST)" for each
country of the map in the map's order, then "stop placing influence".

No card is dealt or played in the scenario, so no card's modifier or trigger is in force
(reach, costs, edges and limits are the core rules'). The solo game (1 player) is not
covered: its operations follow other rules (8.4), and the scenario refuses it.

The map is read at import from cards/twid/ (The Wall is Down by Rodrigo Santamaría,
CC-BY 4.0; see cards/twid/README.md). Choices are the caller's: `random_playout` takes
`random.Random(seed).randrange(n)` at each decision, as `Game.playout` is driven in
benchmarks/run.py, so both play the same games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from interpreter.core.paths import BUNDLED_CARDS

DATA = BUNDLED_CARDS / "twid"
OPERATIONS = 12  # in all, the players in turn
POINTS = 4  # of each operation
ROOM = 8  # tokens a country holds, all sides together
MOST_PER_OPERATION = 8  # tokens one operation may place in one country
STOP = "stop placing influence"


def _table(name: str) -> list[dict[str, str]]:
    """The rows of a TSV file of cards/twid/: the first line, less its '#', names the
    columns (a name's '(...)' is a note); blank lines and '#' lines after it are skipped."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    header = [c.split("(")[0].strip() for c in lines[0].lstrip("#").strip().split("\t")]
    return [dict(zip(header, line.split("\t"))) for line in lines[1:] if line.strip() and not line.startswith("#")]


def _load_map() -> tuple[tuple[str, ...], tuple[int, ...], tuple[tuple[str, ...], ...], tuple[tuple[int, ...], ...]]:
    """Titles, stabilities, starting influence (a seat per token) and neighbours, in the map's order."""
    rows = _table("countries.tsv")
    titles = tuple(r["name"] for r in rows)
    index = {t: i for i, t in enumerate(titles)}
    seat = {"US": "us", "EU": "eu", "Russia": "russia", "China": "china"}
    starting: list[tuple[str, ...]] = []
    for r in rows:  # "US:1 EU:2": a seat and its tokens, separated by spaces
        pairs = [entry.split(":") for entry in r["starting_influence"].split()]
        starting.append(tuple(seat[who] for who, n in pairs for _ in range(int(n))))
    neighbours: list[set[int]] = [set() for _ in titles]
    for line in (DATA / "adjacency.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            a, b = (index[t] for t in line.split("\t"))
            neighbours[a].add(b)
            neighbours[b].add(a)
    return (
        titles,
        tuple(int(r["stability"]) for r in rows),
        tuple(starting),
        tuple(tuple(sorted(n)) for n in neighbours),
    )


TITLES, STABILITY, STARTING, NEIGHBOURS = _load_map()
COUNTRIES = range(len(TITLES))
# The sides holding influence, and the players taking turns (the EU is static with three).
SIDES = {2: ("west", "east"), 3: ("us", "eu", "russia", "china"), 4: ("us", "eu", "russia", "china")}
PLAYERS = {2: ("west", "east"), 3: ("us", "russia", "china"), 4: ("us", "eu", "russia", "china")}
BLOCK = {"us": "west", "eu": "west", "russia": "east", "china": "east"}  # the sides of a 2-player game


@dataclass
class State:
    """Mutable scenario state. `options` are the countries offered at the pending decision
    (the stop option comes after them); empty once the game is over."""

    players: tuple[str, ...]
    sides: tuple[str, ...]
    influence: list[list[int]]  # [side][country]
    total: list[int]  # tokens per country, all sides
    supply: list[int]  # cubes left per side
    operation: int = -1  # operations begun
    mover: int = 0  # the operating side, an index into `sides`
    left: int = 0  # points left in the operation
    reach: list[int] = field(default_factory=list)
    placed: list[int] = field(default_factory=list)  # tokens placed per country in the operation
    options: list[int] = field(default_factory=list)
    costs: list[int] = field(default_factory=list)
    decisions: int = 0


def edge(state: State, x: int) -> int | None:
    """The side with more influence in x than any other single side (a tie is no edge)."""
    best, holder = 0, None
    for s, row in enumerate(state.influence):
        n = row[x]
        if n > best:
            best, holder = n, s
        elif n == best:
            holder = None
    return holder


def cost(state: State, s: int, x: int) -> int:
    """A token's cost: the country's stability, +1 if another side has the edge there."""
    e = edge(state, x)
    return STABILITY[x] + (e is not None and e != s)


def new_game(players: int, seed: int = 0) -> State:
    """The position after setup, at the first decision. Setup's shuffles deal no card here,
    so the seed is unused: all the chance is in the choices."""
    if players not in SIDES:
        raise ValueError("the influence scenario is for 2 to 4 players")
    sides = SIDES[players]
    influence = [[0] * len(TITLES) for _ in sides]
    for x in COUNTRIES:
        for who in STARTING[x]:
            influence[sides.index(BLOCK[who] if players == 2 else who)][x] += 1
    cubes = 80 if players == 2 else 40
    state = State(
        PLAYERS[players],
        sides,
        influence,
        [sum(row[x] for row in influence) for x in COUNTRIES],
        [cubes - sum(row) for row in influence],
    )
    _next_operation(state)
    return state


def _next_operation(state: State) -> None:
    """Start the next player's operation (reach fixed now) and offer its first decision."""
    state.options = []
    while not state.options:
        state.operation += 1
        if state.operation == OPERATIONS:
            return
        s = state.sides.index(state.players[state.operation % len(state.players)])
        row = state.influence[s]
        state.mover, state.left, state.placed = s, POINTS, [0] * len(TITLES)
        state.reach = [x for x in COUNTRIES if row[x] > 0 or any(row[y] > 0 for y in NEIGHBOURS[x])]
        _offer(state)


def _offer(state: State) -> None:
    """The affordable countries within reach with room, if the side has points and cubes."""
    state.options, state.costs = [], []
    s = state.mover
    if state.left <= 0 or state.supply[s] <= 0:
        return
    for x in state.reach:
        c = cost(state, s, x)
        if c <= state.left and state.placed[x] < MOST_PER_OPERATION and state.total[x] < ROOM:
            state.options.append(x)
            state.costs.append(c)


def legal_moves(state: State) -> list[str]:
    """The labels of the pending decision, as the .game writes them; [] once over."""
    if not state.options:
        return []
    return [f"influence in {TITLES[x]} ({c})" for x, c in zip(state.options, state.costs)] + [STOP]


def apply(state: State, move: int | str) -> State:
    """Take option `move` (an index, or a label) of the pending decision."""
    i = legal_moves(state).index(move) if isinstance(move, str) else move
    if not 0 <= i <= len(state.options):
        raise ValueError(f"illegal move {move!r}")
    state.decisions += 1
    if i == len(state.options):
        _next_operation(state)
        return state
    x, s = state.options[i], state.mover
    state.left -= state.costs[i]
    state.placed[x] += 1
    state.influence[s][x] += 1
    state.total[x] += 1
    state.supply[s] -= 1
    _offer(state)
    if not state.options:
        _next_operation(state)
    return state


def is_over(state: State) -> bool:
    return not state.options


def influence(state: State) -> dict[str, dict[str, int]]:
    """Influence per side and country title, every country of the map."""
    return {side: dict(zip(TITLES, row)) for side, row in zip(state.sides, state.influence)}


def random_playout(players: int, seed: int) -> int:
    """Play one scenario taking option `randrange(n)` of each decision's n; the number of
    decisions. Each decision's labels are written, as the other baselines do."""
    pick = random.Random(seed).randrange
    state = new_game(players, seed)
    while moves := legal_moves(state):
        apply(state, pick(len(moves)))
    return state.decisions
