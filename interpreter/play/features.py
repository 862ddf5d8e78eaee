"""A generic numeric encoding of what a seat sees, for learners that want tensors.

The observation tensor lives in play/ so that the learned estimate (play/learned.py) can
read it as well as the adapters (adapters/tensors.py adds the moves a seat saw).

Machine-learning tools (OpenSpiel's `rl_environment`, DQN, NFSP, tabular Q-learning keyed
by the tensor; PettingZoo's Box observations) want a vector of fixed size. No game writes
one: the layout is derived from the game's declarations alone, and the values from the
seat's observation (`observe`, docs §11), so the vector shows nothing the seat may not see.

The layout, in declaration order (`TensorLayout.segments` names each part):

* `viewer`: one-hot of the observing seat among the game's seats (all 0 for a spectator);
* `to_move`: one-hot of the seat to move (all 0 at a draw or at the end);
* each state variable, by its declared type. A map has one entry per key of its declared
  key type (every seat for a map keyed by `player`), outer key first; a key the view
  leaves out is all 0. A value of
  - a finite type (`player`, an enum, an entity kind, a grid): one-hot over its members,
    in declaration order (`none`, or a component shown only by its visible fields: all 0);
  - `list` of a finite type: how many of each member it holds, then how many it holds
    that the seat sees only by their visible fields (face down);
  - `int`: the number itself; `bool`: 1 or 0;
  - any other type (`text`, `list int`, `any`): its length if it is a list, else nothing;
  and a variable a seat may not see in full (`seen by owner|none`, or keyed by components
  that may be face down) has one more number per entry: how many things are hidden there
  (the length of a hidden list, 1 for a hidden value, 0 for none), as the observation says.

Numbers are not scaled: a victory-point track reads as its points. The information-state
tensor (`HistoryLayout`, adapters/tensors.py) adds the moves a seat saw (module spiel_adapter).

A layout made `relative` (what the learned estimate reads) writes every seat where the
viewer stands to it instead of where the game declares it: the viewer first, then the
other seats in play in turn order after it, then the seats not in play. This holds for the
`to_move` one-hot, a map keyed by `player` and a value of type `player` (or a list of
them), and for the components of a kind made seat by seat (each seat owns as many, by the
kind's owner field, in the same order: a seat's deck, its Wonder's slots), a map keyed by
them and a value of them (`_SeatMade`); `viewer` stays the seat itself. So the same number
means "my points" in every seat's tensor and "the next player's points" likewise, and "my
ace of spades on my level 1 slot 1": one model serves all the seats of a game whose seats
play alike, and learns from all their games at once. A relative
layout also ends with a lead for each number a map keeps per seat (below, `TensorLayout`).

A relative layout made with `summaries` ends with the summaries of its components
(`_Summary`): for each variable that holds components (a card, a list of cards, a map of
them keyed by seat or by a component), the things it holds counted by their number fields
(how many of value 9, of value 10, ...), grouped by the seat they belong to (relative) and
by each number field of the component that keys them (a slot's level). A one-hot of each
component names 416 cards and 120 slots one by one; a model learns "a queen on my third
level" only from a game that put that queen on that slot, where a count of "cards of
value 12 on my level 3" is one number every game teaches.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from interpreter.language import syntax as ast
from interpreter.runtime.game import Game

_NUMBERS = ("int",)
_ABSENT = object()  # a key a map's view leaves out
_FLAGS = ("bool",)


class _Encoding:
    """How one value of a declared type is written: `size` numbers from
    `write(out, at, value, seats)`, where `seats` is where each seat is written (a relative
    layout's order for this viewer, else the declared order): only a value of type `player`
    reads it."""

    __slots__ = ("size", "write")

    def __init__(self, size: int, write):
        self.size, self.write = size, write


def _finite(types: dict, name: str) -> dict | None:
    members = types.get(name)
    if members is None or name in ("any",):
        return None
    return {m: i for i, m in enumerate(members)}


def _slot(types: dict, t: ast.TypeExpr, mine: dict[str, _SeatMade] | None = None) -> _Encoding:
    """The writer of one value of type `t` (module docstring); `mine`, the kinds of
    components made seat by seat that a relative layout writes where their seat stands."""
    if isinstance(t, ast.OptionalType):
        return _slot(types, t.inner, mine)
    held = t.element if isinstance(t, ast.ListType) else t
    while isinstance(held, ast.OptionalType):
        held = held.inner
    made = (mine or {}).get(held.name) if isinstance(held, ast.NamedType) else None
    if made is not None:
        return _seat_made_slot(made, isinstance(t, ast.ListType))
    if isinstance(t, ast.NamedType):
        index = _finite(types, t.name)
        if index is not None:
            is_seat = t.name == "player"

            def one_hot(out: np.ndarray, at: int, value: Any, seats: dict, index: dict = index) -> None:
                i = (seats if is_seat else index).get(value) if isinstance(value, str) else None
                if i is not None:
                    out[at + i] = 1.0

            return _Encoding(len(index), one_hot)
        if t.name in _NUMBERS or t.name in _FLAGS:

            def number(out: np.ndarray, at: int, value: Any, seats: dict) -> None:
                if isinstance(value, bool | int | float):
                    out[at] = float(value)

            return _Encoding(1, number)
        return _Encoding(0, lambda out, at, value, seats: None)
    if isinstance(t, ast.ListType):
        inner = t.element
        while isinstance(inner, ast.OptionalType):
            inner = inner.inner
        index = _finite(types, inner.name) if isinstance(inner, ast.NamedType) else None
        if index is not None:
            face_down = len(index)
            of_seats = isinstance(inner, ast.NamedType) and inner.name == "player"

            def counts(
                out: np.ndarray, at: int, value: Any, seats: dict, index: dict = index, face_down: int = face_down
            ) -> None:
                if not isinstance(value, list | tuple):
                    return
                where = seats if of_seats else index
                for v in value:
                    i = where.get(v) if isinstance(v, str) else None
                    out[at + (face_down if i is None else i)] += 1.0

            return _Encoding(len(index) + 1, counts)

        def length(out: np.ndarray, at: int, value: Any, seats: dict) -> None:
            if isinstance(value, list | tuple):
                out[at] = float(len(value))

        return _Encoding(1, length)
    return _Encoding(0, lambda out, at, value, seats: None)


class _SeatMade:
    """The components of one kind made seat by seat: each declared seat owns as many of
    them (by the kind's owner field), in the same order (Walls and Wonders' 52 cards and 15
    Wonder slots of each seat). A relative layout writes them by where their seat stands to
    the viewer, the viewer's first, so "my ace of spades" and "my level 3 slot 1" are the
    same numbers in every seat's tensor, as "my points" is, and a model learns them from
    every seat's games at once instead of each seat's from its own."""

    __slots__ = ("owner", "within", "per", "size", "_orders")

    def __init__(self, owner: dict[str, str], within: dict[str, int], per: int, seats: int):
        self.owner, self.within, self.per = owner, within, per
        self.size = per * seats
        self._orders: dict[tuple[str, ...], tuple[str | None, ...]] = {}

    def __len__(self) -> int:
        return self.size

    def in_order(self, order: tuple[str, ...]) -> tuple[str | None, ...]:
        """The components in the order written for the seats' `order`, None where a place
        is no component's; kept per order, as a game has few."""
        found = self._orders.get(order)
        if found is None:
            seats = {s: i for i, s in enumerate(order)}
            out: list[str | None] = [None] * self.size
            for c in self.owner:
                at = self.position(c, seats)
                if at is not None:
                    out[at] = c
            found = self._orders[order] = tuple(out)
        return found

    def position(self, component: str, seats: dict[str, int]) -> int | None:
        """Where `component` is written, given where each seat is (`seats`), or None for
        something not of this kind."""
        owner = self.owner.get(component)
        at = None if owner is None else seats.get(owner)
        return None if at is None else at * self.per + self.within[component]


def _seat_made(g: Any) -> dict[str, _SeatMade]:
    """The kinds of components made seat by seat (`_SeatMade`), by name."""
    seats = tuple(g.seats)
    out = {}
    for kind in g.components.entity_decls:
        owners = _seat_field(g, kind, seats)
        if owners is None:
            continue
        within: dict[str, int] = {}
        counts = dict.fromkeys(seats, 0)
        for c in g.types.get(kind, ()):
            within[c] = counts[owners[c]]
            counts[owners[c]] += 1
        per = counts[seats[0]]
        if per and all(n == per for n in counts.values()):
            out[kind] = _SeatMade(owners, within, per, len(seats))
    return out


def _seat_made_slot(made: _SeatMade, is_list: bool) -> _Encoding:
    """The writer of a component of a seat-made kind, or of a list of them, in a relative
    layout: as `_slot` writes any component, at the place `made` gives it for the viewer."""
    if is_list:

        def counts(out: np.ndarray, at: int, value: Any, seats: dict) -> None:
            if not isinstance(value, list | tuple):
                return
            for v in value:
                i = made.position(v, seats) if isinstance(v, str) else None
                out[at + (made.size if i is None else i)] += 1.0

        return _Encoding(made.size + 1, counts)

    def one_hot(out: np.ndarray, at: int, value: Any, seats: dict) -> None:
        i = made.position(value, seats) if isinstance(value, str) else None
        if i is not None:
            out[at + i] = 1.0

    return _Encoding(made.size, one_hot)


def _hidden_count(value: Any) -> float | None:
    """The number the observation gives for a hidden entry, or None if it is not hidden."""
    if isinstance(value, dict) and set(value) == {"hidden"}:
        return float(value["hidden"])
    return None


class TensorLayout:
    """The observation tensor of one game for one player count (module docstring):
    `size` numbers, `segments` as (name, offset, size), `encode(observation, viewer)`;
    `relative`, every seat written where it stands to the viewer (module docstring)."""

    def __init__(self, game: Game, players: int, relative: bool = False, summaries: bool = False):
        g = game.compiled
        self.seats = tuple(g.seats)
        self._seat_index = {s: i for i, s in enumerate(self.seats)}
        self.players = players
        self.relative = relative
        face_down_kinds = set(g.visibility)
        mine = _seat_made(g) if relative else {}
        # name, offset, key levels (None for a level keyed by `player`), slot, hidden count
        self._vars: list[tuple[str, int, tuple, _Encoding, bool]] = []
        self.segments: list[tuple[str, int, int]] = [("viewer", 0, len(self.seats))]
        self.segments.append(("to_move", len(self.seats), len(self.seats)))
        offset = 2 * len(self.seats)
        numbers: list[tuple[str, int, tuple[int, ...], int]] = []  # kept per seat: name, offset, shape, seat axis
        for info in g.var_order:
            t = info.decl.type
            levels: list[tuple | _SeatMade | None] = []
            sizes = []
            while isinstance(t, ast.MapType):
                keys = tuple(g.types.get(t.key.name, ())) if isinstance(t.key, ast.NamedType) else ()
                seat_keyed = isinstance(t.key, ast.NamedType) and t.key.name == "player"
                made = mine.get(t.key.name) if isinstance(t.key, ast.NamedType) else None
                levels.append(None if seat_keyed else made if made is not None else keys)
                sizes.append(len(keys))
                t = t.value
            slot = _slot(g.types, t, mine)
            keyed_by_face_down = any(
                isinstance(k, ast.NamedType) and k.name in face_down_kinds for k in _key_types(info.decl.type)
            )
            hidden = info.seen_by != "all" or keyed_by_face_down
            width = slot.size + (1 if hidden else 0)
            entries = 1
            for count in sizes:
                entries *= count
            size = entries * width
            if size == 0:
                continue
            self._vars.append((info.name, offset, tuple(levels), slot, hidden))
            self.segments.append((info.name, offset, size))
            offset += size
            if relative and levels.count(None) == 1 and isinstance(t, ast.NamedType) and t.name in _NUMBERS:
                numbers.append((info.name, offset - size, (*sizes, width), levels.index(None)))
        # A relative layout's leads: for a number kept per seat (influence in a country), who
        # holds the most of it, the viewer (1) or another seat in play (-1), else 0. A linear
        # model reads "my influence" and "theirs" but not which is greater, and control of a
        # country, a region, a majority is that comparison.
        self._leads: list[tuple[str, int, tuple[int, ...], int, int, int]] = []
        self._lead_of: dict[str, str] = {}
        for name, at, shape, axis in numbers:
            size = int(np.prod(shape[:-1])) // shape[axis]
            self._leads.append((name, at, shape, axis, offset, size))
            self._lead_of[f"{name} lead"] = name
            self.segments.append((f"{name} lead", offset, size))
            offset += size
        self._summaries: list[_Summary] = []
        if relative and summaries:
            for info in g.var_order:
                summary = _Summary.of(g, info.name, info.decl.type, len(self.seats), offset)
                if summary is not None:
                    self._summaries.append(summary)
                    self._lead_of[f"{info.name} summary"] = info.name
                    self.segments.append((f"{info.name} summary", offset, summary.size))
                    offset += summary.size
        self.size = offset

    def variables(self, columns: np.ndarray) -> frozenset[str]:
        """The names of the variables whose numbers include any of `columns`."""
        return frozenset(
            self._lead_of.get(name, name)
            for name, offset, size in self.segments[2:]
            if np.any((columns >= offset) & (columns < offset + size))
        )

    def encode(
        self,
        observation: dict,
        viewer: str | None,
        out: np.ndarray | None = None,
        only: frozenset[str] | None = None,
    ) -> np.ndarray:
        """The tensor of `observation` (the view of `viewer`, None for a spectator); with
        `only`, the variables of those names alone (the rest left 0: a reader of a few
        numbers need not write them all)."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        n = len(self.seats)
        if viewer is not None:
            out[self._seat_index[viewer]] = 1.0
        order = self.order(observation, viewer)
        seats = {s: i for i, s in enumerate(order)}
        to_move = observation.get("to_move")
        mover = seats.get(to_move) if isinstance(to_move, str) else None
        if mover is not None:
            out[n + mover] = 1.0
        values = observation["vars"]
        for name, offset, levels, slot, hidden in self._vars:
            if only is not None and name not in only:
                continue
            width = slot.size + (1 if hidden else 0)
            self._write(out, offset, levels, values.get(name), slot, hidden, width, order, seats)
        playing = len(observation.get("players", ())) or n
        for name, at, shape, axis, lead_at, lead_size in self._leads:
            if (only is not None and name not in only) or playing < 2:
                continue
            block = np.moveaxis(out[at : at + int(np.prod(shape))].reshape(shape)[..., 0], axis, 0)
            out[lead_at : lead_at + lead_size] = np.sign(block[0] - block[1:playing].max(axis=0)).ravel()
        for summary in self._summaries:
            if only is None or summary.name in only:
                summary.write(out, values.get(summary.name), seats)
        return out

    def order(self, observation: dict, viewer: str | None) -> tuple[str, ...]:
        """The seats in the order they are written: the declared one, or for a relative
        layout the viewer first, the others in play in turn after it, then those not in play."""
        if not self.relative or viewer not in self._seat_index:
            return self.seats
        playing = [s for s in observation.get("players", ()) if s in self._seat_index]
        if viewer in playing:
            at = playing.index(viewer)
            playing = playing[at:] + playing[:at]
        else:
            playing = [viewer, *playing]
        return (*playing, *(s for s in self.seats if s not in playing))

    def _write(
        self,
        out: np.ndarray,
        at: int,
        levels: tuple,
        value: Any,
        slot: _Encoding,
        hidden: bool,
        width: int,
        order: tuple[str, ...],
        seats: dict[str, int],
    ) -> None:
        if not levels:
            count = _hidden_count(value)
            if count is not None:
                if hidden:
                    out[at + slot.size] = count
                return
            slot.write(out, at, value, seats)
            return
        if not isinstance(value, dict):
            return
        keys, rest = levels[0], levels[1:]
        if keys is None:  # keyed by `player`: the seats in the order written
            keys = order
        elif isinstance(keys, _SeatMade):  # keyed by components made seat by seat: where their seat stands
            keys = keys.in_order(order)
        if not rest:  # the innermost map, its entries written here (most of a big tensor's calls)
            write = slot.write
            for i, k in enumerate(keys):
                v = value.get(k, _ABSENT)
                if v is _ABSENT:
                    continue
                if isinstance(v, dict):
                    count = _hidden_count(v)
                    if count is not None:
                        if hidden:
                            out[at + i * width + slot.size] = count
                        continue
                write(out, at + i * width, v, seats)
            return
        stride = width
        for keys_below in rest:
            stride *= len(order if keys_below is None else keys_below)
        for i, k in enumerate(keys):
            if k in value:
                self._write(out, at + i * stride, rest, value[k], slot, hidden, width, order, seats)


MAX_BINS = 16  # a number field with more distinct values than this is not counted by value
LENGTHS = 6  # a list's length counted as 0, 1, ..., 5 or more
SPLITS = 8  # a keying component's number field with at most this many values groups its entries by value


def _numbers(g: Any, kind: str, limit: int) -> list[tuple[str, dict[str, int]]]:
    """The number fields of an entity kind with at most `limit` distinct values, each as
    (field, {component: the index of its value among the field's values, in order})."""
    members = [c for c, k in g.components.kind_of.items() if k == kind]
    out = []
    for field, by_component in g.components.fields.items():
        values = [by_component.get(c) for c in members]
        if not members or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            continue
        distinct = sorted(set(values))
        if len(distinct) <= limit:
            at = {v: i for i, v in enumerate(distinct)}
            out.append((field, {c: at[v] for c, v in zip(members, values)}))
    return out


def _seat_field(g: Any, kind: str, seats: tuple[str, ...]) -> dict[str, str] | None:
    """A component of `kind` -> the seat it belongs to: its first field whose values are all
    seats (an owner), or None if it has none."""
    members = [c for c, k in g.components.kind_of.items() if k == kind]
    for by_component in g.components.fields.values():
        if members and all(by_component.get(c) in seats for c in members):
            return {c: by_component[c] for c in members}
    return None


class _Summary:
    """The components one variable holds, counted (module docstring). Its entries are grouped
    by the seat they belong to, written relative to the viewer (the map's key where it is a
    seat, else the owner field of the component keying it, else one group for all), and
    within a seat once in all and once by each value of each number field of the keying
    component (a slot's level 1..5, its position). For each group: how many entries hold
    something, how many components they hold in all (those seen only as hidden too), and
    for each number field of the held kind how many of each value; for lists, also the top
    (last) component's values and how many entries have each length (0..5 or more)."""

    def __init__(self, name: str, offset: int, seats: int, keying: Any, subgroups: list, held: list, is_list: bool):
        self.name, self.offset, self.is_list = name, offset, is_list
        self.keying = keying  # "player", or {key component: (its seat or None, [subgroup index, ...])}, or None
        self.held = held  # [(field, {component: bin})] of the held kind
        self._held_bins = [(b, len(set(b.values()))) for _, b in held]  # each field's bins and their count
        self.bins = sum(width for _, width in self._held_bins)
        self.width = 2 + self.bins + (self.bins + LENGTHS if is_list else 0)
        self.groups = 1 + sum(subgroups)  # per seat: all, then each subgroup's values
        self.seats = seats if keying is not None else 1
        self.size = self.seats * self.groups * self.width

    @classmethod
    def of(cls, g: Any, name: str, t: ast.TypeExpr, seats: int, offset: int) -> _Summary | None:
        """The summary of variable `name` of type `t`, or None where it holds no components
        (or is keyed by more than one map, or by something else than a seat or a component)."""
        kinds = g.components.entity_decls
        key: str | None = None  # the name of the type keying the map, if a map
        if isinstance(t, ast.MapType):
            if isinstance(t.value, ast.MapType) or not isinstance(t.key, ast.NamedType):
                return None
            key, t = t.key.name, t.value
        while isinstance(t, ast.OptionalType):
            t = t.inner
        is_list = isinstance(t, ast.ListType)
        inner = t.element if isinstance(t, ast.ListType) else t
        while isinstance(inner, ast.OptionalType):
            inner = inner.inner
        if not (isinstance(inner, ast.NamedType) and inner.name in kinds):
            return None
        held = _numbers(g, inner.name, MAX_BINS)
        keying: Any = None
        subgroups: list[int] = []
        if key == "player":
            keying = "player"
        elif key is not None and key in kinds:
            owners = _seat_field(g, key, tuple(g.seats))
            splits = _numbers(g, key, SPLITS)
            subgroups = [len(set(b.values())) for _, b in splits]
            keying = {}
            for c, k in g.components.kind_of.items():
                if k != key:
                    continue
                at, index = [], 1
                for (_, b), n in zip(splits, subgroups):
                    at.append(index + b[c])
                    index += n
                keying[c] = (None if owners is None else owners[c], at)
        elif key is not None:
            return None
        return cls(name, offset, seats, keying, subgroups, held, is_list)

    def write(self, out: np.ndarray, value: Any, seats: dict[str, int]) -> None:
        """Add the counts of `value` (the variable as the viewer sees it) into `out`. They are
        summed in a dict first and added in one step: a variable keyed by 120 slots makes
        some 700 small additions, and one to a numpy array costs several times one to a dict."""
        acc: dict[int, float] = {}
        if self.keying is None:
            self._entry(acc, self.offset, value)
        elif not isinstance(value, dict):
            return
        elif self.keying == "player":
            for k, v in value.items():
                i = seats.get(k)
                if i is not None:
                    self._entry(acc, self.offset + i * self.groups * self.width, v)
        else:
            for k, v in value.items():
                found = self.keying.get(k)
                if found is None:
                    continue
                owner, at = found
                i = 0 if owner is None else seats.get(owner)
                if i is None:
                    continue
                base = self.offset + i * self.groups * self.width
                self._entry(acc, base, v)
                for group in at:
                    self._entry(acc, base + group * self.width, v)
        if acc:
            n = len(acc)
            out[np.fromiter(acc.keys(), np.intp, n)] += np.fromiter(acc.values(), np.float32, n)

    def _entry(self, acc: dict[int, float], at: int, v: Any) -> None:
        """Count one entry's components into the group written from `at`."""
        hidden = _hidden_count(v)
        if self.is_list:
            items = v if isinstance(v, list | tuple) else []
            length = len(items) if hidden is None else int(hidden)
            if length:
                acc[at] = acc.get(at, 0.0) + 1.0
                acc[at + 1] = acc.get(at + 1, 0.0) + length
            bucket = at + 2 + 2 * self.bins + min(length, LENGTHS - 1)
            acc[bucket] = acc.get(bucket, 0.0) + 1.0
            if items:
                self._count(acc, at + 2, items)
                if hidden is None:
                    self._count(acc, at + 2 + self.bins, items[-1:])
            return
        if v is None:
            return
        acc[at] = acc.get(at, 0.0) + 1.0
        acc[at + 1] = acc.get(at + 1, 0.0) + (1.0 if hidden is None else hidden)
        self._count(acc, at + 2, (v,))

    def _count(self, acc: dict[int, float], at: int, items: Any) -> None:
        for bins, width in self._held_bins:
            for item in items:
                b = bins.get(item) if isinstance(item, str) else None
                if b is not None:
                    acc[at + b] = acc.get(at + b, 0.0) + 1.0
            at += width


def _key_types(t: ast.TypeExpr) -> list:
    keys = []
    while isinstance(t, ast.MapType):
        keys.append(t.key)
        t = t.value
    return keys
