"""`gamedef rules`: every rulebook citation and interpretation note, in file order."""

from __future__ import annotations

from pathlib import Path

from . import syntax as ast
from .program import load_program


def _walk(stmts, depth: int, out: list[str]) -> None:
    for s in stmts:
        if isinstance(s, ast.Cite):
            out.append("  " * depth + f"§ {s.section}  [{s.span.line}]")
        elif isinstance(s, ast.Note):
            out.append("  " * depth + f"  interpretation: {s.text}  [{s.span.line}]")
        elif isinstance(s, ast.If):
            for _, body in s.branches:
                _walk(body, depth, out)
            if s.otherwise:
                _walk(s.otherwise, depth, out)
        elif isinstance(s, ast.For | ast.While):
            _walk(s.body, depth, out)
        elif isinstance(s, ast.May):
            _walk(s.body, depth, out)
            if s.otherwise:
                _walk(s.otherwise, depth, out)


def _decl(d, out: list[str]) -> None:
    if isinstance(d, ast.Procedure):
        out.append(f"procedure {d.name}  ({Path(d.span.path).name}:{d.span.line})")
        _walk(d.body, 1, out)
    elif isinstance(d, ast.Trigger):
        out.append(f"when {d.event}  ({Path(d.span.path).name}:{d.span.line})")
        _walk(d.body, 1, out)
    elif isinstance(d, ast.Card):
        out.append(f'card {d.name} "{d.title}"  ({Path(d.span.path).name}:{d.span.line})')
        for t in d.triggers:
            _decl(t, out)
        for _, body, _, _ in d.slots:
            _walk(body, 1, out)


def rules_listing(path: Path, variants: list[str]) -> str:
    program = load_program(path, tuple(variants))
    h = program.header
    out = [f"{h.title}: rulebook {h.rulebook or '(none named)'}", ""]
    for d in program.decls:
        if not isinstance(d, ast.Variant):
            _decl(d, out)
    for v in program.all_variants.values():
        active = " (active)" if v in program.variants else ""
        out.append("")
        out.append(f"variant {v.name}: {v.title}{active}")
        for c in v.cites:
            out.append(f"  § {c}")
        for n in v.notes:
            out.append(f"    interpretation: {n}")
        for d in v.decls:
            _decl(d.decl if isinstance(d, ast.Replace) else d, out)
    return "\n".join(out)
