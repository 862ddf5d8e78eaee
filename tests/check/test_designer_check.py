"""`gamedef check` finds what `gamedef run` would (docs/language.md §3.5, §3.11).

Every property a rule reads exists on every component it can be: an optional property
(`T?`) is none where a component does not give it, any other must be given by each card,
row and generate (an error at the component), and a property of a card kind no entity
declares must be given by every card a read can reach (an error at the read, naming the
card). The differential tests generate games and variants with deliberate omissions and
play them: an error at run time that `check` did not report fails the test.
"""

from __future__ import annotations

import random
import re
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from interpreter import GameDefError, load_game
from interpreter.check.checker import check_program
from interpreter.cli.commands import main
from interpreter.compile.compiler import compile_game
from interpreter.core.paths import ROOT
from interpreter.language.program import load_program
from interpreter.runtime.game import Game

# The cases left to `pytest -m slow` (tests/conftest.py).
SLOW_CASES = [
    r"test_the_readme_card_plays_through_the_games_that_stopped",
]

PROPS = ("power", "weight", "shade")


def checked(path: Path, variants: tuple[str, ...] = ()) -> tuple[Game | None, list[str]]:
    """The game if `check` passes it, else None and the error messages with positions."""
    program = load_program(path, variants)
    try:
        check_program(program)
    except GameDefError as err:
        return None, [f"{d.span}: {d.message}" for d in err.diagnostics]
    return Game(compile_game(program, {}), program.header.name, variants, {}), []


def unchecked(path: Path, variants: tuple[str, ...] = ()) -> Game:
    """The game compiled without `check`: what `run` would meet if check let it through."""
    program = load_program(path, variants)
    return Game(compile_game(program, {}), program.header.name, variants, {})


def play_through(game: Game, seed: int, players: int | None = None, limit: int = 20_000) -> None:
    """A whole game with random choices; any error the rules raise propagates."""
    rng = random.Random(seed)
    state = game.start(players=players, seed=seed)
    state = game.playout(state, rng.randrange, limit)


# ---- a small game from a template --------------------------------------------------------------
def small_game(declared: dict[str, str], cards: list[set[str]], reads: list[tuple[str, str]]) -> str:
    """A game with a kind `Gem` and its cards. `declared`: how the entity declares each
    property ("required", "optional"; no entity at all when empty). `cards`: the properties
    each card gives. `reads`: (how, prop), `how` one of "all" (every gem), "first" (the
    first card by name), "self" (in each card's effect)."""
    lines = ['game t "T" { players 2..2 seats [north, south] }']
    if declared:
        fields = "  ".join(f"{p}: int{'?' if how == 'optional' else ''}" for p, how in declared.items())
        lines.append(f"entity Gem {{ {fields} }}")
    self_reads = " ".join(f"{{self.{p}}}" for how, p in reads if how == "self") or "-"
    for i, given_props in enumerate(cards):
        props = "  ".join(f"{p} {i + 1}" for p in PROPS if p in given_props)
        lines.append(f'card gem{i} "Gem {i}" : Gem {{ {props}\n    effect {{ log "{self_reads}" }}\n}}')
    all_reads = " ".join(f"{{g.{p}}}" for how, p in reads if how == "all") or "-"
    first_reads = " ".join(f"{{gem0.{p}}}" for how, p in reads if how == "first") or "-"
    lines.append(
        textwrap.dedent(
            f"""\
            procedure play() {{
                rule "Play: each seat picks a gem, and its effect runs"
                for g in members(Gem) {{ log "{{g.title}} {{g.text}} {all_reads}" }}
                log "{first_reads}"
                for p in players {{
                    choose g from members(Gem) by p label "take {{g}}"
                    perform g.effect()
                }}
                game over []
            }}
            """
        )
    )
    return "\n".join(lines) + "\n"


small_games = st.builds(
    lambda entity, declared, cards, reads: (
        {p: h for p, h in zip(PROPS, declared) if h != "absent"} if entity else {},
        cards,
        reads,
    ),
    st.booleans(),
    st.lists(st.sampled_from(["required", "optional", "absent"]), min_size=3, max_size=3),
    st.lists(st.sets(st.sampled_from(PROPS)), min_size=1, max_size=4),
    st.lists(st.tuples(st.sampled_from(["all", "first", "self"]), st.sampled_from(PROPS)), max_size=4),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_games)
def test_a_game_that_checks_never_fails_on_a_property(spec):
    """§3.5: a game `check` passes reads no property a component lacks, at any choice; a
    game it refuses, compiled anyway, either fails the same way or leaves out a property
    its entity says every component needs (the error is then at that card)."""
    declared, cards, reads = spec
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.game"
        path.write_text(small_game(declared, cards, reads))
        game, errors = checked(path)
        if game is not None:
            for seed in range(4):
                play_through(game, seed)
            return
        read_errors = [e for e in errors if "is read here, but card" in e]
        for e in errors:
            assert "gives no" in e or "is read here" in e or "has no property" in e, e
        if read_errors and len(read_errors) == len(errors):
            # Check said a read fails: it does, when every gem is taken in turn.
            game = unchecked(path)
            with pytest.raises(Exception, match="has no such property or map entry"):
                for seed in range(40):
                    play_through(game, seed)


def write(folder: Path, text: str) -> Path:
    path = folder / "t.game"
    path.write_text(textwrap.dedent(text))
    return path


def test_a_card_that_leaves_out_a_needed_property_is_an_error_at_the_card(tmp_path):
    """§3.5: a property that is not optional must be given by each card of the entity."""
    path = write(
        tmp_path,
        """\
        game t "T" { players 2..2 seats [north, south] }
        entity Gem { power: int  shade: int? }
        card ruby "Ruby" : Gem { power 2 }
        card opal "Opal" : Gem { shade 1 }
        procedure play() {
            rule "Play"
            for g in members(Gem) { log "{g.power} {g.shade}" }
            game over []
        }
        """,
    )
    game, errors = checked(path)
    assert game is None
    assert errors == [f"{path}:4:1: card 'opal' gives no power: every Gem needs it"]
    # Without check, the same game stops when it reads opal's power.
    with pytest.raises(Exception, match="'opal' has no such property"):
        play_through(unchecked(path), 1)


def test_an_optional_property_left_out_is_none(tmp_path):
    """§3.5: `shade: int?` is none on a card, and on a generated component, that does not
    give it (as on a table's row), and every component has a title and a text."""
    path = write(
        tmp_path,
        """\
        game t "T" { players 2..2 seats [north, south] }
        entity Gem { power: int  shade: int? }
        card ruby "Ruby" : Gem { power 2 }
        generate Gem named "pebble {n}" for n in 1..2 { power = n }
        procedure play() {
            rule "Play"
            for g in members(Gem) { log "{g.title}: {g.shade == none} '{g.text}'" }
            game over []
        }
        """,
    )
    game = load_game(path)
    state = game.start(seed=1)
    assert game.narrate(state) == ["Ruby: yes ''", "pebble 1: yes ''", "pebble 2: yes ''"]


def test_a_read_of_a_property_some_card_lacks_names_the_read_and_the_card(tmp_path):
    """§3.5: a card kind no entity declares has the properties its cards give; a read that
    can reach a card without one is an error at the read, naming the card and its line.
    A read of the property through the card that gives it is fine."""
    path = write(
        tmp_path,
        """\
        game t "T" { players 2..2 seats [north, south] }
        card ruby "Ruby" : Gem { power 2
            effect { log "{self.power}" }
        }
        card opal "Opal" : Gem { }
        procedure play() {
            rule "Play"
            log "{ruby.power}"
            perform ruby.effect()
            for g in members(Gem) { log "{g.power}" }
            game over []
        }
        """,
    )
    game, errors = checked(path)
    assert errors == [f"{path}:10:35: Gem.power is read here, but card 'opal' at {path}:5:1 has no power"]


def test_a_card_extending_a_row_gives_what_its_table_does_not(tmp_path):
    """§3.11: a property no column reads and that is not optional must come from the card
    that extends each row; a row without such a card is an error at the table."""
    (tmp_path / "gems.tsv").write_text("name\tpower\nRuby\t2\nOpal\t3\n")
    text = """\
        game t "T" { players 2..2 seats [north, south] }
        entity Gem { power: int  facets: int }
        table Gem from "gems.tsv" {
            named by name
            power
        }
        card ruby { facets 8 }
        CARD
        procedure play() {
            rule "Play"
            for g in members(Gem) { log "{g.facets}" }
            game over []
        }
        """
    path = write(tmp_path, text.replace("CARD", 'card opal { effect { log "opal" } }'))
    game, errors = checked(path)
    assert errors == [
        f"{path}:8:1: card 'opal' gives no facets: a Gem needs it, and its row (gems.tsv:3) has no column for it"
    ]
    path = write(tmp_path, text.replace("CARD", ""))
    game, errors = checked(path)
    assert errors == [f"{path}:3:1: table Gem reads no column for Gem.facets, and no card gives it to opal"]


# ---- The Wall is Down: new cards in a variant ------------------------------------------------------
TWID_PROPS = {
    "number": 'number "89"',
    "epoch": "epoch pre",
    "ops": "ops 3",
    "block": "block West",
    "types": "types [Political, Revolution]",
    "subtype": "subtype Personality",
    "removed_after_text": "removed_after_text true",
    "removed_in_solo": "removed_in_solo true",
}
# TwidCard's properties that are not optional, and those cards.tsv reads from a column of their
# own (a new card writes `none` for one it has none of)
NEEDED = {"number", "epoch", "types", "removed_after_text", "ops", "block", "subtype"}


def house_card(given_props: set[str], reads: str) -> str:
    """A variant adding a pre-9/11 TwidCard of one's own, with the properties `given_props`."""
    props = "\n        ".join(TWID_PROPS[p] for p in TWID_PROPS if p in given_props)
    return textwrap.dedent(
        f"""\
        include twid
        variant house "A house card" {{
            rule "House card"
            card house_card "House card" : TwidCard {{
                {props}
                text "Gain 1 VP."
                effect(s: player, by: player, how: Use) {{
                    rule "House card: gain 1 VP"
                    log "{reads}"
                    gain_vp(s, 1)
                }}
            }}
        }}
        """
    )


def test_the_readme_card_plays_through_the_games_that_stopped(tmp_path):
    """README: the worked card Velvet Revolution checks and plays whole games (seeds 3, 4
    and 6 stopped reading its subtype, which it does not give and is now none)."""
    game = load_game(ROOT / "examples" / "twid_house_rules.game", variants=["velvet_revolution"])
    for seed in (3, 4, 6):
        play_through(game, seed)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sets(st.sampled_from(sorted(set(TWID_PROPS) - NEEDED))),
    st.sets(st.sampled_from(sorted(NEEDED)), max_size=1),
    st.sampled_from(["", "{self.subtype} {self.ops}", "{self.number} {self.block} {self.removed_in_solo}"]),
)
@example(set(), set(), "{self.subtype}")  # the README's card, subtype read by the core rules
def test_a_house_card_that_checks_plays_whole_games(optional, left_out, reads):
    """A new card written from cards/twid/README.md, with some of its printed data left out:
    if `check` passes it, whole four-player games with it in the deck run to their end;
    if not, the error is at the card and names what it leaves out."""
    given_props = (NEEDED - left_out) | optional
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "house.game"
        path.write_text(house_card(given_props, reads))
        game, errors = checked(path, ("house",))
        missing = NEEDED - given_props
        if missing:
            assert game is None
            assert len(errors) == 1 and ":4:5: card 'house_card' gives no" in errors[0], errors
            assert all(p in errors[0] for p in missing), errors
            return
        assert game is not None, errors
        for seed in (3, 4):
            play_through(game, seed, players=4)


# ---- required, unique, overlays outside a variant ------------------------------------------------
GEMS = """\
    game t "T" { players 2..2 seats [north, south] }
    entity Gem { number: int unique  colour: str?  facets: int? }
    table Gem from "gems.tsv" {
        named by name
        number
        colour
    }
    CARDS
    def goal() = 1
    procedure play() {
        rule "Play"
        for g in members(Gem) { log "{g} {g.number} {g.colour} {g.facets}" }
        log "goal {goal()}"
        game over []
    }
    """


def gems(tmp_path: Path, cards: str, rows: str = "Ruby\t1\tred\nOpal\t2\t\n") -> Path:
    (tmp_path / "gems.tsv").write_text("name\tnumber\tcolour\n" + rows)
    return write(tmp_path, GEMS.replace("CARDS", cards))


def test_a_new_card_gives_what_its_tables_rows_give_none_written_out(tmp_path):
    """A card of a kind a table fills gives each property the table reads from a column of
    its own, `none` written out where it has none: left out, it would be none unseen (a
    TWID card without `block` printed "[2 none]"). A property no column gives (`facets`)
    may still be left out."""
    path = gems(tmp_path, 'card jade "Jade" : Gem { number 3 }')
    game, errors = checked(path)
    assert errors == [f"{path}:8:1: card 'jade' gives no colour: each Gem of table gems.tsv gives it (column colour)"]
    game, errors = checked(gems(tmp_path, 'card jade "Jade" : Gem { number 3  colour none }'))
    assert errors == [] and game is not None
    state = game.start(seed=1)
    assert "Jade 3 none none" in game.narrate(state)


def test_a_unique_property_twice_is_an_error_at_the_second_naming_the_first(tmp_path):
    """`unique`: a card numbered like a row is refused at the card, naming the row; two rows
    alike, at the second row."""
    path = gems(tmp_path, 'card jade "Jade" : Gem { number 2  colour "green" }')
    with pytest.raises(GameDefError) as info:
        load_game(path)
    [d] = info.value.diagnostics
    assert (d.span.line, d.message) == (8, "Gem.number is unique, and 'jade' has number 2, as 'opal' has")
    assert d.hint == f"'opal' is at {tmp_path / 'gems.tsv'}:3:1: give 'jade' a number no other Gem has"
    path = gems(tmp_path, "", rows="Ruby\t1\tred\nOpal\t1\t\n")
    with pytest.raises(GameDefError) as info:
        load_game(path)
    [d] = info.value.diagnostics
    assert (d.span.path, d.span.line) == (str(tmp_path / "gems.tsv"), 3) and "'opal' has number 1" in d.message
    assert load_game(gems(tmp_path, 'card jade "Jade" : Gem { number 3  colour "green" }')) is not None


def test_replace_and_remove_outside_a_variant_apply_to_the_included_game(tmp_path, capsys):
    """§3.16: `replace` outside a variant, in a file that includes a game, changes the game
    for `run` (and everything else that loads it); a `replace` or `remove` of what nothing
    declares is an error at its line, never ignored."""
    base = gems(tmp_path, 'card jade "Jade" : Gem { number 3  colour none }')
    mine = tmp_path / "mine.game"
    mine.write_text(f'include "{base.name}"\nreplace def goal() = 7\nremove card jade\n')
    game = load_game(mine)
    lines = game.narrate(game.start(seed=1))
    assert "goal 7" in lines and not any(line.startswith("Jade") for line in lines)
    assert load_game(base).rules_hash != game.rules_hash
    assert main(["run", str(mine), "--seed", "1"]) == 0
    assert "goal 7" in capsys.readouterr().out
    mine.write_text(f'include "{base.name}"\nreplace def no_such_def() = 1\n')
    assert main(["check", str(mine)]) == 2
    err = capsys.readouterr().err
    assert f"{mine}:2:1: error: `replace` names unknown def 'no_such_def'" in err


def test_a_new_card_named_like_a_bundled_one_is_told_to_choose_another_name(tmp_path):
    """A new card named like one of The Wall is Down's must not be told to write `replace`
    (that would overwrite the bundled card): the hint says to choose another name, and
    where the bundled card is, for the case where changing it is meant."""
    path = tmp_path / "mine.game"
    card = 'card black_monday "Black Monday" : TwidCard { number "200" }'
    for text, where in ((f"include twid\n{card}\n", 2), (f'include twid\nvariant v "V" {{\n    {card}\n}}\n', 3)):
        path.write_text(text)
        with pytest.raises(GameDefError) as info:
            load_program(path, ["v"] if "variant" in text else [])
        [d] = info.value.diagnostics
        assert d.span.line == where
        assert d.hint is not None and d.hint.startswith("a new card needs a name of its own: choose another name")
        assert "cards/twid/pre_1.game:" in d.hint and "only to change the card 'black_monday'" in d.hint


def test_a_card_lacking_a_property_of_an_included_kind_is_not_told_to_loosen_that_kind(tmp_path):
    """A card of a file that includes the game, lacking a property its kind needs, is told
    to give it: declaring the property optional in the game's entity would change every
    component of the kind (the game's own rules), so it is offered only where the entity is
    in the card's own file."""
    base = tmp_path / "base.game"
    base.write_text(
        textwrap.dedent(
            """\
            game t "T" { players 2..2 seats [north, south] }
            entity Gem { power: int }
            card ruby "Ruby" : Gem { power 2 }
            procedure play() {
                rule "Play"
                game over []
            }
            """
        )
    )
    mine = tmp_path / "mine.game"
    mine.write_text('include "base.game"\ncard opal "Opal" : Gem { }\n')
    with pytest.raises(GameDefError) as info:
        check_program(load_program(mine))
    [d] = info.value.diagnostics
    assert d.message == "card 'opal' gives no power: every Gem needs it"
    assert d.hint == "write `power ...` in the card (every Gem of the game gives it)"
    base.write_text(base.read_text().replace('card ruby "Ruby" : Gem { power 2 }', 'card opal "Opal" : Gem { }'))
    with pytest.raises(GameDefError) as info:
        check_program(load_program(base))
    [d] = info.value.diagnostics
    assert d.hint is not None and "declare it optional in `entity Gem` (`power: T?`)" in d.hint


def test_a_card_giving_a_property_its_included_kind_lacks_is_not_told_to_declare_it_there(tmp_path):
    """`TwidCard has no property 'colour'` in a house card: declaring it in the game's own
    entity would change every TwidCard's kind, so the hint says where the kind's properties
    are declared instead; in the entity's own file it still says to declare it."""
    card = (
        'card velvet "Velvet" : TwidCard {{ number "92"  epoch pre  ops 1  block West  subtype none\n'
        "    types [Political]  removed_after_text true  {p} }}"
    )
    path = tmp_path / "house.game"
    path.write_text("include twid\n" + card.format(p='colour "red"') + "\n")
    with pytest.raises(GameDefError) as info:
        check_program(load_program(path))
    [d] = info.value.diagnostics
    assert d.message == "TwidCard has no property 'colour'"
    assert d.hint is not None and d.hint.startswith("a TwidCard gives only the properties `entity TwidCard` declares")
    assert "gamedefs/twid.game:" in d.hint and "declare it in" not in d.hint
    base = tmp_path / "gems.game"
    base.write_text(
        'game t "T" { players 2..2 seats [north, south] }\nentity Gem { power: int }\n'
        'card ruby "Ruby" : Gem { power 2  colour "red" }\nprocedure play() {\n    rule "Play"\n    game over []\n}\n'
    )
    with pytest.raises(GameDefError) as info:
        check_program(load_program(base))
    [d] = info.value.diagnostics
    assert d.hint == "declare it in `entity Gem`"


# ---- seats not in play: The Wall is Down's US with two players -------------------------------------
US_CARD = """\
include twid

card my_card "My card" : TwidCard {
    number "100"
    epoch pre
    ops 2
    block West
    subtype none
    types [Political]
    removed_after_text false
    effect {
        rule "My card: the US gains 1 influence in Angola"
        add_influence(US_SIDE, angola, 1)
    }
}
"""


def test_check_warns_of_a_card_naming_the_us_which_two_players_lack(tmp_path):
    """The US exists only with one (played by the solo player), three and four players:
    a card giving it influence outright warns at the line, with the seats of two players
    and the rule that maps a superpower to its side; `side(us)` does not warn."""
    path = tmp_path / "mine.game"
    path.write_text(US_CARD.replace("US_SIDE", "us"))
    [d] = check_program(load_program(path))
    assert (d.severity, d.span.line) == ("warning", 13)
    assert d.message.startswith(
        "us is passed to add_influence(), which writes an entry keyed by it, but US is not in play"
    )
    assert "with 2 players (with 2, the seats are West, East)" in d.message
    assert d.hint is not None and "side(us)" in d.hint
    path.write_text(US_CARD.replace("US_SIDE", "side(us)"))
    assert check_program(load_program(path)) == []


@pytest.mark.slow
def test_a_card_writing_to_the_us_with_two_players_stops_with_the_seats_in_play(tmp_path, capsys):
    """Played with two players, the card's write to the US is a run-time error naming the
    seats in play and the player count, not influence given to a seat nobody plays; with
    four players the US gains its influence."""
    (tmp_path / "mine.game").write_text(US_CARD.replace("US_SIDE", "us"))
    test = tmp_path / "mine.test.game"
    test.write_text(
        'include "mine.game"\n'
        "test two {\n    players 2\n    run { perform my_card.effect(west, west, text_use) }\n    expect ended()\n}\n"
        "test four {\n    players 4\n    run { perform my_card.effect(us, us, text_use) }\n"
        "    expect influence[us][angola] == 1\n}\n"
    )
    assert main(["test", str(test)]) == 1
    out = capsys.readouterr().out
    assert (
        "in add_influence: influence[US] is written, but US is not in play: "
        "with 2 players the seats in play are West, East" in out
    )
    assert "1 of 2 tests passed" in out


# ---- check plays what it checks (docs/language.md §3.2, "What `check` plays") -----------------------------
from interpreter.play.exercise import base_of, changed_declarations  # noqa: E402

PLAYED_GEMS = """\
game gems "Gems" {
    players 2..3
    seats [north, south, east]
}

entity Gem {
    slot effect(p: player)
}

var taken: int = 0

card calm "Calm" : Gem {
    effect {
        rule "Gems: Calm logs"
        log "{p} is calm"
    }
}

card cursed "Cursed" : Gem {
    effect {
        rule "Gems: Cursed asks for a gem that is none"
        CURSE
    }
}

card quiet "Quiet" : Gem {
    effect {
        rule "Gems: Quiet logs"
        log "{p} is quiet"
    }
}

procedure play() {
    rule "Gems: each seat takes a gem three times, and its effect runs"
    while taken < 6 {
        for p in players {
            choose g from members(Gem) by p label "take {g}"
            taken += 1
            perform g.effect(p)
        }
    }
    game over []
}
"""

EMPTY_CHOICE = 'choose x from [g for g in members(Gem) if g == none] by p label "{x}"'


def check_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


def test_check_plays_a_game_and_reports_an_empty_choice_with_the_game_that_reproduces_it(capsys, tmp_path):
    """A card whose effect chooses from an empty list passes the static checks and fails
    only in the games that take it: `check` plays the game, reports the error at the
    card's line with the seed and decision, and `gamedef run` with the command it gives
    stops on the same error."""
    path = tmp_path / "gems.game"
    path.write_text(PLAYED_GEMS.replace("CURSE", EMPTY_CHOICE))
    code, out, err = check_cli(capsys, str(path), "--budget", "5")
    assert code == 2
    line = next(i for i, text in enumerate(PLAYED_GEMS.splitlines(), 1) if "CURSE" in text)
    assert f"{path}:{line}:9: error: in cursed.effect: a choice has no options" in err
    found = re.search(r"check played it: (\d) players, seed (\d+), decision (\d+)", err)
    assert found, err
    reproduce = re.search(r"hint: reproduce it: gamedef run (\S+) --players (\d) --seed (\d+) --moves", err)
    assert reproduce and reproduce.groups() == (str(path), found[1], found[2])
    assert re.search(r"in \d+(\.\d)? s of a 5 s budget", out), out  # the budget, printed
    # the command given plays the same game to the same error
    assert main(["run", str(path), "--players", found[1], "--seed", found[2], "--quiet"]) == 2
    assert f"{path}:{line}:9: error: in cursed.effect: a choice has no options" in capsys.readouterr().err


SPIRAL = """procedure spiral(p: player, n: int) {
    rule "Gems: Cursed spirals"
    if n > 0 {
        spiral(p, n + 1)
    }
}
"""


def test_check_reports_endless_recursion_found_in_play(capsys, tmp_path):
    """A recursion whose base case is never met (n only grows) is not certain from the
    syntax; play finds it, at the call, with the game that reproduces it."""
    path = tmp_path / "gems.game"
    text = PLAYED_GEMS.replace("CURSE", "spiral(p, 1)") + SPIRAL
    path.write_text(text)
    code, _, err = check_cli(capsys, str(path), "--budget", "5")
    assert code == 2
    line = len(text.splitlines()) - 2
    assert f"{path}:{line}:9: error: in spiral: procedures nested more than" in err
    assert "hint: reproduce it: gamedef run" in err


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("spiral(p)", 3, "procedure 'spiral' calls itself on every path, before anything could stop it"),
        (
            'log "{p}"\n    if taken > 2 {\n        spiral(p)\n    }'
            " else {\n        let x = 1\n        spiral(p)\n    }",
            5,
            "procedure 'spiral' calls itself on every path",
        ),
        (
            'while taken < 9 {\n        log "{p} waits"\n    }',
            3,
            "this loop never ends once it starts: its condition reads taken, which its body never changes",
        ),
        ("while true {\n        let n = 1\n    }", 3, "this loop never ends once it starts"),
        # a phase whose decisions go on for ever: nothing it runs changes `taken`, nothing ends the game
        (
            'while taken < 9 {\n        choose g from members(Gem) by p label "{g}"\n'
            "        perform g.effect(p)\n    }",
            3,
            "this loop never ends, and the game with it: its condition reads taken, which nothing it runs changes",
        ),
        (
            'while true {\n        may p "wait" {\n            log "{p} waits"\n        }\n    }',
            3,
            "its condition never changes",
        ),
    ],
)
def test_recursion_and_loops_that_cannot_end_are_found_without_playing(capsys, tmp_path, body, line, message):
    """An endless recursion (a call of itself on every path, nothing before it that could
    stop it) and a loop whose body changes nothing its condition reads are check errors
    before any game is played."""
    path = tmp_path / "gems.game"
    text = (
        PLAYED_GEMS.replace("CURSE", "spiral(p)")
        + f'procedure spiral(p: player) {{\n    rule "Gems: spirals"\n    {body}\n}}\n'
    )
    path.write_text(text)
    code, out, err = check_cli(capsys, str(path), "--budget", "5")
    assert code == 2 and "played" not in out
    start = len(PLAYED_GEMS.splitlines())
    assert f"{path}:{start + line}:" in err and message in err
    assert "hint: " in err


@pytest.mark.parametrize(
    "body",
    [
        "if taken > 2 {\n        spiral(p)\n    }",  # a base case
        "if taken > 9 {\n        return\n    }\n    spiral(p)",  # a way out before the call
        "win p\n    spiral(p)",
        "while taken < 9 {\n        taken += 1\n    }",  # the loop changes what it reads
        # a decision that changes what the loop reads
        'while taken < 9 {\n        choose g from members(Gem) by p label "{g}"\n        taken += 1\n    }',
        "while taken < 9 {\n        if taken > 3 {\n            break\n        }\n    }",
    ],
)
def test_recursion_and_loops_that_may_end_are_not_reported(capsys, tmp_path, body):
    path = tmp_path / "gems.game"
    text = (
        PLAYED_GEMS.replace("CURSE", "spiral(p)")
        + f'procedure spiral(p: player) {{\n    rule "Gems: spirals"\n    {body}\n}}\n'
    )
    path.write_text(text)
    code, out, err = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0, err


def test_a_correct_game_checks_ok_and_says_what_it_played(capsys, tmp_path):
    path = tmp_path / "gems.game"
    path.write_text(PLAYED_GEMS.replace("CURSE", 'log "{p} is cursed"'))
    code, out, err = check_cli(capsys, str(path), "--budget", "5")
    assert code == 0, err
    assert "error" not in err
    assert re.search(r"ok \(0 variants\); played (\d+) games .* at 2,3 players in", out), out
    assert "3 cards, 1 procedure new or changed; 3 of 3 cards with rules reached: no run-time error" in out


def test_the_budget_is_an_upper_bound_play_stops_once_every_line_has_reached_its_rules(capsys, tmp_path):
    """Each player count plays 2 games and on until each new card with rules and each new
    procedure has been reached 10 times there; then play stops, long before the budget,
    and the line says why. (Calm, Cursed and Quiet are each taken in most games.)"""
    path = tmp_path / "gems.game"
    path.write_text(PLAYED_GEMS.replace("CURSE", 'log "{p} is cursed"'))
    code, out, err = check_cli(capsys, str(path), "--budget", "60")
    assert code == 0, err
    found = re.search(r"played (\d+) games .* at 2,3 players in (\d+\.\d) s of a 60 s budget \(enough: ", out)
    assert found, out
    assert int(found[1]) >= 4 and float(found[2]) < 30


def test_a_rule_no_game_reaches_keeps_play_going_for_the_whole_budget(capsys, tmp_path):
    """Cursed is in no hand (PLAYED_HANDS deals Calm and Quiet), so no game reaches it: the
    lines play until the budget is spent, and the line says nothing of `enough`."""
    path = tmp_path / "gems.game"
    path.write_text(PLAYED_HANDS.replace("CURSE", 'log "{p} is cursed"'))
    code, out, err = check_cli(capsys, str(path), "--budget", "1")
    assert code == 0, err
    assert re.search(r"in 1\.\d s of a 1 s budget, exercising .*; 2 of 3 cards with rules reached", out), out


def test_budget_0_is_the_static_check_alone(capsys, tmp_path):
    path = tmp_path / "gems.game"
    path.write_text(PLAYED_GEMS.replace("CURSE", EMPTY_CHOICE))
    code, out, _ = check_cli(capsys, str(path), "--budget", "0")
    assert code == 0 and out == f"{path}: ok (0 variants)\n"


def test_what_is_new_or_changed_against_the_included_game(tmp_path):
    """Against `include twid`: the file's new card is new, a variant's `replace def` is
    changed, and none of the game's own declarations is either."""
    path = tmp_path / "house.game"
    path.write_text(
        "include twid\n\n"
        'variant quick "Quick" {\n    rule "House rule: quick"\n    replace def victory_vp() = 7\n}\n\n'
        + NEW_TWID_CARD.format(name="fresh", title="Fresh", number="95", effect="gain_vp(s, 1)")
    )
    base = base_of(path, load_program(path))
    assert base is not None
    plain = changed_declarations(load_program(path), base)
    assert [(c.kind, c.name, c.new) for c in plain] == [("card", "fresh", True)]
    quick = changed_declarations(load_program(path, ["quick"]), base)
    assert sorted((c.kind, c.name, c.new) for c in quick) == [("card", "fresh", True), ("def", "victory_vp", False)]
    # a game of its own is new throughout
    own = load_program(ROOT / "examples" / "tictactoe.game")
    assert base_of(ROOT / "examples" / "tictactoe.game", own) is None
    assert {c.name for c in changed_declarations(own, None)} >= {"play", "turn", "empty_cells"}


NEW_TWID_CARD = """\
card {name} "{title}" : TwidCard {{
    number "{number}"
    epoch pre
    ops 2
    block West
    types [Political]
    subtype none
    removed_after_text false
    text "{title}."
    effect {{
        rule "House card {number}: {title}"
        {effect}
    }}
}}
"""


@pytest.mark.slow
def test_check_of_new_twid_cards_finds_the_empty_choice_the_recursion_and_the_card_never_reached(capsys, tmp_path):
    """New cards for The Wall is Down in a file of their own (`include twid`), each in a
    variant: a correct one is no error, an empty choice and an endless recursion are
    errors at their lines with the game that reproduces them, and a card of a kind that
    nothing deals is warned of as never reached."""
    path = tmp_path / "house.game"
    path.write_text(
        "include twid\n\n"
        + NEW_TWID_CARD.format(name="fine", title="Fine", number="90", effect="gain_vp(s, 1)")
        + 'variant empty "Empty" {\n'
        + NEW_TWID_CARD.format(
            name="empty", title="Empty", number="91", effect='choose x from [] by s label "{x}"\n        gain_vp(s, 1)'
        )
        + '}\n\nvariant endless "Endless" {\n'
        + 'procedure spiral(p: player, n: int) {\n    rule "House card 92: spirals"\n'
        + "    if n > 0 {\n        spiral(p, n + 1)\n    }\n}\n"
        + NEW_TWID_CARD.format(name="endless", title="Endless", number="92", effect="spiral(s, 1)")
        + "}\n\nentity Relic {\n    slot effect(s: player)\n}\n\n"
        + 'card relic "Relic" : Relic {\n    effect {\n        rule "House relic: nothing deals it"\n'
        + "        gain_vp(s, 1)\n    }\n}\n"
    )
    code, out, err = check_cli(capsys, str(path), "--budget", "12")
    assert code == 2
    lines = path.read_text().splitlines()
    empty = next(i for i, text in enumerate(lines, 1) if "choose x from []" in text)
    spiral = next(i for i, text in enumerate(lines, 1) if text.strip() == "spiral(p, n + 1)")
    relic = next(i for i, text in enumerate(lines, 1) if text.startswith("card relic"))
    assert f"{path}:{empty}:9: error: in empty.effect: a choice has no options" in err
    assert re.search(rf"reproduce it: gamedef run {re.escape(str(path))} --players \d --seed \d+ --variant empty", err)
    assert f"{path}:{spiral}:9: error: in spiral: procedures nested more than" in err
    assert f"{path}:{relic}:1: warning: new card 'relic' was never reached" in err
    assert "'fine'" not in err and ":1:1: error" not in err
    assert "2 run-time errors" in out and "of a 12 s budget" in out


PLAYED_HANDS = PLAYED_GEMS.replace(
    "var taken: int = 0\n",
    "var taken: int = 0\nvar hand: player -> list Gem = []\n\n"
    'procedure setup() {\n    rule "Gems: each seat\'s hand is Calm and Quiet"\n'
    "    for p in players {\n        hand[p] = [calm, quiet]\n    }\n}\n",
).replace("choose g from members(Gem) by p", "choose g from hand[p] by p")


def test_check_plays_on_from_the_positions_the_designers_tests_arrange(capsys, tmp_path):
    """A card that no game deals is played from the position a `test` block arranges
    (once `gamedef test` has compiled the tests): its error is reported with that test."""
    path = tmp_path / "gems.game"
    path.write_text(PLAYED_HANDS.replace("CURSE", EMPTY_CHOICE))
    tests = tmp_path / "gems.test.game"
    tests.write_text(
        'include "gems.game"\n\ntest cursed_in_hand "North holds the cursed gem" {\n    players 2\n'
        "    arrange {\n        hand[north] = [cursed]\n    }\n"
        '    expect offered("take cursed")\n}\n'
    )
    code, out, err = check_cli(capsys, str(path), "--budget", "2")
    assert code == 0, err  # random games never deal it
    assert main(["test", str(tests)]) == 0
    capsys.readouterr()
    code, out, err = check_cli(capsys, str(path), "--budget", "2")
    assert code == 2
    line = next(i for i, text in enumerate(PLAYED_HANDS.splitlines(), 1) if "CURSE" in text)
    assert f"{path}:{line}:9: error: in cursed.effect: a choice has no options" in err
    assert "random moves from the position of test cursed_in_hand" in err
    assert f"reproduce it: the position test cursed_in_hand arranges ({tests}:3:1)" in err


@pytest.mark.parametrize("budget", ["-1", "nan", "inf", "4000", "soon"])
def test_a_budget_that_is_not_a_number_of_seconds_is_refused(capsys, budget):
    with pytest.raises(SystemExit) as info:
        main(["check", "tictactoe", "--budget", budget])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--budget" in err and ("seconds" in err) and "Traceback" not in err


def test_check_plays_the_rules_as_written(tmp_path, capsys, monkeypatch):
    """`gamedef check` compiles each variant as written (no inlining, a tenth of the
    optimised compile, the same game by tests/compile/test_optimisations.py): an edit checks
    in about a second, and `run` compiles the optimised build once."""
    from interpreter.runtime import load

    builds: list[bool] = []
    real = load.compile_game

    def spy(program, options=None, **kw):
        builds.append(kw.get("optimise", True))
        return real(program, options, **kw)

    monkeypatch.setattr(load, "compile_game", spy)
    path = tmp_path / "v.game"
    path.write_text(
        "game v { players 2..2 seats [north, south] }\n"
        "def points() = 1\n"
        'procedure play() {\n    rule "Play"\n    log "{points()}"\n    game over [north]\n}\n'
        'variant more "More" {\n    replace def points() = 2\n}\n'
    )
    assert main(["check", str(path), "--budget", "0"]) == 0, capsys.readouterr().err
    assert builds == [False, False]


def test_the_library_gives_the_game_to_replay_and_the_command_line_words_it():
    """play/exercise.py reports which seeded game met a problem (file, players, seed,
    variants); the `gamedef run` that plays it again is worded by the command line."""
    from interpreter.cli.designing import replay_command
    from interpreter.core.errors import Diagnostic, Span
    from interpreter.play.exercise import Problem, Replay, Report

    met = Problem(
        Diagnostic(Span("f.game", 3, 5), "boom"), "2 players, seed 3, decision 4", Replay("f.game", 2, 3, ("v",))
    )
    from_test = Problem(Diagnostic(Span("f.game", 9, 1), "bang"), "from test t", None, "the position test t arranges")
    report = Report(1.0, 0.5, 1, 4, (), (met, from_test), (), 0, 0, (2,))
    hints = [d.hint for d in report.diagnostics(lambda r: f"{r.file}|{r.players}|{r.seed}|{r.variants}")]
    assert hints == ["reproduce it: f.game|2|3|('v',)", "reproduce it: the position test t arranges"]
    assert met.replay is not None
    assert replay_command(met.replay) == "gamedef run f.game --players 2 --seed 3 --variant v --moves"


SELF_TRIGGERING = """\
game g { players 2..2 seats [a, b] }
event scored(p: player)
var vp: player -> int = 0
when scored(p) WHERE {
    rule "Scoring: a seat that scores gains 1 VP"
    vp[p] += 1
    EMIT
}
procedure play() {
    rule "Play"
    choose p from players by a label "{p} scores"
    emit scored(p)
    game over [p]
}
"""


@pytest.mark.parametrize(
    ("where", "emit", "reported"),
    [
        ("", "emit scored(p)", True),  # sets itself off on every path
        ("where vp[p] < 3", "emit scored(p)", False),  # its `where` reads what it changes: it may stop
        ("", "if vp[p] < 3 {\n        emit scored(p)\n    }", False),  # only under a condition
    ],
    ids=["every-path", "where-reads-what-it-changes", "under-a-condition"],
)
def test_a_trigger_that_sets_itself_off_is_found_without_playing(capsys, tmp_path, where, emit, reported):
    """`when scored(p) { ... emit scored(p) }`: once it runs, it runs again, endlessly: an
    error at the `emit`, before any game is played; a trigger whose `where` or an `if`
    around the `emit` reads what it changes may stop, and is left to play."""
    path = tmp_path / "g.game"
    path.write_text(SELF_TRIGGERING.replace("WHERE", where).replace("EMIT", emit))
    code, _, err = check_cli(capsys, str(path), "--budget", "0")
    assert (code == 2) == reported, err
    if reported:
        assert f"{path}:7:5: error: this trigger of 'scored' emits 'scored' on every path" in err
