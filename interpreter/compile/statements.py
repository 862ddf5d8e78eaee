"""Procedures, triggers and card slots compiled to flat tables of steps.

Each body becomes a list of small steps (Python functions `step(vm, L) -> next step`)
with integer jumps, so a half-run procedure is plain data: (code index, step, locals).
Runs of simple statements become one native step (blocks.py); a call to a procedure is
copied in place (inlined) where it can be; only a decision, a call that cannot be
inlined, an event or the end of the game leaves the running step table.
"""

from __future__ import annotations

import attrs

from interpreter.compile import ir, passes
from interpreter.compile.blocks import BindParams, BlockCompiler
from interpreter.compile.expressions import ExpressionCompiler
from interpreter.compile.modifiers import ModifierCompiler
from interpreter.compile.names import LOCAL_KINDS
from interpreter.compile.passtables import PassTables
from interpreter.compile.queries import expirer
from interpreter.compile.scope import Scope
from interpreter.compile.steps import Choice, Closure, Code, Handler
from interpreter.core.errors import Span
from interpreter.core.limits import MAX_CHOICES, MAX_LABEL, MAX_LABELS
from interpreter.core.links import link_op
from interpreter.language import syntax as ast

# Statements joined into one native step at most: Python's compiler takes memory in
# proportion to one function's size (a procedure of 100,000 `let`s took gigabytes at once).
MAX_RUN = 500


def _local(named: tuple[str, str] | None, code: str) -> tuple[str, str]:
    """A local's name as a designer wrote it and its procedure; ("", "") for one the
    compiler made (a hidden result, a loop's list), which has no name in the rules."""
    if named is None or not named[0] or named[0].startswith(("\0", "_")):
        return ("", "")
    return (named[0], named[1] or code)


@attrs.frozen
class SkipIfCancelled:
    """The first step of a trigger of an event that announces a cancellable effect:
    if an earlier trigger has cancelled it, this one has nothing left to cancel."""

    span: Span


def _size(stmts) -> int:
    """How many statements a body holds, nested ones included."""
    n = 0
    for st in stmts:
        n += 1
        for attr in ("body", "otherwise"):
            inner = getattr(st, attr, None)
            if isinstance(inner, tuple):
                n += _size(inner)
        for _, body in getattr(st, "branches", ()):
            n += _size(body)
    return n


def _jump(target: int | list):
    """A step that only continues at `target` (or at `target[0]`, known later: the end of
    an inlined procedure). `_thread_jumps` puts the step found there in its place."""

    def op(vm, L):
        return target if target.__class__ is int else target[0]  # type: ignore[index]  # (a list, then)

    op.jump = target  # type: ignore[attr-defined]  # read by `_thread_jumps`
    return op


def _return(vm, L) -> int:
    """The end of a procedure without a result: back to its caller (`VM.return_`, which
    also handles the last frame), with no call when there is a caller."""
    frames = vm.frames
    if len(frames) > 1:
        if vm.tracer is not None:  # a tool's trace (core/trace.py): the scores the frame changed
            vm.tracer.settle(vm.vars, frames)
        frames.pop()
        vm.switch = True
        return 0
    return vm.return_()


def _back_edge(head: int):
    """The jump back to a loop's head: the one place a rule can loop forever, so it
    spends the run's step budget."""

    def op(vm, L):
        vm.budget -= 1
        if vm.budget < 0:
            vm.out_of_steps()
        return head

    op.back = head  # type: ignore[attr-defined]  # marks a loop's back edge
    return op


def _thread_jumps(code: Code) -> None:
    """Each step that only jumps is replaced by the step it leads to (its span and
    procedure name too, for errors), and a loop's back edge leads past a head that only
    jumps: a run then makes one call where it made two or three. Every step index keeps
    its meaning, so a saved state's step is still the same place."""
    ops = code.ops

    def target(i: int) -> int | None:
        t = getattr(ops[i], "jump", None) if i < len(ops) else None
        return None if t is None else (t if t.__class__ is int else t[0])

    def landing(i: int) -> int:
        seen = set()
        while (t := target(i)) is not None and i not in seen:
            seen.add(i)
            i = t
        return i

    for j in range(len(ops)):
        if target(j) is not None:
            k = landing(j)
            if k < len(ops) and target(k) is None:
                ops[j], code.spans[j], code.names[j] = ops[k], code.spans[k], code.names[k]
                code.inlined[j] = code.inlined[k]
        elif (head := getattr(ops[j], "back", None)) is not None and landing(head) != head:
            ops[j] = _back_edge(landing(head))


class StatementCompiler:
    """Turns statement lists into step tables. It keeps the state of the one body it
    is compiling (its step table, loops, inlined calls being written); expressions,
    native runs and modifiers it asks of the compilers it is given."""

    def __init__(
        self, tables: PassTables, expressions: ExpressionCompiler, native: BlockCompiler, modifiers: ModifierCompiler
    ) -> None:
        self.tables = tables
        self.expressions = expressions
        self.native = native
        self.modifiers = modifiers
        self._code: Code  # the body being compiled: set by `compile_body`
        self._where: Closure | None = None
        self._loops: list[list[int]] = []
        self._returns: list[tuple] = []
        self._inline_stack: list[str] = []
        # The parameters' slots of the inlined calls being written, innermost first (`Code.inlined`).
        self._inline_params: tuple[int, ...] = ()
        self._merge_at: tuple[Code, int] | None = None  # where a body written in place joins its caller

    def compile_trigger(self, t: ast.Trigger, card: str | None) -> None:
        names = (["self"] if card else []) + list(t.names)
        code = self.tables.new_code(f"when {t.event}" + (f" ({card})" if card else ""), t.span)
        body: tuple = t.body
        if t.event in self.tables.cancel_events:  # first taker wins: once cancelled, the others don't run
            body = (SkipIfCancelled(span=t.span),) + tuple(body)
        scope = self.compile_body(code, names, body, where=t.where)
        where = self._where
        self.tables.handlers.setdefault(t.event, []).append(Handler(code, where, card is not None, card))
        del scope

    # ---- statements -----------------------------------------------------------
    def compile_body(self, code: Code, params: list[str], body, where=None) -> Scope:
        scope = Scope(params)
        code.nparams = len(params)
        if code.result_slot is not None:
            scope.bind("\0dest")  # code.result_slot, right after the parameters
        self._where = self.expressions.expr(where, scope) if where is not None else None
        self._loops = []
        self._code = code
        # Inlined procedures being compiled: (jump targets of their `return`s, the slot that
        # receives their value, whether they have a result).
        self._returns = []
        self._inline_stack = [code.name]
        self._inline_params = ()
        self._block(tuple(body) + (ast.Return(span=code.span),), scope)
        code.nlocals = scope.count
        code.local_names = tuple(_local(scope.named.get(i), code.name) for i in range(scope.count))
        _thread_jumps(code)
        for op in code.ops:  # (a decision's lines served the blocks before it: not kept on disk)
            getattr(op, "__dict__", {}).pop("body", None)
        return scope

    def _emit(self, op, span: Span) -> int:
        code = self._code
        code.ops.append(op)
        code.spans.append(span)
        code.names.append(self._inline_stack[-1])
        code.inlined.append(self._inline_params)
        return len(code.ops) - 1

    def _here(self) -> int:
        return len(self._code.ops)

    # Statements whose first step a run of simple statements can end with: a decision, a
    # call, an ending, or the test of an `if` / the start of a `for` (not a `while`'s test,
    # which its loop jumps back to). A `let` or assignment that is not simple is a call.
    MERGEABLE = (
        ast.Choose,
        ast.CallStmt,
        ast.Emit,
        ast.Perform,
        ast.Win,
        ast.GameOver,
        ast.Return,
        ast.If,
        ast.For,
        ast.Let,
        ast.Assign,
    )

    def _block(self, stmts, scope: Scope) -> None:
        run: list = []
        for s in stmts:
            if self.native.native_ok(s, False):
                if not self.tables.optimise:  # a step of its own, joined to nothing
                    self._flush([s], scope)
                    continue
                run.append(s)
                if len(run) >= MAX_RUN:  # a long run is several steps: Python compiles each alone
                    self._flush(run, scope)
                    run = []
                continue
            if isinstance(s, self.MERGEABLE) and any(not isinstance(x, ast.Cite | ast.Note) for x in run):
                self._flush(run, scope, s)
            else:
                self._flush(run, scope)
                self._stmt(s, scope)
            run = []
        self._flush(run, scope)

    def _flush(self, run: list, scope: Scope, last=None) -> None:
        """Compile a run of simple statements into one native step. When a `last`
        statement follows, the run and that statement's first step become one step."""
        lines, spans = self.native.native_lines(run, scope)
        if last is None:
            op = self.native.native_block(self._inline_stack[-1], lines, spans, self._here() + 1)
            if op is not None:
                first = next((x for x in run if not isinstance(x, ast.Cite | ast.Note)), run[0])
                self._emit(op, first.span)
            return
        code = self._code
        start = self._here()
        outer, self._merge_at = self._merge_at, (code, start)
        try:
            self._stmt(last, scope)  # its steps start at `start`: wrap the first one
        finally:
            self._merge_at = outer
        op = self.native.native_block(
            self._inline_stack[-1], lines, spans, start + 1, code.ops[start], code.spans[start], code.names[start]
        )
        if op is not None:
            code.ops[start] = op
            code.names[start] = self._inline_stack[-1]  # the run belongs to this procedure

    def _stmt(self, s, scope: Scope) -> None:
        method = getattr(self, "_s_" + type(s).__name__)
        method(s, scope)

    def _s_Cite(self, s, scope):
        pass

    def _s_Note(self, s, scope):
        pass

    def _s_If(self, s: ast.If, scope):
        end_jumps = []
        for i, (cond_expr, body) in enumerate(s.branches):
            cond = self.expressions.src(cond_expr, scope, {})
            at = self._emit(None, cond_expr.span)
            self._block(body, scope)
            if i < len(s.branches) - 1 or s.otherwise is not None:
                end_jumps.append(self._emit(None, s.span))
            after = self._here()
            self._code.ops[at] = self.expressions.function(ir.IfExp(cond, ir.Lit(at + 1), ir.Lit(after)), later=True)
        if s.otherwise is not None:
            self._block(s.otherwise, scope)
        end = self._here()
        for j in end_jumps:
            self._code.ops[j] = _jump(end)

    def _s_While(self, s: ast.While, scope):
        cond = self.expressions.src(s.condition, scope, {})
        if self._merge_at == (self._code, self._here()):
            # The step a run of statements before this loop joins (a procedure written in
            # place whose body starts with the loop): the loop must not jump back into that
            # run, so its test is the next step.
            self._emit(_jump(self._here() + 1), s.span)
        head = self._emit(None, s.span)
        self._loops.append([])
        self._block(s.body, scope)
        self._emit(_back_edge(head), s.span)
        end = self._here()
        # `while true`: the head only continues into the body
        self._code.ops[head] = (
            _jump(head + 1)
            if cond == ir.Lit(True)
            else self.expressions.function(ir.IfExp(cond, ir.Lit(head + 1), ir.Lit(end)), later=True)
        )
        for j in self._loops.pop():
            self._code.ops[j] = _jump(end)

    def _s_For(self, s: ast.For, scope):
        items = self.native.stored_expr(s.iterable, scope)
        seq, pos = scope.fresh(), scope.fresh()
        var = scope.bind(s.var)
        start = self._here()

        def init(vm, L, nxt=start + 1):
            xs = tuple(items(vm, L))
            vm.budget -= len(xs)  # a step per item, as `charge` spends
            if vm.budget < 0:
                vm.out_of_steps()
            L[seq] = xs
            L[pos] = 0
            return nxt

        self._emit(init, s.span)
        head = self._emit(None, s.span)
        self._loops.append([])
        self._block(s.body, scope)
        self._emit(_jump(head), s.span)  # finite: no step budget
        end = self._here()

        def step(vm, L, body=head + 1, end=end):
            i = L[pos]
            xs = L[seq]
            if i < len(xs):
                L[var] = xs[i]
                L[pos] = i + 1
                return body
            L[seq] = None
            return end

        self._code.ops[head] = step
        for j in self._loops.pop():
            self._code.ops[j] = _jump(end)

    def _s_Break(self, s, scope):
        if not self._loops:
            self.tables.fail(s.span, "`break` outside a loop")
        self._loops[-1].append(self._emit(None, s.span))

    def _s_Return(self, s: ast.Return, scope):
        if s.value is not None and self.tables.proc_call(s.value) is not None:  # `return f(x)`
            temp = self._temp(scope)
            self._call(self._result_call(s.value), scope, scope.slots[temp])
            s = ast.Return(span=s.span, value=ast.Name(span=s.value.span, id=temp))
        value = self.native.stored_expr(s.value, scope) if s.value is not None else None
        if self._returns:  # inside an inlined procedure: its value to the caller's slot, jump to its end
            target = [None]
            ends, dest, has_result = self._returns[-1]
            ends.append(target)
            if value is None:  # with a result, the end of its body: the checker proves it unreachable
                op = self._no_result() if has_result else _jump(target)
            elif dest is None:  # a value the caller ignores: computed all the same, as in a frame

                def op(vm, L):
                    value(vm, L)
                    return target[0]

            else:

                def op(vm, L):
                    L[dest] = value(vm, L)
                    return target[0]

            self._emit(op, s.span)
            return
        slot = self._code.result_slot
        if slot is None:
            self._emit(_return, s.span)
        elif value is None:  # the end of a procedure's body, which the checker proves unreachable
            self._emit(self._no_result(), s.span)
        else:
            self._emit(lambda vm, L: vm.return_value(value(vm, L), L[slot]), s.span)

    @staticmethod
    def _no_result():
        def op(vm, L):
            raise vm.rule_error("the procedure ended without returning a value")

        return op

    def _temp(self, scope: Scope) -> str:
        """A hidden local of this frame, holding a procedure's result on its way to a target."""
        name = f"\0result{next(self.expressions.name_numbers)}"
        scope.bind(name)
        return name

    def _s_Let(self, s: ast.Let, scope):
        """`let x = f(args)`: the procedure returns its value straight into x's slot."""
        self._call(self._result_call(s.value), scope, scope.bind(s.name))

    def _s_Assign(self, s: ast.Assign, scope):
        """`target = f(args)` (or `+=`, `-=`): the value lands in a hidden local, then the
        assignment reads it like any other value. An assignment to a list that cards
        watch (`when self leaves`) is a step alone, so their hooks run right after it."""
        if self.tables.proc_call(s.value) is None:
            self._flush([s], scope)
            return
        if s.op == "=" and not s.keys and self.tables.names.target(s) in LOCAL_KINDS:
            self._call(self._result_call(s.value), scope, scope.slots[s.name])
            return
        temp = self._temp(scope)
        self._call(self._result_call(s.value), scope, scope.slots[temp])
        stored = attrs.evolve(s, value=ast.Name(span=s.value.span, id=temp))  # type: ignore[misc]  # (syntax.frozen: attrs)
        self._block((stored,), scope)

    def _s_Choose(self, s: ast.Choose, scope):
        slot = scope.bind(s.var)
        labels, key_slots = self._labels(s, scope, slot) if s.label is not None else (None, None)
        only = s.label.parts[0] if isinstance(s.label, ast.Str) and len(s.label.parts) == 1 else None
        if isinstance(only, ast.Name) and only.id == s.var:
            labels = None  # `label "{c}"` is the value as displayed: no expression to run per option
        prompt = self.expressions.expr(s.prompt, scope) if s.prompt is not None else (lambda vm, L: "")
        nxt = self._here() + 1
        optional = s.optional

        # None: each option is labelled by its value as displayed (the engine needs no VM)
        choice = self._choice(labels, prompt, s.secret, s.span, key_slots)

        def unusual(vm, L, values):
            """No option (or too many): the step that follows, or the rule's error."""
            if len(values) > MAX_CHOICES:
                raise vm.rule_error(f"a decision with {len(values):,} options; the limit is {MAX_CHOICES:,}")
            if optional:
                L[slot] = None
                return nxt
            raise vm.rule_error("a choice has no options; mark it `optional` or test first")

        self._emit(self._choose_step(s, scope, slot, choice, nxt, unusual), s.span)

    def _labels(self, s: ast.Choose, scope, slot: int) -> tuple[Closure, tuple[int, ...] | None]:
        """The function writing a decision's labels, one per option (`label` computed with
        the option in its slot), as generated source: one call per decision, not one per
        option. A label that reads nothing but its option and the procedure's locals
        ("hammer on {c}", "parts {dice[k]}") is the same for the same options and the same
        values of those locals: the engine keeps it by them (`Choice.key_slots`, the
        locals' slots, returned beside the function) rather than writing it at every
        decision."""
        node = self.expressions.src(s.label, scope, {})
        name = f"_labels{next(self.expressions.name_numbers)}"
        out, size, text = ir.Local("out"), ir.Local("size"), ir.Local("text")
        length = ir.PyCall(ir.LEN, (text,))
        too_long = ir.PyBinOp(
            "or", ir.PyBinOp(">", length, ir.Lit(MAX_LABEL)), ir.PyBinOp(">", size, ir.Lit(MAX_LABELS))
        )
        each = (
            ir.PyAssign((ir.Slot(slot),), ir.Local("v")),
            ir.PyAssign((text,), ir.PyCall(ir.Global("str", ir.PYTHON), (node,))),
            ir.Update(size, "+", length),
            ir.When(too_long, (ir.Do(ir.PyCall(ir.Attr(ir.VMRef(), "labels_too_long"), (text, size))),), flat=True),
            ir.Do(ir.PyCall(ir.Attr(out, "append"), (text,))),
        )
        stmts = (
            ir.PyAssign((out,), ir.List(())),
            ir.PyAssign((size,), ir.Lit(0)),
            ir.Loop("v", ir.Local("values"), each),
            ir.PyReturn(out),
        )
        labels = self.expressions.later(name, ("vm", "L", "values"), stmts, passes.uses_vars(node), "<gamedef labels>")
        read = sorted(n for n in ast.names_in(s.label) if n in scope.slots and n != s.var)
        if self.expressions.static.is_static(s.label, scope, {s.var, *read}):
            return labels, tuple(scope.slots[n] for n in read)
        return labels, None

    def _choose_step(self, s: ast.Choose, scope, slot: int, choice: int, nxt: int, unusual) -> Closure:
        """The step asking a decision, as one generated function: its options and its
        player computed in place, and in a playout (`VM.suspend`) the answer taken at
        once, with no call: a random game's every decision runs through it."""
        options = self.native.stored(s.options, self.expressions.src(s.options, scope, {}))
        player = self.expressions.src(s.player, scope, {})
        name = f"_choose{next(self.expressions.name_numbers)}"
        self.tables.ns[f"{name}_unusual"] = unusual
        vm, values, who = ir.VMRef(), ir.Local("values"), ir.Local("who")
        count = ir.PyCall(ir.LEN, (values,))
        # Options written in the rule (`choose act from [check, bet]`) are a tuple made at
        # load: no copy at every decision, and no test for a count it can never have.
        fixed = self._fixed_options(options)
        if fixed is not None:
            options = fixed
        elif not (type(options) is ir.PyCall and options.func == ir.TUPLE):
            options = ir.PyCall(ir.TUPLE, (options,))
        unusual = ir.PyBinOp("or", ir.PyNot(values, bare=True), ir.PyBinOp(">", count, ir.Lit(MAX_CHOICES)))
        odd = (ir.PyReturn(ir.PyCall(ir.Global(f"{name}_unusual"), (vm, ir.Frame(), values))),)
        left = ir.Attr(vm, "left")
        body = (
            ir.PyAssign((values,), options),
            *(() if fixed is not None else (ir.When(unusual, odd),)),
            ir.PyAssign((who,), player),
            ir.When(  # a playout's decision, answered where it is asked (VM.suspend)
                left,
                (
                    ir.Update(left, "-", ir.Lit(1)),
                    ir.PyAssign((ir.Slot(slot),), ir.Subscript(values, ir.PyCall(ir.Attr(vm, "pick"), (count,)))),
                    ir.PyAssign((ir.BUDGET,), ir.Attr(vm, "step_limit")),
                    ir.Delete(ir.Slice(ir.Attr(vm, "log"))),
                    ir.PyReturn(ir.Lit(nxt)),
                ),
            ),
            ir.Do(ir.PyCall(ir.Attr(vm, "suspend"), (who, values, ir.Lit(slot), ir.Lit(choice), ir.Frame()))),
            ir.PyReturn(ir.Lit(nxt)),
        )
        reads = passes.uses_vars(options) or passes.uses_vars(player)
        step = self.expressions.later(name, ("vm", "L"), body, reads, "<gamedef decision>")
        # a run of simple statements before it writes it out in its own step (`native_block`):
        # its lines as the intermediate form, written again there
        step.body = body
        return step

    def _fixed_options(self, options: ir.IRNode) -> ir.Const | None:
        """The constant holding a decision's options when they are a list made at load
        with at least one and at most MAX_CHOICES items (`tuple(_k5)` or `_k5`), else None."""
        node = ir.unwrapped(options)
        if type(node) is ir.PyCall and node.func == ir.TUPLE and len(node.args) == 1:
            node = ir.unwrapped(node.args[0])
        if type(node) is not ir.Const:
            return None
        value = self.tables.ns.get(node.name)
        return node if value.__class__ is tuple and 0 < len(value) <= MAX_CHOICES else None

    def _choice(
        self, labels, prompt, secret: bool = False, span: Span | None = None, key_slots: tuple[int, ...] | None = None
    ) -> int:
        """Register how a decision's labels and prompt are written; built only when asked.
        A secret decision's answer is shown to the other players as "(secret choice)".
        The code it belongs to is kept, to check a saved state's pending decision."""
        self.tables.choices.append(Choice(labels, prompt, secret, self._code.index, key_slots))
        self.tables.choice_spans.append(span)
        return len(self.tables.choices) - 1

    def _s_May(self, s: ast.May, scope):
        player = self.expressions.expr(s.player, scope)
        text = self.expressions.expr(s.text, scope)
        asked = self.expressions.expr(s.prompt, scope) if s.prompt is not None else None
        slot = scope.fresh()
        nxt = self._here() + 1

        def prompt(vm, L):
            return asked(vm, L) if asked is not None else f"you may {text(vm, L)}"

        choice = self._choice(lambda vm, L, values: [str(text(vm, L)), "pass"], prompt, False, s.span)

        def ask(vm, L):
            vm.suspend(player(vm, L), (True, False), slot, choice, L)
            return nxt

        self._emit(ask, s.span)
        # A hidden name per `may` (its slot is unique in the frame), so a `may` nested in
        # another's body neither shadows nor removes the outer one's answer.
        hidden = f"\0may{slot}"
        decision = ast.Name(span=s.span, id=hidden)
        scope.slots[hidden] = slot
        try:
            self._s_If(ast.If(span=s.span, branches=((decision, s.body),), otherwise=s.otherwise), scope)
        finally:
            scope.slots.pop(hidden, None)

    def _s_SkipIfCancelled(self, s, scope):
        slot, nxt = self.tables.cancel_slot, self._here() + 1
        self._emit(lambda vm, L: vm.return_() if vm.vars[slot][-1:] == (True,) else nxt, s.span)

    def _s_Grant(self, s: ast.Grant, scope):
        self._emit(self.modifiers.grant_op(s, scope, self._here() + 1), s.span)

    def _s_Consume(self, s: ast.Consume, scope):
        self._emit(self.modifiers.consume_op(s, scope, self._here() + 1), s.span)

    def _s_Emit(self, s: ast.Emit, scope):
        args = [self.native.stored_expr(a, scope) for a in s.args]
        handlers = self.tables.handlers.setdefault(s.event, [])
        nxt = self._here() + 1
        expiring, event, expire = self.tables.expiring, s.event, expirer(self.tables.grants_slot)

        def op(vm, L):
            if event in expiring:  # modifiers that lasted until this event end before it is handled
                expire(vm, event)
            if not handlers:  # nothing listens (in this variant): the arguments need no computing
                return nxt
            values = [a(vm, L) for a in args]
            ready = []
            for h in handlers:
                locals_ = ([h.self_value] if h.has_self else []) + values
                locals_.extend([None] * (h.code.nlocals - len(locals_)))
                if h.where is None or h.where(vm, locals_):
                    ready.append((h.code, locals_))
            for code, locals_ in reversed(ready):
                vm.push([code, 0, locals_])
            return nxt

        self._emit(op, s.span)

    def _s_Cancel(self, s: ast.Cancel, scope):
        slot, nxt = self.tables.cancel_slot, self._here() + 1

        def op(vm, L):
            stack = vm.vars[slot] if slot is not None else ()
            if not stack:
                raise vm.rule_error("`cancel` while no effect is about to resolve (`perform ... cancellable by`)")
            vm.vars[slot] = stack[:-1] + (True,)
            return nxt

        self._emit(op, s.span)

    def _s_Perform(self, s: ast.Perform, scope):
        if s.cancel_event is not None:  # announce it; the event's triggers may cancel it
            slot, after = self.tables.cancel_slot, self._here() + 1

            def announce(vm, L, nxt=after):
                vm.vars[slot] = vm.vars[slot] + (False,)
                return nxt

            self._emit(announce, s.span)
            self._s_Emit(ast.Emit(span=s.span, event=s.cancel_event, args=s.cancel_args), scope)
        entity = self.expressions.expr(s.entity, scope)
        args = [self.native.stored_expr(a, scope) for a in s.args]
        slots = self.tables.slots
        name = s.slot
        nxt = self._here() + 1

        cancel_slot = self.tables.cancel_slot if s.cancel_event is not None else None

        def op(vm, L):
            if cancel_slot is not None:  # the announcement is over: resolve unless cancelled
                stack = vm.vars[cancel_slot]
                vm.vars[cancel_slot] = stack[:-1]
                if stack[-1]:
                    return nxt
            who = entity(vm, L)
            code = slots.get((who, name))
            if code is not None:
                tracer = vm.tracer  # a tool's (core/trace.py), None in play
                if tracer is not None:
                    tracer.perform(vm, who, name)
                locals_ = [who] + [a(vm, L) for a in args]
                locals_.extend([None] * (code.nlocals - len(locals_)))
                vm.push([code, 0, locals_])
            return nxt

        self._emit(op, s.span)

    def _s_Win(self, s: ast.Win, scope):
        winners = self.expressions.expr(s.winners, scope)

        def op(vm, L):
            w = winners(vm, L)
            vm.finish((w,) if isinstance(w, str) else tuple(w))
            return 0

        self._emit(op, s.span)

    _s_GameOver = _s_Win

    def _s_LinkStmt(self, s: ast.LinkStmt, scope) -> None:
        a, b = self.expressions.expr(s.a, scope), self.expressions.expr(s.b, scope)
        if s.kind is not None and not self.tables.claimed.get(s.kind, "").startswith("a member of"):
            self.tables.fail(
                s.span, f"'{s.kind}' is not an enum member: a link's kind is one", "enum LinkKind { land, sea }"
            )
        assert self.tables.links_slot is not None  # a game with a `link` statement has the variable
        self._emit(link_op(self.tables.links_slot, a, b, s.kind, self._here() + 1), s.span)

    def _s_CallStmt(self, s: ast.CallStmt, scope):
        self._call(ast.Call(span=s.span, func=s.name, args=s.args), scope, None)

    def _result_call(self, e: ast.Expr) -> ast.Call:
        """The procedure call whose result a `let`, assignment or `return` stores: a
        statement comes here only when it is one (`native_ok` keeps the others)."""
        call = self.tables.proc_call(e)
        assert call is not None
        return call

    def _call(self, s: ast.Call, scope: Scope, dest: int | None) -> None:
        """Call procedure `s.func`; a value it returns goes to slot `dest` of this frame.
        That it names a procedure is the checker's answer (names.py)."""
        if self.tables.names.call(s) != "procedure":
            from interpreter.core.errors import did_you_mean

            self.tables.fail(s.span, f"unknown procedure '{s.func}'", did_you_mean(s.func, self.tables.procs))
        code = self.tables.procs[s.func]
        args = [self.native.stored_expr(a, scope) for a in s.args]
        decl = self.tables.proc_decls[s.func]
        if (
            self.tables.optimise
            and s.func not in self._inline_stack
            and len(self._inline_stack) <= 4
            and _size(decl.body) <= 400
        ):
            self._inline_call(s, decl, scope, dest)
            return
        nxt = self._here() + 1
        result = code.result_slot

        def op(vm, L):
            locals_ = [a(vm, L) for a in args]
            locals_.extend([None] * (code.nlocals - len(locals_)))
            if result is not None:
                locals_[result] = dest
            vm.push([code, 0, locals_])
            return nxt

        self._emit(op, s.span)

    def _inline_call(self, s: ast.Call, decl: ast.Procedure, scope: Scope, dest: int | None) -> None:
        """Compile a call by copying the procedure's steps in place: no frame is pushed.
        Its locals get slots of their own in this frame; `return` stores its value in
        slot `dest` and jumps past its end."""
        root = scope.root if scope.root is not None else scope
        inner = Scope(root=root)
        inner.owner = decl.name
        sources = tuple(self.native.stored(a, self.expressions.src(a, scope, {})) for a in s.args)
        slots = tuple(inner.bind(p.name) for p in decl.params)
        body = ((BindParams(span=s.span, slots=slots, sources=sources),) if slots else ()) + tuple(decl.body)
        if decl.result is not None:  # its end is unreachable (the checker proves it): say so if reached
            body += (ast.Return(span=decl.span),)
        self._inline_stack.append(decl.name)
        self._returns.append(([], dest, decl.result is not None))
        loops, self._loops = self._loops, []
        outer_params, self._inline_params = self._inline_params, slots + self._inline_params
        try:
            self._block(body, inner)
        finally:
            self._loops = loops
            self._inline_params = outer_params
            self._inline_stack.pop()
            ends, _, _ = self._returns.pop()
        end = self._here()
        for target in ends:
            target[0] = end
