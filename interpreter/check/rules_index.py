"""`gamedef rules`: every rulebook citation and interpretation note, in file order."""

from __future__ import annotations

from pathlib import Path

from interpreter.core.errors import UsageError
from interpreter.language import syntax as ast
from interpreter.language.program import load_program
from interpreter.language.sources import confined, read_text


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


def summary_text(path: Path, program=None) -> str | None:
    """The game's rules in brief (`summary "FILE"` in its header), read beside the game
    file, confined to its folder like an include; None if the game names none."""
    program = program or load_program(path)
    name = program.header.summary
    if name is None:
        return None
    base = Path(program.header.span.path).parent
    target = confined(base, name, (base.resolve(),))
    if target is None:
        raise UsageError(f"the summary {name!r} is outside the game's folder", "name a file beside the game")
    return read_text(target, "summary").rstrip("\n")


def rules_listing(path: Path, variants: list[str]) -> str:
    program = load_program(path, tuple(variants))
    h = program.header
    out = []
    summary = summary_text(path, program)
    if summary is not None:
        out += [summary, "", "---", "The rules as encoded: every rulebook citation and reading, in file order.", ""]
    out += [f"{h.title}: rulebook {h.rulebook or '(none named)'}", ""]
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
