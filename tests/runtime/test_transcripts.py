"""Canonical transcripts: snapshots of their narration and final state, and replays.

The canonical games (tests/canonical_games.py) are random games with fixed seeds for the
base game (2, 3 and 4 players) and each variant (2 players). Their narrated log, result,
final board and variables are held as syrupy snapshots in
tests/__snapshots__/test_transcripts/, one readable JSON file each: a rules change shows
up as a diff of the story. Their transcripts, written once by tests/make_transcripts.py
into tests/transcripts/, must replay with `gamedef replay`.

After a deliberate rules change: `python tests/make_transcripts.py --force` and
`python -m pytest tests/runtime/test_transcripts.py --snapshot-update`, then read the diffs.
"""

from __future__ import annotations

import pytest
from canonical_games import CANONICAL, TRANSCRIPTS, play
from syrupy.extensions.json import JSONSnapshotExtension

from interpreter.cli.commands import main
from interpreter.runtime.saving import read_transcript, write_transcript

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # Each of these compiles The Wall is Down with options afresh (the plain 2, 3 and 4
    # players games stay, and every other game's transcripts).
    r"test_(transcript_file_holds_the_canonical_game|gamedef_replay_accepts_the_transcript)"
    r"\[twid_(promos|solo_planet|solo_elite|alternate_goal|3p_static_us)\]",
    r"test_canonical_game_matches_its_snapshot\[twid_3p_static_us\]",
    # The Wall is Down's canonical games with options (2, 3 and 4 players stay).
    r"test_canonical_game_matches_its_snapshot\[twid_(promos|solo_planet|solo_elite|alternate_goal)\]",
    r"test_gamedef_replay_accepts_the_transcript\[twid_alternate_goal\]",
]

NAMES = list(CANONICAL)


@pytest.fixture
def snapshot_json(snapshot):
    return snapshot.use_extension(JSONSnapshotExtension)


@pytest.fixture(scope="module")
def games():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = play(name)
        return cache[name]

    return get


@pytest.mark.parametrize("name", NAMES)
def test_canonical_game_matches_its_snapshot(name, games, snapshot_json):
    """Transcripts and tests: each canonical game's narrated log, result and final state."""
    from canonical_games import summary

    game, state, moves, lines = games(name)
    assert game.is_over(state)
    assert summary(game, state, lines) == snapshot_json


@pytest.mark.parametrize("name", NAMES)
def test_transcript_file_holds_the_canonical_game(name, games):
    """Transcripts: the committed transcript is the canonical game's (same moves and result)."""
    game, state, moves, _ = games(name)
    t = read_transcript(TRANSCRIPTS / f"{name}.toml")
    game_name, variants, options, players, seed = CANONICAL[name]
    assert (t.game, t.players, t.seed, t.variants, t.options) == (
        game_name,
        players,
        seed,
        list(variants),
        options,
    )
    assert t.moves == moves
    assert t.result == list(game.result(state))


@pytest.mark.parametrize("name", NAMES)
def test_gamedef_replay_accepts_the_transcript(name, capsys):
    """Transcripts: `gamedef replay` re-runs every move and checks the result."""
    path = TRANSCRIPTS / f"{name}.toml"
    t = read_transcript(path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    ended = (" and ".join(t.result) + (" wins" if len(t.result) == 1 else " win")) if t.result else "no winner"
    assert f"{len(t.moves)} moves replayed; {ended}" in out


def _doctored(tmp_path, name: str, n: int, text: str, **changes):
    t = read_transcript(TRANSCRIPTS / f"{name}.toml")
    if n:
        t.moves[n - 1] = text
    for key, value in changes.items():
        setattr(t, key, value)
    path = tmp_path / f"{name}_doctored.toml"
    write_transcript(t, path)
    return path, t


def test_gamedef_replay_rejects_a_step_that_is_not_adjacent(tmp_path, capsys):
    """Transcripts: replay fails at the first move that is not legal, saying which and why."""
    t = read_transcript(TRANSCRIPTS / "base_2p.toml")
    n = next(i for i, m in enumerate(t.moves, 1) if ": step to " in m)
    seat = t.moves[n - 1].split(":")[0]
    path, _ = _doctored(tmp_path, "base_2p", n, f"{seat}: step to z9")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"illegal move 'move {n} ({seat}: step to z9)'" in err
    assert "step to" in err.split("':", 1)[1]  # the reason lists (or suggests) the legal steps


def test_gamedef_replay_rejects_a_move_by_the_wrong_seat(tmp_path, capsys):
    """Transcripts: a move made by a seat whose decision it is not is illegal."""
    t = read_transcript(TRANSCRIPTS / "base_2p.toml")
    n = 10
    seat, label = t.moves[n - 1].split(": ", 1)
    other = "black" if seat == "red" else "red"
    path, _ = _doctored(tmp_path, "base_2p", n, f"{other}: {label}")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"move {n} ({other}: {label})" in err
    assert f"it is {seat}'s decision, not {other}'s" in err


def test_gamedef_replay_rejects_a_wrong_result(tmp_path, capsys):
    """Transcripts: replay checks the recorded result too."""
    t = read_transcript(TRANSCRIPTS / "crazy_8s.toml")
    wrong = ["red"] if t.result != ["red"] else ["black"]
    path, _ = _doctored(tmp_path, "crazy_8s", 0, "", result=wrong)
    assert main(["replay", str(path)]) == 1
    assert f"result differs: transcript says {wrong}, replay gives {t.result}" in capsys.readouterr().err


def test_gamedef_run_writes_the_canonical_transcript(tmp_path, capsys):
    """Transcripts: `gamedef run --transcript` with the same seed writes the same file."""
    out = tmp_path / "run.toml"
    assert (
        main(
            [
                "run",
                "berlin_wall",
                "--players",
                "2",
                "--seed",
                "13",
                "--variant",
                "crazy_8s",
                "--quiet",
                "--transcript",
                str(out),
            ]
        )
        == 0
    )
    assert out.read_text(encoding="utf-8") == (TRANSCRIPTS / "crazy_8s.toml").read_text(encoding="utf-8")
