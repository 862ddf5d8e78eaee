"""The canonical games: random games with fixed seeds, for each bundled game and variant.

Each is played by `RandomAgent`s seeded as `gamedef run` seeds them (seat i gets
seed * 1000 + i), so `gamedef run GAME --players P --seed S --variant V
--transcript OUT.toml` writes the same game. The seeds were picked among 1..15 for
short games (smaller snapshots).
"""

from __future__ import annotations

from repo_paths import TESTS

from interpreter import load_game
from interpreter.cli.shared import play_out
from interpreter.play.agents import RandomAgent
from interpreter.runtime.saving import Transcript, state_to_dict

TRANSCRIPTS = TESTS / "transcripts"

# name: (game, variants, options, players, seed)
CANONICAL: dict[str, tuple[str, tuple[str, ...], dict, int, int]] = {
    "base_2p": ("berlin_wall", (), {}, 2, 14),
    "base_3p": ("berlin_wall", (), {}, 3, 13),
    "base_4p": ("berlin_wall", (), {}, 4, 12),
    "crazy_8s": ("berlin_wall", ("crazy_8s",), {}, 2, 13),
    "gravity": ("berlin_wall", ("gravity",), {}, 2, 10),
    "nullo_gravity": ("berlin_wall", ("nullo_gravity",), {}, 2, 4),
    "wall_of_china": ("berlin_wall", ("wall_of_china",), {}, 2, 4),
    "wall_of_jericho": ("berlin_wall", ("wall_of_jericho",), {}, 2, 14),
    "fast_forward": ("berlin_wall", ("fast_forward",), {}, 2, 8),
    "on_again_off_again": ("berlin_wall", ("on_again_off_again",), {}, 2, 13),
    "pair_a_dice": ("berlin_wall", ("pair_a_dice",), {}, 2, 9),
    # Walls and Wonders: the agreed condition (the base game) for 2, 3 and 4 players, then
    # each other way of choosing the victory condition.
    "waw_2p": ("walls_and_wonders", (), {}, 2, 16),
    "waw_3p": ("walls_and_wonders", (), {"victory": "economic"}, 3, 16),
    "waw_4p": ("walls_and_wonders", (), {"victory": "military"}, 4, 15),
    "waw_suit_victory": ("walls_and_wonders", ("suit_victory",), {}, 3, 16),
    "waw_hidden_victory": ("walls_and_wonders", ("hidden_victory",), {}, 3, 23),
    "waw_every_victory": ("walls_and_wonders", ("every_victory",), {}, 3, 1),
    # Missiles, Now!, 2, 3 and 4 players.
    "missiles_2p": ("missiles_now", (), {}, 2, 11),
    "missiles_3p": ("missiles_now", (), {}, 3, 17),
    "missiles_4p": ("missiles_now", (), {}, 4, 5),
    # The Wall is Down: 2, 3 and 4 players, the solo goals, the promos, the alternate goal.
    "twid_2p": ("twid", (), {}, 2, 3),
    "twid_3p": ("twid", (), {}, 3, 3),
    "twid_4p": ("twid", (), {}, 4, 3),
    "twid_3p_static_us": ("twid", (), {"static": "us"}, 3, 3),
    "twid_solo_elite": ("twid", (), {"solo_goal": "elite"}, 1, 5),
    "twid_solo_planet": ("twid", (), {"solo_goal": "planet"}, 1, 12),
    "twid_promos": ("twid", (), {"promos": True}, 4, 4),
    "twid_alternate_goal": ("twid", (), {"alternate_goal": True}, 2, 3),
    # Downfall of Empires: 2, 3 and 4 players.
    "doe_2p": ("downfall_of_empires", (), {}, 2, 1),
    "doe_3p": ("downfall_of_empires", (), {}, 3, 1),
    "doe_4p": ("downfall_of_empires", (), {}, 4, 1),
}


def agents_for(players: tuple[str, ...], seed: int) -> dict:
    return {p: RandomAgent(seed * 1000 + i) for i, p in enumerate(players)}


def play(name: str):
    """(game, final state, moves as 'seat: label', narration lines) of a canonical game."""
    game_name, variants, options, players, seed = CANONICAL[name]
    game = load_game(game_name, variants=list(variants), options=dict(options))
    state = game.start(players=players, seed=seed)
    lines: list[str] = []
    state, moves = play_out(game, state, agents_for(state.players, seed), out=lines.append, narrate=True)
    return game, state, moves, lines


def transcript(name: str, game, state, moves) -> Transcript:
    game_name, variants, options, players, seed = CANONICAL[name]
    return Transcript(
        game=game_name,
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
    from interpreter.runtime.render import render

    return {
        "narration": lines,
        "result": list(game.result(state)),
        "decisions": state.decisions,
        "board": render(game, state, None).splitlines(),
        "vars": state_to_dict(game, state)["vars"],
    }
