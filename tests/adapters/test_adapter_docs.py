"""What docs/adapters.md says the adapters give: `str(state)` is the whole position, hidden
parts included (`render_all`), and the tensor sizes it lists are those the code makes
(written by scripts/tensor_sizes.py, checked here, not typed)."""

from __future__ import annotations

import importlib.util

import pytest
from repo_paths import ROOT

from interpreter import load_game
from interpreter.runtime.render import render, render_all


def test_the_whole_position_shows_each_seats_hidden_card_after_the_spectators_view():
    """Kuhn poker after the deal: the spectator sees the pot and the chips but no card; the
    whole position adds each seat's own card, so two deals that differ only in the hidden
    cards read differently, as OpenSpiel's `str(state)` must."""
    game = load_game("kuhn_poker")
    state = game.start(players=2, seed=1)
    spectator = render(game, state, None)
    whole = render_all(game, state)
    assert whole.startswith(spectator) and "Your card" not in spectator
    cards = {seat: game.var(state, "hand")[seat] for seat in state.players}
    for seat in state.players:
        (card,) = cards[seat]
        assert f"{seat} sees: Your card: {game.compiled.rt.display(card)}" in whole
    others = [game.start(players=2, seed=seed) for seed in range(2, 40)]
    other = next(s for s in others if {p: game.var(s, "hand")[p] for p in s.players} != cards)
    assert render(game, other, None) == spectator  # the spectator cannot tell the deals apart
    assert render_all(game, other) != whole


def test_the_adapters_doc_says_what_str_state_is():
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    assert "| `str(state)` | the whole position (`render_all`)" in text


@pytest.mark.slow
def test_the_tensor_sizes_in_the_docs_are_the_scripts():
    """docs/adapters.md holds, between its markers, what scripts/tensor_sizes.py prints now
    (each bundled game loaded and laid out: about a minute)."""
    spec = importlib.util.spec_from_file_location("tensor_sizes", ROOT / "scripts" / "tensor_sizes.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    block = text.split(script.BEGIN, 1)[1].split(script.END, 1)[0].strip()
    assert block == script.paragraph(script.sizes())
