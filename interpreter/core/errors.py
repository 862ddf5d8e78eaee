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


class ModelMismatch(UsageError):
    """A learned estimate given a game it was not fitted for: what differs (`field`: `game`,
    `rules` or `players`), the game it was given (`game` its name, with its `variants`) and
    the count of players asked (`players`), so that a front end says how to fit one that
    fits (the command line: the `gamedef learn` command to run). The hint here names none."""

    def __init__(self, message: str, field: str, game: str, variants: Iterable[str] = (), players: int | None = None):
        self.field, self.game, self.variants, self.players = field, game, tuple(variants), players
        hint = {
            "game": "fit one for this game",
            "rules": "fit it again for the rules as they are now",
            "players": f"fit one for {players} players",
        }.get(field)
        super().__init__(message, hint)


class ModelFileError(UsageError):
    """A file that is not a learned estimate this version reads (missing, too large, not
    its format), or an agent given one that reads none. The front end says where such a
    file comes from (the command line: `gamedef learn`); `own_hint` is the library's advice
    on the file itself, if any."""

    def __init__(self, message: str, own_hint: str | None = None):
        self.own_hint = own_hint
        made = "a learned estimate is the file a fit saves (interpreter.play.learned.save)"
        super().__init__(message, f"{own_hint} ({made})" if own_hint else made)


class UnfinishedGameError(UsageError):
    """One of many games played for a report or a fit that could not be finished: its
    `seed`, the `game` as named, and why (`limit`: the decisions it ran to without an end;
    otherwise a rule failed, said in the message), so that a front end says how to go on
    (the command line: raise `--max-decisions`, or watch that seed with `gamedef run`)."""

    def __init__(self, message: str, seed: int, game: str, limit: int | None = None):
        self.seed, self.game, self.limit = seed, game, limit
        if limit is not None:
            hint = "allow more decisions (max_decisions), or check the rules for a game that cannot end"
        else:
            hint = f"play the game of seed {seed} again and watch its moves"
        super().__init__(message, hint)


class NoBaseError(UsageError):
    """A change asked to be compared with its base (`against="base"`) where there is none:
    the `game` as named is given no variant and includes no bundled game. The front end
    words what to give instead (the command line: `--variant V --against base`, or
    `--against GAME`)."""

    def __init__(self, game: str):
        self.game = game
        super().__init__(
            f"against base: {game} is given no variant and includes no bundled game",
            "give the variants whose change to compare, or the game to compare with",
        )


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


class SettingError(GameDefError):
    """A variant or an option the caller chose that the game cannot take. It is reported at
    the setting itself, not at a line of a file the user did not write: `setting` is
    `variant` or `option`, `shown` the setting as given (`fast`, `size=5`). The library's
    own rendering names the setting plainly (`option size=5: error: ...`); each front end
    words it as its user gave it (the command line as the flag, `--option size=5`, the web
    as the words of its form), so the message and hint here name no flag."""

    def __init__(self, setting: str, shown: str, message: str, hint: str | None = None):
        self.setting, self.shown, self.message = setting, shown, message
        super().__init__([Diagnostic(Span(f"{setting} {shown}", 0, 0), message, hint)])

    def advised(self, add: str | None = None, example: str | None = None) -> str | None:
        """The hint, its advice worded by a front end: `add`, how its user adds the variant
        the advice names (None: the library's words); `example`, how its user writes the
        value the advice gives as an example."""
        return self.diagnostics[0].hint


def option_setting(name: str, value: Any) -> str:
    """An option's setting as text: `NAME=VALUE`, a truth value written as the language does."""
    return f"{name}={str(value).lower() if isinstance(value, bool) else value}"


class UnknownVariantError(SettingError):
    """A variant the game does not have: its name and the variants the game has."""

    def __init__(self, name: str, known: Iterable[str]):
        self.name, self.known = name, tuple(known)
        hint = did_you_mean(name, self.known) or (
            "this game has variants: " + ", ".join(self.known) if self.known else "this game has no variants"
        )
        super().__init__("variant", name, f"unknown variant '{name}'", hint)


class VariantConflictError(SettingError):
    """Two variants chosen together that exclude each other (`excludes`): `name` the later."""

    def __init__(self, name: str, other: str):
        self.name, self.other = name, other
        super().__init__("variant", name, f"variant '{name}' cannot be combined with '{other}'", "choose one of them")


class OptionError(SettingError):
    """An option given that the game cannot take: `name` and the value `given` (None: the
    name alone), what is wrong (`message`), the library's advice without the parts a front
    end words (`own_hint`), a variant that would help (`variant`: it declares the option,
    `problem` "unknown", or allows the value, "choices") and an example of a value that
    would do (`example`, as `NAME=VALUE`), for a value not of the option's type."""

    def __init__(
        self,
        name: str,
        given: Any,
        problem: str,
        message: str,
        own_hint: str | None = None,
        variant: str | None = None,
        example: str | None = None,
    ):
        self.name, self.given, self.problem = name, given, problem
        self.own_hint, self.variant, self.example = own_hint, variant, example
        super().__init__("option", option_setting(name, given), message)
        self.diagnostics = [attrs.evolve(self.diagnostics[0], hint=self.advised())]

    def advised(self, add: str | None = None, example: str | None = None) -> str | None:
        if self.variant is not None:
            if self.problem == "unknown":
                return f"the variant {self.variant} declares it: {add or 'choose it too'}"
            add = add or f"choose the variant {self.variant}"
            return f"{self.own_hint}, or {add}, which allows it" if self.own_hint else f"{add}, which allows it"
        if self.own_hint is None and self.example is not None:
            return f"for example {example or self.example}"
        return self.own_hint


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
