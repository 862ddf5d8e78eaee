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

from interpreter.runtime.game import Game
from interpreter.runtime.machine import State
from interpreter.runtime.observe import hidden_components


def revealed(game: Game, states: list[State], asker: str) -> str | None:
    """Why `asker` cannot take the table back to the position `states[0]` from `states[-1]`
    (the states between them in order), or None when nothing was shown meanwhile."""
    if states[-1].rng != states[0].rng:
        return "a card was drawn or a die rolled since (everyone saw it), so the move cannot be taken back"
    viewers: list[str | None] = [*states[0].players, None]
    before = {viewer: hidden_components(game.compiled, states[0], viewer) for viewer in viewers}
    for state in states[1:]:
        for entry in state.log:
            if entry[0] is not None:
                title = game.seat_title(entry[0])
                return f"something was told to {title} alone since, so the move cannot be taken back"
        for viewer in viewers:
            shown = (before[viewer] & before[asker]) - hidden_components(game.compiled, state, viewer)
            if shown:
                who = "the spectators" if viewer is None else game.seat_title(viewer)
                return f"something hidden from {who} was shown since, so the move cannot be taken back"
    return None
