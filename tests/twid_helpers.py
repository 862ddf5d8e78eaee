"""Helpers for The Wall is Down scenario tests: arrange a position, resolve a card's text.

`scenario()` starts the harness game (tests/twid/harness.game: the bundled game whose
play() resolves the listed texts and then the listed actions) from a position laid out
here: influence by side and country, VP, cards in play, hands. Influence not named keeps
its starting value unless `clear=True` empties the board first.
"""

from __future__ import annotations

from functools import cache

from repo_paths import TESTS

from interpreter import load_game

HARNESS = TESTS / "twid" / "harness.game"


@cache
def game(**options):
    """The bundled game (cached)."""
    return load_game("twid", options=options)


@cache
def harness(**options):
    return load_game(HARNESS, variants=["harness"], options=options)


def scenario(
    *,
    players: int = 2,
    texts: list[tuple[str, str]] | list[tuple[str, str, str, str]] = (),
    turns: list[str] = (),
    losses: list[tuple[str, int]] = (),
    influence: dict[str, dict[str, int]] | None = None,
    vp: dict[str, int] | None = None,
    in_play: list[str] = (),
    hands: dict[str, list[str]] | None = None,
    variables: dict | None = None,
    clear: bool = False,
    pins: tuple = (),
    seed: int = 0,
    **options,
):
    """(game, state) at the first decision of the scripted VP losses, texts and turns.

    A text is (side, card), resolved by that side as played for its text, or
    (side, card, played_by, how) with how one of ops_use, text_use, header_use."""
    g = harness(**options)
    texts = [t if len(t) == 4 else (t[0], t[1], t[0], "text_use") for t in texts]

    def arrange(s):
        sides = g.var(s, "influence").keys()
        if clear:
            s = g.with_var(s, "influence", {side: dict.fromkeys(g.compiled.types["Country"], 0) for side in sides})
        if influence:
            s = g.with_var(s, "influence", influence)
        if vp:
            s = g.with_var(s, "vp", vp)
        if in_play:
            s = g.with_var(s, "in_play", list(in_play))
        if hands:
            s = g.with_var(s, "hand", hands)
        s = g.with_var(s, "script_sides", [t[0] for t in texts])
        s = g.with_var(s, "script_cards", [t[1] for t in texts])
        s = g.with_var(s, "script_by", [t[2] for t in texts])
        s = g.with_var(s, "script_how", [t[3] for t in texts])
        s = g.with_var(s, "script_turns", list(turns))
        s = g.with_var(s, "script_losers", [side for side, _ in losses])
        s = g.with_var(s, "script_losses", [n for _, n in losses])
        order = list(g.seats_for(players)) if players > 1 else ["us", "eu", "russia", "china"]
        s = g.with_var(s, "ranking", order)
        for name, value in (variables or {}).items():
            s = g.with_var(s, name, value)
        return s

    return g, g.start(players=players, seed=seed, pins=tuple(pins), arrange=arrange)


def play(g, state, *labels: str):
    """Apply the moves with these labels, in order (each must be legal)."""
    for label in labels:
        legal = [m.label for m in g.legal_moves(state)]
        assert label in legal, f"{label!r} is not legal; legal: {legal}"
        state = g.apply(state, label)
    return state


def labels(g, state) -> list[str]:
    return [m.label for m in g.legal_moves(state)]


def inf(g, state, side: str, country: str) -> int:
    return g.var(state, "influence")[side][country]
