"""The Python code compiled from games, kept between runs as Python keeps `.pyc` files.

Loading a big game compiles thousands of small generated functions (expressions.py,
blocks.py); Python's `compile()` is about half of that time. The code object of a text
depends only on the text, its name and the Python version, so it is kept in a dict by
(text, name) for the process, and on disk in a `marshal` file per game and variants,
named by the digest of the game's files: a later run reads the file and compiles only
what changed. A stale or missing entry is only a miss (the text is compiled again), so
the cache can never change what a game does.

Safe as Python's own `__pycache__` is: the directory is the user's (created private),
a file owned by someone else or writable by others is ignored, `marshal` builds data and
code objects but runs nothing, and a file too big, truncated or of the wrong shape is
ignored. Nothing here raises: a cache that can't be read or written is no cache.

`GAMEDEF_CACHE=DIR` puts the cache in DIR; `GAMEDEF_CACHE=off` turns it off.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType

MAX_FILE_BYTES = 64 * 1024 * 1024  # a cache file larger than this is not read
MAX_FILES = 100  # the oldest files beyond this many are removed
MAX_MEMORY = 50_000  # code objects kept in the process at most

_codes: dict[tuple[str, str], CodeType] = {}
_recording: list[dict[tuple[str, str], CodeType]] = []  # the loads in progress, innermost last


def compiled(text: str, name: str) -> CodeType:
    """`compile(text, name, "exec")`, from the cache when it holds the text."""
    key = (text, name)
    code = _codes.get(key)
    if code is None:
        code = compile(text, name, "exec")
        if len(_codes) >= MAX_MEMORY:
            _codes.clear()
        _codes[key] = code
    if _recording:
        _recording[-1][key] = code
    return code


def directory() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    setting = os.environ.get("GAMEDEF_CACHE", "")
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamedef"


def _file(key: str) -> Path | None:
    where = directory()
    if where is None:
        return None
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return where / f"{digest}.{sys.implementation.cache_tag}.codes"


def _trusted(path: Path) -> bool:
    """A file this user owns that nobody else may write (and its directory likewise)."""
    try:
        for p in (path.parent, path):
            st = p.stat()
            if hasattr(os, "getuid") and st.st_uid != os.getuid():
                return False
            if st.st_mode & 0o022:
                return False
        return path.stat().st_size <= MAX_FILE_BYTES
    except OSError:
        return False


def _read(path: Path) -> dict[tuple[str, str], CodeType]:
    if not path.is_file() or not _trusted(path):
        return {}
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        k: v
        for k, v in data.items()
        if isinstance(k, tuple) and len(k) == 2 and all(isinstance(x, str) for x in k) and isinstance(v, CodeType)
    }


def _write(path: Path, codes: dict[tuple[str, str], CodeType]) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = marshal.dumps(codes)
        if len(data) > MAX_FILE_BYTES:
            return
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # whole or not at all: a reader never sees half a file
        _prune(path.parent)
    except (OSError, ValueError):
        return


def _prune(where: Path) -> None:
    files = sorted(where.glob("*.codes"), key=lambda p: p.stat().st_mtime)
    for old in files[:-MAX_FILES]:
        old.unlink(missing_ok=True)


@contextmanager
def loading(key: str) -> Iterator[None]:
    """Around the compilation of one game: reads its cache file first, and writes it
    again afterwards if the compilation needed code the file did not hold."""
    path = _file(key)
    known = _read(path) if path is not None else {}
    for k, code in known.items():
        _codes.setdefault(k, code)
    used: dict[tuple[str, str], CodeType] = {}
    _recording.append(used)
    try:
        yield
    finally:
        _recording.pop()
        if _recording:  # a load inside a load: its code belongs to the outer one too
            _recording[-1].update(used)
    if path is not None and used.keys() != known.keys():
        _write(path, used)
