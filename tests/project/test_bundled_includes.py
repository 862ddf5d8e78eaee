"""Building on a bundled game from a folder of one's own (docs/language.md §3.2, §9.2).

`include NAME` (unquoted) names a bundled game or card set from any folder; a quoted path
stays relative to the including file. A file inside a checkout of gamedef builds on that
checkout's games, so the bundled files check from a checkout even when another copy of
gamedef is installed. Reads stay confined to the game's folder and the bundle.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from interpreter import GameDefError, load_game
from interpreter.cli.commands import main
from interpreter.core.paths import BUNDLED, BUNDLED_CARDS, ROOT, bundle_of
from interpreter.language.program import bundled_names, load_program


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def cli(capsys, *argv: str) -> tuple[int, str]:
    started = time.perf_counter()
    code = main(list(argv))
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert time.perf_counter() - started < 60
    return code, out.out + out.err


HOUSE_RULE = """\
    include walls_and_wonders

    variant long_game "House rule: the deck is played through twice" {
        rule "House rule (not in the rulebook)"
    }
"""


def test_a_file_in_any_folder_includes_a_bundled_game_by_name(tmp_path, capsys):
    """A designer's own folder: `include walls_and_wonders` is the bundled game, with the
    file's own variant added; it checks and plays."""
    path = write(tmp_path / "mine", "house.game", HOUSE_RULE)
    program = load_program(path, ["long_game"])
    assert program.header.name == "walls_and_wonders"
    assert str(BUNDLED / "walls_and_wonders.game") in program.sources
    code, out = cli(capsys, "check", str(path))
    assert code == 0, out
    game = load_game(path, variants=["long_game"])
    state = game.start(players=2, seed=1)
    assert game.legal_moves(state)


def test_a_card_set_is_named_by_its_path_in_the_bundle():
    """`include twid/promos` is cards/twid/promos.game: names are looked up in gamedefs/,
    then cards/."""
    names = bundled_names((BUNDLED, BUNDLED_CARDS))
    assert names["twid"] == BUNDLED / "twid.game"
    assert names["twid/promos"] == BUNDLED_CARDS / "twid" / "promos.game"
    assert names["berlin_wall/variants"] == BUNDLED / "berlin_wall" / "variants.game"


def test_the_house_rules_examples_include_their_game_by_name():
    """The README's worked examples build on the bundled games by name, so they work
    wherever they are copied."""
    for name, base in (("twid_house_rules", "twid"), ("berlin_wall_house_rules", "berlin_wall")):
        text = (ROOT / "examples" / f"{name}.game").read_text()
        assert f"\ninclude {base}\n" in text
        assert "../gamedefs" not in text


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        ("include wals_and_wonders", "no bundled game or card set is named 'wals_and_wonders'", "'walls_and_wonders'"),
        ("include twid/promo", "no bundled game or card set is named 'twid/promo'", "'twid/promos'"),
        ("include etc/passwd", "no bundled game or card set is named 'etc/passwd'", "bundled games: "),
        (
            'include "walls_and_wonders.game"',
            "include finds no file: walls_and_wonders.game",
            "write `include walls_and_wonders` (no quotes)",
        ),
        (
            'include "../gamedefs/twid.game"',
            "include leaves the game's folder",
            "write `include twid` (no quotes)",
        ),
    ],
)
def test_a_name_that_is_no_bundled_game_is_a_clear_error(tmp_path, capsys, line, message, hint):
    """A misspelled name, or a bundled game written as a file path, is an error at the
    include with the name meant."""
    path = write(tmp_path, "g.game", line + "\n")
    code, out = cli(capsys, "check", str(path))
    assert code == 2
    assert f"{path}:1:1: error: {message}" in out, out
    assert hint in out, out


def fake_checkout(root: Path) -> Path:
    """A folder laid out like a checkout of gamedef, with a game and a card set of its own."""
    write(root, "grammar/gamedef.lark", "// the checkout's grammar\n")
    write(root, "cards/mini/cards.game", 'card blue "Blue" : Token { points 2 }\n')
    write(
        root,
        "gamedefs/mini.game",
        """\
        game mini "Mini" { players 2..2 seats [north, south] }
        include "../cards/mini/cards.game"
        card red "Red" : Token { points 1 }
        procedure play() {
            rule "Play: the blue token wins"
            game over [north]
        }
        """,
    )
    return root


def test_a_checkout_builds_on_its_own_bundle(tmp_path, capsys):
    """A game inside a checkout reads that checkout's gamedefs/ and cards/ (as the bundled
    twid.game reads ../cards/twid/), even when the installed copy is elsewhere; a file in
    the checkout's examples/ includes the checkout's game by name."""
    root = fake_checkout(tmp_path / "checkout")
    assert bundle_of(root / "examples" / "x.game") == (root / "gamedefs", root / "cards")
    code, out = cli(capsys, "check", str(root / "gamedefs" / "mini.game"))
    assert code == 0, out
    path = write(root, "examples/mine.game", 'include mini\nvariant v "V" {\n    rule "V"\n}\n')
    program = load_program(path, ["v"])
    assert program.header.name == "mini"
    assert str(root / "cards" / "mini" / "cards.game") in program.sources


def test_a_folder_not_laid_out_like_gamedef_is_no_bundle(tmp_path):
    """Without the grammar beside them, sibling gamedefs/ and cards/ folders are not
    readable: reads stay in the game's own folder and the installed bundle."""
    root = fake_checkout(tmp_path / "other")
    (root / "grammar" / "gamedef.lark").unlink()
    assert bundle_of(root / "examples" / "x.game") == (BUNDLED, BUNDLED_CARDS)
    path = write(root, "examples/mine.game", 'include "../gamedefs/mini.game"\n')
    with pytest.raises(GameDefError, match="include leaves the game's folder"):
        load_program(path)
    path = write(root, "examples/named.game", "include mini\n")
    with pytest.raises(GameDefError, match="no bundled game or card set is named 'mini'"):
        load_program(path)


def test_a_bundle_makes_only_its_games_and_cards_readable(tmp_path):
    """In a checkout, a file may read gamedefs/ and cards/, not the checkout's other folders."""
    root = fake_checkout(tmp_path / "checkout")
    write(root, "private/secret.game", "var secret: int = 1\n")
    path = write(root, "examples/mine.game", 'include mini\ninclude "../private/secret.game"\n')
    with pytest.raises(GameDefError, match="include leaves the game's folder"):
        load_program(path)


# ---- an installed copy, outside the checkout ---------------------------------------------------
README_COMMANDS = [
    ["check", "examples/twid_house_rules.game", "examples/berlin_wall_house_rules.game"],
    ["run", "examples/twid_house_rules.game", "--variant", "velvet_revolution", "--quiet", "--seed", "3"],
    ["run", "examples/berlin_wall_house_rules.game", "--variant", "short_game", "--quiet"],
]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """`pip install --no-deps .` of a copy of the checkout into a fresh virtualenv that sees
    the test environment's packages (the dependencies are not downloaded again): the
    `gamedef` script of a normal install."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    # The venv's site-packages goes before the test environment's, so its own `interpreter` wins.
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "outer.pth").write_text("\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n")
    source = tmp_path_factory.mktemp("src") / "gamedef"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", "build"))
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", str(source)],
        check=True,
        timeout=300,
    )
    return venv / "bin" / "gamedef"


@pytest.mark.slow
@pytest.mark.parametrize("argv", README_COMMANDS, ids=lambda a: " ".join(a[:3]))
def test_readme_house_rules_commands_work_from_an_installed_copy(installed, tmp_path, argv):
    """README: `gamedef run examples/twid_house_rules.game --variant velvet_revolution` and
    the Berlin Wall one, after `pip install .`, from a checkout and from a folder of one's own."""
    env = {**os.environ, "GAMEDEF_CACHE": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    for cwd in (ROOT, tmp_path):
        done = subprocess.run([str(installed), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"in {cwd}: {done.stdout}{done.stderr}"
        assert "error" not in done.stderr


@pytest.mark.slow
def test_an_installed_copy_checks_a_checkout_and_a_folder_of_ones_own(installed, tmp_path):
    """`gamedef check gamedefs/twid.game` from the checkout reads the checkout's cards, and a
    file of one's own builds on the installed game by name."""
    env = {**os.environ, "GAMEDEF_CACHE": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(installed), "check", "gamedefs/twid.game"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    write(tmp_path, "house.game", HOUSE_RULE)
    done = subprocess.run(
        [str(installed), "run", "house.game", "--variant", "long_game", "--quiet"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# ---- every command the README and the docs show ----------------------------------------------------
SUBCOMMANDS = ("run", "check", "cards", "list", "info", "rules", "simulate", "bench", "replay", "new", "learn")
PLACEHOLDER = re.compile(r"[A-Z]{2,}|\b[A-Z]\b|\[|\||\.\.\.|<|\bplay\b|--ray|--from-state\s*$|--transcript\s*$")


def documented_commands() -> list[str]:
    """The complete `gamedef ...` commands of the README, the docs, the card sets' notes and
    the examples' comments: inline, in code blocks and after `&&`; not the synopses (with
    placeholders such as GAME or [--seed S]), not `play` (it asks a person), not `--ray`
    (an optional extra)."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "cards").rglob("*.md"))]
    files += sorted((ROOT / "examples").glob("*.game"))
    found: list[str] = []
    for f in files:
        for m in re.finditer(r"(?:`|^[ #]*|&& )(gamedef [^`\n#]+)", f.read_text(), re.M):
            command = " ".join(m.group(1).split())
            words = command.split()
            if (
                (len(words) < 3 and words[1:] != ["list"])
                or words[1] not in SUBCOMMANDS
                or PLACEHOLDER.search(command)
                or command in found
            ):
                continue
            found.append(command)
    return found


def test_the_documented_commands_are_found():
    """The list the installed-copy test runs holds the README's house-rules commands."""
    commands = documented_commands()
    assert "gamedef run examples/twid_house_rules.game --variant velvet_revolution" in commands
    assert "gamedef run examples/berlin_wall_house_rules.game --variant short_game" in commands
    assert "gamedef run twid" in commands


@pytest.mark.slow
@pytest.mark.parametrize("command", documented_commands())
def test_every_documented_command_works_from_an_installed_copy(installed, tmp_path, command):
    """Each command as written, by a normal install, in a folder outside the checkout (a
    simulation plays 2 games instead of the hundreds written, to keep the suite short)."""
    argv = command.split()[1:]
    argv = [str(min(int(a), 2)) if argv[i - 1] == "--games" else a for i, a in enumerate(argv)]
    env = {**os.environ, "GAMEDEF_CACHE": str(tmp_path.parent / "cache"), "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    for word in argv:  # an agent reading a learned estimate: the file `gamedef learn` writes first
        model = re.fullmatch(r".*:learned=([\w.-]+)", word)
        if model and not (tmp_path / model.group(1)).exists():
            learn = [str(installed), "learn", argv[1], "--games", "2", "--out", model.group(1)]
            made = subprocess.run(learn, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
            assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    done = subprocess.run([str(installed), *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
