"""A Monte Carlo tree search player (UCT with random rollouts) for perfect-information games.

The search reads the whole state, so it is fair only where every seat may see all of it:
`hidden_information` says why a game is not such a game, and the agent refuses to play
one (an information-set search, IS-MCTS, is what hidden hands and secret choices need).

Design, kept small because each iteration's cost is mostly the engine's (`apply_index` down
the tree, `Game.playout` for the rollout, in one working copy):

* The tree is a dict from a position to its node. A node holds, per legal move, how often
  it was tried and the payoff it brought to the seat that chose it (the mover of that
  node): selecting by the mover's own payoff is max^n UCT, which for two players is the
  usual negamax UCT and for more needs no assumption that the others gang up.
* The state's random generator is replaced at the start of every iteration by one drawn
  from the agent's own generator, and positions are keyed without it. Otherwise the search
  would play out the real future dice and shuffles; this way a roll or a draw in the tree
  is sampled afresh each time, and its outcomes lead to different nodes (chance handled
  by sampling, with no change to the engine).
* In chance mode (interpreter/runtime/chance.py) a random draw is a decision of the `chance` seat,
  which has no payoff: both searches draw it by its probability, make no node for it and
  credit it nothing.
* Payoffs from `Game.returns` (the game's `payoff`, or +1 shared by the winners and -1 by
  the others), scaled to -1..1; a rollout longer than `max_rollout` decisions is 0 for all.
* `depth`: a rollout cut after that many decisions is scored by the game's `estimate`
  (docs §3.20), scaled to -1..1 by its bounds, instead of being played to the end: a
  designer's judgement of a position for many random moves of a long game.
* `bias` (move ordering, progressive bias): at the root, and at a node once it has been
  reached `warm` times, every move is scored by the estimate of the position it leads to
  (or its payoff when it ends the game), for the mover, rescaled to 0..1 among the node's
  moves. Untried moves are then tried best first, and UCB1 gains `bias * score / (tries + 1)`:
  the designer's judgement steers the first visits and fades as real results come in
  (Chaslot et al. 2008, "progressive strategies"). A node reached fewer times costs nothing.
* `GreedyAgent` plays one ply by the same scores, no search: cheap, and a fair baseline.
  Its ply is a whole action: a move that changes nothing but asks its seat a further choice
  (an action, then its card, then its place) is scored by the best of those (`LOOKAHEAD`).

`ISMCTSAgent` is the information-set search for games with hidden hands and secret
choices (single-observer IS-MCTS, Cowling, Powley & Whitehouse 2012): each iteration
searches one determinisation, `Game.resample` of the real position from the agent's
seat (what it cannot see redrawn: interpreter/runtime/resample.py), and the tree's nodes are
what the agent's seat has seen since the root: the moves as it saw them (another seat's
secret choice as "(secret choice)"). A move is scored only over the iterations in which
it was legal (availability counts). It never reads what its seat cannot see: its choice
is the same for any two positions that differ only there (tests/runtime/test_theory.py).

Tree reuse between moves: the caller that tells the agent every move as it is made
(`ISMCTSAgent.seen`; the loops of `run`, `play`, `simulate` and `balance` do) lets it keep, at its
next decision, the subtree under the moves that happened as its seat saw them (its own
move, the others' moves with secret choices hidden, the draws as it saw them): that node
is its information set now, since the tree is keyed by exactly that history. The kept
nodes keep their visit counts, payoff sums, availability counts and move scores; the new
iterations are added on top. Determinisations are not kept: every new iteration draws a
new one from the real position now (`Game.resample` from the seat's view), so it agrees
with everything seen since. The kept statistics came from worlds drawn before those moves
were seen; some of them may have been ruled out since (a card another seat has shown),
and they stay in the counts as a prior that weighs less as new iterations come in, as in
Cowling et al.'s reuse. When the moves told do not join the last search's root to this
one (a move missed, another game, another seat, another game's rules) or the node was
never reached, the search starts from an empty tree, as it does without `seen`.
"""

from __future__ import annotations

import math
import random
import time

from interpreter.core.errors import HiddenInformationError, UsageError
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.game import ChanceGame, Game
from interpreter.runtime.machine import State


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
    secret = sum(1 for choice in compiled.choices if choice.secret)
    if secret:
        found.append(f"{secret} secret choose{'s' if secret > 1 else ''}")
    return found


def refuse_hidden(game: Game, kind: str = "mcts") -> None:
    """Raise a HiddenInformationError naming the hidden information if `game` has any."""
    found = hidden_information(game)
    if found:
        raise HiddenInformationError(kind, game.header.title, found)


def refuse_unresampled(game: Game, state: State | None = None) -> None:
    """Raise a UsageError if some hidden value cannot be redrawn in `state`, or in a position
    of ordinary play without one (IS-MCTS would read it): hidden numbers are redrawn by
    replaying the record of the moves, which only chance mode keeps."""
    from interpreter.runtime.resample import unresampled

    found = unresampled(game, state)
    if found:
        raise UsageError(
            f"ismcts would read hidden values it cannot redraw in {game.header.title}: " + ", ".join(found),
            "they are redrawn by replaying the record of the moves, which ordinary play does not keep "
            "(a game loaded with chance=True does); use random, first or human for this game",
        )


def scaled_returns(game: Game, state: State) -> dict[str, float]:
    """Each seat's return (`Game.returns`: the game's payoff, or +1 shared by the winners
    and -1 by the others), scaled to -1..1 by the game's bounds so one exploration
    constant suits every game; a game cut short (no result) is 0 for all."""
    if state.result is None:
        return dict.fromkeys(state.players, 0.0)
    low, high = game.utility_bounds()
    return {p: 2 * (v - low) / (high - low) - 1 for p, v in game.returns(state).items()}


def scaled_estimates(game: Game, state: State) -> dict[str, float] | None:
    """Each seat's `estimate` of a position still in play (docs §3.20), clamped into its
    bounds and scaled to -1..1 as payoffs are; None for a game that declares none."""
    values = game.estimates(state)
    bounds = game.estimate_bounds()
    if values is None or bounds is None:
        return None
    low, high = bounds
    return {p: 2 * (v - low) / (high - low) - 1 for p, v in values.items()}


def refuse_depth(game: Game, depth: int | None) -> None:
    """A rollout depth needs the game's `estimate` to score the rollouts it cuts short."""
    if depth is not None and game.estimate_bounds() is None:
        raise UsageError(
            f"a rollout depth needs an estimate of the positions it stops at, and {game.header.title} declares none",
            "declare one beside the payoff: `estimate p from LO to HI: EXPR` (docs §3.20), or drop the depth",
        )


def rollout_value(game: Game, state: State, depth: int | None) -> dict[str, float]:
    """The scaled payoffs of a rollout's last position: the returns of a finished game, the
    estimate of one cut at `depth`, else (the cap) 0 for all."""
    if state.result is None and depth is not None:
        values = scaled_estimates(game, state)
        if values is not None:
            return values
    return scaled_returns(game, state)


# The positions the greedy agent may look through to score one move whose choice is made in
# several steps by the same seat (an action, then its card, then where it goes).
LOOKAHEAD = 256


def move_scores(
    game: Game, state: State, moves: range | list[int], mover: str, lookahead: int = 0, memo: dict | None = None
) -> list[float]:
    """The mover's scaled value (-1..1) of the position each move leads to: its payoff if
    the move ends the game, else the game's `estimate` (docs §3.20). What move ordering and
    the greedy agent rank moves by; the state's generator decides any random draw a move
    makes, so a search passes its own.

    With `lookahead` > 0 (the greedy agent's), a move that changes no variable and leads to
    the same seat's next choice (an action chosen before its card and its place) is scored
    by the best of those next moves, through at most `lookahead` positions a move: else
    such a move looks exactly like the position before it, and every action ties.

    `memo` (`estimate_memo`) keeps the estimates already made, for a caller that scores
    many positions with the same variables (the greedy agent's look ahead)."""
    out = []
    for i in moves:
        out.append(_value_after(game, state, game.apply_index(state, i), mover, [lookahead], memo))
    return out


def _value_after(
    game: Game, before: State, after: State, mover: str, budget: list[int], memo: dict | None = None
) -> float:
    """`move_scores`' value of one move (from `before` to `after`); `budget` (one number, shared
    by the move's whole look ahead) is the positions it may still look through."""
    if after.result is not None:
        return scaled_returns(game, after)[mover]
    pending = after.pending
    if budget[0] > 0 and pending is not None and pending.player == mover and after.vars == before.vars:
        n = len(pending.values)
        if 0 < n <= budget[0]:
            budget[0] -= n
            return max(_value_after(game, after, game.apply_index(after, j), mover, budget, memo) for j in range(n))
    return scaled_estimate(game, after, mover, memo)


def estimate_memo(game: Game) -> dict | None:
    """An empty table for `scaled_estimate`'s `memo` when the game is estimated by its own
    rules' `estimate`, else None. That estimate is an expression: it reads the variables
    and the seats in play, never the procedures half run, the decision pending, the
    generator or the log, so two positions with the same variables have the same estimate.
    Sibling moves that only answer a question (an action chosen, its card still to come)
    lead to such positions: a third of the greedy look ahead's estimates in Downfall of
    Empires. Another estimate (a learned one, play/learned.py) may read more: no table."""
    return {} if type(game).estimate is Game.estimate else None


def scaled_estimate(game: Game, state: State, seat: str, memo: dict | None = None) -> float:
    """One seat's `scaled_estimates` (0 for a game without an estimate): what scoring a
    move needs, without the other seats' estimates. `memo` (`estimate_memo`): the values
    already made, by variables and seat."""
    if memo is not None:
        key = (state.vars, state.players, seat)
        known = memo.get(key)
        if known is None:
            known = memo[key] = scaled_estimate(game, state, seat)
        return known
    v = game.estimate(state, seat)
    bounds = game.estimate_bounds()
    if v is None or bounds is None:
        return 0.0
    low, high = bounds
    return 2 * (v - low) / (high - low) - 1


def normalised(values: list[float]) -> list[float]:
    """Values rescaled to 0..1 between their least and greatest (all 0 when equal): a node's
    moves compared with each other, whatever the spread of the game's estimate."""
    low, high = min(values), max(values)
    if high <= low:
        return [0.0] * len(values)
    return [(v - low) / (high - low) for v in values]


def refuse_bias(game: Game, bias: float, who: str = "ordering moves", instead: str = "drop the :o") -> None:
    """Move ordering (and the greedy agent, `who`) needs the game's `estimate` to score the moves."""
    if bias and game.estimate_bounds() is None:
        raise UsageError(
            f"{who} needs an estimate of the positions moves lead to, and {game.header.title} declares none",
            f"declare one beside the payoff: `estimate p from LO to HI: EXPR` (docs §3.20), or {instead}",
        )


def _key(state: State) -> tuple:
    """A position without its random generator (the search draws its own) or its log.

    `decisions` stays in: it makes every path through the tree strictly deeper, so the
    descent cannot loop on a repeated position, while transpositions at one depth merge."""
    return (state.vars, state.frames, state.pending, state.decisions, state.pins, state.result)


def draw(game: ChanceGame, state: State, rng: random.Random) -> int:
    """The index of a pending draw's result, picked by its probability: the `chance` seat
    of chance mode is no player (it has no payoff), so a search samples its moves rather
    than choosing them."""
    weights = [p for _, p in game.chance_outcomes(state)]
    return rng.choices(range(len(weights)), weights=weights)[0]


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
        depth: int | None = None,
        bias: float = 0.0,
        warm: int = 8,
    ):
        if iterations < 1 and seconds is None:
            raise ValueError("MCTSAgent needs at least one iteration or a time budget")
        self.depth = depth
        self.bias = bias  # the weight of move ordering by the estimate (0: none)
        self.warm = warm  # the visits after which a node below the root has its moves scored
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
            refuse_depth(game, self.depth)
            refuse_bias(game, self.bias)
            self._checked = game.compiled
        pending = state.pending
        assert pending is not None  # an agent is asked only while a decision is pending
        if len(pending.values) == 1:  # nothing to weigh
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
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        depth = self.depth
        limit = self.max_rollout if depth is None else min(depth, self.max_rollout)
        drawer = CHANCE if isinstance(game, ChanceGame) else None  # the seat that draws, in chance mode
        bias, warm = self.bias, self.warm
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
                # A draw: by its probability, no node, no payoff. (Not over: a decision waits, and
                # `drawer` is set only for a ChanceGame: no check per node.)
                if state.pending.player == drawer:  # type: ignore[union-attr]
                    state = apply(state, draw(game, state, rng))  # type: ignore[arg-type]
                    continue
                key = _key(state)
                node = tree.get(key)
                mover = state.pending.player  # type: ignore[union-attr]  # (as above)
                if node is None:  # [visits, tries per move, payoff sums, untried moves, move scores]
                    n = len(state.pending.values)  # type: ignore[union-attr]  # (as above)
                    untried = list(range(n))
                    rng.shuffle(untried)
                    node = tree[key] = [0, [0] * n, [0.0] * n, untried, None]
                if bias and node[4] is None and (node[0] >= warm or not path):
                    node[4] = self._order(game, state, node, mover)
                if node[3]:
                    i = node[3].pop()
                    path.append((node, i, mover))
                    state = apply(state, i)
                    break
                tries, sums, prior = node[1], node[2], node[4]
                log_visits = math.log(node[0])
                best, i = -math.inf, 0
                for j, t in enumerate(tries):
                    score = sums[j] / t + c * math.sqrt(log_visits / t)
                    if prior is not None:
                        score += bias * prior[j] / (t + 1)
                    if score > best:
                        best, i = score, j
                path.append((node, i, mover))
                state = apply(state, i)
            # Roll out uniformly at random to the end, to the depth (the estimate), or to the cap (a draw).
            state = game.playout(state, randrange, limit)
            value = rollout_value(game, state, depth)
            for node, i, mover in path:
                node[0] += 1
                node[1][i] += 1
                node[2][i] += value[mover]
        self.last_iterations = done
        root_node = tree[_key(root)]
        tries, sums = root_node[1], root_node[2]
        self.last_root = (tries, sums)
        return max(range(len(tries)), key=lambda j: (tries[j], sums[j] / tries[j] if tries[j] else -math.inf, -j))

    def _order(self, game: Game, state: State, node: list, mover: str) -> list[float]:
        """Score a node's moves by the estimate (0..1 among them) and put its untried moves
        best last, where the search pops them: move ordering (module docstring)."""
        prior = normalised(move_scores(game, state, range(len(node[1])), mover))
        node[3].sort(key=lambda j: prior[j])  # stable: equal scores keep their shuffled order
        return prior


def ucb(stats: list, c: float) -> float:
    """UCB1 of a move tried `stats[0]` times for a payoff sum `stats[1]`, legal in
    `stats[2]` of the iterations (the availability count replaces the parent's visits)."""
    return stats[1] / stats[0] + c * math.sqrt(math.log(stats[2]) / stats[0])


class ISMCTSAgent:
    """Single-observer IS-MCTS (module docstring): `iterations` determinised playouts per
    decision, reproducible for a seed, or as many as fit in `seconds`."""

    def __init__(
        self,
        iterations: int = 200,
        seed: int = 0,
        exploration: float = 0.7,
        max_rollout: int = 10_000,
        seconds: float | None = None,
        depth: int | None = None,
        bias: float = 0.0,
        warm: int = 8,
        reuse: bool = True,
    ):
        if iterations < 1 and seconds is None:
            raise ValueError("ISMCTSAgent needs at least one iteration or a time budget")
        self.depth = depth
        self.bias = bias  # the weight of move ordering by the estimate (0: none)
        self.warm = warm  # the visits after which a node below the root has its moves scored
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.max_rollout = max_rollout
        self.rng = random.Random(seed)
        self.reuse = reuse  # keep the subtree under the moves told by `seen` (module docstring)
        self.last_root: dict[str, list[float]] = {}  # per root move: [tries, payoff sum, availability]
        self.last_iterations = 0  # how many iterations the last search ran (for benchmarks)
        self.last_kept = 0  # the visits of the root's moves kept from the search before (0: a new tree)
        self._checked: object = None  # the compiled game last found fit for resampling
        # The last search's tree, kept for the next: history seen by the seat -> move -> stats,
        # the times the descent reached each history, and each history's move scores.
        self._tree: dict[tuple, dict[str, list[float]]] = {}
        self._reached: dict[tuple, int] = {}
        self._scores: dict[tuple, dict[str, float]] = {}
        self._owner: tuple[object, str] | None = None  # the compiled game and seat the tree is for
        self._next = 0  # the decision number of the next move `seen` may be told
        self._since: list[tuple[str, str]] = []  # the moves since the tree's root, as its seat saw them

    def seen(self, game: Game, state: State, label: str) -> None:
        """The move `label` is made in `state`, by any seat (this agent's included, a draw
        of chance mode too): remembered as this agent's seat sees it (`Game.move_view`), so
        the next search can keep the subtree under the moves that happened. A move told out
        of turn (one missed, or of another game) breaks the chain: the next search starts
        afresh. Never needed for correct play, only for reuse."""
        if self._owner is None:
            return
        if state.decisions != self._next or game.compiled is not self._owner[0]:
            self._drop()
            return
        mover = state.pending.player  # type: ignore[union-attr]  # a move is made only while a decision waits
        self._since.append((mover, game.move_view(state, label, self._owner[1])))
        self._next += 1

    def _drop(self) -> None:
        """Forget the kept tree: the next search starts from an empty one."""
        self._tree, self._reached, self._scores = {}, {}, {}
        self._owner, self._since = None, []

    def _kept(self, game: Game, state: State, seat: str) -> tuple[dict, dict, dict]:
        """The tree, descent counts and move scores for a search from `state`: the last
        search's, re-rooted at the history told since (`seen`) when it leads from that
        root to this position and the node was reached; else empty ones."""
        path = tuple(self._since)
        tree = self._tree
        if (
            not self.reuse
            or self._owner is None
            or self._owner[0] is not game.compiled  # (by identity: a compiled game is large)
            or self._owner[1] != seat
            or state.decisions != self._next
            or not path
            or path not in tree
        ):
            self.last_kept = 0
            return {}, {}, {}
        k = len(path)

        def under(table: dict) -> dict:
            return {h[k:]: v for h, v in table.items() if h[:k] == path}

        kept = under(tree)
        self.last_kept = int(sum(stats[0] for stats in kept[()].values()))
        return kept, under(self._reached), under(self._scores)

    def choose(self, game: Game, state: State) -> int:
        if self._checked is not game.compiled:
            refuse_unresampled(game, state)
            refuse_depth(game, self.depth)
            refuse_bias(game, self.bias)
            self._checked = game.compiled
        labels = game.labels(state)
        if len(labels) == 1:
            return 0
        pending = state.pending
        assert pending is not None  # an agent is asked only while a decision is pending
        seat = pending.player
        rng = self.rng
        tree, reached, scores = self._kept(game, state, seat)
        # tree: history seen by the seat -> move -> stats; reached: history -> times the
        # descent reached it (for `warm`); scores: history -> move -> its estimate, once scored
        c = self.exploration
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        depth = self.depth
        limit = self.max_rollout if depth is None else min(depth, self.max_rollout)
        drawer = CHANCE if isinstance(game, ChanceGame) else None  # the seat that draws, in chance mode
        bias, warm = self.bias, self.warm
        done = 0
        while done < self.iterations if deadline is None else (not done or time.perf_counter() < deadline):
            done += 1
            det = game.resample(state, seat, rng)
            history: tuple = ()
            path: list[tuple[dict, str, str]] = []
            expanded = False
            while det.result is None and not expanded:
                # A draw: as in MCTSAgent.search. (Not over: a decision waits, and `drawer` is set
                # only for a ChanceGame: no check per node.)
                if drawer is not None and det.pending.player == drawer:  # type: ignore[union-attr]
                    i = draw(game, det, rng)  # type: ignore[arg-type]
                    history += ((drawer, game.move_view(det, game.labels(det)[i], seat)),)
                    det = game.apply_index(det, i)
                    continue
                moves = game.labels(det)
                node = tree.setdefault(history, {})
                for m in moves:
                    stats = node.setdefault(m, [0, 0.0, 0])
                    stats[2] += 1  # available in this determinisation
                mover = det.pending.player  # type: ignore[union-attr]  # (as above)
                prior = None
                if bias:
                    seen_here = reached[history] = reached.get(history, 0) + 1
                    if history in scores or seen_here > warm or not history:
                        prior = self._order(game, det, moves, scores.setdefault(history, {}), mover)
                untried = [m for m in moves if node[m][0] == 0]
                if untried:
                    if prior is None:
                        move = untried[rng.randrange(len(untried))]
                    else:  # best first; ties at random
                        move = max(untried, key=lambda m: (prior[m], rng.random()))
                    expanded = True
                elif prior is None:
                    move = max(
                        moves, key=lambda m: node[m][1] / node[m][0] + c * math.sqrt(math.log(node[m][2]) / node[m][0])
                    )
                else:
                    move = max(
                        moves,
                        key=lambda m: (
                            node[m][1] / node[m][0]
                            + c * math.sqrt(math.log(node[m][2]) / node[m][0])
                            + bias * prior[m] / (node[m][0] + 1)
                        ),
                    )
                path.append((node, move, mover))
                seen = game.move_view(det, move, seat)
                det = game.apply_index(det, moves.index(move))
                history += ((mover, seen),)
            det = game.playout(det, rng.randrange, limit)
            value = rollout_value(game, det, depth)
            for node, move, mover in path:
                node[move][0] += 1
                node[move][1] += value[mover]
        root = tree[()]
        self.last_root = root
        self.last_iterations = done
        if self.reuse:  # kept for the next search, which re-roots it at the moves `seen` is told
            self._tree, self._reached, self._scores = tree, reached, scores
            self._owner, self._next, self._since = (game.compiled, seat), state.decisions, []
        unseen = [0, 0.0, 0]
        return max(
            range(len(labels)), key=lambda j: (root.get(labels[j], unseen)[0], root.get(labels[j], unseen)[1], -j)
        )

    @staticmethod
    def _order(game: Game, det: State, moves: list[str], known: dict[str, float], mover: str) -> dict[str, float]:
        """The node's moves scored by the estimate, 0..1 among those legal here: a move is
        scored in the first determinisation it is seen in, and kept (module docstring)."""
        missing = [i for i, m in enumerate(moves) if m not in known]
        if missing:
            for i, v in zip(missing, move_scores(game, det, missing, mover)):
                known[moves[i]] = v
        return dict(zip(moves, normalised([known[m] for m in moves])))


class GreedyAgent:
    """One ply by the designer's estimate: each legal move scored as move ordering scores it
    (`move_scores`: the estimate of the position it leads to, or its payoff if it ends the
    game), the best taken, ties broken at random. No search, so as fast as the estimate;
    a baseline that a search must beat to be worth its time.

    With a lookahead (`greedy:dD`, `lookahead` = D) a move is scored instead by the mean
    estimate after D more decisions, over `samples` continuations, each played greedily by
    every seat with its own estimate and every random draw taken by its odds (forced moves
    do not count): one ply cannot see an offensive whose worth appears only after the dice
    (a draw of chance mode) or after the moves that follow it, and a flat Monte Carlo of
    greedy continuations can, far cheaper than a tree search. Only the `width` moves that
    one ply likes best are looked ahead (ties drawn at random); the others keep their
    one-ply score below them.

    Where something is hidden it scores the moves in one position its seat cannot tell from
    the real one (`Game.resample`), as IS-MCTS does, so it never reads what it cannot see;
    any random draw a move makes comes from its own generator, not the game's."""

    def __init__(self, seed: int = 0, lookahead: int = 0, samples: int = 2, width: int = 6):
        self.rng = random.Random(seed)
        self.lookahead = lookahead
        self.samples = samples
        self.width = width
        self._checked: object = None  # the compiled game last found fit
        self._hidden = False
        self._memo: dict | None = None  # the estimates made in the decision being weighed (`estimate_memo`)
        # The moves it held equally best at its last decision, the one it took drawn among them:
        # what a fit to its choices (play/ranked.py) learns, rather than the draw.
        self.best: tuple[int, ...] = ()

    def choose(self, game: Game, state: State) -> int:
        if self._checked is not game.compiled:
            refuse_bias(game, 1.0, "the greedy agent", "choose another agent: random, mcts, ismcts")
            self._hidden = bool(hidden_information(game))
            if self._hidden:
                refuse_unresampled(game, state)
            self._checked = game.compiled
        pending = state.pending
        assert pending is not None  # an agent is asked only while a decision is pending
        n = len(pending.values)
        if n == 1:
            self.best = (0,)
            return 0
        seat = pending.player
        rng = self.rng
        if not self._hidden:
            det = state._replace(rng=rng.getrandbits(64))
            found: list[int | None] = list(range(n))
        else:
            det = game.resample(state, seat, rng)
            where = {label: i for i, label in enumerate(game.labels(det))}
            found = [where.get(label) for label in game.labels(state)]
        legal = [i for i in found if i is not None]
        self._memo = estimate_memo(game)  # the estimates of this decision's positions, by their variables
        scored = dict(zip(legal, move_scores(game, det, legal, seat, LOOKAHEAD, self._memo)))
        if self.lookahead:
            scored = self._look_ahead(game, det, scored, seat)
        values = [scored[i] if i is not None else -math.inf for i in found]
        best = max(values)
        self.best = tuple(i for i, v in enumerate(values) if v >= best - 1e-12)
        return rng.choice(self.best)

    def _look_ahead(self, game: Game, det: State, scored: dict[int, float], seat: str) -> dict[int, float]:
        """The `width` best moves by one ply rescored by the mean of `samples` greedy
        continuations `lookahead` decisions deep; the others placed below every one of them
        (a move that ends the game keeps its payoff: nothing follows it)."""
        rng = self.rng
        order = sorted(scored, key=lambda i: (scored[i], rng.random()), reverse=True)
        chosen = order[: self.width]
        out: dict[int, float] = {}
        for i in chosen:
            after = game.apply_index(det._replace(rng=rng.getrandbits(64)), i)
            if after.result is not None:
                out[i] = scored[i]
                continue
            total = 0.0
            for _ in range(self.samples):
                total += self._continue(game, after._replace(rng=rng.getrandbits(64)), seat)
            out[i] = total / self.samples
        floor = min(out.values()) - 2.0 if out else 0.0
        for i in order[self.width :]:
            out[i] = floor + scored[i] / 4  # below the looked-ahead ones, in their one-ply order
        return out

    def _continue(self, game: Game, state: State, seat: str) -> float:
        """`seat`'s scaled value after `lookahead` more real decisions, each taken by its
        own seat's one-ply choice as `choose` makes it (ties at random: a choice that changes
        nothing looked through to the choices it opens, `move_scores`' lookahead) and each
        draw of chance mode by its odds. Without the look through, every action chosen before
        its card ties, so the continuations took their actions at random: in Walls and
        Wonders `greedy:d2` then won 8 of 60 seat-games against `greedy` (seeds 101 to 130),
        and 38 of 60 with it."""
        rng = self.rng
        drawer = CHANCE if isinstance(game, ChanceGame) else None
        left, steps = self.lookahead, 0
        while state.result is None and left > 0 and steps < 4 * self.lookahead + 20:
            steps += 1
            # (Not over: a decision waits, and `drawer` is set only for a ChanceGame: no check per decision.)
            mover = state.pending.player  # type: ignore[union-attr]
            n = len(state.pending.values)  # type: ignore[union-attr]
            if drawer is not None and mover == drawer:
                i = draw(game, state, rng)  # type: ignore[arg-type]
            elif n == 1:
                i = 0
            else:
                left -= 1
                # `move_scores` by hand, keeping the positions: the one chosen is played on, not made again
                afters = [game.apply_index(state, j) for j in range(n)]
                values = [_value_after(game, state, after, mover, [LOOKAHEAD], self._memo) for after in afters]
                best = max(values)
                i = rng.choice([j for j, v in enumerate(values) if v >= best - 1e-12])
                state = afters[i]
                continue
            state = game.apply_index(state, i)
        if state.result is None:
            return scaled_estimate(game, state, seat, self._memo)
        return scaled_returns(game, state)[seat]
