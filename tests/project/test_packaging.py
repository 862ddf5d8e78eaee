"""The distribution (docs/architecture.md, "Packaging"): one import package, `interpreter`,
with the grammar, the bundled games, the card sets and the examples inside it as
`interpreter/data/FOLDER/`, mapped there from the repository's top-level folders when the
wheel is built (setup.py). `pip install .` adds no other top-level name to site-packages.
`interpreter/core/paths.py` alone knows where the data is: in an install, inside the
package (through `importlib.resources`); in a checkout, the repository's folders.

The fast tests check that lookup in both layouts; the slow ones build the wheel, read its
names, install it into a fresh virtualenv and run the command line from there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from repo_paths import ROOT

from interpreter.core import paths

DATA = paths.DATA_FOLDERS


# ---- the lookup, in a checkout and in an installed layout -----------------------------------------
def test_a_checkout_reads_its_top_level_folders():
    """In the repository, the data is its own top-level folders; no `interpreter/data/`
    stands in for them (one would hide the checkout's edits)."""
    assert not (ROOT / "interpreter" / "data").exists()
    for name in DATA:
        assert paths.data_folder(name) == ROOT / name
    assert paths.GRAMMAR == ROOT / "grammar" / "gamedef.lark" and paths.GRAMMAR.is_file()
    assert (paths.BUNDLED, paths.BUNDLED_CARDS, paths.EXAMPLES) == (
        ROOT / "gamedefs",
        ROOT / "cards",
        ROOT / "examples",
    )
    assert paths.CHECKOUT == ROOT


def installed_layout(site: Path) -> Path:
    """A site-packages with an installed `interpreter/` (its data inside it) and, beside it,
    another distribution's top-level `gamedefs/` and `grammar/`: the installed package's
    folder."""
    package = site / "interpreter"
    for name in DATA:
        (package / "data" / name).mkdir(parents=True)
        (site / name).mkdir(parents=True)
    (package / "data" / "grammar" / "gamedef.lark").write_text("start: \n")
    (site / "grammar" / "gamedef.lark").write_text("start: \n")
    return package


def test_an_installed_copy_reads_the_data_inside_its_package(tmp_path, monkeypatch):
    """Installed, every folder is `interpreter/data/FOLDER/` as importlib.resources finds
    the package, never a folder of the same name beside it in site-packages."""
    package = installed_layout(tmp_path / "site")
    asked: list[str] = []
    monkeypatch.setattr(paths, "resources", SimpleNamespace(files=lambda name: asked.append(name) or package))
    for name in DATA:
        assert paths.data_folder(name) == package / "data" / name
    assert set(asked) == {"interpreter"}


def test_an_installed_copy_confines_a_game_to_its_folder_and_the_bundle(tmp_path, monkeypatch):
    """The installed data is a bundle like a checkout: an installed example builds on the
    installed games and card sets, and reads nothing else of the package (not the grammar)."""
    package = installed_layout(tmp_path / "site")
    monkeypatch.setattr(paths, "resources", SimpleNamespace(files=lambda name: package))
    data = paths.data_folder("grammar").parent
    assert paths.is_bundle(data)
    example = paths.data_folder("examples") / "tictactoe.game"
    assert paths.read_roots(example) == (data / "examples", data / "gamedefs", data / "cards")


def test_an_installed_copy_has_no_canonical_transcripts(monkeypatch, capsys):
    """`gamedef diff` without transcripts plays the checkout's tests/transcripts/; an
    installed copy has no checkout, so it asks for transcripts (and never reads a `tests/`
    folder another distribution left in site-packages)."""
    from interpreter.cli.commands import main

    monkeypatch.setattr(paths, "CHECKOUT", None)
    assert main(["diff", "--game", "tictactoe"]) == 2
    err = capsys.readouterr().err
    assert "no transcripts named, and the canonical ones (tests/transcripts/ of a checkout) are not here" in err


def test_an_unknown_data_folder_is_refused():
    with pytest.raises(ValueError, match="no data folder named 'tests'"):
        paths.data_folder("tests")


def test_nothing_else_in_the_interpreter_finds_files_by_its_own_location():
    """core/paths.py is the one module that finds the data: no other module of interpreter/
    reads `__file__` or `importlib.resources` (the web's templates and static files are
    found by their package, `interpreter.web`, through Jinja's and Starlette's loaders)."""
    found = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        text = path.read_text()
        if path != ROOT / "interpreter" / "core" / "paths.py" and re.search(
            r"__file__|importlib\.resources|import resources\b|resources\.files", text
        ):
            found.append(path.relative_to(ROOT).as_posix())
    assert found == []


# ---- the wheel ----------------------------------------------------------------------------------------
def package_data_patterns() -> list[str]:
    """The file patterns every package ships (pyproject.toml)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["setuptools"]["package-data"]["*"]


def shipped_data_files() -> set[str]:
    """Every file of the repository's data folders that the wheel ships, by its place in
    the wheel."""
    patterns = package_data_patterns()
    return {
        f"interpreter/data/{f.relative_to(ROOT).as_posix()}"
        for name in DATA
        for f in (ROOT / name).rglob("*")
        if f.is_file() and "__pycache__" not in f.parts and any(f.match(p) for p in patterns)
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """`pip wheel . --no-deps` of a copy of the checkout, as a user builds it, in a copy whose
    `build/` still holds the top-level data folders a build of the earlier layout left."""
    source = tmp_path_factory.mktemp("src") / "gamedef"
    ignore = shutil.ignore_patterns(".git", ".venv", ".nox", "__pycache__", "*.egg-info", "build", "dist", ".*_cache")
    shutil.copytree(ROOT, source, ignore=ignore)
    stale = source / "build" / "lib"
    (stale / "grammar").mkdir(parents=True)
    (stale / "grammar" / "gamedef.lark").write_text("start: \n")
    (stale / "examples").mkdir()
    (stale / "examples" / "old.game").write_text("")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(source)],
        check=True,
        timeout=600,
    )
    (built,) = out.glob("gamedef-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_holds_one_top_level_package_with_its_data(wheel):
    """The wheel's top-level names are `interpreter` and its dist-info; the repository's
    grammar, games, card sets and examples are all inside `interpreter/data/`, file for
    file, with the web's pages and every module of the interpreter."""
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"interpreter"}
    assert [t for t in tops if t.endswith(".dist-info")] == [wheel.name.split("-py3")[0] + ".dist-info"]
    (top_level,) = [n for n in names if n.endswith(".dist-info/top_level.txt")]
    assert zipfile.ZipFile(wheel).read(top_level).decode().split() == ["interpreter"]
    assert {n for n in names if n.startswith("interpreter/data/")} == shipped_data_files()
    assert "interpreter/data/grammar/gamedef.lark" in names
    assert "interpreter/data/cards/twid/cards.tsv" in names
    modules = {f.relative_to(ROOT).as_posix() for f in (ROOT / "interpreter").rglob("*.py")}
    assert modules <= set(names)
    web = {
        f.relative_to(ROOT).as_posix()
        for d in ("static", "templates")
        for f in (ROOT / "interpreter/web" / d).iterdir()
    }
    assert web <= set(names)


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> tuple[Path, Path]:
    """`pip install --no-deps WHEEL` into a fresh virtualenv that sees the test environment's
    packages (the dependencies are not downloaded again): its bin folder and site-packages."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import site; print(site.getsitepackages()[0])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    before = set(os.listdir(site))
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True, timeout=600)
    added = set(os.listdir(site)) - before
    assert {a for a in added if not a.endswith(".dist-info")} == {"interpreter"}
    # After the install, so that the install's own names are counted alone: the test
    # environment's packages go after the venv's, so that its `interpreter` wins.
    Path(site, "outer.pth").write_text("\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n")
    return venv / "bin", site


def gamedef(venv: tuple[Path, Path], cwd: Path, *argv: str) -> str:
    """Run the installed `gamedef` in `cwd` with a cache of its own; its output, after
    checking that it succeeded."""
    env = {**os.environ, "GAMEDEF_CACHE": str(cwd / ".cache"), "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(venv[0] / "gamedef"), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"gamedef {' '.join(argv)}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done.stdout + done.stderr


HOUSE_RULE = """\
    include walls_and_wonders

    variant long_game "House rule: the deck is played through twice" {
        rule "House rule (not in the rulebook)"
    }
"""


@pytest.mark.slow
def test_an_installed_copy_runs_games_of_its_own_and_of_a_designer(venv, tmp_path):
    """From a folder of one's own, the installed `gamedef` finds its bundled games inside
    its package: an example by name, a file that includes a bundled game, a new variant
    started with `gamedef new` and its tests."""
    site = venv[1]
    assert not any((site / name).exists() for name in DATA)
    assert "== game over after 9 decisions" in gamedef(venv, tmp_path, "run", "tictactoe", "--quiet")
    (tmp_path / "house.game").write_text(textwrap.dedent(HOUSE_RULE))
    assert "house.game: ok (4 variants)" in gamedef(venv, tmp_path, "check", "house.game", "--budget", "0")
    out = gamedef(venv, tmp_path, "run", "house.game", "--variant", "long_game", "--quiet")
    assert "== Walls and Wonders (long_game)" in out and "== game over" in out
    gamedef(venv, tmp_path, "new", "variant", "mine", "--of", "walls_and_wonders")
    assert "1 of 1 tests passed" in gamedef(venv, tmp_path, "test", "mine.test.game")
    listed = gamedef(venv, tmp_path, "list")
    assert all(name in listed for name in ("twid", "berlin_wall", "tictactoe", "kuhn_poker"))


def run_in_venv(venv: tuple[Path, Path], cwd: Path, code: str) -> str:
    env = {**os.environ, "GAMEDEF_CACHE": str(cwd / ".cache")}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(venv[0] / "python"), "-c", textwrap.dedent(code)], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_an_installed_copy_reads_nothing_outside_a_game_and_its_bundle(venv, tmp_path):
    """Installed, a game's reads stay in its folder and the bundled games and card sets:
    an example inside the package cannot include the package's grammar, and a top-level
    `gamedefs/` another distribution left in site-packages is not the bundle."""
    site = venv[1]
    data = site / "interpreter" / "data"
    (data / "examples" / "escape.game").write_text('include "../grammar/gamedef.lark"\n')
    (site / "gamedefs").mkdir()
    (site / "gamedefs" / "decoy.game").write_text('game decoy "Decoy" { players 2..2 seats [a, b] }\n')
    try:
        out = run_in_venv(
            venv,
            tmp_path,
            """
            from interpreter import GameDefError
            from interpreter.core.paths import BUNDLED, BUNDLED_CARDS, EXAMPLES, GRAMMAR
            from interpreter.language.program import load_program
            from interpreter.lsp.analysis import including_game
            from interpreter.runtime.load import bundled_games
            print(BUNDLED, BUNDLED_CARDS, EXAMPLES, GRAMMAR, sep="\\n")
            print("decoy" in bundled_games())
            print(including_game(BUNDLED_CARDS / "twid" / "pre_1.game"))
            try:
                load_program(EXAMPLES / "escape.game")
            except GameDefError as e:
                print(e)
            """,
        )
    finally:
        shutil.rmtree(site / "gamedefs")
        (data / "examples" / "escape.game").unlink()
    lines = out.splitlines()
    assert lines[:4] == [
        str(data / "gamedefs"),
        str(data / "cards"),
        str(data / "examples"),
        str(data / "grammar" / "gamedef.lark"),
    ]
    assert lines[4] == "False"
    assert lines[5] == str(data / "gamedefs" / "twid.game")  # the LSP finds the game a card set is part of
    assert "include leaves the game's folder" in "\n".join(lines[6:])


@pytest.mark.slow
def test_an_installed_web_table_serves_its_pages_and_games(venv, tmp_path):
    """`gamedef serve`'s pages and static files come from the installed package, and its
    lobby offers the bundled games."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    out = run_in_venv(
        venv,
        tmp_path,
        """
        from starlette.testclient import TestClient
        from interpreter.web.app import create_app
        with TestClient(create_app("tables.sqlite", ["tictactoe", "twid"])) as client:
            for url in ("/static/style.css", "/"):
                page = client.get(url)
                print(page.status_code, len(page.text), "Tic-tac-toe" in page.text, "The Wall is Down" in page.text)
        """,
    )
    css, lobby = out.splitlines()
    assert css.startswith("200 ") and int(css.split()[1]) > 0
    assert lobby.startswith("200 ") and lobby.endswith("True True")
