"""The Python code compiled from games, and their parsed files, kept between runs as
Python keeps `.pyc` files.

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

A parsed file (its syntax tree) is kept likewise, by the digest of its path, its text and
the parser's own files (grammar, parser, syntax tree classes), as a pickle read by an
unpickler that builds only the syntax tree's classes: anything else in the file makes it
a miss, never a call.

Whole compiled games are kept in the same directory (gamecache.py); this module's two
caches serve the loads that one misses (a changed file, a new interpreter).

`GAMEDEF_CACHE=DIR` puts the cache in DIR; `GAMEDEF_CACHE=off` turns it off.
"""

from __future__ import annotations

import hashlib
import io
import marshal
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType

MAX_FILE_BYTES = 64 * 1024 * 1024  # a cache file larger than this is not read
MAX_FILES = 100  # the oldest files beyond this many are removed
MAX_GAMES = 24  # whole compiled games (gamecache.py) kept, up to a few MB each
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


def _read(path: Path) -> dict[tuple[str, str], CodeType]:
    if not path.is_file() or not trusted(path):
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
        write_bytes(path, marshal.dumps(codes))
    except ValueError:
        return


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


class _TreeUnpickler(pickle.Unpickler):
    """Builds the syntax tree's classes and nothing else."""

    def find_class(self, module: str, name: str):
        from . import errors, syntax

        if module == "copyreg" and name == "__newobj__":
            import copyreg

            return copyreg.__newobj__
        allowed = {"interpreter.syntax": syntax, "interpreter.errors": errors}.get(module)
        cls = getattr(allowed, name, None) if allowed is not None else None
        if isinstance(cls, type) and cls.__module__ == module and hasattr(cls, "__attrs_attrs__"):
            return cls
        raise pickle.UnpicklingError(f"not a syntax tree class: {module}.{name}")


_parser_digest: list[str] = []


def _parser_files_digest() -> str:
    """The digest of what a syntax tree depends on besides its file: the grammar, the
    parser and the tree's classes (a new version of any of them is a new tree)."""
    if not _parser_digest:
        here = Path(__file__).resolve().parent
        digest = hashlib.sha256()
        for f in (here.parent / "grammar" / "gamedef.lark", here / "parser.py", here / "syntax.py", here / "errors.py"):
            try:
                digest.update(f.read_bytes())
            except OSError:
                digest.update(os.urandom(16))  # unknown: never the same key twice
        _parser_digest.append(digest.hexdigest())
    return _parser_digest[0]


def tree(path: str, text: str, parse: Callable[[], object]) -> object:
    """The syntax tree of `text` (the file at `path`), from the cache or `parse()`."""
    where = directory()
    if where is None:
        return parse()
    key = hashlib.sha256("\0".join((_parser_files_digest(), path, text)).encode("utf-8", "surrogatepass"))
    file = where / f"{key.hexdigest()[:32]}.{sys.implementation.cache_tag}.tree"
    if file.is_file() and trusted(file):
        try:
            return _TreeUnpickler(io.BytesIO(file.read_bytes())).load()
        except Exception:  # a damaged or foreign file is a miss, whatever it raises
            pass
    result = parse()
    try:
        write_bytes(file, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        pass
    return result


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
