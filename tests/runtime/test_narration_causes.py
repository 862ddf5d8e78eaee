"""The short narration (`gamedef run` without --verbose: the `log headline` lines) says why
every score it shows changed: The Wall is Down's VP by the card, the scoring or the moment
of the round; Missiles, Now!'s complete Missiles in each standings line by what made or
spent them; Downfall of Empires' VP by the city taken or the country that joined; Berlin
Wall's pieces by the piece collected."""

from __future__ import annotations

import random
import re
import sys

import pytest
from repo_paths import TESTS

from interpreter import load_game
from interpreter.runtime.render import status_text

sys.path.insert(0, str(TESTS))
from twid_helpers import scenario  # noqa: E402

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # Whole random games of The Wall is Down followed for their VP causes: 2 players stays.
    r"test_the_wall_is_down_tells_every_vp_change_with_its_cause\[(3p|4p|promos|alternate_goal|solo\w*)\]",
]

MINUS = "\u2212"


def _headlines(game, players: int, seed: int, limit: int = 20_000):
    """(the final state, the headlines of a random game, each with the state after its move)."""
    state = game.start(players=players, seed=seed)
    rng = random.Random(seed)
    told: list[tuple[str, object]] = []
    while not game.is_over(state) and state.decisions < limit:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        told.extend((line, state) for line in game.narrate(state, headlines=True))
    return state, told


def _number(text: str) -> int:
    return -int(text[1:]) if text.startswith((MINUS, "-")) else int(text.lstrip("+"))


def _totals(text: str, titles: dict[str, str]) -> dict[str, int]:
    """'US 3, EU 0' -> {'us': 3, 'eu': 0}."""
    out = {}
    for entry in text.split(", "):
        name, _, value = entry.rpartition(" ")
        out[titles[name]] = _number(value)
    return out


def _check_twid_vp_story(game, state, told) -> int:
    """Follow the VP the headlines tell: each change has its cause's line, whose changes
    add up to the totals it gives; a round's totals and the end's are the ones told."""
    titles = {game.seat_title(p): p for p in state.players} | {
        game.seat_title(p): p for p in ("us", "eu", "russia", "china")
    }
    actors = state.players if len(state.players) > 1 else ("us", "eu", "russia", "china")  # 8.2 solo: all four
    known = {p: _vp(game, game.start(players=len(state.players), seed=0), p) for p in actors}
    causes = 0
    for line, _ in told:
        if m := re.fullmatch(r"(.+): (.+); VP now (.+)", line):
            cause, changes, now = m.groups()
            if changes != "no change":
                for who, d in _totals(changes, titles).items():
                    known[who] += d
                causes += 1
            assert known == _totals(now, titles), line
        elif m := re.fullmatch(r"after round \d+: (.+) VP", line):
            assert _totals(m.group(1), titles) == known, f"{line}: told before: {known}"
        elif m := re.fullmatch(r"(\S+) is a dominant superpower in round \d+ \((\d+) VP kept\)", line):
            known[titles[m.group(1)]] = int(m.group(2))
        elif m := re.fullmatch(r"(?:failure \d+: )?(\S+) reaches (\d+) VP.*", line):
            assert known[titles[m.group(1)]] == int(m.group(2)), line
    assert {p: _vp(game, state, p) for p in known} == known
    return causes


def _vp(game, state, seat: str) -> int:
    """A superpower's VP, also one nobody plays (8.2 solo: game.var shows the seats in play)."""
    info = game._var_info("vp")
    return state.vars[info.slot][info.key_index[seat]]


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (2, 3, {}),
        (3, 3, {}),
        (4, 3, {}),
        (4, 4, {"promos": True}),
        (2, 3, {"alternate_goal": True}),
        (1, 5, {"solo_goal": "elite"}),
    ],
    ids=["2p", "3p", "4p", "promos", "alternate_goal", "solo"],
)
def test_the_wall_is_down_tells_every_vp_change_with_its_cause(players, seed, options):
    """The Wall is Down, 1. Goal and 6.2 Action phases: every VP change the short narration
    shows ('after round 4: US 5, ...') follows lines naming the card, the header, the
    scoring or the moment of the round that made it, each with the VP then."""
    game = load_game("twid", options=options)
    state, told = _headlines(game, players, seed)
    assert game.is_over(state)
    assert _check_twid_vp_story(game, state, told) > 0


def test_a_card_that_gives_vp_is_named_in_the_short_narration():
    """Card Democracy in Nigeria ('Gain 1VP'), played for its text: the short narration
    names the card with the VP it gave, not only the round's totals."""
    g, s = scenario(
        players=4, hands={"us": ["democracy_in_nigeria"], "eu": [], "russia": [], "china": []}, turns=["us"]
    )
    told = []
    for label in ("play Democracy in Nigeria", "Democracy in Nigeria for its text"):
        s = g.apply(s, label)
        told += g.narrate(s, headlines=True)
    assert told == ["US plays Democracy in Nigeria for its text: US +1; VP now US 1, EU 0, Russia 0, China 0"]


def test_a_vp_loss_below_zero_is_told_as_the_vp_it_gives_away():
    """1. Goal: a player losing VP below 0 gives them to the player with the fewest VP;
    the card's line tells both sides of it (Katrina: the US loses 1 VP)."""
    g, s = scenario(
        players=4,
        hands={"us": [], "eu": [], "russia": ["katrina"], "china": []},
        turns=["russia"],
        vp={"us": 0, "eu": 2, "russia": 3, "china": 1},
    )
    told = []
    for label in ("play Katrina", "Katrina for its text"):
        s = g.apply(s, label)
        told += g.narrate(s, headlines=True)
    assert told == ["Russia plays Katrina for its text: China +1; VP now US 0, EU 2, Russia 3, China 2"]


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 3), (4, 5)])
def test_missiles_standings_say_why_each_count_of_complete_missiles_changed(players, seed):
    """Missiles, Now!, Winning the game 1 (three complete Missiles): each standings line
    (every ten rounds) gives every player's complete Missiles and why they changed since
    the last one, and the causes add up: made and received add, the others take away."""
    game = load_game("missiles_now")
    state, told = _headlines(game, players, seed)
    titles = {game.seat_title(p): p for p in state.players}
    known: dict[str, int] = {}
    standings = 0
    for line, _ in told:
        m = re.fullmatch(r"== (?:Round \d+|Preparation): complete Missiles (.+); complete items in all .+", line)
        if not m:
            continue
        standings += 1
        first = not known
        for entry in re.findall(r"(\S+) (\d+)(?: \(([^)]*)\))?(?:, |$)", m.group(1)):
            who, count, causes = titles[entry[0]], int(entry[1]), entry[2]
            change = 0
            for cause in filter(None, causes.split(", ")):
                word, _, n = cause.rpartition(" ")
                change += int(n) if word in ("made", "received") else -int(n)
            if not first:
                assert known[who] + change == count, line
            known[who] = count
    assert standings >= 2, "too short a game to compare two standings"


def test_missiles_standings_name_a_fired_missile():
    """Missile: playing the item erases its complete box; the standings say 'fired'."""
    game = load_game("missiles_now")
    _, told = _headlines(game, 3, 3)
    assert any(re.search(r"complete Missiles .*\(.*fired \d", line) for line, _ in told)


def _scores(game, state, pattern: str) -> str:
    found = re.search(pattern, status_text(game, state, None))
    assert found is not None
    return found.group(0).strip()


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 1)])
def test_downfall_of_empires_vp_change_only_with_a_city_or_a_country_told(players, seed):
    """Downfall of Empires, 5. Victory points (cities held and lost, diplomacy): whenever
    a Power's VP change, the same move's short narration says which city changed hands
    or which country joined the war."""
    game = load_game("downfall_of_empires")
    state = game.start(players=players, seed=seed)
    rng = random.Random(seed)
    changes = 0
    while not game.is_over(state):
        before = _scores(game, state, r"VP [^|]*")
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        if _scores(game, state, r"VP [^|]*") != before and not game.is_over(state):
            changes += 1
            told = game.narrate(state, headlines=True)
            assert any(re.search(r"take control of|passes to|joins the war|surrenders", line) for line in told), told
    assert changes > 0


def test_berlin_wall_pieces_change_only_with_the_piece_collected_told():
    """Berlin Wall, Game Play: a player's pieces go up only with the line naming the piece."""
    game = load_game("berlin_wall")
    state = game.start(players=3, seed=4)
    rng = random.Random(4)
    while not game.is_over(state):
        before = {p: len(v) for p, v in game.var(state, "collected").items()}
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        after = {p: len(v) for p, v in game.var(state, "collected").items()}
        for p in state.players:
            if after[p] != before[p]:
                told = game.narrate(state, headlines=True)
                assert any(line.startswith(f"{p} collects ") and f"{after[p]} of 12" in line for line in told), told
