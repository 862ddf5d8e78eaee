"""Compile a checked program once, at load, into tables and Python closures.

Expressions become closures `f(vm, L)` over the working state `vm` and the frame's
local slots `L`; names are resolved here, to slot numbers and constants, so the
playout loop never walks the syntax tree or looks a name up (DESIGN principle 8).
Procedure bodies become flat lists of small steps ("ops") with integer jumps, so a
half-run procedure is just (code index, step index, local slots): plain data.
"""

from __future__ import annotations

from typing import Any

import attrs

from . import syntax as ast
from .blocks import BindParams, BlockCompiler
from .builtins import DELTA, DIRECTIONS
from .errors import Diagnostic, GameDefError, Span
from .expressions import Closure, ExpressionCompiler, Scope
from .program import Program


class Code:
    """One compiled procedure, trigger body or card slot."""

    __slots__ = ("index", "name", "ops", "spans", "names", "nlocals", "nparams", "span")

    def __init__(self, index: int, name: str, span: Span):
        self.index, self.name, self.span = index, name, span
        self.ops: list = []
        self.spans: list[Span] = []
        self.names: list[str] = []  # the procedure each step comes from (inlined calls)
        self.nlocals = 0
        self.nparams = 0


@attrs.define
class VarInfo:
    name: str
    slot: int
    keys: tuple | None  # key domain of a map variable (its outer key)
    key_index: dict | None
    default: Closure
    seen_by: str
    decl: ast.Var
    levels: tuple = ()  # (keys, index) of every key, outer first: `A -> B -> V` has two


@attrs.define
class Handler:
    code: Code
    where: Closure | None
    has_self: bool
    self_value: str | None


class Runtime:
    """Tables shared by compiled closures and built-ins: geometry, links, names."""

    def __init__(self):
        self.titles: dict[str, str] = {}
        self.coords: dict[str, tuple[int, int]] = {}
        self.cell_at: dict[tuple[str, int, int], str] = {}
        self.step: dict[tuple[str, str], str] = {}
        self.links: dict[str, tuple[str, ...]] = {}

    def adjacent(self, node):
        return self.links.get(node, ())

    def display(self, value) -> str:
        if value is None:
            return "none"
        if value is True:
            return "yes"
        if value is False:
            return "no"
        if isinstance(value, tuple):
            return ", ".join(self.display(v) for v in value) if value else "nothing"
        if isinstance(value, str):
            return self.titles.get(value, value)
        return str(value)

    def members(self, values):
        return values


class _AtLoad:
    """What `generate` may read while the game loads: every seat, no variables."""

    def __init__(self, seats: tuple[str, ...]):
        self.players = seats
        self.vars: list = []


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


def _cell_name(x: int, y: int) -> str:
    letters = ""
    n = x
    while n > 0:
        n, r = divmod(n - 1, 26)
        letters = chr(97 + r) + letters
    return f"{letters}{y}"


class CompiledGame(ExpressionCompiler, BlockCompiler):
    """Everything the engine needs, built once from a program and its options."""

    def __init__(self, program: Program, options: dict[str, Any] | None = None):
        self.program = program
        self.header = program.header
        self.rt = Runtime()
        self.errors: list[Diagnostic] = []
        self.codes: list[Code] = []
        self.procs: dict[str, Code] = {}
        self.defs: dict[str, list] = {}
        self.def_decls: dict[str, ast.Def] = {}
        self.vars: dict[str, VarInfo] = {}
        self.var_order: list[VarInfo] = []
        self.options: dict[str, Any] = {}
        self.option_decls: dict[str, ast.Option] = {}
        self.constants: dict[str, Any] = {}
        self.types: dict[str, tuple] = {}  # finite type name -> its values
        self.fields: dict[str, dict[str, Any]] = {}  # field -> {entity: value}
        self.kind_of: dict[str, str] = {}
        self.entity_decls: dict[str, ast.Entity] = {}
        self.visibility: dict[str, list[tuple[str, Closure | None]]] = {}
        self.short: dict[str, ast.Str] = {}
        self.handlers: dict[str, list[Handler]] = {}
        self.event_decls: dict[str, ast.Event] = {}
        self.slots: dict[tuple[str, str], Code] = {}
        self.choices: list[tuple] = []  # (labels fn, prompt fn) of each decision point
        self.formats: list[tuple] = []  # parts of each `log` text, rendered on demand
        self.short_fns: dict[str, list] = {}
        self.blocks: list[tuple] = []  # (spans, run lines, names) of each native block, for errors
        self._init_expressions()
        seats = self.header.seats or tuple(f"p{i}" for i in range(1, self.header.max_players + 1))
        roles = tuple(r for _, names in self.header.roles for r in names if r not in seats)
        self.seats = tuple(seats) + tuple(dict.fromkeys(roles))  # role names are seats too
        self._build(options or {})
        if self.errors:
            raise GameDefError(self.errors)

    # ---- errors -------------------------------------------------------------
    def fail(self, span: Span, message: str, hint: str | None = None):
        raise GameDefError([Diagnostic(span, message, hint)])

    # ---- tables -------------------------------------------------------------
    def _build(self, given: dict[str, Any]) -> None:
        decls = self.program.decls
        self.types["player"] = self.seats
        for seat in self.seats:
            self.constants[seat] = seat
        self.types["Direction"] = DIRECTIONS
        for d in DIRECTIONS:
            self.constants[d] = d
        for d in decls:
            if isinstance(d, ast.Option):
                self.option_decls[d.name] = d
        for d in decls:
            if isinstance(d, ast.Enum):
                self.types[d.name] = tuple(m.name for m in d.members)
                for m in d.members:
                    self.constants[m.name] = m.name
                    self.rt.titles[m.name] = m.title
        unknown = set(given) - set(self.option_decls)
        for name in sorted(unknown):
            from .errors import did_you_mean

            self.fail(
                self.header.span,
                f"unknown option '{name}'",
                did_you_mean(name, self.option_decls)
                or (
                    "options: " + ", ".join(self.option_decls)
                    if self.option_decls
                    else "this game (with these variants) has no options"
                ),
            )
        for name, d in self.option_decls.items():
            if name in given:
                self._check_option_type(d, given[name])
            value = given[name] if name in given else self._const(d.default)
            if d.choices is not None:
                allowed = self._const(d.choices)
                if value not in allowed:
                    self.fail(
                        d.span,
                        f"option '{name}' = {value!r} is not allowed",
                        f"choose from {self.rt.display(tuple(allowed))}",
                    )
            self.options[name] = value
        for d in decls:
            if isinstance(d, ast.Grid):
                self._grid(d)
            elif isinstance(d, ast.Entity):
                self.entity_decls[d.name] = d
                self.types[d.name] = ()
                if d.short is not None:
                    self.short[d.name] = d.short
        for d in decls:
            if isinstance(d, ast.Def):
                self.def_decls[d.name] = d
                self.defs[d.name] = [None]
        for d in decls:
            if isinstance(d, ast.Card):
                self._card_props(d)
        for d in decls:
            if isinstance(d, ast.Generate):
                self._generate(d)
        for d in decls:
            if isinstance(d, ast.Link):
                for other in d.others:
                    for a, b in ((d.node, other), (other, d.node)):
                        if b not in self.rt.links.get(a, ()):
                            self.rt.links[a] = self.rt.links.get(a, ()) + (b,)
            elif isinstance(d, ast.Event):
                self.event_decls[d.name] = d
        for d in decls:
            if isinstance(d, ast.Var):
                self._var(d)
        for name, ent in self.entity_decls.items():
            rules = []
            self._self_fields = {f.name for f in ent.fields}
            for f in ent.fields:
                if f.hidden:
                    rules.append((f.name, lambda vm, L: False))
                elif f.visible is not None:
                    rules.append((f.name, self.expr(f.visible, Scope(["self"]))))
            self.visibility[name] = rules
            if ent.short is not None:
                self._short_mode = True
                self.short_fns[name] = [
                    p if isinstance(p, str) else self.expr(p, Scope(["self"])) for p in ent.short.parts
                ]
                self._short_mode = False
            self._self_fields = set()
        self.proc_decls: dict[str, ast.Procedure] = {}
        for d in decls:
            if isinstance(d, ast.Procedure):
                self.procs[d.name] = self._new_code(d.name, d.span)
                self.proc_decls[d.name] = d
        for d in decls:
            if isinstance(d, ast.Def):
                self._compile_def(d)
        for d in decls:
            if isinstance(d, ast.Procedure):
                self._body(self.procs[d.name], [p.name for p in d.params], d.body)
            elif isinstance(d, ast.Trigger):
                self._trigger(d, None)
            elif isinstance(d, ast.Card):
                for t in d.triggers:
                    self._trigger(t, d.name)
                for slot_name, body, span, params in d.slots:
                    code = self._new_code(f"{d.name}.{slot_name}", span)
                    self._body(code, ["self"] + [p.name for p in params], body)
                    self.slots[(d.name, slot_name)] = code
        if "play" not in self.procs:
            self.fail(
                self.header.span,
                "the game has no `procedure play()`",
                "add `procedure play() { ... }`: the turn structure of the game",
            )

    def _check_option_type(self, d: ast.Option, value) -> None:
        t = d.type.name if isinstance(d.type, ast.NamedType) else None
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "str": isinstance(value, str),
        }.get(t, value in self.types.get(t, ()) if t else True)
        if not ok:
            allowed = (
                {"int": "a whole number", "bool": "true or false", "str": "a text"}.get(
                    t, "one of " + ", ".join(map(str, self.types.get(t, ())))
                )
                if t
                else "a value"
            )
            self.fail(
                d.span,
                f"option '{d.name}' must be {allowed}, not {value!r}",
                f"for example --option {d.name}=...",
            )

    def _const(self, e: ast.Expr):
        return self.expr(e, Scope())(None, [])

    def _grid(self, d: ast.Grid) -> None:
        cols, rows = self._const(d.columns), self._const(d.rows)
        cells = []
        prefix = "" if not any(k[0] != d.name for k in self.rt.cell_at) else f"{d.name.lower()}_"
        for y in range(1, rows + 1):
            for x in range(1, cols + 1):
                name = prefix + _cell_name(x, y)  # a second grid's cells: track_a1, ...
                cells.append(name)
                self.rt.coords[name] = (x, y)
                self.rt.cell_at[(d.name, x, y)] = name
                self.constants[name] = name
        for name in cells:
            x, y = self.rt.coords[name]
            near = []
            for direction in DIRECTIONS:
                dx, dy = DELTA[direction]
                other = self.rt.cell_at.get((d.name, x + dx, y + dy))
                if other is not None:
                    self.rt.step[(name, direction)] = other
                    near.append(other)
            self.rt.links[name] = tuple(near)
        self.types[d.name] = tuple(cells)
        self.constants[d.name] = d.name

    def _add_entity(self, kind: str, name: str, title: str, values: dict, span: Span) -> None:
        if name in self.kind_of:
            self.fail(span, f"two components are named '{name}'", "names must be unique")
        self.kind_of[name] = kind
        self.constants[name] = name
        self.rt.titles[name] = title
        self.types[kind] = self.types.get(kind, ()) + (name,)
        for f, v in values.items():
            self.fields.setdefault(f, {})[name] = v

    def _generate(self, d: ast.Generate) -> None:
        if d.kind not in self.entity_decls:
            self.fail(d.span, f"unknown entity '{d.kind}'")
        scope = Scope([n for n, _ in d.iterators])
        at_load = _AtLoad(self.seats)  # components exist before a game starts: every seat
        domains = [self.expr(e, Scope())(at_load, []) for _, e in d.iterators]
        name_fn = self.expr(d.name_template, scope)
        value_fns = {fv.name: self.expr(fv.value, scope) for fv in d.values}

        def product(i, acc):
            if i == len(domains):
                yield list(acc)
                return
            for v in domains[i]:
                yield from product(i + 1, acc + [v])

        for combo in product(0, []):
            name = name_fn(at_load, combo)
            values = {f: fn(at_load, combo) for f, fn in value_fns.items()}
            self._add_entity(d.kind, name, name, values, d.span)

    def _card_props(self, d: ast.Card) -> None:
        values = {fv.name: self._const(fv.value) for fv in d.props}
        values["title"] = d.title
        values["text"] = d.text
        self.entity_decls.setdefault(d.kind, ast.Entity(span=d.span, name=d.kind, fields=(), short=None))
        self._add_entity(d.kind, d.name, d.title, values, d.span)

    def _domain(self, t: ast.TypeExpr) -> tuple:
        if isinstance(t, ast.NamedType) and t.name in self.types:
            return self.types[t.name]
        self.fail(t.span, "a map's key must be a finite type (player, an enum, an entity or a grid)")

    def _var(self, d: ast.Var) -> None:
        default = self.expr(d.default, Scope())
        levels = []
        t = d.type
        while isinstance(t, ast.MapType):
            keys = self._domain(t.key)
            levels.append((keys, {k: i for i, k in enumerate(keys)}))
            t = t.value
        for keys, _ in reversed(levels):  # every entry starts at the default value
            default = (lambda inner, n: lambda vm, L: (inner(vm, L),) * n)(default, len(keys))
        keys, key_index = levels[0] if levels else (None, None)
        info = VarInfo(d.name, len(self.var_order), keys, key_index, default, d.seen_by, d, tuple(levels))
        self.vars[d.name] = info
        self.var_order.append(info)

    def _new_code(self, name: str, span: Span) -> Code:
        code = Code(len(self.codes), name, span)
        self.codes.append(code)
        return code

    def _trigger(self, t: ast.Trigger, card: str | None) -> None:
        names = (["self"] if card else []) + list(t.names)
        code = self._new_code(f"when {t.event}" + (f" ({card})" if card else ""), t.span)
        scope = self._body(code, names, t.body, where=t.where)
        where = self._where
        self.handlers.setdefault(t.event, []).append(Handler(code, where, card is not None, card))
        del scope

    # ---- statements -----------------------------------------------------------
    def _body(self, code: Code, params: list[str], body, where=None) -> Scope:
        scope = Scope(params)
        code.nparams = len(params)
        self._where = self.expr(where, scope) if where is not None else None
        self._loops: list[list[int]] = []
        self._code = code
        self._returns: list[list] = []  # jump targets of `return` in inlined procedures
        self._inline_stack: list[str] = [code.name]
        self._block(tuple(body) + (ast.Return(span=code.span),), scope)
        code.nlocals = scope.count
        return scope

    def _emit(self, op, span: Span) -> int:
        code = self._code
        code.ops.append(op)
        code.spans.append(span)
        code.names.append(self._inline_stack[-1])
        return len(code.ops) - 1

    def _here(self) -> int:
        return len(self._code.ops)

    # Statements whose first step a run of simple statements can end with: a decision, a
    # call, an ending, or the test of an `if` / the start of a `for` (not a `while`'s test,
    # which its loop jumps back to).
    MERGEABLE = (ast.Choose, ast.CallStmt, ast.Emit, ast.Perform, ast.Win, ast.GameOver, ast.Return, ast.If, ast.For)

    def _block(self, stmts, scope: Scope) -> None:
        run: list = []
        for s in stmts:
            if self.native_ok(s, False):
                run.append(s)
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
        lines, spans = self.native_lines(run, scope)
        if last is None:
            op = self.native_block(lines, spans, self._here() + 1)
            if op is not None:
                first = next((x for x in run if not isinstance(x, ast.Cite | ast.Note)), run[0])
                self._emit(op, first.span)
            return
        code = self._code
        start = self._here()
        self._stmt(last, scope)  # its steps start at `start`: wrap the first one
        op = self.native_block(lines, spans, start + 1, code.ops[start], code.spans[start], code.names[start])
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
            cond = self.src(cond_expr, scope, {})
            at = self._emit(None, cond_expr.span)
            self._block(body, scope)
            if i < len(s.branches) - 1 or s.otherwise is not None:
                end_jumps.append(self._emit(None, s.span))
            after = self._here()
            self._code.ops[at] = self._function(f"({at + 1} if {cond} else {after})")
        if s.otherwise is not None:
            self._block(s.otherwise, scope)
        end = self._here()
        for j in end_jumps:
            self._code.ops[j] = (lambda e: lambda vm, L: e)(end)

    def _s_While(self, s: ast.While, scope):
        cond = self.src(s.condition, scope, {})
        head = self._emit(None, s.span)
        self._loops.append([])
        self._block(s.body, scope)
        self._emit(self._back_edge(head), s.span)
        end = self._here()
        self._code.ops[head] = self._function(f"({head + 1} if {cond} else {end})")
        for j in self._loops.pop():
            self._code.ops[j] = (lambda e: lambda vm, L: e)(end)

    def _s_For(self, s: ast.For, scope):
        items = self.expr(s.iterable, scope)
        seq, pos = scope.fresh(), scope.fresh()
        var = scope.bind(s.var)
        start = self._here()

        def init(vm, L, nxt=start + 1):
            L[seq] = tuple(items(vm, L))
            L[pos] = 0
            return nxt

        self._emit(init, s.span)
        head = self._emit(None, s.span)
        self._loops.append([])
        self._block(s.body, scope)
        self._emit((lambda h: lambda vm, L: h)(head), s.span)  # finite: no step budget
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
            self._code.ops[j] = (lambda e: lambda vm, L: e)(end)

    @staticmethod
    def _back_edge(head: int):
        """The jump back to a loop's head: the one place a rule can loop forever, so it
        spends the run's step budget."""

        def op(vm, L):
            vm.budget -= 1
            if vm.budget < 0:
                vm.out_of_steps()
            return head

        return op

    def _s_Break(self, s, scope):
        if not self._loops:
            self.fail(s.span, "`break` outside a loop")
        self._loops[-1].append(self._emit(None, s.span))

    def _s_Return(self, s, scope):
        if self._returns:  # inside an inlined procedure: jump to its end
            target = [None]
            self._returns[-1].append(target)
            self._emit(lambda vm, L: target[0], s.span)
            return
        self._emit(lambda vm, L: vm.return_(), s.span)

    def _s_Choose(self, s: ast.Choose, scope):
        options = self.expr(s.options, scope)
        player = self.expr(s.player, scope)
        slot = scope.bind(s.var)
        display = self.rt.display
        label = self.expr(s.label, scope) if s.label is not None else None
        prompt = self.expr(s.prompt, scope) if s.prompt is not None else (lambda vm, L: "")
        nxt = self._here() + 1
        optional = s.optional

        def labels(vm, L, values):
            if label is None:
                return [display(v) for v in values]
            out = []
            for v in values:
                L[slot] = v
                out.append(label(vm, L))
            return out

        choice = self._choice(labels, prompt, s.secret)

        def op(vm, L):
            values = tuple(options(vm, L))
            if not values:
                if optional:
                    L[slot] = None
                    return nxt
                raise vm.rule_error("a choice has no options; mark it `optional` or test first")
            vm.suspend(player(vm, L), values, slot, choice)
            return nxt

        self._emit(op, s.span)

    def _choice(self, labels, prompt, secret: bool = False) -> int:
        """Register how a decision's labels and prompt are written; built only when asked.
        A secret decision's answer is shown to the other players as "(secret choice)"."""
        self.choices.append((labels, prompt, secret))
        return len(self.choices) - 1

    def _s_May(self, s: ast.May, scope):
        player = self.expr(s.player, scope)
        text = self.expr(s.text, scope)
        slot = scope.fresh()
        nxt = self._here() + 1
        choice = self._choice(lambda vm, L, values: [text(vm, L), "pass"], lambda vm, L: "", False)

        def ask(vm, L):
            vm.suspend(player(vm, L), (True, False), slot, choice)
            return nxt

        self._emit(ask, s.span)
        decision = ast.Name(span=s.span, id="\0may")
        scope.slots["\0may"] = slot
        self._s_If(ast.If(span=s.span, branches=((decision, s.body),), otherwise=s.otherwise), scope)
        del scope.slots["\0may"]

    def _s_Emit(self, s: ast.Emit, scope):
        args = [self.expr(a, scope) for a in s.args]
        handlers = self.handlers.setdefault(s.event, [])
        nxt = self._here() + 1

        def op(vm, L):
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

    def _s_Perform(self, s: ast.Perform, scope):
        entity = self.expr(s.entity, scope)
        args = [self.expr(a, scope) for a in s.args]
        slots = self.slots
        name = s.slot
        nxt = self._here() + 1

        def op(vm, L):
            who = entity(vm, L)
            code = slots.get((who, name))
            if code is not None:
                locals_ = [who] + [a(vm, L) for a in args]
                locals_.extend([None] * (code.nlocals - len(locals_)))
                vm.push([code, 0, locals_])
            return nxt

        self._emit(op, s.span)

    def render_log(self, entry, hidden=None) -> str:
        """A log entry as text: the format's literal parts with its values displayed.
        `hidden(value)` names the components the reader may not see; they are written
        as "a hidden KIND", so a log line cannot give a face-down piece away."""
        _, fmt, values = entry
        it = iter(values)
        display = self.rt.display

        def show(v):
            if hidden is not None:
                if isinstance(v, tuple):
                    return ", ".join(show(x) for x in v) if v else "nothing"
                if isinstance(v, str) and v in self.kind_of and hidden(v):
                    return f"a hidden {self.kind_of[v]}"
            return display(v)

        return "".join(p if p is not None else show(next(it)) for p in self.formats[fmt])

    def _s_Win(self, s: ast.Win, scope):
        winners = self.expr(s.winners, scope)

        def op(vm, L):
            w = winners(vm, L)
            vm.finish((w,) if isinstance(w, str) else tuple(w))
            return 0

        self._emit(op, s.span)

    _s_GameOver = _s_Win

    def _s_CallStmt(self, s: ast.CallStmt, scope):
        if s.name not in self.procs:
            from .errors import did_you_mean

            self.fail(s.span, f"unknown procedure '{s.name}'", did_you_mean(s.name, self.procs))
        code = self.procs[s.name]
        args = [self.expr(a, scope) for a in s.args]
        decl = self.proc_decls[s.name]
        if s.name not in self._inline_stack and len(self._inline_stack) <= 4 and _size(decl.body) <= 400:
            self._inline_call(s, decl, scope)
            return
        nxt = self._here() + 1

        def op(vm, L):
            locals_ = [a(vm, L) for a in args]
            locals_.extend([None] * (code.nlocals - len(locals_)))
            vm.push([code, 0, locals_])
            return nxt

        self._emit(op, s.span)

    def _inline_call(self, s: ast.CallStmt, decl: ast.Procedure, scope: Scope) -> None:
        """Compile a call by copying the procedure's steps in place: no frame is pushed.
        Its locals get slots of their own in this frame; `return` jumps past its end."""
        root = scope.root if scope.root is not None else scope
        inner = Scope(root=root)
        sources = tuple(self.src(a, scope, {}) for a in s.args)
        slots = tuple(inner.bind(p.name) for p in decl.params)
        body = ((BindParams(span=s.span, slots=slots, sources=sources),) if slots else ()) + tuple(decl.body)
        self._inline_stack.append(decl.name)
        self._returns.append([])
        loops, self._loops = self._loops, []
        try:
            self._block(body, inner)
        finally:
            self._loops = loops
            self._inline_stack.pop()
            ends = self._returns.pop()
        end = self._here()
        for target in ends:
            target[0] = end
