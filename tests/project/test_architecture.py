"""The package's structure (docs/architecture.md): interpreter/ is a pipeline of layers,
each importing only from those below it, and no import cycle between modules.

The import graph is grimp's (import-linter's engine), which sees every import statement,
those inside functions included; `lint-imports` checks the same contract from pyproject.toml.
"""

from __future__ import annotations

import grimp
from repo_paths import ROOT

LAYERS = ["core", "language", "check", "compile", "runtime", "play", "adapters", "web", "lsp", "cli"]  # lowest first

# Cycles between modules that are allowed: none. (Game's game-theory methods once made the
# engine import theory, resample and observe, which import it; `Game` now sits above them in
# runtime/game.py.)
ALLOWED_CYCLES: list[set[str]] = []


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("interpreter", cache_dir=None)


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_is_in_a_layer():
    """Nothing but the public API (interpreter/__init__.py, __main__) sits outside the layers."""
    loose = [m for m in _graph().modules if _layer(m) is None and m not in ("interpreter", "interpreter.__main__")]
    assert loose == []


def test_no_import_runs_from_a_lower_layer_to_a_higher_one():
    graph = _graph()
    upward = []
    for module in sorted(graph.modules):
        here = _layer(module)
        if here is None:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            there = _layer(imported)
            if there is not None and there > here:
                lines = graph.get_import_details(importer=module, imported=imported)
                upward.append(f"{module} -> {imported} (line {lines[0]['line_number'] if lines else '?'})")
    assert upward == []


def test_the_library_never_imports_the_command_line():
    graph = _graph()
    users = {m for m in graph.find_modules_that_directly_import("interpreter.cli")}
    for module in graph.find_children("interpreter.cli"):
        users |= graph.find_modules_that_directly_import(module)
    assert {m for m in users if not m.startswith("interpreter.cli") and m != "interpreter.__main__"} == set()


def _cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_cycles_are_found():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_modules():
    graph = _graph()
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules if m != "interpreter"}
    new = [sorted(c) for c in _cycles(edges) if not any(c <= allowed for allowed in ALLOWED_CYCLES)]
    assert new == []


def _vm_uses(tree) -> list[int]:
    """The lines of a module that import the runtime's `VM` or call anything named `VM`."""
    import ast

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(alias.name == "VM" for alias in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name == "VM":
                lines.append(node.lineno)
    return lines


def test_no_module_outside_the_runtime_builds_the_machine():
    """A `VM` is the runtime's working copy of a state, alive only inside one move: the
    layers above ask the runtime for what they need of a position (`Game`, `SeatView` for a
    drawing), so that what a seat may see is decided in one place (principle 4)."""
    import ast

    found = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        rel = path.relative_to(ROOT / "interpreter")
        if rel.parts[0] == "runtime":
            continue
        for line in _vm_uses(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(f"{rel}:{line}")
    assert found == []


def test_the_machine_check_sees_an_import_and_a_call():
    import ast

    assert _vm_uses(ast.parse("from interpreter.runtime.machine import VM, State\nvm = VM(g, s)\n")) == [1, 2]
    assert _vm_uses(ast.parse("from interpreter.runtime import machine\nvm = machine.VM(g, s)\n")) == [2]
    assert _vm_uses(ast.parse("vm = game.vm_for(s)\n")) == []


OPTIONAL = {"pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy", "ray", "starlette", "uvicorn", "jinja2"}
OPTIONAL |= {"pygls", "lsprotocol", "matplotlib", "playwright", "httpx", "psycopg"}


def test_every_module_of_the_project_imports():
    """Every module of interpreter/ and benchmarks/ imports (a stale import after a module
    moves is caught here, not by a user); a module whose optional extra is missing is skipped."""
    import importlib
    import pkgutil

    root = ROOT
    failed = []
    for package in ("interpreter", "benchmarks"):
        for info in pkgutil.walk_packages([str(root / package)], prefix=f"{package}."):
            if info.name.endswith("__main__"):
                continue
            try:
                importlib.import_module(info.name)
            except ImportError as err:
                if (err.name or "").split(".")[0] not in OPTIONAL:
                    failed.append(f"{info.name}: {err}")
    assert failed == []


def test_the_architecture_page_names_every_layer_and_module():
    """docs/architecture.md is where the structure is described, once: its table of layers
    has a row for each package of `interpreter/`, and each row names every module of that
    package (a new module without a line there fails here)."""
    import re

    root = ROOT
    rows = {}
    for line in (root / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `(\w+)/` \|", line)
        if m:
            rows[m.group(1)] = set(re.findall(r"`(\w+)`", line))
    packages = sorted(p.name for p in (root / "interpreter").iterdir() if (p / "__init__.py").exists())
    assert sorted(rows) == packages
    unnamed = [
        f"{package}/{module.stem}"
        for package in packages
        for module in sorted((root / "interpreter" / package).glob("*.py"))
        if module.stem != "__init__" and module.stem not in rows[package]
    ]
    assert unnamed == []


# The command line's flags that a module below it still writes in a message, by module: none.
# The library raises typed errors carrying the facts (core/errors.py: ArgumentError,
# SettingError, ModelMismatch, ...) and the command line words them as its flags (cli/
# terminal.py `worded`, `advice`, `rendered`), a diagnostic at an argument included
# (`--variant V: error: ...`). A module that writes one again is listed here, and fails.
STILL_WORDED: dict[str, set[str]] = {}


def _flags() -> set[str]:
    """Every `--flag` of the command line, read from its argparse parser and subcommands."""
    import argparse

    from interpreter.cli.commands import build_parser

    found: set[str] = set()
    parsers = [build_parser()]
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            found |= {o for o in action.option_strings if o.startswith("--")}
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
    return found - {"--help"}


def _worded_flags(source: str, flags: set[str]) -> set[str]:
    """The flags a module's string constants (an f-string's parts too) name, docstrings
    left out: a docstring may say which flag reaches the code, a message may not."""
    import ast
    import re

    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    pattern = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")
    return {
        flag
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        for flag in pattern.findall(node.value)
        if flag in flags
    }


def test_the_scan_sees_a_flag_in_a_message_and_not_in_a_docstring():
    source = '"""Read by `--agent`."""\ndef f(n):\n    """`--games N`."""\n    return f"--players {n}", "--agentx"\n'
    assert _worded_flags(source, {"--agent", "--games", "--players"}) == {"--players"}


def test_no_module_below_the_command_line_words_its_flags():
    """The library raises typed errors carrying the facts and the command line words them as
    its flags (cli/terminal.py `worded`, `advice`); the web words them its own way. So no
    module outside cli/ and web/ writes a flag in a string, but those STILL_WORDED lists."""
    flags = _flags()
    assert {"--agent", "--players", "--variant", "--option", "--games", "--seat"} <= flags
    found = {}
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        shown = path.relative_to(ROOT).as_posix()
        if shown.split("/")[1] in ("cli", "web"):
            continue
        worded = _worded_flags(path.read_text(encoding="utf-8"), flags)
        if worded:
            found[shown] = worded
    assert found == STILL_WORDED


# What play/ may not import: it computes the records and the statistics; writing them (CSV,
# charts, pages), reading arguments and starting or reaching a Ray cluster are a front end's.
REPORTING = {"csv", "matplotlib", "argparse", "jinja2", "ray"}


def _reporting(source: str) -> list[str]:
    """What a module's source does that is reporting or Ray start-up: each module of
    REPORTING it imports (`import`, `from ... import`, `importlib.import_module("...")`,
    `__import__("...")`, at any depth), and each call of a function of `ray` (`ray.init`,
    `ray.shutdown`, `ray.remote`, ...)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
                names.append(str(node.args[0].value))
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "ray":
                found.append(f"ray.{func.attr}()")
        found += [f"import {name}" for name in names if name.split(".")[0] in REPORTING]
    return found


def test_the_scan_sees_reporting_and_ray_start_up_at_any_depth():
    source = (
        "import csv\ndef f():\n    import matplotlib.pyplot as plt\n    from jinja2 import Template\n"
        "    ray.init(address='local')\n    return importlib.import_module('ray')\nimport csvkit\n"
    )
    assert _reporting(source) == [
        "import csv",
        "import matplotlib.pyplot",
        "import jinja2",
        "ray.init()",
        "import ray",
    ]


def test_play_computes_and_the_front_end_reports_and_starts_ray():
    """play/ plays the games and computes the records and statistics; the CSV rows, the
    charts, the pages and the arguments are the command line's (cli/simulation_report.py,
    cli/charts.py, cli/balance_report.py), and so is Ray: cli/ray_workers.py starts it and
    hands play/ the workers (`simulate.Workers`), whose tasks run `simulate.remote_chunk`."""
    found = {}
    for path in sorted((ROOT / "interpreter" / "play").rglob("*.py")):
        done = _reporting(path.read_text(encoding="utf-8"))
        if done:
            found[path.relative_to(ROOT).as_posix()] = done
    assert found == {}


def test_only_the_command_line_reads_its_arguments_with_argparse():
    """argparse is the command line's: the library parses an argument's text (`2,4`,
    `NAME=LO..HI`) and raises a ValueError, which cli/ turns into argparse's error."""
    import ast

    users = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        if path.relative_to(ROOT).parts[1] == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(name.split(".")[0] == "argparse" for name in names):
                users.append(path.relative_to(ROOT).as_posix())
    assert users == []


def test_one_meaning_per_class_and_module_name():
    """No two classes of the package share a name, and no two modules (docs/architecture.md,
    names): a reader who meets `Table` or `views.py` knows which one is meant."""
    import ast as python_ast
    from collections import Counter

    files = [p for p in (ROOT / "interpreter").rglob("*.py")]
    classes = Counter(
        node.name
        for path in files
        for node in python_ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, python_ast.ClassDef)
    )
    modules = Counter(p.name for p in files if p.name != "__init__.py")
    assert [name for name, n in classes.items() if n > 1] == []
    assert [name for name, n in modules.items() if n > 1] == []
