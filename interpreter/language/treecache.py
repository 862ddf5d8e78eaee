"""Parsed files (their syntax trees) kept between runs, as Python keeps `.pyc` files.

A tree is kept by the digest of its path, its text and the parser's own files (grammar,
parser, syntax tree classes), as a pickle read by an unpickler that builds only the
syntax tree's classes: anything else in the file makes it a miss, never a call. A stale
or damaged entry is only a miss, so the cache can never change what a game does.

With the tree are kept the digests of its declarations (language/digests.py), made when
the file was parsed: a process that reads the tree back has them without digesting a
declaration, so a check after an edit digests only what the edited file declares. An entry
whose digests are not one per declaration, each of a digest's size, is a miss too.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle
import sys
from collections.abc import Callable

from interpreter.core import background, errors
from interpreter.core.cache import directory, read_trusted, write_bytes
from interpreter.core.paths import GRAMMAR, PACKAGE
from interpreter.language import syntax
from interpreter.language.digests import remember_tree, tree_digests


class _TreeUnpickler(pickle.Unpickler):
    """Builds the syntax tree's classes and nothing else."""

    def find_class(self, module: str, name: str):
        if module == "copyreg" and name == "__newobj__":
            return copyreg.__newobj__  # type: ignore[attr-defined]  # exists, but is not in the stubs
        allowed = {"interpreter.language.syntax": syntax, "interpreter.core.errors": errors}.get(module)
        cls = getattr(allowed, name, None) if allowed is not None else None
        if isinstance(cls, type) and cls.__module__ == module and hasattr(cls, "__attrs_attrs__"):
            return cls
        raise pickle.UnpicklingError(f"not a syntax tree class: {module}.{name}")


_parser_digest: list[str] = []


def _parser_files_digest() -> str:
    """The digest of what a syntax tree depends on besides its file: the grammar, the
    parser and the tree's classes (a new version of any of them is a new tree), and how
    its declarations' digests kept with it are made (digests.py)."""
    if not _parser_digest:
        digest = hashlib.sha256()
        language = PACKAGE / "language"
        files = (GRAMMAR, language / "parser.py", language / "syntax.py", PACKAGE / "core" / "errors.py")
        for f in (*files, language / "digests.py"):
            try:
                digest.update(f.read_bytes())
            except OSError:
                digest.update(os.urandom(16))  # unknown: never the same key twice
        _parser_digest.append(digest.hexdigest())
    return _parser_digest[0]


def tree(path: str, text: str, parse: Callable[[], syntax.Module]) -> syntax.Module:
    """The syntax tree of `text` (the file at `path`), from the cache or `parse()`, with the
    digests of its declarations remembered (digests.py)."""
    where = directory()
    if where is None:
        return parse()
    key = hashlib.sha256("\0".join((_parser_files_digest(), path, text)).encode("utf-8", "surrogatepass"))
    file = where / f"{key.hexdigest()[:32]}.{sys.implementation.cache_tag}.tree"
    data = read_trusted(file)
    if data is not None:
        try:
            found = _TreeUnpickler(io.BytesIO(data)).load()
            if type(found) is tuple and len(found) == 2 and remember_tree(*found):
                return found[0]
        except Exception:  # a damaged or foreign file is a miss, whatever it raises
            pass
    result = parse()

    def keep() -> None:
        try:
            entry = (result, tree_digests(result))
            write_bytes(file, pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            pass

    if not background.later(keep):  # (a command's process leaves it to a copy as it ends)
        keep()
    return result
