"""Runs of simple statements compiled to one native Python function.

A statement that can neither wait for a decision nor start another procedure (let,
assignment, if/for/while over such statements, log, roll, shuffle, require) needs no
step of its own: a maximal run of them becomes the statements (ir.py) of one Python
function, one step in the procedure's table. Loops inside it spend the step budget,
and a Python error inside it is traced back to the .game line that caused it: each
line of a block's code has its place in `block_lines`, by its line number.
"""

from __future__ import annotations

import attrs

from interpreter.compile import ir, lazy
from interpreter.compile.emit import line_count
from interpreter.compile.expressions import ExpressionCompiler
from interpreter.compile.names import LOCAL_KINDS
from interpreter.compile.passtables import PassTables
from interpreter.compile.scope import Scope
from interpreter.compile.steps import LogFormat
from interpreter.core.errors import Span
from interpreter.core.limits import MAX_LOG_LINES, capped, capped_deep
from interpreter.language import syntax as ast


@attrs.frozen
class BindParams:
    """The start of an inlined procedure: its parameters take the caller's arguments
    (compiled in the caller's scope) in the slots given."""

    span: Span
    slots: tuple[int, ...]
    sources: tuple[ir.IRNode, ...]


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


def _capped_into(target: ir.IRNode, value: ir.IRNode, emit) -> None:
    """`target = value`, held to the value limits (`capped`): a number or a list within
    them, the usual case (`x += y`, `pile = append(pile, c)`), is tested in place rather
    than in a call. A list computed and stored spends a step per item (`xs = xs + [x]` in
    a loop copies the list each turn: the budget, not the list limit, stops it)."""
    emit(ir.PyAssign((_C,), value))
    emit(ir.When(_is(_C, ir.TUPLE), (ir.Do(ir.Charge(_C)),), flat=True))
    small_int = ir.PyBinOp("and", _is(_C, _INT), ir.Between(ir.PyNeg(_MAX_INT), _C, _MAX_INT))
    short_list = ir.PyBinOp("and", _is(_C, ir.TUPLE), ir.PyBinOp("<=", ir.PyCall(ir.LEN, (_C,)), _MAX_LIST))
    held = ir.PyNot(ir.PyBinOp("or", small_int, short_list), bare=True)
    emit(ir.When(held, (ir.PyAssign((_C,), ir.Cap(_C)),), flat=True))
    emit(ir.PyAssign((target,), _C))


def _is(value: ir.IRNode, kind: ir.Global) -> ir.IRNode:
    """`value.__class__ is kind`."""
    return ir.PyBinOp("is", ir.Attr(value, "__class__"), kind)


def _store(target: ir.IRNode, value: ir.IRNode, emit) -> None:
    """`target = value`; a value held to the limits (`_cap(...)`) is tested in place."""
    if type(value) is ir.Cap and not value.deep:
        _capped_into(target, value.value, emit)
    elif type(value) is ir.Cap:  # a list of computed items: spends a step per item too
        emit(ir.PyAssign((target,), ir.Charge(value)))
    else:
        emit(ir.PyAssign((target,), value))


# Block-local names, apart from the namespace's constants (`_k12`) and expression variables.
_C, _IT, _W, _OLD = ir.Local("__c"), ir.Local("__it"), ir.Local("__w"), ir.Local("__old")
_INT = ir.Global("int", ir.PYTHON)
_MAX_INT, _MAX_LIST = ir.Global("_MAX_INT", ir.PYTHON), ir.Global("_MAX_LIST", ir.PYTHON)
_LIST = ir.Global("list", ir.PYTHON)
_FRAME = ("vm", "L")
_PLAYERS = ir.Players()  # the seats in play


def _rebinds(body, name: str, slot: int) -> bool:
    """Does a statement of `body`, or of the bodies inside it, assign or bind `name`, or
    write the frame's slot `slot` (a procedure written in place binding its parameters)?"""
    for s in body:
        if getattr(s, "name", None) == name or getattr(s, "var", None) == name or slot in getattr(s, "slots", ()):
            return True
        inner = [getattr(s, "body", None) or (), getattr(s, "otherwise", None) or ()]
        inner.extend(b for _, b in getattr(s, "branches", ()) or ())
        if any(_rebinds(b, name, slot) for b in inner):
            return True
    return False


class BlockCompiler:
    """Runs of simple statements as one native step, and the value limits on what they
    store; asked by the statement compiler, with the expression compiler's help."""

    def __init__(self, tables: PassTables, expressions: ExpressionCompiler) -> None:
        self.tables = tables
        self.expressions = expressions
        self.blocks = 0  # native blocks made: each numbers its own names (`_endN`)
        # The slots of the `for` variables running over the seats in play (`for p in
        # players`) in the body being written, never assigned there: a write keyed by one
        # needs no test that its seat is in play.
        self._seat_slots: set[int] = set()

    def native_ok(self, s, in_loop: bool) -> bool:
        """Can `s` run inside one native step (no decision, no call, no frame change)?"""
        if not self.tables.optimise and isinstance(s, ast.If | ast.While | ast.For | ast.Break):
            return False  # as steps of their own, with jumps
        if isinstance(s, ast.Assign) and not s.keys and self._watched(s):
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

    def native_lines(self, stmts: list, scope: Scope) -> tuple[list[ir.Stmt], list[Span]]:
        """The statements of `stmts` (binding their locals in `scope`), and the span of
        each line they take (emit.py: one line per statement, `if`, `elif` and `else`)."""
        lines: list[ir.Stmt] = []
        spans: list[Span] = []
        for s in stmts:
            self._lines(s, scope, lines, spans)
        return lines, spans

    def native_block(
        self,
        run_name: str,
        lines: list[ir.Stmt],
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
        number = self.blocks
        self.blocks += 1
        ending: list[ir.Stmt]
        if last is None:
            ending = [ir.PyReturn(ir.Lit(nxt))]
        elif getattr(last, "body", None) is not None:  # a decision's step, written out here: one call
            ending = list(last.body)
        else:
            self.tables.ns[f"_end{number}"] = last
            ending = [ir.PyReturn(ir.PyCall(ir.Global(f"_end{number}"), (ir.VMRef(), ir.Frame())))]
        # Its lines: the definition, `V = vm.vars`, the run's statements (one span per
        # line), then the ending's. Each block's code is moved to lines of its own, after
        # the last block's, so that a traceback's line is an index into `block_lines`.
        # It is lowered and compiled when first run (lazy.py): its lines are counted here.
        stmts = [*lines, *ending]
        taken = 2 + line_count(stmts)
        first = len(self.tables.block_lines)
        ending_lines = taken - 2 - len(spans)
        self.tables.block_lines.extend([None, None])
        self.tables.block_lines.extend((span, run_name) for span in spans)
        self.tables.block_lines.extend([(last_span, last_name or run_name)] * ending_lines)
        return lazy.block(self.tables.ns, first, stmts, taken)

    def _for_lines(self, s: ast.For, scope: Scope, spans: list[Span], emit, src) -> None:
        """A `for` loop in a native block: a step per item spent inline (no call per loop),
        unless the list is known to be paid for already."""
        raw = src(s.iterable)
        items: ir.IRNode = self.stored(s.iterable, raw)
        if not self.expressions.paid(s.iterable, raw):
            emit(ir.PyAssign((_IT,), items))
            emit(ir.spend_per_item(_IT), lines=3)
            items = _IT
        target = ir.Slot(scope.bind(s.var))
        seats = raw == _PLAYERS and not _rebinds(s.body, s.var, target.index) and target.index not in self._seat_slots
        if seats:
            self._seat_slots.add(target.index)
        try:
            emit(ir.Loop(target, items, self._body_lines(s.body, scope, spans, s.span, head=True)), lines=0)
        finally:
            if seats:
                self._seat_slots.discard(target.index)

    def _lines(self, s, scope: Scope, out: list, spans: list[Span]) -> None:
        def emit(stmt: ir.Stmt, lines: int = 1) -> None:
            out.append(stmt)
            spans.extend([s.span] * lines)

        src = lambda e: self.expressions.src(e, scope, {})  # noqa: E731
        if isinstance(s, ast.Cite | ast.Note):
            return
        if isinstance(s, BindParams):
            slots = ir.Tuple(tuple(ir.Slot(n) for n in s.slots))
            emit(ir.PyAssign((slots,), ir.Tuple(s.sources)))
        elif isinstance(s, ast.Let):
            value = self.stored(s.value, src(s.value))
            _store(ir.Slot(scope.bind(s.name)), value, emit)
        elif isinstance(s, ast.Assign):
            self._assign_lines(s, scope, emit, src)
        elif isinstance(s, ast.If):
            out.append(self._if_lines(s, scope, spans, src))
        elif isinstance(s, ast.While):
            spans.extend([s.span] * 3)  # the `while` line and the step it spends
            condition = src(s.condition)
            body = self._body_lines(s.body, scope, spans, s.span)
            out.append(ir.PyWhile(condition, (ir.Update(ir.BUDGET, "-", ir.Lit(1)), ir.OUT_OF_STEPS, *body)))
        elif isinstance(s, ast.For):
            self._for_lines(s, scope, spans, emit, src)
        elif isinstance(s, ast.Break):
            emit(ir.PyBreak())
        elif isinstance(s, ast.Log):
            audience = src(s.audience) if s.audience is not None else ir.Lit(None)
            parts = tuple(p if isinstance(p, str) else None for p in s.text.parts)
            values = tuple(src(p) for p in s.text.parts if not isinstance(p, str))
            self.tables.formats.append(LogFormat(parts, s.span, s.headline))
            log = ir.Attr(ir.VMRef(), "log")
            full = ir.PyBinOp(">=", ir.PyCall(ir.LEN, (log,)), ir.Lit(MAX_LOG_LINES))
            emit(ir.When(full, (ir.Do(ir.PyCall(ir.Attr(ir.VMRef(), "log_full"))),), flat=True))
            entry = ir.Tuple((audience, ir.Lit(len(self.tables.formats) - 1), ir.Tuple(values)))
            emit(ir.Do(ir.PyCall(ir.Attr(log, "append"), (entry,))))
        elif isinstance(s, ast.Roll):
            self.tables.uses_chance = True
            source = self.stored(s.source, src(s.source))
            if not (type(source) is ir.Const and isinstance(self.tables.ns.get(source.name), tuple)):
                source = ir.PyCall(ir.TUPLE, (source,))  # (a die's faces, a constant, are a tuple already)
            emit(ir.PyAssign((ir.Slot(scope.bind(s.var)),), ir.PyCall(ir.Attr(ir.VMRef(), "random_choice"), (source,))))
        elif isinstance(s, ast.Shuffle):
            self.tables.uses_chance = True
            current: ast.Expr = self.tables.names.written(s.span, s.name, "var")  # `shuffle` names a variable
            for key in s.keys:
                current = ast.Index(span=s.span, obj=current, key=key)
            target = ast.Assign(span=s.span, name=s.name, keys=s.keys, op="=", value=current)
            shuffled = ir.PyCall(ir.Attr(ir.VMRef(), "shuffled"), (src(current),))
            self._assign_lines(target, scope, emit, src, shuffled, "var")
        elif isinstance(s, ast.Require):
            where = ir.Global(f"_span{next(self.expressions.name_numbers)}")
            self.tables.ns[where.name] = s.span
            condition = src(s.condition)  # (compiled in the order written: a fold names its constant)
            error = ir.PyCall(ir.Attr(ir.VMRef(), "rule_error"), (src(s.message), where))
            emit(ir.When(ir.PyNot(condition, bare=True), (ir.Raise(error),), flat=True))
        elif isinstance(s, ast.Win | ast.GameOver):  # the game ends: the run stops after this step
            emit(ir.PyAssign((_W,), src(s.winners)))
            one = ir.PyCall(ir.Global("isinstance", ir.PYTHON), (_W, ir.Global("str", ir.PYTHON)))
            winners = ir.IfExp(one, ir.Tuple((_W,)), ir.PyCall(ir.TUPLE, (_W,)))
            emit(ir.Do(ir.PyCall(ir.Attr(ir.VMRef(), "finish"), (winners,))))
            emit(ir.PyReturn(ir.Lit(0)))
        else:  # pragma: no cover - native_ok admits only the kinds above
            raise AssertionError(type(s).__name__)

    def _if_lines(self, s: ast.If, scope: Scope, spans: list[Span], src) -> ir.When:
        """`if`, `elif`s and `else`: a line each, then its body's."""
        branches = []
        for cond, body in s.branches:
            spans.append(s.span)  # the `if` or `elif` line
            branches.append((src(cond), self._body_lines(body, scope, spans, s.span)))
        otherwise = None
        if s.otherwise is not None:
            spans.append(s.span)  # the `else` line
            otherwise = self._body_lines(s.otherwise, scope, spans, s.span)
        for cond, body in reversed(branches[1:]):
            otherwise = (ir.When(cond, body, otherwise, chained=True),)
        return ir.When(branches[0][0], branches[0][1], otherwise)

    def _body_lines(self, body, scope, spans, span, head: bool = False) -> tuple[ir.Stmt, ...]:
        """The statements of a body; `pass` if it has none. `head`: the span of its
        header's line is appended first (after what it computes)."""
        if head:
            spans.append(span)
        out: list[ir.Stmt] = []
        for x in body:
            self._lines(x, scope, out, spans)
        if not out:
            out.append(ir.PyPass())
            spans.append(span)
        return tuple(out)

    def stored(self, e, source: ir.IRNode) -> ir.IRNode:
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

    def _watched(self, s: ast.Assign) -> bool:
        """Does `s` assign a variable whose cards run `when self leaves` hooks?"""
        return s.name in self.tables.leave_hooks and self.tables.names.target(s) == "var"

    def _assign_lines(
        self, s: ast.Assign, scope: Scope, emit, src, node: ir.IRNode | None = None, target: str = ""
    ) -> None:
        """An assignment's lines. What its target is (a local, a variable) is the checker's
        answer (names.py), or `target` for one the compiler wrote (a `shuffle`'s)."""
        node = node if node is not None else self.stored(s.value, src(s.value))
        # `x += y` may double x; adding a number written in the rule only counts up.
        grows = s.op != "=" and not isinstance(s.value, ast.Int)
        base: ir.IRNode
        kind = target or self.tables.names.target(s)
        if kind in LOCAL_KINDS:
            base, levels = ir.Slot(scope.slots[s.name]), ()
        elif kind == "var":
            info = self.tables.vars[s.name]
            base, levels = ir.VarSlot(info.slot), info.levels
        else:
            self.tables.fail(s.span, f"cannot assign to '{s.name}'", "declare it with `var` or `let`")
        if not s.keys:
            watched = kind == "var" and s.name in self.tables.leave_hooks
            if watched:
                emit(ir.PyAssign((_OLD,), base))
            if grows:
                _capped_into(base, ir.PyBinOp(s.op, base, node), emit)
            elif s.op == "=":
                _store(base, node, emit)
            else:
                emit(ir.Update(base, s.op, node))
            if watched:  # cards that left this list run their `when self leaves` hooks next
                emit(ir.Do(ir.PyCall(ir.Global(f"_left_{s.name}"), (ir.VMRef(), _OLD, base))))
            return
        # Copy each level on the way down, change the entry, and rebuild the tuples.
        seat_keys = self._seat_keyed(s.name) if levels else ()
        keys = [ir.Local(f"__k{depth}") for depth in range(len(s.keys))]
        copies = [ir.Local(f"__t{depth}") for depth in range(len(s.keys))]
        for depth, key in enumerate(s.keys):
            k = src(key)
            if depth in seat_keys and not (type(k) is ir.Slot and k.index in self._seat_slots):
                # a seat nobody plays is refused (VM.seat_written): one test per write, but
                # for a `for` variable running over the seats in play
                seat = ir.Local(f"__p{depth}")
                emit(ir.PyAssign((seat,), k))
                refused = ir.Do(ir.PyCall(ir.Attr(ir.VMRef(), "seat_written"), (seat, ir.Lit(s.name))))
                emit(ir.When(ir.PyBinOp("not in", seat, ir.Attr(ir.VMRef(), "players")), (refused,), flat=True))
                k = seat
            if depth < len(levels):
                index = ir.TableRead(f"_i{self.tables.vars[s.name].slot}_{depth}", "position")
                self.tables.ns[index.name] = levels[depth][1]
                k = ir.Subscript(index, k)
            emit(ir.PyAssign((keys[depth],), k))
            above = base if depth == 0 else ir.Subscript(copies[depth - 1], keys[depth - 1])
            emit(ir.PyAssign((copies[depth],), ir.PyCall(_LIST, (above,))))
        entry = ir.Subscript(copies[-1], keys[-1])
        # (`__k`, `__t`: block-local names, apart from the namespace's `_k` constants)
        if grows:
            _capped_into(entry, ir.PyBinOp(s.op, entry, node), emit)
        elif s.op == "=":
            _store(entry, node, emit)
        else:
            emit(ir.Update(entry, s.op, node))
        for depth in range(len(s.keys) - 1, 0, -1):
            emit(
                ir.PyAssign((ir.Subscript(copies[depth - 1], keys[depth - 1]),), ir.PyCall(ir.TUPLE, (copies[depth],)))
            )
        emit(ir.PyAssign((base,), ir.PyCall(ir.TUPLE, (copies[0],))))
