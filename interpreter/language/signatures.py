"""A card kind's slot signatures, declared once in its entity and given to its cards.

`entity TwidCard { ... slot effect(s: player, by: player, how: Use) }` says what every
TwidCard's `effect` slot takes; a card then writes `effect { ... }` and its body uses
`s`, `by` and `how` as if it had written them out. Filling them in here, on the
assembled program (after the tables have given each card that extends a row its kind,
and after the variants), means the checker and the compiler see every slot with its
parameters, as if each card had written them: nothing downstream needs to know.

A card that writes its own parameters keeps them; the checker compares them with the
declared signature and reports a difference at the card's slot.
"""

from __future__ import annotations

import attrs

from interpreter.language import syntax as ast
from interpreter.language.digests import derived


def declared_slots(decls) -> dict[str, dict[str, ast.SlotSignature]]:
    """Each entity's declared slot signatures: kind -> slot name -> signature (the first
    of a name; the checker reports a second)."""
    out: dict[str, dict[str, ast.SlotSignature]] = {}
    for d in decls:
        if isinstance(d, ast.Entity) and d.slots:
            kind = out.setdefault(d.name, {})
            for sig in d.slots:
                kind.setdefault(sig.name, sig)
    return out


def with_slot_signatures(decls: list) -> list:
    """The declarations, each card's bare slots given the parameters its kind declares
    for them. A bare slot its kind declares nothing for keeps no parameters, as before."""
    declared = declared_slots(decls)
    if not declared:
        return decls
    out = []
    for d in decls:
        sigs = declared.get(d.kind) if isinstance(d, ast.Card) and d.bare_slots else None
        if sigs is None or not any(name in sigs for name in d.bare_slots):
            out.append(d)
            continue
        out.append(_signed(d, sigs))
    return out


_SIGNED: dict[int, tuple[ast.Card, tuple, ast.Card]] = {}  # card id -> the card, the parameters given, the card made
MAX_SIGNED = 10_000


def _signed(d: ast.Card, sigs: dict) -> ast.Card:
    """The card `d` with its bare slots given the parameters its kind declares; the same
    object for the same card and parameters (the trees a process reads are kept,
    treecache.py), so the programs of one file's variants share it and its digest is made
    once (gamecache.py)."""
    given = tuple(sigs[name].params if name in sigs and name in d.bare_slots else None for name, *_ in d.slots)
    known = _SIGNED.get(id(d))
    if known is not None and known[0] is d and len(known[1]) == len(given):
        if all(a is b for a, b in zip(known[1], given, strict=True)):
            return known[2]
    if len(_SIGNED) >= MAX_SIGNED:
        _SIGNED.clear()
    slots = tuple(
        (name, body, span, params if new is None else new)
        for (name, body, span, params), new in zip(d.slots, given, strict=True)
    )
    made = attrs.evolve(d, slots=slots)  # type: ignore[misc]  # syntax.frozen is attrs, unseen by mypy
    derived(made, b"signed", (d,), given)
    _SIGNED[id(d)] = (d, given, made)
    return made


def type_text(t: ast.TypeExpr) -> str:
    """A type as it is written (`list Country?`), to compare and to show signatures."""
    if isinstance(t, ast.NamedType):
        return t.name
    if isinstance(t, ast.OptionalType):
        return type_text(t.inner) + "?"
    if isinstance(t, ast.ListType):
        return "list " + type_text(t.element)
    if isinstance(t, ast.MapType):
        return f"{type_text(t.key)} -> {type_text(t.value)}"
    return "?"


def params_text(params: tuple[ast.Param, ...]) -> str:
    """Parameters as they are written: `s: player, by: player, how: Use`."""
    return ", ".join(f"{p.name}: {type_text(p.type)}" for p in params)
