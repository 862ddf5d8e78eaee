"""The compiler's intermediate form (interpreter/compile/ir.py) and its one lowering
(emit.py): the `ast` each node is lowered to (the tree Python would parse from the
Python the node stands for), each statement's line, that a tree is walked in the order
it is written, and the trees small expressions of a program compile to
(docs/architecture.md, "The compiler's intermediate form")."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from checked_code import compiled_with_checker, expression

from interpreter import load_game
from interpreter.check.checker import Checker, check_program
from interpreter.compile import emit, ir
from interpreter.compile.compiler import Compiler
from interpreter.compile.scope import Scope
from interpreter.core.builtins import Text
from interpreter.language.program import load_program

X, Y = ir.Local("_v1"), ir.Local("_v2")


def test_each_node_is_written_as_python():
    cases = [
        (ir.Lit("a'b"), '"a\'b"'),
        (ir.Lit(None), "None"),
        (ir.Const("_k3", (1, 2)), "_k3"),
        (ir.Slot(2), "L[2]"),
        (ir.VarSlot(7), "V[7]"),
        (ir.Players(), "vm.players"),
        (ir.Group(ir.Slot(1)), "(L[1])"),
        (ir.Subscript(ir.TableRead("_f_cost", "field"), X), "_f_cost[_v1]"),
        (ir.Head(ir.Lit("abc"), 1), "'abc'[:1]"),
        (ir.Slice(X, None, Y), "_v1[:_v2]"),
        (ir.Slice(X, ir.PyBinOp("+", Y, ir.Lit(1))), "_v1[(_v2 + 1):]"),
        (ir.Between(ir.PyNeg(X), Y, X), "(-_v1) <= _v2 <= _v1"),
        (ir.PyCall(ir.Attr(X, "count"), (Y,)), "_v1.count(_v2)"),
        (ir.PyCall(ir.Global("_b_f"), (X,), (("first", ir.Lit(True)),)), "_b_f(_v1, first=True)"),
        (ir.PyCall(ir.Global("_b_g"), (), (("first", ir.Lit(True)),)), "_b_g(first=True)"),
        (ir.Tuple(()), "()"),
        (ir.Tuple((X,)), "(_v1,)"),
        (ir.List((X, Y)), "[_v1, _v2]"),
        (ir.PyBinOp("+", X, ir.Lit(1)), "(_v1 + 1)"),
        (ir.PyNot(X), "(not _v1)"),
        (ir.PyNot(X, bare=True), "not _v1"),
        (ir.Truth(X), "(not not _v1)"),
        (ir.PyNeg(X), "(-_v1)"),
        (ir.IfExp(X, ir.Lit(1), ir.Lit(2)), "(1 if _v1 else 2)"),
        (ir.PyLambda("_v2", ir.PyBinOp(">", Y, ir.Lit(0))), "(lambda _v2: (_v2 > 0))"),
        (ir.Comp(X, (ir.CompFor("_v1", ir.VarSlot(0)), ir.CompIf(X))), "[_v1 for _v1 in V[0] if _v1]"),
        (ir.Join((ir.Lit("a"), X)), "'a' + _v1"),
        (ir.Charge(X), "_charge(vm, _v1)"),
        (ir.Cap(X), "_cap(_v1)"),
        (ir.Cap(X, deep=True), "_cap_deep(_v1)"),
        (ir.QueryCall("ops", (X, Y)), "_q_ops(vm, (_v1, _v2, ))"),
        (ir.QueryCall("ops", (X,), tight=True), "_q_ops(vm, (_v1,))"),
        (ir.Guarded(ir.Slot(0), "q", (3, 4), ir.Lit(0)), "(L[0] if (V[3] is _qi_q[0] and V[4] is _qi_q[1]) else 0)"),
        (ir.Neighbours(X), "_links.get(_v1, ())"),
        (ir.Neighbours(X, 5), "(_links.get(_v1, ()) if not V[5] else _dl_neighbours(vm, _v1))"),
    ]
    for node, text in cases:
        lowered = emit.expression(node)
        assert ast.dump(lowered) == ast.dump(ast.parse(text, mode="eval").body), node
        assert emit.width(node) == len(text), node  # the measure that bounds inlining


N = ir.Local("__n")


def test_statements_are_lowered_one_to_a_line():
    """Each statement, and each `if`, `elif` and `else`, takes the next line; a flat `if`
    keeps its body on its own line (a native block's lines are the rules' statements)."""
    flat = ir.When(X, (ir.PyReturn(X),), flat=True)
    stmts = [
        ir.PyAssign((N,), ir.Lit(0)),
        ir.Loop(
            "_v1",
            ir.VarSlot(2),
            (
                ir.When(X, (ir.Update(N, "+", ir.Lit(1)),)),
                flat,
                ir.When(Y, (ir.PyPass(),), (ir.When(X, (ir.PyBreak(),), (ir.Continue(),), chained=True),)),
            ),
        ),
        ir.PyReturn(N),
    ]
    tree, _ = emit.function_module("_f", ("vm", "L"), stmts, reads_vars=True)
    text = """
        def _f(vm, L):
            V = vm.vars
            __n = 0
            for _v1 in V[2]:
                if _v1:
                    __n += 1
                if _v1: return _v1
                if _v2:
                    pass
                elif _v1:
                    break
                else:
                    continue
            return __n
        """
    parsed = ast.parse(textwrap.dedent(text).lstrip("\n"))
    assert ast.dump(tree) == ast.dump(parsed)

    def lines(t: ast.AST) -> list[tuple[str, int]]:
        return [(type(n).__name__, n.lineno) for n in ast.walk(t) if isinstance(n, ast.stmt | ast.expr)]

    assert lines(tree) == lines(parsed)  # each statement and its parts on the line it would be written on
    compile(tree, "<test>", "exec")
    # counted without lowering (a native block's lines are laid out before it is lowered: lazy.py)
    assert emit.line_count(stmts) == len(textwrap.dedent(text).strip().splitlines()) - 2  # (def, V = vm.vars)
    tried = [ir.Try((ir.PyAssign((N,), X), flat), ("LookupError",), (ir.PyReturn(N),)), ir.PyReturn(N)]
    low = emit.Lowering()
    low.function("_f", ("vm", "L"), tried)
    assert emit.line_count(tried) == low.line - 2 == 6  # try, =, if, except, return; return


def test_the_lowering_lists_the_generated_functions_its_code_calls():
    call = ir.PyCall(ir.Global("_any4", ir.LOOP), (ir.VMRef(), ir.Frame()))
    other = ir.PyCall(ir.Global("_b_len"), (X,))
    calls: list[str] = []
    lowered = emit.expression(ir.PyBinOp("and", call, other), calls)
    assert ast.unparse(lowered) == "_any4(vm, L) and _b_len(_v1)"
    assert calls == ["_any4"]


def test_a_text_of_the_rules_is_a_plain_string_constant():
    """Python compiles only plain constants; a `Text` (a str the rules wrote) is one."""
    lowered = emit.expression(ir.Lit(Text("West")))
    assert type(lowered) is ast.Constant and type(lowered.value) is str and lowered.value == "West"
    assert ir.Lit(1) != ir.Lit(True) and ir.Lit(0) != ir.Lit(False)  # different constants


def test_equal_structures_have_equal_keys_and_different_ones_different():
    """The code cache finds a compiled module by its key (codecache.py)."""

    def key(value: ir.IRNode) -> bytes:
        return emit.function_module("_f", ("vm", "L"), (ir.PyReturn(value),))[1]

    assert key(ir.PyBinOp("+", X, ir.Lit(1))) == key(ir.PyBinOp("+", X, ir.Lit(1)))
    different = [
        ir.PyBinOp("+", X, ir.Lit(2)),
        ir.PyBinOp("-", X, ir.Lit(1)),
        ir.PyBinOp("+", X, ir.Lit(True)),  # True == 1 in Python, yet another constant
        ir.PyBinOp("+", Y, ir.Lit(1)),
        ir.PyBinOp("+", ir.Lit(1), X),
        ir.PyCall(ir.Global("_b_f"), (X, ir.Lit(1))),
    ]
    keys = {key(ir.PyBinOp("+", X, ir.Lit(1))), *(key(d) for d in different)}
    assert len(keys) == 1 + len(different)


def test_nodes_compare_by_what_they_write_and_a_constant_by_its_name():
    assert ir.PyBinOp("+", ir.VarSlot(1), ir.Lit(2)) == ir.PyBinOp("+", ir.VarSlot(1), ir.Lit(2))
    assert ir.Const("_k1", (1,)) == ir.Const("_k1", (1, 2))  # the name is the value's one place
    assert len({ir.Subscript(ir.VarSlot(1), X), ir.Subscript(ir.VarSlot(1), X)}) == 1


def test_a_tree_is_walked_in_the_order_it_is_written():
    """The passes rely on it: a read is "after the first `for`" if it is walked after it."""
    tree = ir.Comp(ir.Slot(1), (ir.CompFor("_v1", ir.Slot(2)), ir.CompIf(ir.Slot(3))))
    written = [n.index for n in ir.walk(tree) if type(n) is ir.Slot]
    assert written == [1, 2, 3]
    cond = ir.IfExp(ir.Slot(2), ir.Slot(1), ir.Slot(3))  # `(then if condition else otherwise)`
    assert [n.index for n in ir.walk(cond) if type(n) is ir.Slot] == [1, 2, 3]


def test_every_node_class_says_what_is_inside_it():
    """A pass walks a node's children from `ir._KIDS` (one small function per class, for
    speed): a node class missing from it would stop every walk with a KeyError, and one
    whose entry forgot a field would hide that field's reads from every pass."""
    kinds = (ir.IRNode, ir.Statement)
    classes = [c for c in vars(ir).values() if isinstance(c, type) and issubclass(c, kinds) and c not in kinds]
    assert set(classes) <= set(ir._KIDS)
    assert set(classes) - {ir.CompFor, ir.CompIf} <= set(emit._EXPR) | set(emit._STMT)  # (clauses: with their Comp)
    call = ir.PyCall(ir.Global("f"), (X,), (("k", Y),))
    assert ir.children(call) == (ir.Global("f"), X, Y)
    assert ir.children(ir.PyAssign((X,), ir.PyBinOp("+", X, Y))) == (X, ir.PyBinOp("+", X, Y))
    assert ir.children(ir.When(X, (ir.PyReturn(Y),), (ir.PyPass(),))) == (X, ir.PyReturn(Y), ir.PyPass())
    assert ir.children(ir.Charge(X)) == (ir.Global("_charge"), ir.VMRef(), X)  # `_charge(vm, x)`


def _game(tmp_path: Path, source: str):
    path = tmp_path / "t.game"
    path.write_text("game t { players 2..2 seats [a, b] }\n" + textwrap.dedent(source), encoding="utf-8")
    return load_game(path)


def _compiler(tmp_path: Path) -> tuple[Compiler, Checker]:
    """The compiler's working state after every pass, for the game `_game` wrote: its
    expression compiler (`src`) builds trees of the intermediate form; and the checker
    whose table it reads (an expression a test compiles is checked by it first)."""
    program = load_program(tmp_path / "t.game")
    check_program(program)
    return compiled_with_checker(program)


SMALL = """
    enum Suit { red, blue, green }
    var chips: player -> Suit -> int = 1
    var pile: list int = [1, 2, 3]
    def double(n: int) = n * 2
    procedure play() {
        rule "Play"
        game over []
    }
    """


def test_small_expressions_compile_to_the_nodes_of_their_meaning(tmp_path):
    game = _game(tmp_path, SMALL)
    compiled, checker = _compiler(tmp_path)
    span = game.compiled.header.span

    def tree(text: str):
        e = expression(checker, text, span, {"p": "player", "n": "int"})
        return compiled.expressions.src(e, Scope(["p", "n"]), {})

    chips, pile = compiled.tables.vars["chips"].slot, compiled.tables.vars["pile"].slot
    assert tree("n + 1") == ir.PyBinOp("+", ir.Slot(1), ir.Lit(1))
    read = tree("chips[p][blue]")  # a variable's entry, each key through its position
    assert type(read) is ir.Subscript and type(read.obj) is ir.Subscript and read.obj.obj == ir.VarSlot(chips)
    assert read.key == ir.Subscript(ir.TableRead(f"_i{chips}_1", "position"), ir.Lit("blue"))
    assert tree("double(n)") == ir.PyBinOp("*", ir.Group(ir.Slot(1)), ir.Lit(2))  # written in place
    assert type(tree("double(3)")) is ir.Lit  # folded at load
    assert tree("count(pile) > 0") == ir.Truth(ir.VarSlot(pile))  # whether it is empty, no count
    assert ast.unparse(emit.expression(tree("count(pile) == 0"))) == f"not V[{pile}]"
    assert type(tree("any([x > n for x in pile])")) is ir.PyCall  # a loop function that stops early


def test_coalesce_is_a_conditional_expression_or_one_computation(tmp_path):
    """`x ?? d` where x is only read is Python's conditional expression (as cheap as one);
    a computed x is computed once, by a helper; d is then computed only if x is none,
    unless it is a value already held."""
    _game(
        tmp_path,
        """
        entity Card { ops: int? }
        card coup { ops 3 }
        var maybe: int? = none
        var pile: list int = [1, 2, 3]
        def ops_of(c: Card) = c.ops
        procedure play() {
            rule "Play"
            game over []
        }
        """,
    )
    compiled, checker = _compiler(tmp_path)
    span = compiled.tables.program.header.span

    def tree(text: str):
        e = expression(checker, text, span, {"c": "Card", "n": "int"})
        return compiled.expressions.src(e, Scope(["c", "n"]), {})

    maybe = compiled.tables.vars["maybe"].slot
    assert ast.unparse(emit.expression(tree("maybe ?? 0"))) == f"V[{maybe}] if V[{maybe}] is not None else 0"
    assert ast.unparse(emit.expression(tree("c.ops ?? n"))).startswith(
        "_f_ops[L[0]] if _f_ops[L[0]] is not None else L[1]"
    )
    computed = tree("sum(pile) ?? n")  # (the checker would warn: never none; the compiler asks not)
    assert type(computed) is ir.PyCall and computed.func == ir.Global("_coalesce", ir.PYTHON)
    lazy = tree("sum(pile) ?? pile[n]")
    assert type(lazy) is ir.PyCall and lazy.func == ir.Global("_coalesce_lazy", ir.PYTHON)
    assert type(lazy.args[1]) is ir.PyLambda
    assert tree("none ?? n") == ir.Slot(1) and tree("3 ?? n") == ir.Lit(3)  # known at load
