"""Sheets: a data file (TSV, CSV or TOML) split into cells that know their position.

A designer's spreadsheet, exported, is untrusted text. This module turns it into a
header (column names) and rows of cells, each cell with its line and column, so that
the table reader (datatables.py) can report a bad value at `file:line:col`. Ragged rows,
unclosed quotes, a missing header, bad TOML and files past the limits are diagnostics
here; nothing else escapes, whatever the bytes.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from interpreter.core.errors import Diagnostic, GameDefError, Span
from interpreter.core.limits import MAX_COMPONENTS, MAX_NESTING, MAX_REPORTED, MAX_TABLE_CELLS
from interpreter.language.sources import toml_too_deep


# ---- names ----------------------------------------------------------------------------
def slug(text: str) -> str:
    """The name made from a title: `United States` -> `united_states`, `9/11 attacks`
    -> `_9_11_attacks`. Lower case, accents dropped, every run of other characters one
    `_`; a leading digit gets a `_` so the result is a name the language can write."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    name = re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")
    return "_" + name if name[:1].isdigit() else name


def column_key(header: str) -> str:
    """A header cell's column name: the text before any `(`, as a name. The TWID files
    write notes there (`ops(P=punctuation)`, `adjacent(;)`); the note is for readers."""
    return slug(header.split("(", 1)[0])


# ---- cells, rows, sheets --------------------------------------------------------------
@attrs.frozen
class Cell:
    """One cell: its value (the text of a TSV/CSV cell, a TOML value as TOML typed it)
    and where it starts, so a bad value is reported at its own line and column."""

    value: Any
    line: int
    column: int

    def span(self, path: str) -> Span:
        text = self.value if isinstance(self.value, str) else ""
        end = self.column + len(text) if text and "\n" not in text else None
        return Span(path, self.line, self.column, end)


@attrs.frozen
class Row:
    line: int
    cells: dict[str, Cell]  # column name -> cell; a TOML row lacks the keys it leaves out


@attrs.frozen
class Sheet:
    """A table file split into a header (column name -> its header cell) and rows."""

    path: str
    columns: dict[str, Cell]
    rows: tuple[Row, ...]

    @property
    def name(self) -> str:
        return Path(self.path).name


class Problems:
    """The diagnostics of one table, at most MAX_REPORTED of them shown: a file of a
    million bad cells is reported in a screenful, not a million lines."""

    def __init__(self, path: str):
        self.path = path
        self.items: list[Diagnostic] = []
        self.more = 0

    @property
    def full(self) -> bool:
        """True once no more problems will be shown: a caller may skip working out a hint."""
        return len(self.items) >= MAX_REPORTED

    def add(self, span: Span, message: str, hint: str | None = None) -> None:
        if len(self.items) < MAX_REPORTED:
            self.items.append(Diagnostic(span, message, hint))
        else:
            self.more += 1

    def at(self, line: int, column: int, message: str, hint: str | None = None) -> None:
        self.add(Span(self.path, line, column), message, hint)

    def fatal(self, line: int, column: int, message: str, hint: str | None = None):
        self.at(line, column, message, hint)
        self.check()

    def check(self) -> None:
        if not self.items:
            return
        diagnostics = list(self.items)
        if self.more:
            last = diagnostics[-1].span
            diagnostics.append(Diagnostic(last, f"... and {self.more:,} more problems in this table"))
        raise GameDefError(diagnostics)


def read_sheet(path: str, text: str, header: bool = True) -> Sheet:
    """Split a file's text into a sheet. TSV cells are split at tabs, CSV cells at
    commas (a cell in double quotes may hold commas, newlines and `""`), TOML is one
    array of tables. Without a header (`links` naming no columns) a row is two cells."""
    problems = Problems(path)
    text = text.removeprefix("\ufeff")  # a spreadsheet's byte order mark
    if path.lower().endswith(".toml"):
        sheet = _toml_sheet(path, text, problems)
    else:
        split = _tsv_records if path.lower().endswith(".tsv") else _csv_records
        sheet = _sheet(path, split(text, header, problems), header, problems)
    problems.check()
    return sheet


def _tsv_records(text: str, header: bool, problems: Problems) -> Iterator[tuple[int, list[Cell], bool]]:
    """(line, cells, is the header) of each line that is neither blank nor a comment."""
    want_header = header
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r")
        lead = line.lstrip()
        if not lead:
            continue
        if lead.startswith("#"):
            if not want_header:
                continue
            line = line.replace("#", " ", 1)  # the header's `#` is not part of the first name
        is_header, want_header = want_header, False
        if line.count("\t") >= MAX_TABLE_CELLS:
            problems.fatal(number, 1, f"this line has more than {MAX_TABLE_CELLS:,} cells", "split the table")
        cells, column = [], 1
        for part in line.split("\t"):
            stripped = part.strip()
            lead_spaces = len(part) - len(part.lstrip()) if stripped else 0
            cells.append(Cell(stripped, number, column + lead_spaces))
            column += len(part) + 1
        yield number, cells, is_header


def _csv_records(text: str, header: bool, problems: Problems) -> Iterator[tuple[int, list[Cell], bool]]:
    """As `_tsv_records`, for comma-separated text with quoted cells."""
    i, n, line, want_header = 0, len(text), 1, header
    while i < n:
        end = text.find("\n", i)
        end = n if end < 0 else end
        raw = text[i:end]
        lead = raw.lstrip()
        if not lead.strip(" \t\r,") or (lead.startswith("#") and not want_header):  # blank, or empty cells
            i, line = end + 1, line + 1
            continue
        start = i
        if lead.startswith("#"):
            start = i + (len(raw) - len(lead)) + 1  # past the header's `#`
        is_header, want_header = want_header, False
        cells, i, next_line = _csv_record(text, start, i, line, problems)
        yield line, cells, is_header
        line = next_line


def _csv_record(text: str, i: int, line_start: int, line: int, problems: Problems) -> tuple[list[Cell], int, int]:
    """The cells of the record starting at `i`; the index and line after it."""
    n = len(text)
    cells: list[Cell] = []
    while True:
        if len(cells) >= MAX_TABLE_CELLS:
            problems.fatal(line, 1, f"this row has more than {MAX_TABLE_CELLS:,} cells", "split the table")
        j = i
        while j < n and text[j] in " \t":
            j += 1
        if j < n and text[j] == '"':
            cell_line, cell_column = line, j - line_start + 2
            k, parts = j + 1, []
            while True:
                q = text.find('"', k)
                if q < 0:
                    problems.fatal(
                        cell_line,
                        cell_column - 1,
                        "this quote is never closed",
                        'close the cell with "; write "" for a quote',
                    )
                chunk = text[k:q]
                parts.append(chunk)
                if "\n" in chunk:
                    line += chunk.count("\n")
                    line_start = k + chunk.rfind("\n") + 1
                if text.startswith('""', q):
                    parts.append('"')
                    k = q + 2
                    continue
                k = q + 1
                break
            cells.append(Cell("".join(parts).replace("\r\n", "\n"), cell_line, cell_column))
            while k < n and text[k] in " \t\r":
                k += 1
            if k < n and text[k] not in ",\n":
                problems.at(
                    line, k - line_start + 1, "text after a closing quote", 'write "" for a quote inside a cell'
                )
                while k < n and text[k] not in ",\n":
                    k += 1
            i = k
        else:
            end = text.find("\n", i)
            end = n if end < 0 else end
            comma = text.find(",", i, end)
            stop = comma if comma >= 0 else end
            raw = text[i:stop]
            stripped = raw.strip()
            lead = len(raw) - len(raw.lstrip()) if stripped else 0
            cells.append(Cell(stripped, line, i - line_start + 1 + lead))
            i = stop
        if i < n and text[i] == ",":
            i += 1
            continue
        return cells, i + 1, line + 1


def _sheet(path: str, records, header: bool, problems: Problems) -> Sheet:
    columns: dict[str, Cell] = {}
    keys: list[str] = [] if header else ["1", "2"]
    rows: list[Row] = []
    total = 0
    sep = "a tab" if path.lower().endswith(".tsv") else "a comma"
    for line, cells, is_header in records:
        total += len(cells)
        if total > MAX_TABLE_CELLS:
            problems.fatal(line, 1, f"the table has more than {MAX_TABLE_CELLS:,} cells", "split the table")
        if is_header:
            for number, cell in enumerate(cells, 1):
                key = column_key(cell.value)
                if not key:
                    problems.add(
                        cell.span(path), f"column {number} has no name", "name every column in the header line"
                    )
                elif key in columns:
                    first = columns[key].span(path)
                    problems.add(
                        cell.span(path), f"two columns are named '{key}'", f"the first is at {first}; rename one"
                    )
                else:
                    columns[key] = cell
                keys.append(key if key and columns.get(key) is cell else f"#{number}")
            continue
        if len(cells) != len(keys):
            what = f"the header names {len(keys)} columns" if header else "a link joins two nodes"
            if len(cells) > len(keys):
                extra = cells[len(keys)]
                problems.at(
                    line,
                    extra.column,
                    f"this row has {len(cells)} cells; {what}",
                    f"remove the extra cells, or name their columns in the header ({sep} inside a cell splits it)",
                )
            else:
                last = cells[-1]
                problems.at(
                    line,
                    last.column + len(last.value),
                    f"this row has {len(cells)} cells; {what}",
                    f"add the missing cells: an empty cell still needs {sep} before it",
                )
            continue
        if len(rows) >= MAX_COMPONENTS:
            problems.fatal(line, 1, f"the table has more than {MAX_COMPONENTS:,} rows", "a game needs far fewer")
        rows.append(Row(line, dict(zip(keys, cells))))
    if header and not columns and not problems.items:
        problems.fatal(
            1,
            1,
            "the table is empty: it has no header line",
            "the first line names the columns, e.g. `# name<TAB>region<TAB>stability`",
        )
    return Sheet(path, columns, tuple(rows))


# ---- TOML -----------------------------------------------------------------------------------
_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_KEY_LINE = re.compile(r"""\s*("([^"\\]*)"|'([^']*)'|[A-Za-z0-9_-]+)\s*=\s*""")


def _toml_sheet(path: str, text: str, problems: Problems) -> Sheet:
    """An array of tables (`[[country]]` sections, one per row) as a sheet. tomllib
    keeps no positions, so each key's line is found by scanning the text: a row's
    values are reported at their own lines, a missing one at its `[[...]]` line."""
    deep = toml_too_deep(text)
    if deep is not None:
        problems.fatal(
            deep,
            1,
            f"values nested too deeply (more than {MAX_NESTING} levels)",
            "a table's cells are flat values or lists",
        )
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _AT.search(message)
        line, column = (int(found.group(1)), int(found.group(2))) if found else (1, 1)
        problems.fatal(line, column, f"not valid TOML: {_AT.sub('', message)}", "see https://toml.io for the syntax")
    except RecursionError:
        problems.fatal(1, 1, "not valid TOML: nested too deeply", "a table's cells are flat values or lists")
    arrays = [k for k, v in document.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
    if len(arrays) != 1:
        problems.fatal(
            1,
            1,
            "no array of tables in this file" if not arrays else f"several arrays of tables: {', '.join(arrays)}",
            "write one `[[row]]` section per row, one array of tables per file",
        )
    key, records = arrays[0], document[arrays[0]]
    if len(records) > MAX_COMPONENTS:
        problems.fatal(1, 1, f"the table has more than {MAX_COMPONENTS:,} rows", "a game needs far fewer")
    places = _toml_places(text, key, len(records))
    columns: dict[str, Cell] = {}
    rows: list[Row] = []
    total = 0
    for number, record in enumerate(records):
        line, where = places[number] if number < len(places) else (1, {})
        cells: dict[str, Cell] = {}
        total += len(record)
        if total > MAX_TABLE_CELLS:
            problems.fatal(line, 1, f"the table has more than {MAX_TABLE_CELLS:,} cells", "split the table")
        for raw_key, value in record.items():
            name = column_key(raw_key)
            at_line, at_column = where.get(raw_key, (line, 1))
            if not name or name in cells:
                problems.at(
                    at_line, at_column, f"the key '{raw_key}' does not name a column", "use plain, distinct keys"
                )
                continue
            cells[name] = Cell(value, at_line, at_column)
            columns.setdefault(name, Cell(raw_key, at_line, max(1, at_column - len(raw_key) - 3)))
        rows.append(Row(line, cells))
    return Sheet(path, columns, tuple(rows))


def _toml_places(text: str, key: str, count: int) -> list[tuple[int, dict[str, tuple[int, int]]]]:
    """For each `[[key]]` section: its line, and the line and column of each value.
    Empty if the sections cannot be matched to the rows (an inline array of tables)."""
    header = re.compile(r"\s*\[\[\s*(" + re.escape(key) + r'|"' + re.escape(key) + r'")\s*\]\]')
    places: list[tuple[int, dict[str, tuple[int, int]]]] = []
    current: dict[str, tuple[int, int]] | None = None
    for number, line in enumerate(text.split("\n"), 1):
        if header.match(line):
            current = {}
            places.append((number, current))
        elif line.lstrip().startswith("["):
            current = None  # another table ends the section
        elif current is not None:
            found = _KEY_LINE.match(line)
            if found:
                name = found.group(2) if found.group(2) is not None else found.group(3) or found.group(1)
                current.setdefault(name, (number, found.end() + 1))
    return places if len(places) == count else []
