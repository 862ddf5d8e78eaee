"""Strength that would show if it broke: move ordering by the designer's estimate, the
one-ply greedy agent, and the agents against random on the bundled games (the long ones
marked slow; benchmarks/strength.py makes the README's table of them).

The race of docs/language.md §3.20 is the small game where the right move is known: each
seat moves 1 or 2 steps, the first to 10 wins, and the estimate is the seat's lead.
"""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.core.errors import UsageError
from interpreter.play.agents import RandomAgent, make_agent, needs_chance
from interpreter.play.mcts import GreedyAgent, ISMCTSAgent, MCTSAgent, estimate_memo, move_scores, normalised
from interpreter.play.simulate import Setup, simulate, wilson
from tests.play.test_mcts import RACE


def _race(tmp_path, sign: str = ""):
    path = tmp_path / f"race{'_minus' if sign else ''}.game"
    path.write_text(RACE.replace("SIGN", sign), encoding="utf-8")
    return load_game(str(path))


def _at(game, north: int, south: int):
    """The race with north to move, the seats `north` and `south` steps along."""
    return game.start(seed=0, arrange=lambda s: game.with_var(s, "steps", {"north": north, "south": south}))


def test_move_scores_are_the_estimate_after_the_move_or_the_payoff_of_a_move_that_ends_it(tmp_path):
    """docs §3.20: a position still in play is worth its estimate (the lead, -10..10, scaled
    to -1..1); a move that ends the game is worth its payoff (a win: 1)."""
    game = _race(tmp_path)
    assert move_scores(game, _at(game, 0, 0), range(2), "north") == pytest.approx([0.1, 0.2])
    assert move_scores(game, _at(game, 8, 3), range(2), "north") == pytest.approx(
        [0.6, 1.0]
    )  # 9 - 3 = 6 steps ahead; 2 wins
    assert normalised([0.1, 0.2, 0.2]) == [0.0, 1.0, 1.0] and normalised([0.3, 0.3]) == [0.0, 0.0]


@pytest.mark.parametrize("seed", range(5))
def test_greedy_takes_what_the_estimate_prefers_unless_a_move_wins(tmp_path, seed):
    """One ply by the estimate: 2 steps when the estimate rewards a lead, 1 when it is turned
    upside down (so the estimate is what is read), yet 2 from 8 steps, where it wins."""
    game, upside_down = _race(tmp_path), _race(tmp_path, "-")
    assert game.labels(_at(game, 0, 0))[GreedyAgent(seed).choose(game, _at(game, 0, 0))] == "2"
    assert (
        upside_down.labels(_at(upside_down, 0, 0))[GreedyAgent(seed).choose(upside_down, _at(upside_down, 0, 0))] == "1"
    )
    assert (
        upside_down.labels(_at(upside_down, 8, 0))[GreedyAgent(seed).choose(upside_down, _at(upside_down, 8, 0))] == "2"
    )


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_move_ordering_tries_the_estimates_best_move_first(tmp_path, kind):
    """With ordering (`:o`) the first iteration tries the move the estimate likes best, so a
    one-iteration search takes it on every seed: 2 steps, or 1 with the estimate upside
    down. Without ordering the first move tried is drawn at random, and some seed takes 1."""
    for sign, wanted in (("", "2"), ("-", "1")):
        game = _race(tmp_path, sign)
        state = _at(game, 0, 0)
        for seed in range(8):
            agent = make_agent(f"{kind}:1:o", "north", seed, game)
            assert agent.bias > 0 and game.labels(state)[agent.choose(game, state)] == wanted
    game = _race(tmp_path)
    state = _at(game, 0, 0)
    unordered = {
        game.labels(state)[make_agent(f"{kind}:1", "north", seed, game).choose(game, state)] for seed in range(8)
    }
    assert unordered == {"1", "2"}


def test_move_ordering_scores_nodes_below_the_root_once_they_are_reached_warm_times(tmp_path):
    """Below the root, a node's moves are scored only once it has been reached `warm` times
    (scoring costs one move and one estimate per option): with warm 1 the second visit
    scores it, and a node reached once is never scored."""
    game = _race(tmp_path)
    state = _at(game, 0, 0)
    calls = []
    agent = MCTSAgent(6, seed=1, bias=1.0, warm=1)
    real = agent._order
    agent._order = lambda *args: calls.append(args[3]) or real(*args)
    agent.choose(game, state)
    assert calls[0] == "north" and "south" in calls[1:]  # the root, then a node of south's
    calls.clear()
    agent = MCTSAgent(6, seed=1, bias=1.0, warm=100)
    real = agent._order
    agent._order = lambda *args: calls.append(args[3]) or real(*args)
    agent.choose(game, state)
    assert calls == ["north"]


def test_greedy_and_ordering_need_an_estimate():
    """docs §3.20: tic-tac-toe declares no estimate, so there is nothing to order or be greedy by."""
    ttt = load_game("tictactoe")
    for kind in ("greedy", "mcts:20:o", "ismcts:0.5s:d10:o"):
        with pytest.raises(UsageError, match="declares none"):
            make_agent(kind, "x", 0, ttt)
    with pytest.raises(UsageError, match="^the greedy agent needs an estimate"):  # named as what was asked for
        make_agent("greedy:d4", "x", 0, ttt)
    assert main(["run", "tictactoe", "--agent", "x=greedy"]) == 2


@pytest.mark.parametrize("kind", ["ismcts:10:x", "ismcts:10:o0", "ismcts:10:oo", "mcts:10:d5:d5", "ismcts:10:o:o"])
def test_a_bad_search_part_is_a_usage_error(kind, capsys):
    game = load_game("twid")
    with pytest.raises(UsageError, match="rollout depth or move ordering"):
        make_agent(kind, "west", 0, game)


def test_search_parts_come_in_either_order_and_o_takes_a_weight():
    game = load_game("twid")
    a = make_agent("ismcts:0.5s:o:d30", "west", 0, game)
    b = make_agent("ismcts:0.5s:d30:o2.5", "west", 0, game)
    assert (a.depth, a.bias, b.depth, b.bias) == (30, 1.0, 30, 2.5)
    assert isinstance(make_agent("greedy", "west", 0, game), GreedyAgent)


def test_greedy_redraws_hidden_numbers_in_chance_mode():
    """Downfall of Empires' secret research is redrawn by replaying the record, which only
    chance mode keeps: `greedy` gets it there, as `ismcts` does."""
    doe = load_game("downfall_of_empires")
    assert needs_chance(doe, ["german=greedy"]) and not needs_chance(doe, ["german=random"])
    assert needs_chance(doe, ["greedy"]) and needs_chance(doe, ["ismcts:4"])  # balance's `--agent KIND`: every seat
    assert not needs_chance(load_game("twid"), ["west=greedy"])


def test_greedy_chooses_the_same_whatever_the_others_hand_holds():
    """It scores moves in a redrawn position, never the real one: East's hand exchanged
    with the deck, West chooses the same, decision after decision."""
    t = load_game("twid")
    for seed in (2, 3):
        s = t.start(players=2, seed=seed)
        a, b = GreedyAgent(5), GreedyAgent(5)
        for _ in range(6):
            hands, deck = t.var(s, "hand"), t.var(s, "deck")
            east = hands["east"]
            swapped = t.with_var(t.with_var(s, "hand", {"east": deck[: len(east)]}), "deck", east + deck[len(east) :])
            if s.pending.player != "west":
                s = t.apply_index(s, 0)
                continue
            i = a.choose(t, s)
            assert i == b.choose(t, swapped)
            s = t.apply_index(s, i)


def test_greedy_wins_the_race_against_random_from_either_seat(tmp_path):
    """Taking 2 steps every time wins the race moving first, and as south wins whenever
    north wastes a step; over 20 seeds a side greedy never loses as north and wins most as south."""
    game = _race(tmp_path)
    wins = {"north": 0, "south": 0}
    for seat, other in (("north", "south"), ("south", "north")):
        for seed in range(20):
            state = game.start(seed=seed)
            agents = {seat: GreedyAgent(seed), other: RandomAgent(100 + seed)}
            while state.result is None:
                state = game.apply_index(state, agents[state.pending.player].choose(game, state))
            wins[seat] += state.result == (seat,)
    assert wins["north"] == 20 and wins["south"] >= 14, wins


def test_ismcts_with_ordering_never_loses_tictactoe_to_random():
    """IS-MCTS also plays perfect-information games; at 100 iterations it never loses
    tic-tac-toe to random play in 20 games a side (tictactoe.md: a draw with good play)."""
    ttt = load_game("tictactoe")
    for seat, other in (("x", "o"), ("o", "x")):
        for seed in range(20):
            state = ttt.start(seed=seed)
            agents = {seat: ISMCTSAgent(100, seed=seed), other: RandomAgent(50 + seed)}
            while state.result is None:
                state = ttt.apply_index(state, agents[state.pending.player].choose(ttt, state))
            assert state.result in ((seat,), ()), (seat, seed)


def _win_rate(game: str, players: int, agent: str, games: int, seed: int = 1) -> tuple[float, float, float]:
    """`agent` in each seat in turn against random in the others, `games` games a seating:
    its win rate and 95% Wilson interval (benchmarks/strength.py's figure)."""
    seats = load_game(game).start(players=players, seed=0).players
    wins = 0.0
    for seat in seats:
        agents = tuple(f"{s}={agent if s == seat else 'random'}" for s in seats)
        for r in simulate(Setup(game, players=players, agents=agents), games, seed, 1):
            wins += (seat in r.winners) / max(len(r.winners), 1)
    n = games * len(seats)
    return (wins / n, *wilson(wins, n))


@pytest.mark.slow
def test_greedy_beats_random_at_the_wall_is_down():
    """The Wall is Down, 2 players: one ply by the estimate (VP lead and edged countries)
    wins far more than half of 40 games against random, seats swapped."""
    rate, low, _ = _win_rate("twid", 2, "greedy", 20)
    assert low > 0.6, rate


@pytest.mark.slow
def test_the_ordered_search_beats_random_at_the_wall_is_down():
    """The Wall is Down, 2 players: IS-MCTS with its rollouts cut at 30 decisions and its
    moves ordered by the estimate, 20 iterations a move, wins at least 5 of 6 games
    against random, seats swapped (at 0.2 s a move it won 19 of 20: benchmarks/README.md)."""
    rate, _, _ = _win_rate("twid", 2, "ismcts:20:d30:o", 3)
    assert rate >= 5 / 6, rate


def test_ordered_ismcts_chooses_the_same_whatever_the_others_hand_holds():
    """Move ordering scores moves in the determinisation being searched, never the real
    position: East's hand exchanged with the deck, West's ordered search is the same."""
    t = load_game("twid")
    s = t.start(players=2, seed=2)
    hands, deck = t.var(s, "hand"), t.var(s, "deck")
    east = hands["east"]
    swapped = t.with_var(t.with_var(s, "hand", {"east": deck[: len(east)]}), "deck", east + deck[len(east) :])
    a, b = ISMCTSAgent(20, seed=3, depth=10, bias=1.0, warm=1), ISMCTSAgent(20, seed=3, depth=10, bias=1.0, warm=1)
    assert a.choose(t, s) == b.choose(t, swapped) and a.last_root == b.last_root


def test_greedy_wins_berlin_wall_against_random_from_either_seat():
    """Berlin Wall (Object: the first to collect 12 pieces wins), scored by its estimate,
    the lead in pieces collected: greedy wins every one of 2 games a seat against random
    (seeds 1 and 2, as `gamedef simulate` seeds them, so the figures are reproducible)."""
    rate, _, _ = _win_rate("berlin_wall", 2, "greedy", 2)
    assert rate == 1.0, rate


TWO_STEP = """
game two_step "An action, then its size" {
    players 2..2
    seats [north, south]
}

var steps: player -> int = 0

payoff p from -1 to 1 sum 0: (if steps[p] >= 10 then 1 else -1)

estimate p from -10 to 10: steps[p] - steps[first([q for q in players if q != p])]

procedure play() {
    rule "Each turn a seat waits, or steps and then says how far: 1 or 2; the first to reach 10 wins"
    while true {
        for p in players {
            choose a from ["step", "wait"] by p prompt "step or wait?" label "{a}"
            if a == "step" {
                choose n from [1, 2] by p prompt "how far?" label "{n}"
                steps[p] += n
                if steps[p] >= 10 {
                    win p
                }
            }
        }
    }
}
"""


def test_greedy_scores_an_action_by_the_best_of_the_choices_it_opens(tmp_path):
    """docs §3.20: `greedy` plays a whole action. Choosing "step" changes nothing until its
    size is chosen, so one ply alone ties it with "wait"; looked through to the size, it is
    worth 2 steps, and greedy steps on every seed. A look ahead over its budget is not made."""
    path = tmp_path / "two_step.game"
    path.write_text(TWO_STEP, encoding="utf-8")
    game = load_game(str(path))
    state = game.start(seed=0)
    assert move_scores(game, state, range(2), "north") == pytest.approx([0.0, 0.0])
    assert move_scores(game, state, range(2), "north", lookahead=2) == pytest.approx([0.2, 0.0])
    assert move_scores(game, state, range(2), "north", lookahead=1) == pytest.approx([0.0, 0.0])
    assert {game.labels(state)[GreedyAgent(seed).choose(game, state)] for seed in range(8)} == {"step"}


def test_greedy_continuations_play_a_whole_action_as_greedy_does(tmp_path):
    """`greedy:dD` scores a move by continuations in which each seat makes the greedy agent's
    own one-ply choice. After north waits, south's greedy choice is to step and then step 2
    (the test above), so two decisions on north stands 2 behind: -0.2 on every seed. A
    continuation that scored "step" without looking through to its size would tie it with
    "wait" and take either, and north would often be level (0.0)."""
    path = tmp_path / "two_step.game"
    path.write_text(TWO_STEP, encoding="utf-8")
    game = load_game(str(path))
    start = game.start(seed=0)
    waited = game.apply_index(start, game.labels(start).index("wait"))
    assert waited.pending.player == "south"
    values = set()
    for seed in range(12):
        agent = GreedyAgent(seed, lookahead=2, samples=1)
        agent._memo = estimate_memo(game)  # as `choose` sets it for the decision weighed
        values.add(round(agent._continue(game, waited, "north"), 6))
    assert values == {-0.2}, values


def test_greedy_completes_walls_and_wonders_wonders_against_random():
    """Walls and Wonders, 2 players, construction victory (Winning the game: a complete
    five-tier Wonder): one ply by the estimate (Wonder height, walls, high cards kept for
    the upper levels, Tips) completes its Wonder in each of 2 games a seat against random
    (seeds 1 and 2), where random players complete none."""
    rate, _, _ = _win_rate("walls_and_wonders", 2, "greedy", 2)
    assert rate == 1.0, rate


@pytest.mark.slow
def test_greedy_beats_random_at_walls_and_wonders():
    """Walls and Wonders, 2 players: greedy wins at least 90% of 40 games against random,
    seats swapped (the bar of benchmarks/README.md "Strength"; it won 97% of 240 there)."""
    rate, _, _ = _win_rate("walls_and_wonders", 2, "greedy", 20)
    assert rate >= 0.9, rate


GAMBLE = """
game gamble "A gamble" {
    players 2..2
    seats [north, south]
}

var score: player -> int = 0

payoff p from -1 to 1: (if score[p] >= max([score[q] for q in players]) then 1 else -1)

estimate p from -10 to 10: score[p] - score[first([q for q in players if q != p])]

procedure play() {
    rule "Gamble: three rounds; each seat risks (a die: 3 or more gains 2, else loses 1) or passes"
    for k in 1..3 {
        for p in players {
            choose m from ["risk", "pass"] by p prompt "risk or pass?" label "{m}"
            if m == "risk" {
                roll r from 1..6
                if r >= 3 {
                    score[p] += 2
                } else {
                    score[p] -= 1
                }
            }
        }
    }
    game over best(players, p => score[p])
}
"""


def test_greedy_looking_ahead_sees_the_worth_of_a_gamble_that_one_ply_cannot(tmp_path):
    """A risk resolved by a die (a draw of chance mode) is worth +1 a try on average, a pass
    0. One ply scores the position before the die, the same as a pass, so it takes either;
    `greedy:d1:n8` plays past the die, 8 samples, and takes the risk from every seed."""
    path = tmp_path / "gamble.game"
    path.write_text(GAMBLE, encoding="utf-8")
    game = load_game(str(path), chance=True)
    start = game.start(seed=0)
    assert game.labels(start) == ["risk", "pass"]
    ahead = {game.labels(start)[GreedyAgent(seed, lookahead=1, samples=8).choose(game, start)] for seed in range(12)}
    one_ply = {game.labels(start)[GreedyAgent(seed).choose(game, start)] for seed in range(12)}
    assert ahead == {"risk"} and one_ply == {"risk", "pass"}, (ahead, one_ply)


def test_greedy_lookahead_is_parsed_and_checked():
    """`greedy:dD:nS`: D decisions ahead (0 to 200), S samples (1 to 100, 2 if not given);
    anything else is a usage error naming the part, and a game without an estimate refuses it."""
    twid = load_game("twid")
    agent = make_agent("greedy:d6:n3", "west", 0, twid)
    assert isinstance(agent, GreedyAgent) and (agent.lookahead, agent.samples) == (6, 3)
    assert make_agent("greedy:d4", "west", 0, twid).samples == 2
    for bad in ("greedy:x", "greedy:d", "greedy:d201", "greedy:d3:d4", "greedy:n0x"):
        with pytest.raises(UsageError):
            make_agent(bad, "west", 0, twid)
    assert main(["run", "tictactoe", "--agent", "x=greedy:d3"]) == 2


def _doe_estimate(game, state) -> dict[str, int]:
    """Each seat's raw `estimate` of Downfall of Empires (its lead, before scaling)."""
    from interpreter.runtime.machine import VM

    fn = game.compiled.estimate.value
    vm = VM(game.compiled, state)
    return {p: fn(vm, [p]) for p in state.players}


def test_downfall_estimate_counts_a_city_taken_before_the_turn_ends():
    """Rule 3 (control changes at the end of the active Power's turn) and rule 5 (an enemy
    city held: +1 VP; a home city lost: -1 VP, which the Franco-British share): a German army
    standing alone in Warsaw during Germany's turn is already worth Warsaw to the estimate,
    1 VP (3 points) more for Germany and 1 less for Russia and the Franco-British, so a
    player that looks a few decisions ahead sees an offensive pay before the turn's end;
    with the Russian army still there it is worth nothing yet."""
    game = load_game("downfall_of_empires")
    s = game.start(players=4, seed=1)
    assert game.var(s, "playing") == "GE"
    at = game.var(s, "at")
    defenders = [a for a, z in at.items() if z == "warsaw"]
    assert defenders and game.var(s, "control")["warsaw"] == "RU"
    alone = game.with_var(s, "at", {"German 5(2) 1": "warsaw", **dict.fromkeys(defenders)})
    beside = game.with_var(s, "at", {"German 5(2) 1": "warsaw"})
    before, after = _doe_estimate(game, s), _doe_estimate(game, alone)
    assert game.var(alone, "control")["warsaw"] == "RU"  # not yet German: the turn has not ended
    # Germany +3 (Warsaw) against Russia's -3 (the city) -1 (its army off the map): a lead 7 better
    assert after["german"] - before["german"] == 7, (before, after)
    assert _doe_estimate(game, beside) == before


@pytest.mark.slow
def test_greedy_looking_ahead_wins_downfall_of_empires_as_germany():
    """Rule 5: Germany starts 8 VP behind Russia and must take enemy cities to win. Looking
    6 decisions ahead (2 samples) it does: on seed 3 against three random players Germany
    ends with the most VP (it won 3 of seeds 1-4; one-ply greedy won none of 4 as Germany,
    benchmarks/README.md "Strength"). About 40 seconds."""
    setup = Setup("downfall_of_empires", players=4, agents=("german=greedy:d6:n2",), chance=True)
    (record,) = simulate(setup, 1, 3, 1)
    assert record.winners == ("german",), record.winners
