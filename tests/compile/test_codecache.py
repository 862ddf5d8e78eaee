"""The cache of compiled code (interpreter/compile/codecache.py): a later load compiles nothing it
has compiled before, and a cache file that is damaged, foreign or turned off changes nothing.

These are the loads the whole-game cache (interpreter/compile/gamecache.py, tests/compile/test_gamecache.py)
misses: a game's files changed, or a new interpreter. Its entries are not read here."""

from __future__ import annotations

import ast
import os
import textwrap

import pytest

from interpreter import load_game
from interpreter.compile import codecache, gamecache

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
        total += n * STEP
    }
    game over [p1]
}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv("GAMEDEF_CACHE", str(where))
    monkeypatch.setattr(codecache, "_codes", {})  # as a new process
    monkeypatch.setattr(gamecache, "load", lambda *args: None)  # a miss of the whole-game cache ...
    monkeypatch.setattr(gamecache, "load_same", lambda *args: None)  # ... by path and by the rules
    return where


def write(tmp_path, step: int = 1):
    path = tmp_path / "counter.game"
    path.write_text(textwrap.dedent(GAME.replace("STEP", str(step))), encoding="utf-8")
    return path


def play_all_threes(game) -> int:
    state = game.start(players=1, seed=1)
    while state.result is None:
        state = game.apply(state, "add 3")
    return game.observation(state, "p1")["vars"]["total"]


def compiles(monkeypatch) -> list[str]:
    """The module trees Python compiles from now on, as Python would write them."""
    made: list[str] = []
    real = compile

    def counting(tree, name, mode):
        made.append(ast.unparse(tree))
        return real(tree, name, mode)

    monkeypatch.setattr(codecache, "compile", counting, raising=False)
    return made


def test_a_second_load_in_a_new_process_compiles_nothing(tmp_path, cache, monkeypatch):
    path = write(tmp_path)
    assert play_all_threes(load_game(path)) == 12
    assert sorted(f.suffix for f in cache.iterdir()) == [".codes", ".game", ".same", ".tree"]
    assert oct(cache.stat().st_mode & 0o777) == "0o700"  # the user's alone
    monkeypatch.setattr(codecache, "_codes", {})
    made = compiles(monkeypatch)
    assert play_all_threes(load_game(path)) == 12
    assert made == []


def test_a_changed_game_is_compiled_from_its_new_text(tmp_path, cache, monkeypatch):
    assert play_all_threes(load_game(write(tmp_path, step=1))) == 12
    monkeypatch.setattr(codecache, "_codes", {})
    made = compiles(monkeypatch)
    assert play_all_threes(load_game(write(tmp_path, step=2))) == 12  # 6 then 12: two turns
    assert any("* 2" in text for text in made)


def test_after_an_edit_only_the_trees_it_changed_are_compiled(tmp_path, cache, monkeypatch):
    """The file is the game's (by name, variants and options), not the rules' digest: in a
    new process after an edit, the code of every tree the edit left alone is read back."""
    path = write(tmp_path, step=1)
    monkeypatch.setattr(codecache, "_codes", {})
    first = compiles(monkeypatch)
    assert play_all_threes(load_game(path)) == 12
    write(tmp_path, step=2)
    monkeypatch.setattr(codecache, "_codes", {})
    made = compiles(monkeypatch)
    assert play_all_threes(load_game(path)) == 12  # 6 + 6: the edited rule
    assert made and len(made) < len(first)
    assert all("2" in text for text in made)  # only what holds the edited step


@pytest.mark.parametrize("damage", ["truncated", "not marshal", "wrong shape", "writable by others"])
def test_a_damaged_or_foreign_cache_file_is_ignored(tmp_path, cache, monkeypatch, damage):
    path = write(tmp_path)
    load_game(path)
    (file,) = cache.glob("*.codes")
    data = file.read_bytes()
    if damage == "truncated":
        file.write_bytes(data[: len(data) // 2])
    elif damage == "not marshal":
        file.write_bytes(b"\x00not a cache" * 10)
    elif damage == "wrong shape":
        import marshal

        file.write_bytes(marshal.dumps({("x", "y"): 3, "key": compile("1", "x", "exec")}))
    else:
        os.chmod(file, 0o666)
    monkeypatch.setattr(codecache, "_codes", {})
    made = compiles(monkeypatch)
    assert play_all_threes(load_game(path)) == 12
    assert made  # compiled again rather than read


def test_turned_off_it_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(codecache, "_codes", {})
    assert play_all_threes(load_game(write(tmp_path))) == 12
    assert not (tmp_path / "xdg").exists()


def test_a_parsed_file_is_read_back_and_a_pickle_of_anything_else_is_never_run(tmp_path, cache, monkeypatch):
    import pickle

    from interpreter.language import parser

    path = write(tmp_path)
    load_game(path)
    (tree,) = cache.glob("*.tree")
    parser._parse_cached.cache_clear()
    parsed: list[str] = []
    real = parser.parse_text
    monkeypatch.setattr(parser, "parse_text", lambda text, p: parsed.append(p) or real(text, p))
    assert play_all_threes(load_game(path)) == 12
    assert parsed == []  # the tree came from the cache

    class Boom:
        def __reduce__(self):
            return (os.system, ("echo hacked > " + str(tmp_path / "hacked"),))

    tree.write_bytes(pickle.dumps(Boom()))
    parser._parse_cached.cache_clear()
    assert play_all_threes(load_game(path)) == 12
    assert parsed == [str(path)] and not (tmp_path / "hacked").exists()
