"""The look-ahead made cheaper chooses exactly what it chose before.

`greedy:d2:n1` on every seat of Downfall of Empires spends most of a game redrawing the
secret research (runtime/resample.py: replayed worlds checked against what the seat sees)
and scoring positions by the estimate. Three shortcuts cut that cost without changing a
choice: a world is compared with the seat's view by the values its observation is made
of before any observation is built (`observation_key`), worlds at the same position
replay a segment of the record once (`_segments`), and the greedy look ahead keeps the
estimates of positions with the same variables (`estimate_memo`).

`downfall_greedy_d2_moves.json` holds the moves every seat chose in seeded games played
before these shortcuts (seeds 1 to 3: their first 300 or so decisions; seed 4: the whole
game): the same agents on the same seeds must choose them again, move for move.
"""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from repo_paths import ROOT

from interpreter import load_game
from interpreter.play.agents import listeners, parse_agents, tell
from interpreter.play.mcts import GreedyAgent, estimate_memo, scaled_estimate
from interpreter.runtime import resample
from interpreter.runtime.observe import observation_key, observe

MOVES = ROOT / "tests" / "play" / "downfall_greedy_d2_moves.json"
SLOW_CASES = [r"test_greedy_look_ahead_chooses_the_moves_it_chose_before\[\d-all\]"]  # a game each: 10 s and more


@cache
def downfall():
    """Downfall of Empires in chance mode, as `simulate` loads it for a greedy seat (agents.needs_chance)."""
    return load_game("downfall_of_empires", chance=True)


def _play(game, kind: str, seed: int, decisions: int) -> list[int]:
    """The moves of the seeded game with every seat `kind`, as `simulate` plays it (every
    agent told every move), up to `decisions` decisions."""
    state = game.start(players=4, seed=seed)
    agents, _ = parse_agents([f"{seat}={kind}" for seat in state.players], game, state.players, seed)
    told = listeners(agents)
    moves = []
    while state.result is None and len(moves) < decisions:
        index = agents[state.pending.player].choose(game, state)
        tell(told, game, state, index)
        moves.append(index)
        state = game.apply_index(state, index)
    return moves


@pytest.mark.parametrize(
    ("seed", "decisions"),
    [(1, 40), (1, "all"), (2, "all"), (3, "all"), (4, "all")],
    ids=lambda v: str(v),
)
def test_greedy_look_ahead_chooses_the_moves_it_chose_before(seed, decisions):
    recorded = json.loads(MOVES.read_text(encoding="utf-8"))
    assert recorded["agent"] == "greedy:d2:n1" and recorded["players"] == 4
    before = recorded["games"][str(seed)]
    wanted = before if decisions == "all" else before[:decisions]
    assert _play(downfall(), recorded["agent"], seed, len(wanted)) == wanted


def _positions(game, seed: int, count: int):
    """The positions of a seeded random game of four, one after another."""
    rng = random.Random(seed)
    state = game.start(players=4, seed=seed)
    out = [state]
    while state.result is None and len(out) < count:
        state = game.apply_index(state, rng.randrange(len(state.pending.values)))
        out.append(state)
    return out


def test_equal_observation_keys_are_equal_observations_and_a_change_seen_changes_the_key():
    """In a game without face-down components: two positions a seat's keys call equal it
    observes alike (what lets a replayed world pass without being observed), and a move
    that changes what the seat sees changes its key."""
    game = downfall()
    g = game.compiled
    assert not any(g.visibility.values())
    positions = _positions(game, 3, 120)
    changed = 0
    for seat in ("german", "russian"):
        for before, after in zip(positions, positions[1:]):
            same_key = observation_key(g, before, seat) == observation_key(g, after, seat)
            same_view = observe(g, before, seat) == observe(g, after, seat)
            assert same_key <= same_view  # equal keys: equal observations
            if not same_view:
                assert not same_key
                changed += 1
    assert changed > 50
    # a seat's research boxes are seen by their owner only (`tiles ... seen by owner`): other
    # boxes there, another key for Russia, the same for Germany
    s = positions[-1]
    tiles = game.var(s, "tiles")
    power = next(iter(tiles["russian"]))
    tile = next(iter(tiles["russian"][power]))
    tiles["russian"][power][tile] = 2 - tiles["russian"][power][tile]
    other = game.with_var(s, "tiles", tiles)
    assert observation_key(g, other, "russian") != observation_key(g, s, "russian")
    assert observation_key(g, other, "german") == observation_key(g, s, "german")
    assert observe(g, other, "german") == observe(g, s, "german")


def _one_by_one(cg, particles, view, rng):
    """Each world replayed by itself: `_segments` without the sharing."""
    return [resample._segment(cg, p, view, rng) for p in particles]


def test_worlds_at_one_position_replay_a_segment_once_and_arrive_where_each_would(monkeypatch):
    """`_segments` gives, for worlds at the same position, what replaying each would: the
    same positions, each after its own record (worlds whose redrawn secret choices differ
    but came to the same position), the same redrawn choices, the generator left alike."""
    game = downfall()
    cg = resample._chance_twin(game)
    state = _positions(game, 5, 100)[-1]
    seat = "german"
    view = resample._view(state, seat)
    start = game.start(players=4)
    worlds = [(start, len(start.chance.trail), None)] * resample.PARTICLES
    sharing = resample._segments
    monkeypatch.setattr(resample, "_segments", _one_by_one)
    worlds = resample._advance(cg, worlds, view, 13, 7)  # the starting research redrawn
    met: dict = {}
    for s, _, _ in worlds:
        met.setdefault((s.vars, s.frames, s.pending), set()).add(s.chance.trail)
    assert any(len(records) > 1 for records in met.values())  # one position, two records

    each = resample._advance(cg, worlds, view, len(view.trail), 7)
    monkeypatch.setattr(resample, "_segments", sharing)
    shared = resample._advance(cg, worlds, view, len(view.trail), 7)
    assert each is not None and shared is not None
    assert [p[0] for p in shared] == [p[0] for p in each]  # records included
    assert [p[1] for p in shared] == [p[1] for p in each]
    assert [resample._chain(p) for p in shared] == [resample._chain(p) for p in each]


def test_a_seat_s_view_of_a_grown_record_is_the_view_made_from_the_start():
    """`_view` extends the view of the record its seat last asked about by the entries added
    since: the same lines, digests and seeds as a view made from nothing; a record that does
    not begin with the kept one (another game) is read from its start."""
    game = downfall()
    positions = _positions(game, 5, 160)
    other = _positions(game, 6, 90)[-1]
    for seat in ("german", "russian"):
        for state in (positions[60], positions[-1], other, positions[100]):
            grown = resample._view(state, seat)
            resample._VIEWS.clear()
            fresh = resample._view(state, seat)
            assert grown == fresh
            assert len(fresh.digests) == len(state.chance.trail) + 1


def test_the_estimate_memo_gives_the_estimate_and_is_only_for_the_rules_own():
    """Positions with the same variables have the same estimate; a learned estimate (which
    may read more than the variables) gets no memo."""
    game = downfall()
    positions = _positions(game, 2, 80)
    memo = estimate_memo(game)
    assert memo == {}
    for s in positions:
        if s.result is None:
            assert scaled_estimate(game, s, "russian", memo) == scaled_estimate(game, s, "russian")
    assert 0 < len(memo) < len(positions)  # positions that share their variables share an entry

    class Other(type(game)):
        def estimate(self, state, seat):
            return 0.0

    assert estimate_memo(Other(game.compiled, game.name, game.variants, game.options)) is None
    assert GreedyAgent(1, lookahead=2, samples=1)._memo is None  # made per decision
