"""Assemble one program from a game file, its includes and the chosen variants.

Variants are overlays (DESIGN principle 7): each names declarations to add, replace
or remove. They are applied in the order given, so they compose; `excludes` lists
the variants a variant cannot be combined with.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

from interpreter.core.errors import Diagnostic, GameDefError, Span, did_you_mean
from interpreter.core.limits import MAX_FILES
from interpreter.core.paths import BUNDLED, BUNDLED_CARDS
from interpreter.language import syntax as ast
from interpreter.language.parser import parse_file
from interpreter.language.sources import confined
from interpreter.language.tables import LoadedTable, extend_cards, open_table

KEYED = {
    ast.GameHeader: "game",
    ast.Option: "option",
    ast.Enum: "enum",
    ast.Entity: "entity",
    ast.Card: "card",
    ast.Var: "var",
    ast.Grid: "grid",
    ast.Graph: "graph",
    ast.Event: "event",
    ast.Def: "def",
    ast.Query: "query",
    ast.Procedure: "procedure",
    ast.Generate: "generate",
    ast.Table: "table",
    ast.View: "view",
    ast.Payoff: "payoff",
    ast.About: "about",
}


def decl_key(decl) -> tuple[str, str] | None:
    kind = KEYED.get(type(decl))
    if kind is None:
        return None
    if kind in ("generate", "table"):
        return (kind, decl.kind)
    if kind in ("view", "payoff"):
        return (kind, kind)
    return (kind, decl.name)


@attrs.frozen
class Program:
    """Every declaration in force once includes and variants are applied."""

    header: ast.GameHeader
    decls: tuple
    variants: tuple[ast.Variant, ...]
    all_variants: dict[str, ast.Variant]
    sources: dict[str, str]
    rules_hash: str
    tables: tuple[LoadedTable, ...] = ()  # the `table` and `links` files in force, read


def _include_error(span: Span, message: str, hint: str) -> GameDefError:
    return GameDefError([Diagnostic(span, message, hint)])


def _load_modules(path: Path, seen: set[Path], sources: dict[str, str], roots: tuple[Path, ...], span=None) -> list:
    """The declarations of `path` and of every file it includes, depth first.

    An include names one file, relative to the including file, inside the game's own
    folder tree or the bundled games (`roots`): no absolute paths out, no `..` out, no
    globs, no devices. What a game may read is therefore what its folder holds."""
    module = parse_file(path, span)
    sources[module.path] = module.source
    decls: list = []
    for decl in module.decls:
        if not isinstance(decl, ast.Include):
            decls.append(decl)
            continue
        if any(c in decl.path for c in "*?[") or not decl.path.strip():
            raise _include_error(decl.span, f"include needs one file name, not '{decl.path}'", "name each file")
        target = confined(path.parent, decl.path, roots)
        if target is None:
            raise _include_error(
                decl.span,
                f"include leaves the game's folder: {decl.path!r}",
                "an included file must be in the game's own folder (or below it), "
                "a bundled game (gamedefs/) or a bundled card set (cards/)",
            )
        if not target.exists():
            raise _include_error(
                decl.span, f"include finds no file: {decl.path}", "paths are relative to the including file"
            )
        if target in seen:
            continue
        if len(seen) >= MAX_FILES:
            raise _include_error(decl.span, f"more than {MAX_FILES} files included", "merge some files")
        seen.add(target)
        decls.extend(_load_modules(target, seen, sources, roots, decl.span))
    return decls


def load_program(path: str | Path, variants: list[str] | tuple[str, ...] = ()) -> Program:
    """Parse `path` with its includes and apply `variants` in order."""
    path = Path(path).resolve()
    sources: dict[str, str] = {}
    roots = (path.parent, BUNDLED, BUNDLED_CARDS)
    decls = _load_modules(path, {path}, sources, roots)
    headers = [d for d in decls if isinstance(d, ast.GameHeader)]
    if not headers:
        raise GameDefError(
            [
                Diagnostic(
                    Span(str(path), 1, 1),
                    "no `game` header in this file",
                    'start the file with: game NAME "Title" { players 2..4 }',
                )
            ]
        )
    all_variants = {d.name: d for d in decls if isinstance(d, ast.Variant)}
    base = [d for d in decls if not isinstance(d, ast.Variant)]
    errors: list[Diagnostic] = []
    table: dict = {}
    order: list = []
    for decl in base:
        key = decl_key(decl)
        if key is not None and key in table:
            twice = f"{key[0]} '{key[1]}' is declared twice" if key[0] != "view" else "a game has one view"
            hint = "rename one" if key[0] != "view" else "merge the two, or `replace view { ... }` in a variant"
            errors.append(Diagnostic(decl.span, twice, f"the first is at {table[key].span}; {hint}"))
            continue
        if key is not None:
            table[key] = decl
        order.append(decl)
    chosen: list[ast.Variant] = []
    removed_rows: list[tuple[ast.Remove, bool]] = []  # `remove card X` may name a table's row, known later
    for name in variants:
        if name not in all_variants:
            hint = did_you_mean(name, all_variants) or (
                "this game has variants: " + ", ".join(all_variants) if all_variants else "this game has no variants"
            )
            raise GameDefError([Diagnostic(Span(f"--variant {name}", 0, 0), f"unknown variant '{name}'", hint)])
        variant = all_variants[name]
        for other in chosen:
            if other.name in variant.excludes or variant.name in other.excludes:
                raise GameDefError(
                    [
                        Diagnostic(
                            Span(f"--variant {name}", 0, 0),
                            f"variant '{name}' cannot be combined with '{other.name}'",
                            "choose one of them",
                        )
                    ]
                )
        if name in [v.name for v in chosen]:
            continue
        chosen.append(variant)
        for decl in variant.decls:
            if isinstance(decl, ast.Remove):
                key = (decl.kind if decl.kind != "when" else "trigger", decl.name)
                if decl.kind == "card":
                    removed_rows.append((decl, key in table))
                    if key in table:
                        order.remove(table.pop(key))
                    continue
                if key not in table:
                    errors.append(
                        Diagnostic(
                            decl.span,
                            f"variant removes unknown {key[0]} '{key[1]}'",
                            did_you_mean(key[1], [k[1] for k in table if k[0] == key[0]]),
                        )
                    )
                    continue
                order.remove(table.pop(key))
            elif isinstance(decl, ast.Replace):
                key = decl_key(decl.decl)
                if key not in table:
                    errors.append(
                        Diagnostic(
                            decl.span,
                            f"variant replaces unknown {key[0]} '{key[1]}'",
                            did_you_mean(key[1], [k[1] for k in table if k[0] == key[0]])
                            or "to add a new declaration, drop `replace`",
                        )
                    )
                    continue
                order[order.index(table[key])] = decl.decl
                table[key] = decl.decl
            else:
                key = decl_key(decl)
                if key is not None and key in table:
                    errors.append(
                        Diagnostic(
                            decl.span,
                            f"variant redeclares {key[0]} '{key[1]}'",
                            "write `replace` before it to overlay the base rule",
                        )
                    )
                    continue
                if key is not None:
                    table[key] = decl
                order.append(decl)
    if errors:
        raise GameDefError(errors)
    cards = [k[1] for k in table if k[0] == "card"]
    tables = [open_table(d, roots, sources) for d in order if isinstance(d, ast.Table | ast.Links)]
    tables = _remove_rows(tables, removed_rows, cards)
    order = extend_cards(order, tables)
    header = table[("game", headers[0].name)] if ("game", headers[0].name) in table else headers[0]
    digest = hashlib.sha256()
    for name in sorted(sources):
        digest.update(sources[name].encode())
    for v in chosen:
        digest.update(v.name.encode())
    return Program(
        header=header,
        decls=tuple(d for d in order if not isinstance(d, ast.GameHeader)),
        variants=tuple(chosen),
        all_variants=all_variants,
        sources=sources,
        rules_hash=digest.hexdigest()[:16],
        tables=tuple(tables),
    )


def _remove_rows(
    tables: list[LoadedTable], removals: list[tuple[ast.Remove, bool]], cards: list[str]
) -> list[LoadedTable]:
    """Apply a variant's `remove card NAME` to the table rows it names: the component
    leaves the game, whether a `card` or a table's row declared it. A name that is
    neither a card of the game nor a row is an error."""
    rows = {n.name: i for i, t in enumerate(tables) for n in t.rows}
    gone: dict[int, set[str]] = {}
    errors = []
    for r, was_card in removals:
        if r.name in rows:
            gone.setdefault(rows[r.name], set()).add(r.name)
        elif not was_card:
            errors.append(
                Diagnostic(r.span, f"variant removes unknown card '{r.name}'", did_you_mean(r.name, [*cards, *rows]))
            )
    if errors:
        raise GameDefError(errors)
    return [attrs.evolve(t, removed=t.removed | gone.get(i, set())) for i, t in enumerate(tables)]
