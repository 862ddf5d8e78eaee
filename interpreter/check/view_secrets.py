"""Checking a declared view: its names and types, and that it shows nothing its viewer may not see.

A view must not show what its viewer may not see. The checker refuses a view that reads a
variable `seen by none` or `seen by owner`, except as `count(v)` or `count(v[k])` (a deck's
or a hand's size is public) and as `v[viewer]` (one's own hand), whether directly or through
the defs and queries it calls. (How a view is written: docs/language.md §3.18; compiled in
interpreter/compile/views.py, shown by interpreter/runtime/render.py.)
"""

from __future__ import annotations

from typing import Any

import attrs

from interpreter.check.types import ANY, INT, PLAYER, is_list, opt, show
from interpreter.language import syntax as ast


def check_view(checker, view: ast.View, decls) -> None:
    """Types, names and secrecy of every item; errors go to the checker's diagnostics."""
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
        checker.narrowed = frozenset()
        if getattr(item, "when", None) is not None:
            expr(item.when, base)  # its secrets, then its type
            checker.cond(item.when, base, "a view item's `when`")
            checker.narrowed = checker.narrowed_by(item.when, True)  # shown only where it holds
        if isinstance(item, ast.ViewLine):
            expr(item.text, base)
        elif isinstance(item, ast.ViewBoard):
            if item.var not in checker.vars:
                checker.error(item.span, f"unknown variable '{item.var}'", "`grid VAR` draws a map keyed by grid cells")
            elif not _keyed_by_cells(checker, item.var):  # `grid table_cards`: no cell to draw it in
                keys, held = checker.vars[item.var]
                what = f"a map of {show(held)} by {', '.join(show(k) for k in keys)}" if keys else f"{show(held)}"
                checker.error(
                    item.span,
                    f"`grid {item.var}` draws a map keyed by a grid's cells, and '{item.var}' is {what}",
                    'show it as a line, `text "...{' + item.var + '}"`, or as a `list` or a `table`',
                )
            elif item.var in seen and seen[item.var] != "all":
                checker.error(item.span, f"'{item.var}' is not seen by all: a grid view shows it to everyone")
            else:
                checker.used.add("var:" + item.var)  # drawn: read, not "never read"
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
            if item.label is not None:
                expr(item.label, scope)
            text_t = expr(item.text, scope)
            if item.layout is not None:
                _check_layout(checker, item, text_t)
        elif isinstance(item, ast.ViewPlaces):
            _check_places(checker, item)
    checker.narrowed = frozenset()


def _keyed_by_cells(checker, name: str) -> bool:
    """Is variable `name` a map whose (first) key is a grid's cells?"""
    keys = checker.vars[name][0]
    return bool(keys) and getattr(keys[0], "name", None) in checker.grids


LAYOUTS = ("pyramid", "rows")  # how a list's rows of cells are drawn: centred (stepped), or flush left


def _check_layout(checker, item: ast.ViewLines, text_t) -> None:
    """A list drawn with a layout shows a row of cells per item: its text must be a list."""
    if item.layout not in LAYOUTS:
        checker.error(item.span, f"no layout '{item.layout}' for a list", "layouts: " + ", ".join(LAYOUTS))
    elif not is_list(text_t) and text_t != ANY:
        checker.error(
            item.text.span,
            f"a list drawn `layout {item.layout}` shows a row of cells per item: a list, not {show(text_t)}",
            "for example [wonder[s] for s in row_slots(r)]",
        )


def _check_places(checker, item: ast.ViewPlaces) -> None:
    """`layout KIND by X, Y`: KIND a component kind whose properties X and Y are numbers."""
    entity = checker.entities.get(item.kind)
    if entity is None:
        checker.error(item.span, f"unknown component kind '{item.kind}'", "`layout KIND by X, Y` places a map's nodes")
        return
    fields = {f.name: f for f in entity.fields}
    for name in (item.x, item.y):
        f = fields.get(name)
        if f is None:
            checker.error(item.span, f"'{item.kind}' has no property '{name}'", "properties: " + ", ".join(fields))
        elif checker.type_of(f.type) != INT:
            checker.error(f.span, f"'{item.kind}.{name}' places a node on the map: it must be an int")


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
    found: list[tuple[str, Any, str | None]] = []
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
