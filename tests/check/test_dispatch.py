"""The checker and the compilers find the method for a syntax node by its class's name
(`_decl_Card`, `_stmt_Let`, `_Call`, `_s_Assign`, `_g_Call`); a method whose class was
renamed would never be called again, and a declaration would go unchecked without a word.
Every such method must name a class of the syntax tree."""

from __future__ import annotations

import sys

import pytest

from interpreter.check.checker import Checker
from interpreter.compile.expressions import ExpressionCompiler
from interpreter.compile.statements import StatementCompiler
from interpreter.language import syntax as ast

NODE_CLASSES = {name for name, value in vars(ast).items() if isinstance(value, type)}
CALLED_BY_NAME = {"_g_Coalesce"}  # a helper the `??` of `_g_BinOp` calls itself, not a dispatch


@pytest.mark.parametrize(
    ("owner", "prefix"),
    [(Checker, "_decl_"), (Checker, "_stmt_"), (StatementCompiler, "_s_"), (ExpressionCompiler, "_g_")],
)
def test_each_method_found_by_a_class_name_names_a_class(owner, prefix):
    methods = [name for name in vars(owner) if name.startswith(prefix) and name not in CALLED_BY_NAME]
    assert methods, f"{owner.__name__} has no {prefix} methods: the test no longer sees its dispatch"
    # the syntax tree's classes, and nodes of the owner's own module (a compiler's own steps)
    own = {name for name, value in vars(sys.modules[owner.__module__]).items() if isinstance(value, type)}
    stray = [name for name in methods if name.removeprefix(prefix) not in NODE_CLASSES | own]
    assert stray == [], f"{owner.__name__}: {stray} name no class of the syntax tree"


def test_each_declaration_with_data_has_its_check():
    """A declaration kind that the checker reads (a table, a card, a var...) has its method."""
    for name in ("DataTable", "Card", "Var", "Def", "Procedure", "Entity", "Option"):
        assert hasattr(Checker, f"_decl_{name}"), name
