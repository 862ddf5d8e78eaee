"""The one emitter: the intermediate form (ir.py) written as Python source.

Everything the compiler generates is written here, from nodes; nothing reads the text
back. `expr` writes an expression, `body` the lines of a generated function's body. Both
can list, as they write, the compiler's generated functions the text calls (`ir.LOOP`
globals): those are compiled only when a compiled text calls them
(ExpressionCompiler.link_loops).
"""

from __future__ import annotations

from collections.abc import Callable

from interpreter.compile import ir


def expr(node: ir.Node, calls: list[str] | None = None) -> str:
    """The Python source of `node`; the generated functions it calls appended to `calls`."""
    out: list[str] = []
    _write(node, out, calls)
    return "".join(out)


def kept(node: ir.Node) -> str:
    """`expr(node)`, its text kept for the later writes of the same node until `forget`:
    an inlined def's body is written to measure it (expressions.INLINE_LIMIT), then
    again inside the body of each def around it that is written in place, and in the
    end in its function. Kept by the node's identity, with the node (so that its id is
    no other's): the text of a node is a function of the node alone."""
    calls: list[str] = []
    text = expr(node, calls)
    _kept[id(node)] = (node, text, tuple(calls))
    return text


def forget() -> None:
    """Forget the texts `kept` keeps (when a new tree is begun: the nodes of the last
    one are seldom written again)."""
    _kept.clear()


_kept: dict[int, tuple[ir.Node | ir.Line, str, tuple[str, ...]]] = {}


def body(
    stmts: tuple[ir.Stmt, ...] | list[ir.Stmt], pad: str = "    ", calls: list[str] | None = None, keep: bool = False
) -> list[str]:
    """The lines of `stmts`, indented from `pad`. `keep`: each line's text is kept, as
    `kept` keeps a node's, for the same lines written again (a loop function's body is
    written as it is, then again with its hoisted reads replaced: the lines with none
    are the same objects, `passes.hoist` copying only what it changes)."""
    lines: list[str] = []
    for s in stmts:
        _stmt(s, pad, lines, calls, keep)
    return lines


def _stmt(s: ir.Stmt, pad: str, lines: list[str], calls: list[str] | None, keep: bool) -> None:
    if isinstance(s, ir.Line):
        lines.append(pad + _line(s, calls, keep))
    elif isinstance(s, ir.Nest):
        lines.append(pad + _line(s.head, calls, keep))
        for x in s.body:
            _stmt(x, pad + "    ", lines, calls, keep)
    else:
        lines.append(f"{pad}for {s.var} in {expr(s.iterable, calls)}:")
        for x in s.body:
            _stmt(x, pad + "    ", lines, calls, keep)


def _line(s: ir.Line, calls: list[str] | None, keep: bool) -> str:
    known = _kept.get(id(s))
    if known is not None and known[0] is s:
        if calls is not None:
            calls.extend(known[2])
        return known[1]
    mine: list[str] | None = [] if keep else calls
    out: list[str] = []
    for p in s.parts:
        if isinstance(p, str):
            out.append(p)
        else:
            _write(p, out, mine)
    text = "".join(out)
    if keep:
        _kept[id(s)] = (s, text, tuple(mine or ()))
        if calls is not None and mine:
            calls.extend(mine)
    return text


def _write(n: ir.Node, out: list[str], calls: list[str] | None) -> None:
    known = _kept.get(id(n))
    if known is not None and known[0] is n:
        out.append(known[1])
        if calls is not None:
            calls.extend(known[2])
        return
    _EXPR[type(n)](n, out, calls)


def _head(n: ir.Head, out: list[str], calls) -> None:
    _write(n.obj, out, calls)
    out.append(f"[:{n.stop}]")


def _attr(n: ir.Attr, out: list[str], calls) -> None:
    _write(n.obj, out, calls)
    out.append(f".{n.name}")


def _list(n: ir.List, out: list[str], calls) -> None:
    out.append("[")
    _seq(n.items, out, calls)
    out.append("]")


def _seq(items, out: list[str], calls, sep: str = ", ") -> None:
    for i, x in enumerate(items):
        if i:
            out.append(sep)
        _write(x, out, calls)


def _global(n: ir.Global, out: list[str], calls) -> None:
    if n.kind == ir.LOOP and calls is not None:
        calls.append(n.name)
    out.append(n.name)


def _subscript(n: ir.Subscript, out: list[str], calls) -> None:
    _write(n.obj, out, calls)
    out.append("[")
    _write(n.key, out, calls)
    out.append("]")


def _call(n: ir.Call, out: list[str], calls) -> None:
    _write(n.func, out, calls)
    out.append("(")
    _seq(n.args, out, calls)
    for i, (key, value) in enumerate(n.keywords):
        out.append(", " if i or n.args else "")
        out.append(f"{key}=")
        _write(value, out, calls)
    out.append(")")


def _tuple(n: ir.Tuple, out: list[str], calls) -> None:
    if not n.items:
        out.append("()")
        return
    out.append("(")
    _seq(n.items, out, calls)
    out.append(",)")


def _wrap(before: str, field: str, after: str):
    def write(n, out: list[str], calls) -> None:
        out.append(before)
        _write(getattr(n, field), out, calls)
        out.append(after)

    return write


def _binop(n: ir.BinOp, out: list[str], calls) -> None:
    out.append("(")
    _write(n.left, out, calls)
    out.append(f" {n.op} ")
    _write(n.right, out, calls)
    out.append(")")


def _not(n: ir.Not, out: list[str], calls) -> None:
    out.append("not " if n.bare else "(not ")
    _write(n.operand, out, calls)
    if not n.bare:
        out.append(")")


def _ifexp(n: ir.IfExp, out: list[str], calls) -> None:
    out.append("(")
    _write(n.then, out, calls)
    out.append(" if ")
    _write(n.condition, out, calls)
    out.append(" else ")
    _write(n.otherwise, out, calls)
    out.append(")")


def _lambda(n: ir.Lambda, out: list[str], calls) -> None:
    out.append(f"(lambda {n.param}: ")
    _write(n.body, out, calls)
    out.append(")")


def _comp(n: ir.Comp, out: list[str], calls) -> None:
    out.append("[")
    _write(n.element, out, calls)
    for c in n.clauses:
        if isinstance(c, ir.For):
            out.append(f" for {c.var} in ")
            _write(c.iterable, out, calls)
        else:
            out.append(" if ")
            _write(c.condition, out, calls)
    out.append("]")


def _query(n: ir.QueryCall, out: list[str], calls) -> None:
    out.append(f"_q_{n.query}(vm, (")
    for a in n.args:
        _write(a, out, calls)
        out.append("," if n.tight else ", ")
    out.append("))")


def _guarded(n: ir.Guarded, out: list[str], calls) -> None:
    out.append("(")
    _write(n.fast, out, calls)
    out.append(" if (")
    out.append(" and ".join(f"V[{slot}] is _qi_{n.query}[{i}]" for i, slot in enumerate(n.slots)))
    out.append(") else ")
    _write(n.call, out, calls)
    out.append(")")


def _neighbours(n: ir.Neighbours, out: list[str], calls) -> None:
    node = expr(n.node, calls)
    if n.slot is None:
        out.append(f"_links.get({node}, ())")
    else:
        out.append(f"(_links.get({node}, ()) if not V[{n.slot}] else _dl_neighbours(vm, {node}))")


_EXPR: dict[type, Callable] = {
    ir.Lit: lambda n, out, calls: out.append(repr(n.value)),
    ir.Const: lambda n, out, calls: out.append(n.name),
    ir.Slot: lambda n, out, calls: out.append(f"L[{n.index}]"),
    ir.Var: lambda n, out, calls: out.append(f"V[{n.slot}]"),
    ir.Local: lambda n, out, calls: out.append(n.name),
    ir.Global: _global,
    ir.Table: lambda n, out, calls: out.append(n.name),
    ir.VM: lambda n, out, calls: out.append("vm"),
    ir.Frame: lambda n, out, calls: out.append("L"),
    ir.Players: lambda n, out, calls: out.append("vm.players"),
    ir.Group: _wrap("(", "inner", ")"),
    ir.Subscript: _subscript,
    ir.Head: _head,
    ir.Attr: _attr,
    ir.Call: _call,
    ir.Tuple: _tuple,
    ir.List: _list,
    ir.BinOp: _binop,
    ir.Not: _not,
    ir.Truth: _wrap("(not not ", "operand", ")"),
    ir.Neg: _wrap("(-", "operand", ")"),
    ir.IfExp: _ifexp,
    ir.Lambda: _lambda,
    ir.Comp: _comp,
    ir.Join: lambda n, out, calls: _seq(n.parts, out, calls, " + "),
    ir.Charge: _wrap("_charge(vm, ", "items", ")"),
    ir.Cap: lambda n, out, calls: _wrap("_cap_deep(" if n.deep else "_cap(", "value", ")")(n, out, calls),
    ir.QueryCall: _query,
    ir.Guarded: _guarded,
    ir.Neighbours: _neighbours,
}
