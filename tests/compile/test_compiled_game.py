"""The compiled game is a declared, versioned structure made of the passes' results, and
the compile a pipeline of passes whose signatures are their inputs and outputs
(interpreter/compile/compiled.py, compiler.py; docs/architecture.md, "The compiled game").

The structure's every field says its type and meaning; each pass takes records earlier
passes made and returns its own, and changes and reads only the tables of those; the game cache
holds the structure, never the compiler, and reads only its own format version."""

from __future__ import annotations

import copy
import gc
import inspect
import io
import marshal
import pickle
import textwrap
import typing
from typing import Any

import attrs
import pytest

from interpreter import load_game
from interpreter.compile import gamecache
from interpreter.compile.compiled import (
    FORMAT_VERSION,
    SECTIONS,
    CompiledGame,
    EstimateFunction,
    InvariantCheck,
    PayoffFunction,
    VarInfo,
    section_name,
)
from interpreter.compile.compiler import (
    INPUTS,
    PASSES,
    WORKING_STATE,
    Compiler,
    Pass,
    PassTables,
    _in_order,
    compile_game,
)
from interpreter.core import collector
from interpreter.language.program import load_program
from interpreter.runtime import load
from interpreter.runtime.load import bundled_games, find_game

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # Two more compiles of the largest games (The Wall is Down and the five others stay).
    r"test_every_bundled_game_compiles_to_a_structure_the_cache_can_keep\[(downfall_of_empires|twid_house_rules)\]",
]


RECORDS = [CompiledGame, VarInfo, *SECTIONS, PayoffFunction, EstimateFunction, InvariantCheck]


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__name__)
def test_every_field_of_the_compiled_game_has_a_type_and_a_meaning(cls):
    """A field without its meaning is an undocumented part of the cache's file format;
    that holds for the sections the compiled game is made of as for the game itself."""
    fields = attrs.fields(cls)
    assert fields
    for f in fields:
        meaning = f.metadata.get("meaning", "")
        assert f.type, f"{cls.__name__}.{f.name} has no type"
        assert meaning.strip() and "\n" not in meaning, f"{cls.__name__}.{f.name} has no one-line meaning"
    assert "__slots__" in cls.__dict__  # its fields and no others


def test_the_compiled_game_is_only_its_declared_fields():
    """Slots: a runtime module cannot hang an undeclared attribute on the game (the old
    object took any attribute, and every one became part of the file format); and a
    section, a pass's result, is frozen."""
    game = load_game("tictactoe").compiled
    assert type(game) is CompiledGame and game.format_version == FORMAT_VERSION
    with pytest.raises(AttributeError):
        game.something_new = 1  # type: ignore[attr-defined]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        game.variables.vars = {}  # type: ignore[misc]
    assert not any(isinstance(v, WORKING_STATE) for v in attrs.asdict(game, recurse=False).values())


# ---- the passes --------------------------------------------------------------------


def test_each_pass_takes_only_records_made_before_it_and_makes_one_section():
    """A pass's signature is its declaration: its parameters after `(compiler, decls)` are
    records earlier passes return, its return type is its own record, and the records the
    passes make are the compiled game's sections, each in the field named after it."""
    made: list[type] = []
    for step in PASSES:
        hints = typing.get_type_hints(step.run)
        params = list(inspect.signature(step.run).parameters)
        assert params[:2] == ["c", "decls"] and hints["c"] is Compiler, step.name
        assert step.takes == tuple(hints[p] for p in params[2:]) and step.makes is hints["return"], step.name
        assert all(cls in made for cls in step.takes), f"pass {step.name} takes a record made after it"
        assert attrs.has(step.makes) and step.makes.__setattr__ is not object.__setattr__  # a frozen record
        made.append(step.makes)
    assert tuple(made) == SECTIONS
    sections = {name: t for name, t in typing.get_type_hints(CompiledGame).items() if t in SECTIONS}
    assert sections == {section_name(cls): cls for cls in SECTIONS}
    assert list(sections) == [section_name(cls) for cls in made]  # in the passes' order
    with pytest.raises(TypeError, match="before a pass makes it"):
        _in_order(PASSES[1], PASSES[0], *PASSES[2:])


def test_the_compiled_game_is_made_of_the_passes_results():
    """Not copied field by field: each section is the very record its pass returned, and
    each table the runtime reads by name is a field of one section."""
    compiler = Compiler(load_program(find_game("kuhn_poker"), ()), {}).run()
    game = compiler.finish()
    assert set(compiler.results) == set(SECTIONS)
    for cls, record in compiler.results.items():
        assert getattr(game, section_name(cls)) is record
    fields = {(id(getattr(r, f.name)), f.name) for r in compiler.results.values() for f in attrs.fields(type(r))}
    names = [k for k, v in vars(CompiledGame).items() if isinstance(v, property)]
    assert len(names) >= 35
    for name in names:
        value = getattr(game, name)
        assert any(i == id(value) for i, _ in fields), f"CompiledGame.{name} is not a section's field"
    assert game.vars is compiler.tables.vars and game.procs["play"] is compiler.tables.procs["play"]


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


def _run_watched(program) -> tuple[Compiler, list[tuple[Pass, set[str], set[str], set[str]]]]:
    """The compiler, and each pass with the tables it changed (rebound, or a container's
    contents), the tables it read, and the tables still empty when it began. Every
    compiler shares the one `PassTables`; watching it sees every pass's reads and writes,
    whichever compiler makes them."""
    c = Compiler(program, {})
    t = c.tables
    t.__class__ = _Watched
    found = []
    for step in PASSES:
        before = {k: (id(v), _snapshot(v)) for k, v in vars(t).items() if not k.startswith("_")}
        empty = {k for k in _tables(t) if vars(t)[k] in ({}, [], set(), None)}
        t.__dict__["_read"] = set()
        t.__dict__["_reading"] = True
        c.results[step.makes] = step.run(c, program.decls, *(c.results[cls] for cls in step.takes))
        t.__dict__["_reading"] = False
        read = t.__dict__.pop("_read") & set(_tables(t))
        changed = {
            k
            for k in _tables(t)
            if k not in before or before[k][0] != id(vars(t)[k]) or before[k][1] != _snapshot(vars(t)[k])
        }
        found.append((step, changed, read, empty))
    return c, found


def _owners(c: Compiler) -> dict[str, type]:
    """The working table behind each field of a pass's record -> that record's class: the
    same dict or list, or for a number or flag, the field of the same name."""
    owners = {}
    for k in _tables(c.tables):
        value = vars(c.tables)[k]
        for cls, record in c.results.items():
            for f in attrs.fields(cls):
                if isinstance(value, dict | list | set) and getattr(record, f.name) is value or f.name == k:
                    owners[k] = cls
    return owners


@pytest.mark.parametrize("name", ["tictactoe", "kuhn_poker", "berlin_wall", "missiles_now"])
def test_each_pass_changes_and_reads_only_the_tables_of_the_records_it_takes_and_makes(name):
    """The signature is not only a declaration: a pass, and every compiler it drives,
    changes only the tables of its own record and of the records it takes (the defs'
    functions, the queries' modifiers), and reads only those (the expression compiler looks
    a name up in every table of names, so a pass that compiles an expression reads tables
    later passes fill: it may, while they are still empty, and finds no name there; the
    checker allows only what is known by then). Tables no record holds (`claimed`, `ns`,
    `rt`, the queries' declarations and guards...) are the compilers' working state. A pass
    reaching into a record it does not take, or passes run in the wrong order, fail here
    rather than as a game that quietly plays differently."""
    c, found = _run_watched(load_program(find_game(name), ()))
    owners = _owners(c)
    assert {"types", "vars", "procs", "fields", "defs", "queries", "choices", "options"} <= set(owners)
    for step, changed, read, empty in found:
        allowed = {step.makes, *step.takes}
        wrote = {k: owners[k].__name__ for k in changed if k in owners and owners[k] not in allowed}
        assert not wrote, f"pass {step.name} changes the tables of records it does not take: {wrote}"
        reached = {k: owners[k].__name__ for k in read - empty if k in owners and owners[k] not in allowed}
        assert not reached, f"pass {step.name} reads the tables of records it does not take: {reached}"


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


def test_the_compiler_is_freed_when_the_compile_ends():
    """Nothing of the compiler's working state is left in a cycle (a loop function no code
    called waits as a call of the compiler's own method): it is freed as `compile_game`
    returns, not left for Python's cycle collector, whose collection after The Wall is
    Down's compile walked about 100,000 such objects."""
    program = load_program(find_game("tictactoe"))
    gc.collect()
    gc.disable()
    try:
        game = compile_game(program)
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert type(game) is CompiledGame


def _oldest(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects(2))


def test_a_compiled_game_is_moved_to_the_collectors_oldest_generation(monkeypatch):
    """What the compile made is long-lived: it goes to the oldest generation at once, not
    walked by the young collection after the compile (0.1 s for The Wall is Down) and left
    out of the order it was made in (freeing it later 0.5 s rather than 0.2 s)."""
    program = load_program(find_game("tictactoe"))
    assert gc.isenabled() and not gc.get_freeze_count()
    monkeypatch.setattr(collector, "_moved", [0, -1])
    game = compile_game(program)
    assert _oldest(game.ns)


def test_games_compiled_and_dropped_over_and_over_are_collected(monkeypatch):
    """Objects moved to the oldest generation do not count towards its next collection,
    so at most `MAX_MOVED` are moved between two: past it a compile's objects age as any
    others, and a process compiling and dropping games does not grow."""
    program = load_program(find_game("tictactoe"))
    monkeypatch.setattr(collector, "_moved", [0, -1])
    first = compile_game(program)
    monkeypatch.setattr(collector, "MAX_MOVED", collector._moved[0] + 10)
    full = gc.get_stats()[-1]["collections"]
    second = compile_game(program)
    if gc.get_stats()[-1]["collections"] == full:  # (no full collection came in between)
        assert _oldest(first.ns) and not _oldest(second.ns)


def test_a_compile_leaves_objects_set_aside_by_the_process_alone():
    """A process that froze objects itself (the command line's) keeps them frozen:
    `gc.unfreeze` would give them back to the collector."""
    program = load_program(find_game("tictactoe"))
    aside = [program]
    gc.freeze()
    try:
        game = compile_game(program)
        assert not any(o is aside for o in gc.get_objects()) and not _oldest(game.ns)
    finally:
        gc.unfreeze()


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
