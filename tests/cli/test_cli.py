"""The `gamedef` command line, through `interpreter.cli.main([...])` with captured output.

Every failure a user can cause must exit with code 2 and a short message with a hint,
never a Python traceback.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import re
import sys
import tomllib

import pytest
import tomli_w
from bw_helpers import VARIANTS
from repo_paths import ROOT

from interpreter.cli.commands import main

RESULT_LINE = re.compile(r"^== game over after (\d+) decisions: (no winner|.+ wins?)$")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


# ---- list, rules, run, replay, bench ------------------------------------------------------------------
def test_list_shows_berlin_wall_and_its_eight_variants(capsys):
    code, out, _ = cli(capsys, "list")
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("berlin_wall "))
    assert "Berlin Wall (2-4 players)" in lines[start]
    shown = [line.split()[1] for line in lines[start + 1 :] if line.startswith("    --variant")][:8]
    assert shown == VARIANTS
    assert "Variant 2: Gravity" in out
    assert any(line.startswith("tictactoe ") for line in lines)
    assert any(line.startswith("kuhn_poker ") for line in lines)


def test_rules_lists_sections_and_interpretations(capsys):
    code, out, _ = cli(capsys, "rules", "berlin_wall")
    assert code == 0
    assert out.startswith("# Berlin Wall") and "\nBerlin Wall: rulebook " in out  # the summary, then the citations
    assert re.search(r"^procedure setup  \(berlin_wall\.game:\d+\)$", out, re.M)
    assert re.search(r"^  § Setup  \[\d+\]$", out, re.M)
    assert re.search(r"^    interpretation: .+  \[\d+\]$", out, re.M)
    assert "procedure play  (" in out
    for name in VARIANTS:
        assert re.search(rf"^variant {name}: Variant \d: ", out, re.M), name
    assert "§ Variant 2: Gravity" in out


def test_rules_marks_the_active_variant(capsys):
    code, out, _ = cli(capsys, "rules", "berlin_wall", "--variant", "gravity")
    assert code == 0
    assert "variant gravity: Variant 2: Gravity (active)" in out
    assert "variant crazy_8s: Variant 1: The Crazy 8's Rule\n" in out


def test_run_tictactoe_ends_with_the_result_line(capsys):
    code, out, _ = cli(capsys, "run", "tictactoe", "--seed", "3")
    assert code == 0
    lines = out.rstrip("\n").splitlines()
    assert lines[0] == "== Tic-tac-toe: x, o; seed 3"
    assert RESULT_LINE.match(lines[-1]), lines[-1]
    assert "board:" in out
    # The same seed plays the same game.
    assert cli(capsys, "run", "tictactoe", "--seed", "3")[1] == out


def test_run_with_agents_and_moves(capsys):
    code, out, _ = cli(capsys, "run", "tictactoe", "--agent", "x=first", "--agent", "o=first", "--moves")
    assert code == 0
    assert "  > x: a1\n" in out and "  > o: b1\n" in out
    # x takes a1, c1, b2, a3 and wins on the c1-a3 diagonal.
    assert out.rstrip().endswith("== game over after 7 decisions: x wins")


def test_run_transcript_then_replay(tmp_path, capsys):
    transcript = tmp_path / "game.toml"
    code, out, _ = cli(
        capsys,
        "run",
        "berlin_wall",
        "--players",
        "3",
        "--seed",
        "2",
        "--transcript",
        str(transcript),
        "--quiet",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "== Berlin Wall: red, black, green; seed 2"
    match = RESULT_LINE.match(lines[1])
    assert match, lines
    assert lines[2] == f"transcript written to {transcript}"
    assert len(lines) == 3  # --quiet: no narration, no board
    data = tomllib.loads(transcript.read_text())
    assert (data["game"], data["players"], data["seed"]) == ("berlin_wall", 3, 2)
    assert len(data["moves"]) == int(match.group(1))

    code, out, err = cli(capsys, "replay", str(transcript))
    assert code == 0, err
    (winner,) = data["result"]
    assert out.strip() == f"{transcript}: {match.group(1)} moves replayed; {winner} wins"

    code, out, err = cli(capsys, "replay", str(transcript), "--json")
    assert code == 0, err
    state = json.loads(out)
    assert state["game"] == "berlin_wall"
    assert state["players"] == ["red", "black", "green"]
    assert state["decisions"] == int(match.group(1))
    assert state["result"] == data["result"]


def test_replay_of_an_illegal_move_exits_1(tmp_path, capsys):
    transcript = tmp_path / "ttt.toml"
    assert cli(capsys, "run", "tictactoe", "--seed", "1", "--quiet", "--transcript", str(transcript))[0] == 0
    text = transcript.read_text()
    first = tomllib.loads(text)["moves"][0]
    transcript.write_text(text.replace(f'"{first}"', '"x: z9"', 1))
    code, out, err = cli(capsys, "replay", str(transcript))
    assert code == 1
    assert "move 1 (x: z9)" in err


def test_save_state_then_run_from_it(tmp_path, capsys):
    saved = tmp_path / "end.toml"
    assert cli(capsys, "run", "tictactoe", "--seed", "5", "--quiet", "--save-state", str(saved))[0] == 0
    code, out, _ = cli(capsys, "run", "tictactoe", "--from-state", str(saved), "--quiet")
    assert code == 0
    assert RESULT_LINE.match(out.splitlines()[-1])


def test_bench_prints_games_per_second(capsys):
    code, out, err = cli(capsys, "bench", "tictactoe", "--games", "5")
    assert code == 0
    speed = r"Tic-tac-toe: 5 random games in [\d.]+s: [\d.]+ games/s, \d+ decisions/s, \d+ decisions per game\n"
    wins = r"wins: x ([\d.]+)%, o ([\d.]+)%(, nobody ([\d.]+)%)?\n"
    match = re.fullmatch(speed + wins, out)
    assert match, out
    shares = [float(x) for x in match.group(1, 2, 4) if x]
    assert abs(sum(shares) - 100) < 0.2 and all(x % 20 == 0 for x in shares)  # 5 games: steps of 20%
    assert "5/5 games" in err


# ---- user mistakes: exit 2, a message and a hint, no traceback -----------------------------------------
def usage_error(tmp_path, capsys, argv) -> list[str]:
    code, out, err = cli(capsys, *[a.replace("TMP", str(tmp_path)) for a in argv])
    assert code == 2, (out, err)
    lines = err.rstrip("\n").splitlines()
    assert "error: " in lines[0]
    assert sum(line.startswith("    hint: ") for line in lines) == 1, err
    return lines


@pytest.mark.parametrize(
    ("argv", "message", "hint"),
    [
        (["run", "tictactoo"], "no game file or bundled game named 'tictactoo'", "did you mean 'tictactoe'?"),
        (
            ["run", "berlin_wall", "--players", "9"],
            "Berlin Wall is for 2 to 4 players, not 9",
            "use --players N, N from 2 to 4",
        ),
        (
            ["run", "tictactoe", "--option", "nonsense"],
            "--option needs NAME=VALUE, got 'nonsense'",
            "`gamedef info GAME` lists the options",
        ),
        (
            ["run", "tictactoe", "--agent", "nobody=random"],
            "--agent nobody: no seat 'nobody' in this game",
            "seats: x, o",
        ),
        (["run", "tictactoe", "--agent", "red=genius"], "--agent red: no seat 'red' in this game", "seats: x, o"),
        (
            ["run", "tictactoe", "--agent", "x=genius"],
            "unknown agent kind 'genius'",
            "kinds: random, first, human",
        ),
        (["run", "tictactoe", "--agent", "x"], "--agent needs SEAT=KIND, got 'x'", "--agent x=first"),
        (["run", "berlin_wall", "--agent", "red=genius"], "unknown agent kind 'genius'", "kinds:"),
        (["play", "tictactoe", "--seat", "y"], "--seat y: no seat 'y' in this game", "seats: x, o"),
        (
            ["run", "berlin_wall", "--die", "9"],
            "--die 9: the roll it pins (in roll_for_first) gives 1, 2, 3, 4, 5, 6",
            "each --die pins the next random result, in order",
        ),
        (["replay", "TMP/missing.toml"], "no such transcript file", None),
    ],
    ids=[
        "unknown-game",
        "too-many-players",
        "option-without-value",
        "agent-unknown-seat",
        "agent-other-game-seat",
        "agent-unknown-kind",
        "agent-without-kind",
        "agent-unknown-kind-berlin",
        "play-unknown-seat",
        "die-the-roll-cannot-give",
        "missing-transcript",
    ],
)
def test_usage_errors(tmp_path, capsys, argv, message, hint):
    if hint is None:  # a missing file: the message alone says it all
        code, _, err = cli(capsys, *[a.replace("TMP", str(tmp_path)) for a in argv])
        assert code == 2 and message in err
        return
    lines = usage_error(tmp_path, capsys, argv)
    assert lines == [f"gamedef: error: {message}", lines[1]]
    assert hint in lines[1]


@pytest.mark.parametrize(
    ("argv", "message", "hint"),
    [
        (
            ["run", "berlin_wall", "--variant", "gravty"],
            "unknown variant 'gravty'",
            "did you mean 'gravity'?",
        ),
        (
            ["run", "berlin_wall", "--variant", "gravity", "--variant", "nullo_gravity"],
            "variant 'nullo_gravity' cannot be combined with 'gravity'",
            "choose one of them",
        ),
        (["run", "tictactoe", "--option", "size=3"], "unknown option 'size'", "has no options"),
        (
            ["run", "berlin_wall", "--option", "colums=10"],
            "unknown option 'colums'",
            "did you mean 'columns'?",
        ),
        (
            ["run", "berlin_wall", "--option", "columns=10"],
            "option 'columns' = 10 is not allowed",
            "choose from 12",
        ),
    ],
    ids=[
        "unknown-variant",
        "excluded-variants",
        "option-of-a-game-without-options",
        "unknown-option",
        "option-outside-choices",
    ],
)
def test_bad_variants_and_options_point_at_the_argument(tmp_path, capsys, argv, message, hint):
    """Discoverability: a mistake in an argument is reported at that argument, not at a
    line of a game file (in site-packages, for an installed game) the user never wrote."""
    lines = usage_error(tmp_path, capsys, argv)
    flag = argv[-2] + " " + argv[-1]
    assert lines[0] == f"{flag}: error: {message}", lines[0]
    assert ".game" not in "\n".join(lines)
    assert hint in lines[-1]


def test_an_option_of_a_variant_not_chosen_names_the_variant(capsys):
    lines = usage_error(None, capsys, ["run", "berlin_wall", "--option", "ground=left"])
    assert lines == [
        "--option ground=left: error: unknown option 'ground'",
        "    hint: the variant gravity declares it: add --variant gravity",
    ]


def test_transcript_that_is_not_toml(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = not [toml\n")
    lines = usage_error(tmp_path, capsys, ["replay", str(bad)])
    assert lines[0].startswith(f"gamedef: error: {bad}: not valid TOML: ")
    assert lines[1] == "    hint: fix the transcript file's syntax"


def test_transcript_missing_fields(tmp_path, capsys):
    bad = tmp_path / "short.toml"
    bad.write_text('game = "tictactoe"\nmoves = []\n')
    lines = usage_error(tmp_path, capsys, ["replay", str(bad)])
    assert lines[0].startswith(f"gamedef: error: {bad}: not a transcript: ")
    assert "$.players" in lines[0] and "$.seed" in lines[0]
    assert "a transcript needs game, players, seed and moves" in lines[1]


def test_transcript_with_a_wrong_type_or_unknown_field(tmp_path, capsys):
    bad = tmp_path / "typed.toml"
    bad.write_text('game = "tictactoe"\nplayers = "two"\nseed = 1\nmoves = []\ncolour = "red"\n')
    lines = usage_error(tmp_path, capsys, ["replay", str(bad)])
    assert "not a transcript" in lines[0]
    assert "players" in lines[0] and "colour" in lines[0]


def test_transcript_move_without_a_seat(tmp_path, capsys):
    bad = tmp_path / "moves.toml"
    bad.write_text('game = "tictactoe"\nplayers = 2\nseed = 1\nmoves = ["a1"]\n')
    code, _, err = cli(capsys, "replay", str(bad))
    assert code == 2
    assert "move 1 'a1' is not 'seat: label'" in err


@pytest.mark.parametrize(
    "content",
    [
        'game = "tictactoe"\nplayers = 2\n',
        'players = ["x", "o"]\nrng = "0x1"\nvars = {}\n',
        'players = ["x", "o"]\nrng = "zz"\nvars = { board = {} }\n',
    ],
    ids=["no-vars", "variable-missing", "bad-rng"],
)
def test_state_file_missing_fields(tmp_path, capsys, content):
    bad = tmp_path / "state.toml"
    bad.write_text(content)
    lines = usage_error(tmp_path, capsys, ["run", "tictactoe", "--from-state", str(bad)])
    assert lines[0].startswith(f"gamedef: error: {bad}: ")
    assert "hint: " in lines[1]


def test_unknown_command_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err


# ---- play: a person at the keyboard ------------------------------------------------------------------
def test_play_reasks_on_bad_input_and_finishes(monkeypatch, capsys):
    # `HumanAgent` reads through `input`; feed it from a fake stdin.
    monkeypatch.setattr(sys, "stdin", io.StringIO("zz\n0\n1\nc1\n1\n1\n"))
    code, out, _ = cli(capsys, "play", "tictactoe", "--seat", "x", "--agent", "o=first")
    assert code == 0
    assert "x, mark an empty square:" in out
    assert "'zz' is not a legal move here: type a number from 1 to 9, a move, or a part of one" in out
    assert "there are moves 1 to 9, not 0" in out
    lines = out.rstrip().splitlines()
    assert lines[-1] == "== game over after 7 decisions: x wins"
    assert lines[-6] == "board:"  # the final position, then the result


def test_play_takes_a_unique_part_of_a_move_in_any_case_and_can_undo(monkeypatch, capsys, tmp_path):
    out_file = tmp_path / "t.toml"
    answers = "B2\nundo\nC3\n" + "1\n" * 6
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code, out, _ = cli(capsys, "play", "tictactoe", "--seat", "x", "--agent", "o=first", "--transcript", str(out_file))
    assert code == 0
    assert "x marks b2" in out and "-- back to your previous decision" in out and "x marks c3" in out
    assert f"transcript written to {out_file}" in out
    from interpreter.runtime.saving import read_transcript

    moves = read_transcript(out_file).moves
    assert moves[0] == "x: c3" and "x: b2" not in moves  # the undone move is not in the game
    assert main(["replay", str(out_file)]) == 0


def test_play_says_which_moves_an_ambiguous_answer_could_be():
    from interpreter.cli.human import match, numbered

    labels = ["hammer on a1", "hammer on b1", "hammer on d3", "move red hammer"]
    assert match("d3", labels) == 2 and match("MOVE", labels) == 3 and match("4", labels) == 3
    assert match("hammer", labels).startswith("'hammer' could be 4 moves: 1. hammer on a1, 2. hammer on b1")
    assert match("zz", labels) == ""
    many = [f"influence in country {i}" for i in range(1, 31)]
    lines = numbered(many, 100)
    assert len(lines) < 30 and lines[0].split("1. ", 1)[1].startswith("influence in country 1 ")


def test_play_when_input_runs_out(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    code, _, err = cli(capsys, "play", "tictactoe", "--seat", "x", "--agent", "o=first")
    assert code == 2
    assert "input ended before the game did" in err


def test_play_with_patched_builtin_input(monkeypatch, capsys):
    answers = iter(["zz", "1", "1", "1", "1", "1"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the unpatched input() then meets end of input
    code, out, _ = cli(capsys, "play", "tictactoe", "--seat", "x", "--agent", "o=first")
    assert code == 0
    assert out.rstrip().endswith("x wins")


def test_a_transcript_names_its_game_file_and_start_state_relative_to_itself(tmp_path, monkeypatch, capsys):
    """Transcripts: a transcript that starts from a saved state replays from any folder."""
    from interpreter import load_game
    from interpreter.runtime.saving import save_state

    game_file = tmp_path / "games" / "ttt.game"
    game_file.parent.mkdir()
    game_file.write_text((ROOT / "examples" / "tictactoe.game").read_text())
    game = load_game(str(game_file))
    (tmp_path / "states").mkdir()
    save_state(game, game.apply(game.start(players=2), "b2"), tmp_path / "states" / "mid.toml")
    monkeypatch.chdir(tmp_path / "games")
    out = tmp_path / "t.toml"
    assert main(["run", "ttt.game", "--from-state", "../states/mid.toml", "--transcript", str(out), "--quiet"]) == 0
    text = out.read_text()
    assert 'start = "states/mid.toml"' in text and 'game = "games/ttt.game"' in text
    monkeypatch.chdir(tmp_path / "states")
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0
    assert "moves replayed" in capsys.readouterr().out


def test_a_transcript_reads_only_files_in_its_own_folder(tmp_path, capsys):
    """Untrusted input: a transcript naming a file outside its folder is refused; a
    state outside it can still be given on the command line."""
    from interpreter import load_game
    from interpreter.runtime.saving import save_state

    game = load_game("tictactoe")
    save_state(game, game.apply(game.start(players=2), "b2"), tmp_path / "mid.toml")
    (tmp_path / "records").mkdir()
    out = tmp_path / "records" / "t.toml"
    assert main(["run", "tictactoe", "--from-state", str(tmp_path / "mid.toml"), "--transcript", str(out)]) == 0
    assert 'start = "../mid.toml"' in out.read_text()
    assert "reads files only from the transcript's folder" in capsys.readouterr().err
    code, _, err = cli(capsys, "replay", str(out))
    assert code == 2 and "the transcript's start '../mid.toml' is outside the transcript's folder" in err
    assert "--from-state" in err
    code, out_text, _ = cli(capsys, "replay", str(out), "--from-state", str(tmp_path / "mid.toml"))
    assert code == 0 and "moves replayed" in out_text
    for field, value in [("start", "/etc/hostname"), ("game", "/etc/passwd.game"), ("game", "../../x.game")]:
        data = tomllib.loads(out.read_text())
        data[field] = value
        (tmp_path / "records" / "bad.toml").write_text(tomli_w.dumps(data))
        code, _, err = cli(capsys, "replay", str(tmp_path / "records" / "bad.toml"))
        assert code == 2 and f"the transcript's {field} '{value}' is outside the transcript's folder" in err, err


@pytest.mark.parametrize(
    ("value", "hint"),
    [("milltary", "did you mean 'military'?"), ("glory", "for example --option victory=construction")],
)
def test_a_bad_option_value_points_at_the_option_and_suggests_one(capsys, value, hint):
    code, _, err = cli(capsys, "run", "walls_and_wonders", "--option", f"victory={value}")
    assert code == 2 and "Traceback" not in err
    assert f"--option victory={value}: error: option 'victory' must be one of construction, attrition, " in err
    assert f"economic, military, not '{value}'" in err
    assert f"hint: {hint}" in err


def test_replay_says_how_the_game_ended_or_that_it_is_not_over(tmp_path, capsys):
    """Fixes: an unfinished transcript says whose decision is next, not 'result None'."""
    path = tmp_path / "t.toml"
    path.write_text('game = "tictactoe"\nplayers = 2\nseed = 1\nmoves = ["x: b2", "o: a1"]\n')
    code, out, _ = cli(capsys, "replay", str(path))
    assert code == 0 and out.strip().endswith("2 moves replayed; the game is not over: x decides next")
    path.write_text(
        'game = "tictactoe"\nplayers = 2\nseed = 1\nmoves = ["x: a1", "o: b1", "x: a2", "o: b2", "x: a3"]\n'
    )
    code, out, _ = cli(capsys, "replay", str(path))
    assert code == 0 and out.strip().endswith("5 moves replayed; x wins")


def test_replay_names_a_rules_change_when_a_move_fails(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_text(
        'game = "tictactoe"\nplayers = 2\nseed = 1\nrules_hash = "0000000000000000"\nmoves = ["x: b2", "o: b2"]\n'
    )
    code, _, err = cli(capsys, "replay", str(path))
    assert code == 1
    assert "note: the rules changed since this transcript was written (0000000000000000 ->" in err
    assert "move 2 (o: b2)" in err


def test_a_game_for_one_player_count_says_so_plainly(capsys):
    code, _, err = cli(capsys, "run", "kuhn_poker", "--players", "3")
    assert code == 2 and "Kuhn poker is for 2 players, not 3" in err and "hint: use --players 2" in err


def test_list_shows_each_games_options_with_defaults_and_choices_and_those_a_variant_adds(capsys):
    """Discoverability: options can be found without reading the .game file."""
    code, out, _ = cli(capsys, "list")
    assert code == 0
    lines = out.splitlines()
    assert any(
        re.match(r"    --option victory=construction +the victory condition .*\(choices: construction, attrition", line)
        for line in lines
    )
    gravity = next(i for i, line in enumerate(lines) if line.startswith("    --variant gravity"))
    assert re.match(
        r"        --option ground=down +the side of the wall .*\(choices: up, down, left, right\)", lines[gravity + 1]
    )
    assert any(line.startswith("    --option superpower=usa ") for line in lines)


def test_info_shows_one_game_as_a_newcomer_needs_it(capsys):
    code, out, _ = cli(capsys, "info", "berlin_wall")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Berlin Wall (berlin_wall): 2 to 4 players"
    assert "    3 players: red, black, green" in lines
    assert any(re.match(r"    --option columns=12 +columns of the wall", line) for line in lines)
    assert any(line.startswith("    --variant gravity") and line.endswith("(not with nullo_gravity)") for line in lines)
    assert any(line.startswith("        --option ground=down ") for line in lines)
    assert re.match(r"rules: \d+ lines of rulebook citations and interpretations", lines[-1])
    code, out, _ = cli(capsys, "info", "kuhn_poker")
    assert out.splitlines()[:2] == ["Kuhn poker (kuhn_poker): 2 players", "    2 players: p1, p2"]
    assert "options: none" in out and "variants: none" in out


def test_moves_are_not_printed_twice_when_the_game_narrates_them(capsys):
    code, out, err = cli(capsys, "run", "kuhn_poker", "--seed", "2", "--moves")
    assert code == 0
    lines = out.splitlines()
    assert "p1: bet" in lines and "  > p1: bet" not in lines
    code, out, err = cli(capsys, "run", "tictactoe", "--seed", "2", "--moves")
    assert out.splitlines()[1:3] == ["  > x: b3", "x marks b3"]


def test_run_tells_the_key_events_by_default_and_everything_with_verbose(capsys):
    code, short, _ = cli(capsys, "run", "berlin_wall", "--seed", "2")
    code2, whole, _ = cli(capsys, "run", "berlin_wall", "--seed", "2", "--verbose")
    assert code == code2 == 0
    story = short.split("\n\n")[0].splitlines()[1:]  # the narration, before the final view
    assert story[0] == "red goes first" and all("goes first" in s or " collects " in s for s in story)
    assert len(short.splitlines()) < 60 < len(whole.splitlines())
    assert "(the key events only: --verbose for the whole story, --moves for every move)" in short
    assert "red rolls" in whole and "red rolls" not in short
    assert short.splitlines()[-1] == whole.splitlines()[-1]  # the same game, the same result


def on_a_terminal(*argv: str) -> str:
    """What `gamedef ARGV...` writes when its output is a terminal (a pty), all of it."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: gamedef on a terminal
        os.execvp(sys.executable, [sys.executable, "-m", "interpreter", *argv])
    out = b""
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def test_bench_shows_a_progress_bar_on_a_terminal_and_plain_lines_when_piped(capsys):
    text = on_a_terminal("bench", "tictactoe", "--games", "300")
    assert "300/300" in text and "━" in text  # rich's bar, on standard error
    assert "  30/300 games" not in text  # not the plain lines
    code, _, err = cli(capsys, "bench", "tictactoe", "--games", "20")
    assert "  20/20 games" in err and "━" not in err


def test_run_json_gives_one_document_per_line_for_tools(capsys):
    code, out, _ = cli(capsys, "run", "kuhn_poker", "--seed", "2", "--json")
    assert code == 0
    docs = [json.loads(line) for line in out.splitlines()]
    assert docs[0]["game"] == "kuhn_poker" and docs[0]["players"] == ["p1", "p2"] and docs[0]["seed"] == 2
    assert docs[0]["narration"][:2] == ["p1 is dealt Jack", "p2 is dealt King"]
    assert [(d["seat"], d["move"]) for d in docs[1:-1]] == [("p1", "bet"), ("p2", "fold")]
    assert docs[2]["narration"] == ["p2: fold", "p1 wins the pot of 3"]
    assert docs[-1] == {"result": ["p1"], "decisions": 2}


def test_a_quiet_run_on_a_terminal_shows_its_decision_count():
    text = on_a_terminal("run", "berlin_wall", "--players", "4", "--quiet")
    assert re.search(r"[\d,]+00 decisions", text), text[-300:]
    assert "== game over after" in text


def test_rules_shows_each_games_summary_then_its_citations(capsys, tmp_path):
    for name in ("berlin_wall", "walls_and_wonders", "missiles_now", "twid", "downfall_of_empires", "tictactoe"):
        code, out, _ = cli(capsys, "rules", name)
        assert code == 0
        brief, _, cited = out.partition("\n---\n")
        assert brief.startswith("# ") and len(brief.splitlines()) > 10, name
        assert "rulebook citation" in cited and "§ " in cited, name
    code, out, _ = cli(capsys, "info", "twid")
    assert "and the rules in brief (`gamedef rules twid`)" in out
    bad = tmp_path / "g.game"
    bad.write_text('game g { summary "../outside.md" }\nprocedure play() {\n    rule "r"\n    game over []\n}\n')
    code, _, err = cli(capsys, "rules", str(bad))
    assert code == 2 and "the summary '../outside.md' is outside the game's folder" in err


def test_play_does_not_name_the_seat_twice(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 4))
    code, out, err = cli(capsys, "play", "twid", "--seat", "us", "--seed", "4", "--max-decisions", "4")
    assert "\nUS: choose your header card:\n" in out and "US, US:" not in out


def test_play_draws_a_choice_of_many_cells_as_the_board():
    from interpreter import load_game
    from interpreter.cli.human import moves_on_board
    from interpreter.runtime.machine import Move

    g = load_game("berlin_wall")
    s = g.start(players=2, seed=1)
    moves = g.legal_moves(s)
    assert [(m.label, m.value) for m in moves[:2]] == [("hammer on a1", "a1"), ("hammer on b1", "b1")]
    assert len(moves) == 48
    board = moves_on_board(g, moves)
    assert board[0] == "  moves: hammer on CELL, by number:"
    assert board[1].split() == list("abcdefghijkl")
    assert board[2].split() == ["1"] + [str(n) for n in range(1, 13)]
    assert board[5].split()[-1] == "48"
    assert moves_on_board(g, moves[:9]) is None  # a few moves stay a list
    # The cell is the move's value, not a word of its label: labels that end in cells'
    # names choose no cell when their values are not cells, and the other way round.
    assert moves_on_board(g, [Move("p", f"move {i}", i) for i in range(20)]) is None
    assert moves_on_board(g, [m._replace(value=None) for m in moves]) is None
    renamed = moves_on_board(g, [m._replace(label=f"somewhere {i}") for i, m in enumerate(moves)])
    assert renamed is not None and renamed[0] == "  moves by number:" and renamed[1:] == board[1:]


def test_play_says_why_an_action_is_not_offered(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    code, out, err = cli(capsys, "play", "walls_and_wonders", "--seat", "p1", "--seed", "2", "--max-decisions", "2")
    assert "p1: your action (5 cards in hand, 46 to draw; no card in hand fits an open Wonder slot" in out
    assert "; nothing of another player's to attack yet):\n    1. draw a card\n" in out


def test_play_answers_help_about_view_and_quit_and_matches_the_part_after_common_words(monkeypatch, capsys):
    from interpreter.cli.human import match

    labels = ["header: Muammar Gaddafi", "header: Embassy asylum", "header: EFTA agreement"]
    assert match("mu", labels) == 0  # the part after `header: `, not the verb
    assert "could be 2 moves" in match("e", labels) and match("emb", labels) == 1
    answers = "help\nabout gaddafi\nabout nothing-like-it\nabout norway\nview\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code, out, err = cli(capsys, "play", "twid", "--seat", "us", "--seed", "1")
    assert code == 0 and out.rstrip().endswith("-- you left the game after 0 decisions")
    assert "about NAME: a card's printed text, or what a component is" in out
    assert "25  Muammar Gaddafi — epoch pre 9/11 · ops 2 · block E" in out and "removed after text" in out
    assert "nothing in The Wall is Down is called 'nothing-like-it'" in out
    assert "  Norway — region Europe · stability 4 · linked to " in out  # a component without a text
    assert out.count("Your hand: ") == 2  # the view, then again for `view`


def test_about_names_any_component_with_its_public_properties_and_never_a_hidden_one():
    from interpreter import load_game
    from interpreter.cli.human import about

    doe = load_game("downfall_of_empires")
    assert about(doe, "verdun")[0].startswith("  Verdun — country France · home power Franco-British · terrain plain")
    assert about(doe, "nancy")[0].endswith(" · linked to Verdun, Metz, Strasbourg, Belfort, Orleans  (Zone)")  # the map
    red = "  Red Telephone — cost 10 · lines 1 · active boxes 0  (Item)"
    assert about(load_game("missiles_now"), "red tel")[0] == red
    # a playing card's rank and suit are seen only face up (`visible when`): never told by `about`
    waw = load_game("walls_and_wonders")
    lines = about(waw, "of clubs")
    assert len(lines) == 13 and lines[-1].endswith(" more: type more of the name")  # 12 shown, then a count
    assert not any(" rank " in line or " value " in line for line in lines)
    assert about(waw, "zzz") == ["  nothing in Walls and Wonders is called 'zzz'"]


def test_play_takes_the_only_move_on_enter(tmp_path, monkeypatch, capsys):
    path = tmp_path / "one.game"
    path.write_text(
        'game one "One move" { players 1..1 seats [p1] }\n'
        'procedure play() {\n    rule "Play"\n    choose x from [7] by p1 label "take {x}"\n    win [p1]\n}\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    code, out, err = cli(capsys, "play", str(path), "--seat", "p1")
    assert code == 0 and "(the only move: press Enter to take it)" in out and "p1 wins" in out


def test_an_option_value_a_variant_allows_names_the_variant(capsys):
    code, out, err = cli(capsys, "run", "berlin_wall", "--option", "stacks=8")
    assert code == 2 and "--option stacks=8: error: option 'stacks' = 8 is not allowed" in err
    assert "hint: choose from 4, or add --variant wall_of_china, which allows it" in err


def test_narration_wraps_at_the_terminal_width_and_stays_whole_when_piped(monkeypatch, capsys):
    import io
    import os

    from interpreter.cli import terminal

    line = "  USA plays Counterintelligence: USSR's Propaganda is cancelled before it takes effect"
    terminal.say(line)  # captured output is not a terminal: one line, as written
    assert capsys.readouterr().out == line + "\n"

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Tty()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(terminal.shutil, "get_terminal_size", lambda fallback: os.terminal_size((41, 24)))
    terminal.say(line)
    rows = screen.getvalue().splitlines()
    assert len(rows) == 3 and all(len(r) <= 40 for r in rows)
    assert rows[0].startswith("  USA plays") and all(r.startswith("      ") for r in rows[1:])
    assert " ".join(r.strip() for r in rows) == line.strip()  # no word cut or lost


def test_a_terminal_shows_the_headings_the_result_and_errors_in_styles_and_no_color_none(monkeypatch):
    text = on_a_terminal("run", "tictactoe", "--seed", "1")
    assert "\x1b[1;36m== Tic-tac-toe" in text  # the story's heading, bold cyan
    assert re.search(r"\x1b\[1m[^\x1b]*game over after \d+ decisions", text)  # the result, bold
    assert "\x1b[2m(the key events only" not in text  # tic-tac-toe marks no key events: the whole story
    board = on_a_terminal("run", "berlin_wall", "--seed", "1", "--players", "2")
    assert "\x1b[1mHammers:\x1b[0m" in board and "\x1b[1mCollected:\x1b[0m" in board  # the view's headings
    assert "\x1b[1mA space:" not in board  # a legend line is not a heading
    err = on_a_terminal("run", "berlin_wall", "--players", "9")
    assert "\x1b[1;31mgamedef: error:" in err  # an error, bold red
    monkeypatch.setenv("NO_COLOR", "1")
    plain = on_a_terminal("run", "tictactoe", "--seed", "1")
    assert "\x1b[1" not in plain and "== Tic-tac-toe" in plain and "game over after" in plain


def test_play_pins_dice_with_die_as_run_does(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, _ = cli(capsys, "play", "missiles_now", "--seat", "usa", "--die", "6", "--die", "1", "--die", "5")
    assert code == 0
    assert "USA: you roll 6, 1 and 5; which die marks the parts?" in out


def test_bench_names_the_seats_by_their_titles(capsys):
    code, out, _ = cli(capsys, "bench", "twid", "--games", "1", "--players", "2")
    assert code == 0
    assert re.search(r"wins: West [\d.]+%, East [\d.]+%", out), out


def test_the_play_menu_reads_as_a_person_expects(tmp_path):
    import textwrap

    from interpreter import load_game
    from interpreter.cli.human import HumanAgent, match

    # A whole name typed in full takes the move ending with it, even where it starts another.
    assert match("missile", ["1 part on Missile", "1 part on Missile Crisis"]) == 0
    assert match("9", ["take it"]) == "there is one move, 1, not 9"
    path = tmp_path / "turns.game"
    path.write_text(
        textwrap.dedent(
            """
            game turns "Turns" {
                players 2..2
                seats [north, south]
            }
            var total: int = 0
            view {
                text "Total: {total}"
            }
            procedure play() {
                rule "Play: north adds twice, then south once"
                for k in 1..2 {
                    choose n from [1, 2] by north prompt "add how much?" label "add {n}"
                    total += n
                }
                choose n from [1, 2] by south prompt "add how much?" label "add {n}"
                total += n
                choose n from [1, 2] by north label "add {n}"
                total += n
                game over [north]
            }
            """
        ),
        encoding="utf-8",
    )
    game = load_game(path)
    said: list[str] = []
    human = HumanAgent("north", ask=lambda _: "add 2", say=said.append)
    state = game.start(players=2, seed=1)
    for _ in range(2):  # north's two decisions in a row: the position is shown once
        state = game.apply_index(state, human.choose(game, state))
    state = game.apply(state, "add 1")  # south
    state = game.apply_index(state, human.choose(game, state))
    assert [line for line in said if line.startswith("Total")] == ["Total: 0", "Total: 5"]
    assert "\nnorth, add how much?" in said  # no "?:"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "missiles_now", "--option", "superpower=cuba"], "the Superpower Cuba does not play"),
        (["play", "twid", "--seat", "us", "--option", "solo_goal=planet"], "--option solo_goal is for a solo game"),
        (["bench", "missiles_now", "--option", "superpower=cuba"], "the Superpower Cuba does not play"),
    ],
)
def test_a_setup_that_refuses_the_arguments_says_so_as_an_argument_error(capsys, argv, message):
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == ""
    first, hint = err.splitlines()[:2]
    assert first.startswith(f"gamedef: error: {message}")
    assert hint.startswith("    hint: the game's setup refuses these arguments (") and ".game:" in hint
    assert "require" not in err  # not the rule's source line


def test_list_and_info_compile_each_variant_only_as_far_as_its_options():
    """`gamedef list` shows the options of every game and every variant: a whole compile of
    each took 4.6 s; the options alone are the same values, choices and descriptions."""
    from interpreter import find_game, load_game
    from interpreter.cli.shared import options_of

    path = find_game("berlin_wall")
    only = options_of(path, ["wall_of_china"])
    whole = load_game("berlin_wall", variants=["wall_of_china"]).compiled
    assert only.options == whole.options and list(only.option_decls) == list(whole.option_decls)
    assert only.procs == {} and whole.procs  # nothing past the options was compiled


def test_list_writes_every_description_at_one_column(capsys):
    code, out, _ = cli(capsys, "list")
    assert code == 0
    entries = [line for line in out.splitlines() if line.lstrip().startswith(("--option", "--variant"))]
    assert len(entries) > 20
    for line in entries:
        indent = len(line) - len(line.lstrip())
        head = " " * indent + line.lstrip().split("  ")[0]
        if len(head) <= 40:  # a short name: its description at column 42
            assert line[42:43].strip() and not line[41:42].strip(), line


# ---- control sequences never reach the terminal --------------------------------------------------
ESCAPING_GAME = """game t "T\x1b]0;retitled\x07itle" {
    players 2..2
    seats [north, south]
    rulebook "R\x1b[2Jbook"
}
card Bomb "B\x1b[31mred" { text "Boom \x1b]8;;http://x\x1b\\\\link\x1b]8;;\x1b\\\\ \x9b2J\x08\r end" }
procedure play() {
    rule "Play \x1b[5m"
    interpretation "reading \x1bc"
    log "hello \x1b[1;31m{north}\x07 \x00"
    choose c from ["a\x1b[Ab", "c"] by north label "pick {c} \x1b[2K"
    game over []
}
"""
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["run", "G", "--seed", "1"], "hello north"),
        (["play", "G", "--seat", "north", "--seed", "1"], "1. pick ab"),
        (["cards", "G"], "Boom link 2J  end"),
        (["info", "G"], "rulebook: Rbook"),
        (["rules", "G"], "interpretation: reading"),
        (["run", "G\x1b]0;x\x07.game"], "g.game.game"),
        (["run", "G", "--agent", "north=\x1b[2J"], "unknown agent kind ''"),
    ],
    ids=["run", "play", "cards", "info", "rules", "error", "argument"],
)
def test_no_control_sequence_of_a_game_file_or_argument_reaches_the_terminal(
    tmp_path, capsys, monkeypatch, argv, shown
):
    """Text from a game file, a table or an argument is stripped of ESC, OSC and the other
    controls (newline and tab kept) wherever it is printed: story, menu, cards, info, rules, errors."""
    path = tmp_path / "g.game"
    path.write_text(ESCAPING_GAME, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    main([a.replace("G", str(path)) if a.startswith("G") else a for a in argv])
    out = capsys.readouterr()
    text = out.out + out.err
    assert shown in text, text
    assert not CONTROLS.search(text), repr(CONTROLS.search(text))
    assert "retitled" not in text and "http://x" not in text


def test_the_programs_own_styles_still_reach_the_terminal(capsys, monkeypatch):
    """The styles gamedef adds (a result in bold) are written after the text is cleaned."""
    from interpreter.cli import terminal

    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(terminal, "colours", lambda stream=None: True)
    with terminal.clean_output():
        terminal.emphasised("north wins \x1b]0;retitled\x07\x1b[31m")
    out = capsys.readouterr().out
    assert "\x1b[1m" in out and "north wins" in out and "retitled" not in out and "\x1b[31m" not in out


@pytest.mark.parametrize(
    ("agents", "named"),
    [
        (["greedy:d2:n1"], "greedy:d2:n1 redraws what its seat"),
        (
            ["german=ismcts:2", "russian=greedy", "austro_hungarian=ismcts:2"],
            "ismcts:2 and greedy redraw what their seats",
        ),
        (["german=greedy:learned=m.json"], "greedy redraws what its seat"),
    ],
)
def test_the_chance_mode_note_names_the_searching_agents_given(agents, named):
    """The note that a game is played in chance mode names the agents that redraw, as given:
    a greedy player's report once said "ismcts redraws" with no ismcts in it."""
    from interpreter.cli.shared import searchers

    assert searchers(agents) == named
