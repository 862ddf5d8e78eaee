"""Any .game as a PettingZoo AEC environment, for multi-agent RL tools (docs/adapters.md).

PettingZoo's AEC API (`pip install ".[pettingzoo]"`) plays turn-based games agent by
agent: `agent_iter`, `last`, `step`. Here:

* the agents are the game's seats for the player count (`players`);
* an action is the game's stable action number (`game.action_space()`):
  `Discrete(action_space().size)` for every agent, the same number for the same move in
  every position;
* an observation is a dict: `"action_mask"`, int8 of that size, 1 for the legal moves of
  the agent to move (all 0 for the others); `"observation"`, the seat's observation
  (`game.observation(state, seat)`, docs §11) as numbers: with `observation="tensor"`
  (the default) the generic encoding of interpreter/adapters/tensors.py, float32 in a
  Box of the layout's size, the same numbers as OpenSpiel's `observation_tensor`; with
  `observation="json"`, canonical JSON, UTF-8 bytes in a uint8 vector of
  `observation_size` (default `DEFAULT_OBSERVATION_SIZE`), padded with zeros, cut if
  longer (a warning says so once), which `decode_observation` turns back into the dict;
  `observation_json(agent)` gives it whole;
* the game's random draws are its own seeded generator, seeded from the env's
  `np_random` at each `reset` (a normal game, not chance mode: chance is no agent);
* rewards are 0 until the end, then `game.returns` (docs/language.md §3.19); every agent terminates
  when the game is over; all are truncated (rewards 0) after `max_steps` decisions.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from interpreter import load_game
from interpreter.adapters.tensors import TensorLayout
from interpreter.runtime.game import Game
from interpreter.runtime.machine import State

DEFAULT_OBSERVATION_SIZE = 32_768  # bytes: the bundled games' longest observations are about 22,000
DEFAULT_MAX_STEPS = 25_000  # decisions: above the longest bundled game's random playouts


def _canonical(value: Any) -> str:
    """The same JSON as spiel_adapter.canonical_json (which needs pyspiel to import)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(map(str, value))
    return str(value)


def decode_observation(vector: np.ndarray) -> dict:
    """The observation dict an `"observation"` vector encodes (it must not have been cut):
    for agents and tests that want the seat's view itself rather than bytes."""
    return json.loads(bytes(np.asarray(vector, dtype=np.uint8)).rstrip(b"\0").decode("utf-8"))


class raw_env(AECEnv, EzPickle):  # noqa: N801 - PettingZoo's name for the unwrapped env
    """A .game as an AEC environment (module docstring); `env(...)` wraps it as
    PettingZoo's own environments are wrapped."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "gamedef_v0", "is_parallelizable": False}

    def __init__(
        self,
        game_name: str | Path,
        variants: tuple[str, ...] | list[str] = (),
        options: dict[str, Any] | None = None,
        players: int | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        observation_size: int = DEFAULT_OBSERVATION_SIZE,
        render_mode: str | None = None,
        observation: str = "tensor",
    ):
        EzPickle.__init__(
            self, game_name, variants, options, players, max_steps, observation_size, render_mode, observation
        )
        if observation not in ("tensor", "json"):
            raise ValueError(f"observation must be 'tensor' or 'json', not {observation!r}")
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game: Game = load_game(game_name, variants=tuple(variants), options=options)
        meta = self.game.metadata()
        self.players = players or self.game.header.default_players or meta.min_players
        self.possible_agents: list[str] = list(self.game.seats_for(self.players))
        self.metadata = {**self.metadata, "name": f"gamedef_{Path(str(game_name)).name.removesuffix('.game')}_v0"}
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.observation_kind = observation
        self.layout: TensorLayout | None = None
        box: gymnasium.spaces.Box[np.float32] | gymnasium.spaces.Box[np.uint8]  # the tensor, or the JSON's bytes
        if observation == "tensor":
            self.layout = TensorLayout(self.game, self.players)
            observation_size = self.layout.size
            box = gymnasium.spaces.Box(-np.inf, np.inf, (observation_size,), np.float32)
        else:
            box = gymnasium.spaces.Box(0, 255, (observation_size,), np.uint8)
        self.observation_size = observation_size
        self._actions = self.game.action_space()
        size = self._actions.size
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": box,
                    "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self.game_state: State | None = None
        self.steps = 0  # decisions since the last reset
        self._warned = False
        self.agents: list[str] = []

    # -- spaces --
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The agent's observation space (one object per agent, as PettingZoo requires)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """Discrete over all action numbers; the mask says which are legal now."""
        return self.action_spaces[agent]

    # -- the game --
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: the env's generator reseeded if `seed` is given, the game's own
        generator seeded from it, so a seed fixes every draw of the game."""
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.game_state = self.game.start(players=self.players, seed=game_seed)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """After a reset or a move: the next agent, or the end of the game for all."""
        state = self.game_state
        assert state is not None  # set by `reset`, before any move
        if self.game.is_over(state):
            returns = self.game.returns(state)
            self.rewards = {a: float(returns[a]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        elif self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            seat = self.game.current_player(state)
            assert seat is not None  # not over: a seat decides
            self.agent_selection = seat

    def step(self, action: int | None) -> None:
        """Play the selected agent's move, by its action number; a finished agent's step
        (action None) removes it. An illegal number raises ValueError."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        assert state is not None  # an agent is selected: `reset` has started a game
        ids = self._actions.ids(state)
        try:
            # None raises TypeError here, refused below as an illegal action like any other.
            index = ids.index(int(action))  # type: ignore[arg-type]
        except (ValueError, TypeError):
            raise ValueError(f"action {action} is not legal for {agent}; legal: {sorted(ids)[:12]}") from None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game_state = self.game.apply_index(state, index)
        self.steps += 1
        self._settle()
        if self.render_mode == "human":
            self.render()

    # -- what agents see --
    def action_mask(self, agent: str) -> np.ndarray:
        """1 for the agent's legal action numbers now, else 0 (all 0 when not its turn)."""
        mask = np.zeros(self._actions.size, dtype=np.int8)
        state = self.game_state
        if (
            state is not None
            and not self.game.is_over(state)
            and agent == self.game.current_player(state)
            and not self.truncations.get(agent, False)
        ):
            mask[self._actions.ids(state)] = 1
        return mask

    def observation_json(self, agent: str) -> str:
        """The agent's observation, whole, as the canonical JSON the vector encodes."""
        state = self.game_state
        assert state is not None  # observed after `reset`, as PettingZoo's protocol requires
        return _canonical(self.game.observation(state, agent))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation vector and action mask (module docstring)."""
        if self.layout is not None:
            state = self.game_state
            assert state is not None  # observed after `reset`, as PettingZoo's protocol requires
            seen = self.game.observation(state, agent)
            return {"observation": self.layout.encode(seen, agent), "action_mask": self.action_mask(agent)}
        data = self.observation_json(agent).encode("utf-8")
        if len(data) > self.observation_size and not self._warned:
            self._warned = True
            warnings.warn(
                f"an observation of {len(data)} bytes is cut to observation_size={self.observation_size}; "
                "pass a larger observation_size",
                stacklevel=2,
            )
        vector = np.zeros(self.observation_size, dtype=np.uint8)
        data = data[: self.observation_size]
        vector[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        return {"observation": vector, "action_mask": self.action_mask(agent)}

    def render(self) -> str | None:
        """The position as the game draws it for a spectator (`ansi`: returned; `human`:
        printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        from interpreter.runtime.render import render

        if self.game_state is None:
            return None  # before the first reset
        text = render(self.game, self.game_state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game holds no files or windows."""


def env(game_name: str | Path, **kwargs: Any) -> AECEnv:
    """The game as a PettingZoo AEC environment, wrapped as PettingZoo's own are (actions
    checked against the space, methods called in order). Keyword arguments: `variants`,
    `options`, `players`, `max_steps`, `observation_size`, `render_mode`, `observation`
    (`raw_env`)."""
    wrapped: AECEnv = raw_env(game_name, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
