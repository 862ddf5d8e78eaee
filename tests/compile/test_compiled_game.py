"""The compiled game is a declared, versioned structure, and the compile a pipeline of
passes with declared inputs and outputs (interpreter/compile/compiled.py, compiler.py;
docs/architecture.md, "The compiled game").

The structure's every field says its type and meaning; the passes change only what they
say they produce and read only what the passes before them produced; the game cache
holds the structure, never the compiler, and reads only its own format version."""

from __future__ import annotations

import copy
import io
import marshal
import pickle
import re
import textwrap
from typing import Any

import attrs
import pytest

from interpreter import load_game
from interpreter.compile import gamecache
from interpreter.compile.compiled import FORMAT_VERSION, CompiledGame, VarInfo
from interpreter.compile.compiler import INPUTS, PASSES, WORKING_STATE, Compiler, Pass, PassTables, compile_game
from interpreter.language.program import load_program
from interpreter.runtime import load
from interpreter.runtime.load import bundled_games, find_game

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # Two more compiles of the largest games (The Wall is Down and the five others stay).
    r"test_every_bundled_game_compiles_to_a_structure_the_cache_can_keep\[(downfall_of_empires|twid_house_rules)\]",
]


@pytest.mark.parametrize("cls", [CompiledGame, VarInfo])
def test_every_field_of_the_compiled_game_has_a_type_and_a_meaning(cls):
    """A field without its meaning is an undocumented part of the cache's file format."""
    fields = attrs.fields(cls)
    assert len(fields) >= (40 if cls is CompiledGame else 8)
    for f in fields:
        meaning = f.metadata.get("meaning", "")
        assert f.type, f"{cls.__name__}.{f.name} has no type"
        assert meaning.strip() and "\n" not in meaning, f"{cls.__name__}.{f.name} has no one-line meaning"
    assert "__slots__" in cls.__dict__  # its fields and no others


def test_the_compiled_game_is_only_its_declared_fields():
    """Slots: a runtime module cannot hang an undeclared attribute on the game (the old
    object took any attribute, and every one became part of the file format)."""
    game = load_game("tictactoe").compiled
    assert type(game) is CompiledGame and game.format_version == FORMAT_VERSION
    with pytest.raises(AttributeError):
        game.something_new = 1  # type: ignore[attr-defined]
    assert not any(isinstance(v, WORKING_STATE) for v in attrs.asdict(game, recurse=False).values())


# ---- the passes --------------------------------------------------------------------


def _tables(t: PassTables) -> list[str]:
    """The shared tables: the public attributes of `PassTables` that are not the inputs."""
    return [k for k in vars(t) if not k.startswith("_") and k not in INPUTS]


def _snapshot(value: Any) -> Any:
    if isinstance(value, dict | list | set):
        return copy.copy(value)
    if hasattr(value, "__dict__") and not callable(value):
        return {k: copy.copy(v) for k, v in vars(value).items()}
    return value


class _Watched(PassTables):
    """PassTables that note which of their attributes are read while `_reading` is on."""

    def __getattribute__(self, name: str) -> Any:
        own = object.__getattribute__(self, "__dict__")
        if own.get("_reading"):
            own["_read"].add(name)
        return object.__getattribute__(self, name)


def _run_watched(program) -> list[tuple[Pass, set[str], set[str], set[str]]]:
    """Each pass with the tables it changed (rebound, or a container's contents), the
    tables it read, and the tables still empty when it began. Every compiler shares the
    one `PassTables`; watching it sees every pass's reads and writes, whichever compiler
    makes them."""
    c = Compiler(program, {})
    t = c.tables
    t.__class__ = _Watched
    found = []
    for step in PASSES:
        before = {k: (id(v), _snapshot(v)) for k, v in vars(t).items() if not k.startswith("_")}
        empty = {k for k in _tables(t) if vars(t)[k] in ({}, [], set(), None)}
        t.__dict__["_read"] = set()
        t.__dict__["_reading"] = True
        step.run(c, program.decls)
        t.__dict__["_reading"] = False
        read = t.__dict__.pop("_read") & set(_tables(t))
        changed = {
            k
            for k in _tables(t)
            if k not in before or before[k][0] != id(vars(t)[k]) or before[k][1] != _snapshot(vars(t)[k])
        }
        found.append((step, changed, read, empty))
    return found


def test_the_compilers_share_only_the_tables():
    """Each compiler holds its own working state and the collaborators it was given;
    what they share is the one `PassTables`, and no compiler reaches another's state."""
    c = Compiler(load_program(find_game("tictactoe"), ()), {})
    parts = {
        "expressions": c.expressions,
        "modifiers": c.modifiers,
        "native": c.native,
        "statements": c.statements,
        "declarations": c.declarations,
    }
    for name, part in parts.items():
        assert part.tables is c.tables, name
        shared = {k for k, v in vars(part).items() if k != "tables" and any(v is p for p in parts.values())}
        allowed = {
            "expressions": set(),
            "modifiers": {"expressions"},
            "native": {"expressions"},
            "declarations": {"expressions"},
        }
        assert shared == allowed.get(name, {"expressions", "native", "modifiers"}), name
        assert not set(vars(part)) & set(_tables(c.tables)), f"{name} keeps a table of its own"


@pytest.mark.parametrize("name", ["tictactoe", "kuhn_poker", "berlin_wall", "missiles_now"])
def test_each_pass_changes_only_what_it_declares_and_reads_what_was_made_before(name):
    """A pass's outputs are its `produces`, its inputs its `reads`, made by a pass before
    it. (The expression compiler looks a name up in every table of names, so a pass that
    compiles an expression reads tables later passes fill: it may, while they are still
    empty, and finds no name there; the checker allows only what is known by then.) A
    pass reaching into a table it does not declare, or passes run in the wrong order,
    fail here rather than as a game that quietly plays differently."""
    made: set[str] = set()
    for step, changed, read, empty in _run_watched(load_program(find_game(name), ())):
        assert changed <= set(step.produces), f"pass {step.name} also changes {sorted(changed - set(step.produces))}"
        undeclared = read - set(step.reads) - set(step.produces)
        assert not undeclared, f"pass {step.name} reads {sorted(undeclared)}"
        early = set(step.reads) - made - empty
        assert not early, f"pass {step.name} reads {sorted(early)} before a pass makes it"
        made |= set(step.produces)


def test_each_pass_says_what_it_reads_and_produces():
    """Each pass's docstring names what it reads and produces, as `Pass` declares them."""
    for step in PASSES:
        doc = " ".join((step.run.__doc__ or "").split())
        reads = re.search(r"Reads: (.*?)\.(?: |$)", doc)
        produces = re.search(r"Produces: (.*?)\.(?: |$)", doc)
        assert reads and produces, f"pass {step.name}: no `Reads:`/`Produces:` in its docstring"
        named = {n.strip("` ") for n in reads.group(1).split(",")} - {"nothing", "the declarations"}
        assert named == set(step.reads), f"pass {step.name} reads {sorted(step.reads)}, its docstring {sorted(named)}"
        named = {n.strip("` ") for n in produces.group(1).split(",")}
        assert named == set(step.produces), f"pass {step.name}: produces {step.produces} but says {sorted(named)}"


def test_options_only_runs_the_passes_as_far_as_the_options():
    game = compile_game(load_program(find_game("berlin_wall"), ()), {}, options_only=True)
    assert game.options and game.option_decls and game.procs == {} and game.codes == []
    assert all(name in game.option_choices for name in game.option_decls)


# ---- the cache ------------------------------------------------------------------------

GAME = """
game counter "Counter" {
    players 1..1
    seats [p1]
}
var total: int = 0
procedure play() {
    rule "Play: add until ten"
    while total < 10 {
        choose n from [1, 2, 3] by p1 label "add {n}"
        total += n
    }
    game over [p1]
}
"""


@pytest.fixture
def counter(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEDEF_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "counter.game"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    made: list[str] = []
    real = load.load_program
    monkeypatch.setattr(load, "load_program", lambda p, v: made.append(p.name) or real(p, v))
    return path, tmp_path / "cache", made


def test_the_cache_holds_the_compiled_game_not_the_compiler(counter):
    path, cache, made = counter
    load_game(path)
    game = load_game(path).compiled
    assert made == ["counter.game"] and type(game) is CompiledGame  # read back
    (entry,) = cache.glob("*.game")
    fmt, version, _files, _codes, blob = marshal.loads(entry.read_bytes())
    assert (fmt, version) == (gamecache.FORMAT, FORMAT_VERSION)
    assert b"Compiler" not in blob


def test_an_entry_of_another_format_version_is_a_miss(counter):
    """The version in the entry's header, and the one the pickled game records: either
    differing from this interpreter's `FORMAT_VERSION` means the entry is compiled again."""
    path, cache, made = counter
    load_game(path)
    (entry,) = cache.glob("*.game")
    fmt, version, files, codes, blob = marshal.loads(entry.read_bytes())
    entry.write_bytes(marshal.dumps((fmt, version + 1, files, codes, blob)))
    load_game(path)
    assert made == ["counter.game", "counter.game"]

    fmt, version, files, codes, blob = marshal.loads(entry.read_bytes())
    game = gamecache._Unpickler(io.BytesIO(blob), codes).load()
    older = attrs.evolve(game, format_version=FORMAT_VERSION - 1)
    buffer = io.BytesIO()
    pickler = gamecache._Pickler(buffer)
    pickler.dump(older)
    entry.write_bytes(marshal.dumps((fmt, version, files, pickler.codes, buffer.getvalue())))
    load_game(path)
    assert made == ["counter.game"] * 3


def test_the_compiler_is_never_stored_nor_built_from_an_entry(counter):
    """A step that held the compiler would pickle all of its working state into the
    file; the pickler refuses it (the game is then not cached), and the unpickler will
    not build the class."""
    path, _cache, _made = counter
    program = load_program(path, ())
    compiler = Compiler(program, {}).run()
    for part in (compiler, compiler.tables, compiler.expressions, compiler.statements, compiler.declarations):
        with pytest.raises(pickle.PicklingError, match="compiler"):
            gamecache._Pickler(io.BytesIO()).dump({"step": part})
    for cls in WORKING_STATE:
        blob = pickle.dumps(cls.__new__(cls), protocol=2)
        with pytest.raises(pickle.UnpicklingError, match="not allowed"):
            gamecache._Unpickler(io.BytesIO(blob), []).load()


@pytest.mark.parametrize("name", sorted(bundled_games()))
def test_every_bundled_game_compiles_to_a_structure_the_cache_can_keep(name):
    """The pickler refuses a compiled game that reaches the compiler (a step holding a
    bound method of it, say): such a game would quietly never be cached."""
    game = compile_game(load_program(find_game(name), ()), {})
    pickler = gamecache._Pickler(io.BytesIO())
    pickler.dump(game)
    assert pickler.codes  # its functions' code, kept beside the pickle
