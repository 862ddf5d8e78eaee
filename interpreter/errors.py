"""Diagnostics as values: every error a designer can meet carries a source position.

Passes (parse, check, compile, run) collect `Diagnostic`s instead of printing, and
raise one `GameDefError` holding them all, so the command line can render each as
`path:line:col: error: message`, the source line, a caret and a suggestion.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import attrs


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
        lines = [f"{self.span}: {self.severity}: {self.message}"]
        text = (sources or {}).get(self.span.path)
        if text is None and self.span.line > 0:
            try:
                with open(self.span.path, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError:
                text = None
        if text is not None and 0 < self.span.line <= text.count("\n") + 1:
            source_line = text.splitlines()[self.span.line - 1] if text else ""
            width = max(1, (self.span.end_column or self.span.column + 1) - self.span.column)
            lines.append(f"    {source_line}")
            lines.append("    " + " " * (self.span.column - 1) + "^" * min(width, 60))
        if self.hint:
            lines.append(f"    hint: {self.hint}")
        return "\n".join(lines)


class GameDefError(Exception):
    """Raised by a pass that found errors; holds every diagnostic it found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))

    def render(self, sources: dict[str, str] | None = None) -> str:
        return "\n".join(d.render(sources) for d in self.diagnostics)


class GameRuntimeError(GameDefError):
    """A rule failed while running: names the rule and the source line being run."""


class UsageError(Exception):
    """A bad command-line argument, transcript or saved state (exit code 2)."""

    def __init__(self, message: str, hint: str | None = None):
        self.message = message
        self.hint = hint
        super().__init__(message if not hint else f"{message}\n    hint: {hint}")


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The closest known name to a misspelt one, phrased as a hint."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None
