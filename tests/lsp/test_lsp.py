"""The language server (`gamedef lsp`), driven end to end through the protocol: a test
client starts the server as an editor does and speaks LSP to it over stdin and stdout.

The game below is the tests' own ("Duel"): a game file that includes a card set beside
it, so diagnostics, hover and definition are seen across an include."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from repo_paths import ROOT

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SERVER = [sys.executable, "-m", "interpreter", "lsp"]

MAIN = """\
# A small game for the language server's tests.
game duel "Duel" {
    players 2..2
    seats [a, b]
}
include "cards.game"

var score: player -> int = 0

procedure play() {
    rule "Duel 1.1: each player casts the spark"
    for p in players {
        gain(p, spark.power)
    }
    game over players
}

procedure gain(p: player, n: int) {
    rule "Duel 2.3: points"
    score[p] += n
}
"""

CARDS = """\
entity Spell {
    power: int
}
card spark "Spark": Spell {
    power 2
    text "Gain 2 points."
}
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=ENV), scope="module")
async def client(lsp_client: LanguageClient):
    """One server for the module's tests (each test opens its own files), as one editor
    keeps one server for many documents."""
    lsp_client.diagnostics = _Publications()
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=None))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    (tmp_path / "cards.game").write_text(CARDS)
    main = tmp_path / "main.game"
    main.write_text(MAIN)
    return main


# MAIN's own warning: its points are written, never read (check/checker.py, "never read").
MAIN_WARNINGS = ["variable 'score' is never read"]


def _messages(found: list[types.Diagnostic]) -> list[str]:
    """Each diagnostic's message, without its hint."""
    return [d.message.split("\n")[0] for d in found]


def _at(text: str, needle: str, nth: int = 0) -> types.Position:
    """The protocol position of the `nth` occurrence of `needle` in `text`."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


class _Publications(dict[str, Sequence[types.Diagnostic]]):
    """The client's record of the last diagnostics of each document, which also keeps every
    publication in order: a test waits for the n-th publication of its document, so one that
    arrives in the same read as another document's is never missed (waiting for the next
    notification instead lost it whenever two came together)."""

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list[list[types.Diagnostic]]] = {}

    def __setitem__(self, uri: str, diagnostics: Sequence[types.Diagnostic]) -> None:
        super().__setitem__(uri, diagnostics)
        self.history.setdefault(uri, []).append(list(diagnostics))

    def count(self, uri: str) -> int:
        return len(self.history.get(uri, []))


async def _published(client: LanguageClient, uri: str, before: int) -> list[types.Diagnostic]:
    """The first diagnostics the server publishes for `uri` after the `before`-th (the server
    is shared by the module's tests: another document's may come first)."""
    record = client.diagnostics
    assert isinstance(record, _Publications)
    deadline = asyncio.get_running_loop().time() + 60
    while record.count(uri) <= before:
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"after 60 s the server has published nothing new for {uri}")
        await asyncio.sleep(0.02)
    return record.history[uri][before]


async def _eventually(client: LanguageClient, uri: str, wanted, seconds: float = 60) -> list[types.Diagnostic]:
    """The diagnostics last published for `uri` once `wanted(them)` holds: read from what the
    client keeps, so a publication that came before this began to wait is not missed."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        found = list(client.diagnostics.get(uri, []))
        if wanted(found):
            return found
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"after {seconds} s the diagnostics of {uri} are {found}")
        await asyncio.sleep(0.05)


async def _open(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    uri = path.as_uri()
    before = client.diagnostics.count(uri)  # type: ignore[attr-defined]
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="gamedef", version=1, text=text)
        )
    )
    return await _published(client, uri, before)


async def _change(client: LanguageClient, path: Path, text: str, version: int) -> list[types.Diagnostic]:
    uri = path.as_uri()
    before = client.diagnostics.count(uri)  # type: ignore[attr-defined]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    return await _published(client, uri, before)


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostic_as_typed_then_cleared(client: LanguageClient, game: Path):
    """An unknown name typed (not saved) is reported at its range with the checker's
    hint; the fix, typed, clears it. The file on disk is never what is checked."""
    assert _messages(await _open(client, game, MAIN)) == MAIN_WARNINGS
    broken = MAIN.replace("gain(p, spark.power)", "gain(p, sprak.power)")
    found = await _change(client, game, broken, 2)
    assert len(found) == 1, found
    d = found[0]
    start = _at(broken, "sprak")
    assert d.range.start == start
    assert d.range.end == types.Position(line=start.line, character=start.character + len("sprak"))
    assert d.severity == types.DiagnosticSeverity.Error
    assert "sprak" in d.message and "spark" in d.message  # the did-you-mean hint
    assert _messages(await _change(client, game, MAIN, 3)) == MAIN_WARNINGS


@pytest.mark.asyncio(loop_scope="module")
async def test_syntax_error_and_included_file(client: LanguageClient, game: Path):
    """A syntax error is placed at the token it stops at; an error in an included file
    is shown at the `include` that brings it in, naming the file and line."""
    broken = MAIN.replace("var score: player -> int = 0", "var score player -> int = 0")
    found = await _open(client, game, broken)
    assert len(found) == 1
    assert found[0].range.start == _at(broken, "player -> int")
    (game.parent / "cards.game").write_text(CARDS.replace("power: int", "power: itn"))
    found = await _change(client, game, MAIN, 2)
    assert found and all(d.range.start == _at(MAIN, "include") for d in found)
    assert "cards.game:2" in found[0].message


@pytest.mark.asyncio(loop_scope="module")
async def test_every_syntax_error_and_the_rest_checked(client: LanguageClient, game: Path):
    """Two syntax errors in two procedures are two diagnostics, each at its token, and the
    procedure that parsed is still checked (its misspelt name is the third); what the
    broken statements leave out is not reported (each broken line is left out of its
    procedure, and the procedure checked without it)."""
    broken = (
        MAIN.replace("score[p] += n", "score[p] += = n")
        .replace("gain(p, spark.power)", "gain(p, sprak.power)")
        .replace(
            "game over players\n}", 'game over players\n}\n\nprocedure shout() {\n    rule "Duel 3"\n    log "loud\n}'
        )
    )
    found = sorted(await _open(client, game, broken), key=lambda d: (d.range.start.line, d.range.start.character))
    assert [d.range.start for d in found] == [_at(broken, "sprak"), _at(broken, '"loud'), _at(broken, "= n")]
    assert "spark" in found[0].message
    assert "string" in found[1].message
    assert "expression is expected after '+='" in found[2].message


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_card_and_rule(client: LanguageClient, game: Path):
    """Hover over a card's name shows its printed text and properties, where it is
    declared, and the rule the enclosing block cites."""
    await _open(client, game, MAIN)
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=game.as_uri()), position=_at(MAIN, "spark"))
    )
    assert result is not None
    value = result.contents.value
    assert "Gain 2 points." in value
    assert "power = `2`" in value
    assert "cards.game:4" in value
    assert "Duel 1.1: each player casts the spark" in value
    # A variable: its type; a parameter: its type.
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=game.as_uri()), position=_at(MAIN, "score", 1))
    )
    assert "var score: player -> int" in result.contents.value
    assert "Duel 2.3: points" in result.contents.value
    result = await client.text_document_hover_async(  # a loop's variable: the type of the list's items
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=game.as_uri()), position=_at(MAIN, "p, spark"))
    )
    assert "p: player" in result.contents.value and "for p in players" in result.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_in_included_file(client: LanguageClient, game: Path):
    """Go to definition leads from a use of a card to its declaration in the included
    file, and from a call to the procedure in this one."""
    await _open(client, game, MAIN)
    uri = game.as_uri()
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=_at(MAIN, "spark"))
    )
    assert len(found) == 1
    assert found[0].uri == (game.parent / "cards.game").as_uri()
    assert found[0].range.start == _at(CARDS, "spark")
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=_at(MAIN, "gain"))
    )
    assert [(f.uri, f.range.start) for f in found] == [(uri, _at(MAIN, "gain", 1))]


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_names_and_keywords(client: LanguageClient, game: Path):
    """Completion offers the names declared (here and in included files), the
    procedure's parameters, built-ins, and the grammar's keywords."""
    await _open(client, game, MAIN)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=game.as_uri()), position=_at(MAIN, "score[p] += n")
        )
    )
    items = {i.label: i for i in result.items}
    assert items["score"].kind == types.CompletionItemKind.Variable
    assert items["spark"].kind == types.CompletionItemKind.Value
    assert items["n"].detail == "n: int"
    assert items["procedure"].kind == types.CompletionItemKind.Keyword
    assert items["interpretation"].kind == types.CompletionItemKind.Keyword
    assert "count" in items


@pytest.mark.asyncio(loop_scope="module")
async def test_document_symbols(client: LanguageClient, game: Path):
    """The outline lists the document's declarations with the ranges they span."""
    await _open(client, game, MAIN)
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=game.as_uri()))
    )
    assert [(s.name, s.kind) for s in found] == [
        ("duel", types.SymbolKind.Module),
        ("score", types.SymbolKind.Variable),
        ("play", types.SymbolKind.Function),
        ("gain", types.SymbolKind.Function),
    ]
    play = found[2]
    assert play.range.start == _at(MAIN, "procedure play")
    assert play.range.end.line == _at(MAIN, "game over players").line + 1
    assert play.selection_range.start == _at(MAIN, "play()")
    cards = game.parent / "cards.game"
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=cards.as_uri()))
    )
    assert found == []  # not open: nothing known of it
    await _open(client, cards, CARDS)
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=cards.as_uri()))
    )
    assert [(s.name, [c.name for c in s.children or []]) for s in found] == [("Spell", ["power"]), ("spark", [])]


@pytest.mark.asyncio(loop_scope="module")
async def test_garbage_documents(client: LanguageClient, game: Path):
    """Garbage, deep nesting and a document past the file size limit each give a
    diagnostic; the server answers the next request as before."""
    garbage = "\x00\ufffd{{{ }}} 'card' \"unterminated\n" * 50
    found = await _open(client, game.parent / "garbage.game", garbage)
    assert len(found) == 1 and found[0].range.start == types.Position(line=0, character=0)
    deep = "game g { players 1..1 }\ndef f() = " + "[" * 5000 + "1" + "]" * 5000 + "\n"
    found = await _open(client, game.parent / "deep.game", deep)
    assert len(found) == 1 and "nested" in found[0].message
    huge = "# " + "x" * (4 * 1024 * 1024) + "\n"
    found = await _open(client, game.parent / "huge.game", huge)
    assert len(found) == 1 and "limit" in found[0].message
    assert _messages(await _open(client, game, MAIN)) == MAIN_WARNINGS


def _frame(message: dict | bytes) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_malformed_messages():
    """Bytes that are not JSON, a request with wrong parameters and an unknown method:
    the server answers the well-formed ones (an error for the bad request) and stays up
    until it is told to exit."""
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    bad_hover = {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"position": "here"}}
    unknown = {"jsonrpc": "2.0", "id": 3, "method": "gamedef/nothing", "params": {}}
    shutdown = {"jsonrpc": "2.0", "id": 4, "method": "shutdown"}
    stream = b"".join(
        [
            _frame(b"{this is not json"),
            _frame(init),
            _frame(bad_hover),
            _frame(unknown),
            _frame(shutdown),
            _frame({"jsonrpc": "2.0", "method": "exit"}),
        ]
    )
    done = subprocess.run(SERVER, input=stream, capture_output=True, env=ENV, timeout=60)
    replies = {}
    out = done.stdout
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        size = next(int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length"))
        reply = json.loads(rest[:size])
        out = rest[size:]
        if "id" in reply:
            replies[reply["id"]] = reply
    assert "capabilities" in replies[1]["result"]
    assert replies[1]["result"]["capabilities"]["hoverProvider"]
    assert "error" in replies[2]
    assert "error" in replies[3]
    assert replies[4]["result"] is None
    assert done.returncode == 0  # it ran until `exit`, after `shutdown`


def test_missing_extra_is_a_clear_message(monkeypatch, capsys):
    """Without the optional libraries, `gamedef lsp` says which extra to install (exit 2)."""
    from interpreter.cli import main

    for name in [m for m in sys.modules if m == "pygls" or m.startswith("pygls.")] or ["pygls"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed (submodules too)
    monkeypatch.delitem(sys.modules, "interpreter.lsp.server", raising=False)
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert "pygls is not installed" in err and "gamedef[lsp]" in err
    assert "Traceback" not in err


def test_highlighting_grammar_knows_every_keyword():
    """The TextMate grammar highlights each keyword of the language's grammar (a word
    the grammar gains without a highlighting rule fails here), and the VS Code manifest
    names files that exist."""
    from interpreter.lsp.analysis import keywords

    editors = ROOT / "editors"
    grammar = json.loads((editors / "gamedef.tmLanguage.json").read_text())
    patterns = [p["match"] for p in grammar["repository"]["keywords"]["patterns"]]
    patterns.append(grammar["repository"]["citation"]["match"].split(r"\s")[0])
    missing = [k for k in keywords() if not any(re.fullmatch(p, k) for p in patterns)]
    assert missing == []
    assert not re.fullmatch(patterns[0], "cardinal")  # whole words only
    manifest = json.loads((editors / "package.json").read_text())
    for g in manifest["contributes"]["grammars"]:
        assert (editors / g["path"]).is_file() and g["scopeName"] == grammar["scopeName"]
    assert (editors / manifest["main"]).is_file()
    assert (editors / manifest["contributes"]["languages"][0]["configuration"]).is_file()


@pytest.mark.asyncio(loop_scope="module")
async def test_compile_errors_on_open(client: LanguageClient, tmp_path: Path):
    """What only compiling finds (as `gamedef check` reports it: here a grid of no
    columns) is published on open, after the checker's first answer."""
    text = 'game g { players 1..1 }\ngrid Cell 0 by 3\nprocedure play() {\n    rule "G 1"\n    game over players\n}\n'
    path = tmp_path / "grid.game"
    path.write_text(text)
    assert await _open(client, path, text) == []  # the checker's answer
    found = await _eventually(client, path.as_uri(), lambda found: len(found) > 0)
    assert len(found) == 1 and "positive number of columns" in found[0].message
    assert found[0].range.start == _at(text, "grid Cell")


@pytest.mark.asyncio(loop_scope="module")
async def test_card_set_checked_in_its_game(client: LanguageClient, game: Path):
    """A card set (no game of its own) is checked as part of the game that includes it:
    the designer's own folder, and a bundled card set of The Wall is Down."""
    cards = game.parent / "cards.game"
    broken = CARDS.replace("power 2", "power 2 + sprak")
    found = await _open(client, cards, broken)
    assert [(d.range.start, d.message.split(chr(10))[0]) for d in found] == [
        (_at(broken, "sprak"), "unknown name 'sprak'")
    ]
    path = ROOT / "cards" / "twid" / "pre_1.game"
    text = path.read_text()
    typo = text.replace("remove_influence(", "remove_influense(", 1)
    found = await _open(client, path, typo)
    assert [(d.range.start, d.message.split(chr(10))[0]) for d in found] == [
        (_at(typo, "remove_influense"), "unknown procedure 'remove_influense'")
    ]
    assert "did you mean 'remove_influence'?" in found[0].message


@pytest.mark.asyncio(loop_scope="module")
async def test_file_building_on_a_bundled_game(client: LanguageClient):
    """The house-rules example includes The Wall is Down: it checks clean, a country
    (a row of the game's table) shows its title and properties from the table, and a
    procedure of the included game is found in it. The values shown are the countries
    table's (the map's data: Czech Republic-Slovakia, in Europe, of stability 3, the
    stability 6.2.1 Operations makes an influence cost)."""
    path = ROOT / "examples" / "twid_house_rules.game"
    text = path.read_text()
    assert await _open(client, path, text) == []
    uri = path.as_uri()
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=_at(text, "czech_republic_slovakia, 1")
        )
    )
    value = result.contents.value
    assert '"Czech Republic-Slovakia"' in value and "stability = `3`" in value
    assert 'region = `europe` "Europe"' in value  # the member the cell names, with its title
    assert "countries.tsv" in value
    assert "House card 89 Velvet Revolution" in value  # the rule the card's effect cites
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=_at(text, "gain_vp"))
    )
    twid = (ROOT / "gamedefs" / "twid.game").resolve()
    assert [f.uri for f in found] == [twid.as_uri()]
    assert twid.read_text().splitlines()[found[0].range.start.line].startswith("procedure gain_vp(")


def test_variants_checked_and_outlined(tmp_path: Path):
    """Each variant is checked, as `gamedef check` does: an error only a variant has is
    reported as check reports it; the outline shows what the variant replaces, and a
    hover inside it shows the rule the variant cites."""
    from interpreter.lsp import analysis as A

    text = (
        "game g { players 1..1 }\ndef goal() = 3\n"
        'variant short "Short" {\n    rule "House rule: shorter"\n    replace def goal() = gaol + 1\n}\n'
        'procedure play() {\n    rule "G 1"\n    let n = goal()\n    game over players\n}\n'
    )
    found = A.analyse(str(tmp_path / "v.game"), text)
    errors = [d for d in found.diagnostics if d.severity == "error"]
    assert [(d.span.line, d.span.column, d.message, d.hint) for d in errors] == [
        (5, 26, "unknown name 'gaol'", "did you mean 'goal'?")
    ]
    outline = {o.name: o for o in A.outline(found)}
    assert [(c.name, c.detail) for c in outline["short"].children] == [("goal", "replace def goal()")]
    assert outline["short"].extent == (3, 1, 6, 2)
    assert A.hover(found, text, 5, 27) == "rule § House rule: shorter"
    assert "rule § G 1" in A.hover(found, text, 9, 9)  # `n`, in play()
    assert "let n: int = goal()" in A.hover(found, text, 9, 9)  # the type the checker found
    assert "def goal(): int" in A.hover(found, text, 2, 5)


def test_positions_in_utf16():
    """The protocol counts UTF-16 units; the language counts characters: a character
    outside the Basic Multilingual Plane is two units before a name."""
    from interpreter.lsp.server import from_position, to_position

    text = 'log "🂡 {x}" y\n'
    column = text.index("y") + 1
    position = to_position(text, 1, column)
    assert position == types.Position(line=0, character=column)  # one more unit than characters before it
    assert from_position(text, position) == (1, column)


def test_a_def_named_like_a_procedure_shows_its_own_type(tmp_path: Path):
    """Hover on a def shows its result type, never the locals of a procedure that has
    the same name (the language keeps defs and procedures apart)."""
    from interpreter.lsp import analysis as A

    text = (
        "game g { players 1..1 }\ndef turn(p: player) = 3\n"
        'procedure turn(p: player) {\n    rule "T"\n    let c = 2\n}\n'
        'procedure play() {\n    rule "G 1"\n    let n = turn(players[0])\n    game over players\n}\n'
    )
    found = A.analyse(str(tmp_path / "d.game"), text)
    shown = A.hover(found, text, 2, 5)
    assert "def turn(p: player): int" in shown and "'c'" not in shown


def test_test_blocks_are_checked_like_code(tmp_path: Path):
    """A test file is code: a misspelt name inside a `test` block is a diagnostic at its
    line, also in a test that plays a variant (once the game's own rules are clean: as
    `gamedef check`, the first of the game and its variants that has errors gives them), and
    a helper only the tests call is not "never called"."""
    from interpreter.lsp import analysis as A

    (tmp_path / "g.game").write_text(
        'game g { players 1..1 }\nvar score: int = 0\nvariant v "V" {\n    rule "House rule: V"\n'
        '    var bonus: int = 1\n}\nprocedure play() {\n    rule "G 1"\n    game over players\n}\n'
    )
    text = (
        'include "g.game"\nprocedure helper() {\n    rule "Test position"\n    score = 2\n}\n'
        "test t {\n    arrange { helper() }\n    expect scroe == 2\n}\n"
        "test u {\n    variant v\n    expect bonsu == 1\n}\n"
    )
    found = A.analyse(str(tmp_path / "g.test.game"), text)
    assert [(d.span.line, d.span.column, d.message, d.severity) for d in found.diagnostics] == [
        (8, 12, "unknown name 'scroe'", "error"),
    ]
    fixed = text.replace("scroe", "score")
    found = A.analyse(str(tmp_path / "g.test.game"), fixed)
    assert [(d.span.line, d.span.column, d.message, d.severity) for d in found.diagnostics] == [
        (12, 12, "unknown name 'bonsu'", "error"),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_games_own_check_is_published_before_its_variants(client: LanguageClient, tmp_path: Path):
    """An edit to a game with a variant: the game's own check is told first (here it is
    clean: the server publishes that at once), then, with the variant checked too, what
    `gamedef check` reports: the error only the variant has, which the server publishes."""
    from interpreter.lsp import analysis as A

    text = (
        'game g { players 1..1 }\ndef goal() = 3\nvariant short "Short" {\n    rule "House rule: shorter"\n'
        "    replace def goal() = 2\n}\n"
        'procedure play() {\n    rule "G 1"\n    log "{goal()}"\n    game over players\n}\n'
    )
    path = tmp_path / "v.game"
    path.write_text(text)
    broken = text.replace("replace def goal() = 2", "replace def goal() = gaol")
    told: list[list[str]] = []
    final = A.analyse(str(path), broken, lambda found: told.append([d.message for d in found.diagnostics]))
    assert told == [[]]
    assert [d.message for d in final.diagnostics] == ["unknown name 'gaol'"]
    assert await _open(client, path, text) == []
    uri = path.as_uri()
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=broken)],
        )
    )
    found = await _eventually(client, uri, lambda found: len(found) > 0)
    assert [d.message.split("\n")[0] for d in found] == ["unknown name 'gaol'"]
