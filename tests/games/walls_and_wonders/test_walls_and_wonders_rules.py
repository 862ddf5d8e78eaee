"""Walls and Wonders: what Python still checks of the rules (rules/walls_and_wonders.md).

The rules themselves are tested in the game's own language, in
gamedefs/walls_and_wonders.test.game (run by tests/runtime/test_designer_tests.py). Left
here: the starting draw over many seeds (the test language starts one game per test), and
what each seat sees, in the view, the prompts and its observation (the test language reads
the position, the labels and the narration, not the view or the prompt).

Positions are laid out between setup and the first turn (`Game.start(arrange=...)`,
through `waw_helpers.start`).
"""

from __future__ import annotations

from waw_helpers import SUITS, card, game, slot, start, value

BUILD, WALL, DRAW = "place a card on your Wonder", "place a card on your wall", "draw a card"


def play(g, s, *labels):
    for label in labels:
        s = g.apply(s, label)
    return s


# ---- the game landscape and the start ------------------------------------------------------


def _strength(name: str) -> tuple[int, int]:
    """Rank first, then suit in the order spades > hearts > diamonds > clubs."""
    suit = name.split(" of ")[1].split(" ")[0]
    return value(name), list(SUITS.values()).index(suit)


def test_the_highest_starting_card_goes_first_ties_by_suit_and_equal_cards_draw_again():
    g = game()
    rank_ties = redraws = 0
    for seed in range(1, 120):
        s = g.start(players=4, seed=seed)
        turned = g.var(s, "discard")
        firsts = {p: turned[p][0] for p in s.players}
        values = [_strength(c)[0] for c in firsts.values()]
        top = max(values)
        if values.count(top) > 1:
            rank_ties += 1
        if any(len(turned[p]) > 1 for p in s.players):
            redraws += 1
            # only players whose first cards were equal and highest turned again
            again = {p for p in s.players if len(turned[p]) > 1}
            best = max(_strength(c) for c in firsts.values())
            assert again == {p for p in s.players if _strength(firsts[p]) == best}
            contenders = again
            k = 1
            while len(contenders) > 1:
                best = max(_strength(turned[p][k]) for p in contenders)
                contenders = {p for p in contenders if _strength(turned[p][k]) == best}
                k += 1
            assert g.var(s, "first_player") in contenders
        else:
            winner = max(s.players, key=lambda p: _strength(firsts[p]))
            assert g.var(s, "first_player") == winner
    assert rank_ties > 5 and redraws > 0  # the seeds cover both kinds of tie


# ---- what each seat is told of a wall card ---------------------------------------------------------


def test_a_wall_cards_choice_is_secret_and_only_its_owner_sees_its_face():
    """Placing a wall card: face down. The move is shown to the others as a secret choice,
    and a seat's observation shows the card to its owner only, to the others whose it is
    (that it goes face down, before a base card, is in walls_and_wonders.test.game)."""
    g = game()
    s = start(g, p1=dict(hand=["9s", "2c"], wonder={(1, 2): "10s"}), first="p1")
    s = play(g, s, WALL)
    assert g.move_view(s, g.legal_moves(s)[0], "p2") == "(secret choice)"
    s = play(g, s, "wall with the 9 of spades", "wall in front of slot 2 (0 cards)")
    assert g.observation(s, "p1")["vars"]["wall"][slot("p1", 1, 2)] == [card("9s", "p1")]
    assert g.observation(s, "p2")["vars"]["wall"][slot("p1", 1, 2)] == [{"of": "PlayingCard", "owner": "p1"}]


# ---- what the players see: discard piles, victory conditions, hidden victory cards ---------------


def _view(g, s, viewer):
    from interpreter.runtime.render import render

    return render(g, s, viewer).splitlines()


def test_discard_piles_are_face_up_and_shown_with_their_wonder_cards():
    """The Game Landscape / Starting the Game: the discard pile is face up (the starting cards
    are discarded face up); the military victory counts its 10, J, Q, K and A."""
    g = game(victory="military")
    s = start(g, p1=dict(hand=["2c"], discard=["Kh", "3d"]), p2=dict(discard=["5s"]), first="p1")
    lines = _view(g, s, "p2")
    at = lines.index("Discard piles (face up, top card last):")
    assert lines[at + 1 : at + 3] == [
        "    p1: KH, 3D (Wonder cards among them, 10 to A: 1)",
        "    p2: 5S (Wonder cards among them, 10 to A: 0)",
    ]
    # one condition agreed for all, no suit involved: the view names no suit
    assert "    p1: military" in lines and "Your victory condition: military" in lines


_TIERS = {1: ["10s", "10d", "10c", "Jd", "Jc"], 2: ["Js", "Qd", "Qc", "Kd"], 3: ["Qs", "Kc", "Ks"], 4: ["Ac", "As"]}
FULL_WONDER_BUT_TOP = {(lv, i + 1): c for lv in range(1, 5) for i, c in enumerate(_TIERS[lv])}


def test_hidden_victory_your_own_condition_is_in_your_view_only_and_every_card_is_revealed_at_the_end():
    """Winning the game: a second, hidden card determines each player's victory condition
    (interpretation: seen by its owner only, revealed to everyone at the end)."""
    g = game("hidden_victory")
    s = start(g, p1=dict(hand=["Ah"], wonder=FULL_WONDER_BUT_TOP), p2=dict(wonder={(1, 1): "10s"}), first="p1")
    suit_of = {"construction": "spades", "attrition": "hearts", "economic": "diamonds", "military": "clubs"}
    goals = {p: f"{goal} ({suit_of[goal]})" for p, goal in g.var(s, "goal").items()}
    cards = g.var(s, "victory_card")
    for viewer in ("p1", "p2"):
        lines = _view(g, s, viewer)
        assert [line for line in lines if line.startswith("Your victory")] == [
            f"Your victory condition: {goals[viewer]}"
        ]
        assert "    p1: a hidden victory card, revealed at the end" in lines
    spectator = _view(g, s, None)
    assert not any(line.startswith("Your victory condition") for line in spectator)
    s = play(g, s, BUILD, "build with the ace of hearts", "on level 5 slot 1")
    assert g.is_over(s)
    narration = g.narrate(s, None)
    spectator = _view(g, s, None)
    for p in ("p1", "p2"):
        name = cards[p].rsplit(" (", 1)[0]
        assert f"{p} reveals the hidden victory card: the {name}, {goals[p]}" in narration
        assert f"    {p}: {goals[p]}, by the {name}" in spectator
        assert g.var(s, "face_up")[cards[p]]


# ---- the Wonder drawn as a pyramid, hidden cards never shown as "none" ------------------------------


def _wonder_lines(lines, owner):
    """The five lines of `owner`'s Wonder in the view, level 5 first."""
    at = lines.index(f"  {owner}:", lines.index("Wonders (slot 1 on the left; each card rests on the two below it):"))
    return lines[at + 1 : at + 6]


def test_each_wonder_is_drawn_as_a_pyramid_each_card_centred_over_the_two_below_it():
    """Wonders: 'a pyramid of cards', each card above the base 'on top of two supporting cards
    from the previous level' (viewed edge on): each level is drawn centred over the one below,
    a card half over each of the two it rests on, not left-aligned in columns."""
    g = game()
    wonder = dict(FULL_WONDER_BUT_TOP)
    del wonder[(4, 1)], wonder[(3, 2)]
    s = start(g, p1=dict(hand=["Ah"], wonder=wonder), p2=dict(wonder={(1, 2): "10h", (1, 3): "Ad", (2, 2): "Kh"}))
    lines = _view(g, s, None)
    assert _wonder_lines(lines, "p1") == [
        "      level 5                 .",
        "      level 4              .    AS",
        "      level 3          QS     .    KS",
        "      level 2       JS    QD    QC    KD",
        "      level 1   10S   10D   10C    JD    JC",
    ]
    assert _wonder_lines(lines, "p2") == [
        "      level 5                 .",
        "      level 4              .     .",
        "      level 3           .     .     .",
        "      level 2        .    KH     .     .",
        "      level 1     .   10H    AD     .     .",
    ]
    # the geometry, whatever the cards: slot k of a level ends midway between the ends of
    # slots k and k + 1 below it (the cards it rests on)
    for owner in ("p1", "p2"):
        rows = _wonder_lines(lines, owner)
        ends = {}
        for level, line in zip(range(5, 0, -1), rows, strict=True):
            cells = line[len("      level 5") :]
            ends[level] = [
                i + 1 for i in range(len(cells)) if cells[i] != " " and (i + 1 == len(cells) or cells[i + 1] == " ")
            ]
            assert len(ends[level]) == 6 - level
        for level in range(2, 6):
            for k in range(6 - level):
                assert 2 * ends[level][k] == ends[level - 1][k] + ends[level - 1][k + 1], (owner, level, k)


def test_face_down_wall_cards_and_hidden_hands_are_shown_as_such_never_as_none():
    """Placing a wall card: face down; the hand and draw pile are hidden. A zone that holds
    hidden cards reads as its face-down cards or their number, never 'none'."""
    g = game()
    s = start(g, p1=dict(hand=["2c", "3c"], wonder={(1, 1): "10s"}, wall={1: ["9d", "4h"]}), first="p1")
    for viewer in (None, "p2"):
        lines = _view(g, s, viewer)
        assert "Walls (top card last):" in lines
        at = lines.index("Walls (top card last):")
        assert lines[at + 1 : at + 3] == ["  p1:", "      before base slot 1: ??, ??"]
        assert "    p1: 2 in hand, 47 to draw, 0 discarded" in lines
    own = _view(g, s, "p1")
    assert "      before base slot 1: 9D, 4H" in own
    assert "Your hand: 2C, 3C" in own


# ---- wording: counts, card names in choices, the victory conditions reported ----------------------


def test_counts_of_one_card_are_singular_in_prompts_labels_narration_and_view():
    g = game(victory="military")
    s = start(g, p1=dict(hand=["2c"], wonder={(1, 1): "10s"}, discard=["Kh"]), first="p1")
    assert g.prompt(s).startswith("p1: your action (1 card in hand,")
    s = play(g, s, WALL, "wall with the 2 of clubs")
    assert g.labels(s) == ["wall in front of slot 1 (0 cards)"]
    s = g.apply(s, "wall in front of slot 1 (0 cards)")
    assert "p1 adds a face-down card to the wall in front of slot 1 (1 card)" in g.narrate(s)
    lines = _view(g, s, "p2")
    assert any(line.startswith("    p1: ") and line.endswith("(Wonder cards among them, 10 to A: 1)") for line in lines)


def test_a_players_own_cards_are_named_without_their_owner_in_labels_and_prompts():
    """Each player has their own deck: a player's options are their own cards, so the move
    and its prompt name the card alone."""
    g = game()
    s = start(g, p1=dict(hand=["Js", "2c"]), first="p1")
    s = g.apply(s, BUILD)
    assert g.labels(s) == ["build with the jack of spades"]
    s = g.apply(s, "build with the jack of spades")
    assert g.prompt(s) == "where does the jack of spades go?"
    s = g.apply(s, "on level 1 slot 1")
    s = g.apply(s, DRAW)  # p2
    s = g.apply(s, WALL)
    assert g.labels(s) == ["wall with the 2 of clubs"]


def test_with_one_condition_for_all_only_that_condition_is_reported_and_no_suit_is_named():
    """Winning the game: players could agree beforehand what constitutes victory; only that
    condition decides, so the end reports no other (p2, with no 10 to A discarded, would meet military)."""
    g = game()
    s = start(
        g,
        p1=dict(hand=["Ah"], wonder=FULL_WONDER_BUT_TOP, discard=["Kh", "Qh"]),
        p2=dict(wonder={(1, 1): "10s"}, wall={1: ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]}),
        first="p1",
    )
    s = play(g, s, BUILD, "build with the ace of hearts", "on level 5 slot 1")
    log = g.narrate(s)
    assert "p1 meets the construction condition" in log
    assert not any(line.startswith("p2 meets") for line in log)
    assert g.result(s) == ("p1",)
    lines = _view(g, s, "p1")
    assert "    p1: construction" in lines and "Your victory condition: construction" in lines


def test_the_suit_variants_name_the_suit_beside_the_condition():
    g = game("suit_victory")
    s = start(g, p1=dict(hand=["2c"]), first="p1")
    goal = g.var(s, "goal")["p1"]
    suit = {"construction": "spades", "attrition": "hearts", "economic": "diamonds", "military": "clubs"}[goal]
    lines = _view(g, s, "p2")
    assert f"    p1: {goal} ({suit})" in lines
