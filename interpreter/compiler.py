"""Compile a checked program once, at load, into tables and Python closures.

Expressions become closures `f(vm, L)` over the working state `vm` and the frame's
local slots `L`; names are resolved here, to slot numbers and constants, so the
playout loop never walks the syntax tree or looks a name up (DESIGN principle 8).
Procedure bodies become flat lists of small steps ("ops") with integer jumps, so a
half-run procedure is just (code index, step index, local slots): plain data.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from . import syntax as ast
from .builtins import BUILTINS, DELTA, DIRECTIONS
from .errors import Diagnostic, GameDefError, Span
from .program import Program

Closure = Callable[[Any, list], Any]


class Code:
    """One compiled procedure, trigger body or card slot."""

    __slots__ = ("index", "name", "ops", "spans", "nlocals", "nparams", "span")

    def __init__(self, index: int, name: str, span: Span):
        self.index, self.name, self.span = index, name, span
        self.ops: list = []
        self.spans: list[Span] = []
        self.nlocals = 0
        self.nparams = 0


class Scope:
    """Local names of one code body, each given a slot in the frame.

    An inlined function body gets a child scope: it sees only its own names and its
    parameters (bound to the caller's argument closures in `env`), but its slots are
    allocated in the caller's frame.
    """

    def __init__(self, names=(), root: Scope | None = None, env: dict | None = None,
                 static_names: set | None = None):
        self.slots: dict[str, int] = {}
        self.root = root
        self.env = env or {}
        self.static_env = static_names or set()
        self._count = 0
        for n in names:
            self.bind(n)

    @property
    def count(self) -> int:
        return self.root.count if self.root is not None else self._count

    def bind(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = self.fresh()
        return self.slots[name]

    def fresh(self) -> int:
        if self.root is not None:
            return self.root.fresh()
        self._count += 1
        return self._count - 1


@attrs.define
class VarInfo:
    name: str
    slot: int
    keys: tuple | None  # key domain for map variables
    key_index: dict | None
    default: Closure
    seen_by: str
    decl: ast.Var


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


def _cell_name(x: int, y: int) -> str:
    letters = ""
    n = x
    while n > 0:
        n, r = divmod(n - 1, 26)
        letters = chr(97 + r) + letters
    return f"{letters}{y}"


class CompiledGame:
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
        self._self_fields: set[str] = set()
        self._inlining: list[str] = []
        self._static_stack: list[str] = []
        self._tables: dict[str, dict | None] = {}
        self._short_mode = False
        self.short_fns: dict[str, list] = {}
        self.seats = self.header.seats or tuple(f"p{i}" for i in range(1, self.header.max_players + 1))
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

            self.fail(self.header.span, f"unknown option '{name}'",
                      did_you_mean(name, self.option_decls) or
                      ("options: " + ", ".join(self.option_decls) if self.option_decls
                       else "this game (with these variants) has no options"))
        for name, d in self.option_decls.items():
            value = given[name] if name in given else self._const(d.default)
            if d.choices is not None:
                allowed = self._const(d.choices)
                if value not in allowed:
                    self.fail(d.span, f"option '{name}' = {value!r} is not allowed",
                              f"choose from {self.rt.display(tuple(allowed))}")
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
            if isinstance(d, ast.Generate):
                self._generate(d)
            elif isinstance(d, ast.Card):
                self._card_props(d)
        for d in decls:
            if isinstance(d, ast.Link):
                for other in d.others:
                    for a, b in ((d.node, other), (other, d.node)):
                        if b not in self.rt.links.get(a, ()):
                            self.rt.links[a] = self.rt.links.get(a, ()) + (b,)
            elif isinstance(d, ast.Event):
                self.event_decls[d.name] = d
            elif isinstance(d, ast.Def):
                self.def_decls[d.name] = d
                self.defs[d.name] = [None]
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
        for d in decls:
            if isinstance(d, ast.Procedure):
                self.procs[d.name] = self._new_code(d.name, d.span)
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
                for slot_name, body, span in d.slots:
                    code = self._new_code(f"{d.name}.{slot_name}", span)
                    self._body(code, ["self"], body)
                    self.slots[(d.name, slot_name)] = code
        if "play" not in self.procs:
            self.fail(self.header.span, "the game has no `procedure play()`",
                      "add `procedure play() { ... }`: the turn structure of the game")

    def _const(self, e: ast.Expr):
        return self.expr(e, Scope())(None, [])

    def _grid(self, d: ast.Grid) -> None:
        cols, rows = self._const(d.columns), self._const(d.rows)
        cells = []
        for y in range(1, rows + 1):
            for x in range(1, cols + 1):
                name = _cell_name(x, y)
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
        domains = [self.expr(e, Scope())(None, []) for _, e in d.iterators]
        name_fn = self.expr(d.name_template, scope)
        value_fns = {fv.name: self.expr(fv.value, scope) for fv in d.values}

        def product(i, acc):
            if i == len(domains):
                yield list(acc)
                return
            for v in domains[i]:
                yield from product(i + 1, acc + [v])

        for combo in product(0, []):
            name = name_fn(None, combo)
            values = {f: fn(None, combo) for f, fn in value_fns.items()}
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
        keys = key_index = None
        if isinstance(d.type, ast.MapType):
            keys = self._domain(d.type.key)
            key_index = {k: i for i, k in enumerate(keys)}
            scalar = default
            default = lambda vm, L, scalar=scalar, n=len(keys): (scalar(vm, L),) * n  # noqa: E731
        info = VarInfo(d.name, len(self.var_order), keys, key_index, default, d.seen_by, d)
        self.vars[d.name] = info
        self.var_order.append(info)

    def _new_code(self, name: str, span: Span) -> Code:
        code = Code(len(self.codes), name, span)
        self.codes.append(code)
        return code

    def _compile_def(self, d: ast.Def) -> None:
        scope = Scope([p.name for p in d.params])
        body = self.expr(d.body, scope)
        nlocals = scope
        holder = self.defs[d.name]

        def call(vm, args, body=body, scope=nlocals):
            L = list(args)
            L.extend([None] * (scope.count - len(L)))
            return body(vm, L)

        holder[0] = call

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
        self._block(body, scope)
        self._emit(lambda vm, L: vm.return_(), code.span)
        code.nlocals = scope.count
        return scope

    def _emit(self, op, span: Span) -> int:
        code = self._code
        code.ops.append(op)
        code.spans.append(span)
        return len(code.ops) - 1

    def _here(self) -> int:
        return len(self._code.ops)

    def _block(self, stmts, scope: Scope) -> None:
        for s in stmts:
            self._stmt(s, scope)

    def _stmt(self, s, scope: Scope) -> None:
        method = getattr(self, "_s_" + type(s).__name__)
        method(s, scope)

    def _s_Cite(self, s, scope):
        pass

    def _s_Note(self, s, scope):
        pass

    def _s_Let(self, s: ast.Let, scope):
        value = self.expr(s.value, scope)
        slot = scope.bind(s.name)
        nxt = self._here() + 1

        def op(vm, L):
            L[slot] = value(vm, L)
            return nxt

        self._emit(op, s.span)

    def _s_Assign(self, s: ast.Assign, scope):
        value = self.expr(s.value, scope)
        nxt = self._here() + 1
        if s.op == "+":
            value = (lambda get, v: lambda vm, L: get(vm, L) + v(vm, L))(self._read(s, scope), value)
        elif s.op == "-":
            value = (lambda get, v: lambda vm, L: get(vm, L) - v(vm, L))(self._read(s, scope), value)
        if s.name in scope.slots and s.key is None:
            slot = scope.slots[s.name]

            def op(vm, L):
                L[slot] = value(vm, L)
                return nxt
        elif s.name in self.vars:
            info = self.vars[s.name]
            slot = info.slot
            if s.key is None:
                def op(vm, L):
                    vm.vars[slot] = value(vm, L)
                    return nxt
            else:
                key = self.expr(s.key, scope)
                index = info.key_index
                if index is None:
                    def op(vm, L):
                        items = list(vm.vars[slot])
                        items[key(vm, L)] = value(vm, L)
                        vm.vars[slot] = tuple(items)
                        return nxt
                else:
                    def op(vm, L):
                        items = list(vm.vars[slot])
                        items[index[key(vm, L)]] = value(vm, L)
                        vm.vars[slot] = tuple(items)
                        return nxt
        else:
            self.fail(s.span, f"cannot assign to '{s.name}'", "declare it with `var` or `let`")
        self._emit(op, s.span)

    def _read(self, s: ast.Assign, scope) -> Closure:
        target: ast.Expr = ast.Name(span=s.span, id=s.name)
        if s.key is not None:
            target = ast.Index(span=s.span, obj=target, key=s.key)
        return self.expr(target, scope)

    def _s_If(self, s: ast.If, scope):
        end_jumps = []
        for cond_expr, body in s.branches:
            cond = self.expr(cond_expr, scope)
            at = self._emit(None, cond_expr.span)
            self._block(body, scope)
            end_jumps.append(self._emit(None, s.span))
            after = self._here()
            self._code.ops[at] = (lambda c, t, f: lambda vm, L: t if c(vm, L) else f)(cond, at + 1, after)
        if s.otherwise is not None:
            self._block(s.otherwise, scope)
        end = self._here()
        for j in end_jumps:
            self._code.ops[j] = (lambda e: lambda vm, L: e)(end)

    def _s_While(self, s: ast.While, scope):
        cond = self.expr(s.condition, scope)
        head = self._emit(None, s.span)
        self._loops.append([])
        self._block(s.body, scope)
        self._emit(self._back_edge(head), s.span)
        end = self._here()
        self._code.ops[head] = (lambda c, t, f: lambda vm, L: t if c(vm, L) else f)(cond, head + 1, end)
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
        self._emit(self._back_edge(head), s.span)
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

    def _s_Roll(self, s: ast.Roll, scope):
        source = self.expr(s.source, scope)
        slot = scope.bind(s.var)
        nxt = self._here() + 1

        def op(vm, L):
            L[slot] = vm.random_choice(tuple(source(vm, L)))
            return nxt

        self._emit(op, s.span)

    def _s_Shuffle(self, s: ast.Shuffle, scope):
        if s.name not in self.vars:
            self.fail(s.span, f"cannot shuffle '{s.name}'", "shuffle a `var` holding a list")
        slot = self.vars[s.name].slot
        nxt = self._here() + 1

        def op(vm, L):
            vm.vars[slot] = vm.shuffled(vm.vars[slot])
            return nxt

        self._emit(op, s.span)

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

    def _s_Log(self, s: ast.Log, scope):
        audience = self.expr(s.audience, scope) if s.audience is not None else None
        parts = tuple(p if isinstance(p, str) else None for p in s.text.parts)
        values = [self.expr(p, scope) for p in s.text.parts if not isinstance(p, str)]
        self.formats.append(parts)
        fmt = len(self.formats) - 1
        nxt = self._here() + 1

        def op(vm, L):
            vm.log.append((audience(vm, L) if audience else None, fmt, tuple([v(vm, L) for v in values])))
            return nxt

        self._emit(op, s.span)

    def render_log(self, entry) -> str:
        """A log entry as text: the format's literal parts with its values displayed."""
        _, fmt, values = entry
        it = iter(values)
        display = self.rt.display
        return "".join(p if p is not None else display(next(it)) for p in self.formats[fmt])

    def _s_Win(self, s: ast.Win, scope):
        winners = self.expr(s.winners, scope)

        def op(vm, L):
            w = winners(vm, L)
            vm.finish((w,) if isinstance(w, str) else tuple(w))
            return 0

        self._emit(op, s.span)

    _s_GameOver = _s_Win

    def _s_Require(self, s: ast.Require, scope):
        cond = self.expr(s.condition, scope)
        message = self.expr(s.message, scope)
        nxt = self._here() + 1

        def op(vm, L):
            if not cond(vm, L):
                raise vm.rule_error(message(vm, L))
            return nxt

        self._emit(op, s.span)

    def _s_CallStmt(self, s: ast.CallStmt, scope):
        if s.name not in self.procs:
            from .errors import did_you_mean

            self.fail(s.span, f"unknown procedure '{s.name}'", did_you_mean(s.name, self.procs))
        code = self.procs[s.name]
        args = [self.expr(a, scope) for a in s.args]
        nxt = self._here() + 1

        def op(vm, L):
            locals_ = [a(vm, L) for a in args]
            locals_.extend([None] * (code.nlocals - len(locals_)))
            vm.push([code, 0, locals_])
            return nxt

        self._emit(op, s.span)

    # ---- expressions -------------------------------------------------------------
    def expr(self, e: ast.Expr, scope: Scope) -> Closure:
        fn = getattr(self, "_e_" + type(e).__name__)(e, scope)
        if isinstance(e, (ast.Comprehension, ast.Call, ast.ListLit, ast.Range)) and self.is_static(e, scope, set()):
            # Constant folding: an expression that reads no state is computed once, here.
            try:
                value = fn(None, [None] * (scope.count + 64))
            except Exception:  # let it fail at run time, where the error names the rule
                return fn
            if not callable(value):
                return lambda vm, L: value
        return fn

    TABLE_LIMIT = 4096

    def _table(self, decl: ast.Def) -> dict | None:
        """Tabulate a function whose parameters all range over finite types and whose body
        reads no state: computed once for every argument, at load."""
        if decl.name in self._tables:
            return self._tables[decl.name]
        self._tables[decl.name] = None
        if not decl.params:
            return None
        domains = []
        size = 1
        for p in decl.params:
            if not isinstance(p.type, ast.NamedType) or p.type.name not in self.types or p.type.name == "player":
                return None
            domains.append(self.types[p.type.name])
            size *= len(domains[-1])
        if size > self.TABLE_LIMIT or not self.is_static(ast.Call(span=decl.span, func=decl.name, args=tuple(
                ast.Int(span=decl.span, value=0) for _ in decl.params)), Scope(), set()):
            return None
        self._compile_def(decl)
        call = self.defs[decl.name][0]
        table: dict = {}
        try:
            def fill(i, acc):
                if i == len(domains):
                    value = call(None, list(acc))
                    table[acc[0] if len(acc) == 1 else tuple(acc)] = value
                    return
                for v in domains[i]:
                    fill(i + 1, acc + [v])
            fill(0, [])
        except Exception:
            return None
        self._tables[decl.name] = table
        return table

    def is_static(self, e, scope: Scope, bound: set) -> bool:
        """True if `e` reads no variable, local, player list or random state."""
        t = type(e)
        if t in (ast.Int, ast.Bool, ast.NoneLit):
            return True
        if t is ast.Str:
            return all(isinstance(p, str) or self.is_static(p, scope, bound) for p in e.parts)
        if t is ast.Name:
            n = e.id
            if n in bound:
                return True
            if n in scope.slots:
                return False
            if n in scope.env:
                return n in scope.static_env
            if n in self.vars or n == "players":
                return False
            if n in self.defs:
                return self.is_static(ast.Call(span=e.span, func=n, args=()), scope, bound)
            return n in self.options or n in self.constants
        if t is ast.Call:
            if not all(self.is_static(a, scope, bound) for a in e.args):
                return False
            if e.func == "members":
                return bool(e.args) and getattr(e.args[0], "id", None) != "player"
            if e.func in self.def_decls:
                if e.func in self._static_stack:
                    return False
                decl = self.def_decls[e.func]
                self._static_stack.append(e.func)
                try:
                    return self.is_static(decl.body, Scope(env={p.name: None for p in decl.params},
                                                           static_names={p.name for p in decl.params}), set())
                finally:
                    self._static_stack.pop()
            return e.func in BUILTINS or e.func == "initial"
        if t is ast.ListLit:
            return all(self.is_static(i, scope, bound) for i in e.items)
        if t is ast.Range:
            return self.is_static(e.low, scope, bound) and self.is_static(e.high, scope, bound)
        if t is ast.Comprehension:
            inner = bound | {e.var}
            return (self.is_static(e.iterable, scope, bound) and self.is_static(e.element, scope, inner)
                    and (e.condition is None or self.is_static(e.condition, scope, inner)))
        if t is ast.Lambda:
            return self.is_static(e.body, scope, bound | {e.param})
        if t is ast.BinOp:
            return self.is_static(e.left, scope, bound) and self.is_static(e.right, scope, bound)
        if t in (ast.Not, ast.Neg):
            return self.is_static(e.operand, scope, bound)
        if t is ast.IfExpr:
            return all(self.is_static(x, scope, bound) for x in (e.condition, e.then, e.otherwise))
        if t is ast.Member:
            return self.is_static(e.obj, scope, bound)
        return False

    def _e_Int(self, e, scope):
        v = e.value
        return lambda vm, L: v

    def _e_Bool(self, e, scope):
        v = e.value
        return lambda vm, L: v

    def _e_NoneLit(self, e, scope):
        return lambda vm, L: None

    def _e_Str(self, e: ast.Str, scope):
        if all(isinstance(p, str) for p in e.parts):
            text = "".join(e.parts)
            return lambda vm, L: text
        display = self.rt.display
        parts = [(p if isinstance(p, str) else self.expr(p, scope)) for p in e.parts]

        def fmt(vm, L):
            return "".join([p if p.__class__ is str else display(p(vm, L)) for p in parts])

        return fmt

    def _e_Name(self, e: ast.Name, scope):
        n = e.id
        if n in scope.slots:
            slot = scope.slots[n]
            return lambda vm, L: L[slot]
        if n in scope.env:
            return scope.env[n]
        if n in self.vars:
            slot = self.vars[n].slot
            return lambda vm, L: vm.vars[slot]
        if n in self.options:
            v = self.options[n]
            return lambda vm, L: v
        if n == "players":
            return lambda vm, L: vm.players
        if n in self.constants:
            v = self.constants[n]
            return lambda vm, L: v
        if n in self.defs:
            return self._e_Call(ast.Call(span=e.span, func=n, args=()), scope)
        if n in self._self_fields and self._short_mode:
            # In a `short` template, fields are read from a dict of the visible ones.
            return lambda vm, L, n=n: L[0][n]
        if n in self._self_fields and "self" in scope.slots:
            return self._e_Member(ast.Member(span=e.span, obj=ast.Name(span=e.span, id="self"), name=n), scope)
        from .errors import did_you_mean

        self.fail(e.span, f"unknown name '{n}'",
                  did_you_mean(n, list(scope.slots) + list(self.vars) + list(self.options) + list(self.constants)))

    def _e_ListLit(self, e, scope):
        items = [self.expr(i, scope) for i in e.items]
        return lambda vm, L: tuple(i(vm, L) for i in items)

    def _e_Comprehension(self, e: ast.Comprehension, scope):
        source = self.expr(e.iterable, scope)
        slot = scope.bind(e.var)
        elem = self.expr(e.element, scope)
        cond = self.expr(e.condition, scope) if e.condition is not None else None

        if isinstance(e.element, ast.Name) and e.element.id == e.var:  # [x for x in xs if ...]
            if cond is None:
                return lambda vm, L: tuple(source(vm, L))

            def select(vm, L):
                out = []
                for x in source(vm, L):
                    L[slot] = x
                    if cond(vm, L):
                        out.append(x)
                return tuple(out)

            return select

        def comp(vm, L):
            out = []
            for x in source(vm, L):
                L[slot] = x
                if cond is None or cond(vm, L):
                    out.append(elem(vm, L))
            return tuple(out)

        return comp

    def _short_circuit(self, func: str, e: ast.Comprehension, scope) -> Closure:
        """any/all/count over a comprehension, stopping as soon as the answer is known."""
        source = self.expr(e.iterable, scope)
        slot = scope.bind(e.var)
        elem = self.expr(e.element, scope)
        cond = self.expr(e.condition, scope) if e.condition is not None else (lambda vm, L: True)
        if func == "any":
            def run(vm, L):
                for x in source(vm, L):
                    L[slot] = x
                    if cond(vm, L) and elem(vm, L):
                        return True
                return False
        elif func == "all":
            def run(vm, L):
                for x in source(vm, L):
                    L[slot] = x
                    if cond(vm, L) and not elem(vm, L):
                        return False
                return True
        else:
            def run(vm, L):
                n = 0
                for x in source(vm, L):
                    L[slot] = x
                    if cond(vm, L):
                        n += 1
                return n
        return run

    def _e_Range(self, e, scope):
        lo, hi = self.expr(e.low, scope), self.expr(e.high, scope)
        return lambda vm, L: tuple(range(lo(vm, L), hi(vm, L) + 1))

    def _e_BinOp(self, e: ast.BinOp, scope):
        a, b = self.expr(e.left, scope), self.expr(e.right, scope)
        op = e.op
        if op in ("==", "!=") and isinstance(e.right, (ast.Int, ast.Bool, ast.NoneLit, ast.Name)) \
                and self.is_static(e.right, scope, set()):
            k = b(None, [])
            if op == "==":
                return lambda vm, L: a(vm, L) == k
            return lambda vm, L: a(vm, L) != k
        if op == "and":
            return lambda vm, L: a(vm, L) and b(vm, L)
        if op == "or":
            return lambda vm, L: a(vm, L) or b(vm, L)
        table = {
            "+": lambda vm, L: a(vm, L) + b(vm, L),
            "-": lambda vm, L: a(vm, L) - b(vm, L),
            "*": lambda vm, L: a(vm, L) * b(vm, L),
            "/": lambda vm, L: a(vm, L) // b(vm, L),
            "%": lambda vm, L: a(vm, L) % b(vm, L),
            "==": lambda vm, L: a(vm, L) == b(vm, L),
            "!=": lambda vm, L: a(vm, L) != b(vm, L),
            "<": lambda vm, L: a(vm, L) < b(vm, L),
            "<=": lambda vm, L: a(vm, L) <= b(vm, L),
            ">": lambda vm, L: a(vm, L) > b(vm, L),
            ">=": lambda vm, L: a(vm, L) >= b(vm, L),
            "in": lambda vm, L: a(vm, L) in b(vm, L),
            "not in": lambda vm, L: a(vm, L) not in b(vm, L),
        }
        return table[op]

    def _e_Not(self, e, scope):
        a = self.expr(e.operand, scope)
        return lambda vm, L: not a(vm, L)

    def _e_Neg(self, e, scope):
        a = self.expr(e.operand, scope)
        return lambda vm, L: -a(vm, L)

    def _e_IfExpr(self, e, scope):
        c, t, f = self.expr(e.condition, scope), self.expr(e.then, scope), self.expr(e.otherwise, scope)
        return lambda vm, L: t(vm, L) if c(vm, L) else f(vm, L)

    def _e_Member(self, e: ast.Member, scope):
        obj = self.expr(e.obj, scope)
        if e.name not in self.fields and e.name not in ("title", "text", "kind_name"):
            from .errors import did_you_mean

            self.fail(e.span, f"no component has a property '{e.name}'", did_you_mean(e.name, self.fields))
        table = self.fields.setdefault(e.name, {})
        return lambda vm, L: table[obj(vm, L)]

    def _e_Index(self, e: ast.Index, scope):
        key = self.expr(e.key, scope)
        if isinstance(e.obj, ast.Name) and e.obj.id in self.vars and e.obj.id not in scope.slots:
            info = self.vars[e.obj.id]
            slot = info.slot
            if info.key_index is not None:
                index = info.key_index
                if isinstance(e.key, ast.Name) and e.key.id in scope.slots:
                    kslot = scope.slots[e.key.id]
                    return lambda vm, L: vm.vars[slot][index[L[kslot]]]
                return lambda vm, L: vm.vars[slot][index[key(vm, L)]]
            return lambda vm, L: vm.vars[slot][key(vm, L)]
        obj = self.expr(e.obj, scope)
        return lambda vm, L: obj(vm, L)[key(vm, L)]

    def _e_Lambda(self, e: ast.Lambda, scope):
        slot = scope.bind(e.param)
        body = self.expr(e.body, scope)

        def make(vm, L):
            def fn(x):
                L[slot] = x
                return body(vm, L)

            return fn

        return make

    def _e_Call(self, e: ast.Call, scope):
        if e.func in self.defs:
            args = [self.expr(a, scope) for a in e.args]
            decl = self.def_decls[e.func]
            table = self._table(decl)
            if table is not None and decl.params:
                if len(args) == 1:
                    (a0,) = args
                    return lambda vm, L: table[a0(vm, L)]
                return lambda vm, L: table[tuple([a(vm, L) for a in args])]
            if e.func not in self._inlining and len(self._inlining) < 8 and len(args) == len(decl.params):
                # Inline the pure function: its parameters become the argument closures.
                root = scope.root if scope.root is not None else scope
                env = {p.name: a for p, a in zip(decl.params, args)}
                static = {p.name for p, a in zip(decl.params, e.args) if self.is_static(a, scope, set())}
                self._inlining.append(e.func)
                try:
                    return self.expr(decl.body, Scope(root=root, env=env, static_names=static))
                finally:
                    self._inlining.pop()
            table = self._table(decl)
            if table is not None:
                # A pure function of finite arguments: looked up, not computed.
                if len(args) == 1:
                    (a0,) = args
                    return lambda vm, L: table[a0(vm, L)]
                return lambda vm, L: table[tuple([a(vm, L) for a in args])]
            holder = self.defs[e.func]
            return lambda vm, L: holder[0](vm, [a(vm, L) for a in args])
        if e.func == "members":
            arg = e.args[0] if e.args else None
            if isinstance(arg, ast.Name) and arg.id == "player":
                return lambda vm, L: vm.players
            if isinstance(arg, ast.Name) and arg.id in self.types:
                values = self.types[arg.id]
                return lambda vm, L: values
            self.fail(e.span, "members(...) takes a type name", "for example members(Suit)")
        if e.func in ("any", "all", "count") and len(e.args) == 1 and isinstance(e.args[0], ast.Comprehension):
            return self._short_circuit(e.func, e.args[0], scope)
        if e.func == "initial":
            (arg,) = [self.expr(a, scope) for a in e.args]
            display = self.rt.display
            return lambda vm, L: display(arg(vm, L))[:1].upper()
        if e.func not in BUILTINS:
            from .errors import did_you_mean

            self.fail(e.span, f"unknown function '{e.func}'",
                      did_you_mean(e.func, list(BUILTINS) + list(self.defs)))
        fn = BUILTINS[e.func].factory(self.rt)
        args = [self.expr(a, scope) for a in e.args]
        if len(args) == 1:
            (a0,) = args
            return lambda vm, L: fn(a0(vm, L))
        if len(args) == 2:
            a0, a1 = args
            return lambda vm, L: fn(a0(vm, L), a1(vm, L))
        return lambda vm, L: fn(*[a(vm, L) for a in args])
