"""A Monte Carlo tree search player (UCT with random rollouts) for perfect-information games.

The search reads the whole state, so it is fair only where every seat may see all of it:
`hidden_information` says why a game is not such a game, and the agent refuses to play
one (an information-set search, IS-MCTS, is what hidden hands and secret choices need).

Design, kept small because each iteration's cost is mostly the engine's `apply_index`:

* The tree is a dict from a position to its node. A node holds, per legal move, how often
  it was tried and the payoff it brought to the seat that chose it (the mover of that
  node): selecting by the mover's own payoff is max^n UCT, which for two players is the
  usual negamax UCT and for more needs no assumption that the others gang up.
* The state's random generator is replaced at the start of every iteration by one drawn
  from the agent's own generator, and positions are keyed without it. Otherwise the search
  would play out the real future dice and shuffles; this way a roll or a draw in the tree
  is sampled afresh each time, and its outcomes lead to different nodes (chance handled
  by sampling, with no change to the engine).
* Payoffs from `result()`: each winner gets 1 / (number of winners), every other seat -1;
  a game over with no winner, or a rollout longer than `max_rollout` decisions, is 0 for all.
"""

from __future__ import annotations

import math
import random
import time

from .engine import Game, State
from .errors import UsageError


def hidden_information(game: Game) -> list[str]:
    """What in a game some seat may not see: the reasons a full-state search would cheat.

    Read from the compiled declarations: variables `seen by owner`/`seen by none`, entity
    fields with `visible when`, and `choose ... secret`. Empty for a perfect-information game.
    """
    compiled = game.compiled
    found = [f"variable '{v.name}' is seen by {v.seen_by}" for v in compiled.var_order if v.seen_by != "all"]
    for kind, rules in compiled.visibility.items():
        fields = [field for field, _ in rules]
        if fields:
            names = ", ".join(f"'{kind}.{f}'" for f in fields)
            found.append(f"field{'s' if len(fields) > 1 else ''} {names} visible only when a condition holds")
    secret = sum(1 for choice in compiled.choices if choice[2])
    if secret:
        found.append(f"{secret} secret choose{'s' if secret > 1 else ''}")
    return found


def refuse_hidden(game: Game, kind: str = "mcts") -> None:
    """Raise a UsageError naming the hidden information if `game` has any."""
    found = hidden_information(game)
    if found:
        raise UsageError(
            f"{kind} reads the whole state, so in {game.header.title} it would see hidden information: "
            + "; ".join(found),
            "a game with hidden information needs an information-set search (IS-MCTS); "
            "use random, first or human for this game",
        )


def payoffs(winners: tuple[str, ...] | None, seats: tuple[str, ...]) -> dict[str, float]:
    """Each seat's payoff for a result: a shared win splits +1, a loss is -1, no winner 0."""
    if not winners:
        return dict.fromkeys(seats, 0.0)
    share = 1.0 / len(winners)
    return {seat: share if seat in winners else -1.0 for seat in seats}


def _key(state: State) -> tuple:
    """A position without its random generator (the search draws its own) or its log.

    `decisions` stays in: it makes every path through the tree strictly deeper, so the
    descent cannot loop on a repeated position, while transpositions at one depth merge."""
    return (state.vars, state.frames, state.pending, state.decisions, state.pins, state.result)


class MCTSAgent:
    """UCT Monte Carlo tree search: `iterations` playouts per decision, or as many as fit in
    `seconds` (then not reproducible), each down the tree by UCB1 and on by uniform random
    moves. Reproducible for a given seed and sequence of decisions: all its randomness comes
    from its own generator. `allow_hidden` skips the refusal for games with hidden
    information (for measuring speed only: the play then cheats)."""

    def __init__(
        self,
        iterations: int = 200,
        seed: int = 0,
        seconds: float | None = None,
        exploration: float = 1.4,
        max_rollout: int = 10_000,
        allow_hidden: bool = False,
    ):
        if iterations < 1 and seconds is None:
            raise ValueError("MCTSAgent needs at least one iteration or a time budget")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.max_rollout = max_rollout
        self.allow_hidden = allow_hidden
        self.rng = random.Random(seed)
        self.last_iterations = 0  # how many iterations the last search ran (for benchmarks)
        self.last_root: tuple[list[int], list[float]] = ([], [])  # its root's tries and payoff sums per move
        self._checked: object = None  # the compiled game last found free of hidden information

    def choose(self, game: Game, state: State) -> int:
        if not self.allow_hidden and self._checked is not game.compiled:
            refuse_hidden(game)
            self._checked = game.compiled
        if len(state.pending.values) == 1:  # nothing to weigh
            self.last_iterations = 0
            return 0
        return self.search(game, state)

    def search(self, game: Game, root: State) -> int:
        """Run the iterations from `root`; the index of its most tried move."""
        tree: dict[tuple, list] = {}
        apply = game.apply_index
        rng = self.rng
        randrange, getrandbits = rng.randrange, rng.getrandbits
        c = self.exploration
        seats = root.players
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if deadline is None:
                if done >= self.iterations:
                    break
            elif done and time.perf_counter() >= deadline:
                break
            done += 1
            state = root._replace(rng=getrandbits(64))
            path: list[tuple[list, int, str]] = []
            # Descend while every move of the node has been tried; expand one untried move.
            while state.result is None:
                key = _key(state)
                node = tree.get(key)
                if node is None:  # [visits, tries per move, payoff sums, untried moves]
                    n = len(state.pending.values)
                    untried = list(range(n))
                    rng.shuffle(untried)
                    node = tree[key] = [0, [0] * n, [0.0] * n, untried]
                mover = state.pending.player
                if node[3]:
                    i = node[3].pop()
                    path.append((node, i, mover))
                    state = apply(state, i)
                    break
                tries, sums = node[1], node[2]
                log_visits = math.log(node[0])
                best, i = -math.inf, 0
                for j, t in enumerate(tries):
                    score = sums[j] / t + c * math.sqrt(log_visits / t)
                    if score > best:
                        best, i = score, j
                path.append((node, i, mover))
                state = apply(state, i)
            # Roll out uniformly at random to the end, or to the cap (a draw).
            steps = 0
            while state.result is None and steps < self.max_rollout:
                state = apply(state, randrange(len(state.pending.values)))
                steps += 1
            value = payoffs(state.result, seats)  # no result (the cap): 0 for all
            for node, i, mover in path:
                node[0] += 1
                node[1][i] += 1
                node[2][i] += value[mover]
        self.last_iterations = done
        root_node = tree[_key(root)]
        tries, sums = root_node[1], root_node[2]
        self.last_root = (tries, sums)
        return max(range(len(tries)), key=lambda j: (tries[j], sums[j] / tries[j] if tries[j] else -math.inf, -j))
