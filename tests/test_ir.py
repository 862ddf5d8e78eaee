"""The compiler's intermediate form (interpreter/compile/ir.py) and its one emitter
(emit.py): what each node is written as, that a tree is walked in the order it is
written, and the trees small expressions of a program compile to
(docs/architecture.md, "The compiler's intermediate form")."""

from __future__ import annotations

import textwrap
from pathlib import Path

from interpreter import load_game
from interpreter.check.checker import check_program
from interpreter.compile import emit, ir
from interpreter.compile.compiler import Compiler
from interpreter.compile.scope import Scope
from interpreter.language.parser import parse_expression
from interpreter.language.program import load_program

X, Y = ir.Local("_v1"), ir.Local("_v2")


def test_each_node_is_written_as_python():
    cases = [
        (ir.Lit("a'b"), '"a\'b"'),
        (ir.Lit(None), "None"),
        (ir.Const("_k3", (1, 2)), "_k3"),
        (ir.Slot(2), "L[2]"),
        (ir.Var(7), "V[7]"),
        (ir.Players(), "vm.players"),
        (ir.Group(ir.Slot(1)), "(L[1])"),
        (ir.Subscript(ir.Table("_f_cost", "field"), X), "_f_cost[_v1]"),
        (ir.Head(ir.Lit("abc"), 1), "'abc'[:1]"),
        (ir.Call(ir.Attr(X, "count"), (Y,)), "_v1.count(_v2)"),
        (ir.Call(ir.Global("_b_f"), (X,), (("first", ir.Lit(True)),)), "_b_f(_v1, first=True)"),
        (ir.Call(ir.Global("_b_g"), (), (("first", ir.Lit(True)),)), "_b_g(first=True)"),
        (ir.Tuple(()), "()"),
        (ir.Tuple((X,)), "(_v1,)"),
        (ir.List((X, Y)), "[_v1, _v2]"),
        (ir.BinOp("+", X, ir.Lit(1)), "(_v1 + 1)"),
        (ir.Not(X), "(not _v1)"),
        (ir.Not(X, bare=True), "not _v1"),
        (ir.Truth(X), "(not not _v1)"),
        (ir.Neg(X), "(-_v1)"),
        (ir.IfExp(X, ir.Lit(1), ir.Lit(2)), "(1 if _v1 else 2)"),
        (ir.Lambda("_v2", ir.BinOp(">", Y, ir.Lit(0))), "(lambda _v2: (_v2 > 0))"),
        (ir.Comp(X, (ir.For("_v1", ir.Var(0)), ir.If(X))), "[_v1 for _v1 in V[0] if _v1]"),
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
        assert emit.expr(node) == text, node


def test_statements_are_written_indented():
    stmts = [
        ir.line("__n = 0"),
        ir.Loop("_v1", ir.Var(2), (ir.Nest(ir.line("if ", X, ":"), (ir.line("__n += 1"),)),)),
        ir.line("return __n"),
    ]
    assert emit.body(stmts) == [
        "    __n = 0",
        "    for _v1 in V[2]:",
        "        if _v1:",
        "            __n += 1",
        "    return __n",
    ]


def test_the_emitter_lists_the_generated_functions_a_text_calls():
    call = ir.Call(ir.Global("_any4", ir.LOOP), (ir.VM(), ir.Frame()))
    other = ir.Call(ir.Global("_b_len"), (X,))
    calls: list[str] = []
    assert emit.expr(ir.BinOp("and", call, other), calls) == "(_any4(vm, L) and _b_len(_v1))"
    assert calls == ["_any4"]


def test_nodes_compare_by_what_they_write_and_a_constant_by_its_name():
    assert ir.BinOp("+", ir.Var(1), ir.Lit(2)) == ir.BinOp("+", ir.Var(1), ir.Lit(2))
    assert ir.Const("_k1", (1,)) == ir.Const("_k1", (1, 2))  # the name is the value's one place
    assert len({ir.Subscript(ir.Var(1), X), ir.Subscript(ir.Var(1), X)}) == 1


def test_a_tree_is_walked_in_the_order_it_is_written():
    """The passes rely on it: a read is "after the first `for`" if it is walked after it."""
    tree = ir.Comp(ir.Slot(1), (ir.For("_v1", ir.Slot(2)), ir.If(ir.Slot(3))))
    written = [n.index for n in ir.walk(tree) if type(n) is ir.Slot]
    assert written == [1, 2, 3]
    cond = ir.IfExp(ir.Slot(2), ir.Slot(1), ir.Slot(3))  # `(then if condition else otherwise)`
    assert [n.index for n in ir.walk(cond) if type(n) is ir.Slot] == [1, 2, 3]


def test_every_node_class_says_what_is_inside_it():
    """A pass walks a node's children from `ir._KIDS` (one small function per class, for
    speed): a node class missing from it would stop every walk with a KeyError, and one
    whose entry forgot a field would hide that field's reads from every pass."""
    classes = [c for c in vars(ir).values() if isinstance(c, type) and issubclass(c, ir.Node) and c is not ir.Node]
    assert {*classes, ir.Line, ir.Nest, ir.Loop} <= set(ir._KIDS)
    call = ir.Call(ir.Global("f"), (X,), (("k", Y),))
    assert ir.children(call) == (ir.Global("f"), X, Y)
    assert ir.children(ir.Line(("x = ", X, " + ", Y))) == (X, Y)
    assert ir.children(ir.Charge(X)) == (ir.Global("_charge"), ir.VM(), X)  # `_charge(vm, x)`


def test_a_kept_text_is_written_again_without_walking_its_node(monkeypatch):
    """An inlined def's body is written once to measure it and kept (`emit.kept`): the
    bodies around it write its kept text, and list the loop functions it calls, without
    walking it again; until `forget`, which a new tree calls."""
    body = ir.BinOp("+", ir.Call(ir.Global("_any4", ir.LOOP), (ir.VM(), ir.Frame())), ir.Lit(1))
    assert emit.kept(body) == "(_any4(vm, L) + 1)"
    walked: list[ir.Node] = []
    writer = emit._EXPR[ir.BinOp]
    monkeypatch.setitem(emit._EXPR, ir.BinOp, lambda n, out, calls: (walked.append(n), writer(n, out, calls)))
    calls: list[str] = []
    around = ir.IfExp(ir.Slot(1), body, ir.Lit(0))
    assert emit.expr(around, calls) == "((_any4(vm, L) + 1) if L[1] else 0)"
    assert calls == ["_any4"] and walked == []
    equal = ir.BinOp("+", ir.Call(ir.Global("_any4", ir.LOOP), (ir.VM(), ir.Frame())), ir.Lit(1))
    assert emit.expr(equal) == "(_any4(vm, L) + 1)" and walked == [equal]  # kept by identity, not by value
    emit.forget()
    assert emit.expr(body) == "(_any4(vm, L) + 1)" and walked == [equal, body]


def _game(tmp_path: Path, source: str):
    path = tmp_path / "t.game"
    path.write_text("game t { players 2..2 seats [a, b] }\n" + textwrap.dedent(source), encoding="utf-8")
    return load_game(path)


def _compiler(tmp_path: Path) -> Compiler:
    """The compiler's working state after every pass, for the game `_game` wrote: its
    expression compiler (`src`) builds trees of the intermediate form."""
    program = load_program(tmp_path / "t.game")
    check_program(program)
    return Compiler(program, {}).run()


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
    compiled = _compiler(tmp_path)
    span = game.compiled.header.span

    def tree(text: str, names=("p", "n")):
        return compiled.expressions.src(parse_expression(text, span), Scope(list(names)), {})

    chips, pile = compiled.tables.vars["chips"].slot, compiled.tables.vars["pile"].slot
    assert tree("n + 1") == ir.BinOp("+", ir.Slot(1), ir.Lit(1))
    read = tree("chips[p][blue]")  # a variable's entry, each key through its position
    assert type(read) is ir.Subscript and type(read.obj) is ir.Subscript and read.obj.obj == ir.Var(chips)
    assert read.key == ir.Subscript(ir.Table(f"_i{chips}_1", "position"), ir.Lit("blue"))
    assert tree("double(n)") == ir.BinOp("*", ir.Group(ir.Slot(1)), ir.Lit(2))  # written in place
    assert type(tree("double(3)")) is ir.Lit  # folded at load
    assert tree("count(pile) > 0") == ir.Truth(ir.Var(pile))  # whether it is empty, no count
    assert emit.expr(tree("count(pile) == 0")) == f"(not V[{pile}])"
    assert type(tree("any([x > n for x in pile])")) is ir.Call  # a loop function that stops early


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
    compiled = _compiler(tmp_path)
    span = compiled.tables.program.header.span

    def tree(text: str):
        return compiled.expressions.src(parse_expression(text, span), Scope(["c", "n"]), {})

    maybe = compiled.tables.vars["maybe"].slot
    assert emit.expr(tree("maybe ?? 0")) == f"(V[{maybe}] if (V[{maybe}] is not None) else 0)"
    assert emit.expr(tree("c.ops ?? n")).startswith("(_f_ops[L[0]] if (_f_ops[L[0]] is not None) else L[1])")
    computed = tree("sum(pile) ?? n")  # (the checker would warn: never none; the compiler asks not)
    assert type(computed) is ir.Call and computed.func == ir.Global("_coalesce", ir.PYTHON)
    lazy = tree("sum(pile) ?? pile[n]")
    assert type(lazy) is ir.Call and lazy.func == ir.Global("_coalesce_lazy", ir.PYTHON)
    assert type(lazy.args[1]) is ir.Lambda
    assert tree("none ?? n") == ir.Slot(1) and tree("3 ?? n") == ir.Lit(3)  # known at load
