"""The terminal: progress on long work, emphasis where the terminal shows it (rich).

Progress goes to standard error, as a live bar only when that is a terminal; piped or
redirected (a test, a log file) it is a plain line every tenth of the work. Emphasis is
rich's, which leaves it out when the output is not a terminal or `NO_COLOR` is set.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


def _err() -> Console:
    return Console(file=sys.stderr, highlight=False)


def _out() -> Console:
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


@contextmanager
def progress(total: int, what: str) -> Iterator:
    """`with progress(n, "games") as advance: ... advance()` once per unit of work done."""
    console = _err()
    if console.is_terminal:
        columns = (TextColumn(f"  {what}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task(what, total=total)
            yield lambda: bar.advance(task)
        return
    done = 0
    step = max(1, total // 10)

    def advance() -> None:
        nonlocal done
        done += 1
        if done % step == 0:
            print(f"  {done}/{total} {what}", file=sys.stderr)

    yield advance


def say(line: str) -> None:
    """A line of narration. On a terminal a long one wraps at the width, its continuation
    indented under its start, so words are never cut; piped or redirected (a tool, a log
    file, a test) each line stays one line."""
    if not sys.stdout.isatty():
        print(line)
        return
    width = shutil.get_terminal_size((80, 24)).columns - 1
    if len(line) <= width:
        print(line)
        return
    indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
    print(textwrap.fill(line, width=max(20, width), subsequent_indent=indent, break_on_hyphens=False))


def emphasised(line: str) -> None:
    """A line that ends something (a game's result), in bold where the terminal shows it."""
    console = _out()
    if console.is_terminal and not os.environ.get("NO_COLOR"):  # NO_COLOR: no styles at all, bold too
        console.print(line, style="bold", markup=False)
    else:
        print(line)


@contextmanager
def counter(what: str) -> Iterator:
    """`with counter("decisions") as tick: ... tick(n)`: on a terminal, a live line with the
    count so far (a long quiet run shows it is working); elsewhere nothing."""
    console = _err()
    if not console.is_terminal:
        yield lambda n: None
        return
    with console.status(f"0 {what}") as status:
        shown = [0.0]

        def tick(n: int) -> None:  # every 100, or sooner when each one is slow (a search agent)
            now = time.monotonic()
            if n % 100 == 0 or now - shown[0] > 0.5:
                shown[0] = now
                status.update(f"{n:,} {what}")

        yield tick
