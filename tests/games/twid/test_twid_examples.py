"""The worked new card and new variant for The Wall is Down (examples/twid_house_rules.game):
a designer's own card and house rule, text only, overlaid on the bundled game."""

from __future__ import annotations

import random
from functools import cache

from interpreter import load_game

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    r"test_the_new_card_joins_the_pre_9_11_deck_only_with_its_variant",
]

EXAMPLE = "examples/twid_house_rules.game"
WEST = ["boris_yeltsin", "katrina", "g20", "empire_of_war", "oil_crisis", "immigrants"]
EAST = ["anti_globalization_movement", "black_monday", "congo_wars", "el_jefe", "maastrich_treaty", "neocolonialism"]


@cache
def house(*variants: str):
    return load_game(EXAMPLE, variants=list(variants))


def test_the_new_card_joins_the_pre_9_11_deck_only_with_its_variant():
    g = house("velvet_revolution")
    s = g.start(players=2, seed=1)
    dealt = set(g.var(s, "deck")) | {c for h in g.var(s, "hand").values() for c in h}
    assert "velvet_revolution" in dealt and len(dealt) == 47
    plain = house()
    s = plain.start(players=2, seed=1)
    assert "velvet_revolution" not in plain.compiled.types["TwidCard"]


def test_velvet_revolution_as_a_header_clears_russia_from_czechoslovakia_and_gives_west_the_edge_and_a_vp():
    g = house("velvet_revolution")

    def arrange(s):
        s = g.with_var(s, "hand", {"west": ["velvet_revolution", *WEST], "east": ["europe_scoring", *EAST]})
        return g.with_var(s, "influence", {"east": {"czech_republic_slovakia": 2}})

    s = g.start(players=2, seed=1, arrange=arrange)
    s = g.apply(s, "header: Velvet Revolution")
    s = g.apply(s, "header: Europe")
    lines = g.narrate(s)
    i = lines.index("East loses 2 influence in Czech Republic-Slovakia (now 0)")
    assert lines[i + 1 : i + 4] == [
        "West adds 1 influence in Czech Republic-Slovakia (now 1)",
        "West gains the edge in Czech Republic-Slovakia",
        "West gains 1 VP (now 1)",
    ]
    assert g.var(s, "removed") == ("velvet_revolution",)  # marked *: removed once its text resolved


def test_the_quick_game_is_won_at_seven_vp():
    hands = {"west": ["europe_scoring", *WEST], "east": ["boris_yeltsin", *EAST]}
    for variants, over in (((), False), (("quick_game",), True)):
        g = house(*variants)

        def arrange(s, g=g):
            return g.with_var(g.with_var(s, "hand", hands), "vp", {"west": 6})

        s = g.start(players=2, seed=1, arrange=arrange)
        s = g.apply(s, "header: Europe")
        s = g.apply(s, "header: Boris Yeltsin")
        # West scores Europe as header: presence 2 (six countries, none conflictive): 8 VP.
        assert g.var(s, "vp")["west"] == 8
        assert g.is_over(s) is over


def test_the_quick_game_ends_after_round_six():
    g = house("quick_game")
    rounds = set()
    for seed in range(1, 4):
        rnd = random.Random(seed)
        s = g.start(players=4, seed=seed)
        while not g.is_over(s):
            s = g.apply_index(s, rnd.randrange(len(g.legal_moves(s))))
        rounds.add(g.var(s, "round"))
    assert max(rounds) <= 6
