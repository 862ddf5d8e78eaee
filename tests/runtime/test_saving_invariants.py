"""Every bundled game keeps its declared invariants after every move of random games, and
a state file edited to break one is refused with the path of the offending value, exit 2
(docs/language.md section 3.8: zones, bounds and `invariant`).

The invariants are the rulebooks' own: a component is in one place at a time (a card is in
one pile, hand or row; a piece of wall on one space, in the box or collected), a die shows
1 to 6, a sheet's line has four parts before it completes (Missiles, Now! "Important
(Elements)"), a diplomacy marker stays within its track and a trench is level 1 or 2
(Downfall of Empires rules 11 and 12).
"""

from __future__ import annotations

import random

import pytest
import tomli_w

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.runtime.saving import state_from_dict, state_to_dict, violations

# (game, variants, players, games, at most this many moves each)
GAMES = [
    ("kuhn_poker", (), 2, 20, 100),
    ("tictactoe", (), 2, 5, 100),
    ("berlin_wall", (), 2, 3, 4000),
    ("walls_and_wonders", (), 2, 3, 3000),
    ("missiles_now", (), 3, 3, 3000),
    ("downfall_of_empires", (), 2, 1, 300),
    ("twid", (), 2, 1, 300),
]
BW_VARIANTS = "crazy_8s gravity nullo_gravity wall_of_china wall_of_jericho fast_forward on_again_off_again pair_a_dice"
GAMES += [("berlin_wall", (v,), 3, 1, 4000) for v in BW_VARIANTS.split()]
GAMES += [("walls_and_wonders", (v,), 2, 1, 3000) for v in ("suit_victory", "hidden_victory", "every_victory")]


def declared(game) -> int:
    """How many zones, bounds and invariants the game declares."""
    g = game.compiled
    marked = sum(1 for info in g.var_order if info.decl.zone or info.decl.bounds is not None)
    return marked + len(g.invariants)


@pytest.mark.parametrize(("name", "variants", "players", "games", "moves"), GAMES, ids=lambda x: str(x))
def test_random_games_keep_every_invariant_after_every_move(name, variants, players, games, moves):
    game = load_game(name, variants=list(variants))
    assert declared(game) >= (0 if name == "tictactoe" else 2)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.start(players=players, seed=seed)
        for n in range(moves):
            assert violations(game, state) == [], f"seed {seed}, after {n} moves"
            if n % 50 == 7:  # a saved position loads as it was (its locals typed, its zones apart)
                assert state_from_dict(game, state_to_dict(game, state)) == state
            if game.is_over(state):
                break
            state = game.apply_index(state, rng.randrange(len(game.legal_moves(state))))


def saved_mid_game(name: str, players: int, moves: int, seed: int = 1) -> dict:
    game = load_game(name)
    state = game.start(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = game.apply_index(state, rng.randrange(len(game.legal_moves(state))))
    assert not game.is_over(state)
    return state_to_dict(game, state)


def refused(tmp_path, capsys, name: str, data: dict) -> str:
    path = tmp_path / "state.toml"
    path.write_text(tomli_w.dumps(data))
    code = main(["run", name, "--from-state", str(path), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    return err


def test_a_piece_both_in_the_box_and_on_the_wall_is_refused(tmp_path, capsys):
    """Berlin Wall "Setup": a piece is laid on the wall or left in the box, not both."""
    data = saved_mid_game("berlin_wall", 2, 5)
    cell, piece = next((c, p) for c, p in data["vars"]["wall"].items() if p != {})
    data["vars"]["box"] = [*data["vars"]["box"], piece]
    err = refused(tmp_path, capsys, "berlin_wall", data)
    assert f"vars.box[{len(data['vars']['box']) - 1}]: '{piece}' is also at vars.wall.{cell}" in err, err


def test_a_die_past_six_is_refused(tmp_path, capsys):
    """Berlin Wall "Game Play": each player rolls a die: 1 to 6."""
    data = saved_mid_game("berlin_wall", 2, 5)
    data["vars"]["move_roll"] = 9
    err = refused(tmp_path, capsys, "berlin_wall", data)
    assert "vars.move_roll: 9 is outside the bounds of 'move_roll', 0 to 6" in err, err


def test_a_fifth_part_on_a_line_is_refused(tmp_path, capsys):
    """Missiles, Now! "Important (Elements)": five parts complete an item and are erased."""
    data = saved_mid_game("missiles_now", 2, 3)
    data["vars"]["parts"]["usa"]["missile"] = 5
    err = refused(tmp_path, capsys, "missiles_now", data)
    assert "vars.parts.usa.missile: 5 is outside the bounds of 'parts', 0 to 4" in err, err


def test_more_complete_boxes_than_lines_break_an_invariant(tmp_path, capsys):
    """Missiles, Now! "Components": the Berlin Wall item has one line, so one complete box."""
    data = saved_mid_game("missiles_now", 2, 3)
    data["vars"]["complete"]["usa"]["berlin_wall"] = 2
    err = refused(tmp_path, capsys, "missiles_now", data)
    assert "invariant: 'Components: an item has as many complete boxes as lines'" in err, err
    assert "does not hold" in err


def test_a_diplomacy_marker_past_the_track_is_refused(tmp_path, capsys):
    """Downfall of Empires rule 12: a marker moves within its window; the final box is the last."""
    data = saved_mid_game("downfall_of_empires", 2, 4)
    track = sorted(data["vars"]["box"])[0]
    data["vars"]["box"][track] = 7
    err = refused(tmp_path, capsys, "downfall_of_empires", data)
    assert f"vars.box.{track}: 7 is outside the bounds of 'box', 0 to 6" in err, err


def test_the_same_card_in_two_hands_is_refused(tmp_path, capsys):
    """Walls and Wonders: each player's cards come from their own deck; a card is in one
    pile, hand, wall or discard at a time."""
    data = saved_mid_game("walls_and_wonders", 2, 10)
    hands = data["vars"]["hand"]
    first, second = list(hands)[:2]
    hands[second] = [*hands[second], hands[first][0]]
    err = refused(tmp_path, capsys, "walls_and_wonders", data)
    assert f"'{hands[first][0]}' is also at vars.hand.{first}[0]" in err, err
