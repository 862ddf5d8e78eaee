"""Hand-written Missiles, Now! (a roll & write game), a speed baseline for the gamedef interpreter.

Each player has a public sheet of ten items; three dice per collection mark parts of one item,
complete items are played for their effects, and the game is won by three complete Missiles,
the Doomsday Clock's countdown or Russian Roulette's second option.

Move granularity mirrors gamedefs/missiles_now.game: each `choose`/`may` there is one decision
here, with the same labels (which die marks the parts, attack or search, an item's option,
targets and items one at a time, each Counterintelligence reaction, each erased item at the end
of a turn). The game flow is a generator that yields one decision at a time; dice are chance
events resolved inside `apply`, never decisions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

SEATS = ("usa", "ussr", "china", "uk", "france", "cuba")
TITLES = (
    "Missile",
    "Missile Crisis",
    "Space Race",
    "Berlin Wall",
    "Propaganda",
    "Espionage",
    "Counterintelligence",
    "Red Telephone",
    "Russian Roulette",
    "Doomsday Clock",
)
COST = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
LINES = (3, 1, 3, 1, 1, 3, 1, 1, 1, 1)
MISSILE, CRISIS, RACE, WALL, PROPAGANDA, ESPIONAGE, COUNTER, PHONE, ROULETTE, CLOCK = range(10)
ITEMS = range(10)
ITEM_OF_COST = {c: i for i, c in enumerate(COST)}
NOT_RACED = (MISSILE, RACE, COUNTER)

# The options of the items with "choose one option", in the .game's order.
SPY_PARTS, SPY_SWAP, PHONE_PARTS, PHONE_CLOCK, ROULETTE_DELETE, ROULETTE_MISSILE, CLOCK_START, CLOCK_ADJUST = range(8)
OPTION_ITEM = (ESPIONAGE, ESPIONAGE, PHONE, PHONE, ROULETTE, ROULETTE, CLOCK, CLOCK)
OPTION_TITLES = (
    "Espionage: swap the parts of two incomplete items of an opponent",
    "Espionage: swap one complete item with an opponent",
    "Red Telephone: one part on each of three incomplete items",
    "Red Telephone: switch off an active Doomsday Clock",
    "Russian Roulette: delete two complete items, then two collections",
    "Russian Roulette: give up a Missile and collect for a Missile",
    "Doomsday Clock: activate its three boxes",
    "Doomsday Clock: one box more or less on an active clock",
)


class Win(Exception):
    def __init__(self, player: int):
        self.player = player


@dataclass
class State:
    """Mutable game state: one row of marks per player; `flow` runs the rules up to the next decision."""

    rng: random.Random
    players: int
    parts: list[list[int]]
    complete: list[list[int]]
    wall: list[int]
    clock: list[int]
    first: int = 0
    flow: Any = None
    pending: tuple | None = None  # (player, labels, values)
    winner: int | None = None


# ---- the sheet ---------------------------------------------------------------------------------
def _roll(st: State) -> int:
    return int(st.rng.random() * 6) + 1


def _mark(st: State, p: int, i: int, n: int) -> None:
    parts, complete, lines = st.parts[p], st.complete[p], LINES[i]
    while n > 0 and complete[i] < lines:
        parts[i] += 1
        n -= 1
        if parts[i] == 5:
            parts[i] = 0
            complete[i] += 1


def _complete_item(st: State, p: int, i: int) -> None:
    st.parts[p][i] = 0
    st.complete[p][i] += 1


def _receive(st: State, p: int, i: int) -> None:
    st.complete[p][i] += 1
    if st.complete[p][i] == LINES[i]:
        st.parts[p][i] = 0


def _order(st: State, p: int) -> list[int]:
    return [(p + k) % st.players for k in range(st.players)]


def _check_missiles(st: State, p: int) -> None:
    for q in _order(st, p):
        if st.complete[q][MISSILE] >= 3:
            raise Win(q)


# ---- conditions (m: the item whose box is already counted as erased, or -1) ----------------------
def _cnt(st: State, p: int, x: int, m: int) -> int:
    return st.complete[p][x] - (x == m)


def _total(st: State, p: int, m: int) -> int:
    return sum(st.complete[p]) - (m >= 0)


def _owned(st: State, p: int, m: int) -> list[int]:
    row = st.complete[p]
    return [x for x in ITEMS if row[x] - (x == m) > 0]


def _incomplete(st: State, p: int, m: int) -> list[int]:
    row = st.complete[p]
    return [x for x in ITEMS if row[x] - (x == m) < LINES[x]]


def _with_parts(st: State, q: int) -> list[int]:
    row = st.parts[q]
    return [x for x in ITEMS if row[x] > 0]


def _clocks(st: State, p: int) -> list[int]:
    return [q for q in range(st.players) if st.clock[q] > 0 and (q == p or not st.wall[q])]


def _opponents(st: State, p: int) -> list[int]:
    return [q for q in range(st.players) if q != p and not st.wall[q]]


def _swap1_ok(st: State, p: int, q: int, m: int, a: int, b: int) -> bool:
    # an item for the same item would change nothing: not offered (the .game's reading)
    return a != b and _cnt(st, p, b, m) < LINES[b] and st.complete[q][a] < LINES[a]


def _parts_partners(st: State, q: int, x: int) -> list[int]:
    """Items with parts whose count differs from another's (or from `x`'s, x >= 0)."""
    row = st.parts[q]
    items = _with_parts(st, q)
    return [y for y in items if any(row[z] != row[y] for z in items if x < 0 or z == x)]


def _swap1_any(st: State, p: int, q: int, m: int) -> bool:
    theirs = _owned(st, q, -1)
    return any(_swap1_ok(st, p, q, m, a, b) for a in _owned(st, p, m) for b in theirs)


def _swap2_ok(st: State, p: int, q: int, m: int, give: list[int], taken: list[int], k: int) -> bool:
    """Can q pick k more items (after `taken`) so that both sheets stay within bounds?

    For each item, the further picks must keep q's sheet within its lines (a lower bound) and
    p's sheet within its lines and q's boxes available (an upper bound).
    """
    gives = [0] * 10
    for x in give:
        gives[x] += 1
    takes = [0] * 10
    for x in taken:
        takes[x] += 1
    mine = st.complete[p]
    lo_sum = hi_sum = 0
    for x, (lines, theirs, g, t) in enumerate(zip(LINES, st.complete[q], gives, takes, strict=True)):
        lo = theirs + g - lines - t
        if lo < 0:
            lo = 0
        hi = lines - mine[x] + (x == m) + g - t
        if theirs - t < hi:
            hi = theirs - t
        if lo > hi:
            return False
        lo_sum += lo
        hi_sum += hi
    return lo_sum <= k <= hi_sum


def _pairs(st: State, p: int, m: int) -> list[list[int]]:
    row = st.complete[p]
    return [
        [x, y]
        for x in ITEMS
        for y in range(x, 10)
        if row[x] - (x == m) > 0 and row[y] - (y == m) > (1 if x == y else 0)
    ]


def _propaganda_targets(st: State, p: int, m: int) -> list[int]:
    if _total(st, p, m) < 2:
        return []
    pairs = _pairs(st, p, m)
    return [
        q
        for q in _opponents(st, p)
        if sum(st.complete[q]) >= 2 and any(_swap2_ok(st, p, q, m, g, [], 2) for g in pairs)
    ]


def _spy_parts_targets(st: State, p: int) -> list[int]:
    return [q for q in _opponents(st, p) if _parts_partners(st, q, -1)]


def _spy_swap_targets(st: State, p: int, m: int) -> list[int]:
    return [q for q in _opponents(st, p) if _swap1_any(st, p, q, m)]


def _option_ok(st: State, p: int, o: int, m: int) -> bool:
    if o == SPY_PARTS:
        return bool(_spy_parts_targets(st, p))
    if o == SPY_SWAP:
        return bool(_spy_swap_targets(st, p, m))
    if o == PHONE_PARTS:
        return len(_incomplete(st, p, m)) >= 3
    if o == ROULETTE_DELETE:
        return _total(st, p, m) >= 2
    if o == ROULETTE_MISSILE:
        return True
    if o == CLOCK_START:
        return st.clock[p] == 0
    return bool(_clocks(st, p))  # PHONE_CLOCK, CLOCK_ADJUST


def _options(st: State, p: int, i: int, m: int) -> list[int]:
    return [o for o in range(8) if OPTION_ITEM[o] == i and _option_ok(st, p, o, m)]


def _effect_ok(st: State, p: int, i: int, m: int) -> bool:
    if i == MISSILE:
        return True
    if i == CRISIS:
        return _total(st, p, m) >= 2
    if i == WALL:
        return st.wall[p] == 0
    if i == PROPAGANDA:
        return bool(_propaganda_targets(st, p, m))
    if i == COUNTER:
        return False
    return bool(_options(st, p, i, m))


def _race_targets(st: State, p: int, m: int) -> list[int]:
    parts = st.parts[p]
    return [t for t in ITEMS if t not in NOT_RACED and parts[t] >= 3 and _effect_ok(st, p, t, m)]


def _playable(st: State, p: int) -> list[int]:
    row = st.complete[p]
    return [
        i for i in ITEMS if row[i] > 0 and (bool(_race_targets(st, p, RACE)) if i == RACE else _effect_ok(st, p, i, i))
    ]


# ---- the rules, as a generator of decisions -------------------------------------------------------
def _collection(st: State, p: int):
    dice = [_roll(st), _roll(st), _roll(st)]
    ks = [j for j in range(3) if dice.index(dice[j]) == j]
    labels = []
    for k in ks:
        x, y = (dice[j] for j in range(3) if j != k)
        labels.append(f"parts {dice[k]}, item {x}+{y}")
    k = yield p, labels, ks
    x, y = (dice[j] for j in range(3) if j != k)
    while x + y == 7:
        x, y = _roll(st), _roll(st)
    n = dice[k]
    while n == 6:
        n = _roll(st)
    _mark(st, p, ITEM_OF_COST[x + y], n)
    _check_missiles(st, p)


def _delete_two(st: State, p: int):
    for _ in range(2):
        owned = _owned(st, p, -1)
        x = yield p, [f"delete a complete {TITLES[i]}" for i in owned], owned
        st.complete[p][x] -= 1


def _counter(st: State, p: int, i: int):
    """Counterintelligence: offered clockwise; returns True if the effect is cancelled."""
    for k in range(1, st.players):
        q = (p + k) % st.players
        if st.complete[q][COUNTER] > 0:
            yes = yield q, [f"cancel {SEATS[p]}'s {TITLES[i]} with Counterintelligence", "pass"], [True, False]
            if yes:
                st.complete[q][COUNTER] -= 1
                yield from _collection(st, q)
                return True
    return False


def _play_item(st: State, p: int, i: int):
    st.complete[p][i] -= 1
    if i == MISSILE:
        yield from _collection(st, p)
        items = _playable(st, p)
        labels = [f"play {TITLES[x]}" for x in items] + ["play no additional item"]
        x = yield p, labels, items + [None]
        if x is not None:
            yield from _play_item(st, p, x)
    elif i == CRISIS:
        yield from _delete_two(st, p)
        _complete_item(st, p, MISSILE)
        _check_missiles(st, p)
    elif i == RACE:
        targets = _race_targets(st, p, -1)
        t = yield p, [f"complete and play {TITLES[x]}" for x in targets], targets
        _complete_item(st, p, t)
        yield from _play_item(st, p, t)
    elif i == WALL:
        st.wall[p] = 1
    elif i == PROPAGANDA:
        yield from _propaganda(st, p)
    else:
        options = _options(st, p, i, -1)
        o = yield p, [OPTION_TITLES[x] for x in options], options
        if o == SPY_PARTS:
            yield from _spy_parts(st, p)
        elif o == SPY_SWAP:
            yield from _spy_swap(st, p)
        elif o == PHONE_PARTS:
            done: list[int] = []
            for _ in range(3):
                items = [y for y in _incomplete(st, p, -1) if y not in done]
                x = yield p, [f"1 part on {TITLES[y]}" for y in items], items
                done.append(x)
                _mark(st, p, x, 1)
            _check_missiles(st, p)
        elif o == PHONE_CLOCK:
            clocks = _clocks(st, p)
            q = yield p, [f"{SEATS[c]}'s Doomsday Clock" for c in clocks], clocks
            st.clock[q] = 0
        elif o == ROULETTE_DELETE:
            yield from _delete_two(st, p)
            yield from _collection(st, p)
            yield from _collection(st, p)
        elif o == ROULETTE_MISSILE:
            if st.complete[p][MISSILE] > 0:
                st.complete[p][MISSILE] -= 1
            before = st.complete[p][MISSILE]
            yield from _collection(st, p)
            if st.complete[p][MISSILE] > before:
                raise Win(p)
        elif o == CLOCK_START:
            st.clock[p] = 3
        else:
            clocks = _clocks(st, p)
            q = yield p, [f"{SEATS[c]}'s Doomsday Clock" for c in clocks], clocks
            if st.clock[q] < 3:
                add = yield p, ["activate a box", "deactivate a box"], [True, False]
            else:
                add = yield p, ["deactivate a box"], [False]
            st.clock[q] += 1 if add else -1


def _propaganda(st: State, p: int):
    targets = _propaganda_targets(st, p, -1)
    q = yield p, [f"propaganda against {SEATS[x]}" for x in targets], targets
    mine = _owned(st, p, -1)
    row = st.complete[p]
    firsts = [
        x for x in mine if any(_swap2_ok(st, p, q, -1, [x, y], [], 2) for y in mine if row[y] > (1 if y == x else 0))
    ]
    a1 = yield p, [f"give {TITLES[x]}" for x in firsts], firsts
    seconds = [y for y in mine if row[y] > (1 if y == a1 else 0) and _swap2_ok(st, p, q, -1, [a1, y], [], 2)]
    a2 = yield p, [f"give {TITLES[y]}" for y in seconds], seconds
    given = [a1, a2]
    theirs = _owned(st, q, -1)
    firsts = [x for x in theirs if _swap2_ok(st, p, q, -1, given, [x], 1)]
    b1 = yield q, [f"give {TITLES[x]}" for x in firsts], firsts
    seconds = [
        y for y in theirs if st.complete[q][y] > (1 if y == b1 else 0) and _swap2_ok(st, p, q, -1, given, [b1, y], 0)
    ]
    b2 = yield q, [f"give {TITLES[y]}" for y in seconds], seconds
    if (yield from _counter(st, p, PROPAGANDA)):
        return
    taken = [b1, b2]
    for x in given:
        st.complete[p][x] -= 1
    for x in taken:
        st.complete[q][x] -= 1
    for x in given:
        _receive(st, q, x)
    for x in taken:
        _receive(st, p, x)
    _check_missiles(st, p)


def _spy_parts(st: State, p: int):
    targets = _spy_parts_targets(st, p)
    q = yield p, [f"spy on {SEATS[x]}" for x in targets], targets
    items = _parts_partners(st, q, -1)
    x = yield p, [f"exchange the parts of {SEATS[q]}'s {TITLES[i]}" for i in items], items
    items = _parts_partners(st, q, x)
    y = yield p, [f"with the parts of {SEATS[q]}'s {TITLES[i]}" for i in items], items
    if (yield from _counter(st, p, ESPIONAGE)):
        return
    parts = st.parts[q]
    parts[x], parts[y] = parts[y], parts[x]


def _spy_swap(st: State, p: int):
    targets = _spy_swap_targets(st, p, -1)
    q = yield p, [f"spy on {SEATS[x]}" for x in targets], targets
    theirs = _owned(st, q, -1)
    mine = [x for x in _owned(st, p, -1) if any(_swap1_ok(st, p, q, -1, x, b) for b in theirs)]
    a = yield p, [f"give {TITLES[x]}" for x in mine], mine
    takes = [y for y in theirs if _swap1_ok(st, p, q, -1, a, y)]
    b = yield p, [f"take {SEATS[q]}'s {TITLES[y]}" for y in takes], takes
    if (yield from _counter(st, p, ESPIONAGE)):
        return
    st.complete[p][a] -= 1
    st.complete[q][b] -= 1
    _receive(st, q, a)
    _receive(st, p, b)
    _check_missiles(st, p)


def _end_of_turn(st: State, p: int):
    for q in _order(st, p):
        while sum(st.complete[q]) > 7:
            owned = _owned(st, q, -1)
            x = yield q, [f"erase a complete {TITLES[i]}" for i in owned], owned
            st.complete[q][x] -= 1


def _turn(st: State, p: int):
    st.wall[p] = 0
    if st.clock[p] > 0:
        st.clock[p] -= 1
        if st.clock[p] == 0:
            if st.complete[p][MISSILE] > 0:
                raise Win(p)
            yield from _end_of_turn(st, p)
            return
    yield from _collection(st, p)
    items = _playable(st, p)
    i = yield p, [f"play {TITLES[x]}" for x in items] + ["search"], items + [None]
    if i is None:
        yield from _collection(st, p)
    else:
        yield from _play_item(st, p, i)
    yield from _end_of_turn(st, p)


def _game(st: State):
    for p in range(st.players):
        st.complete[p][MISSILE] = 1
    for p in range(st.players):
        yield from _collection(st, p)
        yield from _collection(st, p)
    while True:
        for p in _order(st, st.first):
            yield from _turn(st, p)


# ---- the API ------------------------------------------------------------------------------------------
def _advance(st: State, value: Any = None, start: bool = False) -> None:
    try:
        st.pending = st.flow.send(None if start else value)
    except Win as w:
        st.winner = w.player
        st.pending = None


def new_game(players: int, seed: int, first: int = 0) -> State:
    """Prepare the sheets (the first Missile, two collections each) up to the first decision."""
    if not 2 <= players <= 6:
        raise ValueError("Missiles, Now! is played here by 2 to 6 players")
    st = State(
        rng=random.Random(seed),
        players=players,
        parts=[[0] * 10 for _ in range(players)],
        complete=[[0] * 10 for _ in range(players)],
        wall=[0] * players,
        clock=[0] * players,
        first=first,
    )
    st.flow = _game(st)
    _advance(st, start=True)
    return st


def legal_moves(state: State) -> list[str]:
    """Labels of the pending decision; [] iff the game is over."""
    return list(state.pending[1]) if state.pending is not None else []


def apply(state: State, move: str) -> State:
    """Apply one decision by its label, then run the rules up to the next decision."""
    if state.pending is None:
        raise ValueError("the game is over")
    _, labels, values = state.pending
    try:
        value = values[labels.index(move)]
    except ValueError:
        raise ValueError(f"illegal move {move!r}; legal: {labels}") from None
    _advance(state, value)
    return state


def is_over(state: State) -> bool:
    return state.pending is None


def random_playout(players: int, seed: int) -> int:
    """Play one game choosing uniformly among legal moves; return the number of decisions."""
    state = new_game(players, seed)
    rng = state.rng
    decisions = 0
    while state.pending is not None:
        labels = state.pending[1]
        apply(state, labels[int(rng.random() * len(labels))])
        decisions += 1
    return decisions
