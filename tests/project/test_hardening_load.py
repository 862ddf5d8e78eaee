"""Loading a big valid game grows linearly with its size (docs/language.md section 15,
benchmarks/README.md "Load growth"): no step walks everything loaded so far again and
again, and none takes memory for a whole procedure at once.

Measured by what makes them deterministic rather than by time (the machine is shared):
the cycle collector's runs while a game loads, and the memory Python's compiler takes
for a long procedure.
"""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest

from benchmarks.load_growth import defs, lets
from interpreter import load_game
from interpreter.check.checker import check_program
from interpreter.compile.compiler import compile_game
from interpreter.language.program import load_program

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    # A 10,000-statement procedure compiled to measure its memory; the no-collection case stays.
    r"test_a_long_procedure_is_compiled_without_memory_for_all_of_it_at_once",
]


@pytest.fixture
def no_cache(monkeypatch):
    monkeypatch.setenv("GAMEDEF_CACHE", "off")


def collections() -> int:
    """Runs of the collector's oldest generation: the ones that walk every object kept."""
    return gc.get_stats()[2]["collections"]


def test_loading_a_big_game_runs_no_cycle_collection(tmp_path: Path, no_cache):
    """A 300 KB game of 9,000 functions makes about a million objects and keeps them: the
    collector would walk them all again at each run of its oldest generation (4 MB took
    43 s to parse instead of 29 s). It is held off while the game loads, and on after."""
    path = defs(300_000, tmp_path)
    assert gc.isenabled()
    before = collections()
    game = load_game(path)
    assert collections() == before, "a full collection while the game loaded"
    assert gc.isenabled()
    assert len(game.compiled.program.decls) > 9_000


def test_a_long_procedure_is_compiled_without_memory_for_all_of_it_at_once(tmp_path: Path, no_cache):
    """10,000 `let`s in one procedure: compiled as one Python function, Python's compiler
    took about 270 MB at once; in steps of at most 500 statements, a few tens."""
    program = load_program(lets(300_000, tmp_path).resolve(), ())
    check_program(program)
    tracemalloc.start()
    try:
        compile_game(program, {})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * 1024 * 1024, f"{peak / 2**20:.0f} MB"
