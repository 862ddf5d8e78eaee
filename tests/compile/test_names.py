"""The compiler reads what each name is from the checker's symbol table (compile/names.py):
a name is resolved once, by the checker, and compiled as the table says; the compiler has
no look-up of its own of what a name is by its spelling."""

from __future__ import annotations

import inspect
import re
import textwrap

import attrs

from interpreter.check.checker import check_game
from interpreter.compile.compiler import compile_game
from interpreter.compile.expressions import ExpressionCompiler
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
