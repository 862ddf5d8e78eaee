"""States and transcripts as TOML, readable and editable by hand.

A saved state names its variables, frames and decision point by name, so a designer
can write a scenario by editing one. TOML has no null: `none` is written as `{}`.
Transcripts are an attrs class checked by cattrs when read, so a malformed file gets
a message naming the bad field instead of a traceback.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import attrs
import cattrs
import tomli_w

from .engine import Game, Pending, State
from .errors import UsageError


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


def state_from_dict(game: Game, data: dict, where: str = "state") -> State:
    g = game.compiled
    try:
        codes = {c.name: c.index for c in g.codes}
        values = [None] * len(g.var_order)
        for info in g.var_order:
            if info.name not in data["vars"]:
                raise UsageError(f"{where}: variable '{info.name}' is missing", "save a state to see every field")
            values[info.slot] = _dec_map(info.levels, data["vars"][info.name])
        frames = []
        for f in data.get("frames", []):
            if f["code"] not in codes:
                raise UsageError(f"{where}: no procedure '{f['code']}' in this game")
            frames.append((codes[f["code"]], int(f["step"]), _dec(f["locals"])))
        pending = None
        if "pending" in data:
            p = data["pending"]
            pending = Pending(p["player"], _dec(p["values"]), int(p["slot"]), int(p["choice"]))
        result = tuple(data["result"]) if "result" in data else None
        log = tuple((_dec(a), int(f), _dec(v)) for a, f, v in data.get("log", ()))
        return State(
            players=tuple(data["players"]),
            vars=tuple(values),
            frames=tuple(frames),
            pending=pending,
            rng=int(data["rng"], 16),
            pins=tuple(data.get("pins", ())),
            result=result,
            log=log,
            decisions=int(data.get("decisions", 0)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(
            f"{where}: malformed saved state ({type(exc).__name__}: {exc})",
            "compare with a state written by `gamedef run --save-state`",
        ) from None


def save_state(game: Game, state: State, path: str | Path) -> None:
    Path(path).write_text(tomli_w.dumps(state_to_dict(game, state)), encoding="utf-8")


def read_toml(path: str | Path, what: str) -> dict:
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"no such {what} file: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}", f"fix the {what} file's syntax") from None


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


_converter = cattrs.Converter(forbid_extra_keys=True)


def read_transcript(path: str | Path) -> Transcript:
    data = read_toml(path, "transcript")
    try:
        return _converter.structure(data, Transcript)
    except cattrs.BaseValidationError as exc:
        details = "; ".join(cattrs.transform_error(exc))
        raise UsageError(
            f"{path}: not a transcript: {details}",
            'a transcript needs game, players, seed and moves = ["seat: label", ...]',
        ) from None


def write_transcript(t: Transcript, path: str | Path) -> None:
    # Empty fields are left out, except a result of no winner (`result = []`), which is a result.
    data = {
        k: v
        for k, v in _converter.unstructure(t).items()
        if v not in (None, "", [], {}) or (k == "result" and v is not None)
    }
    data.setdefault("moves", [])
    Path(path).write_text(tomli_w.dumps(data, multiline_strings=False, indent=2), encoding="utf-8")
