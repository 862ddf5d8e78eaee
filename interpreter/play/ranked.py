"""A learned estimate fitted to a stronger player's choices (`gamedef learn --ranked`).

Why not the payoff: a regression of each game's payoff on its positions (play/learned.py)
learns from the positions good play reaches, so the moves that lose a game at once (in
Walls and Wonders, a high card a Wonder level still needs, spent on a wall) are never seen,
and the payoff is one noisy number for a whole game of choices. A model fitted that way to
the written estimate's own games of Walls and Wonders took the written estimate's move in
86% of the decisions and won none of 30 games against it (docs/balancing.md).

What this fits instead is the decision the greedy agent makes. At each decision kept from
the expert's games (any agent kind, `--agent`), the position after every legal move is
written as the mover sees it (its observation tensor, relative, as learned.py reads it), and
a conditional logit (a "learning to rank" fit, policy distillation) puts the move the expert
took first: weights `w` maximising the mean over decisions of
`log(softmax(w . features(after each move)))` at the move chosen, less an L2 penalty. Every
move the expert passed over is a rejected alternative at every decision, the blunders
included, which a regression on outcomes never sees. An expert that says which moves it
held equally best (the greedy agent's `best`, its ties drawn at random) has all of them
counted as its choice: copying its draw would teach a preference it does not have.

The positions after each move are those the greedy agent scores (`move_scores`): a move
that changes no variable and leads to the same seat's next choice (an action before its
card) stands for every position its later choices reach, and the expert's move for all of
those under it; where the mover cannot see everything, in a position it cannot tell from
the real one (`Game.resample`), as the greedy agent and IS-MCTS weigh moves. A move that ends
the game is left out: the agents score it by its payoff. The logit depends only on the
differences between a decision's positions, so each is kept as its difference from the
position decided in: a few numbers a move changes, not the whole tensor.

The penalty is the one of `PENALTIES` whose fit, on every `HOLD_OUT`th game's decisions held
out, takes the expert's move most often (then the mean log-likelihood breaks ties); then it
is refitted on all. The fit is convex and smooth, so a limited-memory BFGS in numpy finds it
from zero, the same numbers every time (no library beyond numpy, as learned.py).

The score ranks moves but is on no scale, and the agents compare values with payoffs in
-1..1 (a search mixes them). So a second, one-dimensional fit maps it: each seat's payoff
at the end of its game on `tanh(a * score + b)` over the positions kept from the games (every
seat's view), least squares. The model's value is that tanh (the file's `"link": "tanh"`),
which, unlike a clamp, never ties two moves at a bound.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from interpreter.core.errors import ArgumentError
from interpreter.play.features import TensorLayout
from interpreter.play.learned import HOLD_OUT, MAX_FEATURES, POSITIONS, Model, _Chooser, played_with_moves, rules_digest
from interpreter.play.mcts import LOOKAHEAD, hidden_information
from interpreter.runtime.game import Game
from interpreter.runtime.machine import State

PENALTIES = (1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0)  # L2 penalties on the standardised weights, tried from the largest
MAX_ITERATIONS = 300  # the optimiser's iterations, at most, for one penalty
MEMORY = 10  # the pairs of steps and gradients L-BFGS keeps

Played = list[tuple[int, list[State], dict[str, float]]]


def expert_play(
    game: Game,
    games: int,
    seed: int,
    players: int | None,
    agents: Callable[[State, int], dict[str, _Chooser]],
    positions: int = POSITIONS,
    max_decisions: int = 100_000,
    advance: Callable[[], None] = lambda: None,
) -> tuple[Played, list[tuple[int, State, tuple[int, ...]]]]:
    """Games of seeds `seed`..`seed+games-1` played by `agents(first state, seed)`, as
    `learned.self_play` plays them (the same positions kept, drawn with the game's seed), and
    with each kept position the indices of the moves its seat chose there (the one taken, or
    all those it held equally best: `played_with_moves`): (the games as self_play gives them,
    (game number, position, moves chosen) for each position kept)."""
    played: Played = []
    choices: list[tuple[int, State, tuple[int, ...]]] = []
    for s, kept, payoffs in played_with_moves(game, games, seed, players, agents, positions, max_decisions, advance):
        choices += [(len(played), st, moves) for st, moves in kept]
        played.append((s, [st for st, _ in kept], payoffs))
    return played, choices


class ChoiceSets:
    """The decisions as the fit reads them: every position a decision could lead to (a leaf)
    as its sparse difference from the position decided in, `starts[d]:starts[d+1]` the leaves
    of decision `d`, `chosen` the leaves under the move the expert took, `game_of[d]` the game
    the decision came from (for holding games out)."""

    def __init__(
        self, leaves: list[tuple[np.ndarray, np.ndarray]], starts: list[int], chosen: list[bool], games: list[int]
    ):
        self.leaves = leaves
        self.starts = np.array(starts, np.int64)
        self.chosen = np.array(chosen, bool)
        self.game_of = np.array(games, np.int64)

    @property
    def decisions(self) -> int:
        return len(self.game_of)


def choice_sets(
    game: Game,
    choices: list[tuple[int, State, tuple[int, ...]]],
    layout: TensorLayout,
    seed: int,
    advance: Callable[[], None] = lambda: None,
) -> ChoiceSets:
    """Each kept decision's leaves (module docstring), seen by its mover, in a position the
    mover cannot tell from the real one where something is hidden (redrawn with a generator
    seeded by `seed` and the decision's number, so the same games give the same sets).
    A decision whose expert move cannot be found in the redrawn position, or that leaves
    fewer than two leaves that do not end the game, is left out."""
    hidden = bool(hidden_information(game))
    leaves: list[tuple[np.ndarray, np.ndarray]] = []
    starts, chosen, games = [0], [], []
    before = np.zeros(layout.size, np.float32)
    buffer = np.zeros(layout.size, np.float32)
    for k, (g, state, choice) in enumerate(choices):
        advance()
        seat = state.pending.player  # type: ignore[union-attr]  # a decision position
        rng = random.Random(seed * 1_000_003 + k)
        if hidden:
            det = game.resample(state, seat, rng)
            where = {label: i for i, label in enumerate(game.labels(det))}
            labels = game.labels(state)
            targets = {t for t in (where.get(labels[c]) for c in choice) if t is not None}
        else:
            det, targets = state._replace(rng=rng.getrandbits(64)), set(choice)
        if not targets:
            continue
        layout.encode(game.observation(det, seat), seat, before)
        these: list[tuple[np.ndarray, np.ndarray]] = []
        marks: list[bool] = []
        for i in range(len(det.pending.values)):  # type: ignore[union-attr]
            for leaf in _leaves(game, det, game.apply_index(det, i), seat, [LOOKAHEAD]):
                if leaf.result is not None:
                    continue
                diff = layout.encode(game.observation(leaf, seat), seat, buffer) - before
                at = np.flatnonzero(diff)
                these.append((at, diff[at].astype(np.float64)))
                marks.append(i in targets)
        if len(these) < 2 or not any(marks) or all(marks):
            continue
        leaves += these
        chosen += marks
        starts.append(len(leaves))
        games.append(g)
    return ChoiceSets(leaves, starts, chosen, games)


def _leaves(game: Game, before: State, after: State, mover: str, budget: list[int]) -> list[State]:
    """The positions the greedy agent scores a move by (mcts._value_after): the position it
    leads to, or, where it changes no variable and the same seat chooses again, those its
    next choices lead to, through at most `budget` positions in all."""
    pending = after.pending
    if after.result is None and budget[0] > 0 and pending is not None and pending.player == mover:
        n = len(pending.values)
        if after.vars == before.vars and 0 < n <= budget[0]:
            budget[0] -= n
            out: list[State] = []
            for j in range(n):
                out += _leaves(game, after, game.apply_index(after, j), mover, budget)
            return out
    return [after]


class _Problem:
    """The conditional logit on some decisions: sparse leaves (COO), each decision's leaves
    contiguous, their scores and the loss with its gradient."""

    def __init__(self, sets: ChoiceSets, decisions: np.ndarray, position: np.ndarray, scale: np.ndarray):
        rows, cols, values, starts, chosen = [], [], [], [0], []
        n = 0
        for d in decisions:
            for r in range(int(sets.starts[d]), int(sets.starts[d + 1])):
                at, v = sets.leaves[r]
                j = position[at]
                keep = j >= 0
                rows.append(np.full(int(keep.sum()), n, np.int64))
                cols.append(j[keep])
                values.append(v[keep] / scale[j[keep]])
                chosen.append(bool(sets.chosen[r]))
                n += 1
            starts.append(n)
        self.rows = np.concatenate(rows) if rows else np.zeros(0, np.int64)
        self.cols = np.concatenate(cols) if cols else np.zeros(0, np.int64)
        self.values = np.concatenate(values) if values else np.zeros(0)
        self.leaves = n
        self.width = len(scale)
        self.starts = np.array(starts[:-1], np.int64)
        counts: np.ndarray = np.diff(np.array(starts, np.int64))
        self.segment = np.repeat(np.arange(len(self.starts)), counts)
        self.chosen = np.array(chosen, bool)

    @property
    def decisions(self) -> int:
        return len(self.starts)

    def scores(self, w: np.ndarray) -> np.ndarray:
        return np.bincount(self.rows, weights=self.values * w[self.cols], minlength=self.leaves)

    def _lse(self, s: np.ndarray) -> np.ndarray:
        """Each decision's log-sum-exp of `s` (-inf entries left out)."""
        top = np.maximum.reduceat(s, self.starts)
        return top + np.log(np.add.reduceat(np.exp(s - top[self.segment]), self.starts))

    def loss(self, w: np.ndarray, penalty: float) -> tuple[float, np.ndarray]:
        """The mean negative log-likelihood of the expert's moves plus `penalty / 2 * |w|^2`,
        and its gradient."""
        s = self.scores(w)
        every = self._lse(s)
        mine = self._lse(np.where(self.chosen, s, -np.inf))
        value = float(np.mean(every - mine)) + 0.5 * penalty * float(w @ w)
        p = np.exp(s - every[self.segment]) - np.where(self.chosen, np.exp(s - mine[self.segment]), 0.0)
        grad = np.bincount(self.cols, weights=self.values * p[self.rows], minlength=self.width) / self.decisions
        return value, grad + penalty * w

    def agreement(self, w: np.ndarray) -> tuple[float, float]:
        """The share of decisions whose best leaf by `w` is under the expert's move, and the
        mean log-likelihood of the expert's moves."""
        s = self.scores(w)
        top = np.maximum.reduceat(s, self.starts)
        best_chosen = np.maximum.reduceat(np.where(self.chosen, s, -np.inf), self.starts)
        likelihood = float(np.mean(self._lse(np.where(self.chosen, s, -np.inf)) - self._lse(s)))
        return float(np.mean(best_chosen >= top)), likelihood


def minimise(
    f: Callable[[np.ndarray], tuple[float, np.ndarray]], x: np.ndarray, iterations: int = MAX_ITERATIONS
) -> np.ndarray:
    """A smooth function's minimum from `x` by L-BFGS (the two-loop recursion, `MEMORY` pairs)
    with a backtracking line search; stops when the gradient or the step is negligible."""
    value, grad = f(x)
    steps: list[tuple[np.ndarray, np.ndarray, float]] = []
    for _ in range(iterations):
        if float(np.max(np.abs(grad), initial=0.0)) < 1e-7:
            break
        q = grad.copy()
        alphas = []
        for s, y, rho in reversed(steps):
            a = rho * float(s @ q)
            alphas.append(a)
            q -= a * y
        if steps:
            s, y, _ = steps[-1]
            q *= float(s @ y) / float(y @ y)
        for (s, y, rho), a in zip(steps, reversed(alphas)):
            q += s * (a - rho * float(y @ q))
        direction = -q
        slope = float(grad @ direction)
        if slope >= 0:  # not a descent direction: start the memory again
            steps.clear()
            direction, slope = -grad, -float(grad @ grad)
        t = 1.0 if steps else min(1.0, 1.0 / math.sqrt(max(-slope, 1e-300)))
        while True:
            new = x + t * direction
            new_value, new_grad = f(new)
            if new_value <= value + 1e-4 * t * slope or t < 1e-12:
                break
            t *= 0.5
        s, y = new - x, new_grad - grad
        sy = float(s @ y)
        if sy > 1e-12:
            steps.append((s, y, 1.0 / sy))
            del steps[:-MEMORY]
        done = abs(value - new_value) <= 1e-10 * max(1.0, abs(value))
        x, value, grad = new, new_value, new_grad
        if done:
            break
    return x


def fit_ranked(
    game: Game,
    played: Played,
    choices: list[tuple[int, State, tuple[int, ...]]],
    about: dict[str, Any],
    summaries: bool = False,
    max_features: int = MAX_FEATURES,
    advance: Callable[[], None] = lambda: None,
) -> Model:
    """The conditional logit of the expert's moves (module docstring), its penalty chosen on
    the games held out by how often it takes the expert's move, then mapped to the payoff
    by `tanh(a * score + b)`: a Model whose file says `"link": "tanh"`."""
    if not played or not any(kept for _, kept, _ in played):
        raise ArgumentError(
            "games", "no positions to learn from: the games had no decision", given=len(played), hint="play more games"
        )
    seats = next(st for _, kept, _ in played for st in kept).players
    layout = TensorLayout(game, len(seats), relative=True, summaries=summaries)
    sets = choice_sets(game, choices, layout, int(about.get("seed", 0)), advance)
    if sets.decisions < 2:
        raise ArgumentError(
            "games",
            f"{sets.decisions} decisions with a choice between positions to learn from",
            given=len(played),
            hint="play more games, or keep more positions of each",
        )
    # The columns: those the leaves' differences move most (a column no move changes cannot rank moves).
    squares = np.zeros(layout.size)
    for at, v in sets.leaves:
        squares[at] += v * v
    spread = squares / len(sets.leaves)
    varying = np.flatnonzero(spread > 1e-12)
    order = np.argsort(-spread[varying], kind="stable")
    columns = np.sort(varying[order[:max_features]])
    position = np.full(layout.size, -1, np.int64)
    position[columns] = np.arange(len(columns))
    scale = np.sqrt(spread[columns])
    held = sets.game_of % HOLD_OUT == HOLD_OUT - 1
    train = _Problem(sets, np.flatnonzero(~held), position, scale)
    test = _Problem(sets, np.flatnonzero(held), position, scale)
    w = np.zeros(len(columns))
    penalty, best = PENALTIES[-1], (-1.0, -math.inf)
    tried = {}
    if train.decisions and test.decisions:
        for p in sorted(PENALTIES, reverse=True):  # each fit starts from the last, the stronger penalty's

            def trained(v: np.ndarray, p: float = p) -> tuple[float, np.ndarray]:
                return train.loss(v, p)

            w = minimise(trained, w)
            found = test.agreement(w)
            tried[p] = round(found[0], 4)
            if found > best:
                best, penalty = found, p
    whole = _Problem(sets, np.arange(sets.decisions), position, scale)
    w = minimise(lambda v: whole.loss(v, penalty), np.zeros(len(columns)))
    agreement, likelihood = whole.agreement(w)
    raw = w / scale  # weights for the raw columns
    a, b, errors = _payoff_scale(game, layout, played, seats, columns, raw)
    header = {
        "game": game.name,
        "title": game.header.title,
        "variants": list(game.variants),
        "options": {k: v for k, v in sorted(game.options.items())},
        "players": len(seats),
        "seats": list(seats),
        "rules": rules_digest(game),
        "size": layout.size,
        **about,
        "summaries": summaries,
        "positions": sum(len(kept) for _, kept, _ in played),
        "fit": errors,
        "link": "tanh",
        "ranked": {
            "decisions": sets.decisions,
            "moves": len(sets.leaves),
            "penalty": penalty,
            "held_out_agreement": None if best[0] < 0 else round(best[0], 4),
            "agreement_by_penalty": {f"{p:g}": v for p, v in sorted(tried.items())},
            "agreement": round(agreement, 4),
            "log_likelihood": round(likelihood, 6),
            "slope": a,
        },
        "network": None,
    }
    weights = {seat: a * raw for seat in seats}
    return Model(header, columns, weights, {seat: b for seat in seats})


def _payoff_scale(
    game: Game,
    layout: TensorLayout,
    played: Played,
    seats: tuple[str, ...],
    columns: np.ndarray,
    raw: np.ndarray,
) -> tuple[float, float, dict[str, dict[str, Any]]]:
    """`a` and `b` of `tanh(a * score + b)` fitted to the payoffs of the kept positions (every
    seat's view), least squares from a = 1 / (the scores' spread), b = 0, with `a` kept above
    0 (fitted as its logarithm: the ranking is the expert's, the mapping only scales it);
    and each seat's fit as learned.fit reports it."""
    buffer = np.zeros(layout.size, np.float32)
    scores, labels, who = [], [], []
    for _, kept, payoffs in played:
        for st in kept:
            for seat in seats:
                f = layout.encode(game.observation(st, seat), seat, buffer)[columns]
                scores.append(float(f @ raw))
                labels.append(payoffs[seat])
                who.append(seat)
    s, y = np.array(scores), np.array(labels)
    centre, spread = float(s.mean()), float(s.std()) or 1.0
    z = (s - centre) / spread

    def loss(v: np.ndarray) -> tuple[float, np.ndarray]:
        slope = math.exp(v[0])  # above 0, whatever the payoffs: the mapping keeps the ranking
        t = np.tanh(slope * z + v[1])
        r = t - y
        d = 2 * r * (1 - t * t) / len(y)
        return float(np.mean(r * r)), np.array([float(d @ z) * slope, float(d.sum())])

    v = minimise(loss, np.array([0.0, 0.0]))
    a = math.exp(float(v[0])) / spread
    b = float(v[1]) - a * centre
    predicted = np.tanh(a * s + b)
    errors = {}
    for seat in seats:
        mine = np.array([w == seat for w in who])
        errors[seat] = {
            "penalty": 0.0,
            "own_penalty": None,
            "mean_squared_error": round(float(np.mean((predicted[mine] - y[mine]) ** 2)), 6),
            "label_variance": round(float(np.var(y[mine])), 6),
        }
    return a, b, errors
