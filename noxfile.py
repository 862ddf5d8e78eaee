"""The checks of `.ci/run`, as nox sessions to run one at a time while working.

`nox` runs the checks and the default suite; `nox -s slow` the long suites; `nox -l` lists
the sessions. Each session installs the project (not editable, as a user would) into a
virtualenv of its own under `.nox/`, with the extras it needs, so a missing declaration of
a dependency fails here as it would in CI. `tests/project/test_habits.py` holds this file and
`.ci/run` to the same commands.
"""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["readme", "checks", "extras"]

EXTRAS = ".[test,plot,web,postgres,browser,lsp,openspiel,pettingzoo,ray,learn]"
GAMES = ["berlin_wall", "walls_and_wonders", "missiles_now", "twid", "downfall_of_empires", "tictactoe", "kuhn_poker"]


@nox.session
def readme(session: nox.Session) -> None:
    """The README's test command as a new user runs it: the test extra alone."""
    session.install(".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def checks(session: nox.Session) -> None:
    """Lint, format, the layers, the type check and `gamedef check` of every bundled game."""
    session.install(EXTRAS)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", "interpreter", "tests", "benchmarks", "gamedefs", "examples")
    session.run("lint-imports")
    session.run("mypy")
    session.run("gamedef", "check", *GAMES)


@nox.session
def extras(session: nox.Session) -> None:
    """The test files that skip a test when an optional extra is missing, with every extra."""
    session.install(EXTRAS)
    files = [str(path) for path in sorted(_tests().rglob("test_*.py")) if "importorskip(" in path.read_text()]
    session.run("pytest", *files, *session.posargs)


@nox.session
def slow(session: nox.Session) -> None:
    """The slow suites: whole-game sweeps, fuzz samples, search agents on every game."""
    session.install(EXTRAS)
    session.run("pytest", "-m", "slow", *session.posargs, success_codes=[0, 5])


def _tests():
    from pathlib import Path

    return Path(__file__).parent / "tests"
