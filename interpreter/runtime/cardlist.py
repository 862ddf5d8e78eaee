"""`gamedef cards GAME`: a game's printed cards as a designer reads them.

A card is any component with a printed text (a `text "..."`, or a table's text column).
Each is shown as one heading line, its number first when it has one, then its other
properties (`ops 3 · block W · epoch pre 9/11 · Political, Personality`), then the text.
Filters narrow the list the way a designer looks for cards: by kind, by property values
(`--where ops=3`, `--where block=W`), and by words of the title or text (`--search`).
Nothing here knows a game: the properties shown are the entity's own, in its order.
"""

from __future__ import annotations

import textwrap
from typing import Any

from interpreter.compile.compiler import CompiledGame
from interpreter.core.errors import UsageError, did_you_mean

HIDDEN = {"text", "title"}


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
    (those depend on the position and the reader), and not the title or text."""
    fields = game.entity_decls[kind].fields
    return [f.name for f in fields if f.name not in HIDDEN and not f.hidden and f.visible is None]


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
    map links it to, and its kind."""
    low = search.strip().lower()
    lines = []
    for kind in game.entity_decls:
        fields = public_fields(game, kind)
        for name in game.types.get(kind, ()):
            if low in game.rt.display(name).lower():
                links = game.rt.links.get(name, ())  # a map's node: the nodes it is linked to
                near = f" · linked to {', '.join(game.rt.display(x) for x in links)}" if links else ""
                lines.append(f"{heading(game, name, fields)}{near}  ({kind.replace('_', ' ')})")
    return lines


def card_listing(
    game: CompiledGame,
    kind: str | None = None,
    where: list[str] | tuple[str, ...] = (),
    search: str | None = None,
    width: int = 88,
) -> list[str]:
    """The lines of the listing; raises UsageError for an unknown kind or property."""
    kinds = card_kinds(game)
    if kind is not None:
        if kind not in kinds:
            raise UsageError(
                f"'{kind}' is not a kind of card of this game",
                did_you_mean(kind, kinds) or f"its kinds of cards: {', '.join(kinds) or 'none'}",
            )
        kinds = [kind]
    filters = []
    for item in where:
        field, sep, value = item.partition("=")
        field = field.strip()
        if not sep or not field:
            raise UsageError(f"--where {item!r}: write PROPERTY=VALUE", "for example --where ops=3")
        known = [f.name for k in kinds for f in game.entity_decls[k].fields]
        if field not in known:
            raise UsageError(f"--where {item!r}: no property '{field}'", did_you_mean(field, known) or None)
        filters.append((field, value))
    lines: list[str] = []
    texts = game.fields.get("text", {})
    for k in kinds:
        fields = [f.name for f in game.entity_decls[k].fields if f.name not in HIDDEN and not f.hidden]
        for name in game.types[k]:
            text = texts.get(name) or ""
            title = game.rt.display(name)
            if any(not _matches(game, name, f, v) for f, v in filters):
                continue
            if search and search.lower() not in f"{title}\n{text}".lower():
                continue
            lines.append(heading(game, name, fields))
            wrapped = textwrap.wrap(text, width, initial_indent="    ", subsequent_indent="    ")
            lines.extend(wrapped or ["    (no text)"])
    return lines
