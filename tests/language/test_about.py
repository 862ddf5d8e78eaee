"""`gamedef cards` and `about NAME` for every game's components: the `about` declaration
(docs/language.md §3.21), an entity's `about` field, enum members, kinds made once a seat."""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.cli.human import about
from interpreter.core.errors import GameDefError

ONE = """game a "A" { players 1..1 }
enum Kind { red "Red", blue "Blue" }
%s
procedure play() {
    rule "1"
    choose k from [red, blue] by first(players) label "{k}"
    game over []
}
"""


def test_walls_and_wonders_cards_are_listed_once_without_the_seat(capsys):
    """Walls and Wonders, What you need: one standard 52-card deck per player. `cards` listed
    0 cards; now each card of the deck once, titled as printed (no `(p1)`)."""
    assert main(["cards", "walls_and_wonders"]) == 0
    out = capsys.readouterr()
    cards = [line for line in out.out.splitlines() if " of " in line.split(" — ")[0]]
    assert len(cards) == 52
    assert "queen of spades — suit spades · rank queen · value 12" in out.out
    assert "(p1)" not in out.out and "(p2)" not in out.out
    assert out.err.strip().endswith("entries)")


def test_about_a_walls_and_wonders_card_drops_the_seat():
    lines = about(load_game("walls_and_wonders"), "queen of spades")
    assert lines == ["  queen of spades  (PlayingCard)"]


def test_about_poison_gas_says_what_the_tile_does():
    """Downfall of Empires 10.6 Poison gas: once a year from 1915, a loss to a full army in an
    entrenched zone of France-Belgium or Germany, not a mountain, next to an own army."""
    text = " ".join(about(load_game("downfall_of_empires"), "poison gas"))
    assert "once a year from 1915" in text and "entrenched" in text and "(10.6)" in text
    assert "nothing in" not in text


def test_about_propaganda_says_what_the_item_does():
    """Missiles, Now!, Propaganda: two complete items of yours traded for two of an
    opponent's, who chooses theirs; a Berlin Wall shields them (Opponent effectiveness)."""
    text = " ".join(about(load_game("missiles_now"), "propaganda"))
    assert "cost 6" in text and "two of your complete items" in text and "Berlin Wall" in text


def test_every_missiles_item_and_every_doe_tile_has_an_about_text():
    missiles = load_game("missiles_now").compiled
    assert all(missiles.about.get(item) for item in missiles.types["Item"])
    doe = load_game("downfall_of_empires").compiled
    for kind in ("Tile", "Action", "Zone"):
        assert all(doe.about.get(name) for name in doe.types[kind]), kind


def test_a_zone_about_comes_from_its_table_column(capsys):
    """An entity's `about: str` field (here the map's `covers` column) is its about text."""
    text = "\n".join(about(load_game("downfall_of_empires"), "paris"))
    assert "Ile-de-France, Marne, Aisne, Reims" in text
    assert main(["cards", "downfall_of_empires", "--kind", "Zone", "--search", "Verdun"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].strip() == "Meuse heights, Argonne, Saint-Mihiel"
    assert "about" not in out.splitlines()[0]  # not shown again as a property


def test_cards_takes_an_enum_as_a_kind(capsys):
    assert main(["cards", "downfall_of_empires", "--kind", "Tile", "--search", "Manoeuvre"]) == 0
    assert "four armies instead of three" in capsys.readouterr().out


def test_an_about_of_an_unknown_name_is_an_error_at_its_place(tmp_path):
    path = tmp_path / "a.game"
    path.write_text(ONE % 'about bleu "a colour"')
    with pytest.raises(GameDefError) as info:
        load_game(str(path))
    shown = info.value.render()
    assert "a.game:3:1: error: `about bleu`: nothing called 'bleu'" in shown
    assert "did you mean 'blue'?" in shown


def test_an_about_of_an_enum_member_is_kept(tmp_path):
    path = tmp_path / "a.game"
    path.write_text(ONE % 'about blue "the colour of the sky (rule 1)"')
    game = load_game(str(path))
    assert game.compiled.about == {"blue": "the colour of the sky (rule 1)"}
    assert about(game, "blue") == ["  Blue", "      the colour of the sky (rule 1)"]
