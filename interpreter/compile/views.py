"""Views: how a game shows a position, declared by its designer.

    view {
        text "Round {round} of 8, {epoch}"
        grid wall
        table "Influence" for x in countries_in_play() by x.region for s in sides(): influence[s][x]
        list "In play" for c in in_play: "{c}: {c.text}"
        status "round {round} | VP {vp[us]}-{vp[eu]}"
    }

A view is a list of items, each evaluated for one viewer (`viewer` is the seat looking,
none for a spectator): a line of text, a grid drawn as a board, a table (rows, optionally
grouped, by columns) and a list of lines (optionally grouped). A `status` item is a part of
the one-line status (`gamedef play` shows it at the bottom of the screen), not of the view.
Without a view, a game is shown by the generic renderer (interpreter/runtime/render.py).

A view must not show what its viewer may not see. The checker refuses a view that reads a
variable `seen by none` or `seen by owner`, except as `count(v)` or `count(v[k])` (a deck's
or a hand's size is public) and as `v[viewer]` (one's own hand), whether directly or through the defs and queries it
calls; and every value shown is formatted as the viewer's observation shows it, so a
face-down piece stays face down.
"""

from __future__ import annotations

from interpreter.compile.compiled import Item
from interpreter.compile.scope import Scope
from interpreter.language import syntax as ast


def compile_view(compiler, view: ast.View) -> tuple[Item, ...]:
    items = []
    for item in view.items:
        if isinstance(item, ast.ViewLine):
            scope = Scope(["viewer"])
            when = compiler.expr(item.when, scope) if item.when is not None else None
            kind = "status" if item.status else "text"
            items.append(Item(kind, text=_text(compiler, item.text, scope), when=when, frame=scope.count))
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
        elif isinstance(item, ast.ViewPlaces):
            items.append(Item("places", var=item.kind, fields=(item.x, item.y)))
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
                    label=_text(compiler, item.label, scope) if item.label is not None else None,
                    layout=item.layout or "",
                    frame=scope.count,
                )
            )
    return tuple(items)


def _text(compiler, e, scope: Scope) -> tuple:
    """A text's parts, each `{expr}` compiled on its own so its value is formatted for the viewer."""
    if isinstance(e, ast.Str):
        return tuple(p if isinstance(p, str) else compiler.expr(p, scope) for p in e.parts)
    return (compiler.expr(e, scope),)
