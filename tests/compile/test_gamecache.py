"""The whole-game cache (interpreter/compile/gamecache.py): a second load of the same files reads
the compiled game back and plays exactly as the compiled one; a changed file, another
variant or option, a damaged or foreign entry, or a file moved out of the game's folder
is a miss, never a wrong game and never a call the entry names."""

from __future__ import annotations

import io
import marshal
import os
import pickle
import random
import textwrap

import pytest

import interpreter
from interpreter import load_game
from interpreter.compile import gamecache
from interpreter.core import cache as cache_dir
from interpreter.runtime import load

MAIN = """
game counter "Counter" {
    players 1..1
    seats [p1]
}
include "rules.game"
option goal: int = 10 choices [10, 20] "the total to reach"
var total: int = 0
procedure play() {
    rule "Play: add until the goal"
    while total < goal {
        choose n from [1, 2, 3] by p1 label "add {n}"
        total += n * step()
    }
    game over [p1]
}
variant doubled "Doubled" {
    replace def step() = 2
}
"""
RULES = "def step() = {step}\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv("GAMEDEF_CACHE", str(where))
    return where


@pytest.fixture
def compiles(monkeypatch) -> list[str]:
    """The games parsed and compiled from their files from now on (the misses)."""
    made: list[str] = []
    real = load.load_program
    monkeypatch.setattr(load, "load_program", lambda path, variants: made.append(path.name) or real(path, variants))
    return made


def write(tmp_path, step: int = 1):
    folder = tmp_path / "game"
    folder.mkdir(exist_ok=True)
    (folder / "counter.game").write_text(textwrap.dedent(MAIN), encoding="utf-8")
    (folder / "rules.game").write_text(RULES.format(step=step), encoding="utf-8")
    return folder / "counter.game"


def turns(game) -> int:
    """Decisions to reach the goal adding 3 each time."""
    state = game.start(players=1, seed=1)
    while state.result is None:
        state = game.apply(state, "add 3")
    return state.decisions


def test_a_second_load_reads_the_compiled_game_back(tmp_path, cache, compiles):
    path = write(tmp_path)
    assert turns(load_game(path)) == 4
    assert compiles == ["counter.game"]
    assert [f.suffix for f in cache.glob("*.game")] == [".game"]
    assert oct(next(cache.glob("*.game")).stat().st_mode & 0o777) == "0o600"
    game = load_game(path)
    assert compiles == ["counter.game"]  # read back: nothing parsed or compiled
    assert turns(game) == 4
    assert game.compiled.program.header.title == "Counter"  # the whole game, its syntax tree too


@pytest.mark.parametrize(("name", "players"), [("berlin_wall", 3), ("walls_and_wonders", 4), ("missiles_now", 4)])
def test_a_bundled_game_read_back_plays_exactly_as_compiled(cache, compiles, name, players):
    first = load_game(name)
    again = load_game(name)
    assert len(compiles) == 1
    assert again.compiled is not first.compiled
    for seed in (1, 2):
        a = first.playout(first.start(players=players, seed=seed), random.Random(seed).randrange)
        b = again.playout(again.start(players=players, seed=seed), random.Random(seed).randrange)
        assert a == b and a.result is not None
        assert first.narrate(a) == again.narrate(b)


def test_a_changed_included_file_is_a_miss(tmp_path, cache, compiles):
    path = write(tmp_path, step=1)
    assert turns(load_game(path)) == 4
    write(tmp_path, step=2)
    assert turns(load_game(path)) == 2  # 6, then 12: the new rule, not the kept one
    assert compiles == ["counter.game", "counter.game"]
    assert turns(load_game(path)) == 2 and len(compiles) == 2  # and kept in turn


def test_variants_and_options_are_kept_apart(tmp_path, cache, compiles):
    path = write(tmp_path)
    assert turns(load_game(path, variants=["doubled"])) == 2
    assert turns(load_game(path, options={"goal": 20})) == 7
    assert turns(load_game(path)) == 4
    assert len(compiles) == 3
    assert turns(load_game(path, variants=["doubled"])) == 2
    assert turns(load_game(path, options={"goal": 20})) == 7
    assert len(compiles) == 3 and len(list(cache.glob("*.game"))) == 3


@pytest.mark.parametrize("damage", ["truncated", "not marshal", "wrong shape", "writable by others"])
def test_a_damaged_entry_is_a_miss(tmp_path, cache, compiles, damage):
    path = write(tmp_path)
    load_game(path)
    (entry,) = cache.glob("*.game")
    data = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "not marshal":
        entry.write_bytes(b"\x00not an entry" * 10)
    elif damage == "wrong shape":
        entry.write_bytes(marshal.dumps((gamecache.FORMAT, gamecache.FORMAT_VERSION, (), [], b"not a pickle")))
    else:
        os.chmod(entry, 0o666)
    assert turns(load_game(path)) == 4
    assert len(compiles) == 2


def test_a_symlinked_entry_is_a_miss(tmp_path, cache, compiles):
    """An entry that is a link to a file elsewhere (in a folder anyone may write) is not
    read, although the file it points to has the right owner and mode: the link's own
    folder is not what would be read."""
    path = write(tmp_path)
    load_game(path)
    (entry,) = cache.glob("*.game")
    elsewhere = tmp_path / "shared"
    elsewhere.mkdir()
    os.chmod(elsewhere, 0o777)
    real = elsewhere / entry.name
    entry.rename(real)
    entry.symlink_to(real)
    assert oct(real.stat().st_mode & 0o777) == "0o600"
    assert not cache_dir.trusted(entry) and cache_dir.read_trusted(entry) is None
    assert turns(load_game(path)) == 4
    assert len(compiles) == 2


def test_a_file_in_a_folder_others_may_write_is_not_trusted(tmp_path):
    folder = tmp_path / "open"
    folder.mkdir()
    (folder / "x.game").write_bytes(b"data")
    os.chmod(folder / "x.game", 0o600)
    assert cache_dir.read_trusted(folder / "x.game") == b"data" and cache_dir.trusted(folder / "x.game")
    os.chmod(folder, 0o777)
    assert cache_dir.read_trusted(folder / "x.game") is None and not cache_dir.trusted(folder / "x.game")


def test_an_entry_naming_anything_else_is_never_run(tmp_path, cache, compiles):
    path = write(tmp_path)
    load_game(path)
    (entry,) = cache.glob("*.game")
    files = marshal.loads(entry.read_bytes())[2]  # the files' digests still match

    class Boom:
        def __reduce__(self):
            return (os.system, ("echo hacked > " + str(tmp_path / "hacked"),))

    entry.write_bytes(marshal.dumps((gamecache.FORMAT, gamecache.FORMAT_VERSION, files, [], pickle.dumps(Boom()))))
    assert turns(load_game(path)) == 4
    assert len(compiles) == 2 and not (tmp_path / "hacked").exists()


@pytest.mark.parametrize(
    "blob",
    [
        b"cinterpreter.sources\nos\n.",  # a module the interpreter imports, not one of its own
        # getattr(getattr(Game, "apply"), "__globals__"): a function's globals
        b"cbuiltins\ngetattr\n(cbuiltins\ngetattr\n(cinterpreter.runtime.engine\nGame\nS'apply'\ntRS'__globals__'\ntR.",
        b"cbuiltins\neval\n(S'1'\ntR.",
    ],
    ids=["an imported module", "a function's globals", "eval"],
)
def test_an_entry_reaching_past_the_interpreters_objects_is_a_miss(tmp_path, cache, compiles, blob):
    path = write(tmp_path)
    load_game(path)
    (entry,) = cache.glob("*.game")
    files = marshal.loads(entry.read_bytes())[2]
    with pytest.raises(pickle.UnpicklingError, match="not allowed"):
        gamecache._Unpickler(io.BytesIO(blob), []).load()
    entry.write_bytes(marshal.dumps((gamecache.FORMAT, gamecache.FORMAT_VERSION, files, [], blob)))
    assert turns(load_game(path)) == 4
    assert len(compiles) == 2


def test_an_included_file_now_linking_out_of_the_folder_is_a_miss(tmp_path, cache, compiles):
    path = write(tmp_path)
    load_game(path)
    outside = tmp_path / "elsewhere.game"
    outside.write_text(RULES.format(step=1), encoding="utf-8")  # the same text, outside the game's folder
    rules = path.parent / "rules.game"
    rules.unlink()
    rules.symlink_to(outside)
    with pytest.raises(interpreter.GameDefError, match="leaves the game's folder"):
        load_game(path)
    assert len(compiles) == 2  # not read back from the entry: loaded, and refused


def test_turned_off_it_writes_nothing(tmp_path, monkeypatch, compiles):
    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = write(tmp_path)
    assert turns(load_game(path)) == 4 and turns(load_game(path)) == 4
    assert len(compiles) == 2 and not (tmp_path / "xdg").exists()


def test_functions_that_share_a_closure_cell_share_it_after_a_load():
    source = """
def counter():
    count = 0

    def add():
        nonlocal count
        count += 1
        return count

    def read():
        return count

    return add, read
"""
    namespace: dict = {}  # as a game's generated code: globals of plain data
    exec(source, namespace)  # noqa: S102
    buffer = io.BytesIO()
    pickler = gamecache._Pickler(buffer)
    pickler.dump(namespace["counter"]())
    add, read = gamecache._Unpickler(io.BytesIO(buffer.getvalue()), pickler.codes).load()
    assert add() == 1 and add() == 2
    assert read() == 2  # one cell, as before


HOUSE = 'include "counter.game"\n\nvariant tripled "Tripled" {\n    replace def step() = STEP\n}\n'


@pytest.fixture
def compiled_anew(monkeypatch) -> list[str]:
    """The games compiled from now on (not found in the cache by path or by their rules)."""
    made: list[str] = []
    real = load.compile_game
    monkeypatch.setattr(
        load, "compile_game", lambda program, *a, **k: made.append(program.header.name) or real(program, *a, **k)
    )
    return made


def house(tmp_path, step: int):
    path = tmp_path / "game" / "house.game"
    path.write_text(HOUSE.replace("STEP", str(step)), encoding="utf-8")
    return path


def test_the_same_rules_by_another_file_are_compiled_once(tmp_path, cache, compiled_anew):
    """A file that includes the game and changes nothing outside its variants is, with no
    variant, the game itself: its load finds the game's entry by its rules and hands it back
    with its own program (its own file's text beside the game's)."""
    game_path = write(tmp_path)
    assert turns(load_game(game_path)) == 4 and len(compiled_anew) == 1
    path = house(tmp_path, 3)
    game = load_game(path)
    assert len(compiled_anew) == 1  # not compiled again
    assert turns(game) == 4
    assert str(path.resolve()) in game.compiled.program.sources
    assert "tripled" in game.compiled.program.all_variants  # this file's program, not the game's
    assert game.compiled.program.sources[str(path.resolve())].startswith('include "counter.game"')


def test_an_edited_variant_gives_its_new_rules_and_the_rest_is_not_compiled_again(tmp_path, cache, compiled_anew):
    """The designer's loop: an edit to a variant's rule is the new rule at once; the same
    file without the variant keeps its compiled game."""
    write(tmp_path)
    path = house(tmp_path, 3)
    assert turns(load_game(path)) == 4
    assert turns(load_game(path, variants=["tripled"])) == 2  # 9, then 18
    assert len(compiled_anew) == 2
    house(tmp_path, 5)
    assert turns(load_game(path, variants=["tripled"])) == 1  # 15: the edited rule, not the kept one
    assert turns(load_game(path)) == 4
    assert len(compiled_anew) == 3  # only the edited variant compiled again
    house(tmp_path, 3)
    assert turns(load_game(path, variants=["tripled"])) == 2  # the earlier rule again: its entry was written over
    assert len(compiled_anew) == 4


def test_an_edited_included_file_is_not_served_stale_by_its_rules(tmp_path, cache, compiled_anew):
    """The index finds a game by its rules, so an included file edited under it is other
    rules: compiled again, whichever file includes it."""
    game_path = write(tmp_path, step=1)
    path = house(tmp_path, 3)
    assert turns(load_game(game_path)) == 4
    assert turns(load_game(path)) == 4
    write(tmp_path, step=2)
    assert turns(load_game(path)) == 2  # 6, then 12
    assert turns(load_game(game_path)) == 2  # found by its rules: the same rules as the house file's now
    assert len(compiled_anew) == 2


def test_an_index_whose_entry_was_written_again_is_a_miss(tmp_path, cache, compiled_anew):
    """The index holds the digest of its entry's bytes: an entry written since for other
    rules (or damaged) is not read for these."""
    path = write(tmp_path)
    load_game(path)
    (index,) = cache.glob("*.same")
    (entry,) = cache.glob("*.game")
    entry.write_bytes(entry.read_bytes() + b"\0")
    os.chmod(entry, 0o600)
    assert turns(load_game(house(tmp_path, 3))) == 4
    assert len(compiled_anew) == 2 and index.exists()


HOUSE_TESTS = """include "house.game"

test plain "Without a variant, each turn adds 3" {
    rule "Play: add until the goal"
    players 1
    play "add 3"
    expect total == 3
}

test tripled "Tripled, each turn adds 3 times the step" {
    rule "Play: add until the goal"
    players 1
    variant tripled
    play "add 3"
    expect total == 9
}
"""


def test_a_designers_tests_of_a_variant_an_edit_left_alone_are_not_compiled_again(tmp_path, cache, monkeypatch):
    """`gamedef test` after an edit to one variant: the tests of the other variants (here, of
    none) are the same rules with the same tests, found by their rules; the edited variant's
    tests run against its new rule."""
    from interpreter.runtime import designer_tests

    made: list[tuple[str, ...]] = []
    real = designer_tests.compile_game
    monkeypatch.setattr(
        designer_tests,
        "compile_game",
        lambda program, *a, **k: made.append(tuple(v.name for v in program.variants)) or real(program, *a, **k),
    )
    write(tmp_path)
    house(tmp_path, 3)
    tests = tmp_path / "game" / "house.test.game"
    tests.write_text(HOUSE_TESTS, encoding="utf-8")
    assert [o.passed for o in designer_tests.run_tests(tests)] == [True, True]
    assert sorted(made) == [(), ("tripled",)]
    house(tmp_path, 5)  # the edit: 5 in place of 3, on the same line
    outcomes = designer_tests.run_tests(tests)
    assert [o.passed for o in outcomes] == [True, False]  # 15, not 9: the edited rule
    assert sorted(made) == [(), ("tripled",), ("tripled",)]  # the tests of no variant: not compiled again


def test_a_program_already_checked_is_not_read_or_checked_again_on_a_miss(tmp_path, cache, compiles, monkeypatch):
    """`gamedef check` reads and checks each variant's program, then loads its game: given
    that program and the check's symbol table, a miss compiles it without reading or
    checking it a second time (the compiler reads the table it was given)."""
    from interpreter.check.checker import Checker, check_game
    from interpreter.language.program import load_program

    path = write(tmp_path)
    program = load_program(path, ["doubled"])
    symbols = check_game(program)[0]
    checked: list[int] = []
    monkeypatch.setattr(load, "check_game", lambda program: checked.append(1))
    monkeypatch.setattr(Checker, "run", lambda self: checked.append(1) or [])
    assert turns(load_game(path, variants=["doubled"], checked=program, symbols=symbols)) == 2
    assert compiles == [] and checked == []
    assert turns(load_game(path, variants=["doubled"])) == 2  # kept by path as any load
    assert compiles == [] and checked == []


def test_the_rules_digest_is_the_same_for_a_tree_parsed_and_a_tree_read_back(tmp_path, cache):
    """A fresh parse and the tree read back from the tree cache share equal objects
    differently; the digest depends on the values alone, so a file parsed afresh after an
    edit (its included game read back) finds the entry its variants' rules had."""
    from interpreter.language import parser
    from interpreter.language.program import load_program

    path = write(tmp_path)
    parser._parse_cached.cache_clear()
    fresh = gamecache.rules_digest(load_program(path, ["doubled"]), {})
    parser._parse_cached.cache_clear()  # now from the tree cache's files
    again = gamecache.rules_digest(load_program(path, ["doubled"]), {})
    assert fresh is not None and fresh == again
    assert gamecache.rules_digest(load_program(path), {}) != fresh
    assert gamecache.rules_digest(load_program(path, ["doubled"]), {"goal": 20}) != fresh
