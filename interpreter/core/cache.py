"""The cache directory every cache of gamedef shares, and its safety rules.

Safe as Python's own `__pycache__` is: the directory is the user's (created private), a
file owned by someone else or writable by others is ignored, and a file too big is
ignored. Nothing here raises: a cache that can't be read or written is no cache.
`GAMEDEF_CACHE=DIR` puts the cache in DIR; `GAMEDEF_CACHE=off` turns it off.

Its users: parsed files (language/treecache.py), the code compiled from games
(compile/codecache.py) and whole compiled games (compile/gamecache.py).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

MAX_FILE_BYTES = 64 * 1024 * 1024  # a cache file larger than this is not read
MAX_FILES = 100  # the oldest files beyond this many are removed
MAX_GAMES = 24  # whole compiled games (gamecache.py) kept, up to a few MB each


def directory() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    setting = os.environ.get("GAMEDEF_CACHE", "")
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamedef"


def trusted(path: Path) -> bool:
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


def write_bytes(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
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
    """Remove the files of each kind used least recently beyond its number."""
    for kind, keep in (("*.codes", MAX_FILES), ("*.tree", MAX_FILES), ("*.game", MAX_GAMES)):
        files = []
        for p in where.glob(kind):
            try:
                files.append((p.stat().st_mtime, p))
            except OSError:  # removed meanwhile by another process
                continue
        for _, old in sorted(files)[:-keep]:
            old.unlink(missing_ok=True)
