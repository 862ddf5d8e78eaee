"""The language reference must stay true: every ```game block in docs/language.md parses,
and every complete program in it (one with a `procedure play(`) checks without a warning,
loads, compiles, starts and survives random moves. A program that reads a data file (`table ... from "x.csv"`)
is followed by it in the document, in a block whose info string names it
(```csv countries.csv): it is written beside the program before loading.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import ROOT

from interpreter import load_game
from interpreter.check.checker import check_game
from interpreter.check.endless import endless
from interpreter.core.builtins import BUILTINS
from interpreter.core.errors import GameDefError
from interpreter.language.parser import parse_text
from interpreter.language.program import load_program

DOC = ROOT / "docs" / "language.md"
TEXT = DOC.read_text(encoding="utf-8")

_FENCE = re.compile(r"^```(game)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _blocks(kind: str) -> list[tuple[int, str]]:
    """(block number counted over every ```game block, text)."""
    out = []
    for n, match in enumerate(_FENCE.finditer(TEXT), start=1):
        if match.group(1) == kind:
            out.append((n, match.group(2)))
    return out


GAME_BLOCKS = _blocks("game")
PROGRAMS = [(n, text) for n, text in GAME_BLOCKS if "procedure play(" in text]

# A program that reads a table (`table ... from "countries.csv"`) is followed by its files:
# fenced blocks whose info string names the file, ```csv countries.csv (tsv, csv or toml).
_WITH_FILES = re.compile(r"^```(game|tsv|csv|toml)(?:[ \t]+([\w.-]+))?[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _files() -> dict[int, dict[str, str]]:
    """The named data blocks after each ```game block (by its number), before the next one."""
    files: dict[int, dict[str, str]] = {}
    n = 0
    for match in _WITH_FILES.finditer(TEXT):
        if match.group(1) == "game":
            n += 1
        elif match.group(2):
            files.setdefault(n, {})[match.group(2)] = match.group(3)
    return files


FILES = _files()


def _write(tmp_path: Path, n: int, text: str) -> Path:
    """Block `n` as a .game file, with the data files that follow it beside it."""
    for name, content in FILES.get(n, {}).items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    path = tmp_path / f"block{n}.game"
    path.write_text(text, encoding="utf-8")
    return path


def _id(item) -> str:
    n, text = item
    first = next((line for line in text.splitlines() if line.strip()), "")
    return f"block{n}:" + re.sub(r"[^A-Za-z0-9_]+", "_", first.strip())[:40]


def test_the_document_has_examples():
    assert len(GAME_BLOCKS) >= 40
    assert len(PROGRAMS) >= 15


@pytest.mark.parametrize("block", GAME_BLOCKS, ids=_id)
def test_block_parses(block):
    n, text = block
    parse_text(text, f"docs/language.md#block{n}")


def _play(game, seed: int, moves: int, rng: random.Random):
    state = game.start(players=game.header.min_players, seed=seed)
    for _ in range(moves):
        if game.is_over(state):
            break
        legal = game.legal_moves(state)
        assert legal, "a game that is not over must offer a move"
        state = game.apply(state, rng.choice(legal))
    return state


@pytest.mark.parametrize("block", PROGRAMS, ids=_id)
def test_program_loads_and_runs(block, tmp_path):
    n, text = block
    game = load_game(str(_write(tmp_path, n, text)))  # parse, check and compile
    for seed in (1, 2, 3):
        _play(game, seed, 60, random.Random(seed * 1000 + n))


# A complete program is checked as `gamedef check` checks it: a designer copying an example
# must see no warning (a variable never read, a rule cited nowhere, a choice that may have
# no options, ...). An example written to show a warning is named here by a piece of its
# text, with the words of the warning it shows; none is, today.
WARNING_EXAMPLES: dict[str, str] = {}


def _warnings(path: Path) -> list[str]:
    """`gamedef check`'s warnings for a program: the checker's and the endless rules'."""
    program = load_program(str(path))
    _, found = check_game(program)
    found += [d for d in endless(program.decls) if d.severity == "warning"]
    return [f"line {d.span.line}: {d.message}" for d in found]


@pytest.mark.parametrize("block", PROGRAMS, ids=_id)
def test_program_checks_without_a_warning(block, tmp_path):
    n, text = block
    said = _warnings(_write(tmp_path, n, text))
    marked = [words for needle, words in WARNING_EXAMPLES.items() if needle in text]
    if marked:
        assert said and all(any(words in line for line in said) for words in marked), said
    else:
        assert said == [], f"block{n} of docs/language.md warns: {said}"


def test_programs_run_with_every_player_count(tmp_path):
    """Complete programs also start with their largest player count."""
    for n, text in PROGRAMS:
        game = load_game(str(_write(tmp_path, n, text)))
        state = game.start(players=game.header.max_players, seed=1)
        assert game.is_over(state) or game.legal_moves(state)


# Each mechanic of the language's table (docs/language.md §13) (and each example the reference promises) must keep an
# example: a distinctive piece of text, and whether the block holding it must be a complete,
# running program. Deleting an example fails here.
MECHANICS: dict[str, tuple[str, bool]] = {
    "roles mapped by player count": ("2 players: [west, east]", True),
    "blocks and coalitions": ("def block_of(p: player)", True),
    "card with properties, printed text and a trigger (Putin)": ("when edge_gained(p, c, ops) where", True),
    "card effect slot": ("    effect {", True),
    "a slot's parameters declared once in the entity": ("slot effect(s: player, how: Use)", True),
    "52-card deck generated": ("generate PlayingCard named", True),
    "zones: hand seen by owner": ("var hand: player -> list PlayingCard = [] seen by owner", True),
    "reshuffle on empty": ("if count(deck) == 0 {", True),
    "deal": ("procedure deal(", True),
    "pyramid support rule": ("def supported(s: Spot)", True),
    "stacks in front of slots": ("var wall_stack: Spot -> list PlayingCard", True),
    "graph map with links": ("link russia_country [", True),
    "graph regions": ("def countries_in(r: Region)", True),
    "grid walk of exact length": ("path_steps(", True),
    "grid face-down pieces": ("visible when face_up[self]", True),
    "holes and gravity": ("opposite(", True),
    "track with bounds": ("max(0, min(10, vp[p] + n))", True),
    "VP below zero overflow": ("procedure lose_vp(", True),
    "missions 0..6 and diplomacy track": ("min(6, missions[p] + 4)", True),
    "player sheet with lines and complete boxes": ("complete[e] < e.item.lines", True),
    "cap of 7 complete items": ("while complete_items(p) > 7", True),
    "dice: choose two of three": ("which die marks parts?", True),
    "dice: re-roll on a value": ("while x + y == 7 {", True),
    "modified roll": ("2 * c.stability", True),
    "fixed order and actions per turn": ("actions_per_turn", True),
    "order from a ranking with tie-break choice": ("break the tie", True),
    "extra roll": ("roll_again", True),
    "secret simultaneous selection then reveal": (
        "var header: player -> TwidCard? = none seen by owner",
        True,
    ),
    "reveal": ("revealed[p] = header[p]", True),
    "secret choice": ('label "header: {c}" secret', True),
    "out-of-turn reaction (Counterintelligence)": ('may q "play Counterintelligence', True),
    "cancel an effect (FSB creation)": ("cancel the text", True),
    "choose N from a filtered set": ("choose_distinct", True),
    "split points, up to": ('label if c == none then "done"', True),
    "split points one at a time": ("West influence {k} of 2", True),
    "if able": ("if inf(y, russia) > 0] by p label", True),
    "modifier with a lifetime of one turn": ("until turn_ended:", True),
    "modifier while in play": ("self in in_play", True),
    "immediate win check": ("if vp[p] >= 10 {", True),
    "end-of-game scoring with tie-breaks": ("def tie_break(", True),
    "several victory modes": ("option victory: VictoryMode", True),
    "supply line": ("reachable(z, s, x => control[x] == p)", True),
    "movement with costs": ("def move_cost(", True),
    "stacking limit": ("stack_limit", True),
    "combat with support, trenches and losses": ("procedure resolve_combat(", True),
    "variant overlay": ("variant ", False),
    "option with choices": ("choices ", False),
    "include": ('include "', False),
    "components from a table file": ('table Country from "countries.csv"', True),
    "links from a table file": ('links from "adjacency.csv"', True),
    "a card block extending a table row": ("card boris_yeltsin {", True),
    "the TWID tables as they are": ('table TwidCard from "cards.tsv"', False),
    "about texts for components and enum members": ('about shield "', True),
}


@pytest.mark.parametrize("mechanic", sorted(MECHANICS))
def test_mechanic_has_an_example(mechanic):
    needle, must_run = MECHANICS[mechanic]
    pool = PROGRAMS if must_run else GAME_BLOCKS
    where = "a complete program" if must_run else "a ```game block"
    assert any(needle in text for _, text in pool), f"no {where} shows {mechanic!r} ({needle!r})"


def test_every_builtin_is_in_the_table():
    for name in list(BUILTINS) + ["initial"]:
        assert re.search(rf"^\| `{name}\(", TEXT, re.M), f"built-in {name}() missing from the table"


STATEMENTS = [
    "let",
    "choose",
    "may",
    "roll",
    "shuffle",
    "emit",
    "perform",
    "log",
    "log to",
    "win",
    "game over",
    "require",
    "break",
    "return",
    "rule",
    "interpretation",
    "if",
    "for",
    "while",
]


def test_every_statement_has_a_section():
    for word in STATEMENTS:
        assert re.search(rf"^#+ .*`{re.escape(word)}\b", TEXT, re.M), f"no heading for `{word}`"


def _program(header: str) -> str:
    found = [text for _, text in PROGRAMS if header in text]
    assert len(found) == 1, f"expected one program with {header!r}"
    return found[0]


def test_variants_of_the_variant_example_load_and_run(tmp_path):
    text = _program('game race "A race to the goal"')
    path = tmp_path / "race.game"
    path.write_text(text, encoding="utf-8")
    names = re.findall(r"^variant (\w+)", text, re.M)
    assert names == ["short_die", "bust", "marathon"]
    for chosen in (["short_die"], ["bust"], ["marathon"], ["bust", "marathon"]):
        game = load_game(str(path), variants=chosen)
        _play(game, 1, 60, random.Random(1))
    with pytest.raises(GameDefError, match="cannot be combined"):
        load_game(str(path), variants=["short_die", "bust"])
    assert load_game(str(path), variants=["marathon"]).header.max_players == 2


def test_combat_example_reproduces_rulebook_example_4(tmp_path):
    """Downfall of Empires 15.4: 5 + 2 support against 3 + 1 trench; dice 3 and 4; 10 against 8."""
    path = tmp_path / "combat.game"
    path.write_text(_program("game downfall_combat"), encoding="utf-8")
    game = load_game(str(path))
    state = game.start(players=2, seed=1, pins=(3, 4))
    for label in [
        "attack russian army 1 in Minsk",
        "german army 1 moves into Minsk and attacks",
        "german army 2 moves in and supports",
    ]:
        state = game.apply(state, label)
    line = "german army 1 attacks russian army 1 in Minsk: 7 + 3 = 10 against 4 + 4 = 8"
    assert line in game.narrate(state)
    state = game.apply(state, "russian army 1 takes the loss")
    state = game.apply(state, "the trench absorbs the loss")
    assert [m.label for m in game.legal_moves(state)] == ["german army 1 takes the loss"]
    state = game.apply(state, "german army 1 takes the loss")
    reduced = game.var(state, "reduced")
    assert reduced["german army 1"] and not reduced["german army 2"] and reduced["russian army 1"]
    assert game.var(state, "trench")["minsk"] == 0
    assert game.var(state, "at")["russian army 1"] == "minsk"  # forest: no retreat


def test_duel_example_returns_winners_after_choices_and_a_replayed_tie(tmp_path):
    """5.15: `attack_roll` returns the die kept after a choice; `duel` calls itself on a
    tie (a frame of its own), and its value survives a save and load in the middle."""
    from interpreter.runtime.saving import load_state, save_state

    path = tmp_path / "duel.game"
    path.write_text(_program('game dice_duel "Dice duel"'), encoding="utf-8")
    game = load_game(str(path))
    # round 1: red 2/4, blue 4/1 (4 each, again), red 6/1, blue 5/5; round 2: 1/2, 3/3; round 3: 6/6, 1/1
    state = game.start(players=2, seed=1, pins=(2, 4, 4, 1, 6, 1, 5, 5, 1, 2, 3, 3, 6, 6, 1, 1))
    state = game.apply(state, "keep 4")
    state = game.apply(state, "keep 4")
    assert "4 each: roll again" in game.narrate(state)
    assert len(state.frames) == 2  # the second duel runs in a frame of its own
    save_state(game, state, tmp_path / "tie.toml")
    state = load_state(game, tmp_path / "tie.toml")
    for label in ["keep 6", "keep 5 (2)"]:
        state = game.apply(state, label)
    assert "round 1: red wins" in game.narrate(state)
    for label in ["keep 2", "keep 3", "keep 6", "keep 1"]:
        state = game.apply(state, label)
    assert game.var(state, "rounds_won") == {"red": 2, "blue": 1}
    assert game.result(state) == ("red",)


def test_putin_trigger_offers_russia_a_coup(tmp_path):
    path = tmp_path / "putin.game"
    path.write_text(_program('game putin "The Wall is Down: Vladimir Putin"'), encoding="utf-8")
    game = load_game(str(path))
    state = game.start(players=2, seed=1)
    state = game.apply(state, "1 influence in Poland")  # russia
    state = game.apply(state, "1 influence in Finland")  # us gains the edge on Finland
    assert game.current_player(state) == "russia"
    assert [m.label for m in game.legal_moves(state)] == [
        "discard Vladimir Putin: a coup in Finland with 3 ops",
        "pass",
    ]


def test_header_choice_is_secret_to_the_others(tmp_path):
    path = tmp_path / "header.game"
    path.write_text(_program("game twid_header"), encoding="utf-8")
    game = load_game(str(path))
    state = game.start(players=2, seed=1)
    chooser = game.current_player(state)
    label = game.legal_moves(state)[0].label
    other = [p for p in state.players if p != chooser][0]
    assert game.move_view(state, label, other) == "(secret choice)"
    assert game.move_view(state, label, chooser) == label
    observed = game.observation(game.apply(state, label), other)
    assert observed["vars"]["header"][chooser] == {"hidden": 1}


def _bodies(decls):
    from interpreter.language import syntax as ast

    for d in decls:
        if isinstance(d, ast.Replace):
            d = d.decl
        if isinstance(d, ast.Procedure):
            yield f"procedure {d.name}", d.body
        elif isinstance(d, ast.Trigger):
            yield f"when {d.event}", d.body
        elif isinstance(d, ast.Variant):
            yield from _bodies(d.decls)


@pytest.mark.parametrize("block", GAME_BLOCKS, ids=_id)
def test_every_example_procedure_cites_the_rulebook(block):
    """Fragments too: an excerpt should read like the programs the checker accepts."""
    from interpreter.language import syntax as ast

    n, text = block
    module = parse_text(text, f"docs/language.md#block{n}")
    for what, body in _bodies(module.decls):
        assert any(isinstance(s, ast.Cite) for s in body), f"{what} in block {n} has no `rule`"


def test_the_table_example_errors_are_printed_as_documented(tmp_path):
    """3.11 shows what two bad cells of its countries.csv print: it must stay true."""
    n, text = next((n, t) for n, t in PROGRAMS if "game twid_tables" in t)
    path = _write(tmp_path, n, text)
    countries = tmp_path / "countries.csv"
    edited = countries.read_text(encoding="utf-8").replace("Ukraine,Europe,2,", "Ukraine,Europe,two,")
    countries.write_text(edited.replace("China,Asia,", "China,Asai,"), encoding="utf-8")
    with pytest.raises(GameDefError) as info:
        load_game(str(path))
    shown = info.value.render()
    for folder in (str(tmp_path.resolve()), str(tmp_path)):
        shown = shown.replace(folder + "/", "")
    documented = re.search(r"^```\n(countries\.csv:5:16: .*?)^```", TEXT, re.S | re.M)
    assert documented is not None
    assert shown + "\n" == documented.group(1)


def test_the_keyword_list_is_the_grammars():
    """docs/language.md §2 lists exactly the words the grammar quotes (the parser's list is
    generated from the grammar, so the three can no longer drift apart)."""
    from interpreter.language.parser import keywords

    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    listed = re.search(r"\* \*\*Keywords\*\*[^`]*`([^`]*)`", text)
    assert listed is not None
    assert sorted(listed.group(1).split()) == list(keywords())


_PATH = re.compile(
    r"(?<![\w/.])((?:interpreter|docs|tests|benchmarks|gamedefs|cards|examples|grammar)/[\w./-]*\w"
    r"\.(?:py|md|game|lark|tsv|toml|csv|txt|json))"
)
_LINK = re.compile(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)")


def _anchors(markdown: str) -> set[str]:
    """The anchors a Markdown page's headings make, as GitHub spells them: lower case,
    punctuation but `-` and `_` dropped, spaces to `-` (the heading "3.2 include" is `#32-include`)."""
    found = set()
    for line in markdown.splitlines():
        if line.startswith("#") and not line.startswith("#!"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


_PLACEHOLDERS = ("NAME", "GAME", "extra.game")  # paths written as patterns, not files


def _prose_files() -> list[Path]:
    folders = [ROOT / "docs", ROOT / "cards", ROOT / "gamedefs", ROOT / "benchmarks", ROOT / "examples"]
    found = [*ROOT.glob("*.md"), *(p for f in folders for p in f.rglob("*.md"))]
    return found + [*(ROOT / "interpreter").rglob("*.py")]


def test_every_path_and_link_in_the_docs_and_the_code_resolves_inside_the_repository():
    """A cross-reference to a file of the project (`interpreter/runtime/engine.py`, a
    Markdown link) names a file that exists, and a link to a section names a heading of
    that page; links to the web are left alone."""
    missing = []
    for file in _prose_files():
        text = file.read_text(encoding="utf-8")
        for m in _PATH.finditer(text):
            if not any(p in m.group(1) for p in _PLACEHOLDERS) and not (ROOT / m.group(1)).exists():
                missing.append(f"{file.relative_to(ROOT)}: {m.group(1)}")
        if file.suffix == ".md":
            for m in _LINK.finditer(text):
                target, anchor = m.group(1), m.group(2)
                if "://" in target or target.startswith("mailto:"):
                    continue
                path = file.parent / target if target else file
                if not path.exists():
                    missing.append(f"{file.relative_to(ROOT)}: link {target}")
                elif anchor and path.suffix == ".md" and anchor not in _anchors(path.read_text(encoding="utf-8")):
                    missing.append(f"{file.relative_to(ROOT)}: link {target}#{anchor}: no such heading")
    assert missing == []


def test_the_variant_reference_names_every_kind_a_variant_may_remove():
    """docs/language.md §9.3's `remove KIND` lists the grammar's kinds, `query` included."""
    grammar = (ROOT / "grammar" / "gamedef.lark").read_text(encoding="utf-8")
    kinds = re.findall(r'"(\w+)"', re.search(r"!remove_kind:(.*)", grammar).group(1))
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    listed = re.search(r"remove KIND NAME\s+KIND: ([\w ]+)\n", text).group(1).split()
    assert sorted(listed) == sorted(kinds)


# Every ```python block of the README and of docs/*.md runs as written, in a folder of its
# own (a block may write a file: `save_state(..., "position.toml")`). A block that needs an
# optional extra (OpenSpiel, PettingZoo) is skipped when it is not installed.
_PYTHON = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
_EXTRAS = ("pyspiel", "open_spiel", "pettingzoo")


def _python_blocks() -> list:
    out = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for match in _PYTHON.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            code = match.group(1)
            extras = (
                [m for m in _EXTRAS if re.search(rf"\b(import|from) {m}\b", code)]
                + (["pyspiel"] if "spiel_adapter" in code else [])
                + (["pettingzoo"] if "zoo_adapter" in code else [])
            )
            rel = doc.relative_to(ROOT).as_posix()
            out.append(pytest.param(rel, line, code, sorted(set(extras)), id=f"{rel}:{line}"))
    return out


PYTHON_BLOCKS = _python_blocks()


def test_the_documents_have_python_examples():
    """The API's page and the references show Python; losing them fails here."""
    where = {p.values[0] for p in PYTHON_BLOCKS}
    assert {"docs/api.md", "docs/language.md", "docs/adapters.md"} <= where
    assert len(PYTHON_BLOCKS) >= 7


@pytest.mark.parametrize("doc, line, code, extras", PYTHON_BLOCKS)
def test_python_block_runs_as_written(doc, line, code, extras, tmp_path):
    """A reader copies a block into Python: it must run as it stands, and end (the README's
    `arrange` example once named a `game` it never defined; §12's loop once took the first
    move each time, which in Berlin Wall can go on for ever). Each runs in a fresh Python in
    a folder of its own."""
    for module in extras:
        pytest.importorskip(module)
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{doc}:{line}: the example did not end within 240 s")
    assert done.returncode == 0, f"{doc}:{line}:\n{done.stderr[-3000:]}"
