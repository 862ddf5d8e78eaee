"""Passes over the intermediate form (ir.py): the questions the compiler asks about the
code it is generating, and the rewrites it makes to it, answered from the tree.

Each pass is a plain function of nodes. None reads generated text: what a node reads,
calls or binds is what the tree says. The expression compiler (expressions.py) asks them
while it builds a tree (`computes`, `table_read`), when it wraps a tree in a generated
function (`free_locals`, `uses_vars`, `hoistable` and `hoist`, `substitute`), and the
modifier compiler asks what a compiled condition or value reads (`var_reads`, `pure`).
tests/compile/test_passes.py tests each on small trees and on small programs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from interpreter.compile import emit, ir

# ---- what a node does -------------------------------------------------------------------

_CALLING = frozenset((ir.PyCall, ir.Comp, ir.Charge, ir.Cap, ir.QueryCall, ir.Neighbours))


def _holds(code: Any, test: Any) -> bool:
    """Does `test` hold of some node in `code` (a node or statements)? One walk with no
    generator, in no particular order, stopping at the first: the passes' yes-or-no
    questions are asked of every tree the compiler builds."""
    stack: list[Any] = list(code) if isinstance(code, (list, tuple)) else [code]
    pop, push, kids = stack.pop, stack.extend, ir._KIDS
    while stack:
        n = pop()
        if test(n):
            return True
        push(kids[type(n)](n))
    return False


def computes(node: ir.IRNode) -> bool:
    """Does `node` call a function or make a list (rather than read values)? Such a node
    is never written twice (an inlined body reading its parameter twice, a guarded query
    whose argument the guard would repeat): it is computed once, into a local."""
    return _holds(node, lambda n: type(n) in _CALLING)


def uses_vars(node: ir.IRNode | ir.Stmt | Iterable[ir.Stmt]) -> bool:
    """Does the code read a game variable (`V[...]`)? Its function then starts
    `V = vm.vars`."""
    return _holds(node, lambda n: type(n) is ir.VarSlot)


def has_text(node: ir.IRNode | ir.Stmt | Iterable[ir.Stmt]) -> bool:
    """Does the code write a text other than the empty one? (Its reads are then left as
    they are: hoisting is kept to code of plain reads.)"""
    return _holds(node, lambda n: type(n) is ir.Lit and isinstance(n.value, str) and n.value != "")


def is_variable(name: str) -> bool:
    """Is `name` one of the compiler's expression variables (`_v12`): a comprehension's
    or a lambda's variable, or an inlined def's computed argument?"""
    return name.startswith("_v") and name[2:].isdigit()


def bound_locals(node: ir.IRNode | ir.Stmt | Iterable[ir.Stmt]) -> set[str]:
    """The expression variables the code binds (`for v in`, `lambda v:`)."""
    nodes = node if isinstance(node, (list, tuple)) else (node,)
    out = set()
    for x in nodes:
        for n in ir.walk(x):
            t = type(n)
            name = n.var if t in (ir.CompFor, ir.Loop) else n.param if t is ir.PyLambda else None
            if name.__class__ is str and is_variable(name):
                out.add(name)
    return out


def free_locals(node: ir.IRNode | ir.Stmt | Iterable[ir.Stmt], also_bound: Iterable[str] = ()) -> list[str]:
    """The expression variables the code reads but does not bind, in the order they were
    made: the parameters a generated function around it takes from the code around it."""
    nodes = node if isinstance(node, (list, tuple)) else (node,)
    read = {n.name for x in nodes for n in ir.walk(x) if type(n) is ir.Local and is_variable(n.name)}
    return sorted(read - bound_locals(nodes) - set(also_bound), key=lambda v: int(v[2:]))


@attrs.frozen
class Summary:
    """What a generated function's code reads and binds, found in one walk: whether it
    reads a game variable (`uses_vars`), writes a text (`has_text`), the expression
    variables it binds (`bound_locals`) and those it reads from around it
    (`free_locals`, in the order they were made)."""

    reads_vars: bool
    has_text: bool
    bound: frozenset[str]
    free: tuple[str, ...]


def summary(code: ir.IRNode | ir.Stmt | Iterable[ir.Stmt]) -> Summary:
    """`uses_vars`, `has_text`, `bound_locals` and `free_locals` of `code` at once (one
    walk of its own, with no generator: asked of every generated function)."""
    reads_vars = text = False
    bound: set[str] = set()
    read: set[str] = set()
    stack: list[Any] = list(code) if isinstance(code, (list, tuple)) else [code]
    pop, push, kids = stack.pop, stack.extend, ir._KIDS
    Var, Local, Lit, For, Loop, Lambda = ir.VarSlot, ir.Local, ir.Lit, ir.CompFor, ir.Loop, ir.PyLambda
    while stack:
        n = pop()
        t = type(n)
        if t is Var:
            reads_vars = True
        elif t is Local:
            if is_variable(n.name):
                read.add(n.name)
        elif t is Lit:
            text = text or isinstance(n.value, str) and n.value != ""
        else:
            if t is For or t is Loop:
                if n.var.__class__ is str and is_variable(n.var):
                    bound.add(n.var)
            elif t is Lambda and is_variable(n.param):
                bound.add(n.param)
            push(kids[t](n))
    free = tuple(sorted(read - bound, key=lambda v: int(v[2:])))
    return Summary(reads_vars, text, frozenset(bound), free)


def table_read(node: ir.IRNode) -> ir.TableRead | None:
    """The field or def table `node` reads, if it is one read of one (`_f_value[c]`) and
    writes no text."""
    if type(node) is ir.Subscript and type(node.obj) is ir.TableRead and node.obj.of in ("field", "def"):
        if not any(type(n) is ir.Lit and isinstance(n.value, str) for n in ir.walk(node)):
            return node.obj
    return None


# ---- hoisting -------------------------------------------------------------------------


def _invariant(key: Any, bound: set[str]) -> bool:
    """Does `key` give the same value at every turn of a loop function: made only of the
    frame's slots, variables, constants, numbers, the function's parameters and fixed
    tables at such keys, with nothing that calls and no variable the loops bind?"""
    t = type(key)
    if t in (ir.Slot, ir.VarSlot, ir.Const):
        return True
    if t is ir.Lit:
        return type(key.value) is int and key.value >= 0
    if t is ir.Local:
        return is_variable(key.name) and key.name not in bound
    if t is ir.Group:
        return _invariant(key.inner, bound)
    if t is ir.Tuple:
        return all(_invariant(x, bound) for x in key.items)
    if t is ir.Subscript:
        return type(key.obj) is ir.TableRead and _invariant(key.key, bound)
    return False


def hoistable(code: ir.IRNode | Iterable[ir.Stmt], bound: set[str], after_first_turn: bool = True) -> list[ir.IRNode]:
    """The reads in a loop function's code that give the same value on every turn: a
    variable's entry at keys that don't depend on the loop (`influence[s]` while the loop
    runs over countries, the longest such chain of keys), a key's position, a component's
    field or a tabulated def at such a key (all fixed at load). With `after_first_turn`,
    only those written after the first `for` (read at every turn: the ones before it are
    read once anyway). Longest (as written) first."""
    found: dict[ir.IRNode, int] = {}
    started = not after_first_turn
    # One walk in the order the code is written (an explicit stack, no recursion: asked
    # of every loop function); a `for` starts the turns where it is met.
    stack: list[Any] = list(code) if isinstance(code, (list, tuple)) else [code]
    stack.reverse()
    pop, push, kids, leaves = stack.pop, stack.extend, ir._KIDS, ir._LEAVES
    while stack:
        n = pop()
        t = type(n)
        if t in leaves:
            continue
        if t is ir.Comp:  # `[element for ...]`: the element is written before the `for`
            push(reversed((n.element, *n.clauses)))
            continue
        if t is ir.CompFor:  # a comprehension's `for`: its list is read at the first turn's start
            started = True
            stack.append(n.iterable)
            continue
        if t is ir.Loop:
            started = True
        elif t is ir.Subscript and started:
            chain, base = [], n
            while type(base) is ir.Subscript:
                chain.append(base)
                base = base.obj
            if type(base) is ir.VarSlot:  # the longest run of invariant keys from the variable
                best = None
                for level in reversed(chain):
                    if not _invariant(level.key, bound):
                        break
                    best = level
                if best is not None:
                    found[best] = 0
                push(reversed([level.key for level in chain]))
                continue
            if type(n.obj) is ir.TableRead and _invariant(n.key, bound):
                found[n] = 0
        push(reversed(kids[t](n)))
    widths = {n: emit.width(n) for n in found}
    return sorted(found, key=lambda n: -widths[n])  # (equally wide: in the order they are read)


def replace(node, old: ir.IRNode, new: ir.IRNode):
    """`node` (an expression or a statement) with every `old` inside it written `new`
    (the same object where there is none)."""
    kind = type(old)

    def swap(n):
        return new if type(n) is kind and n == old else _rebuilt(n, swap)  # noqa: F821 (deleted once done)

    out = swap(node)
    del swap  # (it names itself: a cycle, holding the trees, that only the collector would free)
    return out


def renamed(code: Any, leaf: Callable[[Any], Any]) -> Any:
    """`code` (a node, or a tuple or list of statements, then a tuple) with each leaf
    (a slot, a local, a global, ...) written `leaf(it)`: the nodes above a leaf that
    changed are made anew, the rest are the same objects, and a node met twice (a tree
    shares its subtrees) is renamed once. What makes a def's body built for some
    arguments the body for others (expressions.py, `_instance`)."""
    leaves, tree, fields = ir._LEAVES, _TREE, _FIELD_NAMES
    done: dict[int, Any] = {}  # id of a node -> its renamed copy (the nodes live as long as `code`)

    def swap(n):
        t = type(n)
        if t in leaves:
            return leaf(n)
        made = done.get(id(n))
        if made is not None:
            return made
        names = fields.get(t)
        if names is None:
            names = fields[t] = tuple(x.name for x in attrs.fields(t))
        values = []
        changed = False
        for name in names:
            value = getattr(n, name)
            new = value
            if isinstance(value, tree):
                new = swap(value)  # noqa: F821 (deleted once done)
            elif value.__class__ is tuple:
                items = []
                for x in value:
                    y = x
                    if isinstance(x, tree):
                        y = swap(x)  # noqa: F821
                    elif x.__class__ is tuple and len(x) == 2 and isinstance(x[1], ir.IRNode):  # a keyword argument
                        inner = swap(x[1])  # noqa: F821
                        if inner is not x[1]:
                            y = (x[0], inner)
                    items.append(y)
                    if y is not x:
                        new = None
                if new is None:
                    new = tuple(items)
            if new is not value:
                changed = True
            values.append(new)
        made = t(*values) if changed else n
        done[id(n)] = made
        return made

    out = tuple(swap(s) for s in code) if isinstance(code, (list, tuple)) else swap(code)
    del swap  # (it names itself: a cycle, holding the trees, that only the collector would free)
    return out


_TREE = (ir.IRNode, ir.Statement)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # each class's field names, in order


def _rebuilt(node, f):
    """`node` with `f` applied to each node or statement in its fields (the items of a
    tuple field, a keyword argument's value): the rewrites' one way down a tree. The
    same object when `f` changes nothing, so a rewrite that finds nothing to do copies
    nothing."""
    t = type(node)
    if t in ir._LEAVES:
        return node
    names = _FIELD_NAMES.get(t)
    if names is None:
        names = _FIELD_NAMES[t] = tuple(x.name for x in attrs.fields(t))
    changes = None
    for name in names:
        value = getattr(node, name)
        if isinstance(value, _TREE):
            changed = f(value)
        elif value.__class__ is tuple:
            items = tuple(_rebuilt_item(x, f) for x in value)
            changed = value if all(x is y for x, y in zip(items, value)) else items
        else:
            continue
        if changed is not value:
            if changes is None:
                changes = {}
            changes[name] = changed
    return attrs.evolve(node, **changes) if changes else node


def _rebuilt_item(x, f):
    if isinstance(x, _TREE):
        return f(x)
    if x.__class__ is tuple and len(x) == 2 and isinstance(x[1], ir.IRNode):  # a keyword argument
        value = f(x[1])
        return x if value is x[1] else (x[0], value)
    return x


def contains(code, target: ir.IRNode) -> bool:
    """Is `target` written somewhere in `code` (a node or statements)?"""
    kind = type(target)
    return _holds(code, lambda n: type(n) is kind and n == target)


def hoist(stmts: list[ir.Stmt], reads: list[ir.IRNode]) -> tuple[list[ir.Stmt], list[tuple[str, ir.IRNode]]]:
    """`stmts` with each of `reads` (longest first) that is still written in them replaced
    by a local `__hN`; and the (local, read) pairs made. A read written only inside a
    longer one is not (the longer one's local holds it). The reads `hoistable` finds are
    all subscripts: only subscripts are compared with them."""
    used: set[int] = set()
    around: set[int] = set()  # the ids of the nodes with a read inside: the rest is kept as it is
    kids, Subscript = ir._KIDS, ir.Subscript

    def find(n) -> bool:  # the outermost reads: longer ones are found before those inside
        t = type(n)
        if t is Subscript:
            for i, r in enumerate(reads):
                if n == r:
                    used.add(i)
                    return True
        inside = False
        for c in kids[t](n):
            inside = find(c) or inside  # noqa: F821 (deleted once done)
        if inside:
            around.add(id(n))
        return inside

    for s in stmts:
        find(s)
    made = [(f"__h{k}", reads[i]) for k, i in enumerate(sorted(used))]
    swaps = [(read, ir.Local(local)) for local, read in made]

    def swap(n):
        if type(n) is Subscript:
            for read, local in swaps:
                if n == read:
                    return local
        return _rebuilt(n, swap) if id(n) in around else n  # noqa: F821 (deleted once done)

    changed = [swap(s) for s in stmts]
    del find, swap  # (each names itself: cycles, holding the trees, that only the collector would free)
    return changed, made


def substitute(node: ir.IRNode, values: dict[str, ir.IRNode]) -> ir.IRNode:
    """`node` with each expression variable named in `values` written as its value, in
    parentheses (an inlined def's argument computed once, in the one place it is read)."""
    for name, value in values.items():
        node = replace(node, ir.Local(name), ir.Group(value))
    return node


def count(node: ir.IRNode, target: ir.IRNode) -> int:
    """How many times `target` is written in `node`."""
    return sum(1 for n in ir.walk(node) if n == target)


# ---- what a condition or a value reads (modifiers.py) ---------------------------------


def var_reads(node: ir.IRNode) -> tuple[int, ...] | None:
    """The variables' slots a compiled condition reads, if it reads nothing but
    variables, its card (`L[0]`), constants, fixed tables and built-ins that read only
    their arguments; else None (it may read anything: a query, the seats, a def)."""
    slots = set()
    for n in ir.walk(node):
        t = type(n)
        if t is ir.VarSlot:
            slots.add(n.slot)
        elif t is ir.Slot:
            if n.index != 0:
                return None
        elif t is ir.Global:
            if n.kind != ir.BUILTIN:
                return None
        elif t is ir.PyCall:
            if n.keywords:
                return None
        elif t not in _PLAIN:
            return None
    return tuple(sorted(slots))


_PLAIN: tuple[type, ...] = (ir.Lit, ir.Const, ir.TableRead, ir.Frame, ir.Group, ir.Subscript, ir.Tuple, ir.List)
_PLAIN += (ir.PyBinOp, ir.PyNot, ir.Truth, ir.PyNeg, ir.IfExp, ir.Join, ir.Head)
_PURE_NODES = (*_PLAIN, ir.Slot, ir.Local, ir.PyLambda, ir.Comp, ir.CompFor, ir.CompIf, ir.Cap)


def pure(node: ir.IRNode) -> bool:
    """Does a compiled expression read nothing but its frame `L` (any slot), constants,
    fixed tables, its comprehensions' variables and functions that read only their
    arguments: no variable, no query, no seats, no step budget (`vm`)? Its answer is then
    a function of its frame alone (modifiers.py keeps such answers)."""
    for n in ir.walk(node):
        t = type(n)
        if t is ir.Global:
            if n.kind not in (ir.BUILTIN, ir.PYTHON):
                return False
        elif t is ir.PyCall:
            if n.keywords:
                return False
        elif t not in _PURE_NODES:
            return False
    return True
