"""A card kind declares its slots' parameters once (`slot NAME(params)` in its entity).

docs/language.md §3.7 "A slot's parameters, declared once for the kind": a card's bare
`NAME { ... }` takes the declared parameters; a card that writes them out must write them
as declared (an error at the card's slot otherwise); `perform` checks its arguments, types
included, against the declaration. The Wall is Down's 91 card texts are written this way
(`entity TwidCard { ... slot effect(s: player, by: player, how: Use) }`).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import GameDefError, load_game
from interpreter.language.program import load_program

GAME = """
game texts "Texts" { players 2..2 seats [west, east] }
enum Use { text_use "its text", ops_use "operations" }
entity TextCard {
    ops: int
    slot effect(s: player, how: Use)
}
var vp: player -> int = 0
card boris "Boris" : TextCard {
    ops 3
    effect {
        rule "Card 4"
        vp[s] += if how == text_use then 2 else 1
    }
}
CARDS
procedure play() {
    rule "6.2.3 Card texts"
    for c in members(TextCard) {
        perform PERFORM
    }
    game over best(players, p => vp[p])
}
"""


def source(cards: str = "", perform: str = "c.effect(east, text_use)", entity_extra: str = "") -> str:
    text = GAME.replace("CARDS", textwrap.dedent(cards).strip("\n")).replace("PERFORM", perform)
    return text.replace(
        "    slot effect(s: player, how: Use)\n", "    slot effect(s: player, how: Use)\n" + entity_extra
    )


def build(tmp_path: Path, text: str, **kwargs):
    path = tmp_path / "texts.game"
    path.write_text(text, encoding="utf-8")
    return load_game(path, **kwargs)


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(GameDefError) as info:
        build(tmp_path, text)
    return info.value.render().replace(str((tmp_path / "texts.game").resolve()), "<file>")


def test_a_bare_slot_takes_the_declared_parameters(tmp_path):
    """§3.7: `effect { ... }` in a card of a kind that declares `slot effect(s, how)` reads
    `s` and `how` as passed by `perform`."""
    game = build(tmp_path, source())
    state = game.start(players=2, seed=1)
    assert game.is_over(state)
    assert game.var(state, "vp") == {"west": 0, "east": 2}
    assert game.result(state) == ("east",)


def test_the_parameters_are_filled_in_on_the_program(tmp_path):
    """The program hands the checker and the compiler the card's slot with the declared
    parameters, as if the card had written them (nothing downstream knows the difference)."""
    path = tmp_path / "texts.game"
    path.write_text(source(), encoding="utf-8")
    card = next(d for d in load_program(path).decls if getattr(d, "name", "") == "boris" and hasattr(d, "slots"))
    (name, _, _, params) = card.slots[0]
    assert name == "effect" and [(p.name, p.type.name) for p in params] == [("s", "player"), ("how", "Use")]
    assert card.bare_slots == ("effect",)


def test_a_card_may_write_the_declared_parameters_out(tmp_path):
    """§3.7: writing the parameters exactly as declared is allowed."""
    cards = """
    card lech "Lech" : TextCard {
        ops 2
        effect(s: player, how: Use) {
            rule "Card 7"
            vp[s] += 5
        }
    }
    """
    game = build(tmp_path, source(cards))
    state = game.start(players=2, seed=1)
    assert game.var(state, "vp") == {"west": 0, "east": 7}


@pytest.mark.parametrize(
    "written",
    ["(q: player, how: Use)", "(s: player)", "(s: player, how: int)", "(how: Use, s: player)", "()"],
)
def test_a_card_that_writes_other_parameters_is_an_error_at_its_slot(tmp_path, written):
    """§3.7: other names, types, order or number than declared (`effect()` included) are
    reported at the card's slot, with the declaration and where it is: one error, the body
    (which uses the declared `s`) not also full of unknown names."""
    cards = f"""
    card lech "Lech" : TextCard {{
        ops 2
        effect{written} {{
            rule "Card 7"
            log "{{s}} plays Lech"
            log "{{s}} again"
        }}
    }}
    """
    shown = error(tmp_path, source(cards))
    assert f"<file>:18:5: error: card 'lech': the header `effect{written}` does not match" in shown
    assert "TextCard's `slot effect(s: player, how: Use)`, declared at <file>:6:5" in shown
    assert "write `effect { ... }`: it takes the declared parameters (s, how)" in shown
    assert len([line for line in shown.splitlines() if ": error: " in line]) == 1, shown
    assert "Traceback" not in shown


def test_perform_checks_the_arguments_against_the_declaration(tmp_path):
    """§5.10: the arguments' number and types are those the kind declares for the slot."""
    shown = error(tmp_path, source(perform="c.effect(east, 3)"))
    assert "argument 2 of slot 'TextCard.effect' should be Use, not int" in shown
    shown = error(tmp_path, source(perform="c.effect(east)"))
    assert "slot 'TextCard.effect' takes 2 arguments, given 1" in shown


def test_a_declared_slot_no_card_has_may_be_performed(tmp_path):
    """§3.7: a slot the entity declares may be performed before any card has it (the cards
    that do not have a slot are skipped, §5.10)."""
    extra = "    slot score(s: player)\n"
    game = build(tmp_path, source(entity_extra=extra, perform="c.score(east)"))
    state = game.start(players=2, seed=1)
    assert game.var(state, "vp") == {"west": 0, "east": 0}


@pytest.mark.parametrize(
    "extra, fragment",
    [
        ("    slot effect(s: player)\n", "TextCard declares slot 'effect' twice"),
        ("    slot score(s: Nowhere)\n", "unknown type 'Nowhere'"),
        ("    slot score(s: player, s: int)\n", "slot 'score': parameter 's' is named twice"),
        ("    slot score(self: player)\n", "slot 'score': parameter 'self' is `self`"),
        ("    slot ops(s: player)\n", "'ops' is both a property and a slot of TextCard"),
    ],
)
def test_a_bad_slot_declaration_is_an_error_with_its_position(tmp_path, extra, fragment):
    """A slot declared twice, of an unknown type, with a parameter named twice or `self`, or
    named like a property: each is reported at the declaration (line 7), never a traceback."""
    shown = error(tmp_path, source(entity_extra=extra))
    assert fragment in shown
    assert "<file>:7:" in shown.split("error:")[0]
    assert "Traceback" not in shown


def test_a_variants_card_takes_the_declared_parameters(tmp_path):
    """§9.3: a card a variant adds is given its kind's declared parameters too."""
    variant = """
variant bonus "a card of one's own" {
    card bonus_card "Bonus" : TextCard {
        ops 1
        effect {
            rule "House card"
            vp[s] += 10
        }
    }
}
"""
    game = build(tmp_path, source() + variant, variants=["bonus"])
    state = game.start(players=2, seed=1)
    assert game.var(state, "vp") == {"west": 0, "east": 12}


def test_without_a_declaration_a_bare_slot_takes_nothing(tmp_path):
    """A slot its kind does not declare takes the parameters each card writes (here none),
    as before: a bare slot that reads `s` is an unknown name."""
    text = (
        source().replace("    slot effect(s: player, how: Use)\n", "").replace("c.effect(east, text_use)", "c.effect()")
    )
    shown = error(tmp_path, text)
    assert "unknown name 's'" in shown


def test_the_editor_knows_a_bare_slots_parameters(tmp_path):
    """The language server offers and explains the parameters a bare slot takes from its
    kind (completion, hover, go to definition: the entity's `slot` line)."""
    from interpreter.lsp.analysis import analyse, completions, definition, hover

    path = tmp_path / "texts.game"
    text = source()
    path.write_text(text, encoding="utf-8")
    analysis = analyse(str(path), text)
    assert [d.message for d in analysis.diagnostics if d.severity == "error"] == []
    lines = text.splitlines()
    line = next(n for n, row in enumerate(lines, 1) if "vp[s] +=" in row)
    column = lines[line - 1].index("vp[s]") + 4  # on `s`, 1-based
    assert "s: player (declared by TextCard)" in (hover(analysis, text, line, column) or "")
    assert [s.line for s in definition(analysis, text, line, column)] == [6]
    offered = {name for name, _, _ in completions(analysis, text, line, column)}
    assert {"s", "how"} <= offered


def test_a_property_called_slot_is_refused_with_a_hint(tmp_path):
    """`slot` is a keyword inside an entity: a property so named is a syntax error that says
    why, at the property, never a traceback."""
    text = 'game t { players 2..2 }\nentity E {\n    slot: int\n}\nprocedure play() { rule "Play" game over [] }\n'
    shown = error(tmp_path, text)
    assert "<file>:3:9: error: unexpected ':'" in shown
    assert "'slot' is a keyword in an entity" in shown
