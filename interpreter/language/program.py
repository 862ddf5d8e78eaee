"""Assemble one program from a game file, its includes and the chosen variants.

Variants are overlays (docs/architecture.md, principle 7): each names declarations to add, replace
or remove. They are applied in the order given, so they compose; `excludes` lists
the variants a variant cannot be combined with.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

from interpreter.core.errors import (
    Diagnostic,
    GameDefError,
    Span,
    UnknownVariantError,
    UsageError,
    VariantConflictError,
    did_you_mean,
)
from interpreter.core.limits import MAX_FILES
from interpreter.core.paths import read_roots
from interpreter.language import syntax as ast
from interpreter.language.datatables import LoadedTable, extend_cards, open_table
from interpreter.language.digests import derived
from interpreter.language.parser import parse_file
from interpreter.language.signatures import with_slot_signatures
from interpreter.language.sources import confined

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
    ast.DataTable: "table",
    ast.View: "view",
    ast.Payoff: "payoff",
    ast.Estimate: "estimate",
    ast.About: "about",
}


def _unnamed(decl) -> str:
    """A declaration that has no name, as a designer calls it (for an error)."""
    kinds = {ast.Invariant: "an invariant", ast.Trigger: "a `when` trigger", ast.StaticModifier: "a `while` modifier"}
    return kinds.get(type(decl), "this declaration")


def decl_key(decl) -> tuple[str, str] | None:
    kind = KEYED.get(type(decl))
    if kind is None:
        return None
    if kind in ("generate", "table"):
        return (kind, decl.kind)
    if kind in ("view", "payoff", "estimate"):
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
    tests: tuple[ast.Test, ...] = ()  # designers' tests (`gamedef test`), not part of the game
    # the `remove`s in force (outside any variant, and the chosen variants'): where a
    # declaration the rules still use was removed, the check's error points there
    removed: tuple[ast.Remove, ...] = ()
    replaced: tuple[ast.Replace, ...] = ()  # the `replace`s in force, likewise


NO_HEADER = "no `game` header in this file"


def _include_error(span: Span, message: str, hint: str) -> GameDefError:
    return GameDefError([Diagnostic(span, message, hint)])


def bundled_names(bundle: tuple[Path, ...]) -> dict[str, Path]:
    """What `include NAME` may name: every .game file of the bundled games and card sets,
    by its path there without `.game` (`twid`, `berlin_wall/variants`, `twid/promos`);
    a game before a card set of the same name."""
    names: dict[str, Path] = {}
    for folder in bundle:
        if folder.is_dir():
            for file in sorted(folder.rglob("*.game")):
                names.setdefault(file.relative_to(folder).with_suffix("").as_posix(), file)
    return names


def _bundled_target(decl: ast.Include, bundle: tuple[Path, ...]) -> Path:
    """The file `include NAME` names: NAME.game in the bundled games, else in the card sets."""
    for folder in bundle:
        target = confined(folder, decl.path + ".game", (folder,))
        if target is not None and target.is_file():
            return target
    names = bundled_names(bundle)
    hint = did_you_mean(decl.path, names) or "bundled games: " + ", ".join(n for n in names if "/" not in n)
    raise _include_error(decl.span, f"no bundled game or card set is named '{decl.path}'", hint)


def _file_target(decl: ast.Include, path: Path, roots: tuple[Path, ...]) -> Path:
    """The file `include "PATH"` names, relative to the including file, inside `roots`."""
    if any(c in decl.path for c in "*?[") or not decl.path.strip():
        raise _include_error(decl.span, f"include needs one file name, not '{decl.path}'", "name each file")
    target = confined(path.parent, decl.path, roots)
    if target is not None and target.exists():
        return target
    # Only for the error: the bundled games' names are a walk of the bundle's folders, which
    # every include of every load would otherwise pay (The Wall is Down includes eleven files).
    stem = Path(decl.path).name.removesuffix(".game")
    bundled = bundled_names(roots[1:])
    by_name = f"to build on the bundled game, write `include {stem}` (no quotes)" if stem in bundled else None
    if target is None:
        raise _include_error(
            decl.span,
            f"include leaves the game's folder: {decl.path!r}",
            by_name
            or "an included file must be in the game's own folder (or below it); "
            "a bundled game or card set is included by name: include twid",
        )
    raise _include_error(
        decl.span,
        f"include finds no file: {decl.path}",
        by_name or "paths are relative to the including file; a bundled game is included by name: include twid",
    )


def _load_modules(
    path: Path, seen: set[Path], sources: dict[str, str], roots: tuple[Path, ...], span=None, edited=None
) -> list:
    """The declarations of `path` and of every file it includes, depth first.

    `include "PATH"` names one file, relative to the including file, inside the game's own
    folder tree or the bundled games (`roots`): no absolute paths out, no `..` out, no
    globs, no devices. `include NAME` names a bundled game or card set (`roots[1:]`). What
    a game may read is therefore what its folder and the bundle hold.
    `edited` maps a path to a module parsed from an editor's unsaved text, used instead
    of the file on disk."""
    module = edited.get(str(path)) if edited else None
    module = module if module is not None else parse_file(path, span)
    sources[module.path] = module.source
    decls: list = []
    for decl in module.decls:
        if not isinstance(decl, ast.Include):
            decls.append(decl)
            continue
        target = _bundled_target(decl, roots[1:]) if decl.bundled else _file_target(decl, path, roots)
        if target in seen:
            continue
        if len(seen) >= MAX_FILES:
            raise _include_error(decl.span, f"more than {MAX_FILES} files included", "merge some files")
        seen.add(target)
        decls.extend(_load_modules(target, seen, sources, roots, decl.span, edited))
    return decls


def _variants_once(decls: list, errors: list[Diagnostic]) -> dict[str, ast.Variant]:
    """The variants by name; a second variant of a name (a house rule called like one of
    the included game's) is an error, appended to `errors`: `--variant NAME` could only
    ever choose one of them, and the other would be dropped unseen."""
    variants: dict[str, ast.Variant] = {}
    for d in decls:
        if not isinstance(d, ast.Variant):
            continue
        if d.name in variants:
            first = variants[d.name].span
            errors.append(
                Diagnostic(d.span, f"variant '{d.name}' is declared twice", f"the first is at {first}; rename one")
            )
            continue
        variants[d.name] = d
    return variants


def _declared_once(base: list, errors: list[Diagnostic]) -> tuple[dict, list]:
    """The base game's declarations by key (kind, name) and in order; a second one of
    the same key is an error (appended to `errors`) and left out."""
    table: dict = {}
    order: list = []
    for decl in base:
        key = decl_key(decl)
        if key is not None and key in table:
            twice = f"{key[0]} '{key[1]}' is declared twice" if key[0] != "view" else "a game has one view"
            first = table[key].span
            if key[0] == "view":
                hint = f"the first is at {first}; merge the two, or `replace view {{ ... }}` in a variant"
            elif first.path != decl.span.path:  # in an included file: perhaps a bundled game's
                hint = _named_like(key, first)
            else:
                hint = f"the first is at {first}; rename one"
            errors.append(Diagnostic(decl.span, twice, hint))
            continue
        if key is not None:
            table[key] = decl
        order.append(decl)
    return table, order


def load_program(
    path: str | Path, variants: list[str] | tuple[str, ...] = (), edited: dict[str, ast.Module] | None = None
) -> Program:
    """Parse `path` with its includes and apply `variants` in order. `edited`: modules
    parsed from text not yet saved (an editor's buffers), by their resolved path."""
    path = Path(path).resolve()
    sources: dict[str, str] = {}
    roots = read_roots(path)
    decls = _load_modules(path, {path}, sources, roots, None, edited)
    tests = tuple(d for d in decls if isinstance(d, ast.Test))
    decls = [d for d in decls if not isinstance(d, ast.Test)]
    headers = [d for d in decls if isinstance(d, ast.GameHeader)]
    if not headers:
        raise GameDefError(
            [
                Diagnostic(
                    Span(str(path), 1, 1),
                    NO_HEADER,
                    'start the file with: game NAME "Title" { players 2..4 }',
                )
            ]
        )
    errors: list[Diagnostic] = []
    all_variants = _variants_once(decls, errors)
    base = [d for d in decls if not isinstance(d, ast.Variant | ast.Replace | ast.Remove)]
    # `replace`/`remove` outside a variant: an overlay always in force, on what the file
    # and its includes declare (a file that includes a game changes that game's rules)
    overlays = [d for d in decls if isinstance(d, ast.Replace | ast.Remove)]
    table, order = _declared_once(base, errors)
    chosen = _chosen(variants, all_variants)
    removed_rows: list[tuple[ast.Remove, bool]] = []  # `remove card X` may name a table's row, known later
    _overlay(overlays, table, order, errors, removed_rows, "")
    for variant in chosen:
        _overlay(variant.decls, table, order, errors, removed_rows, "variant ")
    if errors:
        raise GameDefError(errors)
    cards = [k[1] for k in table if k[0] == "card"]
    tables = [open_table(d, roots, sources) for d in order if isinstance(d, ast.DataTable | ast.Links)]
    tables = _remove_rows(tables, removed_rows, cards)
    order = with_slot_signatures(extend_cards(order, tables))
    header = table[("game", headers[0].name)] if ("game", headers[0].name) in table else headers[0]
    digest = hashlib.sha256()
    for name in sorted(sources):
        digest.update(_without_tests(sources[name], name, tests).encode())
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
        tests=tests,
        removed=tuple(d for d in [*overlays, *(x for v in chosen for x in v.decls)] if isinstance(d, ast.Remove)),
        replaced=tuple(d for d in [*overlays, *(x for v in chosen for x in v.decls)] if isinstance(d, ast.Replace)),
    )


def _chosen(names: list[str] | tuple[str, ...], all_variants: dict[str, ast.Variant]) -> list[ast.Variant]:
    """The variants asked for, in order, each once; an unknown one, or two that exclude
    each other, refused as the setting the caller gave (a typed error each front end words)."""
    chosen: list[ast.Variant] = []
    for name in names:
        if name not in all_variants:
            raise UnknownVariantError(name, all_variants)
        variant = all_variants[name]
        for other in chosen:
            if other.name in variant.excludes or variant.name in other.excludes:
                raise VariantConflictError(name, other.name)
        if name in [v.name for v in chosen]:
            continue
        chosen.append(variant)
    return chosen


def _overlay(
    decls: tuple | list,
    table: dict,
    order: list,
    errors: list[Diagnostic],
    removed_rows: list[tuple[ast.Remove, bool]],
    who: str,
) -> None:
    """One variant's declarations (`who` "variant "), or the `replace`s and `remove`s
    written outside any variant (`who` ""), laid over the program so far (`table` by name,
    `order` as written): `remove` drops a declaration, `replace` puts its own in the same
    place, and a new one is added; a mistake is added to `errors`, all reported together."""
    for decl in decls:
        if isinstance(decl, ast.Remove):
            key = (decl.kind, decl.name)
            if decl.kind == "card":
                removed_rows.append((decl, key in table))
                if key in table:
                    order.remove(table.pop(key))
                continue
            if key not in table:
                errors.append(
                    Diagnostic(
                        decl.span,
                        f"`remove` names unknown {key[0]} '{key[1]}'"
                        if not who
                        else f"variant removes unknown {key[0]} '{key[1]}'",
                        did_you_mean(key[1], [k[1] for k in table if k[0] == key[0]]),
                    )
                )
                continue
            if not who and _own(table[key], decl, errors, "remove"):
                continue
            order.remove(table.pop(key))
        elif isinstance(decl, ast.Replace):
            replaced = decl_key(decl.decl)
            if replaced is None:  # an invariant, a trigger, a link...: nothing names it
                errors.append(
                    Diagnostic(
                        decl.span,
                        f"`replace` needs a declaration with a name, and {_unnamed(decl.decl)} has none",
                        "drop `replace` to add it; to change a base rule, put it in a named "
                        "procedure, def or query and replace that",
                    )
                )
                continue
            key = replaced
            if key not in table:
                errors.append(
                    Diagnostic(
                        decl.span,
                        f"`replace` names unknown {key[0]} '{key[1]}'"
                        if not who
                        else f"variant replaces unknown {key[0]} '{key[1]}'",
                        did_you_mean(key[1], [k[1] for k in table if k[0] == key[0]])
                        or "to add a new declaration, drop `replace`",
                    )
                )
                continue
            if not who and _own(table[key], decl, errors, "replace"):
                continue
            order[order.index(table[key])] = decl.decl
            table[key] = decl.decl
        else:
            added = decl_key(decl)
            if added is not None and added in table:
                errors.append(
                    Diagnostic(
                        decl.span,
                        f"variant redeclares {added[0]} '{added[1]}'",
                        _named_like(added, table[added].span),
                    )
                )
                continue
            if added is not None:
                table[added] = decl
            order.append(decl)


def _own(base, decl, errors: list[Diagnostic], word: str) -> bool:
    """A `replace` or `remove` outside any variant changes what an included file declares;
    one of a declaration of its own file would leave two versions in one file, one of them
    never read (the designer meant a variant, or an edit): an error, appended; True then."""
    if base.span.path != decl.span.path:
        return False
    kind, name = decl_key(base) or ("declaration", "")
    errors.append(
        Diagnostic(
            decl.span,
            f"`{word}` outside a variant changes what an included file declares, and {kind} '{name}' "
            f"is declared in this file, at line {base.span.line}",
            f"edit it there, or put the `{word}` in a variant to make it a choice: "
            f'`variant NAME "Title" {{ {word} ... }}`',
        )
    )
    return True


def _named_like(key: tuple[str, str], first: Span) -> str:
    """The hint for a new declaration named like one already in the game. A new card is
    one more card, so it needs a name of its own (`replace` would overwrite the game's
    card); a rule of the same name is more likely meant to change the game's, and
    `replace` does that, for every rule that uses it: the hint says so."""
    if key[0] == "card":
        return (
            f"a new card needs a name of its own: choose another name; write `replace` before it "
            f"only to change the card '{key[1]}' at {first} (that changes the game's own card)"
        )
    return (
        f"write `replace` before it to change the {key[0]} '{key[1]}' at {first} (every rule that uses it, "
        f"a card's too, then uses yours), or choose another name for a new {key[0]}"
    )


def _without_tests(text: str, path: str, tests: tuple[ast.Test, ...]) -> str:
    """A file's text less its test blocks: tests are not rules, so adding or editing
    one leaves the rules hash (and what transcripts are checked against) unchanged."""
    cuts = sorted(t.source_range for t in tests if t.span.path == path)
    if not cuts:
        return text
    kept, pos = [], 0
    for start, end in cuts:
        # the blank lines before the block and the end of its last line go with it
        while start > pos and text[start - 1] in " \t\r\n":
            start -= 1
        if start > pos or start > 0:
            newline = text.find("\n", start, end)
            start = end if newline < 0 else newline + 1
        while end < len(text) and text[end] in " \t\r":
            end += 1
        if end < len(text) and text[end] == "\n":
            end += 1
        if start == 0:
            while end < len(text) and text[end] in " \t\r\n":
                end += 1
        kept.append(text[pos:start])
        pos = max(pos, end)
    kept.append(text[pos:])
    return "".join(kept)


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
    out = []
    for i, t in enumerate(tables):
        kept = attrs.evolve(t, removed=t.removed | gone.get(i, set()))
        derived(kept, b"rows removed", (t,), sorted(kept.removed))
        out.append(kept)
    return out


def with_constants(program: Program, constants: dict[str, int | bool]) -> Program:
    """The program with each named `def` constant (a def without parameters) given another
    value, as a variant's `replace def NAME() = VALUE` would: what `gamedef balance --sweep`
    varies when the number to try is written as a def rather than an option. A name that is
    no def, or a def with parameters, is refused with the defs that may be set."""
    defs = {d.name: d for d in program.decls if isinstance(d, ast.Def)}
    constant = sorted(name for name, d in defs.items() if not d.params)
    decls = list(program.decls)
    for name, value in constants.items():
        decl = defs.get(name)
        if decl is None or decl.params:
            what = "takes parameters" if decl is not None else "is not a def of this game"
            raise UsageError(
                f"def {name} {what}: only a def without parameters is a constant to set",
                did_you_mean(name, constant) or "constants: " + ", ".join(constant[:20]),
            )
        body = (
            ast.Bool(span=decl.span, value=value) if isinstance(value, bool) else ast.Int(span=decl.span, value=value)
        )
        decls[decls.index(decl)] = ast.Def(span=decl.span, name=decl.name, params=decl.params, body=body)
    digest = hashlib.sha256((program.rules_hash + repr(sorted(constants.items()))).encode()).hexdigest()[:16]
    return attrs.evolve(program, decls=tuple(decls), rules_hash=digest)
