"""The bounds every input is held to, so no file can take unbounded time or memory.

A `.game` file, transcript or state file may come from anyone. Each limit below is
far above what a real game needs (the largest bundled game uses a few hundred
components and lists of a few hundred items) and low enough that hitting it costs
seconds, not minutes. Hitting one is an error with a position and a hint, never a
crash. The limits are documented in docs/language.md ("Limits").
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

MAX_FILE_BYTES = 4 * 1024 * 1024  # one .game, table, transcript or state file
MAX_FILES = 256  # files one game may include
MAX_NESTING = 100  # syntax tree depth: blocks in blocks, expressions in expressions
MAX_COMPONENTS = 20_000  # grid cells, cards and generated components, together (and rows of a table)
MAX_TABLE_CELLS = 200_000  # cells of one table file (a card list has a few thousand)
MAX_SYNTAX_ERRORS = 20  # syntax errors reported from one file before "... and more"
MAX_REPORTED = 25  # bad cells reported from one table before "and N more"
MAX_NAME = 200  # characters of a component's name or title
MAX_TITLE = MAX_NAME  # characters of a component's title read from a table
MAX_MAP_ENTRIES = 1_000_000  # entries of one map variable (product of its key types)
MAX_LIST = 100_000  # items in a list or range, characters in a text
MAX_INT = 2**63 - 1  # magnitude of a number kept in a variable
MAX_CHOICES = 10_000  # options of one decision (a board's cells, a hand's cards: far fewer)
STEP_LIMIT = 1_000_000  # work between two decisions: loop turns, items iterated, calls
LOAD_WORK_LIMIT = 10_000_000  # work spent computing a game's constants at load
MAX_DEPTH = 10_000  # procedures running inside one another


class LimitExceeded(Exception):
    """A value or a computation went past one of the limits above.

    Raised by the compiled code and the built-ins; the engine turns it into a
    runtime error naming the rule and its line, the loader into a diagnostic."""

    def __init__(self, message: str, hint: str | None = None):
        self.message = message
        self.hint = hint
        super().__init__(message)


class LoadBudget:
    """The work budget of one game's loading, standing in for the engine's VM while
    constants are computed (constant folding, `generate`, tables of pure functions)."""

    def __init__(self, seats: tuple[str, ...] = ()):
        self.players = seats
        self.vars: list = []
        self.budget = LOAD_WORK_LIMIT

    def out_of_steps(self) -> None:
        raise LimitExceeded(
            f"computing the game's constants took more than {LOAD_WORK_LIMIT:,} steps",
            "a `generate`, range or table is far larger than a game needs",
        )


def charge(vm, items):
    """Spend one step per item of a list about to be iterated or read whole; return it.

    Compiled comprehensions, `for` loops and built-ins over lists (sum, sort, concat, ...)
    take their lists through this, so nested loops over long lists use up the step
    budget instead of running for hours. Anything but a list or text costs nothing."""
    if items.__class__ is tuple:
        vm.budget -= len(items)
        if vm.budget < 0:
            vm.out_of_steps()
    return items


def checked_range(vm, low: int, high: int) -> tuple:
    """The numbers low..high, refused above MAX_LIST items before any is made."""
    size = high - low + 1
    if size > MAX_LIST:
        raise LimitExceeded(
            f"the range {low}..{high} has {size:,} numbers; the limit is {MAX_LIST:,}",
            "a game's ranges are dice, tracks and counts: far smaller",
        )
    if size > 0:
        vm.budget -= size
        if vm.budget < 0:
            vm.out_of_steps()
    return tuple(range(low, high + 1))


def capped(value):
    """`value`, if it is within the limits of a stored value; else LimitExceeded.

    Applied where a computed number, list or text is stored (assignments, `let`,
    function results), so a value doubled in a loop stops at the limit. The items of
    a list are not looked at: they were checked when stored, unless the expression
    computed new ones (then `capped_deep`)."""
    t = value.__class__
    if t is int:
        if -MAX_INT <= value <= MAX_INT:
            return value
    elif t is not tuple and not isinstance(value, str):  # a str or a Text (builtins.Text)
        return value
    elif len(value) <= MAX_LIST:
        return value
    return capped_deep(value)


def capped_deep(value):
    """`capped`, looking inside lists too: for a list whose items were just computed."""
    t = value.__class__
    if t is int:
        if -MAX_INT <= value <= MAX_INT:
            return value
        raise LimitExceeded(
            f"a number grew past the limit of {MAX_INT:,}",
            "a rule multiplies or adds without bound (in a loop?)",
        )
    if t is tuple or isinstance(value, str):
        if len(value) > MAX_LIST:
            raise LimitExceeded(
                f"a {'list' if t is tuple else 'text'} grew to {len(value):,} items; the limit is {MAX_LIST:,}",
                "a rule joins lists or texts without bound (in a loop?)",
            )
        if t is tuple:
            for item in value:
                if item.__class__ is int or item.__class__ is tuple:
                    capped_deep(item)
    return value


MAX_DECISIONS = 100_000  # a game still running after this many decisions is stopped (bundled games: under 36,000)
MAX_GAMES = 1_000_000  # games of one `gamedef simulate` or `bench` (a record each is kept for the summary)
MAX_JOBS = 256  # worker processes of one `gamedef simulate` (a machine has far fewer cores)
MAX_SHOWN = MAX_LIST  # characters of one value written into a text, a log line or a label
MAX_LOG_LINES = 10_000  # log lines written by one move (a real move writes a few dozen)
MAX_NARRATION = 1_000_000  # characters of the narration of one move, as kept for output
MAX_LABEL = 10_000  # characters of one option's label
MAX_LABELS = 1_000_000  # characters of the labels of one decision, together


def too_long(what: str, size: int, limit: int, hint: str) -> LimitExceeded:
    """The error for a text past one of the limits of what is shown (narration, labels)."""
    return LimitExceeded(f"{what} has more than {limit:,} characters ({size:,} so far)", hint)


@contextlib.contextmanager
def no_collection() -> Iterator[None]:
    """Python's cycle collector held off while a game loads (parse, check, compile).

    Loading makes millions of small objects (tokens, trees, syntax nodes) and keeps most
    of them: each collection of the oldest generation walks them all, so with it on a
    4 MB file took about twice as long per KB as a 250 KB one. Held off, loading is linear
    in the file's size; the collector runs again afterwards (nested uses leave it to the
    outermost)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
