"""What one player may see of a state (docs/architecture.md, principle 4), as plain JSON-able data.

Variables declare who sees them (`seen by all|owner|none`); entity properties declare
when they are visible (`visible when ...`). An entity with a property its viewer may
not see is shown as a dict of the properties it may see, never by its name, since a
name such as "tile-3-Suns-1" would give its face away.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.compile.compiled import CompiledGame
from interpreter.runtime.machine import VM, State


def visible_fields(game: CompiledGame, vm: VM, entity: str, viewer: str | None) -> dict[str, Any] | None:
    """The entity's properties `viewer` sees (None: a spectator), or None if it is entirely visible.

    A `visible when` condition reads `viewer`, so a player may see their own face-down
    cards while the others do not."""
    kind = game.kind_of.get(entity)
    if not kind:
        return None
    groups = game.visibility_groups.get(kind)
    if not groups:
        return None
    hidden: set[str] = set()
    for rule, fields in groups:  # a condition shared by several fields asked once
        if not rule(vm, [entity, viewer]):
            hidden.update(fields)
    if not hidden:
        return None
    decl = game.entity_decls[kind]
    shown: dict[str, Any] = {"of": kind}
    for f in decl.fields:
        if f.name not in hidden:
            shown[f.name] = game.fields.get(f.name, {}).get(entity)
    return shown


def hidden_test(game: CompiledGame, state: State, viewer: str | None):
    """A test telling whether a component has a property `viewer` may not see."""
    vm = VM(game, state)
    return lambda entity: visible_fields(game, vm, entity, viewer) is not None


def value_view(game: CompiledGame, vm: VM, value: Any, viewer: str | None) -> Any:
    """A value as `viewer` may see it: tuples become lists, hidden entities dicts."""
    if isinstance(value, tuple):
        return [value_view(game, vm, v, viewer) for v in value]
    if isinstance(value, str) and value in game.kind_of:
        shown = visible_fields(game, vm, value, viewer)
        return value if shown is None else shown
    return value


def _inner_view(game: CompiledGame, vm: VM, levels: tuple, value: Any, viewer: str | None) -> Any:
    """The inner maps of a map of maps, as dicts, their entries seen as above."""
    if not levels:
        return value_view(game, vm, value, viewer)
    keys, index = levels[0]
    return {
        k: {"hidden": 1}
        if k in game.kind_of and visible_fields(game, vm, k, viewer) is not None
        else _inner_view(game, vm, levels[1:], value[index[k]], viewer)
        for k in keys
    }


def _plain(value: Any) -> Any:
    """`value_view` in a game where no component has a property some viewer may not see:
    tuples become lists, nothing else changes. Observing is what a search's resampling does
    for every world it weighs (resample.py), so the per-value visibility tests it skips count."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _plain_inner(levels: tuple, value: Any) -> Any:
    """`_inner_view` in a game without face-down components (`_plain`)."""
    if not levels:
        return _plain(value)
    keys, index = levels[0]
    rest = levels[1:]
    return {k: _plain_inner(rest, value[index[k]]) for k in keys}


def _hidden(value: Any) -> Any:
    if isinstance(value, tuple):
        return {"hidden": len(value)}
    return {"hidden": 1 if value is not None else 0}


def shown_keys(game: CompiledGame, state: State, info, vm: VM | None = None) -> tuple:
    """The outer keys a map variable shows. A map keyed by `player` shows the seats in play,
    and any other seat whose entry is no longer the starting one: a seat nobody plays may
    still hold things (the superpower left static with three players keeps its influence
    on the map; a solo player moves several seats' pieces)."""
    if info.keys != game.seats:
        return info.keys
    raw = state.vars[info.slot]
    blank = info.default(vm or VM(game, state), [])[0]
    return tuple(k for k in game.seats if k in state.players or raw[info.key_index[k]] != blank)


def observe(game: CompiledGame, state: State, player: str | None) -> dict:
    """The observation of `player` (None: a spectator who sees only public things)."""
    vm = VM(game, state)
    face_down = any(game.visibility.values())  # else every component is seen as its name (`_plain`)
    out: dict[str, Any] = {}
    for info in game.var_order:
        raw = state.vars[info.slot]
        if info.keys is not None:
            keys = shown_keys(game, state, info, vm)
            assert info.key_index is not None  # made with `keys`: a map variable has both
            view = {}
            for k in keys:
                v = raw[info.key_index[k]]
                if info.seen_by == "none" or (info.seen_by == "owner" and k != player):
                    view[k] = _hidden(v)
                elif not face_down:
                    view[k] = _plain_inner(info.levels[1:], v)
                elif k in game.kind_of and visible_fields(game, vm, k, player) is not None:
                    view[k] = {"hidden": 1}  # an entry of a component its viewer may not see
                else:
                    view[k] = _inner_view(game, vm, info.levels[1:], v, player)
            out[info.name] = view
        elif info.seen_by == "all":
            out[info.name] = value_view(game, vm, raw, player) if face_down else _plain(raw)
        else:
            out[info.name] = _hidden(raw)
    pending = state.pending
    obs: dict[str, Any] = {
        "players": list(state.players),
        "to_move": pending.player if pending else None,
        "vars": out,
        "log": [
            game.render_log(e, hidden_test(game, state, player)) for e in state.log if e[0] is None or e[0] == player
        ],
        "result": list(state.result) if state.result is not None else None,
    }
    return obs


def observation_key(game: CompiledGame, state: State, player: str) -> tuple:
    """What `observe` reads of `state` for `player` in a game without face-down components
    (no `visible when`; the caller checks), the values as they are stored: two states with
    equal keys have equal observations. Much cheaper than the observation itself, which
    builds every value again as JSON-able data, so a search that checks many replayed
    worlds against what its seat sees (resample.py) compares keys first and observes only
    a world whose key differs."""
    parts: list[Any] = [state.players, state.pending.player if state.pending else None, state.result]
    parts.append(tuple(e for e in state.log if e[0] is None or e[0] == player))
    vm = None
    for info in game.var_order:
        raw = state.vars[info.slot]
        if info.keys is not None:
            assert info.key_index is not None  # made with `keys`: a map variable has both
            if info.keys == game.seats and vm is None:
                vm = VM(game, state)
            keys = shown_keys(game, state, info, vm)
            if info.seen_by == "all":  # the keys shown and every entry as stored: a pair per key cost more
                parts.append((keys, raw))
                continue
            parts.append(
                tuple(
                    (k, _hidden(raw[info.key_index[k]]))
                    if info.seen_by == "none" or k != player
                    else (k, raw[info.key_index[k]])
                    for k in keys
                )
            )
        elif info.seen_by == "all":
            parts.append(raw)
        else:
            parts.append(_hidden(raw))
    return tuple(parts)


def short_text(game: CompiledGame, vm: VM, value: Any) -> str:
    """A compact glyph for a value, for boards: an entity's `short` template, hidden parts as '?'."""
    if value is None:
        return "."
    if isinstance(value, dict):
        kind = value.get("of")
        if kind is None:  # no kind, no short form (as `short_fns.get(None)` answered)
            return "?"
        fn = game.short_fns.get(kind)
        if fn is None:
            return "?"
        return _short(fn, vm, value)
    if isinstance(value, str) and value in game.kind_of:
        kind = game.kind_of[value]
        fn = game.short_fns.get(kind)
        if fn is None:
            return game.rt.display(value)
        decl = game.entity_decls[kind]
        fields = {f.name: game.fields.get(f.name, {}).get(value) for f in decl.fields}
        return _short(fn, vm, fields)
    return game.rt.display(value)


def _short(parts: list, vm, fields: dict) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        try:
            out.append(vm.game.rt.display(part(vm, [fields])))
        except KeyError:  # the part reads a property its viewer may not see
            out.append("?")
    return "".join(out)


def hidden_components(g: CompiledGame, state: State, viewer: str | None) -> frozenset[str]:
    """The components `viewer` may not see in `state`: those held in variables (or entries)
    it may not read, and those with a property it may not see."""
    vm = VM(g, state)
    hidden: set[str] = set()
    for info in g.var_order:
        raw = state.vars[info.slot]
        if info.keys is not None:
            assert info.key_index is not None
            for k in shown_keys(g, state, info, vm):
                if info.seen_by == "none" or (info.seen_by == "owner" and k != viewer):
                    hidden.update(_components(g.kind_of, raw[info.key_index[k]]))
        elif info.seen_by != "all":
            hidden.update(_components(g.kind_of, raw))
    for entity, kind in g.kind_of.items():
        if g.visibility.get(kind) and visible_fields(g, vm, entity, viewer) is not None:
            hidden.add(entity)
    return frozenset(hidden)


def _components(kinds: dict[str, Any], value: Any) -> Iterator[str]:
    """The components named anywhere in a value (a list, a map's values, a tuple)."""
    if isinstance(value, str):
        if value in kinds:
            yield value
    elif isinstance(value, tuple | list | set | frozenset):
        for v in value:
            yield from _components(kinds, v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _components(kinds, v)
