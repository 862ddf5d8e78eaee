"""Scenario helpers for the Downfall of Empires tests: a position arranged on the harness game
(tests/doe/harness.game, whose play() runs only the listed Powers' turns), then moves played by
label."""

from __future__ import annotations

from functools import cache

from repo_paths import TESTS

from interpreter import load_game

HARNESS = TESTS / "doe" / "harness.game"


@cache
def harness(options=()):
    return load_game(HARNESS, variants=["scenario"], options=dict(options))


def scenario(
    powers,
    *,
    at=None,
    control=None,
    trench=None,
    trench_owner=None,
    reduced=None,
    owner=None,
    tech=None,
    missions=None,
    turn=5,
    joined=None,
    dormant=None,
    pins=(),
    clear=True,
    players=4,
    options=(),
    **more,
):
    """(game, state) at the first decision of the listed Powers' turns. With clear=True the
    setup armies are taken off the map first, so only the armies named in `at` stand."""
    g = harness(tuple(sorted(options)))

    def arrange(s):
        if clear:
            s = g.with_var(s, "at", dict.fromkeys(g.compiled.types["Army"]))
        for name, value in (
            ("at", at),
            ("control", control),
            ("trench", trench),
            ("trench_owner", trench_owner),
            ("reduced", reduced),
            ("owner", owner),
            ("missions", missions),
            ("joined", joined),
            ("dormant", dormant),
        ):
            if value:
                s = g.with_var(s, name, value)
        if tech:
            boxes, ready = {}, {}
            for w, ts in tech.items():
                boxes.setdefault(SEATS[players][w], {})[w] = dict.fromkeys(ts, 2)
                ready.setdefault(SEATS[players][w], {})[w] = dict.fromkeys(ts, 1)
            s = g.with_var(s, "tiles", boxes)
            s = g.with_var(s, "tile_ready", ready)
            s = g.with_var(s, "laid", {w: len(ts) for w, ts in tech.items()})  # the tiles laid, seen on the table
        s = g.with_var(s, "turn", turn)
        for name, value in more.items():
            s = g.with_var(s, name, value)
        s = g.with_var(s, "script_powers", list(powers))
        return s

    return g, g.start(players=players, seed=0, pins=tuple(pins), arrange=arrange)


SEATS = {
    4: {"GE": "german", "FB": "franco_british", "RU": "russian", "AH": "austro_hungarian"},
    3: {"GE": "central", "FB": "franco_british", "RU": "russian", "AH": "central"},
    2: {"GE": "central", "FB": "entente", "RU": "entente", "AH": "central"},
}


def labels(g, s):
    return [m.label for m in g.legal_moves(s)]


def play(g, s, *moves):
    for label in moves:
        legal = labels(g, s)
        assert label in legal, f"{label!r} is not legal; legal: {legal}"
        s = g.apply(s, label)
    return s


def finish(g, s, choose=lambda legal: "end the turn" if "end the turn" in legal else legal[0]):
    """Play on to the end of the scripted turns, ending each turn as soon as possible."""
    for _ in range(200):
        if g.is_over(s):
            return s
        s = g.apply(s, choose(labels(g, s)))
    raise AssertionError("the scripted turns do not end")


def var(g, s, name):
    return g.var(s, name)
