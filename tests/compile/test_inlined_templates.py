"""A def written in place is built once for arguments of one shape (interpreter/compile/expressions.py,
`_shape` and `_instance`): a body built for some frame slots and expression variables is, renamed, the
body for others in the same places, and the generated functions it calls that read a renamed slot
are copied under new names (lazy.py, `Uncompiled.renamed`). The code must be the code each body
built anew would be: the same functions, names aside, and the same answers in play.
"""

from __future__ import annotations

import re
import textwrap
import types
from pathlib import Path

from checked_code import compiled_with_checker, expression

from interpreter import load_game
from interpreter.check.checker import check_game, check_program
from interpreter.compile import expressions, ir, lazy, passes
from interpreter.compile.compiler import compile_game
from interpreter.compile.scope import Scope
from interpreter.language.program import load_program
from interpreter.runtime.load import find_game

# Three procedures written in place in `play`, each with its own slots, call the same defs
# with their own parameters and their comprehensions' variables as arguments.
SOURCE = """
    grid Board 5 by 1
    var mark: Board -> int = 0
    var out: list int = []
    def above(k: int, j: int) = count([x for x in members(Board) if mark[x] > k and mark[x] != j])
    def any_above(k: int) = any([mark[x] > k for x in members(Board)])
    def both(k: int, j: int) = above(k, j) + above(j, k)
    procedure one(a: int, b: int) {
        rule "One"
        out = append(out, above(a, b))
        out = append(out, both(a, b))
    }
    procedure two(u: int, v: int, w: int) {
        rule "Two"
        out = append(out, above(w, u))
        out = append(out, both(v, w))
        out = append(out, count([n for n in [0, 1, 2, 3] if any_above(n)]))
        out = append(out, sum([above(n, v) for n in [0, 1, 2]]))
    }
    procedure three(p: int) {
        rule "Three"
        out = append(out, above(p, p))
        out = append(out, count([m for m in [1, 2, 4] if any_above(m)]))
        out = append(out, sum([above(m, p) for m in [1, 2]]))
    }
    procedure play() {
        rule "Play"
        mark[a1] = 1
        mark[b1] = 2
        mark[c1] = 3
        mark[d1] = 3
        mark[e1] = 5
        one(0, 3)
        two(2, 1, 4)
        three(3)
        one(1, 5)
        game over []
    }
    """
# `out` worked by hand: above(k, j) counts the marks over k other than j (marks 1, 2, 3, 3, 5).
EXPECTED = (3, 3 + 1, 1, 4 + 1, 4, 4 + 4 + 3, 1, 3, 2 + 1, 3, 3 + 0)


def _game(tmp_path: Path, optimise: bool = True):
    path = tmp_path / "t.game"
    path.write_text("game t { players 2..2 seats [a, b] }\n" + textwrap.dedent(SOURCE), encoding="utf-8")
    return load_game(path, optimise=optimise)


def test_each_place_reads_its_own_arguments(tmp_path):
    """Every call of a def written in place answers for its own arguments, as the rules
    say and as the code compiled without writing defs in place does, whether its body was
    built for it or renamed from one built for other slots."""
    game = _game(tmp_path)
    assert game.var(game.start(players=2), "out") == EXPECTED
    plain = _game(tmp_path, optimise=False)
    assert plain.var(plain.start(players=2), "out") == EXPECTED


def test_a_body_is_built_once_per_shape_of_its_arguments(tmp_path, monkeypatch):
    """`any_above(n)` for two comprehension variables is one body built and renamed: both
    call one loop function, which takes the variable from its caller (built each time,
    each had a copy of its own). `above(b, a)` after `above(a, b)` is the same body with
    the two frame slots swapped: a copy of its loop function, reading the slots swapped."""
    built = []
    node = expressions.ExpressionCompiler._node

    def counting(self, e, scope, py):
        if e is self.tables.def_decls["any_above"].body or e is self.tables.def_decls["above"].body:
            built.append(e)
        return node(self, e, scope, py)

    game = _game(tmp_path)
    program = load_program(tmp_path / "t.game")
    check_program(program)
    compiled, checker = compiled_with_checker(program)
    span = game.compiled.header.span
    monkeypatch.setattr(expressions.ExpressionCompiler, "_node", counting)

    def tree(text: str, scope: Scope, py: dict) -> ir.IRNode:
        e = expression(checker, text, span, dict.fromkeys([*scope.slots, *py], "int"))
        return compiled.expressions.src(e, scope, py)

    first = tree("any_above(n)", Scope(), {"n": ir.Local("_v1")})
    second = tree("any_above(n)", Scope(), {"n": ir.Local("_v2")})
    assert built == [compiled.tables.def_decls["any_above"].body]
    assert first == ir.PyCall(first.func, (ir.VMRef(), ir.Frame(), ir.Local("_v1")))
    assert second == ir.PyCall(first.func, (ir.VMRef(), ir.Frame(), ir.Local("_v2")))

    ab = tree("above(a, b)", Scope(["a", "b"]), {})
    ba = tree("above(b, a)", Scope(["a", "b"]), {})
    assert built.count(compiled.tables.def_decls["above"].body) <= 1  # (the game's compile may have built it)
    assert type(ab) is type(ba) is ir.PyCall and ab.func != ba.func
    waiting = compiled.tables.ns
    swapped = {ir.Slot(0): ir.Slot(1), ir.Slot(1): ir.Slot(0)}
    made, copy = lazy.pending(waiting[ab.func.name]), lazy.pending(waiting[ba.func.name])
    assert copy.stmts == passes.renamed(made.stmts, lambda n: swapped.get(n, n)) != made.stmts


def test_an_argument_read_inside_another_is_never_renamed(tmp_path):
    """`f(k, k + 1)`: the slot of `k` is also read inside the other argument, which the key
    holds as it is; renaming it in one place and not the other would be wrong, so such a
    body is built for its own arguments."""
    compiler = expressions.ExpressionCompiler.__new__(expressions.ExpressionCompiler)  # (`_shape` reads no state)
    p, q = ir.Slot(3), ir.Slot(4)
    decl = types.SimpleNamespace(params=(types.SimpleNamespace(name="k"), types.SimpleNamespace(name="j")))
    assert compiler._shape(decl, [p, ir.PyBinOp("+", p, ir.Lit(1))], set()) is None
    shape = compiler._shape(decl, [p, ir.PyBinOp("+", q, ir.Lit(1))], set())
    assert shape is not None and shape[1] == (p,)
    # the same slot twice is one place; a static parameter's argument is kept as it is
    assert compiler._shape(decl, [p, ir.Group(p)], set())[1] == (p,)
    assert compiler._shape(decl, [p, q], {"k"})[1] == (q,)
    # a wider slot number is another key: the width decides whether a body is written in place
    assert compiler._shape(decl, [ir.Slot(3), q], set())[0] != compiler._shape(decl, [ir.Slot(13), q], set())[0]


def test_renamed_changes_only_what_it_must():
    """`passes.renamed` writes each leaf as it says, makes anew only the nodes above a
    changed leaf, and renames a subtree met twice once."""
    shared = ir.Subscript(ir.Slot(2), ir.Lit(1))
    kept = ir.Subscript(ir.VarSlot(0), ir.Lit(1))
    tree = ir.Tuple((shared, kept, shared, ir.PyCall(ir.Global("_any7", ir.LOOP), (ir.VMRef(), ir.Local("_v3")))))

    def leaf(n):
        return {ir.Slot(2): ir.Slot(5), ir.Local("_v3"): ir.Local("_v9")}.get(n, n)

    out = passes.renamed(tree, leaf)
    assert out == ir.Tuple(
        (
            ir.Subscript(ir.Slot(5), ir.Lit(1)),
            kept,
            ir.Subscript(ir.Slot(5), ir.Lit(1)),
            ir.PyCall(ir.Global("_any7", ir.LOOP), (ir.VMRef(), ir.Local("_v9"))),
        )
    )
    assert out.items[1] is kept and out.items[0] is out.items[2]
    assert passes.renamed(tree, lambda n: n) is tree
    stmts = (ir.PyReturn(shared),)
    assert passes.renamed(list(stmts), leaf) == (ir.PyReturn(ir.Subscript(ir.Slot(5), ir.Lit(1))),)


def test_a_copy_makes_its_statements_when_first_read():
    """A copy of a waiting function is renamed only when its statements are read (most are
    never called); it reads the new slots and calls the new names, its original unchanged."""
    body = (ir.PyReturn(ir.PyCall(ir.Global("_any1", ir.LOOP), (ir.VMRef(), ir.Frame(), ir.Slot(2)))),)
    original = lazy.Uncompiled("loop", "_count4", ("vm", "L"), body, False)
    copy = original.renamed("_count9", {ir.Slot(2): ir.Slot(6)}, {"_any1": "_any8"})
    assert copy._renaming is not None and copy.depth() == original.depth() == 0
    assert copy.stmts == (ir.PyReturn(ir.PyCall(ir.Global("_any8", ir.LOOP), (ir.VMRef(), ir.Frame(), ir.Slot(6)))),)
    assert copy._renaming is None and original.stmts is body
    assert (copy.name, copy.key, copy.kind, copy.params) == ("_count9", "_count9", "loop", ("vm", "L"))


# ---- the code is the code of every body built anew ------------------------------------------

_NUMBERED = re.compile(r"^_[a-z]+\d+(_[a-z_]+)?$")  # a name the compiler numbers (`_any12`, `_k3`)


class _Digests:
    """Each generated function as its code, the names the compiler numbers written as what
    they hold (a function by its own digest), so that two compiles that number differently
    or share a function the other copies compare equal."""

    def __init__(self) -> None:
        self.known: dict[int, str] = {}

    def generated(self, f) -> bool:
        return type(f) is types.FunctionType and f.__code__.co_filename.startswith("<gamedef")

    def value(self, v) -> object:
        if self.generated(v):
            return ("function", self.of(v))
        if type(v) is types.FunctionType:
            return ("python", v.__qualname__, tuple(self.value(c.cell_contents) for c in v.__closure__ or ()))
        if isinstance(v, (tuple, list)):
            return tuple(self.value(x) for x in v)
        if isinstance(v, (set, frozenset)):
            return tuple(sorted(map(repr, v)))
        return re.sub(r" at 0x[0-9a-f]+", "", repr(v))

    def code(self, co: types.CodeType, ns: dict) -> object:
        names = tuple(self.value(ns.get(n)) if _NUMBERED.match(n) else n for n in co.co_names)
        consts = tuple(self.code(k, ns) if isinstance(k, types.CodeType) else repr(k) for k in co.co_consts)
        shape = (co.co_argcount, co.co_flags, len(co.co_varnames), len(co.co_cellvars), len(co.co_freevars))
        return (co.co_code, shape, names, consts, co.co_exceptiontable)

    def of(self, f: types.FunctionType) -> str:
        if id(f) not in self.known:
            made = (self.code(f.__code__, f.__globals__), self.value(f.__defaults__ or ()))
            self.known[id(f)] = repr(made)
        return self.known[id(f)]


def _steps(name: str) -> tuple[list, int]:
    """Every step table of game `name`, compiled whole, each step as its digest; and how
    many generated functions the namespace holds."""
    program = load_program(find_game(name), ())
    compiled = compile_game(program, symbols=check_game(program, warn_unread=False)[0])
    assert lazy.force(compiled.ns)
    digests = _Digests()
    steps = [[digests.value(op) for op in code.ops] for code in compiled.codes]
    return steps, sum(1 for f in compiled.ns.values() if digests.generated(f))


def test_renamed_bodies_compile_to_the_code_built_bodies_do(monkeypatch):
    """Walls and Wonders compiled with its defs' bodies renamed and with every body built
    anew: every step of every table the same code, calling the same code, names aside;
    fewer functions, as equal ones are shared."""
    renamed, shared = _steps("walls_and_wonders")
    monkeypatch.setattr(expressions, "RENAMED_BODIES", False)
    built, copied = _steps("walls_and_wonders")
    assert renamed == built
    assert shared < copied
