"""`gamedef simulate`: many games by agents, the same whatever the number of jobs (or on Ray),
summed up right (Wilson intervals, shared wins as shares, endings grouped, each card's
choosers against the other seats), as text, JSON, CSV and PNG charts; and every user
mistake exits 2 with a hint.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from contextlib import redirect_stdout

import pytest

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.cli.simulation_report import CARD_COLUMNS, text_report
from interpreter.core.errors import UsageError
from interpreter.play import simulate as sim
from interpreter.play.simulate import (
    GameRecord,
    card_catalogue,
    normalise,
    summarise,
    wilson,
)

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # Ray starts a local cluster; the process-pool simulations stay.
    r"test_ray_gives_the_records_of_one_job",
]

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


def _record(seed: int, winners: tuple[str, ...], decisions: int, line: str, rounds: int | None = None) -> GameRecord:
    return GameRecord(seed, winners, decisions, rounds, line, normalise(line, ("west", "east")))


def test_mean_payoff_has_a_normal_95_percent_interval():
    """A sample of payoffs -2, -1, 1, 2, 2, 2 (Kuhn poker's chips): mean 0.6667, sample
    standard deviation 1.7512, so the interval is the mean ± 1.96 × 1.7512 / √6 = ± 1.4013."""
    from interpreter.play.simulate import mean_interval

    mean, low, high = mean_interval([-2, -1, 1, 2, 2, 2])
    assert mean == pytest.approx(2 / 3) and high - mean == pytest.approx(1.4013, abs=1e-4)
    assert mean - low == pytest.approx(high - mean)
    pay = [(("p1", float(v)), ("p2", -float(v))) for v in (-2, -1, 1, 2, 2, 2)]
    records = [GameRecord(i, ("p1",) if p[0][1] > 0 else ("p2",), 3, None, "", "", (), p) for i, p in enumerate(pay)]
    doc = summarise(records, ["p1", "p2"])
    p1, p2 = doc["payoffs"]
    assert p1["seat"] == "p1" and p1["games"] == 6 and p1["mean"] == pytest.approx(2 / 3)
    assert p2["mean"] == pytest.approx(-2 / 3) and p2["high"] == pytest.approx(-p1["low"])


def test_simulate_reports_mean_payoff_beside_win_rates(capsys):
    """Kuhn (1950): chips won or lost per hand. The text report shows each seat's mean
    with its interval, and the JSON's means are the records' means and sum to 0 (zero-sum)."""
    doc = simulate_json(capsys, "kuhn_poker", "--games", "60", "--jobs", "1")
    means = {p["seat"]: p["mean"] for p in doc["payoffs"]}
    for seat in ("p1", "p2"):
        values = [r["payoffs"][seat] for r in doc["records"]]
        assert means[seat] == pytest.approx(sum(values) / len(values))
    assert means["p1"] + means["p2"] == pytest.approx(0)
    code, out, _ = cli(capsys, "simulate", "kuhn_poker", "--games", "60", "--jobs", "1")
    assert code == 0 and "mean payoff" in out
    assert re.search(r"^  p1 +60 +[+-]\d\.\d{3} +[+-]\d\.\d{3} - [+-]\d\.\d{3}$", out, re.M), out


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
    assert "cards" not in out  # no card section for a game without cards


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
    keys = {"seed", "winners", "decisions", "rounds", "headline", "ending", "cards", "payoffs", "first", "performed"}
    keys |= {"gains", "lead_changes", "score_by_round", "score_seats"}
    assert set(doc["records"][0]) == keys
    assert doc["cards"] is None and all(r["cards"] == {} for r in doc["records"])  # tic-tac-toe has no cards


def test_csv_has_one_row_per_game(capsys):
    code, out, _ = cli(capsys, "simulate", "kuhn_poker", "--games", "25", "--seed", "10", "--jobs", "1", "--csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["seed", "winners", "decisions", "rounds", "ending", "headline", "payoffs"]
    assert len(rows) == 26 and [int(r[0]) for r in rows[1:]] == list(range(10, 35))
    assert all(r[1] in ("p1", "p2") and r[4] == "SEAT wins the pot of N" for r in rows[1:])
    for r in rows[1:]:  # Kuhn (1950): the winner takes the pot of 2 or 4: +1 or +2 chips, the loser the opposite
        paid = dict(item.split(":") for item in r[6].split())
        assert float(paid[r[1]]) in (1.0, 2.0) and float(paid["p1"]) + float(paid["p2"]) == 0


def test_plot_writes_two_png_charts(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--plot needs the 'plot' extra: pip install '.[plot]'")
    folder = tmp_path / "charts"
    code, out, _ = cli(capsys, "simulate", "tictactoe", "--games", "40", "--jobs", "1", "--plot", str(folder))
    assert code == 0
    written = sorted(p.name for p in folder.iterdir())
    assert written == ["lengths.png", "win_rates.png"]
    for name in written:
        data = (folder / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 1000
        assert f"chart written to {folder / name}" in out


def test_plot_without_matplotlib_says_which_extra_to_install(tmp_path, capsys, monkeypatch):
    """Without the 'plot' extra, --plot is refused at once with the install command (the
    README's `pip install ".[test]"` leaves it out)."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    code, _, err = cli(capsys, "simulate", "tictactoe", "--games", "4", "--plot", str(tmp_path / "charts"))
    assert code == 2 and "--plot needs matplotlib" in err and 'pip install "gamedef[plot]"' in err, err


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
        (["--csv", "cards"], "--csv cards: Tic-tac-toe has no cards", "`gamedef cards GAME` lists"),
        (["--games", "1000000000000"], "--games 1000000000000: the limit is 1,000,000 games", "--seed"),
        (["--jobs", "100000"], "--jobs 100000: the limit is 256 worker processes", "run at once"),
    ],
    ids=[
        "jobs-0",
        "unknown-seat",
        "unknown-kind",
        "human",
        "players",
        "endless-jobs-2",
        "endless-jobs-1",
        "plot-file",
        "csv-cards-without-cards",
        "games-past-the-limit",
        "jobs-past-the-limit",
    ],
)
def test_mistakes_exit_2_with_a_hint(tmp_path, capsys, argv, message, hint):
    if "--plot" in argv:  # without matplotlib, --plot is refused before its folder is looked at
        pytest.importorskip("matplotlib", reason="--plot needs the 'plot' extra: pip install '.[plot]'")
    (tmp_path / "file.txt").write_text("not a folder")
    argv = [a.replace("TMP", str(tmp_path)) for a in argv]
    code, _, err = cli(capsys, "simulate", "tictactoe", "--games", "4", *argv)
    assert code == 2, err
    lines = err.rstrip("\n").splitlines()
    error = next(line for line in lines if line.startswith("gamedef: error: "))
    assert message in error
    hints = [line for line in lines if line.startswith("    hint: ")]
    assert len(hints) == 1 and hint in hints[0], err


def test_the_library_refuses_a_scale_past_the_limits_before_any_work():
    """simulate() itself is bounded: no list of 10^12 seeds is made, no 10^5 workers started."""
    setup = sim.Setup(game="tictactoe", players=2)
    with pytest.raises(UsageError, match="the limit is 1,000,000 games"):
        sim.simulate(setup, 10**12, 1, jobs=1)
    with pytest.raises(UsageError, match="the limit is 256 worker processes"):
        sim.simulate(setup, 10, 1, jobs=100_000)
    assert sim._chunks(range(5, 5 + 10**6), 2) == [
        range(s, min(s + 31_250, 10**6 + 5)) for s in range(5, 10**6 + 5, 31_250)
    ]


def test_bench_refuses_games_past_the_limit(capsys):
    code, _, err = cli(capsys, "bench", "tictactoe", "--games", "1000000000000")
    assert code == 2 and "--games 1000000000000: the limit is 1,000,000 games" in err


def test_json_and_csv_together_is_an_argument_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "tictactoe", "--games", "3", "--json", "--csv"])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_workers_that_load_the_game_themselves_give_the_same_results(monkeypatch):
    """Where there is no fork (macOS, Windows), each worker loads the game: the same records."""
    import multiprocessing

    from interpreter.play import simulate as sim

    setup = sim.Setup(game="kuhn_poker", players=2)
    here = sim.simulate(setup, 40, 5, jobs=1)
    monkeypatch.setattr(sim, "_context", lambda: multiprocessing.get_context("spawn"))
    assert sim.simulate(setup, 40, 5, jobs=2) == here


# ---- cards: a seat plays a card when it chooses it in a decision ---------------------------------
def test_card_summary_of_a_known_sample():
    """Seat-games that chose a card against all the others, shared wins as shares."""
    cards = {"ace": ("Card", "Ace"), "king": ("Card", "King"), "queen": ("Card", "Queen")}
    records = [
        GameRecord(1, ("west",), 10, None, "", "", (("west", "ace", 2), ("east", "king", 1))),
        GameRecord(2, ("east",), 10, None, "", "", (("west", "ace", 1), ("east", "ace", 1))),
        GameRecord(3, ("west", "east"), 10, None, "", "", (("east", "king", 3),)),
        GameRecord(4, (), 10, None, "", "", ()),
    ]
    s = summarise(records, ("west", "east"), cards)
    ace, king, queen = s["cards"]
    assert (ace["card"], ace["title"], ace["kind"]) == ("ace", "Ace", "Card")
    assert (ace["games"], ace["times"], ace["chosen_by"]) == (2, 4, {"west": 2, "east": 1})
    # Ace's choosers: west in 1 (won), west in 2 (lost), east in 2 (won): 2 of 3; the other
    # five seat-games hold the rest of the 3 wins (game 3's shared win, halves): 1 of 5.
    low, high = wilson(2, 3)
    assert ace["chose_it"] == {"seat_games": 3, "wins": 2.0, "rate": 2 / 3, "low": low, "high": high}
    assert ace["others"]["seat_games"] == 5 and ace["others"]["wins"] == pytest.approx(1.0)
    assert ace["difference"] == pytest.approx(2 / 3 - 1 / 5)
    assert (king["games"], king["times"], king["chosen_by"]) == (2, 4, {"east": 2})
    assert king["chose_it"]["wins"] == 0.5 and king["chose_it"]["rate"] == 0.25  # lost game 1, half of game 3
    # Each seat against itself: west chose the ace in games 1 and 2 (won 1) and not in 3 and 4 (won half).
    west = ace["by_seat"]["west"]
    assert (west["chose_it"]["seat_games"], west["chose_it"]["wins"]) == (2, 1.0)
    assert (west["did_not"]["seat_games"], west["did_not"]["wins"]) == (2, 0.5)
    assert king["by_seat"]["west"]["chose_it"]["rate"] is None and king["by_seat"]["west"]["did_not"]["rate"] == 0.375
    # Never chosen: no rate on its side, an empty difference, and every seat-game on the other.
    assert (queen["games"], queen["times"], queen["chosen_by"]) == (0, 0, {})
    assert queen["chose_it"]["rate"] is None and queen["difference"] is None
    assert queen["others"]["seat_games"] == 8 and queen["others"]["rate"] == pytest.approx(3 / 8)
    assert summarise(records, ("west", "east"))["cards"] is None  # no catalogue: no card figures


def _main_json(*argv: str) -> dict:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main([*argv, "--json"]) == 0
    return json.loads(out.getvalue())


TWID = ("twid", "--players", "2", "--games", "8", "--seed", "1", "--jobs", "2")


@pytest.fixture(scope="module")
def twid_doc() -> dict:
    """Eight two-player games of The Wall is Down, played once for the card tests."""
    return _main_json("simulate", *TWID)


def test_card_counts_are_consistent_with_the_games(twid_doc):
    doc = twid_doc
    n, seats, records = doc["games"], doc["seats"], doc["records"]
    catalogue = card_catalogue(load_game("twid"))
    assert [c["card"] for c in doc["cards"]] == list(catalogue)  # every card, once, in the game's order
    assert {c["kind"] for c in doc["cards"]} == {"TwidCard", "NwoSlot"}
    total_wins = sum(w["wins"] for w in doc["win_rates"])
    chosen_anywhere = 0
    for c in doc["cards"]:
        name = c["card"]
        by_record = [{s for s, chosen in r["cards"].items() if name in chosen} for r in records]
        assert c["games"] == sum(1 for who in by_record if who) <= n  # never in more games than were played
        assert c["chosen_by"] == {s: k for s in seats if (k := sum(s in who for who in by_record))}
        assert c["times"] == sum(chosen.get(name, 0) for r in records for chosen in r["cards"].values())
        me, others = c["chose_it"], c["others"]
        assert me["seat_games"] == sum(c["chosen_by"].values())
        assert c["games"] <= me["seat_games"] <= min(c["times"], len(seats) * c["games"])
        assert me["seat_games"] + others["seat_games"] == n * len(seats)  # every seat-game on one side
        assert me["wins"] + others["wins"] == pytest.approx(total_wins)  # and every win
        for side in (me, others):
            if side["seat_games"]:
                assert side["rate"] == pytest.approx(side["wins"] / side["seat_games"])
                assert side["low"] <= side["rate"] <= side["high"]
        if c["difference"] is not None:
            assert c["difference"] == pytest.approx(me["rate"] - others["rate"])
        for seat, w in zip(seats, doc["win_rates"]):  # each seat against itself: its games, its wins
            mine = c["by_seat"][seat]
            assert mine["chose_it"]["seat_games"] == c["chosen_by"].get(seat, 0)
            assert mine["chose_it"]["seat_games"] + mine["did_not"]["seat_games"] == n
            assert mine["chose_it"]["wins"] + mine["did_not"]["wins"] == pytest.approx(w["wins"])
        chosen_anywhere += c["times"]
    # The totals add up: every card choice of every game is in one card's count.
    assert chosen_anywhere == sum(k for r in records for chosen in r["cards"].values() for k in chosen.values()) > 0
    assert all(card in catalogue for r in records for chosen in r["cards"].values() for card in chosen)


def test_text_report_shows_the_card_table(capsys, twid_doc):
    code, out, _ = cli(capsys, "simulate", *TWID, "--cards", "4")
    assert code == 0
    assert re.search(r"^  West +\d", out, re.M) and re.search(r"^  East +\d", out, re.M)  # seats by title
    assert "  rounds " in out and "`round`" not in out
    assert "a card counts as played by a seat when the seat chose it in a decision" in out
    header = re.search(r"^  card +kind +games +times +seats +chose it +95% interval +others", out, re.M)
    assert header, out
    rows = out[header.end() :].split("\n")[1:5]
    chosen = [c for c in twid_doc["cards"] if c["times"]]
    top = sorted(chosen, key=lambda c: -abs(c["difference"] or 0))[:4]  # the largest differences, either way
    for row, c in zip(rows, top):
        assert re.fullmatch(r"  .+ +(twid card|nwo slot) +\d+ +\d+ +\d+ +\d+\.\d% +.* [+-]\d+\.\d pts", row), row
        assert abs(float(row.split()[-2])) == pytest.approx(100 * abs(c["difference"]), abs=0.05)
    assert f"(the 4 of the {len(chosen)} cards chosen with the largest differences either way; --cards all" in out
    never = len(twid_doc["cards"]) - len(chosen)
    assert (f"({never} of {len(twid_doc['cards'])} cards never chosen)" in out) == bool(never)
    # --cards all: a row for every card chosen, and no "largest differences" note.
    everything = "\n".join(text_report(twid_doc, top_cards=None))
    assert all(f"  {c['title']} " in everything for c in chosen)
    assert "--cards all lists them all" not in everything


def test_csv_cards_has_one_row_per_card(capsys, twid_doc):
    code, out, _ = cli(capsys, "simulate", *TWID, "--csv", "cards")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == CARD_COLUMNS
    assert [r[0] for r in rows[1:]] == [c["card"] for c in twid_doc["cards"]]
    for row, c in zip(rows[1:], twid_doc["cards"]):
        assert (int(row[3]), int(row[4]), int(row[6])) == (c["games"], c["times"], c["chose_it"]["seat_games"])
        assert row[5] == " ".join(f"{s}:{k}" for s, k in c["chosen_by"].items())
        assert row[8] == ("" if c["chose_it"]["rate"] is None else str(c["chose_it"]["rate"]))


# ---- Ray ------------------------------------------------------------------------------------------
def test_ray_gives_the_records_of_one_job(capsys):
    """A local Ray instance plays the same games: each depends only on its seed. (Twid, for
    its cards; about 10 s, most of it Ray starting.)"""
    pytest.importorskip("ray")
    argv = ("twid", "--players", "2", "--games", "6", "--seed", "11")
    here = simulate_json(capsys, *argv, "--jobs", "1")
    on_ray = simulate_json(capsys, *argv, "--jobs", "2", "--ray")
    assert on_ray == here
    assert [r["seed"] for r in on_ray["records"]] == list(range(11, 17))
    assert any(r["cards"] for r in on_ray["records"])


def test_ray_not_installed_is_exit_2_with_the_extra_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    code, _, err = cli(capsys, "simulate", "tictactoe", "--games", "2", "--ray")
    assert code == 2
    assert "gamedef: error: --ray needs Ray, which is not installed" in err
    assert 'hint: pip install ".[ray]"' in err


def test_ray_address_that_does_not_answer_is_exit_2_at_once(capsys):
    pytest.importorskip("ray")
    code, _, err = cli(capsys, "simulate", "tictactoe", "--games", "2", "--ray", "127.0.0.1:1")
    assert code == 2
    assert "--ray 127.0.0.1:1: cannot reach a Ray cluster there" in err and "ray start --head" in err
