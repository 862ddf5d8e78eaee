"""`gamedef new game|variant|cards NAME [--of GAME] [DIR]`: a skeleton in a folder of
one's own that checks and runs as it is, so a designer starts from something that works
and changes it a step at a time (`gamedef check` after each).

A variant or a card set builds on a game by name (`include twid`, docs/language.md §3.2):
a bundled game, or a .game file in the same folder. A card set's card gives every
property its kind needs, with a value of the right type, and the slot most of the game's
cards have, with its parameters, so it is dealt and played like the others.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from interpreter.core.errors import UsageError, did_you_mean
from interpreter.core.paths import bundle_of
from interpreter.language import syntax as ast
from interpreter.language.program import Program, bundled_names, load_program

NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")

GAME = """\
# {title}: a new game. Each part cites the section of your rulebook it follows
# (`rule "..."`), and writes down the reading chosen where the rules leave a question
# open (`interpretation "..."`). Check it after each change: gamedef check {file}
# Play it: gamedef run {file}    The language: docs/language.md

game {name} "{title}" {{
    players 2..4
    seats [red, blue, green, yellow]
}}

option target: int = 10 choices [5, 10, 20] "the points that win"

var points: player -> int = 0

view {{
    list "Points" for p in players: "{{p}}: {{points[p]}}"
}}

procedure play() {{
    rule "1. Turns: the players take turns in seat order"
    while true {{
        for p in players {{
            turn(p)
        }}
    }}
}}

def choice(n: int) = if n == 1 then "take 1" else "roll for 2"
def gain(d: int) = if d >= 4 then "2 points" else "nothing"

procedure turn(p: player) {{
    rule "2. A turn: take 1 point, or roll a die and take 2 points on 4 or more"
    choose n from [1, 2] by p prompt "take 1 point, or roll for 2" label "{{choice(n)}}"
    if n == 1 {{
        points[p] += 1
        log "{{p}} takes 1 point"
    }} else {{
        roll d from 1..6
        if d >= 4 {{
            points[p] += 2
        }}
        log "{{p}} rolls {{d}}: {{gain(d)}}"
    }}
    if points[p] >= target {{
        rule "3. The end: the first to reach the target wins"
        log headline "{{p}} wins with {{points[p]}} points"
        win p
    }}
}}
"""

VARIANT = """\
# {title}: a variant of {of}, in a file of one's own. `include {include}` is the whole
# game; the variant below adds, replaces or removes its named parts (docs/language.md
# §9.3), for example `replace def NAME(...) = ...` or `replace procedure NAME(...) {{ ... }}`.
# `gamedef rules {of}` lists the game's rules; `gamedef info {of}` its options.
# Check it: gamedef check {file}
# Play it:  gamedef run {file} --variant {name}

include {include}

variant {name} "{title}" {{
    rule "House rule (not in the rulebook): {title}"
}}
"""

CARDS = """\
# {title}: new cards for {of}, in a file of one's own. `include {include}` is the whole
# game; each card below joins it. A card gives the properties of a {kind} (those of an
# optional type may be left out: they are none), its printed text and its rule
# (docs/language.md §3.5, §3.7).
# Check it: gamedef check {file}
# Play it:  gamedef run {file}
# Read it:  gamedef cards {file} --search "{card_title}"

include {include}

card {card} "{card_title}" : {kind} {{
{props}    text "A new card: it tells the log it was used."
    {slot} {{
        rule "New card {card_title}: its text"
        log "{card_title} is used"
    }}
}}
"""


TESTS = {
    "game": """\
# Tests of {title} in the game's own language (docs/language.md §16):
# gamedef test {test_file}

include "{name}.game"

test taking_a_point "Taking 1 point gives 1 point, and the turn passes" {{
    rule "2. A turn: take 1 point, or roll a die and take 2 points on 4 or more"
    players 2
    seed 1
    play "take 1"
    expect points[red] == 1
    expect points[blue] == 0
    expect offered("roll for 2")
}}
""",
    "variant": """\
# Tests of the variant {name} (docs/language.md §16): gamedef test {test_file}

include "{name}.game"

test the_variant_starts "The game starts with the variant {name}" {{
    rule "House rule (not in the rulebook): {title}"
    variant {name}
    expect not ended()
}}
""",
    "cards": """\
# Tests of the new cards (docs/language.md §16): gamedef test {test_file}

include "{name}.game"

test the_card_is_a_{kind_lower} "{card_title} is one of the game's {kind} components" {{
    rule "New card {card_title}: its text"
    expect {card} in members({kind})
}}
""",
}


def _title(name: str) -> str:
    return name.replace("_", " ").strip().capitalize()


def _include_for(of: str, folder: Path) -> str:
    """How a file in `folder` names the game it builds on: a bundled name, or a quoted
    file name for a .game file in that folder."""
    local = folder / (of if of.endswith(".game") else of + ".game")
    if "/" not in of and local.is_file():
        return f'"{local.name}"'
    names = bundled_names(bundle_of(folder / "x.game"))
    stem = of.removesuffix(".game")
    if stem in names:
        return stem
    games = [n for n in names if "/" not in n]
    raise UsageError(
        f"--of {of}: no bundled game or .game file in {folder} is named so",
        did_you_mean(stem, games) or "bundled games: " + ", ".join(games),
    )


def _type_text(t: ast.TypeExpr) -> str:
    if isinstance(t, ast.NamedType):
        return t.name
    if isinstance(t, ast.OptionalType):
        return _type_text(t.inner) + "?"
    if isinstance(t, ast.ListType):
        return "list " + _type_text(t.element)
    return f"{_type_text(t.key)} -> {_type_text(t.value)}"


def _value_of(t: ast.TypeExpr, program: Program, components: dict[str, list[str]]) -> str | None:
    """A constant of type `t` for a new card's property, or None if there is none."""
    if isinstance(t, ast.OptionalType):  # a value, so the designer sees what to change (`none` leaves it out)
        return _value_of(t.inner, program, components) or "none"
    if isinstance(t, ast.ListType):
        item = _value_of(t.element, program, components)
        return f"[{item}]" if item else "[]"
    if isinstance(t, ast.NamedType):
        simple = {"int": "1", "bool": "false", "str": '"new"', "player": program.header.seats[0]}
        if t.name in simple:
            return simple[t.name]
        for d in program.decls:
            if isinstance(d, ast.Enum) and d.name == t.name and d.members:
                return d.members[0].name
        if components.get(t.name):
            return components[t.name][0]
    return None


def _card_kind(program: Program) -> tuple[str, list[str], str]:
    """The kind most of the game's cards are, its properties for a new card (as lines),
    and the slot (with parameters) most of its cards have."""
    kinds: Counter[str] = Counter()
    components: dict[str, list[str]] = {}
    for t in program.tables:
        if isinstance(t.decl, ast.DataTable):
            components.setdefault(t.decl.kind, []).extend(r.name for r in t.live())
    for d in program.decls:
        if isinstance(d, ast.Card):
            if d.extends is None:
                components.setdefault(d.kind, []).append(d.name)
            if d.slots:
                kinds[d.kind] += 1
    if not kinds:
        raise UsageError("this game has no cards with a rule to copy", "start a variant instead: gamedef new variant")
    kind = kinds.most_common(1)[0][0]
    slots: Counter[str] = Counter()
    # A slot the kind's entity declares (`slot effect(...)`) takes its parameters unwritten.
    declared = {sig.name for d in program.decls if isinstance(d, ast.Entity) and d.name == kind for sig in d.slots}
    for d in program.decls:
        if isinstance(d, ast.Card) and d.kind == kind:
            for name, _, _, params in d.slots:
                shown = ", ".join(f"{p.name}: {_type_text(p.type)}" for p in params)
                slots[f"{name}({shown})" if params and name not in declared else name] += 1
    entity = next((d for d in program.decls if isinstance(d, ast.Entity) and d.name == kind), None)
    lines = []
    for f in entity.fields if entity else ():
        value = _value_of(f.type, program, components)
        if value is None:
            raise UsageError(f"a new {kind} needs a value for {f.name}, and none could be chosen", "write the card")
        lines.append(f"    {f.name} {value}\n")
    return kind, lines, slots.most_common(1)[0][0]


def make_skeleton(what: str, name: str, of: str | None, folder: Path) -> Path:
    """Write the skeleton `what` ("game", "variant", "cards") named `name` into `folder`;
    its path. Refuses to overwrite a file."""
    if not NAME.match(name):
        raise UsageError(f"'{name}' cannot name a {what}", "use lower-case letters, digits and _: my_game")
    if what != "game" and not of:
        raise UsageError(f"a new {what} builds on a game: give --of GAME", f"gamedef new {what} {name} --of twid")
    if what == "game" and of:
        raise UsageError("--of is for a variant or a card set", f"gamedef new game {name}")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.game"
    if path.exists():
        raise UsageError(f"{path} exists already", "choose another name or folder")
    title = _title(name)
    fields = {"name": name, "title": title, "file": str(path)}
    if what == "game":
        text = GAME.format(**fields)
    else:
        assert of is not None  # refused above when missing
        include = _include_for(of, folder)
        fields.update(of=of.removesuffix(".game"), include=include)
        if what == "variant":
            text = VARIANT.format(**fields)
        else:
            base = folder / include.strip('"') if include.startswith('"') else None
            program = load_program(base) if base else load_program(bundled_names(bundle_of(path))[include])
            kind, props, slot = _card_kind(program)
            fields.update(kind=kind, props="".join(props), slot=slot, card=f"{name}_card", card_title=title)
            text = CARDS.format(**fields)
    test_path = folder / f"{name}.test.game"
    if test_path.exists():
        raise UsageError(f"{test_path} exists already", "choose another name or folder")
    fields.update(test_file=str(test_path), kind_lower=str(fields.get("kind", "")).lower())
    path.write_text(text)
    test_path.write_text(TESTS[what].format(**fields))
    return path
