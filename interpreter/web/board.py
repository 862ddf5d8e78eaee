"""A position drawn for one seat as HTML, from what that seat may see, for any game.

Nothing here knows a game. What is drawn comes from the game's declarations:
- a variable keyed by grid cells is a board: an HTML table, each cell showing its piece
  by the component's `short` form as the seat's observation gives it;
- a map (components with links) is an SVG graph: each node at a position computed once
  by a spring layout from the links (kept for the process), its title, and in its tooltip
  every map variable's value there as the seat may see it;
- the rest is the game's own view (its `view` declaration, or the generic one), as text.
A legal move whose label names a cell or a node makes that cell or node clickable: the
click plays that move. Every text is escaped.
"""

from __future__ import annotations

import functools
import html
import math
import random
import re

from interpreter.runtime.engine import VM, Game, State
from interpreter.runtime.observe import observe, short_text
from interpreter.runtime.render import plain, render, status_text

MAX_NODES = 400  # a larger graph is not drawn (its view is still shown as text)


def grid_boards(game: Game, state: State, viewer: str | None, moves: list[str]) -> list[str]:
    """Each grid-keyed variable as an HTML table; a cell named by a move is a button."""
    g = game.compiled
    obs = observe(g, state, viewer)
    vm = VM(g, state)
    out = []
    for info in g.var_order:
        if not info.keys or info.keys[0] not in g.rt.coords:
            continue
        view = obs["vars"][info.name]
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
                text = short_text(g, vm, view[cell]) if cell in view else ""
                move = _move_naming(moves, cell, g.rt.display(cell))
                inner = html.escape(text if text not in ("none", ".") else "")
                if move is not None:
                    lines.append(
                        f'<td><button class="cell" data-move="{move}" title="{html.escape(moves[move])}">'
                        f"{inner or '&nbsp;'}</button></td>"
                    )
                else:
                    lines.append(f'<td title="{html.escape(cell)}">{inner}</td>')
            lines.append("</tr>")
        lines.append("</table>")
        out.append("\n".join(lines))
    return out


def map_board(game: Game, state: State, viewer: str | None, moves: list[str]) -> str:
    """The game's map as an SVG graph ('' when the game has none)."""
    g = game.compiled
    nodes = tuple(sorted(n for n in g.rt.links if n in g.kind_of))
    if not nodes or len(nodes) > MAX_NODES:
        return ""
    positions = layout(nodes, tuple(tuple(sorted(g.rt.links.get(n, ()))) for n in nodes))
    obs = observe(g, state, viewer)
    vm = VM(g, state)
    facts: dict[str, list[str]] = {n: [] for n in nodes}
    for info in g.var_order:
        view = obs["vars"].get(info.name)
        if not isinstance(view, dict):
            continue
        for n in nodes:
            if n in view:
                facts[n].append(f"{info.name}: {plain(g, vm, view[n])}")
            else:  # a map keyed by seat first, then by node (influence[seat][country])
                per_seat = [
                    f"{g.rt.display(k)} {plain(g, vm, v[n])}"
                    for k, v in view.items()
                    if isinstance(v, dict) and n in v and plain(g, vm, v[n]) not in ("0", "none", "no")
                ]
                if per_seat:
                    facts[n].append(f"{info.name}: " + ", ".join(per_seat))
    titles = sorted({str(t) for t in g.rt.titles.values()}, key=len, reverse=True) if moves else []
    width, height = 1000, 700
    parts = [f'<svg class="map" viewBox="0 0 {width} {height}" role="img" aria-label="map">']
    seen_edges = set()
    for n in nodes:
        x1, y1 = positions[n]
        for m in g.rt.links.get(n, ()):
            if m in positions and (m, n) not in seen_edges:
                seen_edges.add((n, m))
                x2, y2 = positions[m]
                parts.append(
                    f'<line x1="{x1 * width:.1f}" y1="{y1 * height:.1f}" x2="{x2 * width:.1f}" '
                    f'y2="{y2 * height:.1f}" class="link"/>'
                )
    for n in nodes:
        x, y = positions[n]
        title = g.rt.display(n)
        longer = tuple(t for t in titles if title in t and t != title)
        move = _move_naming(moves, n, title, longer)
        tip = html.escape("\n".join([title, *facts[n]]))
        cls = "node playable" if move is not None else "node"
        data = f' data-move="{move}"' if move is not None else ""
        busy = " busy" if facts[n] else ""
        parts.append(
            f'<g class="{cls}{busy}"{data} transform="translate({x * width:.1f},{y * height:.1f})">'
            f'<title>{tip}</title><circle r="7"/>'
            f'<text y="-10" text-anchor="middle">{html.escape(title[:18])}</text></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def view_text(game: Game, state: State, viewer: str | None) -> str:
    """The game's own view of the position for `viewer`, escaped, under the status line the
    game declares (its view's `status` items, as `gamedef play` shows them)."""
    status = status_text(game, state, viewer)
    view = render(game, state, viewer)
    return html.escape(f"{status}\n\n{view}" if status else view)


def _move_naming(moves: list[str], name: str, title: str, longer: tuple[str, ...] = ()) -> int | None:
    """The one legal move whose label names this cell or node, by its name or its title
    as whole words, and not only inside a longer title (the country Sudan is not named by
    "play Sudan civil wars", a card's title)."""
    found = []
    for i, label in enumerate(moves):
        for other in longer:
            label = label.replace(other, " ")
        words = (re.escape(name),) + ((re.escape(title),) if len(title) > 2 else ())
        if any(re.search(rf"(?<![\w-]){w}(?![\w-])", label) for w in words):
            found.append(i)
    return found[0] if len(found) == 1 else None


@functools.lru_cache(maxsize=32)
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
    xs, ys = [p[0] for p in pos], [p[1] for p in pos]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    return {
        n: (0.04 + 0.92 * (pos[i][0] - min(xs)) / span_x, 0.04 + 0.92 * (pos[i][1] - min(ys)) / span_y)
        for i, n in enumerate(nodes)
    }


def log_lines(game: Game, states: list[State], viewer: str | None, last: int = 40) -> list[str]:
    """The last lines of the game's log that `viewer` may read (a spectator: the public ones)."""
    lines: list[str] = []
    for s in states[-last:]:
        lines.extend(game.narrate(s, viewer, omniscient=False))
    return lines[-last:]
