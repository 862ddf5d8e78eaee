"""Tables: a designer's spreadsheet (TSV, CSV or TOML) read as a game's components.

Designers keep maps and card lists in spreadsheets (docs/language.md §3.11). A `table`
declaration makes one component per row of such a file, its columns read as the
entity's properties; a `links` declaration reads the links of the map. This module
opens the file (confined to the game's folder, like an `include`), checks the
declaration's columns against the file's header, makes each row's component name
from a column, and reads a cell as a value of a property's type. Splitting the text
into cells is sheets.py's. The file may come from anyone, so every bad cell is a
diagnostic at `file:line:col` with a hint, and nothing else escapes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from interpreter.core.errors import Diagnostic, GameDefError, Span, did_you_mean
from interpreter.core.limits import MAX_INT, MAX_LIST, MAX_TITLE
from interpreter.language import syntax as ast
from interpreter.language.digests import derived
from interpreter.language.sheets import Cell, Problems, Row, Sheet, read_sheet, slug
from interpreter.language.sources import confined, read_source

FORMATS = (".tsv", ".csv", ".toml")
DEFAULT_SEPARATOR = ";"
TRUE_WORDS = ("yes", "true")
FALSE_WORDS = ("no", "false")
_INT = re.compile(r"[+-]?[0-9]+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class NamedRow:
    """A row with the name and title of the component it makes."""

    name: str
    title: str
    span: Span
    row: Row
    text: str  # the cell the name was made from


@attrs.frozen
class LoadedTable:
    """A `table` or `links` declaration with its file read; `removed` are the rows a
    variant removed (`remove card NAME`)."""

    decl: ast.DataTable | ast.Links
    sheet: Sheet
    rows: tuple[NamedRow, ...] = ()
    removed: frozenset[str] = frozenset()

    def live(self) -> tuple[NamedRow, ...]:
        return tuple(n for n in self.rows if n.name not in self.removed)


def _fail(span: Span, message: str, hint: str | None = None) -> GameDefError:
    return GameDefError([Diagnostic(span, message, hint)])


# ---- opening a table file ---------------------------------------------------------------
def open_table(decl: ast.DataTable | ast.Links, roots: tuple[Path, ...], sources: dict[str, str]) -> LoadedTable:
    """Read the file a declaration names, relative to the file that declares it and
    confined to the game's folder tree like an `include`; its text joins `sources`,
    so it is part of the rules hash and shown under a diagnostic."""
    what = "table" if isinstance(decl, ast.DataTable) else "links"
    name = decl.path
    if any(c in name for c in "*?[") or not name.strip():
        raise _fail(decl.span, f"{what} needs one file name, not '{name}'", "name one .tsv, .csv or .toml file")
    target = confined(Path(decl.span.path).parent, name, roots)
    if target is None:
        raise _fail(
            decl.span,
            f"{what} leaves the game's folder: {name!r}",
            "a table file must be in the game's own folder (or below it)",
        )
    if target.suffix.lower() not in FORMATS:
        raise _fail(decl.span, f"a table is a .tsv, .csv or .toml file, not '{target.name}'", "rename the file")
    if not target.exists():
        raise _fail(decl.span, f"{what} finds no file: {name}", "paths are relative to the file that declares it")
    text = read_source(target, decl.span)
    sources[str(target)] = text
    header = isinstance(decl, ast.DataTable) or decl.columns is not None
    if not header and target.suffix.lower() == ".toml":
        hint = f'write: links from "{name}" between a and b'
        raise _fail(decl.span, "links from a TOML file name their two keys", hint)
    sheet, rows = _read_table(str(target), text, header, decl)
    loaded = LoadedTable(decl, sheet, rows)
    derived(loaded, b"table", (decl,), (str(target), text, header))  # `_read_table` of these, and nothing else
    return loaded


@functools.lru_cache(maxsize=16)
def _read_table(
    path: str, text: str, header: bool, decl: ast.DataTable | ast.Links
) -> tuple[Sheet, tuple[NamedRow, ...]]:
    """The sheet of a table file's `text` and its rows' components, checked against
    `decl`. Kept for the text and declaration they were read from (values, not the
    file's name or time), since a process reads one table again for each variant it
    checks (`gamedef check`) and at each edit (the language server); the one read is
    then the same object, compared in no time. A mistake raises, and is not kept. At most
    16 (a game reads a few tables; each text is at most MAX_FILE_BYTES)."""
    sheet = read_sheet(path, text, header)
    if isinstance(decl, ast.Links):
        _check_link_columns(decl, sheet)
        return sheet, ()
    _check_columns(decl, sheet)
    return sheet, name_rows(decl, sheet)


# ---- checking a declaration against its file ------------------------------------------------
def _unknown_column(problems: Problems, sheet: Sheet, column: str, span: Span) -> None:
    problems.add(
        span,
        f"{sheet.name} has no column '{column}'",
        did_you_mean(column, sheet.columns) or "its columns are: " + (", ".join(sheet.columns) or "none"),
    )


def _check_columns(decl: ast.DataTable, sheet: Sheet) -> None:
    """Every column the declaration names is in the file, and every column of the file
    is read or ignored by name: a renamed or added column is noticed, not dropped."""
    problems = Problems(sheet.path)
    if not decl.name_columns:
        problems.add(decl.span, f"table {decl.kind} says no `named by COLUMN`", "name the column of the titles")
    named = [(c, decl.name_span or decl.span) for c in decl.name_columns] + [(decl.title_column, decl.span)]
    named += [(c.column, c.span) for c in decl.columns] + list(decl.ignored)
    for column, span in named:
        if column is not None and column not in sheet.columns:
            _unknown_column(problems, sheet, column, span)
    read = {column for column, _ in named}
    for key, cell in sheet.columns.items():
        if key not in read:
            problems.add(
                cell.span(sheet.path),
                f"column '{key}' is not read by `table {decl.kind}` ({decl.span})",
                f"read it as a property (`{key}`, or `property = {key}`) or write `ignore {key}` in the table",
            )
    problems.check()


def _check_link_columns(decl: ast.Links, sheet: Sheet) -> None:
    problems = Problems(sheet.path)
    for column in decl.columns or ():
        if column not in sheet.columns:
            _unknown_column(problems, sheet, column, decl.span)
    problems.check()


def name_rows(decl: ast.DataTable, sheet: Sheet) -> tuple[NamedRow, ...]:
    """Each row's component: its title from the `named by` column (or `titled by`), its
    name made from that title, or given by `with "Title" as name`. Names are unique.
    `named by power, tile_id` reads several columns: the title is their cells joined
    by a space ("German attack_1", named `german_attack_1`), for rows no one column tells
    apart."""
    problems = Problems(sheet.path)
    renames = dict(decl.renames)
    used_renames: set[str] = set()
    seen: dict[str, Span] = {}
    out: list[NamedRow] = []
    several = len(decl.name_columns) > 1
    texts: list[str] = []  # each row's title, for a rename's did-you-mean
    for row in sheet.rows:
        parts, span = [], None
        for column in decl.name_columns:
            cell = row.cells.get(column)
            text = _text(cell)
            at = cell.span(sheet.path) if cell is not None else Span(sheet.path, row.line, 1)
            span = span or at
            if text is None and cell is not None:
                problems.add(at, f"this row's '{column}' cell is not a text", "write the title as a text")
                break
            if not text or text in decl.empty:
                also = f" (the rows are named by {decl.name_column})" if several else ""
                problems.add(at, f"this row has no name: its '{column}' cell is empty{also}", "fill it in")
                break
            parts.append(text)
        else:
            span = span or Span(sheet.path, row.line, 1)
            text = " ".join(parts)
            texts.append(text)
            named = _name_row(decl, text, span, renames, seen, problems, several)
            used_renames.add(text)
            if named is not None:
                title = text
                if decl.title_column is not None:
                    title = _text(row.cells.get(decl.title_column)) or text
                out.append(NamedRow(named, title, span, row, text))
    for text in renames:
        if text not in used_renames:
            problems.add(
                decl.name_span or decl.span,
                f'no row of {sheet.name} is named "{text}"',
                did_you_mean(text, texts)
                or "a rename names a row by its cell's exact text"
                + (" (the cells joined by a space)" if several else ""),
            )
    problems.check()
    return tuple(out)


def _name_row(
    decl: ast.DataTable, text: str, span: Span, renames: dict, seen: dict[str, Span], problems: Problems, several: bool
) -> str | None:
    """The name of the row titled `text`, or None after reporting why it has none."""
    if len(text) > MAX_TITLE:
        problems.add(span, f"a title of {len(text):,} characters; the limit is {MAX_TITLE}", "a title is a few words")
        return None
    name = renames.get(text) or slug(text)
    if not _NAME.fullmatch(name):
        problems.add(
            span,
            f"cannot make a name from '{_short(text)}'",
            f'give it one: named by {decl.name_column} with "{_short(text)}" as some_name',
        )
        return None
    if name in seen:
        what = f"{decl.name_column} give" if several else f"{decl.name_column} gives"
        problems.add(
            span,
            f"two rows are named '{name}'" + (f" ('{_short(text)}': {what} the same title)" if several else ""),
            f"the first is at {seen[name]}; rename one: named by {decl.name_column} "
            f'with "{_short(text)}" as other_name' + ("" if several else ", or name the rows by more columns"),
        )
        return None
    seen[name] = span
    return name


def _text(cell: Cell | None) -> str | None:
    """A cell as text, for names and titles (a TOML number is written as it reads)."""
    if cell is None:
        return None
    value = cell.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | str):
        return str(value).strip()
    return None


# ---- reading cells as typed values ------------------------------------------------------------
@attrs.frozen
class Ambiguous:
    """What a cell names when it names several values: the values, in declaration order."""

    values: tuple[str, ...]


class Vocabulary:
    """The values of a finite type (or every node of the map) and how a cell may name them.

    A cell names the values whose name or title is its text exactly; failing that, in any
    case; failing that, the values whose name or title makes the same name
    (`Central-North America` names `central_north_america`). One value is found, or none,
    or several: `Ambiguous`, reported at the cell, never a silent pick (an enum member
    `Greece` and a zone `greece` titled "Greece" are both named by `GREECE` and by
    `Greece`; `greece` is the zone's exact name). `kinds` says what each value is
    (`a Zone`, `a member of Country`), for the message."""

    def __init__(self, values: tuple[str, ...], titles: dict[str, str], kinds: dict[str, str] | None = None):
        self.values = values
        self.titles = titles
        self.kinds = kinds or {}
        # the text as written, in any case, and the name it makes -> the values it names
        self.tiers: tuple[dict[str, list[str]], ...] = ({}, {}, {})
        for v in values:
            title = titles.get(v, v)
            keys = ((v, title), (v.casefold(), title.casefold()), (slug(v), slug(title)))
            for table, pair in zip(self.tiers, keys, strict=True):
                for key in pair:
                    found = table.setdefault(key, [])
                    if v not in found:
                        found.append(v)

    def find(self, text: str) -> str | Ambiguous | None:
        """The value `text` names, `Ambiguous` (the values it could name), or None."""
        for table, key in zip(self.tiers, (text, text.casefold(), slug(text)), strict=True):
            found = table.get(key)
            if found:
                return found[0] if len(found) == 1 else Ambiguous(tuple(found))
        return None

    def describe(self, value: str) -> str:
        """`greece (a Zone titled "Greece")`: a candidate as a message names it."""
        title = self.titles.get(value, value)
        said = [self.kinds[value]] if value in self.kinds else []
        if title != value:
            said.append(f'titled "{title}"')
        return f"{value} ({' '.join(said)})" if said else value

    def ambiguity(self, text: str, found: Ambiguous) -> tuple[str, str]:
        """The message and hint for a cell that names several values: the hint gives the
        spelling that names each one alone, or says which cannot be named here."""
        shown = found.values[:5]
        names = ", ".join(self.describe(v) for v in shown[:-1]) + " or " + self.describe(shown[-1])
        more = f" (and {len(found.values) - 5} more)" if len(found.values) > 5 else ""
        ways, stuck = [], []
        for v in shown:
            spelling = next((w for w in (v, self.titles.get(v, v)) if self.find(w) == v), None)
            if spelling is None:
                stuck.append(v)
            else:
                ways.append(f"'{spelling}'" + (f" for {v}" if spelling != v else ""))
        hint = "write the exact name: " + " or ".join(ways) if ways else ""
        if stuck:
            hint += "; " if hint else ""
            hint += f"{' and '.join(stuck)} has no spelling of its own here (its name is another's title): rename one"
        return f"'{_short(text)}' names {len(found.values)} different things: {names}{more}", hint

    def spellings(self) -> list[str]:
        return list(self.values) + [self.titles.get(v, v) for v in self.values]


@attrs.define
class ColumnBinding:
    """How one column becomes one property: its type, its readings, its separator."""

    what: str  # Entity.property, for messages
    column: ast.Column
    type: ast.TypeExpr
    readings: dict[str, Any]


_SKIP = object()  # a list item naming a removed row: left out


class CellReader:
    """Reads cells as values of a property's type, reporting each bad one.

    `vocabulary(type_name)` gives the values a finite type's cells may name; `removed`
    names the rows variants removed, which a list leaves out and a single cell may not
    name."""

    def __init__(
        self,
        sheet: Sheet,
        vocabulary: Callable[[str], Vocabulary | None],
        removed: Vocabulary,
        empty: tuple[str, ...],
    ):
        self.sheet = sheet
        self.vocabulary = vocabulary
        self.removed = removed
        self.empty = set(empty)
        self.problems = Problems(sheet.path)

    def read(self, row: Row, binding: ColumnBinding) -> Any:
        """The value of `binding`'s column in `row` (None after reporting a bad cell)."""
        cell = row.cells.get(binding.column.column)
        where = cell if cell is not None else Cell("", row.line, 1)
        t = binding.type
        optional = isinstance(t, ast.OptionalType)
        if isinstance(t, ast.OptionalType):
            t = t.inner
        value = where.value
        listed = isinstance(t, ast.ListType)  # a list's readings apply to its items
        if not listed and isinstance(value, str) and value.strip() in binding.readings:
            return binding.readings[value.strip()]
        if cell is None or (isinstance(value, str) and (not value.strip() or value.strip() in self.empty)):
            if listed:
                return ()
            if optional:
                return None
            shown = _describe(t)
            prop = binding.column.prop
            kind = binding.what.split(".")[0]
            self.problems.add(
                where.span(self.sheet.path),
                f"empty cell: {binding.what} needs {shown}",
                f"fill it in, or declare `{prop}: {_type_text(t)}?` in entity {kind} so an empty cell means none",
            )
            return None
        if isinstance(t, ast.ListType):
            return self._list(where, t.element, binding)
        return self._scalar(value, where.line, where.column, t, binding)

    def _list(self, cell: Cell, element: ast.TypeExpr, binding: ColumnBinding) -> Any:
        if isinstance(element, ast.OptionalType):
            element = element.inner
        items: list[tuple[Any, int]] = []
        if isinstance(cell.value, list):
            items = [(v, cell.column) for v in cell.value]
        elif isinstance(cell.value, str):
            separator = binding.column.separator or DEFAULT_SEPARATOR
            items = _split(cell.value, separator, cell.column)
        else:
            self._bad(cell.line, cell.column, binding, f"expected a list, not {_toml_kind(cell.value)}", None)
            return None
        if len(items) > MAX_LIST:
            self._bad(
                cell.line, cell.column, binding, f"a list of {len(items):,} items; the limit is {MAX_LIST:,}", None
            )
            return None
        counter = binding.column.counter
        if counter and isinstance(cell.value, str):
            counted = self._counted(cell, items, counter, binding)
            if counted is None:
                return None
            items = counted
        out = []
        for value, column in items:
            if isinstance(value, str) and value in binding.readings:
                got = binding.readings[value]
            else:
                got = self._scalar(value, cell.line, column, element, binding, in_list=True)
            if got is not _SKIP:
                out.append(got)
        return tuple(out)

    def _counted(
        self, cell: Cell, items: list[tuple[str, int]], counter: str, binding: ColumnBinding
    ) -> list[tuple[str, int]] | None:
        """`US:2 EU:1` read `counted by ":"`: each item `X:n` stands for n items X (an item
        without a count is one item), so a cell can give a component several of a thing."""
        out: list[tuple[str, int]] = []
        for text, column in items:
            value, sep, count = text.rpartition(counter)
            if not sep:
                out.append((text, column))
                continue
            if not _INT.fullmatch(count.strip()) or int(count) < 0:
                width = len(text)
                self._bad(
                    cell.line,
                    column,
                    binding,
                    f"'{_short(text)}': the count after '{counter}' must be a whole number of 0 or more",
                    f"write the item and its count: '{_short(value.strip() or 'name')}{counter}2'",
                    width,
                )
                return None
            if len(out) + int(count) > MAX_LIST:
                self._bad(cell.line, column, binding, f"a list of over {MAX_LIST:,} items", None)
                return None
            out.extend([(value.strip(), column)] * int(count))
        return out

    def _scalar(
        self, value: Any, line: int, column: int, t: ast.TypeExpr, binding: ColumnBinding, in_list: bool = False
    ) -> Any:
        name = t.name if isinstance(t, ast.NamedType) else ""
        if not isinstance(value, str):
            return self._native(value, line, column, name, binding)
        text = value.strip()
        said = _short(text)
        width = len(text) if "\n" not in text else 0

        def bad(message: str, hint: str | None = None) -> None:
            return self._bad(line, column, binding, message, hint, width)

        reading = f'{binding.column.prop} = {binding.column.column} with "{said}" as'
        if name == "int":
            if not _INT.fullmatch(text):
                return bad(
                    f"expected a whole number, not '{said}'",
                    f"write digits, or read the text as a value: {reading} ...",
                )
            if len(text) > 20 or abs(int(text)) > MAX_INT:
                return bad(f"the number {said} is past the limit of {MAX_INT:,}", "a game's numbers are far smaller")
            return int(text)
        if name == "bool":
            word = text.casefold()
            if word in TRUE_WORDS or word in FALSE_WORDS:
                return word in TRUE_WORDS
            return bad(f"expected yes or no, not '{said}'", f"write yes, no, true or false, or: {reading} true")
        if name == "str":
            if len(text) > MAX_LIST:
                return bad(f"a text of {len(text):,} characters; the limit is {MAX_LIST:,}")
            return text
        vocabulary = self.vocabulary(name)
        if vocabulary is None:
            return bad(f"a cell cannot hold a {_type_text(t)}")
        found = vocabulary.find(text)
        if isinstance(found, Ambiguous):
            return bad(*vocabulary.ambiguity(text, found))
        if found is not None:
            return found
        if self.problems.full:  # not shown: no hint to work out
            return bad("")
        if isinstance(self.removed.find(text), str):
            if in_list:
                return _SKIP
            return bad(f"'{said}' was removed by a variant", "remove this row too")
        hint = did_you_mean(text, vocabulary.spellings())
        if hint is None and not vocabulary.values:
            hint = f"the game has no {name}"
        elif hint is None and len(vocabulary.values) <= 12:
            hint = f"a {name} is one of: " + ", ".join(vocabulary.titles.get(v, v) for v in vocabulary.values)
        return bad(f"unknown {name} '{said}'", hint)

    def _native(self, value: Any, line: int, column: int, name: str, binding: ColumnBinding) -> Any:
        """A TOML value that is not text: a number, true/false, or something no cell holds."""
        if name == "int" and isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > MAX_INT:
                return self._bad(line, column, binding, f"the number {_short(str(value))} is past the limit")
            return value
        if name == "bool" and isinstance(value, bool):
            return value
        want = {"int": "a whole number", "bool": "true or false", "str": "a text in quotes"}.get(name, f"a {name}")
        return self._bad(line, column, binding, f"expected {want}, not {_toml_kind(value)}")

    def _bad(
        self, line: int, column: int, binding: ColumnBinding, message: str, hint: str | None = None, width: int = 0
    ) -> None:
        end = column + width if width else None
        self.problems.add(Span(self.sheet.path, line, column, end), f"{binding.what}: {message}", hint)
        return None


def link_pairs(
    t: LoadedTable, nodes: Vocabulary, removed: Vocabulary, kinds: Vocabulary | None = None
) -> list[tuple[str, str, str | None]]:
    """The pairs of nodes a `links` file lists, each cell naming a node by name or title,
    with the link's kind (an enum member named in the `as` column), or None.
    A row naming a node a variant removed is left out; an unknown node, an ambiguous
    title, an unknown kind and a node linked to itself are reported at the cell."""
    decl = t.decl
    assert isinstance(decl, ast.Links), "link_pairs is given the tables of `links` declarations"
    problems = Problems(t.sheet.path)
    columns = decl.columns or ("1", "2")
    pairs: list[tuple[str, str, str | None]] = []
    for row in t.sheet.rows:
        ends = []
        for column in columns:
            cell = row.cells.get(column)
            if cell is None:  # a TOML row without this key
                problems.at(row.line, 1, f"this row has no '{column}'", "name both nodes")
                break
            text = _text(cell) or ""
            found = nodes.find(text)
            if found is None and removed.find(text) is not None:
                break  # a variant removed this node: its links go with it
            if isinstance(found, Ambiguous):
                problems.add(cell.span(t.sheet.path), *nodes.ambiguity(text, found))
                break
            if found is None:
                hint = None if problems.full else did_you_mean(text, nodes.spellings())
                problems.add(cell.span(t.sheet.path), f"unknown node '{_short(text)}'", hint)
                break
            ends.append(found)
        kind: str | None = None
        if len(ends) == 2 and decl.kind_column is not None:
            cell = row.cells.get(decl.kind_column)
            text = (_text(cell) or "") if cell is not None else ""
            named = kinds.find(text) if kinds is not None and text else None
            if cell is None:
                problems.at(row.line, 1, f"this row has no '{decl.kind_column}'", "give each link its kind")
                continue
            if isinstance(named, Ambiguous):
                assert kinds is not None  # only kinds.find gives an Ambiguous here
                problems.add(cell.span(t.sheet.path), *kinds.ambiguity(text, named))
                continue
            if named is None:
                hint = None if problems.full or kinds is None else did_you_mean(text, kinds.spellings())
                problems.add(cell.span(t.sheet.path), f"'{_short(text)}' is not a kind of link", hint)
                continue
            kind = named
        if len(ends) == 2 and ends[0] == ends[1]:
            problems.add(row.cells[columns[1]].span(t.sheet.path), f"this row links '{ends[0]}' to itself")
        elif len(ends) == 2:
            pairs.append((ends[0], ends[1], kind))
    problems.check()
    return pairs


def _split(text: str, separator: str, column: int) -> list[tuple[str, int]]:
    """The items of a list cell with their columns; a separator of spaces splits at
    any run of spaces; empty items (a trailing `;`) are left out."""
    pattern = r"\s+" if not separator.strip() else re.escape(separator)
    items, pos = [], 0
    for match in [*re.finditer(pattern, text), None]:
        end = match.start() if match else len(text)
        part = text[pos:end]
        if part.strip():
            items.append((part.strip(), column + pos + len(part) - len(part.lstrip())))
        if match:
            pos = match.end()
    return items


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _toml_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a fraction"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def _type_text(t: ast.TypeExpr) -> str:
    if isinstance(t, ast.NamedType):
        return t.name
    if isinstance(t, ast.ListType):
        return "list " + _type_text(t.element)
    if isinstance(t, ast.OptionalType):
        return _type_text(t.inner) + "?"
    return "a map"


def _describe(t: ast.TypeExpr) -> str:
    if isinstance(t, ast.NamedType):
        return {"int": "a whole number", "bool": "yes or no", "str": "a text"}.get(t.name, f"a {t.name}")
    return _type_text(t)


def tableable(t: ast.TypeExpr) -> bool:
    """Can a cell hold a value of this type? A named type, optional or not, or a list
    of one (a list inside a list has no cell syntax; a map is only a variable)."""
    if isinstance(t, ast.OptionalType):
        t = t.inner
    if isinstance(t, ast.ListType):
        t = t.element.inner if isinstance(t.element, ast.OptionalType) else t.element
    return isinstance(t, ast.NamedType)


# ---- cards that add behaviour to a row --------------------------------------------------------
def extend_cards(decls: list, tables: list[LoadedTable]) -> list:
    """A `card` named like a table's row adds its slots and triggers to that row's
    component. The row gives the kind, title, text and properties, so a card's
    printed text lives in one place (the spreadsheet) and its effect beside its
    name in the .game file. Saying again what the row says (another kind, a title,
    a text or a property the table reads) is an error: two sources would drift."""
    rows = {n.name: (t, n) for t in tables if isinstance(t.decl, ast.DataTable) for n in t.live()}
    errors: list[Diagnostic] = []
    out = []
    for d in decls:
        if not isinstance(d, ast.Card):
            out.append(d)
            continue
        if d.name not in rows:
            if rows and not (d.has_title or d.has_kind or d.has_text or d.props):
                close = did_you_mean(d.name, rows)
                if close:
                    errors.append(
                        Diagnostic(
                            d.span,
                            f"card '{d.name}' is not a row of any table",
                            f"{close} (to declare a new card instead, give it a kind: card {d.name} : Card)",
                        )
                    )
            out.append(d)
            continue
        loaded, row = rows[d.name]
        table = loaded.decl
        assert isinstance(table, ast.DataTable)  # `rows` holds only the rows of `table` declarations
        where = f"{loaded.sheet.name}:{row.row.line}"
        bound = {c.prop: c.column for c in table.columns}
        if d.has_kind and d.kind != table.kind:
            errors.append(
                Diagnostic(
                    d.span,
                    f"card '{d.name}' is a row of {where}, a {table.kind}, not a {d.kind}",
                    f"write `card {d.name} : {table.kind}`, or leave the kind out",
                )
            )
        if d.has_title:
            errors.append(
                Diagnostic(
                    d.span,
                    f"card '{d.name}' takes its title from {where}",
                    f'remove "{d.title}" here: the table gives "{row.title}"',
                )
            )
        if d.has_text and "text" in bound:
            errors.append(
                Diagnostic(
                    d.span,
                    f"card '{d.name}' takes its text from {where} (column {bound['text']})",
                    "remove `text` here: the table is the one place for it",
                )
            )
        for fv in d.props:
            if fv.name in bound:
                errors.append(
                    Diagnostic(
                        fv.span,
                        f"{table.kind}.{fv.name} of '{d.name}' is read from {where} (column {bound[fv.name]})",
                        "set it in one place: the table or the card",
                    )
                )
        out.append(_extended(d, row, table.kind))
    if errors:
        raise GameDefError(errors)
    return out


_EXTENDED: dict[tuple[int, int], tuple[ast.Card, NamedRow, ast.Card]] = {}  # (card, row) ids -> both, and the card made
MAX_EXTENDED = 10_000


def _extended(d: ast.Card, row: NamedRow, kind: str) -> ast.Card:
    """The card `d` as its table's row `row` extends it; the same object for the same card and
    row (the trees and rows a process reads are kept: treecache.py, `_read_table`), so the
    programs of one file's variants share it and its digest is made once (gamecache.py)."""
    known = _EXTENDED.get((id(d), id(row)))
    if known is not None and known[0] is d and known[1] is row and known[2].kind == kind:
        return known[2]
    if len(_EXTENDED) >= MAX_EXTENDED:
        _EXTENDED.clear()
    # syntax.frozen makes an attrs class, but mypy's attrs plugin does not see through it
    made = attrs.evolve(d, kind=kind, title=row.title, extends=row.span)  # type: ignore[misc]
    derived(made, b"extended", (d,), (kind, row.title, row.span))
    _EXTENDED[(id(d), id(row))] = (d, row, made)
    return made
