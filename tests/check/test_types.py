"""The checker's types are frozen classes (check/types.py), one representation from the
first look at a type to the symbol table the compiler, saving and the language server read:
never a tuple taken apart by position."""

from __future__ import annotations

import re

import attrs
import pytest
from repo_paths import ROOT

from interpreter.check import types as T
from interpreter.check.checker import Checker, local_types
from interpreter.check.types import ANY, INT, NONE, PLAYER, ListOf, MapOf, Maybe, Named, Type, TypeName
from interpreter.language.program import load_program


def _recorded(table) -> list:
    """Every type the symbol table holds: expressions', bindings', defs', properties', locals'."""
    found = list(table.types.values()) + list(table.defs.values())
    found += [b.type for b in (*table.uses.values(), *table.locals.values(), *table.globals.values())]
    found += [b.type for fields in table.fields.values() for b in fields.values()]
    found += [t for scope in table.scopes.values() for ts in scope.values() for t in ts]
    return found


def _parts(t):
    """`t` and every type inside it."""
    yield t
    if isinstance(t, ListOf):
        yield from _parts(t.item)
    elif isinstance(t, Maybe):
        yield from _parts(t.inner)
    elif isinstance(t, TypeName):
        yield from _parts(t.of)
    elif isinstance(t, MapOf):
        for k in (*t.keys, t.value):
            yield from _parts(k)


@pytest.mark.parametrize("game", ["twid", "walls_and_wonders"])
def test_every_type_the_checker_records_is_a_type_value(game):
    """Every type the checker records for a bundled game, and every type inside one, is an
    instance of `Type` (a procedure's call, which gives no value, included), and so is every
    type the checker works with: the symbol table holds the checker's own types."""
    checker = Checker(load_program(str(ROOT / "gamedefs" / f"{game}.game")), scope_types=True)
    checker.run()
    found = _recorded(checker.table)
    assert len(found) > 1000
    bad = [t for top in found for t in _parts(top) if not isinstance(t, Type)]
    assert bad == []
    kinds = {type(t) for top in found for t in _parts(top)}
    assert {Named, ListOf, Maybe, MapOf} <= kinds
    # and the checker works with the same values: no second conversion for the table
    working = [*checker.constants.values(), *checker.options.values(), *checker.def_types.values()]
    working += [t for keys, value in checker.vars.values() for t in (*keys, value)]
    working += [t for fields in checker.fields.values() for t in fields.values()]
    working += [t for scope in checker.local_types.values() for t in scope.values()]
    assert working and all(isinstance(t, Type) for t in working)


def test_saving_reads_the_locals_types_as_values():
    """The types saving checks a running procedure's locals by (runtime/saving.py) are the
    same values."""
    types = local_types(load_program(str(ROOT / "gamedefs" / "twid.game")))
    found = [t for scope in types.values() for t in scope.values()]
    assert found and all(isinstance(t, Type) for t in found)


def test_types_are_frozen_values_shown_as_written():
    """Shown as a `.game` file writes them (the words of the error messages); equal by
    value, hashable, and a `T?`'s note of why it may be none is neither compared nor shown."""
    card = Named("Card")
    assert str(Maybe(ListOf(card), "why")) == "list Card?"
    assert str(ListOf(Maybe(card))) == "list Card?"
    assert str(MapOf((PLAYER, Named("Region")), ListOf(INT))) == "player -> Region -> list int"
    assert str(TypeName(card)) == "the type Card"
    assert (str(ANY), str(NONE)) == ("any", "none")
    assert Maybe(card, "a") == Maybe(card, "b", trusted=True)
    assert hash(Maybe(card, "a")) == hash(Maybe(card))
    assert ListOf(Named("Card")) == ListOf(card) != ListOf(Named("Space"))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        card.name = "Space"  # type: ignore[misc]


def test_joins_and_fits_by_class():
    """`join` and `fits` (check/types.py) on the classes: none with T is T?, a list of T with
    a list of T? is a list of T?, a T? stands for a T only when trusted."""
    card = Named("Card")
    assert T.join(NONE, card) == Maybe(card)
    assert T.join(ListOf(card), ListOf(Maybe(card))) == ListOf(Maybe(card))
    assert T.join(card, INT) == ANY
    assert not T.fits(Maybe(card), card)
    assert T.fits(Maybe(card, trusted=True), card)
    assert T.fits(NONE, Maybe(card)) and T.fits(ListOf(ANY), ListOf(card))


CHECKER_FILES = ["check/checker.py", "check/types.py", "check/view_secrets.py", "check/symbols.py"]
READERS = ["runtime/saving.py", "lsp/analysis.py"]


@pytest.mark.parametrize("path", CHECKER_FILES + READERS)
def test_no_type_is_taken_apart_as_a_tuple(path):
    """No reader builds a type as a tuple (`("list", t)`) or tests one by its first item
    (`t[0] == "list"`): the old representation is gone."""
    text = (ROOT / "interpreter" / path).read_text()
    assert not re.findall(r'\("(?:list|opt|type)",', text)
    assert not re.findall(r'\[0\] ?== ?"(?:list|opt|type)"', text)
    assert not re.findall(r'== ?\("(?:list|opt)"', text)
