"""Views: how a game shows a position, declared by its designer.

    view {
        text "Round {round} of 8, {epoch}"
        grid wall
        table "Influence" for x in countries_in_play() by x.region for s in sides(): influence[s][x]
        list "In play" for c in in_play: "{c}: {c.text}"
    }

A view is a list of items, each evaluated for one viewer (`viewer` is the seat looking,
none for a spectator): a line of text, a grid drawn as a board, a table (rows, optionally
grouped, by columns) and a list of lines (optionally grouped). Without a view, a game is
shown by the generic renderer (interpreter/render.py).

A view must not show what its viewer may not see. The checker refuses a view that reads a
variable `seen by none` or `seen by owner`, except as `count(v)` or `count(v[k])` (a deck's
or a hand's size is public) and as `v[viewer]` (one's own hand), whether directly or through the defs and queries it
calls; and every value shown is formatted as the viewer's observation shows it, so a
face-down piece stays face down.
"""

from __future__ import annotations

from typing import Any

import attrs

from . import syntax as ast
from .expressions import Scope


# ---- checking ------------------------------------------------------------------------------
def check_view(checker, view: ast.View, decls) -> None:
    """Types, names and secrecy of every item; errors go to the checker's diagnostics."""
    from .checker import PLAYER, opt

    seen = {d.name: d.seen_by for d in decls if isinstance(d, ast.Var)}
    bodies = {d.name: d.body for d in decls if isinstance(d, ast.Def)}
    bodies.update({d.name: d.base for d in decls if isinstance(d, ast.Query)})
    memo: dict[str, str | None] = {}
    base = {"viewer": opt(PLAYER)}

    def expr(e, scope):
        t = checker.expr(e, scope)
        for name, span, via in _secrets(e, seen, bodies, memo):
            through = f" (through '{via}')" if via else ""
            who = "nobody" if seen[name] == "none" else "only its owner"
            checker.error(
                span,
                f"the view reads '{name}'{through}, which {who} may see",
                f"show count({name}) or {name}[viewer], or declare '{name}' seen by all",
            )
        return t

    for item in view.items:
        if getattr(item, "when", None) is not None:
            expr(item.when, base)  # its secrets, then its type
            checker.cond(item.when, base, "a view item's `when`")
        if isinstance(item, ast.ViewLine):
            expr(item.text, base)
        elif isinstance(item, ast.ViewBoard):
            if item.var not in checker.vars:
                checker.error(item.span, f"unknown variable '{item.var}'", "`grid VAR` draws a map keyed by grid cells")
            elif item.var in seen and seen[item.var] != "all":
                checker.error(item.span, f"'{item.var}' is not seen by all: a grid view shows it to everyone")
        elif isinstance(item, ast.ViewTable):
            row_t = checker.element(expr(item.rows, base), item.rows)
            col_t = checker.element(expr(item.columns, base), item.columns)
            scope = {**base, item.row: row_t}
            if item.group is not None:
                expr(item.group, scope)
            if item.label is not None:
                expr(item.label, scope)
            expr(item.cell, {**scope, item.column: col_t})
        elif isinstance(item, ast.ViewLines):
            scope = {**base, item.var: checker.element(expr(item.items, base), item.items)}
            if item.group is not None:
                expr(item.group, scope)
            expr(item.text, scope)


def _children(node) -> list:
    out = []
    if isinstance(node, tuple | list):
        for x in node:
            out.extend(_children(x) if isinstance(x, tuple | list) else [x])
        return out
    if attrs.has(type(node)):
        for f in attrs.fields(type(node)):
            value = getattr(node, f.name)
            if isinstance(value, tuple | list):
                out.extend(_children(value))
            elif attrs.has(type(value)):
                out.append(value)
    return out


def _secrets(e, seen: dict, bodies: dict, memo: dict, via: str | None = None) -> list[tuple[str, Any, str | None]]:
    """The hidden variables an expression reads: (name, where, the def it reads them through)."""
    found = []
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and seen.get(e.obj.id) == "owner":
        if isinstance(e.key, ast.Name) and e.key.id == "viewer":
            return _secrets(e.key, seen, bodies, memo, via)
    if isinstance(e, ast.Call) and e.func == "count" and len(e.args) == 1:
        arg = e.args[0]  # the size of a hidden list, or of one entry of a hidden map, is public
        if isinstance(arg, ast.Name) and arg.id in seen:
            return []
        if isinstance(arg, ast.Index) and isinstance(arg.obj, ast.Name) and arg.obj.id in seen:
            return _secrets(arg.key, seen, bodies, memo, via)
    if isinstance(e, ast.BinOp) and e.op in ("==", "!=") and isinstance(e.right, ast.NoneLit):
        arg = e.left  # whether a hidden slot holds something (a card face down) is public, as its size
        if isinstance(arg, ast.Name) and arg.id in seen:
            return []
        if isinstance(arg, ast.Index) and isinstance(arg.obj, ast.Name) and arg.obj.id in seen:
            return _secrets(arg.key, seen, bodies, memo, via)
    if isinstance(e, ast.Name) and seen.get(e.id) in ("owner", "none"):
        return [(e.id, e.span, via)]
    if isinstance(e, ast.Call) and e.func in bodies:
        if e.func not in memo:
            memo[e.func] = None  # recursion: assume clean while the body is looked at
            inner = _secrets(bodies[e.func], seen, bodies, memo)
            memo[e.func] = inner[0][0] if inner else None
        if memo[e.func] is not None:
            found.append((memo[e.func], e.span, e.func))
    for child in _children(e):
        found.extend(_secrets(child, seen, bodies, memo, via))
    return found


# ---- compiling -------------------------------------------------------------------------------
@attrs.frozen
class Item:
    """A view item compiled: its kind, title, closures and the size of its frame."""

    kind: str  # text, grid, table, list
    title: str = ""
    text: tuple = ()  # literal strings and closures, shown in turn
    when: Any = None  # an item shown only when this holds
    rows: Any = None
    group: Any = None
    columns: Any = None
    cell: Any = None
    var: str = ""
    label: Any = None
    frame: int = 0


def compile_view(compiler, view: ast.View) -> tuple[Item, ...]:
    items = []
    for item in view.items:
        if isinstance(item, ast.ViewLine):
            scope = Scope(["viewer"])
            when = compiler.expr(item.when, scope) if item.when is not None else None
            items.append(Item("text", text=_text(compiler, item.text, scope), when=when, frame=scope.count))
        elif isinstance(item, ast.ViewBoard):
            items.append(Item("grid", var=item.var))
        elif isinstance(item, ast.ViewTable):
            scope = Scope(["viewer", item.row, item.column])
            items.append(
                Item(
                    "table",
                    when=compiler.expr(item.when, scope) if item.when is not None else None,
                    title=item.title,
                    rows=compiler.expr(item.rows, scope),
                    group=compiler.expr(item.group, scope) if item.group is not None else None,
                    label=_text(compiler, item.label, scope) if item.label is not None else None,
                    columns=compiler.expr(item.columns, scope),
                    cell=compiler.expr(item.cell, scope),
                    frame=scope.count,
                )
            )
        else:
            scope = Scope(["viewer", item.var])
            items.append(
                Item(
                    "list",
                    when=compiler.expr(item.when, scope) if item.when is not None else None,
                    title=item.title,
                    rows=compiler.expr(item.items, scope),
                    group=compiler.expr(item.group, scope) if item.group is not None else None,
                    text=_text(compiler, item.text, scope),
                    frame=scope.count,
                )
            )
    return tuple(items)


def _text(compiler, e, scope: Scope) -> tuple:
    """A text's parts, each `{expr}` compiled on its own so its value is formatted for the viewer."""
    if isinstance(e, ast.Str):
        return tuple(p if isinstance(p, str) else compiler.expr(p, scope) for p in e.parts)
    return (compiler.expr(e, scope),)


# ---- showing -----------------------------------------------------------------------------------
def view_lines(game, state, viewer: str | None, draw_grid) -> list[str]:
    """The declared view of `state` for `viewer`; `draw_grid(var)` draws a grid item."""
    from .engine import VM
    from .observe import short_text, value_view
    from .render import plain

    g = game.compiled
    vm = VM(g, state)

    def shown(value) -> str:
        if isinstance(value, str) and value not in g.kind_of and value not in g.rt.titles:
            return g.rt.seat_titles.get(value, value)  # a seat, or a text rather than a name
        if isinstance(value, tuple):  # a list reads as in a log line: "a, b, c"
            return ", ".join(shown(v) for v in value) if value else "none"
        seen = value_view(g, vm, value, viewer)
        if isinstance(value, str) and g.kind_of.get(value) in g.short_fns:  # as on a board: its short form
            return short_text(g, vm, seen)
        return plain(g, vm, seen)

    def text(parts, frame) -> str:
        return "".join(p if isinstance(p, str) else shown(p(vm, frame)) for p in parts)

    lines: list[str] = []
    for item in g.view:
        frame = [None] * max(3, item.frame)
        frame[0] = viewer
        if item.when is not None and not item.when(vm, frame):
            continue
        if item.kind == "text":
            lines.append(text(item.text, frame))
        elif item.kind == "grid":
            lines.extend(draw_grid(item.var))
        elif item.kind == "list":
            rows = item.rows(vm, frame)
            lines.append(f"{item.title}:" + ("" if rows else " none"))
            for group, members in _grouped(item, rows, vm, frame):
                indent = "    "
                if group is not None:
                    lines.append(f"  {shown(group)}:")
                    indent = "      "
                for r in members:
                    frame[1] = r
                    lines.append(indent + text(item.text, frame))
        else:
            lines.extend(_table(item, vm, frame, shown, text))
    return lines


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
    body = []
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
