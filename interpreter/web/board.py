"""A position drawn for one seat as HTML, from what that seat may see, for any game.

Nothing here knows a game. What is drawn comes from the game's declarations:
- a variable keyed by grid cells is a board: an HTML table, each cell showing its piece
  by the component's `short` form as the seat's observation gives it, and the pieces
  standing on it (a `player -> Cell` variable: a seat's hammer, pawn...) as markers;
- a map (components with links) is an SVG graph: each node where the view's
  `layout KIND by X, Y` puts it (the designer's columns, crowded parts given more room),
  or else at a position computed once by a spring layout from the links and kept in
  gamedef's cache; its label (its title and a note: influence, pieces) placed where it
  overlaps no other label and no other node, an invisible hit area, and in its tooltip
  every map variable's value there as the seat may see it;
- a view's list drawn with a layout (`layout pyramid`, `layout rows`) is rows of cards;
- the rest is the game's own view (its `view` declaration, or the generic one), as text.
A legal move that chooses a cell or a node (its value is that place, or a piece the viewer
sees standing there) makes that cell or node clickable: the click plays that move. Every text is escaped.

The observation is computed once per drawing, and every part is drawn from it.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import math
import random
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from interpreter.core import cache
from interpreter.runtime.game import Game
from interpreter.runtime.machine import Move, State
from interpreter.runtime.observe import observe
from interpreter.runtime.render import Part, SeatView, render, status_text, view_parts
from interpreter.web.cards import card_texts

MAX_NODES = 400  # a larger graph is not drawn (its view is still shown as text)


class Drawing(NamedTuple):
    """What a seat's page shows of a position, each part HTML: the map, then the view's
    items in order (drawn boards and rows of cards where it has them, text elsewhere)."""

    map: str
    parts: list[str]


def draw(
    game: Game,
    state: State,
    viewer: str | None,
    moves: list[Move],
    before: State | None = None,
    observed: Callable[[State], dict] | None = None,
) -> Drawing:
    """The position as `viewer` may see it; `moves` are the viewer's legal moves.
    With `before` (the position before the last move), the cells and nodes the last move
    changed as `viewer` sees them are marked. `observed(state)` is the viewer's observation
    of a state, when the caller keeps them (a table's page: the position before the last
    move was observed when it was the last)."""
    g = game.compiled
    look = observed or (lambda s: observe(g, s, viewer))
    obs = look(state)
    seen = SeatView(game, state, viewer, obs)
    markers = _markers(g, seen, obs, state)
    places = _places(g)
    last = touched(obs, look(before), places) if before is not None and places else frozenset()
    playable = _playable(g, obs, moves, places) if moves else {}
    drawn_map = map_board(game, state, obs, seen, moves, last, playable)
    if not g.view:  # the generic view: every grid drawn, then the text (its grids included)
        parts = [_grid(g, seen, info, obs["vars"][info.name], markers, moves, last, playable) for info in _grid_vars(g)]
        parts.append(_text(render(game, state, viewer).splitlines(), g))
        return Drawing(drawn_map, parts)
    status = status_text(game, state, viewer)  # the line the game declares for `play`'s prompt
    out: list[str] = [_text([status], g)] if status else []
    pending: list[str] = []  # text lines waiting to be shown as one block

    def grid_lines(name: str) -> list[str]:
        return [name]  # a grid item is drawn as HTML below, not as text

    for part in view_parts(game, state, viewer, grid_lines):
        html_part = _part_html(g, seen, obs, part, markers, moves, last, playable)
        if html_part is None:
            pending.extend(part.lines)
            continue
        if pending:
            out.append(_text(pending, g))
            pending = []
        out.append(html_part)
    if pending:
        out.append(_text(pending, g))
    return Drawing(drawn_map, out)


@functools.lru_cache(maxsize=8)
def _places(g) -> frozenset[str]:
    """The places a move may be marked on: the grids' cells and the map's nodes."""
    return frozenset(g.rt.coords) | frozenset(n for n in g.rt.links if n in g.kind_of)


def touched(now: dict, before: dict, places: frozenset[str]) -> frozenset[str]:
    """The places (grid cells, map nodes) whose values or pieces differ between two
    observations of one viewer: what the last move changed, as that viewer sees it (a
    hidden value that changed unseen changes nothing here)."""
    out: set[str] = set()
    old_vars = before["vars"]
    for name, new in now["vars"].items():
        old = old_vars.get(name)
        if old == new or not isinstance(new, dict) or not isinstance(old, dict):
            continue
        for key in set(old) | set(new):
            a, b = old.get(key), new.get(key)
            if a == b:
                continue
            if key in places:
                out.add(key)  # a map by place (influence by country, a cell's piece)
            for value in (a, b):
                if isinstance(value, str) and value in places:
                    out.add(value)  # a piece standing on a place (a hammer, an army), left or reached
                elif isinstance(value, dict):  # a map by seat, then by place (influence[seat][country])
                    inner_a = a if isinstance(a, dict) else {}
                    inner_b = b if isinstance(b, dict) else {}
                    out.update(k for k in value if k in places and inner_a.get(k) != inner_b.get(k))
    return frozenset(out)


def _part_html(
    g,
    seen: SeatView,
    obs: dict,
    part: Part,
    markers: dict,
    moves: list[Move],
    last: frozenset[str] = frozenset(),
    playable: dict[str, int] | None = None,
) -> str | None:
    """A view item drawn as HTML, or None for an item shown as text."""
    item = part.item
    if item.kind == "grid" and item.var in g.vars:
        return _grid(g, seen, g.vars[item.var], obs["vars"][item.var], markers, moves, last, playable)
    if item.kind == "list" and item.layout:
        return _cells(item.title, item.layout, part.groups)
    return None


def _text(lines: list[str], g) -> str:
    """Text of the view, escaped, each card title in it carrying its printed text."""
    text = card_texts(g).mark(html.escape(chr(10).join(lines)))
    return f'<pre class="view" tabindex="0">{text}</pre>'  # focusable: a long view scrolls by keyboard too


def _grid_vars(g) -> list:
    return [info for info in g.var_order if info.keys and info.keys[0] in g.rt.coords]


def _markers(g, seen: SeatView, obs: dict, state: State, places=None) -> dict[str, list[tuple[str, str]]]:
    """What stands on each place (a grid cell, or a map node) besides its own value: for
    every variable that puts a seat or a component there (`hammer: player -> Cell?`,
    `at: Army -> Zone?`), a short mark and its meaning."""
    places = g.rt.coords if places is None else places
    seat_no = {p: i + 1 for i, p in enumerate(state.players)}
    out: dict[str, list[tuple[str, str]]] = {}
    for info in g.var_order:
        view = obs["vars"][info.name]
        if not info.keys or info.keys[0] in places or not isinstance(view, dict):
            continue
        for key, value in view.items():
            if not isinstance(value, str) or value not in places:
                continue
            if key in seat_no:
                mark, who = str(seat_no[key]), g.rt.seat_titles.get(key, key)
            else:
                mark, who = seen.short(key), g.rt.display(key)
            out.setdefault(value, []).append((mark, f"{info.name} of {who}"))
    return out


def _grid(
    g,
    seen: SeatView,
    info,
    view: dict,
    markers: dict,
    moves: list[Move],
    last: frozenset[str] = frozenset(),
    playable: dict[str, int] | None = None,
) -> str:
    """A grid-keyed variable as an HTML table: each cell its piece and what stands on it;
    a cell named by a move is a button that plays it; a cell the last move changed is
    outlined and says so (not by colour alone)."""
    cols = max(g.rt.coords[c][0] for c in info.keys)
    rows = max(g.rt.coords[c][1] for c in info.keys)
    by_pos = {g.rt.coords[c]: c for c in info.keys}
    lines = [f'<table class="grid" aria-label="{html.escape(info.name)}">']
    for y in range(1, rows + 1):
        lines.append("<tr>")
        for x in range(1, cols + 1):
            cell = by_pos.get((x, y))
            if cell is None:
                lines.append("<td></td>")
                continue
            text = seen.short(view[cell]) if cell in view else ""
            inner = html.escape(text if text not in ("none", ".") else "")
            on = markers.get(cell, [])
            inner += "".join(
                f'<span class="marker m{html.escape(m)}" title="{html.escape(what)}">{html.escape(m)}</span>'
                for m, what in on
            )
            changed = [LAST_MOVE] if cell in last else []
            tip = html.escape(", ".join([cell, *(what for _, what in on), *changed]))
            td = '<td class="last">' if changed else "<td>"
            move = playable.get(cell) if playable else None
            if move is not None:
                lines.append(
                    f'{td}<button class="cell" data-move="{move}" title="{html.escape(moves[move].label)}">'
                    f"{inner or '&nbsp;'}</button></td>"
                )
            else:
                lines.append(f'{td[:-1]} title="{tip}">{inner}</td>')
        lines.append("</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def _cells(title: str, layout: str, groups: list) -> str:
    """A list drawn with a layout: each group a block, each row its label and its cells as
    cards, the rows centred on one axis for `pyramid` (so each card stands over the two
    below it) or flush left for `rows`. An empty cell ('.') is an empty outline, a card
    face down ('?' in its text) a card's back."""
    out = [f'<section class="cells {html.escape(layout)}" aria-label="{html.escape(title)}">']
    out.append(f"<h3>{html.escape(title)}</h3>")
    for group, rows in groups:
        out.append('<div class="group">')
        if group is not None:
            out.append(f'<div class="group-name">{html.escape(group)}</div>')
        for label, cells in rows:
            out.append('<div class="row">')
            out.append(f'<span class="row-label">{html.escape(label)}</span><span class="row-cells">')
            for cell in cells:
                text = cell.strip()
                kind = "empty" if text in (".", "", "none") else "back" if "?" in text else "card"
                shown = "" if kind == "empty" else html.escape(text)
                out.append(f'<span class="cell {kind}">{shown}</span>')
            out.append("</span></div>")
        out.append("</div>")
    out.append("</section>")
    return "\n".join(out)


# ---- the map ------------------------------------------------------------------------------
# The drawing's size in SVG units. The style sheet never draws it narrower than MAP_W px
# (a narrower page scrolls it, and static/map.js zooms it), so that a label (LABEL_FONT,
# NOTE_FONT units) is never under 11 px on screen.
MAP_W, MAP_H = 1200, 800
LABEL_FONT, NOTE_FONT = 12.0, 11.0
LINE = 1.25  # a line of text is this many times its font size high (ascent and descent, and a margin)
MIN_GAP = 40.0  # the least distance between two nodes' centres once the map is spread
HIT = 14.0  # the radius of a node's hit area (smaller where nodes stand closer)
DOT = 9.0  # the largest dot's radius (a playable node's, static/style.css)
# Widths of characters in em, a little over those of DejaVu Sans and Verdana, the widest of
# the common sans-serif faces (the labels ask for them, static/style.css): an upper estimate.
_EM = {
    **dict.fromkeys("ijl'|.,:;!", 0.30),
    **dict.fromkeys(" ()-ftr[]", 0.42),
    **dict.fromkeys("sz", 0.54),
    **dict.fromkeys("ackvxy", 0.62),
    **dict.fromkeys("bdeghnopqu0123456789", 0.66),
    **dict.fromkeys("mw", 1.0),
    **dict.fromkeys("FIJLPTZ", 0.66),
    **dict.fromkeys("ABCEKRSVXY", 0.72),
    **dict.fromkeys("DGHNOQU", 0.8),
    **dict.fromkeys("MW@%", 1.02),
}


def text_width(text: str, size: float) -> float:
    """How wide a line of text may be drawn, in SVG units: an upper estimate (`_EM`, any
    other character 0.8 em), and never under 0.6 of the font size a character."""
    em = sum(_EM.get(ch, 0.8) for ch in text)
    return max(em, 0.6 * len(text)) * size


class Label(NamedTuple):
    """A node's label as placed: its lines (title, then the note if it has room), where the
    text is anchored (`start`, `middle`, `end`) and its box (left, top, width, height)."""

    lines: tuple[str, ...]
    anchor: str
    box: tuple[float, float, float, float]


@functools.lru_cache(maxsize=16)
def _links_svg(g, nodes: tuple[str, ...]) -> str:
    """The map's links as SVG lines: the same in every drawing of a game, drawn once."""
    positions = positions_of_compiled(g, nodes)
    lines, seen_edges = [], set()
    for n in nodes:
        x1, y1 = positions[n]
        for m in g.rt.links.get(n, ()):
            if m in positions and (m, n) not in seen_edges:
                seen_edges.add((n, m))
                x2, y2 = positions[m]
                lines.append(
                    f'<line x1="{x1 * MAP_W:.1f}" y1="{y1 * MAP_H:.1f}" x2="{x2 * MAP_W:.1f}" '
                    f'y2="{y2 * MAP_H:.1f}" class="link"/>'
                )
    return "\n".join(lines)


def _short(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


@functools.lru_cache(maxsize=16)
def hit_radii(g, nodes: tuple[str, ...]) -> dict[str, float]:
    """Each node's hit area radius: HIT, or less where another node stands closer, so that
    no node's hit area reaches another node's centre (a click on a node is that node's)."""
    px = {n: (x * MAP_W, y * MAP_H) for n, (x, y) in positions_of_compiled(g, nodes).items()}
    grid = _Grid(2 * HIT)
    for n, (x, y) in px.items():
        grid.add((x - HIT, y - HIT, 2 * HIT, 2 * HIT), n)
    out = {}
    for n, (x, y) in px.items():
        near = [math.dist((x, y), px[m]) for m in grid.near((x - HIT, y - HIT, 2 * HIT, 2 * HIT)) if m != n]
        out[n] = min([HIT, *(d / 2 - 0.5 for d in near)])
    return out


class _Grid:
    """Boxes (left, top, width, height) in buckets of a square grid, to find the boxes near
    one box without looking at all of them."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.buckets: dict[tuple[int, int], list[tuple[tuple[float, float, float, float], Any]]] = {}

    def _cells(self, box: tuple[float, float, float, float]):
        x, y, w, h = box
        c = self.cell
        for i in range(int(math.floor(x / c)), int(math.floor((x + w) / c)) + 1):
            for j in range(int(math.floor(y / c)), int(math.floor((y + h) / c)) + 1):
                yield i, j

    def add(self, box: tuple[float, float, float, float], what: Any) -> None:
        for key in self._cells(box):
            self.buckets.setdefault(key, []).append((box, what))

    def near(self, box: tuple[float, float, float, float]) -> set:
        return {what for key in self._cells(box) for _, what in self.buckets.get(key, ())}

    def hits(self, box: tuple[float, float, float, float], but: Any = None) -> bool:
        """Whether the box overlaps a box of the grid (other than `but`'s)."""
        x, y, w, h = box
        for key in self._cells(box):
            for (bx, by, bw, bh), what in self.buckets.get(key, ()):
                if what != but and x < bx + bw and bx < x + w and y < by + bh and by < y + h:
                    return True
        return False


def _variants(title: str, note: str) -> list[tuple[str, ...]]:
    """A label's texts, from the whole (title and note) to the least (a few letters of the
    title): the first that has room is drawn; the tooltip always has the whole."""
    out: list[tuple[str, ...]] = []
    if note:
        out += [(title, note), (title, _short(note, 16)), (f"{title}: {_short(note, 16)}",)]
        out += [(_short(title, 12), _short(note, 12))]
    out += [(title,), (_short(title, 12),), (_short(title, 7),), (_short(title, 4),)]
    return list(dict.fromkeys(out))


def _box_size(lines: tuple[str, ...]) -> tuple[float, float]:
    sizes = [LABEL_FONT, *([NOTE_FONT] * (len(lines) - 1))]
    return max(text_width(t, s) for t, s in zip(lines, sizes)) + 2, sum(s * LINE for s in sizes)


# Where a label may stand beside its node, in order of preference: a direction (dx, dy)
# and a distance beyond the dot. Above and below are centred on the node; a diagonal stands
# only near its node (farther off, it would seem to name another).
_SPOTS = [
    (d, gap)
    for gap in (3.0, 10.0, 20.0, 30.0)
    for d in ((0, -1), (0, 1), (1, 0), (-1, 0), (1, -1), (-1, -1), (1, 1), (-1, 1))
    if gap <= 10.0 or not (d[0] and d[1])
]


def place_labels(
    order: list[str],
    centres: dict[str, tuple[float, float]],
    radii: dict[str, float],
    texts: dict[str, tuple[str, str]],
) -> dict[str, Label | None]:
    """Labels that overlap neither each other, nor any other node's hit area, nor the
    drawing's edge, placed greedily in `order` (the most important first): each node's
    label tries every spot around the node with its whole text, then shorter texts; a node
    whose label finds no room at all has none (its title stays in its tooltip)."""
    grid = _Grid(48.0)
    for n, (x, y) in centres.items():
        r = radii[n]
        grid.add((x - r, y - r, 2 * r, 2 * r), n)
    placed: dict[str, Label | None] = {}
    for n in order:
        x, y = centres[n]
        placed[n] = None
        for lines in _variants(*texts[n]):
            w, h = _box_size(lines)
            spot = _spot(grid, n, x, y, w, h)
            if spot is not None:
                anchor, box = spot
                grid.add(box, ("label", n))
                placed[n] = Label(lines, anchor, box)
                break
    return placed


def _spot(grid: _Grid, n: str, x: float, y: float, w: float, h: float):
    for (dx, dy), gap in _SPOTS:
        off = DOT + gap
        if dx and dy:
            off *= 0.75
        left = x - w / 2 if dx == 0 else x + off if dx > 0 else x - off - w
        top = y - h / 2 if dy == 0 else y + off if dy > 0 else y - off - h
        box = (left, top, w, h)
        if left < 1 or top < 1 or left + w > MAP_W - 1 or top + h > MAP_H - 1:
            continue
        if not grid.hits(box, but=n):
            return ("middle" if dx == 0 else "start" if dx > 0 else "end"), box
    return None


def _label_svg(node: str, label: Label) -> str:
    """A placed label as SVG text (a line a tspan), naming its node: drawn in a layer of its
    own above the nodes, so that a node's group is no larger than its hit area (a click at
    the middle of a node's group is a click on the node)."""
    left, top, w, _ = label.box
    ax = left + w / 2 if label.anchor == "middle" else left + 1 if label.anchor == "start" else left + w - 1
    out, at = [], top
    for i, line in enumerate(label.lines):
        size = LABEL_FONT if i == 0 else NOTE_FONT
        cls = ' class="note"' if i else ""
        out.append(f'<tspan{cls} x="{ax:.1f}" y="{at + size * 0.95:.1f}">{html.escape(line)}</tspan>')
        at += size * LINE
    return f'<text class="label" data-node="{html.escape(node)}" text-anchor="{label.anchor}">{"".join(out)}</text>'


def map_board(
    game: Game,
    state: State,
    obs: dict,
    seen: SeatView,
    moves: list[Move],
    last: frozenset[str] = frozenset(),
    playable: dict[str, int] | None = None,
) -> str:
    """The game's map as an SVG graph ('' when the game has none): links, then each node as
    a group (its tooltip, an invisible hit area, its dot), then the labels, each placed
    where it overlaps no other label and no other node; in a scrolling frame with zoom
    buttons (static/map.js). `playable` gives the node each of `moves` chooses (`_playable`)."""
    g = game.compiled
    nodes = tuple(sorted(n for n in g.rt.links if n in g.kind_of))
    if not nodes or len(nodes) > MAX_NODES:
        return ""
    positions = positions_of(game, nodes)
    centres = {n: (x * MAP_W, y * MAP_H) for n, (x, y) in positions.items()}
    radii = hit_radii(g, nodes)
    facts, notes, colour = _facts(g, seen, obs, nodes)
    fills = {v: i % len(PALETTE) for i, v in enumerate(sorted(set(colour.values())))}  # a palette class each
    pieces = _markers(g, seen, obs, state, frozenset(nodes))
    titles = {n: g.rt.display(n) for n in nodes}
    playable = playable or {}
    texts = {}
    for n in nodes:
        on = pieces.get(n, [])
        texts[n] = (titles[n], "; ".join([*notes[n], _pieces(on)] if on else notes[n]))
    degree = {n: len(g.rt.links.get(n, ())) for n in nodes}
    order = sorted(nodes, key=lambda n: (n not in playable, not texts[n][1], -degree[n], titles[n]))
    labels = place_labels(order, centres, radii, texts)
    parts = [
        '<div class="map-view">',
        '<div class="map-tools" role="toolbar" aria-label="map zoom" hidden>'
        '<button type="button" data-zoom="out" aria-label="zoom out">−</button>'
        '<button type="button" data-zoom="fit" aria-label="the whole map">fit</button>'
        '<button type="button" data-zoom="in" aria-label="zoom in">+</button></div>',
        '<div class="map-scroll" tabindex="0" role="region" aria-label="the map, scrollable">',
        f'<svg class="map" viewBox="0 0 {MAP_W} {MAP_H}" role="group" aria-label="map">',
    ]
    parts.append(_links_svg(g, nodes))
    for n in nodes:
        x, y = centres[n]
        title, note = texts[n]
        move = playable.get(n)
        on = pieces.get(n, [])
        does = [f"click: {moves[move].label}"] if move is not None else []  # what a click plays
        changed = [LAST_MOVE] if n in last else []
        tip = "\n".join([title, *facts[n], *(what for _, what in on), *changed, *does])
        cls = ("node playable" if move is not None else "node") + (" last" if changed else "")
        data = f' data-move="{move}" role="button" tabindex="0"' if move is not None else ' role="img"'
        busy = " busy" if note or facts[n] else ""
        fill = f' class="fill{fills[colour[n]]}"' if n in colour and move is None else ""
        r = radii[n]
        parts.append(
            f'<g class="{cls}{busy}"{data} data-node="{html.escape(n)}" '
            f'aria-label="{html.escape(tip.replace(chr(10), "; "))}" '
            f'transform="translate({x:.1f},{y:.1f})">'
            f"<title>{html.escape(tip)}</title>"
            f'<rect class="hit" x="{-r:.1f}" y="{-r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
            f'rx="{r:.1f}" ry="{r:.1f}"/>'
            + (f'<circle class="ring" r="{min(11.0, r - 1):.1f}"/>' if changed else "")
            + f'<circle r="7"{fill}/></g>'
        )
    parts.append('<g class="labels" aria-hidden="true">')
    parts.extend(_label_svg(n, label) for n, label in labels.items() if label is not None)
    parts.append("</g></svg></div>")
    if fills or last:
        parts.append(
            '<p class="legend">'
            + " ".join(f'<span class="fill{c}">&#9679;</span> {html.escape(v)}' for v, c in fills.items())
            + (f' <span class="ring-key" aria-hidden="true">&#9676;</span> {LAST_MOVE}' if last else "")
            + "</p>"
        )
    parts.append("</div>")
    return "\n".join(parts)


def _facts(
    g, seen: SeatView, obs: dict, nodes: tuple[str, ...]
) -> tuple[dict[str, list[str]], dict[str, list[str]], dict]:
    """Each node's lines for its tooltip, the short notes drawn under it, and what colours
    it: every map variable's value there, as seen, where it is not the variable's starting
    value (`control: Germans`, `influence: US 2, EU 1`). A seat's numbers by node (influence
    by superpower) are noted under the node; the first variable by node whose values are
    names (who controls it) colours it. Each variable is looked at once, not once per node."""
    facts: dict[str, list[str]] = {n: [] for n in nodes}
    notes: dict[str, list[str]] = {n: [] for n in nodes}
    colour: dict[str, str] = {}
    among = set(nodes)
    for info in g.var_order:
        view = obs["vars"].get(info.name)
        if not isinstance(view, dict) or not view:
            continue
        direct = among.intersection(view)
        if direct:
            blank = _blank(g, seen, info)
            named = not colour and all(v is None or (isinstance(v, str) and v in g.rt.titles) for v in view.values())
            for n in direct:
                shown = _compact(g, seen, view[n])
                if shown != blank and shown:
                    facts[n].append(f"{info.name}: {shown}")
                    if named:
                        colour[n] = shown
            continue
        per_node: dict[str, list[str]] = {}
        for k, v in view.items():  # a map keyed by seat first, then by node (influence[seat][country])
            if not isinstance(v, dict):
                continue
            for n in among.intersection(v):
                shown = _compact(g, seen, v[n])
                if shown:
                    per_node.setdefault(n, []).append(f"{g.rt.display(k)} {shown}")
        for n, entries in per_node.items():
            facts[n].append(f"{info.name}: " + ", ".join(entries))
            if info.keys == g.seats:
                notes[n].append(" ".join(entries))
    return facts, notes, colour


# The colours of a map's owners, as classes `fill0`.. of the web table's style sheet
# (static/style.css): no inline style, which the content security policy forbids.
# What a place the last move changed says, beside its dashed outline or ring (a shape, so
# that it is not told by colour alone).
LAST_MOVE = "changed by the last move"
PALETTE = ("#c33", "#36c", "#2a6", "#d80", "#82c", "#0aa", "#a63", "#e5b")


_NOTHING = ("0", "none", "no", "[]", "")


def _compact(g, seen: SeatView, value: Any) -> str:
    """A value as a short text, its nothing-entries left out ('' when it is all nothing)."""
    if isinstance(value, dict) and "of" not in value and "hidden" not in value:
        entries = [(k, _compact(g, seen, v)) for k, v in value.items() if not _nothing(v)]
        return ", ".join(f"{g.rt.display(k)} {v}" for k, v in entries if v)
    shown = seen.plain(value)
    return "" if shown in _NOTHING else shown


def _nothing(value: Any) -> bool:
    """A value surely shown as nothing (checked before it is formatted: most entries are)."""
    return value is None or value is False or (type(value) is int and value == 0) or value == []


def _blank(g, seen: SeatView, info) -> str:
    """A map variable's starting value as `_compact` shows it (an entry not worth noting)."""
    try:
        default = seen.starting(info)
    except Exception:  # a default that needs a key: every entry is worth noting
        return "\0"
    return _compact(g, seen, default[0] if isinstance(default, tuple) and default else default)


def _pieces(marks: list[tuple[str, str]]) -> str:
    """The pieces on a node in a few words: each by its mark without a trailing serial
    number, counted (`German 5(2)×2`)."""
    counts: dict[str, int] = {}
    for mark, _ in marks:
        base = re.sub(r"\s+\d+$", "", mark)
        counts[base] = counts.get(base, 0) + 1
    return " ".join(f"{m}×{k}" if k > 1 else m for m, k in counts.items())


def positions_of(game: Game, nodes: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """Each node's place in [0.04, 0.96]²: from the view's `layout KIND by X, Y` (the
    designer's columns) where every node has one, else the layout computed from the links;
    then spread (`spread`) so that no two nodes stand closer than MIN_GAP on the drawing."""
    return positions_of_compiled(game.compiled, nodes)


def positions_of_compiled(g, nodes: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """`positions_of` for a compiled game (kept per game and map)."""
    return _positions(g, nodes)


@functools.lru_cache(maxsize=16)
def _positions(g, nodes: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    given: dict[str, tuple[float, float]] = {}
    for item in g.view:
        if item.kind != "places":
            continue
        fx, fy = (g.fields.get(f, {}) for f in item.fields)
        for n in nodes:
            if g.kind_of.get(n) == item.var and fx.get(n) is not None and fy.get(n) is not None:
                given[n] = (float(fx[n]), float(fy[n]))
    if given and len(given) == len(nodes):
        return spread(_scaled(given, stretch=0.8))
    return spread(saved_layout(nodes, tuple(tuple(sorted(g.rt.links.get(n, ()))) for n in nodes)))


def _scaled(points: dict[str, tuple[float, float]], stretch: float = 0.0) -> dict[str, tuple[float, float]]:
    """Points fitted into [0.04, 0.96]², each axis on its own scale. With `stretch`, each
    axis is partly a scale by rank (the points evenly spaced along it): where many nodes
    crowd (Europe on a map of the world, a front of a war) the drawing gives them more
    room, and the order along each axis (west to east, north to south) stays the same."""

    def axis(values: list[float]) -> dict[float, float]:
        low, span = min(values), (max(values) - min(values)) or 1.0
        below, out = 0, {}
        steps = max(1, len(values) - 1)
        for v in sorted(set(values)):  # a value's rank among all the points (ties share the mean)
            k = values.count(v)
            rank = (below + (k - 1) / 2) / steps if len(values) > 1 else 0.5
            out[v] = (1 - stretch) * (v - low) / span + stretch * rank
            below += k
        return out

    ax, ay = axis([p[0] for p in points.values()]), axis([p[1] for p in points.values()])
    return {n: (0.04 + 0.92 * ax[x], 0.04 + 0.92 * ay[y]) for n, (x, y) in points.items()}


def spread(points: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """The points moved apart, on the drawing (MAP_W × MAP_H), until no two stand closer
    than MIN_GAP, each pair pushed apart along the line between them (so the map keeps its
    shape), within the drawing's margins. The same points always give the same result."""
    names = sorted(points)
    pos = [[points[n][0] * MAP_W, points[n][1] * MAP_H] for n in names]
    lo_x, hi_x, lo_y, hi_y = 0.04 * MAP_W, 0.96 * MAP_W, 0.04 * MAP_H, 0.96 * MAP_H
    for _ in range(200):
        moved = False
        buckets: dict[tuple[int, int], list[int]] = {}
        for i, (x, y) in enumerate(pos):
            buckets.setdefault((int(x // MIN_GAP), int(y // MIN_GAP)), []).append(i)
        for (bx, by), members in buckets.items():
            for i in members:
                for ox in (-1, 0, 1):
                    for oy in (-1, 0, 1):
                        for j in buckets.get((bx + ox, by + oy), ()):
                            if j <= i:
                                continue
                            dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                            d = math.hypot(dx, dy)
                            if d >= MIN_GAP:
                                continue
                            if d < 1e-6:  # the same place: apart along a fixed direction
                                dx, dy, d = 1.0, 0.5, math.hypot(1.0, 0.5)
                            push = (MIN_GAP - d) / 2 + 0.01
                            ux, uy = dx / d * push, dy / d * push
                            pos[i][0] -= ux
                            pos[i][1] -= uy
                            pos[j][0] += ux
                            pos[j][1] += uy
                            moved = True
        for p in pos:
            p[0] = min(hi_x, max(lo_x, p[0]))
            p[1] = min(hi_y, max(lo_y, p[1]))
        if not moved:
            break
    return {n: (p[0] / MAP_W, p[1] / MAP_H) for n, p in zip(names, pos)}


def saved_layout(nodes: tuple[str, ...], links: tuple[tuple[str, ...], ...]) -> dict[str, tuple[float, float]]:
    """The spring layout of a map, computed once and kept in gamedef's cache (named by a
    digest of its nodes and links), so a server started again draws it at once and the
    same map is always drawn the same way. A cache entry that can't be read or doesn't
    fit the map is computed again."""
    digest = hashlib.sha256(json.dumps([nodes, links]).encode()).hexdigest()[:24]
    where = cache.directory()
    path = where / f"layout-{digest}.json" if where is not None else None
    if path is not None:
        data = cache.read_trusted(path)
        try:
            loaded = json.loads(data) if data else None
            if isinstance(loaded, dict) and set(loaded) == set(nodes):
                return {n: (float(loaded[n][0]), float(loaded[n][1])) for n in nodes}
        except (ValueError, TypeError, IndexError, KeyError):
            pass
    found = layout(nodes, links)
    if path is not None:
        cache.write_bytes(path, json.dumps(found).encode())
    return found


def layout(nodes: tuple[str, ...], links: tuple[tuple[str, ...], ...]) -> dict[str, tuple[float, float]]:
    """Positions in [0.04, 0.96]² for a graph, by a spring layout (linked nodes pull,
    every pair pushes), seeded so that the same map is always drawn the same way."""
    rng = random.Random(len(nodes))
    index = {n: i for i, n in enumerate(nodes)}
    pos = [[rng.random(), rng.random()] for _ in nodes]
    edges = [(index[a], index[b]) for a, ms in zip(nodes, links) for b in ms if b in index and index[a] < index[b]]
    k = math.sqrt(1.0 / max(1, len(nodes)))
    temperature = 0.1
    for _ in range(200):
        disp = [[0.0, 0.0] for _ in nodes]
        for i in range(len(nodes)):
            xi, yi = pos[i]
            for j in range(i + 1, len(nodes)):
                dx, dy = xi - pos[j][0], yi - pos[j][1]
                d2 = dx * dx + dy * dy + 1e-9
                f = k * k / d2
                disp[i][0] += dx * f
                disp[i][1] += dy * f
                disp[j][0] -= dx * f
                disp[j][1] -= dy * f
        for i in range(len(nodes)):  # a pull to the middle keeps parts of the map together
            disp[i][0] += (0.5 - pos[i][0]) * 0.5
            disp[i][1] += (0.5 - pos[i][1]) * 0.5
        for i, j in edges:
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = math.sqrt(dx * dx + dy * dy) + 1e-9
            f = d / k
            disp[i][0] -= dx * f
            disp[i][1] -= dy * f
            disp[j][0] += dx * f
            disp[j][1] += dy * f
        for i in range(len(nodes)):
            dx, dy = disp[i]
            d = math.sqrt(dx * dx + dy * dy) + 1e-9
            step = min(d, temperature)
            pos[i][0] += dx / d * step
            pos[i][1] += dy / d * step
        temperature *= 0.975
    return _scaled({n: (pos[i][0], pos[i][1]) for i, n in enumerate(nodes)})


def _playable(g, obs: dict, moves: list[Move], places: frozenset[str]) -> dict[str, int]:
    """The place (a grid's cell, a map's node) each legal move chooses, by the move's value:
    the place itself, or a piece the viewer sees standing on one place (an army in its zone,
    by the observation's `piece -> place` variables). A place chosen by more than one move
    plays none of them: a click must say which move it plays."""
    standing: dict[Any, set[str]] = {}
    for info in g.var_order:
        view = obs["vars"][info.name]
        if not info.keys or info.keys[0] in places or not isinstance(view, dict):
            continue
        for key, value in view.items():
            if isinstance(value, str) and value in places:
                standing.setdefault(key, set()).add(value)
    chosen: dict[str, list[int]] = {}
    for i, move in enumerate(moves):
        value = move.value
        if not isinstance(value, str):
            continue
        if value in places:
            chosen.setdefault(value, []).append(i)
        else:
            on = standing.get(value, ())
            if len(on) == 1:
                chosen.setdefault(next(iter(on)), []).append(i)
    return {place: found[0] for place, found in chosen.items() if len(found) == 1}


# ---- the log ------------------------------------------------------------------------------
class Narration:
    """A table's log as each viewer may read it, narrated one state at a time: a state's
    lines are computed once, the first time a page shows them (states never change), and
    only as far back as the lines shown need."""

    def __init__(self) -> None:
        self._lines: dict[Any, dict[int, list[str]]] = {}

    def forget(self, since: int) -> None:
        """Moves were taken back: the states from number `since` on are no longer the same."""
        for done in self._lines.values():
            for i in [i for i in done if i >= since]:
                del done[i]

    def all(self, game: Game, states: list[State], viewer: str | None) -> list[str]:
        """Every line of the log that `viewer` may read, from the start."""
        return self.last(game, states, viewer, last=None)

    def of(self, game: Game, states: list[State], i: int, viewer: str | None) -> list[str]:
        """The lines state number `i` (of `states`, the table's from the start) adds."""
        done = self._lines.setdefault(viewer, {})
        chunk = done.get(i)
        if chunk is None:
            chunk = done[i] = game.narrate(states[i], viewer, omniscient=False)
        return chunk

    def last(self, game: Game, states: list[State], viewer: str | None, last: int | None = 40) -> list[str]:
        """The last `last` lines of the log that `viewer` may read (a spectator: the public ones)."""
        done = self._lines.setdefault(viewer, {})
        lines: list[str] = []
        for i in range(len(states) - 1, -1, -1):
            chunk = done.get(i)
            if chunk is None:
                chunk = done[i] = game.narrate(states[i], viewer, omniscient=False)
            lines[:0] = chunk
            if last is not None and len(lines) >= last:
                break
        return lines if last is None else lines[-last:]
