"""`gamedef play` as a person meets it: the status line, Ctrl-C that saves the game, the
prompt's completion of legal moves. Piped answers drive it as before (tests/cli/test_cli.py)."""

from __future__ import annotations

import builtins
import io
import sys

from interpreter import load_game, load_state
from interpreter.cli.commands import main
from interpreter.cli.human import HumanAgent, status_line


def test_status_line_of_tictactoe_says_the_marks_and_whose_turn():
    """Tic-tac-toe's status (its view's `status` items): the squares marked, whose mark is next."""
    game = load_game("tictactoe")
    state = game.start(seed=1)
    assert status_line(game, state, "o") == "0 of 9 squares marked | x to play"


def test_ctrl_c_saves_the_game_and_play_from_state_goes_on(tmp_path, monkeypatch, capsys):
    """Ctrl-C never loses the game: the position is saved, and `--from-state` resumes it."""
    monkeypatch.chdir(tmp_path)
    answers = iter(["b2"])

    def ask(prompt=""):
        for answer in answers:
            return answer
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", ask)
    assert main(["play", "tictactoe", "--seat", "x", "--agent", "o=first"]) == 130
    out = capsys.readouterr().out
    assert "-- saved to gamedef-tictactoe-seed1.toml" in out
    state = load_state(load_game("tictactoe"), tmp_path / "gamedef-tictactoe-seed1.toml")
    assert state.decisions == 2 and game_board(state)["b2"] == "x"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 9))
    monkeypatch.setattr(builtins, "input", lambda prompt="": sys.stdin.readline().rstrip("\n"))
    assert (
        main(["play", "tictactoe", "--seat", "x", "--agent", "o=first", "--from-state", "gamedef-tictactoe-seed1.toml"])
        == 0
    )
    out = capsys.readouterr().out
    assert "from gamedef-tictactoe-seed1.toml" in out and "== game over after" in out


def game_board(state):
    return load_game("tictactoe").var(state, "board")


def test_the_completer_offers_the_legal_moves_containing_what_is_typed():
    from prompt_toolkit.document import Document

    from interpreter.cli.screen import MoveCompleter

    completer = MoveCompleter()
    completer.labels = ["hammer on a1", "hammer on d3", "move red hammer"]
    offered = [c.text for c in completer.get_completions(Document("d3"), None)]
    assert offered == ["hammer on d3"]
    offered = [c.text for c in completer.get_completions(Document("vi"), None)]
    assert offered == ["view"]


def test_a_compact_player_is_shown_the_status_and_a_short_menu_not_the_view():
    """At a terminal the view is not printed at each decision (it was 50-118 lines): the
    status line, the question and at most ten lines of moves fit 80x24."""
    game = load_game("twid")
    state = game.start(players=2, seed=3)
    shown: list[str] = []
    seat = game.current_player(state)
    human = HumanAgent(seat, ask=lambda prompt: "1", say=shown.append, compact=True)
    human.choose(game, state)
    assert shown[0].startswith("round 1/8, headers | VP West 0, East 0 | your hand ")
    assert not any(line.startswith("Your hand:") for line in shown)
    assert len([line for line in shown if line.strip()]) <= 16
