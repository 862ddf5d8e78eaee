"""The library raises typed errors that carry the facts, and only the command line words
them as the flags to give (docs/architecture.md: nothing below cli/ names a flag)."""

from __future__ import annotations

import importlib.util

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


def test_an_argument_the_library_refuses_carries_its_name_and_value_and_names_no_flag(tmp_path):
    from interpreter.cli.charts import plot_folder
    from interpreter.core.errors import ArgumentError
    from interpreter.play.agents import parse_agents, resolve_seat
    from interpreter.play.balance import check_components, game_counts, read_kept, sweep_kind
    from interpreter.play.simulate import check_scale, score_probe
    from interpreter.runtime.cardlist import card_listing

    tictactoe, berlin = load_game("tictactoe"), load_game("berlin_wall")
    a_file = tmp_path / "s.toml"
    a_file.write_text("")
    refusals = {
        "agent-form": lambda: parse_agents(["x"], tictactoe, ("x", "o"), 1),
        "agent-seat": lambda: parse_agents(["red=first"], tictactoe, ("x", "o"), 1),
        "seat": lambda: resolve_seat(tictactoe, "y", ("x", "o"), "seat"),
        "players": lambda: game_counts(berlin, [9]),
        "component": lambda: check_components(berlin, ["Cardz"]),
        "keep": lambda: read_kept(tmp_path),
        "games": lambda: check_scale(10**12, 1),
        "jobs": lambda: check_scale(1, 10**5),
        "plot": lambda: plot_folder(a_file),
        "score": lambda: score_probe(tictactoe, "vp", ("x", "o")),
        "where": lambda: card_listing(berlin.compiled, where=["ops"]),
        "sweep": lambda: sweep_kind(tictactoe, "nothing"),
    }
    facts = {}
    for name, refuse in refusals.items():
        with pytest.raises(ArgumentError) as caught:
            refuse()
        err = caught.value
        assert "--" not in err.message and "--" not in (err.hint or ""), (name, err.message, err.hint)
        facts[name] = (err.argument, err.given)
    assert facts == {
        "agent-form": ("agent", None),
        "agent-seat": ("agent", "red"),
        "seat": ("seat", "y"),
        "players": ("players", 9),
        "component": ("component", "Cardz"),
        "keep": ("keep", tmp_path),
        "games": ("games", 10**12),
        "jobs": ("jobs", 10**5),
        # without matplotlib (`.[test]` alone) the plot is refused before the folder is read
        "plot": ("plot", a_file if importlib.util.find_spec("matplotlib") else None),
        "score": ("score", "vp"),
        "where": ("where", "'ops'"),
        "sweep": ("sweep", "nothing"),
    }


@pytest.mark.parametrize(
    ("argv", "message", "hint"),
    [
        (["run", "tictactoe", "--agent", "x"], "--agent needs SEAT=KIND, got 'x'", "for example --agent x=first"),
        (["run", "tictactoe", "--agent", "red=first"], "--agent red: no seat 'red' in this game", "seats: x, o"),
        (
            ["balance", "berlin_wall", "--players", "9"],
            "--players 9: Berlin Wall is for 2 to 4 players",
            "give counts from 2 to 4, for example --players 2,4",
        ),
        (
            ["simulate", "tictactoe", "--games", "1000000000000"],
            "--games 1000000000000: the limit is 1,000,000 games",
            "run several simulations with --seed",
        ),
        (
            ["cards", "berlin_wall", "--where", "ops"],
            "--where 'ops': write PROPERTY=VALUE",
            "for example --where ops=3",
        ),
        (
            ["balance", "tictactoe", "--sweep", "nothing=1..2"],
            "--sweep nothing: Tic-tac-toe has no option or def without parameters named 'nothing'",
            None,
        ),
    ],
    ids=["agent-form", "agent-seat", "players", "games", "where", "sweep"],
)
def test_the_command_line_words_a_refused_argument_as_its_flag(capsys, argv, message, hint):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"gamedef: error: {message}\n" in err, err
    assert hint is None or f"    hint: {hint}\n" in err, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["balance", "tictactoe", "--players", "two"], "argument --players: expected player counts such as 2,4 or 2-4"),
        (["balance", "tictactoe", "--sweep", "x"], "argument --sweep: expected NAME=LO..HI, such as victory_vp=6..12"),
        (["simulate", "tictactoe", "--games", "2", "--cards", "0"], "argument --cards: expected a number above 0"),
    ],
    ids=["players", "sweep", "cards"],
)
def test_the_library_parses_an_arguments_text_and_the_command_line_words_its_error(capsys, argv, message):
    """play/ reads `2,4` or `NAME=LO..HI` and raises a ValueError; cli/ makes it argparse's own
    error (exit 2, the flag named), so argparse is used only in cli/."""
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2 and message in capsys.readouterr().err


def test_a_variant_or_option_the_game_cannot_take_carries_the_facts_and_names_no_flag(capsys):
    """load_game refuses a variant or an option as a typed error at the setting given; its
    own words name no flag, and the command line says it at the flag, with the flags to give."""
    from interpreter.core.errors import OptionError, UnknownVariantError, VariantConflictError

    refusals = [
        (lambda: load_game("berlin_wall", variants=["gravty"]), UnknownVariantError, ("variant", "gravty")),
        (
            lambda: load_game("berlin_wall", variants=["gravity", "nullo_gravity"]),
            VariantConflictError,
            ("variant", "nullo_gravity"),
        ),
        (lambda: load_game("berlin_wall", options={"ground": "left"}), OptionError, ("option", "ground=left")),
        (lambda: load_game("berlin_wall", options={"columns": 10}), OptionError, ("option", "columns=10")),
    ]
    said = []
    for refuse, kind, facts in refusals:
        with pytest.raises(kind) as caught:
            refuse()
        err = caught.value
        assert (err.setting, err.shown) == facts
        assert "--" not in str(err), str(err)
        said.append(str(err))
    assert said[2].splitlines() == [
        "option ground=left: error: unknown option 'ground'",
        "    hint: the variant gravity declares it: choose it too",
    ]
    assert (caught.value.variant, caught.value.own_hint) == ("wall_of_china", "choose from 12")
    assert said[3].endswith("hint: choose from 12, or choose the variant wall_of_china, which allows it")
    assert main(["run", "berlin_wall", "--option", "ground=left"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "--option ground=left: error: unknown option 'ground'",
        "    hint: the variant gravity declares it: add --variant gravity",
    ]
    assert main(["run", "berlin_wall", "--variant", "gravty"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == "--variant gravty: error: unknown variant 'gravty'"


def test_a_report_the_library_cannot_make_carries_the_facts_and_names_no_flag(capsys):
    """No base to compare with, a base that seats other players, a game of a simulation
    that does not end: each a typed error naming no flag, worded by the command line."""
    from interpreter.core.errors import ArgumentError, NoBaseError, UnfinishedGameError
    from interpreter.play import balance as bal
    from interpreter.play import simulate as sim

    with pytest.raises(NoBaseError) as caught:
        bal.base_setup(sim.Setup(game="tictactoe"), "base")
    assert caught.value.game == "tictactoe" and "--" not in str(caught.value)
    assert main(["balance", "tictactoe", "--games", "2", "--against", "base"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "gamedef: error: --against base: tictactoe is given no --variant and includes no bundled game",
        "    hint: give the variant to compare (--variant V --against base), or the game to compare with "
        "(--against twid)",
    ]
    two = {"counts": [{"players": 2, "seats": ["x", "o"]}]}
    with pytest.raises(ArgumentError) as refused:
        bal.against({"counts": [{"players": 2, "seats": ["a", "b"]}]}, {}, two, {}, "kuhn_poker", "kuhn_poker")
    assert (refused.value.argument, refused.value.given) == ("against", "kuhn_poker")
    assert "--" not in str(refused.value)

    setup = sim.Setup(game="tictactoe", players=2, max_decisions=3)
    with pytest.raises(UnfinishedGameError) as unfinished:
        sim.simulate(setup, 1, 7, 1)
    err = unfinished.value
    assert (err.seed, err.game, err.limit) == (7, "tictactoe", 3) and "--" not in str(err)
    assert main(["simulate", "tictactoe", "--games", "1", "--seed", "7", "--max-decisions", "3", "--jobs", "1"]) == 2
    assert "hint: raise --max-decisions N, or check the rules for a game that cannot end" in capsys.readouterr().err
