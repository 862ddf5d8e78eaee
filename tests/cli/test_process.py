"""The `gamedef` process itself: what a command pays before and after its work.

Every command is a new process (a designer's `gamedef check` after each edit), so what
the process imports and how it ends is part of every command's time (benchmarks/README.md,
"The fixed cost of a check").
"""

from __future__ import annotations

import subprocess
import sys
import tomllib

from repo_paths import ROOT


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_check_piped_imports_no_terminal_styling():
    """rich draws styles, bars and wrapped listings on a terminal; a check whose output is
    piped draws none, so it does not import rich (about a quarter of the start-up)."""
    out = _python(
        "import sys\n"
        "from interpreter.cli.commands import main\n"
        "main(['check', '--budget', '0', 'tictactoe'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'rich'))\n"
    )
    assert out.splitlines()[-1] == "[]"


def test_the_command_as_a_process_sets_its_imports_aside_from_the_collector():
    """`gamedef` (the console script) and `python -m interpreter` run `interpreter.cli.run`:
    what the imports made is frozen out of the cycle collector before the command runs, and
    everything alive at exit before Python's last collections; `main`, for callers that go
    on, leaves the collector alone."""
    out = _python(
        "import atexit, gc, sys\n"
        "import interpreter.cli as cli\n"
        "seen = []\n"
        "cli.main = lambda argv=None: seen.append(gc.get_freeze_count()) or 0\n"
        "atexit.register(lambda: print(seen[0] > 1000, len(gc.get_objects()) < 100))\n"
        "sys.argv = ['gamedef', 'list']\n"
        "cli.run()\n"
    )
    assert out.split() == ["True", "True"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["gamedef"] == "interpreter.cli:run"
    assert "from interpreter.cli import run" in (ROOT / "interpreter" / "__main__.py").read_text(encoding="utf-8")
    before = _python(
        "import gc\n"
        "from interpreter.cli.commands import main\n"
        "main(['list', '--names'])\n"
        "print(gc.get_freeze_count())\n"
    )
    assert before.split()[-1] == "0"
