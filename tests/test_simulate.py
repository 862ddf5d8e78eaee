"""`gamedef simulate`: many games by agents, the same whatever the number of jobs, summed up
right (Wilson intervals, shared wins as shares, endings grouped), as text, JSON, CSV and
PNG charts; and every user mistake exits 2 with a hint.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from interpreter.cli import main
from interpreter.simulate import Record, normalise, summarise, wilson

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


def simulate_json(capsys, *argv: str) -> dict:
    code, out, err = cli(capsys, "simulate", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# ---- the statistics -----------------------------------------------------------------------------------
def test_wilson_interval_matches_published_values():
    # Wilson (1927) / Newcombe (1998) table: 5 of 10 -> 0.2366 to 0.7634; 0 of 10 -> 0 to 0.2775.
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=5e-5) and high == pytest.approx(0.7634, abs=5e-5)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=5e-5)
    low, high = wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(0.7225, abs=5e-5)
    # 81 of 263 (Newcombe's example 1c): 0.2553 to 0.3662.
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=5e-5) and high == pytest.approx(0.3662, abs=5e-5)
    assert wilson(0, 0) == (0.0, 1.0)  # no games: nothing is known


def _record(seed: int, winners: tuple[str, ...], decisions: int, line: str, rounds: int | None = None) -> Record:
    return Record(seed, winners, decisions, rounds, line, normalise(line, ("west", "east")))


def test_summary_of_a_known_sample_counts_shared_wins_as_shares():
    records = [
        _record(1, ("west",), 10, "west reaches 10 VP", 3),
        _record(2, ("east",), 20, "east reaches 12 VP", 5),
        _record(3, ("west", "east"), 30, "west and east share the win", 8),
        _record(4, (), 40, "nobody wins", 8),
        _record(5, ("west",), 50, "west: 7 VP", 8),
    ]
    s = summarise(records, ("west", "east"))
    assert s["games"] == 5
    west, east = s["win_rates"]
    assert (west["seat"], west["wins"], west["rate"]) == ("west", 2.5, 0.5)
    assert (east["seat"], east["wins"], east["rate"]) == ("east", 1.5, 0.3)
    assert (west["low"], west["high"]) == wilson(2.5, 5)
    assert (east["low"], east["high"]) == wilson(1.5, 5)
    assert s["no_winner"]["games"] == 1 and s["no_winner"]["rate"] == 0.2
    assert west["rate"] + east["rate"] + s["no_winner"]["rate"] == pytest.approx(1.0)
    assert s["shared_wins"] == 1
    assert s["decisions"] == {"mean": 30, "median": 30, "min": 10, "max": 50}
    assert s["rounds"] == {"mean": 6.4, "median": 8, "min": 3, "max": 8}
    endings = {e["ending"]: e["games"] for e in s["endings"]}
    assert endings == {
        "SEAT reaches N VP": 2,
        "SEAT and SEAT share the win": 1,
        "nobody wins": 1,
        "SEAT: N VP": 1,
    }
    assert s["endings"][0] == {
        "ending": "SEAT reaches N VP",
        "games": 2,
        "share": 0.4,
        "won_by": {"west": 1.0, "east": 1.0},
        "example": "west reaches 10 VP",
    }
    shared = next(e for e in s["endings"] if e["ending"] == "SEAT and SEAT share the win")
    assert shared["won_by"] == {"west": 0.5, "east": 0.5}
    assert next(e for e in s["endings"] if e["ending"] == "nobody wins")["won_by"] == {}


def test_endings_are_grouped_with_seats_and_numbers_normalised():
    seats = ("west", "east")
    assert normalise("west reaches 10 VP", seats) == normalise("east reaches 12 VP", seats) == "SEAT reaches N VP"
    assert normalise("east: 4 VP", seats) == "SEAT: N VP"
    # Whole names only, the longest first: p1 is not read inside p10, red not inside reduced.
    assert normalise("p10 beats p1", ("p1", "p10")) == "SEAT beats SEAT"
    assert normalise("red reduced the wall to 2.5", ("red",)) == "SEAT reduced the wall to N"
    assert normalise("the Middle East", seats) == "the Middle East"  # names are matched in their case


# ---- the command --------------------------------------------------------------------------------------
def test_results_are_the_same_with_one_job_and_two(capsys):
    one = simulate_json(capsys, "kuhn_poker", "--games", "200", "--seed", "7", "--jobs", "1")
    two = simulate_json(capsys, "kuhn_poker", "--games", "200", "--seed", "7", "--jobs", "2")
    assert one == two
    assert [r["seed"] for r in one["records"]] == list(range(7, 207))


def test_twid_results_are_the_same_with_one_job_and_two_and_read_its_rounds(capsys):
    argv = ("twid", "--players", "2", "--games", "6", "--seed", "3")
    one = simulate_json(capsys, *argv, "--jobs", "1")
    two = simulate_json(capsys, *argv, "--jobs", "2")
    assert one == two
    assert one["seats"] == ["west", "east"]
    assert one["rounds"] is not None and 1 <= one["rounds"]["min"] <= one["rounds"]["max"] <= 8
    endings = r"SEAT reaches N VP|NWO: the game ends|Round N is over: the final scoring"
    assert all(re.fullmatch(endings, e["ending"]) for e in one["endings"]), one["endings"]


def test_each_game_is_the_game_run_plays_with_the_same_seed_and_agents(capsys):
    code, out, _ = cli(capsys, "simulate", "tictactoe", "--games", "6", "--seed", "4", "--agent", "o=first", "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    for row in rows:
        code, run_out, _ = cli(capsys, "run", "tictactoe", "--seed", row["seed"], "--agent", "o=first", "--quiet")
        last = run_out.strip().splitlines()[-1]
        who = f"{row['winners']} wins" if row["winners"] else "no winner"
        assert last == f"== game over after {row['decisions']} decisions: {who}"


def test_text_report_shows_rates_intervals_length_and_endings(capsys):
    code, out, _ = cli(capsys, "simulate", "tictactoe", "--games", "100", "--jobs", "1")
    assert code == 0
    assert "win rates (95% Wilson interval):" in out
    assert re.search(r"^  x +\d+ +\d+\.\d% +\d+\.\d% - \d+\.\d%$", out, re.M), out
    assert re.search(r"^  no winner +\d+ ", out, re.M)
    assert re.search(r"^  decisions +\d+\.\d +\d+ +5 +9$", out, re.M), out  # 5 to 9 marks in 100 random games
    assert "rounds" not in out  # tic-tac-toe has no `round` variable
    assert "SEAT has three in a row" in out and "the board is full: a draw" in out


def test_json_document_shape(capsys):
    doc = simulate_json(capsys, "tictactoe", "--games", "30", "--jobs", "1", "--agent", "x=first")
    assert doc["game"] == "tictactoe" and doc["players"] == 2 and doc["seats"] == ["x", "o"]
    assert doc["agents"] == {"x": "first", "o": "random"} and doc["first_seed"] == 1 and doc["games"] == 30
    assert [w["seat"] for w in doc["win_rates"]] == ["x", "o"]
    for w in doc["win_rates"]:
        assert set(w) == {"seat", "wins", "rate", "low", "high"} and w["low"] <= w["rate"] <= w["high"]
    assert set(doc["decisions"]) == {"mean", "median", "min", "max"} and doc["rounds"] is None
    assert sum(e["games"] for e in doc["endings"]) == 30
    assert len(doc["records"]) == 30
    assert set(doc["records"][0]) == {"seed", "winners", "decisions", "rounds", "headline", "ending"}


def test_csv_has_one_row_per_game(capsys):
    code, out, _ = cli(capsys, "simulate", "kuhn_poker", "--games", "25", "--seed", "10", "--jobs", "1", "--csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["seed", "winners", "decisions", "rounds", "ending", "headline"]
    assert len(rows) == 26 and [int(r[0]) for r in rows[1:]] == list(range(10, 35))
    assert all(r[1] in ("p1", "p2") and r[4] == "SEAT wins the pot of N" for r in rows[1:])


def test_plot_writes_two_png_charts(tmp_path, capsys):
    folder = tmp_path / "charts"
    code, out, _ = cli(capsys, "simulate", "tictactoe", "--games", "40", "--jobs", "1", "--plot", str(folder))
    assert code == 0
    written = sorted(p.name for p in folder.iterdir())
    assert written == ["lengths.png", "win_rates.png"]
    for name in written:
        data = (folder / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 1000
        assert f"chart written to {folder / name}" in out


# ---- mistakes: exit 2 with a hint ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message", "hint"),
    [
        (["--jobs", "0"], "--jobs 0: at least one job is needed", "--jobs 1 plays in this process"),
        (["--agent", "nobody=random"], "no seat 'nobody' in this game", "seats: x, o"),
        (["--agent", "x=genius"], "unknown agent kind 'genius'", "kinds:"),
        (["--agent", "x=human"], "--agent x=human: a simulation has nobody to ask", "gamedef play"),
        (["--players", "3"], "is for 2 players, not 3", "--players 2"),
        (["--max-decisions", "3", "--jobs", "2"], "has not ended after 3 decisions", "raise --max-decisions"),
        (["--max-decisions", "3", "--jobs", "1"], "has not ended after 3 decisions", "raise --max-decisions"),
        (["--plot", "TMP/file.txt"], "a file of that name exists", "give a folder name"),
    ],
    ids=["jobs-0", "unknown-seat", "unknown-kind", "human", "players", "endless-jobs-2", "endless-jobs-1", "plot-file"],
)
def test_mistakes_exit_2_with_a_hint(tmp_path, capsys, argv, message, hint):
    (tmp_path / "file.txt").write_text("not a folder")
    argv = [a.replace("TMP", str(tmp_path)) for a in argv]
    code, _, err = cli(capsys, "simulate", "tictactoe", "--games", "4", *argv)
    assert code == 2, err
    lines = err.rstrip("\n").splitlines()
    error = next(line for line in lines if line.startswith("gamedef: error: "))
    assert message in error
    hints = [line for line in lines if line.startswith("    hint: ")]
    assert len(hints) == 1 and hint in hints[0], err


def test_json_and_csv_together_is_an_argument_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "tictactoe", "--games", "3", "--json", "--csv"])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_workers_that_load_the_game_themselves_give_the_same_results(monkeypatch):
    """Where there is no fork (macOS, Windows), each worker loads the game: the same records."""
    import multiprocessing

    from interpreter import simulate as sim

    setup = sim.Setup(game="kuhn_poker", players=2)
    here = sim.simulate(setup, 40, 5, jobs=1)
    monkeypatch.setattr(sim, "_context", lambda: multiprocessing.get_context("spawn"))
    assert sim.simulate(setup, 40, 5, jobs=2) == here
