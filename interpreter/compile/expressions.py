"""Expressions compiled to Python functions, once, at load.

Each expression of a .game file becomes a tree of the intermediate form (ir.py): one
Python expression over the frame's local slots `L`, the game's variables `V` and a
namespace of constants, field tables and built-ins, which the lowering (emit.py) makes a
tree of Python's `ast` and `compile()` turns into a function `f(vm, L)`. Nested names, comprehensions and
calls thus run as native Python, with no closure per tree node. On the way, pure
functions are inlined, expressions that read no state are computed once (constant
folding), and pure functions of finite arguments are tabulated; what the compiler needs
to know about a tree it has built is asked of the passes (passes.py), never of its text.
"""

from __future__ import annotations

import ast as ast_
import itertools
from collections.abc import Callable, Iterator
from types import CodeType
from typing import Any

import attrs

from interpreter.compile import codecache, emit, ir, lazy, passes
from interpreter.compile.names import LOCAL_KINDS
from interpreter.compile.passtables import PassTables
from interpreter.compile.scope import Scope
from interpreter.compile.static import FOLDED, SelfFields, StaticAnalysis
from interpreter.compile.steps import Closure
from interpreter.core.builtins import BUILTINS, Text, always_true
from interpreter.core.errors import Diagnostic, GameDefError, Span, did_you_mean
from interpreter.core.limits import (
    MAX_INT,
    MAX_LIST,
    LimitExceeded,
    LoadBudget,
    capped,
    capped_deep,
    charge,
    checked_range,
)
from interpreter.core.links import DYNAMIC
from interpreter.language import syntax as ast

# What computing a rule's value at load (constant folding, a def's table) may raise that
# means "not at load": an error the rule would meet in play (a missing key or item, a
# value of the wrong kind, a division by zero, something only the running machine does,
# such as a rule's own error or a die roll) or the load's budget or depth spent. The value
# is then computed in play, where an error names the rule.
NOT_AT_LOAD = (
    ArithmeticError,
    LookupError,
    TypeError,
    ValueError,
    AttributeError,
    NameError,
    RecursionError,
    MemoryError,
    LimitExceeded,
)
TABLE_LIMIT = 4096
INLINE_LIMIT = 4000  # widest inlined body (emit.width), to keep repeated arguments in check
FREE_ITEMS = 256  # a constant list this short is iterated without spending the step budget
SHORT_LOOP = 8  # a comprehension over a constant list this short is not worth a call to hoist its reads
RENAMED_BODIES = True  # a def's body written in place is renamed from one built for arguments of its shape (`_shape`)

# Built-ins whose whole body is one Python expression (builtins.py): written in place of
# a call to them, one Python call less each time. Each makes the body from its
# arguments' nodes.
_INLINE: dict[str, tuple[int, Callable[..., ir.IRNode]]] = {
    "index_of": (2, lambda a, b: ir.PyCall(ir.Attr(a, "index"), (b,))),
    "append": (2, lambda a, b: ir.Join((a, ir.Tuple((b,))))),
    "concat": (2, lambda a, b: ir.Join((ir.PyCall(ir.TUPLE, (a,)), ir.PyCall(ir.TUPLE, (b,))))),
    "sum": (1, lambda a: ir.PyCall(ir.Global("sum", ir.PYTHON), (a,))),
    "any": (1, lambda a: ir.PyCall(ir.Global("any", ir.PYTHON), (a,))),
    "all": (1, lambda a: ir.PyCall(ir.Global("all", ir.PYTHON), (a,))),
    "sort": (1, lambda a: ir.PyCall(ir.TUPLE, (ir.PyCall(ir.SORTED, (a,)),))),
    "first": (1, lambda a: ir.Subscript(ir.PyBinOp("or", ir.Group(a), ir.Tuple((ir.Lit(None),))), ir.Lit(0))),
    "last": (1, lambda a: ir.Subscript(ir.PyBinOp("or", ir.Group(a), ir.Tuple((ir.Lit(None),))), ir.Lit(-1))),
}
# Built-ins written out in the function that spends their lists' steps (`_charging`),
# whose parameters are a0, a1, ...: one call instead of two where they are hot.
_A0, _A1, _I = ir.Local("a0"), ir.Local("a1"), ir.Local("i")
_IN_CHARGING = {
    "without": (
        ir.When(
            ir.PyBinOp("in", _A1, _A0),
            (
                ir.PyAssign((_I,), ir.PyCall(ir.Attr(_A0, "index"), (_A1,))),
                ir.PyReturn(
                    ir.PyBinOp("+", ir.Slice(_A0, None, _I), ir.Slice(_A0, ir.PyBinOp("+", _I, ir.Lit(1)), None))
                ),
            ),
        ),
        ir.PyReturn(_A0),
    ),
}
# Comparisons of a count with a number that ask only whether a list is empty.
_EMPTINESS = {(">", 0), ("!=", 0), ("==", 0), (">=", 1), ("<", 1), ("<=", 0)}
_NONEMPTY = {(">", 0), ("!=", 0), (">=", 1)}
# Expressions whose value is never none (so `max(a, b)` means the larger of the two).
_NEVER_NONE = (ast.Int, ast.Str, ast.Bool, ast.BinOp, ast.Not, ast.Neg, ast.ListLit, ast.Comprehension, ast.Range)


# Expressions computed at load when they read nothing that changes (constant folding).
# Each kind of expression's builder (`ExpressionCompiler._g_KIND`), found once.
_BUILDERS: dict[type, Callable[..., ir.IRNode]] = {}


def _never_none(e) -> bool:
    """True if `e` can't be none: a literal, arithmetic, a comparison, a list it makes
    (`a or b` may be either operand, so not `and`/`or`)."""
    return isinstance(e, _NEVER_NONE) and not (isinstance(e, ast.BinOp) and e.op in ("and", "or", "??"))


# Built-ins returning a list no longer than these arguments of theirs (append: one more).
_LIST_ARGS = {
    "concat": (0, 1),
    "without": (0,),
    "append": (0,),
    "rotate": (0,),
    "sort": (0,),
    "sort_by": (0,),
    "best": (0,),
}


_OPS = {
    "+": "+",
    "-": "-",
    "*": "*",
    "/": "//",
    "%": "%",
    "==": "==",
    "!=": "!=",
    "<": "<",
    "<=": "<=",
    ">": ">",
    ">=": ">=",
    "in": "in",
    "not in": "not in",
    "and": "and",
    "or": "or",
}


_NEVER_GROWS = (ast.Name, ast.Int, ast.Bool, ast.NoneLit, ast.Member, ast.Index, ast.Not, ast.Neg, ast.Range)
_GROWING_OPS = ("+", "-", "*")
_COMPARING_OPS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
# Built-ins whose result is a truth, a position, one of their arguments' items, or a
# list no longer than an argument: they never make a value larger than they read.
_PICKING_BUILTINS = frozenset(
    "count any all first last index_of column row cell_at neighbour neighbours adjacent opposite "
    "max min abs members without rotate sort sort_by best path_steps reachable".split()
)


class ExpressionCompiler:
    """Turns expressions into fast Python functions, reading the shared tables; the rest
    of its state (scopes being inlined, folds, the loops made while a tree is built, the
    answers it keeps about the syntax tree) is its own."""

    def __init__(self, tables: PassTables) -> None:
        self.tables = tables
        tables.ns.update(
            {
                "_disp": self.tables.rt.display,
                "_T": Text,
                "_charge": charge,
                "_range": checked_range,
                "_cap": capped,
                "_MAX_INT": MAX_INT,
                "_MAX_LIST": MAX_LIST,
                "_cap_deep": capped_deep,
                "_count_eq": _count_eq,
                "_count_eq_charged": _count_eq_charged,
                "_coalesce": _coalesce,
                "_coalesce_lazy": _coalesce_lazy,
            }
        )
        self.load_vm = LoadBudget(self.tables.seats)  # what constants computed at load may spend
        for name, b in BUILTINS.items():
            self.tables.ns[f"_b_{name}"] = b.factory(self.tables.rt)
        self.tables.ns["_b_count"] = len
        self.tables.ns["_always_true"] = always_true
        self.tables.ns[lazy.RUN] = lazy.run  # what a stub calls first (lazy.py)
        self.name_numbers = itertools.count()
        self._waiting_numbers = itertools.count()  # expressions' functions waiting to be compiled (`function`)
        self._inlining: list[str] = []
        self._tables: dict[str, dict | None] = {}
        self.self_fields = SelfFields()  # an entity's fields read by bare name (the visibility pass)
        self.static = StaticAnalysis(tables, self.self_fields)
        self._folding = False
        self._plain_lists = False  # comprehensions written as they are, never as `_hoisted_list` calls
        self._shallow_at: int | None = None  # inlining depth past which defs are called, not inlined
        # id of a list expression -> (it, "paid" | "short" | ""), as last compiled: see `_note`
        self._list_notes: dict[int, tuple[Any, str]] = {}
        self._short_tables: dict[str, bool] = {}  # field or function table -> all its lists are short
        # Sources of short lists: comprehension variables bound to the short lists of a constant
        # (or of a list of lists written in the rule), and lists written in the rule passed to a def.
        self._short_vars: set[ir.IRNode] = set()
        self._fields_final = False  # set once every component and its fields are known
        # a call of a loop function (`_loop`): its kind, clauses, element (or a `_LoopCopy` of them)
        self._loops_made: dict[ir.IRNode, Any] = {}
        self._read_again: dict[tuple[int, str], tuple[Any, bool]] = {}  # `_reads_again`'s answers
        self._codes: dict[ir.IRNode, CodeType] = {}  # `function`'s code of each tree, by the tree
        self._inlined_made: dict[tuple, tuple[Any, ir.IRNode | None]] = {}  # `_inlined`'s answers
        # `_inlined`'s bodies by the shape of their arguments (`_shape`): a body built for some
        # frame slots and expression variables is the body for others in the same places,
        # renamed (`_instance`), rather than built again
        self._templates: dict[tuple, _Template] = {}
        self._made: dict[str, lazy.Uncompiled] = {}  # the loop and `_in` functions made, by name
        self._function_facts: dict[str, tuple[frozenset[ir.IRNode], tuple[str, ...]]] = {}  # `_facts`
        self._short_log: list[ir.IRNode] = []  # every node made a source of short lists, in order
        self._loops_log: list[tuple] = []  # every loop noted in `_loops_made`, in order

    # ---- entry points --------------------------------------------------------
    def expr(self, e: ast.Expr, scope: Scope) -> Closure:
        """A function (vm, L) -> value computing `e`."""
        if self.static.is_static(e, scope, set()) and not isinstance(e, ast.Lambda):
            value = self._evaluate_static(e, scope)
            if value is not _FAILED:
                return lambda vm, L: value
        return self.function(self.src(e, scope, {}), later=True)

    def function(self, node: ir.IRNode, later: bool = False) -> Closure:
        """A function (vm, L) -> value computing `node`. The same tree is often compiled
        again (a constant folded at each call of a def written in place): its code is
        kept, by the tree, for the rest of the compile. `later`: unless its code is known,
        lowered and compiled when first called (lazy.py), as a game plays few of them."""
        code = self._codes.get(node)
        if code is None and later:
            return self.later("_f", _FRAME, (ir.PyReturn(node),), passes.uses_vars(node), _EXPRESSION)
        if code is None:
            module = lowered(emit.function_module, "_f", _FRAME, (ir.PyReturn(node),), passes.uses_vars(node))
            code = self._codes[node] = compiled(module, _EXPRESSION)
        local: dict[str, Any] = {}
        exec(code, self.tables.ns, local)  # noqa: S102
        return local["_f"]

    def later(self, name: str, params: tuple[str, ...], stmts: tuple[ir.Stmt, ...], reads: bool, file: str) -> Any:
        """A function `name` of `stmts` that no other generated code calls by name (an
        expression's, a decision's), lowered and compiled when first called (lazy.py): its
        stub is in the namespace only until then, as `_fxN`."""
        key = f"_fx{next(self._waiting_numbers)}"
        return lazy.stub(self.tables.ns, lazy.Uncompiled("plain", name, params, stmts, reads, key=key, file=file))

    def _evaluate_static(self, e, scope):
        if self._folding:  # already inside a fold: its value is computed once, at the top
            return _FAILED
        self._folding = True
        try:
            value = self.function(self.src(e, scope, {}))(self.load_vm, [None] * (scope.count + 1))
        except GameDefError:
            raise
        except NOT_AT_LOAD:  # let it fail at run time (or where the constant is needed), where the error names the rule
            return _FAILED
        finally:
            self._folding = False
        return _FAILED if callable(value) else value

    def _literal(self, value: Any) -> ir.IRNode:
        if value is None or isinstance(value, (bool, int, str)):
            return ir.Lit(value)
        name = f"_k{next(self.name_numbers)}"
        self.tables.ns[name] = value
        return ir.Const(name, value)

    # ---- the intermediate form --------------------------------------------------------
    def src(self, e, scope: Scope, py: dict[str, ir.IRNode]) -> ir.IRNode:
        """The tree of `e` in `scope`; `py` maps the names bound by the comprehensions
        and lambdas around it to their variables. The loop functions noted while a tree
        is built (`_loops_made`, for `_loop_element`) are forgotten once it is: no later
        tree holds their calls, and the compiled game (kept whole in the game cache)
        keeps no trees."""
        static = self.static
        if static.building:
            return self._node(e, scope, py)
        static.new_tree()
        try:
            return self._node(e, scope, py)
        finally:
            static.building = False
            self._loops_made.clear()

    def _node(self, e, scope: Scope, py: dict[str, ir.IRNode]) -> ir.IRNode:
        """`src` of `e` inside a tree being built: the builders call this directly."""
        t = type(e)
        if t in FOLDED and self.static.is_static(e, scope, set(), frozenset(py)):
            value = self._evaluate_static(e, scope)
            if value is not _FAILED:
                return self._literal(value)
        build = _BUILDERS.get(t)
        if build is None:  # (the builder of each kind of expression found once, by its name)
            build = _BUILDERS[t] = getattr(ExpressionCompiler, "_g_" + t.__name__)
        return build(self, e, scope, py)

    def _g_Int(self, e, scope, py):
        return ir.Lit(e.value)

    def _g_Bool(self, e, scope, py):
        return ir.Lit(e.value)

    def _g_NoneLit(self, e, scope, py):
        return ir.Lit(None)

    def _g_Str(self, e: ast.Str, scope, py):
        parts = [
            ir.Lit(p) if isinstance(p, str) else ir.PyCall(ir.DISPLAY, (self._node(p, scope, py),)) for p in e.parts
        ]
        if not parts:
            return ir.PyCall(ir.TEXT, (ir.Lit(""),))
        return ir.PyCall(ir.TEXT, (ir.Join(tuple(parts)),))  # a Text: shown as written, never read as a name

    def _g_Name(self, e: ast.Name, scope, py):
        """A name, as the checker resolved it (names.py): where its kind is kept."""
        n = e.id
        kind = self.tables.names.kind(e)
        if kind in LOCAL_KINDS:  # a comprehension's or lambda's variable, a slot, an inlined argument
            if n in py:
                return py[n]
            if n in scope.slots:
                return ir.Slot(scope.slots[n])
            if n in scope.env:
                return ir.Group(scope.env[n])
        elif kind == "field":  # a property of `self` read by its bare name
            if self.self_fields.short:  # a `short` template reads a dict of the visible fields
                return ir.Subscript(ir.Slot(0), ir.Lit(n))
            return self._g_Member(ast.Member(span=e.span, obj=ast.Name(span=e.span, id="self"), name=n), scope, py)
        elif kind == "var":
            return ir.VarSlot(self.tables.vars[n].slot)
        elif kind == "option":
            return self._literal(self.tables.options[n])
        elif kind == "players":
            return ir.Players()
        elif kind == "constant":
            return self._literal(self.tables.constants[n])
        elif kind == "def":  # a def without parameters, called by its bare name
            return self._call_def(ast.Call(span=e.span, func=n, args=()), scope, py)
        elif kind == "type" and self.tables.constants.get(n) is not None:
            return self._literal(self.tables.constants[n])  # a grid's name is a value: `cell_at(Board, 1, 1)`
        known = list(py) + list(scope.slots)
        raise GameDefError([Diagnostic(e.span, f"unknown name '{n}'", did_you_mean(n, known))])

    def _g_ListLit(self, e, scope, py):
        return ir.Tuple(tuple(self._node(i, scope, py) for i in e.items))

    def _bind(self, py: dict, name: str) -> tuple[dict, str]:
        inner = dict(py)
        var = f"_v{next(self.name_numbers)}"
        inner[name] = ir.Local(var)
        return inner, var

    def _needs_charge(self, e, source: ir.IRNode) -> bool:
        """Must the list `e` (compiled to `source`) spend the step budget per item where it
        is iterated or read whole? Not if it is bounded at load (a short constant, the
        seats, a short list from a field or a tabulated function): those cost a bounded
        amount per evaluation, and evaluations are counted where they loop. Not if making
        it already spent a step per item (`_paid`). Not if it is no list at all (a number,
        a truth, a text): `_charge` would pass it free."""
        if not self._may_be_list(e):
            return False
        core = ir.unwrapped(source)
        if type(core) is ir.Players or type(core) is ir.Lit and _plain_literal(core.value):
            return False
        if type(core) is ir.Const:
            value = self.tables.ns.get(core.name)
            return isinstance(value, tuple) and len(value) > FREE_ITEMS
        if core in self._short_vars:  # an item of a constant list of short lists: short itself
            return False
        return not (self._bounded(e, core) or self.paid(e, source))

    def _may_be_list(self, e) -> bool:
        """False if `e` is surely no list: a literal, arithmetic, a comparison, a truth, a
        function, or a built-in returning a number, truth or text."""
        t = type(e)
        if t in (ast.Int, ast.Bool, ast.NoneLit, ast.Str, ast.Not, ast.Neg, ast.Lambda):
            return False
        if t is ast.BinOp:
            if e.op == "??":
                return self._may_be_list(e.left) or self._may_be_list(e.right)
            return e.op in ("+", "*") and (self._may_be_list(e.left) or self._may_be_list(e.right))
        if t is ast.Call and e.func in BUILTINS and self.tables.names.call(e) == "builtin":
            return BUILTINS[e.func].returns not in ("int", "bool", "str")
        return True

    def _bounded(self, e, core: ir.IRNode) -> bool:
        """Is `e` a list of at most FREE_ITEMS items, fixed by the rule and the components: a
        read from a field or a tabulated function whose every value is that short, or one
        noted "short" (a single `for` over such a list)? A list literal is not: `for z in [x]`
        is a loop's turn like any other, and spends its step.
        (Fields only once every component is made: before, a table may still grow.)"""
        if self._noted(e) == "short":
            return True
        table = passes.table_read(core)
        if table is None or (table.of == "field" and not self._fields_final):
            return False
        if not isinstance(self.tables.ns.get(table.name), dict):
            return False
        if table.name not in self._short_tables:
            values = self.tables.ns[table.name].values()
            self._short_tables[table.name] = all(v.__class__ is not tuple or len(v) <= FREE_ITEMS for v in values)
        return self._short_tables[table.name]

    def _items_short(self, core: ir.IRNode) -> bool:
        """Is every item of the list `core` (a constant, or a read from a function table)
        itself a list of at most FREE_ITEMS items, fixed at load? Then a variable running
        over it holds a short list, read free like one (a line of a tic-tac-toe board)."""

        def short_lists(value) -> bool:
            return isinstance(value, tuple) and all(x.__class__ is tuple and len(x) <= FREE_ITEMS for x in value)

        if type(core) is ir.Const:
            return short_lists(self.tables.ns.get(core.name))
        table = passes.table_read(core)
        if table is None or table.of != "def" or not isinstance(self.tables.ns.get(table.name), dict):
            return False
        return all(short_lists(v) for v in self.tables.ns[table.name].values())

    def _makes_short_lists(self, e, seen: frozenset = frozenset()) -> bool:
        """Is every item of the list `e` a list of at most FREE_ITEMS items by how `e` is
        written: a comprehension whose element is a list written in the rule
        (`[[x, y] for x in xs for y in ys]`), a list of such lists, or a call of a def
        whose body is one? A variable running over it then holds a short list."""
        t = type(e)
        if t is ast.Comprehension:
            return type(e.element) is ast.ListLit and len(e.element.items) <= FREE_ITEMS
        if t is ast.ListLit:
            return all(type(i) is ast.ListLit and len(i.items) <= FREE_ITEMS for i in e.items)
        if t is ast.IfExpr:
            return self._makes_short_lists(e.then, seen) and self._makes_short_lists(e.otherwise, seen)
        if t is ast.Call and e.func not in seen and self.tables.names.call(e) == "def":
            return self._makes_short_lists(self.tables.def_decls[e.func].body, seen | {e.func})
        return False

    def paid(self, e, source: ir.IRNode) -> bool:
        """Did making the list `e` already spend at least a step per item it has? A range
        (`_range` spends its size), a comprehension whose last `for` spent its items, a
        joined, sorted or shortened list whose list arguments spent theirs. Reading such a
        list again costs no more than making it did, so it is not charged twice. A list
        computed once at load (a constant) was not made here: never paid."""
        if type(ir.unwrapped(source)) is ir.Const:
            return False
        if isinstance(e, ast.Range):
            return True
        return self._noted(e) == "paid"

    def _note(self, e, what: str) -> None:
        """Remember what the list expression `e`, just compiled, costs to read again:
        "paid" (its making spent a step per item), "short" (at most FREE_ITEMS items,
        fixed by the rule), or "" (unknown). The node is kept with the note, so that
        its id is never another node's."""
        self._list_notes[id(e)] = (e, what)

    def _noted(self, e) -> str:
        note = self._list_notes.get(id(e))
        return note[1] if note is not None and note[0] is e else ""

    def _leaf(self, e) -> bool:
        """Does evaluating `e` take a bounded, small amount of work, with no loop inside:
        no comprehension, range or `in` over a computed list, no call of a def, a query or
        a built-in that reads a list? Only a comprehension whose every part is a leaf may
        iterate a short list without spending a step per item: otherwise the work inside
        each item could multiply, level by level, uncounted."""
        if e is None:
            return True
        t = type(e)
        if t in (ast.Comprehension, ast.Range, ast.Lambda):
            return False
        if t is ast.BinOp and e.op in ("in", "not in") and not isinstance(e.right, ast.ListLit):
            return False
        if t is ast.Call:
            builtin = self.tables.names.call(e) == "builtin"
            if not builtin or e.func not in BUILTINS:  # `members` and `initial` read no list
                return builtin and all(self._leaf(a) for a in e.args)
            b = BUILTINS[e.func]
            if b.charges or b.takes_vm:
                return False
        return all(self._leaf(child) for child in _sub_expressions(e))

    def _clauses(self, e: ast.Comprehension, scope, py) -> tuple[list[ir.CompFor | ir.CompIf], ir.IRNode]:
        """The clauses of a comprehension, `for v in xs`, each list spending the step
        budget as `_needs_charge` says (and always, unless a leaf: see `_leaf`), and
        `if c`, and the element."""
        parts: list[ir.CompFor | ir.CompIf] = []
        last_spent = short = False
        leaf = len(e.clauses) == 1 and self._leaf(e.element) and self._leaf(e.clauses[0].condition)
        for clause in e.clauses:  # Python's order: the first clause is the outer loop
            source = self._node(clause.iterable, scope, py)
            last_spent = self.paid(clause.iterable, source)
            if not leaf and not last_spent and self._may_be_list(clause.iterable):
                source = ir.Charge(source)
                last_spent = True
            elif self._needs_charge(clause.iterable, source):
                source = ir.Charge(source)
                last_spent = True
            # one `for` over a short list: as short
            short = not last_spent and len(e.clauses) == 1 and self._may_be_list(clause.iterable)
            py, v = self._bind(py, clause.var)
            if self._items_short(ir.unwrapped(self._node(clause.iterable, scope, py))) or self._makes_short_lists(
                clause.iterable
            ):
                self._short(ir.Local(v))  # each item is a short list fixed at load, or by the rule's text
            parts.append(ir.CompFor(v, source))
            if clause.condition is not None:
                parts.append(ir.CompIf(self._node(clause.condition, scope, py)))
        # Its items are at most the turns of its last `for`: paid for if those were.
        self._note(e, "paid" if last_spent else "short" if short else "")
        return parts, self._node(e.element, scope, py)

    def _g_Comprehension(self, e: ast.Comprehension, scope, py):
        parts, elem = self._clauses(e, scope, py)
        first = parts[0]
        assert isinstance(first, ir.CompFor)  # a comprehension's clauses begin with a `for`
        if len(parts) == 1 and elem == ir.Local(first.var):  # [x for x in xs]: the items
            return ir.PyCall(ir.TUPLE, (first.iterable,))
        made = ir.PyCall(ir.TUPLE, (ir.Comp(elem, tuple(parts)),))
        if self._plain_lists:
            return made
        return self._list_loop(first, parts, elem) or self._hoisted_list(made, first)

    def _list_loop(self, first: ir.CompFor, parts: list[ir.CompFor | ir.CompIf], elem: ir.IRNode) -> ir.IRNode | None:
        """`[elem for x in xs if c1 or c2 or ...]` where some `ci` is a loop over one list
        (`any(influence[s][y] > 0 for y in neighbours(x))`, made by `_loop`), as a call of
        a generated function whose loop writes those inner loops in place: one call in all
        rather than one per item, and the reads the inner loops share with the rest hoisted
        once. Each `ci` is tested in turn, as `or` does, and the item kept at the first
        true one. None where it does not apply (a plain build, more clauses, no such loop)."""
        if not self.tables.optimise or len(parts) != 2 or type(parts[1]) is not ir.CompIf:
            return None
        disjuncts = _disjuncts(parts[1].condition)
        if not any(self._in_place(d) for d in disjuncts):
            return None
        top: list = []
        body = self._loop_head([first], top)
        for d in disjuncts:
            test = self._loop_element(d, body)
            body.append(ir.When(test, (ir.Do(ir.PyCall(ir.Attr(_OUT, "append"), (elem,))), ir.Continue())))
        stmts = [ir.PyAssign((_OUT,), ir.List(())), *_frozen(top), ir.PyReturn(ir.PyCall(ir.TUPLE, (_OUT,)))]
        seen = passes.summary(stmts)
        name = f"_list{next(self.name_numbers)}"
        self._loop_function(name, stmts, seen)
        return _loop_call(name, list(seen.free))

    def _in_place(self, node: ir.IRNode) -> bool:
        """Is `node` a call of a loop `_loop_element` writes in place (over one list)?"""
        made = self._loop_of(node)
        return (
            made is not None
            and made[0] not in ("first", "sum", "best")
            and sum(type(p) is ir.CompFor for p in made[1]) == 1
        )

    def _loop_of(self, node: ir.IRNode) -> tuple | None:
        """What `_loop` noted of the loop `node` calls: its kind, clauses and element (those
        of a renamed body's loop renamed now: `_LoopCopy`)."""
        made = self._loops_made.get(node)
        if type(made) is _LoopCopy:
            made = self._loops_made[node] = made.resolved()
        return made

    def _hoisted_list(self, made: ir.IRNode, first: ir.CompFor) -> ir.IRNode:
        """A comprehension whose items read the same entry at every turn (`influence[s]`
        while it runs over countries) as a call of a generated function reading it once,
        before the comprehension, as a loop function does (lazy.py, `_hoisted`). Only where
        that saves more than the call costs: not over the seats or a short constant."""
        seen = passes.summary(made)
        if seen.has_text or not seen.reads_vars:  # (no variable's entry to read once)
            return made
        reads = passes.hoistable(made, set(seen.bound), after_first_turn=False)
        if not any(_reads_variable(r) for r in reads):
            return made
        items = ir.unwrapped(first.iterable)
        if type(items) is ir.Charge:
            items = ir.unwrapped(items.items)
        value = self.tables.ns.get(items.name) if type(items) is ir.Const else None
        if type(items) is ir.Players or isinstance(value, tuple) and len(value) < SHORT_LOOP:
            return made
        name = f"_list{next(self.name_numbers)}"
        self._loop_function(name, [ir.PyReturn(made)], seen)
        return _loop_call(name, list(seen.free))

    def _g_Range(self, e, scope, py):
        return ir.PyCall(ir.Global("_range"), (ir.VMRef(), self._node(e.low, scope, py), self._node(e.high, scope, py)))

    def _g_Coalesce(self, e: ast.BinOp, scope, py) -> ir.IRNode:
        """`x ?? d`: a conditional expression, `(x if x is not None else d)`, where x only
        reads values (a local, a variable, a property); x computed once otherwise, by a
        helper (d computed only if x is none, unless it is a value already held)."""
        value, default = self._node(e.left, scope, py), self._node(e.right, scope, py)
        known = ir.unwrapped(value)
        if isinstance(known, ir.Lit | ir.Const):  # known at load: one side or the other
            return default if known.value is None else value
        if not passes.computes(value):
            return ir.IfExp(ir.PyBinOp("is not", value, ir.Lit(None)), value, default)
        if type(ir.unwrapped(default)) in _HELD:
            return ir.PyCall(ir.Global("_coalesce", ir.PYTHON), (value, default))
        return ir.PyCall(ir.Global("_coalesce_lazy", ir.PYTHON), (value, ir.PyLambda("_", default)))

    def _g_BinOp(self, e: ast.BinOp, scope, py):
        if e.op == "??":
            return self._g_Coalesce(e, scope, py)
        left = e.left
        if (
            isinstance(left, ast.Call)
            and left.func == "count"
            and len(left.args) == 1
            and isinstance(e.right, ast.Int)
            and (e.op, e.right.value) in _EMPTINESS
            and self.tables.names.call(left) == "builtin"
        ):  # `count(xs) > 0` asks only whether there is one: stop at the first
            self._plain_lists = True  # (as written: its clauses are read here)
            try:
                arg = ir.unwrapped(self._node(left.args[0], scope, py))
            finally:
                self._plain_lists = False
            if type(arg) is ir.PyCall and getattr(arg.func, "name", None) in ("_b_path_steps", "_dl_path_steps"):
                first = attrs.evolve(arg, keywords=(("first", ir.Lit(True)),))
                return ir.PyBinOp(_OPS[e.op], ir.PyCall(ir.LEN, (first,)), ir.Lit(e.right.value))
            comp = arg.args[0] if type(arg) is ir.PyCall and arg.func == ir.TUPLE and len(arg.args) == 1 else None
            if type(comp) is ir.Comp and type(comp.element) is ir.Local and passes.is_variable(comp.element.name):
                # [x for ... in ...]: its items, no value computed
                exists = self._loop("any", list(comp.clauses), ir.Lit(True))
                return exists if (e.op, e.right.value) in _NONEMPTY else ir.PyNot(exists)
            if not isinstance(left.args[0], ast.Comprehension):  # a list as it is: empty or not, no call
                return ir.Truth(arg) if (e.op, e.right.value) in _NONEMPTY else ir.PyNot(arg)
        return ir.PyBinOp(_OPS[e.op], self._node(e.left, scope, py), self._node(e.right, scope, py))

    def _g_Not(self, e, scope, py):
        return ir.PyNot(self._node(e.operand, scope, py))

    def _g_Neg(self, e, scope, py):
        return ir.PyNeg(self._node(e.operand, scope, py))

    def _g_IfExpr(self, e, scope, py):
        c, t, f = (self._node(x, scope, py) for x in (e.condition, e.then, e.otherwise))
        if all(self._short_constant(x) for x in (t, f)):  # one of two short lists fixed at load
            self._note(e, "short")
        return ir.IfExp(c, t, f)

    def _short_constant(self, source: ir.IRNode) -> bool:
        """Is `source` a constant list of at most FREE_ITEMS items (made at load)?"""
        core = ir.unwrapped(source)
        value = self.tables.ns.get(core.name) if type(core) is ir.Const else None
        return isinstance(value, tuple) and len(value) <= FREE_ITEMS

    def _g_Member(self, e: ast.Member, scope, py):
        if e.name not in self.tables.fields and e.name not in ("title", "text"):
            raise GameDefError(
                [
                    Diagnostic(
                        e.span, f"no component has a property '{e.name}'", did_you_mean(e.name, self.tables.fields)
                    )
                ]
            )
        table = ir.TableRead(f"_f_{e.name}", "field")
        self.tables.ns[table.name] = self.tables.fields.setdefault(e.name, {})
        obj = self._node(e.obj, scope, py)
        if e.name in self.tables.changeable:  # its current value: the query of the same name
            call = ir.QueryCall(e.name, (obj,), tight=True)
            guard = self.tables.query_guards.get(e.name)
            if guard is None or passes.computes(obj):
                return call
            # the component's own value while no modifier of it is in force (`_call_query`)
            read = ir.Subscript(table, obj)
            return ir.Guarded(read, e.name, guard, call) if guard else read
        return ir.Subscript(table, obj)

    def _g_Index(self, e: ast.Index, scope, py):
        keys = [e.key]
        base = e.obj
        while isinstance(base, ast.Index):  # m[a][b]: the keys, outer first
            keys.insert(0, base.key)
            base = base.obj
        if type(base) is ast.Name and self.tables.names.kind(base) == "var":  # an entry of a variable's map
            info = self.tables.vars[base.id]
            out: ir.IRNode = ir.VarSlot(info.slot)
            for depth, key in enumerate(keys):
                k = self._node(key, scope, py)
                if depth < len(info.levels):
                    index = ir.TableRead(f"_i{info.slot}_{depth}", "position")
                    self.tables.ns[index.name] = info.levels[depth][1]
                    k = ir.Subscript(index, k)
                out = ir.Subscript(out, k)
            return out
        return ir.Subscript(self._node(e.obj, scope, py), self._node(e.key, scope, py))

    def _g_Lambda(self, e: ast.Lambda, scope, py):
        inner, v = self._bind(py, e.param)
        body = self._node(e.body, scope, inner)
        if body == ir.Lit(True):  # one shared function: a search told "every end is fine" skips the test
            return ir.Global("_always_true")
        return ir.PyLambda(v, body)

    def _g_Call(self, e: ast.Call, scope, py):
        """A call, of what the checker resolved it to (names.py): a query, a def or a
        built-in; where each is kept is the compiler's own."""
        f = e.func
        kind = self.tables.names.call(e)
        if kind == "query":  # a query asks the modifiers in force: never folded
            return self._call_query(e, scope, py)
        if kind == "def":
            return self._call_def(e, scope, py)
        if kind == "procedure":  # (the checker reports it first)
            self.tables.fail(e.span, f"'{f}' is a procedure: it cannot be called inside an expression")
        if kind != "builtin":
            self.tables.fail(
                e.span, f"unknown function '{f}'", did_you_mean(f, list(BUILTINS) + list(self.tables.defs))
            )
        if f in DYNAMIC or f == "neighbours":
            links = self._links_call(e, scope, py)
            if links is not None:
                return links
        if f == "members":
            arg = e.args[0] if e.args else None
            if isinstance(arg, ast.Name) and arg.id == "player":
                return ir.Players()
            if isinstance(arg, ast.Name) and arg.id in self.tables.types:
                return self._literal(self.tables.types[arg.id])
            raise GameDefError([Diagnostic(e.span, "members(...) takes a type name", "for example members(Suit)")])
        if f == "initial":
            shown = ir.PyCall(ir.DISPLAY, (self._node(e.args[0], scope, py),))
            return ir.PyCall(ir.Attr(ir.Head(shown, 1), "upper"))
        return self._builtin_call(e, scope, py)

    def _links_call(self, e: ast.Call, scope, py) -> ir.IRNode | None:
        """`neighbours(x)` read from the map's links in place (and the state's added links
        when there are any); the other link built-ins from the state when links are added
        in play. None: an ordinary call."""
        f = e.func
        if f == "neighbours" and len(e.args) == 1:
            # the map's own links, read in place; links added in play, when there are any
            node = self._node(e.args[0], scope, py)
            self.tables.ns["_links"] = self.tables.rt.links
            return ir.Neighbours(node, self.tables.links_slot if self.tables.dynamic_links else None)
        if f in DYNAMIC and self.tables.dynamic_links:  # links added in play: read from the state
            return ir.PyCall(ir.Global(f"_dl_{f}"), (ir.VMRef(), *(self._node(a, scope, py) for a in e.args)))
        return None

    def _builtin_call(self, e: ast.Call, scope, py) -> ir.IRNode:
        """A built-in's call: a loop that stops at its answer for `any`, `all`, `count`,
        `first`, `sum` of a comprehension and `best` by a score; else the function itself,
        its list arguments charged one step per item unless they are known to be paid for."""
        f = e.func
        counted = self._count_equal(e, scope, py) if f == "count" else None
        if counted is not None:
            return counted
        if (
            f in ("any", "all", "count", "first", "sum")
            and len(e.args) == 1
            and isinstance(e.args[0], ast.Comprehension)
        ):
            parts, elem = self._clauses(e.args[0], scope, py)  # stop as soon as the answer is known
            return self._loop(f, parts, elem)
        if f == "best" and len(e.args) == 2 and isinstance(e.args[1], ast.Lambda):
            # the score written in the loop, not a function called per item
            lam = e.args[1]
            scored = ast.Comprehension(
                span=e.span,
                element=lam.body,
                clauses=(ast.ForClause(span=lam.span, var=lam.param, iterable=e.args[0], condition=None),),
            )
            parts, elem = self._clauses(scored, scope, py)
            self._note(e, self._noted(scored))  # no more items than its list
            return self._loop(f, parts, elem)
        b = BUILTINS[f]
        args = [self._node(a, scope, py) for a in e.args]
        if b.charges:  # a list argument spends one step per item, unless `_needs_charge` says not
            charged = [self._needs_charge(a, s) for a, s in zip(e.args, args)]
            if any(isinstance(a, ast.Lambda) and not self._leaf(a.body) for a in e.args):
                # a function called per item that does work of its own: every item spends
                pairs = zip(charged, e.args, args)
                charged = [c or (self._may_be_list(a) and not self.paid(a, s)) for c, a, s in pairs]
            if f in _LIST_ARGS:  # its result is no longer than its list arguments (+1)
                lists = [i for i in _LIST_ARGS[f] if i < len(args)]
                if all(charged[i] or self.paid(e.args[i], args[i]) for i in lists):
                    self._note(e, "paid")
                elif f not in ("concat", "append") and not any(charged[i] for i in lists):
                    self._note(e, "short")  # a short list, shortened or reordered
                else:
                    self._note(e, "")
            if any(charged) and not b.takes_vm:
                return ir.PyCall(ir.Global(self._charging(f, charged)), (ir.VMRef(), *args))
            args = [ir.Charge(a) if c else a for a, c in zip(args, charged)]
            if f in ("max", "min") and len(args) == 2 and _never_none(e.args[1]):
                return ir.PyCall(ir.Global(f, ir.PYTHON), tuple(args))  # Python's own: no `b is None` test
        if f in _INLINE and _INLINE[f][0] == len(args) and not b.takes_vm:
            return ir.Group(_INLINE[f][1](*(ir.Group(a) for a in args)))  # its body, in place
        if b.takes_vm:
            args.insert(0, ir.VMRef())
        return ir.PyCall(ir.Global(f"_b_{f}", ir.OTHER if b.takes_vm else ir.BUILTIN), tuple(args))

    def _loop(self, f: str, parts: list[ir.CompFor | ir.CompIf], elem: ir.IRNode) -> ir.IRNode:
        """`any`, `all`, `count`, `first` or `sum` of a comprehension (or `best` of a list by a
        score written as a lambda) as a call of a generated
        function whose loops return as soon as the answer is known. A generator expression
        (`any(x for ...)`) costs a generator object and a resumption per item, which in
        short lists (a line of three squares) is most of the work; plain loops in one
        call are about twice as fast. An element that is itself such a loop over one
        list (`any(all(... for x in line) for line in lines)`) is written in place, and
        a list's steps are spent inline as `charge` spends them. The function takes the
        frame and the comprehension variables of the expression around it it reads."""
        top: list = []
        inner = self._loop_head(parts, top)
        element, elem = elem, self._loop_element(elem, inner)
        first: list[ir.Stmt]
        if f == "any":
            inner.append(ir.When(elem, (ir.PyReturn(ir.Lit(True)),), flat=True))
            first, last = [], ir.PyReturn(ir.Lit(False))
        elif f == "all":
            inner.append(ir.When(ir.PyNot(elem, bare=True), (ir.PyReturn(ir.Lit(False)),), flat=True))
            first, last = [], ir.PyReturn(ir.Lit(True))
        elif f == "first":  # the first item: the later ones are never computed
            inner.append(ir.PyReturn(elem))
            first, last = [], ir.PyReturn(ir.Lit(None))
        elif f == "sum":
            inner.append(ir.Update(_N, "+", elem))
            first, last = [ir.PyAssign((_N,), ir.Lit(0))], ir.PyReturn(_N)
        elif f == "best":  # the items of the highest score, in their order
            head = parts[0]
            assert isinstance(head, ir.CompFor)  # a loop's clauses begin with a `for`
            item = ir.Local(head.var)
            inner.append(ir.PyAssign((_S,), elem))
            equal = ir.When(
                ir.PyBinOp("==", _S, _TOP), (ir.Do(ir.PyCall(ir.Attr(_OUT, "append"), (item,))),), flat=True
            )
            inner.append(
                ir.When(
                    ir.PyBinOp("or", ir.PyBinOp("is", _OUT, ir.Lit(None)), ir.PyBinOp(">", _S, _TOP)),
                    (ir.PyAssign((ir.Tuple((_TOP, _OUT)),), ir.Tuple((_S, ir.List((item,))))),),
                    (attrs.evolve(equal, chained=True),),
                    flat=True,
                )
            )
            none = ir.PyBinOp("is", _OUT, ir.Lit(None))
            first = [ir.PyAssign((_TOP, _OUT), ir.Lit(None))]
            last = ir.PyReturn(ir.IfExp(none, ir.Tuple(()), ir.PyCall(ir.TUPLE, (_OUT,))))
        else:  # count: the element is never computed
            inner.append(ir.Update(_N, "+", ir.Lit(1)))
            first, last = [ir.PyAssign((_N,), ir.Lit(0))], ir.PyReturn(_N)
        stmts = [*first, *_frozen(top), last]
        seen = passes.summary(stmts)
        name = f"_{f}{next(self.name_numbers)}"
        self._loop_function(name, stmts, seen)
        call = _loop_call(name, list(seen.free))
        # as written: a loop written in place in another's writes its own inner loop again
        self._loops_made[call] = (f, parts, element)
        self._loops_log.append((call, (f, parts, element)))
        return call

    def _loop_function(self, name: str, stmts: list[ir.Stmt], seen: passes.Summary) -> None:
        """Loop function `name` of `stmts`, lowered and compiled when first called
        (lazy.py), its reads that are the same at every turn made once before its loops."""
        params = ("vm", "L", *seen.free)
        pending = lazy.Uncompiled(
            "loop", name, params, tuple(stmts), seen.reads_vars, seen.has_text, tuple(sorted(seen.bound))
        )
        self._made[name] = pending
        lazy.stub(self.tables.ns, pending)

    def _loop_head(self, parts: list[ir.CompFor | ir.CompIf], out: list) -> list:
        """The `for` and `if` statements of a loop's clauses, appended to `out` (mutable
        lists, frozen by `_frozen`); the list their body goes in."""
        for part in parts:
            body: list = []
            if isinstance(part, ir.CompIf):
                out.append(("if", part.condition, body))
            elif type(part.iterable) is ir.Charge:  # a list's steps spent inline, as `charge` does
                items = ir.Local(f"__i{next(self.name_numbers)}")
                out.append(ir.PyAssign((items,), part.iterable.items))
                out.append(ir.spend_per_item(items))
                out.append(("for", part.var, items, body))
            else:
                out.append(("for", part.var, part.iterable, body))
            out = body
        return out

    def _loop_element(self, elem: ir.IRNode, out: list) -> ir.IRNode:
        """`elem`, or, if it is a call of a loop made by `_loop` over one list, a local
        its loop (written here) leaves its answer in."""
        if not self._in_place(elem):
            return elem
        made = self._loop_of(elem)
        assert made is not None  # (`_in_place` found it)
        f, parts, inner = made
        result = ir.Local(f"__r{next(self.name_numbers)}")
        out.append(ir.PyAssign((result,), ir.Lit(True if f == "all" else False if f == "any" else 0)))
        body = self._loop_head(parts, out)
        inner = self._loop_element(inner, body)
        if f == "any":
            body.append(ir.When(inner, (ir.PyAssign((result,), ir.Lit(True)), ir.PyBreak())))
        elif f == "all":
            body.append(ir.When(ir.PyNot(inner, bare=True), (ir.PyAssign((result,), ir.Lit(False)), ir.PyBreak())))
        else:
            body.append(ir.Update(result, "+", ir.Lit(1)))
        return result

    def _count_equal(self, e: ast.Call, scope, py) -> ir.IRNode | None:
        """`count([y for y in xs if y == x])`, x not naming y: Python's `xs.count(x)` (one
        call, no loop of Python code), xs spending the step budget as a `for` would."""
        c = e.args[0] if len(e.args) == 1 else None
        if not isinstance(c, ast.Comprehension) or len(c.clauses) != 1:
            return None
        clause = c.clauses[0]
        cond = clause.condition
        if not isinstance(cond, ast.BinOp) or cond.op != "==":
            return None
        for mine, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if isinstance(mine, ast.Name) and mine.id == clause.var and clause.var not in ast.names_in(other):
                items = self._node(clause.iterable, scope, py)
                if ir.unwrapped(items) in self._short_vars:  # a short list, so a tuple: its own count
                    return ir.PyCall(ir.Attr(items, "count"), (self._node(other, scope, py),))
                if self._needs_charge(clause.iterable, items):
                    return ir.PyCall(ir.Global("_count_eq_charged"), (ir.VMRef(), items, self._node(other, scope, py)))
                return ir.PyCall(ir.Global("_count_eq"), (items, self._node(other, scope, py)))
        return None

    def _charging(self, f: str, charged: list[bool]) -> str:
        """The name of a function calling the built-in `f` after spending the step budget
        for the arguments marked in `charged` that are lists: one call in the compiled
        code instead of a `_charge` call per argument (made once per pattern)."""
        name = f"_bc_{f}_{''.join('1' if c else '0' for c in charged)}"
        if name not in self.tables.ns:
            params = [f"a{i}" for i in range(len(charged))]
            locals_ = [ir.Local(p) for p in params]
            body: list[ir.Stmt] = [ir.spend_per_item(a) for a, c in zip(locals_, charged) if c]
            if f in _IN_CHARGING and len(params) == 2:
                body.extend(_IN_CHARGING[f])
            elif f in _INLINE and _INLINE[f][0] == len(params):
                body.append(ir.PyReturn(_INLINE[f][1](*locals_)))
            else:
                body.append(ir.PyReturn(ir.PyCall(ir.Global(f"_b_{f}", ir.BUILTIN), tuple(locals_))))
            module = lowered(emit.function_module, name, ("vm", *params), body)
            exec(compiled(module, "<gamedef built-in call>"), self.tables.ns)  # noqa: S102
        return name

    def _call_def(self, e: ast.Call, scope, py):
        decl = self.tables.def_decls[e.func]
        args = [self._node(a, scope, py) for a in e.args]
        self._note(e, "")
        if isinstance(decl.body, (ast.Bool, ast.Int, ast.NoneLit)):
            # a constant, whatever its arguments (a rule a variant may change): as an inlined
            # body whose parameters it never reads
            return self._node(decl.body, scope, py)
        table = self._table(decl) if self.tables.optimise else None
        if table is not None:  # a pure function of finite arguments: looked up, not computed
            name = f"_t_{e.func}"
            self.tables.ns[name] = table
            key = args[0] if len(args) == 1 else ir.Tuple(tuple(args))
            return ir.Subscript(ir.TableRead(name, "def"), key)
        inlined = self._inlined(decl, e, args, scope, py)
        if inlined is not None:
            return inlined
        self.compile_def(decl)
        return ir.PyCall(ir.Global(f"_d_{e.func}"), (ir.VMRef(), ir.List(tuple(args))))

    def _call_query(self, e: ast.Call, scope, py) -> ir.IRNode:
        """A query's call: its base written in place, as a def's body is, while the
        variables that decide whether a modifier of it is in force hold the values last
        seen with none (`_qi_NAME`, see modifiers.py); else, or if it can't be written in
        place, a call that applies the modifiers in force."""
        f = e.func
        args = [self._node(a, scope, py) for a in e.args]
        call = ir.QueryCall(f, tuple(args))
        guard = self.tables.query_guards.get(f)
        q = self.tables.query_decls.get(f)
        if not self.tables.optimise or guard is None or q is None or any(passes.computes(a) for a in args):
            return call  # (an argument that computes would be written twice)
        base = self._inlined(ast.Def(span=q.span, name=f, params=q.params, body=q.base), e, args, scope, py)
        if base is None:
            return call
        if not guard:  # no modifier of it anywhere in the game
            return base
        return ir.Guarded(base, f, guard, call)

    def _inlined(self, decl: ast.Def, e: ast.Call, args: list[ir.IRNode], scope, py) -> ir.IRNode | None:
        """The body of `decl` written in place of the call `e` (argument trees `args`),
        or None if it calls itself, nests too deep or is too long.

        A body too long with every def it calls written in place too is written again
        with those calls left as calls: the call's own tests (`complete[p][i] > 0 and
        ...`) then run in place, and the defs behind them only when reached."""
        if not self.tables.optimise:
            return None
        if self._shallow_at is not None and len(self._inlining) > self._shallow_at:
            return None  # (inside a body written with its calls left as calls)
        if e.func not in self._inlining and len(self._inlining) < 8 and len(args) == len(decl.params):
            root = scope.root if scope.root is not None else scope
            static = {
                p.name for p, a in zip(decl.params, e.args) if self.static.is_static(a, scope, set(), frozenset(py))
            }
            env = {p.name: a for p, a in zip(decl.params, args)}
            for a, source in zip(e.args, args):  # a list written in the rule: short, as a constant's items are
                if type(a) is ast.ListLit and len(a.items) <= FREE_ITEMS:
                    self._short(ir.unwrapped(source))
            # The same body with the same argument trees, inside the same defs being written
            # in place, is the same tree: it is built once and that tree given again (a def
            # is written in place many times over, through the defs and procedures written
            # in place around it: The Wall is Down's compile built most bodies several times).
            # The frame is not in the key: a body sees only its parameters and takes no slot.
            key = (
                id(decl.body),
                tuple(args),
                tuple(ir.unwrapped(a) in self._short_vars for a in args),
                frozenset(static),
                tuple(self._inlining),
                self._shallow_at,
                self._folding,
                self._plain_lists,
                self._fields_final,
            )
            made = self._inlined_made.get(key)
            if made is not None and made[0] is decl.body:
                if made[1] is not None:
                    self._note(e, self._noted(decl.body))
                return made[1]
            # The same body for arguments that are other frame slots and expression variables
            # in the same places (of the same widths, the same ones equal): the tree built for
            # the first, renamed.
            shape = self._shape(decl, args, static)
            template_key: tuple = ()
            if shape is not None:
                template_key = (key[0], shape[0], *key[2:])
                template = self._templates.get(template_key)
                if template is not None and template.body is decl.body:
                    result = self._instance(template, shape[1])
                    self._note(decl.body, template.note)
                    if result is not None:
                        self._note(e, template.note)
                    self._inlined_made[key] = (decl.body, result)
                    return result
            shorts, loops = len(self._short_log), len(self._loops_log)
            bound = []  # (the variable a parameter becomes, its argument)
            for p, source in zip(decl.params, args):
                if self._reads_again(decl.body, p.name) and passes.computes(source):
                    var = ir.Local(f"_v{next(self.name_numbers)}")
                    env[p.name] = var
                    bound.append((var.name, source))
                    if ir.unwrapped(source) in self._short_vars:
                        self._short(var)
            self._inlining.append(e.func)
            try:
                # The body sees only its parameters, bound to the caller's arguments.
                body = self._node(decl.body, Scope(root=root, env=env, static_names=static), {})
                width = _width(body)
                if width > INLINE_LIMIT and self._shallow_at is None:
                    self._shallow_at = len(self._inlining)
                    try:
                        body = self._node(decl.body, Scope(root=root, env=env, static_names=static), {})
                        width = _width(body)
                    finally:
                        self._shallow_at = None
            finally:
                self._inlining.pop()
            result = None
            if width <= INLINE_LIMIT:
                self._note(e, self._noted(decl.body))  # as its body costs to read again
                result = self._with_arguments(body, bound) if bound else body
            self._inlined_made[key] = (decl.body, result)
            if shape is not None:
                self._templates[template_key] = _Template(
                    decl.body,
                    shape[1],
                    result,
                    self._noted(decl.body),
                    tuple(self._short_log[shorts:]),
                    tuple(self._loops_log[loops:]),
                )
            return result
        return None

    def _short(self, node: ir.IRNode) -> None:
        """`node` is a source of short lists (`_short_vars`), noted in order for `_instance`."""
        self._short_vars.add(node)
        self._short_log.append(node)

    def _shape(
        self, decl: ast.Def, args: list[ir.IRNode], static: set[str]
    ) -> tuple[tuple, tuple[ir.IRNode, ...]] | None:
        """The arguments of a call written in place as a template's key: each argument that
        is a frame slot or an expression variable (in parentheses or not), and not static,
        as its place among them (which are equal), its kind, its parentheses and its width
        (what `INLINE_LIMIT` weighs); the others as they are. And those slots and variables,
        each once. None if there are none, or if one is also read inside another argument
        (renaming it there would be wrong).

        The body built for such arguments depends on them only through what the key
        holds: an inlined body takes no slot of its own, its expression variables and
        generated functions are new names, and every question the compiler asks of an
        argument of these kinds (is it held, does it compute, is it a constant or a table
        read, is it a source of short lists, how wide is it) has the same answer for
        every argument the key describes."""
        if not RENAMED_BODIES:
            return None
        cores: list[ir.IRNode] = []
        shape: list[Any] = []
        others: list[ir.IRNode] = []
        for p, a in zip(decl.params, args):
            core, groups = a, 0
            while type(core) is ir.Group:
                core, groups = core.inner, groups + 1
            t = type(core)
            if (t is ir.Slot or isinstance(core, ir.Local) and passes.is_variable(core.name)) and p.name not in static:
                if core not in cores:
                    cores.append(core)
                shape.append((_PLACE, t, cores.index(core), groups, emit.width(core)))
            else:
                shape.append(a)
                others.append(a)
        if not cores:
            return None
        if others and any(type(n) in (ir.Slot, ir.Local) and n in cores for o in others for n in ir.walk(o)):
            return None
        return tuple(shape), tuple(cores)

    def _instance(self, template: _Template, cores: tuple[ir.IRNode, ...]) -> ir.IRNode | None:
        """The body of `template` for the argument slots and variables `cores` (of the same
        shape as its own): its tree with each of its own written as the new one
        (`_Renaming`). The loops and short lists the build noted are noted for the new tree
        too, as building it would have: a loop's clauses and element renamed only if they
        are asked for (`_loop_of`)."""
        mapping = {old: new for old, new in zip(template.cores, cores) if old != new}
        renaming = _Renaming(mapping, self._made, self._function_facts, self.name_numbers, self.tables.ns)
        for node in template.shorts:
            self._short(passes.renamed(node, renaming.leaf))
        for call, entry in template.loops:
            call = passes.renamed(call, renaming.leaf)
            self._loops_made[call] = entry = _LoopCopy.of(entry, renaming)
            self._loops_log.append((call, entry))
        return None if template.result is None else passes.renamed(template.result, renaming.leaf)

    def _reads_again(self, body: ast.Expr, name: str) -> bool:
        """`_reads_again`, asked of a def's body at each of its calls written in place:
        kept per body (with it, so that its id is no other's) and parameter."""
        key = (id(body), name)
        known = self._read_again.get(key)
        if known is None or known[0] is not body:
            known = self._read_again[key] = (body, _reads_again(body, name))
        return known[1]

    def _with_arguments(self, body: ir.IRNode, bound: list[tuple[str, ir.IRNode]]) -> ir.IRNode:
        """An inlined def's `body` as a call of a generated function whose parameters are
        the arguments `bound`: a computed argument that the body reads more than once (or
        in a loop) is computed once, as a def's arguments are, not once per reading."""
        names = [v for v, _ in bound]
        seen = passes.summary(body)
        if not seen.has_text and type(body) is ir.PyCall and type(body.func) is ir.Global and body.func.kind == ir.LOOP:
            # The body is one call of a loop function, which takes each variable read in its
            # loop as a parameter: an argument it reads once, in its own arguments, is
            # computed once there.
            if all(passes.count(body, ir.Local(v)) == 1 and ir.Local(v) in body.args for v in names):
                return passes.substitute(body, dict(bound))
        free = [v for v in seen.free if v not in names]
        name = f"_in{next(self.name_numbers)}"
        # lowered and compiled when first called (lazy.py)
        names_in = ("vm", "L", *free, *names)
        pending = lazy.Uncompiled("plain", name, names_in, (ir.PyReturn(body),), seen.reads_vars)
        self._made[name] = pending
        lazy.stub(self.tables.ns, pending)
        params = (ir.VMRef(), ir.Frame(), *(ir.Local(v) for v in free), *(source for _, source in bound))
        return ir.PyCall(ir.Global(name, ir.LOOP), params)

    def may_grow(self, e, seen: frozenset = frozenset()) -> bool:
        """Can `e` compute a number, list or text larger than every value it reads?

        Only values made so are checked when stored (a value doubled in a loop is
        caught at once); reads, comparisons and picks from a list are not, so the
        common statements of a game's hot path pay nothing."""
        t = type(e)
        if t in _NEVER_GROWS:
            return False
        if t is ast.Str:
            return any(not isinstance(p, str) for p in e.parts)
        if t is ast.ListLit:  # as many items as the rule writes, each a value already held
            return len(e.items) > MAX_LIST or any(self.may_grow(i, seen) for i in e.items)
        if t is ast.BinOp:
            if e.op in _COMPARING_OPS:  # a truth, whatever it compares
                return False
            return e.op in _GROWING_OPS or self.may_grow(e.left, seen) or self.may_grow(e.right, seen)
        if t is ast.IfExpr:
            return self.may_grow(e.then, seen) or self.may_grow(e.otherwise, seen)
        if t is ast.Comprehension:  # several `for`s: as many items as their product
            return len(e.clauses) > 1 or self.may_grow(e.element, seen)
        if t is ast.Call:
            if self.tables.names.call(e) == "def":
                if e.func in seen:
                    return True
                return self.may_grow(self.tables.def_decls[e.func].body, seen | {e.func})
            return not (e.func in _PICKING_BUILTINS and self.tables.names.call(e) == "builtin")
        return True

    def compile_def(self, d: ast.Def) -> None:
        holder = self.tables.defs[d.name]
        if holder[0] is not None:
            return
        scope = Scope([p.name for p in d.params])
        holder[0] = _PENDING
        body = self.src(d.body, scope, {})
        # One generated function taking the list of arguments the call site makes as its
        # frame (widened for the slots of what it inlines). Only such a call can recurse,
        # so each spends a step of the budget and its result, if it may be larger than what
        # it reads (`may_grow`), is held to the value limits: `f(n - 1) * f(n - 1)` stops
        # instead of running on.
        name = f"_d_{d.name}"
        extra = scope.count - len(d.params)
        stmts: list[ir.Stmt] = [ir.Update(ir.BUDGET, "-", ir.Lit(1)), ir.OUT_OF_STEPS]
        if extra > 0:
            stmts.append(ir.Update(ir.Frame(), "+", ir.Tuple((ir.Lit(None),) * extra)))
        if passes.uses_vars(body):
            stmts.append(ir.PyAssign((ir.Local("V"),), ir.Attr(ir.VMRef(), "vars")))
        stmts.append(ir.PyReturn(ir.Cap(body, deep=True) if self.may_grow(d.body, frozenset({d.name})) else body))
        # lowered and compiled when first called (lazy.py)
        pending = lazy.Uncompiled("plain", name, _FRAME, tuple(stmts), False, file="<gamedef function>")
        holder[0] = lazy.stub(self.tables.ns, pending)

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
            if not isinstance(p.type, ast.NamedType) or p.type.name not in self.tables.types:
                return None
            domains.append(self.tables.types[p.type.name])
            size *= len(domains[-1])
        if size > TABLE_LIMIT or not self.static.static_def(decl.name):
            return None
        self.compile_def(decl)
        call = self.tables.defs[decl.name][0]
        table: dict = {}
        try:
            for combo in itertools.product(*domains):
                table[combo[0] if len(combo) == 1 else combo] = call(self.load_vm, list(combo))
        except GameDefError:
            raise
        except NOT_AT_LOAD:  # computed at run time instead, where an error names the rule
            return None
        self._tables[decl.name] = table
        return table


# Nodes that are values already held: computing one costs nothing and cannot fail.
_HELD = (ir.Lit, ir.Const, ir.Slot, ir.VarSlot, ir.Local, ir.Players)


def _coalesce(value, default):
    """`value ?? default` where value is computed (so not written twice)."""
    return default if value is None else value


def _coalesce_lazy(value, default):
    """`value ?? default()`: the default computed only if it is needed."""
    return default(None) if value is None else value


def _count_eq(items, value) -> int:
    """How many items equal `value` (a tuple counts them itself)."""
    if items.__class__ is tuple:
        return items.count(value)
    return sum([1 for y in items if y == value])


def _count_eq_charged(vm, items, value) -> int:
    """`_count_eq`, a list spending a step per item first, as `charge` spends."""
    if items.__class__ is tuple:
        vm.budget -= len(items)
        if vm.budget < 0:
            vm.out_of_steps()
        return items.count(value)
    return sum([1 for y in items if y == value])


def _reads_again(body, name: str) -> bool:
    """Does an expression read the name more than once, or in a comprehension or a
    function (`x => ...`), where it may be read once per item?"""
    n = 0
    for node in ast.walk(body):
        if isinstance(node, (ast.Comprehension, ast.Lambda)) and name in ast.names_in(node):
            return True
        if isinstance(node, ast.Name) and node.id == name:
            n += 1
    return n > 1


_TOO_DEEP = (
    "a rule is nested too deeply to compile",
    "split a long expression: name parts of it with `let` or `def`",
)
_FRAME = ("vm", "L")  # the parameters of an expression's function, a step's, a def's
_EXPRESSION = "<gamedef expression>"  # the file name of an expression's function
_OUT, _N, _S, _TOP = ir.Local("__out"), ir.Local("__n"), ir.Local("__s"), ir.Local("__top")


def lowered(make: Callable[..., tuple[ast_.Module, bytes]], *args: Any) -> tuple[ast_.Module, bytes]:
    """`make(*args)`: a module tree and its key (emit.py); code nested past what the
    lowering or Python's compiler takes (deep expressions, long inlined chains) is a
    LimitExceeded, not a crash."""
    try:
        return make(*args)
    except (RecursionError, MemoryError):
        raise LimitExceeded(*_TOO_DEEP) from None


def compiled(module: tuple[ast_.Module, bytes], name: str) -> CodeType:
    """Python's compile() of a generated module (from the code cache when it holds it)."""
    try:
        return codecache.compiled(module[0], module[1], name)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise LimitExceeded(*_TOO_DEEP) from None


_FAILED = object()
_PLACE = object()  # an argument's place in a template's key (`_shape`)


class _Renaming:
    """How a def's body built for some argument slots and variables becomes its body for
    others (`ExpressionCompiler._instance`): each of its own written as the new one
    (`mapping`). A generated function it calls (at any depth) that reads a renamed frame
    slot is copied under a new name, renamed the same way (lazy.py, `Uncompiled.renamed`),
    once; the others are shared. An expression variable inside a generated function is
    that function's parameter (its caller passes it), so only the calls are renamed.
    Holds the compiler's tables of generated functions, not the compiler."""

    __slots__ = ("mapping", "slots", "copies", "made", "facts", "numbers", "ns")

    def __init__(
        self,
        mapping: dict[ir.IRNode, ir.IRNode],
        made: dict[str, lazy.Uncompiled],
        facts: dict[str, tuple[frozenset[ir.IRNode], tuple[str, ...]]],
        numbers: Iterator[int],
        ns: dict[str, Any],
    ) -> None:
        self.mapping = mapping
        self.slots: dict[ir.IRNode, ir.IRNode] = {old: new for old, new in mapping.items() if type(old) is ir.Slot}
        self.copies: dict[str, str] = {}
        self.made, self.facts, self.numbers, self.ns = made, facts, numbers, ns

    def leaf(self, n: Any) -> Any:
        """A leaf of a tree written in place, renamed."""
        t = type(n)
        if t is ir.Local or t is ir.Slot:
            return self.mapping.get(n, n)
        if t is ir.Global and n.name in self.made:
            name = self.copied(n.name)
            return n if name == n.name else ir.Global(name, n.kind)
        return n

    def copied(self, name: str) -> str:
        """The name of generated function `name` renamed: a copy's, if it reads a renamed slot."""
        known = self.copies.get(name)
        if known is not None:
            return known
        read, calls = _facts(self.made, self.facts, name)
        if not self.slots or read.isdisjoint(self.slots):
            self.copies[name] = name
            return name
        names = {c: new for c in calls if (new := self.copied(c)) != c}
        new = self.copies[name] = f"{name.rstrip('0123456789')}{next(self.numbers)}"
        self.made[new] = pending = self.made[name].renamed(new, self.slots, names)
        self.facts[new] = (frozenset(self.slots.get(s, s) for s in read), tuple(names.get(c, c) for c in calls))
        lazy.stub(self.ns, pending)
        return new


def _facts(
    made: dict[str, lazy.Uncompiled], facts: dict[str, tuple[frozenset[ir.IRNode], tuple[str, ...]]], name: str
) -> tuple[frozenset[ir.IRNode], tuple[str, ...]]:
    """The frame slots generated function `name` reads, itself or through the generated
    functions it calls, and the generated functions it calls (each made before it, and
    never changed), kept in `facts`."""
    known = facts.get(name)
    if known is None:
        read: set[ir.IRNode] = set()
        calls: dict[str, None] = {}
        for s in made[name].stmts:
            for n in ir.walk(s):
                t = type(n)
                if t is ir.Slot:
                    read.add(n)
                elif t is ir.Global and n.name in made and n.name != name:
                    calls[n.name] = None
        for c in calls:
            read |= _facts(made, facts, c)[0]
        known = facts[name] = (frozenset(read), tuple(calls))
    return known


class _LoopCopy:
    """A loop `_loop` noted while a def's body was built, as a renamed copy of that body
    notes it: its clauses and element renamed (by each renaming in turn: a copy of a copy)
    only when `_loop_element` asks for them, which is seldom."""

    __slots__ = ("f", "parts", "element", "renamings")

    def __init__(self, f: str, parts: list, element: ir.IRNode, renamings: tuple[_Renaming, ...]) -> None:
        self.f, self.parts, self.element, self.renamings = f, parts, element, renamings

    @staticmethod
    def of(entry: Any, renaming: _Renaming) -> _LoopCopy:
        """`entry` (what `_loop` noted, or a copy of it) as `renaming` makes it."""
        if type(entry) is _LoopCopy:
            return _LoopCopy(entry.f, entry.parts, entry.element, (*entry.renamings, renaming))
        f, parts, element = entry
        return _LoopCopy(f, parts, element, (renaming,))

    def resolved(self) -> tuple:
        parts, element = self.parts, self.element
        for r in self.renamings:
            parts = [passes.renamed(p, r.leaf) for p in parts]
            element = passes.renamed(element, r.leaf)
        return (self.f, parts, element)


@attrs.frozen
class _Template:
    """A def's body written in place, built for the argument slots and variables `cores`
    (`ExpressionCompiler._shape`): its tree (None: too long to write in place), what the
    build noted of its syntax tree's root (`note`), and the sources of short lists and the
    loops it noted (`shorts`, `loops`), which its renamed copies note too."""

    body: Any = attrs.field(eq=False)
    cores: tuple[ir.IRNode, ...]
    result: ir.IRNode | None
    note: str
    shorts: tuple[ir.IRNode, ...]
    loops: tuple[tuple, ...]


_PENDING = object()  # a function being compiled (its own body may call it)


def _plain_literal(value: Any) -> bool:
    """Is `value` none, a truth or a number of no sign (never a list, read as written)?"""
    return value is None or isinstance(value, bool) or isinstance(value, int) and value >= 0


def _reads_variable(read: ir.IRNode) -> bool:
    """Is `read` (a hoistable read) an entry of a game variable?"""
    while type(read) is ir.Subscript:
        read = read.obj
    return type(read) is ir.VarSlot


def _width(node: ir.IRNode) -> int:
    """How wide `node` is (emit.width): what keeps inlined bodies in check (INLINE_LIMIT)."""
    return emit.width(node)


def _disjuncts(node: ir.IRNode) -> list[ir.IRNode]:
    """The operands of a chain of `or`s (`a or (b or c)`: a, b, c), or `node` alone."""
    node = ir.unwrapped(node)
    if type(node) is ir.PyBinOp and node.op == "or":
        return _disjuncts(node.left) + _disjuncts(node.right)
    return [node]


def _loop_call(name: str, free: list[str]) -> ir.IRNode:
    """The call of generated function `name`, with the frame and the variables `free`."""
    return ir.PyCall(ir.Global(name, ir.LOOP), (ir.VMRef(), ir.Frame(), *(ir.Local(v) for v in free)))


def _frozen(out: list) -> tuple[ir.Stmt, ...]:
    """The statements built by `_loop_head` (mutable while they are filled) as ir nodes."""
    stmts: list[ir.Stmt] = []
    for x in out:
        if type(x) is not tuple:
            stmts.append(x)
        elif x[0] == "for":
            stmts.append(ir.Loop(x[1], x[2], _frozen(x[3])))
        else:
            stmts.append(ir.When(x[1], _frozen(x[2])))
    return tuple(stmts)


def _sub_expressions(e) -> list:
    """The expressions directly inside `e` (its operands, arguments, items, parts)."""
    out: list = []
    names = _EXPRESSION_FIELDS.get(type(e))
    if names is None:
        names = _EXPRESSION_FIELDS[type(e)] = tuple(f.name for f in attrs.fields(type(e)) if f.name != "span")
    for name in names:
        value = getattr(e, name)
        if isinstance(value, tuple):
            out.extend(x for x in value if attrs.has(type(x)) and not isinstance(x, Span))
        elif attrs.has(type(value)) and not isinstance(value, Span):
            out.append(value)
    return out


_EXPRESSION_FIELDS: dict[type, tuple[str, ...]] = {}  # each syntax class's field names but its span
