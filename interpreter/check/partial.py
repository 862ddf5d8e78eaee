"""Checking what parsed of files with syntax errors, so that one slip does not hide the rest.

The parser leaves a broken declaration out and reads on (`SyntaxErrors.module`); here the
program is assembled from those partial files and checked as usual. What the checker then
says about a name a broken declaration declared ("unknown function 'f'" where `def f` did
not parse) is only the echo of the syntax error and is left out; if a broken declaration
was one others are built on (an entity, an enum, a table, the header), the check is not
run at all: its errors would mostly be echoes.
"""

from __future__ import annotations

import re
from pathlib import Path

from interpreter.check.checker import check_program
from interpreter.core.errors import Diagnostic, GameDefError
from interpreter.core.limits import MAX_FILES
from interpreter.language import syntax as ast
from interpreter.language.parser import SyntaxErrors
from interpreter.language.program import NO_HEADER, load_program


def with_the_rest_checked(
    path: str | Path, first: SyntaxErrors, edited: dict[str, ast.Module] | None = None
) -> list[Diagnostic]:
    """The syntax errors of the game at `path` (`first`: those of the first broken file met,
    then of any other file it includes) and the check's errors in what parsed, in order of
    file and position. `edited`: files read from these trees rather than from disk (the
    language server's unsaved documents)."""
    broken = {first.module.path: first}
    given = {p: m for p, m in (edited or {}).items() if p not in broken}
    found: dict[tuple, Diagnostic] = {(d.span, d.message): d for d in first.diagnostics}
    program = None
    while program is None and len(broken) <= MAX_FILES:
        try:
            program = load_program(path, (), {**given, **{p: e.module for p, e in broken.items()}})
        except SyntaxErrors as err:
            if err.module.path in broken:
                break
            broken[err.module.path] = err
            found.update({(d.span, d.message): d for d in err.diagnostics})
        except GameDefError as err:
            _add(found, err.diagnostics, broken.values())
            break
    if program is not None and all(e.whole for e in broken.values()):
        trees = {**given, **{p: e.module for p, e in broken.items()}}
        variants: list[str]
        for variants in [[]] + [[v] for v in program.all_variants]:
            try:
                check_program(program if not variants else load_program(path, variants, trees))
            except GameDefError as err:
                _add(found, err.diagnostics, broken.values())
    return sorted(found.values(), key=lambda d: (d.span.path, d.span.line, d.span.column))


def _add(found: dict[tuple, Diagnostic], diagnostics, broken) -> None:
    """The errors among `diagnostics` that are not echoes of a broken declaration."""
    lost_header = any(_header_lost(e) for e in broken)
    for d in diagnostics:
        if lost_header and d.message == NO_HEADER:
            continue  # the header is there, broken (`players 2`): its syntax error says what is wrong
        if d.severity == "error" and not any(e.explains(d) for e in broken):
            found.setdefault((d.span, d.message), d)


def _header_lost(broken: SyntaxErrors) -> bool:
    """Did a syntax error leave out the file's `game` header (written, but not parsed)?"""
    if any(isinstance(d, ast.GameHeader) for d in broken.module.decls):
        return False
    return re.search(r"(?m)^[ \t]*game[ \t]+[A-Za-z_]\w*", broken.module.source) is not None
