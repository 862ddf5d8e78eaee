"""The terminal: progress on long work, styles where the terminal shows them (rich).

Progress goes to standard error, as a live bar only when that is a terminal; piped or
redirected (a test, a log file) it is a plain line every tenth of the work. Styles mark
the structure a reader scans for: the headings of the story (`== Round 3`) and of the view
(an unindented line ending in a colon), the question a person must answer, the result, an error. They are
left out when the output is not a terminal, when `NO_COLOR` is set, or on a dumb terminal.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
import time
import typing
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from interpreter.core.errors import (
    ArgumentError,
    Diagnostic,
    GameDefError,
    HiddenInformationError,
    ModelFileError,
    ModelMismatch,
    NoBaseError,
    OptionError,
    PlayerCountError,
    SavedStateError,
    SettingError,
    Span,
    UnfinishedGameError,
    UsageError,
)

if typing.TYPE_CHECKING:  # rich is imported where a style, a bar or a wrap is drawn (a tenth of a
    # command's start-up otherwise, spent by `check` and `test`, which draw none when piped)
    from rich.console import Console

# A control sequence or character a terminal would act on: ESC and what it introduces
# (CSI `ESC [ ... final`, OSC `ESC ] ... BEL or ESC \`, the string commands DCS, SOS, PM and
# APC, or ESC and one character), the other C0 controls but newline and tab, DEL and C1.
_CONTROL = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|.?)"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]",
    re.S,
)


def clean(text: str) -> str:
    """`text` without the control sequences a terminal would act on (move the cursor,
    retitle the window, write a link, a clipboard, erase the screen), newlines and tabs
    kept. Text from a game file, a table, a transcript, a state or an argument reaches the
    terminal only through this (the streams `clean_output` installs); the program's own
    styles are added after it, by rich, on the raw stream."""
    if _CONTROL.search(text) is None:  # the usual case: one scan, no copy
        return text
    return _CONTROL.sub("", text)


class _Cleaned:
    """A text stream that writes through `clean`; everything else is the stream's own."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(clean(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self.raw, name)


def _raw(stream):
    return stream.raw if isinstance(stream, _Cleaned) else stream


@contextmanager
def clean_output() -> Iterator[None]:
    """Standard output and error through `clean` while the command runs: the one boundary
    every printed line, prompt, error and usage message passes (restored afterwards)."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Cleaned(_raw(sys.stdout)), _Cleaned(_raw(sys.stderr))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def _err() -> Console:
    from rich.console import Console

    return Console(file=_raw(sys.stderr), highlight=False)


def _out() -> Console:
    from rich.console import Console

    return Console(file=_raw(sys.stdout), highlight=False, soft_wrap=True)


def colours(stream=None) -> bool:
    """Whether styles are shown on `stream` (standard output by default)."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


# The story's own marks: a heading (`== Round 3`), a move shown (`  > USA: ...`), a note of
# the program's (`-- back to your previous decision`).
MARKS = (("== ", "bold cyan"), ("  > ", "dim"), ("-- ", "yellow"))


def _styled(text: str, style: str | None) -> None:
    if style and colours():
        _out().print(clean(text), style=style, markup=False, highlight=False)
    else:
        print(text)


@contextmanager
def progress(total: int, what: str) -> Iterator:
    """`with progress(n, "games") as advance: ... advance()` once per unit of work done."""
    console = _err()
    if console.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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


def say(line: str, style: str | None = None) -> None:
    """A line of narration. On a terminal a long one wraps at the width, its continuation
    indented under its start, so words are never cut; piped or redirected (a tool, a log
    file, a test) each line stays one line. Without a `style`, the story's marks choose one."""
    if style is None:
        style = next((s for mark, s in MARKS if line.startswith(mark)), None)
    if not sys.stdout.isatty():
        print(line)
        return
    width = shutil.get_terminal_size((80, 24)).columns - 1
    if len(line) > width:
        indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
        line = textwrap.fill(line, width=max(20, width), subsequent_indent=indent, break_on_hyphens=False)
    _styled(line, style)


def hang(line: str) -> int:
    """Where a wrapped line's continuation starts: under the last column of a listing row
    (the text after its last run of two or more spaces: an option's description, a table's
    last cell), or four spaces in from the line's own indent."""
    indent = len(line) - len(line.lstrip(" "))
    gaps = [m.end() for m in re.finditer(r"\S( {2,})(?=\S)", line)]
    return gaps[-1] if gaps and gaps[-1] < 60 else indent + 4


# The narrowest a listing is wrapped to: a continuation hangs up to 20 columns in.
MIN_WIDTH = 40


def asked_width() -> int | None:
    """The width the environment variable COLUMNS asks for, when it is set to a whole
    number (at least MIN_WIDTH), else None. Most tools honour it even when their output is
    piped (`COLUMNS=100 gamedef list | less`); a terminal's own width is read otherwise."""
    text = os.environ.get("COLUMNS", "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        return None
    return max(MIN_WIDTH, int(text))


def listing(lines: Iterable[str], width: int | None = None) -> None:
    """Lines of a listing or table (`list`, `info`, `cards`, `simulate`) on standard output.
    On a terminal, or wherever COLUMNS is set, a line too wide is wrapped at word boundaries
    by rich (a word is cut only when it alone is wider than the line), its continuation
    under the column it belongs to, so descriptions and table cells stay in their column;
    piped or redirected without COLUMNS, each line stays one line for the tools that read it."""
    if width is None and not sys.stdout.isatty():
        width = asked_width()
        if width is None:
            for line in lines:
                print(line)
            return
    width = width or asked_width() or shutil.get_terminal_size((80, 24)).columns
    from rich.console import Console

    console = Console(width=width, file=sys.stdout, highlight=False, color_system=None)
    for line in lines:
        print("\n".join(wrapped(line, width, console)))


def wrapped(line: str, width: int, console: Console | None = None) -> list[str]:
    """`line` as lines of at most `width` columns, broken between words by rich's wrapping,
    continued at `hang(line)`."""
    if len(line) <= width:
        return [line]
    from rich.console import Console
    from rich.text import Text

    console = console or Console(width=width, highlight=False, color_system=None)
    at = hang(line)
    if at >= width - 20:
        at = min(4, width // 4)
    first = line[: len(line) - len(line.lstrip(" "))]
    body = Text(line.strip())
    out: list[str] = []
    # The first line keeps its own start (a name, a table's first cells); the rest hang at `at`.
    lines = body.wrap(console, width - len(first))
    head = lines[0].plain.rstrip() if lines else ""
    out.append(first + head)
    rest = line.strip()[len(head) :].strip()
    if rest:
        for piece in Text(rest).wrap(console, width - at):
            out.append(" " * at + piece.plain.rstrip())
    return out


def show_view(text: str) -> None:
    """A rendered view, its section headings (an unindented line ending in a colon, over
    the indented lines of its section: "Victory points:", "Hammers:") in bold."""
    for line in text.split("\n"):
        say(line, "bold" if line[:1] not in ("", " ") and line.endswith(":") else "")


def advice(err: UsageError) -> str | None:
    """An error's hint as the command line gives it: the library's typed errors carry the
    facts, and only here are they worded as the flags to give."""
    if isinstance(err, PlayerCountError):
        if err.low == err.high:
            return f"use --players {err.low}"
        return f"use --players N, N from {err.low} to {err.high}"
    if isinstance(err, HiddenInformationError):
        return "a game with hidden information needs the information-set search (IS-MCTS): --agent SEAT=ismcts:N"
    if isinstance(err, SavedStateError):
        if err.field == "game" and isinstance(err.saved, str):
            return f"load it with its own game: gamedef run {err.saved} --from-state ..."
        if err.field == "variants":
            return "give the same --variant options"
        if err.field == "options":
            return "give the same --option values"
        if err.own_hint is None:
            return "compare with a state written by `gamedef run --save-state`"
    if isinstance(err, ModelMismatch):
        if err.field == "game":
            return f"fit one for this game: gamedef learn {err.game}"
        if err.field == "players":
            return f"fit one for {err.players}: gamedef learn {err.game} --players {err.players}"
        return f"fit it again: gamedef learn {err.game}" + "".join(f" --variant {v}" for v in err.variants)
    if isinstance(err, ModelFileError):
        made = "the file `gamedef learn GAME --out FILE` writes"
        return f"{err.own_hint} ({made})" if err.own_hint else f"a learned estimate is {made}"
    if isinstance(err, UnfinishedGameError):
        if err.limit is not None:
            return "raise --max-decisions N, or check the rules for a game that cannot end"
        return f"watch it with `gamedef run {err.game} --seed {err.seed} --moves`"
    return err.hint


def worded(err: UsageError) -> tuple[str, str | None]:
    """An error's message and hint as the command line gives them: an argument the library
    refused is named as the flag that gave it (`agent` as `--agent`: each such argument
    is the flag of the same name), its example written as that flag with a value, and
    the argument its hint's advice is given with as that flag too."""
    if isinstance(err, ArgumentError):
        flag = f"--{err.argument}"
        hint = f"{err.own_hint} with --{err.using}" if err.own_hint and err.using else err.own_hint
        return err.worded(flag), err.hinted(err.example and f"{flag} {err.example}", hint)
    if isinstance(err, NoBaseError):
        return (
            f"--against base: {err.game} is given no --variant and includes no bundled game",
            "give the variant to compare (--variant V --against base), or the game to compare with (--against twid)",
        )
    return err.message, advice(err)


def rendered(err: GameDefError) -> str:
    """A game's errors as the command line shows them: a variant or an option the user gave
    (a SettingError) at the flag that gave it (`--option size=5: error: ...`), its advice
    naming the flags to give (`add --variant gravity`, `for example --option fast=true`);
    any other at its file, line and column."""
    if not isinstance(err, SettingError):
        return err.render()
    example = f"--option {err.example}" if isinstance(err, OptionError) and err.example else None
    add = f"add --variant {err.variant}" if isinstance(err, OptionError) and err.variant else None
    return Diagnostic(Span(f"--{err.setting} {err.shown}", 0, 0), err.message, err.advised(add, example)).render()


def error(message: str, hint: str | None = None) -> None:
    """`gamedef: error: ...` and its hint on standard error, the first in red on a terminal."""
    head = f"gamedef: error: {message}"
    if colours(sys.stderr):
        _err().print(clean(head), style="bold red", markup=False, highlight=False)
    else:
        print(head, file=sys.stderr)
    if hint:
        print(f"    hint: {hint}", file=sys.stderr)


def emphasised(line: str) -> None:
    """A line that ends something (a game's result), in bold where the terminal shows it."""
    _styled(line, "bold")


STEPS = {1: "reading its files", 2: "checking the rules", 3: "compiling"}


@contextmanager
def first_load() -> Iterator:
    """`with first_load() as tell: load_game(..., progress=tell)`: on a terminal, a first
    load (nothing in the cache) says what it does and shows a bar of its three steps, so
    that 10-30 s of compiling is not a blank screen; a cached load shows nothing, and
    so does one whose standard error is piped or redirected (a test, a log, a tool)."""
    console = _err()
    state: dict = {}

    def tell(step: int, what: str) -> None:
        head = f"compiling {what}, once…"
        if not console.is_terminal:
            return
        if "bar" not in state:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            columns = (
                TextColumn("{task.description}"),
                BarColumn(bar_width=12),
                TextColumn("{task.fields[step]}"),
                TimeElapsedColumn(),
            )
            state["bar"] = Progress(*columns, console=console, transient=True)
            state["bar"].start()
            state["task"] = state["bar"].add_task(head, total=len(STEPS), step="")
        state["bar"].update(state["task"], description=head, completed=step - 1, step=STEPS.get(step, ""))

    try:
        yield tell
    finally:
        if "bar" in state:
            state["bar"].stop()


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
