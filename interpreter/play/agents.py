"""Players that choose moves: random, first-legal and the search agents, by the name
`--agent SEAT=KIND` gives them (a person at the terminal is the command line's: cli/human.py).

Agents see only their own observation and the labelled legal moves; their own
randomness is separate from the game's, so a transcript replays without them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from interpreter.core.errors import ArgumentError, ModelFileError, UsageError, did_you_mean
from interpreter.play.mcts import (
    GreedyAgent,
    ISMCTSAgent,
    MCTSAgent,
    refuse_bias,
    refuse_depth,
    refuse_hidden,
    refuse_unresampled,
)
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.game import ChanceGame, Game
from interpreter.runtime.machine import State


class Agent(Protocol):
    """What plays a seat: the index of its move in a position. An agent may also have a
    method `seen(game, state, label)`, told every move as it is made (by any seat): the
    IS-MCTS agent keeps its tree between its moves through it (interpreter/play/mcts.py)."""

    def choose(self, game: Game, state: State) -> int: ...


def listeners(agents: dict) -> list[Callable[[Game, State, str], None]]:
    """The `seen` methods of the agents that want every move told (`Agent`): what a loop
    that plays a game calls with each move, so that a search keeps its tree between moves
    wherever the game is played (`run`, `play`, `simulate`, `balance` give the same game)."""
    return [agent.seen for agent in agents.values() if hasattr(agent, "seen")]


def tell(told: list[Callable[[Game, State, str], None]], game: Game, state: State, index: int) -> None:
    """Tell each of `told` (`listeners`) that the move `index` is made in `state`."""
    if told:
        label = game.labels(state)[index]
        for seen in told:
            seen(game, state, label)


class RandomAgent:
    """Picks uniformly among the legal moves."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game: Game, state: State) -> int:
        p = state.pending
        assert p is not None  # an agent is asked only while a decision is pending
        return self.rng.randrange(len(p.values))


class ChanceAgent:
    """The `chance` seat of a game played in chance mode (interpreter/runtime/chance.py): draws each
    pending result with its probability, from a seeded generator, so a game is reproducible."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game: Game, state: State) -> int:
        assert isinstance(game, ChanceGame)  # `parse_agents` makes this agent only for a ChanceGame
        weights = [p for _, p in game.chance_outcomes(state)]
        return self.rng.choices(range(len(weights)), weights=weights)[0]


class FirstAgent:
    """Always takes the first legal move: a deterministic, dull opponent."""

    def choose(self, game: Game, state: State) -> int:
        return 0


KINDS = (
    "random",
    "first",
    "human",
    "greedy",
    "greedy:dD:nS",
    "mcts:N",
    "mcts:Ts",
    "ismcts:N",
    "ismcts:Ts",
    "mcts:N:dD",
    "ismcts:Ts:dD",
    "ismcts:Ts:dD:o",
    "KIND:learned=FILE",
)
# What each kind is, for the command line's help (docs/language.md section 3.20 for the estimate).
KINDS_HELP = (
    ", ".join(KINDS)
    + " (greedy: one ply by the game's estimate, greedy:dD:nS each move's estimate after D more greedy decisions, "
    "mean of S samples; mcts/ismcts: N iterations or T seconds a "
    "move, :dD cuts rollouts after D decisions and scores them by the estimate, :o orders moves by it; "
    ":learned=FILE last: the estimate `gamedef learn` fitted instead of the game's)"
)
BIAS = 1.0  # the weight of move ordering that `:o` gives (`:oW` gives W)
LEARN_EXTRA = "install the learn extra: pip install 'gamedef[learn]'"
LEARNED = ":learned="  # `KIND:learned=FILE`: the agent reads a learned estimate (play/learned.py)
RESAMPLING = ("ismcts", "greedy")  # kinds that redraw what their seat cannot see (Game.resample)


def _parts(kind: str, name: str, arg: str, seat: str, parts: list[str]) -> tuple[int | None, float]:
    """The rollout depth (`dD`) and move ordering weight (`o`, `oW`) after a search's budget."""
    depth, bias = None, 0.0
    for part in parts:
        if part.startswith("d") and part[1:].isdigit() and int(part[1:]) <= 100_000 and depth is None:
            depth = int(part[1:])
            continue
        if part.startswith("o") and not bias:
            try:
                bias = float(part[1:]) if part[1:] else BIAS
            except ValueError:
                bias = -1.0
            if 0 < bias <= 100:
                continue
        raise UsageError(
            f"agent '{kind}' for {seat}: '{part}' is not a rollout depth or move ordering",
            f"dD cuts rollouts after D decisions (0 to 100000), o orders moves by the estimate: "
            f"for example {name}:{arg}:d20 or {name}:{arg}:d20:o",
        )
    return depth, bias


def _lookahead(kind: str, seat: str, parts: list[str]) -> tuple[int, int]:
    """`greedy:dD:nS`'s lookahead (D decisions, 0 to 200) and samples (S, 1 to 100; 2 if not given)."""
    lookahead, samples = 0, 2
    seen: set[str] = set()
    for part in parts:
        key, digits = part[:1], part[1:]
        limit = 200 if key == "d" else 100
        if key in ("d", "n") and key not in seen and digits.isdigit() and int(digits) <= limit:
            seen.add(key)
            if key == "d":
                lookahead = int(digits)
            else:
                samples = max(1, int(digits))
            continue
        raise UsageError(
            f"agent '{kind}' for {seat}: '{part}' is not a lookahead (dD, 0 to 200) "
            "or a number of samples (nS, 1 to 100)",
            "for example greedy:d8:n2: each move's estimate after 8 more greedy decisions, mean of 2 samples",
        )
    return lookahead, samples


def _budget(arg: str) -> tuple[int | None, float | None]:
    """`200` -> (200 iterations, None); `0.5s` -> (None, 0.5 seconds); else (None, None)."""
    if arg.isdigit() and int(arg) >= 1:
        return int(arg), None
    if arg.endswith("s"):
        try:
            seconds = float(arg[:-1])
        except ValueError:
            return None, None
        if 0 < seconds <= 3600:
            return None, seconds
    return None, None


def make_agent(
    kind: str, seat: str, seed: int, game: Game | None = None, human: Callable[[str], Agent] | None = None
) -> Agent:
    """The agent a `--agent SEAT=KIND` names. `mcts:N` searches N iterations per decision,
    `mcts:Ts` as many as fit in T seconds (not reproducible: the machine's speed decides);
    `ismcts` likewise; a part `dD` cuts each rollout after D decisions and scores it
    by the game's `estimate` (docs §3.20), a part `o` (or `oW`, weight W) orders the moves
    by it (progressive bias, interpreter/play/mcts.py). `greedy` takes the move whose
    position the estimate likes best, one ply, no search. Given the game, `mcts` is
    refused here for hidden information (else at its first decision). A last part
    `learned=FILE` gives the agent the estimate `gamedef learn` fitted (play/learned.py)
    instead of the game's own, or where the game declares none."""
    if LEARNED in kind:
        return _learned_agent(kind, seat, seed, game)
    if kind == "random":
        return RandomAgent(seed)
    if kind == "first":
        return FirstAgent()
    if kind == "greedy" or kind.startswith("greedy:"):
        if game is not None:
            refuse_bias(game, 1.0, "the greedy agent", "choose another agent: random, mcts, ismcts")
        lookahead, samples = _lookahead(kind, seat, kind.split(":")[1:])
        return GreedyAgent(seed, lookahead=lookahead, samples=samples)
    if kind == "human":
        if human is None:
            raise UsageError(
                f"agent 'human' for {seat}: a person plays only at the terminal", "use `gamedef play` or `gamedef run`"
            )
        return human(seat)
    name, _, arg = kind.partition(":")
    if name in ("mcts", "ismcts"):
        hint = (
            f"{name}:N searches N iterations (a whole number from 1) per decision, {name}:Ts for T seconds: "
            f"for example {name}:200 or {name}:0.5s"
        )
        arg, *rest = arg.split(":")
        iterations, seconds = _budget(arg)
        if iterations is None and seconds is None:
            raise UsageError(f"agent '{kind}' for {seat}: {name} needs a number of iterations or of seconds", hint)
        depth, bias = _parts(kind, name, arg, seat, rest)
        if game is not None:
            refuse_depth(game, depth)
            refuse_bias(game, bias)
        if name == "ismcts":
            if game is not None:
                refuse_unresampled(game)
            return ISMCTSAgent(iterations or 0, seed, seconds=seconds, depth=depth, bias=bias)
        if game is not None:
            refuse_hidden(game)
        return MCTSAgent(iterations or 0, seed, seconds=seconds, depth=depth, bias=bias)
    raise UsageError(f"unknown agent kind '{kind}'", did_you_mean(kind, KINDS) or f"kinds: {', '.join(KINDS)}")


def _learned_agent(kind: str, seat: str, seed: int, game: Game | None) -> Agent:
    """`KIND:learned=FILE`: the agent of KIND reading the model in FILE (checked against the
    game here when it is known, else at its first decision)."""
    base, _, path = kind.partition(LEARNED)
    if not base.startswith(("greedy", "mcts", "ismcts")) or not path:
        raise ModelFileError(
            f"agent '{kind}' for {seat}: only an agent that reads the estimate takes a learned one",
            "for example greedy:learned=model.json, greedy:d4:learned=model.json or ismcts:200:d10:learned=model.json",
        )
    try:
        from interpreter.play.learned import LearnedAgent, load, with_model
    except ImportError as err:  # numpy: an optional extra
        raise UsageError(f"agent '{kind}' for {seat}: a learned estimate needs {err.name}", LEARN_EXTRA) from None
    model = load(path)
    where = f"agent '{kind}' for {seat}: {path}"
    if game is not None:
        model.check(game, None, where)
        game = with_model(game, model)
    return LearnedAgent(make_agent(base, seat, seed, game), model, where)


def resolve_seat(game: Game, name: str, seats: tuple[str, ...], argument: str) -> str:
    """The seat an argument names: its name or its title, in any case. A seat the game has
    not is refused as the `argument` that named it (`agent`, `seat`), which a front end words."""
    wanted = name.strip().casefold()
    for seat in seats:
        if wanted in (seat.casefold(), game.seat_title(seat).casefold()):
            return seat
    raise ArgumentError(
        argument,
        f"no seat '{name}' in this game",
        given=name,
        hint=did_you_mean(name, seats) or "seats: " + ", ".join(seats),
    )


def split_agent(item: str) -> tuple[str | None, str]:
    """An `--agent` item as (seat, kind): `SEAT=KIND` names a seat, a bare `KIND` none. The
    `=` of a last part `:learned=FILE` is the kind's, so `greedy:learned=FILE` is a bare
    kind and `west=greedy:learned=FILE` names `west`."""
    seat, eq, kind = item.partition("=")
    if not eq or (seat + eq).endswith(LEARNED):
        return None, item
    return seat, kind


def parse_agents(
    items: list[str], game: Game, seats: tuple[str, ...], seed: int, human: Callable[[str], Agent] | None = None
) -> tuple[dict, dict]:
    """The agents `--agent SEAT=KIND` names (random for a seat not named), each seeded from
    `seed`, and the kinds by seat; a chance seat's agent in chance mode."""
    kinds = {seat: "random" for seat in seats}
    for item in items or []:
        seat, kind = split_agent(item)
        if seat is None:
            example = item if LEARNED in item else "first"  # a bare kind with its model: name its seat
            raise ArgumentError("agent", f"needs SEAT=KIND, got '{item}'", example=f"{seats[0]}={example}")
        kinds[resolve_seat(game, seat, seats, "agent")] = kind
    agents = {
        seat: make_agent(kind, seat, seed * 1000 + i, game, human) for i, (seat, kind) in enumerate(kinds.items())
    }
    if isinstance(game, ChanceGame):  # chance mode: the random results are drawn by the chance seat
        agents[CHANCE] = ChanceAgent(seed * 1000 + len(kinds))
    return agents, kinds


def needs_chance(game: Game, items: Sequence[str] | None) -> bool:
    """Whether an agent of `items` (`SEAT=KIND` or `KIND`) that redraws what its seat cannot
    see (`RESAMPLING`: ismcts, greedy) needs this game in chance mode: it redraws hidden
    numbers (Downfall of Empires' secret research) by replaying the record of the moves,
    which only chance mode keeps (interpreter/runtime/resample.py)."""
    from interpreter.runtime.resample import unresampled

    return bool(resampling_kinds(items)) and bool(unresampled(game))


def resampling_kinds(items: Sequence[str] | None) -> list[str]:
    """The agent kinds of `items` (`SEAT=KIND` or `KIND`) that redraw what their seat cannot
    see (`RESAMPLING`), each once in the order given: what a note about chance mode names."""
    kinds = (item.partition(LEARNED)[0].rpartition("=")[2].strip() for item in items or [])  # no `:learned=FILE`
    return list(dict.fromkeys(kind for kind in kinds if kind.startswith(RESAMPLING)))
