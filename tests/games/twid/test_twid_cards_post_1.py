"""The Wall is Down, post-9/11 cards 47-67 (cards/twid/post_1.game): each test sets a
position, resolves the card as printed, and checks what the printed text says."""

from __future__ import annotations

from tests.twid_helpers import game, inf, labels, play, scenario

# ---- 63 FOIA -------------------------------------------------------------------------------------


def test_foia_the_open_hand_ends_with_the_round():
    g = game()

    def arrange(s):
        deck = list(g.var(s, "deck"))
        s = g.with_var(s, "hand", {"west": ["foia", *deck[:6]], "east": deck[6:13]})
        return g.with_var(s, "deck", deck[13:])

    s = g.start(players=2, seed=1, arrange=arrange)
    s = play(g, s, "header: FOIA")
    shown_during = None
    while g.var(s, "round") == 1 and not g.is_over(s):
        options = labels(g, s)
        hide = [m for m in options if m.startswith("keep ") and m.endswith(" hidden")]
        s = g.apply(s, hide[0] if hide else options[0])
        if hide:
            shown_during = g.var(s, "shown_hand")["west"]
            hand = g.var(s, "hand")["west"]
            assert len(shown_during) == len(hand) - 1 == 5 and set(shown_during) < set(hand)
    assert shown_during is not None  # FOIA resolved in round 1
    assert g.var(s, "round") == 2
    assert g.var(s, "shown_hand")["west"] == ()  # closed again when round 1 ended
    assert g.var(s, "foia_open_hands") == ()


# ---- 65 Globalization ----------------------------------------------------------------------------
def test_globalization_each_player_clockwise_from_the_active_one_then_one_more():
    g, s = scenario(players=4, clear=True, texts=[("russia", "globalization")])
    order = []
    for country in ["Japan", "Japan", "Brazil"]:
        order.append(g.current_player(s))
        s = play(g, s, f"influence in {country}")
    order.append(g.current_player(s))
    s = play(g, s, "no influence")
    assert order == ["russia", "china", "us", "eu"]
    assert g.current_player(s) == "russia" and "no additional influence" in labels(g, s)
    s = play(g, s, "additional influence in Japan")
    assert g.is_over(s)
    assert [inf(g, s, t, "japan") for t in ["russia", "china", "us", "eu"]] == [2, 1, 0, 0]
    assert inf(g, s, "us", "brazil") == 1
    assert "globalization" in g.var(s, "discard")


def test_globalization_three_and_two_players():
    g, s = scenario(players=3, clear=True, texts=[("china", "globalization")])
    seen = []
    while not g.is_over(s):
        seen.append(g.current_player(s))
        s = play(g, s, labels(g, s)[0])
    assert seen == ["china", "us", "russia", "china"]  # the static EU adds nothing
    g, s = scenario(clear=True, texts=[("east", "globalization")])
    s = play(g, s, "influence in Iran", "influence in Iran", "additional influence in Iraq")
    assert inf(g, s, "east", "iran") == 1 and inf(g, s, "west", "iran") == 1 and inf(g, s, "east", "iraq") == 1
