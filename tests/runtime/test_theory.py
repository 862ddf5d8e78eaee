"""What search agents and game-theory tools ask of a game (interpreter/runtime/theory.py,
interpreter/runtime/chance.py, the IS-MCTS agent): returns and payoffs, chance mode, stable action
numbers, information states, resampling, and an IS-MCTS agent that never reads what its
seat cannot see. Every bundled game is played through chance mode and the action numbers."""

from __future__ import annotations

import math
import random
from functools import cache

import pytest

from interpreter import bundled_games, load_game
from interpreter.play.mcts import ISMCTSAgent
from interpreter.runtime.chance import CHANCE

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # Whole games by the IS-MCTS agent: the first case of each game stays.
    r"test_whole_games_of_walls_and_wonders_with_ismcts\[3\]",
    r"test_whole_games_of_berlin_wall_with_ismcts\[2\]",
    r"test_whole_games_of_downfall_of_empires_with_ismcts_given_the_record\[4-russian\]",
    # Chance mode through the two longest games (the five others stay).
    r"test_every_bundled_game_plays_through_chance_mode_and_stable_action_numbers\[(twid|downfall_of_empires)\]",
    # IS-MCTS playing many hands or searching Downfall of Empires' secret research; its
    # decisions' independence of what it cannot see stays, for cards and face-down pieces.
    r"test_ismcts_wins_chips_from_a_random_kuhn_player",
    r"test_ismcts_chooses_the_same_whatever_the_others_researched_in_secret",
]

GAMES = ["tictactoe", "kuhn_poker", "berlin_wall", "walls_and_wonders", "missiles_now", "twid", "downfall_of_empires"]


@cache
def chance_game(name):
    return load_game(name, chance=True)


@cache
def plain(name):
    return load_game(name)


def play(g, s, *labels):
    for label in labels:
        s = g.apply(s, label)
    return s


# ---- returns --------------------------------------------------------------------------------------
def test_the_default_returns_split_plus_one_among_winners_and_minus_one_among_losers():
    g = plain("twid")
    s = g.start(players=4, seed=1)
    assert g.returns(s) == {"us": 0.0, "eu": 0.0, "russia": 0.0, "china": 0.0}  # not over
    one = g.returns(s._replace(result=("china",)))
    assert one["china"] == 1.0 and math.isclose(one["us"], -1 / 3) and math.isclose(sum(one.values()), 0.0)
    assert g.returns(s._replace(result=("us", "eu"))) == {"us": 0.5, "eu": 0.5, "russia": -0.5, "china": -0.5}
    assert set(g.returns(s._replace(result=())).values()) == {0.0}  # nobody won
    assert g.utility_bounds() == (-1.0, 1.0) and g.metadata().zero_sum


def test_kuhn_poker_declares_its_payoff_the_chips_won():
    g = chance_game("kuhn_poker")
    s = play(g, g.start(), "draw Jack", "draw Queen")  # p1 holds the Jack, p2 the Queen
    assert g.current_player(s) == "p1" and g.labels(s) == ["check", "bet"]
    s = play(g, s, "bet", "call")
    assert g.result(s) == ("p2",) and g.returns(s) == {"p1": -2.0, "p2": 2.0}
    s = play(g, g.start(), "draw King", "draw Queen", "check", "bet", "fold")
    assert g.returns(s) == {"p1": -1.0, "p2": 1.0}
    m = g.metadata()
    assert g.utility_bounds() == (-2.0, 2.0) and m.zero_sum and m.chance and not m.perfect_information
    assert not m.simultaneous and (m.min_players, m.max_players) == (2, 2)


def test_a_payoff_with_bounds_the_wrong_way_round_is_refused(tmp_path):
    from interpreter import GameDefError

    path = tmp_path / "bad.game"
    path.write_text(
        'game bad "Bad" { players 2..2 }\npayoff p from 3 to -1: 0\n'
        'procedure play() {\n    rule "Play"\n    game over []\n}\n',
        encoding="utf-8",
    )
    with pytest.raises(GameDefError, match="a payoff from 3 to -1 is empty"):
        load_game(path)


RACE_WITH_ESTIMATE = """
game race "An estimate" {
    players 2..2
    seats [north, south]
}
var steps: player -> int = 0
payoff p from -1 to 1 sum 0: (if steps[p] >= 10 then 1 else -1)
estimate p from -3 to 3: steps[p] - steps[first([q for q in players if q != p])]
procedure play() {
    rule "Race: in turn each moves 1 or 2 steps; the first to reach 10 wins"
    while true {
        for p in players {
            choose n from [1, 2] by p prompt "how many steps?" label "{n}"
            steps[p] += n
            if steps[p] >= 10 {
                win p
            }
        }
    }
}
"""


def test_the_estimate_of_a_position_is_read_through_the_game_clamped_into_its_bounds(tmp_path):
    """docs/language.md §3.20: `estimate p from LO to HI: EXPR` is each seat's value of a
    position in play, taken as the nearest bound outside them; `game.estimate` reads it."""
    path = tmp_path / "race.game"
    path.write_text(RACE_WITH_ESTIMATE)
    game = load_game(path)
    state = game.start(players=2, seed=1)
    assert game.estimate_bounds() == (-3.0, 3.0)
    assert game.estimates(state) == {"north": 0.0, "south": 0.0}
    state = game.with_var(state, "steps", {"north": 2, "south": 7})
    assert game.estimate(state, "north") == -3.0  # 2 - 7 = -5, clamped to the low bound
    assert game.estimate(state, "south") == 3.0
    state = game.with_var(state, "steps", {"north": 5, "south": 4})
    assert game.estimates(state) == {"north": 1.0, "south": -1.0}
    assert load_game("tictactoe").estimate(load_game("tictactoe").start(players=2, seed=1), "x") is None


def test_metadata_tells_perfect_information_and_secret_choices_apart():
    ttt, twid = plain("tictactoe").metadata(), plain("twid").metadata()
    assert ttt.perfect_information and not ttt.chance and not ttt.simultaneous
    assert not twid.perfect_information and twid.simultaneous and twid.chance


# ---- chance mode ----------------------------------------------------------------------------------
def test_a_shuffle_is_one_draw_per_card_with_its_probability():
    g = chance_game("kuhn_poker")
    s = g.start()
    assert g.current_player(s) == CHANCE and g.prompt(s) == "chance: the next card of a shuffle"
    first = g.chance_outcomes(s)
    assert [(m.label, p) for m, p in first] == [("draw Jack", 1 / 3), ("draw Queen", 1 / 3), ("draw King", 1 / 3)]
    s = play(g, s, "draw King")
    assert [(m.label, p) for m, p in g.chance_outcomes(s)] == [("draw Jack", 0.5), ("draw Queen", 0.5)]
    s = play(g, s, "draw Jack")  # the last card is what is left: no third draw
    assert g.current_player(s) == "p1"
    assert g.var(s, "hand") == {"p1": ("K",), "p2": ("J",)} and g.var(s, "deck") == ("Q",)


def test_a_roll_is_a_chance_decision_and_a_die_with_a_repeated_face_weighs_it(tmp_path):
    path = tmp_path / "dice.game"
    path.write_text(
        'game dice "Dice" { players 1..1 seats [p1] }\nvar got: int = 0\n'
        'procedure play() {\n    rule "Roll"\n    roll d from [1, 2, 2]\n    got = d\n'
        "    choose x from [d, d + 1] by p1\n    game over []\n}\n",
        encoding="utf-8",
    )
    g = load_game(path, chance=True)
    s = g.start()
    assert [(m.label, p) for m, p in g.chance_outcomes(s)] == [("roll 1", 1 / 3), ("roll 2", 2 / 3)]
    s = play(g, s, "roll 2")
    assert g.var(s, "got") == 2 and g.labels(s) == ["2", "3"]
    assert g.is_over(play(g, s, "3"))


def test_chance_mode_refuses_what_only_a_plain_game_does():
    """Chance mode draws every random result itself and plays the game's own `play()`:
    pins, an arranged position and another main procedure (a designer's test's) are
    refused with a message, not run with the draws in the wrong hands."""
    from interpreter.core.errors import UsageError

    g = chance_game("kuhn_poker")
    with pytest.raises(UsageError, match="no pins, no arrange"):
        g.start(pins=(1,))
    with pytest.raises(UsageError, match=r"plays the game's own play\(\), not deal\(\)"):
        g.start(main="deal")
    assert g.start().pending is not None


@pytest.mark.parametrize("name", GAMES)
def test_every_bundled_game_plays_through_chance_mode_and_stable_action_numbers(name):
    """Random games (capped) in chance mode: every draw's probabilities sum to 1, every
    decision's action numbers are distinct, inside the space, and name their options back."""
    g = chance_game(name)
    actions = g.action_space()
    rng = random.Random(3)
    s = g.start()
    draws = 0
    for _ in range(400):
        if g.is_over(s):
            break
        ids = actions.ids(s)
        assert len(set(ids)) == len(ids) and all(0 <= a < actions.size for a in ids)
        i = rng.randrange(len(ids))
        assert actions.index(s, ids[i]) == i
        if g.current_player(s) == CHANCE:
            draws += 1
            assert math.isclose(sum(p for _, p in g.chance_outcomes(s)), 1.0)
        s = g.apply_index(s, i)
    assert (draws > 0) == g.metadata().chance


def test_an_action_number_is_the_same_move_in_every_position():
    g = plain("tictactoe")
    actions = g.action_space()
    s = g.start()
    a1 = actions.ids(s)[g.labels(s).index("a1")]
    later = play(g, s, "b2", "c3")
    assert actions.ids(later)[g.labels(later).index("a1")] == a1
    assert g.action_space() is actions  # made once


# ---- information states ---------------------------------------------------------------------------
def test_an_information_state_holds_what_the_seat_saw_and_nothing_else():
    g = chance_game("kuhn_poker")
    jq = play(g, g.start(), "draw Jack", "draw Queen")
    jk = play(g, g.start(), "draw Jack", "draw King")
    assert g.information_state(jq, "p1") == g.information_state(jk, "p1")  # p2's card unseen
    assert g.information_state(jq, "p2") != g.information_state(jk, "p2")
    bet = play(g, jq, "bet")
    assert g.information_state(bet, "p2") != g.information_state(jq, "p2")  # the bet is recalled
    assert "p1: bet" in g.information_state(bet, "p2")
    with pytest.raises(Exception, match="chance=True"):
        plain("kuhn_poker").information_state(plain("kuhn_poker").start(), "p1")


def test_a_secret_choice_is_recalled_by_its_chooser_only():
    g = chance_game("twid")
    s = g.start(players=2)
    while g.current_player(s) == CHANCE:
        s = g.apply_index(s, 0)
    chooser = g.current_player(s)
    label = g.labels(s)[0]
    after = g.apply_index(s, 0)
    other = next(p for p in after.players if p != chooser)
    assert f"{chooser}: {label}" in g.information_state(after, chooser)
    assert f"{chooser}: (secret choice)" in g.information_state(after, other)


# ---- resampling and IS-MCTS -----------------------------------------------------------------------
def test_resample_deals_the_hidden_cards_again_and_keeps_the_seats_own():
    g = plain("kuhn_poker")
    s = g.start(seed=4)
    mine = g.var(s, "hand")["p1"]
    rng = random.Random(0)
    theirs = set()
    for _ in range(40):
        r = g.resample(s, "p1", rng)
        assert g.var(r, "hand")["p1"] == mine and r.rng != s.rng
        assert sorted(g.var(r, "hand")["p2"] + g.var(r, "deck")) == sorted(g.var(s, "hand")["p2"] + g.var(s, "deck"))
        theirs.add(g.var(r, "hand")["p2"])
    assert len(theirs) == 2  # either hidden card may be the opponent's


def _swap_hidden_kuhn(g, s):
    """The same position for p2, p1's card and the deck's exchanged."""
    return g.with_var(g.with_var(s, "hand", {"p1": g.var(s, "deck")}), "deck", g.var(s, "hand")["p1"])


def test_ismcts_chooses_the_same_whatever_the_hidden_parts_hold():
    g = plain("kuhn_poker")
    for seed in range(6):
        s = play(g, g.start(seed=seed), "bet")  # p2 faces a bet
        other = _swap_hidden_kuhn(g, s)
        assert g.var(other, "hand")["p1"] != g.var(s, "hand")["p1"]
        assert ISMCTSAgent(60, seed=1).choose(g, s) == ISMCTSAgent(60, seed=1).choose(g, other)
    t = plain("twid")
    s = t.start(players=2, seed=2)
    hands, deck = t.var(s, "hand"), t.var(s, "deck")
    east = hands["east"]
    swapped = t.with_var(t.with_var(s, "hand", {"east": deck[: len(east)]}), "deck", east + deck[len(east) :])
    seat = s.pending.player
    assert seat == "west"
    assert ISMCTSAgent(20, seed=3).choose(t, s) == ISMCTSAgent(20, seed=3).choose(t, swapped)


def test_ismcts_wins_chips_from_a_random_kuhn_player():
    """IS-MCTS (100 iterations) against uniform random, 300 hands a side: its mean chips per
    hand has a 95% interval above 0."""
    g = plain("kuhn_poker")
    chips = []
    for seat in ("p1", "p2"):
        agent, rng = ISMCTSAgent(100, seed=7), random.Random(11)
        for hand in range(300):
            s = g.start(seed=hand)
            while not g.is_over(s):
                mine = s.pending.player == seat
                s = g.apply_index(s, agent.choose(g, s) if mine else rng.randrange(len(s.pending.values)))
            chips.append(g.returns(s)[seat])
    mean = sum(chips) / len(chips)
    sd = math.sqrt(sum((c - mean) ** 2 for c in chips) / (len(chips) - 1))
    assert mean - 1.96 * sd / math.sqrt(len(chips)) > 0, mean


def test_every_bundled_game_is_listed_here():
    assert set(GAMES) <= set(bundled_games())


# ---- resampling face-down components and hidden numbers ---------------------------------------------
def _position(g, players, seed, moves):
    """A position of a random game (in chance mode the draws at random too) after at least
    `moves` moves of the seats, waiting for a seat's decision between several options."""
    rng = random.Random(seed)
    s = g.start(players=players, seed=seed)
    n = 0
    while n < moves or g.current_player(s) == CHANCE or len(g.labels(s)) < 2:
        n += g.current_player(s) != CHANCE
        s = g.apply_index(s, rng.randrange(len(s.pending.values)))
    assert not g.is_over(s)
    return s


def _play_on(g, s, seed):
    """Random moves from `s` to the end of the game: the rules never fail on the position."""
    rng = random.Random(seed)
    while not g.is_over(s):
        s = g.apply_index(s, rng.randrange(len(s.pending.values)))
    return s


def test_resample_deals_berlin_walls_face_down_pieces_again_among_those_alike():
    """A face-down tile shows nothing, a face-down coin its suit and stack: the permutation
    keeps what each space shows, the seat's information state, and every face-up piece."""
    g = chance_game("berlin_wall")
    s = _position(g, 2, seed=5, moves=30)
    seat, fields = g.current_player(s), g.compiled.fields
    wall, up = g.var(s, "wall"), g.var(s, "face_up")
    down = [c for c, x in wall.items() if x is not None and not up[x]]
    assert any(up.values()) and len(down) > 20
    known = g.information_state(s, seat)
    rng, walls = random.Random(1), set()
    for k in range(10):
        r = g.resample(s, seat, rng)
        assert g.information_state(r, seat) == known
        again, r_up = g.var(r, "wall"), g.var(r, "face_up")
        for c, x in wall.items():
            if x is None or up[x]:
                assert again[c] == x  # face up (or a gap): the same piece
            else:
                y = again[c]
                assert not r_up[y] and fields["kind"][y] == fields["kind"][x]
                if fields["kind"][x] == "coin":  # a coin's back shows its suit and stack
                    assert (fields["suit"][y], fields["stack"][y]) == (fields["suit"][x], fields["stack"][x])
        walls.add(tuple(again[c] for c in down))
        if k < 3:
            assert g.is_over(_play_on(plain("berlin_wall"), r, k))
    assert len(walls) == 10 and tuple(wall[c] for c in down) not in walls  # a fresh arrangement each time


def test_resample_deals_walls_and_wonders_cards_again_within_each_deck():
    """A card's back shows whose deck it is from: the others' hands, draw piles and face-down
    wall cards are dealt again within each deck; the seat's own cards and face-up ones stay."""
    g = chance_game("walls_and_wonders")
    s = _position(g, 3, seed=2, moves=60)
    seat, owner = g.current_player(s), g.compiled.fields["owner"]
    others = [p for p in s.players if p != seat]
    known = g.information_state(s, seat)
    rng, hands = random.Random(1), set()
    for k in range(10):
        r = g.resample(s, seat, rng)
        assert g.information_state(r, seat) == known
        assert g.var(r, "hand")[seat] == g.var(s, "hand")[seat]
        for name in ("hand", "draw_pile", "discard"):
            for p, cards in g.var(r, name).items():
                assert all(owner[c] == p for c in cards), (name, p)
        up = g.var(r, "face_up")
        for place, cards in g.var(r, "wall").items():
            before = g.var(s, "wall")[place]
            assert [owner[c] for c in cards] == [owner[c] for c in before]
            assert [c for c in cards if up[c]] == [c for c in before if up[c]]
        hands.add(tuple(g.var(r, "hand")[p] for p in others))
        if k < 3:
            assert g.is_over(_play_on(plain("walls_and_wonders"), r, k))
    assert len(hands) == 10 and tuple(g.var(s, "hand")[p] for p in others) not in hands


# With four players each Power has a seat of its own (the game's header comment, its `seat_of`).
SEAT_OF_4 = {"GE": "german", "FB": "franco_british", "RU": "russian", "AH": "austro_hungarian"}


def _boxes(g, s, power):
    """A Power's technology tiles by box, read from the entry of the seat playing it."""
    return {t: b for t, b in g.var(s, "tiles")[SEAT_OF_4[power]][power].items() if b}


def test_resample_replays_downfall_of_empires_with_the_others_secret_research_redrawn():
    """The hidden boxes are redrawn by replaying the record: every world shows the seat the
    same moves, lines and position, keeps its own boxes, and is a game the rules played
    (a tile shown to all is researched, a second level has its first: play goes on)."""
    g = chance_game("downfall_of_empires")
    s = _position(g, 4, seed=3, moves=150)
    seat = g.current_player(s)
    mine = [w for w, q in SEAT_OF_4.items() if q == seat]
    theirs = [w for w, q in SEAT_OF_4.items() if q != seat]
    known = g.information_state(s, seat)
    truth = {w: _boxes(g, s, w) for w in theirs}
    rng, seen = random.Random(1), set()
    for k in range(12):
        r = plain("downfall_of_empires").resample(s, seat, rng)
        assert g.information_state(r, seat) == known
        assert all(_boxes(g, r, w) == _boxes(g, s, w) for w in mine)
        boxes = {w: _boxes(g, r, w) for w in theirs}
        seen.add(repr(boxes))
        shown = g.var(r, "shown")
        for w in theirs:
            assert all(boxes[w].get(t) == 2 for t, on in shown[w].items() if on), w
            for higher, lower in (("attack_2", "attack_1"), ("defense_2", "defense_1"), ("attack_3", "attack_2")):
                assert boxes[w].get(higher, 0) == 0 or boxes[w].get(lower) == 2
        if k < 2:
            assert g.is_over(_play_on(plain("downfall_of_empires"), r, k))
    assert len(seen) > 2 and any(repr(truth) != b for b in seen)


def _swap(g, s, name, a, b):
    """`s` with the components `a` and `b` exchanged in the variable `name` (a map of lists
    or of single components)."""

    def swapped(value):
        if isinstance(value, tuple):
            return tuple(swapped(v) for v in value)
        return b if value == a else a if value == b else value

    return g.with_var(s, name, {k: swapped(v) for k, v in g.var(s, name).items()})


def test_ismcts_chooses_the_same_whatever_berlin_walls_face_down_pieces_are():
    g = plain("berlin_wall")
    s = _position(g, 2, seed=4, moves=24)
    wall, up, kind = g.var(s, "wall"), g.var(s, "face_up"), g.compiled.fields["kind"]
    tiles = [x for x in wall.values() if x is not None and not up[x] and kind[x] == "tile"]
    other = _swap(g, s, "wall", tiles[0], tiles[-1])
    seat = g.current_player(s)
    assert g.var(other, "wall") != wall and g.observation(other, seat) == g.observation(s, seat)
    a, b = ISMCTSAgent(40, seed=3), ISMCTSAgent(40, seed=3)
    assert a.choose(g, s) == b.choose(g, other) and a.last_root == b.last_root


def test_ismcts_chooses_the_same_whatever_the_others_face_down_cards_are():
    """Walls and Wonders: another player's card on its wall face down and one in its hand
    exchanged: the same search, move by move."""
    g = plain("walls_and_wonders")
    for seed in range(40):
        s = _position(g, 2, seed=seed, moves=30)
        seat = g.current_player(s)
        rival = next(p for p in s.players if p != seat)
        up = g.var(s, "face_up")
        walled = [c for place, cards in g.var(s, "wall").items() if place.startswith(rival) for c in cards if not up[c]]
        if walled and g.var(s, "hand")[rival]:
            break
    hand = g.var(s, "hand")[rival]
    other = _swap(g, _swap(g, s, "wall", walled[0], hand[0]), "hand", walled[0], hand[0])
    assert g.var(other, "hand")[rival] != hand and g.observation(other, seat) == g.observation(s, seat)
    a, b = ISMCTSAgent(40, seed=3), ISMCTSAgent(40, seed=3)
    assert a.choose(g, s) == b.choose(g, other) and a.last_root == b.last_root


def test_ismcts_chooses_the_same_whatever_the_others_researched_in_secret():
    """Downfall of Empires in chance mode: two records alike for Germany but for the tile
    the Franco-British started researching in secret. The search (of the ordinary game, given the
    position with its record) is the same."""
    g = chance_game("downfall_of_empires")

    def record(last):
        """Every move the first option, but the Franco-British starting tiles the last ones with `last`."""
        s, picks = g.start(players=4), 0
        while g.current_player(s) != "german" or len(g.labels(s)) < 2 or picks < 3:
            labels, i = g.labels(s), 0
            if g.current_player(s) == "franco_british" and labels[0].startswith("start researching"):
                i, picks = len(labels) - 1 if last else 0, picks + 1
            s = g.apply_index(s, i)
        return s

    s, other = record(False), record(True)
    assert _boxes(g, s, "FB") != _boxes(g, other, "FB")
    assert g.information_state(s, "german") == g.information_state(other, "german")
    a, b = ISMCTSAgent(8, seed=2), ISMCTSAgent(8, seed=2)
    doe = plain("downfall_of_empires")
    assert a.choose(doe, s) == b.choose(doe, other) and a.last_root == b.last_root


@pytest.mark.parametrize("players", [2, 3])
def test_whole_games_of_walls_and_wonders_with_ismcts(players, capsys):
    from interpreter.cli.commands import main

    assert main(["run", "walls_and_wonders", "--players", str(players), "--agent", "p1=ismcts:5", "--seed", "1"]) == 0
    assert "game over after" in capsys.readouterr().out


def _whole_game(g, players: int, search: str, agent, seed: int, game=None):
    """A whole game, the seat `search` choosing by `agent` (given `game`: the ordinary
    game), every other seat and every draw at random."""
    rng, s = random.Random(seed), g.start(players=players, seed=seed)
    while not g.is_over(s):
        mine = g.current_player(s) == search
        s = g.apply_index(s, agent.choose(game or g, s) if mine else rng.randrange(len(s.pending.values)))
    return s


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_of_berlin_wall_with_ismcts(seed):
    """Short playouts (20 moves, then a draw for all) keep a whole game quick: every search
    iteration still redraws the face-down pieces and plays on from them."""
    g = plain("berlin_wall")
    s = _whole_game(g, 2, "red", ISMCTSAgent(5, seed=seed, max_rollout=20), seed)
    assert g.result(s) and max(len(c) for c in g.var(s, "collected").values()) >= 12


@pytest.mark.slow  # whole games: `pytest -m slow`
@pytest.mark.parametrize("players, search", [(2, "entente"), (4, "russian")])
def test_whole_games_of_downfall_of_empires_with_ismcts_given_the_record(players, search):
    """Chance mode keeps the record; the search plays the ordinary game from its positions,
    each iteration in a world replayed from the record (short playouts keep it quick)."""
    from interpreter.runtime import resample

    g, fallbacks = chance_game("downfall_of_empires"), resample.stats["fallbacks"]
    agent = ISMCTSAgent(5, seed=1, max_rollout=5)
    s = _whole_game(g, players, search, agent, 1, plain("downfall_of_empires"))
    assert g.result(s) is not None and resample.stats["fallbacks"] == fallbacks  # every world replayed


def test_ismcts_refuses_a_game_whose_hidden_parts_it_cannot_redraw(capsys):
    """Face-down components are always redrawn; hidden numbers (Downfall of Empires' secret
    research) only from the record of the moves, which ordinary play does not keep."""
    from interpreter.cli.commands import main
    from interpreter.core.errors import UsageError
    from interpreter.runtime.resample import unresampled

    for name in ("kuhn_poker", "twid", "berlin_wall", "walls_and_wonders"):
        assert unresampled(plain(name)) == [], name
    doe = plain("downfall_of_empires")
    assert unresampled(doe) == ["tiles", "tile_ready"] == unresampled(doe, doe.start())
    assert unresampled(doe, chance_game("downfall_of_empires").start()) == []
    assert unresampled(chance_game("downfall_of_empires")) == []  # a game loaded in chance mode keeps the record
    # the command line plays such a game in chance mode instead (test_ismcts_on_the_command_line_...)
    assert main(["run", "downfall_of_empires", "--agent", "german=ismcts:5", "--die", "3"]) == 2
    err = capsys.readouterr().err
    assert "--die cannot be used with ismcts in Downfall of Empires" in err and "chance mode" in err
    with pytest.raises(UsageError, match="tiles, tile_ready"):
        ISMCTSAgent(5).choose(doe, doe.start())
    with pytest.raises(UsageError, match="no record") as caught:
        doe.resample(doe.start(), "russian", random.Random(0))
    assert "chance=True" in caught.value.hint


SECRET_BID = """
game secret_bid "Secret bid" {
    players 2..2
    seats [p1, p2]
}
var bid: player -> int = 0 seen by owner
var total: player -> int = 0
procedure play() {
    rule "Secret bid: each player bids 1 to 3 in secret, adds a die, and the higher total wins"
    interpretation "a tie is won by nobody"
    for p in players {
        choose b from [1, 2, 3] by p prompt "your bid" label "bid {b}" secret
        bid[p] = b
    }
    for p in players {
        roll d from 1..6
        total[p] = bid[p] + d
        log "{p} bids {bid[p]} and rolls {d}: {total[p]}"
    }
    let top = best(players, p => total[p])
    if count(top) == 1 {
        win first(top)
    } else {
        game over []
    }
}
"""


def test_ismcts_on_the_command_line_plays_a_game_with_hidden_numbers_in_chance_mode(tmp_path, capsys):
    """A secret number (a bid `seen by owner`) is redrawn only by replaying the record, which
    chance mode keeps: `run`, `play` and `simulate` with an ismcts agent load such a game in
    chance mode, the chance seat drawing every result from the seed. The transcript says so,
    holds the draws as `chance: ...` moves, and replays; the same seed gives the same game."""
    import tomllib

    from interpreter.cli.commands import main
    from interpreter.play.agents import needs_chance

    path = tmp_path / "secret_bid.game"
    path.write_text(SECRET_BID, encoding="utf-8")
    g = load_game(path)
    assert needs_chance(g, ["p1=ismcts:4"]) and not needs_chance(g, ["p1=random"])
    assert not needs_chance(plain("kuhn_poker"), ["p1=ismcts:4"])  # its hidden hands are components
    texts = []
    for run in (1, 2):
        out = tmp_path / f"t{run}.toml"
        args = ["run", str(path), "--agent", "p1=ismcts:4", "--seed", "5", "--moves", "--transcript", str(out)]
        assert main(args) == 0
        text = capsys.readouterr()
        assert "the game is played in chance mode" in text.err
        texts.append(out.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]  # reproducible from the seed
    t = tomllib.loads(texts[0])
    assert t["chance"] is True and t["agents"]["p1"] == "ismcts:4"
    assert [m for m in t["moves"] if m.startswith("chance: ")] and all(
        m.split(": ")[1].startswith(("bid ", "roll ")) for m in t["moves"]
    )
    assert main(["replay", str(tmp_path / "t1.toml")]) == 0
    assert "moves replayed" in capsys.readouterr().out
    # simulate: the chance seat draws, and is not a seat of the table
    assert main(["simulate", str(path), "--games", "4", "--agent", "p1=ismcts:3", "--jobs", "1", "--json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4 and CHANCE not in report["seats"]
    # a crafted transcript cannot mix chance mode with a start state or pinned dice
    bad = tmp_path / "bad.toml"
    bad.write_text("dice = [3]\n" + texts[0], encoding="utf-8")  # a top-level key, before the tables
    assert main(["replay", str(bad)]) == 2
    assert "a transcript played in chance mode (chance = true) cannot name dice" in capsys.readouterr().err
    # a plain run of the same game keeps ordinary play: no chance moves
    assert main(["run", str(path), "--seed", "5", "--transcript", str(tmp_path / "plain.toml")]) == 0
    assert "chance" not in (tmp_path / "plain.toml").read_text(encoding="utf-8")


def test_a_payoff_outside_its_bounds_is_a_rule_error(tmp_path):
    from interpreter import GameRuntimeError

    path = tmp_path / "wide.game"
    path.write_text(
        'game wide "Wide" { players 2..2 seats [p1, p2] }\npayoff p from -1 to 1: 5\n'
        'procedure play() {\n    rule "Play"\n    win [p1]\n}\n',
        encoding="utf-8",
    )
    g = load_game(path)
    with pytest.raises(GameRuntimeError, match="the payoff of p1 is 5, outside -1 to 1"):
        g.returns(g.start())


def test_worlds_redrawn_for_the_seat_to_move_play_on_where_the_rules_go():
    """docs/language.md §12.1: a position redrawn for the seat that decides keeps every option
    it is offered and every action it has half made, so random play goes on from it without
    a rule error: in Walls and Wonders, whose options (build or not, which card, which slot)
    follow from the hand redrawn for the other seat, at every fifth decision of 4 games."""
    g = plain("walls_and_wonders")
    tried = 0
    for seed in range(1, 5):
        s, rng = g.start(players=2, seed=seed), random.Random(seed)
        for step in range(300):
            if g.is_over(s):
                break
            if step % 5 == 0:
                mover = g.current_player(s)
                world = g.resample(s, mover, random.Random(step))
                assert g.labels(world) == g.labels(s)
                on, moves = world, random.Random(step)
                for _ in range(40):
                    if g.is_over(on):
                        break
                    on = g.apply_index(on, moves.randrange(len(on.pending.values)))
                tried += 1
            s = g.apply_index(s, rng.randrange(len(s.pending.values)))
    assert tried > 150
