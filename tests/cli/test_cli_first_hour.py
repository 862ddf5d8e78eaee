"""The command line as a newcomer meets it: `gamedef` alone, `--version`, the examples of
every `--help`, listings that wrap to the terminal, shell completion."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

from interpreter.cli.commands import EXAMPLES, build_parser, main
from interpreter.cli.terminal import wrapped

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # The game with the most tables (the other games stay).
    r"test_info_names_only_files_that_are_shipped\[downfall_of_empires\]",
]


def test_gamedef_alone_prints_the_help_with_examples(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: gamedef")
    assert "examples:" in out and "gamedef run twid --seed 3" in out


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert re.fullmatch(r"gamedef \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)


@pytest.mark.parametrize("command", sorted(set(EXAMPLES) - {"gamedef"}))
def test_every_help_page_ends_with_examples_that_parse(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "\nexamples:\n" in out
    parser = build_parser()
    for line, what in EXAMPLES[command]:
        assert f"  {line}\n      {what}" in out  # the examples, kept on their own lines
        words = shlex.split(line)
        assert words[0] == "gamedef" and words[1] == command
        args = parser.parse_args(words[1:])  # a mistyped option would exit 2 here
        assert args.command == command


def test_a_listing_wraps_under_its_column_between_words():
    """`list`, `info`, `cards`, `simulate` on a narrow terminal: no line wider than the
    terminal, no word cut, the continuation under the description's column."""
    line = (
        "    --option victory=construction           the agreed victory condition of the game when no "
        "variant says otherwise (choices: construction, attrition, economic, military)"
    )
    out = wrapped(line, 80)
    assert len(out) > 1 and all(len(x) <= 80 for x in out)
    assert " ".join(" ".join(x.split()) for x in out) == " ".join(line.split())  # every word whole
    column = line.index("the agreed")
    assert all(x[:column].strip() == "" and x[column] != " " for x in out[1:])


def test_list_on_a_narrow_terminal_keeps_every_line_within_it(monkeypatch, capsys):
    """issue: `list` had 33 of 68 lines wider than 100 columns, and words broken mid-word."""
    main(["list"])
    plain = capsys.readouterr().out.splitlines()
    assert max(len(x) for x in plain) > 80  # piped: one line each, as before
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "80")
    main(["list"])
    shown = capsys.readouterr().out.splitlines()
    assert max(len(x) for x in shown) <= 80
    assert " ".join(" ".join(shown).split()) == " ".join(" ".join(plain).split())  # the same words, none cut


def test_list_piped_with_columns_set_keeps_every_line_within_it(monkeypatch, capsys):
    """`COLUMNS=100 gamedef list | less` printed lines of 277 characters: piped output is
    wrapped to COLUMNS when it is set, as most tools do, every word kept whole; without it,
    piped lines stay one line each (the test above)."""
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    main(["list"])
    plain = capsys.readouterr().out.splitlines()
    assert max(len(x) for x in plain) > 100
    monkeypatch.setenv("COLUMNS", "100")
    main(["list"])
    shown = capsys.readouterr().out.splitlines()
    assert max(len(x) for x in shown) <= 100 and len(shown) > len(plain)
    assert " ".join(" ".join(shown).split()) == " ".join(" ".join(plain).split())  # the same words, none cut
    monkeypatch.setenv("COLUMNS", "wide")  # not a number: ignored
    main(["list"])
    assert capsys.readouterr().out.splitlines() == plain


def test_cards_piped_with_columns_set_keeps_every_line_within_it(monkeypatch, capsys):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    monkeypatch.setenv("COLUMNS", "60")
    main(["cards", "twid"])
    shown = capsys.readouterr().out.splitlines()
    assert shown and max(len(x) for x in shown) <= 60


def test_bash_completion_script_completes_commands_and_games(tmp_path):
    """`eval "$(gamedef --print-completion bash)"`: commands, options and game names."""
    script = subprocess.run(
        [sys.executable, "-m", "interpreter", "--print-completion", "bash"], capture_output=True, text=True, check=True
    ).stdout
    (tmp_path / "c.bash").write_text(script)
    probe = f"""
gamedef() {{ {shlex.quote(sys.executable)} -m interpreter "$@"; }}
source {tmp_path / "c.bash"}
ask() {{ COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${{#COMP_LINE}};
  COMPREPLY=(); _shtab_gamedef; echo "${{COMPREPLY[@]}}"; }}
ask gamedef si
ask gamedef run wa
ask gamedef run twid --se
"""
    got = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert got == ["simulate", "walls_and_wonders", "--seed"]


def test_list_names_is_one_game_a_line(capsys):
    assert main(["list", "--names"]) == 0
    names = capsys.readouterr().out.split()
    assert {"twid", "berlin_wall", "walls_and_wonders", "missiles_now", "downfall_of_empires"} <= set(names)


def test_save_state_keeps_the_position_a_max_decisions_stop_reached(tmp_path, capsys):
    """`run --max-decisions N --save-state F` once wrote nothing when the cap stopped the
    game; now F holds the position after N decisions, and `--from-state F` goes on."""
    saved = tmp_path / "stopped.toml"
    argv = ["run", "berlin_wall", "--seed", "2", "--max-decisions", "15", "--save-state", str(saved), "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "has not ended after 15 decisions" in err and f"the position it reached is in {saved}" in err
    from interpreter import load_game, load_state

    state = load_state(load_game("berlin_wall"), saved)
    assert state.decisions == 15
    assert main(["run", "berlin_wall", "--from-state", str(saved), "--quiet"]) == 0
    assert "== game over after" in capsys.readouterr().out


def test_a_first_load_tells_its_steps_and_a_cached_one_nothing(tmp_path, monkeypatch):
    """A first load (nothing in the cache) says what it does: reading, checking, compiling,
    by the game's title; the second load of the same game tells nothing."""
    from interpreter import load_game

    monkeypatch.setenv("GAMEDEF_CACHE", str(tmp_path / "cache"))
    told: list[tuple[int, str]] = []
    load_game("tictactoe", progress=lambda step, what: told.append((step, what)))
    assert told == [(1, "tictactoe"), (2, "Tic-tac-toe"), (3, "Tic-tac-toe")]
    told.clear()
    load_game("tictactoe", progress=lambda step, what: told.append((step, what)))
    assert told == []


@pytest.mark.parametrize("game", ["twid", "berlin_wall", "downfall_of_empires", "missiles_now", "walls_and_wonders"])
def test_info_names_only_files_that_are_shipped(game, capsys):
    """issue: `info twid` named a rulebook file that is not shipped. A file named as a path
    must exist; the publisher's rulebook is said to be cited, not shipped."""
    from pathlib import Path

    assert main(["info", game]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("rulebook: "))
    named = line.removeprefix("rulebook: ").split(",")[0]
    assert Path(named).is_file() or "(not shipped" in line, line


def test_the_short_story_says_which_rounds_had_no_key_event(capsys):
    """issue: Missiles, Now!'s summary jumped from Round 1 to Round 11 in silence. Rounds
    are the project's dating of the narration (missiles_now.game, play()); the standings
    come every ten rounds, and the rounds between are now named as without key events."""
    assert main(["run", "missiles_now", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("== Round 11: "))
    assert lines[at].endswith("  (Round 2 to Round 10: no key event)")
    assert lines[at - 1].startswith("== Round 1: ")
    assert not any(x.startswith("  (Round 12") for x in lines)  # dated key events between headings: no note
