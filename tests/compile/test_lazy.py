"""Generated functions lowered and compiled when first called (interpreter/compile/lazy.py).

A compile leaves loop functions and native blocks as their intermediate form behind a
stub; a stub's first call compiles it and puts the code in its own place. A game played
so must be the game compiled whole: the same moves offered, positions, lines logged and
results. The game cache keeps games compiled whole.
"""

from __future__ import annotations

import random
import textwrap
import threading
import types

import pytest

from interpreter import load_game
from interpreter.check.checker import check_game
from interpreter.compile import gamecache, lazy
from interpreter.compile.compiler import compile_game
from interpreter.core.errors import GameDefError, GameRuntimeError
from interpreter.language.program import load_program
from interpreter.runtime.game import Game
from interpreter.runtime.load import find_game

# The Wall is Down and Missiles, Now! compiled twice and played: slow (walls_and_wonders stays fast).
SLOW_CASES = [r"test_a_game_compiled_on_first_use_plays_as_the_game_compiled_whole\[(twid|missiles)"]


def _compiled(name: str, variants: tuple[str, ...] = ()) -> Game:
    program = load_program(find_game(name), variants)
    compiled = compile_game(program, symbols=check_game(program)[0])
    return Game(compiled, compiled.program.header.name, variants, {})


def _waiting(game: Game) -> dict[str, types.FunctionType]:
    return {k: f for k, f in game.compiled.ns.items() if type(f) is types.FunctionType and lazy.pending(f)}


def test_a_compile_leaves_loops_and_blocks_to_their_first_call():
    """After the compile, most loop functions, blocks, defs and expressions' functions
    wait; a game played compiles those it calls, each in its stub's place (the same
    function object, its own code now)."""
    game = _compiled("missiles_now")
    waiting = _waiting(game)
    kinds = {lazy.pending(f).kind for f in waiting.values()}
    assert {"loop", "block", "plain"} <= kinds and len(waiting) > 300
    assert any(key.startswith("_d_") for key in waiting) and any(key.startswith("_fx") for key in waiting)
    game.playout(game.start(players=2, seed=3), random.Random(3).randrange)
    compiled = {k: f for k, f in waiting.items() if lazy.pending(f) is None}
    assert compiled and len(compiled) < len(waiting)  # what the game ran, not the rest
    for key, f in compiled.items():
        assert f.__code__.co_filename != lazy.STUB_FILE and f.__defaults__ is None
        # a loop function or a def keeps its name; a block's or an expression's is let go
        # (a step table or the like holds it)
        assert game.compiled.ns.get(key) is (None if key.startswith(("_blk", "_fx")) else f)
    assert any(key.startswith("_blk") for key in compiled)
    assert any(key.startswith("_fx") for key in compiled)


@pytest.mark.parametrize(("name", "players"), [("walls_and_wonders", 2), ("missiles_now", 3), ("twid", 2), ("twid", 4)])
def test_a_game_compiled_on_first_use_plays_as_the_game_compiled_whole(name, players):
    """Random games, the same seeds, on a game compiled on first use and on one compiled
    whole at once (`lazy.force`): every decision's moves, position and lines logged, and
    the result, are the same."""
    first_use, whole = _compiled(name), _compiled(name)
    lazy.force(whole.compiled.ns)
    assert not _waiting(whole)
    for seed in range(4):
        a, b = first_use.start(players=players, seed=seed), whole.start(players=players, seed=seed)
        pick = random.Random(seed)
        n = 0
        while a.result is None and n < 400:
            labels = first_use.labels(a)
            assert labels == whole.labels(b) and a.vars == b.vars and a.rng == b.rng, (seed, n)
            assert first_use.narrate(a) == whole.narrate(b)
            i = pick.randrange(len(labels))
            a, b = first_use.apply_index(a, i), whole.apply_index(b, i)
            n += 1
        assert a.result == b.result and a.vars == b.vars


SEATS = """
game s { players 2..3 seats [a, b, c] }
var score: player -> int = 0
procedure add(p: player) {
    rule "Scoring"
    score[p] += 1
}
procedure play() {
    rule "Play"
    add(c)
    game over []
}
"""


def test_an_error_in_a_block_at_its_first_call_names_the_rules_line(tmp_path, monkeypatch):
    """A native block compiled by its first call, which fails: the error names the
    statement's own line, read from the block's code (its lines counted when it was made)."""
    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    path = tmp_path / "s.game"
    path.write_text(textwrap.dedent(SEATS), encoding="utf-8")
    game = load_game(path)
    assert any(lazy.pending(f).kind == "block" for f in _waiting(game).values())
    for _ in range(2):  # the first call, through the stub; then the code in its place
        with pytest.raises(GameRuntimeError) as info:
            game.start(players=2, seed=1)
        (found,) = info.value.diagnostics
        assert "score[c] is written, but c is not in play" in found.message
        assert (found.span.line, found.span.column) == (6, 5)


def test_the_game_cache_keeps_a_game_compiled_whole(tmp_path, monkeypatch):
    """A stored game has no function waiting (its intermediate form would be slow to read
    back), and the game read back plays."""
    monkeypatch.setenv("GAMEDEF_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "s.game"
    path.write_text(textwrap.dedent(SEATS.replace("add(c)", "add(b)")), encoding="utf-8")
    first = load_game(path)
    assert not _waiting(first)
    read = gamecache.load(path.resolve(), (), {}, (tmp_path,))
    assert read is not None and not _waiting(Game(read, "s", (), {}))
    assert load_game(path).var(load_game(path).start(players=2, seed=1), "score")["b"] == 1


def test_loops_nested_past_what_python_compiles_are_an_error_at_load(tmp_path, monkeypatch):
    """Python refuses more than 20 nested loops: a block that deep is compiled with the
    rest of the compile, so the error is the load's, at the procedure, not the game's
    first run."""
    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    loops = "".join(f"{'    ' * (i + 1)}for x{i} in [1] {{\n" for i in range(22))
    ends = "".join(f"{'    ' * (i + 1)}}}\n" for i in reversed(range(22)))
    path = tmp_path / "deep.game"
    path.write_text(
        'game deep "Deep" {\n    players 1..1\n    seats [p1]\n}\nvar total: int = 0\n'
        f'procedure play() {{\n    rule "Play"\n{loops}{"    " * 23}total += 1\n{ends}    game over [p1]\n}}\n',
        encoding="utf-8",
    )
    with pytest.raises(GameDefError) as info:
        load_game(path)
    assert type(info.value) is GameDefError  # the load's error, not a rule's at run time
    (found,) = info.value.diagnostics
    assert "nested too deeply to compile" in found.message and found.span.line == 6


def test_threads_calling_one_stub_at_once_compile_it_once_and_each_run_it(monkeypatch):
    """A server's threads may call one stub at once. One compiles it while the other waits
    (before, both compiled it), and a call that entered the stub before its code was
    replaced runs the code made, though an expression's stub has left the namespace by
    then (before: a KeyError)."""
    game = _compiled("missiles_now")
    key, stub = next((k, f) for k, f in _waiting(game).items() if k.startswith("_fx"))
    waiting = lazy.pending(stub)
    ns, args = game.compiled.ns, tuple(range(len(waiting.params)))
    made: list[str] = []
    inside, go_on = threading.Event(), threading.Event()

    def code(self, names):  # a compile that takes its time, and a code that says it ran
        made.append(self.name)
        inside.set()
        go_on.wait(5)
        return (lambda *given: ("ran", given)).__code__

    monkeypatch.setattr(lazy.Uncompiled, "code", code)
    results: list[object] = []
    first = threading.Thread(target=lambda: results.append(lazy.run(waiting, ns, *args)))
    first.start()
    assert inside.wait(5)
    second = threading.Thread(target=lambda: results.append(lazy.run(waiting, ns, *args)))
    second.start()
    second.join(0.2)  # it waits for the compile under way
    go_on.set()
    first.join(5)
    second.join(5)
    assert results == [("ran", args), ("ran", args)] and made == [waiting.name]
    assert key not in ns  # an expression's stub leaves the namespace once compiled
    assert lazy.run(waiting, ns, *args) == ("ran", args)  # a call that entered the stub before
