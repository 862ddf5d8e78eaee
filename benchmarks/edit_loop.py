"""The designer's edit loop on a file that includes The Wall is Down: edit, `check`, `test`.

    python -m benchmarks.edit_loop [--rounds 3] [--budget SECONDS] [--first 1]

Copies `examples/twid_house_rules.game` and its tests into a temporary folder with a cache
of its own, warms that cache (one `check` and one `test`, as a designer who has run them
before), then, each round, makes one edit and runs `gamedef check FILE` and then
`gamedef test FILE.test.game`, each in a new process, as the designer does. The edits take
turns: the house card's `ops` (the variant `velvet_revolution`), and a word of the quick
game's rule citation (the variant `quick_game`), each in place so no other line moves.
Then a first compile of The Wall is Down in a new process set up as the `gamedef` command's
(read, check, compile), `--first` times with no cache at all (`GAMEDEF_CACHE=off`) and as
many with a new, empty cache (the first run after an install: the game is then kept for the
next run by a detached copy of the process, which the command does not wait for; the time
until it has is printed).

Each time is the wall time and the CPU time of the process (user and system, from the
operating system's accounting of the finished child), so a loaded machine shows in the
first and less in the second; the medians are printed. `check` plays its default budget
unless `--budget` is given (its play stops once what the edit touched has been reached
enough, docs/language.md "What `check` plays").
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from interpreter.core.paths import EXAMPLES, ROOT

EXAMPLE = EXAMPLES / "twid_house_rules.game"
TESTS = EXAMPLES / "twid_house_rules.test.game"
# The first compile of The Wall is Down as `gamedef run twid` makes it (runtime/load.py): read,
# check (without the warnings a load drops: a variable never read is asked by `check` alone,
# which reads the test files beside the game for it), compile, in a process set up as the
# command's (its modules imported, then `as_command`, interpreter/cli). With a new, empty
# cache (the first run after an install) a detached copy of the process then keeps the game
# for the next run (core/background.py): the command does not wait for it.
FIRST_COMPILE = (
    "from interpreter.cli import as_command\n"
    "as_command()\n"
    "import time\n"
    "from interpreter.runtime.load import load_game\n"
    "t = time.process_time()\n"
    "load_game('twid')\n"
    "print(time.process_time() - t)\n"
)
KEPT_WITHIN = 60.0  # seconds to wait for the detached copy's entry before the next measure


def timed(argv: list[str], env: dict[str, str], exits: tuple[int, ...] = (0, 1)) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, output) of one command in a new process; an exit status
    not in `exits` stops the benchmark (1: a test failed, which the designer's loop meets too)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in exits:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return wall, cpu, done.stdout


def edit(path: Path, round_: int) -> str:
    """One edit in place (no line moves), taking turns between the two variants."""
    text = path.read_text(encoding="utf-8")
    if round_ % 2 == 0:
        ops = 4 if "        ops 3\n" in text else 3
        text = re.sub(r"\n        ops \d\n", f"\n        ops {ops}\n", text, count=1)
        what = f"velvet_revolution: ops {ops}"
    else:  # a word of its rule's citation: the variant's declarations change, its tests still pass
        word = "wins" if "7 VP win at once" in text else "win"
        text = re.sub(r"7 VP wins? at once", f"7 VP {word} at once", text, count=1)
        what = f"quick_game: its rule's text ('7 VP {word} at once')"
    path.write_text(text, encoding="utf-8")
    return what


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="edits, each followed by check and test")
    parser.add_argument("--budget", type=float, default=None, help="check's play budget (default: its own)")
    parser.add_argument("--first", type=int, default=1, help="first compiles of The Wall is Down, no cache")
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        game, tests = folder / EXAMPLE.name, folder / TESTS.name
        shutil.copy(EXAMPLE, game)
        shutil.copy(TESTS, tests)
        env = {**os.environ, "GAMEDEF_CACHE": str(folder / "cache"), "PYTHONPATH": str(ROOT)}
        # As installed: pip writes the interpreter's bytecode at install, so no command
        # compiles its modules again (PYTHONDONTWRITEBYTECODE would charge every process
        # about 0.25 s of CPU for that).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        budget = [] if args.budget is None else ["--budget", str(args.budget)]
        check = [python, "-m", "interpreter", "check", str(game), *budget]
        test = [python, "-m", "interpreter", "test", str(tests)]
        print("warming the cache (check, then test) ...", flush=True)
        for argv in (check, test):
            wall, cpu, _ = timed(argv, env)
            print(f"  {argv[3]}: {wall:.1f} s wall, {cpu:.1f} s CPU")
        checks: list[tuple[float, float]] = []
        runs: list[tuple[float, float]] = []
        for r in range(args.rounds):
            what = edit(game, r)
            wall, cpu, out = timed(check, env)
            checks.append((wall, cpu))
            played = re.search(r"played (\d+) games .* in ([\d.]+) s of", out)
            print(
                f"edit {r + 1} ({what}): check {wall:.2f} s wall, {cpu:.2f} s CPU"
                + (f" (played {played[1]} games in {played[2]} s)" if played else ""),
                flush=True,
            )
            wall, cpu, _ = timed(test, env)
            runs.append((wall, cpu))
            print(f"           test {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
        if checks:
            for name, times in (("edit -> check", checks), ("edit -> test", runs)):
                walls, cpus = zip(*times, strict=True)
                print(
                    f"{name}: median {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s CPU"
                    f" ({len(times)} edits)"
                )
        first = []
        for _ in range(args.first):
            for cache in ("off", "new"):
                where = folder / f"first-{len(first)}"
                wall, cpu, out = timed(
                    [python, "-c", FIRST_COMPILE],
                    {**env, "GAMEDEF_CACHE": "off" if cache == "off" else str(where)},
                    exits=(0,),
                )
                kept = _kept_after(where) if cache == "new" else None
                first.append((cache, wall, cpu, float(out.split()[-1])))
                print(
                    f"first compile of twid, {'no cache' if cache == 'off' else 'a new cache'}: {wall:.2f} s wall,"
                    f" {cpu:.2f} s CPU (read, check, compile: {first[-1][3]:.2f} s CPU)"
                    + ("" if kept is None else f"; kept for the next run {kept:.1f} s later")
                )
        for cache in ("off", "new"):
            rows = [row[1:] for row in first if row[0] == cache]
            if rows:
                walls, cpus, inner = zip(*rows, strict=True)
                print(
                    f"first compile of twid, {'no cache' if cache == 'off' else 'a new cache'}: median"
                    f" {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s CPU"
                    f" (read, check, compile: {statistics.median(inner):.2f} s CPU)"
                )


def _kept_after(where: Path) -> float | None:
    """Seconds until the detached copy of a first run has written the compiled game into the
    cache `where` (None: not within `KEPT_WITHIN`): waited for, so that the next measure
    does not share the machine with it."""
    start = time.perf_counter()
    while time.perf_counter() - start < KEPT_WITHIN:
        if any(where.glob("*.game")):
            return time.perf_counter() - start
        time.sleep(0.05)
    return None


if __name__ == "__main__":
    main()
