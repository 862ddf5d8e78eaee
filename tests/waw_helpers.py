"""Helpers for Walls and Wonders scenario tests: name cards and slots, lay out a position.

Cards are written short, as on a table: "Qs" is the queen of spades, "10h" the ten of
hearts; `card("Qs", "p2")` is the component "queen of spades (p2)". Slots are named
"p1 level 1 slot 3". `lay_out` rearranges one player's 52 cards between their zones, so
the cards stay conserved, and is used through `Game.start(arrange=...)` so the first
decision is asked of the arranged position.
"""

from __future__ import annotations

from functools import cache

from interpreter import load_game

RANKS = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "10"}
RANKS |= {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
VALUES = {r: i + 2 for i, r in enumerate(RANKS)}
VARIANTS = ["suit_victory", "hidden_victory", "every_victory"]


@cache
def game(*variants: str, **options):
    """The loaded game (cached: a Game is never changed by playing it)."""
    return load_game("walls_and_wonders", variants=list(variants), options=options)


def card(short: str, owner: str) -> str:
    return f"{RANKS[short[:-1]]} of {SUITS[short[-1]]} ({owner})"


def deck(owner: str) -> list[str]:
    """A player's 52 cards, in the order the game generates them."""
    return [card(r + s, owner) for s in "cdhs" for r in RANKS]


def value(name: str) -> int:
    rank = name.split(" of ")[0]
    return next(VALUES[k] for k, v in RANKS.items() if v == rank)


def slot(owner: str, level: int, pos: int) -> str:
    return f"{owner} level {level} slot {pos}"


def lay_out(
    g,
    s,
    owner: str,
    *,
    hand=(),
    wonder=None,
    wall=None,
    discard=(),
    draw=(),
    revealed=(),
    rest: str = "draw",
):
    """The state with `owner`'s cards laid out as given (short names), the others in `rest`.

    `wonder` maps (level, pos) to a card, `wall` maps a base position to its stack (top
    last). Cards not named go to the end of the draw pile (`rest="draw"`) or to the discard
    pile (`rest="discard"`); a hidden victory card stays aside. Wonder and discarded cards
    are face up, the others face down unless listed in `revealed`.
    """
    wonder = wonder or {}
    wall = wall or {}
    named = lambda xs: [card(x, owner) for x in xs]
    placed = named(hand) + named(discard) + named(draw) + [card(c, owner) for c in wonder.values()]
    placed += [card(c, owner) for stack in wall.values() for c in stack]
    aside = set()
    if "victory_card" in g.compiled.vars:
        aside = {g.var(s, "victory_card")[owner]} - {None}
    assert len(placed) == len(set(placed)), "a card is placed twice"
    assert not (set(placed) & aside), "the hidden victory card stays aside"
    left = [c for c in deck(owner) if c not in placed and c not in aside]
    draw_pile, discard_pile = named(draw), named(discard)
    if rest == "draw":
        draw_pile += left
    else:
        discard_pile += left
    s = g.with_var(s, "hand", {owner: named(hand)})
    s = g.with_var(s, "draw_pile", {owner: draw_pile})
    s = g.with_var(s, "discard", {owner: discard_pile})
    s = g.with_var(
        s,
        "wonder",
        {slot(owner, lv, pos): card(wonder[(lv, pos)], owner) if (lv, pos) in wonder else None for lv, pos in SLOTS},
    )
    s = g.with_var(s, "wall", {slot(owner, 1, pos): [card(c, owner) for c in wall.get(pos, [])] for pos in range(1, 6)})
    up = set(discard_pile) | {card(c, owner) for c in wonder.values()} | set(named(revealed))
    return g.with_var(s, "face_up", {c: c in up for c in deck(owner)})


SLOTS = [(lv, pos) for lv in range(1, 6) for pos in range(1, 7 - lv)]


def start(g, players: int = 2, seed: int = 1, **layouts):
    """A game arranged before the first turn: `layouts` maps a seat to `lay_out` arguments.

    `first` (a seat) chooses the first player."""
    first = layouts.pop("first", None)

    def arrange(s):
        for owner, kw in layouts.items():
            s = lay_out(g, s, owner, **kw)
        if first is not None:
            s = g.with_var(s, "first_player", first)
        return s

    return g.start(players=players, seed=seed, arrange=arrange)


def cards_of(g, s, owner: str) -> list[str]:
    """Every card of `owner`'s deck, wherever it is (each once if conserved)."""
    out = list(g.var(s, "draw_pile")[owner]) + list(g.var(s, "hand")[owner]) + list(g.var(s, "discard")[owner])
    out += [c for k, c in g.var(s, "wonder").items() if c is not None and k.startswith(owner + " ")]
    out += [c for k, stack in g.var(s, "wall").items() if k.startswith(owner + " ") for c in stack]
    out += [c for c in g.var(s, "attackers") if c.endswith(f"({owner})")]
    if "victory_card" in g.compiled.vars and g.var(s, "victory_card")[owner] is not None:
        out.append(g.var(s, "victory_card")[owner])
    return out
