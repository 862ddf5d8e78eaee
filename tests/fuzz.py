"""A mutation fuzzer for everything `gamedef` reads from a user: .game files, transcripts, saved states.

Why: the README promises that every error a user can cause is a message with a position
and a hint (exit code 2), never a traceback. Files are shared between players, so they
are untrusted input: a file must also not hang the interpreter, exhaust memory, or make
it read files outside the game's own folder. This module mutates the bundled inputs,
runs the real command line on each mutant in a sandboxed worker process and classifies
what happened:

    traceback     an exception escaped `interpreter.cli.main`, or "Traceback" was printed
    hang          the case ran longer than the time limit
    memory        MemoryError, or the worker died (under an address-space limit)
    outside-read  a file or folder was opened outside the mutant's folder and the
                  project's own package folders (and Python's library, lark's cache)
    bad-exit      an exit code other than 0, 1 or 2
    ok            anything else

Every case is reproducible from (seed, case index):

    python -m tests.fuzz --cases 2000 --seed 1 --report /tmp/fuzz_report.txt
    python -m tests.fuzz --seed 1 --case 17 --keep /tmp/case17    # one case, its folder kept

`tests/project/test_fuzz.py` runs a fixed-seed sample of this under pytest.
"""

from __future__ import annotations

import argparse
import collections
import difflib
import io
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import traceback
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from repo_paths import ROOT

PACKAGE_DIRS = ("interpreter", "grammar", "gamedefs", "examples", "cards")  # the project's own installed folders
TIME_LIMIT = 20.0  # seconds per run, in the worker (alarm) and, with GRACE, in the parent (kill)
GRACE = 10.0
MEMORY_LIMIT = 3 * 1024**3  # RLIMIT_AS of a worker
MAX_DECISIONS = 3000
# The large games, compiled afresh for each mutant of their files: their time limit is scaled
# (a cold load of either takes some 4 s of CPU, twice that on a shared machine).
SLOW_GAMES = {"gamedefs/twid.game": 3.0, "gamedefs/downfall_of_empires.game": 3.0}
SLOW_NAMES = ("twid", "doe", "downfall")  # in a base's name: a file, table, transcript or state of one
CLASSES = ("ok", "traceback", "hang", "memory", "outside-read", "bad-exit")
PRIORITY = ("outside-read", "memory", "hang", "traceback", "bad-exit")  # the class named first when several apply

# ======================================================================================
# Base inputs: what gets mutated
# ======================================================================================


@dataclass(frozen=True)
class Base:
    """One input the fuzzer mutates, and how the command line consumes it."""

    kind: str  # "game", "transcript" or "state"
    name: str  # shown in reports
    rel: str  # where the mutant is written, relative to the case folder
    data: bytes
    trees: tuple[tuple[str, str], ...] = ()  # (project folder, case folder) copied into each case
    entry: str = ""  # game: the file to check and run (an included file is run through its includer)
    players: tuple[int, int] = (2, 2)
    variants: tuple[str, ...] = ()  # game: the variants it declares; state: the variants it was saved with
    game: str = ""  # state: the bundled game it belongs to


# A saved state per (game, players, seed, random moves, variants): mid-game positions.
STATE_SPECS: tuple[tuple[str, int, int, int, tuple[str, ...]], ...] = (
    ("tictactoe", 2, 1, 3, ()),
    ("kuhn_poker", 2, 2, 1, ()),
    ("berlin_wall", 2, 3, 10, ()),
    ("berlin_wall", 3, 4, 25, ()),
    ("berlin_wall", 4, 5, 40, ()),
    ("berlin_wall", 2, 6, 15, ("gravity",)),
    ("walls_and_wonders", 2, 7, 10, ()),
    ("walls_and_wonders", 4, 8, 30, ()),
    ("missiles_now", 2, 9, 10, ()),
    ("missiles_now", 6, 10, 25, ()),
    ("twid", 2, 11, 20, ()),
    ("twid", 4, 12, 60, ()),
    ("downfall_of_empires", 2, 13, 20, ()),
    ("downfall_of_empires", 4, 14, 60, ()),
)


def _game_bases(notes: list[str]) -> list[Base]:
    from interpreter.language.program import load_program

    files = sorted(ROOT.glob("gamedefs/*.game")) + sorted(ROOT.glob("gamedefs/*/*.game"))
    files += sorted(ROOT.glob("cards/*/*.game"))  # The Wall is Down's cards, included by gamedefs/twid.game
    files += sorted(ROOT.glob("examples/*.game"))
    out = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        entry = rel
        if rel.count("/") == 2:  # gamedefs/berlin_wall/variants.game is included by gamedefs/berlin_wall.game
            entry = f"gamedefs/{path.parent.name}.game"
        trees = (("gamedefs", "gamedefs"), ("cards", "cards"))  # a game may read the bundled card sets
        if rel.startswith("examples/"):
            trees = (("examples", "examples"), ("gamedefs", "gamedefs"), ("cards", "cards"))  # ../gamedefs/
        players, variants = (2, 4), ()
        try:
            program = load_program(ROOT / entry)
            players = (program.header.min_players, program.header.max_players)
            variants = tuple(program.all_variants)
        except Exception as exc:  # still fuzz it, with a guess at the player count
            notes.append(f"could not load the bundled {entry}: {type(exc).__name__}: {exc}")
        out.append(
            Base(
                kind="game",
                name=rel,
                rel=rel,
                data=path.read_bytes(),
                trees=trees,
                entry=entry,
                players=players,
                variants=variants,
            )
        )
    return out


# The data tables of the bundled games, each with the game that reads it.
TABLE_GLOBS: tuple[tuple[str, str], ...] = (
    ("cards/twid/*.tsv", "gamedefs/twid.game"),
    ("gamedefs/downfall_of_empires/*.tsv", "gamedefs/downfall_of_empires.game"),
)


def _table_bases() -> list[Base]:
    """The Wall is Down's and Downfall of Empires' tables: mutated, then the game that reads
    each is checked and run (a table is as untrusted as the .game file naming it)."""
    out = []
    for pattern, entry in TABLE_GLOBS:
        for path in sorted(ROOT.glob(pattern)):
            out.append(
                Base(
                    kind="table",
                    name=path.relative_to(ROOT).as_posix(),
                    rel=path.relative_to(ROOT).as_posix(),
                    data=path.read_bytes(),
                    trees=(("gamedefs", "gamedefs"), ("cards", "cards")),
                    entry=entry,
                    players=(2, 4),
                )
            )
    return out


def _transcript_bases() -> list[Base]:
    return [
        Base(
            kind="transcript",
            name=p.relative_to(ROOT).as_posix(),
            rel=f"transcripts/{p.name}",
            data=p.read_bytes(),
            trees=(("tests/transcripts", "transcripts"),),
        )
        for p in sorted((ROOT / "tests" / "transcripts").glob("*.toml"))
    ]


def _state_bases(folder: Path, notes: list[str]) -> list[Base]:
    """Saved states made by playing a few random moves; made once per campaign, deterministically."""
    from interpreter import load_game
    from interpreter.runtime.saving import save_state

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, players, seed, moves, variants in STATE_SPECS:
        label = f"{name}-{players}p-s{seed}-{moves}m" + "".join(f"-{v}" for v in variants)
        try:
            game = load_game(name, variants=list(variants))
            state = game.start(players=players, seed=seed)
            rng = random.Random(seed)
            for _ in range(moves):
                if game.is_over(state):
                    break
                state = game.apply_index(state, rng.randrange(len(game.labels(state))))
            path = folder / f"{label}.toml"
            save_state(game, state, path)
        except Exception as exc:  # a broken interpreter must not stop the other inputs being fuzzed
            notes.append(f"could not build the base state {label}: {type(exc).__name__}: {exc}")
            continue
        out.append(
            Base(
                kind="state",
                name=f"state:{label}",
                rel=f"states/{label}.toml",
                data=path.read_bytes(),
                players=(players, players),
                variants=variants,
                game=name,
            )
        )
    return out


def build_bases(folder: Path, notes: list[str]) -> list[Base]:
    bases = _game_bases(notes) + _table_bases() + _transcript_bases()
    return bases + _state_bases(folder / "base_states", notes)


# ======================================================================================
# Mutation operators
# ======================================================================================


@dataclass
class Mutation:
    """The mutated bytes of the base file, what was done, and anything else the case needs."""

    data: bytes
    description: str
    files: dict[str, bytes] = field(default_factory=dict)  # extra files, relative to the case folder
    links: dict[str, str] = field(default_factory=dict)  # symlinks to create: relative path -> target
    game: str | None = None  # state: run it with this game instead of its own


Operator = Callable[[random.Random, Base, list[Base]], Mutation]

TOKEN = re.compile(
    rb'"(?:\\.|[^"\\\n])*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|=>|->|[=!<>+\-]=|[^\s]',
)
INVALID_UTF8 = (
    b"\xff\xfe",
    b"\x80",
    b"\xbf\xbf",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xc0\xaf",
)
NUMBERS = ("0", "-1", str(10**3), str(10**7), str(10**12), str(10**30), str(2**64), "1" + "0" * 4999)
NUMBERS += ("99999", "100001", "19999", "20001", str(2**63 - 1), str(2**63))  # either side of the limits
NEST_DEPTHS = (50, 300, 1000, 5000, 50000)
TOML_DEPTHS = (10, 100, 1000, 10000)
try:
    from interpreter.language.parser import KEYWORDS
except Exception:  # the keywords only make token mutations likelier to parse; any list will do
    KEYWORDS = ["game", "var", "def", "procedure", "if", "while", "for", "choose", "let", "in", "by", "none"]


def _where(data: bytes, pos: int) -> str:
    line = data.count(b"\n", 0, pos) + 1
    return f"line {line}"


def _tokens(data: bytes) -> list[tuple[int, int]]:
    """Token spans, comments left out (a mutation inside a comment tests nothing)."""
    return [(m.start(), m.end()) for m in TOKEN.finditer(data) if not m.group().startswith(b"#")]


def _splice(data: bytes, start: int, end: int, new: bytes) -> bytes:
    return data[:start] + new + data[end:]


# ---- bytes ---------------------------------------------------------------------------------------------
def op_flip(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    data = bytearray(base.data)
    places = []
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(data))
        bit = rng.randrange(8)
        data[i] ^= 1 << bit
        places.append(f"{i} ({_where(base.data, i)})")
    return Mutation(bytes(data), "flipped a bit at byte " + ", ".join(places))


def op_insert(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    data = base.data
    done = []
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(data) + 1)
        new = rng.randbytes(rng.randint(1, 16))
        data = _splice(data, i, i, new)
        done.append(f"{new!r} at {i}")
    return Mutation(data, "inserted random bytes " + ", ".join(done))


def op_delete(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    data = base.data
    done = []
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(data))
        n = rng.randint(1, 64)
        done.append(f"{data[i : i + n]!r} at {i}")
        data = _splice(data, i, i + n, b"")
    return Mutation(data, "deleted " + ", ".join(done))


def op_invalid_utf8(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    data = base.data
    done = []
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(data) + 1)
        new = rng.choice(INVALID_UTF8)
        data = _splice(data, i, i, new)
        done.append(f"{new!r} at {i} ({_where(data, i)})")
    return Mutation(data, "inserted invalid UTF-8 " + ", ".join(done))


def op_nul(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    data = base.data
    spans = _tokens(data)
    done = []
    for _ in range(rng.randint(1, 3)):
        # half the time inside a token (a string, a name), where a NUL survives lexing longest
        s, e = rng.choice(spans) if spans and rng.random() < 0.5 else (0, len(data))
        i = rng.randint(s, e)
        data = _splice(data, i, i, b"\x00" * rng.choice((1, 1, 2, 100)))
        done.append(f"at {i} ({_where(data, i)})")
    return Mutation(data, "inserted NUL bytes " + ", ".join(done))


def op_truncate(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    i = rng.randrange(len(base.data))
    return Mutation(base.data[:i], f"truncated to {i} of {len(base.data)} bytes ({_where(base.data, i)})")


def op_dup_chunk(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    data = base.data
    a = rng.randrange(len(data))
    b = min(len(data), a + rng.randint(1, 2000))
    times = rng.choice((1, 1, 2, 10, 50))
    at = rng.randrange(len(data) + 1)
    return Mutation(
        _splice(data, at, at, data[a:b] * times),
        f"copied bytes {a}..{b} ({_where(data, a)}) {times}x to {at} ({_where(data, at)})",
    )


# ---- nesting -----------------------------------------------------------------------------------------
def _int_sites(data: bytes) -> list[tuple[int, int]]:
    return [(s, e) for s, e in _tokens(data) if data[s:e].isdigit()]


def _expr_site(rng: random.Random, data: bytes) -> tuple[int, int] | None:
    sites = _int_sites(data)
    return rng.choice(sites) if sites else None


def _nest_expr(rng: random.Random, base: Base, make: Callable[[bytes, int], bytes], what: str) -> Mutation:
    n = rng.choice(NEST_DEPTHS)
    site = _expr_site(rng, base.data)
    if site is None or rng.random() < 0.25:
        body = make(b"1", n)
        data = base.data + b"\ndef fuzz_deep() = " + body + b"\n"
        return Mutation(data, f"appended `def fuzz_deep() = ...`: 1 {what}, depth {n}")
    s, e = site
    return Mutation(
        _splice(base.data, s, e, make(base.data[s:e], n)),
        f"{what}, depth {n}: the number {base.data[s:e].decode()} at {_where(base.data, s)}",
    )


def op_parens(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    return _nest_expr(rng, base, lambda x, n: b"(" * n + x + b")" * n, "wrapped in parentheses")


def op_brackets(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    return _nest_expr(rng, base, lambda x, n: b"[" * n + x + b"]" * n, "wrapped in brackets")


def op_sum(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    op = rng.choice((b" + 1", b" * 1", b" - 0", b" and true", b" .. 1"))
    return _nest_expr(rng, base, lambda x, n: x + op * n, f"followed by {op.decode().strip()!r} repeated")


def op_unary(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    return _nest_expr(rng, base, lambda x, n: b"- " * n + x, "negated repeatedly")


PROC = re.compile(rb"\bprocedure\s+([A-Za-z_]\w*)\s*\([^)]*\)\s*\{")


def _procedure_body(rng: random.Random, data: bytes, prefer: bytes = b"play") -> tuple[int, bytes] | None:
    """Where statements can go: just inside a procedure's `{` (`play` if asked and present)."""
    found = list(PROC.finditer(data))
    if not found:
        return None
    preferred = [m for m in found if m.group(1) == prefer]
    m = rng.choice(preferred) if preferred and rng.random() < 0.7 else rng.choice(found)
    return m.end(), m.group(1)


def op_nested_if(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    n = rng.choice(NEST_DEPTHS[:4])
    body = b"if true { " * n + b"let fuzz_deep = 1" + b" }" * n
    place = _procedure_body(rng, base.data)
    if place is None:
        data = base.data + b'\nprocedure fuzz_deep() {\n    rule "fuzz"\n    ' + body + b"\n}\n"
        return Mutation(data, f"appended a procedure with {n} nested `if true {{ ... }}`")
    at, name = place
    return Mutation(
        _splice(base.data, at, at, b"\n" + body + b"\n"), f"{n} nested `if true {{ ... }}` in {name.decode()}()"
    )


def _toml_lines(data: bytes) -> list[re.Match]:
    """Single-line `key = value` lines (not the opening line of a multi-line array)."""
    return [
        m
        for m in re.finditer(rb"(?m)^([ \t]*[A-Za-z0-9_\"-][^=\n]*?)[ \t]*=[ \t]*(.+)$", data)
        if m.group(2)[-1:] not in b"[{"
    ]


def op_toml_array(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    n = rng.choice(TOML_DEPTHS)
    lines = _toml_lines(base.data)
    m = rng.choice(lines)
    value = m.group(2)
    new = b"[" * n + value + b"]" * n
    return Mutation(
        _splice(base.data, m.start(2), m.end(2), new),
        f"{m.group(1).strip().decode()} = {n} nested arrays around its value",
    )


def op_toml_table(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    n = rng.choice(TOML_DEPTHS)
    lines = _toml_lines(base.data)
    m = rng.choice(lines)
    if rng.random() < 0.5:
        new = b"{ a = " * n + m.group(2) + b" }" * n
        return Mutation(
            _splice(base.data, m.start(2), m.end(2), new), f"{m.group(1).strip().decode()} = {n} nested inline tables"
        )
    key = m.group(1).strip() + b".a" * n
    return Mutation(
        _splice(base.data, m.start(1), m.end(1), key),
        f"{m.group(1).strip().decode()} turned into a dotted key {n} tables deep",
    )


# ---- numbers -----------------------------------------------------------------------------------------
def op_number(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    sites = _int_sites(base.data)
    if not sites:
        return op_flip(rng, base, bases)
    data = base.data
    done = []
    for s, e in sorted(rng.sample(sites, min(len(sites), rng.choice((1, 1, 1, 3)))), reverse=True):
        new = rng.choice(NUMBERS)
        done.append(
            f"{data[s:e].decode()} -> {new if len(new) < 40 else f'a {len(new)}-digit number'} at {_where(data, s)}"
        )
        data = _splice(data, s, e, new.encode())
    return Mutation(data, "replaced " + "; ".join(done))


# ---- tokens --------------------------------------------------------------------------------------------
def op_token_delete(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    spans = _tokens(base.data)
    i = rng.randrange(len(spans))
    j = min(len(spans), i + rng.choice((1, 1, 2, 3)))
    s, e = spans[i][0], spans[j - 1][1]
    return Mutation(_splice(base.data, s, e, b""), f"deleted {base.data[s:e][:80]!r} at {_where(base.data, s)}")


def op_token_dup(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    spans = _tokens(base.data)
    i = rng.randrange(len(spans))
    j = min(len(spans), i + rng.choice((1, 1, 2, 5)))
    s, e = spans[i][0], spans[j - 1][1]
    return Mutation(
        _splice(base.data, e, e, b" " + base.data[s:e]), f"duplicated {base.data[s:e][:80]!r} at {_where(base.data, s)}"
    )


def op_token_swap(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    spans = _tokens(base.data)
    i = rng.randrange(len(spans) - 1)
    j = i + 1 if rng.random() < 0.6 else rng.randrange(i + 1, len(spans))
    (a, b), (c, d) = spans[i], spans[j]
    data = base.data[:a] + base.data[c:d] + base.data[b:c] + base.data[a:b] + base.data[d:]
    return Mutation(
        data,
        f"swapped {base.data[a:b][:60]!r} ({_where(base.data, a)})"
        f" and {base.data[c:d][:60]!r} ({_where(base.data, c)})",
    )


def op_token_rename(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    spans = [(s, e) for s, e in _tokens(base.data) if re.fullmatch(rb"[A-Za-z_]\w*", base.data[s:e])]
    names = sorted({base.data[s:e] for s, e in spans})
    s, e = rng.choice(spans)
    pool = [k.encode() for k in KEYWORDS] if rng.random() < 0.4 else names
    new = rng.choice(pool)
    return Mutation(_splice(base.data, s, e, new), f"renamed {base.data[s:e]!r} to {new!r} at {_where(base.data, s)}")


# ---- paths -----------------------------------------------------------------------------------------------
# (path written in the file, symlink to create beside the file or None)
INCLUDE_TARGETS: tuple[tuple[str, str | None], ...] = (
    ("/etc/passwd", None),
    ("../../../../../../../../../../etc/passwd", None),
    ("*.game", None),
    ("/dev/zero", None),
    (".", None),
    ("", None),
    ("..", None),
    ("bad\x00name.game", None),
    ("/etc/host*", None),
    ("fuzz_link.game", "/etc/hostname"),
    ("fuzz_up.game", "../../../../../../../../../../etc/passwd"),
    ("fuzz_linkdir/host*", "/etc"),
    ("fuzz_linkdir/hostname", "/etc"),
)
DECL_START = re.compile(
    rb"(?m)^(?=(game|include|option|enum|entity|generate|card|var|grid|graph|link|event|def|procedure|when|variant)\b)"
)


def op_include(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    target, link = rng.choice(INCLUDE_TARGETS)
    folder = Path(base.rel).parent
    links = {}
    if link is not None:
        links[(folder / target.split("/")[0]).as_posix()] = link
    line = b'include "' + target.encode() + b'"'
    existing = list(re.finditer(rb'(?m)^include "[^"\n]*"', base.data))
    if existing and rng.random() < 0.5:
        m = rng.choice(existing)
        return Mutation(
            _splice(base.data, m.start(), m.end(), line), f"replaced {m.group().decode()} by {line!r}", links=links
        )
    starts = [m.start() for m in DECL_START.finditer(base.data)] + [len(base.data)]
    at = rng.choice(starts)
    where = _where(base.data, at) if at < len(base.data) else "the end"
    return Mutation(_splice(base.data, at, at, b"\n" + line + b"\n"), f"added {line!r} at {where}", links=links)


def _set_toml_key(data: bytes, key: str, value: str) -> bytes:
    """Set a top-level single-line key of a transcript (removing the old line)."""
    data = re.sub(rb"(?m)^" + key.encode() + rb" = [^\n]*\n", b"", data)
    return f"{key} = {value}\n".encode() + data


TRANSCRIPT_PATHS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "start": (
        ("/etc/passwd", None),
        ("../../../../../../../../../../etc/hostname", None),
        ("/dev/zero", None),
        (".", None),
        ("\x00", None),
        ("/etc", None),
        ("fuzz_link.toml", "/etc/hostname"),
    ),
    "game": (
        ("/etc/passwd", None),
        ("/dev/zero", None),
        ("../../../../../../../../../../etc/passwd", None),
        ("/etc/passwd.game", None),
        ("\x00.game", None),
        (".game", None),
        ("fuzz_link.game", "/etc/passwd"),
        ("fuzz_zero.game", "/dev/zero"),
        ("../../../../../../../../../../etc/hostname.game", None),
    ),
}


def _transcript_path(key: str) -> Operator:
    def op(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
        value, link = rng.choice(TRANSCRIPT_PATHS[key])
        folder = Path(base.rel).parent
        links = {(folder / value).as_posix(): link} if link else {}
        return Mutation(_set_toml_key(base.data, key, json.dumps(value)), f"{key} = {json.dumps(value)}", links=links)

    op.__name__ = f"op_transcript_{key}"
    return op


# ---- semantic: transcripts -------------------------------------------------------------------------------
TRANSCRIPT_FIELDS: dict[str, tuple[Any, ...]] = {
    "players": (0, -1, 1, 9, 100, 10**7, 2**64, "2", 2.5, [2]),
    "seed": (-1, 2**63, 2**64, 10**30, "x", 1.5),
    "variants": (["nope"], ["gravity", "gravity"], ["gravity", "nullo_gravity"], "gravity", [1], [""]),
    "options": (
        {"ground": 5},
        {"nope": 1},
        {"ground": ["x"]},
        {"columns": 10**12},
        {"stacks": 0},
        {"victory": "x"},
        [],
    ),
    "dice": ([0], [-1], [10**30], ["x"], [7] * 100, [1.5]),
    "moves": ([""], ["red: "], [": x"], ["ghost: hammer on a1"], ["red: hammer on a1"] * 3000, 5, [1], "red: pass"),
    "result": ("x", [1], ["ghost"], {}),
    "agents": ({"red": "human"}, {"red": 5}, "x"),
    "rules_hash": (5, "x" * 10000),
    "game": ("", "nope", "berlin_wall.game", "tictactoe", 5, ["berlin_wall"]),
}


def op_transcript_fields(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    import tomli_w

    data = tomllib.loads(base.data.decode())
    done = []
    for key in rng.sample(sorted(TRANSCRIPT_FIELDS), rng.choice((1, 1, 2))):
        value = rng.choice(TRANSCRIPT_FIELDS[key])
        data[key] = value
        done.append(f"{key} = {_short(value)}")
    if rng.random() < 0.2:
        gone = rng.choice(sorted(data))
        del data[gone]
        done.append(f"removed {gone}")
    return Mutation(tomli_w.dumps(data).encode(), "; ".join(done))


def op_transcript_start_state(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    import tomli_w

    states = [b for b in bases if b.kind == "state"]
    if not states:
        return op_transcript_fields(rng, base, bases)
    state = rng.choice(states)
    data = tomllib.loads(base.data.decode())
    data["start"] = "fuzz_state.toml"
    data["moves"] = data["moves"][: rng.choice((0, 0, 1, 5))]
    data.pop("result", None)
    folder = Path(base.rel).parent
    return Mutation(
        tomli_w.dumps(data).encode(),
        f"start = the saved state {state.name} (a {state.game} state for a {data.get('game')} transcript), "
        f"{len(data['moves'])} moves",
        files={(folder / "fuzz_state.toml").as_posix(): state.data},
    )


# ---- semantic: saved states -----------------------------------------------------------------------------
def _state_op(mutate: Callable[[random.Random, dict, Base, list[Base]], str]) -> Operator:
    def op(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
        import tomli_w

        data = tomllib.loads(base.data.decode())
        description = mutate(rng, data, base, bases)
        return Mutation(tomli_w.dumps(data).encode(), description)

    op.__name__ = mutate.__name__
    return op


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def st_seat_names(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    choice = rng.randrange(5)
    if choice == 0:
        d["players"][rng.randrange(len(d["players"]))] = "ghost"
    elif choice == 1:
        d["players"] = [d["players"][0]] * len(d["players"])
    elif choice == 2:
        d["players"] = []
    elif choice == 3:
        d["players"] = [f"seat{i}" for i in range(200)]
    elif "pending" in d:
        d["pending"]["player"] = "ghost"
        return "pending.player = 'ghost'"
    else:
        d["players"] = d["players"][:1]
    return f"players = {_short(d['players'])}"


def st_seat_types(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    value = rng.choice(([1, 2], [[], []], [{}, {}], "red", 5, [True, False], [1.5]))
    if "pending" in d and rng.random() < 0.3:
        d["pending"]["player"] = value
        return f"pending.player = {_short(value)}"
    d["players"] = value
    return f"players = {_short(value)}"


def st_frames(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    frames = d.get("frames", [])
    choice = rng.randrange(7)
    if choice == 0 or not frames:
        d["frames"] = []
        return "frames = []"
    f = rng.choice(frames)
    if choice == 1:
        f["code"] = rng.choice(("ghost", "", "play"))
        return f"a frame's code = {f['code']!r}"
    if choice == 2:
        f["step"] = rng.choice((-1, 10**9, 2**64, "x", 1.5))
        return f"a frame's step = {_short(f['step'])}"
    if choice == 3:
        f["locals"] = rng.choice(("x", {}, [[1]], [10**30], [], [{"a": 1}] * 5, list(range(100))))
        return f"a frame's locals = {_short(f['locals'])}"
    if choice == 4:
        d["frames"] = frames * rng.choice((2, 100, 20000))
        return f"frames repeated: {len(d['frames'])} frames"
    if choice == 5:
        del f[rng.choice(sorted(f))]
        return f"a frame without a key: {_short(f)}"
    d["frames"] = rng.choice(("x", 5, [1], [[]]))
    return f"frames = {_short(d['frames'])}"


def st_pending(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    if "pending" not in d or rng.random() < 0.15:
        if "pending" in d:
            del d["pending"]
            return "pending removed (the game is not over)"
        d["pending"] = {"player": d["players"][0], "values": [], "slot": 0, "choice": 0}
        return "pending added to a finished game"
    p = d["pending"]
    key = rng.choice(("slot", "choice", "slot", "choice", "values", "player"))
    p[key] = rng.choice(
        {
            "slot": (-1, 10**6, 2**63, -(2**63), "x"),
            "choice": (-1, 10**6, 2**63, 1.5),
            "values": ([], "x", [[]], [10**30], list(range(5000))),
            "player": ("", "ghost", 5),
        }[key]
    )
    return f"pending.{key} = {_short(p[key])}"


def st_log(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    log = d.get("log", [])
    if not log or rng.random() < 0.15:
        d["log"] = rng.choice(("x", [1], [[]], [[[], 0]], 5))
        return f"log = {_short(d['log'])}"
    i = rng.randrange(len(log))
    entry = list(log[i])
    choice = rng.randrange(4)
    if choice == 0:
        log[i] = entry[: rng.randrange(len(entry))]
    elif choice == 1:
        entry[1] = rng.choice((-1, 10**6, "x", 2**64))
        log[i] = entry
    elif choice == 2:
        entry[2] = rng.choice(([], "x", [[]], [10**30], list(range(50))))
        log[i] = entry
    else:
        entry[0] = rng.choice((5, "ghost", [5], ["ghost"], [[]]))
        log[i] = entry
    return f"log entry {i} = {_short(log[i])}"


def _wrong_value(rng: random.Random, value: Any) -> Any:
    if isinstance(value, dict):
        if value and rng.random() < 0.5:
            key = rng.choice(sorted(value))
            value = dict(value)
            value[key] = rng.choice(("x", 5, [1], 10**30, {"a": 1}, [[[]]], True, 1.5))
            return value
        return rng.choice(([1], "x", 5, {"ghost": 1}, {}))
    if isinstance(value, list):
        return rng.choice(("x", 5, [[1]], {"a": 1}, ["ghost"], [10**30], list(range(100_000)), [1.5]))
    if isinstance(value, bool):
        return rng.choice((5, "true", [True]))
    if isinstance(value, int):
        return rng.choice(("5", [5], 1.5, True, 10**30, -(2**63), {"a": 1}))
    return rng.choice((5, "ghost", [], {"a": 1}, "x" * 100_000))


def st_vars(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    variables = d["vars"]
    done = []
    for name in rng.sample(sorted(variables), min(len(variables), rng.choice((1, 1, 3)))):
        variables[name] = _wrong_value(rng, variables[name])
        done.append(f"vars.{name} = {_short(variables[name])}")
    return "; ".join(done)


def st_rng(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    d["rng"] = rng.choice(("zz", "0x", "", 5, "-0x1", "0x" + "f" * 100, "0x" + "f" * 5000, [1], "1" * 5000))
    return f"rng = {_short(d['rng'])}"


def st_scalars(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    key = rng.choice(("decisions", "pins", "result", "variants", "options", "game"))
    d[key] = rng.choice(
        {
            "decisions": (-1, 10**18, 2**64, "many", 1.5),
            "pins": ([10**30], ["a"], [[]], [0], [-1], "x", [1] * 100_000),
            "result": (["ghost"], "x", [1], [[]], []),
            "variants": (["nope"], "x", [5]),
            "options": ({"columns": 10**12}, "x", {"nope": [1]}),
            "game": ("tictactoe", 5, "/etc/passwd"),
        }[key]
    )
    return f"{key} = {_short(d[key])}"


def st_missing(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    if rng.random() < 0.5 and d.get("vars"):
        name = rng.choice(sorted(d["vars"]))
        del d["vars"][name]
        return f"vars.{name} removed"
    key = rng.choice(sorted(d))
    del d[key]
    return f"{key} removed"


def st_extra(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    """A map variable's table with keys that are not members, and extra top-level keys."""
    maps = [k for k, v in d.get("vars", {}).items() if isinstance(v, dict)]
    if maps and rng.random() < 0.7:
        name = rng.choice(maps)
        d["vars"][name]["ghost"] = next(iter(d["vars"][name].values()), 1)
        return f"vars.{name}.ghost added"
    d["vars"]["ghost_var"] = 1
    return "vars.ghost_var added"


def st_field_types(rng: random.Random, d: dict, base: Base, bases: list[Base]) -> str:
    """Any top-level field, or a field of `pending` or of a frame, with a value of the wrong type."""
    value = rng.choice((5, -1, "x", "", [], {}, [[]], [{}], 1.5, True, {"a": [1]}))
    where = d
    prefix = ""
    if rng.random() < 0.3 and isinstance(d.get("pending"), dict):
        where, prefix = d["pending"], "pending."
    elif rng.random() < 0.3 and d.get("frames"):
        where, prefix = rng.choice(d["frames"]), "a frame's "
    key = rng.choice(sorted(where))
    where[key] = value
    return f"{prefix}{key} = {_short(value)}"


def op_state_cross_game(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    games = sorted(
        {b.game for b in bases if b.kind == "state" and b.game != base.game} | {"tictactoe", "kuhn_poker"} - {base.game}
    )
    other = rng.choice(games)
    return Mutation(base.data, f"the {base.game} state loaded with {other}", game=other)


# ---- resources -----------------------------------------------------------------------------------------
def _append(base: Base, text: str, description: str) -> Mutation:
    return Mutation(base.data + b"\n" + text.encode() + b"\n", description)


def op_grid(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    size = rng.choice(("3000 by 3000", "100000 by 100000", "1000000000 by 1", "10 ** 7 by 1"))
    size = size.replace("10 ** 7", "10000000")
    m = re.search(rb"(?m)^grid (\w+) .*$", base.data)
    if m and rng.random() < 0.6:
        return Mutation(
            _splice(base.data, m.start(), m.end(), f"grid {m.group(1).decode()} {size}".encode()),
            f"grid {m.group(1).decode()} {size}",
        )
    return _append(base, f"grid FuzzGrid {size}", f"appended grid FuzzGrid {size}")


def op_generate(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    n = rng.choice((10**7, 10**6, 10**12))
    two = rng.random() < 0.3
    loops = f"n in 1..{n}" + (f", m in 1..{n}" if two else "")
    text = f'entity FuzzThing {{ n: int }}\ngenerate FuzzThing named "thing {{n}}" for {loops} {{ n = n }}'
    return _append(base, text, f"appended a generate over {loops}")


def op_choices(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    hi = rng.choice((10**12, 10**7, 2**64))
    text = f'option fuzz_opt: int = 1 choices 1..{hi} "a huge range of choices"'
    return _append(base, text, f"appended option fuzz_opt: int = 1 choices 1..{hi}")


@dataclass(frozen=True)
class Snippet:
    """Code that costs time or memory at run time: statements for a procedure, declarations to append."""

    what: str
    statements: str
    declarations: str = ""
    needs: str = ""  # a regex the file must match (a grid for path_steps)


RUNTIME_SNIPPETS = (
    Snippet("a `let` of a constant range of 2*10**7", "let fuzz_r = 1..20000000"),
    Snippet("a `let` of the count of a constant range of 2*10**7", "let fuzz_r = count(1..20000000)"),
    Snippet("a comprehension over a range of 10**7", "let fuzz_r = [x * 2 for x in 1..10000000]"),
    Snippet("a while loop squaring a number", "let fuzz_n = 2\nwhile true { fuzz_n = fuzz_n * fuzz_n }"),
    Snippet(
        "a loop squaring a number 25 times, then logged",
        'let fuzz_n = 3\nfor i in 1..25 { fuzz_n = fuzz_n * fuzz_n }\nlog "{fuzz_n}"',
    ),
    Snippet("a while loop doubling a list", "let fuzz_l = [1]\nwhile true { fuzz_l = fuzz_l + fuzz_l }"),
    Snippet(
        "a while loop doubling a list of lists", "let fuzz_l = [[1]]\nwhile true { fuzz_l = concat(fuzz_l, fuzz_l) }"
    ),
    Snippet("a loop doubling a text", 'let fuzz_s = "ab"\nwhile true { fuzz_s = "{fuzz_s}{fuzz_s}" }'),
    Snippet("a busy loop without a decision", "let fuzz_i = 0\nwhile true { fuzz_i += 1 }"),
    Snippet(
        "a nested loop over two ranges of 10**5",
        "let fuzz_i = 0\nfor a in 1..100000 { for b in 1..100000 { fuzz_i += 1 } }",
    ),
    Snippet("membership tests of 10**5 items in 10**5 items", "let fuzz_r = [x for x in 1..99999 if x in 1..99999]"),
    Snippet("a list of 1000 lists of 1000 items", "let fuzz_r = [[a for a in 1..1000] for b in 1..1000]"),
    Snippet("a sort of 2*10**5 numbers", "let fuzz_r = sort(concat(1..99999, 1..99999))"),
    Snippet("best() with a costly score", "let fuzz_r = best(1..99999, x => count([y for y in 1..99999 if y == x]))"),
    Snippet(
        "a 40-step self-avoiding walk",
        "let fuzz_w = path_steps(first(members(Cell)), 40, [], x => true)",
        needs=r"grid Cell",
    ),
    Snippet("a log of a huge list", 'log "{[x for x in 1..99999]}"'),
    Snippet(
        "a self-recursive def 10**5 deep",
        "let fuzz_r = fuzz_f(100000)",
        "def fuzz_f(n: int) = if n <= 0 then 0 else fuzz_f(n - 1) + 1",
    ),
    Snippet("an endless def recursion", "let fuzz_r = fuzz_f(1)", "def fuzz_f(n: int) = fuzz_f(n + 1)"),
    Snippet(
        "mutually recursive defs",
        "let fuzz_r = fuzz_a(100000)",
        "def fuzz_a(n: int) = if n <= 0 then 0 else fuzz_b(n - 1)\ndef fuzz_b(n: int) = fuzz_a(n)",
    ),
    Snippet(
        "a constant def recursing 10**5 deep at load",
        "let fuzz_r = fuzz_c()",
        "def fuzz_f(n: int) = if n <= 0 then 0 else fuzz_f(n - 1) + 1\ndef fuzz_c() = fuzz_f(100000)",
    ),
    Snippet(
        "a self-recursive procedure 10**5 deep",
        "fuzz_p(100000)",
        'procedure fuzz_p(n: int) {\n    rule "fuzz"\n    if n > 0 { fuzz_p(n - 1) }\n}',
    ),
    Snippet(
        "a map keyed by 19000 x 19000 generated components",
        "fuzz_mm[first(members(FuzzThing))][last(members(FuzzThing))] = 1",
        'entity FuzzThing { n: int }\ngenerate FuzzThing named "thing {n}" for n in 1..19000 { n = n }\n'
        "var fuzz_mm: FuzzThing -> FuzzThing -> int = 0",
    ),
    Snippet(
        "19000 generated components with a long name each",
        "let fuzz_r = count(members(FuzzThing))",
        "entity FuzzThing { n: int }\n"
        'generate FuzzThing named "{[x for x in 1..99999]} {n}" for n in 1..19000 { n = n }',
    ),
)
RUNTIME_ERRORS = (
    Snippet("a division by zero", "let fuzz_r = 1 / 0"),
    Snippet(
        "a remainder by zero",
        "let fuzz_r = 1 % (players_count() - players_count())",
        "def players_count() = count(players)",
    ),
    Snippet("max of an empty list", "let fuzz_r = max([])"),
    Snippet("min of an empty list", "let fuzz_r = min([x for x in 1..3 if x > 5])"),
    Snippet("index_of a missing item", "let fuzz_r = index_of([1, 2], 3)"),
    Snippet("an index far out of range", "let fuzz_r = [1, 2][1000000000000]"),
    Snippet("a negative index", "let fuzz_r = [1, 2][-3]"),
    Snippet("a huge negative index", "let fuzz_r = [1, 2][-1000000000000000000000000000000]"),
    Snippet("an index of a huge number", "let fuzz_r = [1, 2][18446744073709551616]"),
    Snippet("rotate to a missing item", "let fuzz_r = rotate([1, 2], 3)"),
    Snippet("the cell at a huge position", "let fuzz_r = cell_at(Cell, 1000000000000000000000, 1)", needs=r"grid Cell"),
    Snippet(
        "a walk of negative length",
        "let fuzz_w = path_steps(first(members(Cell)), -1, [], x => true)",
        needs=r"grid Cell",
    ),
    Snippet("sort of mixed values", 'let fuzz_r = sort([1, "a", none, [2]])'),
    Snippet(
        "str of a 10**5-digit number",
        'let fuzz_n = 7\nfor i in 1..17 { fuzz_n = fuzz_n * fuzz_n }\nlog "{str(fuzz_n)}"',
    ),
    Snippet("a roll from an empty range", "roll fuzz_d from 1..0"),
    Snippet("a roll from a huge range", "roll fuzz_d from 1..1000000000000"),
    Snippet("a shuffle of a huge list var", "fuzz_l = 1..99999\nshuffle fuzz_l", "var fuzz_l: list int = []"),
    Snippet("a choose from a huge range", 'choose fuzz_c from 1..99999 by first(players) label "{fuzz_c}"'),
    Snippet("a choose from an empty list", 'choose fuzz_c from [] by first(players) label "nothing"'),
    Snippet("a choose by no player", 'choose fuzz_c from [1, 2] by none label "{fuzz_c}"'),
    Snippet("win by nobody", "win none"),
    Snippet("game over with a non-player", "game over [1, 2]"),
)


def _insert_snippet(rng: random.Random, base: Base, bases: list[Base], snippets: tuple[Snippet, ...]) -> Mutation:
    usable = [s for s in snippets if not s.needs or re.search(s.needs.encode(), base.data)]
    snippet = rng.choice(usable)
    place = _procedure_body(rng, base.data, b"setup" if rng.random() < 0.3 else b"play")
    if place is None:
        return op_grid(rng, base, bases)
    at, name = place
    data = _splice(base.data, at, at, b"\n" + snippet.statements.encode() + b"\n")
    if snippet.declarations:
        data += b"\n" + snippet.declarations.encode() + b"\n"
    return Mutation(data, f"{snippet.what}, at the start of {name.decode()}()")


def op_runtime(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    return _insert_snippet(rng, base, bases, RUNTIME_SNIPPETS)


def op_runtime_error(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    return _insert_snippet(rng, base, bases, RUNTIME_ERRORS)


def op_interpolation(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    """Strings are parsed twice (their `{expr}` parts separately): nest there too."""
    strings = [(s, e) for s, e in _tokens(base.data) if base.data[s : s + 1] == b'"' and b"{" in base.data[s:e]]
    n = rng.choice(NEST_DEPTHS)
    if not strings or rng.random() < 0.2:
        text = rng.choice((b"{" + b"(" * n + b"1" + b")" * n + b"}", b"{1}" * n, b"{" * n + b"1" + b"}" * n))
        data = base.data + b'\ndef fuzz_text() = "' + text + b'"\n'
        return Mutation(data, f"appended a def returning a string with depth/count {n} interpolations")
    s, e = rng.choice(strings)
    m = re.search(rb"\{([^{}]+)\}", base.data[s:e])
    if m is None:
        return Mutation(_splice(base.data, s + 1, s + 1, b"{1}" * n), f"{n} interpolations in a string")
    a, b = s + m.start(1), s + m.end(1)
    how = rng.choice(("parens", "brackets", "sum"))
    inner = base.data[a:b]
    new = {
        "parens": b"(" * n + inner + b")" * n,
        "brackets": b"[" * n + inner + b"]" * n,
        "sum": inner + b" + 1" * n,
    }[how]
    return Mutation(
        _splice(base.data, a, b, new),
        f"the interpolation {{{inner.decode()}}} at {_where(base.data, a)}: {how}, depth {n}",
    )


# ---- the operator tables --------------------------------------------------------------------------------
TABLE_CELLS = (
    b"",
    b"x" * 5000,
    b"-1",
    b"99999999999999999999",
    b"\x1b]0;title\x07\x1b[2J",
    b'"',
    b"a,b;c|d",
    b"\t\t\t",
    b"#",
    b"[[x]]",
)


def op_table_cells(rng: random.Random, base: Base, bases: list[Base]) -> Mutation:
    """A few cells of a tab-separated table replaced (long, negative, huge, quoted, escape
    sequences, extra tabs), a row duplicated, or a column dropped from every row."""
    lines = base.data.split(b"\n")
    rows = [i for i, line in enumerate(lines) if line and not line.startswith(b"#")]
    what = rng.choice(("cells", "dup_row", "drop_column"))
    if what == "dup_row" and rows:
        i = rng.choice(rows)
        lines.insert(i, lines[i])
        return Mutation(b"\n".join(lines), f"row at line {i + 1} duplicated")
    if what == "drop_column":
        k = rng.randrange(8)
        lines = [b"\t".join(c for j, c in enumerate(line.split(b"\t")) if j != k) for line in lines]
        return Mutation(b"\n".join(lines), f"column {k} dropped from every line")
    changed = []
    for _ in range(rng.randint(1, 4)):
        i = rng.choice(rows)
        cells = lines[i].split(b"\t")
        j = rng.randrange(len(cells))
        cells[j] = rng.choice(TABLE_CELLS)
        lines[i] = b"\t".join(cells)
        changed.append(f"{i + 1}:{j}")
    return Mutation(b"\n".join(lines), f"cells {', '.join(changed)} replaced")


BYTES_OPS: dict[str, Operator] = {
    "bytes.flip": op_flip,
    "bytes.insert": op_insert,
    "bytes.delete": op_delete,
    "bytes.invalid_utf8": op_invalid_utf8,
    "bytes.nul": op_nul,
    "bytes.truncate": op_truncate,
    "bytes.dup_chunk": op_dup_chunk,
}
TOKEN_OPS: dict[str, Operator] = {
    "token.delete": op_token_delete,
    "token.dup": op_token_dup,
    "token.swap": op_token_swap,
    "token.rename": op_token_rename,
}
TOML_NEST_OPS: dict[str, Operator] = {"nest.toml_array": op_toml_array, "nest.toml_table": op_toml_table}

# kind -> family -> operator name -> operator. A case picks a family, then an operator in it, so
# that the many byte operators do not crowd out the few structural ones.
OPERATORS: dict[str, dict[str, dict[str, Operator]]] = {
    "game": {
        "bytes": BYTES_OPS,
        "nest": {
            "nest.parens": op_parens,
            "nest.brackets": op_brackets,
            "nest.sum": op_sum,
            "nest.unary": op_unary,
            "nest.if": op_nested_if,
            "nest.interpolation": op_interpolation,
        },
        "number": {"number": op_number},
        "token": TOKEN_OPS,
        "path": {"path.include": op_include},
        "resource": {
            "resource.grid": op_grid,
            "resource.generate": op_generate,
            "resource.choices": op_choices,
            "resource.runtime": op_runtime,
        },
        "runtime": {"runtime.error": op_runtime_error},
    },
    "table": {
        "bytes": BYTES_OPS,
        "number": {"number": op_number},
        "token": TOKEN_OPS,
        "table": {"table.cells": op_table_cells},
    },
    "transcript": {
        "bytes": BYTES_OPS,
        "nest": TOML_NEST_OPS,
        "number": {"number": op_number},
        "token": TOKEN_OPS,
        "path": {"path.start": _transcript_path("start"), "path.game": _transcript_path("game")},
        "semantic": {"transcript.fields": op_transcript_fields, "transcript.start_state": op_transcript_start_state},
    },
    "state": {
        "bytes": BYTES_OPS,
        "nest": TOML_NEST_OPS,
        "number": {"number": op_number},
        "token": TOKEN_OPS,
        "semantic": {
            "state.seats": _state_op(st_seat_names),
            "state.seat_types": _state_op(st_seat_types),
            "state.frames": _state_op(st_frames),
            "state.pending": _state_op(st_pending),
            "state.log": _state_op(st_log),
            "state.vars": _state_op(st_vars),
            "state.rng": _state_op(st_rng),
            "state.scalars": _state_op(st_scalars),
            "state.missing": _state_op(st_missing),
            "state.extra": _state_op(st_extra),
            "state.field_types": _state_op(st_field_types),
            "state.cross_game": op_state_cross_game,
        },
    },
}
KIND_WEIGHTS = {"game": 5, "table": 1, "transcript": 2, "state": 3}
FAMILY_WEIGHTS = {"semantic": 2, "resource": 1}  # families not named here weigh 1; states are mostly semantic


# ======================================================================================
# Cases: a mutant in its own folder, and the commands run on it
# ======================================================================================


@dataclass
class Case:
    """One mutant, fully determined by (seed, index) and the base inputs."""

    seed: int
    index: int
    kind: str
    base: str
    operator: str
    description: str
    rel: str
    original: bytes
    mutated: bytes
    trees: tuple[tuple[str, str], ...]
    files: dict[str, bytes]
    links: dict[str, str]
    commands: list[list[str]]

    @property
    def id(self) -> str:
        return f"{self.seed}:{self.index}"


def _matches(name: str, only: str | None) -> bool:
    return only is None or name == only or name.startswith(only + ".")


def make_case(seed: int, index: int, bases: list[Base], only: str | None = None) -> Case:
    """The case (seed, index); `only` (an operator or a family such as "state") narrows the operators."""
    rng = random.Random(f"gamedef-fuzz:{seed}:{index}:{only or ''}")
    usable = {
        kind: {
            family: {n: op for n, op in ops.items() if _matches(n, only) or _matches(kind, only)}
            for family, ops in families.items()
        }
        for kind, families in OPERATORS.items()
        if any(b.kind == kind for b in bases)
    }
    usable = {k: {f: ops for f, ops in fs.items() if ops} for k, fs in usable.items()}
    kinds = [k for k in KIND_WEIGHTS if usable.get(k)]
    if not kinds:
        raise ValueError(f"no operator matches {only!r}")
    kind = rng.choices(kinds, [KIND_WEIGHTS[k] for k in kinds])[0]
    of_kind = [b for b in bases if b.kind == kind]
    # A file of a large game costs a cold compile per command: drawn a third as often.
    base = rng.choices(of_kind, [1 / SLOW_GAMES.get(b.entry, 1.0) for b in of_kind])[0]
    families = usable[kind]
    family = rng.choices(list(families), [FAMILY_WEIGHTS.get(f, 1) for f in families])[0]
    name = rng.choice(sorted(families[family]))
    try:
        m = families[family][name](rng, base, bases)
    except Exception as exc:  # an operator that cannot apply to this input falls back to flipping bits
        m = op_flip(rng, base, bases)
        m.description = f"({name} did not apply: {type(exc).__name__}: {exc}) " + m.description
        name = "bytes.flip"
    if kind in ("game", "table"):
        k = rng.randint(*base.players)
        run = ["run", base.entry, "--quiet", "--players", str(k), "--seed", str(rng.randrange(1000))]
        run += ["--max-decisions", str(MAX_DECISIONS)]
        if base.variants and rng.random() < 0.4:
            run += ["--variant", rng.choice(base.variants)]
        # check's play is held to half a second: the case's time limit is for the interpreter's own work
        commands = [["check", base.entry, "--budget", "0.5"], run]
    elif kind == "transcript":
        commands = [["replay", base.rel]]
    else:
        game = m.game or base.game
        commands = [["run", game, "--from-state", base.rel, "--quiet", "--max-decisions", str(MAX_DECISIONS)]]
        if m.game is None:
            for v in base.variants:
                commands[0] += ["--variant", v]
    return Case(
        seed,
        index,
        kind,
        base.name,
        name,
        m.description,
        base.rel,
        base.data,
        m.data,
        base.trees,
        m.files,
        m.links,
        commands,
    )


def materialize(case: Case, folder: Path) -> Path:
    """Write the mutant into a fresh folder that copies its original's folder, so relative paths resolve."""
    folder.mkdir(parents=True)
    for source, dest in case.trees:
        shutil.copytree(ROOT / source, folder / dest, ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.pyc"))
    target = folder / case.rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(case.mutated)
    for rel, data in case.files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    for rel, link in case.links.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() or path.is_symlink():
            path.unlink()
        os.symlink(link, path)
    return folder


# ======================================================================================
# The worker: runs `interpreter.cli.main(argv)` in-process, case after case
# ======================================================================================


class CaseTimeout(BaseException):
    """Raised by the worker's alarm: a BaseException, so the interpreter's `except Exception` cannot swallow it."""


class Capture(io.TextIOBase):
    """stdout/stderr of one run: the head and the tail of what was written, in bounded memory."""

    HEAD = 20_000
    TAIL = 8_000

    def __init__(self) -> None:
        self.head = io.StringIO()
        self.tail = ""
        self.total = 0

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        n = len(s)
        self.total += n
        room = self.HEAD - self.head.tell()
        if room > 0:
            self.head.write(s[:room])
            s = s[room:]
        if s:
            self.tail = (self.tail + s)[-self.TAIL :]
        return n

    def close(self) -> None:  # `main` closes stderr on BrokenPipeError; the text must stay readable
        pass

    def text(self) -> str:
        head = self.head.getvalue()
        if not self.tail:
            return head
        return head + f"\n[... {self.total - len(head) - len(self.tail)} characters left out ...]\n" + self.tail


class _Watch:
    """What the audit hook needs: whether a case runs, what it may read, what it read outside."""

    active = False
    busy = False
    allowed: tuple[str, ...] = ()
    lark_cache = ""
    code_cache = ""  # the interpreter's own cache of parsed files and compiled code (codecache.py)
    outside: list[str] = []


_WATCHED = {"open", "os.listdir", "os.scandir", "glob.glob"}


def _inside(path: str, roots: Iterable[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def _audit(event: str, args: tuple) -> None:
    """Record every file opened or folder listed outside the allowed folders while a case runs."""
    if not _Watch.active or _Watch.busy or event not in _WATCHED:
        return
    _Watch.busy = True
    try:
        target = args[0] if args else None
        if target is None or isinstance(target, int):
            return
        if event == "open" and _new_file(args):
            return  # a file made new (a process's own scratch file): nothing is read from it that it did not write
        name = os.fsdecode(target)
        if "\x00" in name:
            real = os.path.abspath(name.split("\x00")[0])
        else:
            real = os.path.realpath(name)
        if _inside(real, _Watch.allowed):
            return
        if os.path.basename(real).startswith(".lark_cache") and os.path.dirname(real) == _Watch.lark_cache:
            return
        if _Watch.code_cache and _inside(real, (_Watch.code_cache,)):
            return  # the engine's own cache, named by digests: no game file chooses what is read there
        note = f"{event}: {name!r}" + (f" -> {real}" if real != name else "") + f" @ {_package_frame()}"
        if len(_Watch.outside) < 20:
            _Watch.outside.append(note)
        # Also to the worker's stderr at once: if the read kills the worker, the parent still learns of it.
        os.write(2, f"fuzz-outside: {note}\n".encode("utf-8", "backslashreplace"))
    except Exception:  # the hook must never change what the code under test sees
        pass
    finally:
        _Watch.busy = False


def _new_file(args: tuple) -> bool:
    """Whether an `open` audit event makes a new file and reads no existing one: a folder
    opened to write (only an unnamed new file there, `O_TMPFILE`, can be: what
    `tempfile.TemporaryFile` makes) or a name created exclusively (`O_CREAT | O_EXCL`)."""
    flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
    exclusive = os.O_CREAT | os.O_EXCL
    if flags & exclusive == exclusive:
        return True
    writes = flags & (os.O_WRONLY | os.O_RDWR)
    return bool(writes) and isinstance(args[0], str | bytes) and os.path.isdir(args[0])


def _package_frame() -> str:
    """The innermost frame of the interpreter's own code on the stack: who opened the file."""
    package = str(ROOT / "interpreter") + os.sep
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename.startswith(package):
            return f"{os.path.relpath(frame.f_code.co_filename, ROOT)}:{frame.f_lineno} in {frame.f_code.co_name}"
        frame = frame.f_back
    return "-"


def _innermost(tb_frames: list[traceback.FrameSummary]) -> tuple[str, str]:
    """(innermost frame in interpreter/, innermost frame overall), as 'file:line in func'."""
    inner = ""
    package = str(ROOT / "interpreter") + os.sep
    for fr in tb_frames:
        real = os.path.realpath(fr.filename)
        if real.startswith(package):
            inner = f"{os.path.relpath(real, ROOT)}:{fr.lineno} in {fr.name}"
    last = tb_frames[-1] if tb_frames else None
    overall = f"{last.filename}:{last.lineno} in {last.name}" if last else ""
    return inner, overall


def _run_one(request: dict, base_allowed: tuple[str, ...], time_limit: float) -> dict:
    from interpreter.cli import commands as cli

    cwd = request["cwd"]
    os.chdir(cwd)
    out, err = Capture(), Capture()
    saved = sys.stdin, sys.stdout, sys.stderr
    result: dict[str, Any] = {
        "exit": None,
        "exc_type": None,
        "exc": "",
        "timeout": False,
        "frame": "",
        "where": "",
        "tb": "",
    }

    time_limit *= request.get("scale", 1.0)

    def alarm(signum: int, frame: Any) -> None:
        if _Watch.active:
            raise CaseTimeout(f"more than {time_limit:g} s")

    signal.signal(signal.SIGALRM, alarm)
    _Watch.allowed = base_allowed + (os.path.realpath(cwd),)
    _Watch.outside = []
    started = time.perf_counter()
    caught: BaseException | None = None
    try:
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), out, err
        _Watch.active = True
        signal.setitimer(signal.ITIMER_REAL, time_limit)
        try:
            result["exit"] = cli.main(request["argv"])
        finally:
            _Watch.active = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except SystemExit as exc:  # argparse, or a sys.exit somewhere: its code is the exit code
        result["exit"] = exc.code if isinstance(exc.code, int) or exc.code is None else 1
        result["system_exit"] = True
    except CaseTimeout as exc:
        result["timeout"] = True
        caught = exc
    except BaseException as exc:  # MemoryError, RecursionError, anything: the finding itself
        caught = exc
    finally:
        _Watch.active = False
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(os.path.dirname(cwd))
    result["elapsed"] = time.perf_counter() - started
    if caught is not None:
        try:
            frames = traceback.extract_tb(caught.__traceback__)
            result["frame"], result["where"] = _innermost(frames)
            result["exc_type"] = type(caught).__name__
            result["exc"] = str(caught)[:2000]
            lines = traceback.format_exception(caught)
            text = "".join(lines[:4] + ["  ...\n"] + lines[-12:] if len(lines) > 16 else lines)
            result["tb"] = text[-6000:]
        except BaseException as exc:  # formatting can fail right after a MemoryError
            result["exc_type"] = result["exc_type"] or type(caught).__name__
            result["tb"] = f"(traceback not formatted: {type(exc).__name__})"
        caught = None
    result["stdout"] = out.text()
    result["stderr"] = err.text()
    result["outside"] = list(_Watch.outside)
    return result


def worker_main(time_limit: float, memory_limit: int) -> None:
    """Serve requests (one JSON line each) on a private copy of stdin/stdout until EOF."""
    import resource
    import sysconfig

    resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # nothing the interpreter does can read or corrupt the protocol
    os.dup2(null, 1)
    # Import and warm up everything first, so lazy imports and lark's cache are not read during a case.
    import interpreter.check.checker
    import interpreter.check.rules_index
    import interpreter.cli.commands
    import interpreter.play.agents
    import interpreter.runtime.render
    import interpreter.runtime.saving  # noqa: F401
    from interpreter.language import parser

    if hasattr(parser, "_lark"):
        parser._lark()
    roots = {str(ROOT / d) for d in PACKAGE_DIRS}
    paths = sysconfig.get_paths()
    roots |= {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    roots |= {os.path.dirname(os.path.dirname(m.__file__ or "")) for m in (json, tomllib)}  # the stdlib
    import lark

    roots.add(os.path.dirname(lark.__file__ or ""))
    base_allowed = tuple(sorted({os.path.realpath(r) for r in roots if r}))
    _Watch.lark_cache = os.path.realpath(tempfile.gettempdir())
    from interpreter.compile import codecache

    cache = codecache.directory()
    _Watch.code_cache = os.path.realpath(cache) if cache is not None else ""
    sys.addaudithook(_audit)
    for line in requests:
        reply = _run_one(json.loads(line), base_allowed, time_limit)
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


# ======================================================================================
# The parent: workers, classification, campaigns
# ======================================================================================


class Worker:
    """A worker process, restarted whenever it dies or is killed."""

    def __init__(self, folder: Path, number: int, time_limit: float, memory_limit: int):
        self.folder = folder
        self.log = folder / f"worker{number}.log"
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
        argv = [sys.executable, str(Path(__file__).resolve()), "--worker"]
        argv += ["--time-limit", str(self.time_limit), "--memory-limit", str(self.memory_limit)]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, cwd=self.folder, env=env
            )

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            for pipe in (self.proc.stdin, self.proc.stdout):
                if pipe is not None:
                    pipe.close()
            self.proc = None

    def run(self, request: dict) -> dict:
        """The worker's reply, or a reply saying how the worker ended (killed at the deadline, or died)."""
        if self.proc is None or self.proc.poll() is not None:
            self.stop()
            self.start()
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        offset = self.log.stat().st_size if self.log.exists() else 0
        deadline = self.time_limit * request.get("scale", 1.0) + GRACE
        started = time.perf_counter()
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            ready, _, _ = select.select([self.proc.stdout], [], [], deadline)
            line = self.proc.stdout.readline() if ready else b""
        except (BrokenPipeError, OSError):
            ready, line = [True], b""
        if line:
            return json.loads(line)
        killed = not ready
        if killed:
            self.proc.kill()
        code = self.proc.wait()
        self.stop()
        with open(self.log, "rb") as log:
            log.seek(offset)
            tail = log.read().decode("utf-8", "replace")
        outside = [t.removeprefix("fuzz-outside: ") for t in tail.splitlines() if t.startswith("fuzz-outside: ")]
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        return {
            "exit": None,
            "killed": f"killed at the deadline ({deadline:g} s)" if killed else f"worker died ({how})",
            "timeout": killed,
            "exc_type": None,
            "exc": "",
            "frame": "",
            "where": "",
            "tb": "",
            "stdout": "",
            "stderr": "\n".join(t for t in tail.splitlines() if not t.startswith("fuzz-outside: "))[-4000:],
            "outside": outside[:20],
            "elapsed": time.perf_counter() - started,
        }


@dataclass
class Run:
    """One command on one mutant, classified."""

    argv: list[str]
    cls: str
    classes: list[str]
    exit: Any
    exc_type: str | None
    frame: str
    where: str
    exc: str
    tb: str
    stdout: str
    stderr: str
    outside: list[str]
    elapsed: float
    quality: str = ""
    killed: str = ""


@dataclass
class CaseResult:
    case_id: str
    index: int
    kind: str
    base: str
    operator: str
    description: str
    diff: str
    runs: list[Run]
    mutant_size: int
    only: str | None = None  # the --only filter the case was made under (part of its identity)


def message_quality(stderr: str) -> str:
    """How an exit-2 message reads: with a position (path:line:col) or a named field, with a hint."""
    text = stderr.strip()
    first = text.splitlines()[0] if text else ""
    first = re.sub(r"^gamedef: error: \S+\.(toml|game): ", "", first)  # the file's own name is not a field
    position = re.search(r"\S:\d+:\d+(:|\s|$)|\(at line \d+, column \d+\)", first) is not None
    named = re.search(r"'[^']+'|@ \$\.|\b\w+(\.\w+|\[\d+\])+:|\b(field|variable|key|move \d+)\b", first) is not None
    hint = "hint:" in text
    where = "position" if position else "field" if named else "bare"
    return f"{where}+hint" if hint else where


def classify(argv: list[str], r: dict) -> Run:
    output = (r.get("stdout") or "") + (r.get("stderr") or "") + (r.get("tb") or "")
    found = []
    if r.get("outside"):
        found.append("outside-read")
    if r.get("exc_type") == "MemoryError" or "MemoryError" in output or (r.get("killed", "").startswith("worker died")):
        found.append("memory")
    if r.get("timeout"):
        found.append("hang")
    if (r.get("exc_type") and not r.get("timeout") and r.get("exc_type") != "MemoryError") or "Traceback" in (
        (r.get("stdout") or "") + (r.get("stderr") or "")
    ):
        found.append("traceback")
    if r.get("exit") not in (0, 1, 2) and not found:
        found.append("bad-exit")
    classes = [c for c in PRIORITY if c in found]
    cls = classes[0] if classes else "ok"
    frame = r.get("frame", "")
    if not frame and "Traceback" in output:
        files = re.findall(r'File "([^"]*interpreter[/\\][^"]+)", line (\d+), in (\S+)', output)
        if files:
            path, line, func = files[-1]
            frame = f"interpreter/{Path(path).name}:{line} in {func}"
    run = Run(
        argv=argv,
        cls=cls,
        classes=classes,
        exit=r.get("exit"),
        exc_type=r.get("exc_type"),
        frame=frame,
        where=r.get("where", ""),
        exc=r.get("exc", ""),
        tb=r.get("tb", ""),
        stdout=r.get("stdout", ""),
        stderr=r.get("stderr", ""),
        outside=r.get("outside", []),
        elapsed=r.get("elapsed", 0.0),
        killed=r.get("killed", ""),
    )
    if cls == "ok" and run.exit == 2:
        run.quality = message_quality(run.stderr)
    if cls == "ok":  # thousands of these are kept: only what the summary reads
        run.stdout, run.stderr, run.tb = run.stdout[:300], run.stderr[:1000], ""
    return run


def short_diff(a: bytes, b: bytes, max_lines: int = 14, width: int = 160) -> str:
    """A unified diff of the mutant against its original, clipped to a few short lines."""
    if a == b:
        return "(file unchanged)"
    at = a.decode("utf-8", "backslashreplace").splitlines()
    bt = b.decode("utf-8", "backslashreplace").splitlines()
    lines = [line for line in difflib.unified_diff(at, bt, "original", "mutant", n=0, lineterm="")][2:]
    clipped = []
    for line in lines[:max_lines]:
        line = line.replace("\x00", "\\x00")
        clipped.append(line if len(line) <= width else line[:width] + f"...(+{len(line) - width} chars)")
    if len(lines) > max_lines:
        clipped.append(f"... {len(lines) - max_lines} more diff lines")
    return "\n".join(clipped)


@dataclass
class Campaign:
    seed: int
    indices: list[int]
    results: list[CaseResult]
    elapsed: float
    time_limit: float
    memory_limit: int
    jobs: int
    notes: list[str]


def run_campaign(
    seed: int,
    indices: Iterable[int],
    jobs: int | None = None,
    time_limit: float = TIME_LIMIT,
    memory_limit: int = MEMORY_LIMIT,
    keep: Path | None = None,
    keep_all: bool = False,
    progress: Callable[[str], None] | None = None,
    only: str | None = None,
) -> Campaign:
    """Run the cases `indices` of `seed` on `jobs` workers; keep the folders of findings under `keep`."""
    indices = list(indices)
    jobs = jobs or min(os.cpu_count() or 2, 8)
    started = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="gamedef-fuzz-"))
    notes: list[str] = []
    try:
        bases = build_bases(tmp, notes)
        todo = collections.deque(indices)
        lock = threading.Lock()
        results: list[CaseResult] = []

        def work(number: int) -> None:
            worker = Worker(tmp, number, time_limit, memory_limit)
            try:
                while True:
                    with lock:
                        if not todo:
                            return
                        index = todo.popleft()
                    result = _run_case(worker, seed, index, bases, tmp, keep, keep_all, only)
                    with lock:
                        results.append(result)
                        if progress and len(results) % 50 == 0:
                            bad = sum(1 for r in results if any(run.cls != "ok" for run in r.runs))
                            progress(
                                f"{len(results)}/{len(indices)} cases, {bad} with findings, "
                                f"{time.perf_counter() - started:.0f} s"
                            )
            finally:
                worker.stop()

        threads = [threading.Thread(target=work, args=(n,), daemon=True) for n in range(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    results.sort(key=lambda r: r.index)
    return Campaign(seed, indices, results, time.perf_counter() - started, time_limit, memory_limit, jobs, notes)


def _run_case(
    worker: Worker,
    seed: int,
    index: int,
    bases: list[Base],
    tmp: Path,
    keep: Path | None,
    keep_all: bool,
    only: str | None,
) -> CaseResult:
    case = make_case(seed, index, bases, only)
    folder = materialize(case, tmp / f"case{index}")
    runs: list[Run] = []
    for argv in case.commands:
        # A file of The Wall is Down or Downfall of Empires is compiled cold (each variant set of
        # it, for `check`, which then plays for its budget): 17 s for The Wall is Down's
        # house-rules tests on a quiet 2-core machine, twice that beside the other slow suites.
        scale = 6.0 if any(word in case.base for word in SLOW_NAMES) else 1.0
        run = classify(argv, worker.run({"cwd": str(folder), "argv": argv, "scale": scale}))
        runs.append(run)
        if run.cls in ("hang", "memory") or run.killed:
            worker.stop()  # a timed-out or starved worker may hold broken state: start afresh
            break  # the next command would load the same input and only take as long
    if keep is not None and (keep_all or any(r.cls != "ok" for r in runs)):
        dest = keep / f"case-{seed}-{index}"
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(folder, dest, symlinks=True)
    shutil.rmtree(folder, ignore_errors=True)
    return CaseResult(
        case.id,
        index,
        case.kind,
        case.base,
        case.operator,
        case.description,
        short_diff(case.original, case.mutated),
        runs,
        len(case.mutated),
        only,
    )


# ======================================================================================
# Reports
# ======================================================================================


@dataclass
class Finding:
    result: CaseResult
    run: Run

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Distinct failures: class, exception type, innermost interpreter frame, operator."""
        frame = self.run.frame or self.run.where
        frame = re.sub(r":(\d+|None) in ", " in ", frame)  # line numbers move while the code is fixed
        if self.run.cls == "outside-read" and self.run.outside:
            frame = re.sub(r":\d+ in ", " in ", self.run.outside[0].rpartition(" @ ")[2])
        return (self.run.cls, self.run.exc_type or (self.run.killed or "-"), frame or "-", self.result.operator)


def findings(campaign: Campaign) -> list[Finding]:
    return [Finding(r, run) for r in campaign.results for run in r.runs if run.cls != "ok"]


def _tail(text: str, n: int) -> str:
    """The last n lines worth reading (no blank lines, no traceback carets), clipped."""
    lines = [line for line in text.rstrip().splitlines() if line.strip(" ^~")]
    return "\n".join(line if len(line) <= 200 else line[:200] + "..." for line in lines[-n:])


def format_finding(f: Finding, verbose: bool = False) -> str:
    r, run = f.result, f.run
    lines = [
        f"--- case {r.case_id} [{run.cls}{' + ' + ', '.join(run.classes[1:]) if len(run.classes) > 1 else ''}] "
        f"{r.operator} on {r.base}",
        f"    mutation: {r.description}",
        f"    command:  gamedef {' '.join(run.argv)}   "
        f"(exit {run.exit}, {run.elapsed:.1f} s{', ' + run.killed if run.killed else ''})",
    ]
    if run.exc_type:
        lines.append(f"    exception: {run.exc_type}: {_tail(run.exc, 1)[:200]}")
    if run.frame or run.where:
        lines.append(f"    innermost: {run.frame or '-'}   (overall: {run.where or '-'})")
    if run.outside:
        lines.append("    outside:  " + "; ".join(run.outside[:4]))
    lines.append("    diff:")
    lines.extend("      " + line for line in r.diff.splitlines())
    out = _tail(run.stderr, 12 if verbose else 6)
    if run.tb and verbose:
        out = _tail(run.tb, 14) + ("\n" + out if out else "")
    if out:
        lines.append("    output (last lines):")
        lines.extend("      " + line for line in out.splitlines())
    only = f" --only {r.only}" if r.only else ""
    seed = r.case_id.split(":")[0]
    lines.append(f"    reproduce: python -m tests.fuzz --seed {seed} --case {r.index}{only} --keep /tmp/fuzz-case")
    return "\n".join(lines)


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in rows
    )


def summary(campaign: Campaign) -> str:
    runs = [(r, run) for r in campaign.results for run in r.runs]
    found = findings(campaign)
    lines = [
        f"gamedef fuzz: seed {campaign.seed}, {len(campaign.results)} cases, {len(runs)} runs, "
        f"{campaign.elapsed:.0f} s on {campaign.jobs} workers; limits {campaign.time_limit:g} s and "
        f"{campaign.memory_limit / 1024**3:g} GiB per run",
    ]
    lines += [f"note: {n}" for n in campaign.notes]
    lines.append("")
    counts = collections.Counter(run.cls for _, run in runs)
    lines.append("runs by class: " + ", ".join(f"{c} {counts.get(c, 0)}" for c in CLASSES))
    cases_bad = sum(1 for r in campaign.results if any(run.cls != "ok" for run in r.runs))
    lines.append(f"cases with a finding: {cases_bad} of {len(campaign.results)}")
    lines.append("")
    per_op: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r, run in runs:
        per_op[r.operator][run.cls] += 1
        per_op[r.operator]["runs"] += 1
    rows = [["operator", "runs", *CLASSES]]
    for op in sorted(per_op):
        rows.append([op, str(per_op[op]["runs"]), *(str(per_op[op][c] or "") for c in CLASSES)])
    lines.append(_table(rows))
    lines.append("")
    quality = collections.Counter(run.quality for _, run in runs if run.quality)
    lines.append("exit-2 messages: " + ", ".join(f"{q} {n}" for q, n in sorted(quality.items())))
    weak = collections.Counter()
    for _, run in runs:
        if run.quality and not run.quality.startswith("position"):
            first = run.stderr.strip().splitlines()[0] if run.stderr.strip() else "(no message)"
            first = re.sub(r"/tmp/gamedef-fuzz-[^/]+/case\d+/", "", first)
            weak[(run.quality, first[:150])] += 1
    if weak:
        lines.append("exit-2 messages without a position, most frequent first (quality, count, first line):")
        for (q, first), n in weak.most_common(25):
            lines.append(f"  {q:<12} {n:>4}  {first}")
    lines.append("")
    groups: dict[tuple, list[Finding]] = collections.defaultdict(list)
    for f in found:
        groups[f.key].append(f)
    lines.append(f"distinct findings (class, exception, innermost interpreter frame, operator): {len(groups)}")
    rows = [["class", "exception", "innermost frame", "operator", "cases", "runs", "smallest"]]
    for key, group in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        smallest = min(group, key=lambda f: (len(f.result.diff), f.result.mutant_size))
        cases = len({f.result.case_id for f in group})
        rows.append([*key, str(cases), str(len(group)), smallest.result.case_id])
    if len(rows) > 1:
        lines.append(_table(rows))
    return "\n".join(lines)


def printable(text: str) -> str:
    """Control characters (a mutant's NUL bytes, echoed in messages) shown as escapes, so reports stay text."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # lone surrogates from undecodable bytes
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\x{ord(m.group()):02x}", text)


def report(campaign: Campaign, verbose: bool = True) -> str:
    found = findings(campaign)
    parts = [summary(campaign), "", f"findings: {len(found)}"]
    parts += [format_finding(f, verbose) for f in found]
    return printable("\n".join(parts) + "\n")


def dump_json(campaign: Campaign, path: Path) -> None:
    data = {
        "seed": campaign.seed,
        "elapsed": campaign.elapsed,
        "results": [asdict(r) for r in campaign.results if any(run.cls != "ok" for run in r.runs)],
    }
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


# ======================================================================================
# Command line
# ======================================================================================


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200, help="number of cases (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first case index (default 0)")
    parser.add_argument("--case", type=int, action="append", help="run only this case index (repeatable)")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: the number of CPUs)")
    parser.add_argument(
        "--time-limit", type=float, default=TIME_LIMIT, help=f"seconds per run (default {TIME_LIMIT:g})"
    )
    parser.add_argument("--memory-limit", type=int, default=MEMORY_LIMIT, help="bytes of address space per worker")
    parser.add_argument("--report", type=Path, help="write the full report here (the summary is printed)")
    parser.add_argument("--json", type=Path, help="write the cases with findings as JSON here")
    parser.add_argument("--keep", type=Path, help="copy the folder of each case with a finding here")
    parser.add_argument("--only", help="only operators named so or in this family/kind (nest, state, path.include)")
    parser.add_argument("--show", action="store_true", help="print each mutant's description and diff, even if ok")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker_main(args.time_limit, args.memory_limit)
        return 0
    indices = args.case or list(range(args.start, args.start + args.cases))
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    campaign = run_campaign(
        args.seed,
        indices,
        args.jobs,
        args.time_limit,
        args.memory_limit,
        keep=args.keep,
        keep_all=bool(args.case),
        progress=lambda s: print(s, file=sys.stderr, flush=True),
        only=args.only,
    )
    text = report(campaign)
    if args.report:
        args.report.write_text(text, encoding="utf-8")
    if args.json:
        dump_json(campaign, args.json)
    print(printable(summary(campaign)))
    if args.case or args.show:
        for r in campaign.results:
            lines = [f"\ncase {r.case_id}: {r.operator} on {r.base}: {r.description}", r.diff]
            for run in r.runs:
                lines.append(f"  gamedef {' '.join(run.argv)} -> {run.cls}, exit {run.exit}")
                lines.append(_tail(run.tb + "\n" + run.stderr, 10))
            print(printable("\n".join(lines)))
    elif not args.report:
        print(printable("\n".join(format_finding(f) for f in findings(campaign))))
    return 1 if findings(campaign) else 0


if __name__ == "__main__":
    sys.exit(main())
