"""The compiler reads what each name is from the checker's symbol table (compile/names.py):
a name is resolved once, by the checker, and compiled as the table says; the compiler has
no look-up of its own of what a name is by its spelling."""

from __future__ import annotations

import inspect
import re
import textwrap

import attrs

from interpreter.check.checker import check_game
from interpreter.compile.blocks import BlockCompiler
from interpreter.compile.compiler import compile_game
from interpreter.compile.expressions import ExpressionCompiler
from interpreter.compile.passtables import PassTables
from interpreter.compile.statements import StatementCompiler
from interpreter.compile.static import StaticAnalysis
from interpreter.language.program import load_program
from interpreter.runtime.game import Game

# A local named like a card, a parameter named like a variable: the inner name is meant.
SHADOWS = """
entity Card { ops: int }
card coup { ops 3 }
var score: int = 7
var out_local: int = 0
var out_param: int = 0
var out_card: int = 0
def plus(score: int) = score + 1
procedure play() {
    rule "Play"
    let coup = 5
    out_local = coup
    out_param = plus(10)
    out_card = ops_of()
    game over []
}
def ops_of() = coup.ops
"""


def _program(tmp_path):
    path = tmp_path / "t.game"
    text = "game t { players 2..2 seats [a, b] }\n" + textwrap.dedent(SHADOWS)
    path.write_text(text, encoding="utf-8")
    return load_program(path, ()), text.splitlines()


def _end(program, symbols) -> dict[str, int]:
    game = Game(compile_game(program, {}, symbols=symbols), "t", (), {})
    state = game.start(players=2)
    return {n: game.var(state, n) for n in ("out_local", "out_param", "out_card")}


def _use(symbols, lines: list[str], line_text: str, name: str):
    """The span and binding of the use of `name` on the line that reads `line_text`."""
    line = next(i + 1 for i, text in enumerate(lines) if text.strip() == line_text)
    return next((s, b) for s, b in symbols.uses.items() if s.line == line and b.name == name)


def test_a_local_or_parameter_named_like_a_global_is_compiled_as_the_table_says(tmp_path):
    """The checker finds `coup` in `out_local = coup` a local (the `let`), not the card,
    and `score` in `plus`'s body its parameter, not the variable; the compiled game reads
    the local and the parameter (5, 10 + 1), and the card where no local hides it (3)."""
    program, lines = _program(tmp_path)
    symbols, _ = check_game(program)
    assert _use(symbols, lines, "out_local = coup", "coup")[1].kind == "local"
    assert _use(symbols, lines, "def plus(score: int) = score + 1", "score")[1].kind == "parameter"
    assert _use(symbols, lines, "def ops_of() = coup.ops", "coup")[1].kind == "constant"
    assert _end(program, symbols) == {"out_local": 5, "out_param": 11, "out_card": 3}


def test_the_compiler_follows_the_table_not_the_spelling(tmp_path):
    """Told by the table that `score` in `plus`'s body is the variable (7), the compiler
    reads the variable, though a parameter of that name is in scope: what a name is comes
    from the checker's table alone."""
    program, lines = _program(tmp_path)
    symbols, _ = check_game(program)
    span, binding = _use(symbols, lines, "def plus(score: int) = score + 1", "score")
    symbols.uses[span] = attrs.evolve(binding, kind="var")
    assert _end(program, symbols)["out_param"] == 8


def test_no_look_up_of_a_name_by_its_spelling_is_left_in_the_compiler():
    """A name expression's kind (local, variable, option, constant, def, the seats) is
    decided by the table: the expression compiler's and the static analysis's handling of
    a name ask no table of names whether the name is in it."""
    for source in (inspect.getsource(ExpressionCompiler._g_Name), inspect.getsource(StaticAnalysis._static_name)):
        assert "names.kind(e)" in source
        assert not re.search(r"\bn in self\.(tables|fields)\.", source), source
        assert not re.search(r'\bn == "players"', source), source


# Calls: a def named like a built-in, a local named like a def and like a procedure.
CALLS = """
var out_max: int = 0
var out_bonus: int = 0
var out_proc: int = 0
def max(a: int, b: int) = a
def bonus() = 2
procedure give(n: int): int {
    rule "Give"
    return n + 1
}
procedure play() {
    rule "Play"
    out_max = max(1, 9)
    let bonus = 40
    out_bonus = bonus + bonus()
    let give = 5
    let got = give(give)
    out_proc = got
    game over []
}
"""


def _calls(tmp_path):
    path = tmp_path / "calls.game"
    text = "game t { players 2..2 seats [a, b] }\n" + textwrap.dedent(CALLS)
    path.write_text(text, encoding="utf-8")
    return load_program(path, ()), text.splitlines()


def _call_ends(program, symbols) -> dict[str, int]:
    game = Game(compile_game(program, {}, symbols=symbols), "t", (), {})
    state = game.start(players=2)
    return {n: game.var(state, n) for n in ("out_max", "out_bonus", "out_proc")}


def test_a_call_is_compiled_as_the_checker_resolved_it(tmp_path):
    """The checker finds `max(1, 9)` the game's def (declared before the built-in is
    looked at), `bonus()` the def though a local `bonus` is in scope, and `give(give)` the
    procedure given the local `give`; the compiled game calls what the table says: the
    def (1, not the built-in's 9), the def beside the local (40 + 2), the procedure (5 + 1)."""
    program, lines = _calls(tmp_path)
    symbols, _ = check_game(program)
    assert _use(symbols, lines, "out_max = max(1, 9)", "max")[1].kind == "def"
    assert _use(symbols, lines, "out_bonus = bonus + bonus()", "bonus")[1].kind == "local"
    line = next(i + 1 for i, text in enumerate(lines) if text.strip() == "let got = give(give)")
    kinds = sorted(b.kind for s, b in symbols.uses.items() if s.line == line and b.name == "give")
    assert kinds == ["local", "procedure"]
    assert _call_ends(program, symbols) == {"out_max": 1, "out_bonus": 42, "out_proc": 6}


def test_the_compiler_calls_what_the_table_says_not_what_the_spelling_finds(tmp_path):
    """Told by the table that `max(1, 9)` calls the built-in, the compiler calls the
    built-in (9), though a def of that name is declared: which function a call names comes
    from the checker's table alone."""
    program, lines = _calls(tmp_path)
    symbols, _ = check_game(program)
    span, binding = _use(symbols, lines, "out_max = max(1, 9)", "max")
    symbols.uses[span] = attrs.evolve(binding, kind="builtin")
    assert _call_ends(program, symbols)["out_max"] == 9


def test_no_look_up_of_a_call_by_its_spelling_is_left_in_the_compiler():
    """Which query, def, procedure or built-in a call names is decided by the table: the
    expression compiler's, the static analysis's and the statement compiler's handling of a
    call ask `names.call`, and none asks the tables of defs, queries or procedures whether
    the call's name is in them."""
    sources = (
        inspect.getsource(ExpressionCompiler),
        inspect.getsource(StaticAnalysis._static_call),
        inspect.getsource(StatementCompiler._call),
        inspect.getsource(PassTables.proc_call),
    )
    for source in sources:
        assert "names.call(" in source
        assert not re.search(r"\bfunc (not )?in self\.tables\.(defs|def_decls|queries|procs|proc_decls)\b", source)
        assert not re.search(r'"\w+" (not )?in self\.tables\.(defs|queries)\b', source)


# Assignment targets and members: a local named like a variable assigned and indexed, a
# parameter named like a variable assigned, a property named like a variable and a local.
TARGETS = """
entity Card { ops: int  score: int }
card coup { ops 3 score 4 }
var score: int = 7
var tally: list int = [7, 8]
var out_var: int = 0
var out_tally: int = 0
var out_member: int = 0
procedure bump(out_var: int) {
    rule "Bump"
    out_var = 50
}
procedure play() {
    rule "Play"
    let ops = 1
    let tally = [10, 20]
    tally[0] = 5
    out_tally = tally[0] + tally[1]
    score = 100
    out_var = score
    bump(1)
    out_member = coup.score + coup.ops + ops
    game over []
}
"""

_OUT = ("out_var", "out_tally", "out_member", "score", "tally")


def _targets(tmp_path):
    path = tmp_path / "targets.game"
    text = "game t { players 2..2 seats [a, b] }\n" + textwrap.dedent(TARGETS)
    path.write_text(text, encoding="utf-8")
    return load_program(path, ()), text.splitlines()


def _target_ends(program, symbols) -> dict:
    game = Game(compile_game(program, {}, symbols=symbols), "t", (), {})
    state = game.start(players=2)
    return {n: game.var(state, n) for n in _OUT}


def _doctored(symbols, lines: list[str], line_text: str, name: str, kind: str) -> None:
    """Every use of `name` on the line that reads `line_text` told to be a `kind`."""
    line = next(i + 1 for i, text in enumerate(lines) if text.strip() == line_text)
    for span, b in list(symbols.uses.items()):
        if span.line == line and b.name == name:
            symbols.uses[span] = attrs.evolve(b, kind=kind)


def test_targets_and_members_are_compiled_as_the_checker_resolved_them(tmp_path):
    """`tally[0] = 5` assigns the local list, not the variable of that name, and
    `tally[0] + tally[1]` reads it (5 + 20); `out_var = 50` in `bump` assigns its
    parameter, not the variable; `score = 100` assigns the variable; `coup.score` is the
    card's property (4), not the variable `score`, and `coup.ops` the property beside a
    local `ops`: 4 + 3 + 1."""
    program, lines = _targets(tmp_path)
    symbols, _ = check_game(program)
    assert _use(symbols, lines, "tally[0] = 5", "tally")[1].kind == "local"
    assert _use(symbols, lines, "out_var = 50", "out_var")[1].kind == "parameter"
    assert _use(symbols, lines, "score = 100", "score")[1].kind == "var"
    assert _use(symbols, lines, "out_member = coup.score + coup.ops + ops", "score")[1].kind == "field"
    ends = {"out_var": 100, "out_tally": 25, "out_member": 8, "score": 100, "tally": (7, 8)}
    assert _target_ends(program, symbols) == ends


def test_the_compiler_assigns_and_reads_what_the_table_says(tmp_path):
    """Told by the table that the target of `out_var = 50` in `bump` is the variable, the
    compiled procedure assigns the variable (50); that `tally` in `tally[0] = 5` is the
    variable, it changes the variable's list ([5, 8]) and the local is left (10 + 20);
    that `tally` in `tally[0] + tally[1]` is the variable, it reads the variable's list
    (7 + 8). Targets, and the list or map an index reads, come from the checker's table
    alone."""
    program, lines = _targets(tmp_path)
    symbols, _ = check_game(program)
    _doctored(symbols, lines, "out_var = 50", "out_var", "var")
    assert _target_ends(program, symbols)["out_var"] == 50
    symbols, _ = check_game(program)
    _doctored(symbols, lines, "tally[0] = 5", "tally", "var")
    ends = _target_ends(program, symbols)
    assert (ends["tally"], ends["out_tally"]) == ((5, 8), 30)
    symbols, _ = check_game(program)
    _doctored(symbols, lines, "out_tally = tally[0] + tally[1]", "tally", "var")
    assert _target_ends(program, symbols)["out_tally"] == 15


def test_no_look_up_of_a_target_or_an_indexed_name_by_its_spelling_is_left_in_the_compiler():
    """Whether an assignment's target, or the name an index reads, is a local or a
    variable is decided by the table: the compilers ask `names.target` and `names.kind`,
    not whether the name is among the body's slots or the game's variables."""
    for source in (
        inspect.getsource(BlockCompiler._assign_lines),
        inspect.getsource(BlockCompiler._watched),
        inspect.getsource(StatementCompiler._s_Assign),
        inspect.getsource(ExpressionCompiler._g_Index),
    ):
        assert "names.target(s)" in source or "names.kind(base)" in source
        assert not re.search(r"\b(s\.name|n) (not )?in (scope\.slots|self\.tables\.vars)\b", source), source
