"""The code a designer's `test` block adds to the program: its `arrange` and `run` blocks
as procedures and each `expect` condition as a function, under `__test_` names.

Both `gamedef check` (and the language server, through the checker) and `gamedef test`
read a test's code through these declarations, so a test is checked exactly as it runs:
a misspelt name inside a `test` block is a check error at its line, and a helper of the
test file that only tests call is used.

An `expect` (or `until`) condition may use the test's own forms (`offered("TEXT")`, `offered()`,
`logged("TEXT")`, `logged("TEXT", SEAT)`, `ended()`, `winner()`, `deciding()`, `modifiers()`)
anywhere in it: the parser puts a parameter in each one's place
(`TestStep.forms`), and the test runner passes each form's value, found from the position
reached, when it asks the condition.
"""

from __future__ import annotations

import re

from interpreter.language import syntax as ast

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


def test_names(index: int) -> dict[str, str]:
    """The names of a test's generated procedures and functions (`__test_` names: the
    checker reports one that meets a name of the game's)."""
    return {"arrange": f"__test_{index}_arrange_", "run": f"__test_{index}_run", "expect": f"__test_{index}_expect_"}


def _form_params(step: ast.TestStep) -> tuple[ast.Param, ...]:
    """An `expect`'s test forms as the parameters of its function: a truth each, `winner()`
    the list of winners, `offered()` the list of labels, `deciding()` a seat or none,
    `modifiers()` a number."""
    params = []
    for name, kind, _, _ in step.forms:
        span = step.span
        t: ast.TypeExpr = ast.NamedType(span=span, name="bool")
        if kind == "winner":
            t = ast.ListType(span=span, element=ast.NamedType(span=span, name="player"))
        elif kind == "labels":
            t = ast.ListType(span=span, element=ast.NamedType(span=span, name="str"))
        elif kind == "decider":
            t = ast.OptionalType(span=span, inner=ast.NamedType(span=span, name="player"))
        elif kind == "modifiers":
            t = ast.NamedType(span=span, name="int")
        params.append(ast.Param(span=span, name=name, type=t))
    return tuple(params)


def test_decls(index: int, test: ast.Test, checked_only: bool = False) -> list:
    """The procedures and functions test number `index` adds to the program. With
    `checked_only`, the functions that hold only a part of a comparison (each side, asked
    when it fails, to say what came) are left out: they repeat code already in the
    condition, and a mistake in it would be reported twice."""
    names = test_names(index)
    decls: list = []
    # a test's code cites the test (and the sections the test names), as every rule must
    cite = (ast.Cite(span=test.span, section=f"Test {test.name}: {'; '.join(test.citations) or test.title}"),)
    if test.run is not None:
        end = ast.GameOver(span=test.span, winners=ast.ListLit(span=test.span, items=()))
        decls.append(ast.Procedure(span=test.span, name=names["run"], params=(), body=(*cite, *test.run, end)))
    for k, step in enumerate(test.steps):
        if step.kind == "arrange":
            body = (*cite, *step.body)
            decls.append(ast.Procedure(span=step.span, name=f"{names['arrange']}{k}", params=(), body=body))
        if step.kind not in ("holds", "until"):
            continue
        e = step.expr
        assert e is not None  # a `holds` or `until` step has its condition (the parser makes it so)
        params = _form_params(step)
        decls.append(ast.Def(span=step.span, name=f"{names['expect']}{k}", params=params, body=e))
        if step.kind == "holds" and isinstance(e, ast.BinOp) and e.op in COMPARISONS and not checked_only:
            decls.append(ast.Def(span=e.left.span, name=f"{names['expect']}{k}_left", params=params, body=e.left))
            decls.append(ast.Def(span=e.right.span, name=f"{names['expect']}{k}_right", params=params, body=e.right))
    return decls


def is_test_code(name: str) -> bool:
    """Is `name` one of the procedures or functions a test block adds?"""
    return name.startswith("__test_")


_TEST_CODE = re.compile(r"__test_\d+_(arrange|run|expect)_?\d*(?:_left|_right)?")


def shown_name(name: str) -> str:
    """How a message names the code it ran: a test's generated procedure or function is
    the test's `arrange`, `run` or `expect`, not its internal `__test_` name."""
    match = _TEST_CODE.fullmatch(name)
    return f"the test's `{match.group(1)}`" if match else name
