"""Reading untrusted files: bounded, decoded with a position, confined to a folder.

Every file gamedef reads on a user's behalf (a game, its includes, a transcript, a
saved state) goes through `read_text`, so each failure is one clear `UsageError`
or diagnostic: a directory or device instead of a file, a file too large, bytes
that are not UTF-8 (with the line and column of the first bad byte), or a path
that leads outside the folders the file may read from.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from interpreter.core.errors import Diagnostic, GameDefError, Span, UsageError
from interpreter.core.limits import MAX_FILE_BYTES, MAX_NESTING

MISSING = "no such file"


class SourceError(Exception):
    """Why a file could not be read: a message and a hint, placed by the caller."""

    def __init__(self, message: str, hint: str, line: int = 0, column: int = 0):
        self.message, self.hint, self.line, self.column = message, hint, line, column
        super().__init__(message)


def _decode(data: bytes) -> str:
    """UTF-8 text; a byte-order mark some editors write first (Notepad) is not part of it."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        raise SourceError(
            f"byte 0x{data[exc.start]:02x} is not UTF-8 text",
            "save the file as UTF-8",
            line,
            column,
        ) from None


def read_bytes_checked(path: Path) -> str:
    """The text of a regular file of at most MAX_FILE_BYTES; SourceError otherwise."""
    if "\0" in str(path):
        raise SourceError("a path cannot contain a NUL character", "remove it from the path")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SourceError(MISSING, "check the name and the folder") from None
    except OSError as exc:
        raise SourceError(f"cannot read it ({exc.strerror or exc})", "check the path and its permissions") from None
    if stat.S_ISDIR(info.st_mode):
        raise SourceError("this is a folder, not a file", "name a file inside it")
    if not stat.S_ISREG(info.st_mode):
        raise SourceError("this is not a regular file (a device or a pipe?)", "name an ordinary text file")
    if info.st_size > MAX_FILE_BYTES:
        raise SourceError(
            f"the file has {info.st_size:,} bytes; the limit is {MAX_FILE_BYTES:,}",
            "split it into smaller files",
        )
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SourceError(f"cannot read it ({exc.strerror or exc})", "check the path and its permissions") from None
    if len(data) > MAX_FILE_BYTES:
        raise SourceError(f"the file is larger than {MAX_FILE_BYTES:,} bytes", "split it into smaller files")
    return _decode(data)


def read_text(path: str | Path, what: str) -> str:
    """A user-named file's text, or a UsageError saying what is wrong with it."""
    try:
        return read_bytes_checked(Path(path))
    except SourceError as err:
        if err.message == MISSING:
            raise UsageError(f"no such {what}: {path}", err.hint) from None
        where = f"{path}:{err.line}:{err.column}" if err.line else str(path)
        raise UsageError(f"{where}: cannot read this {what}: {err.message}", err.hint) from None


def read_source(path: Path, span: Span | None = None) -> str:
    """A game file's text, or a GameDefError placed at the bad byte or at `span`
    (the `include` that named it)."""
    try:
        return read_bytes_checked(path)
    except SourceError as err:
        if err.line:
            where = Span(str(path), err.line, err.column)
        else:
            where = span or Span(str(path), 0, 0)
        raise GameDefError([Diagnostic(where, f"cannot read {path.name}: {err.message}", err.hint)]) from None


def confined(base: Path, name: str, roots: tuple[Path, ...]) -> Path | None:
    """`name` resolved against the folder `base`, or None if it leaves every root.

    Symbolic links are followed before the test, so a link inside a root that points
    outside it is refused too."""
    if "\0" in name:
        return None
    target = (base / name).resolve()
    for root in roots:
        if target == root or root in target.parents:
            return target
    return None


_TOML_MARK = re.compile(r"[\n#\"'\[\]{}.=,]")
_TOML_STRINGS = {  # (quote, tripled): a whole string, escapes and inner quotes included
    ('"', False): re.compile(r'"(?:[^"\\\n]|\\.)*"'),
    ("'", False): re.compile(r"'[^'\n]*'"),
    ('"', True): re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""+', re.S),
    ("'", True): re.compile(r"'''(?:[^']|'(?!''))*'''+", re.S),
}


def toml_too_deep(text: str) -> int | None:
    """The line where TOML text nests tables or arrays, or dots a key, past MAX_NESTING
    levels; None if it stays within. Python's TOML reader recurses into arrays and slows
    down quadratically on long dotted keys (20,000 parts: minutes), so every TOML file
    (table, transcript, state) is scanned with this before it is parsed. Strings and
    comments are skipped as TOML reads them, so a quote in a comment or an escaped
    quote in a string can't hide what follows."""
    depth = dots = 0
    line = 1
    i, n = 0, len(text)
    while True:
        found = _TOML_MARK.search(text, i)
        if found is None:
            return None
        i = found.start()
        ch = text[i]
        if ch == "\n":
            line += 1
            dots = 0
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch == '"' or ch == "'":
            triple = text.startswith(ch * 3, i)
            string = _TOML_STRINGS[ch, triple].match(text, i)
            if string is None:
                return None  # an unclosed string: the TOML reader reports it
            line += text.count("\n", i, string.end())
            i = string.end()
            continue
        elif ch == "[" or ch == "{":
            depth += 1
            if depth > MAX_NESTING:
                return line
        elif ch == "]" or ch == "}":
            depth = max(0, depth - 1)
        elif ch == ".":
            dots += 1
            if dots > MAX_NESTING:
                return line
        else:  # `=` or `,`: a key ends, a value or the next item begins
            dots = 0
        i += 1
