"""The canonical Berlin Wall games: one random game for the base game and each variant.

Each is played by `RandomAgent`s seeded as `gamedef run` seeds them (seat i gets
seed * 1000 + i), so `gamedef run berlin_wall --players P --seed S --variant V
--transcript OUT.toml` writes the same game. The seeds were picked among 1..15 for
short games (smaller snapshots).
"""

from __future__ import annotations

from pathlib import Path

from interpreter import load_game
from interpreter.agents import RandomAgent
from interpreter.cli import play_out
from interpreter.saving import Transcript, state_to_dict

TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"

# name: (variants, options, players, seed)
CANONICAL: dict[str, tuple[tuple[str, ...], dict, int, int]] = {
    "base_2p": ((), {}, 2, 14),
    "base_3p": ((), {}, 3, 13),
    "base_4p": ((), {}, 4, 12),
    "crazy_8s": (("crazy_8s",), {}, 2, 13),
    "gravity": (("gravity",), {}, 2, 10),
    "nullo_gravity": (("nullo_gravity",), {}, 2, 4),
    "wall_of_china": (("wall_of_china",), {}, 2, 4),
    "wall_of_jericho": (("wall_of_jericho",), {}, 2, 14),
    "fast_forward": (("fast_forward",), {}, 2, 8),
    "on_again_off_again": (("on_again_off_again",), {}, 2, 13),
    "pair_a_dice": (("pair_a_dice",), {}, 2, 9),
}


def agents_for(players: tuple[str, ...], seed: int) -> dict:
    return {p: RandomAgent(seed * 1000 + i) for i, p in enumerate(players)}


def play(name: str):
    """(game, final state, moves as 'seat: label', narration lines) of a canonical game."""
    variants, options, players, seed = CANONICAL[name]
    game = load_game("berlin_wall", variants=list(variants), options=dict(options))
    state = game.start(players=players, seed=seed)
    lines: list[str] = []
    state, moves = play_out(game, state, agents_for(state.players, seed), out=lines.append, narrate=True)
    return game, state, moves, lines


def transcript(name: str, game, state, moves) -> Transcript:
    variants, options, players, seed = CANONICAL[name]
    return Transcript(
        game="berlin_wall",
        players=players,
        seed=seed,
        moves=list(moves),
        variants=list(variants),
        options=dict(options),
        rules_hash=game.rules_hash,
        agents={p: "random" for p in state.players},
        result=list(game.result(state)),
    )


def summary(game, state, lines) -> dict:
    """What a snapshot holds: the narration, the result, the final board and variables."""
    from interpreter.render import render

    return {
        "narration": lines,
        "result": list(game.result(state)),
        "decisions": state.decisions,
        "board": render(game, state, None).splitlines(),
        "vars": state_to_dict(game, state)["vars"],
    }
