"""`gamedef cards GAME`: a game's printed cards as a designer reads them.

A card is any component with a printed text (a `text "..."`, or a table's text column);
a component or an enum member may also carry an `about "..."` line, what it is or does
(a sheet's item, a zone, a technology tile). `cards` lists the cards and the things with
an about text; a game with neither lists the components of each of its kinds (`--kind`
takes any kind, an entity or an enum). A kind made once for each seat (a field of type
`player`: each player's own deck) is listed once, its titles without the seat.

Each is shown as one heading line, its number first when it has one, then its other
properties (`ops 3 · block W · epoch pre 9/11 · Political, Personality`), then the text.
Filters narrow the list the way a designer looks for cards: by kind, by property values
(`--where ops=3`, `--where block=W`), and by words of the title or text (`--search`).
Nothing here knows a game: the properties shown are the entity's own, in its order.
"""

from __future__ import annotations

import textwrap
from typing import Any

from interpreter.compile.compiled import CompiledGame
from interpreter.core.errors import ArgumentError, UsageError, did_you_mean

HIDDEN = {"text", "title", "about"}


def _shown(game: CompiledGame, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(_shown(game, v) for v in value)
    if isinstance(value, str):
        return game.rt.display(value)
    return str(value)


def card_kinds(game: CompiledGame) -> list[str]:
    """The kinds that have components with a printed text, in declaration order."""
    texts = game.fields.get("text", {})
    return [k for k, names in game.types.items() if k in game.entity_decls and any(texts.get(n) for n in names)]


def _matches(game: CompiledGame, name: str, field: str, wanted: str) -> bool:
    """True if the property (or, for a list, one of its items) reads as `wanted`, by its
    shown text or its name, in any case; `none` matches an empty property."""
    value = game.fields.get(field, {}).get(name)
    items = value if isinstance(value, tuple) else (value,)
    wanted = wanted.strip().lower()
    for v in items:
        forms = {"none", ""} if v is None else {_shown(game, v).lower(), str(v).lower()}
        if wanted in forms:
            return True
    return False


def public_fields(game: CompiledGame, kind: str) -> list[str]:
    """The properties of a kind that every seat may read: no `hidden`, no `visible when`
    (those depend on the position and the reader), not the title or text, and not where a
    view's `layout KIND by X, Y` draws it (a map's coordinates, not a printed property)."""
    fields = game.entity_decls[kind].fields
    placed = {f for item in game.view if item.kind == "places" and item.var == kind for f in item.fields}
    return [f.name for f in fields if f.name not in HIDDEN | placed and not f.hidden and f.visible is None]


def heading(game: CompiledGame, name: str, fields: list[str]) -> str:
    """A component's line: its number and title, then its set properties
    ("Norway — stability 4 · region Europe · oil")."""
    title = game.rt.display(name)
    number = game.fields.get("number", {}).get(name)
    head = f"{number}  {title}" if number is not None else title
    props = []
    for f in fields:
        if f == "number":
            continue
        value = game.fields.get(f, {}).get(name)
        if value is None or value is False or value == ():
            continue
        label = f.replace("_", " ")  # removed_after_text -> removed after text
        props.append(label if value is True else f"{label} {_shown(game, value)}")
    return head + (" — " + " · ".join(props) if props else "")


def components_named(game: CompiledGame, search: str) -> list[str]:
    """`about NAME` for the components without a printed text (a country, a zone, an item):
    each one whose title contains `search`, with its public properties, the components a
    map links it to, and its kind; a per-seat kind's component once, without the seat."""
    low = search.strip().lower()
    lines = []
    for kind in game.entity_decls:
        seat_fields = per_seat_fields(game, kind)
        fields = [f for f in public_fields(game, kind) if f not in seat_fields]
        seen = set()
        for name in game.types.get(kind, ()):
            title = plain_title(game, name, seat_fields)
            if low in title.lower() and title not in seen:
                seen.add(title)
                links = game.rt.links.get(name, ())  # a map's node: the nodes it is linked to
                near = f" · linked to {', '.join(game.rt.display(x) for x in links)}" if links else ""
                head = heading(game, name, fields).replace(game.rt.display(name), title, 1)
                lines.append(f"{head}{near}  ({kind.replace('_', ' ')})")
    return lines


def per_seat_fields(game: CompiledGame, kind: str) -> list[str]:
    """The fields of a kind whose type is `player`: a kind generated once for each seat
    (Walls and Wonders' decks: `queen of spades (p1)`, `... (p2)`)."""
    decl = game.entity_decls.get(kind)
    if decl is None:
        return []
    return [f.name for f in decl.fields if getattr(f.type, "name", None) == "player"]


def plain_title(game: CompiledGame, name: str, seat_fields: list[str]) -> str:
    """A component's title without the seat its per-seat field names (`queen of spades`):
    the card as printed, the same in every player's deck."""
    title = game.rt.display(name)
    for f in seat_fields:
        seat = game.fields.get(f, {}).get(name)
        if seat is None:
            continue
        for form in {seat, game.rt.display(seat)}:
            title = title.replace(f" ({form})", "").replace(f"({form}) ", "")
            title = title.removeprefix(f"{form} ").removesuffix(f" {form}")
    return title


def listed_kinds(game: CompiledGame) -> list[str]:
    """What `cards` lists by default: the kinds of cards and the kinds (entities, enums)
    with an about text; a game with neither, each entity kind that has components."""
    texts = game.fields.get("text", {})
    about = game.about
    kinds = [
        k
        for k, names in game.types.items()
        if (k in game.entity_decls or k in game.enum_kinds()) and any(texts.get(n) or n in about for n in names)
    ]
    return kinds or [k for k in game.entity_decls if game.types.get(k)]


def _entries(game: CompiledGame, kind: str, public: bool = False) -> list[tuple[str, str, str]]:
    """(name, heading, text) of each component or member of a kind, a per-seat kind's
    components once (those of the first seat); `public`: only the properties every seat
    may read in the heading (`about` in play), not those `visible when` something holds."""
    texts = game.fields.get("text", {})
    if kind not in game.entity_decls:  # an enum: its members, titled, with their about text
        return [(n, game.rt.display(n), game.about.get(n, "")) for n in game.types[kind]]
    seat_fields = per_seat_fields(game, kind)
    fields = [
        f.name
        for f in game.entity_decls[kind].fields
        if f.name not in HIDDEN
        and not f.hidden
        and f.name not in seat_fields
        and not (public and f.visible is not None)
    ]
    out, seen = [], set()
    for name in game.types[kind]:
        head = heading(game, name, fields)
        if seat_fields:
            head = head.replace(game.rt.display(name), plain_title(game, name, seat_fields), 1)
            if head in seen:
                continue
            seen.add(head)
        text = texts.get(name) or ""
        about = game.about.get(name, "")
        out.append((name, head, f"{text} {about}".strip() if text and about else text or about))
    return out


def card_listing(
    game: CompiledGame,
    kind: str | None = None,
    where: list[str] | tuple[str, ...] = (),
    search: str | None = None,
    width: int = 88,
) -> list[str]:
    """The lines of the listing; raises UsageError for an unknown kind or property."""
    kinds = listed_kinds(game)
    if kind is not None:
        every = [k for k in game.types if k in game.entity_decls or k in game.enum_kinds()]
        if kind not in every:
            raise UsageError(
                f"'{kind}' is not a kind of component of this game",
                did_you_mean(kind, every) or f"its kinds: {', '.join(every) or 'none'}",
            )
        kinds = [kind]
    filters = []
    for item in where:
        field, sep, value = item.partition("=")
        field = field.strip()
        if not sep or not field:
            raise ArgumentError("where", "write PROPERTY=VALUE", given=repr(item), example="ops=3")
        known = [f.name for k in kinds if k in game.entity_decls for f in game.entity_decls[k].fields]
        if field not in known:
            raise ArgumentError(
                "where", f"no property '{field}'", given=repr(item), hint=did_you_mean(field, known) or None
            )
        filters.append((field, value))
    lines: list[str] = []
    for k in kinds:
        entries = _entries(game, k)
        silent = not any(text for _, _, text in entries)  # a kind with no texts at all: its headings only
        for name, head, text in entries:
            if any(not _matches(game, name, f, v) for f, v in filters):
                continue
            if search and search.lower() not in f"{head}\n{text}".lower():
                continue
            lines.append(head)
            wrapped = textwrap.wrap(text, width, initial_indent="    ", subsequent_indent="    ")
            lines.extend(wrapped or ([] if silent else ["    (no text)"]))
    return lines


def about_lines(game: CompiledGame, search: str, width: int = 84) -> list[str]:
    """`about NAME` in `gamedef play`: what the game says of the things whose title
    contains NAME: the cards' printed texts and the about texts first (those are what a
    player asks about); failing those, the components so named with their public
    properties. A per-seat kind's card is named once, without the seat."""
    low = search.strip().lower()
    found: list[str] = []
    for k in listed_kinds(game) if card_kinds(game) or game.about else []:
        texts = game.fields.get("text", {})
        for name, head, text in _entries(game, k, public=True):
            title = head.split(" — ")[0]
            if low in title.lower():
                if k in game.entity_decls and not texts.get(name):  # a component, not a card: where it is, what
                    links = game.rt.links.get(name, ())
                    near = f" · linked to {', '.join(game.rt.display(x) for x in links)}" if links else ""
                    head = f"{head}{near}  ({k.replace('_', ' ')})"
                found.append(head)
                found.extend(textwrap.wrap(text, width, initial_indent="    ", subsequent_indent="    "))
    if found:
        return found
    return components_named(game, search)
