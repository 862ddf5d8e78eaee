"""Diagnostics as values: every error a designer can meet carries a source position.

Passes (parse, check, compile, run) collect `Diagnostic`s instead of printing, and
raise one `GameDefError` holding them all, so the command line can render each as
`path:line:col: error: message`, the source line, a caret and a suggestion.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Iterable
from typing import Any

import attrs

from interpreter.core.limits import MAX_FILE_BYTES, LimitExceeded


@attrs.frozen
class Span:
    """Where a piece of source text sits: 1-based line and column."""

    path: str
    line: int
    column: int
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


NOWHERE = Span("<builtin>", 0, 0)


@attrs.frozen
class Diagnostic:
    """One error: what went wrong, where, and what the designer may have meant."""

    span: Span
    message: str
    hint: str | None = None
    severity: str = "error"

    def render(self, sources: dict[str, str] | None = None) -> str:
        where = str(self.span) if self.span.line > 0 else self.span.path  # a file, or an argument
        lines = [f"{where}: {self.severity}: {self.message}"]
        text = (sources or {}).get(self.span.path)
        if text is None and self.span.line > 0:
            text = _source_text(self.span.path)
        # Lines as the parser counts them (at "\n" only: `splitlines` also breaks at other
        # characters), and the text may not be the one the position was found in (a file
        # changed on disk since, an editor's unsaved text): a line past its end shows nothing.
        lines_of = text.split("\n") if text is not None else []
        if 0 < self.span.line <= len(lines_of):
            source_line = lines_of[self.span.line - 1].rstrip("\r")
            source_line = source_line.replace("\t", " ")  # a column counts a tab as one character
            column = max(1, self.span.column)
            width = max(1, (self.span.end_column or column + 1) - column)
            if len(source_line) > SHOWN_LINE:  # a window of a long line, around the caret
                start = max(0, column - 1 - SHOWN_LINE // 2)
                before = "..." if start > 0 else ""
                after = "..." if start + SHOWN_LINE < len(source_line) else ""
                source_line = before + source_line[start : start + SHOWN_LINE] + after
                column = column - start + len(before)
            lines.append(f"    {source_line}")
            lines.append("    " + " " * (column - 1) + "^" * min(width, 60))
        if self.hint:
            lines.append(f"    hint: {self.hint}")
        return "\n".join(lines)


SHOWN_LINE = 120  # characters of a source line shown under a diagnostic


def _source_text(path: str) -> str | None:
    """A file's text for showing a line of it; a regular file only, read with a bound."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE_BYTES).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return None


class GameDefError(Exception):
    """Raised by a pass that found errors; holds every diagnostic it found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(self.diagnostics[0].message if self.diagnostics else "error")

    def __str__(self) -> str:
        return self.render()

    def render(self, sources: dict[str, str] | None = None) -> str:
        return "\n".join(d.render(sources) for d in self.diagnostics)


class GameRuntimeError(GameDefError):
    """A rule failed while running: names the rule and the source line being run."""

    # The message and span as the rule's error gave them, before the running procedure's
    # name was added: where the machine places an error raised inside a native block.
    raw: tuple[str, Span | None] | None = None


class UsageError(Exception):
    """A bad command-line argument, transcript or saved state (exit code 2)."""

    def __init__(self, message: str, hint: str | None = None):
        self.message = message
        self.hint = hint
        super().__init__(message if not hint else f"{message}\n    hint: {hint}")


class PlayerCountError(UsageError):
    """A number of players the game is not for. It carries the facts (the game's title, the
    count asked, the counts allowed) so that each front end words its own advice: the
    command line names `--players`, the web its form; the hint here names neither."""

    def __init__(self, title: str, count: int, low: int, high: int):
        self.title, self.count, self.low, self.high = title, count, low, high
        if low == high:
            super().__init__(f"{title} is for {low} players, not {count}", f"play it with {low} players")
        else:
            super().__init__(
                f"{title} is for {low} to {high} players, not {count}", f"play it with {low} to {high} players"
            )


class HiddenInformationError(UsageError):
    """A search that reads the whole state (`kind`, such as mcts) asked to play a game
    with hidden information, and what is hidden (`found`); the front end words which
    agent to choose instead."""

    def __init__(self, kind: str, title: str, found: Iterable[str]):
        self.kind, self.title, self.found = kind, title, tuple(found)
        super().__init__(
            f"{kind} reads the whole state, so in {title} it would see hidden information: " + "; ".join(self.found),
            "a game with hidden information needs the information-set search (IS-MCTS, the agent ismcts:N)",
        )


class SavedStateError(UsageError):
    """A saved state that does not fit the game it is read into: the field that does not
    fit (None: the whole document), and for a state saved by another game, or with other
    variants or options, what it was saved with (`saved`) and what the game was loaded
    with (`loaded`), so that a front end can say how to load it (the command line: which
    flags to give). The hint here names no flag."""

    def __init__(
        self, message: str, hint: str | None = None, field: str | None = None, saved: Any = None, loaded: Any = None
    ):
        self.field, self.saved, self.loaded = field, saved, loaded
        self.own_hint = hint  # None: the general one below
        super().__init__(message, hint or "compare with a state the game saved itself (save_state)")


class ArgumentError(UsageError):
    """An argument a caller passed that the library cannot use. It carries the facts: the
    argument, by the library's name for it (`agent`, `games`, `jobs`, `plot`, `score`,
    `players`, `component`, `keep`, `seat`), the value given (`given`; None: the argument
    as such, as in "plot needs matplotlib"), what is wrong with it (`problem`), a value
    that would do (`example`), and another argument the hint's advice is given with
    (`using`: "run several simulations" with `seed`). The message and hint here name no
    flag; the command line words each argument as its flag (cli/terminal.py `worded`)."""

    def __init__(
        self,
        argument: str,
        problem: str,
        given: Any = None,
        hint: str | None = None,
        example: str | None = None,
        using: str | None = None,
    ):
        self.argument, self.problem, self.given, self.example, self.using = argument, problem, given, example, using
        self.own_hint = hint  # the hint without the example, which each front end words
        own = f"{hint}, each with its own {using}" if hint and using else hint
        super().__init__(self.worded(argument), self.hinted(example, own))

    def worded(self, name: str) -> str:
        """The message, naming the argument as `name` (the library's own name, or a flag)."""
        if self.given is None:
            return f"{name} {self.problem}"
        return f"{name} {self.given}: {self.problem}"

    def hinted(self, example: str | None, hint: str | None) -> str | None:
        """`hint` (the front end's wording of `own_hint`), then `example` as the front end
        writes the argument with a value (None: no example)."""
        parts = [part for part in (hint, example and f"for example {example}") if part]
        return ", ".join(parts) or None


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The closest known name to a misspelt one, phrased as a hint."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None


def explain(exc: Exception) -> str:
    """A Python error inside a rule, in the words of the language: it never names a
    Python type (`NoneType`, `tuple`) or exception, which a designer never wrote."""
    if isinstance(exc, LimitExceeded):
        return f"{exc.message} ({exc.hint})" if exc.hint else exc.message
    if isinstance(exc, RecursionError):
        return "functions call each other too deeply (endless recursion?)"
    if isinstance(exc, MemoryError):
        return "a rule ran out of memory building a value"
    if isinstance(exc, KeyError):
        key = exc.args[0] if exc.args else None
        if key is None:
            return "a value is none where a component, cell or player is needed (a property or map entry of none)"
        return f"{key!r} has no such property or map entry"
    if isinstance(exc, TypeError):
        return _wrong_kind(str(exc))
    if isinstance(exc, IndexError):
        return "a list index is out of range (the list is shorter)"
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, ValueError):
        text = str(exc)
        if "empty" in text:
            return "max or min of an empty list"
        if "not in" in text:
            return "index_of: the item is not in the list"
        return "a value is out of range for this rule"
    if isinstance(exc, AttributeError):
        return "a value has no such part (is it none?)"
    return "a rule did something impossible with its values"


# Python's names of the values a rule holds, in the language's words.
_KINDS = {
    "NoneType": "none",
    "int": "a number",
    "bool": "true/false",
    "str": "a name or text",
    "Text": "a text",
    "tuple": "a list",
    "list": "a list",
    "dict": "a map",
    "function": "a function",
}
_NONE_HINT = " (a value that may be none: check it first, `if x != none { ... }`, or give a default, `x ?? 0`)"


def _kind(name: str) -> str:
    return _KINDS.get(name, "a value")


def _wrong_kind(text: str) -> str:
    """A TypeError's message, told again in the language's words."""
    import re  # only when a rule has failed

    found = re.fullmatch(r"'(.+)' not supported between instances of '(\w+)' and '(\w+)'", text)
    if found:
        op, a, b = found.groups()
        message = f"`{op}` cannot compare {_kind(a)} with {_kind(b)}"
        return message + (_NONE_HINT if "NoneType" in (a, b) else "")
    found = re.fullmatch(r"unsupported operand type\(s\) for (.+): '(\w+)' and '(\w+)'", text)
    if found:
        op, a, b = found.groups()
        op = {"//": "/"}.get(op, op)
        message = f"`{op}` cannot combine {_kind(a)} and {_kind(b)}"
        return message + (_NONE_HINT if "NoneType" in (a, b) else "")
    found = re.fullmatch(r"bad operand type for unary (.+): '(\w+)'", text)
    if found:
        op, a = found.groups()
        return f"`{op}` needs a number, not {_kind(a)}" + (_NONE_HINT if a == "NoneType" else "")
    found = re.search(r"'(\w+)' object is not (subscriptable|iterable)|argument of type '(\w+)' is not iterable", text)
    found = found or re.search(r"object of type '(\w+)' has no len\(\)", text)
    if found:
        a = next(g for g in found.groups() if g and g not in ("subscriptable", "iterable"))
        return f"a list is needed here, not {_kind(a)}" + (_NONE_HINT if a == "NoneType" else "")
    found = re.search(r'can only concatenate (\w+) \(not "(\w+)"\)', text)
    if found:
        a, b = found.groups()
        return f"cannot join {_kind(b)} to {_kind(a)}" + (_NONE_HINT if b == "NoneType" else "")
    return "a value of the wrong kind for this rule" + (_NONE_HINT if "NoneType" in text else "")
