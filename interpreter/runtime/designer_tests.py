"""Designers' tests written in the game's own language: `test` blocks, run by `gamedef test`.

A test block states a start (players, seed, variants, options, a saved state, pinned
dice, or a `run { ... }` block played instead of `play()`), then steps in order: `play`
a move by its label (or a unique part of it), `arrange` the position (assignments; a
first `arrange` runs between `setup()` and `play()` when setup asks no decision), and
`expect` something of the position reached (a condition in the game's expression
language, a label offered, a line logged, the winner).

The test's code is the game's code: each `arrange`/`run` block becomes a procedure and
each `expect` condition a function of the program, checked and compiled with the game's
own declarations (language/testcode.py; the checker checks it with the game, so a
misspelt name is a `gamedef check` error at its line), under `__test_` names. A test form
(`offered("TEXT")`, `logged("TEXT")`, `ended()`, `winner()`) may stand anywhere in an
`expect` condition: its value is found here and passed to the condition's function. The
game run normally never sees them: the program sets test blocks aside
(`Program.tests`) and its rules hash leaves their text out. Tests sharing variants and
options are compiled together, once, and kept in the compiled-game cache like any game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from interpreter.check.checker import check_game
from interpreter.compile import gamecache
from interpreter.compile.compiler import compile_game
from interpreter.compile.queries import GRANTS
from interpreter.core.builtins import Text
from interpreter.core.errors import (
    Diagnostic,
    GameDefError,
    GameRuntimeError,
    OptionError,
    Span,
    UsageError,
    did_you_mean,
    explain,
)
from interpreter.core.paths import BUNDLED, BUNDLED_CARDS
from interpreter.language import syntax as ast
from interpreter.language.program import Program, load_program
from interpreter.language.sources import confined
from interpreter.language.testcode import COMPARISONS, test_decls, test_names
from interpreter.runtime.engine import IllegalMove
from interpreter.runtime.game import Game
from interpreter.runtime.machine import VM, State

SHOWN_LABELS = 12  # labels listed in a failure's message
UNTIL_MOVES = 5_000  # moves an `until` step plays before it gives up: a condition that never holds


@attrs.frozen
class Failure:
    """One failed step: where it is written, and what was expected and what came."""

    span: Span
    test: str
    message: str
    citations: tuple[str, ...] = ()

    def render(self) -> str:
        cited = "".join(f"\n    rule: {c}" for c in self.citations)
        return f"{self.span}: test {self.test}: {self.message}{cited}"


@attrs.frozen
class Outcome:
    """A test's result: its failures (none when it passed)."""

    test: ast.Test
    failures: tuple[Failure, ...]

    @property
    def passed(self) -> bool:
        return not self.failures


class _Stop(Exception):
    """A step that cannot be asked (its failure already written): the test stops there."""


def _error(span: Span, message: str, hint: str | None = None) -> GameDefError:
    return GameDefError([Diagnostic(span, message, hint)])


def _literal(e: ast.Expr) -> Any:
    """An option's value as written in a test (a number, true/false, none, a name, a string)."""
    if isinstance(e, ast.Int):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.Int):
        return -e.operand.value
    if isinstance(e, ast.Bool):
        return e.value
    if isinstance(e, ast.NoneLit):
        return None
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Str):
        return "".join(p for p in e.parts if isinstance(p, str))
    raise _error(e.span, "an option's value is a number, true, false, none, a name or a string")


def _check_settings(test: ast.Test, program: Program) -> None:
    """A test's variants and players, checked where the test writes them (not as if typed
    on a command line)."""
    where = dict(test.settings)
    for v in test.variants:
        if v not in program.all_variants:
            hint = did_you_mean(v, program.all_variants) or (
                "the game's variants: " + ", ".join(program.all_variants) if program.all_variants else "none"
            )
            raise _error(where.get(f"variant:{v}", test.span), f"test {test.name}: unknown variant '{v}'", hint)
    h = program.header
    if test.players is not None and not h.min_players <= test.players <= h.max_players:
        raise _error(
            where.get("players", test.span),
            f"test {test.name}: {h.title} is for {h.min_players} to {h.max_players} players, not {test.players}",
            f"write `players N`, N from {h.min_players} to {h.max_players}",
        )
    if test.state is not None and test.run is not None:
        raise _error(
            test.span,
            f"test {test.name}: a test starting from a saved state has no `run` block",
            "start from the game's setup, or save the state where `run` would begin",
        )


def _compile(
    path: Path, variants: tuple[str, ...], options: dict[str, Any], tests: list, first: ast.Test, cached: bool = False
) -> Game | None:
    """The game with the generated code of `tests` (pairs of index and test), compiled once;
    with `cached`, only as the cache keeps it (None when it does not)."""
    roots = (path.parent, BUNDLED, BUNDLED_CARDS)
    key = ("(tests)", *variants)
    compiled = gamecache.load(path, key, options, roots)
    if compiled is None and cached:
        return None
    if compiled is None:
        program = load_program(path, variants)
        # the game and its tests' code (testcode.py), each mistake once
        symbols = check_game(program, warn_unread=False)[0]
        extra = [d for i, t in tests for d in test_decls(i, t)]
        program = attrs.evolve(program, decls=(*program.decls, *extra))
        # As written (no inlining): a tenth of the optimised build's compile time and the
        # same game (tests/compile/test_optimisations.py); its rules digest names the build,
        # so no optimised load finds it. A saved state holds the optimised build's
        # procedure frames, so tests starting from one play that build.
        optimise = any(t.state is not None for _, t in tests)
        rules = gamecache.rules_digest(program, options, optimise)
        # the same game and tests compiled before (an edit to another variant, gamecache.py)
        compiled = gamecache.load_same(program, rules) if rules is not None else None
        if compiled is None:
            try:
                compiled = compile_game(program, options, optimise=optimise, symbols=symbols)
            except OptionError as err:  # an option's name or value: at the test that sets it, in its words
                written = (err.example or "").replace("=", " = ", 1)
                hint = err.advised(f"add `variant {err.variant}` to the test", f"`option {written}`")
                where = dict(first.settings).get(f"option:{err.name}", first.span)
                raise _error(where, f"test {first.name}: {err.message}", hint) from None
            gamecache.store(path, key, options, compiled, rules)
    return Game(compiled, compiled.program.header.name, variants, options)


def _run_procedure(game: Game, state: State, name: str) -> State:
    """`state` after the procedure `name` has run to its end; it may ask no decision."""
    g = game.compiled
    code = g.procs[name]
    vm = VM(g, state)
    vm.frames = [[code, 0, [None] * code.nlocals]]
    vm.setup_only = True  # its end stops the run (as `arrange` between setup() and play())
    vm.run()
    if vm.pending is not None or vm.result is not None:
        raise GameRuntimeError(
            [Diagnostic(code.spans[0], "an `arrange` block asks for a decision or ends the game; use `run` for that")]
        )
    return vm.freeze(state.decisions)


def _arrange_at(game: Game, state: State, name: str) -> State:
    """`state` changed by the `arrange` procedure `name`, at the decision it waits for:
    the procedures in progress and the decision (with its options, as they were) stay."""
    after = _run_procedure(game, state._replace(frames=(), pending=None, log=()), name)
    return state._replace(vars=after.vars, rng=after.rng, log=after.log)


def _start(game: Game, index: int, test: ast.Test, folder: Path) -> tuple[State, int]:
    """The test's first position, and how many steps it has taken: a saved state, or the
    game's setup, with a first `arrange` between setup() and play() when setup asks no
    decision (as `Game.start(arrange=...)`)."""
    if test.state is not None:
        from interpreter.runtime.saving import read_toml, state_from_dict

        path = confined(folder, test.state, (folder.resolve(),))
        if path is None:
            raise _error(test.span, f"test {test.name}: the state file {test.state!r} is outside the test's folder")
        data = read_toml(path, "state")
        if data.get("rules_hash") in _included_hashes(Path(test.span.path), test.variants):
            data = {**data, "rules_hash": game.rules_hash}  # the game's own rules, less the tests
        state = state_from_dict(game, data, str(path))
        return (state._replace(pins=tuple(test.dice)) if test.dice else state), 0
    main = test_names(index)["run"] if test.run is not None else "play"
    players, seed, pins = test.players, test.seed, tuple(test.dice)
    if test.steps and test.steps[0].kind == "arrange":
        name = f"{test_names(index)['arrange']}0"
        try:
            arrange = lambda s: _run_procedure(game, s, name)
            return game.start(players=players, seed=seed, pins=pins, arrange=arrange, main=main), 1
        except UsageError as err:
            if not err.message.startswith("arrange: setup() asks"):
                raise
    return game.start(players=players, seed=seed, pins=pins, main=main), 0


def _included_hashes(test_file: Path, variants: tuple[str, ...]) -> set[str]:
    """The rules hashes of the games a test file includes: a state saved by the game
    (`--save-state`) matches its rules, which the test file's own helpers and tests
    leave alone."""
    from interpreter.language.parser import parse_file

    roots = (test_file.parent, BUNDLED, BUNDLED_CARDS)
    found = set()
    for d in parse_file(test_file).decls:
        if isinstance(d, ast.Include):
            target = confined(test_file.parent, d.path, roots)
            if target is not None and target.exists():
                try:
                    found.add(load_program(target, variants).rules_hash)
                except GameDefError:  # a variant of the test file's own: not this game's state
                    continue
    return found


def _match(labels: list[str], wanted: str) -> tuple[str | None, str]:
    """The label `wanted` names: itself, or the one label containing it (any case)."""
    if wanted in labels:
        return wanted, ""
    low = wanted.lower()
    found = [x for x in labels if low in x.lower()]
    if len(found) == 1:
        return found[0], ""
    if found:
        return None, f"'{wanted}' is part of {len(found)} labels: " + "; ".join(found[:SHOWN_LABELS])
    return None, f"no label contains '{wanted}'; offered: " + _shown(labels)


def _shown(labels: list[str]) -> str:
    more = f"; ... ({len(labels)} in all)" if len(labels) > SHOWN_LABELS else ""
    return ("; ".join(labels[:SHOWN_LABELS]) + more) if labels else "nothing (the game is over)"


def _source(sources: dict[str, str], span: Span) -> str | None:
    """The text of an expression as written, when it sits on one line."""
    text = sources.get(span.path)
    if text is None or span.end_column is None:
        return None
    lines = text.splitlines()
    if not 0 < span.line <= len(lines):
        return None
    return lines[span.line - 1][span.column - 1 : span.end_column - 1] or None


class _Run:
    """One test played step by step, collecting its failures."""

    def __init__(self, game: Game, index: int, test: ast.Test, folder: Path):
        self.game, self.index, self.test, self.folder = game, index, test, folder
        self.failures: list[Failure] = []
        self.lines: list[str] = []
        # the lines told to each seat a `logged("TEXT", SEAT)` reads, as that seat reads them
        seats = {step.seat for step in test.steps} | {f[3] for step in test.steps for f in step.forms}
        self.told: dict[str, list[str]] = {seat: [] for seat in sorted(seats - {""})}

    def narrated(self, state: State) -> None:
        """Keep the lines the last move logged: every line, and each watched seat's own."""
        self.lines.extend(self.game.narrate(state))
        for seat, lines in self.told.items():
            if seat in state.players:
                lines.extend(self.game.narrate(state, seat))

    def read_by(self, state: State, seat: str, span: Span) -> list[str] | None:
        """The lines told to `seat` so far; None (and a failure) if no such seat plays."""
        if seat in state.players:
            return self.told[seat]
        self.fail(span, f"no seat '{seat}' plays this game; its seats: {', '.join(state.players)}")
        return None

    def fail(self, span: Span, message: str) -> None:
        self.failures.append(Failure(span, self.test.name, message, self.test.citations))

    def forms(self, state: State, step: ast.TestStep) -> list[Any]:
        """The values of the test forms an `expect` condition uses, in the position reached:
        whether a label offered contains the text, the labels offered, whether a line
        logged so far does, whether the game is over, its winners (none while it goes on)
        and the seat deciding next."""
        values: list[Any] = []
        for _, kind, text, seat in step.forms:
            low = text.lower()
            if kind == "offered":
                values.append(any(low in x.lower() for x in self.game.labels(state)))
            elif kind == "logged":
                lines = self.lines if not seat else self.read_by(state, seat, step.span)
                if lines is None:
                    raise _Stop
                values.append(any(low in x.lower() for x in lines))
            elif kind == "modifiers":  # (a game that states none has no such variable)
                values.append(len(self.game.var(state, GRANTS)) if GRANTS in self.game.compiled.vars else 0)
            elif kind == "over":
                values.append(self.game.is_over(state))
            elif kind == "labels":
                values.append(tuple(Text(x) for x in self.game.labels(state)))  # texts, not names
            elif kind == "decider":
                values.append(None if self.game.is_over(state) else self.game.current_player(state))
            else:  # winner
                values.append(tuple(self.game.result(state) or ()))
        return values

    def value(self, state: State, name: str, args: list[Any] | None = None) -> Any:
        """The value of a generated function in `state` (`args`: its test forms' values);
        a rule error names its line."""
        fn = self.game.compiled.defs[name][0]
        try:
            return fn(VM(self.game.compiled, state, True), list(args or ()))
        except GameRuntimeError:
            raise
        except Exception as exc:  # an index past a list's end, a none read as a component...
            raise GameRuntimeError([Diagnostic(self.game.compiled.def_decls[name].span, explain(exc))]) from None

    def shown(self, value: Any) -> str:
        if isinstance(value, tuple):
            return "[" + ", ".join(self.shown(v) for v in value) + "]"
        if value.__class__ is str:  # a component, member or seat: its name, as a test writes it
            return value
        if isinstance(value, str):  # a text
            return repr(str(value))
        if value is True or value is False:
            return "true" if value else "false"
        return self.game.compiled.rt.display(value)

    def go(self) -> Outcome:
        game, test = self.game, self.test
        state: State | None  # None once a step could not be played
        try:
            state, done = _start(game, self.index, test, self.folder)
        except GameRuntimeError as err:
            self.fail(test.span, "the start stopped with an error: " + err.render().splitlines()[0])
            return Outcome(test, tuple(self.failures))
        except UsageError as err:
            raise _error(test.span, f"test {test.name}: {err.message}", err.hint) from None
        self.narrated(state)
        for k, step in enumerate(test.steps):
            if k < done:
                continue
            try:
                state = self.step(state, k, step)
            except GameRuntimeError as err:
                if step.kind == "holds":  # at the condition's own line: the message alone
                    self.fail(step.span, "the condition cannot be computed: " + err.diagnostics[0].message)
                else:  # where in the game's rules it stopped
                    self.fail(step.span, "the game stopped with an error: " + err.render().splitlines()[0])
                state = None
            except _Stop:  # the failure is written
                state = None
            if state is None:  # a move could not be played: the steps after it mean nothing
                break
        return Outcome(test, tuple(self.failures))

    def step(self, state: State, k: int, step: ast.TestStep) -> State | None:
        game = self.game
        kind = step.kind
        if kind == "play":
            labels = game.labels(state)
            label, why = _match(labels, step.text)
            if label is None:
                self.fail(step.span, f"cannot play '{step.text}': {why}")
                return None
            try:
                state = game.apply(state, label)
            except IllegalMove as err:  # not expected: the label was offered
                self.fail(step.span, str(err))
                return None
            self.narrated(state)
        elif kind == "arrange":
            state = _arrange_at(game, state, f"{test_names(self.index)['arrange']}{k}")
            self.narrated(state)
        elif kind == "holds":
            self.holds(state, k, step)
        elif kind == "until":
            return self.until(state, k, step)
        elif kind in ("offered", "not_offered"):
            labels = game.labels(state)
            found = [x for x in labels if step.text.lower() in x.lower()]
            if kind == "offered" and not found:
                self.fail(step.span, f"expected a label containing '{step.text}'; offered: {_shown(labels)}")
            elif kind == "not_offered" and found:
                self.fail(step.span, f"expected no label containing '{step.text}'; offered: {'; '.join(found)}")
        elif kind in ("logged", "not_logged"):
            lines = self.lines if not step.seat else self.read_by(state, step.seat, step.span)
            if lines is None:
                return None
            found = [x for x in lines if step.text.lower() in x.lower()]
            told = f" told to {step.seat}" if step.seat else ""
            if kind == "logged" and not found:
                recent = "; ".join(lines[-6:]) or "nothing"
                self.fail(step.span, f"expected a logged line{told} containing '{step.text}'; the last lines: {recent}")
            elif kind == "not_logged" and found:
                self.fail(step.span, f"expected no logged line{told} containing '{step.text}'; logged: {found[0]}")
        elif kind == "winner":
            result = game.result(state)
            if result is None:
                self.fail(step.span, f"expected winner() == [{', '.join(step.names)}]; the game is not over")
            elif sorted(result) != sorted(step.names):
                self.fail(step.span, f"expected winner() == [{', '.join(step.names)}]; came [{', '.join(result)}]")
        elif kind == "over" and not game.is_over(state):
            self.fail(step.span, f"expected the game to be over; {game.current_player(state)} decides next")
        elif kind == "not_over" and game.is_over(state):
            winners = game.result(state)
            assert winners is not None  # over: is_over read it
            self.fail(step.span, f"expected the game to go on; it is over, won by [{', '.join(winners)}]")
        return state

    def until(self, state: State, k: int, step: ast.TestStep) -> State | None:
        """`until CONDITION`: the first label offered is played, decision after decision,
        until the condition holds (at once, if it holds already). Why: a test that needs
        a whole round played (a lasting effect that ends with it) says where play stops,
        not each of its moves; the `first` agent's choices make the run the same every
        time. The game ending first, or the condition still false after UNTIL_MOVES
        moves, is a failure that stops the test."""
        game, name = self.game, f"{test_names(self.index)['expect']}{k}"
        e = step.expr
        assert e is not None  # an `until` step has its condition (the parser makes it so)
        written = _source(self.game.compiled.program.sources, e.span) or "the condition"
        for _ in range(UNTIL_MOVES):
            value = self.value(state, name, self.forms(state, step))
            if value is True:
                return state
            if value is not False:
                self.fail(step.span, f"expected a condition (true or false); {written} is {self.shown(value)}")
                return None
            if game.is_over(state):
                self.fail(
                    step.span, f"the game ended before {written} held; won by [{', '.join(game.result(state) or ())}]"
                )
                return None
            state = game.apply_index(state, 0)
            self.narrated(state)
        self.fail(step.span, f"{written} still does not hold after {UNTIL_MOVES} moves of the first label offered")
        return None

    def holds(self, state: State, k: int, step: ast.TestStep) -> None:
        name = f"{test_names(self.index)['expect']}{k}"
        forms = self.forms(state, step)
        value = self.value(state, name, forms)
        if value is True:
            return
        e = step.expr
        assert e is not None  # a `holds` step has its condition (the parser makes it so)
        sources = self.game.compiled.program.sources
        written = _source(sources, e.span) or "the condition"
        if value is not False:
            self.fail(step.span, f"expected a condition (true or false); {written} is {self.shown(value)}")
            return
        if isinstance(e, ast.BinOp) and e.op in COMPARISONS:
            left, right = self.value(state, name + "_left", forms), self.value(state, name + "_right", forms)
            came = f"{_source(sources, e.left.span) or 'the left side'} is {self.shown(left)}"
            if not isinstance(e.right, ast.Int | ast.Bool | ast.NoneLit):
                came += f", {_source(sources, e.right.span) or 'the right side'} is {self.shown(right)}"
            self.fail(step.span, f"expected {written}; came {came}")
        else:
            self.fail(step.span, f"expected {written}; it is false")


def file_tests(path: Path) -> tuple[Program, list[tuple[int, ast.Test]]]:
    """The test blocks written in `path` itself (not in the files it includes), numbered."""
    program = load_program(path)
    mine = str(path)
    tests = [(i, t) for i, t in enumerate(program.tests) if t.span.path == mine]
    return program, tests


def game_test_files(game: str | Path) -> list[Path]:
    """The test files of a game: `NAME.test.game` beside it, and the `*.test.game` files of
    a `tests/` folder beside any file of the game (a card set's tests beside its cards) that
    include the game. Why: `gamedef test NAME` runs a game's tests by its name, as `gamedef
    check NAME` checks it, wherever the game's card sets keep theirs; a test file of a game
    built on this one (a house-rules variant) is that game's, not this one's."""
    path = Path(game).resolve()
    own = path.with_name(path.name.removesuffix(".game") + ".test.game")
    candidates = [own]
    for source in load_program(path).sources:
        folder = Path(source).parent / "tests"
        if folder.is_dir():
            candidates += sorted(folder.glob("*.test.game"))
    found = []
    for candidate in dict.fromkeys(candidates):
        if candidate.is_file() and (candidate == own or str(path) in load_program(candidate).sources):
            found.append(candidate)
    return found


def run_tests(path: str | Path, only: str | None = None) -> list[Outcome]:
    """Run every test block of a file (or those whose name contains `only`), in order.

    Raises GameDefError for a file that does not check, has no tests, or a test whose
    settings are wrong (exit 2); failures are returned, one Outcome per test."""
    path = Path(path).resolve()
    program, tests = file_tests(path)
    if not tests:
        raise _error(
            Span(str(path), 1, 1),
            "no `test` blocks in this file",
            'write one: test my_test "what it shows" { players 2  expect ... }',
        )
    seen: dict[str, ast.Test] = {}
    for _, t in tests:
        if t.name in seen:
            raise _error(t.span, f"test '{t.name}' is written twice", f"the first is at {seen[t.name].span}")
        seen[t.name] = t
        _check_settings(t, program)
    chosen = [(i, t) for i, t in tests if only is None or only in t.name]
    # Each group of tests with the same settings is compiled whole, chosen or not: the
    # compiled-game cache knows a group by its file and settings, not by the tests picked
    # with `-k`, so a game compiled for some of them would lack the others' code.
    groups: dict[tuple, list] = {}
    for i, t in tests:
        options = {name: _literal(v) for name, v in t.options}
        key = (t.variants, tuple(sorted(options.items(), key=repr)))
        groups.setdefault(key, []).append((i, t))
    wanted = {i for i, _ in chosen}
    games: dict[tuple, Game] = {}
    for key, members in groups.items():
        if not any(i in wanted for i, _ in members):
            continue
        game = _compile(path, key[0], dict(key[1]), members, members[0][1])
        assert game is not None  # compiled when not cached
        games[key] = game
    outcomes: list[Outcome] = []
    for i, t in chosen:
        options = {name: _literal(v) for name, v in t.options}
        key = (t.variants, tuple(sorted(options.items(), key=repr)))
        outcomes.append(_Run(games[key], i, t, path.parent).go())
    return outcomes


def arranged_positions(
    path: str | Path, skip: Callable[[ast.Test, tuple[ast.Test, ...]], bool] | None = None
) -> Iterator[tuple[ast.Test, Game, Callable[[int], State]]]:
    """The positions the designer's tests of `path` start from (its own `test` blocks, and
    those of `NAME.test.game` beside it), each with its game (the tests' code compiled in)
    and a function from a seed to that position: `gamedef check` plays random moves on from
    them, reaching what a test arranges (a card in hand) that random games may not.

    Only tests whose game `gamedef test` has compiled and the cache keeps (the same
    files, variants and options) are given: compiling them here would take the time
    `check` has to play. A test whose file or settings do not check, or whose start stops
    with an error, is left out: `gamedef test` reports those. `skip(test, group)`: true for a
    test not to give (`group`: the tests compiled into one game with it); a game none of
    whose tests is given is not read."""
    path = Path(path).resolve()
    files = [path, path.with_name(path.name.removesuffix(".game") + ".test.game")]
    for file in files:
        if not file.is_file() or (file != path and file.name == path.name):
            continue
        try:
            program, tests = file_tests(file)
            for _, t in tests:
                _check_settings(t, program)
        except GameDefError:
            continue
        groups: dict[tuple, list] = {}
        for i, t in tests:
            options = {name: _literal(v) for name, v in t.options}
            groups.setdefault((t.variants, tuple(sorted(options.items(), key=repr))), []).append((i, t))
        for key, members in groups.items():
            group = tuple(t for _, t in members)
            wanted = {t.name for t in group if skip is None or not skip(t, group)}
            if not wanted:
                continue
            try:
                game = _compile(file, key[0], dict(key[1]), members, members[0][1], cached=True)
            except GameDefError:
                continue
            if game is None:
                continue
            for i, t in members:
                if t.name not in wanted:
                    continue
                try:
                    state, _ = _start(game, i, t, file.parent)
                except (GameDefError, UsageError):
                    continue
                yield t, game, _always(state)


def _always(state: State) -> Callable[[int], State]:
    """A test's start, whatever the seed (the seed is its random moves')."""

    def start(seed: int) -> State:
        return state

    return start
