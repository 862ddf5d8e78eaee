"""gamedef: a data-driven rules interpreter for card-driven and board games.

    from interpreter import load_game

    game = load_game("berlin_wall", variants=["gravity"])
    state = game.start(players=2, seed=7)
    while not game.is_over(state):
        state = game.apply(state, game.legal_moves(state)[0])
    print(game.result(state))

The package is a pipeline of layers, each a subpackage that imports only from those below
it (docs/architecture.md; a test holds the rule):

    core      diagnostics, limits, paths, the random generator, the functions rules call
    language  reading files safely, the grammar's parser, the syntax tree, includes and
              variants, designers' tables
    check     names, types and arity; what a view may show; the rules index
    compile   the syntax tree to Python closures and generated code; the caches
    runtime   the engine (Game, State, moves), views, saving, chance mode, game theory
    play      agents, tree search, simulations
    adapters  OpenSpiel and PettingZoo (optional extras)
    cli       the `gamedef` command line

This module is the public API: what is named in `__all__`.
"""

from __future__ import annotations

from interpreter.core.errors import Diagnostic, GameDefError, GameRuntimeError, UsageError
from interpreter.runtime.engine import IllegalMove
from interpreter.runtime.game import Game
from interpreter.runtime.load import bundled_games, find_game, load_game
from interpreter.runtime.machine import Move, State
from interpreter.runtime.saving import load_state, save_state

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
    "load_state",
    "save_state",
]
