"""The working habits the repository keeps: the noxfile and the pre-commit configuration run
the same checks as CI (`.ci/run`), so a contributor who runs them locally sees what CI
will say."""

from __future__ import annotations

import ast
import re
import shlex

from repo_paths import ROOT


def _ci_commands() -> list[list[str]]:
    """The tool commands `.ci/run` runs (ruff, lint-imports, mypy, gamedef, pytest -m slow),
    each as its words, with comments and shell plumbing left out."""
    commands = []
    for line in (ROOT / ".ci" / "run").read_text().splitlines():
        if not re.match(r"\s*(ruff|lint-imports|mypy|gamedef|pytest|status=0; pytest)\b", line):
            continue
        line = re.sub(r"\$\(.*\)", "", line)  # a list of files the shell makes
        words = shlex.split(line, comments=True)
        if "pytest" in words and "-m" in words:
            words = words[words.index("pytest") :]
            words = words[: words.index("slow") + 1]
        if words and words[0] in {"ruff", "lint-imports", "mypy", "gamedef", "pytest"}:
            commands.append(words)
    return commands


def _nox_commands() -> list[list[str]]:
    """Every `session.run(...)` of the noxfile as its words (`*GAMES` spelt out; a
    `*session.posargs` or a list of files made on the way is dropped, as the shell's list is
    from `.ci/run`'s)."""
    tree = ast.parse((ROOT / "noxfile.py").read_text())
    constants = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
        if not isinstance(node.value, ast.Call) and not isinstance(node.value, ast.Attribute)
    }
    commands = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "run":
            words: list[str] = []
            for arg in node.args:
                if isinstance(arg, ast.Constant):
                    words.append(arg.value)
                elif isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name):
                    value = constants.get(arg.value.id)
                    if isinstance(value, list):
                        words.extend(value)
            commands.append(words)
    return commands


def test_the_noxfile_runs_every_check_that_ci_runs():
    ci = _ci_commands()
    assert len(ci) >= 7, ci  # ruff, format, lint-imports, mypy, gamedef check, pytest, pytest -m slow
    nox = _nox_commands()
    missing = [" ".join(c) for c in ci if c not in nox]
    assert missing == []


def test_pre_commit_runs_the_quick_checks_of_ci():
    config = (ROOT / ".pre-commit-config.yaml").read_text()
    entries = [line.split("entry:", 1)[1].split()[0] for line in config.splitlines() if "entry:" in line]
    quick = {
        c[0] if c[0] != "ruff" else f"ruff {c[1]}" for c in _ci_commands() if c[0] in {"ruff", "lint-imports", "mypy"}
    }
    ran = set()
    for line in config.splitlines():
        if "entry:" in line:
            words = line.split("entry:", 1)[1].split()
            ran.add(words[0] if words[0] != "ruff" else f"ruff {words[1]}")
    assert entries and quick <= ran, (quick, ran)
