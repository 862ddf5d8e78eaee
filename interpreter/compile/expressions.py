"""Expressions compiled to Python source, once, at load.

Each expression of a .game file becomes the text of one Python expression over the
frame's local slots `L`, the game's variables `V` and a namespace of constants,
field tables and built-ins; `compile()` turns it into a function `f(vm, L)`. Nested
names, comprehensions and calls thus run as native Python, with no closure per tree
node. On the way, pure functions are inlined, expressions that read no state are
computed once (constant folding), and pure functions of finite arguments are
tabulated.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import attrs

from interpreter.compile import codecache
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

Closure = Callable[[Any, list], Any]
TABLE_LIMIT = 4096
INLINE_LIMIT = 4000  # longest inlined source, to keep repeated arguments in check
FREE_ITEMS = 256  # a constant list this short is iterated without spending the step budget
SHORT_LOOP = 8  # a comprehension over a constant list this short is not worth a call to hoist its reads
_CONSTANT = re.compile(r"_k[0-9]+")
_TABLE = re.compile(r"(_[ft]_[A-Za-z0-9_]+)\[")
# Built-ins whose whole body is one Python expression (builtins.py): written in place of
# a call to them, one Python call less each time.
_INLINE = {
    "index_of": "{0}.index({1})",
    "append": "{0} + ({1},)",
    "concat": "tuple({0}) + tuple({1})",
    "sum": "sum({0})",
    "any": "any({0})",
    "all": "all({0})",
    "sort": "tuple(sorted({0}))",
    "first": "(({0}) or (None,))[0]",
    "last": "(({0}) or (None,))[-1]",
}
# Built-ins written out in the function that spends their lists' steps (`_charging`),
# whose parameters are a0, a1, ...: one call instead of two where they are hot.
_IN_CHARGING = {
    "without": ("if a1 in a0:", "    i = a0.index(a1)", "    return a0[:i] + a0[i + 1 :]", "return a0"),
}
# Comparisons of a count with a number that ask only whether a list is empty.
_EMPTINESS = {(">", 0), ("!=", 0), ("==", 0), (">=", 1), ("<", 1), ("<=", 0)}
_NONEMPTY = {(">", 0), ("!=", 0), (">=", 1)}
# In generated source: a string literal (as repr writes it), a comprehension variable,
# and the places that bind one.
_STRINGS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_LOOP_CALL = re.compile(r"\b(_(?:any|all|count|first|sum|best|in|list)[0-9]+)\(")
# A source that computes (calls a function, makes a list), rather than reading a value.
_COMPUTES = re.compile(r"\w\(|\bfor\b")
_VARIABLE = re.compile(r"\b_v[0-9]+\b")
_BINDER = re.compile(r"(?:\bfor|\blambda) (_v[0-9]+)\b")
_ITEMS_OF = re.compile(r"tuple\(\[_v[0-9]+ for (_v[0-9]+) in (.*)\]\)", re.DOTALL)
# Expressions whose value is never none (so `max(a, b)` means the larger of the two).
_NEVER_NONE = (ast.Int, ast.Str, ast.Bool, ast.BinOp, ast.Not, ast.Neg, ast.ListLit, ast.Comprehension, ast.Range)


def _never_none(e) -> bool:
    """True if `e` can't be none: a literal, arithmetic, a comparison, a list it makes
    (`a or b` may be either operand, so not `and`/`or`)."""
    return isinstance(e, _NEVER_NONE) and not (isinstance(e, ast.BinOp) and e.op in ("and", "or"))


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


class Scope:
    """Local names of one code body, each given a slot in the frame.

    An inlined function body gets a child scope: it sees only its parameters (bound
    to the caller's argument sources in `env`), while the slots it needs are
    allocated in the caller's frame.
    """

    def __init__(self, names=(), root: Scope | None = None, env: dict | None = None, static_names: set | None = None):
        self.slots: dict[str, int] = {}
        self.root = root
        self.env: dict[str, str] = env or {}
        self.static_env = static_names or set()
        self._count = 0
        self.owner = ""  # the procedure whose locals these are, when it is inlined in another
        self.named: dict[int, tuple[str, str]] = {}  # (the root's) each slot's (name, procedure)
        for n in names:
            self.bind(n)

    @property
    def count(self) -> int:
        return self.root.count if self.root is not None else self._count

    def bind(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = slot = self.fresh()
            root = self.root if self.root is not None else self
            root.named[slot] = (name, self.owner)
        return self.slots[name]

    def fresh(self) -> int:
        if self.root is not None:
            return self.root.fresh()
        self._count += 1
        return self._count - 1


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


class ExpressionCompiler:
    """Mixed into the compiler: turns expressions into fast Python functions."""

    def _init_expressions(self) -> None:
        self.ns: dict[str, Any] = {
            "_disp": self.rt.display,
            "_T": Text,
            "_charge": charge,
            "_range": checked_range,
            "_cap": capped,
            "_MAX_INT": MAX_INT,
            "_MAX_LIST": MAX_LIST,
            "_cap_deep": capped_deep,
            "_count_eq": _count_eq,
            "_count_eq_charged": _count_eq_charged,
        }
        self.load_vm = LoadBudget(self.seats)  # what constants computed at load may spend
        for name, b in BUILTINS.items():
            self.ns[f"_b_{name}"] = b.factory(self.rt)
        self.ns["_b_count"] = len
        self.ns["_always_true"] = always_true
        self._names = itertools.count()
        self._inlining: list[str] = []
        self._static_stack: list[str] = []
        self._tables: dict[str, dict | None] = {}
        self._self_fields: set[str] = set()
        self._short_mode = False
        self._folding = False
        self._plain_lists = False  # comprehensions written as they are, never as `_hoisted_list` calls
        self._shallow_at: int | None = None  # inlining depth past which defs are called, not inlined
        # id of a list expression -> (it, "paid" | "short" | ""), as last compiled: see `_note`
        self._list_notes: dict[int, tuple[Any, str]] = {}
        self._short_tables: dict[str, bool] = {}  # field or function table -> all its lists are short
        # Sources of short lists: comprehension variables bound to the short lists of a constant
        # (or of a list of lists written in the rule), and lists written in the rule passed to a def.
        self._short_vars: set[str] = set()
        self._fields_final = False  # set once every component and its fields are known
        self._pending_loops: dict[str, str] = {}  # loop functions made, not yet compiled: their source
        self._loops_made: dict[str, tuple] = {}  # a call of a loop function (`_loop`): its kind, clauses, element

    # ---- entry points --------------------------------------------------------
    def expr(self, e: ast.Expr, scope: Scope) -> Closure:
        """A function (vm, L) -> value computing `e`."""
        if self.is_static(e, scope, set()) and not isinstance(e, ast.Lambda):
            value = self._evaluate_static(e, scope)
            if value is not _FAILED:
                return lambda vm, L: value
        return self._function(self.src(e, scope, {}))

    def _function(self, source: str) -> Closure:
        uses_vars = "V[" in source
        text = "def _f(vm, L):\n" + ("    V = vm.vars\n" if uses_vars else "") + f"    return {source}\n"
        self.link_loops(text)
        local: dict[str, Any] = {}
        exec(compile_source(text, "<gamedef expression>"), self.ns, local)  # noqa: S102
        return local["_f"]

    def _evaluate_static(self, e, scope):
        if self._folding:  # already inside a fold: its value is computed once, at the top
            return _FAILED
        self._folding = True
        try:
            value = self._function(self.src(e, scope, {}))(self.load_vm, [None] * (scope.count + 1))
        except GameDefError:
            raise
        except Exception:  # let it fail at run time (or where the constant is needed), where the error names the rule
            return _FAILED
        finally:
            self._folding = False
        return _FAILED if callable(value) else value

    def _literal(self, value: Any) -> str:
        if value is None or isinstance(value, bool | int | str):
            return repr(value)
        name = f"_k{next(self._names)}"
        self.ns[name] = value
        return name

    # ---- source generation --------------------------------------------------------
    def src(self, e, scope: Scope, py: dict[str, str]) -> str:
        if isinstance(e, ast.Comprehension | ast.Call | ast.ListLit | ast.Range) and self.is_static(
            e, scope, set(), frozenset(py)
        ):
            value = self._evaluate_static(e, scope)
            if value is not _FAILED:
                return self._literal(value)
        return getattr(self, "_g_" + type(e).__name__)(e, scope, py)

    def _g_Int(self, e, scope, py):
        return repr(e.value)

    def _g_Bool(self, e, scope, py):
        return repr(e.value)

    def _g_NoneLit(self, e, scope, py):
        return "None"

    def _g_Str(self, e: ast.Str, scope, py):
        parts = [repr(p) if isinstance(p, str) else f"_disp({self.src(p, scope, py)})" for p in e.parts]
        if not parts:
            return "_T('')"
        return "_T(" + " + ".join(parts) + ")"  # a Text: shown as written, never read as a name

    def _g_Name(self, e: ast.Name, scope, py):
        n = e.id
        if n in py:
            return py[n]
        if n in scope.slots:
            return f"L[{scope.slots[n]}]"
        if n in scope.env:
            return f"({scope.env[n]})"
        if n in self._self_fields and self._short_mode:
            return f"L[0][{n!r}]"  # a `short` template reads a dict of the visible fields
        if n in self.vars:
            return f"V[{self.vars[n].slot}]"
        if n in self.options:
            return self._literal(self.options[n])
        if n == "players":
            return "vm.players"
        if n in self.constants:
            return self._literal(self.constants[n])
        if n in self.defs:
            return self._g_Call(ast.Call(span=e.span, func=n, args=()), scope, py)
        if n in self._self_fields and "self" in scope.slots:
            return self._g_Member(ast.Member(span=e.span, obj=ast.Name(span=e.span, id="self"), name=n), scope, py)
        known = list(py) + list(scope.slots) + list(self.vars) + list(self.options) + list(self.constants)
        raise GameDefError([Diagnostic(e.span, f"unknown name '{n}'", did_you_mean(n, known))])

    def _g_ListLit(self, e, scope, py):
        if not e.items:
            return "()"
        return "(" + ", ".join(self.src(i, scope, py) for i in e.items) + ",)"

    def _bind(self, py: dict, name: str) -> tuple[dict, str]:
        inner = dict(py)
        inner[name] = f"_v{next(self._names)}"
        return inner, inner[name]

    def _needs_charge(self, e, source: str) -> bool:
        """Must the list `e` (compiled to `source`) spend the step budget per item where it
        is iterated or read whole? Not if it is bounded at load (a short constant, the
        seats, a short list from a field or a tabulated function): those cost a bounded
        amount per evaluation, and evaluations are counted where they loop. Not if making
        it already spent a step per item (`_paid`). Not if it is no list at all (a number,
        a truth, a text): `_charge` would pass it free."""
        if not self._may_be_list(e):
            return False
        core = _unwrapped(source)
        if core == "vm.players" or core in ("None", "True", "False") or core.isdigit():
            return False
        if _CONSTANT.fullmatch(core):
            value = self.ns.get(core)
            return isinstance(value, tuple) and len(value) > FREE_ITEMS
        if core in self._short_vars:  # an item of a constant list of short lists: short itself
            return False
        return not (self._bounded(e, core) or self._paid(e, source))

    def _may_be_list(self, e) -> bool:
        """False if `e` is surely no list: a literal, arithmetic, a comparison, a truth, a
        function, or a built-in returning a number, truth or text."""
        t = type(e)
        if t in (ast.Int, ast.Bool, ast.NoneLit, ast.Str, ast.Not, ast.Neg, ast.Lambda):
            return False
        if t is ast.BinOp:
            return e.op in ("+", "*") and (self._may_be_list(e.left) or self._may_be_list(e.right))
        if t is ast.Call and e.func in BUILTINS and e.func not in self.defs and e.func not in self.queries:
            return BUILTINS[e.func].returns not in ("int", "bool", "str")
        return True

    def _bounded(self, e, core: str) -> bool:
        """Is `e` a list of at most FREE_ITEMS items, fixed by the rule and the components: a
        read from a field or a tabulated function whose every value is that short, or one
        noted "short" (a single `for` over such a list)? A list literal is not: `for z in [x]`
        is a loop's turn like any other, and spends its step.
        (Fields only once every component is made: before, a table may still grow.)"""
        if self._noted(e) == "short":
            return True
        table = _table_read(core)
        if table is None or (table.startswith("_f_") and not self._fields_final):
            return False
        if not isinstance(self.ns.get(table), dict):
            return False
        if table not in self._short_tables:
            values = self.ns[table].values()
            self._short_tables[table] = all(v.__class__ is not tuple or len(v) <= FREE_ITEMS for v in values)
        return self._short_tables[table]

    def _items_short(self, core: str) -> bool:
        """Is every item of the list `core` (a constant, or a read from a function table)
        itself a list of at most FREE_ITEMS items, fixed at load? Then a variable running
        over it holds a short list, read free like one (a line of a tic-tac-toe board)."""

        def short_lists(value) -> bool:
            return isinstance(value, tuple) and all(x.__class__ is tuple and len(x) <= FREE_ITEMS for x in value)

        if _CONSTANT.fullmatch(core):
            return short_lists(self.ns.get(core))
        table = _table_read(core)
        if table is None or not table.startswith("_t_") or not isinstance(self.ns.get(table), dict):
            return False
        return all(short_lists(v) for v in self.ns[table].values())

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
        if t is ast.Call and e.func in self.def_decls and e.func not in self.queries and e.func not in seen:
            return self._makes_short_lists(self.def_decls[e.func].body, seen | {e.func})
        return False

    def _paid(self, e, source: str) -> bool:
        """Did making the list `e` already spend at least a step per item it has? A range
        (`_range` spends its size), a comprehension whose last `for` spent its items, a
        joined, sorted or shortened list whose list arguments spent theirs. Reading such a
        list again costs no more than making it did, so it is not charged twice. A list
        computed once at load (a constant) was not made here: never paid."""
        if _CONSTANT.fullmatch(_unwrapped(source)):
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
            if e.func in self.defs or e.func in self.queries or e.func not in BUILTINS:
                return e.func in ("members", "initial") and all(self._leaf(a) for a in e.args)
            b = BUILTINS[e.func]
            if b.charges or b.takes_vm:
                return False
        return all(self._leaf(child) for child in _sub_expressions(e))

    def _clauses(self, e: ast.Comprehension, scope, py) -> tuple[list[str], str]:
        """The Python clauses of a comprehension, `for v in xs`, each source spending
        the step budget as `_needs_charge` says (and always, unless a leaf: see `_leaf`),
        and `if c`, and the element's source."""
        parts = []
        last_spent = short = False
        leaf = len(e.clauses) == 1 and self._leaf(e.element) and self._leaf(e.clauses[0].condition)
        for clause in e.clauses:  # Python's order: the first clause is the outer loop
            source = self.src(clause.iterable, scope, py)
            last_spent = self._paid(clause.iterable, source)
            if not leaf and not last_spent and self._may_be_list(clause.iterable):
                source = f"_charge(vm, {source})"
                last_spent = True
            elif self._needs_charge(clause.iterable, source):
                source = f"_charge(vm, {source})"
                last_spent = True
            # one `for` over a short list: as short
            short = not last_spent and len(e.clauses) == 1 and self._may_be_list(clause.iterable)
            py, v = self._bind(py, clause.var)
            if self._items_short(_unwrapped(self.src(clause.iterable, scope, py))) or self._makes_short_lists(
                clause.iterable
            ):
                self._short_vars.add(v)  # each item is a short list fixed at load, or by the rule's text
            parts.append(f"for {v} in {source}")
            if clause.condition is not None:
                parts.append(f"if {self.src(clause.condition, scope, py)}")
        # Its items are at most the turns of its last `for`: paid for if those were.
        self._note(e, "paid" if last_spent else "short" if short else "")
        return parts, self.src(e.element, scope, py)

    def _g_Comprehension(self, e: ast.Comprehension, scope, py):
        parts, elem = self._clauses(e, scope, py)
        if len(parts) == 1 and parts[0].startswith(f"for {elem} in "):  # [x for x in xs]: the items
            return f"tuple({parts[0][len(f'for {elem} in ') :]})"
        source = f"tuple([{elem} {' '.join(parts)}])"
        return source if self._plain_lists else self._hoisted_list(source, parts[0])

    def _hoisted_list(self, source: str, first: str) -> str:
        """A comprehension whose items read the same entry at every turn (`influence[s]`
        while it runs over countries) as a call of a generated function reading it once,
        before the comprehension, as a loop function does (`_with_hoisted`). Only where
        that saves more than the call costs: not over the seats or a short constant."""
        code = _STRINGS.sub("''", source)
        bound = set(_BINDER.findall(code))
        if code != source or not any(r.startswith("V") for r in _hoistable(code, bound)):
            return source
        items = _unwrapped(first.split(" in ", 1)[1])
        if _whole_call(items, ("_charge(",)):
            items = _unwrapped(items[len("_charge(vm, ") : -1])
        value = self.ns.get(items) if _CONSTANT.fullmatch(items) else None
        if items == "vm.players" or isinstance(value, tuple) and len(value) < SHORT_LOOP:
            return source
        free = sorted(set(_VARIABLE.findall(code)) - bound, key=lambda v: int(v[2:]))
        params = ", ".join(["vm", "L", *free])
        name = f"_list{next(self._names)}"
        self._pending_loops[name] = _with_hoisted(name, params, f"    return {source}", bound)
        return f"{name}({params})"

    def _g_Range(self, e, scope, py):
        return f"_range(vm, {self.src(e.low, scope, py)}, {self.src(e.high, scope, py)})"

    def _g_BinOp(self, e: ast.BinOp, scope, py):
        left = e.left
        if (
            isinstance(left, ast.Call)
            and left.func == "count"
            and len(left.args) == 1
            and isinstance(e.right, ast.Int)
            and (e.op, e.right.value) in _EMPTINESS
            and "count" not in self.defs
            and "count" not in self.queries
        ):  # `count(xs) > 0` asks only whether there is one: stop at the first
            self._plain_lists = True  # (as written: its clauses are read here)
            try:
                arg = _unwrapped(self.src(left.args[0], scope, py))
            finally:
                self._plain_lists = False
            if _whole_call(arg, ("_b_path_steps(", "_dl_path_steps(")):
                return f"(len({arg[:-1]}, first=True)) {_OPS[e.op]} {e.right.value})"
            found = _ITEMS_OF.fullmatch(arg)  # [x for ... in ...]: its items, no value computed
            if found is not None and _closing(arg, 5) == len(arg) - 1 and _closing(arg, 6) == len(arg) - 2:
                parts = _clause_parts(f"{found.group(1)} in {found.group(2)}")
                exists = self._loop("any", parts, "True")
                return exists if (e.op, e.right.value) in _NONEMPTY else f"(not {exists})"
            if not isinstance(left.args[0], ast.Comprehension):  # a list as it is: empty or not, no call
                return f"(not not {arg})" if (e.op, e.right.value) in _NONEMPTY else f"(not {arg})"
        return f"({self.src(e.left, scope, py)} {_OPS[e.op]} {self.src(e.right, scope, py)})"

    def _g_Not(self, e, scope, py):
        return f"(not {self.src(e.operand, scope, py)})"

    def _g_Neg(self, e, scope, py):
        return f"(-{self.src(e.operand, scope, py)})"

    def _g_IfExpr(self, e, scope, py):
        c, t, f = (self.src(x, scope, py) for x in (e.condition, e.then, e.otherwise))
        if all(self._short_constant(x) for x in (t, f)):  # one of two short lists fixed at load
            self._note(e, "short")
        return f"({t} if {c} else {f})"

    def _short_constant(self, source: str) -> bool:
        """Is `source` a constant list of at most FREE_ITEMS items (made at load)?"""
        core = _unwrapped(source)
        value = self.ns.get(core) if _CONSTANT.fullmatch(core) else None
        return isinstance(value, tuple) and len(value) <= FREE_ITEMS

    def _g_Member(self, e: ast.Member, scope, py):
        if e.name not in self.fields and e.name not in ("title", "text"):
            raise GameDefError(
                [Diagnostic(e.span, f"no component has a property '{e.name}'", did_you_mean(e.name, self.fields))]
            )
        table = f"_f_{e.name}"
        self.ns[table] = self.fields.setdefault(e.name, {})
        obj = self.src(e.obj, scope, py)
        if e.name in self.changeable:  # its current value: the query of the same name
            call = f"_q_{e.name}(vm, ({obj},))"
            guard = self.query_guards.get(e.name)
            if guard is None or _COMPUTES.search(_STRINGS.sub("''", obj)):
                return call
            # the component's own value while no modifier of it is in force (`_call_query`)
            test = " and ".join(f"V[{slot}] is _qi_{e.name}[{i}]" for i, slot in enumerate(guard))
            return f"({table}[{obj}] if ({test}) else {call})" if guard else f"{table}[{obj}]"
        return f"{table}[{obj}]"

    def _g_Index(self, e: ast.Index, scope, py):
        keys = [e.key]
        base = e.obj
        while isinstance(base, ast.Index):  # m[a][b]: the keys, outer first
            keys.insert(0, base.key)
            base = base.obj
        n = getattr(base, "id", None)
        if n in self.vars and n not in scope.slots and n not in py and n not in scope.env:
            info = self.vars[n]
            out = f"V[{info.slot}]"
            for depth, key in enumerate(keys):
                k = self.src(key, scope, py)
                if depth < len(info.levels):
                    index = f"_i{info.slot}_{depth}"
                    self.ns[index] = info.levels[depth][1]
                    k = f"{index}[{k}]"
                out += f"[{k}]"
            return out
        return f"{self.src(e.obj, scope, py)}[{self.src(e.key, scope, py)}]"

    def _g_Lambda(self, e: ast.Lambda, scope, py):
        inner, v = self._bind(py, e.param)
        body = self.src(e.body, scope, inner)
        if body == "True":  # one shared function: a search told "every end is fine" skips the test
            return "_always_true"
        return f"(lambda {v}: {body})"

    def _g_Call(self, e: ast.Call, scope, py):
        f = e.func
        if f in DYNAMIC or f == "neighbours":
            links = self._links_call(e, scope, py)
            if links is not None:
                return links
        if f in self.queries:  # a query asks the modifiers in force: never folded
            return self._call_query(e, scope, py)
        if f in self.defs:
            return self._call_def(e, scope, py)
        if f == "members":
            arg = e.args[0] if e.args else None
            if isinstance(arg, ast.Name) and arg.id == "player":
                return "vm.players"
            if isinstance(arg, ast.Name) and arg.id in self.types:
                return self._literal(self.types[arg.id])
            raise GameDefError([Diagnostic(e.span, "members(...) takes a type name", "for example members(Suit)")])
        if f == "initial":
            return f"_disp({self.src(e.args[0], scope, py)})[:1].upper()"
        if f not in BUILTINS:
            raise GameDefError(
                [Diagnostic(e.span, f"unknown function '{f}'", did_you_mean(f, list(BUILTINS) + list(self.defs)))]
            )
        return self._builtin_call(e, scope, py)

    def _links_call(self, e: ast.Call, scope, py) -> str | None:
        """`neighbours(x)` read from the map's links in place (and the state's added links
        when there are any); the other link built-ins from the state when links are added
        in play. None: an ordinary call."""
        f = e.func
        if f == "neighbours" and len(e.args) == 1 and f not in self.defs and f not in self.queries:
            # the map's own links, read in place; links added in play, when there are any
            node = self.src(e.args[0], scope, py)
            self.ns["_links"] = self.rt.links
            if not self.dynamic_links:
                return f"_links.get({node}, ())"
            return f"(_links.get({node}, ()) if not V[{self.links_slot}] else _dl_neighbours(vm, {node}))"
        if f in DYNAMIC and self.dynamic_links:  # links added in play: read from the state
            return f"_dl_{f}(vm, {', '.join(self.src(a, scope, py) for a in e.args)})"
        return None

    def _builtin_call(self, e: ast.Call, scope, py) -> str:
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
        args = [self.src(a, scope, py) for a in e.args]
        if b.charges:  # a list argument spends one step per item, unless `_needs_charge` says not
            charged = [self._needs_charge(a, s) for a, s in zip(e.args, args)]
            if any(isinstance(a, ast.Lambda) and not self._leaf(a.body) for a in e.args):
                # a function called per item that does work of its own: every item spends
                pairs = zip(charged, e.args, args)
                charged = [c or (self._may_be_list(a) and not self._paid(a, s)) for c, a, s in pairs]
            if f in _LIST_ARGS:  # its result is no longer than its list arguments (+1)
                lists = [i for i in _LIST_ARGS[f] if i < len(args)]
                if all(charged[i] or self._paid(e.args[i], args[i]) for i in lists):
                    self._note(e, "paid")
                elif f not in ("concat", "append") and not any(charged[i] for i in lists):
                    self._note(e, "short")  # a short list, shortened or reordered
                else:
                    self._note(e, "")
            if any(charged) and not b.takes_vm:
                return f"{self._charging(f, charged)}(vm, {', '.join(args)})"
            args = [f"_charge(vm, {a})" if c else a for a, c in zip(args, charged)]
            if f in ("max", "min") and len(args) == 2 and _never_none(e.args[1]):
                return f"{f}({args[0]}, {args[1]})"  # Python's own: no `b is None` test, no call between
        if f in _INLINE and _INLINE[f].count("{") == len(args) and not b.takes_vm:
            return "(" + _INLINE[f].format(*(f"({a})" for a in args)) + ")"  # its body, in place
        if b.takes_vm:
            args.insert(0, "vm")
        return f"_b_{f}({', '.join(args)})"

    def _loop(self, f: str, parts: list[str], elem: str) -> str:
        """`any`, `all`, `count`, `first` or `sum` of a comprehension (or `best` of a list by a
        score written as a lambda) as a call of a generated
        function whose loops return as soon as the answer is known. A generator expression
        (`any(x for ...)`) costs a generator object and a resumption per item, which in
        short lists (a line of three squares) is most of the work; plain loops in one
        call are about twice as fast. An element that is itself such a loop over one
        list (`any(all(... for x in line) for line in lines)`) is written in place, and
        a list's steps are spent inline as `charge` spends them. The function takes the
        frame and the comprehension variables of the expression around it it reads."""
        lines: list[str] = []
        pad = self._loop_head(parts, "    ", lines)
        elem = self._loop_element(elem, pad, lines)
        if f == "any":
            lines.append(f"{pad}if {elem}: return True")
            first, last = [], "    return False"
        elif f == "all":
            lines.append(f"{pad}if not {elem}: return False")
            first, last = [], "    return True"
        elif f == "first":  # the first item: the later ones are never computed
            lines.append(f"{pad}return {elem}")
            first, last = [], "    return None"
        elif f == "sum":
            lines.append(f"{pad}__n += {elem}")
            first, last = ["    __n = 0"], "    return __n"
        elif f == "best":  # the items of the highest score, in their order
            item = parts[0].split()[1]
            lines.append(f"{pad}__s = {elem}")
            lines.append(f"{pad}if __out is None or __s > __top: __top, __out = __s, [{item}]")
            lines.append(f"{pad}elif __s == __top: __out.append({item})")
            first, last = ["    __top = __out = None"], "    return () if __out is None else tuple(__out)"
        else:  # count: the element is never computed
            lines.append(f"{pad}__n += 1")
            first, last = ["    __n = 0"], "    return __n"
        body = "\n".join(first + lines + [last])
        code = _STRINGS.sub("''", body)
        free = sorted(set(_VARIABLE.findall(code)) - set(_BINDER.findall(code)), key=lambda v: int(v[2:]))
        params = ", ".join(["vm", "L", *free])
        name = f"_{f}{next(self._names)}"
        text = _with_hoisted(name, params, body, set(_BINDER.findall(code)))
        self._pending_loops[name] = text  # compiled once a compiled source calls it (`link_loops`)
        call = f"{name}({params})"
        self._loops_made[call] = (f, parts, elem)
        return call

    def link_loops(self, text: str) -> None:
        """Compile the loop functions (`_loop`) that the source `text`, about to be
        compiled, calls, and those they call. One written in place in another's loop
        (`_loop_element`) is never called, and never compiled: compiling is most of a
        load's time."""
        for name in _LOOP_CALL.findall(text):
            pending = self._pending_loops.pop(name, None)
            if pending is not None:
                self.link_loops(pending)
                exec(compile_source(pending, "<gamedef loop>"), self.ns)  # noqa: S102

    def _loop_head(self, parts: list[str], pad: str, lines: list[str]) -> str:
        """The `for` and `if` lines of a loop's clauses; the indentation of its body."""
        for part in parts:
            head, _, source = part.partition(" in ")
            if part.startswith("for ") and source.startswith("_charge(vm, ") and _whole_call(source, ("_charge(",)):
                items = f"__i{next(self._names)}"
                lines.append(f"{pad}{items} = {source[len('_charge(vm, ') : -1]}")
                lines.append(f"{pad}if {items}.__class__ is tuple:")
                lines.append(f"{pad}    vm.budget -= len({items})")
                lines.append(f"{pad}    if vm.budget < 0: vm.out_of_steps()")
                part = f"{head} in {items}"
            lines.append(f"{pad}{part}:")
            pad += "    "
        return pad

    def _loop_element(self, elem: str, pad: str, lines: list[str]) -> str:
        """`elem`, or, if it is a call of a loop made by `_loop` over one list, a local
        its loop (written here) leaves its answer in."""
        made = self._loops_made.get(elem)
        if made is None or made[0] in ("first", "sum", "best") or sum(p.startswith("for ") for p in made[1]) != 1:
            return elem
        f, parts, inner = made
        result = f"__r{next(self._names)}"
        lines.append(f"{pad}{result} = {'True' if f == 'all' else 'False' if f == 'any' else '0'}")
        body = self._loop_head(parts, pad, lines)
        inner = self._loop_element(inner, body, lines)
        if f == "any":
            lines.extend([f"{body}if {inner}:", f"{body}    {result} = True", f"{body}    break"])
        elif f == "all":
            lines.extend([f"{body}if not {inner}:", f"{body}    {result} = False", f"{body}    break"])
        else:
            lines.append(f"{body}{result} += 1")
        return result

    def _count_equal(self, e: ast.Call, scope, py) -> str | None:
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
                items = self.src(clause.iterable, scope, py)
                if _unwrapped(items) in self._short_vars:  # a short list, so a tuple: its own count
                    return f"{items}.count({self.src(other, scope, py)})"
                counter = "_count_eq_charged(vm, " if self._needs_charge(clause.iterable, items) else "_count_eq("
                return f"{counter}{items}, {self.src(other, scope, py)})"
        return None

    def _charging(self, f: str, charged: list[bool]) -> str:
        """The name of a function calling the built-in `f` after spending the step budget
        for the arguments marked in `charged` that are lists: one call in the compiled
        source instead of a `_charge` call per argument (made once per pattern)."""
        name = f"_bc_{f}_{''.join('1' if c else '0' for c in charged)}"
        if name not in self.ns:
            params = [f"a{i}" for i in range(len(charged))]
            lines = [f"def {name}(vm, {', '.join(params)}):"]
            for p, c in zip(params, charged):
                if c:
                    lines.append(f"    if {p}.__class__ is tuple:")
                    lines.append(f"        vm.budget -= len({p})")
                    lines.append("        if vm.budget < 0: vm.out_of_steps()")
            if f in _IN_CHARGING and len(params) == 2:
                lines.extend("    " + line for line in _IN_CHARGING[f])
            elif f in _INLINE and _INLINE[f].count("{") == len(params):
                lines.append(f"    return {_INLINE[f].format(*params)}")
            else:
                lines.append(f"    return _b_{f}({', '.join(params)})")
            exec(compile_source("\n".join(lines) + "\n", "<gamedef built-in call>"), self.ns)  # noqa: S102
        return name

    def _call_def(self, e: ast.Call, scope, py):
        decl = self.def_decls[e.func]
        args = [self.src(a, scope, py) for a in e.args]
        self._note(e, "")
        if isinstance(decl.body, ast.Bool | ast.Int | ast.NoneLit):
            # a constant, whatever its arguments (a rule a variant may change): as an inlined
            # body whose parameters it never reads
            return self.src(decl.body, scope, py)
        table = self._table(decl) if self.optimise else None
        if table is not None:  # a pure function of finite arguments: looked up, not computed
            name = f"_t_{e.func}"
            self.ns[name] = table
            key = args[0] if len(args) == 1 else "(" + ", ".join(args) + ",)"
            return f"{name}[{key}]"
        inlined = self._inlined(decl, e, args, scope, py)
        if inlined is not None:
            return inlined
        self._compile_def(decl)
        return f"_d_{e.func}(vm, [{', '.join(args)}])"

    def _call_query(self, e: ast.Call, scope, py) -> str:
        """A query's call: its base written in place, as a def's body is, while the
        variables that decide whether a modifier of it is in force hold the values last
        seen with none (`_qi_NAME`, see modifiers.py); else, or if it can't be written in
        place, a call that applies the modifiers in force."""
        f = e.func
        args = [self.src(a, scope, py) for a in e.args]
        call = f"_q_{f}(vm, ({''.join(a + ', ' for a in args)}))"
        guard = self.query_guards.get(f)
        q = self.query_decls.get(f)
        if (
            not self.optimise
            or guard is None
            or q is None
            or any(_COMPUTES.search(_STRINGS.sub("''", a)) for a in args)
        ):
            return call  # (an argument that computes would be written twice)
        base = self._inlined(ast.Def(span=q.span, name=f, params=q.params, body=q.base), e, args, scope, py)
        if base is None:
            return call
        if not guard:  # no modifier of it anywhere in the game
            return base
        test = " and ".join(f"V[{slot}] is _qi_{f}[{i}]" for i, slot in enumerate(guard))
        return f"({base} if ({test}) else {call})"

    def _inlined(self, decl: ast.Def, e: ast.Call, args: list[str], scope, py) -> str | None:
        """The body of `decl` written in place of the call `e` (argument sources `args`),
        or None if it calls itself, nests too deep or is too long.

        A body too long with every def it calls written in place too is written again
        with those calls left as calls: the call's own tests (`complete[p][i] > 0 and
        ...`) then run in place, and the defs behind them only when reached."""
        if not self.optimise:
            return None
        if self._shallow_at is not None and len(self._inlining) > self._shallow_at:
            return None  # (inside a body written with its calls left as calls)
        if e.func not in self._inlining and len(self._inlining) < 8 and len(args) == len(decl.params):
            root = scope.root if scope.root is not None else scope
            static = {p.name for p, a in zip(decl.params, e.args) if self.is_static(a, scope, set(), frozenset(py))}
            env = {p.name: a for p, a in zip(decl.params, args)}
            for a, source in zip(e.args, args):  # a list written in the rule: short, as a constant's items are
                if type(a) is ast.ListLit and len(a.items) <= FREE_ITEMS:
                    self._short_vars.add(_unwrapped(source))
            bound = []  # (the variable a parameter becomes, its argument's source)
            for p, source in zip(decl.params, args):
                if _COMPUTES.search(_STRINGS.sub("''", source)) and _reads_again(decl.body, p.name):
                    env[p.name] = f"_v{next(self._names)}"
                    bound.append((env[p.name], source))
                    if _unwrapped(source) in self._short_vars:
                        self._short_vars.add(env[p.name])
            self._inlining.append(e.func)
            try:
                # The body sees only its parameters, bound to the caller's argument sources.
                body = self.src(decl.body, Scope(root=root, env=env, static_names=static), {})
                if len(body) > INLINE_LIMIT and self._shallow_at is None:
                    self._shallow_at = len(self._inlining)
                    try:
                        body = self.src(decl.body, Scope(root=root, env=env, static_names=static), {})
                    finally:
                        self._shallow_at = None
            finally:
                self._inlining.pop()
            if len(body) <= INLINE_LIMIT:
                self._note(e, self._noted(decl.body))  # as its body costs to read again
                return self._with_arguments(body, bound) if bound else body
        return None

    def _with_arguments(self, body: str, bound: list[tuple[str, str]]) -> str:
        """An inlined def's `body` as a call of a generated function whose parameters are
        the arguments `bound`: a computed argument that the body reads more than once (or
        in a loop) is computed once, as a def's arguments are, not once per reading."""
        code = _STRINGS.sub("''", body)
        names = [v for v, _ in bound]
        call = _LOOP_CALL.match(code) if code == body else None  # (no texts: replaced as text)
        if call is not None and _closing(code, call.end() - 1) == len(code) - 1:
            # The body is one call of a loop function, which takes each variable read in its
            # loop as a parameter: an argument it reads once, in its own arguments, is
            # computed once there.
            args = code[call.end() : -1]
            if all(len(re.findall(rf"\b{v}\b", code)) == 1 and re.search(rf"(?:^|, ){v}(?:,|$)", args) for v in names):
                for v, source in bound:
                    body = re.sub(rf"\b{v}\b", lambda _m, s=source: f"({s})", body)
                return body
        free = sorted(set(_VARIABLE.findall(code)) - set(_BINDER.findall(code)) - set(names), key=lambda v: int(v[2:]))
        name = f"_in{next(self._names)}"
        uses_vars = "V[" in code
        text = f"def {name}({', '.join(['vm', 'L', *free, *names])}):\n"
        text += ("    V = vm.vars\n" if uses_vars else "") + f"    return {body}\n"
        self._pending_loops[name] = text  # compiled once a compiled source calls it
        return f"{name}({', '.join(['vm', 'L', *free, *(source for _, source in bound)])})"

    def _compile_def(self, d: ast.Def) -> None:
        holder = self.defs[d.name]
        if holder[0] is not None:
            return
        scope = Scope([p.name for p in d.params])
        holder[0] = _PENDING
        source = self.src(d.body, scope, {})
        # One generated function taking the list of arguments the call site makes as its
        # frame (widened for the slots of what it inlines). Only such a call can recurse,
        # so each spends a step of the budget and its result, if it may be larger than what
        # it reads (`may_grow`), is held to the value limits: `f(n - 1) * f(n - 1)` stops
        # instead of running on.
        name = f"_d_{d.name}"
        extra = scope.count - len(d.params)
        text = (
            f"def {name}(vm, L):\n    vm.budget -= 1\n    if vm.budget < 0: vm.out_of_steps()\n"
            + (f"    L += {(None,) * extra!r}\n" if extra > 0 else "")
            + ("    V = vm.vars\n" if "V[" in source else "")
            + (
                f"    return _cap_deep({source})\n"
                if self.may_grow(d.body, frozenset({d.name}))
                else f"    return {source}\n"
            )
        )
        self.link_loops(text)
        exec(compile_source(text, "<gamedef function>"), self.ns)  # noqa: S102
        holder[0] = self.ns[name]

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
            if not isinstance(p.type, ast.NamedType) or p.type.name not in self.types:
                return None
            domains.append(self.types[p.type.name])
            size *= len(domains[-1])
        probe = ast.Call(
            span=decl.span, func=decl.name, args=tuple(ast.Int(span=decl.span, value=0) for _ in decl.params)
        )
        if size > TABLE_LIMIT or not self.is_static(probe, Scope(), set()):
            return None
        self._compile_def(decl)
        call = self.defs[decl.name][0]
        table: dict = {}
        try:
            for combo in itertools.product(*domains):
                table[combo[0] if len(combo) == 1 else combo] = call(self.load_vm, list(combo))
        except GameDefError:
            raise
        except Exception:  # computed at run time instead, where an error names the rule
            return None
        self._tables[decl.name] = table
        return table

    def is_static(self, e, scope: Scope, bound: set, dynamic: frozenset = frozenset()) -> bool:
        """True if `e` reads no variable, local, player list or random state."""
        t = type(e)
        if t in (ast.Int, ast.Bool, ast.NoneLit):
            return True
        if t is ast.Str:
            return all(isinstance(p, str) or self.is_static(p, scope, bound, dynamic) for p in e.parts)
        if t is ast.Name:
            return self._static_name(e, scope, bound, dynamic)
        if t is ast.Call:
            return self._static_call(e, scope, bound, dynamic)
        if t is ast.ListLit:
            return all(self.is_static(i, scope, bound, dynamic) for i in e.items)
        if t is ast.Range:
            return self.is_static(e.low, scope, bound, dynamic) and self.is_static(e.high, scope, bound, dynamic)
        if t is ast.Comprehension:
            return self._static_comprehension(e, scope, bound, dynamic)
        if t is ast.Lambda:
            return self.is_static(e.body, scope, bound | {e.param}, dynamic)
        if t is ast.BinOp:
            return self.is_static(e.left, scope, bound, dynamic) and self.is_static(e.right, scope, bound, dynamic)
        if t in (ast.Not, ast.Neg):
            return self.is_static(e.operand, scope, bound, dynamic)
        if t is ast.IfExpr:
            return all(self.is_static(x, scope, bound, dynamic) for x in (e.condition, e.then, e.otherwise))
        if t is ast.Member:
            return e.name not in self.changeable and self.is_static(e.obj, scope, bound, dynamic)
        if t is ast.Index:  # an item of a list or a table the rule wrote (a variable's entry is not)
            return self.is_static(e.obj, scope, bound, dynamic) and self.is_static(e.key, scope, bound, dynamic)
        return False

    def _static_name(self, e: ast.Name, scope: Scope, bound: set, dynamic: frozenset) -> bool:
        """A name is static if it is bound by an enclosing static loop, an option, a
        constant, or a def whose body is static; not if it is a variable or a local."""
        n = e.id
        if n in bound:
            return True
        if n in dynamic or n in scope.slots:
            return False
        if n in scope.env:
            return n in scope.static_env
        if n in self.vars or n == "players" or (self._short_mode and n in self._self_fields):
            return False
        if n in self.defs:
            return self.is_static(ast.Call(span=e.span, func=n, args=()), scope, bound, dynamic)
        return n in self.options or n in self.constants

    def _static_call(self, e: ast.Call, scope: Scope, bound: set, dynamic: frozenset) -> bool:
        """A call is static if its arguments are and it is a built-in (not one reading links
        added in play) or a def whose body is static for static arguments (recursion is not)."""
        if e.func == "members":  # its argument is a type name; only the seats in play vary
            return bool(e.args) and getattr(e.args[0], "id", None) != "player"
        if not all(self.is_static(a, scope, bound, dynamic) for a in e.args):
            return False
        if e.func in self.def_decls:
            if e.func in self._static_stack:
                return False
            decl = self.def_decls[e.func]
            self._static_stack.append(e.func)
            try:
                params = {p.name for p in decl.params}
                return self.is_static(decl.body, Scope(env=dict.fromkeys(params, ""), static_names=params), set())
            finally:
                self._static_stack.pop()
        if e.func in DYNAMIC and self.dynamic_links:  # links added in play are state
            return False
        return e.func in BUILTINS or e.func == "initial"

    def _static_comprehension(self, e: ast.Comprehension, scope: Scope, bound: set, dynamic: frozenset) -> bool:
        inner = bound
        for clause in e.clauses:  # a clause may use the names of the clauses before it
            if not self.is_static(clause.iterable, scope, inner, dynamic):
                return False
            inner = inner | {clause.var}
            if clause.condition is not None and not self.is_static(clause.condition, scope, inner, dynamic):
                return False
        return self.is_static(e.element, scope, inner, dynamic)


def _table_read(core: str) -> str | None:
    """The name of the field or function table `core` reads, if it is one read
    `_f_name[...]` or `_t_name[...]` as a whole (no quotes, to read brackets safely)."""
    m = _TABLE.match(core)
    if m is None or not core.endswith("]") or "'" in core or '"' in core:
        return None
    depth = 0
    for i in range(m.end() - 1, len(core)):
        if core[i] == "[":
            depth += 1
        elif core[i] == "]":
            depth -= 1
            if depth == 0:
                return m.group(1) if i == len(core) - 1 else None
    return None


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
        if isinstance(node, ast.Comprehension | ast.Lambda) and name in ast.names_in(node):
            return True
        if isinstance(node, ast.Name) and node.id == name:
            n += 1
    return n > 1


# A key that reads the same value on every turn of a loop function: the frame's slots,
# the function's parameters, constants, variables and their keys' positions, nothing
# that calls (a call may spend steps or take time, so it is never moved).
_INVARIANT_KEY = re.compile(
    r"(?:[()\s,\]]|L\[[0-9]+\]|V\[[0-9]+\]|_[vk][0-9]+|[0-9]+|_i[0-9]+_[0-9]+\[|_[ft]_[A-Za-z0-9_]+\[)*"
)
_READ = re.compile(r"V\[[0-9]+\]|_i[0-9]+_[0-9]+\[|_[ft]_[A-Za-z0-9_]+\[")


def _hoistable(code: str, bound: set[str]) -> list[str]:
    """The reads in a loop function's `code` (without strings) that give the same value
    on every turn: a variable's entry at keys that don't depend on the loop
    (`influence[s]` while the loop runs over countries), a key's position (`_i18_1[x]`
    for an x fixed in the loop), or a component's field or a tabulated function at such
    a key (`_f_value[c]`: both are fixed at load). Longest first."""
    found: set[str] = set()

    def invariant(key: str) -> bool:
        return _INVARIANT_KEY.fullmatch(key) is not None and not set(_VARIABLE.findall(key)) & bound

    for m in _READ.finditer(code):
        if m.group().startswith("V"):
            end, best = m.end(), None
            while end < len(code) and code[end] == "[":
                close = _closing(code, end)
                if close is None or not invariant(code[end + 1 : close]):
                    break
                end, best = close + 1, code[m.start() : close + 1]
            if best is not None:
                found.add(best)
        else:
            close = _closing(code, m.end() - 1)
            if close is not None and invariant(code[m.end() : close]):
                found.add(code[m.start() : close + 1])
    return sorted(found, key=len, reverse=True)


def _with_hoisted(name: str, params: str, body: str, bound: set[str]) -> str:
    """The text of loop function `name`: reads that give the same value on every turn
    (`_hoistable`) are made once, before its loops, into locals. Reading them early
    spends no step and writes nothing (expressions never write), but may fail where
    the loop would never have read them (an empty list, a condition false first): then
    the function runs as written, a second function without the locals, and any error
    is raised where the rule reads it."""
    code = _STRINGS.sub("''", body)
    head = f"def {name}({params}):\n" + ("    V = vm.vars\n" if "V[" in code else "")
    turns = code.find(" for ")  # only a read made at every turn is worth a local
    reads = _hoistable(code[turns:], bound) if code == body and turns >= 0 else []  # (no quotes: as text)
    if not reads:
        return head + body + "\n"
    made = {}
    for read in reads:  # longest first: a shorter read is replaced where it stands alone
        if read in body:
            made[read] = f"__h{len(made)}"
            body = body.replace(read, made[read])
    lines = [head + "    try:", *(f"        {local} = {read}" for read, local in made.items())]
    lines += ["    except Exception:", f"        return {name}_as_written({params})"]
    plain = f"def {name}_as_written({params}):\n" + ("    V = vm.vars\n" if "V[" in code else "") + code
    return "\n".join(lines) + "\n" + body + "\n" + plain + "\n"


def _clause_parts(text: str) -> list[str]:
    """The clauses of a comprehension's source after its first `for`
    ("v in xs if c for w in ys"), as `_clauses` gives them: ["for v in xs", "if c",
    "for w in ys"]. Split where " for " or " if " stands outside every bracket and every
    text: generated code writes a conditional expression in parentheses."""
    parts, depth, start, i = [], 0, 0, 0
    word = "for "
    code = _blank(text)
    while i < len(text):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and code.startswith((" for ", " if "), i):
            parts.append(word + text[start:i])
            word = "for " if code.startswith(" for ", i) else "if "
            i += len(word) + 1
            start = i
            continue
        i += 1
    parts.append(word + text[start:])
    return parts


def _blank(source: str) -> str:
    """`source` with each text literal in it written over by as many underscores: the
    same positions, and no bracket or word inside a text left to misread."""
    if "'" not in source and '"' not in source:
        return source
    return _STRINGS.sub(lambda m: "_" * len(m.group()), source)


def _closing(source: str, start: int) -> int | None:
    """Where the bracket opened at `source[start]` closes (generated code: brackets of
    all kinds nest properly, texts aside), or None if it does not."""
    source = _blank(source)
    depth = 0
    for i in range(start, len(source)):
        if source[i] in "([":
            depth += 1
        elif source[i] in ")]":
            depth -= 1
            if depth == 0:
                return i
    return None


def _whole_call(source: str, prefixes: tuple[str, ...]) -> bool:
    """Is `source` one call of a function named by `prefixes` (its name and "("), its
    closing parenthesis the last character?"""
    prefix = next((p for p in prefixes if source.startswith(p)), None)
    return prefix is not None and _closing(source, len(prefix) - 1) == len(source) - 1


def _unwrapped(source: str) -> str:
    """`source` without the parentheses around the whole of it: `((L[1]))` is `L[1]`.
    Only used to recognise a source; a text with parentheses in quotes may be
    misread, and then is recognised as nothing (so it is charged)."""
    while source.startswith("(") and source.endswith(")"):
        depth = 0
        for i, ch in enumerate(source):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0 and i < len(source) - 1:
                    return source
        source = source[1:-1]
    return source


def compile_source(text: str, name: str):
    """Python's compile() of generated code; code nested past what Python's parser
    takes (deep expressions, long inlined chains) is a LimitExceeded, not a crash."""
    try:
        return codecache.compiled(text, name)
    except (SyntaxError, RecursionError, MemoryError):
        raise LimitExceeded(
            "a rule is nested too deeply to compile",
            "split a long expression: name parts of it with `let` or `def`",
        ) from None


_FAILED = object()
_PENDING = object()  # a function being compiled (its own body may call it)


def _sub_expressions(e) -> list:
    """The expressions directly inside `e` (its operands, arguments, items, parts)."""
    out = []
    for f in attrs.fields(type(e)):
        value = getattr(e, f.name)
        items = value if isinstance(value, tuple) else (value,)
        out.extend(x for x in items if attrs.has(type(x)) and not isinstance(x, Span))
    return out
