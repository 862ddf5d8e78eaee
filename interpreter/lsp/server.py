"""`gamedef lsp`: the language server editors start, speaking LSP on stdin and stdout.

A thin layer over `analysis.py`: each open document is parsed and checked as it is
typed (its unsaved text, not the file on disk), the diagnostics published, and hover,
definition, completion and outline answered from the latest analysis. The checking
runs on one worker thread, after a short pause in typing, so a large game (or a
hostile document) never blocks the answers; an analysis overtaken by newer text is
dropped, not published.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from urllib.parse import urlparse

import attrs
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from interpreter.core import background
from interpreter.core.errors import Diagnostic, Span
from interpreter.language import syntax as ast
from interpreter.lsp import analysis as A

# Seconds of quiet after a change before the document is checked again: short, since an
# analysis overtaken by newer text is dropped before it starts, and stops after the game's
# own check (benchmarks/lsp_latency.py measures the time from an edit to its diagnostics).
DEBOUNCE = 0.02

KINDS = {
    "game": types.SymbolKind.Module,
    "enum": types.SymbolKind.Enum,
    "member": types.SymbolKind.EnumMember,
    "entity": types.SymbolKind.Class,
    "field": types.SymbolKind.Field,
    "card": types.SymbolKind.Object,
    "component": types.SymbolKind.Object,
    "slot": types.SymbolKind.Method,
    "trigger": types.SymbolKind.Event,
    "var": types.SymbolKind.Variable,
    "def": types.SymbolKind.Function,
    "query": types.SymbolKind.Function,
    "procedure": types.SymbolKind.Function,
    "event": types.SymbolKind.Event,
    "option": types.SymbolKind.Constant,
    "variant": types.SymbolKind.Namespace,
    "table": types.SymbolKind.Struct,
    "grid": types.SymbolKind.Struct,
    "graph": types.SymbolKind.Struct,
    "view": types.SymbolKind.Interface,
    "payoff": types.SymbolKind.Interface,
    "remove": types.SymbolKind.Null,
}

COMPLETION_KINDS = {
    "keyword": types.CompletionItemKind.Keyword,
    "builtin": types.CompletionItemKind.Function,
    "def": types.CompletionItemKind.Function,
    "query": types.CompletionItemKind.Function,
    "procedure": types.CompletionItemKind.Function,
    "card": types.CompletionItemKind.Value,
    "component": types.CompletionItemKind.Value,
    "member": types.CompletionItemKind.EnumMember,
    "enum": types.CompletionItemKind.Enum,
    "entity": types.CompletionItemKind.Class,
    "field": types.CompletionItemKind.Field,
    "var": types.CompletionItemKind.Variable,
    "local": types.CompletionItemKind.Variable,
    "parameter": types.CompletionItemKind.Variable,
    "event": types.CompletionItemKind.Event,
    "option": types.CompletionItemKind.Constant,
    "variant": types.CompletionItemKind.Module,
}

SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}


def _version() -> str:
    try:
        return version("gamedef")
    except PackageNotFoundError:
        return "0"


_ANSWERED = object()  # a request refused with an error response: nothing more to do


class GamedefProtocol(LanguageServerProtocol):
    """pygls's protocol, answering a request whose parameters do not fit its method with
    an error response (pygls only logs it, and the client would wait for ever)."""

    def structure_message(self, data: dict):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                error = types.ResponseError(code=exc.code, message=f"{exc.message}: {data.get('method')}")
                self._send_response(data["id"], error=error)
                return _ANSWERED
            raise

    def handle_message(self, message) -> None:
        if message is not _ANSWERED:
            super().handle_message(message)


class Worker:
    """One daemon thread running the checks in turn. Not a thread pool: Python waits
    for a pool's threads at exit, and an editor closing during a long compile would
    wait for it."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._run, name="gamedef-worker", daemon=True).start()

    def _run(self) -> None:
        while True:
            fn, args, future, loop = self.jobs.get()
            if future.cancelled():  # overtaken while it waited: newer text is queued behind it
                continue
            try:
                result = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
                loop.call_soon_threadsafe(_settle, future, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, future, result, None)

    def run(self, fn: Callable, *args) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.jobs.put((fn, args, future, loop))
        return future


def _settle(future: asyncio.Future, result, exc: BaseException | None) -> None:
    if future.cancelled():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


class GamedefServer(LanguageServer):
    """The server, with each open document's latest analysis."""

    def __init__(self) -> None:
        super().__init__("gamedef", _version(), protocol_cls=GamedefProtocol)
        self.analyses: dict[str, A.Analysis] = {}  # the latest analysis of each open document
        self.parsed: dict[str, A.Analysis] = {}  # the latest one that parsed: names to offer mid-edit
        self.pending: dict[str, asyncio.Task] = {}
        self.worker = Worker()  # parsing and checking, as the documents are typed
        self.compiler = Worker()  # compiling, on open and save: slower, and never in the way of the checks


server = GamedefServer()


# ---- positions: the language counts characters from 1, the protocol UTF-16 units from 0 ----
def _row(text: str, line: int) -> str:
    lines = A._lines(text)
    return lines[line - 1] if 0 < line <= len(lines) else ""


def to_position(text: str, line: int, column: int) -> types.Position:
    row = _row(text, line)
    prefix = row[: max(0, column - 1)]
    return types.Position(line=max(0, line - 1), character=len(prefix.encode("utf-16-le")) // 2)


def from_position(text: str, position: types.Position) -> tuple[int, int]:
    """The 1-based line and character column of a protocol position."""
    row = _row(text, position.line + 1)
    units = 0
    for i, ch in enumerate(row):
        if units >= position.character:
            return position.line + 1, i + 1
        units += 2 if ord(ch) > 0xFFFF else 1
    return position.line + 1, len(row) + 1


def to_range(text: str, span: Span) -> types.Range:
    """A diagnostic's range: its span, or the word (or the character) it starts at."""
    line, column = max(1, span.line), max(1, span.column)
    end = span.end_column
    if end is None or end <= column:
        found = A.word_at(text, line, column)
        end = found[2] if found and found[1] == column else column + 1
    return types.Range(start=to_position(text, line, column), end=to_position(text, line, end))


def _path(uri: str) -> str | None:
    """The file a document is, or None for an untitled buffer (checked alone)."""
    if urlparse(uri).scheme != "file":
        return None
    return to_fs_path(uri)


# ---- diagnostics -------------------------------------------------------------------------------
def to_diagnostics(analysis: A.Analysis) -> list[types.Diagnostic]:
    """The analysis's diagnostics, placed in the document: one in an included file is
    shown at the `include` that brings it in (its own place in the message)."""
    text = analysis.text
    includes = [d for d in analysis.module.decls if isinstance(d, ast.Include)] if analysis.module else []
    folder = Path(analysis.path).parent
    out = []
    for d in analysis.diagnostics:
        message, span = d.message, d.span
        if span.path != analysis.path:
            place = f"{Path(span.path).name}:{span.line}:{span.column}" if span.line > 0 else span.path
            message = f"in {place}: {message}"
            direct = [i for i in includes if str((folder / i.path).resolve()) == span.path]
            span = (direct or includes or [ast.Include(span=Span(analysis.path, 1, 1), path="")])[0].span
        if d.hint:
            message += f"\nhint: {d.hint}"
        out.append(
            types.Diagnostic(
                range=to_range(text, span),
                message=message,
                severity=SEVERITY.get(d.severity, types.DiagnosticSeverity.Error),
                source="gamedef",
            )
        )
    return out


class _Overtaken(Exception):
    """Raised in an analysis whose document has changed since: it is not finished."""


def _publish(ls: GamedefServer, uri: str, doc_version: int | None, analysis: A.Analysis) -> None:
    """Publish `analysis` (an interim one) if the document is still at `doc_version`."""
    current = ls.workspace.text_documents.get(uri)
    if current is None or current.version != doc_version:
        return
    ls.analyses[uri] = analysis
    if analysis.module is not None:
        ls.parsed[uri] = analysis
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, version=doc_version, diagnostics=to_diagnostics(analysis))
    )


def _analyse_safely(path: str | None, text: str, interim: A.Progress | None = None) -> A.Analysis | None:
    """`analyse`, with anything it did not foresee turned into a diagnostic: the
    server outlives every document. None if it was overtaken by newer text."""
    try:
        return A.analyse(path, text, interim)
    except _Overtaken:
        return None
    except Exception as exc:  # noqa: BLE001 - the editor must keep its server
        where = Span(path or "<untitled>", 1, 1)
        message = f"gamedef could not check this document ({type(exc).__name__}: {exc})"
        return A.Analysis(where.path, text, (Diagnostic(where, message, "please report it"),))


def _compile_safely(analysis: A.Analysis) -> A.Analysis:
    """The analysis with what compiling found added (`compile_diagnostics`)."""
    try:
        found = A.compile_diagnostics(analysis)
    except Exception as exc:  # noqa: BLE001 - the editor must keep its server
        message = f"gamedef could not compile this game ({type(exc).__name__}: {exc})"
        found = (Diagnostic(Span(analysis.path, 1, 1), message, "please report it"),)
    if not found:
        return analysis
    return attrs.evolve(analysis, diagnostics=analysis.diagnostics + tuple(found))


async def refresh(ls: GamedefServer, uri: str, delay: float, compile_too: bool = False) -> None:
    """Check the document (after `delay` seconds of quiet) and publish what was found,
    unless newer text came meanwhile; `compile_too` (on open and save) then compiles the
    game and publishes again if that found more."""
    if delay:
        await asyncio.sleep(delay)
    doc = ls.workspace.get_text_document(uri)
    text, doc_version = doc.source, doc.version
    loop = asyncio.get_running_loop()

    def stale() -> bool:
        current = ls.workspace.text_documents.get(uri)
        return current is None or current.version != doc_version

    def interim(found: A.Analysis) -> None:
        """The game's own check is done (its variants' are next): publish it now, from
        the worker thread through the loop; stop here if newer text came meanwhile."""
        if stale():
            raise _Overtaken
        loop.call_soon_threadsafe(_publish, ls, uri, doc_version, found)

    analysis = await ls.worker.run(_analyse_safely, _path(uri), text, interim)
    if analysis is None or stale():
        return
    ls.analyses[uri] = analysis
    if analysis.module is not None:
        ls.parsed[uri] = analysis
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, version=doc_version, diagnostics=to_diagnostics(analysis))
    )
    if not compile_too or analysis.program is None:
        return
    compiled = await ls.compiler.run(_compile_safely, analysis)
    current = ls.workspace.text_documents.get(uri)
    if compiled is analysis or current is None or current.version != doc_version:
        return
    ls.analyses[uri] = ls.parsed[uri] = compiled
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, version=doc_version, diagnostics=to_diagnostics(compiled))
    )


def _schedule(ls: GamedefServer, uri: str, delay: float, compile_too: bool = False) -> None:
    old = ls.pending.pop(uri, None)
    if old is not None:
        old.cancel()
    ls.pending[uri] = asyncio.ensure_future(refresh(ls, uri, delay, compile_too))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: GamedefServer, params: types.DidOpenTextDocumentParams) -> None:
    _schedule(ls, params.text_document.uri, 0, compile_too=True)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: GamedefServer, params: types.DidChangeTextDocumentParams) -> None:
    _schedule(ls, params.text_document.uri, DEBOUNCE)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: GamedefServer, params: types.DidSaveTextDocumentParams) -> None:
    _schedule(ls, params.text_document.uri, 0, compile_too=True)  # an included file may have changed too


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: GamedefServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.analyses.pop(uri, None)
    ls.parsed.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ---- answers -------------------------------------------------------------------------------------
def _current(ls: GamedefServer, uri: str) -> tuple[A.Analysis | None, str]:
    """The latest analysis that parsed (names stay known while a line is half typed), and
    the document's text as it is now."""
    doc = ls.workspace.text_documents.get(uri)
    text = doc.source if doc is not None else ""
    return ls.parsed.get(uri) or ls.analyses.get(uri), text


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: GamedefServer, params: types.HoverParams) -> types.Hover | None:
    analysis, text = _current(ls, params.text_document.uri)
    if analysis is None:
        return None
    line, column = from_position(text, params.position)
    shown = A.hover(analysis, text, line, column)
    if shown is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=shown))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: GamedefServer, params: types.DefinitionParams) -> list[types.Location] | None:
    analysis, text = _current(ls, params.text_document.uri)
    if analysis is None:
        return None
    line, column = from_position(text, params.position)
    out = []
    for span in A.definition(analysis, text, line, column):
        source = text if span.path == analysis.path else analysis.sources.get(span.path, "")
        uri = params.text_document.uri if span.path == analysis.path else _uri(span.path)
        out.append(types.Location(uri=uri, range=to_range(source, span)))
    return out or None


def _uri(path: str) -> str:
    return from_fs_path(path) or path


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
def completion(ls: GamedefServer, params: types.CompletionParams) -> types.CompletionList:
    analysis, text = _current(ls, params.text_document.uri)
    if analysis is None:
        analysis = A.Analysis("<untitled>", text, ())
    line, column = from_position(text, params.position)
    items = [
        types.CompletionItem(label=label, kind=COMPLETION_KINDS.get(kind), detail=detail)
        for label, kind, detail in A.completions(analysis, text, line, column)
    ]
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: GamedefServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    analysis, _ = _current(ls, params.text_document.uri)
    if analysis is None:
        return []
    text = analysis.text
    return [_symbol(text, entry) for entry in A.outline(analysis)]


def _symbol(text: str, entry: A.Outline) -> types.DocumentSymbol:
    line, column, end_line, end_column = entry.extent
    extent = types.Range(start=to_position(text, line, column), end=to_position(text, end_line, end_column))
    selection = to_range(text, entry.selection)
    if not (extent.start.line, extent.start.character) <= (selection.start.line, selection.start.character):
        selection = types.Range(start=extent.start, end=extent.start)
    if (selection.end.line, selection.end.character) > (extent.end.line, extent.end.character):
        selection = types.Range(start=selection.start, end=extent.end)
    return types.DocumentSymbol(
        name=entry.name,
        kind=KINDS.get(entry.kind, types.SymbolKind.Object),
        detail=entry.detail,
        range=extent,
        selection_range=selection,
        children=[_symbol(text, c) for c in entry.children] or None,
    )


def main() -> int:
    """Serve one editor on stdin and stdout until it says `exit`. A game it compiles is
    kept for the next load at once, not as the process ends (core/background.py)."""
    background.forbid()
    logging.basicConfig(level=logging.WARNING)  # to stderr: stdout carries the protocol
    server.start_io()
    return 0
