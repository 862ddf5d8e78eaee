"""Runs of simple statements compiled to one native Python function.

A statement that can neither wait for a decision nor start another procedure (let,
assignment, if/for/while over such statements, log, roll, shuffle, require) needs no
step of its own: a maximal run of them becomes the source of one Python function,
one step in the procedure's table. Loops inside it spend the step budget, and a
Python error inside it is traced back to the .game line that caused it.
"""

from __future__ import annotations

import attrs

from interpreter.compile import ir
from interpreter.compile.emit import body as written
from interpreter.compile.expressions import ExpressionCompiler, compile_source
from interpreter.compile.scope import Scope
from interpreter.compile.tables import Tables
from interpreter.core.errors import Span
from interpreter.core.limits import MAX_LOG_LINES, capped, capped_deep
from interpreter.language import syntax as ast


@attrs.frozen
class BindParams:
    """The start of an inlined procedure: its parameters take the caller's arguments
    (compiled in the caller's scope) in the slots given."""

    span: Span
    slots: tuple[int, ...]
    sources: tuple[ir.Node, ...]


# (`win` and `game over` end the run: the block returns at once, with the run stopped.)
SIMPLE = (
    ast.Let,
    ast.Assign,
    ast.Log,
    ast.Roll,
    ast.Shuffle,
    ast.Require,
    ast.Cite,
    ast.Note,
    BindParams,
    ast.Win,
    ast.GameOver,
)


def _capped_into(target: str, value: tuple, emit) -> None:
    """`target = value` (`value`: the parts of a line), held to the value limits
    (`capped`): a number or a list within them, the usual case (`x += y`,
    `pile = append(pile, c)`), is tested in place rather than in a call. A list computed and stored spends a step per
    item (`xs = xs + [x]` in a loop copies the list each turn: the budget, not the list
    limit, stops it)."""
    emit("__c = ", *value)
    emit("if __c.__class__ is tuple: _charge(vm, __c)")
    emit(
        "if not (__c.__class__ is int and -_MAX_INT <= __c <= _MAX_INT"
        " or __c.__class__ is tuple and len(__c) <= _MAX_LIST): __c = _cap(__c)"
    )
    emit(f"{target} = __c")


def _store(target: str, value: ir.Node, emit) -> None:
    """`target = value`; a value held to the limits (`_cap(...)`) is tested in place."""
    if type(value) is ir.Cap and not value.deep:
        _capped_into(target, (value.value,), emit)
    elif type(value) is ir.Cap:  # a list of computed items: spends a step per item too
        emit(f"{target} = _charge(vm, ", value, ")")
    else:
        emit(f"{target} = ", value)


def _joined(nodes, sep: str) -> list:
    """The parts of a line writing `nodes` separated by `sep`."""
    out: list = []
    for i, n in enumerate(nodes):
        out.extend((sep, n) if i else (n,))
    return out


class BlockCompiler:
    """Runs of simple statements as one native step, and the value limits on what they
    store; asked by the statement compiler, with the expression compiler's help."""

    def __init__(self, tables: Tables, expressions: ExpressionCompiler) -> None:
        self.tables = tables
        self.expressions = expressions

    def native_ok(self, s, in_loop: bool) -> bool:
        """Can `s` run inside one native step (no decision, no call, no frame change)?"""
        if not self.tables.optimise and isinstance(s, ast.If | ast.While | ast.For | ast.Break):
            return False  # as steps of their own, with jumps
        if isinstance(s, ast.Assign) and s.name in self.tables.leave_hooks and not s.keys:
            return False  # a step of its own: the hooks of the cards it removes run right after it
        if isinstance(s, ast.Let | ast.Assign):
            return self.tables.proc_call(s.value) is None  # a procedure's result is a call
        if isinstance(s, SIMPLE):
            return True
        if isinstance(s, ast.Break):
            return in_loop
        if isinstance(s, ast.If):
            bodies = [b for _, b in s.branches] + ([s.otherwise] if s.otherwise is not None else [])
            return all(self.native_ok(x, in_loop) for b in bodies for x in b)
        if isinstance(s, ast.While | ast.For):
            return all(self.native_ok(x, True) for x in s.body)
        return False

    def native_lines(self, stmts: list, scope: Scope) -> tuple[list[ir.Line], list[Span]]:
        """The lines of `stmts` (binding their locals in `scope`), with their spans: one
        `ir.Line` each, indented by its first part, written by the emitter."""
        lines: list[ir.Line] = []
        spans: list[Span] = []
        for s in stmts:
            self._lines(s, scope, lines, spans, 1)
        return lines, spans

    def native_block(
        self,
        run_name: str,
        lines: list[ir.Line],
        spans: list[Span],
        nxt: int,
        last=None,
        last_span=None,
        last_name: str | None = None,
    ):
        """One step running `lines`, then continuing at step `nxt`, or ending with the
        step `last` (which returns where to continue: a decision's step is written out
        in it, others called); None if it does nothing. `run_name` is the procedure the
        lines come from (a call written in place: the called one)."""
        if not lines:
            return None
        # Each block keeps its lines' spans and procedure names, to place a runtime error.
        self.tables.blocks.append((spans, len(spans), run_name, last_name or run_name))
        name = f"<gamedef block {len(self.tables.blocks) - 1}>"
        if last is None:
            ending = [ir.line(f"    return {nxt}")]
        elif getattr(last, "body", None) is not None:  # a decision's step, written out here: one call
            ending = list(last.body)
            spans.extend([last_span] * len(last.body))
        else:
            ending = [ir.line(f"    return _end{len(self.tables.blocks) - 1}(vm, L)")]
            self.tables.ns[f"_end{len(self.tables.blocks) - 1}"] = last
            spans.append(last_span)
        calls: list[str] = []
        text = "def _blk(vm, L):\n    V = vm.vars\n" + "\n".join(written([*lines, *ending], "", calls)) + "\n"
        # Line n of the text is spans[n - 3]: two header lines, 1-based numbering.
        local: dict = {}
        self.expressions.link_loops(calls)
        exec(compile_source(text, name), self.tables.ns, local)  # noqa: S102
        return local["_blk"]

    def _for_lines(self, s: ast.For, scope: Scope, out: list, spans: list[Span], depth: int, emit, src) -> None:
        """A `for` loop in a native block: a step per item spent inline (no call per loop),
        unless the list is known to be paid for already."""
        raw = src(s.iterable)
        items: ir.Node = self.stored(s.iterable, raw)
        if not self.expressions.paid(s.iterable, raw):
            emit("__it = ", items)
            emit("if __it.__class__ is tuple:")
            emit("    vm.budget -= len(__it)")
            emit("    if vm.budget < 0: vm.out_of_steps()")
            items = ir.Local("__it")
        emit(f"for L[{scope.bind(s.var)}] in ", items, ":")
        self._body_lines(s.body, scope, out, spans, depth + 1, s.span)

    def _lines(self, s, scope: Scope, out: list, spans: list[Span], depth: int) -> None:
        pad = "    " * depth

        def emit(*parts: str | ir.Node) -> None:
            out.append(ir.Line((pad, *parts)))
            spans.append(s.span)

        src = lambda e: self.expressions.src(e, scope, {})  # noqa: E731
        if isinstance(s, ast.Cite | ast.Note):
            return
        if isinstance(s, BindParams):
            emit(f"{', '.join(f'L[{n}]' for n in s.slots)}, = ", *_joined(s.sources, ", "), ",")
        elif isinstance(s, ast.Let):
            value = self.stored(s.value, src(s.value))
            _store(f"L[{scope.bind(s.name)}]", value, emit)
        elif isinstance(s, ast.Assign):
            self._assign_lines(s, scope, emit, src)
        elif isinstance(s, ast.If):
            for i, (cond, body) in enumerate(s.branches):
                emit("if " if i == 0 else "elif ", src(cond), ":")
                self._body_lines(body, scope, out, spans, depth + 1, s.span)
            if s.otherwise is not None:
                emit("else:")
                self._body_lines(s.otherwise, scope, out, spans, depth + 1, s.span)
        elif isinstance(s, ast.While):
            emit("while ", src(s.condition), ":")
            emit("    vm.budget -= 1")
            emit("    if vm.budget < 0: vm.out_of_steps()")
            self._body_lines(s.body, scope, out, spans, depth + 1, s.span)
        elif isinstance(s, ast.For):
            self._for_lines(s, scope, out, spans, depth, emit, src)
        elif isinstance(s, ast.Break):
            emit("break")
        elif isinstance(s, ast.Log):
            audience = src(s.audience) if s.audience is not None else ir.Lit(None)
            parts = tuple(p if isinstance(p, str) else None for p in s.text.parts)
            values = [src(p) for p in s.text.parts if not isinstance(p, str)]
            self.tables.formats.append(parts)
            self.tables.format_spans.append(s.span)
            if s.headline:
                self.tables.headline_formats.add(len(self.tables.formats) - 1)
            emit(f"if len(vm.log) >= {MAX_LOG_LINES}: vm.log_full()")
            written = [x for v in values for x in (v, ", ")]
            emit("vm.log.append((", audience, f", {len(self.tables.formats) - 1}, (", *written, ")))")
        elif isinstance(s, ast.Roll):
            self.tables.uses_chance = True
            source = self.stored(s.source, src(s.source))
            if not (type(source) is ir.Const and isinstance(self.tables.ns.get(source.name), tuple)):
                source = ir.Call(ir.TUPLE, (source,))  # (a die's faces, a constant, are a tuple already)
            emit(f"L[{scope.bind(s.var)}] = vm.random_choice(", source, ")")
        elif isinstance(s, ast.Shuffle):
            self.tables.uses_chance = True
            current: ast.Expr = ast.Name(span=s.span, id=s.name)
            for key in s.keys:
                current = ast.Index(span=s.span, obj=current, key=key)
            target = ast.Assign(span=s.span, name=s.name, keys=s.keys, op="=", value=current)
            shuffled = ir.Call(ir.Attr(ir.VM(), "shuffled"), (src(current),))
            self._assign_lines(target, scope, emit, src, shuffled)
        elif isinstance(s, ast.Require):
            where = f"_span{next(self.expressions.name_numbers)}"
            self.tables.ns[where] = s.span
            emit("if not ", src(s.condition), ": raise vm.rule_error(", src(s.message), f", {where})")
        elif isinstance(s, ast.Win | ast.GameOver):  # the game ends: the run stops after this step
            emit("__w = ", src(s.winners))
            emit("vm.finish((__w,) if isinstance(__w, str) else tuple(__w))")
            emit("return 0")
        else:  # pragma: no cover - native_ok admits only the kinds above
            raise AssertionError(type(s).__name__)

    def _body_lines(self, body, scope, out, spans, depth, span) -> None:
        before = len(out)
        for x in body:
            self._lines(x, scope, out, spans, depth)
        if len(out) == before:
            out.append(ir.line("    " * depth + "pass"))
            spans.append(span)

    def stored(self, e, source: ir.Node) -> ir.Node:
        """`source`, held to the value limits if `e` may compute a larger value than it
        reads (arithmetic, joined lists, texts); a plain read or a literal is not."""
        if not self.expressions.may_grow(e):
            return source
        return ir.Cap(source, deep=self.makes_items(e))

    def makes_items(self, e) -> bool:
        """Does `e` build a list whose items it computes (so they must be checked too)?"""
        t = type(e)
        if t is ast.ListLit:
            return any(self.expressions.may_grow(i) for i in e.items)
        if t is ast.Comprehension:
            return self.expressions.may_grow(e.element)
        if t is ast.Call:
            return any(self.expressions.may_grow(a) or self.makes_items(a) for a in e.args)
        if t is ast.BinOp:
            return self.makes_items(e.left) or self.makes_items(e.right)
        if t is ast.IfExpr:
            return self.makes_items(e.then) or self.makes_items(e.otherwise)
        return False

    def stored_expr(self, e, scope: Scope):
        """The function computing `e`, held to the value limits as `stored` says."""
        f = self.expressions.expr(e, scope)
        if not self.expressions.may_grow(e):
            return f
        check = capped_deep if self.makes_items(e) else capped
        return lambda vm, L: check(f(vm, L))

    def _seat_keyed(self, name: str) -> frozenset[int]:
        """{0} if the variable `name` is a map keyed first by player (whose score, whose
        hand), where a write checks that its seat is in play; else nothing. A player key
        further in may stand for something else, as a colour's slot on a map
        (`extra: player -> Country -> player -> int`), named whoever plays."""
        info = self.tables.vars.get(name)
        t = info.decl.type if info is not None else None
        if isinstance(t, ast.MapType) and isinstance(t.key, ast.NamedType) and t.key.name == "player":
            return frozenset((0,))
        return frozenset()

    def _assign_lines(self, s: ast.Assign, scope: Scope, emit, src, node: ir.Node | None = None) -> None:
        node = node if node is not None else self.stored(s.value, src(s.value))
        # `x += y` may double x; adding a number written in the rule only counts up.
        grows = s.op != "=" and not isinstance(s.value, ast.Int)
        if s.name in scope.slots:
            base, levels = f"L[{scope.slots[s.name]}]", ()
        elif s.name in self.tables.vars:
            info = self.tables.vars[s.name]
            base, levels = f"V[{info.slot}]", info.levels
        else:
            self.tables.fail(s.span, f"cannot assign to '{s.name}'", "declare it with `var` or `let`")
        if not s.keys:
            watched = s.name in self.tables.leave_hooks and s.name not in scope.slots
            if watched:
                emit(f"__old = {base}")
            if grows:
                _capped_into(base, (f"{base} {s.op} ", node), emit)
            else:
                if s.op == "=":
                    _store(base, node, emit)
                else:
                    emit(f"{base} {s.op}= ", node)
            if watched:  # cards that left this list run their `when self leaves` hooks next
                emit(f"_left_{s.name}(vm, __old, {base})")
            return
        # Copy each level on the way down, change the entry, and rebuild the tuples.
        seat_keys = self._seat_keyed(s.name) if levels else ()
        for depth, key in enumerate(s.keys):
            k = src(key)
            if depth in seat_keys:  # a seat nobody plays is refused (VM.seat_written): one test per write
                emit(f"__p{depth} = ", k)
                emit(f"if __p{depth} not in vm.players: vm.seat_written(__p{depth}, {s.name!r})")
                k = ir.Local(f"__p{depth}")
            if depth < len(levels):
                index = ir.Table(f"_i{self.tables.vars[s.name].slot}_{depth}", "position")
                self.tables.ns[index.name] = levels[depth][1]
                k = ir.Subscript(index, k)
            emit(f"__k{depth} = ", k)
            emit(f"__t{depth} = list({base if depth == 0 else f'__t{depth - 1}[__k{depth - 1}]'})")
        last = len(s.keys) - 1
        # (`__k`, `__t`: block-local names, apart from the namespace's `_k` constants)
        if grows:
            _capped_into(f"__t{last}[__k{last}]", (f"__t{last}[__k{last}] {s.op} ", node), emit)
        else:
            if s.op == "=":
                _store(f"__t{last}[__k{last}]", node, emit)
            else:
                emit(f"__t{last}[__k{last}] {s.op}= ", node)
        for depth in range(last, 0, -1):
            emit(f"__t{depth - 1}[__k{depth - 1}] = tuple(__t{depth})")
        emit(f"{base} = tuple(__t0)")
