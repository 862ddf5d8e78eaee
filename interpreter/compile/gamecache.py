"""Whole compiled games kept between runs: a later load of the same files is one read.

Parsing, checking and compiling The Wall is Down takes about half a second even with its
syntax trees and code objects cached (codecache.py): the compiler's own work, writing and
wiring thousands of small functions, is most of it. What it builds, `CompiledGame`
(compiled.py), is a declared structure of plain data plus functions, and a Python function
is data too: its code object, its globals (the game's namespace, or a module of the
interpreter), its defaults and the values in its closure cells. So the compiled game is
pickled, functions included, with every code object in one `marshal` list beside it; a
load reads the file back in about 40 ms for the biggest bundled games. The compiler's
working state is not in it: the pickler refuses a `Compiler`, its tables or any of its
compilers (a step that held one would otherwise drag the whole compiler into the file),
and the unpickler builds none.

An entry is `(FORMAT, CompiledGame.FORMAT_VERSION, files, codes, pickle)`; an entry of
another layout or another version of the structure is a miss, read no further, and so
is a pickle whose game says another version.

An entry is found by the game file's path, the variants and options, the Python version
and the digest of the interpreter's own files and grammar (a new version of the
interpreter never reads an old entry). It records the digest of every file the game read
(its includes and tables); on a load each is read again, from inside the game's folders
only, and any difference is a miss: the game is then compiled from its files and the
entry written again. The checks of an entry are those of codecache.py: the user's own
directory and files, nobody else may write them, a size bound, and an unpickler that
builds only the interpreter's own classes and functions and a few plain built-in types.
The same rules reached by another way share one entry. Another file that includes the
game and adds nothing outside its variants, with no variant chosen, is the game itself; a
designer's edit to one variant of a file leaves the others' rules as they were. So beside
each entry a small index file is written, named by the digest of the rules it holds (the
assembled program's header, declarations with their positions, and tables, as pickle
writes them; the options; the interpreter's digest) and holding the entry's name and the
digest of its bytes. When a load misses by path, the program read and checked anyway is
looked up by that digest (`load_same`): an entry whose bytes are still those the index
recorded holds a game compiled from exactly these rules, and is handed back with this
program (its files' texts, its variants and tests) in place of the one it was compiled
from. The compile reads of the program only its header, declarations and tables
(compile/passtables.py), and the other fields only to word an error, and an entry is only
written for a game that compiled. An index whose entry has since been written again for
other rules no longer matches its bytes: a miss.

Like Python's own `__pycache__`, the code objects in an entry run when the game does:
the file's owner and permissions are what make it safe (core/cache.py opens an entry
without following a link and checks the open file's own owner and mode, and its real
folder's). Nothing here raises: an entry that can't be read, checked or written is a miss.
"""

from __future__ import annotations

import builtins
import copyreg
import gc
import hashlib
import io
import itertools
import marshal
import os
import pickle
import sys
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from interpreter.compile import lazy
from interpreter.compile.compiled import FORMAT_VERSION, CompiledGame
from interpreter.compile.compiler import WORKING_STATE
from interpreter.core import background, cache
from interpreter.core.paths import GRAMMAR, PACKAGE, ROOT
from interpreter.language.digests import part_digest
from interpreter.language.sources import SourceError, confined, read_bytes_checked

FORMAT = 2  # the layout of an entry (its fields; the structure inside has FORMAT_VERSION)
_digest: list[str] = []
# Built-ins an entry may name: those the rules' library hands out (builtins.py), and the
# plain types pickle's own reductions use. Nothing that builds classes, code or calls.
_BUILTINS = {"abs", "all", "any", "len", "tuple", "list", "dict", "set", "frozenset", "object", "int", "str", "float"}
_BUILTINS |= {"bool", "bytes", "range", "slice"}
_SPECIAL = {"__getitem__", "__contains__", "__len__"}  # the special methods a bound method may be
_MODULES = ("interpreter", "builtins")  # module namespaces an entry may refer to by name


def _interpreter_digest() -> str:
    """The digest of the interpreter's files, its grammar and this Python: what a compiled
    game depends on besides the game's own files."""
    if not _digest:
        digest = hashlib.sha256(f"{FORMAT} {sys.version}".encode())
        for f in sorted([*PACKAGE.rglob("*.py"), *GRAMMAR.parent.glob("*.lark")]):
            try:
                digest.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes())
            except OSError:
                return ""  # unknown: no cache
        _digest.append(digest.hexdigest())
    return _digest[0]


def _entry(path: Path, variants: tuple[str, ...], options: dict[str, Any]) -> Path | None:
    where = cache.directory()
    interpreter = _interpreter_digest() if where is not None else ""
    if where is None or not interpreter:
        return None
    key = repr((interpreter, str(path), tuple(variants), sorted(options.items(), key=repr)))
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return where / f"{digest}.{sys.implementation.cache_tag}.game"


INDEX_FORMAT = 2  # the layout of an index file (`.same`): (INDEX_FORMAT, rules digest, entry name, entry digest)


def rules_digest(program, options: dict[str, Any], optimise: bool = True) -> str | None:
    """The digest of what a compile reads: the program's header, declarations (positions
    included: an error names its line) and tables, the options asked for, the build (the
    rules as written, `optimise=False`, are never found for an optimised load), and the
    interpreter. None when the cache is off or the program can't be pickled.

    Made of a digest per declaration and table, by value, each kept for the life of the
    process by the object it digests (language/digests.py `part_digest`): the variants of
    one file share the included game's trees, so `check` digesting each variant digests
    that game once; and the digests of a file's declarations are kept with its tree between
    runs, so after an edit only the edited file's are made again."""
    interpreter = _interpreter_digest()
    if cache.directory() is None or not interpreter:
        return None
    build = "" if optimise else " as written"
    digest = hashlib.sha256(f"{INDEX_FORMAT}{build} {interpreter} {sorted(options.items(), key=repr)!r}".encode())
    try:
        digest.update(part_digest(program.header))
        for part in (*program.decls, None, *program.tables):  # None: where the tables begin
            digest.update(b"-" if part is None else part_digest(part))
    except Exception:  # not plain data (it always is, from the parser): no index
        return None
    return digest.hexdigest()


def _index(rules: str) -> Path | None:
    where = cache.directory()
    return None if where is None else where / f"{rules[:32]}.{sys.implementation.cache_tag}.same"


def load_same(program, rules: str) -> CompiledGame | None:
    """The game compiled before from the same rules (`rules`: the `rules_digest` of
    `program` and the options), by whatever file and variants, with `program` in place of
    the program it was compiled from; or None."""
    index = _index(rules)
    raw = None if index is None else cache.read_trusted(index)
    if index is None or raw is None:
        return None
    try:
        data = marshal.loads(raw)
        if not (isinstance(data, tuple) and len(data) == 4 and data[0] == INDEX_FORMAT and data[1] == rules):
            return None
        _, _, name, digest = data
        if not (isinstance(name, str) and isinstance(digest, str)) or name != Path(name).name:
            return None  # an entry of this folder, named, never a path elsewhere
        entry = index.parent / name
        blob = cache.read_trusted(entry)
        if blob is None or hashlib.sha256(blob).hexdigest() != digest:
            return None  # written again since, for other rules
        compiled = _read_entry(blob)
    except Exception:  # a damaged or foreign index is a miss, whatever it raises
        return None
    if compiled is None:
        return None
    _touch(entry)
    _touch(index)
    return attrs.evolve(compiled, program=program)


def _touch(path: Path) -> None:
    try:
        os.utime(path)  # used now: the last to be pruned
    except OSError:
        pass


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _unchanged(files: Iterable, roots: tuple[Path, ...]) -> bool:
    """Every file the game read still has the text it had, read from inside the game's folders."""
    for name, digest in files:
        if not (isinstance(name, str) and isinstance(digest, str)):
            return False
        target = Path(name)
        if confined(target.parent, target.name, roots) != target:  # moved out, or now a link out
            return False
        try:
            if _text_digest(read_bytes_checked(target)) != digest:
                return False
        except SourceError:
            return False
    return True


def _function(code: types.CodeType, globals_: dict, name: str, defaults: tuple | None, closure: tuple | None):
    return types.FunctionType(code, globals_, name, defaults, closure)


def _fill(function, state: tuple) -> None:
    """A function's closure cells get their values once everything is built: a closure may
    hold the function itself, or objects that hold it. (Cells are pickled empty, once
    each: functions that share a cell share it again.)"""
    values, attributes = state
    for cell, value in zip(function.__closure__ or (), values):
        if value is not _EMPTY:
            cell.cell_contents = value
    if attributes:
        function.__dict__.update(attributes)


def _empty(cell) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:
        return True
    return False


def _cell():
    """An empty closure cell (`types.CellType` can't be pickled by name)."""
    return types.CellType()


def _EMPTY_CELL() -> None:
    """Stands for a cell still empty when the function was pickled (a name not yet bound)."""


_EMPTY = _EMPTY_CELL  # pickled by name: the same object after a load


def _attribute(obj, name: str):
    """`getattr` as a pickle of a bound method uses it (`table.__getitem__`, `rt.display`),
    for plain names and item lookup only: no way from an object to its class's internals
    or a function's globals."""
    if not isinstance(name, str) or (name.startswith("__") and name not in _SPECIAL):
        raise pickle.UnpicklingError(f"not allowed in a compiled game: the attribute {name!r}")
    return getattr(obj, name)


class _Pickler(pickle.Pickler):
    """Pickles functions by value (code, globals, defaults, closure) unless importable by
    name; code objects go to the marshal list, module namespaces by the module's name."""

    def __init__(self, file):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.codes: list[types.CodeType] = []
        self._code_index: dict[types.CodeType, int] = {}

    def reducer_override(self, obj):
        if type(obj) is itertools.count:  # the compiler's name counters (pickled by hand: Python 3.14 won't)
            return (itertools.count, (int(repr(obj)[6:-1]),))
        if type(obj) is types.CellType:
            return (_cell, ())
        if isinstance(obj, WORKING_STATE):  # the compiler's, never part of a compiled game
            raise pickle.PicklingError("the compiler itself is reachable from the compiled game")
        if type(obj) is not types.FunctionType:
            return NotImplemented
        module = sys.modules.get(obj.__module__ or "")
        if module is not None and getattr(module, obj.__qualname__, None) is obj:
            return NotImplemented  # importable: pickled by its name
        if obj.__kwdefaults__:
            raise pickle.PicklingError("keyword-only defaults")
        closure = obj.__closure__
        values = tuple(_EMPTY if _empty(c) else c.cell_contents for c in closure or ())
        args = (obj.__code__, obj.__globals__, obj.__name__, obj.__defaults__, closure)
        return (_function, args, (values, dict(obj.__dict__)), None, None, _fill)

    def persistent_id(self, obj):
        if type(obj) is types.CodeType:
            index = self._code_index.get(obj)
            if index is None:
                index = self._code_index[obj] = len(self.codes)
                self.codes.append(obj)
            return index
        if type(obj) is dict:
            name = obj.get("__name__")
            if isinstance(name, str) and name.split(".")[0] in _MODULES:
                module = sys.modules.get(name)
                if module is not None and vars(module) is obj:
                    return name
        return None


class _Unpickler(pickle.Unpickler):
    """Builds the interpreter's own classes and functions and plain data, nothing else."""

    def __init__(self, file, codes: list):
        super().__init__(file)
        self._codes = codes

    def persistent_load(self, pid):
        if type(pid) is int and 0 <= pid < len(self._codes):
            return self._codes[pid]
        if type(pid) is str and pid.split(".")[0] in _MODULES and pid in sys.modules:
            return vars(sys.modules[pid])
        raise pickle.UnpicklingError("unknown reference")

    def find_class(self, module: str, name: str):
        if module == __name__ and name in ("_function", "_fill", "_cell", "_EMPTY_CELL"):
            return globals()[name]
        if module.split(".")[0] == "interpreter" and module in sys.modules:
            found = getattr(sys.modules[module], name, None)
            if isinstance(found, type) and issubclass(found, WORKING_STATE):
                raise pickle.UnpicklingError(f"not allowed in a compiled game: {module}.{name}")
            if isinstance(found, type | types.FunctionType) and found.__module__ == module:
                return found  # a class or function of the interpreter's own, not a name it imported
        if module == "builtins" and name == "getattr":
            return _attribute
        if module == "builtins" and name in _BUILTINS:
            return getattr(builtins, name)
        if module == "copyreg" and name in ("__newobj__", "_reconstructor"):
            return getattr(copyreg, name)
        if module == "itertools" and name == "count":
            return itertools.count
        raise pickle.UnpicklingError(f"not allowed in a compiled game: {module}.{name}")


def load(
    path: Path, variants: tuple[str, ...], options: dict[str, Any], roots: tuple[Path, ...]
) -> CompiledGame | None:
    """The compiled game kept for these files, variants and options, or None."""
    entry = _entry(path, variants, options)
    raw = None if entry is None else cache.read_trusted(entry)
    if entry is None or raw is None:
        return None
    compiled = _read_entry(raw, roots)
    if compiled is not None:
        _touch(entry)
    return compiled


def _read_entry(raw: bytes, roots: tuple[Path, ...] | None = None) -> CompiledGame | None:
    """The compiled game an entry's bytes hold, or None; with `roots`, only if every file it
    read still has the text it had (a load by path: the files are what the entry is for)."""
    enabled = gc.isenabled()
    gc.disable()  # tens of thousands of objects, none of them garbage: no collection while building
    try:
        data = marshal.loads(raw)
        if not (isinstance(data, tuple) and len(data) == 5 and data[0] == FORMAT and data[1] == FORMAT_VERSION):
            return None  # another layout, or another version of the compiled game: compiled again
        _, _, files, codes, blob = data
        if not (isinstance(files, tuple) and isinstance(codes, list) and isinstance(blob, bytes)):
            return None
        if not all(type(c) is types.CodeType for c in codes):
            return None
        if roots is not None and not _unchanged(files, roots):
            return None
        compiled = _Unpickler(io.BytesIO(blob), codes).load()
    except Exception:  # a damaged or foreign entry is a miss, whatever it raises
        return None
    finally:
        if enabled:
            gc.enable()
    if type(compiled) is not CompiledGame or compiled.format_version != FORMAT_VERSION:
        return None
    return compiled


def store(
    path: Path, variants: tuple[str, ...], options: dict[str, Any], compiled: CompiledGame, rules: str | None = None
) -> None:
    """Keep `compiled` for the next load of the same files, variants and options, and, given
    its `rules_digest`, for a load of the same rules by another way (`load_same`). Writing
    first compiles every function the game has not called yet: in a process that runs one
    command, a detached copy of it writes the entry as it ends, and the command waits for
    none of it (core/background.py)."""
    entry = _entry(path, variants, options)
    if entry is None:
        return
    if not background.later(lambda: _write(entry, compiled, rules)):
        _write(entry, compiled, rules)


def _write(entry: Path, compiled: CompiledGame, rules: str | None) -> None:
    """`store`'s work: every pending function compiled, then the entry and its index written."""
    if not lazy.force(compiled.ns):  # kept compiled: a pending function's intermediate form is slow to read back
        return
    files = tuple((name, _text_digest(text)) for name, text in sorted(compiled.program.sources.items()))
    buffer = io.BytesIO()
    try:
        pickler = _Pickler(buffer)
        pickler.dump(compiled)
        data = marshal.dumps((FORMAT, FORMAT_VERSION, files, pickler.codes, buffer.getvalue()))
    except Exception:  # something in this game is not plain data (or too deep): compiled at every load
        return
    cache.write_bytes(entry, data)
    index = None if rules is None else _index(rules)
    if index is not None:
        cache.write_bytes(index, marshal.dumps((INDEX_FORMAT, rules, entry.name, hashlib.sha256(data).hexdigest())))
