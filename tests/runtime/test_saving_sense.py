"""Saved states must make sense, not only have the right form (docs/language.md sections 3.8
and 15): a running procedure's locals hold values of their types, named in the message
when they don't.

A state file is untrusted input: an edited local of a suspended procedure (`frames[0].locals`)
used to be caught, if at all, only by playing on to the next decision, with a message that
named the frame, not the local, or not at all: a seat's local set to a text was played on.
"""

from __future__ import annotations

import random

import pytest
import tomli_w

from interpreter import load_game
from interpreter.check.checker import local_types
from interpreter.check.types import ANY
from interpreter.cli.commands import main
from interpreter.core.errors import UsageError
from interpreter.runtime.saving import state_from_dict, state_to_dict


def mid_game(name: str, players: int, moves: int, seed: int = 3, **options):
    """A game's state after `moves` random decisions (still running), and the game."""
    game = load_game(name, **options)
    state = game.start(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over(state):
            break
        state = game.apply_index(state, rng.randrange(len(game.legal_moves(state))))
    assert not game.is_over(state)
    return game, state


def local_slot(game, data: dict, name: str, proc: str) -> int:
    """The index of the local `name` of procedure `proc` in the running frame's locals."""
    code = next(c for c in game.compiled.codes if c.name == data["frames"][0]["code"])
    return code.local_names.index((name, proc))


def test_the_issue_case_a_seat_local_set_to_a_text_is_refused_with_its_name(tmp_path, capsys):
    """Berlin Wall "Game Play": the player whose turn it is is a seat; a state whose turn
    belongs to 'nan' is an edited file, refused with the local's index and name, exit 2."""
    game, state = mid_game("berlin_wall", 2, 7)
    data = state_to_dict(game, state)
    slot = local_slot(game, data, "p", "turn")
    data["frames"][0]["locals"][slot] = "nan"
    path = tmp_path / "state.toml"
    path.write_text(tomli_w.dumps(data))
    code = main(["run", "berlin_wall", "--from-state", str(path), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"frames[0].locals[{slot}] (p in turn): 'nan' is not a seat in play (black, red)" in err, err
    assert "Traceback" not in err


def test_a_list_local_set_to_a_number_is_refused_with_its_name():
    """Berlin Wall "Game Play": turns go round the seats in order; `order` is a list of seats."""
    game, state = mid_game("berlin_wall", 2, 7)
    data = state_to_dict(game, state)
    slot = local_slot(game, data, "order", "play")
    data["frames"][0]["locals"][slot] = 4
    with pytest.raises(UsageError) as err:
        state_from_dict(game, data)
    assert err.value.message == f"state: frames[0].locals[{slot}] (order): expected a list, not 4"


@pytest.mark.parametrize(
    ("name", "players", "moves"),
    [("berlin_wall", 2, 7), ("kuhn_poker", 2, 1), ("walls_and_wonders", 2, 12), ("missiles_now", 2, 9)],
)
def test_every_typed_local_of_the_running_frame_is_checked(name, players, moves):
    """Each named local of a sure type holding a value is refused when given a value of
    another kind; the saved state itself loads."""
    game, state = mid_game(name, players, moves)
    data = state_to_dict(game, state)
    assert state_from_dict(game, data) == state
    types = local_types(game.compiled.program)
    code = next(c for c in game.compiled.codes if c.name == data["frames"][0]["code"])
    tried = 0
    for i, (local, proc) in enumerate(code.local_names):
        value = data["frames"][0]["locals"][i]
        if not local or value == {} or types.get(proc, {}).get(local) in (None, ANY):
            continue
        bad = dict(data, frames=[dict(data["frames"][0], locals=list(data["frames"][0]["locals"]))])
        bad["frames"][0]["locals"][i] = 12345 if isinstance(value, str) else "nan"
        with pytest.raises(UsageError) as err:
            state_from_dict(game, bad)
        assert f"frames[0].locals[{i}] ({local}" in err.value.message, err.value.message
        tried += 1
    assert tried >= 2


def test_an_option_of_the_pending_decision_of_the_wrong_kind_is_refused():
    """Berlin Wall "Game Play": the hammer moves to a space of the wall; an option that is
    no space is an edited file, named by its place in the pending decision."""
    game, state = mid_game("berlin_wall", 2, 7)
    data = state_to_dict(game, state)
    code = next(c for c in game.compiled.codes if c.name == data["frames"][0]["code"])
    name, _ = code.local_names[data["pending"]["slot"]]
    assert name
    data["pending"]["values"] = [*data["pending"]["values"][:-1], "nan"]
    last = len(data["pending"]["values"]) - 1
    with pytest.raises(UsageError) as err:
        state_from_dict(game, data)
    assert err.value.message.startswith(f"state: pending.values[{last}]: an option of {name}: 'nan' is not a"), (
        err.value.message
    )
