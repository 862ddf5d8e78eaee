"""Which expressions read no state: those the compiler computes once, at load.

An expression is static if it reads no variable, local, player list or random state:
literals, options, constants, components' fixed properties, built-ins over static
arguments, and calls of defs whose bodies are static for static arguments. The
expression compiler folds such an expression to its value (constant folding) and
tabulates a def whose arguments range over finite types; the statement compiler asks
whether a decision's labels can be written once.
"""

from __future__ import annotations

from typing import Any

import attrs

from interpreter.compile.names import LOCAL_KINDS
from interpreter.compile.passtables import PassTables
from interpreter.compile.scope import Scope
from interpreter.core.links import DYNAMIC
from interpreter.language import syntax as ast

# The expressions whose answers are kept while one tree is built (`StaticAnalysis.is_static`).
FOLDED = frozenset((ast.Comprehension, ast.Call, ast.ListLit, ast.Range))


@attrs.define
class SelfFields:
    """The fields of the component an entity's own rules are written for, read there by
    bare name: in a visibility rule through `self`; in a `short` template (`short`) from
    the dict of its visible fields, so they are never static. Set by the visibility pass,
    read by the expression compiler and this analysis."""

    names: set[str] = attrs.Factory(set)
    short: bool = False


class StaticAnalysis:
    """Answers `is_static` over the syntax tree, keeping answers that are asked again:
    a def's body (`static_def`), and within one tree each expression's."""

    def __init__(self, tables: PassTables, fields: SelfFields) -> None:
        self.tables = tables
        self.fields = fields
        self.building = False  # a tree is being built (the expression compiler's `src`)
        self._stack: list[str] = []  # the defs whose bodies are being asked about
        # def name -> is its body static for static arguments (`static_def`), with the
        # sizes of the tables that answer depends on when it was found
        self._defs: dict[str, tuple[tuple, bool]] = {}
        self._seen: dict[tuple, tuple[Any, Scope, bool]] = {}  # `is_static`'s answers in this tree

    def new_tree(self) -> None:
        """A tree begins: the answers kept for the last one no longer hold."""
        self._seen.clear()
        self.building = True

    def is_static(self, e, scope: Scope, bound: set, dynamic: frozenset = frozenset()) -> bool:
        """True if `e` reads no variable, local, player list or random state.

        While a tree is built, the answers for the expressions `_node` asks about (calls,
        lists, comprehensions, ranges) are kept until the next tree: each is asked again
        when its turn comes to be built, and again of an inlined def's arguments. Kept by
        the expression, the scope (both kept with the answer, so that their ids are no
        other's) and the comprehension variables around it: within one tree no name is
        bound in a scope, and the game's names do not change."""
        if bound or not self.building or type(e) not in FOLDED:
            return self._is_static(e, scope, bound, dynamic)
        key = (id(e), id(scope), dynamic)
        known = self._seen.get(key)
        if known is not None and known[0] is e and known[1] is scope:
            return known[2]
        answer = self._is_static(e, scope, bound, dynamic)
        self._seen[key] = (e, scope, answer)
        return answer

    def _is_static(self, e, scope: Scope, bound: set, dynamic: frozenset) -> bool:
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
            return e.name not in self.tables.changeable and self.is_static(e.obj, scope, bound, dynamic)
        if t is ast.Index:  # an item of a list or a table the rule wrote (a variable's entry is not)
            return self.is_static(e.obj, scope, bound, dynamic) and self.is_static(e.key, scope, bound, dynamic)
        return False

    def _static_name(self, e: ast.Name, scope: Scope, bound: set, dynamic: frozenset) -> bool:
        """A name is static if it is bound by an enclosing static loop, an option, a
        constant, or a def whose body is static; not if it is a variable or a local. What
        the name is, is the checker's answer (names.py)."""
        n = e.id
        kind = self.tables.names.kind(e)
        if kind in LOCAL_KINDS:
            if n in bound:
                return True
            if n in dynamic or n in scope.slots:
                return False
            return n in scope.env and n in scope.static_env
        if kind == "def":  # a def without parameters, called by its bare name
            return self.static_def(n)
        if kind == "type":  # a grid's name is a value (itself); no other type's name is
            return self.tables.constants.get(n) is not None
        return kind in ("option", "constant")

    def _static_call(self, e: ast.Call, scope: Scope, bound: set, dynamic: frozenset) -> bool:
        """A call is static if its arguments are and it is a built-in (not one reading links
        added in play) or a def whose body is static for static arguments (recursion is not).
        What the call names is the checker's answer (names.py)."""
        kind = self.tables.names.call(e)
        if kind == "builtin" and e.func == "members":  # its argument is a type name; only the seats in play vary
            return bool(e.args) and getattr(e.args[0], "id", None) != "player"
        if not all(self.is_static(a, scope, bound, dynamic) for a in e.args):
            return False
        if kind == "def":
            return self.static_def(e.func)
        if e.func in DYNAMIC and self.tables.dynamic_links:  # links added in play are state
            return False
        return kind == "builtin"

    def static_def(self, name: str) -> bool:
        """Is the body of def `name` static when its parameters are? Asked at every call
        of it the compiler meets (and of every def that body calls), so the answer is
        kept. It reads no scope, only the game's names (variables, options, constants,
        defs, changeable properties), which only grow while a game compiles: an answer
        is kept with their sizes and asked again when they differ, and never kept while
        a `short` template reads its component's fields by name. The recursion guard
        (`_static_stack`) can only turn an answer false (the check is a conjunction that
        explores every call when true): an answer true met no def on the stack, and is
        the answer from any stack; one false is kept only when found with no other def
        on the stack, as it then is from any stack."""
        if name in self._stack:
            return False
        fresh = not self._stack
        state = (
            len(self.tables.vars),
            len(self.tables.options),
            len(self.tables.constants),
            len(self.tables.def_decls),
            len(self.tables.changeable),
        )
        known = None if self.fields.short else self._defs.get(name)
        if known is not None and known[0] == state:
            return known[1]
        decl = self.tables.def_decls[name]
        self._stack.append(name)
        try:
            params = {p.name for p in decl.params}
            answer = self.is_static(decl.body, Scope(env=dict.fromkeys(params, ""), static_names=params), set())
        finally:
            self._stack.pop()
        if not self.fields.short and (answer or fresh):
            self._defs[name] = (state, answer)
        return answer

    def _static_comprehension(self, e: ast.Comprehension, scope: Scope, bound: set, dynamic: frozenset) -> bool:
        inner = bound
        for clause in e.clauses:  # a clause may use the names of the clauses before it
            if not self.is_static(clause.iterable, scope, inner, dynamic):
                return False
            inner = inner | {clause.var}
            if clause.condition is not None and not self.is_static(clause.condition, scope, inner, dynamic):
                return False
        return self.is_static(e.element, scope, inner, dynamic)
