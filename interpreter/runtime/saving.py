"""States and transcripts as TOML, readable and editable by hand.

A saved state names its variables, frames and decision point by name, so a designer
can write a scenario by editing one. TOML has no null: `none` is written as `{}`.
Transcripts are an attrs class checked by cattrs when read, so a malformed file gets
a message naming the bad field instead of a traceback.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

import attrs
import tomli_w

from interpreter.check.checker import local_types
from interpreter.check.types import ListOf, Maybe, Named, NoneType, Type
from interpreter.compile.queries import GRANTS
from interpreter.core.errors import GameDefError, SavedStateError, UsageError, did_you_mean, explain
from interpreter.core.limits import MAX_INT, MAX_LIST, MAX_NESTING
from interpreter.core.links import ADDED
from interpreter.language import syntax as ast
from interpreter.language.sources import read_text, toml_too_deep
from interpreter.runtime.game import Game
from interpreter.runtime.machine import VM, Pending, State

if TYPE_CHECKING:
    import cattrs


def _enc(v: Any) -> Any:
    if v is None:
        return {}
    if isinstance(v, tuple | list):
        return [_enc(x) for x in v]
    return v


def _dec(v: Any) -> Any:
    if isinstance(v, dict) and not v:
        return None
    if isinstance(v, list):
        return tuple(_dec(x) for x in v)
    return v


def _enc_map(levels: tuple, value: Any) -> Any:
    """A map variable as a table keyed by name (a map of maps as nested tables)."""
    if not levels:
        return _enc(value)
    keys, index = levels[0]
    return {k: _enc_map(levels[1:], value[index[k]]) for k in keys}


def _dec_map(levels: tuple, data: Any) -> Any:
    if not levels:
        return _dec(data)
    keys, _ = levels[0]
    if not isinstance(data, dict):
        raise TypeError(f"expected a table keyed by {', '.join(keys[:4])}...")
    return tuple(_dec_map(levels[1:], data.get(k, {} if len(levels) == 1 else {})) for k in keys)


def state_to_dict(game: Game, state: State) -> dict:
    g = game.compiled
    out: dict[str, Any] = {
        "game": game.name,
        "variants": list(game.variants),
        "options": dict(game.options),
        "rules_hash": game.rules_hash,
        "players": list(state.players),
        "rng": f"{state.rng:#018x}",
        "pins": list(state.pins),
        "decisions": state.decisions,
    }
    if state.result is not None:
        out["result"] = list(state.result)
    variables = {info.name: _enc_map(info.levels, state.vars[info.slot]) for info in g.var_order}
    out["vars"] = variables
    out["frames"] = [{"code": g.codes[c].name, "step": pc, "locals": _enc(locs)} for c, pc, locs in state.frames]
    out["log"] = [[_enc(aud), fmt, _enc(values)] for aud, fmt, values in state.log]
    if state.pending is not None:
        p = state.pending
        out["pending"] = {"player": p.player, "values": _enc(p.values), "slot": p.slot, "choice": p.choice}
    return out


class _Bad(Exception):
    """One field of a saved state that does not fit the game: its name and why."""

    def __init__(self, field: str, message: str, hint: str | None = None, saved: Any = None, loaded: Any = None):
        self.field, self.message, self.hint = field, message, hint
        self.saved, self.loaded = saved, loaded  # a state of another game, variants or options: with what
        super().__init__(message)


def _need(ok: bool, field: str, message: str, hint=None) -> None:
    """Refuse `field` unless `ok`; the hint may be a function, worked out only then
    (a did-you-mean over a large type is too slow to make for every value that fits)."""
    if not ok:
        raise _Bad(field, message, hint() if callable(hint) else hint)


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _plain(v: Any, field: str, depth: int = 0) -> None:
    """A value the engine can hold: a number within the limits, a truth, a text, none
    or a list of these."""
    _need(depth <= MAX_NESTING, field, "values nested too deeply")
    if v is None or isinstance(v, bool):
        return
    if _is_int(v):
        _need(-MAX_INT <= v <= MAX_INT, field, f"the number {v} is past the limit of {MAX_INT:,}")
    elif isinstance(v, str):
        _need(len(v) <= MAX_LIST, field, "a text longer than the limit")
    elif isinstance(v, tuple):
        _need(len(v) <= MAX_LIST, field, "a list longer than the limit")
        for x in v:
            _plain(x, field, depth + 1)
    else:
        raise _Bad(field, f"{v!r} is not a number, truth, text, list or none")


class _TypedValues:
    """Checks a saved variable's value against its declared type."""

    def __init__(self, game: Game, seats: tuple[str, ...] = ()):
        self.g = game.compiled
        self.members = {name: frozenset(values) for name, values in self.g.types.items()}
        self.seats = frozenset(seats)

    def misfit(self, t: Type, v: Any) -> str | None:
        """Why `v` is not a value of the checker's type `t` (check/types.py), or None.
        `any` and types the checker leaves open fit everything."""
        if isinstance(t, Maybe):
            return None if v is None else self.misfit(t.inner, v)
        if isinstance(t, ListOf):
            if not isinstance(v, tuple):
                return f"expected a list, not {v!r}"
            return next((why for x in v if (why := self.misfit(t.item, x)) is not None), None)
        if isinstance(t, NoneType):
            return None if v is None else f"expected none, not {v!r}"
        if not isinstance(t, Named):
            return None
        name = t.name
        if name == "int":
            return None if _is_int(v) else f"expected a number, not {v!r}"
        if name == "bool":
            return None if isinstance(v, bool) else f"expected true or false, not {v!r}"
        if name == "str":
            return None if isinstance(v, str) else f"expected a text, not {v!r}"
        if name == "player":
            return None if v in self.seats else f"{v!r} is not a seat in play ({', '.join(sorted(self.seats))})"
        if name in self.members:
            return None if isinstance(v, str) and v in self.members[name] else f"{v!r} is not a {name}"
        return None

    def check(self, t: ast.TypeExpr, v: Any, field: str) -> None:
        if isinstance(t, ast.OptionalType):
            if v is not None:
                self.check(t.inner, v, field)
        elif isinstance(t, ast.ListType):
            _need(isinstance(v, tuple), field, f"expected a list, not {v!r}")
            _need(len(v) <= MAX_LIST, field, "a list longer than the limit")
            for x in v:
                self.check(t.element, x, field)
        elif isinstance(t, ast.NamedType):
            name = t.name
            if name == "int":
                _need(_is_int(v), field, f"expected a number, not {v!r}")
                _plain(v, field)
            elif name == "bool":
                _need(isinstance(v, bool), field, f"expected true or false, not {v!r}")
            elif name == "str":
                _need(isinstance(v, str), field, f"expected a text, not {v!r}")
                _plain(v, field)
            elif name in self.g.types:
                allowed = self.g.types[name]
                _need(
                    isinstance(v, str) and v in self.members[name],
                    field,
                    f"{v!r} is not a {name}",
                    lambda: (
                        (did_you_mean(v, allowed) if isinstance(v, str) else None)
                        or f"a {name} is one of: {', '.join(allowed[:6])}{', ...' if len(allowed) > 6 else ''}"
                    ),
                )
            else:
                _plain(v, field)


def _decode_var(info, data: Any, values: _TypedValues, field: str) -> Any:
    """A saved variable's value: a map as nested tables keyed by name, each value typed."""
    t = info.decl.type
    levels = info.levels

    def level(i: int, t, d: Any, where: str) -> Any:
        if i == len(levels):
            v = _dec(d)
            values.check(t, v, where)
            return v
        keys, index = levels[i]
        _need(isinstance(d, dict), where, f"expected a table keyed by {', '.join(map(str, keys[:4]))}, ...")
        unknown = [k for k in d if k not in index]
        _need(
            not unknown,
            where,
            f"no key {unknown[:1]!r} here",
            lambda: did_you_mean(str(unknown[:1][0]), keys) if unknown else None,
        )
        missing = [k for k in keys if k not in d]
        _need(not missing, f"{where}.{missing[0] if missing else ''}", "missing", "save a state to see every field")
        return tuple(level(i + 1, t.value, d[k], f"{where}.{k}") for k in keys)

    return level(0, t, data, field)


def _holds(t: ast.TypeExpr, kinds: set[str]) -> str | None:
    """'one' or 'list' if a value of type `t` holds components of an entity kind (a card,
    a piece: what moves from place to place; not a grid cell or a seat), else None."""
    if isinstance(t, ast.OptionalType):
        t = t.inner
    if isinstance(t, ast.NamedType) and t.name in kinds:
        return "one"
    if isinstance(t, ast.ListType) and isinstance(t.element, ast.NamedType) and t.element.name in kinds:
        return "list"
    return None


def misplaced(game: Game, values: tuple | list) -> tuple[str, str] | None:
    """The first component found in two places, as (the field of its second place, why),
    or None. A place is a variable declared a `zone` (`var deck: list Card = [] zone`),
    or an entry of one (`var hand: player -> list Card = [] zone`); a component is in at
    most one place, and once in a list: a card dealt to two hands is an edited file.
    Only zones count: a variable that names a component (the card being played, an
    army's city) is a reference, and may name what is also in a zone."""
    g = game.compiled
    kinds = set(g.kind_of.values())
    seen: dict[str, str] = {}
    for info in g.var_order:
        if not getattr(info.decl, "zone", False):
            continue
        t = info.decl.type
        for _ in info.levels:
            assert isinstance(t, ast.MapType)  # a map variable's type has one map per level of keys
            t = t.value
        holds = _holds(t, kinds)
        if holds is None:
            continue
        found = _first_twice(g.kind_of, info.levels, holds, seen, values[info.slot], f"vars.{info.name}")
        if found:
            return found
    return None


def _first_twice(
    kind_of: dict, levels: tuple, holds: str, seen: dict[str, str], value: Any, field: str
) -> tuple[str, str] | None:
    """Walks one zone variable's value (a map per level of keys, then a component or a list
    of them), recording where each component is in `seen`; the first one seen twice, as
    (its field, why), or None."""
    if levels:
        for key, inner in zip(levels[0][0], value, strict=False):
            found = _first_twice(kind_of, levels[1:], holds, seen, inner, f"{field}.{key}")
            if found:
                return found
        return None
    items = value if holds == "list" else (value,)
    for n, item in enumerate(items):
        if item is None or item not in kind_of:
            continue
        where = f"{field}[{n}]" if holds == "list" else field
        if item in seen:
            return where, f"{item!r} is also at {seen[item]}: a {kind_of[item]} is in one place at a time"
        seen[item] = where
    return None


@functools.lru_cache(maxsize=8)
def _local_types(compiled) -> dict[str, dict[str, Type]]:
    """The types of each procedure's locals, as the checker derives them (one game's)."""
    return local_types(compiled.program)


def _local_field(field: str, i: int, name: str, proc: str, code_name: str) -> str:
    """`frames[0].locals[4] (p in turn)`: a local by its index and its name in the rules."""
    if not name:
        return f"{field}[{i}]"
    return f"{field}[{i}] ({name}{'' if proc == code_name else f' in {proc}'})"


def _typed_locals(game: Game, code, locals_: tuple, field: str, values: _TypedValues) -> None:
    """Each local of a running procedure (its own and those of the procedures inlined in
    it) holds none (not yet bound) or a value of the type the checker derives for it: a
    seat where a player is, a list of cards where `hand` is. A local of no sure type (bound
    twice with two types, or of a type the checker leaves open) is not checked."""
    types = _local_types(game.compiled)
    for i, (value, (name, proc)) in enumerate(zip(locals_, code.local_names, strict=False)):
        if value is None or not name:
            continue
        t = types.get(proc, {}).get(name)
        if t is not None:
            why = values.misfit(t, value)
            _need(why is None, _local_field(field, i, name, proc, code.name), why or "")


def out_of_bounds(game: Game, values: tuple | list) -> tuple[str, str] | None:
    """The first number outside its variable's declared bounds (`var vp: player -> int = 0
    from 0 to 20`), as (its field, why), or None. Every number the variable holds counts:
    each entry of a map, each item of a list."""
    g = game.compiled
    for info in g.var_order:
        bounds = getattr(info.decl, "bounds", None)
        if bounds is None:
            continue
        found = _first_outside(info.name, bounds, info.levels, values[info.slot], f"vars.{info.name}")
        if found:
            return found
    return None


def _first_outside(name: str, bounds: tuple, levels: tuple, value: Any, field: str) -> tuple[str, str] | None:
    """Walks one bounded variable's value (a map per level of keys, then a number or a list
    of them); the first number outside `bounds`, as (its field, why), or None."""
    if levels:
        for key, inner in zip(levels[0][0], value, strict=False):
            found = _first_outside(name, bounds, levels[1:], inner, f"{field}.{key}")
            if found:
                return found
        return None
    low, high = bounds
    for n, item in enumerate(value if isinstance(value, tuple) else (value,)):
        if _is_int(item) and not low <= item <= high:
            where = f"{field}[{n}]" if isinstance(value, tuple) else field
            return where, f"{item} is outside the bounds of '{name}', {low} to {high}"
    return None


@functools.lru_cache(maxsize=8)
def _invariant_reads(compiled) -> dict[tuple, tuple[str, ...]]:
    """The variables each `invariant` reads, by its span, in the order they are first
    named (through the defs and queries it calls): where in a state file the values that
    break it are (one game's)."""
    program = compiled.program
    bodies = {d.name: d.body for d in program.decls if isinstance(d, ast.Def)}
    bodies.update({d.name: d.base for d in program.decls if isinstance(d, ast.Query)})
    variables = set(compiled.vars)

    def reads(node: Any, found: dict[str, None], called: set[str]) -> None:
        if isinstance(node, ast.Name) and node.id in variables:
            found[node.id] = None
        if isinstance(node, ast.Call) and node.func in bodies and node.func not in called:
            called.add(node.func)
            reads(bodies[node.func], found, called)
        if isinstance(node, tuple | list):
            for x in node:
                reads(x, found, called)
        elif attrs.has(type(node)):
            for f in attrs.fields(type(node)):
                if f.name != "span":
                    reads(getattr(node, f.name), found, called)

    out = {}
    for d in program.decls:
        if isinstance(d, ast.Invariant):
            found: dict[str, None] = {}
            reads(d.value, found, set())
            out[_span_key(d.span)] = tuple(found)
    return out


def _span_key(span: Any) -> tuple:
    return (span.path, span.line, span.column)


def broken_invariant(game: Game, state: State) -> tuple[str, str] | None:
    """The first `invariant` of the game that `state` breaks, as ("invariant", why), or
    None. An invariant that can't be evaluated from these values breaks too. `why` names
    the variables the invariant reads (`vars.laid`): the values to look at in a state file,
    one of which is wrong."""
    for invariant in game.compiled.invariants:
        text, fn, span = invariant.rule, invariant.check, invariant.span
        where = f"{Path(span.path).name}:{span.line}"
        names = _invariant_reads(game.compiled).get(_span_key(span), ())
        reads = f" (it reads {', '.join(f'vars.{n}' for n in names)})" if names else ""
        try:
            holds = fn(VM(game.compiled, state, reading=True), [])
        except GameDefError as err:
            return "invariant", f"{text!r} ({where}) can't be evaluated: {err.diagnostics[0].message}{reads}"
        except Exception as exc:  # a value of the wrong kind, read by the invariant
            return "invariant", f"{text!r} ({where}) can't be evaluated: {explain(exc)}{reads}"
        if holds is not True:
            return "invariant", f"{text!r} ({where}) does not hold{reads}"
    return None


def violations(game: Game, state: State) -> list[tuple[str, str]]:
    """Every invariant of the game `state` breaks, each as (the field or "invariant", why):
    a component in two places (zones), a number outside its bounds, a declared
    `invariant` that does not hold. A state the game reached by its own moves has none;
    tests check this after every move of random games."""
    found = [misplaced(game, state.vars), out_of_bounds(game, state.vars), broken_invariant(game, state)]
    return [f for f in found if f is not None]


def _typed_options(game: Game, code, slot: int, options: tuple, values: _TypedValues) -> None:
    """The options of the pending decision are values of the local that takes the answer
    (`choose c from hand[p]`: cards), when its type is sure."""
    name, proc = code.local_names[slot] if slot < len(code.local_names) else ("", "")
    t = _local_types(game.compiled).get(proc, {}).get(name) if name else None
    if t is None:
        return
    for n, option in enumerate(options):
        why = values.misfit(t, option)
        _need(why is None, f"pending.values[{n}]", f"an option of {name}: {why}")


def _engine_vars(g, values: list) -> None:
    """The variables the engine keeps for the game: stated modifiers and added links."""
    if GRANTS in g.vars:
        field = f"vars.{GRANTS}"
        for grant in values[g.vars[GRANTS].slot]:
            ok = isinstance(grant, tuple) and len(grant) == 4
            mid, captured, until, once = grant if ok else (None, None, None, None)
            ok = ok and _is_int(mid) and 0 <= mid < len(g.modifier_list)
            ok = ok and isinstance(captured, tuple) and len(captured) == g.modifier_list[mid].captured
            ok = ok and (until is None or until in g.event_decls) and isinstance(once, bool)
            _need(
                ok, field, f"{grant!r} is not a modifier in force of this game", "[modifier, [captured], event, once]"
            )
    if ADDED in g.vars:
        nodes = set(g.rt.links) | set(g.kind_of)
        for link in values[g.vars[ADDED].slot]:
            ok = isinstance(link, tuple) and len(link) == 3 and all(x in nodes for x in link[:2])
            ok = ok and (link[2] is None or link[2] in g.constants)
            _need(ok, f"vars.{ADDED}", f"{link!r} is not a link of this game", "[[node, node, kind or {}], ...]")


def state_from_dict(game: Game, data: dict, where: str = "state") -> State:
    """A saved state checked for meaning against `game`: every field that does not fit
    (another game, unknown seats, a variable of the wrong type, a frame or pending
    decision the compiled game does not have) is a UsageError naming that field."""
    try:
        return _state_from_dict(game, data)
    except RecursionError:
        raise SavedStateError(f"{where}: values nested too deeply") from None
    except _Bad as bad:
        raise SavedStateError(
            f"{where}: {bad.field}: {bad.message}", bad.hint, bad.field, bad.saved, bad.loaded
        ) from None


def _state_from_dict(game: Game, data: dict) -> State:
    """A saved state read back, every field checked against the game (each check names
    the field it refuses): the header (game, variants, options, seats, random state), the
    variables, the running procedures, the pending decision and the last move's log."""
    _need(isinstance(data, dict), "state", "not a table")
    seats, rng_value, pins, decisions, result = _header(game, data)
    checker = _TypedValues(game, seats)
    values = _variables(game, data, checker)
    frames = _frames(game, data, checker)
    _need(bool(frames) or result is not None, "frames", "no procedure is running and the game has no result")
    _need(not frames or result is None, "result", "a finished game has no running procedures")
    pending = _pending(game, data, seats, frames, checker)
    _need(pending is not None or result is not None, "pending", "missing: a game not over waits for a decision")
    _need(pending is None or result is None, "pending", "a finished game waits for no decision")
    log = _log(game, data, seats)
    state = State(
        players=seats,
        vars=tuple(values),
        frames=tuple(frames),
        pending=pending,
        rng=rng_value,
        pins=tuple(_dec(x) for x in pins),
        result=result,
        log=tuple(log),
        decisions=decisions,
    )
    broken = broken_invariant(game, state)
    _need(broken is None, *(broken or ("", "")), "every position the rules reach keeps it")
    if pending is not None:  # the decision must be one the game can show
        try:
            game.labels(state)
            game.prompt(state)
        except Exception as exc:  # a value of the wrong kind for this decision
            raise _Bad("pending", f"the decision can't be shown from these values: {explain(exc)}") from None
        _goes_on(game, state)
    return state


def _header(game: Game, data: dict) -> tuple[tuple[str, ...], int, list, int, tuple | None]:
    """The saved state's header checked against the game (its name, variants, options
    and rules) and read: its seats, random state, pins, decisions and result."""
    name = data.get("game")
    if name != game.name:
        if not isinstance(name, str):
            raise _Bad("game", "missing or not a text")
        raise _Bad(
            "game", f"this state is from {name!r}, not {game.name!r}", "load it with its own game", name, game.name
        )
    variants = data.get("variants", [])
    if not (isinstance(variants, list) and tuple(variants) == tuple(game.variants)):
        raise _Bad(
            "variants",
            f"the state was saved with variants {variants!r}, the game is loaded with {list(game.variants)!r}",
            "load the game with the variants it was saved with",
            variants,
            list(game.variants),
        )
    options = data.get("options", {})
    _need(isinstance(options, dict), "options", "expected a table")
    differ = sorted(k for k in set(options) | set(game.options) if options.get(k) != game.options.get(k))
    if differ:
        raise _Bad(
            "options",
            f"the state was saved with other options ({', '.join(map(str, differ))})",
            "load the game with the options it was saved with",
            options,
            dict(game.options),
        )
    frames_data = data.get("frames", [])
    _need(isinstance(frames_data, list), "frames", "expected a list of frames")
    saved_hash = data.get("rules_hash")
    _need(
        saved_hash is None or saved_hash == game.rules_hash or not frames_data,
        "rules_hash",
        f"the state was saved by other rules ({saved_hash}; these are {game.rules_hash}): "
        "its running procedures can't be matched",
        "save the state again with the current rules, or delete rules_hash to load it anyway",
    )
    players = data.get("players")
    _need(
        isinstance(players, list) and all(isinstance(p, str) for p in players),
        "players",
        "expected a list of seat names",
    )
    assert isinstance(players, list)  # refused above otherwise
    try:
        seats = game.seats_for(len(players))
    except UsageError as err:
        raise _Bad("players", err.message, err.hint) from None
    _need(tuple(players) == seats, "players", f"with {len(players)} players the seats are {', '.join(seats)}", None)
    rng_text = data.get("rng")
    try:
        rng_value = int(rng_text, 16) if isinstance(rng_text, str) else None
    except ValueError:
        rng_value = None
    _need(
        rng_value is not None and 0 <= rng_value < 2**64, "rng", "expected a hexadecimal number of 64 bits, like 0x1f"
    )
    assert rng_value is not None  # refused above otherwise
    pins = data.get("pins", [])
    _need(isinstance(pins, list) and len(pins) <= MAX_LIST, "pins", "expected a list of results")
    for x in pins:
        _plain(_dec(x), "pins")
    decisions = data.get("decisions", 0)
    _need(_is_int(decisions) and 0 <= decisions <= MAX_INT, "decisions", "expected a whole number of 0 or more")
    result = data.get("result")
    if result is not None:
        _need(
            isinstance(result, list) and all(r in seats for r in result), "result", "expected a list of seats in play"
        )
        result = tuple(result)
    return seats, rng_value, pins, decisions, result


def _variables(game: Game, data: dict, checker: _TypedValues) -> list:
    """The saved variables, by slot: each of the game's, of its type, none unknown, and
    together a position the rules allow (no component in two places, within bounds)."""
    g = game.compiled
    saved_vars = data.get("vars")
    _need(isinstance(saved_vars, dict), "vars", "expected a table of variables")
    assert isinstance(saved_vars, dict)  # refused above otherwise
    values: list = [None] * len(g.var_order)
    for info in g.var_order:
        _need(info.name in saved_vars, f"vars.{info.name}", "missing", "save a state to see every field")
        values[info.slot] = _decode_var(info, saved_vars[info.name], checker, f"vars.{info.name}")
    _engine_vars(g, values)
    twice = misplaced(game, values)
    _need(twice is None, *(twice or ("", "")), "a component leaves one place as it enters another")
    outside = out_of_bounds(game, values)
    _need(outside is None, *(outside or ("", "")), "the rules keep it within its bounds")
    extra = [k for k in saved_vars if k not in g.vars]
    _need(
        not extra,
        f"vars.{extra[0] if extra else ''}",
        "no such variable in this game",
        lambda: did_you_mean(extra[0], g.vars) if extra else None,
    )
    return values


def _frames(game: Game, data: dict, checker: _TypedValues) -> list[tuple[int, int, tuple]]:
    """The running procedures, outermost first: each a step of one of the game's codes,
    with as many locals as it has, of the types its rules give them."""
    g = game.compiled
    frames_data = data.get("frames", [])
    codes = {c.name: c for c in g.codes}
    frames: list[tuple[int, int, tuple]] = []  # (code index, step, locals), as in a State
    for i, f in enumerate(frames_data):
        field = f"frames[{i}]"
        _need(isinstance(f, dict), field, "expected a table with code, step and locals")
        code = codes.get(f.get("code")) if isinstance(f.get("code"), str) else None
        _need(
            code is not None,
            f"{field}.code",
            f"no procedure {f.get('code')!r} in this game",
            lambda f=f: did_you_mean(str(f.get("code")), codes),
        )
        assert code is not None  # refused above otherwise
        step = f.get("step")
        _need(
            _is_int(step) and 0 <= step < len(code.ops),
            f"{field}.step",
            f"expected a step from 0 to {len(code.ops) - 1}",
        )
        locals_ = _dec(f.get("locals"))
        _need(
            isinstance(locals_, tuple) and len(locals_) == code.nlocals,
            f"{field}.locals",
            f"expected a list of {code.nlocals} values",
        )
        _plain(locals_, f"{field}.locals")
        _typed_locals(game, code, locals_, f"{field}.locals", checker)
        if code.result_slot is not None:  # the caller's slot that receives the returned value
            dest = locals_[code.result_slot]
            _need(
                dest is None or (bool(frames) and _is_int(dest) and 0 <= dest < len(frames[-1][2])),
                f"{field}.locals",
                f"value {code.result_slot} is where the result goes: a slot of the calling procedure, or none",
            )
        frames.append((code.index, step, locals_))
    return frames


def _pending(game: Game, data: dict, seats: tuple[str, ...], frames: list, checker: _TypedValues) -> Pending | None:
    """The decision the state waits for, if any: a seat in play, options of the kinds the
    decision offers, in a slot and a decision of the running procedure."""
    g = game.compiled
    pending = None
    if "pending" in data:
        p = data["pending"]
        _need(isinstance(p, dict), "pending", "expected a table with player, values, slot and choice")
        _need(bool(frames), "pending", "a decision needs a running procedure")
        _need(p.get("player") in seats, "pending.player", f"{p.get('player')!r} is not a seat in play")
        pvalues = _dec(p.get("values"))
        _need(isinstance(pvalues, tuple) and len(pvalues) > 0, "pending.values", "expected a non-empty list of options")
        _plain(pvalues, "pending.values")
        slot, choice = p.get("slot"), p.get("choice")
        _need(_is_int(slot) and 0 <= slot < len(frames[-1][2]), "pending.slot", "not a slot of the running procedure")
        _need(
            _is_int(choice) and 0 <= choice < len(g.choices) and g.choices[choice].code == frames[-1][0],
            "pending.choice",
            "not a decision of the running procedure",
        )
        _typed_options(game, g.codes[frames[-1][0]], slot, pvalues, checker)
        pending = Pending(p["player"], pvalues, slot, choice)
    return pending


def _log(game: Game, data: dict, seats: tuple[str, ...]) -> list[tuple]:
    """The last move's log: lines of this game's formats, each with its values."""
    g = game.compiled
    log = []
    log_data = data.get("log", [])
    _need(isinstance(log_data, list), "log", "expected a list of [audience, format, values]")
    for i, entry in enumerate(log_data):
        field = f"log[{i}]"
        _need(isinstance(entry, list) and len(entry) == 3, field, "expected [audience, format, values]")
        aud, fmt, vals = _dec(entry[0]), entry[1], _dec(entry[2])
        _need(aud is None or aud in seats, f"{field}[0]", "the audience is a seat in play or {} for everyone")
        _need(_is_int(fmt) and 0 <= fmt < len(g.formats), f"{field}[1]", "not a log line of this game")
        holes = sum(1 for part in g.formats[fmt].parts if part is None)
        _need(isinstance(vals, tuple) and len(vals) == holes, f"{field}[2]", f"expected {holes} values")
        _plain(vals, f"{field}[2]")
        log.append((aud, fmt, vals))
    return log


def _goes_on(game: Game, state: State) -> None:
    """Refuse a state the game can't play on from: its first option is tried up to the
    next decision, which runs the suspended frames with their saved locals (a local of
    the wrong kind, a list turned into a text, fails there: named here, not in the
    middle of a game). The frames' locals carry no declared types to check them by."""
    try:
        game.apply_index(state, 0)
    except GameDefError as err:
        d = err.diagnostics[0]
        where = f"{Path(d.span.path).name}:{d.span.line}: " if d.span.line else ""
        frame = len(state.frames) - 1
        raise _Bad(
            f"frames[{frame}].locals",
            f"the game can't go on from these values (its first option fails at {where}{d.message})",
        ) from None


def save_state(game: Game, state: State, path: str | Path) -> None:
    Path(path).write_text(tomli_w.dumps(state_to_dict(game, state)), encoding="utf-8")


def read_toml(path: str | Path, what: str) -> dict:
    text = read_text(path, f"{what} file")
    deep = toml_too_deep(text)
    if deep is not None:
        raise UsageError(f"{path}:{deep}: values nested too deeply", f"fix the {what} file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}", f"fix the {what} file's syntax") from None
    except RecursionError:
        raise UsageError(f"{path}: values nested too deeply", f"fix the {what} file") from None
    except ValueError as exc:  # a number of thousands of digits
        raise UsageError(f"{path}: a value can't be read: {exc}", f"fix the {what} file") from None


def load_state(game: Game, path: str | Path) -> State:
    return state_from_dict(game, read_toml(path, "state"), str(path))


@attrs.define
class Transcript:
    """A played game: enough to replay it move by move and check the result."""

    game: str
    players: int
    seed: int
    moves: list[str] = attrs.Factory(list)
    variants: list[str] = attrs.Factory(list)
    options: dict[str, Any] = attrs.Factory(dict)
    rules_hash: str = ""
    agents: dict[str, str] = attrs.Factory(dict)
    dice: list[int] = attrs.Factory(list)
    start: str = ""
    result: list[str] | None = None
    chance: bool = False  # played in chance mode: every random result is a `chance: ...` move


@functools.cache
def _converter() -> cattrs.Converter:
    """The transcripts' converter, made when a transcript is first read or written:
    cattrs is imported then, not by every command that never meets a transcript (a
    compile, a check: about 0.03 s of each start)."""
    import cattrs

    converter = cattrs.Converter(forbid_extra_keys=True)
    for kind in (bool, int, str):
        converter.register_structure_hook(kind, _exactly(kind))
    return converter


def _exactly(kind: type):
    """A structure hook that takes a value of `kind` as written, never converted: cattrs
    would read `chance = "no"` as True (bool("no")) and `seed = 1.5` as 1."""

    def hook(value, _):
        if type(value) is not kind:
            raise TypeError(f"expected {'true or false' if kind is bool else kind.__name__}, got {value!r}")
        return value

    return hook


def read_transcript(path: str | Path) -> Transcript:
    import cattrs

    data = read_toml(path, "transcript")
    try:
        return _converter().structure(data, Transcript)
    except cattrs.BaseValidationError as exc:
        details = "; ".join(cattrs.transform_error(exc))
        raise UsageError(
            f"{path}: not a transcript: {details}",
            'a transcript needs game, players, seed and moves = ["seat: label", ...]',
        ) from None


def write_transcript(t: Transcript, path: str | Path) -> None:
    Path(path).write_text(transcript_text(t), encoding="utf-8")


def transcript_text(t: Transcript) -> str:
    """The transcript as the TOML `gamedef replay` reads."""
    # Empty fields are left out, except a result of no winner (`result = []`), which is a result.
    data = {
        k: v
        for k, v in _converter().unstructure(t).items()
        if (v not in (None, "", [], {}) or (k == "result" and v is not None)) and not (k == "chance" and v is False)
    }
    data.setdefault("moves", [])
    return tomli_w.dumps(data, multiline_strings=False, indent=2)
