"""Hand-written Walls and Wonders (S. R. Algernon's card game), a speed baseline for the gamedef interpreter.

Every player has a whole 52-card deck and builds a Wonder: a five-level pyramid of 15 slots
(10+ at the base, then J+, Q+, K+ and an ace on top), each upper card resting on two cards
below, defended by face-down wall stacks in front of the five base slots. This is the base
game with one agreed victory condition (`victory`, construction by default), 2..8 players.

Move granularity mirrors gamedefs/walls_and_wonders.game, every `choose` being one decision
(even over a single option): the action ("build", "wall", "attack", "draw"); for a build the
card (its short name, e.g. "Qh", "10s") and then the slot ("l2s3" = level 2, slot 3); for a
wall the card and then the stack ("s4" = in front of base slot 4); for an attack, repeatedly,
a location ("p2s3" = seat p2's base slot 3, or "resolve" once one is chosen) and the card
for it; while the attack resolves, each success chooses an uncovered Wonder card of the
defender to discard ("l1s2"). A player with no legal action passes (not a decision), and
the game ends when every player has passed in a row, when a Wonder is completed, or when
every hand and draw pile is empty. Shuffles are chance events drawn from `random.Random(seed)`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SUIT_INITIALS = "cdhs"  # clubs < diamonds < hearts < spades, the starting-draw tie break
FACES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
# A card is owner * 52 + suit * 13 + rank; its value is rank + 2 (2..14).
SHORT = tuple(FACES[c % 13] + SUIT_INITIALS[c // 13] for c in range(52))
# The highest Wonder level a card fits (value >= 9 + level), 0 for 2..9, for every card of 8 decks.
TIER = tuple(min(max(c % 13 - 7, 0), 5) for c in range(8 * 52))
GOALS = ("construction", "attrition", "economic", "military")

# The 15 Wonder slots of a player, level-major: level 1 pos 1..5, level 2 pos 1..4, ... level 5.
SLOTS = tuple((level, pos) for level in range(1, 6) for pos in range(1, 7 - level))
SLOT_INDEX = {s: i for i, s in enumerate(SLOTS)}
LEVEL = tuple(level for level, _ in SLOTS)
MIN_VALUE = tuple(9 + level for level in LEVEL)
# The two supporting slots below a slot (None at the base) and the slots resting on it.
BELOW = tuple(
    None if level == 1 else (SLOT_INDEX[level - 1, pos], SLOT_INDEX[level - 1, pos + 1]) for level, pos in SLOTS
)
ABOVE = tuple(
    tuple(SLOT_INDEX[level + 1, k] for k in (pos - 1, pos) if 1 <= k <= 5 - level) if level < 5 else ()
    for level, pos in SLOTS
)
SLOT_LABELS = tuple(f"l{level}s{pos}" for level, pos in SLOTS)
TOP = SLOT_INDEX[5, 1]
WALL_LABELS = ("s1", "s2", "s3", "s4", "s5")

ACTION, BUILD_CARD, BUILD_SLOT, WALL_CARD, WALL_SLOT, ATTACK_TARGET, ATTACK_CARD, DISCARD, OVER = range(9)
BUILD, FORTIFY, ATTACK, DRAW = range(4)
ACTION_LABELS = ("build", "wall", "attack", "draw")
RESOLVE = None  # the "resolve the attack" option of the attack declaration loop


@dataclass
class State:
    """Mutable game state.

    Per player: `draw_pile` (top card first), `hand`, `discard`, `wonder` (15 slots, card or
    -1) and `wall` (5 stacks, top card last). `options` holds the values of the pending
    decision and `labels` their move labels; `chosen`/`cards` the attack declared so far and
    `resolving` the index of the attacked location being resolved.
    """

    rng: random.Random
    players: int
    victory: str
    draw_pile: list[list[int]]
    hand: list[list[int]]
    discard: list[list[int]]
    wonder: list[list[int]]
    wall: list[list[list[int]]]
    order: list[int] = field(default_factory=list)
    turn_index: int = 0
    current: int = 0
    passes: int = 0
    phase: int = ACTION
    options: list = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    card: int = -1  # card chosen for the Wonder or the wall
    chosen: list[tuple[int, int]] = field(default_factory=list)  # attacked (owner, base pos)
    cards: list[int] = field(default_factory=list)  # the attacking card for each location
    resolving: int = 0
    others_could: bool = False
    attrition_achieved: list[bool] = field(default_factory=list)
    winners: list[int] | None = None


def new_game(players: int, seed: int, victory: str = "construction") -> State:
    """Shuffle each deck, run the starting draw, deal five cards each and start the first turn."""
    if not 2 <= players <= 8:
        raise ValueError("Walls and Wonders is for 2 to 8 players")
    if victory not in GOALS:
        raise ValueError(f"unknown victory condition {victory!r}")
    rng = random.Random(seed)
    piles = []
    for p in range(players):
        pile = list(range(p * 52, p * 52 + 52))
        rng.shuffle(pile)
        piles.append(pile)
    state = State(
        rng=rng,
        players=players,
        victory=victory,
        draw_pile=piles,
        hand=[[] for _ in range(players)],
        discard=[[] for _ in range(players)],
        wonder=[[-1] * 15 for _ in range(players)],
        wall=[[[], [], [], [], []] for _ in range(players)],
        attrition_achieved=[False] * players,
    )
    # Starting draw: the tied players turn over their top card, the highest (rank, then
    # suit) goes first; only identical cards from two decks tie again.
    tied = list(range(players))
    while len(tied) > 1:
        keys = []
        for p in tied:
            c = piles[p].pop(0)
            state.discard[p].append(c)
            keys.append((c % 13) * 4 + (c % 52) // 13)
        best = max(keys)
        tied = [p for p, k in zip(tied, keys) if k == best]
    first = tied[0]
    for p in range(players):
        state.hand[p] = piles[p][:5]
        del piles[p][:5]
    state.order = list(range(first, players)) + list(range(first))
    _start_turn(state)
    return state


# ---- rules helpers -------------------------------------------------------------------------


def _min_open_value(wonder: list[int]) -> int:
    """Lowest card value that fits some empty, supported slot of this Wonder (99 if none)."""
    best = 99
    for i in range(15):
        if wonder[i] < 0:
            below = BELOW[i]
            if below is None or (wonder[below[0]] >= 0 and wonder[below[1]] >= 0):
                v = MIN_VALUE[i]
                if v < best:
                    best = v
    return best


def _has_target(state: State, p: int) -> bool:
    for q in range(state.players):
        if q != p:
            wonder, wall = state.wonder[q], state.wall[q]
            for i in range(5):
                if wonder[i] >= 0 or wall[i]:
                    return True
    return False


def _can_complete(state: State, q: int) -> bool:
    """Hall's condition: enough reachable cards (hand, draw pile) for the empty slots from each level up."""
    wonder = state.wonder[q]
    need = [0] * 6  # empty slots per level 1..5
    for i in range(15):
        if wonder[i] < 0:
            need[LEVEL[i]] += 1
    have = [0] * 6  # reachable cards per highest level they fit (0 = none)
    for c in state.hand[q]:
        have[TIER[c]] += 1
    for c in state.draw_pile[q]:
        have[TIER[c]] += 1
    cards = slots = 0
    for t in range(5, 0, -1):
        cards += have[t]
        slots += need[t]
        if cards < slots:
            return False
    return True


def _in_play(state: State, p: int) -> int:
    return sum(c >= 0 for c in state.wonder[p]) + sum(len(stack) for stack in state.wall[p])


def _wonder_discards(state: State, p: int) -> int:
    return sum(c % 13 >= 8 for c in state.discard[p])


def _achieved(state: State, p: int) -> bool:
    goal, others = state.victory, [q for q in range(state.players) if q != p]
    if goal == "construction":
        return state.wonder[p][TOP] >= 0
    if goal == "attrition":
        return state.attrition_achieved[p]
    if goal == "economic":
        mine = _in_play(state, p)
        return all(mine > _in_play(state, q) for q in others)
    mine = _wonder_discards(state, p)
    return all(mine < _wonder_discards(state, q) for q in others)


def _end_game(state: State) -> None:
    state.winners = [p for p in range(state.players) if _achieved(state, p)]
    state.phase = OVER
    state.options = []
    state.labels = []


def _out_of_cards(state: State) -> bool:
    return not any(state.hand[q] or state.draw_pile[q] for q in range(state.players))


# ---- the turn state machine ------------------------------------------------------------------


def _start_turn(state: State) -> None:
    """Offer the current player's actions; a player without any passes, until all have in a row."""
    n = state.players
    while True:
        p = state.current = state.order[state.turn_index]
        hand = state.hand[p]
        actions = []
        if hand:
            min_value = _min_open_value(state.wonder[p])
            if any(c % 13 + 2 >= min_value for c in hand):
                actions.append(BUILD)
            wonder, wall = state.wonder[p], state.wall[p]
            if any(wonder[i] >= 0 or wall[i] for i in range(5)):
                actions.append(FORTIFY)
            if _has_target(state, p):
                actions.append(ATTACK)
        if state.draw_pile[p]:
            actions.append(DRAW)
        if actions:
            state.passes = 0
            state.phase = ACTION
            state.options = actions
            state.labels = [ACTION_LABELS[a] for a in actions]
            return
        state.passes += 1
        if state.passes >= n or _out_of_cards(state):
            _end_game(state)
            return
        state.turn_index = (state.turn_index + 1) % n


def _end_turn(state: State) -> None:
    if _out_of_cards(state):
        _end_game(state)
        return
    state.turn_index = (state.turn_index + 1) % state.players
    _start_turn(state)


def _offer_targets(state: State) -> bool:
    """Offer the attackable locations not yet chosen (and "resolve" after the first); False if none."""
    p, chosen = state.current, state.chosen
    options, labels = [], []
    for q in range(state.players):
        if q != p:
            wonder, wall = state.wonder[q], state.wall[q]
            for i in range(5):
                if (wonder[i] >= 0 or wall[i]) and (q, i) not in chosen:
                    options.append((q, i))
                    labels.append(f"p{q + 1}s{i + 1}")
    if not options:
        return False
    if chosen:
        options.append(RESOLVE)
        labels.append("resolve")
    state.phase = ATTACK_TARGET
    state.options = options
    state.labels = labels
    return True


def _offer_hand(state: State, phase: int) -> None:
    hand = state.hand[state.current]
    state.phase = phase
    state.options = list(hand)
    state.labels = [SHORT[c % 52] for c in hand]


def _offer_uncovered(state: State, d: int) -> bool:
    """Offer the defender's uncovered Wonder cards for a successful attack; False if none."""
    wonder = state.wonder[d]
    options = [i for i in range(15) if wonder[i] >= 0 and all(wonder[j] < 0 for j in ABOVE[i])]
    if not options:
        return False
    state.phase = DISCARD
    state.options = options
    state.labels = [SLOT_LABELS[i] for i in options]
    return True


def _resolve_attack(state: State) -> None:
    """Resolve the declared locations in order from `resolving`; stop at a success to choose its discard."""
    p = state.current
    chosen, cards = state.chosen, state.cards
    while state.resolving < len(chosen):
        d, i = chosen[state.resolving]
        c = cards[state.resolving]
        stack = state.wall[d][i]
        success = False
        if stack:
            top = stack[-1]
            if top % 13 < c % 13:
                stack.pop()
                state.discard[d].append(top)
                success = not stack
        elif state.wonder[d][i] >= 0:
            success = True
        if success and _offer_uncovered(state, d):
            return  # the attacker's card is discarded once the Wonder card is chosen
        state.discard[p].append(c)
        state.resolving += 1
    # Attrition: this attack made it impossible for every other player to complete a Wonder.
    others = [q for q in range(state.players) if q != p]
    if state.others_could and not state.attrition_achieved[p] and not any(_can_complete(state, q) for q in others):
        state.attrition_achieved[p] = True
    _end_turn(state)


def legal_moves(state: State) -> list[str]:
    """Labels of the pending decision's options; [] iff the game is over."""
    return list(state.labels)


def apply(state: State, move: str) -> State:
    """Apply one decision, then run the game on to the next decision."""
    try:
        value = state.options[state.labels.index(move)]
    except ValueError:
        raise ValueError(f"illegal move {move!r}") from None
    p = state.current
    phase = state.phase
    if phase == ACTION:
        if value == BUILD:
            min_value = _min_open_value(state.wonder[p])
            hand = [c for c in state.hand[p] if c % 13 + 2 >= min_value]
            state.phase = BUILD_CARD
            state.options = hand
            state.labels = [SHORT[c % 52] for c in hand]
        elif value == FORTIFY:
            _offer_hand(state, WALL_CARD)
        elif value == ATTACK:
            state.others_could = any(_can_complete(state, q) for q in range(state.players) if q != p)
            state.chosen = []
            state.cards = []
            _offer_targets(state)
        else:
            state.hand[p].append(state.draw_pile[p].pop(0))
            _end_turn(state)
    elif phase == BUILD_CARD:
        state.card = value
        v = value % 13 + 2
        wonder = state.wonder[p]
        slots = [
            i
            for i in range(15)
            if wonder[i] < 0
            and MIN_VALUE[i] <= v
            and (BELOW[i] is None or (wonder[BELOW[i][0]] >= 0 and wonder[BELOW[i][1]] >= 0))
        ]
        state.phase = BUILD_SLOT
        state.options = slots
        state.labels = [SLOT_LABELS[i] for i in slots]
    elif phase == BUILD_SLOT:
        state.hand[p].remove(state.card)
        state.wonder[p][value] = state.card
        if value == TOP:
            _end_game(state)
        else:
            _end_turn(state)
    elif phase == WALL_CARD:
        state.card = value
        wonder, wall = state.wonder[p], state.wall[p]
        spots = [i for i in range(5) if wonder[i] >= 0 or wall[i]]
        state.phase = WALL_SLOT
        state.options = spots
        state.labels = [WALL_LABELS[i] for i in spots]
    elif phase == WALL_SLOT:
        state.hand[p].remove(state.card)
        state.wall[p][value].append(state.card)
        _end_turn(state)
    elif phase == ATTACK_TARGET:
        if value is RESOLVE:
            state.resolving = 0
            _resolve_attack(state)
        else:
            state.chosen.append(value)
            _offer_hand(state, ATTACK_CARD)
    elif phase == ATTACK_CARD:
        state.hand[p].remove(value)
        state.cards.append(value)
        if not state.hand[p] or not _offer_targets(state):
            state.resolving = 0
            _resolve_attack(state)
    elif phase == DISCARD:
        d = state.chosen[state.resolving][0]
        wonder = state.wonder[d]
        state.discard[d].append(wonder[value])
        wonder[value] = -1
        state.discard[p].append(state.cards[state.resolving])
        state.resolving += 1
        _resolve_attack(state)
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
