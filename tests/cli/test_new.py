"""`gamedef new game|variant|cards NAME [--of GAME] [DIR]`: a skeleton in a folder of one's
own that checks and runs as written (README, the command line)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli.commands import main

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    r"test_each_skeleton_comes_with_one_passing_test_that_can_fail\[cards\]",
    r"test_a_new_card_set_for_twid_gives_every_needed_property",
]


def new(capsys, *argv: str) -> tuple[int, str]:
    code = main(["new", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out + out.err


def checks(capsys, path: Path) -> None:
    code = main(["check", str(path)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert out.err == "", out.err  # no warning either


def play_through(path: Path, variants=(), seed: int = 1, players: int | None = None):
    game = load_game(path, variants=variants)
    rng = random.Random(seed)
    state = game.playout(game.start(players=players, seed=seed), rng.randrange, 20_000)
    assert game.is_over(state)
    return game, state


def test_a_new_game_checks_and_plays_to_a_winner(tmp_path, capsys):
    """The new game's own rule 3: the first to reach the target (10 points) wins."""
    code, out = new(capsys, "game", "my_game", str(tmp_path))
    assert code == 0, out
    path = tmp_path / "my_game.game"
    assert f"wrote {path}" in out
    checks(capsys, path)
    for seed in range(1, 4):
        game, state = play_through(path, seed=seed, players=3)
        (winner,) = game.result(state)
        assert game.var(state, "points")[winner] >= 10


def test_a_new_variant_of_a_bundled_game_builds_on_it_by_name(tmp_path, capsys):
    """A variant of Walls and Wonders from a folder of one's own: `include walls_and_wonders`."""
    code, out = new(capsys, "variant", "my_rules", "--of", "walls_and_wonders", str(tmp_path))
    assert code == 0, out
    path = tmp_path / "my_rules.game"
    assert "\ninclude walls_and_wonders\n" in path.read_text()
    checks(capsys, path)
    game, _ = play_through(path, variants=["my_rules"], players=2)
    assert game.compiled.program.header.name == "walls_and_wonders"


def test_a_new_variant_of_ones_own_game_includes_its_file(tmp_path, capsys):
    """`--of my_game` names a .game file in the same folder: it is included by its path."""
    new(capsys, "game", "my_game", str(tmp_path))
    code, out = new(capsys, "variant", "house", "--of", "my_game", str(tmp_path))
    assert code == 0, out
    path = tmp_path / "house.game"
    assert '\ninclude "my_game.game"\n' in path.read_text()
    checks(capsys, path)
    play_through(path, variants=["house"])


def test_a_new_card_set_for_twid_gives_every_needed_property(tmp_path, capsys):
    """A new card of The Wall is Down from a folder of one's own: it gives what every
    TwidCard needs (number, epoch, types, removed_after_text), has the cards' effect slot,
    and joins the pre-9/11 deck (the game deals every TwidCard of that epoch)."""
    code, out = new(capsys, "cards", "my_cards", "--of", "twid", str(tmp_path))
    assert code == 0, out
    path = tmp_path / "my_cards.game"
    text = path.read_text()
    assert 'card my_cards_card "My cards" : TwidCard {' in text
    assert "\n    effect {\n" in text  # TwidCard declares the slot's parameters (`slot effect(...)`)
    checks(capsys, path)
    game = load_game(path)
    assert "my_cards_card" in game.compiled.types["TwidCard"]


@pytest.mark.slow
def test_a_new_twid_card_is_played_in_whole_games(tmp_path, capsys):
    """The new card is dealt and its text resolves in whole games."""
    new(capsys, "cards", "my_cards", "--of", "twid", str(tmp_path))
    used = 0
    for seed in (1, 2, 3):
        code = main(["run", str(tmp_path / "my_cards.game"), "--seed", str(seed), "--verbose"])
        out = capsys.readouterr()
        assert code == 0, out.err
        used += out.out.count("My cards is used")
    assert used > 0


@pytest.mark.parametrize(
    ("argv", "message", "hint"),
    [
        (["game", "My-Game"], "'My-Game' cannot name a game", "lower-case letters"),
        (["variant", "house"], "a new variant builds on a game: give --of GAME", "--of twid"),
        (["game", "g", "--of", "twid"], "--of is for a variant or a card set", "gamedef new game g"),
        (["variant", "house", "--of", "berlin_wal"], "--of berlin_wal: no bundled game", "'berlin_wall'"),
        (["cards", "c", "--of", "berlin_wall"], "this game has no cards with a rule to copy", "gamedef new variant"),
    ],
)
def test_mistakes_are_clear_errors(tmp_path, capsys, argv, message, hint):
    code, out = new(capsys, *argv, str(tmp_path))
    assert code == 2
    assert message in out and hint in out, out
    assert not list(tmp_path.glob("*.game"))


def test_an_existing_file_is_never_overwritten(tmp_path, capsys):
    (tmp_path / "my_game.game").write_text("# mine\n")
    code, out = new(capsys, "game", "my_game", str(tmp_path))
    assert code == 2 and "exists already" in out
    assert (tmp_path / "my_game.game").read_text() == "# mine\n"


@pytest.mark.parametrize(
    "argv",
    [["game", "race"], ["variant", "short", "--of", "berlin_wall"], ["cards", "extra", "--of", "twid"]],
    ids=["game", "variant", "cards"],
)
def test_each_skeleton_comes_with_one_passing_test_that_can_fail(tmp_path, capsys, argv):
    """`gamedef new` writes NAME.test.game beside the skeleton: `gamedef test` passes it,
    and the same test with a wrong expectation fails (exit 1) at its line."""
    assert main(["new", *argv, str(tmp_path)]) == 0
    test_file = tmp_path / f"{argv[1]}.test.game"
    assert test_file.is_file()
    capsys.readouterr()
    assert main(["test", str(test_file)]) == 0
    assert "1 of 1 tests passed" in capsys.readouterr().out
    lines = test_file.read_text(encoding="utf-8").splitlines()
    expect = max(i for i, line in enumerate(lines) if line.strip().startswith("expect "))
    negated = "expect not " not in lines[expect]
    lines[expect] = lines[expect].replace(*(("expect ", "expect not ") if negated else ("expect not ", "expect ")), 1)
    test_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["test", str(test_file)]) == 1
    assert f"{test_file}:{expect + 1}:" in capsys.readouterr().out
