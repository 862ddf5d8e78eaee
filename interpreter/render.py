"""A player's view of a position as text, built from their observation only.

Generic: a variable keyed by grid cells is drawn as a board (each value by its
component's `short` template, hidden parts as '?'); a `player -> cell` variable
marks seats on that board; other variables are listed by name.
"""

from __future__ import annotations

from .engine import VM, Game, State
from .observe import observe, short_text


def render(game: Game, state: State, player: str | None) -> str:
    g = game.compiled
    obs = observe(g, state, player)
    vm = VM(g, state)
    lines: list[str] = []
    grids = {name: cells for name, cells in g.types.items() if cells and cells[0] in g.rt.coords}
    seat_no = {p: i + 1 for i, p in enumerate(state.players)}
    markers: dict[str, list[str]] = {}
    for info in g.var_order:
        view = obs["vars"][info.name]
        if info.keys == g.seats and isinstance(view, dict):
            for p, v in view.items():
                if isinstance(v, str) and v in g.rt.coords:
                    markers.setdefault(v, []).append(str(seat_no[p]))
    for info in g.var_order:
        view = obs["vars"][info.name]
        if info.keys is not None and info.keys and info.keys[0] in g.rt.coords:
            cells = next(c for c in grids.values() if c == info.keys)
            cols = max(g.rt.coords[c][0] for c in cells)
            rows = max(g.rt.coords[c][1] for c in cells)
            texts = {c: short_text(g, vm, view[c]) + "".join(markers.get(c, [])) for c in cells}
            width = max(len(t) for t in texts.values()) + 1
            lines.append(f"{info.name}:")
            header = "    " + "".join(c[:-1].rjust(width) for c in cells[:cols])
            lines.append(header)
            for y in range(1, rows + 1):
                row = [texts[c] for c in cells if g.rt.coords[c][1] == y]
                lines.append(f"{y:>3} " + "".join(t.rjust(width) for t in row))
        elif info.keys is None or info.keys == g.seats:
            lines.append(f"{info.name}: {_text(g, vm, view)}")
    if markers:
        lines.append("markers (seat numbers): " + ", ".join(f"{n} = {p}" for p, n in seat_no.items()))
    return "\n".join(lines)


def _text(g, vm, view) -> str:
    if isinstance(view, dict) and "hidden" in view and len(view) == 1:
        return f"({view['hidden']} hidden)"
    if isinstance(view, dict) and "of" in view:
        return short_text(g, vm, view)
    if isinstance(view, dict):
        return ", ".join(f"{k}={_text(g, vm, v)}" for k, v in view.items())
    if isinstance(view, list):
        if len(view) > 12:
            return f"{len(view)} items"
        return "[" + ", ".join(_text(g, vm, v) for v in view) + "]"
    return g.rt.display(view)
