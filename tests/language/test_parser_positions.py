"""The parser's trees carry lark's own positions.

The parser skips lark's position propagation where it would change nothing (a `?rule`
reduced to its one child: `parser._Positions`). Every tree it makes, and every tree on
its stack at a syntax error (which the error recovery reads), must be the one lark makes
with its propagation whole: each node's rule, every position field lark sets, and its
tokens' places.
"""

from __future__ import annotations

import re
from pathlib import Path

import lark
import pytest
from repo_paths import ROOT

from interpreter.language import parser

_FIELDS = (
    "line",
    "column",
    "end_line",
    "end_column",
    "start_pos",
    "end_pos",
    "container_line",
    "container_column",
    "container_end_line",
    "container_end_column",
    "container_start_pos",
    "container_end_pos",
    "empty",
)

_GAMES = sorted(p for folder in ("gamedefs", "examples") for p in (ROOT / folder).rglob("*.game"))


@pytest.fixture(scope="module")
def lark_whole() -> lark.Lark:
    """The grammar with lark's propagation on every rule, as the parser's was set up before."""
    return lark.Lark(
        parser.grammar_text(),
        parser="lalr",
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,
    )


def _placed(value) -> list:
    """Every node of a tree (or a token) with its positions, in order."""
    if isinstance(value, lark.Token):
        return [("token", value.type, str(value), value.line, value.column, value.end_line, value.end_column)]
    out = []
    for node in value.iter_subtrees_topdown():
        meta = node.meta
        positions = tuple(getattr(meta, f, None) for f in _FIELDS)
        kids = tuple(
            (c.type, c.line, c.column, c.end_line, c.end_column) if isinstance(c, lark.Token) else "tree"
            for c in node.children
        )
        out.append((node.data, positions, kids))
    return out


def test_some_rules_skip_the_propagation() -> None:
    """The one-child `?rule`s are the parser's own; the other rules keep lark's."""
    callbacks = parser._lark()._callbacks
    ours = [rule for rule, c in callbacks.items() if isinstance(c, parser._Positions)]
    assert ours
    assert all(rule.options.expand1 and not rule.alias for rule in ours)


@pytest.mark.parametrize("path", _GAMES, ids=lambda p: str(p.relative_to(ROOT)))
def test_trees_match_lark_positions(path: Path, lark_whole: lark.Lark) -> None:
    text = path.read_text(encoding="utf-8")
    assert _placed(parser._lark().parse(text, start="start")) == _placed(lark_whole.parse(text, start="start"))


@pytest.mark.parametrize(
    "text",
    [
        "game t { players 2..2 seats [a, b] }\nprocedure setup() {\n    let x = (1 + 2) * 3\n    if x > {\n}\n",
        "def f() = g(1, (2), h(3, 4)) and not 5 <",
    ],
)
def test_stack_at_an_error_matches_lark(text: str, lark_whole: lark.Lark) -> None:
    """The error recovery reads the positions of what is on the parser's stack."""
    stacks = []
    for p in (parser._lark(), lark_whole):
        with pytest.raises(lark.exceptions.UnexpectedInput) as err:
            p.parse(text, start="start")
        stack = err.value.interactive_parser.parser_state.value_stack
        stacks.append([placed for value in stack for placed in _placed(value)])
    assert stacks[0] == stacks[1]
    assert any(isinstance(entry[1], tuple) and entry[1][0] is not None for entry in stacks[0])


@pytest.mark.parametrize("cut", [0.3, 0.55, 0.8])
def test_stack_in_a_cut_game_matches_lark(cut: float, lark_whole: lark.Lark) -> None:
    """A bundled game cut off mid-expression: the deep stack of a real file."""
    text = (ROOT / "gamedefs" / "berlin_wall.game").read_text(encoding="utf-8")
    at = re.compile(r"^ +(let|if) .*?\(", re.M).search(text, int(len(text) * cut))
    assert at is not None
    test_stack_at_an_error_matches_lark(text[: at.end()] + "1 + }", lark_whole)
