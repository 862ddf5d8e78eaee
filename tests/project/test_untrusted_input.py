"""Untrusted input: every bad file or argument is a message with a position, exit 2.

One test per failure kind a `.game` file, transcript, state file or argument can cause:
undecodable bytes, reads outside the game's folder, nesting, sizes that would exhaust
time or memory (at load and at run time), name clashes, and saved states that do not
fit their game. Each asserts the exit code, where the message points and its key
words, and that no traceback escapes.
"""

from __future__ import annotations

import io
import os
import textwrap
import time
from pathlib import Path

import pytest
import tomli_w

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.core.limits import MAX_FILE_BYTES
from interpreter.runtime.saving import state_to_dict

HEADER = "game t { players 2..2 seats [north, south] }\n"


def play(body: str) -> str:
    return (
        'procedure play() {\n    rule "Play"\n'
        + textwrap.indent(textwrap.dedent(body).strip(), "    ")
        + "\n    game over []\n}\n"
    )


def run_cli(capsys, *argv: str) -> tuple[int, str]:
    started = time.perf_counter()
    code = main(list(argv))
    elapsed = time.perf_counter() - started
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    assert elapsed < 20, f"took {elapsed:.1f} s"
    return code, out.err


def game_error(tmp_path: Path, capsys, source: str | bytes, name: str = "g.game", command: str = "run") -> str:
    path = tmp_path / name
    path.write_bytes(source if isinstance(source, bytes) else source.encode())
    argv = [command, str(path)] + (["--quiet"] if command == "run" else [])
    code, err = run_cli(capsys, *argv)
    assert code == 2, err
    return err.replace(str(tmp_path), "<dir>")


# ---- reading files ----------------------------------------------------------------------------------
def test_a_byte_that_is_not_utf8_is_reported_at_its_line_and_column(tmp_path, capsys):
    err = game_error(tmp_path, capsys, HEADER.encode() + b"# caf\xe9\n" + play("").encode())
    assert err.startswith("<dir>/g.game:2:6: error: cannot read g.game: byte 0xe9 is not UTF-8 text"), err
    assert "hint: save the file as UTF-8" in err


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, capsys):
    err = game_error(tmp_path, capsys, HEADER + play("") + "#" * MAX_FILE_BYTES)
    assert f"the file has {MAX_FILE_BYTES + len(HEADER + play('')) + 1:,} bytes" in err or "bytes; the limit" in err


@pytest.mark.parametrize(
    ("include", "message"),
    [
        ('"/etc/passwd"', "include leaves the game's folder: '/etc/passwd'"),
        ('"../../../../etc/passwd"', "include leaves the game's folder: '../../../../etc/passwd'"),
        ('"/dev/zero"', "include leaves the game's folder: '/dev/zero'"),
        ('"*.game"', "include needs one file name, not '*.game'"),
        ('"parts/[ab].game"', "include needs one file name"),
        ('"."', "this is a folder, not a file"),
        ('"parts"', "this is a folder, not a file"),
        ('"nowhere.game"', "include finds no file: nowhere.game"),
        ('"outside.game"', "include leaves the game's folder: 'outside.game'"),  # a link pointing out
    ],
)
def test_includes_stay_inside_the_games_folder(tmp_path, capsys, include, message):
    (tmp_path / "parts").mkdir()
    os.symlink("/etc/hostname", tmp_path / "outside.game")
    err = game_error(tmp_path, capsys, HEADER + f"include {include}\n" + play(""))
    assert err.startswith("<dir>/g.game:2:1: error: "), err
    assert message in err


def test_an_include_with_a_nul_byte_is_refused(tmp_path, capsys):
    err = game_error(tmp_path, capsys, HEADER + 'include "a\0b.game"\n' + play(""))
    assert "<dir>/g.game:2:1: error: include leaves the game's folder" in err


def test_a_game_may_include_a_bundled_game_and_a_file_below_its_folder(tmp_path, capsys):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "extra.game").write_text("def doubled(n: int) = n * 2\n")
    path = tmp_path / "g.game"
    path.write_text(HEADER + 'include "cards/extra.game"\n' + play('log "{doubled(2)}"'))
    code, err = run_cli(capsys, "run", str(path))
    assert code == 0, err


def test_a_deeply_nested_expression_is_refused_at_its_position(tmp_path, capsys):
    err = game_error(tmp_path, capsys, HEADER + play("let x = " + " + ".join(["1"] * 300)))
    assert "error: nested more than 100 levels deep" in err
    assert "<dir>/g.game:4:" in err


def test_deeply_nested_blocks_are_refused(tmp_path, capsys):
    body = "if true { " * 200 + "let x = 1" + " }" * 200
    err = game_error(tmp_path, capsys, HEADER + play(body))
    assert "nested more than 100 levels deep" in err


# ---- sizes at load ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("decls", "message"),
    [
        ("grid Cell 3000 by 3000", "g.game:2:1: error: a grid of 3000 by 3000 is past the limit of 20,000"),
        ("grid Cell 0 by 4", "g.game:2:1: error: a grid needs a positive number of columns and rows"),
        (
            'entity E { n: int }\ngenerate E named "e{i}" for i in 1..10000000 { n = i }',
            "the range 1..10000000 has 10,000,000 numbers; the limit is 100,000",
        ),
        (
            'entity E { n: int }\ngenerate E named "e{i}-{j}" for i in 1..1000, j in 1..1000 { n = i }',
            "g.game:3:1: error: more than 20,000 components",
        ),
        (
            'entity E { n: int }\ngenerate E named "e{i}" for i in 1..3 { n = 6 / (i - 2) }',
            "g.game:3:1: error: cannot compute this at load: division by zero",
        ),
        ('option x: int = 1 choices 1..1000000000000 "a number"', "the range 1..1000000000000 has"),
        ("option x: int = 1 / 0", "g.game:2:17: error: cannot compute this at load: division by zero"),
    ],
)
def test_what_is_computed_at_load_is_bounded(tmp_path, capsys, decls, message):
    err = game_error(tmp_path, capsys, HEADER + decls + "\n" + play(""))
    assert message in err


@pytest.mark.parametrize(
    ("decls", "message"),
    [
        ("grid Cell 16 by 1", "'north' names both"),  # cells a1..p1; seats here are north/south
        ("var north: int = 0", "'north' names both a seat and a variable"),
        ("enum Side { north, east }", "'north' already names a player"),
        ("option turns: int = 3\ndef turns() = 4", "'turns' names both an option and a function"),
        ("grid Cell 2 by 2\nvar up: int = 0", "'up' names both a Direction and a variable"),
    ],
)
def test_a_global_name_has_one_meaning(tmp_path, capsys, decls, message):
    source = HEADER + decls + "\n" + play("")
    if decls.startswith("grid Cell 16"):  # seats p1.. would be cells a1..p1: name them so
        source = "game t { players 2..2 }\n" + decls + "\n" + play("")
        message = "'p1' names both a seat and a cell of Cell"
    err = game_error(tmp_path, capsys, source)
    assert message in err
    assert (
        "hint: rename one of them" in err or "hint: names of seats, enum members and components must be unique" in err
    )


# ---- work and values at run time ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("decls", "body", "message"),
    [
        ("", "let n = 2\nwhile true { n = n * n }", "a number grew past the limit"),
        ("var n: int = 1", "while true { n += n }", "a number grew past the limit"),
        ("var m: player -> int = 1", "while true { m[north] += m[north] }", "a number grew past the limit"),
        ("", "let l = [1]\nwhile true { l = l + l }", "a list grew to 131,072 items; the limit is 100,000"),
        ("", "let l = [2, 3]\nwhile true { l = [x * x for x in l] }", "a number grew past the limit"),
        ("", "let l = [2]\nwhile true { l = append(l, last(l) * last(l)) }", "a number grew past the limit"),
        ("", "let l = [1]\nwhile true { l = concat(l, l) }", "a list grew to"),
        ("", 'let s = "ab"\nwhile true { s = "{s}{s}" }', "a text grew to"),
        ("", "let s = 0\nfor i in 1..100000 { for j in 1..100000 { s += 1 } }", "more than 1,000,000 steps"),
        ("", "let c = [[i * j for j in 1..90000] for i in 1..90000]", "more than 1,000,000 steps"),
        ("def big() = 1..20000000", 'log "{count(big())}"', "the range 1..20000000 has 20,000,000 numbers"),
        ("def f(n: int) = if n == 0 then 2 else f(n - 1) * f(n - 1)", 'log "{f(40)}"', "a number grew past"),
        ("def f(n: int) = if n == 0 then 0 else f(n - 1) + f(n - 1)", 'log "{f(60)}"', "more than 1,000,000 steps"),
        (
            'procedure f(n: int) {\n    rule "Recursion"\n    f(n + 1)\n    f(n + 1)\n}',
            "f(0)",
            "procedures nested more than 10000 deep",
        ),
        ("grid Cell 26 by 8", 'log "{path_steps(b2, 207)}"', "more than 1,000,000 steps without a decision"),
        ("grid Cell 26 by 8", "while true {\n    let s = path_steps(b2, 12)\n}", "more than 1,000,000 steps"),
        ("", "let l = 1..90000\nwhile true {\n    let s = sum(l)\n}", "more than 1,000,000 steps"),
        ("", "let l = 1..90000\nwhile true {\n    let b = best(l, x => x % 7)\n}", "more than 1,000,000 steps"),
        ("", 'choose c from 1..99999 by north label "{c}"', "a decision with 99,999 options; the limit is 10,000"),
        # Short constant lists are read free only by a comprehension with no work inside its
        # items: nested through functions, 100 x 100 x 100 x 100 items would run uncounted.
        (
            "var ks: list int = [1]\ndef c(k: int) = [" + ", ".join(str(i) for i in range(1, 101)) + "]\n"
            "def d1(k: int) = count([x for x in c(k) if x > ks[0]])\n"
            "def d2(k: int) = sum([d1(y) for y in c(k)])\ndef d3(k: int) = sum([d2(z) for z in c(k)])\n"
            "def d4(k: int) = sum([d3(w) for w in c(k)])",
            'log "{d4(ks[0])}"',
            "more than 1,000,000 steps",
        ),
        (
            "var ks: list int = [1]\ndef c(k: int) = [" + ", ".join(str(i) for i in range(1, 101)) + "]",
            'log "{count([[x, y, z, w] for x in c(1) for y in c(2) for z in c(3) for w in c(ks[0])])}"',
            "more than 1,000,000 steps",
        ),
        (
            "def c(k: int) = [" + ", ".join(str(i) for i in range(1, 101)) + "]",
            'log "{best(c(1), x => sum([sum([count([y for y in c(x) if y > v]) for v in c(z)]) for z in c(x)]))}"',
            "more than 1,000,000 steps",
        ),
    ],
)
def test_work_and_values_at_run_time_are_bounded(tmp_path, capsys, decls, body, message):
    err = game_error(tmp_path, capsys, HEADER + decls + "\n" + play(body))
    assert ": error: in " in err and message in err, err
    assert "<dir>/g.game:" in err


def test_a_game_that_never_ends_stops_at_the_decision_cap_with_the_option_named(tmp_path, capsys):
    path = tmp_path / "g.game"
    path.write_text(HEADER + play('while true {\n    may north "wait" {\n    }\n}'))
    code, err = run_cli(capsys, "run", str(path), "--quiet", "--max-decisions", "500")
    assert code == 2
    assert "the game has not ended after 500 decisions" in err and "--max-decisions" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["run", str(path), "--max-decisions", "0"])
    assert exit_info.value.code == 2 and "expected a number above 0" in capsys.readouterr().err


def test_the_decision_cap_is_documented_in_help(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "--max-decisions N" in capsys.readouterr().out


# ---- transcripts --------------------------------------------------------------------------------------
def transcript(tmp_path: Path, **fields) -> Path:
    data = {"game": "tictactoe", "players": 2, "seed": 1, "moves": ["x: b2"]}
    data.update(fields)
    path = tmp_path / "t.toml"
    path.write_text(tomli_w.dumps(data))
    return path


def test_a_transcript_that_is_not_utf8_is_reported_at_its_position(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_bytes(b'game = "tictactoe"\nplayers = 2\nseed = 1\nmoves = ["x: b\xff"]\n')
    code, err = run_cli(capsys, "replay", str(path))
    assert code == 2 and f"{path}:4:15: cannot read this transcript file: byte 0xff is not UTF-8 text" in err


def test_a_transcript_nested_deeply_or_with_a_huge_number_is_refused(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_text("moves = " + "[" * 5000 + "]" * 5000 + "\n")
    code, err = run_cli(capsys, "replay", str(path))
    assert code == 2 and "nested too deeply" in err
    path.write_text("game = 'tictactoe'\nplayers = 2\nmoves = []\nseed = " + "9" * 5000 + "\n")
    code, err = run_cli(capsys, "replay", str(path))
    assert code == 2 and "a value can't be read" in err


def test_a_transcript_value_of_the_wrong_type_is_refused_not_converted(tmp_path, capsys):
    path = tmp_path / "t.toml"
    for field, value, expected in (("chance", '"no"', "bool"), ("seed", "1.5", "int"), ("players", '"2"', "int")):
        fields = {"game": '"tictactoe"', "players": "2", "seed": "1", "moves": "[]", field: value}
        path.write_text("".join(f"{k} = {v}\n" for k, v in fields.items()))
        code, err = run_cli(capsys, "replay", str(path))
        assert code == 2 and f"not a transcript: invalid value for type, expected {expected} @ $.{field}" in err, err


def test_a_transcript_game_that_is_a_folder_or_device_is_refused(tmp_path, capsys):
    (tmp_path / "dir.game").mkdir()
    code, err = run_cli(capsys, "replay", str(transcript(tmp_path, game="dir.game")))
    assert code == 2 and "this is a folder, not a file" in err


# ---- saved states -----------------------------------------------------------------------------------
def saved(game_name: str = "tictactoe", moves: int = 1) -> dict:
    game = load_game(game_name)
    state = game.start(players=2, seed=3)
    for _ in range(moves):
        state = game.apply_index(state, 0)
    return state_to_dict(game, state)


def edit(data: dict, path: str, value) -> dict:
    """`data` with the field at a dotted path (list positions as numbers) set to `value`."""
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    node = data
    for k in keys[:-1]:
        node = node[k]
    if value is DELETE:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return data


DELETE = object()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("players", ["x", 7], "players: expected a list of seat names"),
        ("players", ["x", "z"], "players: with 2 players the seats are x, o"),
        ("players", ["x", "o", "x", "o", "x"], "players: Tic-tac-toe is for 2 players, not 5"),
        ("frames", [], "frames: no procedure is running and the game has no result"),
        ("frames.0.code", "nowhere", "frames[0].code: no procedure 'nowhere' in this game"),
        ("frames.0.step", 10**6, "frames[0].step: expected a step from 0 to"),
        ("frames.0.locals", [1], "frames[0].locals: expected a list of 5 values"),
        ("pending.slot", 99, "pending.slot: not a slot of the running procedure"),
        ("pending.choice", 99, "pending.choice: not a decision of the running procedure"),
        ("pending.player", "z", "pending.player: 'z' is not a seat in play"),
        ("pending.values", [], "pending.values: expected a non-empty list of options"),
        ("pending", DELETE, "pending: missing: a game not over waits for a decision"),
        ("log.0", [{}, 0], "log[0]: expected [audience, format, values]"),
        ("log.0.2", ["x"], "log[0][2]: expected 2 values"),
        ("log.0.1", 999, "log[0][1]: not a log line of this game"),
        ("vars.marks", "many", "vars.marks: expected a number, not 'many'"),
        ("vars.marks", 2**70, "vars.marks: the number 1180591620717411303424 is past the limit"),
        ("vars.board.a1", "q", "vars.board.a1: 'q' is not a player"),
        ("vars.board.z9", "x", "vars.board: no key ['z9'] here"),
        ("vars.board", 3, "vars.board: expected a table keyed by a1, b1, c1, a2, ..."),
        ("vars.board.a1", DELETE, "vars.board.a1: missing"),
        ("vars.extra", 1, "vars.extra: no such variable in this game"),
        ("rng", "0xnothex", "rng: expected a hexadecimal number of 64 bits"),
        ("rng", "0x" + "f" * 40, "rng: expected a hexadecimal number of 64 bits"),
        ("decisions", -1, "decisions: expected a whole number of 0 or more"),
        ("result", ["nobody"], "result: expected a list of seats in play"),
        ("variants", ["misere"], "variants: the state was saved with variants ['misere']"),
        ("options", {"size": 4}, "options: the state was saved with other options (size)"),
        ("rules_hash", "0123456789abcdef", "rules_hash: the state was saved by other rules"),
    ],
)
def test_a_saved_state_is_checked_for_meaning_field_by_field(tmp_path, capsys, field, value, message):
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(edit(saved(), field, value)))
    code, err = run_cli(capsys, "run", "tictactoe", "--from-state", str(path), "--quiet")
    assert code == 2
    assert f"gamedef: error: {path}: {message}" in err, err
    assert "hint: " in err


def test_a_state_of_another_game_says_so(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(saved("tictactoe")))
    code, err = run_cli(capsys, "run", "kuhn_poker", "--from-state", str(path), "--quiet")
    assert code == 2 and "game: this state is from 'tictactoe', not 'kuhn_poker'" in err
    assert "gamedef run tictactoe --from-state" in err


def test_a_valid_saved_state_still_loads_and_plays_on(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(saved("tictactoe")))
    code, err = run_cli(capsys, "run", "tictactoe", "--from-state", str(path), "--quiet")
    assert code == 0, err


def test_a_number_literal_past_the_limit_is_reported_at_its_position(tmp_path, capsys):
    err = game_error(tmp_path, capsys, HEADER + play("let x = 1" + "0" * 5000))
    assert "<dir>/g.game:4:13: error: the number 100000000000000000000000... is too large" in err
    err = game_error(tmp_path, capsys, HEADER + play("let x = 9223372036854775808"))
    assert "the number 9223372036854775808 is too large" in err


def test_a_component_name_past_the_limit_is_refused_at_the_first_one(tmp_path, capsys):
    decls = 'entity E { n: int }\ngenerate E named "{[x for x in 1..9999]} {n}" for n in 1..19000 { n = n }'
    err = game_error(tmp_path, capsys, HEADER + decls + "\n" + play(""))
    assert "g.game:3:1: error: a component's name has" in err and "the limit is 200" in err


def test_a_state_or_transcript_nested_through_dotted_keys_is_refused(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_text("game" + ".a" * 10_000 + ' = "tictactoe"\nplayers = 2\nseed = 1\nmoves = []\n')
    code, err = run_cli(capsys, "replay", str(path))
    assert code == 2 and "values nested too deeply" in err
    data = saved()
    data["frames"][0]["code"] = {"a": {"b": "play"}}
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(data))
    code, err = run_cli(capsys, "run", "tictactoe", "--from-state", str(path), "--quiet")
    assert code == 2 and "frames[0].code: no procedure" in err


def test_a_quote_in_a_comment_or_string_hides_no_nesting(tmp_path, capsys):
    """A quote inside a comment, or an escaped quote inside a string, does not open a
    string: the dotted key after it is still seen, at its line."""
    path = tmp_path / "t.toml"
    for before in ("# it's\n", 'note = "a \\" b"\n', 'note = """x""""\n'):
        path.write_text(before + "game" + ".a" * 20_000 + ' = "tictactoe"\nplayers = 2\nseed = 1\nmoves = []\n')
        code, err = run_cli(capsys, "replay", str(path))
        assert code == 2 and f"{path}:2: values nested too deeply" in err, (before, err)


def test_a_saved_log_that_is_not_a_list_is_refused(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(edit(saved(), "log", 5)))
    code, err = run_cli(capsys, "run", "tictactoe", "--from-state", str(path), "--quiet")
    assert code == 2 and "log: expected a list of [audience, format, values]" in err


def test_a_player_count_of_thousands_of_digits_is_reported_at_its_position(tmp_path, capsys):
    err = game_error(tmp_path, capsys, "game t { players 2..1" + "0" * 4999 + " }\n" + play(""), command="check")
    assert "<dir>/g.game:1:21: error: the number 100000000000000000000000... is too large" in err


# ---- what is shown: narration and labels -------------------------------------------------------------
LONG = 'let s = "{[x for x in 1..10000]}"\n'  # a text of 58,893 characters: within the limit of a text


@pytest.mark.parametrize(
    ("body", "where", "message"),
    [
        (LONG + 'let l = [s for i in 1..1000]\nlog "{l}"', "6:5", "a list written as text has more than 100,000"),
        (LONG + 'log "{s}{s}"', "5:5", "a log line has more than 100,000 characters"),
        ('for i in 1..20000 {\n    log "{i}"\n}', "5:9", "one move wrote more than 10,000 log lines"),
        (LONG + 'for i in 1..20 {\n    log "{s}"\n}', "6:9", "the narration of one move has more than 1,000,000"),
        (LONG + 'choose c from [1, 2] by north label "{s}"', "5:5", "an option's label has more than 10,000"),
        (
            'let t = "{[x for x in 1..1600]}"\nchoose c from 1..200 by north label "{c} {t}"',
            "5:5",
            "the labels of this decision has more than 1,000,000",
        ),
    ],
    ids=["list", "line", "lines", "narration", "label", "labels"],
)
def test_narration_and_labels_are_bounded(tmp_path, capsys, monkeypatch, body, where, message):
    """Texts within the limits can still be written into a log line or a label many times
    over: each line, a move's narration and a decision's labels have a cap of their own,
    refused at the `log` or `choose` that passes it, never a MemoryError."""
    path = tmp_path / "g.game"
    path.write_text(HEADER + play(body))
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))  # `play` writes every label of a decision
    code, err = run_cli(capsys, "play", str(path), "--seat", "north", "--seed", "1")
    assert code == 2, err
    assert f"g.game:{where}: error: " in err and message in err, err


def test_a_saved_frame_local_of_the_wrong_kind_is_refused_on_load(tmp_path, capsys):
    """Two-player Berlin Wall saved mid-decision, one local of a suspended procedure (the
    list of seats being asked in turn) edited into a text: refused on load, naming the
    frame, exit 2 (the text was iterated letter by letter and a seat 'n' asked)."""
    game = load_game("berlin_wall")
    state = game.apply_index(game.start(players=2, seed=3), 0)
    data = state_to_dict(game, state)
    assert data["frames"][1]["locals"][7] == ["red", "black"]
    data["frames"][1]["locals"][7] = "nan"
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(data))
    code, err = run_cli(capsys, "run", "berlin_wall", "--players", "2", "--from-state", str(path))
    assert code == 2
    assert f"{path}: frames[1].locals: the game can't go on from these values" in err, err
    assert "the player asked is 'n', not a seat in play (red, black)" in err


# ---- state invariants: zones -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game_name", "players", "edit_of", "message"),
    [
        (
            "kuhn_poker",
            2,
            lambda d: d["vars"]["hand"].update(p2=list(d["vars"]["hand"]["p1"])),
            "vars.hand.p2[0]: 'Q' is also at vars.hand.p1[0]: a Card is in one place at a time",
        ),
        (
            "kuhn_poker",
            2,
            lambda d: d["vars"]["deck"].append(d["vars"]["deck"][0]),
            "vars.deck[1]: 'J' is also at vars.deck[0]",
        ),
        (
            "twid",
            2,
            lambda d: d["vars"]["discard"].append(d["vars"]["hand"]["west"][0]),
            "vars.discard[0]: ",
        ),
    ],
    ids=["kuhn-two-hands", "kuhn-twice-in-the-deck", "twid-hand-and-discard"],
)
def test_a_component_in_two_zones_is_refused_on_load(tmp_path, capsys, game_name, players, edit_of, message):
    """A card is in one place at a time (Kuhn poker: one card dealt to each player from a
    deck of three; The Wall is Down 4.2: a card is in the deck, a hand, the discard pile,
    removed or in play): an edited state with a card in two zones is refused, with the path."""
    game = load_game(game_name)
    data = state_to_dict(game, game.start(players=players, seed=3))
    edit_of(data)
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(data))
    code, err = run_cli(capsys, "run", game_name, "--players", str(players), "--from-state", str(path), "--quiet")
    assert code == 2 and f"{path}: {message}" in err, err


def test_more_technology_tiles_in_the_boxes_than_were_laid_is_refused_on_load(tmp_path, capsys):
    """Downfall of Empires, 10. Research: each Power lays 3 tiles in box 1 at the start, and
    the Central Powers' tiles are the German Power's 10 and the Austro-Hungarians' 6. A
    state edited to put every one of them in box 2 (16 tiles in the boxes, 6 laid) is
    refused on load, naming the rule and the variables to look at, exit 2: it loaded and
    played before."""
    game = load_game("downfall_of_empires")
    state = game.start(players=2, seed=1)
    while any(label.startswith("start researching") for label in game.labels(state)):
        state = game.apply_index(state, 0)
    data = state_to_dict(game, state)
    assert data["vars"]["laid"] == {"GE": 3, "FB": 3, "RU": 3, "AH": 3}
    owned = {"GE": "german_", "AH": "austro_hungarian_"}
    for power, prefix in owned.items():
        for tile in data["vars"]["tiles"]["central"][power]:
            if prefix + tile in game.compiled.types["TileRow"]:
                data["vars"]["tiles"]["central"][power][tile] = 2
    assert sum(v == 2 for w in owned for v in data["vars"]["tiles"]["central"][w].values()) == 16
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(data))
    code, err = run_cli(capsys, "run", "downfall_of_empires", "--players", "2", "--from-state", str(path), "--quiet")
    assert code == 2, err
    assert f"{path}: invariant: \"10. Research: a Power's tiles in its boxes are the ones it has laid" in err, err
    assert "does not hold (it reads vars.tiles, vars.laid)" in err, err  # a seat is seat_of(w), not a variable read


def test_a_technology_tile_a_power_does_not_have_is_refused_on_load(tmp_path, capsys):
    """Downfall of Empires, 10. Research: the Russians have 6 technologies, not Manoeuvre:
    a state with Russia's Manoeuvre tile in a box (and counted as laid) is refused."""
    game = load_game("downfall_of_empires")
    data = state_to_dict(game, game.start(players=2, seed=1))
    data["vars"]["tiles"]["entente"]["RU"]["manoeuvre"] = 1
    data["vars"]["laid"]["RU"] = 1
    path = tmp_path / "s.toml"
    path.write_text(tomli_w.dumps(data))
    code, err = run_cli(capsys, "run", "downfall_of_empires", "--players", "2", "--from-state", str(path), "--quiet")
    assert code == 2, err
    assert f"{path}: invariant: '10. Research: a Power lays only its own technology tiles" in err, err
    assert "(it reads vars.tiles)" in err, err


def test_a_zone_of_something_else_than_components_is_an_error(tmp_path, capsys):
    err = game_error(tmp_path, capsys, HEADER + "var score: int = 0 zone\n" + play(""), command="check")
    assert "<dir>/g.game:2:1: error: a zone holds components of an entity kind, not int" in err


def test_bundled_games_keep_their_zones_after_every_move():
    """The zones declared in Kuhn poker and The Wall is Down hold in random games."""
    import random

    from interpreter.runtime.saving import misplaced

    for name, players in (("kuhn_poker", 2), ("twid", 4)):
        game = load_game(name)
        for seed in (1, 2):
            state, rng = game.start(players=players, seed=seed), random.Random(seed)
            for _ in range(400):
                assert misplaced(game, state.vars) is None, (name, seed, state.decisions)
                if state.result is not None:
                    break
                state = game.apply_index(state, rng.randrange(len(state.pending.values)))
