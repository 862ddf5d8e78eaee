"""A choice's prompt names the card it is about (docs/web.md): a card played for its
operations heads the prompts of those operations, and only while they run. The engine
learns which procedure written in place by the compiler is running at the decision from
the compiled steps (`Code.inlined`), so a card given to an inlined procedure that has
returned names nothing the next turn."""

from __future__ import annotations

import random

import pytest

from interpreter.runtime.load import load_game
from tests.twid_helpers import game


def _ops_then_next_turn(g, seed: int):
    """Walk a seeded game until a card is played for an influence operation (its text
    after the operation, where another seat resolves it): the card's title, the first
    decision of the operation, and the next 'play a card' decision after it."""
    rng = random.Random(seed)
    state = g.start(players=4, seed=seed)
    for _ in range(2000):
        prompt = g.prompt(state)
        labels = g.labels(state)
        if "choose an operation for " in prompt and "influence operation" in labels:
            card = prompt.split("choose an operation for ", 1)[1]
            state = g.apply(state, "influence operation")
            if "operation first" in g.labels(state):
                state = g.apply(state, "operation first")
            ops = state
            while "play a card" not in g.prompt(state):
                state = g.apply_index(state, rng.randrange(len(g.labels(state))))
            return card, ops, state
        state = g.apply_index(state, rng.randrange(len(labels)))
    raise AssertionError("no card played for an influence operation")


@pytest.mark.parametrize("optimise", [True, False], ids=["inlined", "plain"])
def test_a_card_played_for_its_operations_heads_their_prompts_and_not_the_next_turns(optimise):
    """Rules 8.0-8.1 (a card played for its operations places influence): the influence
    prompt is headed by the card, whether the compiler wrote the operations in place or
    not; the next turn's 'play a card' is headed by no card (it once read
    'Uncomfortable democracies: West: play a card')."""
    g = game() if optimise else load_game("twid", optimise=False)
    found = 0
    for seed in (1, 2, 3):
        card, ops, later = _ops_then_next_turn(g, seed)
        assert "points of influence left" in g.prompt(ops)
        assert g.question(ops) == f"{card}: {g.prompt(ops)}"
        assert g.card_in_play(later) is None and g.question(later) == g.prompt(later)
        found += 1
    assert found == 3


def test_the_compiled_steps_say_which_inlined_call_runs_where():
    """The table the engine reads: the steps of an inlined procedure carry the slots of its
    parameters, the steps after it do not (its slots still hold its arguments there)."""
    g = game()
    codes = g.compiled.codes
    play = next(c for c in codes if c.name != "influence_op" and "influence_op" in c.names)
    assert len(play.inlined) == len(play.ops)
    inside = [i for i, n in enumerate(play.names) if n == "influence_op"]
    outside = [i for i, n in enumerate(play.names) if n == play.name]
    assert all(play.inlined[i] for i in inside)
    assert any(not play.inlined[i] for i in outside)
