"""The sizes of the adapters' tensors for each bundled game, as docs/adapters.md gives them.

The sizes follow from each game's declarations (interpreter/adapters/tensors.py), so the
docs take them from here rather than from someone's typing:

    python scripts/tensor_sizes.py           # print the paragraph
    python scripts/tensor_sizes.py --write   # put it in docs/adapters.md, between its markers

Each game at its default player count, loaded in chance mode as the OpenSpiel adapter
loads it; the information-state tensor adds the last moves (`HISTORY_MOVES`, at most the
game's length) to the observation tensor. `tests/adapters/test_adapter_docs.py` checks that the docs hold
what this prints.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adapters.md"
BEGIN = "<!-- tensor sizes: written by scripts/tensor_sizes.py -->"
END = "<!-- end of tensor sizes -->"
HISTORY_MOVES = 32  # as interpreter/adapters/spiel_adapter.py (which needs pyspiel to import)
DEFAULT_MAX_GAME_LENGTH = 100_000  # a game long enough that the whole history is the last moves


def sizes() -> list[tuple[str, int, int]]:
    """(title, observation size, information-state size) of every bundled game, smallest first."""
    sys.path.insert(0, str(ROOT))
    from interpreter.adapters.tensors import HistoryLayout, TensorLayout
    from interpreter.runtime.load import bundled_games, load_game

    out = []
    titles = set()
    for name in sorted(bundled_games()):
        game = load_game(name, chance=True)
        if game.header.title in titles:  # a file of house rules beside the game it includes
            continue
        titles.add(game.header.title)
        players = game.header.default_players or game.header.min_players
        layout = TensorLayout(game, players)
        history = HistoryLayout(layout.seats, game.action_space().size, HISTORY_MOVES)
        out.append((game.header.title, layout.size, layout.size + history.size))
    return sorted(out, key=lambda row: row[1])


def paragraph(rows: list[tuple[str, int, int]]) -> str:
    parts = [f"{title} {obs:,} (information state {info:,})" for title, obs, info in rows]
    return "Sizes, at each game's default player count: " + ", ".join(parts) + "."


def write(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    before, _, rest = doc.partition(BEGIN)
    _, _, after = rest.partition(END)
    DOC.write_text(f"{before}{BEGIN}\n{text}\n{END}{after}", encoding="utf-8")


if __name__ == "__main__":
    text = paragraph(sizes())
    if "--write" in sys.argv[1:]:
        write(text)
    print(text)
