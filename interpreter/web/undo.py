"""Whether moves may be taken back without telling anyone what they could not know.

Taking back a move puts the table back at an earlier position, but not its players'
memories: whatever the moves taken back showed a player stays known. So moves are taken
back only when they showed nobody anything hidden at the position they return to:

* no chance event happened in them (a card drawn, a deck shuffled, a die rolled: its
  result was seen, and the same draw would be made again);
* no component hidden from a seat (or from the spectators) at that position, and from the
  seat asking, was shown to it since (a card played from another's hand, a face turned
  up, a hand looked at). What the asker alone knew (a card it played from its own hand)
  the asker may show: taking it back tells the others only what the asker chose to show;
* no line of the story was told to one seat alone since.

The test is the game's own declarations (`seen by`, `visible when`, `log to`), so it holds
for every game with no code of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.runtime.game import Game
from interpreter.runtime.machine import VM, State
from interpreter.runtime.observe import shown_keys, visible_fields


def revealed(game: Game, states: list[State], asker: str) -> str | None:
    """Why `asker` cannot take the table back to the position `states[0]` from `states[-1]`
    (the states between them in order), or None when nothing was shown meanwhile."""
    if states[-1].rng != states[0].rng:
        return "a card was drawn or a die rolled since (everyone saw it), so the move cannot be taken back"
    viewers: list[str | None] = [*states[0].players, None]
    before = {viewer: _hidden(game, states[0], viewer) for viewer in viewers}
    for state in states[1:]:
        for entry in state.log:
            if entry[0] is not None:
                title = game.seat_title(entry[0])
                return f"something was told to {title} alone since, so the move cannot be taken back"
        for viewer in viewers:
            shown = (before[viewer] & before[asker]) - _hidden(game, state, viewer)
            if shown:
                who = "the spectators" if viewer is None else game.seat_title(viewer)
                return f"something hidden from {who} was shown since, so the move cannot be taken back"
    return None


def _hidden(game: Game, state: State, viewer: str | None) -> frozenset[str]:
    """The components `viewer` may not see in `state`: those held in variables (or entries)
    it may not read, and those with a property it may not see."""
    g = game.compiled
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
