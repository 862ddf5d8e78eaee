"""IS-MCTS keeps its tree between moves (interpreter/play/mcts.py, "Tree reuse"), and the
games of a report are spread over a pool of processes with the results of one.

Reuse: told every move (`ISMCTSAgent.seen`), the next search starts from the subtree under
the moves that happened, as its seat saw them, with that subtree's visit counts; a move
missed, or a search for another seat, starts afresh. A seed still fixes every move.
"""

from __future__ import annotations

import json
import re

import pytest

from interpreter import load_game
from interpreter.cli.commands import main
from interpreter.play import simulate as sim
from interpreter.play.agents import listeners, parse_agents, tell
from interpreter.play.mcts import ISMCTSAgent


@pytest.fixture(scope="module")
def kuhn():
    return load_game("kuhn_poker")


def _tell(agent: ISMCTSAgent, game, state, label: str):
    """Tell the agent the move and make it: what `gamedef simulate`'s loop does."""
    agent.seen(game, state, label)
    return game.apply(state, label)


def test_the_kept_subtree_keeps_its_visit_counts_and_the_new_iterations_are_added(kuhn):
    """Kuhn poker: p1 checks, p2 bets, p1 must fold or call. The node under (check, bet)
    of p1's first search, with its tries per move, is the root of its second search, and
    that search adds exactly its own iterations on top."""
    agent = ISMCTSAgent(300, seed=4)
    s = kuhn.start(seed=2)
    agent.choose(kuhn, s)
    assert agent.last_kept == 0  # the first search has nothing to keep
    node = agent._tree[(("p1", "check"), ("p2", "bet"))]
    before = {move: stats[0] for move, stats in node.items()}
    assert set(before) == {"fold", "call"} and sum(before.values()) > 0
    s = _tell(agent, kuhn, s, "check")
    s = _tell(agent, kuhn, s, "bet")
    agent.choose(kuhn, s)
    assert agent.last_kept == sum(before.values())
    after = {move: stats[0] for move, stats in agent.last_root.items()}
    assert all(after[m] >= before[m] for m in before)
    assert sum(after.values()) == sum(before.values()) + 300


def test_a_move_not_told_starts_the_next_search_afresh(kuhn):
    agent = ISMCTSAgent(300, seed=4)
    s = kuhn.start(seed=2)
    agent.choose(kuhn, s)
    s = kuhn.apply(s, "check")  # not told
    s = _tell(agent, kuhn, s, "bet")
    agent.choose(kuhn, s)
    assert agent.last_kept == 0
    assert sum(stats[0] for stats in agent.last_root.values()) == 300


def test_without_reuse_each_search_is_its_own(kuhn):
    agent = ISMCTSAgent(300, seed=4, reuse=False)
    s = kuhn.start(seed=2)
    agent.choose(kuhn, s)
    s = _tell(agent, kuhn, s, "check")
    s = _tell(agent, kuhn, s, "bet")
    agent.choose(kuhn, s)
    assert agent.last_kept == 0
    assert sum(stats[0] for stats in agent.last_root.values()) == 300


def test_another_seats_moves_are_kept_as_the_seat_saw_them():
    """Tic-tac-toe, both seats searching and told each move: every search after each seat's
    first keeps a subtree (its own move and the other's reply, a node 200 iterations over
    at most nine cells always reach)."""
    game = load_game("tictactoe")
    s = game.start(seed=0)
    agents = {p: ISMCTSAgent(200, seed=i) for i, p in enumerate(s.players)}
    kept = []
    while s.result is None and len(game.labels(s)) > 2:
        agent = agents[s.pending.player]
        label = game.labels(s)[agent.choose(game, s)]
        kept.append(agent.last_kept)
        for other in agents.values():
            other.seen(game, s, label)
        s = game.apply(s, label)
    assert kept[:2] == [0, 0] and all(k > 0 for k in kept[2:]), kept


def test_the_same_seed_gives_the_same_moves_with_reuse():
    """Two agents of one seed, told the same moves, choose the same moves all game long."""
    game = load_game("tictactoe")
    games = []
    for _ in range(2):
        s = game.start(seed=3)
        agents = {p: ISMCTSAgent(60, seed=10 + i) for i, p in enumerate(s.players)}
        moves = []
        while s.result is None:
            label = game.labels(s)[agents[s.pending.player].choose(game, s)]
            for agent in agents.values():
                agent.seen(game, s, label)
            moves.append(label)
            s = game.apply(s, label)
        games.append(moves)
    assert games[0] == games[1] and len(games[0]) >= 5


def test_a_pool_of_processes_plays_the_games_of_one_process():
    """A seeded pool across games: every game of IS-MCTS players (reusing their trees)
    played by two worker processes is the game one process plays."""
    setup = sim.Setup(game="kuhn_poker", players=2, agents=("p1=ismcts:40", "p2=ismcts:40"))
    here = sim.simulate(setup, 12, 5, jobs=1)
    assert sim.simulate(setup, 12, 5, jobs=2) == here


@pytest.mark.slow
def test_a_local_ray_cluster_of_two_cpus_plays_the_games_of_the_process_pool():
    """`--ray` on a local cluster of two CPUs (`ray.init(num_cpus=2)`, opened here as
    `gamedef balance` opens its own for both player counts) gives, seed by seed, the
    records the pool of two processes gives: IS-MCTS seats keeping their trees over Kuhn
    poker's hidden cards, and The Wall is Down's look-ahead seats. (Ray's start: about 10 s.)"""
    ray = pytest.importorskip("ray")
    from interpreter.cli.ray_workers import LOCAL_RAY, ray_workers

    setups = [
        (sim.Setup(game="kuhn_poker", players=2, agents=("p1=ismcts:40", "p2=ismcts:40")), 10),
        (sim.Setup(game="twid", players=2, agents=("west=greedy:d2:n1", "east=greedy")), 4),
    ]
    pooled = [sim.simulate(setup, games, 3, jobs=2) for setup, games in setups]
    # address="local": a new instance of its own, never a cluster another test (run beside
    # it by pytest-xdist) has started and named as the machine's current one
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert ray.cluster_resources()["CPU"] == 2
        with ray_workers(LOCAL_RAY, 2) as workers:  # the caller's session: used as it is
            on_ray = [sim.simulate(setup, games, 3, jobs=2, workers=workers) for setup, games in setups]
        assert ray.is_initialized()  # and left open for its next report
    finally:
        ray.shutdown()
    assert on_ray == pooled
    assert [[r.seed for r in records] for records in on_ray] == [list(range(3, 13)), list(range(3, 7))]


def test_a_balance_report_of_searching_seats_is_the_same_on_one_process_and_two(capsys):
    argv = ["balance", "tictactoe", "--games", "6", "--seed", "2", "--agent", "ismcts:30", "--json"]
    docs = []
    for jobs in ("1", "2"):
        assert main([*argv, "--jobs", jobs]) == 0
        doc = json.loads(capsys.readouterr().out)
        docs.append({**doc, "counts": [{k: v for k, v in c.items() if k != "seconds"} for c in doc["counts"]]})
    assert docs[0] == docs[1]


def test_simulate_tells_each_searching_agent_every_move(monkeypatch):
    """`gamedef simulate`'s loop tells every move, by any seat, to each agent that keeps
    its tree: two searching seats are told each decision of the game once each."""
    told = []
    original = ISMCTSAgent.seen

    def seen(self, game, state, label):
        told.append((id(self), state.decisions))
        original(self, game, state, label)

    monkeypatch.setattr(ISMCTSAgent, "seen", seen)
    setup = sim.Setup(game="tictactoe", players=2, agents=("x=ismcts:20", "o=ismcts:20"))
    (record,) = sim.simulate(setup, 1, 1, jobs=1)
    assert len(told) == 2 * record.decisions
    assert sorted(d for _, d in told) == sorted(list(range(record.decisions)) * 2)


def _moves(game, seed: int, kind: str, told: bool) -> list[str]:
    """The moves of the game of `seed` with every seat `kind`, the agents made as `run` makes
    them, each move told to them (as `run` and `simulate` do) or not."""
    state = game.start(seed=seed)
    agents, _ = parse_agents([f"{p}={kind}" for p in state.players], game, state.players, seed)
    moves = []
    while state.result is None:
        index = agents[state.pending.player].choose(game, state)
        if told:
            tell(listeners(agents), game, state, index)
        moves.append(game.labels(state)[index])
        state = game.apply_index(state, index)
    return moves


def test_run_tells_the_searches_every_move_as_simulate_does(capsys):
    """`gamedef run --seed S` plays the game `simulate` plays for S: its searches keep their
    trees too (a run whose searches were not told would play other moves in some seeds)."""
    game = load_game("tictactoe")
    seeds = range(1, 7)
    told = {seed: _moves(game, seed, "ismcts:40", True) for seed in seeds}
    assert any(told[seed] != _moves(game, seed, "ismcts:40", False) for seed in seeds)
    for seed in seeds:
        assert (
            main(
                ["run", "tictactoe", "--seed", str(seed), "--agent", "x=ismcts:40", "--agent", "o=ismcts:40", "--json"]
            )
            == 0
        )
        docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [d["move"] for d in docs if "move" in d] == told[seed]
        assert (
            main(
                ["run", "tictactoe", "--seed", str(seed), "--agent", "x=ismcts:40", "--agent", "o=ismcts:40", "--moves"]
            )
            == 0
        )
        shown = re.findall(r"^  > \w+: (\S+)$", capsys.readouterr().out, re.M)
        assert shown == told[seed]


def test_a_kept_tree_reads_nothing_its_seat_cannot_see(kuhn):
    """Kuhn poker, p1 searching twice with reuse: the same choices and the same root counts
    whatever p2's hidden card is (p2's card and the deck's exchanged), since the moves are
    kept as p1 saw them."""
    for seed in range(4):
        s = kuhn.start(seed=seed)
        other = kuhn.with_var(kuhn.with_var(s, "hand", {"p2": kuhn.var(s, "deck")}), "deck", kuhn.var(s, "hand")["p2"])
        assert kuhn.var(other, "hand")["p2"] != kuhn.var(s, "hand")["p2"]
        roots = []
        for start in (s, other):
            agent = ISMCTSAgent(120, seed=9)
            first = agent.choose(kuhn, start)
            after = _tell(agent, kuhn, _tell(agent, kuhn, start, "check"), "bet")
            roots.append((first, agent.choose(kuhn, after), agent.last_kept, agent.last_root))
        assert roots[0] == roots[1] and roots[0][2] > 0
