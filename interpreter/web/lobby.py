"""The lobby: each game as a person picks it (its title, player counts, a short blurb, a
picture), the controls of a new table drawn from the game's own declarations (its seats
at each player count, its variants, its options with their choices), and the tables with
a free seat.

Nothing here knows a game: the blurb is the first paragraph of the rules summary the game
names (`summary "FILE.md"`), the picture is the game's start as a spectator sees it, and
the controls follow each option's declared type and choices.
"""

from __future__ import annotations

import html
import re
from typing import Any

import attrs

from interpreter.compile.compiled import CompiledGame
from interpreter.compile.compiler import compile_game
from interpreter.language.program import load_program
from interpreter.runtime.load import find_game
from interpreter.web.board import draw
from interpreter.web.tables import Tables, every_seat_of

BLURB = 320  # characters of a game's blurb at most


@attrs.frozen
class Control:
    """One option as a form control: a checkbox (yes/no), a select (declared choices) or a
    text field; `variant` names the variant that adds it ('' for the game's own)."""

    name: str
    description: str
    kind: str  # "bool", "select" or "text"
    default: str
    choices: tuple[str, ...]
    variant: str = ""


@attrs.frozen
class VariantEntry:
    name: str
    title: str
    excludes: tuple[str, ...]


@attrs.frozen
class GameCard:
    """A game as the lobby lists it: read from its file alone (nothing compiled), so the
    lobby opens at once however many games are offered."""

    name: str
    title: str
    counts: tuple[int, ...]
    default: int
    blurb: str

    @property
    def count_text(self) -> str:
        low, high = self.counts[0], self.counts[-1]
        return f"{low} players" if low == high else f"{low} to {high} players"


@attrs.frozen
class GameForm:
    """A game as its new-table form offers it: its seats at each count, its variants and
    its options as controls (the game compiled once, with the tables')."""

    card: GameCard
    seats: tuple[tuple[str, tuple[int, ...]], ...]  # each seat with the counts it is in play at
    variants: tuple[VariantEntry, ...]
    controls: tuple[Control, ...]


def typed(value: Any) -> str:
    """An option's value as the form (and the command line) writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _controls(g: CompiledGame, names: list[str], variant: str = "") -> list[Control]:
    out = []
    for name in names:
        d = g.option_decls[name]
        default = g.options[name]
        choices = tuple(typed(c) for c in (g.option_choices.get(name) or ()))
        if isinstance(default, bool):
            kind = "bool"
        elif len(choices) > 1:
            kind = "select"
        else:
            kind = "text"
        out.append(Control(name, d.description, kind, typed(default), choices, variant))
    return out


def _blurb(path, summary: str) -> str:
    """The first paragraph of the game's rules summary, in plain words, shortened."""
    if not summary:
        return ""
    try:
        text = (path.parent / summary).read_text(encoding="utf-8")
    except OSError:
        return ""
    for para in re.split(r"\n\s*\n", text):
        para = para.strip()
        if para and not para.startswith(("#", "|", "-", "*", "`", ">")):
            plain = re.sub(r"[*_`]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", " ".join(para.split()))
            return plain if len(plain) <= BLURB else plain[: BLURB - 1].rsplit(" ", 1)[0] + "…"
    return ""


def game_card(name: str) -> GameCard:
    """The game's card in the lobby."""
    path = find_game(name)
    h = load_program(path).header
    counts = tuple(range(h.min_players, h.max_players + 1))
    return GameCard(
        name=name,
        title=h.title,
        counts=counts,
        default=h.default_players or h.min_players,
        blurb=html.unescape(_blurb(path, h.summary or "")),
    )


def picture(tables: Tables, name: str) -> str:
    """The game's start as a spectator sees it (its map, or its first drawn part): HTML."""
    game = tables.game(name, (), {})
    h = game.compiled.header
    drawing = draw(game, game.start(players=h.default_players or h.min_players, seed=1), None, [])
    shown = drawing.map or (drawing.parts[0] if drawing.parts else "")
    return re.sub(r' tabindex="-?\d+"', "", shown)  # a picture: nothing in it takes the focus


def game_form(tables: Tables, card: GameCard) -> GameForm:
    """The controls of a new table of the game."""
    path = find_game(card.name)
    game = tables.game(card.name, (), {})
    g = game.compiled
    seats = tuple((seat, tuple(n for n in card.counts if seat in game.seats_for(n))) for seat in every_seat_of(game))
    controls = _controls(g, list(g.option_decls))
    variants = []
    for v in load_program(path).all_variants.values():
        variants.append(VariantEntry(v.name, v.title, tuple(v.excludes)))
        with_v = compile_game(load_program(path, (v.name,)), {}, options_only=True)
        added = [n for n in with_v.option_decls if n not in g.option_decls]
        controls.extend(_controls(with_v, added, v.name))
    return GameForm(card=card, seats=seats, variants=tuple(variants), controls=tuple(controls))
