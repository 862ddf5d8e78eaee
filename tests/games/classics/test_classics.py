"""Two classic games written in the gamedef language: tic-tac-toe and Kuhn poker.

Their rules are tested in the games' own language, beside them
(`examples/tictactoe.test.game`, `examples/kuhn_poker.test.game`, run by
tests/runtime/test_designer_tests.py). What stays here is what a seat's observation shows,
which the test language does not read: Kuhn poker's hands are hidden until the showdown.
"""

from __future__ import annotations

import pytest
from repo_paths import ROOT

from interpreter import load_game

EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def kuhn():
    return load_game(EXAMPLES / "kuhn_poker.game")


def test_kuhn_hands_are_hidden_until_the_showdown(kuhn):
    """Kuhn poker: each player sees its own card only, and the undealt one stays unseen,
    until the showdown shows both (observation, principle 4)."""
    pytest.importorskip("interpreter.runtime.observe")
    assert kuhn.compiled.vars["hand"].seen_by == "owner"
    assert kuhn.compiled.vars["deck"].seen_by == "none"

    def arrange(s):
        s = kuhn.with_var(s, "hand", {"p1": ["Q"], "p2": ["K"]})
        return kuhn.with_var(s, "deck", ["J"])

    s = kuhn.start(players=2, seed=0, arrange=arrange)
    seen = kuhn.observation(s, "p1")["vars"]
    assert seen["hand"]["p1"] == ["Q"] and seen["hand"]["p2"] != ["K"]
    assert seen["deck"] != ["J"]
    for label in ("check", "check"):
        s = kuhn.apply(s, label)
    assert kuhn.observation(s, "p1")["vars"]["shown"] == {"p1": ["Q"], "p2": ["K"]}
