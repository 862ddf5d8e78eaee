"""The components' summaries of a relative tensor (`TensorLayout(..., summaries=True)`,
`gamedef learn --summaries`) and the games of the later rounds (`--round-games`).

A summary counts what a variable holds by the held components' number fields, grouped by
the seat they belong to (relative to the viewer) and by the number fields of the component
that keys them: "how many cards of value 3 on my level 2". The game below is small enough
to count by hand: two seats, three cards each (values 1 to 3), two spots each (levels 1, 2).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy", reason="the learned estimate needs numpy: pip install '.[learn]'")

from interpreter import load_game  # noqa: E402
from interpreter.cli.commands import main  # noqa: E402
from interpreter.play import learned  # noqa: E402
from interpreter.play.features import LENGTHS, TensorLayout  # noqa: E402

# Each player in turn builds a card of their hand on their next spot, or passes; whoever
# holds the higher total on their spots after two rounds wins.
SPOTS = """
game spots "Spots" {
    players 2..2
    seats [a, b]
}

entity Card {
    owner: player
    value: int
}

generate Card named "{value} ({owner})" for owner in members(player), value in 1..3 {
    owner = owner
    value = value
}

entity Spot {
    owner: player
    level: int
}

generate Spot named "{owner} spot {level}" for owner in members(player), level in 1..2 {
    owner = owner
    level = level
}

var hand: player -> list Card = [] seen by owner zone
var built: Spot -> Card? = none zone
var pile: player -> list Card = [] zone

def spots(p: player) = [s for s in members(Spot) if s.owner == p]
def total(p: player) = sum([built[s].value for s in spots(p) if built[s] != none])

view {
    status "{total(a)} to {total(b)}"
}

procedure play() {
    rule "Spots: each player holds their three cards"
    for p in players {
        hand[p] = [c for c in members(Card) if c.owner == p]
    }
    rule "Spots: two rounds; in each, every player builds a card on their next spot or passes"
    for level in 1..2 {
        for p in players {
            choose c from hand[p] by p prompt "build" label "{c}"
            hand[p] = [d for d in hand[p] if d != c]
            built[[s for s in spots(p) if s.level == level][0]] = c
        }
    }
    rule "Spots: the higher total wins"
    game over best(players, p => total(p))
}
"""


@pytest.fixture(scope="module")
def spots(tmp_path_factory):
    path = tmp_path_factory.mktemp("spots") / "spots.game"
    path.write_text(SPOTS, encoding="utf-8")
    return load_game(path)


def _arranged(game, built: dict, hand: dict, pile: dict):
    """The game at its first decision (the hands dealt), then these cards where they are."""
    state = game.start(seed=0)
    for name, value in (("built", built), ("hand", hand), ("pile", pile)):
        state = game.with_var(state, name, value)
    return state


def _block(layout: TensorLayout, tensor, name: str, seats: int, groups: int, width: int):
    at, size = next((offset, size) for n, offset, size in layout.segments if n == f"{name} summary")
    assert size == seats * groups * width
    return tensor[at : at + size].reshape(seats, groups, width)


def test_a_summary_counts_the_cards_held_by_value_seat_and_level(spots):
    """`built` is keyed by spots: grouped by the spot's owner (relative: the viewer's first)
    and within a seat once in all, then by level; each group counts its filled spots, its
    cards, and its cards of each value (1, 2, 3)."""
    state = _arranged(
        spots,
        {"a spot 1": "2 (a)", "a spot 2": "3 (a)", "b spot 1": "1 (b)"},
        {"a": ["1 (a)"], "b": ["2 (b)", "3 (b)"]},
        {"a": [], "b": []},
    )
    layout = TensorLayout(spots, 2, relative=True, summaries=True)
    mine = _block(layout, layout.encode(spots.observation(state, "a"), "a"), "built", 2, 3, 5)
    # a's own spots: both filled, values 2 and 3; level 1 holds the 2, level 2 the 3
    assert mine[0].tolist() == [[2, 2, 0, 1, 1], [1, 1, 0, 1, 0], [1, 1, 0, 0, 1]]
    # b's spots, as a sees them: one filled (level 1, value 1)
    assert mine[1].tolist() == [[1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0]]
    theirs = _block(layout, layout.encode(spots.observation(state, "b"), "b"), "built", 2, 3, 5)
    assert theirs[0].tolist() == mine[1].tolist() and theirs[1].tolist() == mine[0].tolist()  # relative


def test_a_list_s_summary_counts_its_length_its_top_card_and_hides_what_the_seat_may_not_see(spots):
    """A hand seen by its owner alone: the other seat's counts only its length. A list also
    counts its top (last) card by value and how many lists have each length."""
    state = _arranged(spots, {}, {"a": ["1 (a)", "3 (a)"], "b": ["2 (b)", "3 (b)"]}, {"a": [], "b": []})
    layout = TensorLayout(spots, 2, relative=True, summaries=True)
    width = 2 + 3 + 3 + LENGTHS  # filled, cards, by value, the top card by value, by length
    hand = _block(layout, layout.encode(spots.observation(state, "a"), "a"), "hand", 2, 1, width)
    lengths = [0.0] * LENGTHS
    lengths[2] = 1.0
    assert hand[0, 0].tolist() == [1, 2, 1, 0, 1, 0, 0, 1, *lengths]
    assert hand[1, 0].tolist() == [1, 2, 0, 0, 0, 0, 0, 0, *lengths]  # b's hand: two cards, unseen


def test_a_layout_without_summaries_has_none(spots):
    """The adapters' tensor and a model fitted without `--summaries` keep their size."""
    plain = TensorLayout(spots, 2, relative=True)
    summed = TensorLayout(spots, 2, relative=True, summaries=True)
    assert not [n for n, _, _ in plain.segments if n.endswith(" summary")]
    assert summed.size > plain.size
    assert TensorLayout(spots, 2, summaries=True).size == TensorLayout(spots, 2).size  # only relative layouts


def _fit(game, summaries: bool) -> learned.Model:
    from interpreter.play.agents import parse_agents

    played = learned.self_play(game, 60, 1, None, lambda s, seed: parse_agents([], game, s.players, seed)[0])
    return learned.fit(game, played, {"agent": "random", "games": 60, "seed": 1}, summaries=summaries)


def test_a_model_with_summaries_ranks_a_high_card_built_above_a_low_one_and_reads_back(spots, tmp_path):
    """Fitted from 60 random games, a model that reads the summaries values a 3 on a's
    first spot above a 1 there; its file says it reads them, and the model read back
    builds the same layout (a file without the flag would not fit its columns)."""
    model = _fit(spots, summaries=True)
    assert model.header["summaries"] is True

    def value(card: str) -> float:
        state = _arranged(spots, {"a spot 1": card}, {"a": [], "b": []}, {"a": [], "b": []})
        return model.value(spots, state, "a")

    assert value("3 (a)") > value("1 (a)") + 0.1
    path = tmp_path / "spots.json"
    learned.save(model, path)
    back = learned.load(path)
    state = _arranged(spots, {"a spot 1": "2 (a)"}, {"a": ["3 (a)"], "b": []}, {"a": [], "b": []})
    assert back.value(spots, state, "a") == pytest.approx(model.value(spots, state, "a"), abs=1e-12)
    assert back._layout(spots)[0].size == TensorLayout(spots, 2, relative=True, summaries=True).size


def test_the_command_takes_summaries_and_the_games_of_later_rounds(tmp_path, capsys):
    out = tmp_path / "ttt.json"
    args = ["learn", "tictactoe", "--games", "20", "--rounds", "3", "--round-games", "5", "--out", str(out)]
    assert main([*args, "--summaries"]) == 0
    err = capsys.readouterr().err
    assert "round 2 of 3: 5 games greedy by the last fit" in err and "round 3 of 3: 5 games" in err
    header = json.loads(out.read_bytes())
    assert (header["summaries"], header["round_games"], header["rounds"]) == (True, 5, 3)
    one = tmp_path / "one.json"
    assert main(["learn", "tictactoe", "--games", "20", "--out", str(one)]) == 0
    first = json.loads(one.read_bytes())
    assert first["summaries"] is False
    # two rounds of 5 games, each of 4 to 9 decisions with a choice (not of 20 games each)
    assert first["positions"] + 2 * 5 * 4 <= header["positions"] <= first["positions"] + 2 * 5 * 9


def test_lists_of_five_cards_or_more_share_the_last_length(spots):
    """A list's lengths are counted 0 to 4 each and 5 or more together (`LENGTHS`): a pile
    of 6 and one of 5 both fall in the last; its top card (the last) is counted by value."""
    everything = ["1 (a)", "2 (a)", "3 (a)", "1 (b)", "2 (b)", "3 (b)"]
    state = _arranged(spots, {}, {"a": [], "b": []}, {"a": everything, "b": everything[1:]})
    layout = TensorLayout(spots, 2, relative=True, summaries=True)
    width = 2 + 3 + 3 + LENGTHS
    pile = _block(layout, layout.encode(spots.observation(state, "a"), "a"), "pile", 2, 1, width)
    last = [0.0] * (LENGTHS - 1) + [1.0]
    assert pile[0, 0].tolist() == [1, 6, 2, 2, 2, 0, 0, 1, *last]  # a's pile: top card the 3 of b
    assert pile[1, 0].tolist() == [1, 5, 1, 2, 2, 0, 0, 1, *last]


def _mirrored(spots, built: dict, hand: dict):
    """The same position with the seats' parts exchanged: a's cards and spots are b's."""

    def swap(name: str) -> str:
        return (
            name.replace("(a)", "(@)")
            .replace("(b)", "(a)")
            .replace("(@)", "(b)")
            .replace("a spot", "@ spot")
            .replace("b spot", "a spot")
            .replace("@ spot", "b spot")
        )

    return _arranged(
        spots,
        {swap(s): swap(c) for s, c in built.items()},
        {swap(f"({p})")[1]: [swap(c) for c in cards] for p, cards in hand.items()},
        {"a": [], "b": []},
    )


def test_components_made_seat_by_seat_are_written_where_their_seat_stands(spots):
    """Each seat has three cards and two spots, made alike: a relative layout writes "my
    spot 1" and "my card of value 3" as the same numbers whichever seat looks, so a's view
    of a position and b's view of its mirror (a's part and b's exchanged) are the same
    tensor, but for the seat named as the viewer and the seat to move. The adapters' layout
    keeps each component where the game declares it."""
    built = {"a spot 1": "2 (a)", "a spot 2": "3 (a)", "b spot 1": "1 (b)"}
    hand = {"a": ["1 (a)"], "b": ["2 (b)", "3 (b)"]}
    state, mirror = _arranged(spots, built, hand, {"a": [], "b": []}), _mirrored(spots, built, hand)
    for summaries in (False, True):
        layout = TensorLayout(spots, 2, relative=True, summaries=summaries)
        mine = layout.encode(spots.observation(state, "a"), "a")
        theirs = layout.encode(spots.observation(mirror, "b"), "b")
        skip = {n: (o, s) for n, o, s in layout.segments if n in ("viewer", "to_move")}
        keep = [i for i in range(layout.size) if not any(o <= i < o + s for o, s in skip.values())]
        assert mine[keep].tolist() == theirs[keep].tolist()
        at, size = next((o, s) for n, o, s in layout.segments if n == "built")
        # b's view of the real position: its own spot 1 (holding b's card of value 1) first
        first = layout.encode(spots.observation(state, "b"), "b")[at : at + size].reshape(4, -1)
        assert first[0, :6].tolist() == [1, 0, 0, 0, 0, 0]  # b's value-1 card, written first as "my 1"
        assert first[2, 3:6].tolist() == [0, 1, 0]  # a's spot 1 holds a's card of value 2
    plain = TensorLayout(spots, 2)
    at, size = next((o, s) for n, o, s in plain.segments if n == "built")
    declared = plain.encode(spots.observation(state, "b"), "b")[at : at + size].reshape(4, -1)
    assert declared[0, :6].tolist() == [0, 1, 0, 0, 0, 0]  # a spot 1 first, with "2 (a)", as declared
