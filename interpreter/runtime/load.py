"""Loading a game by name or path: parse, check and compile it once (or read it from the
cache), and hand back the `Game` the engine runs.

This is where the pipeline's stages meet: language (read the files and variants), check,
compile (with the compiled-game cache), then the runtime's `Game`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.check.checker import check_game
from interpreter.check.symbols import SymbolTable
from interpreter.compile import gamecache
from interpreter.compile.compiler import compile_game
from interpreter.core import collector
from interpreter.core.errors import UsageError, did_you_mean
from interpreter.core.paths import BUNDLED, EXAMPLES, read_roots
from interpreter.language.program import Program, load_program, with_constants
from interpreter.runtime.game import ChanceGame, Game


def _search_dirs() -> list[Path]:
    return [BUNDLED, EXAMPLES]


def bundled_games() -> dict[str, Path]:
    """Bundled games by name: gamedefs/*.game, then examples/*.game (not *.test.game)."""
    found: dict[str, Path] = {}
    for folder in _search_dirs():
        for path in sorted(folder.glob("*.game")):
            if not path.name.endswith(".test.game"):  # designers' tests beside a game, not games
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
    optimise: bool = True,
    progress: Callable[[int, str], None] | None = None,
    checked: Program | None = None,
    constants: dict[str, int | bool] | None = None,
    symbols: SymbolTable | None = None,
) -> Game:
    """Parse, check and compile a game with its variants; raises GameDefError on a bad file.

    With `chance=True`, every random draw is a decision of the `chance` seat, with its
    probability (`ChanceGame`, interpreter/runtime/chance.py): for game-theory tools.
    `optimise=False` compiles the rules as written, with none of the compiler's
    optimisations (never cached): the same game, slower, to test the optimisations by.
    `progress(step, what)` is told each step of a first load (1 reading, 2 checking,
    3 compiling; `what` names the game, by its title once read), so that a command line can
    say why it waits; a load from the cache tells it nothing. `checked`: the program of
    this file and variants as the caller has already read it and checked it without error
    (`gamedef check` does both first), so that a miss of the cache neither reads nor checks
    it again; `symbols`, that check's symbol table, which the compiler reads (without it,
    the compiler checks `checked` again for its table). `constants` gives `def`s without parameters other values
    (`language.program.with_constants`: what a sweep varies); such a game is compiled
    afresh, never cached."""
    path = find_game(str(name)).resolve()
    variants, options = tuple(variants), dict(options or {})
    cached = optimise and not constants and gamecache.load(path, variants, options, read_roots(path))
    if cached:
        compiled = cached
    else:  # not compiled before, or its files have changed since, or not optimised
        tell = progress or (lambda step, what: None)
        with collector.loading():  # linear in the file's size, and then kept old (core/collector.py)
            if checked is not None and not constants:
                program = checked
            else:
                tell(1, path.stem)
                program = load_program(path, variants)
                if constants:
                    program = with_constants(program, constants)
                tell(2, program.header.title or path.stem)
                symbols = check_game(program, warn_unread=False)[0]
            rules = gamecache.rules_digest(program, options) if optimise and not constants else None
            same = rules is not None and gamecache.load_same(program, rules)
            if same:  # the same rules, compiled by another file or variants (gamecache.py)
                compiled = same
            else:
                tell(3, program.header.title or path.stem)
                compiled = compile_game(program, options, optimise=optimise, symbols=symbols)
        if optimise and not constants and not same:
            gamecache.store(path, variants, options, compiled, rules)
    # The options as the game reads them ("true" given for a truth option is true), so a
    # state saved or a transcript written names them as the command line would.
    options = {k: compiled.options.get(k, v) for k, v in options.items()}
    if chance:
        return ChanceGame(compiled, compiled.program.header.name, variants, options)
    return Game(compiled, compiled.program.header.name, variants, options)
