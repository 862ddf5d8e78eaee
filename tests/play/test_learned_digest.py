"""A learned model's digest of the rules (`interpreter/play/learned.py`, `rules_digest`).

The digest names the rules, not where they are written: a model fitted before the game's
file gained blank lines (its declarations moved down) or was reindented, or that reads the
file from another folder, is
still the model of those rules; a changed rule (a number in it) is refused.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the learned estimate needs numpy: pip install '.[learn]'")

from interpreter import load_game  # noqa: E402
from interpreter.core.errors import UsageError  # noqa: E402
from interpreter.play import learned  # noqa: E402
from interpreter.play.agents import make_agent, parse_agents  # noqa: E402

# A count to eight: in turn each player takes 1 or 2 tokens (the amounts a table file
# lists) from a shared pile of eight; who takes the last wins.
PILE = """
game pile "A pile of eight" {
    players 2..2
    seats [left, right]
}

entity Take {
    amount: int
}

table Take from "takes.tsv" {
    named by name
    amount
}

var pile: int = 8

view {
    status "{pile} left"
}

procedure play() {
    rule "Pile: in turn take 1 or 2; who takes the last token wins"
    while true {
        for p in players {
            choose t from members(Take) by p prompt "take" label "{t.amount}"
            pile -= t.amount
            if pile <= 0 {
                win p
            }
        }
    }
}
"""


TAKES = "name\tamount\none\t1\ntwo\t2\n"


def _load(folder, text: str, takes: str = TAKES):
    folder.mkdir()
    path = folder / "pile.game"
    path.write_text(text, encoding="utf-8")
    (folder / "takes.tsv").write_text(takes, encoding="utf-8")
    return load_game(path)


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    """A model fitted from ten random games of the pile, saved."""
    game = _load(tmp_path_factory.mktemp("fit") / "game", PILE)

    def agents(state, seed):
        return parse_agents([], game, state.players, seed)[0]

    played = learned.self_play(game, 10, 1, None, agents, positions=10)
    path = tmp_path_factory.mktemp("model") / "pile.json"
    learned.save(learned.fit(game, played, {"agent": "random", "games": 10, "seed": 1}), path)
    return path


def test_blank_lines_and_a_moved_declaration_keep_the_model(tmp_path, model_file):
    """Blank lines above everything and between the declarations (so every one of them moves
    down), a body indented otherwise, in another folder (the game file's and the table
    file's): the same rules, so the same
    digest, and the model is accepted. (Declarations keep their order: the order of
    triggers and of components is part of the rules.)"""
    moved = "\n\n\n" + PILE.replace("var pile", "\n\nvar pile").replace("    rule ", "        rule ")
    assert moved != PILE
    game = _load(tmp_path / "moved", moved)
    assert learned.rules_digest(game) == learned.load(model_file).header["rules"]
    learned.load(model_file).check(game, 2)
    make_agent(f"greedy:learned={model_file}", "left", 1, game)


def test_a_changed_number_in_a_rule_refuses_the_model(tmp_path, model_file):
    game = _load(tmp_path / "changed", PILE.replace("var pile: int = 8", "var pile: int = 9"))
    assert learned.rules_digest(game) != learned.load(model_file).header["rules"]
    with pytest.raises(UsageError, match="fitted for other rules of A pile of eight"):
        make_agent(f"greedy:learned={model_file}", "left", 1, game)


def test_a_changed_row_of_the_table_refuses_the_model(tmp_path, model_file):
    game = _load(tmp_path / "changed", PILE, TAKES.replace("two\t2", "two\t3"))
    with pytest.raises(UsageError, match="fitted for other rules of A pile of eight"):
        learned.load(model_file).check(game, 2)
