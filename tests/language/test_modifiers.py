"""Cards that own their rules: queries with a base, and modifiers with a condition and a lifetime.

Each card below is written as The Wall is Down prints it (cards.tsv), its whole rule
inside its own `card` block; the core rules (`query` declarations and `play`) name no
card. Each test asserts the positions the printed text describes.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import tomli_w
from repo_paths import ROOT

from interpreter import GameDefError, load_game
from interpreter.runtime.saving import state_from_dict, state_to_dict

CORE = """
game twid_core "Cards that own their rules" {
    players 2..2
    seats [us, russia]
}

enum CardType { Political, Economy, Military }
enum Region { Europe, Africa, Middle_East, Central_North_America }
entity TwidCard { ops: int  types: list CardType }
entity Country { region: Region  stability: int  oil: bool  eu: bool }

card cuba "Cuba" : Country { region Central_North_America  stability 3  oil false  eu false }
card libya "Libya" : Country { region Africa  stability 2  oil false  eu false }
card nigeria "Nigeria" : Country { region Africa  stability 1  oil true  eu false }
card austria "Austria" : Country { region Europe  stability 4  oil false  eu false }
card finland "Finland" : Country { region Europe  stability 4  oil false  eu false }
card sweden "Sweden" : Country { region Europe  stability 4  oil false  eu false }
card made_in_china "Made in China" : TwidCard { ops 4  types [Economy] }
card perestroika "Perestroika" : TwidCard { ops 3  types [Political] }

# The core rules ask these questions; cards change the answers.
query ops_value(p: player, c: TwidCard): int = c.ops
query can_influence(p: player, x: Country): bool = true
query can_destabilize(p: player, x: Country): bool = true
query stability(x: Country): int = x.stability
query is_oil(x: Country): bool = x.oil
query is_eu(x: Country): bool = x.eu

event turn_ended(turn: int)
var in_play: list TwidCard = []
var removed: list TwidCard = []
var answers: list int = []
"""

CARDS = """
card anti_globalization "Anti-globalization movement" : TwidCard { ops 2  types [Political, Economy]
    text "Economy cards played during this turn have -1 ops."
    effect {
        until turn_ended: ops_value(p, c) -= 1 where Economy in c.types
    }
}

card el_jefe "El Jefe" : TwidCard { ops 3  types [Political]
    text "Put this card in play. US cannot use influence ops in Cuba. China and Russia gain 1 influence in Cuba."
    effect { in_play = append(in_play, self) }
    while self in in_play: forbid can_influence(p, x) where p == us and x == cuba
}

card muammar_gaddafi "Muammar Gaddafi" : TwidCard { ops 2  types [Political]
    text "Put this card in play. Libya becomes an oil production country while this card is in play. Destabilization ops cannot be played on Libya."
    effect { in_play = append(in_play, self) }
    while self in in_play: is_oil(x) = true where x == libya
    while self in in_play: forbid can_destabilize(p, x) where x == libya
}

card libyan_civil_war "Libyan civil war" : TwidCard { ops 3  types [Military]
    text "Remove Muammar Gaddafi from the game."
    effect {
        in_play = without(in_play, muammar_gaddafi)
        removed = append(removed, muammar_gaddafi)
    }
}

card democracy_in_nigeria "Democracy in Nigeria" : TwidCard { ops 2  types [Political]
    text "Nigeria now has a stability of 2."
    effect { forever: stability(x) = 2 where x == nigeria }
}

card northern_adhesion "Northern adhesion" : TwidCard { ops 2  types [Political]
    text "Austria, Finland and Sweden are now considered EU."
    effect { forever: allow is_eu(x) where x in [austria, finland, sweden] }
}

card sovereign_funds "Sovereign funds" : TwidCard { ops 1  types [Economy]
    text "(one use) +2 points to an economy card used for an influence operation"
    effect { once forever: ops_value(p, c) += 2 where Economy in c.types }
}
"""


def game_with(tmp_path: Path, play_body: str, cards: str = CARDS):
    source = (
        textwrap.dedent(CORE)
        + textwrap.dedent(cards)
        + 'procedure play() {\n    rule "Play"\n'
        + textwrap.indent(textwrap.dedent(play_body).strip(), "    ")
        + "\n    game over []\n}\n"
    )
    path = tmp_path / "twid_core.game"
    path.write_text(source, encoding="utf-8")
    game = load_game(path)
    return game, game.start(players=2)


def started(tmp_path: Path, source: str, name: str = "g.game"):
    """Load a game written inline and start it with two players: (game, state)."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    game = load_game(path)
    return game, game.start(players=2)


def test_the_core_rules_name_no_card():
    core = CORE.split("# The core rules ask these questions")[1]
    for name in ("anti_globalization", "el_jefe", "gaddafi", "libyan", "nigeria", "northern", "sovereign"):
        assert name not in core.replace('nigeria "Nigeria"', "")


def test_anti_globalization_economy_cards_lose_one_op_until_the_turn_ends(tmp_path):
    game, state = game_with(
        tmp_path,
        """
        answers = [ops_value(us, made_in_china), ops_value(us, perestroika)]
        perform anti_globalization.effect()
        answers = concat(answers, [ops_value(us, made_in_china), ops_value(russia, made_in_china), ops_value(us, perestroika)])
        emit turn_ended(1)
        answers = concat(answers, [ops_value(us, made_in_china)])
        """,
    )
    assert game.var(state, "answers") == (4, 3, 3, 3, 3, 4)


def test_el_jefe_forbids_us_influence_in_cuba_while_in_play_only(tmp_path):
    game, state = game_with(
        tmp_path,
        """
        let before = can_influence(us, cuba)
        perform el_jefe.effect()
        let during = [can_influence(us, cuba), can_influence(russia, cuba), can_influence(us, libya)]
        in_play = without(in_play, el_jefe)
        log "{before} {during} {can_influence(us, cuba)}"
        """,
    )
    assert game.narrate(state) == ["yes no, yes, yes yes"]


def test_a_static_modifiers_condition_is_tested_again_whenever_what_it_reads_changes(tmp_path):
    """A condition reading only variables has its answer kept for the values last seen
    (interpreter/compile/modifiers.py, `_in_force`): each change of `in_play`, even to an equal
    new list, and a second game played in between, still give the rulebook's answer."""
    body = """
        perform el_jefe.effect()
        let a = can_influence(us, cuba)
        in_play = without(in_play, el_jefe)
        let b = can_influence(us, cuba)
        in_play = append(in_play, el_jefe)
        let c = can_influence(us, cuba)
        in_play = [x for x in in_play]
        let d = can_influence(us, cuba)
        in_play = []
        log "{a} {b} {c} {d} {can_influence(us, cuba)} {is_oil(libya)} {can_destabilize(russia, libya)}"
        """
    game, state = game_with(tmp_path, body)
    assert game.narrate(state) == ["no yes no no yes no yes"]
    query = game.compiled.queries["can_influence"]
    assert [m.reads for m in query.statics] == [(game.compiled.vars["in_play"].slot,)]
    assert game.narrate(game.start(players=2)) == ["no yes no no yes no yes"]


def test_a_query_with_no_modifier_in_force_is_answered_in_place_and_asked_again_once_one_is(tmp_path):
    """A query's call is its base written in place while the variables deciding whether
    a modifier of it is in force (here `in_play`, and the stated modifiers' list) hold
    the values last seen with none in force (interpreter/compile/modifiers.py, `_query_guards`):
    the query's closure is called once, then not until `in_play` changes, and at every
    call while El Jefe forbids; two games of one compiled game asked in turn each get
    their own answers, the guard keeping the values last seen with no modifier in force."""
    body = """
        let a = [can_influence(us, cuba), can_influence(us, cuba), can_influence(us, cuba)]
        choose jefe from [true, false] by us prompt "El Jefe?"
        if jefe {
            perform el_jefe.effect()
        }
        let b = [can_influence(us, cuba), can_influence(us, cuba), can_influence(russia, cuba)]
        choose again from [1, 2] by us prompt "again?"
        log "{a} {b} {can_influence(us, cuba)}"
        """
    game, state = game_with(tmp_path, body)
    ns = game.compiled.ns
    asked = []
    closure = ns["_q_can_influence"]
    ns["_q_can_influence"] = lambda vm, args: asked.append(args) or closure(vm, args)
    # The first game's `a` is answered in place (`game_with` already asked with the same
    # empty `in_play`); with El Jefe in play, every call is a call.
    with_jefe = game.apply_index(game.start(players=2), 0)
    assert asked == [("us", "cuba"), ("us", "cuba"), ("russia", "cuba")]
    asked.clear()
    # The second game's calls find the guard holding the values last seen with no modifier
    # in force (the empty `in_play` before El Jefe came): all in place.
    without = game.apply_index(game.start(players=2), 1)
    assert asked == []
    assert game.narrate(game.apply_index(without, 0)) == ["yes, yes, yes yes, yes, yes yes"]
    assert game.narrate(game.apply_index(with_jefe, 0)) == ["yes, yes, yes no, no, yes no"]
    assert game.narrate(game.apply_index(without, 1)) == ["yes, yes, yes yes, yes, yes yes"]
    # El Jefe's game only: the guard still holds the values the other game's position has
    assert asked == [("us", "cuba")]


def test_a_stated_modifier_in_force_in_one_game_and_not_in_another_gives_each_its_answers(tmp_path):
    """`is_eu`'s guard is the stated modifiers' list alone. While Northern adhesion's
    modifier is in force the guard fails at every call and the closure answers at once
    for the list last seen with it in force; two games asked in turn, one with the card
    played and one without, each get their own answers."""
    body = """
        choose adhere from [true, false] by us prompt "Northern adhesion?"
        if adhere {
            perform northern_adhesion.effect()
        }
        let a = [is_eu(austria), is_eu(austria), is_eu(cuba)]
        choose again from [1, 2] by us prompt "again?"
        log "{a} {is_eu(austria)} {is_eu(finland)} {is_eu(cuba)}"
        """
    game, state = game_with(tmp_path, body)
    assert len(game.compiled.ns["_qi_is_eu"]) == 1
    adhered, not_adhered = game.apply_index(state, 0), game.apply_index(state, 1)
    assert game.narrate(game.apply_index(adhered, 0)) == ["yes, yes, no yes yes no"]
    assert game.narrate(game.apply_index(not_adhered, 0)) == ["no, no, no no no no"]
    assert game.narrate(game.apply_index(adhered, 1)) == ["yes, yes, no yes yes no"]
    assert game.narrate(game.apply_index(not_adhered, 1)) == ["no, no, no no no no"]


def test_a_condition_reading_more_than_variables_is_tested_at_every_call(tmp_path):
    cards = (
        CARDS
        + """
card detector "Detector" : TwidCard { ops 1  types [Military]
    while count(answers) > 0 and can_influence(russia, cuba): forbid can_destabilize(p, x) where x == cuba
}
"""
    )
    game, state = game_with(
        tmp_path,
        """
        let a = can_destabilize(us, cuba)
        answers = [1]
        let b = can_destabilize(us, cuba)
        perform el_jefe.effect()
        let c = can_destabilize(us, cuba)
        log "{a} {b} {c}"
        """,
        cards,
    )
    assert game.narrate(state) == ["yes no no"]
    assert [m.reads for m in game.compiled.queries["can_destabilize"].statics][-1] is None


def test_a_pure_querys_answers_are_kept_for_the_modifiers_in_force_and_no_longer(tmp_path):
    """`is_eu` and `stability` read only their arguments, and so do their modifiers: their
    answers are kept per set of modifiers in force (interpreter/compile/modifiers.py,
    `_memoised`). A modifier put in force, and two games of one compiled game asked in
    turn, each with its own modifiers, still get the rulebook's answers."""
    game, state = game_with(
        tmp_path,
        """
        let before = [is_eu(austria), stability(nigeria)]
        choose adhere from [true, false] by us prompt "adhere?"
        if adhere {
            perform northern_adhesion.effect()
            perform democracy_in_nigeria.effect()
        }
        log "{before} {is_eu(austria)} {is_eu(cuba)} {stability(nigeria)}"
        choose again from [1, 2] by us prompt "again?"
        log "{is_eu(austria)} {is_eu(finland)} {stability(nigeria)}"
        """,
    )
    assert game.compiled.queries["is_eu"].pure and game.compiled.queries["stability"].pure
    adhered, stayed = game.apply_index(state, 0), game.apply_index(state, 1)
    assert game.narrate(adhered) == ["no, 1 yes no 2"]
    assert game.narrate(stayed) == ["no, 1 no no 1"]
    assert game.narrate(game.apply_index(adhered, 0)) == ["yes yes 2"]
    assert game.narrate(game.apply_index(stayed, 0)) == ["no no 1"]
    assert game.narrate(game.apply_index(adhered, 1)) == ["yes yes 2"]


def test_gaddafi_makes_libya_oil_and_undestabilizable_until_libyan_civil_war_removes_him(tmp_path):
    game, state = game_with(
        tmp_path,
        """
        log "{is_oil(libya)} {can_destabilize(us, libya)}"
        perform muammar_gaddafi.effect()
        log "{is_oil(libya)} {can_destabilize(us, libya)} {can_destabilize(russia, libya)} {can_destabilize(us, cuba)} {is_oil(nigeria)}"
        perform libyan_civil_war.effect()
        log "{is_oil(libya)} {can_destabilize(us, libya)}"
        """,
    )
    assert game.narrate(state) == ["no yes", "yes no no yes yes", "no yes"]


def test_democracy_in_nigeria_and_northern_adhesion_change_component_data_for_good(tmp_path):
    game, state = game_with(
        tmp_path,
        """
        log "{stability(nigeria)} {is_eu(austria)} {is_eu(sweden)}"
        perform democracy_in_nigeria.effect()
        perform northern_adhesion.effect()
        emit turn_ended(1)
        log "{stability(nigeria)} {stability(libya)} {is_eu(austria)} {is_eu(finland)} {is_eu(sweden)} {is_eu(cuba)}"
        """,
    )
    assert game.narrate(state) == ["1 no no", "2 2 yes yes yes no"]


def test_a_one_use_modifier_lasts_until_it_is_consumed(tmp_path):
    game, state = game_with(
        tmp_path,
        """
        perform sovereign_funds.effect()
        answers = [ops_value(us, made_in_china), ops_value(us, made_in_china), ops_value(us, perestroika)]
        consume ops_value(us, perestroika)
        answers = append(answers, ops_value(us, made_in_china))
        consume ops_value(us, made_in_china)
        answers = append(answers, ops_value(us, made_in_china))
        """,
    )
    assert game.var(state, "answers") == (6, 6, 3, 6, 4)


def test_sets_then_adds_and_cant_beats_can(tmp_path):
    cards = """
    card a "A" : TwidCard { ops 1  types [Political]
        while true: ops_value(p, c) += 1 where c == perestroika
    }
    card b "B" : TwidCard { ops 1  types [Political]
        while true: ops_value(p, c) = 10 where c == perestroika
        while true: allow can_influence(p, x) where x == cuba
    }
    card c "C" : TwidCard { ops 1  types [Political]
        while true: forbid can_influence(p, x) where x == cuba
    }
    """
    game, state = game_with(tmp_path, 'log "{ops_value(us, perestroika)} {can_influence(us, cuba)}"', cards)
    assert game.narrate(state) == ["11 no"]  # the set (10) then the +1; the prohibition beats the permission


def test_stated_modifiers_are_in_the_state_and_survive_save_and_load(tmp_path):
    source_cards = (
        CARDS
        + """
    card ask "Ask" : TwidCard { ops 1  types [Political] }
    """
    )
    game, state = game_with(
        tmp_path,
        """
        perform anti_globalization.effect()
        may us "look at the ops" {
            answers = [ops_value(us, made_in_china)]
        }
        emit turn_ended(1)
        answers = append(answers, ops_value(us, made_in_china))
        """,
        source_cards,
    )
    assert state.pending is not None
    assert len(game.var(state, "modifiers_in_force")) == 1
    data = tomli_w.dumps(state_to_dict(game, state))
    import tomllib

    loaded = state_from_dict(game, tomllib.loads(data))
    assert loaded == state
    final = game.apply(loaded, "look at the ops")
    assert game.var(final, "answers") == (3, 4)
    assert game.var(final, "modifiers_in_force") == ()
    assert "modifiers_in_force" in game.observation(state, "russia")["vars"]


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ("while true: opz_value(p, c) -= 1", "unknown query 'opz_value'"),
        (
            "while true: ops_value(p) -= 1",
            "query 'ops_value' takes 2 arguments, this modifier names 1: ops_value(p: player, c: TwidCard)",
        ),
        ("while true: forbid ops_value(p, c)", "`forbid` changes a true/false query; 'ops_value' is int"),
        ("while true: can_influence(p, x) += 1", "`+=` changes a number; 'can_influence' is bool"),
        ("while true: ops_value(p, c) = true", "query 'ops_value' is int, this modifier gives bool"),
        ("while true: ops_value(p, c) -= 1 where c.ops", "a modifier's `where` condition"),
        ("effect { until turn_endd: ops_value(p, c) -= 1 }", "unknown event 'turn_endd'"),
    ],
)
def test_modifier_mistakes_are_reported_at_their_position(tmp_path, card, message):
    cards = f'card bad "Bad" : TwidCard {{ ops 1  types [Political]\n    {card}\n}}\n'
    with pytest.raises(GameDefError) as info:
        game_with(tmp_path, "", cards)
    text = info.value.render()
    assert message in text, text
    assert "twid_core.game:" in text


def test_a_changeable_property_is_read_everywhere_through_its_current_value(tmp_path):
    """Democracy in Nigeria, Northern adhesion and Gaddafi written against properties
    declared `changeable`: the core reads `x.stability`, `x.eu`, `x.oil` as usual."""
    source = """
    game props "Changeable component data" { players 2..2 seats [us, russia] }
    entity Country { stability: int changeable  oil: bool changeable  eu: bool changeable }
    card nigeria "Nigeria" : Country { stability 1  oil true  eu false }
    card libya "Libya" : Country { stability 2  oil false  eu false }
    card austria "Austria" : Country { stability 4  oil false  eu false }
    entity Event { ops: int }
    card democracy_in_nigeria "Democracy in Nigeria" : Event { ops 2
        text "Nigeria now has a stability of 2."
        effect { forever: stability(x) = 2 where x == nigeria }
    }
    card northern_adhesion "Northern adhesion" : Event { ops 2
        text "Austria, Finland and Sweden are now considered EU."
        effect { forever: eu(x) = true where x == austria }
    }
    card muammar_gaddafi "Muammar Gaddafi" : Event { ops 2
        text "Put this card in play. Libya becomes an oil production country while this card is in play."
        effect { in_play = append(in_play, self) }
        while self in in_play: oil(x) = true where x == libya
    }
    var in_play: list Event = []
    def influence_cost(x: Country) = x.stability
    def oil_countries() = [x for x in members(Country) if x.oil]
    procedure play() {
        rule "Play"
        log "{influence_cost(nigeria)} {austria.eu} {oil_countries()}"
        perform democracy_in_nigeria.effect()
        perform northern_adhesion.effect()
        perform muammar_gaddafi.effect()
        log "{influence_cost(nigeria)} {influence_cost(libya)} {austria.eu} {oil_countries()}"
        in_play = []
        log "{oil_countries()}"
        game over []
    }
    """
    game, state = started(tmp_path, source, "props.game")
    assert game.narrate(state) == ["1 no Nigeria", "2 2 yes Nigeria, Libya", "Nigeria"]


def test_somali_civil_war_links_somalia_to_saudi_arabia_for_every_rule_that_follows_links(tmp_path):
    """Somali civil war (#40): "it is now considered linked to Saudi Arabia": an influence
    op placed by adjacency, `reachable` and `path_steps` all see the new link."""
    source = """
    game links "Links added in play" { players 2..2 seats [us, russia] }
    entity Country { stability: int }
    card somalia "Somalia" : Country { stability 1 }
    card ethiopia "Ethiopia" : Country { stability 1 }
    card saudi_arabia "Saudi Arabia" : Country { stability 2 }
    card iraq "Iraq" : Country { stability 1 }
    link somalia [ethiopia]
    link saudi_arabia [iraq]
    entity Event { ops: int }
    card somali_civil_war "Somali civil war" : Event { ops 2
        text "... it is now considered linked to Saudi Arabia."
        effect { link somalia, saudi_arabia }
    }
    var influence: Country -> int = 0
    def can_place(x: Country) = influence[x] > 0 or any([influence[y] > 0 for y in neighbours(x)])
    procedure play() {
        rule "Influence ops: adjacent to a country with influence"
        influence[somalia] = 1
        log "{can_place(saudi_arabia)} {adjacent(iraq, somalia)} {reachable(iraq, ethiopia)} {path_steps(iraq, 3)}"
        perform somali_civil_war.effect()
        log "{can_place(saudi_arabia)} {adjacent(saudi_arabia, somalia)} {reachable(iraq, ethiopia)} {path_steps(iraq, 3)}"
        choose x from [c for c in members(Country) if can_place(c)] by us
        influence[x] += 1
        game over []
    }
    """
    game, state = started(tmp_path, source, "links.game")
    assert game.narrate(state) == ["no no no nothing", "yes yes yes Saudi Arabia"]
    assert [m.label for m in game.legal_moves(state)] == ["Somalia", "Ethiopia", "Saudi Arabia"]
    assert game.var(state, "links_added") == (("somalia", "saudi_arabia", None), ("saudi_arabia", "somalia", None))


@pytest.mark.parametrize(
    "bad",
    [[[99, [], {}, False]], [[0, [], "no_such_event", False]], [[0, ["x"], {}, False]], [[0, [], {}, "yes"]], [7]],
)
def test_a_saved_modifier_in_force_that_does_not_fit_the_game_is_refused(tmp_path, bad):
    from interpreter.core.errors import UsageError

    game, state = game_with(tmp_path, 'perform anti_globalization.effect()\nmay us "go" {\n}')
    data = state_to_dict(game, state)
    assert data["vars"]["modifiers_in_force"] == [[0, [], "turn_ended", False]]
    data["vars"]["modifiers_in_force"] = bad
    with pytest.raises(UsageError, match="vars.modifiers_in_force: .* is not a modifier in force of this game"):
        state_from_dict(game, data)


CANCEL_GAME = """
game cancel "Cancelling a text about to resolve" { players 2..2 seats [us, russia] }
enum CardType { Political, Military, Personality }
entity TwidCard { ops: int  types: list CardType }
event text_resolving(p: player, c: TwidCard)
var in_play: list TwidCard = []
var removed: list TwidCard = []
var vp: player -> int = 0

card fsb_creation "FSB creation" : TwidCard { ops 1  types [Military]
    text "Russia gains 1 influence in Russia. Put this card in play. As a Personality is played by its text, Russia can remove this card from the game to cancel the text."
    effect(p: player) { in_play = append(in_play, self) }
    when text_resolving(p, c) where self in in_play and Personality in c.types {
        may russia "remove FSB creation to cancel {c}" {
            in_play = without(in_play, self)
            removed = append(removed, self)
            cancel
        }
    }
}
card guantanamo "Guantanamo" : TwidCard { ops 3  types [Military]
    text "US loses 1VP. Put this card in play. US player can remove this card from the game to cancel the text of a Personality card."
    effect(p: player) {
        vp[us] -= 1
        in_play = append(in_play, self)
    }
    when text_resolving(p, c) where self in in_play and Personality in c.types {
        may us "remove Guantanamo to cancel {c}" {
            in_play = without(in_play, self)
            removed = append(removed, self)
            cancel
        }
    }
}
card vladimir_putin "Vladimir Putin" : TwidCard { ops 3  types [Political, Personality]
    text "Russia gains 1 (2 if FSB is in play) influence in Russia. ..."
    effect(p: player) { vp[russia] += 1 }
}

procedure play() {
    rule "Texts resolve unless cancelled as they are played"
    perform guantanamo.effect(us) cancellable by text_resolving(us, guantanamo)
    perform fsb_creation.effect(russia) cancellable by text_resolving(russia, fsb_creation)
    perform vladimir_putin.effect(russia) cancellable by text_resolving(russia, vladimir_putin)
    perform vladimir_putin.effect(russia) cancellable by text_resolving(russia, vladimir_putin)
    game over []
}
"""


def test_guantanamo_and_fsb_cancel_a_personality_text_first_taker_wins(tmp_path):
    game, state = started(tmp_path, CANCEL_GAME, "cancel.game")
    # Putin's text is announced: FSB (declared first) is offered first, to Russia.
    assert [m.label for m in game.legal_moves(state)] == ["remove FSB creation to cancel Vladimir Putin", "pass"]
    state = game.apply(state, "pass")
    assert [m.label for m in game.legal_moves(state)] == ["remove Guantanamo to cancel Vladimir Putin", "pass"]
    state = game.apply(state, "remove Guantanamo to cancel Vladimir Putin")
    # Cancelled: Putin's text did not resolve; the second Putin is offered to FSB only.
    assert game.var(state, "vp") == {"us": -1, "russia": 0}
    assert game.var(state, "removed") == ("guantanamo",)
    assert [m.label for m in game.legal_moves(state)] == ["remove FSB creation to cancel Vladimir Putin", "pass"]
    state = game.apply(state, "remove FSB creation to cancel Vladimir Putin")
    assert game.is_over(state) and game.var(state, "vp") == {"us": -1, "russia": 0}
    assert game.var(state, "effects_resolving") == ()


def test_once_one_trigger_cancels_the_others_are_not_asked(tmp_path):
    game, state = started(tmp_path, CANCEL_GAME, "cancel.game")
    state = game.apply(state, "remove FSB creation to cancel Vladimir Putin")
    # Guantanamo's trigger was ready too, but the text is already cancelled: it is not asked.
    assert [m.label for m in game.legal_moves(state)] == ["remove Guantanamo to cancel Vladimir Putin", "pass"]
    assert game.var(state, "removed") == ("fsb_creation",)
    state = game.apply(state, "pass")
    assert game.var(state, "vp") == {"us": -1, "russia": 1}  # the second Putin resolved


def test_cancel_with_nothing_resolving_names_the_rule(tmp_path):
    path = tmp_path / "bad.game"
    path.write_text(
        'game t { players 2..2 seats [a, b] }\nprocedure play() {\n    rule "Play"\n    cancel\n    game over []\n}\n'
    )
    from interpreter import GameRuntimeError

    with pytest.raises(GameRuntimeError, match="`cancel` while no effect is about to resolve"):
        load_game(path).start(players=2)


CONTEXT_GAME = """
game context "Play context, playable when, leaving play" { players 2..2 seats [us, russia] }
enum Block { West, East }
enum Use { by_ops "operations", by_text "text", by_header "header" }
entity TwidCard { ops: int  block: Block }
entity Country { stability: int }
card germany "Germany" : Country { stability 4 }
card ukraine "Ukraine" : Country { stability 2 }
card china_country "China" : Country { stability 5 }
card russia_country "Russia" : Country { stability 5 }
link russia_country [ukraine, china_country]
link ukraine [germany]

event edge_gained(p: player, x: Country, c: TwidCard)
event left_play(c: TwidCard)
var turn: int = 1
var vp: player -> int = 0
var influence: player -> Country -> int = 0
var in_play: list TwidCard = []
var coups: list int = []
def block_of(p: player) = if p == us then West else East

# The core asks whether a card's text may be played now; a card may say when it can't.
query text_playable(p: player, c: TwidCard): bool = true

card fall_of_the_berlin_wall "Fall of the Berlin Wall" : TwidCard { ops 4  block West
    text "Remove 1 Russian influence on Germany, add 1 West influence on Germany. US gains 1VP. US gains 1 additional VP if this card is played by an East Player. US gains 1 additional VP if this card is played on turns 1-4"
    effect(played_by: player, resolved_by: player, how: Use) {
        vp[us] += 1
        if block_of(played_by) == East {
            vp[us] += 1
        }
        if turn in 1..4 {
            vp[us] += 1
        }
    }
}
card nwo "NWO" : TwidCard { ops 4  block East
    text "Lose 2VP. Then the game ends. Can only be played in turns 6 to 8."
    effect(played_by: player, resolved_by: player, how: Use) { vp[played_by] -= 2 }
    while true: forbid text_playable(p, c) where c == self and turn not in 6..8
}
card vladimir_putin "Vladimir Putin" : TwidCard { ops 3  block East
    text "... Put this card in play. After any player gains the edge on a country (except China) adjacent to Russia, Russia player can discard this card to attempt a coup with the same ops value than the card that provided the edge."
    effect(played_by: player, resolved_by: player, how: Use) { in_play = append(in_play, self) }
    when edge_gained(p, x, c) where self in in_play and x != china_country and adjacent(x, russia_country) {
        may russia "discard Vladimir Putin for a coup in {x} with {c.ops} ops" {
            in_play = without(in_play, self)
            emit left_play(self)
            coups = append(coups, c.ops)
        }
    }
    when left_play(c) where c == self {
        log "Vladimir Putin leaves play"
    }
}

procedure play() {
    rule "Play"
    log "{text_playable(russia, nwo)}"
    turn = 6
    log "{text_playable(russia, nwo)} {text_playable(russia, fall_of_the_berlin_wall)}"
    turn = 2
    perform fall_of_the_berlin_wall.effect(russia, us, by_text)
    perform fall_of_the_berlin_wall.effect(us, us, by_text)
    turn = 5
    perform fall_of_the_berlin_wall.effect(us, us, by_text)
    perform vladimir_putin.effect(russia, russia, by_text)
    emit edge_gained(us, germany, fall_of_the_berlin_wall)
    emit edge_gained(us, china_country, fall_of_the_berlin_wall)
    emit edge_gained(us, ukraine, nwo)
    emit edge_gained(us, ukraine, nwo)
    game over []
}
"""


def test_a_card_knows_who_played_it_and_how_and_states_when_it_is_playable(tmp_path):
    game, state = started(tmp_path, CONTEXT_GAME, "context.game")
    assert game.narrate(state)[:2] == ["no", "yes yes"]  # NWO only in turns 6-8
    # Played by an East player in turn 2: 1 + 1 + 1; by the US in turn 2: 1 + 1; in turn 5: 1.
    assert game.var(state, "vp") == {"us": 6, "russia": 0}
    # Putin waits in play: Germany is not adjacent to Russia, China is excluded; Ukraine is.
    assert [m.label for m in game.legal_moves(state)] == [
        "discard Vladimir Putin for a coup in Ukraine with 4 ops",
        "pass",
    ]
    state = game.apply(state, "discard Vladimir Putin for a coup in Ukraine with 4 ops")
    assert game.var(state, "coups") == (4,)
    assert game.narrate(state) == ["Vladimir Putin leaves play"]
    assert game.is_over(state)  # out of play, Putin is not asked again


def test_links_have_kinds_declared_read_from_a_table_and_added_in_play(tmp_path):
    """Links with a kind: Downfall of Empires' arrows between the Russian square areas,
    read from its adjacency table as it is; and a sea link added in play."""
    doe = ROOT / "gamedefs" / "downfall_of_empires"  # the shipped tables
    (tmp_path / "adjacency.tsv").write_text((doe / "adjacency.tsv").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "zones.tsv").write_text((doe / "zones.tsv").read_text(encoding="utf-8"), encoding="utf-8")
    source = """
    game doe_links "Kinds of links" { players 2..2 seats [central, entente] }
    enum LinkKind { land, arrow, sea }
    entity Zone { title_: str }
    table Zone from "zones.tsv" {
        named by id
        title_ = name
        ignore country, home_power, initial_status, terrain, city, city_name, port, med_port, stack_limit
        ignore trench_bonus, square, italian_front, covers, special, provenance, x, y
    }
    links from "adjacency.tsv" between zone_a and zone_b as kind
    link london [flanders] as sea
    procedure play() {
        rule "Movement along links of a kind"
        log "{neighbours(riga, arrow)} | {link_kind(riga, petrograd)} | {link_kind(petrograd, riga)} | {neighbours(london)}"
        link london, brussels as sea
        log "{neighbours(london, sea)} | {link_kind(brussels, london)} | {count(neighbours(riga, land)) + count(neighbours(riga, arrow)) == count(neighbours(riga))}"
        game over []
    }
    """
    game, state = started(tmp_path, source, "doe_links.game")
    # riga's links in the file: courland, vilna, minsk (land) and petrograd (arrow)
    assert game.narrate(state) == ["petrograd | arrow | arrow | flanders", "flanders, brussels | sea | yes"]


def test_a_card_reacts_however_it_leaves_play(tmp_path):
    """`when self leaves in_play`: discarded, removed by another card or cancelled, the
    hook runs after the step that took the card out, and only for that card."""
    source = """
    game leave "Leaving play" { players 2..2 seats [us, russia] }
    entity TwidCard { ops: int }
    var in_play: list TwidCard = []
    var discard: list TwidCard = []
    var vp: player -> int = 0
    card neoliberalism "Neoliberalism" : TwidCard { ops 3
        when self leaves in_play {
            discard = append(discard, self)
            log "{self} leaves play"
        }
    }
    card el_jefe "El Jefe" : TwidCard { ops 3
        when self leaves in_play {
            vp[us] += 1
            log "{self} leaves play"
        }
    }
    card gorbachev "Gorbachev" : TwidCard { ops 3 }
    procedure play() {
        rule "Play"
        in_play = [neoliberalism, el_jefe, gorbachev]
        log "all in play"
        in_play = without(in_play, el_jefe)
        log "after El Jefe"
        in_play = []
        log "emptied"
        may us "stop" {
        }
        game over []
    }
    """
    game, state = started(tmp_path, source, "leave.game")
    assert game.narrate(state) == [
        "all in play",
        "El Jefe leaves play",
        "after El Jefe",
        "Neoliberalism leaves play",  # Gorbachev has no hook
        "emptied",
    ]
    assert game.var(state, "vp") == {"us": 1, "russia": 0}
    assert game.var(state, "discard") == ("neoliberalism",)
