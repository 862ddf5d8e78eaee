"""A learned estimate: a position's worth fitted from self-play games, for games whose
designer wrote no `estimate` (docs §3.20), or to weigh against the one written.

`gamedef learn GAME` plays seeded games (random players, or any agent kind), keeps a few
positions of each, and labels every seat's view of them with the payoff that seat finally
got (scaled to -1..1, as the search agents scale payoffs). A seat's view is its observation
tensor (play/features.py): derived from the game's declarations alone and showing nothing
the seat may not see, so the same code fits every game. The tensor is relative to its
viewer (the viewer's own entries first, then the next seats in turn order), so "my
points" is the same number in every seat's view. Then one ridge regression of the payoff
on the tensor for all the seats at once, and for each seat a second one on what the
first leaves unexplained of its own payoffs, kept only where the games held out say it
predicts better (a seat that plays unlike the others: the West and the East).

Why shared: a regression per seat on the seats as declared learns each seat's own
progress apart, from labels that random play makes noisy. In Missiles, Now! its weight
for the USSR's own complete Missiles came out near 0 while the USA's was clear, and one
ply by it lost to random play as the USSR (docs/balancing.md): nothing told the USSR's
fit what the USA's had learnt. Shared, both seats' games teach the one weight.

Why a ridge regression, and not something larger:

* the agents ask for an estimate at every move they weigh (the greedy agent once per legal
  move, a cut rollout once per iteration): a dot product over a few thousand numbers is as
  cheap as reading the observation, and needs no library beyond numpy;
* it is fitted in closed form (an eigendecomposition, then any penalty for free), so a
  seeded fit gives the same numbers every time, with no learning rate or epochs to tune;
* payoffs are numbers (a shared win, points), not only wins, so a regression fits them
  as they are; its value is clamped into -1..1, the bounds the agents scale by;
* with a few hundred games, the penalty (chosen on games held out) keeps the thousands of
  features from fitting the noise of the games seen.

Its limit is that it is linear in what a seat sees and in the leads the relative tensor
adds (which seat holds the most of each number kept per seat: play/features.py): it can
weigh "my points", "their points" and who leads, but not "my points are near the goal".
Two options reach past it, each measured before it became a default (docs/balancing.md):

* TD(lambda) labels (`td_lambda` below 1): a position's label mixes the payoff with the
  fit's own value of the next position kept from its game, refitted a few times. Random
  play makes how a game ended a noisy label for a position long before; the value of the
  next position is less noisy, though it is only as right as the fit.
* a network of one hidden layer (`hidden` units), shared by the seats, fitted by Adam from
  a fixed seed to what the regression leaves unexplained, for the number of epochs the
  games held out choose, and kept only where they say it predicts better: so it can weigh
  a comparison ("my two numbers match"), and costs a product of a few thousand numbers
  more, still less than the observation it reads.

A third reaches past the tensor's one-hots: `summaries` (play/features.py) adds the
components each variable holds, counted by their number fields per seat. A game of many
cards on many places (Walls and Wonders: 416 cards, 120 slots) names each card on each
slot by itself, and a few hundred games never teach most of those numbers; "how many of
value 12 on my level 3" every game teaches. With it, a model fitted from the written
estimate's own games held that estimate to no winner in 12 of 30 games a seat, where one
without it lost all 30 (it still won none: docs/balancing.md). Off by default: the other games' models keep
their tensor, and the file says whether it reads them.

A position's label may also be what becomes of it rather than of its one game (`--playouts
S`, `playout_labels`): the mean payoff of S games played on from it by the same agents, each
from a position its mover cannot tell from it. Where the games' agents rarely win (Walls and
Wonders: `first`, whose builder wins one game in a dozen), one game's end labels most of its
positions 0 and says little of the rest; the mean of S playouts is a probability of winning
under that play, different for every position, so the fit sees which positions come nearer a
win (one ply by such a fit is one step of policy improvement over the agent played out).
It is only as good as the play it is a value under: in Walls and Wonders, by `first`'s
playouts, the fit learnt to keep the other seat from winning, not to win (it lost no game to
the written estimate and won none, nor any against random play: docs/balancing.md).

A model may also be fitted to an expert's moves instead of the payoffs (`--ranked`,
play/ranked.py): the same file, its value `tanh` of the weighted sum (`"link": "tanh"`)
rather than the sum clamped.

The model is a small JSON file naming its game, player count and a digest of the rules
(the program's declarations, tables, variants and options): a file fitted for another game
or for rules since changed is refused, since its numbers would describe another tensor.
A file is read as untrusted input: bounded in size, every field checked.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import pickle
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import attrs
import numpy as np

from interpreter.core.errors import ArgumentError, ModelFileError, ModelMismatch, Span, UnfinishedGameError, UsageError
from interpreter.language.sheets import Sheet
from interpreter.play.features import TensorLayout
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.game import ChanceGame, Game
from interpreter.runtime.machine import State

FORMAT = "gamedef learned estimate"
VERSION = 4  # 2: the tensor relative to the viewer, one regression shared by the seats; 3: and a network;
# 4: components made seat by seat (a seat's deck, its slots) written where their seat stands
MAX_FILE = 32 * 1024 * 1024  # bytes: a model file larger than this is refused unread
MAX_FEATURES = 2000  # the varying numbers of a seat's tensor kept, the most varied first
POSITIONS = 40  # positions kept from each self-play game (drawn at random among its decisions)
PENALTIES = (1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0)  # ridge penalties tried, times the positions
MAX_ROUNDS = 20  # `gamedef learn --rounds`: fit, then play greedily by the fit and refit, at most this often
TD_LAMBDA = 1.0  # the labels' lambda: 1 is each game's payoff, less leans on the model's value of the next position
TD_SWEEPS = 3  # with lambda below 1: refits, each on the returns the last fit's values give
MAX_HIDDEN = 256  # a network's hidden units, at most (`--hidden`, and a file read)
HIDDEN = 0  # the shared network's hidden units (0: the linear part alone)
SUMMARIES = False  # the components' summaries added to the tensor (play/features.py, `--summaries`)
NETWORK_EPOCHS = 30  # at most this many passes over the positions; the games held out choose how many
NETWORK_BATCH = 256
NETWORK_RATE = 1e-3
NETWORK_DECAY = 1e-4
NETWORK_SEED = 0
HOLD_OUT = 5  # every 5th game is held out to choose the penalty, then all are fitted


class _Chooser(Protocol):
    def choose(self, game: Game, state: State) -> int: ...


class Model:
    """A fitted estimate: for each seat, `bias + features(view) @ weights`, clamped to -1..1,
    where `features` are the numbers of the seat's observation tensor at `columns`."""

    def __init__(
        self,
        header: dict[str, Any],
        columns: np.ndarray,
        weights: dict[str, np.ndarray],
        bias: dict[str, float],
        network: Network | None = None,
    ):
        self.header = header  # game, title, variants, options, players, seats, rules, size, and how it was fitted
        self.columns = columns
        self.weights = weights
        self.bias = bias
        self.network = network  # the shared correction of one hidden layer, where the games held out kept one
        self._layouts: dict[int, tuple[TensorLayout, frozenset[str], np.ndarray]] = {}  # by compiled game (id)

    @property
    def players(self) -> int:
        return int(self.header["players"])

    def check(self, game: Game, players: int | None = None, where: str = "the model") -> None:
        """Refuse a game this model was not fitted for: another game, its rules changed
        since, another count of players, or a tensor of another size."""
        h = self.header
        if h["game"] != game.name:
            raise ModelMismatch(
                f"{where} was fitted for {h['title']} ({h['game']}), not {game.header.title} ({game.name})",
                "game",
                game.name,
            )
        if h["rules"] != rules_digest(game) or h["size"] != self._layout(game)[0].size:
            raise ModelMismatch(
                f"{where} was fitted for other rules of {game.header.title} (the game's files, its variants "
                "or options have changed since)",
                "rules",
                game.name,
                game.variants,
            )
        if players is not None and players != self.players:
            raise ModelMismatch(
                f"{where} was fitted for {self.players} players of {game.header.title}, not {players}",
                "players",
                game.name,
                players=players,
            )

    def _layout(self, game: Game) -> tuple[TensorLayout, frozenset[str], np.ndarray]:
        """The game's tensor layout, the variables the model reads, and a buffer to write into."""
        found = self._layouts.get(id(game.compiled))
        if found is None:
            layout = TensorLayout(game, self.players, relative=True, summaries=bool(self.header.get("summaries")))
            variables = layout.variables(self.columns) if int(self.columns.max(initial=-1)) < layout.size else None
            found = self._layouts[id(game.compiled)] = (
                layout,
                variables or frozenset(),
                np.zeros(layout.size, np.float32),
            )
        return found

    def features(self, game: Game, state: State, seat: str) -> np.ndarray:
        """The numbers of `seat`'s view of `state` that the model reads (only the variables
        that hold them are written)."""
        layout, variables, buffer = self._layout(game)
        return layout.encode(game.observation(state, seat), seat, buffer, variables)[self.columns]

    def value(self, game: Game, state: State, seat: str) -> float:
        """`seat`'s estimate of `state`, -1..1."""
        f = self.features(game, state, seat)
        v = self.bias[seat] + float(f @ self.weights[seat])
        if self.network is not None:
            v += self.network.value(f)
        if self.header.get("link") == "tanh":  # a ranked fit's (play/ranked.py): no two moves tie at a bound
            return math.tanh(v)
        return min(max(v, -1.0), 1.0)

    def to_json(self) -> dict[str, Any]:
        seats = self.header["seats"]
        return {
            "format": FORMAT,
            "version": VERSION,
            **self.header,
            "columns": [int(c) for c in self.columns],
            "bias": {s: float(self.bias[s]) for s in seats},
            "weights": {s: [float(w) for w in self.weights[s]] for s in seats},
            "network": None if self.network is None else self.network.to_json(),
        }


class Network:
    """One hidden layer of rectified units on the standardised features, one output: what
    the linear part cannot weigh (a number near a goal, two things held together), added to
    it. Small enough that a value costs less than the observation it reads."""

    def __init__(self, mean: np.ndarray, scale: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: float):
        self.mean, self.scale, self.w1, self.b1, self.w2, self.b2 = mean, scale, w1, b1, w2, b2
        self.epochs = 0  # how long it was trained (the header says)

    def values(self, x: np.ndarray) -> np.ndarray:
        """The network's output for each row of features."""
        hidden = np.maximum(((x - self.mean) / self.scale) @ self.w1 + self.b1, 0.0)
        return hidden @ self.w2 + self.b2

    def value(self, f: np.ndarray) -> float:
        return float(self.values(f[None, :])[0])

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": [float(v) for v in self.mean],
            "scale": [float(v) for v in self.scale],
            "w1": [[float(v) for v in row] for row in self.w1],
            "b1": [float(v) for v in self.b1],
            "w2": [float(v) for v in self.w2],
            "b2": float(self.b2),
        }


def rules_digest(game: Game) -> str:
    """A digest of the rules a model describes: the program's header, declarations and tables,
    the variants and the options (not the interpreter's own code, so a model outlives an
    upgrade that leaves the tensor alone; `Model.check` also compares the tensor's size).
    Not where they are written: positions (spans) and the folder a table file was read from
    are left out, so a model outlives blank lines, moved declarations and a moved checkout,
    but not a changed rule, row or value."""
    program = game.compiled.program
    buffer = io.BytesIO()
    pickler = _RulesPickler(buffer, protocol=5)
    pickler.fast = True  # the bytes depend on the values alone (gamecache.rules_digest says why)
    pickler.dump((program.header, program.decls, program.tables))
    digest = hashlib.sha256(repr((tuple(game.variants), sorted(game.options.items(), key=repr))).encode())
    digest.update(buffer.getbuffer())
    return digest.hexdigest()


def _written(*values: object) -> None:
    """The callable a digested node names: the digest is never read back, so it builds nothing."""


class _RulesPickler(pickle.Pickler):
    """The rules' syntax trees and tables as bytes without their places: a `Span` is written
    as nothing, a table file without its path, each node as its class's name and its fields
    in order, and a set in a fixed order (its items' reprs sorted), whatever the hash seed."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Span):
            return _written, ()
        if attrs.has(type(obj)):
            values = [
                tuple(sorted(value, key=repr)) if isinstance(value, set | frozenset) else value
                for f in attrs.fields(type(obj))
                if not (isinstance(obj, Sheet) and f.name == "path")
                for value in (getattr(obj, f.name),)
            ]
            return _written, (type(obj).__name__, *values)
        return NotImplemented


# ---- fitting ----------------------------------------------------------------------------------------
def self_play(
    game: Game,
    games: int,
    seed: int,
    players: int | None,
    agents: Callable[[State, int], dict[str, _Chooser]],
    positions: int = POSITIONS,
    max_decisions: int = 100_000,
    advance: Callable[[], None] = lambda: None,
) -> list[tuple[int, list[State], dict[str, float]]]:
    """Games of seeds `seed`..`seed+games-1` played by `agents(first state, seed)`; of each,
    up to `positions` positions where a seat decides (drawn with the game's seed) and every
    seat's scaled payoff at its end: (seed, positions, payoffs) per game."""
    played = played_with_moves(game, games, seed, players, agents, positions, max_decisions, advance)
    return [(s, [state for state, _ in kept], payoffs) for s, kept, payoffs in played]


def played_with_moves(
    game: Game,
    games: int,
    seed: int,
    players: int | None,
    agents: Callable[[State, int], dict[str, _Chooser]],
    positions: int = POSITIONS,
    max_decisions: int = 100_000,
    advance: Callable[[], None] = lambda: None,
) -> list[tuple[int, list[tuple[State, tuple[int, ...]]], dict[str, float]]]:
    """`self_play`'s games, each kept position with the indices of the moves its seat chose
    there (what a fit to an expert's moves reads: play/ranked.py): the one it took, or, for
    an agent that says which moves it held equally best (`best`, the greedy agent's), all of
    those, since the one taken was drawn among them. The positions kept are drawn with the
    game's seed from those where a seat had more than one move."""
    from interpreter.play.mcts import scaled_returns

    out = []
    for s in range(seed, seed + games):
        state = game.start(players=players, seed=s)
        by_seat = agents(state, s)
        seen: list[tuple[State, tuple[int, ...]]] = []
        while state.result is None:
            if state.decisions >= max_decisions:
                raise UnfinishedGameError(
                    f"the self-play game of seed {s} has not ended after {max_decisions:,} decisions",
                    s,
                    game.name,
                    max_decisions,
                )
            pending = state.pending
            assert pending is not None  # not over: a decision waits
            agent = by_seat[pending.player]
            i = agent.choose(game, state)
            if pending.player != CHANCE and len(pending.values) > 1:
                best = getattr(agent, "best", ())
                seen.append((state, best if i in best else (i,)))
            state = game.apply_index(state, i)
        kept = random.Random(s).sample(seen, min(positions, len(seen)))
        out.append((s, kept, scaled_returns(game, state)))
        advance()
    return out


def playout_labels(
    game: Game,
    played: list[tuple[int, list[State], dict[str, float]]],
    agents: Callable[[State, int], dict[str, _Chooser]],
    playouts: int,
    seed: int,
    max_decisions: int = 100_000,
    advance: Callable[[], None] = lambda: None,
) -> list[list[dict[str, float]]]:
    """Each kept position's label (module docstring): every seat's mean scaled payoff over
    `playouts` games played on from it by `agents(position, seed)` (the same agents as its
    game, so a label is a value under that play). Each playout starts from a position the
    mover cannot tell from the real one (what it cannot see redrawn, `Game.resample`, as the
    greedy agent weighs its moves) with the dice drawn afresh; their generators are seeded by
    `seed`, the game's seed and the position's number, so the same games give the same labels.
    A label for each position of `played`, in its order."""
    from interpreter.play.mcts import hidden_information, scaled_returns

    hidden = bool(hidden_information(game))
    out: list[list[dict[str, float]]] = []
    for s, kept, _ in played:
        labels = []
        for k, state in enumerate(kept):
            rng = random.Random((seed * 1_000_003 + s) * 10_007 + k)
            mover = state.pending.player  # type: ignore[union-attr]  # a decision position
            total = dict.fromkeys(state.players, 0.0)
            for _ in range(playouts):
                start = game.resample(state, mover, rng) if hidden else state
                at = start._replace(rng=rng.getrandbits(64))
                by_seat = agents(at, rng.getrandbits(31))
                while at.result is None:
                    if at.decisions >= max_decisions:
                        raise UnfinishedGameError(
                            f"a playout from the self-play game of seed {s} has not ended after "
                            f"{max_decisions:,} decisions",
                            s,
                            game.name,
                            max_decisions,
                        )
                    at = game.apply_index(at, by_seat[at.pending.player].choose(game, at))  # type: ignore[union-attr]
                for p, v in scaled_returns(game, at).items():
                    total[p] += v
            labels.append({p: v / playouts for p, v in total.items()})
            advance()
        out.append(labels)
    return out


def fit(
    game: Game,
    played: list[tuple[int, list[State], dict[str, float]]],
    about: dict[str, Any],
    max_features: int = MAX_FEATURES,
    td_lambda: float = TD_LAMBDA,
    hidden: int = HIDDEN,
    summaries: bool = SUMMARIES,
    position_labels: list[list[dict[str, float]]] | None = None,
) -> Model:
    """Each seat's scaled payoff regressed on its relative observation tensor (module
    docstring): one ridge regression shared by every seat, then for each seat a second one
    on what the shared one leaves unexplained of its payoffs; each penalty chosen on every
    `HOLD_OUT`th game held out (the second may be none at all), then refitted on all.
    `position_labels` (from `playout_labels`) label each position by itself instead of by
    its game's payoff."""
    if not played or not any(kept for _, kept, _ in played):
        raise ArgumentError(
            "games", "no positions to learn from: the games had no decision", given=len(played), hint="play more games"
        )
    seats = next(st for _, kept, _ in played for st in kept).players
    players = len(seats)
    layout = TensorLayout(game, players, relative=True, summaries=summaries)
    rows = [(i, st) for i, (_, kept, _) in enumerate(played) for st in kept]
    held = np.array([i % HOLD_OUT == HOLD_OUT - 1 for i, _ in rows])
    if position_labels is None:
        labels = {seat: np.array([played[i][2][seat] for i, _ in rows]) for seat in seats}
    else:
        each = [label for game_labels in position_labels for label in game_labels]
        labels = {seat: np.array([label[seat] for label in each]) for seat in seats}
    # Each view kept sparse (a tensor may have 100,000 numbers, few of them not 0), with the
    # sums that give each column's variance over the positions seen, any seat's view.
    sparse: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {seat: [] for seat in seats}
    total, squares = np.zeros(layout.size), np.zeros(layout.size)
    buffer = np.zeros(layout.size, np.float32)
    for seat in seats:
        for _, st in rows:
            tensor = layout.encode(game.observation(st, seat), seat, buffer)
            where = np.flatnonzero(tensor)
            values = tensor[where].astype(np.float64)
            sparse[seat].append((where, values))
            total[where] += values
            squares[where] += values * values
    n = len(rows) * len(seats)
    spread = squares / n - (total / n) ** 2
    varying = np.flatnonzero(spread > 1e-9)
    order = np.argsort(-spread[varying], kind="stable")  # the most varied first
    columns = np.sort(varying[order[:max_features]])
    position = np.full(layout.size, -1, np.int64)
    position[columns] = np.arange(len(columns))
    x: dict[str, np.ndarray] = {}
    for seat in seats:
        x[seat] = np.zeros((len(rows), len(columns)))
        for r, (where, values) in enumerate(sparse[seat]):
            j = position[where]
            x[seat][r, j[j >= 0]] = values[j >= 0]
    weights, bias, penalties = _regression(x, labels, held, seats)
    targets = labels
    if td_lambda < 1.0:
        # Each game's positions in the order played, so a label can read the next one's value.
        games: dict[int, list[int]] = {}
        for r, (i, _) in enumerate(rows):
            games.setdefault(i, []).append(r)
        for played_in in games.values():
            played_in.sort(key=lambda r: rows[r][1].decisions)
        for _ in range(TD_SWEEPS):
            targets = {
                seat: _lambda_returns(
                    np.clip(x[seat] @ weights[seat] + bias[seat], -1.0, 1.0), labels[seat], games, td_lambda
                )
                for seat in seats
            }
            weights, bias, penalties = _regression(x, targets, held, seats)
    network = None
    if hidden:
        all_x = np.concatenate([x[seat] for seat in seats])
        linear = np.concatenate([x[seat] @ weights[seat] + bias[seat] for seat in seats])
        target = np.concatenate([targets[seat] for seat in seats])
        network = _network(all_x, target, linear, np.concatenate([held] * len(seats)), hidden)
    errors = {}
    for seat in seats:
        y = labels[seat]
        lin = x[seat] @ weights[seat] + bias[seat]
        predicted = np.clip(lin if network is None else lin + network.values(x[seat]), -1.0, 1.0)
        errors[seat] = {
            "penalty": penalties[seat][0],
            "own_penalty": penalties[seat][1],
            "mean_squared_error": round(float(np.mean((predicted - y) ** 2)), 6),
            "label_variance": round(float(np.var(y)), 6),
        }
    header = {
        "game": game.name,
        "title": game.header.title,
        "variants": list(game.variants),
        "options": {k: v for k, v in sorted(game.options.items())},
        "players": players,
        "seats": list(seats),
        "rules": rules_digest(game),
        "size": layout.size,
        **about,
        "summaries": summaries,
        "positions": len(rows),
        "fit": errors,
    }
    header["network"] = None if network is None else {"hidden": hidden, "epochs": network.epochs}
    return Model(header, columns, weights, bias, network)


def _regression(
    x: dict[str, np.ndarray], labels: dict[str, np.ndarray], held: np.ndarray, seats: tuple[str, ...]
) -> tuple[dict[str, np.ndarray], dict[str, float], dict[str, tuple[float, float | None]]]:
    """One ridge regression for all the seats (their views relative, so "my points" is one
    weight), then each seat's own correction of it, where the games held out ask for one:
    each seat's weights, bias, and (shared penalty, own penalty or None)."""
    all_x = np.concatenate([x[seat] for seat in seats])
    all_y = np.concatenate([labels[seat] for seat in seats])
    all_held = np.concatenate([held] * len(seats))
    shared = _fitted(all_x, all_y, all_held, PENALTIES)
    weights, bias, penalties = {}, {}, {}
    for seat in seats:
        base = x[seat] @ shared[0] + shared[1]
        w, b, penalty = _fitted(x[seat], labels[seat] - base, held, (*PENALTIES, math.inf), start=base)
        weights[seat], bias[seat] = shared[0] + w, shared[1] + b
        penalties[seat] = (shared[2], penalty if math.isfinite(penalty) else None)
    return weights, bias, penalties


def _network(x: np.ndarray, y: np.ndarray, linear: np.ndarray, held: np.ndarray, hidden: int) -> Network | None:
    """A network of `hidden` units fitted to what the linear part (`linear`, its value of each
    row) leaves of `y`: trained on the rows not `held` out, by Adam on minibatches from a
    fixed seed (so a fit is the same every time), for the number of epochs that predicts the
    held-out rows best, then trained again on all the rows for as many; None where no epoch
    predicts the held-out rows better than the linear part alone."""
    x = x.astype(np.float32)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    residual = (y - linear).astype(np.float32)
    train, test = np.flatnonzero(~held), np.flatnonzero(held)
    if not len(train) or not len(test):
        return None
    alone = float(np.mean((np.clip(linear[test], -1.0, 1.0) - y[test]) ** 2))
    best, best_epochs = alone, 0
    for epochs, net in _trained(x, residual, train, mean, scale, hidden, NETWORK_EPOCHS):
        error = float(np.mean((np.clip(linear[test] + net.values(x[test]), -1.0, 1.0) - y[test]) ** 2))
        if error < best - 1e-6:
            best, best_epochs = error, epochs
    if not best_epochs:
        return None
    final = None
    for _, net in _trained(x, residual, np.arange(len(y)), mean, scale, hidden, best_epochs):
        final = net
    if final is not None:
        final.epochs = best_epochs
    return final


def _trained(
    x: np.ndarray, y: np.ndarray, rows: np.ndarray, mean: np.ndarray, scale: np.ndarray, hidden: int, epochs: int
):
    """The network after each epoch of training on `rows` (epoch number, network): Adam,
    minibatches of `NETWORK_BATCH`, a small weight decay, from the seed `NETWORK_SEED`."""
    rng = np.random.default_rng(NETWORK_SEED)
    d = x.shape[1]
    w1 = (rng.standard_normal((d, hidden)) * math.sqrt(2.0 / d)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = np.zeros(hidden, np.float32)  # the network starts at 0: the linear part alone
    b2 = np.float32(0.0)
    params = [w1, b1, w2, np.array([b2])]
    moments = [np.zeros_like(q) for q in params]
    squares = [np.zeros_like(q) for q in params]
    step = 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(rows)
        for start in range(0, len(order), NETWORK_BATCH):
            batch = order[start : start + NETWORK_BATCH]
            z = (x[batch] - mean) / scale
            pre = z @ params[0] + params[1]
            h = np.maximum(pre, 0.0)
            error = h @ params[2] + params[3][0] - y[batch]  # d(mean squared error)/d(output), halved
            g_out = error / len(batch)
            g_h = np.outer(g_out, params[2]) * (pre > 0)
            grads = [
                z.T @ g_h + NETWORK_DECAY * params[0],
                g_h.sum(axis=0),
                h.T @ g_out + NETWORK_DECAY * params[2],
                np.array([g_out.sum()], np.float32),
            ]
            step += 1
            for q, g, m, v in zip(params, grads, moments, squares):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                q -= NETWORK_RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        yield epoch, Network(mean, scale, params[0].copy(), params[1].copy(), params[2].copy(), float(params[3][0]))


def _lambda_returns(
    values: np.ndarray, payoffs: np.ndarray, games: dict[int, list[int]], td_lambda: float
) -> np.ndarray:
    """Each position's TD(lambda) return: `(1 - lambda)` times the model's value of the next
    position kept of its game plus `lambda` times that position's own return; the last
    position's next is the end, worth the payoff. Lambda 1 is the payoff itself; less leans
    on the model's view of what came next, which random play makes less noisy than how the
    game ended."""
    out = np.array(payoffs, dtype=np.float64)
    for order in games.values():
        after = payoffs[order[-1]]  # the return from the position after: at the end, the payoff
        value_after = after
        for r in reversed(order):
            out[r] = (1.0 - td_lambda) * value_after + td_lambda * after
            after, value_after = out[r], values[r]
    return out


def _fitted(
    x: np.ndarray, y: np.ndarray, held: np.ndarray, penalties: tuple[float, ...], start: np.ndarray | None = None
) -> tuple[np.ndarray, float, float]:
    """A ridge regression of `y` on `x` (weights, intercept, penalty), its penalty the one of
    `penalties` that predicts the rows `held` out best when fitted on the others (`start`
    added to its predictions: what an earlier regression already predicts); an infinite
    penalty is no regression at all (all 0)."""
    finite = [p for p in penalties if math.isfinite(p)]
    penalty = finite[-1]
    if held.any() and (~held).any():
        offset = np.zeros(len(y)) if start is None else start
        target = y + offset
        best = math.inf
        trials = [*zip(finite, _ridge(x[~held], y[~held], finite))]
        if len(finite) < len(penalties):
            trials.append((math.inf, (np.zeros(x.shape[1]), 0.0)))
        for p, (w, b) in trials:
            error = float(np.mean((np.clip(x[held] @ w + b + offset[held], -1.0, 1.0) - target[held]) ** 2))
            if error < best - 1e-12:
                best, penalty = error, p
    if not math.isfinite(penalty):
        return np.zeros(x.shape[1]), 0.0, penalty
    w, b = _ridge(x, y, [penalty])[0]
    return w, b, penalty


def _ridge(x: np.ndarray, y: np.ndarray, penalties: list[float]) -> list[tuple[np.ndarray, float]]:
    """Ridge regressions of `y` on the standardised columns of `x`, one per penalty (times the
    number of rows), from one eigendecomposition; weights and intercept for the raw columns."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-12] = 1.0
    z = (x - mean) / scale
    centred = y - y.mean()
    values, vectors = np.linalg.eigh(z.T @ z)
    projected = vectors.T @ (z.T @ centred)
    out = []
    for penalty in penalties:
        w = vectors @ (projected / (np.maximum(values, 0.0) + penalty * len(y))) / scale
        out.append((w, float(y.mean() - mean @ w)))
    return out


# ---- files --------------------------------------------------------------------------------------------
def save(model: Model, path: Path) -> None:
    path.write_text(json.dumps(model.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")


_CACHE: dict[tuple[str, int, int], Model] = {}  # (path, size, mtime) -> model: many games read one file


def load(path: str | Path) -> Model:
    """The model in a file, every field checked (a clear message for anything else)."""
    p = Path(path)
    try:
        info = p.stat()
    except OSError as err:
        raise ModelFileError(f"{path}: cannot read the learned estimate ({err.strerror})") from None
    key = (str(p.resolve()), info.st_size, info.st_mtime_ns)
    if key in _CACHE:
        return _CACHE[key]
    if info.st_size > MAX_FILE:
        raise ModelFileError(f"{path}: {info.st_size:,} bytes is too large for a learned estimate")
    try:
        data = json.loads(p.read_bytes())
    except (OSError, ValueError) as err:
        raise ModelFileError(f"{path}: not a learned estimate ({err})") from None
    model = _parse(data, str(path))
    _CACHE[key] = model
    return model


def _parse(data: Any, where: str) -> Model:
    def bad(what: str) -> UsageError:
        return ModelFileError(f"{where}: not a learned estimate ({what})")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f'no "format": "{FORMAT}"')
    if data.get("version") != VERSION:
        raise ModelFileError(
            f"{where}: not a learned estimate this gamedef reads (version {data.get('version')!r}, "
            f"this gamedef reads version {VERSION})",
            "fit it again with this gamedef",
        )
    for name, kind in (("game", str), ("title", str), ("rules", str), ("players", int), ("size", int)):
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise bad(f"'{name}' is missing or not a {kind.__name__}")
    seats, size = data.get("seats"), data["size"]
    if not (isinstance(seats, list) and seats and all(isinstance(s, str) for s in seats)):
        raise bad("'seats' is not a list of seat names")
    columns = data.get("columns")
    if not (isinstance(columns, list) and all(isinstance(c, int) and 0 <= c < size for c in columns)):
        raise bad(f"'columns' is not a list of positions in a tensor of {size}")
    weights, bias = data.get("weights"), data.get("bias")
    if not (isinstance(weights, dict) and isinstance(bias, dict) and set(weights) == set(seats) == set(bias)):
        raise bad("'weights' and 'bias' do not name each seat once")
    arrays = {}
    for seat in seats:
        w = weights[seat]
        if not (isinstance(w, list) and len(w) == len(columns) and all(_number(v) for v in w) and _number(bias[seat])):
            raise bad(f"the weights of {seat} are not {len(columns)} numbers and a bias")
        arrays[seat] = np.array(w, dtype=np.float64)
    if data.get("link", "clamp") not in ("clamp", "tanh"):
        raise bad('\'link\' is not "clamp" or "tanh"')
    network = _parse_network(data.get("network"), len(columns), bad)
    header = {k: v for k, v in data.items() if k not in ("format", "version", "columns", "weights", "bias", "network")}
    return Model(header, np.array(columns, dtype=np.int64), arrays, {s: float(bias[s]) for s in seats}, network)


def _parse_network(data: Any, features: int, bad: Callable[[str], UsageError]) -> Network | None:
    """The shared network of a model file (null for none), its sizes checked against the features."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise bad("'network' is not an object or null")
    w1 = data.get("w1")
    if not (isinstance(w1, list) and len(w1) == features and all(isinstance(row, list) for row in w1)):
        raise bad(f"the network's 'w1' is not {features} rows")
    hidden = len(w1[0]) if w1 else 0
    if not 1 <= hidden <= MAX_HIDDEN:
        raise bad(f"the network has {hidden} hidden units, not 1 to {MAX_HIDDEN}")
    lengths = {"mean": features, "scale": features, "b1": hidden, "w2": hidden}
    for name, length in lengths.items():
        v = data.get(name)
        if not (isinstance(v, list) and len(v) == length and all(_number(n) for n in v)):
            raise bad(f"the network's '{name}' is not {length} numbers")
    if not all(len(row) == hidden and all(_number(n) for n in row) for row in w1):
        raise bad(f"the network's 'w1' rows are not {hidden} numbers each")
    if not _number(data.get("b2")):
        raise bad("the network's 'b2' is not a number")
    if not all(v > 0 for v in data["scale"]):
        raise bad("the network's 'scale' holds a number not above 0")
    as_array = lambda v: np.array(v, dtype=np.float32)  # noqa: E731
    return Network(
        as_array(data["mean"]),
        as_array(data["scale"]),
        as_array(w1),
        as_array(data["b1"]),
        as_array(data["w2"]),
        float(data["b2"]),
    )


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


# ---- the agents' view -----------------------------------------------------------------------------
class _Learned:
    """A game's estimate read from a model instead of its `estimate` declaration: what the
    agents ask (`estimate`, `estimates`, `estimate_bounds`), answered by the model."""

    model: Model

    def estimate(self, state: State, seat: str) -> float | None:
        return self.model.value(self, state, seat)  # type: ignore[arg-type]  # a Game: the classes below

    def estimates(self, state: State) -> dict[str, float] | None:
        return {p: self.model.value(self, state, p) for p in state.players}  # type: ignore[arg-type]  # (as above)

    def estimate_bounds(self) -> tuple[float, float] | None:
        return (-1.0, 1.0)


class LearnedGame(_Learned, Game):
    """A game whose estimate is a model's (module docstring)."""


class LearnedChanceGame(_Learned, ChanceGame):
    """A game in chance mode whose estimate is a model's."""


def with_model(game: Game, model: Model) -> Game:
    """The same game (its compiled rules shared), estimated by `model`."""
    cls = LearnedChanceGame if isinstance(game, ChanceGame) else LearnedGame
    view = cls(game.compiled, game.name, game.variants, game.options)
    view.model = model
    return view


class LearnedAgent:
    """An agent that reads the estimate (greedy, or a search cutting its rollouts or ordering
    its moves) playing with a model's estimate instead of the game's."""

    def __init__(self, inner: _Chooser, model: Model, where: str):
        self.inner, self.model, self.where = inner, model, where
        self._game: Game | None = None  # the game last seen
        self._view: Game | None = None  # and its view with the model's estimate

    def choose(self, game: Game, state: State) -> int:
        if self._game is not game or self._view is None:
            self.model.check(game, len(state.players), self.where)
            self._game, self._view = game, with_model(game, self.model)
        return self.inner.choose(self._view, state)
