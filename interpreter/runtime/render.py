"""A player's view of a position as text, built from what that player may see.

A game that declares a `view` is shown through it (interpreter/runtime/render.py's view_lines). Otherwise the
generic view applies, and leaves nothing out: a variable keyed by grid cells is drawn as
a board (each value by its component's `short` template, hidden parts as '?'), a
`player -> cell` variable marks seats on that board, and every other variable is listed
by name: a map keyed by anything shows the entries that differ from its starting value.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from interpreter.compile.compiled import Item
from interpreter.runtime.game import Game
from interpreter.runtime.machine import VM, State
from interpreter.runtime.observe import observe, short_text, value_view


def render_all(game: Game, state: State) -> str:
    """The whole position, hidden parts included: the spectator's view, then, for each seat,
    the lines of its own view that the spectator's lacks (`west sees: Your card: King`).
    For debugging and for tools that must tell every position apart (the OpenSpiel
    adapter's `str(state)`); never for a player."""
    spectator = render(game, state, None)
    public = set(spectator.splitlines())
    lines = [spectator]
    for seat in state.players:
        private = [line.strip() for line in render(game, state, seat).splitlines() if line not in public]
        if private:
            lines.append(f"{seat} sees: " + "; ".join(private))
    return "\n".join(lines)


def render(game: Game, state: State, player: str | None) -> str:
    g = game.compiled
    obs = observe(g, state, player)
    vm = VM(g, state)
    seat_no = {p: i + 1 for i, p in enumerate(state.players)}
    markers: dict[str, list[str]] = {}
    for info in g.var_order:
        view = obs["vars"][info.name]
        if info.keys == g.seats and isinstance(view, dict):
            for p, v in view.items():
                if isinstance(v, str) and v in g.rt.coords:
                    markers.setdefault(v, []).append(str(seat_no.get(p, p)))

    def draw_grid(name: str) -> list[str]:
        info = g.vars[name]
        return _grid(g, vm, info, obs["vars"][name], markers)

    if any(item.kind != "status" for item in g.view):  # a view of status items only: the generic one
        return "\n".join(view_lines(game, state, player, draw_grid))
    lines: list[str] = []
    for info in g.var_order:
        view = obs["vars"][info.name]
        if info.keys is not None and info.keys and info.keys[0] in g.rt.coords:
            lines.extend(draw_grid(info.name))
        elif info.keys is None or info.keys == g.seats:
            lines.append(f"{info.name}: {plain(g, vm, view)}")
        else:
            blank = plain(g, vm, value_view(g, vm, _first(info.default(vm, [])), player))
            changed = {k: v for k, v in view.items() if plain(g, vm, v) != blank}
            shown = ", ".join(f"{g.rt.display(k)}={plain(g, vm, v)}" for k, v in changed.items())
            left = len(view) - len(changed)
            rest = f"all {left} at {blank}" if not changed else f"{left} more at {blank}" if left else ""
            lines.append(f"{info.name}: {shown}{'; ' if shown and rest else ''}{rest}")
    if markers:
        lines.append("markers (seat numbers): " + ", ".join(f"{n} = {p}" for p, n in seat_no.items()))
    return "\n".join(lines)


def _first(default: tuple):
    return default[0] if default else None


def _cell(text: str, markers: list[str]) -> str:
    """A cell of a drawn grid: its piece, then the seat markers on it after a `·`
    (`CM4·6`); an empty cell's markers follow its dot (`.25`)."""
    if not markers:
        return text
    return text + ("" if text.endswith(".") else "·") + "".join(markers)


def _grid(g, vm, info, view: dict, markers: dict) -> list[str]:
    cells = info.keys
    cols = max(g.rt.coords[c][0] for c in cells)
    rows = max(g.rt.coords[c][1] for c in cells)
    texts = {c: _cell(short_text(g, vm, view[c]), markers.get(c, [])) for c in cells}
    width = max(len(t) for t in texts.values()) + 1
    lines = [f"{info.name}:", "    " + "".join(c[:-1].rjust(width) for c in cells[:cols])]
    for y in range(1, rows + 1):
        row = [texts[c] for c in cells if g.rt.coords[c][1] == y]
        lines.append(f"{y:>3} " + "".join(t.rjust(width) for t in row))
    return lines


def plain(g, vm, view) -> str:
    """A value of an observation as plain text."""
    if isinstance(view, dict) and "hidden" in view and len(view) == 1:
        return f"({view['hidden']} hidden)"
    if isinstance(view, dict) and "of" in view:
        return short_text(g, vm, view)
    if isinstance(view, dict):
        return ", ".join(f"{g.rt.display(k)}={plain(g, vm, v)}" for k, v in view.items())
    if isinstance(view, list):
        if len(view) > 12:
            return f"{len(view)} items"
        return "[" + ", ".join(plain(g, vm, v) for v in view) + "]"
    return g.rt.display(view)


class SeatView:
    """A position as one seat may see it, for a drawing of it (the web's board): the seat's
    observation, and each value of it as text, written by the game's own templates in that
    position (a component's `short` form, a value as plain text). The working copy those
    templates run in stays here: a drawing asks for texts, never for the machine."""

    __slots__ = ("game", "observation", "_vm")

    def __init__(self, game: Game, state: State, viewer: str | None, observation: dict | None = None):
        self.game = game
        self.observation = observe(game.compiled, state, viewer) if observation is None else observation
        self._vm = VM(game.compiled, state)

    def short(self, value: Any) -> str:
        """A compact glyph for a value, for boards (`short_text`): its `short` form, '?' where hidden."""
        return short_text(self.game.compiled, self._vm, value)

    def plain(self, value: Any) -> str:
        """A value of the observation as plain text (`plain`)."""
        return plain(self.game.compiled, self._vm, value)

    def starting(self, info: Any) -> Any:
        """A variable's starting value, as its declaration computes it (every entry of a map
        at its default); raises what the declaration's code raises (a default that needs a key)."""
        return info.default(self._vm, [])


# ---- a declared view ---------------------------------------------------------------------
def _shower(g, vm, viewer: str | None):
    """How a view shows a value to `viewer`: as its observation shows it (a face-down piece
    as `?`), a component by its short form where it has one, a list as `a, b, c`."""

    def shown(value) -> str:
        if isinstance(value, str) and value not in g.kind_of and value not in g.rt.titles:
            return g.rt.seat_titles.get(value, value)  # a seat, or a text rather than a name
        if isinstance(value, tuple):  # a list reads as in a log line: "a, b, c"
            return ", ".join(shown(v) for v in value) if value else "none"
        seen = value_view(g, vm, value, viewer)
        if isinstance(value, str) and g.kind_of.get(value) in g.short_fns:  # as on a board: its short form
            return short_text(g, vm, seen)
        return plain(g, vm, seen)

    return shown


def status_text(game: Game, state: State, viewer: str | None) -> str | None:
    """The game's declared status (`status` items of its view) for `viewer`: the parts whose
    `when` holds, joined by ` | `; None when the game declares none. The checker holds a
    status to a view's rules, so it shows nothing `viewer` may not see (docs §3.18)."""
    g = game.compiled
    items = [item for item in g.view if item.kind == "status"]
    if not items:
        return None
    vm = VM(g, state)
    shown = _shower(g, vm, viewer)
    parts = []
    for item in items:
        frame: list[Any] = [None] * max(3, item.frame)
        frame[0] = viewer
        if item.when is None or item.when(vm, frame):
            parts.append("".join(p if isinstance(p, str) else shown(p(vm, frame)) for p in item.text))
    return " | ".join(part for part in parts if part)


class Part(NamedTuple):
    """One item of a declared view as shown to a viewer: its lines of text and, for a list
    drawn with a layout, its rows of cells by group (a drawing can then place each cell)."""

    item: Item
    lines: list[str]
    groups: list[tuple[str | None, list[tuple[str, list[str]]]]]  # (group, [(row label, cells)])


def view_lines(game, state, viewer: str | None, draw_grid) -> list[str]:
    """The declared view of `state` for `viewer`; `draw_grid(var)` draws a grid item."""
    return [line for part in view_parts(game, state, viewer, draw_grid) for line in part.lines]


def view_parts(game, state, viewer: str | None, draw_grid) -> list[Part]:
    """The declared view of `state` for `viewer`, item by item (the items shown)."""
    g = game.compiled
    vm = VM(g, state)
    shown = _shower(g, vm, viewer)

    def text(parts, frame) -> str:
        return "".join(p if isinstance(p, str) else shown(p(vm, frame)) for p in parts)

    out: list[Part] = []
    for item in g.view:
        if item.kind == "status":  # a part of the status line (status_text), not of the view
            continue
        frame: list[Any] = [None] * max(3, item.frame)
        frame[0] = viewer
        if item.kind == "places" or (item.when is not None and not item.when(vm, frame)):
            continue
        if item.kind == "text":
            out.append(Part(item, [text(item.text, frame)], []))
        elif item.kind == "grid":
            out.append(Part(item, draw_grid(item.var), []))
        elif item.kind == "list" and item.layout:
            out.append(_cells(item, vm, frame, shown, text))
        elif item.kind == "list":
            rows = item.rows(vm, frame)
            lines = [f"{item.title}:" + ("" if rows else " none")]
            for group, members in _grouped(item, rows, vm, frame):
                indent = "    "
                if group is not None:
                    lines.append(f"  {shown(group)}:")
                    indent = "      "
                for r in members:
                    frame[1] = r
                    label = text(item.label, frame) + "   " if item.label is not None else ""
                    lines.append(indent + label + text(item.text, frame))
            out.append(Part(item, lines, []))
        else:
            out.append(Part(item, _table(item, vm, frame, shown, text), []))
    return out


def _cells(item: Item, vm, frame, shown, text) -> Part:
    """A list drawn with a layout: each item's text is a row of cells. As text, the cells are
    columns as wide as the widest, a cell's width apart; `layout pyramid` moves each row
    right by one cell width per cell it lacks from the longest row, so that a cell stands
    centred over the two next to it in the row below (a stepped pyramid)."""
    rows = item.rows(vm, frame)
    groups: list[tuple[str | None, list[tuple[str, list[str]]]]] = []
    for group, members in _grouped(item, rows, vm, frame):
        shown_rows = []
        for r in members:
            frame[1] = r
            value = item.text[0](vm, frame) if len(item.text) == 1 and not isinstance(item.text[0], str) else ()
            cells = [shown(v) if v is not None else "." for v in (value if isinstance(value, tuple) else (value,))]
            shown_rows.append((text(item.label, frame) if item.label is not None else "", cells))
        groups.append((shown(group) if group is not None else None, shown_rows))
    lines = [f"{item.title}:" + ("" if rows else " none")]
    every = [row for _, members in groups for row in members]
    width = max((len(c) for _, cells in every for c in cells), default=1)
    longest = max((len(cells) for _, cells in every), default=0)
    label_w = max((len(label) for label, _ in every), default=0)
    for group, members in groups:
        indent = "    "
        if group is not None:
            lines.append(f"  {group}:")
            indent = "      "
        for label, cells in members:
            head = label.ljust(label_w) + "   " if label_w else ""
            step = " " * ((longest - len(cells)) * width) if item.layout == "pyramid" else ""
            lines.append(indent + head + step + (" " * width).join(c.rjust(width) for c in cells))
    return Part(item, lines, groups)


def _grouped(item: Item, rows, vm, frame) -> list[tuple[Any, list]]:
    if item.group is None:
        return [(None, list(rows))]
    groups: dict[Any, list] = {}
    for r in rows:
        frame[1] = r
        groups.setdefault(item.group(vm, frame), []).append(r)
    return list(groups.items())


def _table(item: Item, vm, frame, shown, text) -> list[str]:
    rows = item.rows(vm, frame)
    columns = item.columns(vm, frame)
    if not rows:
        return [f"{item.title}: none"]
    heads = [shown(c) for c in columns]
    body: list[tuple[Any, str, list[str]]] = []
    for group, members in _grouped(item, rows, vm, frame):
        if group is not None:
            body.append((None, shown(group), []))
        for r in members:
            frame[1] = r
            cells = []
            for c in columns:
                frame[2] = c
                value = item.cell(vm, frame)
                cells.append("." if value is None else shown(value))
            body.append((r, text(item.label, frame) if item.label is not None else shown(r), cells))
    label_w = max(len(label) + (2 if r is not None and item.group is not None else 0) for r, label, _ in body)
    widths = [max([len(h)] + [len(cells[i]) for r, _, cells in body if r is not None]) for i, h in enumerate(heads)]
    lines = [f"{item.title}:", " " * (label_w + 6) + "  ".join(h.rjust(w) for h, w in zip(heads, widths))]
    for r, label, cells in body:
        if r is None:
            lines.append(f"  {label}")
            continue
        name = ("  " if item.group is not None else "") + label
        lines.append("    " + name.ljust(label_w) + "  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths)))
    return lines
