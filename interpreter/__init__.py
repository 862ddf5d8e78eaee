"""gamedef: a data-driven rules interpreter for card-driven and board games.

game = load_game("berlin_wall", variants=["gravity"])
state = game.start(players=2, seed=7)
while not game.is_over(state):
    state = game.apply(state, game.legal_moves(state)[0])
print(game.result(state))
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import gamecache
from .compiler import CompiledGame
from .engine import Game, IllegalMove, Move, State
from .errors import Diagnostic, GameDefError, GameRuntimeError, UsageError, did_you_mean
from .program import BUNDLED, BUNDLED_CARDS, load_program

__all__ = [
    "Diagnostic",
    "Game",
    "GameDefError",
    "GameRuntimeError",
    "IllegalMove",
    "Move",
    "State",
    "UsageError",
    "bundled_games",
    "find_game",
    "load_game",
]

ROOT = Path(__file__).resolve().parent.parent


def _search_dirs() -> list[Path]:
    return [ROOT / "gamedefs", ROOT / "examples"]


def bundled_games() -> dict[str, Path]:
    """Bundled games by name: gamedefs/*.game, then examples/*.game."""
    found: dict[str, Path] = {}
    for folder in _search_dirs():
        for path in sorted(folder.glob("*.game")):
            found.setdefault(path.stem, path)
    return found


def find_game(name: str) -> Path:
    """A path to a .game file, or a bundled name with or without `.game`."""
    path = Path(name)
    if path.suffix == ".game" and path.exists():
        return path
    stem = path.name[:-5] if path.name.endswith(".game") else path.name
    games = bundled_games()
    if stem in games:
        return games[stem]
    raise UsageError(
        f"no game file or bundled game named '{name}'",
        did_you_mean(stem, games) or "bundled games: " + ", ".join(games),
    )


def load_game(
    name: str | Path,
    variants: list[str] | tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
    chance: bool = False,
) -> Game:
    """Parse, check and compile a game with its variants; raises GameDefError on a bad file.

    With `chance=True`, every random draw is a decision of the `chance` seat, with its
    probability (`ChanceGame`, interpreter/chance.py): for game-theory tools."""
    from .checker import check_program

    path = find_game(str(name)).resolve()
    variants, options = tuple(variants), dict(options or {})
    compiled = gamecache.load(path, variants, options, (path.parent, BUNDLED, BUNDLED_CARDS))
    if compiled is None:  # not compiled before, or its files have changed since
        program = load_program(path, variants)
        check_program(program)
        compiled = CompiledGame(program, options)
        gamecache.store(path, variants, options, compiled)
    if chance:
        from .chance import ChanceGame

        return ChanceGame(compiled, compiled.program.header.name, variants, options)
    return Game(compiled, compiled.program.header.name, variants, options)
