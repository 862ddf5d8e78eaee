"""A compiled game kept for the next run by a detached copy of the process as it ends
(core/background.py, compile/gamecache.py `store`), and the collector in a process that
sets its objects aside (core/collector.py)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from repo_paths import ROOT

from interpreter.compile.compiler import compile_game
from interpreter.core import background, collector
from interpreter.language.program import load_program
from interpreter.runtime.load import find_game

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="a detached copy needs fork")


def _python(code: str, tmp_path: Path, timeout: float = 60) -> tuple[float, subprocess.CompletedProcess]:
    """Run `code` in a new process as a caller reading its output would: (seconds until it
    returned, the result)."""
    env = {**os.environ, "GAMEDEF_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return time.perf_counter() - start, done


def _appears(path: Path, within: float = 60) -> float | None:
    start = time.perf_counter()
    while time.perf_counter() - start < within:
        if path.exists():
            return time.perf_counter() - start
        time.sleep(0.05)
    return None


SLOW_WORK = """
    import time
    from pathlib import Path
    from interpreter.core import background

    def work():
        time.sleep(8)
        Path("done").write_text("written by " + str(__import__("os").getpid()))
        print("nobody reads this")

    {setup}
    print("kept:", background.later(work))
"""


def test_work_kept_for_later_is_done_after_the_command_by_a_detached_copy(tmp_path):
    """The command's caller gets its output and exit as soon as the command ends, not 8 s
    later; the work is done afterwards, by another process."""
    took, done = _python(SLOW_WORK.format(setup="background.allow()"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "kept: True\n"  # (what the copy prints goes nowhere)
    assert took < 6
    assert not (tmp_path / "done").exists()
    assert _appears(tmp_path / "done") is not None
    assert (tmp_path / "done").read_text() != f"written by {os.getpid()}"


def test_a_process_that_does_not_allow_it_is_told_no_and_does_the_work_itself(tmp_path):
    """Not allowed (a library caller, a server): `later` keeps nothing and says so."""
    took, done = _python(SLOW_WORK.format(setup="background.forbid()"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "kept: False\n"
    assert not (tmp_path / "done").exists()


def test_with_another_thread_running_at_the_end_the_work_is_done_in_place(tmp_path):
    """A copy made while another thread runs could inherit a lock held for good: the process
    does the work itself as it ends, and its caller waits for it."""
    setup = "\n    ".join(
        [
            "import threading",
            "background.allow()",
            "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()",
        ]
    )
    took, done = _python(SLOW_WORK.format(setup=setup), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("kept: True\n")
    assert took >= 8
    assert (tmp_path / "done").exists()


def test_the_command_line_keeps_a_compiled_game_after_it_has_answered(tmp_path):
    """`gamedef run` with a new cache: the game's entry is written after the command has
    ended, and the next run reads it rather than compiling (its output is the same)."""
    env = {**os.environ, "GAMEDEF_CACHE": str(tmp_path / "cache"), "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "interpreter", "run", "tictactoe", "--seed", "3", "--quiet"]
    first = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    cache = tmp_path / "cache"
    deadline = time.perf_counter() + 60
    while not list(cache.glob("*.game")) and time.perf_counter() < deadline:
        time.sleep(0.05)
    (entry,) = cache.glob("*.game")
    written = entry.stat().st_ino  # (a write replaces the file: a new one)
    second = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0 and second.stdout == first.stdout
    time.sleep(0.5)
    assert entry.stat().st_ino == written  # read, not written again


def test_a_server_forbids_it():
    """The web table and the language server keep running: a game they compile is kept at
    once (their entry functions call `forbid`)."""
    background.allow()
    try:
        background.forbid()
        assert background.later(lambda: None) is False
    finally:
        background.forbid()


# ---- the collector in a process that sets its objects aside ---------------------------------------
def _frozen(obj: object) -> bool:
    return not any(o is obj for o in gc.get_objects())


def test_a_compile_in_a_process_that_sets_objects_aside_sets_the_game_aside_too(monkeypatch):
    """The command line sets aside what its imports made; a game compiled there is set aside
    with it, so no young collection walks it after the compile (0.1 s for The Wall is Down),
    and only up to `MAX_MOVED` objects over the process's life."""
    program = load_program(find_game("tictactoe"))
    monkeypatch.setattr(collector, "_set_aside", [0])
    gc.freeze()
    try:
        game = compile_game(program)
        assert _frozen(game.ns)
        monkeypatch.setattr(collector, "MAX_MOVED", collector._set_aside[0] + 10)
        again = compile_game(program)
        assert not _frozen(again.ns)  # past the bound: it ages as any other object
    finally:
        gc.unfreeze()
