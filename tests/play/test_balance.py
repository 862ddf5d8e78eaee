"""`gamedef balance`: the report over every player count (win rates per seat and count, the
first player against its fair share, length, endings, and each card or named component set
against the games without it, with a warning where the games are too few to tell); the same
figures on one process, with `--jobs 2` and on a local Ray cluster of several workers; an
HTML page that stands alone; every mistake exits 2; the commands in the docs parse and run.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter

import pytest
from repo_paths import ROOT

from interpreter import load_game
from interpreter.cli import balance_report as report
from interpreter.cli.commands import build_parser, main
from interpreter.cli.ray_workers import LOCAL_RAY
from interpreter.play import balance as bal
from interpreter.play.agents import make_agent, needs_chance
from interpreter.play.simulate import GameRecord, wilson

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # The docs' `balance --against` and `--sweep` commands, which compile The Wall is Down
    # again for each side or value (a minute or two each): the other docs' commands stay.
    r"test_each_balance_command_in_the_docs_is_valid\[balancing\.md:gamedef balance "
    r"(examples/twid_house_rules\.game|twid --players 2 --games 100 --sweep)",
]

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # an argument argparse itself refuses
        code = stop.code
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


def balance_json(capsys, *argv: str) -> dict:
    code, out, err = cli(capsys, "balance", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def without_times(doc: dict) -> dict:
    """The document without the seconds each count took (the one figure a machine decides)."""
    return {**doc, "counts": [{k: v for k, v in s.items() if k != "seconds"} for s in doc["counts"]]}


def _record(seed: int, winners: tuple[str, ...], first: str) -> GameRecord:
    return GameRecord(seed, winners, 10, None, "", "", (), (), first)


# ---- the figures ---------------------------------------------------------------------------------
def test_player_counts_are_read_as_lists_and_ranges():
    assert bal.parse_counts("2,4") == [2, 4]
    assert bal.parse_counts("4,2,2") == [2, 4]
    assert bal.parse_counts("2-4") == [2, 3, 4]
    assert bal.parse_counts("1, 3-4") == [1, 3, 4]
    for bad in ("", "two", "0", "4-2", "2,,4"):
        with pytest.raises(Exception, match="player counts"):
            bal.parse_counts(bad)


def test_first_player_of_a_known_sample():
    """Six games of two seats; the first mover won 4, one of them shared (counted 1/2):
    3.5 of 6 against a fair share of 1/2, the Wilson interval of 3.5/6, and "no measurable"
    advantage since that interval holds 50%."""
    records = [
        _record(1, ("a",), "a"),
        _record(2, ("a",), "a"),
        _record(3, ("b",), "b"),
        _record(4, ("a", "b"), "b"),
        _record(5, ("b",), "a"),
        _record(6, ("a",), "b"),
    ]
    fp = bal.first_player(records, 2)
    assert fp["wins"] == pytest.approx(3.5)
    assert fp["rate"] == pytest.approx(3.5 / 6)
    assert (fp["low"], fp["high"]) == pytest.approx(wilson(3.5, 6))
    assert fp["advantage"] == pytest.approx(3.5 / 6 - 0.5)
    assert fp["first_seats"] == {"a": 3, "b": 3}
    assert fp["reading"].startswith("no measurable")
    assert bal.first_player(records, 1) is None  # alone, nobody to be ahead of


def test_first_player_far_above_its_share_is_said():
    """40 games of four seats, the first mover winning 30: 75% (its interval 60%-86%) is
    above the fair share of 25%, and the report says so; winning 1 of 40 is below it."""
    ahead = [_record(i, ("a",) if i < 30 else ("b",), "a") for i in range(40)]
    fp = bal.first_player(ahead, 4)
    assert fp["raw_reading"] == "the first player wins more than its share"
    # The same seat moved first in all 40: the report says it cannot be told from the seat's own lead.
    assert fp["method"] == "confounded with seat" and fp["within_seat"] is None
    assert fp["reading"].startswith("the first player wins more than its share, but the same seat (a)")
    behind = [_record(i, ("a",) if i < 1 else ("b",), "a") for i in range(40)]
    assert bal.first_player(behind, 4)["raw_reading"] == "the first player wins less than its share"


def _section(players: int, wins: dict[str, float], nobody: int = 0) -> dict:
    """A count's figures as far as the seat-imbalance alarm reads them."""
    return {
        "players": players,
        "games": int(sum(wins.values())) + nobody,
        "no_winner": {"games": nobody},
        "win_rates": [{"seat": seat, "wins": w} for seat, w in wins.items()],
        "seat_titles": {seat: seat.title() for seat in wins},
    }


def test_the_seat_imbalance_alarm_reads_each_seat_in_a_corrected_interval():
    """Two seats, 40 games: 30 wins to 10 is beyond even the interval corrected for the two
    seats tested (Bonferroni, each at 97.5%), an alarm on both sides; 27 to 13 is outside
    West's plain 95% interval of 50% but inside its corrected one: no alarm. The games
    nobody won are left out of the shares."""
    clear = bal.seat_imbalance([_section(2, {"west": 30, "east": 10})])
    assert clear["tested"] == 2
    west, east = clear["seats"]
    assert (west["alarm"], east["alarm"]) == ("more", "less")
    z = 2.241402727604945  # the normal quantile at 1 - 0.05 / (2 * 2)
    assert (west["low"], west["high"]) == pytest.approx(wilson(30, 40, z))
    assert wilson(27, 40)[0] > 0.5  # one seat read alone would be called ahead...
    near = bal.seat_imbalance([_section(2, {"west": 27, "east": 13})])
    assert [row["alarm"] for row in near["seats"]] == [None, None]  # ...but not among two
    drawn = bal.seat_imbalance([_section(2, {"west": 20, "east": 20}, nobody=60)])
    assert [(row["games"], row["rate"], row["alarm"]) for row in drawn["seats"]] == [(40, 0.5, None)] * 2
    # Across counts the correction counts every seat: six here, so each interval is wider.
    both = bal.seat_imbalance([_section(2, {"west": 30, "east": 10}), _section(4, dict.fromkeys("abcd", 10))])
    assert both["tested"] == 6 and both["seats"][0]["low"] < west["low"]


def test_the_report_says_plainly_which_seat_wins_beyond_its_share(capsys, tmp_path):
    """Tic-tac-toe with a searching x against a random o: x wins far more than half of the
    games someone won; the text and the page say it as an alarm."""
    argv = ("tictactoe", "--games", "20", "--seed", "1", "--agent", "x=mcts:40", "--jobs", "1")
    code, out, _ = cli(capsys, "balance", *argv, "--html", str(tmp_path / "page.html"))
    assert code == 0
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "<p class='warn'><b>ALARM: at 2 players x wins" in page and "corrected interval</th>" in page
    words = " ".join(out.split())
    assert "seat imbalance: each seat's share of the games someone won against its fair share" in words
    assert re.search(r"ALARM: at 2 players x wins \S+% of the \d+ decided games .*: more than its share", words)
    assert re.search(r"ALARM: at 2 players o wins .*: less than its share", words)
    fair = cli(capsys, "balance", "tictactoe", "--games", "20", "--seed", "1", "--jobs", "1")[1]
    assert "no alarm: every seat's win rate is within its corrected interval" in " ".join(fair.split())


# ---- the command ---------------------------------------------------------------------------------
def test_every_count_of_the_game_by_default_with_the_first_player_and_seats(capsys):
    """Walls and Wonders is for 2 to 8 players; `--players 2-3` plays those two counts, with
    the same seeds at each. Each count's win rates, with no winner, add up to the games; the
    first player is, game by game, the seat first asked to decide (never the same one in
    every game here), and its wins are counted from the games' winners."""
    doc = balance_json(capsys, "walls_and_wonders", "--players", "2-3", "--games", "12", "--seed", "5", "--jobs", "1")
    assert [s["players"] for s in doc["counts"]] == [2, 3]
    for s in doc["counts"]:
        records = doc["records"][str(s["players"])]
        assert s["games"] == 12
        total = sum(w["wins"] for w in s["win_rates"]) + s["no_winner"]["games"]
        assert total == pytest.approx(12)
        fp = s["first_player"]
        assert fp["games"] == 12 and sum(fp["first_seats"].values()) == 12
        assert set(fp["first_seats"]) <= set(s["seats"])
        assert fp["first_seats"] == dict(Counter(r["first"] for r in records))
        wins = sum(1 / len(r["winners"]) for r in records if r["first"] in r["winners"])
        assert fp["wins"] == pytest.approx(wins) and fp["fair_share"] == pytest.approx(1 / s["players"])
        assert sum(e["games"] for e in s["endings"]) == 12
    assert [r["seed"] for r in doc["records"]["3"]] == list(range(5, 17))


def test_default_counts_are_all_the_games_counts(capsys):
    doc = balance_json(capsys, "kuhn_poker", "--games", "5", "--jobs", "1")
    assert [s["players"] for s in doc["counts"]] == [2]
    assert doc["counts"][0]["payoffs"]  # Kuhn poker's chips, beside the win rates


def test_the_text_report_has_each_section(capsys):
    code, out, _ = cli(capsys, "balance", "twid", "--players", "2,4", "--games", "8", "--jobs", "1", "--top", "all")
    assert code == 0
    assert "win rate per seat and player count (95% Wilson interval):" in out
    assert re.search(r"^  West +\S+% \(\S+% - \S+%\) +-$", out, re.M)  # West plays only at 2 players
    assert "== 2 players (8 games" in out and "== 4 players (8 games" in out
    assert re.search(r"first player \(moved first: \w+ 8\): wins", out)
    assert "game length:" in out and "how games ended:" in out
    assert out.count("components:") == 1  # one family of tests over both counts
    words = " ".join(out.split())  # the method sentence is wrapped
    assert "p-values adjusted by Holm" in words and "test: Cochran-Mantel-Haenszel" in words
    assert "too few games to tell" in out  # 8 games tell nothing about one card


def test_same_results_on_one_process_and_with_two_jobs(capsys):
    """A seed fixes its game: two worker processes give the document of one, at each count."""
    argv = ("twid", "--players", "2,4", "--games", "6", "--seed", "3")
    one = balance_json(capsys, *argv, "--jobs", "1")
    two = balance_json(capsys, *argv, "--jobs", "2")
    assert without_times(one) == without_times(two)
    assert {k: [r["seed"] for r in v] for k, v in one["records"].items()} == {"2": [3, 4, 5, 6, 7, 8]} | {
        "4": [3, 4, 5, 6, 7, 8]
    }


def test_a_named_component_is_counted_instead_of_the_cards(capsys):
    """`--component Action`: Downfall of Empires' actions (it has no printed cards), each with
    how often it was chosen and its choosers' win rate; every game recruits, so `recruit` is
    chosen in every game; the verdicts are only the three the report knows."""
    doc = balance_json(
        capsys, "downfall_of_empires", "--players", "4", "--games", "3", "--jobs", "1", "--component", "Action"
    )
    (s,) = doc["counts"]
    names = [c["card"] for c in s["cards"]]
    assert names == list(load_game("downfall_of_empires").compiled.types["Action"])
    assert {c["kind"] for c in s["cards"]} == {"Action"}
    assert any(c["times"] for c in s["cards"])
    for c in s["cards"]:
        assert c["games"] <= 3 and c["share_of_games"] == pytest.approx(c["games"] / 3)
    tests = doc["component_tests"]["components"]
    assert {c["card"] for c in tests} == set(names)
    for c in tests:  # an action has no slot: it is played when chosen
        assert c["played_as"] == "chosen in a decision"
        assert c["verdict"] in ("higher", "lower", "no effect shown", "too few games to tell", "never chosen")
    assert doc["components"] == ["Action"]


def test_html_page_stands_alone_and_its_charts_are_beside_it(capsys, tmp_path):
    """The page has every section, no outside resource (its charts are inlined as data), and
    the charts are also written beside it as PNG files; the command that makes it again is
    at its top."""
    pytest.importorskip("matplotlib")
    page = tmp_path / "report.html"
    code, out, _ = cli(capsys, "balance", "tictactoe", "--games", "10", "--jobs", "1", "--html", str(page))
    assert code == 0
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    for heading in ("Win rate per seat and player count", "2 players", "Game length", "How games ended"):
        assert heading in text
    assert "First player</b> (confounded with seat): first player (moved first: x 10)" in text
    assert not re.search(r"""(src|href)=["'](?!data:)""", text)  # nothing fetched from elsewhere
    assert text.count('src="data:image/png;base64,') == 2
    for name in ("report-2p-win_rates.png", "report-2p-lengths.png"):
        assert (tmp_path / name).read_bytes().startswith(PNG_MAGIC)
        assert f"written: {tmp_path / name}" in out
    assert "gamedef balance tictactoe --players 2 --games 10 --seed 1 --html" in text


def test_html_escapes_what_a_game_narrates(capsys):
    """A game's text (an ending line, a seat's title) is data, never markup."""
    doc = balance_json(capsys, "tictactoe", "--games", "4", "--jobs", "1")
    doc["counts"][0]["endings"][0]["ending"] = "<script>alert(1)</script>"
    doc["counts"][0]["seat_titles"]["x"] = "X & <b>"
    text = report.html_report(doc)
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "X &amp; &lt;b&gt;" in text


def test_the_command_line_at_the_top_of_the_page_plays_the_same_games(capsys):
    """`command_line` writes every argument that decides the figures; parsed again, it
    names the same counts, games, seeds, agents and components."""
    doc = balance_json(
        capsys, "twid", "--players", "2", "--games", "3", "--seed", "9", "--jobs", "1",
        "--agent", "random", "--agent", "east=first", "--option", "promos=true",
    )  # fmt: skip
    line = report.command_line("twid", doc)
    args = build_parser().parse_args(shlex.split(line)[1:])
    assert (args.game, args.players, args.games, args.seed) == ("twid", [2], 3, 9)
    assert args.agent == ["random", "east=first"] and args.option == ["promos=true"]
    again = balance_json(capsys, *shlex.split(line)[2:], "--jobs", "1")
    assert without_times(again) == without_times(doc)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["twid", "--players", "5"], "--players 5: The Wall is Down is for 1 to 4 players"),
        (["twid", "--players", "x"], "argument --players: expected player counts such as 2,4"),
        (["twid", "--component", "Cards"], "--component Cards: The Wall is Down has no kind of component named"),
        (["twid", "--agent", "north=random"], "--agent north: no seat 'north' in this game"),
        (["twid", "--agent", "west=wizard"], "unknown agent kind 'wizard'"),
        (["twid", "--agent", "human"], "a balance report has nobody to ask"),
        (["twid", "--jobs", "0"], "--jobs 0: at least one job is needed"),
        (["twid", "--games", "0"], "argument --games: expected a number above 0"),
        (["twid", "--html", "no/such/folder/report.html"], "--html no/such/folder/report.html: no folder"),
        (["twid", "--html", "."], "--html .: that is a folder"),
        (["nosuchgame"], "nosuchgame"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(capsys, argv, message):
    extra = () if "--games" in argv else ("--games", "1")
    code, out, err = cli(capsys, "balance", *argv, *extra)
    assert code == 2
    assert message in err
    assert out == ""  # nothing was played


def test_a_seat_of_another_count_is_not_a_mistake(capsys):
    """`--agent us=first` with `--players 2,4`: the US plays at 4, not at 2 (West and East);
    the agent applies where the seat plays."""
    doc = balance_json(capsys, "twid", "--players", "2,4", "--games", "2", "--jobs", "1", "--agent", "us=first")
    assert doc["counts"][0]["agents"] == {"west": "random", "east": "random"}
    assert doc["counts"][1]["agents"]["us"] == "first"


def test_a_bare_kind_with_a_learned_model_is_every_seats_agent(capsys, tmp_path):
    """`--agent greedy:learned=FILE` names no seat (the `=` is the model's): every seat plays
    greedy by the model, as a bare `greedy` would; `SEAT=KIND` after it still sets one seat.
    `simulate`, which takes only `SEAT=KIND`, says so and shows the seat to write."""
    pytest.importorskip("numpy", reason="the learned estimate needs numpy: pip install '.[learn]'")
    from interpreter.play import learned
    from interpreter.play.agents import parse_agents

    ttt = load_game("tictactoe")
    played = learned.self_play(
        ttt, 10, 1, None, lambda state, seed: parse_agents([], ttt, state.players, seed)[0], positions=10
    )
    path = tmp_path / "ttt.json"
    learned.save(learned.fit(ttt, played, {"agent": "random", "games": 10, "seed": 1}), path)
    kind = f"greedy:learned={path}"
    assert bal.seat_agents(ttt, ("x", "o"), [kind, "o=random"]) == [f"x={kind}", f"o={kind}", "o=random"]
    doc = balance_json(capsys, "tictactoe", "--games", "2", "--jobs", "1", "--agent", kind)
    assert doc["counts"][0]["agents"] == {"x": kind, "o": kind}
    doc = balance_json(capsys, "tictactoe", "--games", "2", "--jobs", "1", "--agent", kind, "--agent", "o=random")
    assert doc["counts"][0]["agents"] == {"x": kind, "o": "random"}
    code, out, err = cli(capsys, "simulate", "tictactoe", "--games", "2", "--agent", kind)
    assert code == 2 and out == ""
    assert f"--agent needs SEAT=KIND, got '{kind}'" in err and f"--agent x={kind}" in err


def test_kept_games_are_read_back_and_give_the_figures_of_a_fresh_run(capsys, tmp_path):
    """`--keep FILE`: a run of 4 games writes them; a run of 7 with the same file plays only
    seeds 5-7 (the kept ones are not played again: a kept record edited by hand shows
    through) and gives, for the 7, every figure of a fresh run of 7."""
    keep = tmp_path / "games.jsonl"
    argv = ("twid", "--players", "2", "--seed", "2", "--jobs", "1", "--keep", str(keep))
    balance_json(capsys, *argv, "--games", "4")
    lines = keep.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["record"]["seed"] for line in lines] == [2, 3, 4, 5]
    resumed = balance_json(capsys, *argv, "--games", "7")
    assert [json.loads(line)["record"]["seed"] for line in keep.read_text().splitlines()] == list(range(2, 9))
    fresh = balance_json(capsys, "twid", "--players", "2", "--seed", "2", "--jobs", "1", "--games", "7")
    assert without_times(resumed) == without_times(fresh)
    edited = json.loads(lines[0])
    edited["record"]["decisions"] = 99999
    keep.write_text("\n".join([json.dumps(edited), *keep.read_text().splitlines()[1:]]) + "\n")
    again = balance_json(capsys, *argv, "--games", "7")
    assert again["counts"][0]["decisions"]["max"] == 99999


def test_kept_games_are_played_by_one_pool_and_each_written_as_it_ends(capsys, tmp_path, monkeypatch):
    """`--keep FILE --jobs 2`: the games not kept, consecutive seeds, are one `simulate` (one
    pool of workers, busy until the last game, not batches each waiting for its slowest
    game), and each game is in the file before the run ends: a run stopped by a failing
    game keeps the games that ended before it."""
    calls = []
    simulate = bal.sim.simulate

    def counted(*args, **kwargs):
        calls.append(args[1:3])
        return simulate(*args, **kwargs)

    monkeypatch.setattr(bal.sim, "simulate", counted)
    keep = tmp_path / "games.jsonl"
    argv = ("tictactoe", "--seed", "3", "--jobs", "2", "--keep", str(keep))
    doc = balance_json(capsys, *argv, "--games", "9")
    assert calls == [(9, 3)]  # (games, first seed): one run of all nine
    seeds = [json.loads(line)["record"]["seed"] for line in keep.read_text(encoding="utf-8").splitlines()]
    assert sorted(seeds) == list(range(3, 12))
    assert without_times(doc) == without_times(balance_json(capsys, "tictactoe", "--seed", "3", "--games", "9"))

    written: list[list[int]] = []  # what the file holds each time a game of seed 4 to 7 is asked for

    def failing(game, setup, seed):
        lines = kept.read_text().splitlines() if kept.exists() else []
        written.append([json.loads(line)["record"]["seed"] for line in lines])
        if seed == 6:
            raise bal.sim._Failure(seed, "stopped", None)
        return play_game(game, setup, seed)

    kept = tmp_path / "stopped.jsonl"
    play_game = bal.sim.play_game
    monkeypatch.setattr(bal.sim, "play_game", failing)
    code, _, _ = cli(capsys, "balance", "tictactoe", "--seed", "4", "--games", "4", "--jobs", "1", "--keep", str(kept))
    assert code != 0 and written == [[], [4], [4, 5]]
    assert [json.loads(line)["record"]["seed"] for line in kept.read_text().splitlines()] == [4, 5]


def test_chunks_are_single_games_until_every_worker_has_sixteen():
    """The pool's chunks: 40 games on 2 workers are 40 chunks of one game (two to a chunk, the
    last chunk's second game ran alone on one core), 64 games on 2 are 32 of two."""
    assert bal.sim._chunks(range(1, 41), 2) == [range(s, s + 1) for s in range(1, 41)]
    assert bal.sim._chunks(range(64), 2) == [range(s, s + 2) for s in range(0, 64, 2)]


@pytest.mark.parametrize(
    "extra",
    [{}, {"max_decisions": 100000, "score": None, "constants": {}}],
    ids=["before-score-existed", "every-field-written-out"],
)
def test_a_kept_game_whose_key_names_fields_at_their_defaults_or_not_at_all_is_read_back(
    capsys, tmp_path, monkeypatch, extra
):
    """A file kept before `Setup` had a field (`score`, `constants`: their defaults play the
    games as before), or with every field written out, names the same games: read back,
    none played again."""
    keep = tmp_path / "games.jsonl"
    argv = ("tictactoe", "--games", "3", "--jobs", "1", "--agent", "o=first", "--keep", str(keep))
    first = balance_json(capsys, *argv)
    lines = []
    for line in keep.read_text().splitlines():
        item = json.loads(line)
        key = {k: v for k, v in json.loads(item["key"]).items() if k not in ("score", "constants", "max_decisions")}
        lines.append(json.dumps({"key": json.dumps({**key, **extra}), "record": item["record"]}))
    keep.write_text("\n".join(lines) + "\n")

    def refuse(*args, **kwargs):
        raise AssertionError("a kept game was played again")

    monkeypatch.setattr(bal.sim, "simulate", refuse)
    assert without_times(balance_json(capsys, *argv)) == without_times(first)


def test_a_kept_game_of_another_setup_is_played_again(capsys, tmp_path):
    """The same file with other agents: nothing kept matches, every game is played."""
    keep = tmp_path / "games.jsonl"
    argv = ("tictactoe", "--games", "3", "--jobs", "1", "--keep", str(keep))
    balance_json(capsys, *argv)
    balance_json(capsys, *argv, "--agent", "o=first")
    assert len(keep.read_text().splitlines()) == 6


def test_a_kept_game_of_rules_edited_since_is_played_again(capsys, tmp_path):
    """A `--keep` file names the rules its games were played by: after the game file is
    edited (West's head start of the toy game raised from 1 to 4), the same command plays
    every game again under the rules as they are, and its figures are a fresh run's, not
    the kept games' of the rules before."""
    toy = tmp_path / "toy.game"
    text = (ROOT / "tests" / "play" / "balance" / "toy_cards.game").read_text(encoding="utf-8")
    toy.write_text(text, encoding="utf-8")
    keep = tmp_path / "games.jsonl"
    argv = (str(toy), "--games", "40", "--jobs", "1")
    before = balance_json(capsys, *argv, "--keep", str(keep))
    toy.write_text(text.replace("def head_start() = 1", "def head_start() = 4"), encoding="utf-8")
    after = balance_json(capsys, *argv, "--keep", str(keep))
    fresh = balance_json(capsys, *argv)
    assert len(keep.read_text().splitlines()) == 80  # the 40 games played again, beside the old ones
    assert without_times(after) == without_times(fresh) and after["rules_hash"] != before["rules_hash"]
    assert after["counts"][0]["win_rates"][0]["rate"] > before["counts"][0]["win_rates"][0]["rate"]


def test_a_simulated_match_between_agents_is_replayed_from_its_json_alone(capsys):
    """`simulate --json` says what replays each of its games: the game, its rules' digest and
    gamedef's version, the variants and options, each seat's agent, and each record's seed.
    `gamedef run` with those, in another process's stead, plays the same game: the same
    winners in the same number of decisions, for a searching agent too."""
    code, out, err = cli(
        capsys, "simulate", "tictactoe", "--games", "4", "--jobs", "1", "--agent", "o=mcts:10", "--json"
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["rules_hash"] == load_game("tictactoe").rules_hash and doc["version"]
    assert doc["agents"] == {"x": "random", "o": "mcts:10"}
    for record in doc["records"]:
        argv = ["run", doc["game"], "--seed", str(record["seed"]), "--players", str(doc["players"]), "--json"]
        argv += [f"--agent={seat}={kind}" for seat, kind in doc["agents"].items()]
        argv += [f"--variant={v}" for v in doc["variants"]] + [f"--option={k}={v}" for k, v in doc["options"].items()]
        code, out, err = cli(capsys, *argv)
        assert code == 0, err
        result = json.loads(out.splitlines()[-1])
        assert (result["result"], result["decisions"]) == (record["winners"], record["decisions"])


def test_a_keep_file_that_is_not_games_is_exit_2_naming_the_line(capsys, tmp_path):
    keep = tmp_path / "games.jsonl"
    keep.write_text('{"key": "x", "record": {"seed": 1}}\n', encoding="utf-8")
    code, out, err = cli(capsys, "balance", "tictactoe", "--games", "2", "--keep", str(keep))
    assert code == 2 and f"--keep {keep}:1: not a game this command wrote" in err and out == ""


# ---- Ray: a local cluster of several workers -------------------------------------------------------
@pytest.mark.slow
def test_a_local_ray_cluster_of_several_workers_gives_the_figures_of_one_process(capsys):
    """A cluster of a head and two worker nodes (each its own raylet and workers) started
    here; `--ray ADDRESS` spreads the games of both counts over it, and every figure and
    record is the one process's. (About a minute, most of it Ray starting.)"""
    pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    argv = ("twid", "--players", "2,4", "--games", "8", "--seed", "21")
    here = balance_json(capsys, *argv, "--jobs", "1")
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        for _ in range(2):
            cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        assert len(cluster.list_all_nodes()) == 3
        on_ray = balance_json(capsys, *argv, "--ray", cluster.address)
    finally:
        cluster.shutdown()
    assert without_times(on_ray) == without_times(here)


# ---- the documents -------------------------------------------------------------------------------
_DOCS = [ROOT / "docs" / "balancing.md", *sorted((ROOT / "docs" / "balance").glob("*.md"))]
_COMMAND = re.compile(r"^\s*(gamedef balance [^\n`]+)$", re.M)


def _doc_commands() -> list:
    out = []
    for doc in _DOCS:
        for m in _COMMAND.finditer(doc.read_text(encoding="utf-8")):
            out.append(pytest.param(m.group(1).strip(), id=f"{doc.name}:{m.group(1)[:60]}"))
    return out


DOC_COMMANDS = _doc_commands()


def test_the_docs_show_balance_commands():
    assert len(DOC_COMMANDS) >= 4


@pytest.mark.parametrize("command", DOC_COMMANDS)
def test_each_balance_command_in_the_docs_is_valid(command, capsys, tmp_path):
    """Every `gamedef balance` line of docs/balancing.md and docs/balance/ parses, names a
    bundled game, counts it allows, agents and components it has: run with one game a count
    (in a scratch folder, its page written there), it ends with exit 0."""
    words = shlex.split(command)[2:]
    args = build_parser().parse_args(["balance", *words])
    if "--games" in words:
        words[words.index("--games") + 1] = "1"
    else:
        words += ["--games", "1"]
    for flag, name in (("--html", "page.html"), ("--keep", "games.jsonl")):  # nothing written in the project
        if flag in words:
            words[words.index(flag) + 1] = str(tmp_path / name)
    if args.ray is not None:  # one game here, not on a cluster
        at = words.index("--ray")
        del words[at : at + (1 if args.ray == LOCAL_RAY else 2)]
    # A search's or a look-ahead's whole game of a big game is minutes: each such agent is
    # made for the game (so its kind is checked), then the games are played at random.
    agents = [i for i in range(1, len(words)) if words[i - 1] == "--agent"]
    game = None
    for i in agents:
        seat, _, kind = words[i].rpartition("=")
        if kind.split(":")[0] in ("ismcts", "mcts", "greedy"):
            game = game or load_game(words[0])
            made_for = load_game(words[0], chance=True) if needs_chance(game, [kind]) else game
            make_agent(kind, seat or "every seat", 0, made_for)
            words[i] = f"{seat}=random" if seat else "random"
    code, _, err = cli(capsys, "balance", *words, "--jobs", "1")
    assert code == 0, err


@pytest.mark.parametrize("content", [b"\xff\xfe{{{{\n", b"[" * 100_000 + b"\n"], ids=["not-utf8", "deeply-nested"])
def test_a_kept_file_of_bad_bytes_or_deep_nesting_is_exit_2_naming_its_line(capsys, tmp_path, content):
    """Every input is untrusted: a --keep file that is not UTF-8 or nests past the JSON
    reader's depth is a clean error with its line, never a traceback."""
    keep = tmp_path / "games.jsonl"
    keep.write_bytes(content)
    code, out, err = cli(capsys, "balance", "tictactoe", "--games", "2", "--keep", str(keep))
    assert code == 2 and f"--keep {keep}:1: not a game this command wrote" in err and out == ""
    assert "Traceback" not in err
