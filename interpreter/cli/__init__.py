"""The `gamedef` command line: commands (main), the terminal's styling (terminal) and a
person playing at the terminal (human). The top layer: nothing in the library imports it.
`run` is the command as a process of its own runs it (the console script, `python -m
interpreter`); `main` runs it for a caller that goes on afterwards (a test, a tool).
"""

import atexit
import gc
import sys
from typing import NoReturn

from interpreter.cli.commands import main
from interpreter.core import background

__all__ = ["as_command", "main", "run"]


def run() -> NoReturn:
    """The `gamedef` process: `main` on the command line's arguments, then exit with its
    status, in a process set up for one command (`as_command`)."""
    as_command()
    sys.exit(main())


def as_command() -> None:
    """Set this process up to run one command and end.

    The cycle collector is told what will never be garbage: what the imports made (the
    interpreter's modules and classes) is set aside before the command runs, so no
    collection walks it again, and what is alive when the process ends is set aside before
    Python's collections at exit, which would walk the whole heap (the games loaded, their
    code) only to free what the end of the process frees anyway. Together about a fifth of
    a second of CPU of `gamedef check` after an edit (benchmarks/README.md). A game
    compiled in such a process is set aside with them (core/collector.py).

    A game compiled here is kept for the next run by a detached copy of the process as it
    ends (core/background.py), so the command does not wait while the game's every
    function is compiled for the cache (a server's command forbids it: it keeps running).

    Not for a caller that goes on: what is set aside is never collected while the process
    lives."""
    gc.freeze()
    atexit.register(gc.freeze)
    background.allow()
