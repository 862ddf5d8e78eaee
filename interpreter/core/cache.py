"""The cache directory every cache of gamedef shares, and its safety rules.

Safe as Python's own `__pycache__` is: the directory is the user's (created private), a
file owned by someone else or writable by others is ignored, and a file too big is
ignored. Nothing here raises: a cache that can't be read or written is no cache.
`GAMEDEF_CACHE=DIR` puts the cache in DIR; `GAMEDEF_CACHE=off` turns it off.

Its users: parsed files (language/treecache.py), the code compiled from games
(compile/codecache.py) and whole compiled games (compile/gamecache.py), with the index
that finds one by the rules it holds (`.same` files, gamecache.py), and what `gamedef
check` found for rules it checked whole (`.verdict` files, play/verdicts.py).
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path

MAX_FILE_BYTES = 64 * 1024 * 1024  # a cache file larger than this is not read
MAX_FILES = 100  # the oldest files beyond this many are removed
MAX_GAMES = 24  # whole compiled games (gamecache.py) kept, up to a few MB each
# A half-written file older than this was left by a writer that died (a detached copy
# stopped by its alarm, core/background.py; a process killed): no writer takes so long.
STALE_TMP_SECONDS = 15 * 60


def directory() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    setting = os.environ.get("GAMEDEF_CACHE", "")
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamedef"


def _owned_private(st: os.stat_result) -> bool:
    """Owned by this user, and nobody else may write it."""
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & 0o022


def trusted(path: Path) -> bool:
    """A regular file this user owns that nobody else may write, in a folder likewise,
    and not a symbolic link: a link would have the link's folder checked and another
    file read (the real file and its real folder are what is checked)."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
            return False
        return _owned_private(st) and _owned_private(os.stat(path.parent.resolve())) and st.st_size <= MAX_FILE_BYTES
    except OSError:
        return False


def read_trusted(path: Path) -> bytes | None:
    """The bytes of a cache file if it is `trusted`, else None. The file is opened without
    following a link and checked on the open file itself, so it can't be swapped for a
    link or another file between the check and the read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:  # missing, or a link (O_NOFOLLOW: ELOOP)
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or not _owned_private(st) or st.st_size > MAX_FILE_BYTES:
                return None
            if not _owned_private(os.stat(path.parent.resolve())):
                return None
            data = f.read(MAX_FILE_BYTES + 1)
            return data if len(data) <= MAX_FILE_BYTES else None
    except OSError:
        return None


def write_bytes(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if len(data) > MAX_FILE_BYTES:
            return
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)  # whole or not at all: a reader never sees half a file
        except BaseException:  # a full disk, an interrupt: the half-written file goes too
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(path.parent)
    except (OSError, ValueError):
        return


def _prune(where: Path) -> None:
    """Remove the files of each kind used least recently beyond its number, and any
    half-written file a writer that died left behind (`STALE_TMP_SECONDS`)."""
    for kind, keep in (
        ("*.codes", MAX_FILES),
        ("*.tree", MAX_FILES),
        ("*.game", MAX_GAMES),
        ("*.same", MAX_FILES),
        ("*.verdict", MAX_FILES),
    ):
        files = []
        for p in where.glob(kind):
            try:
                files.append((p.stat().st_mtime, p))
            except OSError:  # removed meanwhile by another process
                continue
        for _, old in sorted(files)[:-keep]:
            old.unlink(missing_ok=True)
    stale = time.time() - STALE_TMP_SECONDS
    for p in where.glob("*.tmp"):
        try:
            if p.stat().st_mtime < stale:
                p.unlink()
        except OSError:  # removed meanwhile by another process
            continue
