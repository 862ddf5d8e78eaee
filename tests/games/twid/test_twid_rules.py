"""The Wall is Down, what a seat sees of the core rules: the rules themselves are test blocks
beside the game (gamedefs/twid.test.game, run by tests/runtime/test_designer_tests.py). Left
here: what the test language cannot read, the prompt of the first decision, a secret header's
view for the other seat and the short narration (headlines) a scoring card leaves.
"""

from __future__ import annotations

from tests.twid_helpers import game, play, scenario


# ---- 2. Setup --------------------------------------------------------------------------------
def test_after_setup_west_is_asked_for_its_header_card():
    g = game()
    assert g.prompt(g.start(players=2, seed=3)) == "West: choose your header card"


# ---- 6.1 Header phase ------------------------------------------------------------------------
def test_header_choices_are_secret_until_all_are_revealed():
    hands = {
        "west": ["europe_scoring", "boris_yeltsin", "katrina", "g20", "empire_of_war", "oil_crisis", "immigrants"],
        "east": ["anti_globalization_movement", "black_monday", "congo_wars", "el_jefe", "maastrich_treaty"]
        + ["neocolonialism", "party_congress"],
    }
    g = game()
    s = g.start(players=2, seed=5, arrange=lambda st: g.with_var(st, "hand", hands))
    assert g.move_view(s, "header: Boris Yeltsin", "east") == "(secret choice)"
    s = play(g, s, "header: Boris Yeltsin")
    seen = g.observation(s, "east")
    assert seen["vars"]["header"]["west"] == {"hidden": 1}
    assert not any("Boris" in line for line in g.narrate(s, player="east"))


# ---- 6.2.2 Punctuation cards ---------------------------------------------------------------------
def test_a_scoring_card_leaves_one_key_event_with_each_net_change_and_the_vp():
    g, s = scenario(
        turns=["west"],
        hands={"west": ["europe_scoring", "boris_yeltsin"]},
        influence={"west": {"ukraine": 1, "balkan_states": 1, "france": 1}},
        vp={"east": 0},
        clear=True,
    )
    s = play(g, s, "play Europe", "score Europe")
    # West +9; East loses 1 below 0, and the point goes to West: West +10 in all, East
    # unchanged, so East is not named.
    short = ["Europe scored: West +10; VP now West 10, East 0", "West reaches 10 VP"]
    assert g.narrate(s, headlines=True)[-2:] == short
