"""The engine: the pure functions over an immutable game state.

`apply(state, move)` thaws a `State` (runtime/machine.py) into a working `VM`, binds the
answer, runs compiled steps until the next decision or the end, and freezes it again.
Labels and moves are written only when asked for, and kept for the states that ask again.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from interpreter.compile.compiled import CompiledGame
from interpreter.compile.steps import Choice
from interpreter.core import rng
from interpreter.core.errors import PlayerCountError, UsageError, did_you_mean, explain
from interpreter.core.limits import MAX_NARRATION, LimitExceeded, too_long
from interpreter.core.trace import TRACER
from interpreter.runtime.machine import VM, Move, Pending, State
from interpreter.runtime.observe import hidden_components, hidden_test, shown_keys

_new_tuple = tuple.__new__
_NOTHING_KEPT = (None, None)

# Label lists (and their moves) kept for the options' values: a game with hands of cards
# offers many different ones, and a search asks them again and again.
KEPT_LABELS = 16384


def _label_key(state: State, choice: Choice) -> Any:
    """What the pending decision's labels depend on, or None if they read the position:
    its options, if each is shown as its value; else the decision, its options and the
    locals its labels read (`Choice.key_slots`, statements.py)."""
    # Asked only with a decision pending (its callers return first without one); per move: no check.
    p: Pending = state.pending  # type: ignore[assignment]
    if choice.labels is None:
        return p.values
    slots = choice.key_slots
    if slots is None:
        return None
    if not slots:
        return (p.choice, p.values)
    frame = state.frames[-1][2]
    return (p.choice, p.values, tuple([frame[i] for i in slots]))


def _unique(labels: list[str]) -> list[str]:
    """Labels made unique in place: a repeated one gets " (2)", " (3)"..."""
    if len(set(labels)) != len(labels):
        taken: set[str] = set()
        for i, text in enumerate(labels):
            k, unique = 1, text
            while unique in taken:
                k += 1
                unique = f"{text} ({k})"
            labels[i] = unique
            taken.add(unique)
    return labels


class Engine:
    """The rules of a loaded game run on states: start, legal_moves, apply, playout, narrate.

    `Game` (runtime/game.py) is this with the game-theory tools on top (returns, resampling,
    information states, observations): those modules build on the engine, so the engine
    never imports them."""

    def __init__(self, compiled: CompiledGame, name: str, variants: tuple[str, ...], options: dict[str, Any]):
        self.compiled = compiled
        self.name = name
        self.variants = variants
        self.options = dict(options)
        self.header = compiled.header
        # Per player count: the seats, and the variables' starting values before setup
        # (expressions, which roll no dice); `start` runs once per game of a playout.
        self._seats: dict[int, tuple[str, ...]] = {}
        self._initial: dict[tuple[str, ...], tuple] = {}
        # Per main procedure: it and setup() (a property of the compiled game each, read once).
        self._mains: dict[str, tuple] = {}
        self._actions: Any = None  # the action space (runtime/game.py), made when first asked for
        self._labelled: tuple = (None, [])  # the last state whose labels were written, and them
        self._value_labels: dict[tuple, list[str]] = {}  # options shown as their values -> labels
        self._moves: dict[tuple, list] = {}  # (player, labels, values) -> its moves
        self._moves_by_key: dict[tuple, list] = {}  # (player, `_label_key`) -> its moves
        # The state last made and its working copy (`_working`): two fields, not a pair, as
        # `apply_index` sets them at every decision.
        self._last_state: State | None = None
        self._last_vm: VM | None = None
        self._offered: tuple = _NOTHING_KEPT  # the state `legal_moves` last answered, and its moves
        # The step tables that carry out a card's text (its slots, and the triggers a card
        # declares): their first local is the card (`self`).
        self._card_codes = frozenset(code.index for code in compiled.slots.values()) | frozenset(
            h.code.index for handlers in compiled.handlers.values() for h in handlers if h.has_self
        )
        # The components with a text of their own (a slot): what a procedure is "about" when
        # one is its argument (`procedure play_ops(p: player, c: Card)`).
        self._cards = frozenset(card for card, _slot in compiled.slots)

    @property
    def rules_hash(self) -> str:
        return self.compiled.program.rules_hash

    def seats_for(self, players: int) -> tuple[str, ...]:
        h = self.header
        if not h.min_players <= players <= h.max_players:
            raise PlayerCountError(h.title, players, h.min_players, h.max_players)
        for count, names, option, value in h.option_roles:  # `N players when OPTION == VALUE`
            if count == players and self.compiled.options.get(option) == value:
                return names
        for count, names in h.roles:
            if count == players:
                return names
        if players > len(self.compiled.seats):
            raise UsageError(
                f"only {len(self.compiled.seats)} seats are declared",
                "add names to `seats [...]` in the game header",
            )
        return self.compiled.seats[:players]

    def start(
        self,
        players: int | None = None,
        seed: int = 0,
        pins: tuple = (),
        arrange: Callable[[State], State] | None = None,
        main: str = "play",
    ) -> State:
        """The position after setup, waiting for the first decision.

        `arrange`, for scenarios, changes the position between `setup()` and `play()`
        (usually through `with_var`), so the first decision is asked of the arranged
        position; setup() must then ask no decision. `main` names the procedure played
        after setup instead of `play()` (a designer's test's `run` block)."""
        players = (self.header.default_players or self.header.min_players) if players is None else players
        vm = self._started(players, seed, pins, arrange, VM, main)
        state = vm.freeze(0)
        self._last_state, self._last_vm = state, vm  # kept for the next move from it (`_working`)
        return state

    def _working(self, state: State) -> VM:
        """A working copy of `state`: the one kept with it if it is the state last made
        by `start`, `apply_index` or `playout` (taken once: a state played on twice is
        thawed the second time), else a new one. A game played on move by move, the
        usual case, then never thaws a state it has just frozen.
        A kept copy is what thawing the state would give: the same variables, the
        same frames (some already thawed), the random state, no log and nothing pending."""
        if self._last_state is state:
            self._last_state = None
            # Set with `_last_state`, which is this state: a VM (per move: no check).
            vm: VM = self._last_vm  # type: ignore[assignment]
            vm.pending = None
            vm.stop = vm.switch = False
            vm.log = []
            vm.left = 0  # (a playout's answers end with it)
            vm.tracer = None
            return vm
        return VM(self.compiled, state)

    def _started(self, players: int, seed: int, pins: tuple, arrange, make_vm, main: str = "play") -> VM:
        """A working VM run from the start to the first decision (the start of `start`)."""
        seats = self._seats.get(players) or self._seats.setdefault(players, self.seats_for(players))
        g = self.compiled
        initial = self._initial.get(seats)
        vm = make_vm(
            g, _new_tuple(State, (seats, initial or (), (), None, rng.seed_state(seed), tuple(pins), None, (), 0, None))
        )
        if initial is None:
            vm.vars = [None] * len(g.var_order)
            for info in g.var_order:
                vm.vars[info.slot] = info.default(vm, [])
            self._initial[seats] = tuple(vm.vars)  # defaults are expressions: no dice, same every game
        mains = self._mains.get(main)
        if mains is None:
            mains = self._mains[main] = (g.procs[main], g.procs.get("setup"))
        play, setup = mains
        if arrange is not None:  # run setup() alone, arrange its position, then play() from it
            if setup is not None:
                vm.frames.append([setup, 0, [None] * setup.nlocals])
                vm.setup_only = True
                vm.run()
                if vm.pending is not None or vm.result is not None:
                    raise UsageError("arrange: setup() asks for a decision; there is no position between it and play()")
            vm, setup = make_vm(g, arrange(vm.freeze(0))), None
        vm.frames.append([play, 0, [None] * play.nlocals])
        if setup is not None:
            vm.frames.append([setup, 0, [None] * setup.nlocals])
        vm.switch = False
        vm.run()
        return vm

    def seat_title(self, seat: str) -> str:
        """A seat as written for players: its title (`seats [us "US"]`), else its name."""
        return self.compiled.rt.seat_titles.get(seat, seat)

    def is_over(self, state: State) -> bool:
        return state.result is not None

    def result(self, state: State) -> tuple[str, ...] | None:
        """The winners (possibly several, possibly none) once the game is over."""
        return state.result

    def current_player(self, state: State) -> str | None:
        return state.pending.player if state.pending else None

    def labels(self, state: State) -> list[str]:
        """The labels of the pending decision's options, unique, in option order.

        The last state's labels are kept: `legal_moves(state)` then `apply(state, move)`,
        the public API's loop, writes them once (states are immutable: the same object
        always has the same labels)."""
        return list(self._shared_labels(state))

    def _shared_labels(self, state: State) -> list[str]:
        """The labels, kept for the next call with the same state (not to be changed)."""
        cached = self._labelled
        if cached[0] is state:
            return cached[1]
        labels = self._write_labels(state)
        self._labelled = (state, labels)
        return labels

    def _write_labels(self, state: State) -> list[str]:
        p = state.pending
        if p is None:
            return []
        choice = self.compiled.choices[p.choice]
        labels_fn = choice.labels
        key = _label_key(state, choice)
        if key is None:
            return _unique(self._run_labels(labels_fn, state))
        labels = self._value_labels.get(key)
        if labels is None:
            labels = _unique(self._run_labels(labels_fn, state))
            if len(self._value_labels) >= KEPT_LABELS:
                self._value_labels.clear()
            self._value_labels[key] = labels
        return labels

    def _run_labels(self, labels_fn, state: State) -> list[str]:
        """The pending decision's labels as written (each option's value displayed, when
        the game gives no `label`); one past its limit is an error at the `choose`."""
        # Asked only with a decision pending (`_write_labels` returns first without one); no check.
        p: Pending = state.pending  # type: ignore[assignment]
        vm = VM(self.compiled, state, True)
        try:
            if labels_fn is None:
                return list(map(self.compiled.rt.display, p.values))
            return labels_fn(vm, list(state.frames[-1][2]), p.values)
        except LimitExceeded as exc:
            raise vm.rule_error(explain(exc), self.compiled.choice_spans[p.choice]) from None

    def prompt(self, state: State) -> str:
        """What the pending decision asks, in the game's words."""
        p = state.pending
        if p is None:
            return ""
        vm = VM(self.compiled, state, True)
        return self.compiled.choices[p.choice].prompt(vm, list(state.frames[-1][2]))

    def card_in_play(self, state: State) -> str | None:
        """The title of the card whose text is being carried out where the pending decision
        arose (the innermost one, when one card's text plays another's), or else of a card
        given to the procedure that asks it (a card played for its operations), whether that
        procedure runs in a frame of its own or was written in place by the compiler, if
        any, and if the seat deciding may see it: a card hidden from it (in another's hand,
        face down) is not named to it."""
        if state.pending is None:
            return None
        codes = self.compiled.codes
        for code, step, local in reversed(state.frames):
            # The step that stopped this frame's run (the decision, or the call that pushed
            # the frame above) is the one before its next step: the procedures written in
            # place that were running there, innermost first (`Code.inlined`). Only those:
            # an inlined procedure's slots keep its arguments after it has returned.
            inlined = codes[code].inlined
            slots = inlined[step - 1] if 0 < step <= len(inlined) else ()
            card = next((v for v in map(local.__getitem__, slots) if isinstance(v, str) and v in self._cards), None)
            if card is None and code in self._card_codes and local:
                card = local[0]
            elif card is None:  # a procedure given a card: one played for its operations, say
                given = local[: codes[code].nparams]
                card = next((v for v in given if isinstance(v, str) and v in self._cards), None)
                if card is None:
                    continue
            if card in hidden_components(self.compiled, state, state.pending.player):
                return None
            return self.compiled.rt.display(card)
        return None

    def question(self, state: State) -> str:
        """The pending decision's prompt as a player reads it: named after the card whose
        text asks it ("Truman Doctrine: choose a country") unless the prompt names it
        already, so a choice made in the middle of a card says which card it is about."""
        prompt = self.prompt(state)
        card = self.card_in_play(state)
        if not card or card.casefold() in prompt.casefold():
            return prompt
        # A prompt headed by the card's name spelled a little differently ("Maastricht
        # Treaty: ..." for the card printed "Maastrich Treaty") names it already.
        head = prompt.split(":", 1)[0].casefold() if ":" in prompt else ""
        if head and difflib.SequenceMatcher(None, head, card.casefold()).ratio() >= 0.8:
            return prompt
        return f"{card}: {prompt}" if prompt else card

    def move_view(self, state: State, label: str, viewer: str | None) -> str:
        """How a move made in `state` reads to `viewer`: a secret choice hides its label."""
        p = state.pending
        if p is not None and self.compiled.choices[p.choice].secret and viewer != p.player:
            return "(secret choice)"
        return label

    def legal_moves(self, state: State) -> list[Move]:
        p = state.pending
        if p is None:
            return []
        player = p.player
        # Labels that are the same for the same options (and locals) give the same moves:
        # found by those, with no label written.
        key = _label_key(state, self.compiled.choices[p.choice])
        moves = None if key is None else self._moves_by_key.get((player, key))
        if moves is None:
            # The same labels of the same values for the same player are the same moves: made once, kept.
            labelled = (player, tuple(self._shared_labels(state)), p.values)
            moves = self._moves.get(labelled)
            if moves is None:
                if len(self._moves) >= KEPT_LABELS:
                    self._moves.clear()
                moves = self._moves[labelled] = [
                    _new_tuple(Move, (player, x, v)) for x, v in zip(labelled[1], p.values, strict=True)
                ]
            if key is not None:
                if len(self._moves_by_key) >= KEPT_LABELS:
                    self._moves_by_key.clear()
                self._moves_by_key[(player, key)] = moves
        self._offered = (state, moves)  # `apply(state, move)` next, usually: found by identity
        return list(moves)

    def narrate(
        self, state: State, player: str | None = None, omniscient: bool | None = None, headlines: bool = False
    ) -> list[str]:
        """The log lines written by the last move that `player` may read.

        With no player, the omniscient narration of `gamedef run` (every line, every
        component named). A player's narration names no component they may not see.
        With `headlines`, only the lines the game marks as key events (`log headline`)."""
        render = self.compiled.render_log
        if omniscient is None:
            omniscient = player is None
        hidden = None if omniscient else hidden_test(self.compiled, state, player)
        formats = self.compiled.formats
        lines = []
        size = 0
        entry = None
        try:
            for entry in state.log:
                if (entry[0] is None or omniscient or entry[0] == player) and (
                    not headlines or formats[entry[1]].headline
                ):
                    line = render(entry, hidden)
                    size += len(line)
                    if size > MAX_NARRATION:
                        raise too_long("the narration of one move", size, MAX_NARRATION, "log a summary, not each item")
                    lines.append(line)
        except LimitExceeded as exc:  # a line or the whole past its limit: at the `log` that passed it
            span = formats[entry[1]].span if entry is not None else None
            raise VM(self.compiled, state, True).rule_error(explain(exc), span) from None
        return lines

    def apply(self, state: State, move: Move | str) -> State:
        """The state after `move`; raises `IllegalMove` (a value with the reason) if not legal."""
        p = state.pending
        if p is None:
            raise IllegalMove(str(move), "the game is over")
        offered = self._offered
        if offered[0] is state and move.__class__ is Move and move in offered[1]:
            # one of the moves `legal_moves(state)` just gave: the same objects, compared first
            return self.apply_index(state, offered[1].index(move))
        label = move.label if isinstance(move, Move) else move
        if isinstance(move, Move) and move.player != p.player:
            raise IllegalMove(str(move), f"it is {p.player}'s decision, not {move.player}'s")
        labels = self._shared_labels(state)  # written once by legal_moves(state) just before, usually
        try:
            i = labels.index(label)
        except ValueError:
            raise IllegalMove(
                str(move), did_you_mean(label, labels) or "legal now: " + "; ".join(labels[:12])
            ) from None
        return self.apply_index(state, i)

    def apply_index(self, state: State, i: int) -> State:
        """Apply the i-th legal move (the fast path for agents)."""
        # Asked only of a state waiting for a decision; `_last_vm` is set with `_last_state`.
        # (Per move: no checks, so two ignores.)
        p: Pending = state.pending  # type: ignore[assignment]
        if self._last_state is state:  # `_working`'s common case written out: this runs at every decision
            self._last_state = None
            vm: VM = self._last_vm  # type: ignore[assignment]
            vm.pending = None
            vm.stop = vm.switch = False
            vm.log = []
            vm.left = 0
        else:
            vm = VM(self.compiled, state)
        vm.tracer = TRACER.get()  # a tool's trace of this move (core/trace.py); None in play
        fr = vm.frames[-1]
        if fr.__class__ is tuple:
            fr = vm.thaw_top()
        fr[2][p.slot] = p.values[i]
        vm.run()
        state = vm.freeze(state.decisions + 1)
        self._last_state, self._last_vm = state, vm
        return state

    def playout(self, state: State, pick: Callable[[int], int], limit: int | None = None) -> State:
        """Play on from `state` to the end, or for at most `limit` decisions: each decision
        takes option `pick(n)` of its n. The end state, exactly what `apply_index` move by
        move would give.

        A search's rollouts and random playouts need no position between their decisions,
        so one working copy plays them all, each decision answered where the rules ask it
        (`VM.suspend`), in one run: nothing is frozen, copied or thawed between decisions,
        as a hand-written game mutates its one state. `pick` is usually a generator's
        `randrange`."""
        p = state.pending
        if p is None or limit is not None and limit <= 0:
            return state
        vm = self._working(state)
        vm.thaw_top()[2][p.slot] = p.values[pick(len(p.values))]
        # The decisions after this one are answered in place (`VM.suspend`): one run
        # plays to the end, or stops at the decision past the limit.
        vm.pick = pick
        vm.left = -1 if limit is None else limit - 1
        vm.run()
        taken = 1 + (limit - 1 - vm.left if limit is not None else -1 - vm.left)
        state = vm.freeze(state.decisions + taken)
        self._last_state, self._last_vm = state, vm
        return state

    def var(self, state: State, name: str) -> Any:
        """A variable's value; a map variable as a dict (of dicts), for tests and tools."""
        info = self._var_info(name)
        raw = state.vars[info.slot]
        if info.keys is None:
            return raw
        keys = shown_keys(self.compiled, state, info)

        def as_dict(levels, value):
            if not levels:
                return value
            ks, index = levels[0]
            return {k: as_dict(levels[1:], value[index[k]]) for k in ks}

        return {k: as_dict(info.levels[1:], raw[info.key_index[k]]) for k in keys}

    def with_var(self, state: State, name: str, value: Any) -> State:
        """The same position with one variable changed: how a scenario sets up a position.

        A map variable takes a dict of the entries to change (a dict of dicts for a map
        of maps); lists may be given as lists.
        """
        info = self._var_info(name)

        def freeze(v):
            return tuple(freeze(x) for x in v) if isinstance(v, list | tuple) else v

        def update(levels, old, new):
            if not levels:
                return freeze(new)
            ks, index = levels[0]
            entries = list(old)
            for k, v in new.items():
                if k not in index:
                    raise UsageError(f"'{name}' has no key '{k}'")
                entries[index[k]] = update(levels[1:], entries[index[k]], v)
            return tuple(entries)

        values = list(state.vars)
        values[info.slot] = update(info.levels, values[info.slot], value)
        return state._replace(vars=tuple(values))

    def _var_info(self, name: str):
        if name not in self.compiled.vars:
            raise UsageError(f"no variable '{name}' in {self.header.title}", did_you_mean(name, self.compiled.vars))
        return self.compiled.vars[name]


class IllegalMove(Exception):
    """A move that is not legal in this state, and why."""

    def __init__(self, move: str, reason: str):
        self.move, self.reason = move, reason
        self.game: Any = None  # set by a replay: the game it was replayed in (has a rule changed?)
        super().__init__(f"illegal move '{move}': {reason}")
