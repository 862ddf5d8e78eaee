"""The library raises typed errors that carry the facts, and only the command line words
them as the flags to give (docs/architecture.md: nothing below cli/ names a flag)."""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.core.errors import HiddenInformationError, PlayerCountError
from interpreter.play.agents import make_agent


def test_a_player_count_the_game_is_not_for_carries_the_counts_and_names_no_flag():
    game = load_game("berlin_wall")
    with pytest.raises(PlayerCountError) as caught:
        game.start(players=9)
    err = caught.value
    assert (err.title, err.count, err.low, err.high) == ("Berlin Wall", 9, 2, 4)
    assert err.message == "Berlin Wall is for 2 to 4 players, not 9"
    assert "--" not in err.hint and "2 to 4 players" in err.hint
    with pytest.raises(PlayerCountError) as caught:
        load_game("kuhn_poker").start(players=3)
    assert (caught.value.low, caught.value.high) == (2, 2) and "--" not in caught.value.hint


def test_the_command_line_words_a_player_count_as_its_flag(capsys):
    assert main(["run", "kuhn_poker", "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert "gamedef: error: Kuhn poker is for 2 players, not 3" in err and "hint: use --players 2\n" in err
    assert main(["run", "berlin_wall", "--players", "9"]) == 2
    assert "hint: use --players N, N from 2 to 4\n" in capsys.readouterr().err


def test_a_search_refusing_hidden_information_says_what_is_hidden_and_names_no_flag(capsys):
    with pytest.raises(HiddenInformationError) as caught:
        make_agent("mcts:50", "p1", 1, load_game("kuhn_poker"))
    err = caught.value
    assert err.kind == "mcts" and err.title == "Kuhn poker"
    assert any("'hand' is seen by owner" in what for what in err.found)
    assert "--" not in err.hint and "ismcts:N" in err.hint
    assert main(["run", "kuhn_poker", "--agent", "p1=mcts:50", "--quiet"]) == 2
    assert "hint: a game with hidden information needs the information-set search (IS-MCTS): --agent SEAT=ismcts:N" in (
        capsys.readouterr().err
    )


def test_a_saved_state_of_another_game_or_variants_carries_both_and_names_no_flag(tmp_path, capsys):
    from interpreter.core.errors import SavedStateError
    from interpreter.runtime.saving import load_state, save_state

    path = tmp_path / "s.toml"
    tictactoe = load_game("tictactoe")
    save_state(tictactoe, tictactoe.start(seed=1), path)
    with pytest.raises(SavedStateError) as caught:
        load_state(load_game("kuhn_poker"), path)
    err = caught.value
    assert (err.field, err.saved, err.loaded) == ("game", "tictactoe", "kuhn_poker") and "--" not in err.hint
    assert main(["run", "kuhn_poker", "--from-state", str(path), "--quiet"]) == 2
    assert "hint: load it with its own game: gamedef run tictactoe --from-state ..." in capsys.readouterr().err

    berlin = load_game("berlin_wall")
    save_state(berlin, berlin.start(players=2, seed=1), path)
    with pytest.raises(SavedStateError) as caught:
        load_state(load_game("berlin_wall", variants=["gravity"]), path)
    err = caught.value
    assert (err.field, err.saved, err.loaded) == ("variants", [], ["gravity"]) and "--" not in err.hint
    assert main(["run", "berlin_wall", "--variant", "gravity", "--from-state", str(path), "--quiet"]) == 2
    assert "hint: give the same --variant options" in capsys.readouterr().err
    gravity = load_game("berlin_wall", variants=["gravity"])
    save_state(gravity, gravity.start(players=2, seed=1), path)
    with pytest.raises(SavedStateError) as caught:
        load_state(load_game("berlin_wall", variants=["gravity"], options={"ground": "left"}), path)
    assert caught.value.field == "options" and "--" not in caught.value.hint
    command = ["run", "berlin_wall", "--variant", "gravity", "--option", "ground=left", "--from-state", str(path)]
    assert main([*command, "--quiet"]) == 2
    assert "hint: give the same --option values" in capsys.readouterr().err
