"""The Wall is Down's game files as a newcomer reads them (cards/twid/README.md, "How a card
is written"): the core rules (gamedefs/twid.game) name no card, and each card's rule is in
its own block, its text slot's parameters declared once by the card kind."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from repo_paths import ROOT

CORE = ROOT / "gamedefs" / "twid.game"
CARD_FILES = sorted((ROOT / "cards" / "twid").glob("*.game"))


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a .game file without their comments (a `#` outside a string)."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = re.sub(r'"(\\.|[^"\\])*"|#.*', lambda m: m.group(0) if m.group(0).startswith('"') else "", line)
        out.append((n, code))
    return out


def _card_numbers() -> set[str]:
    with open(ROOT / "cards" / "twid" / "cards.tsv", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return {r[0] for r in rows}


def test_the_card_kind_declares_the_effect_slot_once():
    """cards/twid/README.md: `effect { ... }` runs when the text resolves, with `s`, `by` and
    `how` declared once by `entity TwidCard` (`slot effect(...)`): no card writes them out."""
    core = CORE.read_text(encoding="utf-8")
    assert "    slot effect(s: player, by: player, how: Use)\n" in core
    written = [
        f"{path.name}:{n}"
        for path in CARD_FILES + [ROOT / "examples" / "twid_house_rules.game"]
        for n, code in _code_lines(path)
        if re.match(r"\s*effect\s*\(", code)
    ]
    assert written == []
    bare = sum(1 for path in CARD_FILES for _, code in _code_lines(path) if re.fullmatch(r"\s*effect \{\s*", code))
    assert bare >= 88  # 85 cards with a text and the 3 promos


def test_the_core_names_no_card_by_its_number():
    """cards/twid/README.md: nothing about any card is written in the core rules. A card
    is not picked out by its number either: the promo cards are those the table's epoch
    column marks (`promo`), not "P1" and "P2" written by hand."""
    numbers = _card_numbers()
    found = [
        (n, literal)
        for n, code in _code_lines(CORE)
        for literal in re.findall(r'"((?:\\.|[^"\\])*)"', code)
        if literal in numbers
    ]
    assert found == []


def test_the_core_names_no_card_in_its_code():
    """cards/twid/README.md: the core's code (comments aside) names no card of cards.tsv: a
    card changes a rule through the core's queries, events and procedures, from its block."""
    with open(ROOT / "cards" / "twid" / "cards.tsv", encoding="utf-8") as f:
        titles = [r[1] for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    names = {re.sub(r"[^a-z0-9]+", "_", t.lower()).strip("_") for t in titles}
    renamed = {"europe", "asia", "africa", "middle_east", "south_america", "central_north_america"}
    names -= renamed  # the region scorings' rows, renamed in the table (`"Europe" as europe_scoring`)
    named = [
        (n, word)
        for n, code in _code_lines(CORE)
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", re.sub(r'"(\\.|[^"\\])*"', "", code))
        if word in names
    ]
    assert named == []
