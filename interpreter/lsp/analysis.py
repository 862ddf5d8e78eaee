"""What an editor needs to know about one open `.game` document, without an editor.

The language server (`server.py`) is a thin layer over this module: it hands the open
document's text here and turns the answers into protocol messages. Keeping the work
here, in plain functions over the syntax tree, means each answer (diagnostics, hover,
definition, completion, outline) can be read and tested without the protocol.

Positions here are the language's own: 1-based lines and 1-based columns counted in
characters, as `Span` has them; the server converts them to the protocol's units.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

import attrs

from interpreter.check.checker import Checker, beside_digest
from interpreter.check.endless import endless
from interpreter.check.partial import with_the_rest_checked
from interpreter.check.symbols import ListOf, MapOf, Maybe, Named, SymbolTable, Type, kind_of
from interpreter.core.builtins import BUILTINS
from interpreter.core.errors import Diagnostic, GameDefError, Span
from interpreter.core.limits import MAX_FILE_BYTES, MAX_FILES, LimitExceeded, no_collection
from interpreter.core.paths import BUNDLED, BUNDLED_CARDS
from interpreter.language import syntax as ast
from interpreter.language.datatables import DEFAULT_SEPARATOR, Vocabulary
from interpreter.language.parser import SyntaxErrors, keywords, parse_text
from interpreter.language.program import Program, load_program
from interpreter.language.sources import SourceError, confined, read_bytes_checked

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class Symbol:
    """A declared name: what it is, where it is declared, and what to show of it."""

    name: str
    kind: str  # card, enum, member, entity, field, var, def, query, procedure, event, option, variant, ...
    span: Span  # where the declaration starts
    detail: str  # one line: its type or signature
    doc: str = ""  # more lines (markdown): a card's printed text and properties
    also: tuple[Span, ...] = ()  # other places that declare it (a table row a card block extends)
    type: Type | None = None  # a local's type, as the checker found it


@attrs.frozen
class Analysis:
    """One document's analysis: its diagnostics and the names it can see."""

    path: str
    text: str
    diagnostics: tuple[Diagnostic, ...]
    module: ast.Module | None = None  # None when nothing of the document parses (what did, with syntax errors)
    program: Program | None = None  # None without a game header, or when includes fail
    symbols: tuple[Symbol, ...] = ()
    sources: dict[str, str] = attrs.field(factory=dict)  # text of every file read, by path
    # what the checker resolved: each name use's binding, each expression's and local's type
    # (the game's own, then what only a variant has)
    table: SymbolTable = attrs.field(factory=SymbolTable)
    game: str = ""  # the game file checked: this one, or the game that includes this card set


# ---- diagnostics ---------------------------------------------------------------------------
def analyse(path: str | None, text: str, progress: Progress | None = None) -> Analysis:
    """Parse and check `text` as the file at `path` (its includes read from disk); a
    document that is no file (`path` None: an untitled buffer) is only parsed.

    Every failure becomes a diagnostic: a document is untrusted input and the editor
    must never lose its server to one. The limits of files read from disk apply to the
    open text too, before any parsing starts."""
    alone = not path
    path = str(Path(path).resolve()) if path else "<untitled>"
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        message = f"the document has {size:,} bytes; the limit is {MAX_FILE_BYTES:,}"
        return Analysis(path, text, (Diagnostic(Span(path, 1, 1), message, "split it into smaller files"),))
    try:
        return _analyse(path, text, alone, progress)
    except GameDefError as err:
        return Analysis(path, text, tuple(err.diagnostics))
    except (LimitExceeded, RecursionError, MemoryError) as err:
        message = getattr(err, "message", None) or "the document is too large or too deeply nested to check"
        return Analysis(path, text, (Diagnostic(Span(path, 1, 1), message, getattr(err, "hint", None)),))


def _analyse(path: str, text: str, alone: bool, progress: Progress | None = None) -> Analysis:
    syntax: SyntaxErrors | None = None
    try:
        module = parse_text(text, path)
    except SyntaxErrors as err:  # each syntax error, and what parsed is analysed as usual
        module, syntax = err.module, err
    except GameDefError as err:
        return Analysis(path, text, tuple(err.diagnostics))
    first = tuple(syntax.diagnostics) if syntax is not None else ()
    sources = {path: text}
    own = _symbols([module], (), sources)
    if alone or (syntax is not None and not syntax.whole):
        return Analysis(path, text, first, module, None, own, sources)
    game = path
    if not any(isinstance(d, ast.GameHeader | ast.Include) for d in module.decls):
        # A card set or a file of rules a game includes: checked as part of that game.
        host = including_game(Path(path))
        if host is None:
            return Analysis(path, text, first, module, None, own, sources)
        game = str(host)
    edited = {path: module}
    try:
        program = load_program(game, (), edited)
    except SyntaxErrors as err:  # an included file does not parse: as `check` reports it
        found = tuple(with_the_rest_checked(game, syntax or err, edited))
        return Analysis(path, text, found, module, None, own, sources, game=game)
    except GameDefError as err:
        return Analysis(path, text, first + _not_echoes(err.diagnostics, syntax), module, None, own, sources, game=game)
    sources.update(program.sources)
    symbols = _program_symbols(module, program, sources)
    table = SymbolTable()

    def done(shown: tuple[Diagnostic, ...]) -> Analysis:
        if game != path:  # of the game around a card set, its errors only: the warnings are its own business
            shown = tuple(d for d in shown if d.span.path == path or d.severity == "error")
        typed = tuple(
            attrs.evolve(s, detail=f"{s.detail}: {table.defs[s.name]}")
            if s.kind == "def" and s.name in table.defs
            else s
            for s in symbols
        )
        return Analysis(path, text, shown, module, program, typed, sources, table, game)

    if syntax is not None:  # the syntax errors and the errors of what parsed, as `check` gives them
        shown = tuple(with_the_rest_checked(game, syntax, edited))
        try:
            _checked(program, table)  # for the names and types of what parsed
        except GameDefError:
            pass
        return done(shown)
    return done(static_diagnostics(game, program, edited, table, lambda found: progress and progress(done(found))))


# Told of an analysis before it is complete (the game's own check, before its variants').
Progress = Callable[["Analysis"], object]


def _checked(program: Program, table: SymbolTable) -> list[Diagnostic]:
    """`check_program`, adding what the checker recorded (check/symbols.py) to `table`.
    A program equal to one checked lately is not checked again (`_recent_check`)."""
    found = _recent_check(program)
    if found is None:
        with no_collection():  # linear in the program's size, as `check_program` (core/limits.py)
            checker = Checker(program)
            found = (checker.table, tuple(checker.run()))
        _RECENT_CHECKS.insert(0, (_check_input(program), *found))
        del _RECENT_CHECKS[_RECENT:]
    recorded, diagnostics = found
    table.merge(recorded)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        raise GameDefError(errors)
    return [d for d in diagnostics if d.severity == "warning"]


# The checks of the last few programs: (what the checker read of the program, its symbol
# table, its diagnostics), the latest first. An edit in a variant leaves the game's own
# program and the other variants' as they were, so only the variant edited is checked
# again; the included files' trees are the same objects from one edit to the next
# (parser.parse_file keeps them), so comparing two programs costs little.
_RECENT_CHECKS: list[tuple[tuple, SymbolTable, tuple[Diagnostic, ...]]] = []
_RECENT = 16  # the game and its variants (a bundled game has up to 8), about 1 MB each


def _check_input(program: Program) -> tuple:
    """Everything of `program` the checker reads (check/checker.py: its header, its
    declarations with their positions, its tables, its tests, its variants' names, places
    and exclusions, and the names of the variants chosen), and the test files beside the
    game, which its "never read" warnings read (`beside_digest`), as one value compared by equality: two
    programs with equal inputs have the same check, whatever their files' comments and
    layout elsewhere."""
    return (
        beside_digest(program),
        program.header,
        program.decls,
        program.tables,
        program.tests,
        tuple((v.name, v.span, v.excludes) for v in program.all_variants.values()),  # `excludes` is checked
        tuple(v.name for v in program.variants),
        program.removed,
        program.replaced,
    )


_RECENT_ENDLESS: list[tuple[tuple, tuple[Diagnostic, ...]]] = []  # (declarations, what `endless` found)


def _endless(decls: tuple) -> tuple[Diagnostic, ...]:
    """`endless(decls)` (check/endless.py), which reads the declarations alone: the answer
    for equal declarations checked lately is not looked for again."""
    for i, (seen, found) in enumerate(_RECENT_ENDLESS):
        if seen == decls:
            _RECENT_ENDLESS.insert(0, _RECENT_ENDLESS.pop(i))
            return found
    found = tuple(endless(decls))
    _RECENT_ENDLESS.insert(0, (decls, found))
    del _RECENT_ENDLESS[_RECENT:]
    return found


def _recent_check(program: Program) -> tuple[SymbolTable, tuple[Diagnostic, ...]] | None:
    """The symbol table and diagnostics of a program checked lately with the same input
    as `program`, or None (then it is checked). The table is only read (merged into each
    analysis's own), never changed, so one check serves several analyses."""
    key = _check_input(program)
    for i, (seen, recorded, diags) in enumerate(_RECENT_CHECKS):
        if seen == key:
            _RECENT_CHECKS.insert(0, _RECENT_CHECKS.pop(i))
            return recorded, diags
    return None


def static_diagnostics(
    game: str,
    program: Program,
    edited: dict[str, ast.Module],
    table: SymbolTable,
    interim: Callable[[tuple[Diagnostic, ...]], object] | None = None,
) -> tuple[Diagnostic, ...]:
    """What `gamedef check` reports before it compiles and plays (cli/designing.py): the
    game checked, then with each variant, then with each set of variants a test plays; the
    errors of the first of these that has any; else the warnings that none of them uses
    up, and the recursions and loops that cannot end (check/endless.py). `interim` is told
    the warnings of the game's own check when it is clean, before anything else (its
    variants, the endless recursions) is looked at: an error just fixed is gone at once.
    (When the game's own check has errors, they are the answer: nothing more is checked.)"""
    sets: list[list[str]] = [[]] + [[v] for v in program.all_variants]
    sets += [list(vs) for vs in dict.fromkeys(t.variants for t in program.tests) if len(vs) > 1]
    warnings: dict[tuple, Diagnostic] | None = None
    never_ends: dict[tuple, Diagnostic] = {}
    for i, variants in enumerate(sets):
        assembled = program if not variants else load_program(game, variants, edited)
        try:
            found = _checked(assembled, table)
        except GameDefError as err:
            return tuple(err.diagnostics)
        keys = {(d.span, d.message): d for d in found}  # warn only of what no variant uses either
        warnings = keys if warnings is None else {k: d for k, d in warnings.items() if k in keys}
        if i == 0 and interim is not None and len(sets) > 1:
            interim(tuple(warnings.values()))
        never_ends.update({(d.span, d.message): d for d in _endless(assembled.decls)})
    return tuple((warnings or {}).values()) + tuple(never_ends.values())


def _not_echoes(diagnostics, syntax: SyntaxErrors | None) -> tuple[Diagnostic, ...]:
    """The check's diagnostics, less those about a name that a broken declaration declared."""
    return tuple(d for d in diagnostics if syntax is None or not syntax.explains(d))


def including_game(path: Path) -> Path | None:
    """The game that includes the file at `path` directly: a `.game` file beside it, in
    the folder above (`berlin_wall/variants.game`) or among the bundled games
    (`cards/twid/pre_1.game`). Only those folders are read, each file with the limits of
    any file, and at most MAX_FILES of them."""
    folders = list(dict.fromkeys([path.parent, path.parent.parent, BUNDLED]))
    candidates = [c for folder in folders for c in sorted(folder.glob("*.game")) if c.resolve() != path]
    for candidate in candidates[:MAX_FILES]:
        try:
            text = read_bytes_checked(candidate)
        except SourceError:
            continue
        for name in INCLUDE.findall(text):
            if confined(candidate.parent, name, (candidate.parent, BUNDLED, BUNDLED_CARDS)) == path:
                return candidate.resolve()
    return None


INCLUDE = re.compile(r'^[ \t]*include[ \t]+"([^"\n]+)"', re.MULTILINE)


def compile_diagnostics(analysis: Analysis) -> tuple[Diagnostic, ...]:
    """What compiling the game finds that checking did not (a constant that cannot be
    computed at load, a table's bad cell for a property's type), for the game and each
    variant, as `gamedef check` does. Compiling The Wall is Down takes seconds the first
    time (then its cache answers), so this runs when a document is opened or saved, and
    only on a file whose text is the one on disk (the compiled-game cache reads files)."""
    if analysis.program is None or any(d.severity == "error" for d in analysis.diagnostics):
        return ()
    from interpreter.runtime.load import load_game

    try:
        if Path(analysis.path).read_text(encoding="utf-8") != analysis.text:
            return ()
    except (OSError, UnicodeDecodeError):
        return ()
    found: dict[tuple, Diagnostic] = {}
    variants: list[str]
    for variants in [[]] + [[v] for v in analysis.program.all_variants]:
        try:
            load_game(analysis.game or analysis.path, variants=variants)
        except GameDefError as err:
            for d in err.diagnostics:
                found.setdefault((d.span, d.message), d)
        except (LimitExceeded, RecursionError, MemoryError) as err:
            message = getattr(err, "message", None) or "the game is too large to compile"
            d = Diagnostic(Span(analysis.path, 1, 1), message, getattr(err, "hint", None))
            found.setdefault((d.span, d.message), d)
    return tuple(found.values())


# ---- names -----------------------------------------------------------------------------------
def type_text(t: ast.TypeExpr | None) -> str:
    """A type as it is written in a `.game` file."""
    if t is None:
        return ""
    if isinstance(t, ast.NamedType):
        return t.name
    if isinstance(t, ast.ListType):
        return f"list {type_text(t.element)}"
    if isinstance(t, ast.OptionalType):
        return f"{type_text(t.inner)}?"
    return f"{type_text(t.key)} -> {type_text(t.value)}"


def _params(params) -> str:
    return ", ".join(f"{p.name}: {type_text(p.type)}" for p in params)


def source_rest(sources: dict[str, str], span: Span) -> str:
    """The source from `span` to the end of its line, without a trailing comment: how an
    expression, a property or a default is shown (the syntax tree keeps no text)."""
    lines = _lines(sources.get(span.path, ""))
    if not 0 < span.line <= len(lines):
        return ""
    rest = lines[span.line - 1][max(0, span.column - 1) :]
    out, quoted = [], False
    for ch in rest:
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            break
        out.append(ch)
    return "".join(out).strip()[:200]


@functools.lru_cache(maxsize=16)
def _lines(text: str) -> list[str]:
    return text.split("\n")


def _decl_symbols(decl, sources: dict[str, str], out: list[Symbol], in_variant: str = "") -> None:
    where = f" (variant {in_variant})" if in_variant else ""
    if isinstance(decl, ast.GameHeader):
        out.append(Symbol(decl.name, "game", decl.span, f'game {decl.name} "{decl.title}"'))
    elif isinstance(decl, ast.Option):
        detail = f"option {decl.name}: {type_text(decl.type)}{where}"
        out.append(Symbol(decl.name, "option", decl.span, detail, decl.description))
    elif isinstance(decl, ast.Enum):
        out.append(Symbol(decl.name, "enum", decl.span, f"enum {decl.name}{where}"))
        for m in decl.members:
            out.append(Symbol(m.name, "member", m.span, f"{m.name}: {decl.name}", f'"{m.title}"'))
    elif isinstance(decl, ast.Entity):
        out.append(Symbol(decl.name, "entity", decl.span, f"entity {decl.name}{where}"))
        for f in decl.fields:
            out.append(Symbol(f.name, "field", f.span, f"{decl.name}.{f.name}: {type_text(f.type)}"))
    elif isinstance(decl, ast.Card):
        out.append(_card_symbol(decl, sources, where))
    elif isinstance(decl, ast.Var):
        detail = f"var {decl.name}: {type_text(decl.type)}{where}"
        out.append(Symbol(decl.name, "var", decl.span, detail, f"= `{source_rest(sources, decl.default.span)}`"))
    elif isinstance(decl, ast.Grid | ast.Graph):
        out.append(
            Symbol(decl.name, type(decl).__name__.lower(), decl.span, f"{type(decl).__name__.lower()} {decl.name}")
        )
    elif isinstance(decl, ast.Event):
        out.append(Symbol(decl.name, "event", decl.span, f"event {decl.name}({_params(decl.params)}){where}"))
    elif isinstance(decl, ast.Def):
        detail = f"def {decl.name}({_params(decl.params)}){where}"
        out.append(Symbol(decl.name, "def", decl.span, detail, f"= `{source_rest(sources, decl.body.span)}`"))
    elif isinstance(decl, ast.Query):
        detail = f"query {decl.name}({_params(decl.params)}): {type_text(decl.type)}{where}"
        out.append(Symbol(decl.name, "query", decl.span, detail))
    elif isinstance(decl, ast.Procedure):
        result = f": {type_text(decl.result)}" if decl.result is not None else ""
        detail = f"procedure {decl.name}({_params(decl.params)}){result}{where}"
        out.append(Symbol(decl.name, "procedure", decl.span, detail))
    elif isinstance(decl, ast.DataTable):
        out.append(Symbol(decl.kind, "table", decl.span, f'table {decl.kind} from "{decl.path}"'))
    elif isinstance(decl, ast.Variant):
        doc = "\n\n".join([*(f"rule: {c}" for c in decl.cites), *(f"interpretation: {n}" for n in decl.notes)])
        out.append(Symbol(decl.name, "variant", decl.span, f'variant {decl.name} "{decl.title}"', doc))
        for inner in decl.decls:
            _decl_symbols(inner.decl if isinstance(inner, ast.Replace) else inner, sources, out, decl.name)


def _card_symbol(card: ast.Card, sources: dict[str, str], where: str = "") -> Symbol:
    lines = []
    if card.text:
        lines.append(f"> {card.text}")
    for p in card.props:
        lines.append(f"- {p.name} = `{source_rest(sources, p.value.span)}`")
    slots = [s[0] for s in card.slots]
    if slots:
        lines.append("- does: " + ", ".join(slots))
    title = f' "{card.title}"' if card.has_title else ""
    # A block that extends a table's row writes no kind: the row gives it (once read).
    kind = f" : {card.kind}" if card.has_kind or card.kind != "Card" else ""
    detail = f"card {card.name}{title}{kind}{where}"
    return Symbol(card.name, "card", card.span, detail, "\n".join(lines), (card.extends,) if card.extends else ())


def _symbols(modules, tables, sources: dict[str, str]) -> tuple[Symbol, ...]:
    out: list[Symbol] = []
    for module in modules:
        for decl in module.decls:
            _decl_symbols(decl, sources, out)
    for t in tables:
        out.extend(_row_symbols(t))
    return tuple(out)


def _row_symbols(loaded, values: _CellShown | None = None) -> list[Symbol]:
    """The components a table's rows make: their title, printed text and properties, from
    the table file (the `text` column, if the table reads one, is the printed text). Each
    property is shown as the game reads it (`_CellShown`): a cell read through `with "P" as
    none` is none, an enum's member is named with its title, never the raw text of a
    column another property is also read from."""
    decl = loaded.decl
    if not isinstance(decl, ast.DataTable):
        return []
    values = values or _CellShown(None)
    out = []
    for named in loaded.live():
        lines = []
        props = []
        for column in decl.columns:
            cell = named.row.cells.get(column.column)
            if column.prop == "text":
                if cell is not None and cell.value not in ("", None):
                    lines.append(f"> {cell.value}")
                continue
            props.append(f"- {column.prop} = {values.shown(decl, column, cell)}")
        out.append(
            Symbol(
                named.name,
                "component",
                named.span,
                f'{decl.kind} {named.name} "{named.title}"',
                "\n".join(lines + props),
            )
        )
    return out


def _program_symbols(module: ast.Module, program: Program, sources: dict[str, str]) -> tuple[Symbol, ...]:
    """The names the document can see: its own declarations, those of the files it
    includes, and the components of the tables it reads. A card block that extends a
    table's row is shown with the row's text and declared in both places."""
    modules: list[ast.Module | _Included] = [module]
    seen = {module.path}
    for d in program.decls:
        path = d.span.path
        if path not in seen and path in sources and path.endswith(".game"):
            seen.add(path)
            modules.append(_Included(path, tuple(x for x in program.decls if x.span.path == path)))
    symbols = list(_symbols(modules, (), sources))
    for variant in program.all_variants.values():  # an included file's variants, with their own cards
        if variant.span.path != module.path:
            _decl_symbols(variant, sources, symbols)
    header = program.header
    if header.span.path != module.path:
        _decl_symbols(header, sources, symbols)
    values = _CellShown(program)
    rows = {s.name: s for t in program.tables for s in _row_symbols(t, values)}
    merged = []
    for s in symbols:
        row = rows.pop(s.name, None) if s.kind == "card" else None
        if row is not None:
            doc = "\n".join(x for x in (row.doc, s.doc) if x)
            s = attrs.evolve(s, detail=row.detail, doc=doc, also=(row.span,))
        merged.append(s)
    return tuple(merged) + tuple(rows.values())


class _CellShown:
    """How a table's cell reads, shown as a designer writes the value: the column's
    readings first (`with "P" as none`), an empty cell as none (or `[]` for a list), a
    list item by item, an enum member or a component by its name with its title.
    The compiler reads the cells the same way (language/datatables.py, `CellReader`); this
    shows them without compiling the game."""

    def __init__(self, program: Program | None):
        self.fields: dict[str, dict[str, ast.TypeExpr]] = {}
        titles: dict[str, str] = {}
        by_type: dict[str, list[str]] = {}
        decls = list(program.decls) if program is not None else []
        for d in decls:
            if isinstance(d, ast.Entity):
                self.fields[d.name] = {f.name: f.type for f in d.fields}
            elif isinstance(d, ast.Enum):
                for m in d.members:
                    titles[m.name] = m.title
                    by_type.setdefault(d.name, []).append(m.name)
            elif isinstance(d, ast.Card):
                titles[d.name] = d.title
                by_type.setdefault(d.kind, []).append(d.name)
        for t in program.tables if program is not None else ():
            if isinstance(t.decl, ast.DataTable):
                for row in t.live():
                    titles.setdefault(row.name, row.title)
                    if row.name not in by_type.get(t.decl.kind, []):
                        by_type.setdefault(t.decl.kind, []).append(row.name)
        self.titles = titles
        self.vocabularies = {k: Vocabulary(tuple(v), titles) for k, v in by_type.items()}

    def shown(self, decl: ast.DataTable, column: ast.Column, cell) -> str:
        """The value as code (in backticks), with the title of what it names after it."""
        value = self._value(decl, column, cell)
        title = self.titles.get(value)
        return f"`{value}`" + (f' "{title}"' if title is not None and title != value else "")

    def _value(self, decl: ast.DataTable, column: ast.Column, cell) -> str:
        t = self.fields.get(decl.kind, {}).get(column.prop)
        optional = isinstance(t, ast.OptionalType)
        inner = t.inner if isinstance(t, ast.OptionalType) else t
        readings = {r.text: r.value for r in column.readings}
        value = cell.value if cell is not None else ""
        listed = isinstance(inner, ast.ListType)
        if isinstance(value, list):
            return "[" + ", ".join(self._item(str(v), inner, readings) for v in value) + "]"
        text = str(value).strip() if value is not None else ""
        if not listed and text in readings:
            return _literal(readings[text])
        if not text or text in decl.empty:
            return "[]" if listed else "none" if optional or t is None else "(empty)"
        if isinstance(inner, ast.ListType):
            items = [i.strip() for i in text.split(column.separator or DEFAULT_SEPARATOR) if i.strip()]
            return "[" + ", ".join(self._item(i, inner.element, readings) for i in items) + "]"
        return self._item(text, inner, readings)

    def _item(self, text: str, t: ast.TypeExpr | None, readings: dict[str, ast.Expr]) -> str:
        if text in readings:
            return _literal(readings[text])
        if isinstance(t, ast.OptionalType):
            t = t.inner
        name = t.name if isinstance(t, ast.NamedType) else ""
        if name == "bool":
            return (
                "true"
                if text.casefold() in ("yes", "true")
                else "false"
                if text.casefold() in ("no", "false")
                else text
            )
        vocabulary = self.vocabularies.get(name)
        found = vocabulary.find(text) if vocabulary is not None else None
        if isinstance(found, str):
            return found
        return text if name in ("int", "") else f'"{text}"' if name == "str" else text


def _literal(e: ast.Expr) -> str:
    """A reading's value (`as none`, `as true`, `as 3`, `as West`) as it is written."""
    if isinstance(e, ast.NoneLit):
        return "none"
    if isinstance(e, ast.Bool):
        return "true" if e.value else "false"
    if isinstance(e, ast.Int):
        return str(e.value)
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Str):
        return '"' + "".join(p for p in e.parts if isinstance(p, str)) + '"'
    return "..."


@attrs.frozen
class _Included:
    path: str
    decls: tuple


# ---- places in the text ------------------------------------------------------------------------
def word_at(text: str, line: int, column: int) -> tuple[str, int, int] | None:
    """The name under (1-based) `line`:`column`, with its first and last+1 columns."""
    lines = _lines(text)
    if not 0 < line <= len(lines):
        return None
    row = lines[line - 1]
    for m in IDENT.finditer(row):
        if m.start() + 1 <= column <= m.end():
            return m.group(), m.start() + 1, m.end() + 1
    for m in IDENT.finditer(row):  # just after a name: the editor's cursor ends it
        if m.end() + 1 == column:
            return m.group(), m.start() + 1, m.end() + 1
    return None


def name_span(sources: dict[str, str], span: Span, name: str) -> Span:
    """Where `name` itself is written in the declaration starting at `span` (the
    keyword comes first): the range an editor selects."""
    lines = _lines(sources.get(span.path, ""))
    for i in range(span.line, min(span.line + 3, len(lines) + 1)):
        row = lines[i - 1]
        start = span.column - 1 if i == span.line else 0
        m = re.compile(rf"\b{re.escape(name)}\b").search(row, max(0, start))
        if m:
            return Span(span.path, i, m.start() + 1, m.end() + 1)
    return span


def extents(text: str, starts: list[Span], end: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """Each declaration's extent, (line, column) to (line, column): from its start to the
    last character before the next one starts (or `end`), trailing blanks and comments
    left out (the syntax tree keeps where a declaration starts, not where it ends)."""
    lines = _lines(text)
    out = []
    for i, s in enumerate(starts):
        stop = (starts[i + 1].line, starts[i + 1].column) if i + 1 < len(starts) else end
        line, column = stop
        column -= 1
        while line > s.line or (line == s.line and column > s.column):
            row = lines[line - 1] if 0 < line <= len(lines) else ""
            code = _code(row)[: max(0, column - 1)].rstrip()
            if code:
                column = len(code) + 1
                break
            line -= 1
            column = len(lines[line - 1]) + 1 if 0 < line <= len(lines) else 1
        out.append((s.line, s.column, line, max(column, s.column + 1 if line == s.line else column)))
    return out


def _code(row: str) -> str:
    """A line without its comment."""
    quoted = False
    for i, ch in enumerate(row):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return row[:i]
    return row


def _within(ext: tuple[int, int, int, int], line: int, column: int) -> bool:
    return (ext[0], ext[1]) <= (line, column) <= (ext[2], ext[3])


def _children(decl) -> list:
    """The parts of a declaration that have an extent of their own: a card's slots,
    triggers, hooks and modifiers, a variant's declarations."""
    if isinstance(decl, ast.Card):
        parts: list[_CardSlot | ast.Trigger | ast.LeaveHook | ast.StaticModifier | ast.FieldValue]
        parts = [_CardSlot(s[2], s[0], s[1], s[3]) for s in decl.slots]
        parts += [*decl.triggers, *decl.leaves, *decl.statics, *decl.props]
        return sorted(parts, key=lambda p: (p.span.line, p.span.column))
    if isinstance(decl, ast.Variant):
        return list(decl.decls)
    if isinstance(decl, ast.Replace):
        return [decl.decl]
    return []


@attrs.frozen
class _CardSlot:
    span: Span
    name: str
    body: tuple
    params: tuple


def enclosing(analysis: Analysis, line: int, column: int) -> list:
    """The declarations and their parts that contain `line`:`column`, outermost first."""
    module = analysis.module
    if module is None:
        return []
    lines = _lines(analysis.text)
    end = (len(lines), len(lines[-1]) + 1 if lines else 1)
    chain: list = []
    decls = list(module.decls)
    bound = end
    while decls:
        found = None
        for decl, ext in zip(decls, extents(analysis.text, [d.span for d in decls], bound), strict=True):
            if _within(ext, line, column):
                found = (decl, ext)
        if found is None:
            break
        chain.append(found[0])
        bound = (found[1][2], found[1][3])
        decls = _children(found[0])
    return chain


def cited_rules(chain: list) -> tuple[list[str], list[str]]:
    """The rulebook sections (`rule "..."`) and interpretations cited by the innermost
    block of `chain` that cites any."""
    for node in reversed(chain):
        if isinstance(node, ast.Variant):
            if node.cites or node.notes:
                return list(node.cites), list(node.notes)
            continue
        found = [n for n in ast.walk(node) if isinstance(n, ast.Cite | ast.Note)]
        rules = [n.section for n in found if isinstance(n, ast.Cite)]
        notes = [n.text for n in found if isinstance(n, ast.Note)]
        if rules or notes:
            return list(dict.fromkeys(rules)), list(dict.fromkeys(notes))
    return [], []


def locals_in(
    chain: list, sources: dict[str, str], table: SymbolTable | None = None, program: Program | None = None
) -> list[Symbol]:
    """Names bound inside the enclosing declaration: parameters, `let`, loop variables,
    `choose` and `roll` results, comprehension and lambda variables, trigger arguments,
    and the parameters a card's bare slot takes from its kind (`slot NAME(...)`); each with
    the type the checker found for it (`table`), where it did."""
    if not chain:
        return []
    bound = table.locals if table is not None else {}
    out: list[Symbol] = _declared_slot_params(chain, program)
    for node in ast.walk(chain[0]):
        if isinstance(node, ast.Param):
            known = bound.get(node.span)
            out.append(
                Symbol(
                    node.name,
                    "parameter",
                    node.span,
                    f"{node.name}: {type_text(node.type)}",
                    type=known.type if known else None,
                )
            )
        elif isinstance(node, ast.Let):
            known = bound.get(node.span)
            shown = f"let {node.name}: {known.type}" if known else f"let {node.name}"
            detail = f"{shown} = {source_rest(sources, node.value.span)}"
            out.append(Symbol(node.name, "local", node.span, detail, type=known.type if known else None))
        elif isinstance(node, ast.For | ast.Choose | ast.Roll | ast.ForClause | ast.LeaveHook):
            known = bound.get(node.span)
            doc = f"`{source_rest(sources, node.span)}`"
            detail = f"{node.var}: {known.type}" if known else node.var
            out.append(Symbol(node.var, "local", node.span, detail, doc, type=known.type if known else None))
        elif isinstance(node, ast.Lambda):
            out.append(Symbol(node.param, "local", node.span, f"{node.param} => ..."))
        elif isinstance(node, ast.Trigger):
            for n in node.names:
                out.append(Symbol(n, "parameter", node.span, f"{n}: argument of event {node.event}"))
        elif isinstance(node, ast.Modifier):
            for n in node.names:
                out.append(Symbol(n, "parameter", node.span, f"{n}: argument of query {node.query}"))
    if isinstance(chain[0], ast.Card):
        card = _filled(chain[0], program)
        kind = ast.NamedType(span=card.span, name=card.kind)
        out.append(Symbol("self", "local", chain[0].span, f"self: the card {card.name} ({type_text(kind)})"))
    return out


def _filled(card: ast.Card, program: Program | None) -> ast.Card:
    """The card as the assembled program has it: a block that extends a table's row has
    its kind (and slots' parameters) from the row and its entity."""
    if program is None:
        return card
    found = [d for d in program.decls if isinstance(d, ast.Card) and d.name == card.name]
    for v in program.all_variants.values():
        found += [d for d in v.decls if isinstance(d, ast.Card) and d.name == card.name]
    return found[0] if found else card


def _declared_slot_params(chain: list, program: Program | None) -> list[Symbol]:
    """In a card's `effect { ... }` written bare, the parameters its kind declares for the
    slot: the open file's tree has none, the assembled program has them filled in."""
    card, slot = chain[0], chain[1] if len(chain) > 1 else None
    if program is None or not isinstance(card, ast.Card) or not isinstance(slot, _CardSlot):
        return []
    if slot.name not in card.bare_slots:
        return []
    filled = _filled(card, program)
    params = next((s[3] for s in filled.slots if s[0] == slot.name), ())
    return [
        Symbol(p.name, "parameter", p.span, f"{p.name}: {type_text(p.type)} (declared by {filled.kind})")
        for p in params
    ]


# ---- the answers -------------------------------------------------------------------------------
def lookup(analysis: Analysis, text: str, line: int, column: int) -> tuple[str, list[Symbol], list] | None:
    """The name at `line`:`column` of `text` (the document as it is now), the symbols it
    may mean (locals first, fields after a `.`), and the enclosing declarations."""
    found = word_at(text, line, column)
    if found is None:
        return None
    word, start, _ = found
    row = _lines(text)[line - 1]
    chain = enclosing(analysis, line, column)
    sources = {**analysis.sources, analysis.path: analysis.text}
    local = [s for s in locals_in(chain, sources, analysis.table, analysis.program) if s.name == word]
    resolved = _resolved(analysis, text, line, column, word, local)
    if resolved is not None:
        return word, resolved, chain
    member = row[: start - 1].rstrip().endswith(".")
    named = [s for s in analysis.symbols if s.name == word]
    if member:
        named = [s for s in named if s.kind == "field"] or named
    else:
        named = [s for s in named if s.kind != "field"] or named
    return word, (local[-1:] if local and not member else []) + named, chain


def _resolved(
    analysis: Analysis, text: str, line: int, column: int, word: str, local: list[Symbol]
) -> list[Symbol] | None:
    """What the checker resolved the name at `line`:`column` to (its symbol table), as
    symbols: the declaration it names, shown with the type the checker found. None where
    the checker recorded no use there, or the document has changed on that line since
    it was checked (then the name is looked up by its spelling)."""
    if _lines(text)[line - 1 : line] != _lines(analysis.text)[line - 1 : line]:
        return None
    found = analysis.table.use_at(analysis.path, line, column)
    if found is None or found[1].name != word:
        return None
    b = found[1]
    if b.kind in ("local", "parameter", "self"):
        same = [s for s in local if s.span == b.declared] or local[-1:]
        return same or [Symbol(word, b.kind, b.declared or Span(analysis.path, line, column), f"{word}: {b.type}")]
    if b.declared is None:  # players, a built-in
        return (
            [] if word in BUILTINS else [Symbol(word, b.kind, Span(analysis.path, line, column), f"{word}: {b.type}")]
        )
    kinds = {"field": ("field",), "constant": ("card", "component", "member", "game")}.get(b.kind)
    same = [
        s
        for s in analysis.symbols
        if s.name == word and (b.declared == s.span or b.declared in s.also) and (kinds is None or s.kind in kinds)
    ]
    if same:
        return same
    if b.kind == "field":  # a property no entity declares: a card's own
        return [Symbol(word, "field", b.declared, f"{word}: {b.type}")]
    return None


def hover(analysis: Analysis, text: str, line: int, column: int) -> str | None:
    """Markdown for the name under the cursor: what it is, its type, where it is
    declared, a card's printed text and properties; and the rule the enclosing block
    cites."""
    found = lookup(analysis, text, line, column)
    chain = enclosing(analysis, line, column)
    parts = []
    if found is not None:
        word, symbols, _ = found
        if word in BUILTINS and not symbols:
            b = BUILTINS[word]
            parts.append(f"```gamedef\n{word}(...): {b.returns}\n```\nbuilt-in: {b.doc}")
        for s in symbols[:6]:
            block = f"```gamedef\n{s.detail}\n```"
            if s.doc:
                block += "\n" + s.doc
            block += "\n\n" + "declared at " + ", ".join(_where(x, analysis.path) for x in (s.span, *s.also))
            parts.append(block)
    rules, notes = cited_rules(chain)
    if rules:
        parts.append("rule " + "; ".join(f"§ {r}" for r in rules))
    if notes:
        parts.append("\n".join(f"interpretation: {n}" for n in notes))
    return "\n\n---\n\n".join(parts) if parts else None


def _where(span: Span, here: str) -> str:
    name = "this file" if span.path == here else Path(span.path).name
    return f"{name}:{span.line}"


def definition(analysis: Analysis, text: str, line: int, column: int) -> list[Span]:
    """Where the name under the cursor is declared (a card block and the table row it
    extends are both places); the name itself is the span, where it can be found."""
    found = lookup(analysis, text, line, column)
    if found is None:
        return []
    word, symbols, _ = found
    sources = {**analysis.sources, analysis.path: analysis.text}
    spans = []
    for s in symbols[:10]:
        for span in (s.span, *s.also):
            spans.append(name_span(sources, span, word) if span.path in sources else span)
    return list(dict.fromkeys(spans))


def completions(analysis: Analysis, text: str, line: int, column: int) -> list[tuple[str, str, str]]:
    """(label, kind, detail) for what may be written at the cursor: after a `.`, the
    entities' fields; elsewhere the names in scope, the built-in functions and the
    keywords."""
    row = _lines(text)[line - 1] if 0 < line <= len(_lines(text)) else ""
    before = row[: max(0, column - 1)]
    match = re.search(r"[A-Za-z0-9_]*$", before)
    assert match is not None  # `*` matches, if only the empty text at the end
    prefix = match.group()
    member = before[: len(before) - len(prefix)].rstrip().endswith(".")
    out: dict[str, tuple[str, str, str]] = {}
    sources = {**analysis.sources, analysis.path: analysis.text}
    if member:
        receiver = before[: len(before) - len(prefix)].rstrip()[:-1]
        kind = kind_of(receiver_type(analysis, sources, receiver, line, column))
        fields = analysis.table.fields.get(kind or "")
        if fields is not None:
            return [(name, "field", f"{kind}.{name}: {b.type}") for name, b in sorted(fields.items())]
        if kind is not None:
            return []  # a value with no properties: an int, an enum's member, ...
        for s in analysis.symbols:  # a kind not known (the text before the `.` not understood)
            if s.kind == "field":
                out.setdefault(s.name, (s.name, s.kind, s.detail))
        return list(out.values())
    for s in locals_in(enclosing(analysis, line, column), sources, analysis.table, analysis.program):
        out.setdefault(s.name, (s.name, s.kind, s.detail))
    for s in analysis.symbols:
        if s.kind != "field":
            out.setdefault(s.name, (s.name, s.kind, s.detail))
    for b in BUILTINS.values():
        out.setdefault(b.name, (b.name, "builtin", b.doc))
    for k in keywords():
        out.setdefault(k, (k, "keyword", "keyword"))
    return list(out.values())


_RECEIVER = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\s*(?:\.\s*[A-Za-z_][A-Za-z0-9_]*|\[[^\[\]]*\]|\([^()]*\)))*)$")
_STEP = re.compile(r"\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[")


def receiver_type(analysis: Analysis, sources: dict[str, str], text: str, line: int, column: int) -> Type:
    """The type of the expression `text` ends with (written before a `.` at `line`:`column`):
    a name in scope there (a local, `self`, a variable, a component, a def called), then
    each `.property` and `[key]` after it, by the types the checker recorded. `Type()`
    (unknown) where a step is not understood."""
    head = re.search(
        r"([A-Za-z_][A-Za-z0-9_]*)((?:\s*(?:\.\s*[A-Za-z_][A-Za-z0-9_]*|\[[^\[\]]*\]|\([^()]*\)))*)$", text
    )
    if head is None:
        return Type()
    name, rest = head.group(1), head.group(2)
    called = rest.lstrip().startswith("(")
    if called:
        rest = rest.lstrip()[rest.lstrip().index(")") + 1 :]
    t = _name_type(analysis, sources, name, called, line, column)
    for step in _STEP.finditer(re.sub(r"\([^()]*\)", "", rest)):
        if t is None:
            break
        if step.group(1):
            kind = kind_of(t)
            field = analysis.table.fields.get(kind or "", {}).get(step.group(1))
            t = field.type if field is not None else None
        else:
            t = t.inner if isinstance(t, Maybe) else t
            if isinstance(t, MapOf):
                t = MapOf(t.keys[1:], t.value) if len(t.keys) > 1 else t.value
            elif isinstance(t, ListOf):
                t = t.item
            else:
                t = None
    return t if t is not None else Type()


def _name_type(analysis: Analysis, sources: dict[str, str], name: str, called: bool, line: int, column: int):
    """The type of `name` where the cursor is: a local bound before it, `self`, or a
    global name the checker resolved somewhere (a def's result when `called`)."""
    if called:
        return analysis.table.defs.get(name)
    chain = enclosing(analysis, line, column)
    local = [s for s in locals_in(chain, sources, analysis.table, analysis.program) if s.name == name]
    before = [s for s in local if (s.span.line, s.span.column) <= (line, column)] or local
    if name == "self" and before:
        card = chain[0] if chain and isinstance(chain[0], ast.Card) else None
        if card is not None:
            return Named(_filled(card, analysis.program).kind)
    if before:
        s = before[-1]
        bound = analysis.table.locals.get(s.span)
        return s.type or (bound.type if bound is not None else None)
    named = analysis.table.globals.get(name)
    return named.type if named is not None else analysis.table.defs.get(name)


@attrs.frozen
class Outline:
    """One entry of the document's outline, with the parts inside it."""

    name: str
    kind: str
    detail: str
    extent: tuple[int, int, int, int]  # line, column, end line, end column
    selection: Span
    children: tuple[Outline, ...] = ()


def outline(analysis: Analysis) -> list[Outline]:
    """The document's declarations, as an editor's outline shows them: the game, enums
    (with members), entities (with fields), cards (with what they do), vars, defs,
    queries, procedures, events, options, tables, variants (with what they change)."""
    module = analysis.module
    if module is None:
        return []
    lines = _lines(analysis.text)
    sources = {analysis.path: analysis.text}
    return _outline(list(module.decls), analysis.text, sources, (len(lines), len(lines[-1]) + 1 if lines else 1))


def _outline(decls: list, text: str, sources: dict[str, str], bound: tuple[int, int]) -> list[Outline]:
    out = []
    decls = sorted(decls, key=lambda d: (d.span.line, d.span.column))
    for decl, ext in zip(decls, extents(text, [d.span for d in decls], bound), strict=True):
        entry = _entry(decl, text, sources, ext)
        if entry is not None:
            out.append(entry)
    return out


def _entry(decl, text: str, sources: dict[str, str], ext) -> Outline | None:
    if isinstance(decl, ast.Replace):
        inner = _entry(decl.decl, text, sources, ext)
        return attrs.evolve(inner, detail="replace " + inner.detail) if inner else None
    if isinstance(decl, ast.Remove):
        return Outline(decl.name, "remove", f"remove {decl.kind} {decl.name}", ext, decl.span)
    if isinstance(decl, ast.Trigger):
        label = f"when {decl.event}"
        return Outline(label, "trigger", f"when {decl.event}({', '.join(decl.names)})", ext, decl.span)
    if isinstance(decl, _CardSlot):
        return Outline(
            decl.name, "slot", f"{decl.name}({_params(decl.params)})", ext, name_span(sources, decl.span, decl.name)
        )
    if isinstance(decl, ast.View | ast.Payoff):
        kind = type(decl).__name__.lower()
        return Outline(kind, kind, kind, ext, decl.span)
    symbols: list[Symbol] = []
    _decl_symbols(decl, sources, symbols)
    if not symbols:
        return None
    head = symbols[0]
    children: tuple[Outline, ...] = ()
    bound = (ext[2], ext[3])
    if isinstance(decl, ast.Enum | ast.Entity):
        members = decl.members if isinstance(decl, ast.Enum) else decl.fields
        subs = symbols[1:]
        children = tuple(
            Outline(s.name, s.kind, s.detail, e, name_span(sources, s.span, s.name))
            for s, e in zip(subs, extents(text, [m.span for m in members], bound), strict=True)
        )
    elif isinstance(decl, ast.Card):
        parts = [p for p in _children(decl) if not isinstance(p, ast.FieldValue | ast.StaticModifier | ast.LeaveHook)]
        children = tuple(_outline(parts, text, sources, bound))
    elif isinstance(decl, ast.Variant):
        children = tuple(_outline(list(decl.decls), text, sources, bound))
    return Outline(head.name, head.kind, head.detail, ext, name_span(sources, decl.span, head.name), children)
