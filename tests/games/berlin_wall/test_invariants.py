"""Invariants over many random playouts (docs/architecture.md, principles 2-4).

For Berlin Wall's base game and each variant, with 2, 3 and 4 players (Wall of China
also with 5 players and 5 stacks): every playout ends with a proper winner; a legal
move exists until the game is over; pieces are conserved; replay, save/load and
determinism reproduce the same state; observations leak nothing face down. Also the
two examples, tic-tac-toe and Kuhn poker.
"""

from __future__ import annotations

import json
import random
import tomllib

import pytest
import tomli_w
from bw_helpers import VARIANTS, all_pieces, game
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import ROOT

from interpreter import Move, load_game
from interpreter.runtime.saving import state_from_dict, state_to_dict

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # The variants at 4 players (the base game at 2, 3 and 4 and every variant at 2 and 3 stay).
    r"\w+\[(?!base-)\w+-4p\]",
    r"\w+\[wall_of_china-5p-stacks5\]",
]

EXAMPLES = ROOT / "examples"


# (id, variants, options, players)
CONFIGS = [("base", (), {}, n) for n in (2, 3, 4)]
CONFIGS += [(v, (v,), {}, n) for v in VARIANTS for n in (2, 3, 4)]
CONFIGS += [("wall_of_china", ("wall_of_china",), {"stacks": 5}, 5)]
IDS = [f"{name}-{n}p" + ("-stacks5" if opts else "") for name, _, opts, n in CONFIGS]

TWO_PLAYER = [c for c in CONFIGS if c[3] == 2]
TWO_IDS = [f"{c[0]}-2p" for c in TWO_PLAYER]


def load(config):
    _, variants, options, _ = config
    return game(*variants, **options)


def stacks(config) -> int:
    return config[2].get("stacks", 4)


def playout(g, players: int, seed: int):
    """Yield every state of a random game (seed for both the deal and the choices)."""
    s = g.start(players=players, seed=seed)
    rng = random.Random(seed)
    yield s
    while not g.is_over(s):
        assert s.pending is not None and len(s.pending.values) > 0, "no legal move in a live game"
        assert s.pending.player in s.players
        s = g.apply_index(s, rng.randrange(len(s.pending.values)))
        yield s


_RECORDED: dict = {}


def recorded(config, seed: int = 1) -> list:
    """Every state of one random game of `config`, kept for the tests that look at the same game
    (a 4-player game is ~13,000 states, ~12 MB)."""
    key = (config[0], config[1], tuple(sorted(config[2].items())), config[3], seed)
    if key not in _RECORDED:
        _RECORDED[key] = list(playout(load(config), config[3], seed))
    return _RECORDED[key]


def pieces_on_wall(g, s) -> list[str]:
    return [p for p in g.var(s, "wall").values() if p is not None]


# ---- every playout ends, with the winner the rules say -------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_playout_ends_with_a_proper_winner(config):
    """Object: the first player to 12 pieces wins at once; else (interpretation) when nobody can
    reach 12 any more, the most pieces win. A legal move exists in every live state."""
    g = load(config)
    for seed in (1, 2):
        s = recorded(config, seed)[-1]
        assert g.is_over(s) and s.pending is None and g.legal_moves(s) == []
        winners = g.result(s)
        counts = {p: len(v) for p, v in g.var(s, "collected").items()}
        left = len(pieces_on_wall(g, s))
        if max(counts.values()) >= 12:
            assert len(winners) == 1 and counts[winners[0]] == 12, (seed, counts)
            assert sum(c == 12 for c in counts.values()) == 1
        else:
            assert all(c + left < 12 for c in counts.values()), (seed, counts, left)
            assert set(winners) == {p for p, c in counts.items() if c == max(counts.values())}


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_labels_are_unique_and_every_option_is_legal(config):
    """Principle 3 (docs/architecture.md): every decision is a move with a stable, unique label, and applying a
    label is the same as applying its index."""
    g = load(config)
    rng = random.Random(7)
    for n, s in enumerate(recorded(config)):
        if n % 50 or g.is_over(s):
            continue
        labels = g.labels(s)
        assert len(labels) == len(set(labels)) == len(s.pending.values)
        i = rng.randrange(len(labels))
        assert g.apply(s, labels[i]) == g.apply_index(s, i)


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(config=st.sampled_from(TWO_PLAYER), seed=st.integers(min_value=0, max_value=2**31))
def test_any_seed_plays_to_a_proper_end(config, seed):
    """Object, over arbitrary seeds (hypothesis): the game ends with the most pieces winning and
    every piece still accounted for."""
    g = load(config)
    *_, s = playout(g, 2, seed)
    counts = {p: len(v) for p, v in g.var(s, "collected").items()}
    assert set(g.result(s)) == {p for p, c in counts.items() if c == max(counts.values())}
    held = pieces_on_wall(g, s) + list(g.var(s, "box"))
    held += [x for v in g.var(s, "collected").values() for x in v]
    assert sorted(held) == sorted(all_pieces(stacks(config)))


# ---- pieces are conserved ------------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pieces_are_conserved_after_every_move(config):
    """Setup / Game Play: every piece of the piecepack is on the wall, in a collection or in the
    box, exactly once, after every move."""
    g = load(config)
    everything = sorted(all_pieces(stacks(config)))
    for s in recorded(config):
        held = pieces_on_wall(g, s) + list(g.var(s, "box"))
        for pieces in g.var(s, "collected").values():
            held += pieces
        assert sorted(held) == everything, f"after decision {s.decisions}"
    assert g.is_over(s)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_collected_pieces_are_face_up_and_off_the_wall(config):
    """Game Play: a collected piece has left the wall; it is shown to everyone."""
    g = load(config)
    s = recorded(config, 2)[-1]
    wall = set(pieces_on_wall(g, s))
    up = g.var(s, "face_up")
    for pieces in g.var(s, "collected").values():
        assert not wall & set(pieces)
        assert all(up[p] for p in pieces)


# ---- replay, save/load, determinism --------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_replaying_the_labels_gives_the_same_final_state(config):
    """Transcripts: a game replayed move by move from the same start reproduces the same state."""
    g = load(config)
    states = recorded(config)
    rng = random.Random(1)  # the choices of recorded(config, 1), drawn again
    moves = [Move(s.pending.player, g.labels(s)[rng.randrange(len(s.pending.values))]) for s in states[:-1]]
    r = g.start(players=config[3], seed=1)
    assert r == states[0]
    for n, move in enumerate(moves, 1):
        r = g.apply(r, move)
        assert r == states[n], f"replay differs after move {n} ({move})"
    assert r == states[-1] and hash(r) == hash(states[-1])
    assert g.result(r) == g.result(states[-1]) and r.decisions == len(moves)


def _roundtrip(g, s):
    text = tomli_w.dumps(state_to_dict(g, s))
    return state_from_dict(g, tomllib.loads(text))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_save_and_load_round_trip(config):
    """Transcripts: save/load round-trips exactly (directly and through TOML text), and a loaded
    state plays on exactly like the original."""
    g = load(config)
    rng = random.Random(5)
    checked = 0
    for n, s in enumerate(recorded(config)):
        if n % 37 and not g.is_over(s):
            continue
        want = s  # including the log: the lines written by the last move
        direct = state_from_dict(g, state_to_dict(g, s))
        assert direct == want and hash(direct) == hash(want)
        through_toml = _roundtrip(g, s)
        assert through_toml == want and hash(through_toml) == hash(want)
        assert state_to_dict(g, through_toml) == state_to_dict(g, s)
        if not g.is_over(s):
            i = rng.randrange(len(s.pending.values))
            assert g.apply_index(through_toml, i) == g.apply_index(s, i)
        checked += 1
    assert checked >= 10


def test_save_and_load_round_trip_keeps_the_last_moves_log():
    """Principle 2 (docs/architecture.md): save/load round-trips exactly (State equality
    includes the log of the last move)."""
    g = game()
    s = g.apply(g.apply(g.start(players=2, seed=1), "hammer on a1"), "hammer on b2")
    assert g.narrate(s)
    loaded = _roundtrip(g, s)
    assert g.narrate(loaded) == g.narrate(s)
    assert loaded == s


@pytest.mark.parametrize("config", TWO_PLAYER, ids=TWO_IDS)
def test_same_seed_and_moves_give_the_same_game(config):
    """Principle 2 (docs/architecture.md): randomness lives in the state: the same seed and moves give the same game,
    even with the game loaded afresh; another seed deals another wall."""
    _, variants, options, players = config
    g1 = load(config)
    g2 = load_game("berlin_wall", variants=list(variants), options=dict(options))  # not the cached one
    a = list(playout(g1, players, 9))
    b = list(playout(g2, players, 9))
    assert a == b
    assert [g1.narrate(s) for s in a[:200]] == [g2.narrate(s) for s in b[:200]]
    assert g1.var(g1.start(players=players, seed=10), "wall") != g1.var(a[0], "wall")


# ---- observations leak nothing -------------------------------------------------------------------
def _hidden_pieces(g, s) -> set[str]:
    up = g.var(s, "face_up")
    return {p for p in pieces_on_wall(g, s) + list(g.var(s, "box")) if not up[p]}


def _check_observation(g, s, viewer, everything):
    obs = g.observation(s, viewer)
    hidden = _hidden_pieces(g, s)
    views = obs["vars"]
    # face_up is a map keyed by every piece: its key list is the same in every state and carries
    # nothing; the entries of hidden pieces are hidden themselves
    face_up = views.pop("face_up")
    assert list(face_up) == everything
    assert all(face_up[p] == {"hidden": 1} for p in hidden)
    text = json.dumps({**obs, "log": []})
    for p in hidden:
        assert f'"{p}"' not in text, f"{viewer} sees the name of face-down {p}"
    wall = g.var(s, "wall")
    for c, view in views["wall"].items():
        piece = wall[c]
        if piece is None:
            assert view is None
        elif piece in hidden:
            assert isinstance(view, dict) and view["of"] == "Piece"
            assert "value" not in view
            if view["kind"] == "tile":  # a tile's back shows only the four quarters
                assert set(view) == {"of", "kind"}
            else:  # a coin's back shows its suit
                assert set(view) == {"of", "kind", "suit", "stack"}
        else:
            assert view == piece
    for view in views["box"]:
        assert isinstance(view, dict) and "value" not in view


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_observations_never_show_a_face_down_piece(config):
    """Definitions / Setup: the wall is laid face down; a face-down piece's name and value are seen
    by nobody, whoever looks (each seat and a spectator), at any point of the game."""
    g = load(config)
    everything = all_pieces(stacks(config))
    order = [p for p in g.var(g.start(players=config[3], seed=0), "face_up")]
    assert sorted(order) == sorted(everything)
    looked = 0
    for n, s in enumerate(recorded(config)):
        if n % 29:
            continue
        for viewer in list(s.players) + [None]:
            _check_observation(g, s, viewer, order)
        looked += 1
    assert looked >= 5


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_log_never_names_a_face_down_piece(config):
    """Game Play: what is face down stays unknown: no log line anyone can read names it."""
    g = load(config)
    for seed in (1, 2):
        for s in recorded(config, seed):
            if not s.log:
                continue
            for viewer in s.players:
                words = {w for line in g.narrate(s, viewer) for w in line.replace(":", " ").replace("(", " ").split()}
                names = {w for w in words if w.startswith(("tile-", "coin-"))}
                if names:
                    leaked = names & _hidden_pieces(g, s)
                    assert not leaked, f"{viewer} reads {sorted(leaked)} in {g.narrate(s, viewer)}"


# ---- the examples --------------------------------------------------------------------------------
def test_tictactoe_random_games_end():
    """Tic-tac-toe: every game ends within 9 moves, won or drawn."""
    g = load_game(EXAMPLES / "tictactoe.game")
    results = set()
    for seed in range(150):
        states = list(playout(g, 2, seed))
        assert g.is_over(states[-1]) and len(states) - 1 <= 9
        assert g.result(states[-1]) in {("x",), ("o",), ()}
        results.add(g.result(states[-1]))
    assert results == {("x",), ("o",), ()}


def test_kuhn_poker_never_shows_the_opponents_card_before_a_showdown():
    """Kuhn poker: each player sees only their own card until a showdown; the undealt card is never
    seen; games end after at most three decisions."""
    g = load_game(EXAMPLES / "kuhn_poker.game")
    title = {"J": "Jack", "Q": "Queen", "K": "King"}
    showdowns = 0
    for seed in range(120):
        states = list(playout(g, 2, seed))
        assert g.is_over(states[-1]) and len(states) - 1 <= 3
        hands = g.var(states[0], "hand")
        deck = g.var(states[0], "deck")
        for s in states:
            shown = g.var(s, "shown")
            for me, them in (("p1", "p2"), ("p2", "p1")):
                obs = g.observation(s, me)
                mine, theirs = hands[me][0], hands[them][0]
                assert obs["vars"]["hand"][me] == [mine]
                assert obs["vars"]["deck"] == {"hidden": 1}
                assert f'"{deck[0]}"' not in json.dumps(obs)
                if shown[them] == ():
                    assert obs["vars"]["hand"][them] == {"hidden": 1}
                    assert f'"{theirs}"' not in json.dumps(obs)
                    assert not any(title[theirs] in line for line in obs["log"])
                else:
                    assert obs["vars"]["shown"][them] == [theirs]
                    showdowns += 1
    assert showdowns > 0
