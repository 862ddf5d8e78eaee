"""The one lowering: the intermediate form (ir.py) as a tree of Python's `ast`.

Everything the compiler generates is built here, from nodes, as `ast` nodes that Python
compiles directly (`compile(module, name, "exec")`): no Python text is written, and none
is read. `expression` lowers an expression, `function` the definition of a generated
function, `module` puts functions in a module to compile. Each can list, as it lowers,
the compiler's generated functions the code calls (`ir.LOOP` globals). Loop functions
and native blocks are lowered when first called (lazy.py); `line_count` is how many lines
a block's statements take, counted before it is lowered.

Every statement has its own line number: a function's definition is on its first line,
and each statement, each `if`, `elif`, `else`, `try` and `except`, on the next, as if
written out one to a line (a `When` marked `flat` keeps its body on its header's line),
and every expression inside a statement is on the statement's line (Python places an
error by the instruction's own node). A native block's lines are the rules' statements,
so the line a traceback names finds the statement's span (blocks.py, `block_lines`,
runtime/machine.py). `Lowering.key` is the structure of what is lowered, as bytes: what
the code cache (codecache.py) finds a compiled module by.
"""

from __future__ import annotations

import ast
import marshal
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from interpreter.compile import ir

_LOAD, _STORE, _DEL = ast.Load(), ast.Store(), ast.Del()

_BINARY: dict[str, ast.operator] = {
    "+": ast.Add(),
    "-": ast.Sub(),
    "*": ast.Mult(),
    "//": ast.FloorDiv(),
    "%": ast.Mod(),
}
_COMPARE: dict[str, ast.cmpop] = {
    "==": ast.Eq(),
    "!=": ast.NotEq(),
    "<": ast.Lt(),
    "<=": ast.LtE(),
    ">": ast.Gt(),
    ">=": ast.GtE(),
    "in": ast.In(),
    "not in": ast.NotIn(),
    "is": ast.Is(),
    "is not": ast.IsNot(),
}
_BOOL: dict[str, ast.boolop] = {"and": ast.And(), "or": ast.Or()}


class Lowering:
    """One module being lowered: the line the next statement takes, the generated
    functions its code calls (`calls`, when asked for) and its structure as it is built
    (`key`)."""

    __slots__ = ("line", "calls", "_key")

    def __init__(self, calls: list[str] | None = None) -> None:
        self.line = 1
        self.calls = calls
        self._key: list[Any] = []

    # ---- positions -----------------------------------------------------------------
    def _at(self, node: Any) -> Any:
        """`node` on the current line (its end left unknown: Python needs only the start)."""
        node.lineno = self.line
        node.col_offset = 0
        return node

    def name(self, name: str, ctx: ast.expr_context = _LOAD) -> ast.Name:
        node = ast.Name(name, ctx)
        node.lineno = self.line
        node.col_offset = 0
        return node

    def key(self) -> bytes:
        """The structure lowered so far: equal for equal modules, different otherwise."""
        return marshal.dumps(self._key)

    # ---- expressions ---------------------------------------------------------------
    def expr(self, n: ir.IRNode, ctx: ast.expr_context = _LOAD) -> ast.expr:
        """`n` as an `ast` expression (`ctx`: Store or Del where it is a target)."""
        return _EXPR[type(n)](self, n, ctx)

    def exprs(self, nodes: Iterable[ir.IRNode]) -> list[ast.expr]:
        return [_EXPR[type(n)](self, n, _LOAD) for n in nodes]

    # ---- statements ----------------------------------------------------------------
    def body(self, stmts: Iterable[ir.Statement]) -> list[ast.stmt]:
        """The statements `stmts`, each on its own line from the current one on."""
        out: list[ast.stmt] = []
        for s in stmts:
            out.append(_STMT[type(s)](self, s))
        return out

    def function(
        self, name: str, params: Sequence[str], stmts: Iterable[ir.Statement], reads_vars: bool = False
    ) -> ast.FunctionDef:
        """`def name(params): stmts` on the current line, its body from the next;
        `reads_vars`: it begins `V = vm.vars`."""
        self._key.append(("def", name, tuple(params), reads_vars))
        args = ast.arguments(
            posonlyargs=[],
            args=[self._at(ast.arg(p)) for p in params],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        )
        node = self._at(ast.FunctionDef(name, args, [], [], None, None))
        self.line += 1
        body: list[ast.stmt] = []
        if reads_vars:
            body.append(self._assign_vars())
        body.extend(self.body(stmts))
        node.body = body
        return node

    def _assign_vars(self) -> ast.stmt:
        node = self._at(ast.Assign([self.name("V", _STORE)], self._attr(self.name("vm"), "vars"), None))
        self.line += 1
        return node

    def _attr(self, obj: ast.expr, attr: str, ctx: ast.expr_context = _LOAD) -> ast.expr:
        return self._at(ast.Attribute(obj, attr, ctx))

    def module(self, functions: Sequence[ast.stmt]) -> ast.Module:
        """A module of `functions` (definitions), to compile."""
        return ast.Module(list(functions), [])


def expression(node: ir.IRNode, calls: list[str] | None = None) -> ast.expr:
    """The `ast` expression of `node`; the generated functions it calls appended to `calls`."""
    return Lowering(calls).expr(node)


def function_module(
    name: str,
    params: Sequence[str],
    stmts: Iterable[ir.Statement],
    reads_vars: bool = False,
    calls: list[str] | None = None,
) -> tuple[ast.Module, bytes]:
    """A module defining one generated function, and its key (`Lowering.key`)."""
    low = Lowering(calls)
    tree = low.module([low.function(name, params, stmts, reads_vars)])
    return tree, low.key()


# ---- each node -------------------------------------------------------------------------


def _lit(w: Lowering, n: ir.Lit, ctx) -> ast.expr:
    v = n.value
    t = v.__class__
    if t is not str and t is not int and t is not bool and v is not None:  # a Text, say: its plain value
        v = str.__str__(v) if isinstance(v, str) else int(v)
    w._key.append(("c", v))
    return w._at(ast.Constant(v))


def _const(w: Lowering, n: ir.Const, ctx) -> ast.expr:
    w._key.append(n.name)
    return w.name(n.name, ctx)


def _local(w: Lowering, n: ir.Local, ctx) -> ast.expr:
    w._key.append(n.name)
    return w.name(n.name, ctx)


def _global(w: Lowering, n: ir.Global, ctx) -> ast.expr:
    if n.kind == ir.LOOP and w.calls is not None:
        w.calls.append(n.name)
    w._key.append(n.name)
    return w.name(n.name, ctx)


def _index(w: Lowering, base: str, index: int, ctx) -> ast.expr:
    w._key.append((base, index))
    const = w._at(ast.Constant(index))
    return w._at(ast.Subscript(w.name(base), const, ctx))


def _slot(w: Lowering, n: ir.Slot, ctx) -> ast.expr:
    return _index(w, "L", n.index, ctx)


def _var(w: Lowering, n: ir.VarSlot, ctx) -> ast.expr:
    return _index(w, "V", n.slot, ctx)


def _fixed(name: str) -> Callable[[Lowering, Any, Any], ast.expr]:
    def lower(w: Lowering, n, ctx) -> ast.expr:
        w._key.append(name)
        return w.name(name, ctx)

    return lower


def _players(w: Lowering, n, ctx) -> ast.expr:
    w._key.append("vm.players")
    return w._attr(w.name("vm"), "players", ctx)


def _group(w: Lowering, n: ir.Group, ctx) -> ast.expr:
    return w.expr(n.inner, ctx)


def _subscript(w: Lowering, n: ir.Subscript, ctx) -> ast.expr:
    w._key.append("[]")
    return w._at(ast.Subscript(w.expr(n.obj), w.expr(n.key), ctx))


def _head(w: Lowering, n: ir.Head, ctx) -> ast.expr:
    w._key.append(("[:]", n.stop))
    obj = w.expr(n.obj)
    return w._at(ast.Subscript(obj, w._at(ast.Slice(None, w._at(ast.Constant(n.stop)), None)), ctx))


def _slice(w: Lowering, n: ir.Slice, ctx) -> ast.expr:
    w._key.append(("[x:y]", n.lower is None, n.upper is None))
    obj = w.expr(n.obj)
    lower = None if n.lower is None else w.expr(n.lower)
    upper = None if n.upper is None else w.expr(n.upper)
    return w._at(ast.Subscript(obj, w._at(ast.Slice(lower, upper, None)), ctx))


def _attribute(w: Lowering, n: ir.Attr, ctx) -> ast.expr:
    w._key.append((".", n.name))
    return w._attr(w.expr(n.obj), n.name, ctx)


def _call(w: Lowering, n: ir.PyCall, ctx) -> ast.expr:
    w._key.append(("()", len(n.args), tuple(k for k, _ in n.keywords)))
    func = w.expr(n.func)
    args = w.exprs(n.args)
    keywords = [w._at(ast.keyword(k, w.expr(v))) for k, v in n.keywords]
    return w._at(ast.Call(func, args, keywords))


def _tuple(w: Lowering, n: ir.Tuple, ctx) -> ast.expr:
    w._key.append(("(,)", len(n.items)))
    items = [w.expr(x, ctx) for x in n.items] if ctx is not _LOAD else w.exprs(n.items)
    return w._at(ast.Tuple(items, ctx))


def _list(w: Lowering, n: ir.List, ctx) -> ast.expr:
    w._key.append(("[,]", len(n.items)))
    return w._at(ast.List(w.exprs(n.items), _LOAD))


def _binop(w: Lowering, n: ir.PyBinOp, ctx) -> ast.expr:
    op = n.op
    w._key.append(("op", op))
    left, right = w.expr(n.left), w.expr(n.right)
    if op in _COMPARE:
        return w._at(ast.Compare(left, [_COMPARE[op]], [right]))
    if op in _BOOL:
        return w._at(ast.BoolOp(_BOOL[op], [left, right]))
    return w._at(ast.BinOp(left, _BINARY[op], right))


def _between(w: Lowering, n: ir.Between, ctx) -> ast.expr:
    w._key.append("<=<=")
    low, value, high = w.expr(n.low), w.expr(n.value), w.expr(n.high)
    return w._at(ast.Compare(low, [ast.LtE(), ast.LtE()], [value, high]))


def _not(w: Lowering, n: ir.PyNot, ctx) -> ast.expr:
    w._key.append("not")
    return w._at(ast.UnaryOp(ast.Not(), w.expr(n.operand)))


def _truth(w: Lowering, n: ir.Truth, ctx) -> ast.expr:
    w._key.append("not not")
    return w._at(ast.UnaryOp(ast.Not(), w._at(ast.UnaryOp(ast.Not(), w.expr(n.operand)))))


def _neg(w: Lowering, n: ir.PyNeg, ctx) -> ast.expr:
    w._key.append("-")
    return w._at(ast.UnaryOp(ast.USub(), w.expr(n.operand)))


def _ifexp(w: Lowering, n: ir.IfExp, ctx) -> ast.expr:
    w._key.append("if")
    then = w.expr(n.then)
    condition = w.expr(n.condition)
    return w._at(ast.IfExp(condition, then, w.expr(n.otherwise)))


def _arguments(w: Lowering, params: Sequence[str]) -> ast.arguments:
    return ast.arguments(
        posonlyargs=[],
        args=[w._at(ast.arg(p)) for p in params],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )


def _lambda(w: Lowering, n: ir.PyLambda, ctx) -> ast.expr:
    w._key.append(("lambda", n.param))
    return w._at(ast.Lambda(_arguments(w, (n.param,)), w.expr(n.body)))


def _comp(w: Lowering, n: ir.Comp, ctx) -> ast.expr:
    w._key.append(("[for]", tuple(c.var if type(c) is ir.CompFor else None for c in n.clauses)))
    element = w.expr(n.element)
    generators: list[ast.comprehension] = []
    for c in n.clauses:
        if isinstance(c, ir.CompFor):
            generators.append(ast.comprehension(w.name(c.var, _STORE), w.expr(c.iterable), [], 0))
        else:
            generators[-1].ifs.append(w.expr(c.condition))
    return w._at(ast.ListComp(element, generators))


def _join(w: Lowering, n: ir.Join, ctx) -> ast.expr:
    w._key.append(("+", len(n.parts)))
    parts = w.exprs(n.parts)
    out = parts[0]
    for p in parts[1:]:
        out = w._at(ast.BinOp(out, ast.Add(), p))
    return out


def _call_of(w: Lowering, func: str, args: list[ast.expr]) -> ast.expr:
    return w._at(ast.Call(w.name(func), args, []))


def _charge(w: Lowering, n: ir.Charge, ctx) -> ast.expr:
    w._key.append("charge")
    return _call_of(w, "_charge", [w.name("vm"), w.expr(n.items)])


def _cap(w: Lowering, n: ir.Cap, ctx) -> ast.expr:
    w._key.append(("cap", n.deep))
    return _call_of(w, "_cap_deep" if n.deep else "_cap", [w.expr(n.value)])


def _query(w: Lowering, n: ir.QueryCall, ctx) -> ast.expr:
    w._key.append(("q", n.query, len(n.args)))
    args = w._at(ast.Tuple(w.exprs(n.args), _LOAD))
    return _call_of(w, f"_q_{n.query}", [w.name("vm"), args])


def _guarded(w: Lowering, n: ir.Guarded, ctx) -> ast.expr:
    w._key.append(("guard", n.query, n.slots))
    fast = w.expr(n.fast)
    table = f"_qi_{n.query}"
    tests: list[ast.expr] = []
    for i, slot in enumerate(n.slots):
        seen = w._at(ast.Subscript(w.name(table), w._at(ast.Constant(i)), _LOAD))
        var = w._at(ast.Subscript(w.name("V"), w._at(ast.Constant(slot)), _LOAD))
        tests.append(w._at(ast.Compare(var, [ast.Is()], [seen])))
    guard = tests[0] if len(tests) == 1 else w._at(ast.BoolOp(ast.And(), tests))
    return w._at(ast.IfExp(guard, fast, w.expr(n.call)))


def _neighbours(w: Lowering, n: ir.Neighbours, ctx) -> ast.expr:
    w._key.append(("links", n.slot))
    node = w.expr(n.node)
    links = w._at(ast.Call(w._attr(w.name("_links"), "get"), [node, w._at(ast.Tuple([], _LOAD))], []))
    if n.slot is None:
        return links
    added = w._at(ast.Subscript(w.name("V"), w._at(ast.Constant(n.slot)), _LOAD))
    other = _call_of(w, "_dl_neighbours", [w.name("vm"), node])
    return w._at(ast.IfExp(w._at(ast.UnaryOp(ast.Not(), added)), links, other))


_EXPR: dict[type, Callable[[Lowering, Any, Any], ast.expr]] = {
    ir.Lit: _lit,
    ir.Const: _const,
    ir.Slot: _slot,
    ir.VarSlot: _var,
    ir.Local: _local,
    ir.Global: _global,
    ir.TableRead: _const,
    ir.VMRef: _fixed("vm"),
    ir.Frame: _fixed("L"),
    ir.Players: _players,
    ir.Group: _group,
    ir.Subscript: _subscript,
    ir.Head: _head,
    ir.Slice: _slice,
    ir.Attr: _attribute,
    ir.PyCall: _call,
    ir.Tuple: _tuple,
    ir.List: _list,
    ir.PyBinOp: _binop,
    ir.Between: _between,
    ir.PyNot: _not,
    ir.Truth: _truth,
    ir.PyNeg: _neg,
    ir.IfExp: _ifexp,
    ir.PyLambda: _lambda,
    ir.Comp: _comp,
    ir.Join: _join,
    ir.Charge: _charge,
    ir.Cap: _cap,
    ir.QueryCall: _query,
    ir.Guarded: _guarded,
    ir.Neighbours: _neighbours,
}


# ---- each statement ----------------------------------------------------------------------


def _simple(w: Lowering, node: ast.stmt) -> ast.stmt:
    """`node` (its parts built on the current line) on it; the next statement on the next."""
    w._at(node)
    w.line += 1
    return node


def _assign(w: Lowering, s: ir.PyAssign) -> ast.stmt:
    w._key.append(("=", len(s.targets)))
    targets = [w.expr(t, _STORE) for t in s.targets]
    return _simple(w, ast.Assign(targets, w.expr(s.value), None))


def _update(w: Lowering, s: ir.Update) -> ast.stmt:
    w._key.append(("op=", s.op))
    target: Any = w.expr(s.target, _STORE)  # a name, an attribute or an entry
    return _simple(w, ast.AugAssign(target, _BINARY[s.op], w.expr(s.value)))


def _do(w: Lowering, s: ir.Do) -> ast.stmt:
    w._key.append("do")
    return _simple(w, ast.Expr(w.expr(s.value)))


def _return(w: Lowering, s: ir.PyReturn) -> ast.stmt:
    w._key.append(("return", s.value is None))
    return _simple(w, ast.Return(None if s.value is None else w.expr(s.value)))


def _raise(w: Lowering, s: ir.Raise) -> ast.stmt:
    w._key.append("raise")
    return _simple(w, ast.Raise(w.expr(s.error), None))


def _delete(w: Lowering, s: ir.Delete) -> ast.stmt:
    w._key.append("del")
    return _simple(w, ast.Delete([w.expr(s.target, _DEL)]))


def _keyword(word: str, make: Callable[[], ast.stmt]) -> Callable[[Lowering, Any], ast.stmt]:
    def lower(w: Lowering, s) -> ast.stmt:
        w._key.append(word)
        return _simple(w, make())

    return lower


def _when(w: Lowering, s: ir.When) -> ast.stmt:
    w._key.append(("if", len(s.body), s.flat, s.chained, None if s.otherwise is None else len(s.otherwise)))
    node = w._at(ast.If(w.expr(s.condition), [], []))
    if s.flat:  # the body on the header's line
        line = w.line
        for x in s.body:
            node.body.append(_STMT[type(x)](w, x))
            w.line = line
        w.line += 1
    else:
        w.line += 1
        node.body = w.body(s.body)
    if s.otherwise is not None:
        if len(s.otherwise) == 1 and type(s.otherwise[0]) is ir.When and s.otherwise[0].chained:
            node.orelse = w.body(s.otherwise)  # `elif`: on its own line, no `else` line
        else:
            w.line += 1  # the `else:` line
            node.orelse = w.body(s.otherwise)
    return node


def _while(w: Lowering, s: ir.PyWhile) -> ast.stmt:
    w._key.append(("while", len(s.body)))
    node = w._at(ast.While(w.expr(s.condition), [], []))
    w.line += 1
    node.body = w.body(s.body)
    return node


def _loop(w: Lowering, s: ir.Loop) -> ast.stmt:
    var = s.var
    w._key.append(("for", var if var.__class__ is str else None, len(s.body)))
    target = w.name(var, _STORE) if var.__class__ is str else w.expr(var, _STORE)  # type: ignore[arg-type]
    node = w._at(ast.For(target, w.expr(s.iterable), [], [], None))
    w.line += 1
    node.body = w.body(s.body)
    return node


def _try(w: Lowering, s: ir.Try) -> ast.stmt:
    w._key.append(("try", len(s.body), s.errors, len(s.handler)))
    node = w._at(ast.Try([], [], [], []))
    w.line += 1
    node.body = w.body(s.body)
    errors = w._at(ast.Tuple([w.name(e) for e in s.errors], _LOAD))
    handler = w._at(ast.ExceptHandler(errors, None, []))
    w.line += 1
    handler.body = w.body(s.handler)
    node.handlers = [handler]
    return node


_STMT: dict[type, Callable[[Lowering, Any], ast.stmt]] = {
    ir.PyAssign: _assign,
    ir.Update: _update,
    ir.Do: _do,
    ir.PyReturn: _return,
    ir.Raise: _raise,
    ir.Delete: _delete,
    ir.PyBreak: _keyword("break", ast.Break),
    ir.Continue: _keyword("continue", ast.Continue),
    ir.PyPass: _keyword("pass", ast.Pass),
    ir.When: _when,
    ir.PyWhile: _while,
    ir.Loop: _loop,
    ir.Try: _try,
}


# ---- sizes ---------------------------------------------------------------------------------


def line_count(stmts: Iterable[ir.Stmt]) -> int:
    """The lines `Lowering.body(stmts)` takes, counted without lowering (a native block's
    lines are laid out when it is made, its lowering done when first called: lazy.py)."""
    n = 0
    each: Iterable[Any] = stmts  # (told apart by class, as the lowering does)
    for s in each:
        t = type(s)
        if t is ir.When:
            n += 1 if s.flat else 1 + line_count(s.body)
            if s.otherwise is not None:
                chained = len(s.otherwise) == 1 and type(s.otherwise[0]) is ir.When and s.otherwise[0].chained
                n += line_count(s.otherwise) + (0 if chained else 1)
        elif t is ir.PyWhile or t is ir.Loop:
            n += 1 + line_count(s.body)
        elif t is ir.Try:
            n += 2 + line_count(s.body) + line_count(s.handler)
        else:
            n += 1
    return n


def width(node: ir.IRNode) -> int:
    """How wide `node` is: the characters it takes written as Python writes it, one
    expression on one line. What keeps inlined bodies in check (expressions.INLINE_LIMIT)
    and orders the reads a loop hoists (longest first); computed from the tree."""
    return _WIDTH[type(node)](node)


def _w(n: ir.IRNode) -> int:
    return _WIDTH[type(n)](n)


def _ws(items: Iterable[ir.IRNode], sep: int = 2) -> int:
    total = count = 0
    for x in items:
        total += _WIDTH[type(x)](x)
        count += 1
    return total + sep * (count - 1) if count else 0


def _call_width(n: ir.PyCall) -> int:
    total = _w(n.func) + 2 + _ws(n.args)
    for i, (key, value) in enumerate(n.keywords):
        total += (2 if i or n.args else 0) + len(key) + 1 + _w(value)
    return total


def _comp_width(n: ir.Comp) -> int:
    total = 2 + _w(n.element)
    for c in n.clauses:
        if isinstance(c, ir.CompFor):
            total += 9 + len(c.var) + _w(c.iterable)  # " for v in "
        else:
            total += 4 + _w(c.condition)  # " if "
    return total


def _guarded_width(n: ir.Guarded) -> int:
    tests = sum(len(f"V[{slot}] is _qi_{n.query}[{i}]") for i, slot in enumerate(n.slots))
    tests += 5 * (len(n.slots) - 1)  # " and "
    return 1 + _w(n.fast) + 5 + tests + 7 + _w(n.call) + 1  # (fast if (tests) else call)


def _neighbours_width(n: ir.Neighbours) -> int:
    node = _w(n.node)
    links = 11 + node + 5  # _links.get(node, ())
    if n.slot is None:
        return links
    return 1 + links + len(f" if not V[{n.slot}] else _dl_neighbours(vm, ") + node + 2


def _digits(value: int) -> int:
    return len(str(value))


_WIDTH: dict[type, Callable[[Any], int]] = {
    ir.Lit: lambda n: len(repr(n.value)),
    ir.Const: lambda n: len(n.name),
    ir.Slot: lambda n: 3 + _digits(n.index),
    ir.VarSlot: lambda n: 3 + _digits(n.slot),
    ir.Local: lambda n: len(n.name),
    ir.Global: lambda n: len(n.name),
    ir.TableRead: lambda n: len(n.name),
    ir.VMRef: lambda n: 2,
    ir.Frame: lambda n: 1,
    ir.Players: lambda n: 10,
    ir.Group: lambda n: 2 + _w(n.inner),
    ir.Subscript: lambda n: _w(n.obj) + 2 + _w(n.key),
    ir.Head: lambda n: _w(n.obj) + 3 + _digits(n.stop),
    ir.Slice: lambda n: _w(n.obj) + 3 + sum(_w(x) for x in (n.lower, n.upper) if x is not None),
    ir.Attr: lambda n: _w(n.obj) + 1 + len(n.name),
    ir.PyCall: _call_width,
    ir.Tuple: lambda n: 3 + _ws(n.items) if n.items else 2,
    ir.List: lambda n: 2 + _ws(n.items),
    ir.PyBinOp: lambda n: 4 + _w(n.left) + len(n.op) + _w(n.right),
    ir.Between: lambda n: 8 + _w(n.low) + _w(n.value) + _w(n.high),
    ir.PyNot: lambda n: (4 if n.bare else 6) + _w(n.operand),
    ir.Truth: lambda n: 10 + _w(n.operand),
    ir.PyNeg: lambda n: 3 + _w(n.operand),
    ir.IfExp: lambda n: 12 + _w(n.then) + _w(n.condition) + _w(n.otherwise),
    ir.PyLambda: lambda n: 11 + len(n.param) + _w(n.body),
    ir.Comp: _comp_width,
    ir.Join: lambda n: _ws(n.parts, 3),
    ir.Charge: lambda n: 13 + _w(n.items),
    ir.Cap: lambda n: (11 if n.deep else 6) + _w(n.value),
    ir.QueryCall: lambda n: 3 + len(n.query) + 6 + sum(_w(a) + (1 if n.tight else 2) for a in n.args) + 2,
    ir.Guarded: _guarded_width,
    ir.Neighbours: _neighbours_width,
}
