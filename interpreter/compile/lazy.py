"""Generated functions lowered and compiled the first time they are called.

Most of a big game's compile was lowering its generated functions to `ast` (emit.py) and
compiling them: The Wall is Down's 2,900 loop functions and 1,600 native blocks alone
were over a second, yet a game plays few of them (a card's effect runs only once the card
is played; a loop's as-written copy only when a read made before the loop fails). So
these are kept as their intermediate form (an `Uncompiled`) behind a stub: a function of the
same name and number of parameters, in the game's namespace, whose first call lowers and compiles
the real code, puts it in place of its own (`__code__`), and runs it. From then on the
stub *is* the generated function: no call goes through anything else, and every holder of
it (a step table, another function's global) calls the compiled code directly.

What is lowered later is exactly what would have been lowered at once: the intermediate
form is made, and every name, slot and frame numbered, during the compile, in its order;
only the lowering and Python's `compile()` move. A game compiled so plays the same moves
(tests/compile/test_lazy.py). The game cache keeps games compiled whole (`force`): read
back, a pending function's intermediate form would cost far more than its code.

A block's line numbers are its place in `block_lines` (blocks.py): how many lines a block
takes is counted from its statements when it is made (`emit.line_count`), the same count
its lowering reaches. A function whose loops nest deeply is compiled at once, so that
code Python refuses is still the compile's error, at the rule, not a game's at run time.
"""

from __future__ import annotations

import ast
import marshal
import threading
import types
from collections.abc import Sequence
from typing import Any

from interpreter.compile import codecache, emit, ir, passes
from interpreter.compile.compiled import BLOCK_FILE
from interpreter.core.limits import LimitExceeded, no_collection

RUN = "_lazy_run"  # the name of `run` in every game's namespace: what a stub calls
CODES = "_lazy_codes"  # the name of the game's code cache file (codecache.py) in its namespace
STUB_FILE = "<gamedef stub>"
_PENDING = "__lazy_pending"  # the stub's last parameter: its `Uncompiled`, a default
_TOO_DEEP = (
    "a rule is nested too deeply to compile",
    "split a long expression: name parts of it with `let` or `def`",
)
_DEEP = 12  # loops nested deeper than this are compiled at once (`_depth`)
_stubs: dict[int, types.CodeType] = {}  # a stub's code, by its number of parameters
_first_calls = threading.RLock()  # held while a stub's first call compiles it (`run`)


class Uncompiled:
    """A generated function not yet lowered: what its lowering needs, as plain data.

    `kind` says how it is lowered: "loop", a loop function whose reads the same at every
    turn are made once before its loops (with `name`_as_written, a stub of its own, for
    when one of them fails); "plain", one function of `stmts`; "block", a native block,
    whose code is moved to `first` lines after the start (blocks.py). `key` is where its
    stub is in the namespace (its name, unless the function is held elsewhere: a block's
    or an expression's stub is there only until compiled), `file` the code's file name.
    A copy made by `renamed` makes its statements from its original's when first read."""

    __slots__ = (
        "kind",
        "name",
        "params",
        "_stmts",
        "_renaming",
        "reads_vars",
        "has_text",
        "bound",
        "first",
        "lines",
        "key",
        "file",
        "done",
    )

    def __init__(
        self,
        kind: str,
        name: str,
        params: tuple[str, ...],
        stmts: tuple[ir.Stmt, ...],
        reads_vars: bool,
        has_text: bool = False,
        bound: tuple[str, ...] = (),
        first: int = 0,
        lines: int = 0,
        key: str = "",
        file: str = "<gamedef loop>",
    ) -> None:
        self.kind = kind
        self.name = name
        self.params = params
        self._stmts = stmts
        self._renaming: tuple[Uncompiled, dict[ir.IRNode, ir.IRNode], dict[str, str]] | None = None
        self.reads_vars = reads_vars
        self.has_text = has_text
        self.bound = bound
        self.first = first
        self.lines = lines
        self.key = key or name
        self.file = file
        self.done: types.CodeType | None = None  # its code, once compiled (`run`)

    @property
    def stmts(self) -> tuple[ir.Stmt, ...]:
        """Its statements; a copy's are its original's renamed, made the first time they
        are read (most copies are never called, as most functions are not)."""
        if self._renaming is not None:
            original, slots, names = self._renaming

            def leaf(n: Any) -> Any:
                t = type(n)
                if t is ir.Slot:
                    return slots.get(n, n)
                if t is ir.Global and n.name in names:
                    return ir.Global(names[n.name], n.kind)
                return n

            self._stmts = passes.renamed(original.stmts, leaf)
            self._renaming = None
        return self._stmts

    def renamed(self, name: str, slots: dict[ir.IRNode, ir.IRNode], names: dict[str, str]) -> Uncompiled:
        """A copy of this function named `name`, reading the frame slots `slots` give in
        place of its own and calling the generated functions `names` give in place of
        those (a def's body written in place for other arguments: expressions.py,
        `_instance`). Its statements are made when first read."""
        copy = Uncompiled(self.kind, name, self.params, (), self.reads_vars, self.has_text, self.bound, file=self.file)
        copy._renaming = (self, slots, names)
        return copy

    def depth(self) -> int:
        """How deeply loops and `try`s nest in its statements (`_depth`): a copy's, its
        original's, without making its statements."""
        if self._renaming is not None:
            return self._renaming[0].depth()
        return _depth(self._stmts)

    def code(self, ns: dict[str, Any]) -> types.CodeType:
        """The lowered and compiled code of the function (a stub for the as-written copy
        of a loop function that needs one is put in `ns`)."""
        try:
            if self.kind == "block":
                low = emit.Lowering()
                tree = low.module([low.function(self.name, self.params, self.stmts, True)])
                if low.line - 1 != self.lines:  # the lines counted when the block was made
                    raise AssertionError(f"block {self.name}: {low.line - 1} lines, {self.lines} counted")
                code = _function_code(codecache.compiled(tree, low.key(), BLOCK_FILE))
                return code.replace(co_firstlineno=code.co_firstlineno + self.first)
            if self.kind == "loop":
                return _function_code(_hoisted(self, ns))
            tree, key = emit.function_module(self.name, self.params, self.stmts, self.reads_vars)
            return _function_code(codecache.compiled(tree, key, self.file))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise LimitExceeded(*_TOO_DEEP) from None


def _function_code(module: types.CodeType) -> types.CodeType:
    """The code of the one function a generated module defines."""
    return next(c for c in module.co_consts if isinstance(c, types.CodeType))


def _hoisted(p: Uncompiled, ns: dict[str, Any]) -> types.CodeType:
    """The module of loop function `p`: reads that give the same value on every turn
    (`passes.hoistable`) are made once, before its loops, into locals. Reading them early
    spends no step and writes nothing (expressions never write), but may fail where the
    loop would never have read them (an empty list, a condition false first): then the
    function runs as written, `NAME_as_written` (a stub until first called), and any error
    is raised where the rule reads it. (A read of a list, a table or a key's position by
    a key can fail only with a missing key or index, or a key of the wrong kind:
    LookupError or TypeError.)"""
    stmts = list(p.stmts)
    reads = [] if p.has_text else passes.hoistable(stmts, set(p.bound))
    if not reads:
        tree, key = emit.function_module(p.name, p.params, stmts, p.reads_vars)
        return codecache.compiled(tree, key, "<gamedef loop>")
    changed, made = passes.hoist(stmts, reads)
    second = f"{p.name}_as_written"
    as_written = ir.PyCall(ir.Global(second), tuple(ir.Local(x) for x in p.params))
    tried = ir.Try(
        tuple(ir.PyAssign((ir.Local(local),), read) for local, read in made),
        ("LookupError", "TypeError"),
        (ir.PyReturn(as_written),),
    )
    if second not in ns:
        stub(ns, Uncompiled("plain", second, p.params, p.stmts, p.reads_vars))
    tree, key = emit.function_module(p.name, p.params, (tried, *changed), p.reads_vars)
    return codecache.compiled(tree, key, "<gamedef loop>")


def stub(ns: dict[str, Any], pending: Uncompiled) -> types.FunctionType:
    """A stub of `pending`'s name and number of parameters, kept in `ns` as its `key`: its
    first call compiles `pending` (`run`)."""
    params = pending.params
    code = _stubs.get(len(params))
    if code is None:  # (its parameters' names are its own: generated code passes arguments by position)
        code = _stubs[len(params)] = _stub_code(tuple(f"a{i}" for i in range(len(params))))
    fn = types.FunctionType(code, ns, pending.name, (pending,))
    ns[pending.key] = fn
    if pending.depth() > _DEEP:  # compiled now: code Python may refuse is the compile's error
        _compile(fn, pending, ns)
    return fn


def _depth(stmts: Sequence[Any]) -> int:
    """How deeply loops and `try`s nest in `stmts`: Python refuses more than 20."""
    deepest = 0
    for s in stmts:
        t = type(s)
        if t is ir.When:
            inner = max(_depth(s.body), _depth(s.otherwise or ()))
        elif t is ir.Loop or t is ir.PyWhile:
            inner = 1 + _depth(s.body)
        elif t is ir.Try:
            inner = 1 + max(_depth(s.body), _depth(s.handler))
        else:
            continue
        deepest = max(deepest, inner)
    return deepest


def _stub_code(params: tuple[str, ...]) -> types.CodeType:
    """`def stub(*params, __lazy_pending=None): return _lazy_run(__lazy_pending, globals(), *params)`."""

    def name(n: str) -> ast.Name:
        return ast.Name(n, ast.Load())

    args = ast.arguments(
        posonlyargs=[],
        args=[ast.arg(p) for p in (*params, _PENDING)],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[ast.Constant(None)],
    )
    call = ast.Call(name(RUN), [name(_PENDING), ast.Call(name("globals"), [], []), *map(name, params)], [])
    tree = ast.Module([ast.FunctionDef("stub", args, [ast.Return(call)], [], None, None)], [])
    for node in ast.walk(tree):  # (not `ast.fix_missing_locations`, whose walk is a cycle left to the collector)
        if isinstance(node, (ast.expr, ast.stmt, ast.arg)):
            node.lineno = node.end_lineno = 1
            node.col_offset = node.end_col_offset = 0
    key = marshal.dumps(("stub", params))  # (codecache.py's one `compile()`)
    return _function_code(codecache.compiled(tree, key, STUB_FILE))


def run(pending: Uncompiled, ns: dict[str, Any], *args: Any) -> Any:
    """A stub's first call: its code compiled and put in the stub's place, then run.

    Under a lock, as a server's threads may call the same stub at once: one compiles, the
    others wait for it and run what it made. A call that entered the stub before its code
    was replaced runs that code by a function of its own, as the stub may have left `ns`
    (a block's or an expression's key)."""
    with _first_calls:
        if pending.done is None:
            _compile(ns[pending.key], pending, ns)
    fn = ns.get(pending.key)
    if fn is None or fn.__code__ is not pending.done:
        fn = types.FunctionType(pending.done, ns, pending.name)  # type: ignore[arg-type]
    return fn(*args)


def _compile(fn: types.FunctionType, pending: Uncompiled, ns: dict[str, Any]) -> None:
    """`fn`'s code in its place; a block's or an expression's key leaves `ns`, where only
    its stub needed it (its holders are step tables and the like), so a game compiled
    whole has the namespace it had."""
    code = pending.code(ns)
    fn.__code__ = code
    fn.__defaults__ = None
    pending.done = code
    if pending.key != pending.name:
        ns.pop(pending.key, None)


def block(ns: dict[str, Any], first: int, stmts: Sequence[ir.Stmt], lines: int) -> types.FunctionType:
    """A native block's stub, `_blk(vm, L)` of `stmts`, moved to begin `first` lines
    down and taking `lines` lines (blocks.py)."""
    pending = Uncompiled("block", "_blk", ("vm", "L"), tuple(stmts), True, first=first, lines=lines, key=f"_blk{first}")
    return stub(ns, pending)


def force(ns: dict[str, Any]) -> bool:
    """Compile every pending function of `ns` now: before the game cache keeps a compiled
    game (gamecache.py), whose reading back would otherwise build every pending function's
    intermediate form (seconds, for The Wall is Down, against 50 ms). The code joins the
    game's code cache file, as the compile's own does. False if one could not be
    compiled (nested too deeply for Python): it waits, and is the rule's error when run."""
    key = ns.get(CODES)
    with no_collection():  # (as the compile: thousands of trees made, none in a cycle)
        if isinstance(key, str):
            with codecache.loading(key, adding=True):
                return _force(ns)
        return _force(ns)


def _force(ns: dict[str, Any]) -> bool:
    failed: set[int] = set()
    while waiting := [
        fn for fn in ns.values() if type(fn) is types.FunctionType and pending(fn) is not None and id(fn) not in failed
    ]:
        for fn in waiting:  # (a loop compiled puts its as-written copy's stub in `ns`)
            found = pending(fn)
            if found is not None:  # (once: a function may be in `ns` by two names)
                try:
                    _compile(fn, found, ns)
                except LimitExceeded:
                    failed.add(id(fn))
    return not failed


def pending(fn: types.FunctionType) -> Uncompiled | None:
    """The `Uncompiled` of a stub not yet called, or None."""
    if fn.__code__.co_filename == STUB_FILE and fn.__defaults__:
        return fn.__defaults__[-1]
    return None
