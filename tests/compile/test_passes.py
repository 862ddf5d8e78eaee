"""The passes over the compiler's intermediate form (interpreter/compile/passes.py), on
small trees and small programs, and the rule that keeps the compiler honest: nothing in
interpreter/compile/ reads generated Python back (no regular expressions) and no error is
swallowed whole (docs/architecture.md, "The compiler's intermediate form")."""

from __future__ import annotations

import ast
import gc
import textwrap
from pathlib import Path

from checked_code import compiled_with_checker, expression
from repo_paths import ROOT

from interpreter import load_game
from interpreter.check.checker import Checker, check_program
from interpreter.compile import codecache, emit, ir, lazy, passes
from interpreter.compile.compiler import Compiler
from interpreter.compile.scope import Scope
from interpreter.language.program import load_program

COMPILE = ROOT / "interpreter" / "compile"
X, Y, Z = ir.Local("_v1"), ir.Local("_v2"), ir.Local("_v3")
N = ir.Local("__n")
POS = ir.TableRead("_i4_0", "position")


def test_computes_tells_a_call_or_a_list_made_from_a_read():
    assert not passes.computes(ir.Subscript(ir.VarSlot(1), ir.Subscript(POS, X)))
    assert not passes.computes(ir.IfExp(X, ir.Slot(1), ir.Lit("call(me)")))  # a text is no call
    assert passes.computes(ir.PyBinOp("+", X, ir.PyCall(ir.Global("_b_max"), (Y,))))
    assert passes.computes(ir.Comp(X, (ir.CompFor("_v1", Y),)))
    assert passes.computes(ir.QueryCall("q", (X,)))


def test_uses_vars_sees_the_variables_a_guard_reads():
    assert not passes.uses_vars(ir.Slot(0))
    assert passes.uses_vars(ir.Guarded(ir.Slot(0), "q", (3,), ir.QueryCall("q", ())))
    assert passes.uses_vars([ir.PyAssign((N,), ir.VarSlot(2))])


def test_free_locals_are_the_variables_read_and_not_bound_in_the_order_made():
    loop = ir.Comp(ir.PyBinOp("+", X, ir.Local("_v12")), (ir.CompFor("_v1", Z), ir.CompIf(ir.Local("_v10"))))
    assert passes.bound_locals(loop) == {"_v1"}
    assert passes.free_locals(loop) == ["_v3", "_v10", "_v12"]  # by number, not by name
    assert passes.free_locals(loop, ["_v10"]) == ["_v3", "_v12"]
    assert passes.free_locals(ir.PyLambda("_v2", ir.PyBinOp("<", Y, X))) == ["_v1"]


def test_hoistable_reads_are_those_the_same_at_every_turn():
    """`chips[who][x]` in a loop over x: `chips[who]` is the same at every turn, and so is a
    key's position or a field at a key the loop doesn't bind; the longest chain wins."""
    entry = ir.Subscript(ir.VarSlot(4), ir.Subscript(POS, Y))  # chips[who]: who is a parameter
    item = ir.Subscript(entry, ir.Subscript(ir.TableRead("_i4_1", "position"), X))  # chips[who][x]
    body = [ir.Loop("_v1", ir.VarSlot(2), (_returns_true_if(ir.PyBinOp(">", item, ir.Lit(1))),))]
    reads = passes.hoistable(body, passes.bound_locals(body))
    assert reads == [entry, ir.Subscript(POS, Y)]
    changed, made = passes.hoist(body, reads)
    assert made == [("__h0", entry)]  # the position is read only inside the entry: no second local
    assert _written(changed[0].body[0].condition) == "__h0[_i4_1[_v1]] > 1"


def _returns_true_if(condition: ir.IRNode) -> ir.When:
    """`if condition: return True`."""
    return ir.When(condition, (ir.PyReturn(ir.Lit(True)),), flat=True)


def _written(node: ir.IRNode) -> str:
    """`node` as Python would write its tree (a test's way to read a tree)."""
    return ast.unparse(emit.expression(node))


def test_only_the_reads_after_the_first_turn_are_hoisted():
    """Before the first `for`, a read is made once anyway: no local for it."""
    before = ir.Subscript(ir.VarSlot(5), ir.Lit(1))
    body = [ir.PyAssign((ir.Local("__i"),), before), ir.Loop("_v1", ir.Local("__i"), (ir.PyReturn(X),))]
    assert passes.hoistable(body, {"_v1"}) == []
    assert passes.hoistable(body, {"_v1"}, after_first_turn=False) == [before]
    comp = ir.Comp(before, (ir.CompFor("_v1", ir.VarSlot(3)), ir.CompIf(ir.Subscript(ir.VarSlot(6), ir.Lit(0)))))
    assert passes.hoistable(comp, {"_v1"}) == [ir.Subscript(ir.VarSlot(6), ir.Lit(0))]  # the element is written first


def test_a_key_that_calls_or_reads_the_loop_item_is_not_hoisted():
    calls = ir.Subscript(ir.VarSlot(1), ir.PyCall(ir.Global("_b_f"), (Y,)))
    by_item = ir.Subscript(ir.VarSlot(1), X)
    body = [ir.Loop("_v1", ir.VarSlot(2), (ir.Update(N, "+", calls), ir.Update(N, "+", by_item)))]
    assert passes.hoistable(body, {"_v1"}) == []


def test_hoisting_copies_only_what_it_changes():
    """A loop function is lowered as it is and again with its hoisted reads replaced: the
    statements with no read to replace are the same objects in both; a rewrite that
    finds nothing returns the very node it was given."""
    entry = ir.Subscript(ir.VarSlot(4), ir.Slot(1))
    plain = ir.Update(N, "+", ir.PyCall(ir.Global("_b_f"), (X, ir.Tuple((X,)))))
    reads = _returns_true_if(ir.PyBinOp(">", ir.Subscript(entry, X), ir.Lit(1)))
    body = [ir.Loop("_v1", ir.VarSlot(2), (plain, reads)), ir.PyReturn(ir.Lit(False))]
    changed, made = passes.hoist(body, passes.hoistable(body, {"_v1"}))
    assert made == [("__h0", entry)]
    assert changed[0].body[0] is plain and changed[1] is body[1]  # no read in them: not copied
    assert changed[0].body[1] is not reads
    assert _written(changed[0].body[1].condition) == "__h0[_v1] > 1"
    nest = ir.When(X, (plain,))
    assert passes.replace(nest, ir.Local("_v9"), ir.Lit(0)) is nest
    swapped = passes.replace(nest, X, ir.Lit(0))
    zero = ir.Lit(0)
    assert swapped == ir.When(zero, (ir.Update(N, "+", ir.PyCall(ir.Global("_b_f"), (zero, ir.Tuple((zero,))))),))


def test_hoisting_and_replacing_leave_nothing_for_the_cycle_collector():
    """Their walks are functions that call themselves: once done, nothing of them (nor
    the trees they held) is left in a cycle that only Python's collector would free (a
    compile makes thousands of them, and the collection after it walked them all)."""
    entry = ir.Subscript(ir.VarSlot(4), ir.Slot(1))
    reads = _returns_true_if(ir.PyBinOp(">", ir.Subscript(entry, X), ir.Lit(1)))
    body = [ir.Loop("_v1", ir.VarSlot(2), (reads,)), ir.PyReturn(ir.Lit(False))]
    gc.collect()
    gc.disable()
    try:
        changed, made = passes.hoist(body, passes.hoistable(body, {"_v1"}))
        swapped = passes.replace(changed[0], ir.Local("__h0"), ir.Lit(0))
        assert made == [("__h0", entry)] and swapped != changed[0]
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_substitute_writes_an_argument_in_place_of_its_variable():
    call = ir.PyCall(ir.Global("_any3", ir.LOOP), (ir.VMRef(), ir.Frame(), X))
    made = passes.substitute(call, {"_v1": ir.PyCall(ir.Global("_b_f"), (ir.Slot(1),))})
    assert _written(made) == "_any3(vm, L, _b_f(L[1]))"
    assert passes.count(made, X) == 0


def test_table_read_is_one_read_of_a_field_or_def_table():
    field = ir.TableRead("_f_cost", "field")
    assert passes.table_read(ir.Subscript(field, X)) == field
    assert passes.table_read(ir.Subscript(POS, X)) is None  # a key's position is no list
    assert passes.table_read(ir.Subscript(field, ir.Lit("x"))) is None
    assert passes.table_read(ir.Subscript(ir.Subscript(field, X), ir.Lit(0))) is None


def test_var_reads_are_the_variables_of_a_condition_that_reads_nothing_else():
    cond = ir.PyBinOp("in", ir.Slot(0), ir.VarSlot(7))  # `self in in_play`
    assert passes.var_reads(cond) == (7,)
    assert passes.var_reads(ir.PyBinOp("and", cond, ir.PyCall(ir.Global("_b_abs", ir.BUILTIN), (ir.VarSlot(2),)))) == (
        2,
        7,
    )
    assert passes.var_reads(ir.PyBinOp("in", ir.Slot(1), ir.VarSlot(7))) is None  # another local
    assert passes.var_reads(ir.QueryCall("q", (ir.Slot(0),))) is None
    assert passes.var_reads(ir.PyCall(ir.Global("_b_roll"), (ir.VMRef(),))) is None


def test_pure_is_a_value_of_its_frame_alone():
    assert passes.pure(ir.PyBinOp("+", ir.Slot(1), ir.Subscript(ir.TableRead("_f_ops", "field"), ir.Slot(0))))
    assert passes.pure(ir.PyCall(ir.TUPLE, (ir.Comp(X, (ir.CompFor("_v1", ir.Slot(1)),)),)))
    assert not passes.pure(ir.VarSlot(1))
    assert not passes.pure(ir.Players())
    assert not passes.pure(ir.Charge(ir.Slot(1)))  # spends the machine's budget


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


def test_the_passes_on_a_small_program(tmp_path):
    """A condition on a card's list reads one variable; a query's base reading a field
    is pure; a comprehension reading a variable's entry at every turn is a generated
    function reading it once."""
    game = _game(
        tmp_path,
        """
        enum Suit { red, blue, green, white, black, gold, silver, grey }
        var in_play: list Suit = []
        var chips: player -> Suit -> int = 1
        procedure play() {
            rule "Play"
            game over []
        }
        """,
    )
    compiled, checker = _compiler(tmp_path)
    span = game.compiled.header.span

    def tree(text: str):
        e = expression(checker, text, span, {"self": "Suit", "p": "player"})
        return compiled.expressions.src(e, Scope(["self", "p"]), {})

    assert passes.var_reads(tree("self in in_play")) == (compiled.tables.vars["in_play"].slot,)
    assert passes.var_reads(tree("p in in_play")) is None
    assert passes.pure(tree("[x for x in [red, blue] if x != self]"))
    assert not passes.pure(tree("count(in_play)"))
    made = tree("[x for x in members(Suit) if chips[p][x] > 1]")
    assert type(made) is ir.PyCall and made.func.kind == ir.LOOP  # `_listN(vm, L)`: chips[p] read once


def test_whether_a_def_is_static_is_kept_and_right_through_recursion(tmp_path):
    """Whether a def's body is static (so that its calls with static arguments are
    computed at load) is found once per def and kept (`_static_def`): a def that calls
    itself, directly or through another, is never static, whichever is asked first,
    and a def on static defs is, however often it is asked."""
    _game(
        tmp_path,
        """
        var pile: list int = [1, 2, 3]
        def double(n: int) = n * 2
        def quad(n: int) = double(double(n))
        def down(n: int) = if n <= 0 then 0 else up(n - 1)
        def up(n: int) = if n <= 0 then 0 else down(n - 1)
        def size() = count(pile)
        procedure play() {
            rule "Play"
            game over []
        }
        """,
    )
    compiled, checker = _compiler(tmp_path)
    span = compiled.tables.program.header.span

    def tree(text: str):
        return compiled.expressions.src(expression(checker, text, span, {"n": "int"}), Scope(["n"]), {})

    for _ in range(2):  # the second time from what was kept
        assert (
            compiled.expressions.static.static_def("up") is False
            and compiled.expressions.static.static_def("down") is False
        )
        assert (
            compiled.expressions.static.static_def("quad") is True
            and compiled.expressions.static.static_def("size") is False
        )
        assert tree("quad(3)") == ir.Lit(12)  # computed at load
        assert type(tree("quad(n)")) is not ir.Lit and type(tree("up(3)")) is not ir.Lit
    assert set(compiled.expressions.static._defs) >= {"up", "down", "quad", "double", "size"}


def test_whether_a_chosen_list_is_empty_is_a_truth_whichever_list_is_chosen(tmp_path):
    """`count(if c then xs else ys) == 0` is true or false, whichever list `if` picks (the
    compiler once wrote `not` before the whole `if`, so a false condition gave the list
    itself: docs/language.md section 6, `if C then A else B` is a value)."""
    game = _game(
        tmp_path,
        """
        var flag: bool = false
        var xs: list int = [1, 2]
        var empty: bool = true
        var some: bool = false
        procedure play() {
            rule "Play"
            empty = count(if flag then [] else xs) == 0
            some = count(if flag then [] else xs) > 0
            game over []
        }
        """,
    )
    state = game.start(players=2)
    assert game.var(state, "empty") is False
    assert game.var(state, "some") is True


def test_loops_that_stop_at_their_answer_nest_three_deep(tmp_path):
    """`any` of `any` of `any` over comprehensions: each loop written in place in the one
    around it (docs/language.md section 6: `any(...)` of a comprehension stops at the
    first true item). The inner loop's answer was once left unwritten two levels up (a
    NameError in play)."""
    game = _game(
        tmp_path,
        """
        var grid: list list list int = [[[1, 2], [3]], [[4], [5, 6]]]
        var n: int = 0
        var some: bool = false
        var every: bool = true
        procedure play() {
            rule "Play"
            some = any([any([any([x > n for x in row]) for row in plane]) for plane in grid])
            every = all([all([all([x > n + 1 for x in row]) for row in plane]) for plane in grid])
            game over []
        }
        """,
    )
    state = game.start(players=2)
    assert game.var(state, "some") is True
    assert game.var(state, "every") is False  # 1 is not above 1


def test_a_list_whose_condition_asks_a_loop_writes_that_loop_in_place(tmp_path):
    """`[x for x in xs if c or any(... for y in neighbours(x)) or d]`: one generated
    function whose loop writes the `any` in place (no call per item), keeping an item at
    its first true test, as `or` does; the same lists as the rules written plainly,
    beside lists whose `and` keeps them comprehensions."""
    source = """
        grid Board 4 by 1
        var mark: Board -> int = 0
        var reach: list Board = []
        var next_to: list Board = []
        var mixed: list Board = []
        procedure play() {
            rule "Play"
            mark[a1] = 1
            reach = [x for x in members(Board) if mark[x] > 0 or any([mark[y] > 0 for y in neighbours(x)]) or x == d1]
            next_to = [x for x in members(Board) if mark[x] == 0 and any([mark[y] > 0 for y in neighbours(x)])]
            mixed = [x for x in members(Board) if x != a1 and (x == d1 or all([mark[y] == 0 for y in neighbours(x)]))]
            game over []
        }
        """
    game = _game(tmp_path, source)
    lists = {"reach": ("a1", "b1", "d1"), "next_to": ("b1",), "mixed": ("c1", "d1")}
    state = game.start(players=2)
    assert {name: game.var(state, name) for name in lists} == lists
    compiled, checker = _compiler(tmp_path)
    span = game.compiled.header.span
    text = "[x for x in members(Board) if mark[x] > 0 or any([mark[y] > 0 for y in neighbours(x)]) or x == d1]"
    made = compiled.expressions.src(expression(checker, text, span, {}), Scope(), {})
    assert type(made) is ir.PyCall and made.func.kind == ir.LOOP and made.func.name.startswith("_list")
    waiting = lazy.pending(compiled.tables.ns[made.func.name])  # its intermediate form, not yet lowered
    assert waiting is not None
    calls = {n.name for s in waiting.stmts for n in ir.walk(s) if type(n) is ir.Global and n.kind == ir.LOOP}
    assert not [c for c in calls if c.startswith("_any")]  # the `any` is written in its loop, not called
    plain = load_game(tmp_path / "t.game", optimise=False)
    state = plain.start(players=2)
    assert {name: plain.var(state, name) for name in lists} == lists


# ---- the compiler reads no generated text ------------------------------------------------

# Broad handlers outside the compiler's own passes, each a boundary that must turn any
# failure into something else: a load error with a position, or a cache miss.
BOUNDARIES = {
    "passtables.py": "`loaded`: a value computed at load that fails is a diagnostic at its rule",
    "gamecache.py": "a damaged or foreign cache entry is a miss, whatever it raises",
}


def _broad(handler: ast.ExceptHandler) -> bool:
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(n is None or isinstance(n, ast.Name) and n.id in ("Exception", "BaseException") for n in names)


RUNTIME = COMPILE.parent / "runtime"


def test_no_python_text_is_compiled_or_run():
    """The compiler lowers its intermediate form to `ast` trees (emit.py): nothing in
    interpreter/compile/ or interpreter/runtime/ hands `exec`, `eval` or `compile`
    anything but a compiled module or a module tree (codecache.py's one `compile`)."""
    found = []
    for path in sorted([*COMPILE.glob("*.py"), *RUNTIME.glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            first = node.args[0] if node.args else None
            if node.func.id == "exec" and isinstance(first, ast.Call) and ast.unparse(first.func) == "compiled":
                continue
            if node.func.id == "exec" and isinstance(first, ast.Name) and first.id == "code":  # kept, compiled
                continue
            if node.func.id == "compile" and path.name == "codecache.py" and ast.unparse(first) == "tree":
                continue
            if node.func.id in ("exec", "eval", "compile"):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_every_module_compiled_for_a_game_is_a_tree(tmp_path, monkeypatch):
    compiled: list[object] = []
    real = compile

    def recording(source, name, mode):
        compiled.append(source)
        return real(source, name, mode)

    monkeypatch.setattr(codecache, "compile", recording, raising=False)
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setenv("GAMEDEF_CACHE", "off")
    _game(tmp_path, SMALL_GAME)
    assert compiled and all(type(tree) is ast.Module for tree in compiled)


SMALL_GAME = """
    var total: int = 0
    var pile: list int = [1, 2, 3]
    def double(n: int) = n * 2
    procedure play() {
        rule "Play"
        for x in pile {
            if any([y > x for y in pile]) { total += double(x) } else { log "{x}" }
        }
        choose n from pile by a label "take {n}"
        game over []
    }
    """


def test_the_compiler_reads_no_generated_text_and_swallows_no_error():
    """No module of interpreter/compile/ imports `re` (what the compiler knows about the
    code it generates comes from the tree, never from the text), and none but the named
    boundaries catches every exception."""
    broad, regex = [], []
    for path in sorted(COMPILE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name == "re" for a in node.names):
                regex.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and node.module == "re":
                regex.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.ExceptHandler) and _broad(node) and path.name not in BOUNDARIES:
                broad.append(f"{path.name}:{node.lineno}")
    assert regex == []
    assert broad == []


def test_generated_code_catches_only_what_a_hoisted_read_can_raise(tmp_path, monkeypatch):
    """A loop function's reads made before its loop fall back to the function as written
    only on a missing key or index or a key of the wrong kind, never on every error."""
    texts: list[str] = []
    real = codecache.compiled

    def recording(tree: ast.Module, key: bytes, name: str):
        texts.append(ast.unparse(tree))
        return real(tree, key, name)

    monkeypatch.setattr(codecache, "compiled", recording)
    _game(
        tmp_path,
        """
        enum Suit { red, blue, green, white, black, gold, silver, grey }
        var chips: player -> Suit -> int = 1
        def held(who: player, xs: list Suit) = any([chips[who][x] > 1 for x in xs])
        var out: bool = false
        procedure play() {
            rule "Play"
            out = held(a, members(Suit))
            game over []
        }
        """,
    )
    hoisted = [t for t in texts if "_as_written(" in t.split("\n", 1)[1]]  # the functions falling back to it
    assert hoisted and all("    except (LookupError, TypeError):\n" in t for t in hoisted)
    assert not any("except Exception" in t for t in texts)
