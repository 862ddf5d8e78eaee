"""How loading grows with the size of a valid game file: parse, check and compile, 10 KB to 4 MB.

    python -m benchmarks.load_growth [--sizes 10,100,1000,4000] [--shapes defs,lets,table,nesting]

Each shape is a valid game generated to a size (in KB): `defs` (many small functions),
`lets` (many `let`s in one procedure's body), `table` (a long data table beside a short
game: one component per row, at most 19,000 rows: longer rows in a larger file),
`nesting` (many functions, each an expression nested 40 levels deep, under the nesting
limit of 100). Each file is loaded in a fresh process
with the caches off, timing each stage (CPU time, so other work on the machine counts
less) and the process's peak memory. The table ends with the ratio that matters: time per
KB at the largest size over time per KB at the smallest. Loading should be linear: a
ratio near 1 (a fixed start-up cost makes small files dearer per KB, so below 1 is
usual); a ratio that grows with the size is a superlinear step to find (`py-spy record`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from interpreter.core.limits import MAX_FILE_BYTES

KB = 1000
HEADER = 'game growth "Growth" {\n    players 2..2\n    seats [north, south]\n}\nvar total: int = 0\n'


def _procedure(body: str) -> str:
    return 'procedure play() {\n    rule "Growth: one rule"\n' + body + "    total = 1\n    game over []\n}\n"


def _fill(size: int, head: str, unit: Callable[[int], str], tail: str) -> str:
    """`head`, then units until the text is about `size` bytes, then `tail`."""
    parts, total, i = [head], len(head) + len(tail), 0
    while total < size:
        text = unit(i)
        parts.append(text)
        total += len(text)
        i += 1
    parts.append(tail)
    return "".join(parts)


def defs(size: int, folder: Path) -> Path:
    text = _fill(size, HEADER, lambda i: f"def f{i}(x: int) = x * {i % 7 + 2} + {i}\n", _procedure(""))
    return _write(folder, text)


def lets(size: int, folder: Path) -> Path:
    head = HEADER + 'procedure play() {\n    rule "Growth: one rule"\n'
    tail = "    total = v0\n    game over []\n}\n"
    return _write(folder, _fill(size, head, lambda i: f"    let v{i} = {i} * 2 + 1\n", tail))


def nesting(size: int, folder: Path) -> Path:
    depth = 40

    def unit(i: int) -> str:
        return f"def g{i}(x: int) = " + "(x + " * depth + str(i) + ")" * depth + "\n"

    return _write(folder, _fill(size, HEADER, unit, _procedure("")))


def table(size: int, folder: Path) -> Path:
    game = (
        HEADER + "entity Item {\n    power: int\n    note: str\n}\n"
        'table Item from "items.tsv" {\n    named by name\n    power\n    note\n}\n' + _procedure("")
    )
    # Rows of about 120 bytes, but at most 19,000 of them (a table has at most 20,000 rows:
    # MAX_COMPONENTS), their notes longer in a larger file.
    width = max(120, size // 19_000)
    note = ("a long note of plain words kept beside each item " * (width // 40 + 1))[: width - 20]
    rows = _fill(size - len(game), "name\tpower\tnote\n", lambda i: f"item{i}\t{i % 97}\t{note}{i}\n", "")
    (folder / "items.tsv").write_text(rows, encoding="utf-8")
    return _write(folder, game)


SHAPES: dict[str, Callable[[int, Path], Path]] = {"defs": defs, "lets": lets, "table": table, "nesting": nesting}


def _write(folder: Path, text: str) -> Path:
    path = folder / "growth.game"
    path.write_text(text, encoding="utf-8")
    return path


def measure_one(path: Path) -> dict:
    """Parse, check and compile `path` in this process: CPU seconds of each, peak memory."""
    import resource

    from interpreter.check.checker import check_game
    from interpreter.compile.compiler import compile_game
    from interpreter.core.limits import no_collection
    from interpreter.language.program import load_program

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = []
    started = time.process_time()
    program = load_program(path.resolve(), ())
    times.append(time.process_time() - started)
    started = time.process_time()
    symbols = check_game(program)[0]
    times.append(time.process_time() - started)
    started = time.process_time()
    with no_collection():  # as `load_game` compiles
        compile_game(program, {}, symbols=symbols)
    times.append(time.process_time() - started)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"parse": times[0], "check": times[1], "compile": times[2], "mb": (peak - base) / 1024}


def run(shape: str, kb: int, timeout: float) -> dict:
    """One measurement in a fresh process (so its peak memory is its own), caches off."""
    with tempfile.TemporaryDirectory() as folder:
        size = min(kb * KB, MAX_FILE_BYTES - 4096)
        path = SHAPES[shape](size, Path(folder))
        files = [path] + ([Path(folder) / "items.tsv"] if shape == "table" else [])
        nbytes = sum(f.stat().st_size for f in files)
        env = dict(os.environ, GAMEDEF_CACHE="off")
        cmd = [sys.executable, "-m", "benchmarks.load_growth", "--one", str(path)]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return {"shape": shape, "bytes": nbytes, "error": f"over {timeout:.0f} s"}
        if done.returncode != 0:
            return {"shape": shape, "bytes": nbytes, "error": done.stderr.strip().splitlines()[-1][:200]}
        return {"shape": shape, "bytes": nbytes, **json.loads(done.stdout)}


def table_rows(results: list[dict]) -> list[str]:
    lines = [
        "| shape | size | parse s | check s | compile s | total s | s per MB | peak MB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['shape']} | {r['bytes'] / KB:,.0f} KB | {r['error']} | | | | | |")
            continue
        total = r["parse"] + r["check"] + r["compile"]
        lines.append(
            f"| {r['shape']} | {r['bytes'] / KB:,.0f} KB | {r['parse']:.2f} | {r['check']:.2f} | "
            f"{r['compile']:.2f} | {total:.2f} | {total / (r['bytes'] / KB / KB):.2f} | {r['mb']:.0f} |"
        )
    return lines


def ratios(results: list[dict]) -> list[str]:
    """Per shape: time per KB at the largest size over time per KB at the smallest, and
    time and memory per KB at the largest over the second size (past the start-up cost,
    which makes the smallest file dear per KB and its peak memory that of the imports)."""
    lines = [
        "| shape | time per KB: largest / smallest | time per KB: largest / second | memory per KB: largest / second |",
        "|---|---:|---:|---:|",
    ]
    for shape in dict.fromkeys(r["shape"] for r in results):
        ok = [r for r in results if r["shape"] == shape and "error" not in r]
        if len(ok) < 3:
            continue
        small, second, big = ok[0], ok[1], ok[-1]

        def per_kb(r: dict, key: str) -> float:
            value = r["parse"] + r["check"] + r["compile"] if key == "time" else max(r["mb"], 1.0)
            return value / r["bytes"]

        lines.append(
            f"| {shape} ({small['bytes'] / KB:,.0f} KB, {second['bytes'] / KB:,.0f} KB, {big['bytes'] / KB:,.0f} KB) | "
            f"{per_kb(big, 'time') / per_kb(small, 'time'):.2f} | {per_kb(big, 'time') / per_kb(second, 'time'):.2f} | "
            f"{per_kb(big, 'mem') / per_kb(second, 'mem'):.2f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,4000", help="sizes in KB (default 10,100,1000,4000)")
    parser.add_argument("--shapes", default=",".join(SHAPES), help=f"shapes (default {','.join(SHAPES)})")
    parser.add_argument("--timeout", type=float, default=900, help="seconds one load may take (default 900)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # measure one file in this process
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(Path(args.one))))
        return
    results = []
    for shape in args.shapes.split(","):
        for kb in (int(s) for s in args.sizes.split(",")):
            result = run(shape, kb, args.timeout)
            results.append(result)
            print(json.dumps(result), file=sys.stderr, flush=True)
    print("\n".join(table_rows(results)))
    print()
    print("\n".join(ratios(results)))


if __name__ == "__main__":
    main()
