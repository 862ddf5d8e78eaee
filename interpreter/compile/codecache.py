"""The Python code compiled from games, and their parsed files, kept between runs as
Python keeps `.pyc` files.

Loading a big game compiles thousands of small generated functions (expressions.py,
blocks.py), each a module tree (emit.py); Python's `compile()` of the trees is a large
part of that time. The code object of a tree depends only on the tree, its name and the
Python version, so it is kept in a dict by (key, name) for the process, the key being
the tree's structure as the lowering records it (`emit.Lowering.key`, bytes), and on
disk in a `marshal` file per game, variants and options, named by the digest of those
names: a later run reads the file and compiles only what changed, and so does the run
after an edit (the trees the edit did not touch are found in it). A stale or missing
entry is only a miss (the tree is compiled), so the cache can never change what a game
does.

Safe as Python's own `__pycache__` is: the directory is the user's (created private),
a file owned by someone else or writable by others is ignored, `marshal` builds data and
code objects but runs nothing, and a file too big, truncated or of the wrong shape is
ignored. Nothing here raises: a cache that can't be read or written is no cache.

Whole compiled games are kept in the same directory (gamecache.py); parsed files likewise
(language/treecache.py); these caches serve the loads that one misses (a changed file, a new interpreter).

`GAMEDEF_CACHE=DIR` puts the cache in DIR; `GAMEDEF_CACHE=off` turns it off.
"""

from __future__ import annotations

import ast
import hashlib
import marshal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType

from interpreter.core.cache import directory, read_trusted, write_bytes

MAX_MEMORY = 50_000  # code objects kept in the process at most

Key = tuple[bytes, str]
_codes: dict[Key, CodeType] = {}
_recording: list[dict[Key, CodeType]] = []  # the loads in progress, innermost last
_held: dict[Path, dict[Key, CodeType]] = {}  # what each file read or written in this process holds


def compiled(tree: ast.Module, structure: bytes, name: str) -> CodeType:
    """`compile(tree, name, "exec")`, from the cache when it holds a tree of the same
    `structure` (`emit.Lowering.key`) and name."""
    key = (structure, name)
    code = _codes.get(key)
    if code is None:
        code = compile(tree, name, "exec")
        if len(_codes) >= MAX_MEMORY:
            _codes.clear()
        _codes[key] = code
    if _recording:
        _recording[-1][key] = code
    return code


def _file(key: str) -> Path | None:
    where = directory()
    if where is None:
        return None
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return where / f"{digest}.{sys.implementation.cache_tag}.codes"


def _read(path: Path) -> dict[Key, CodeType]:
    raw = read_trusted(path)
    if raw is None:
        return {}
    try:
        data = marshal.loads(raw)
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        k: v
        for k, v in data.items()
        if isinstance(k, tuple)
        and len(k) == 2
        and isinstance(k[0], bytes)
        and isinstance(k[1], str)
        and isinstance(v, CodeType)
    }


def _write(path: Path, codes: dict[Key, CodeType]) -> None:
    try:
        write_bytes(path, marshal.dumps(codes))
    except ValueError:
        return


@contextmanager
def loading(key: str, adding: bool = False) -> Iterator[None]:
    """Around the compilation of one game: reads its cache file first, and writes it
    again afterwards if the compilation needed code the file did not hold. `adding`: the
    rest of a compile done since (lazy.py), whose code joins what the file holds."""
    path = _file(key)
    held = _held.get(path) if adding and path is not None else None
    known = held if held is not None else _read(path) if path is not None else {}
    for k, code in known.items():
        _codes.setdefault(k, code)
    used: dict[Key, CodeType] = {}
    _recording.append(used)
    try:
        yield
    finally:
        _recording.pop()
        if _recording:  # a load inside a load: its code belongs to the outer one too
            _recording[-1].update(used)
    if adding:
        used = {**known, **used}
    if path is None:
        return
    _held.clear()  # (one file's at most: the rest of the compile just done is added to it)
    _held[path] = known
    if used.keys() != known.keys():
        _write(path, used)
        _held[path] = used
