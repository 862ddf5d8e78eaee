"""The language server's answers (hover, definition, completion) read from what the checker
resolved (check/symbols.py), on The Wall is Down's own files and on small games of the
tests' own. Plain functions of `interpreter/lsp/analysis.py`: no editor, no protocol."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from repo_paths import ROOT

from interpreter.check.checker import Checker
from interpreter.check.symbols import ListOf, Maybe, Named
from interpreter.language.program import load_program
from interpreter.lsp import analysis as A


def _at(text: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[int, int]:
    """The 1-based line and column of `offset` characters into the `nth` `needle` of `text`."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += offset
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


@pytest.fixture(scope="module")
def pre_1() -> tuple[A.Analysis, str]:
    """The pre-9/11 card set of The Wall is Down, analysed as part of twid.game."""
    path = ROOT / "cards" / "twid" / "pre_1.game"
    text = path.read_text()
    return A.analyse(str(path), text), text


def test_hover_card_shows_the_values_the_game_reads(pre_1):
    """Empire of war (cards.tsv row 12: `pre`, 2 ops, block W, Military) as a designer reads
    it: its promo flag is none (twid.game reads `"pre" as none` from the epoch column), never
    the epoch column's raw text `pre`; its block is the member West, printed "W"."""
    analysis, text = pre_1
    shown = A.hover(analysis, text, *_at(text, "card empire_of_war", 5))
    assert 'TwidCard empire_of_war "Empire of war"' in shown
    assert "> US makes a destabilization with this ops value on a conflictive country." in shown
    assert '- number = `"12"`' in shown
    assert "- promo = `none`" in shown and "promo = pre" not in shown
    assert '- epoch = `pre` "pre 9/11"' in shown
    assert "- ops = `2`" in shown
    assert '- block = `West` "W"' in shown
    assert "- types = `[Military]`" in shown
    assert "- removed_after_text = `false`" in shown  # no * in its row
    assert "cards.tsv:13" in shown


def test_punctuation_card_has_no_ops(pre_1):
    """A punctuation card's ops cell is "P", read `as none` (twid.game: `ops with "P" as none`)."""
    analysis, text = pre_1
    europe = next(s for s in analysis.symbols if s.name == "europe_scoring")
    assert "- ops = `none`" in europe.doc and "ops = `P`" not in europe.doc


def test_completion_after_self_lists_the_cards_kind_only(pre_1):
    """After `self.` in a TwidCard's effect: TwidCard's properties, not a Country's; after
    a country's name (a row of countries.tsv): the Country's, not a card's."""
    analysis, text = pre_1
    typed = text.replace(
        "        let points = if this_ops", "        let q = self.\n        let points = if this_ops", 1
    )
    line, column = _at(typed, "self.\n", len("self."))
    labels = {label for label, _, _ in A.completions(analysis, typed, line, column)}
    assert {"ops", "block", "epoch", "types", "number", "promo"} <= labels
    assert "stability" not in labels and "region" not in labels
    country = text.replace(
        "        let points = if this_ops",
        "        let q = czech_republic_slovakia.\n        let points = if this_ops",
        1,
    )
    line, column = _at(country, "slovakia.\n", len("slovakia."))
    labels = {label for label, _, _ in A.completions(analysis, country, line, column)}
    assert {"conflictive", "stability", "region"} <= labels  # a country named outright: a Country's
    assert "ops" not in labels and "epoch" not in labels


def test_variant_card_in_its_test_file():
    """In the test file of twid_house_rules.game, the house card that only its variant
    `velvet_revolution` adds is hovered and found: its title, printed text and the line
    of the variant that declares it."""
    path = ROOT / "examples" / "twid_house_rules.test.game"
    text = path.read_text()
    analysis = A.analyse(str(path), text)
    assert analysis.diagnostics == ()
    where = _at(text, "removed == [velvet_revolution]", len("removed == [") + 2)
    shown = A.hover(analysis, text, *where)
    assert shown is not None
    assert 'card velvet_revolution "Velvet Revolution" : TwidCard (variant velvet_revolution)' in shown
    assert "> Remove all Russian influence in Czech Republic-Slovakia." in shown
    assert "twid_house_rules.game:20" in shown
    game = (ROOT / "examples" / "twid_house_rules.game").resolve()
    found = A.definition(analysis, text, *where)
    assert [(s.path, s.line) for s in found] == [(str(game), 20)]


GAME = """\
game g { players 2..2 seats [a, b] }
entity Spell { power: int  cost: int? }
entity Land { size: int }
card spark "Spark": Spell { power 2 text "Gain 2." }
card moor "Moor": Land { size 3 }
var score: player -> int = 0
var held: list Spell = []
procedure play() {
    rule "G 1"
    gain(a, 1)
    game over players
}
procedure gain(p: player, spark: int) {
    rule "G 2"
    score[p] += spark
    for s in held {
        score[p] += s.power
    }
}

view {
    text "Points: {score[a]} to {score[b]}"
}
"""


def test_hover_follows_the_checkers_binding(tmp_path: Path):
    """A parameter named like a card: hover on its use shows the parameter (the binding
    the checker resolved), not the card of the same name; definition leads to it."""
    path = tmp_path / "g.game"
    path.write_text(GAME)
    analysis = A.analyse(str(path), GAME)
    assert analysis.diagnostics == ()
    where = _at(GAME, "+= spark", 3)
    shown = A.hover(analysis, GAME, *where)
    assert "spark: int" in shown and "Gain 2." not in shown
    assert A.definition(analysis, GAME, *where) == [A.Span(str(path), 13, 27, 32)]
    # a loop's variable of a list of spells: after `s.`, a Spell's properties only
    line, column = _at(GAME, "s.power", 2)
    labels = {label for label, _, _ in A.completions(analysis, GAME, line, column)}
    assert {"power", "cost"} <= labels and "size" not in labels


def test_the_checker_records_bindings_and_types(tmp_path: Path):
    """The checker's own record: each name use with its binding (kind, where declared,
    type), each expression's type as a frozen class, each local with its type."""
    path = tmp_path / "g.game"
    path.write_text(GAME)
    checker = Checker(load_program(str(path)))
    checker.run()
    table = checker.table
    span, b = table.use_at(str(path), *_at(GAME, "+= spark", 3))
    assert (b.name, b.kind, b.declared.line, str(b.type)) == ("spark", "parameter", 13, "int")
    _, b = table.use_at(str(path), *_at(GAME, "score[p]", 1, nth=0))
    assert (b.kind, b.declared.line, str(b.type)) == ("var", 6, "player -> int")
    _, b = table.use_at(str(path), *_at(GAME, "s.power", 3))
    assert (b.kind, b.declared.line, b.type) == ("field", 2, Named("int"))
    loop = next(x for x in table.locals.values() if x.name == "s")
    assert loop.type == Named("Spell") and loop.declared.line == 16
    held = next(t for s, t in table.types.items() if s.line == 16 and s.column == 14)
    assert held == ListOf(Named("Spell"))
    assert table.fields["Spell"]["cost"].type == Maybe(Named("int"))
    assert attrs.has(type(held))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        held.item = Named("int")  # type: ignore[misc]
