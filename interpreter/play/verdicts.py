"""What `gamedef check` found for rules it has checked before: kept so an edit checks again
only what it changed.

A designer's file has several variant sets (the file alone, each variant), and an edit
changes one of them; the others are the same rules as at the last check. `check` is a
function of the rules: the static checks read the program alone, and its play is seeded
(game i of a line is `gamedef run FILE --players N --seed i`, the same random players), so
the same rules checked again give the same warnings, the same compile and the same games.
A set's verdict is kept under the digest of its rules as written (gamecache.rules_digest:
header, declarations with their positions, tables, the interpreter) and of what its play
counts (the new and changed rules it tracks, and the play's own constants), and only
when it is whole: the set compiled, and each of its lines of play ended by having played
enough, with no run-time error and no game cut short by the budget. A set whose verdict
is found is neither checked, compiled nor played again; the report says how many games
it recalls. The random moves from a designer's test's position are kept the same way,
under its variants' rules, the test and the tests compiled with it (`test_key`).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import attrs

from interpreter.compile.gamecache import part_digest
from interpreter.core import cache
from interpreter.core.errors import Diagnostic, Span

FORMAT = 1  # the layout of a verdict file


@attrs.frozen
class LineRecord:
    """One finished line of play: a player count under the set's variants."""

    players: int
    played: int  # games
    decisions: int
    hits: tuple[int, ...]  # times each of the set's tracked rules was reached, in the set's order


@attrs.frozen
class Verdict:
    """A variant set's static warnings and its finished lines of play."""

    warnings: tuple[Diagnostic, ...]
    lines: tuple[LineRecord, ...]


def verdict_key(rules: str, tracked: list[tuple[str, str, Span, bool, bool]], constants: tuple) -> str:
    """The name of a set's verdict: its rules' digest, the rules its play tracks (kind, name,
    span, new, with rules of its own) and the play's constants (games and reaches enough)."""
    text = repr(
        (FORMAT, rules, [(k, n, (s.path, s.line, s.column), new, ruled) for k, n, s, new, ruled in tracked], constants)
    )
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def test_key(rules: str, test: object, group: object, constants: tuple) -> str:
    """The name of the verdict of the random moves played on from a designer's test's
    position: the rules as written of its variants (`rules`), the test and the tests
    compiled with it (`group`, syntax trees digested by value) and the play's constants."""
    digest = hashlib.sha256(repr((FORMAT, "test", rules, constants)).encode())
    digest.update(part_digest(test))  # each kept by the object: a group's tests share its digest
    digest.update(part_digest(group))
    return digest.hexdigest()[:32]


def _file(key: str) -> Path | None:
    where = cache.directory()
    return None if where is None else where / f"{key}.{sys.implementation.cache_tag}.verdict"


def recall(key: str | None) -> Verdict | None:
    """The verdict kept under `key`, or None (none kept, the cache off, or a file that is
    not one: a cache file is read as untrusted data, shape checked)."""
    path = None if key is None else _file(key)
    raw = None if path is None else cache.read_trusted(path)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        if data["format"] != FORMAT or data["key"] != key:
            return None
        return Verdict(
            tuple(_diagnostic(d) for d in data["warnings"]),
            tuple(
                LineRecord(_int(r["players"]), _int(r["played"]), _int(r["decisions"]), tuple(map(_int, r["hits"])))
                for r in data["lines"]
            ),
        )
    except (ValueError, KeyError, TypeError):
        return None


def remember(key: str | None, verdict: Verdict) -> None:
    """Keep `verdict` under `key` (nothing when the cache is off)."""
    path = None if key is None else _file(key)
    if path is None or key is None:
        return
    data = {
        "format": FORMAT,
        "key": key,
        "warnings": [
            {
                "path": d.span.path,
                "line": d.span.line,
                "column": d.span.column,
                "end_column": d.span.end_column,
                "message": d.message,
                "hint": d.hint,
                "severity": d.severity,
            }
            for d in verdict.warnings
        ],
        "lines": [attrs.asdict(r) for r in verdict.lines],
    }
    cache.write_bytes(path, json.dumps(data).encode())


def _int(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise ValueError("not a count")
    return value


def _text(value: Any, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if type(value) is not str:
        raise ValueError("not a text")
    return value


def _diagnostic(d: Any) -> Diagnostic:
    end = d["end_column"]
    span = Span(_text(d["path"]), _int(d["line"]), _int(d["column"]), None if end is None else _int(end))
    severity = _text(d["severity"])
    if severity not in ("error", "warning", "info"):
        raise ValueError("not a severity")
    return Diagnostic(span, _text(d["message"]), _text(d["hint"], optional=True), severity)
