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
