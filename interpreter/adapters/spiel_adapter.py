"""Any .game as an OpenSpiel game, for OpenSpiel's solvers and tests (docs/adapters.md).

OpenSpiel (`pip install ".[openspiel]"`) solves and evaluates games given as `pyspiel`
games; a Python game is a `pyspiel.Game` subclass registered under a short name. This
module wraps a game loaded in chance mode (`load_game(name, chance=True)`, docs §12.1):

* a chance node (a roll, one draw of a shuffle) is `is_chance_node()`, its results
  `chance_outcomes()` as (action, probability); a decision is the seat's index in
  `current_player()`;
* actions are the game's stable action numbers (`game.action_space()`): a decision's
  legal actions are `ids(state)`, sorted; a chance outcome is its number minus the first
  number of chance's block, so chance actions run from 0 to `max_chance_outcomes` - 1;
* `returns()` are `game.returns` in seat order; `information_state_string(p)` is
  `game.information_state`, `observation_string(p)` the seat's observation as canonical
  JSON (strings only: no tensors);
* a game still running after `max_game_length` decisions (chance's draws not counted)
  is cut short: terminal, every seat's return 0 (clamped into the utility bounds).
  OpenSpiel needs a finite bound that games respect, and some of its tools size arrays
  by it, so the adapter enforces the bound instead of trusting it.

Nothing here is imported by the interpreter; importing this module needs `pyspiel`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from interpreter import load_game
from interpreter.adapters.tensors import HistoryLayout, TensorLayout
from interpreter.core.errors import UsageError
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.game import Game as EngineGame
from interpreter.runtime.machine import State as EngineState

# A cap on a game's decisions (chance's draws not counted): above the longest random
# playouts of the bundled games (Berlin Wall, four players: about 21,000), far below the
# command line's 100,000, which exists to stop runaway rules rather than to bound a game.
DEFAULT_MAX_GAME_LENGTH = 25_000

# Positions a game keeps below its first one, so that a solver walking the same tree again
# (CFR) replays no rules; beyond it, positions are made afresh each time. Each holds an
# engine state (tens of kilobytes in the big games), so the bound keeps memory in hand.
CACHED_POSITIONS = 20_000

# Moves recalled by the information-state tensor: every move of tic-tac-toe and Kuhn poker.
HISTORY_MOVES = 32

_registered: dict[str, tuple] = {}  # short name -> the configuration registered under it


class _Shared:
    """What every state of one registered game shares: the loaded game, its action
    space, its seats and first position. Copying a state (OpenSpiel's `Clone` deep-copies
    a Python state's attributes) must not copy it: `__deepcopy__` returns it as is."""

    def __init__(self, game: EngineGame, players: int, max_game_length: int, short: str = ""):
        self.key = (short, players, max_game_length)
        _shared_by_key[self.key] = self
        self.game = game
        self.actions = game.action_space()
        self.chance_offset = self.actions.size - self.actions.block  # chance's block of numbers
        self.players = players
        self.seats = tuple(game.seats_for(players))
        self.seat_index = {seat: i for i, seat in enumerate(self.seats)}
        self.max_game_length = max_game_length
        self.bounds = game.utility_bounds()
        self._initial: EngineState | None = None
        self._layout: TensorLayout | None = None
        self._root: _Position | None = None
        self.cached = 0  # positions kept in the tree below the root (`step`)
        self._history: HistoryLayout | None = None

    def initial(self) -> EngineState:
        """The first position (chance mode starts without a seed: always the same)."""
        if self._initial is None:
            self._initial = self.game.start(players=self.players)
        return self._initial

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self

    def layout(self) -> TensorLayout:
        """The observation tensor's layout (made on first use: only learners ask)."""
        if self._layout is None:
            self._layout = TensorLayout(self.game, self.players)
        return self._layout

    def history(self) -> HistoryLayout:
        """The information-state tensor's record of moves: the last `HISTORY_MOVES`
        (at most `max_game_length`)."""
        if self._history is None:
            self._history = HistoryLayout(
                self.layout().seats, self.actions.size, min(HISTORY_MOVES, self.max_game_length)
            )
        return self._history

    def __reduce__(self) -> tuple:
        """Pickled (OpenSpiel's `serialize_state` pickles a Python state's attributes) as
        its registration key: the game's compiled rules do not pickle, and the process
        that loads it has registered the same game (`pyspiel.deserialize_game_and_state`
        loads the game first)."""
        return (_shared_for, self.key)

    def root(self) -> _Position:
        """The first position, shared by every new game (and the tree of positions cached
        below it)."""
        if self._root is None:
            self._root = _Position(self.initial(), 0, self)
        return self._root

    def numbered(self, pos: _Position) -> list[tuple[int, int]]:
        """(action, option index) of the pending decision or draw, sorted by action, one
        per action (a draw's numbers start at 0)."""
        if pos.numbered is None:
            state = pos.state
            p = state.pending
            offset = self.chance_offset if p is not None and p.player == CHANCE else 0
            seen: dict[int, int] = {}
            for i, number in enumerate(self.actions.ids(state)):
                seen.setdefault(number - offset, i)
            pos.numbered = sorted(seen.items())
        return pos.numbered

    def step(self, pos: _Position, action: int) -> _Position:
        """The position after `action` (a decision's or a draw's number) in `pos`: the
        cached one if this action was taken here before."""
        children = pos.children
        if children is not None:
            known = children.get(action)
            if known is not None:
                return known
        nxt = self._step(pos, action)
        if pos.path is not None and self.cached < CACHED_POSITIONS:
            if children is None:
                children = pos.children = {}
            children[action] = nxt
            self.cached += 1
        return nxt

    def _step(self, pos: _Position, action: int) -> _Position:
        state = pos.state
        p = state.pending
        if p is None or pos.decisions >= self.max_game_length:
            raise ValueError(f"action {action}: the game is over")
        chance = p.player == CHANCE
        numbered = self.numbered(pos)
        index = dict(numbered).get(action)
        if index is None:
            raise ValueError(f"action {action} is not legal here; legal: {[a for a, _ in numbered][:12]}")
        nxt = self.game.apply_index(state, index)
        moves = pos.moves
        if not chance:
            moves = ((p.player, action, bool(self.game.compiled.choices[p.choice].secret)), moves)
        path = None if pos.path is None else (action, pos.path)
        return _Position(nxt, pos.decisions + (0 if chance else 1), self, moves, path)


_shared_by_key: dict[tuple, _Shared] = {}


def _shared_for(short: str, players: int, max_game_length: int) -> _Shared:
    """The shared part of a registered game, for unpickling (`_Shared.__reduce__`)."""
    shared = _shared_by_key.get((short, players, max_game_length))
    if shared is None:
        pyspiel.load_game(short, {"players": players, "max_game_length": max_game_length})
        shared = _shared_by_key[(short, players, max_game_length)]
    return shared


def _listed(chain: tuple | None, last: int | None = None) -> list:
    """The items of a chain `(newest, (older, (... ())))`, oldest first; only the `last`
    newest if given. Positions keep their actions and moves as such chains: one link a
    step, shared with the position before, where a tuple would copy the whole history."""
    items: list = []
    while chain and (last is None or len(items) < last):
        item, chain = chain
        items.append(item)
    items.reverse()
    return items


def _replayed(shared: _Shared, path: tuple) -> _Position:
    """The position the actions `path` reach from the first one (unpickling)."""
    pos = shared.root()
    for action in path:
        pos = shared.step(pos, int(action))
    return pos


class _Position:
    """An engine state (immutable) and the decisions made so far, shared by copies, with
    its text once drawn (OpenSpiel prints a state and its copy to compare them); `moves`,
    the decisions as (seat, action, secret), for the information-state tensor; `path`,
    every action from the first position (draws included), for serialization, or None
    for a resampled position, which no actions reach. Both are chains, newest first
    (`_listed`)."""

    __slots__ = (
        "state",
        "decisions",
        "text",
        "moves",
        "path",
        "shared",
        "children",
        "numbered",
        "info",
        "values",
        "player",
    )

    def __init__(self, state: EngineState, decisions: int, shared: _Shared, moves: tuple = (), path: tuple | None = ()):
        self.state, self.decisions, self.shared = state, decisions, shared
        self.text: str | None = None
        self.moves, self.path = moves, path
        # What solvers ask again and again of the same position, kept once computed (a
        # tabular solver walks the same tree every iteration): the positions after each
        # action (up to `CACHED_POSITIONS` per game), the numbered options, the seats'
        # information states, the returns.
        self.children: dict[int, _Position] | None = None
        self.numbered: list[tuple[int, int]] | None = None
        self.info: dict[str, str] | None = None
        self.values: list[float] | None = None
        self.player: int | None = None

    def __deepcopy__(self, memo: dict) -> _Position:
        return self

    def __reduce__(self) -> tuple:
        """Pickled as the actions that reach it, replayed on loading (the engine state
        holds compiled rules, which do not pickle). A resampled position has none."""
        if self.path is None:
            raise ValueError("a resampled position is reached by no actions and cannot be serialized")
        return (_replayed, (self.shared, tuple(_listed(self.path))))


def canonical_json(value: Any) -> str:
    """One string per value, the same in every process: how an observation dict (which
    may hold tuples, sets of names, numbers as keys) becomes an OpenSpiel string."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(map(str, value))
    return str(value)


class GamedefState(pyspiel.State):
    """One position of a wrapped game, as OpenSpiel's State API (module docstring)."""

    def __init__(self, game: GamedefGame):
        super().__init__(game)
        self._shared: _Shared = game._shared
        self._pos = self._shared.root()

    # -- helpers --
    @property
    def engine_state(self) -> EngineState:
        """The interpreter's state, for tools that want the game's own API on it."""
        return self._pos.state

    def _cut_short(self) -> bool:
        return self._pos.decisions >= self._shared.max_game_length

    def _chance(self) -> bool:
        p = self._pos.state.pending
        return p is not None and p.player == CHANCE

    def _numbered(self) -> list[tuple[int, int]]:
        """(action, option index) of the pending decision, sorted by action, one per action."""
        return self._shared.numbered(self._pos)

    # -- OpenSpiel's State API --
    def current_player(self) -> int:
        """The seat's index, or CHANCE / TERMINAL, as OpenSpiel numbers players."""
        pos = self._pos
        if pos.player is None:
            if self.is_terminal():
                pos.player = int(pyspiel.PlayerId.TERMINAL)
            elif self._chance():
                pos.player = int(pyspiel.PlayerId.CHANCE)
            else:
                pending = pos.state.pending
                assert pending is not None  # not over, not cut short, no draw: a seat decides
                pos.player = self._shared.seat_index[pending.player]
        return pos.player

    def _legal_actions(self, player: int) -> list[int]:
        """The pending decision's action numbers, ascending (OpenSpiel requires it)."""
        return [a for a, _ in self._numbered()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending draw's results as (action, probability), ascending by action."""
        if not self._chance() or self.is_terminal():
            return []
        probabilities = self._pos.state.chance.node.probabilities
        return [(a, probabilities[i]) for a, i in self._numbered()]

    def _apply_action(self, action: int) -> None:
        """Apply a move or a draw by its number; each state is replaced, never changed."""
        self._pos = self._shared.step(self._pos, action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GamedefState:
        """A position seat `player_id` cannot tell from this one, what it cannot see
        redrawn (`theory.resample`, docs §12.1), for OpenSpiel's IS-MCTS. The sampler
        (a callable giving numbers in [0, 1)) seeds the redraw, so OpenSpiel's own
        random stream decides it."""
        import random

        from interpreter.runtime.resample import resample

        sh = self._shared
        seat = sh.seats[player_id]
        seed = int(float(probability_sampler()) * 2**53)
        world = resample(sh.game, self._pos.state, seat, random.Random(seed))
        twin = self.clone()
        pos = self._pos
        twin._pos = _Position(world, pos.decisions, self._shared, pos.moves, None)
        return twin

    def _action_to_string(self, player: int, action: int) -> str:
        """The move's label in the game's words if it is legal here, else its number."""
        if not self.is_terminal():
            index = dict(self._numbered()).get(action)
            if index is not None:
                label = self._shared.game.labels(self._pos.state)[index]
                return label
        return f"action {action}"

    def is_terminal(self) -> bool:
        """Over by the rules, or cut short at `max_game_length` decisions."""
        return self._pos.state.result is not None or self._cut_short()

    def returns(self) -> list[float]:
        """Each seat's payoff in seat order (0 until the end, and in a game cut short)."""
        pos = self._pos
        if pos.values is None:
            sh = self._shared
            if pos.state.result is None:
                low, high = sh.bounds
                pos.values = [min(max(0.0, low), high)] * sh.players
            else:
                values = sh.game.returns(pos.state)
                pos.values = [float(values[seat]) for seat in sh.seats]
        return list(pos.values)

    def __str__(self) -> str:
        """The whole position (`render_all`: the spectator's view, then what each seat sees
        that the spectator does not), then who is to decide what.

        OpenSpiel compares copies by this string, so it names everything, hidden or not."""
        pos = self._pos
        if pos.text is None:
            pos.text = self._draw()
        return pos.text

    def _draw(self) -> str:
        from interpreter.runtime.render import render_all

        sh, state = self._shared, self._pos.state
        text = render_all(sh.game, state)
        if state.result is not None:
            return f"{text}\nover: {', '.join(state.result) or 'no winner'}"
        if self._cut_short():
            return f"{text}\ncut short after {self._pos.decisions} decisions"
        p = state.pending
        assert p is not None  # neither over nor cut short: a decision waits
        labels = sh.game.labels(state)
        return f"{text}\n{p.player} ({sh.game.prompt(state)}): {' | '.join(labels)}"


class _Observer:
    """OpenSpiel's Python observer protocol (`set_from`, `string_from`, `tensor`, `dict`):
    the seat's information state (perfect recall) or observation, as a string and as the
    generic tensor of interpreter/adapters/tensors.py (the information state's tensor adds
    the moves the seat saw)."""

    def __init__(self, shared: _Shared, iig_obs_type: Any, params: dict | None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self._shared = shared
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations of all players' private information are not supported")
        if perfect_recall and private != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("a perfect-recall observation is a seat's information state: private_info SINGLE_PLAYER")
        self._recall = perfect_recall
        self._public_only = private == pyspiel.PrivateInfoType.NONE
        layout = shared.layout()
        history = shared.history() if perfect_recall else None
        self.tensor = np.zeros(layout.size + (history.size if history else 0), np.float32)
        self.dict: dict = {name: self.tensor[at : at + size] for name, at, size in layout.segments}
        if history is not None:
            moves = self.tensor[layout.size :].reshape(history.length, history.width)
            self.dict["moves"] = moves

    def _seat(self, player: int) -> str:
        return self._shared.seats[player]

    def set_from(self, state: GamedefState, player: int) -> None:
        """Fill `tensor` with what seat `player` sees of `state` (and saw, for an
        information state)."""
        sh = self._shared
        seat = self._seat(player)
        viewer = None if self._public_only else seat
        layout = sh.layout()
        layout.encode(sh.game.observation(state.engine_state, viewer), viewer, self.tensor[: layout.size])
        if self._recall:
            tail = self.tensor[layout.size :]
            tail.fill(0.0)
            history = sh.history()
            history.encode(tuple(_listed(state._pos.moves, history.length)), seat, tail, 0)

    def string_from(self, state: GamedefState, player: int) -> str:
        """The seat's information state or observation (the public view without private info)."""
        sh = self._shared
        seat = self._seat(player)
        if self._recall:
            pos = state._pos
            if pos.info is None:
                pos.info = {}
            text = pos.info.get(seat)
            if text is None:
                text = pos.info[seat] = sh.game.information_state(pos.state, seat)
            return text
        viewer = None if self._public_only else seat
        return canonical_json(sh.game.observation(state.engine_state, viewer))


class GamedefGame(pyspiel.Game):
    """A wrapped .game as a `pyspiel.Game` (module docstring).

    `register` makes one subclass per short name, holding the loaded game and the
    GameType's fields, and registers the subclass itself as OpenSpiel's factory: a
    class lives until the process ends (its method order refers to itself), whereas a
    closure would be freed by OpenSpiel's registry, a C++ static, after Python has shut
    down, and crash the interpreter at exit."""

    _engine: EngineGame
    _type_fields: dict[str, Any]
    _default_players: int
    _default_length: int
    _shared_by_config: dict[tuple[int, int], _Shared]

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        count = int(params.get("players", self._default_players))
        length = int(params.get("max_game_length", self._default_length))
        if length < 1:
            raise UsageError(f"max_game_length must be at least 1, not {length}")
        key = (count, length)
        if key not in self._shared_by_config:
            self._engine.seats_for(count)  # a wrong count: a UsageError naming the range
            self._shared_by_config[key] = _Shared(self._engine, count, length, self._type_fields["short_name"])
        shared = self._shared_by_config[key]
        meta = shared.game.metadata()
        low, high = shared.bounds
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.actions.size,
            max_chance_outcomes=shared.actions.block if meta.chance else 0,
            num_players=count,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if meta.zero_sum else None,
            max_game_length=length,
        )
        super().__init__(pyspiel.GameType(**self._type_fields), info, {"players": count, "max_game_length": length})
        self._shared = shared

    @property
    def engine(self) -> EngineGame:
        """The interpreter's game (chance mode) behind this OpenSpiel game."""
        return self._shared.game

    def new_initial_state(self) -> GamedefState:
        """The first position: a chance node if setup draws, else the first decision."""
        return GamedefState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict | None = None) -> _Observer:
        """The observer OpenSpiel asks for information state and observation strings."""
        if isinstance(iig_obs_type, dict):  # called with the parameters alone
            iig_obs_type, params = None, iig_obs_type
        return _Observer(self._shared, iig_obs_type, params)


def short_name_for(name: str | Path, variants: Iterable[str] = (), options: dict[str, Any] | None = None) -> str:
    """The default short name, `gamedef_<game>[_<variant>...][_<option>_<value>...]`:
    OpenSpiel names games by short names of letters, digits and underscores."""
    stem = Path(str(name)).name.removesuffix(".game")
    parts = [stem, *variants, *(f"{k}_{v}" for k, v in sorted((options or {}).items()))]
    return "gamedef_" + "_".join(re.sub(r"[^A-Za-z0-9]+", "_", str(p)).strip("_") for p in parts)


def register(
    name: str | Path,
    variants: Iterable[str] = (),
    options: dict[str, Any] | None = None,
    players: int | None = None,
    max_game_length: int | None = None,
    short_name: str | None = None,
) -> str:
    """Register a .game with OpenSpiel so `pyspiel.load_game(short_name)` makes it; returns
    the short name. The game (a bundled name or a path) is loaded once, in chance mode.

    `players` and `max_game_length` are game parameters, not part of what is registered:
    `pyspiel.load_game("gamedef_twid(players=2,max_game_length=500)")`; given here, they
    are the defaults (else the game's default count and `DEFAULT_MAX_GAME_LENGTH`) of the
    first registration. Registering the same short name again with the same game,
    variants and options is a no-op; with others, a ValueError."""
    variants = tuple(variants)
    options = dict(options or {})
    short = short_name or short_name_for(name, variants, options)
    config = (str(name), variants, tuple(sorted(options.items())))
    if short in _registered:
        if _registered[short] != config:
            raise ValueError(f"'{short}' is registered with another configuration; pass short_name=")
        return short
    engine = load_game(name, variants=variants, options=options, chance=True)
    meta = engine.metadata()
    default_players = players or engine.header.default_players or meta.min_players
    engine.seats_for(default_players)  # a wrong count fails here, not inside OpenSpiel
    cap = max_game_length or min(DEFAULT_MAX_GAME_LENGTH, meta.max_length)
    kind = pyspiel.GameType
    type_fields = dict(
        short_name=short,
        long_name=f"{engine.header.title} (gamedef)",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC if meta.chance else kind.ChanceMode.DETERMINISTIC,
        information=(
            kind.Information.PERFECT_INFORMATION if meta.perfect_information else kind.Information.IMPERFECT_INFORMATION
        ),
        utility=kind.Utility.ZERO_SUM if meta.zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=meta.max_players,
        min_num_players=meta.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players, "max_game_length": cap},
    )
    factory = type(
        f"GamedefGame_{short}",
        (GamedefGame,),
        {
            "_engine": engine,
            "_type_fields": type_fields,
            "_default_players": default_players,
            "_default_length": cap,
            "_shared_by_config": {},
        },
    )
    pyspiel.register_game(pyspiel.GameType(**type_fields), factory)
    _registered[short] = config
    return short


def load(
    name: str | Path,
    variants: Iterable[str] = (),
    options: dict[str, Any] | None = None,
    players: int | None = None,
    max_game_length: int | None = None,
    short_name: str | None = None,
) -> pyspiel.Game:
    """Register the game (as `register`) and return it as a `pyspiel.Game`, ready for
    OpenSpiel's algorithms: the one call most users need. `players` and `max_game_length`
    are this game's parameters only: the registration keeps the game's own defaults, so a
    later `load` without them is not given these (as `register` with them would make it)."""
    short = register(name, variants, options, short_name=short_name)
    params: dict[str, int] = {}
    if players is not None:
        params["players"] = players
    if max_game_length is not None:
        params["max_game_length"] = max_game_length
    return pyspiel.load_game(short, params)
