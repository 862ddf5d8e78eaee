"""What a seat may take away from a table: its download, made from what that seat may see.

While the game is on, a transcript would give everything away: its seed decides every
deck and die, and its moves include the others' secret choices. So a seat downloads its
own record instead: the table's settings, its own moves, and the story of the game as
its page tells it (the engine's narration for that seat, which names nothing the seat
may not see); the spectators' record has the public story alone. Once the game is over
nothing is secret any more, and every link downloads the whole transcript, which
`gamedef replay` plays again move by move.
"""

from __future__ import annotations

import tomli_w

from interpreter.runtime.saving import Transcript, transcript_text
from interpreter.web.tables import SPECTATOR, Table


def download(table: Table, seat: str) -> tuple[str, str]:
    """The file name and the TOML text `seat` (SPECTATOR: the spectators) may download now.
    Called with the table's lock held."""
    record = table.record
    if table.state.result is not None:
        t = Transcript(
            game=record.game,
            players=record.players,
            seed=record.seed,
            moves=[f"{who}: {label}" for who, label in table.moves],
            variants=list(record.variants),
            options=dict(record.options),
            rules_hash=table.game.rules_hash,
            agents=dict(record.agents),
            result=list(table.state.result),
        )
        return f"{record.game}-{record.id}.toml", transcript_text(t)
    viewer = seat or None
    data = {
        "game": record.game,
        "players": record.players,
        "variants": list(record.variants),
        "options": dict(record.options),
        "agents": dict(record.agents),
        "seat": seat or "spectator",
        "moves_so_far": len(table.moves),
        "own_moves": [label for who, label in table.moves if seat != SPECTATOR and who == seat],
        "log": table.narration.all(table.game, table.states, viewer),
        "note": "the game is not over: this is what this seat has seen so far; the whole transcript, "
        "which `gamedef replay` reads, is downloaded once the game has ended",
    }
    data = {k: v for k, v in data.items() if v not in ([], {})}
    return f"{record.game}-{record.id}-{seat or 'spectator'}.toml", tomli_w.dumps(data, multiline_strings=False)
