"""The designer's commands: `check` (the whole game, as `run` would meet it), `test` (the
tests written in the language), `diff` (what a change did to a transcript), `new` (a game or
variant to start from), `lsp` (the editor's language server), `cards` and `rules` (what the
game's files say)."""

from __future__ import annotations

import functools
import shutil
import sys
import typing
from pathlib import Path

from interpreter.cli.shared import load_named, put, shown_path
from interpreter.cli.terminal import asked_width, error, worded
from interpreter.core.errors import GameDefError, UsageError
from interpreter.runtime.load import find_game, load_game
from interpreter.runtime.saving import read_transcript

if typing.TYPE_CHECKING:  # play/ is imported by the commands that play, when they run
    from interpreter.play.exercise import Replay


def cmd_test(args) -> int:
    """Run the `test` blocks of each file: each failure at its line, with what was
    expected and what came; exit 1 if any failed, 2 for a file that does not check."""
    from interpreter.runtime.designer_tests import game_test_files, run_tests

    total = failed = 0
    bad = False
    files: list[str] = []
    for name in args.files:  # a file, or a game's name: the test files of that game
        if Path(name).exists() or name.endswith(".test.game"):
            files.append(name)
            continue
        try:
            found = game_test_files(find_game(name))
        except GameDefError as err:
            print(err.render(), file=sys.stderr)
            bad = True
            continue
        except UsageError as err:
            error(*worded(err))
            bad = True
            continue
        if not found:
            hint = f"write tests in {Path(find_game(name)).stem}.test.game beside the game (docs/language.md §16.1)"
            error(f"the game '{name}' has no test files", hint)
            bad = True
        files += [shown_path(str(f)) for f in found]
    for name in files:
        try:
            outcomes = run_tests(name, args.k)
        except GameDefError as err:
            print(err.render(), file=sys.stderr)
            bad = True
            continue
        for o in outcomes:
            total += 1
            if o.passed:
                if args.verbose:
                    print(f"{shown_path(o.test.span.path)}: test {o.test.name}: ok")
                continue
            failed += 1
            for f in o.failures:
                print(f.render().replace(f.span.path, shown_path(f.span.path), 1))
        passed = sum(o.passed for o in outcomes)
        print(f"{name}: {passed} of {len(outcomes)} tests passed")
    if bad:
        return 2
    if len(files) > 1:
        print(f"{total - failed} of {total} tests passed")
    return 1 if failed else 0


def cmd_diff(args) -> int:
    """Play transcripts against the edited rules (an edited file, variants added, or both);
    per transcript, the first decision that goes differently and the rules in force there.
    A warning when the edited rules are the baseline's; with `--games N`, N seeded games of
    both side by side. Exit 0 when nothing differs, else 1."""
    from interpreter.core.paths import CHECKOUT
    from interpreter.runtime.transcript_diff import diff_transcript, same_rules, transcript_games, transcripts_in

    items = args.transcripts
    if not items:
        canonical = CHECKOUT / "tests" / "transcripts" if CHECKOUT else None
        if canonical is None or not canonical.is_dir():
            raise UsageError(
                "no transcripts named, and the canonical ones (tests/transcripts/ of a checkout) are not here",
                "name transcripts or a folder of them: gamedef diff MY_GAMES/ --game my.game",
            )
        items = [str(canonical)]
    paths = transcripts_in(items)
    if args.game and not args.transcripts:  # the canonical games of that game only
        name = load_game(args.game).name
        paths = [p for p in paths if Path(read_transcript(p).game).name.removesuffix(".game") == name]
    if not paths:
        raise UsageError("no transcripts to play", "a folder's transcripts are its *.toml files")
    if args.games and not (args.game or args.variant):
        raise UsageError(
            "--games compares two sets of rules, and there is only one",
            "give the edited rules: --game EDITED.game, or --variant V (or both)",
        )
    added = tuple(args.variant or [])
    loaded: dict = {}
    warned: set[tuple[int, int]] = set()
    differ = 0
    for path in paths:
        before, now = transcript_games(path, read_transcript(path), args.game, added, loaded)
        if before is not None and (id(before), id(now)) not in warned:
            warned.add((id(before), id(now)))
            if same_rules(before, now):
                _same_rules_warning(before, now, args.game)
        d = diff_transcript(path, args.game, added, loaded)
        shown = shown_path(str(path))
        if d is None:
            print(f"{shown}: same")
            continue
        differ += 1
        where = f"move {d.decision} ({d.move})" if d.move else "the result"
        print(f"{shown}: differs at {where}")
        for line in d.what:
            print(f"    {line}")
        if d.rules:
            print("    rules in force:")
            for line in d.rules:
                print(f"      {shown_path(line.split(':', 1)[0])}:{line.split(':', 1)[1]}")
    print(f"{differ} of {len(paths)} transcripts differ")
    if args.games:
        return 1 if _diff_outcomes(args, paths[0], added, loaded) or differ else 0
    return 1 if differ else 0


def _same_rules_warning(before, now, edited: str | None) -> None:
    """Said when the edited rules are the baseline's: nothing can differ (a change made in a
    variant that was not chosen, or a file that includes the game and changes nothing)."""
    unused = [v for v in now.compiled.program.all_variants if v not in now.variants]
    what = f"{edited}" if edited else "the game"
    if now.variants != before.variants:
        what += " with " + ", ".join(now.variants)
    hint = (
        f"its changes may be in a variant: --variant {unused[0]}"
        + (f" (its variants: {', '.join(unused)})" if len(unused) > 1 else "")
        if unused
        else "edit the rules, or name the edited file with --game"
    )
    print(
        f"warning: {what} has the same rules as the transcripts' own game ({before.name}"
        + (f" with {', '.join(before.variants)}" if before.variants else "")
        + "): nothing can differ",
        file=sys.stderr,
    )
    print(f"    hint: {hint}", file=sys.stderr)


def _diff_outcomes(args, path: Path, added: tuple[str, ...], loaded: dict) -> bool:
    """`--games N`: N seeded games of the baseline and of the edited rules, with the first
    transcript's players (or --players), variants and options; the side-by-side table.
    True when some game ended otherwise."""
    from interpreter.play.compare import compare, outcomes, report_lines
    from interpreter.play.simulate import Setup, check_scale
    from interpreter.runtime.transcript_diff import transcript_games

    check_scale(args.games, 1)
    t = read_transcript(path)
    before, now = transcript_games(path, t, args.game, added, loaded)
    assert before is not None  # --games is refused above without an edited file or a variant
    players = args.players or t.players
    before.seats_for(players)  # a player count the game has, or the usage error that says so
    now.seats_for(players)
    base = str(path.parent / t.game) if t.game.endswith(".game") else t.game
    setups = [
        Setup(game=name, variants=tuple(g.variants), options=dict(g.options), players=players)
        for name, g in ((base, before), (args.game or base, now))
    ]
    records = [outcomes(g, setup, args.games, args.seed) for g, setup in zip((before, now), setups, strict=True)]
    doc = compare(records[0], records[1], now.seats_for(players))
    was = "before" + (f" ({', '.join(before.variants)})" if before.variants else "")
    edited = "after" + (f" ({', '.join(v for v in now.variants if v not in before.variants)})" if added else "")
    print()
    for line in report_lines(doc, args.games, args.seed, players, was, edited):
        print(line)
    return doc["same_games"] < args.games


def _said(text: str, stream: typing.TextIO) -> None:
    """One of `check`'s lines (a diagnostic or a file's summary) written whole and at once,
    after whatever the other stream holds: standard output is block-buffered when piped,
    so with both streams sent to one pipe (`gamedef check x.game 2>&1 | cat`) a summary
    waiting in its buffer would come out after the next file's errors, or cut into them."""
    other = sys.stderr if stream is sys.stdout else sys.stdout
    other.flush()
    stream.write(text + "\n")
    stream.flush()


def cmd_check(args) -> int:
    """The static checks of each file and each of its variants, with the recursions and
    loops that cannot end (interpreter/check/endless.py), then play of what the file adds
    or changes (interpreter/play/exercise.py) for at most `--budget` seconds (it stops once
    each line of play has reached what the file adds or changes enough times): a run-time
    error met in play is an error (exit 2) with the game that reproduces it; a new card never
    reached, a warning. Each variant's program, read and checked here, is what its game is
    compiled from on a miss of the cache (not read and checked again). A variant set whose
    rules an earlier check found whole (play/verdicts.py: the same rules as written, checked,
    compiled and played to the end without an error) is not checked, compiled or played
    again: an edit checks what it changed."""
    from interpreter.check.checker import beside_digest, check_game
    from interpreter.check.endless import endless
    from interpreter.check.partial import with_the_rest_checked
    from interpreter.compile.gamecache import rules_digest
    from interpreter.language.parser import SyntaxErrors
    from interpreter.language.program import Program, load_program
    from interpreter.play import verdicts
    from interpreter.play.exercise import base_of, default_budget, exercise, verdict_key
    from interpreter.play.simulate import default_jobs
    from interpreter.runtime.designer_tests import arranged_positions

    failed = False
    for name in args.files:
        try:
            path = find_game(name)
            try:
                program = load_program(path)
            except SyntaxErrors as err:  # each syntax error, and the check of what parsed
                for d in with_the_rest_checked(path, err):
                    _said(d.render(), sys.stderr)
                failed = True
                continue
            warnings = None
            variant_sets: list[list[str]] = [[]] + [[v] for v in program.all_variants]
            # a test played with several variants is checked with them (check/checker.py)
            variant_sets += [list(vs) for vs in dict.fromkeys(t.variants for t in program.tests) if len(vs) > 1]
            loaded = {}
            programs: dict[tuple[str, ...], Program] = {(): program}
            endless_found: dict = {}
            base = base_of(path, program)
            named: dict[tuple[str, ...], str | None] = {}  # each set's verdict's name
            digested: dict[tuple[str, ...], str | None] = {}  # each set's rules as written
            remembered: dict[tuple[str, ...], verdicts.Verdict] = {}
            found_by_set: dict[tuple[str, ...], list] = {}
            for vs in variant_sets:
                assembled = programs[tuple(vs)] = programs.get(tuple(vs)) or load_program(path, vs)
                rules = digested[tuple(vs)] = rules_digest(assembled, {}, optimise=False)
                # keyed by the test files beside the game too: its "never read" warnings read them
                beside = beside_digest(assembled)
                key = named[tuple(vs)] = verdict_key(rules + beside, assembled, base) if rules is not None else None
                verdict = verdicts.recall(key)
                if verdict is not None:  # these rules checked whole before: the same warnings
                    remembered[tuple(vs)] = verdict
                    found = list(verdict.warnings)
                else:
                    symbols, found = check_game(assembled)
                    # compiled as written (no inlining): a tenth of the time of the optimised
                    # build and the same game (tests/compile/test_optimisations.py), so an edit
                    # checks in about a second; `run` compiles the optimised build once.
                    loaded[tuple(vs)] = load_game(
                        str(path), variants=vs, checked=assembled, symbols=symbols, optimise=False
                    )
                found_by_set[tuple(vs)] = found
                # Warn only of what no variant uses either.
                keys = {(d.span, d.message): d for d in found}
                warnings = keys if warnings is None else {k: d for k, d in warnings.items() if k in keys}
                # (a recalled set has warnings here at most: its check went on to play)
                endless_found.update({(d.span, d.message): d for d in endless(assembled.decls)})
            for d in (warnings or {}).values():
                _said(d.render(), sys.stderr)
            for d in endless_found.values():  # certain without playing: reported before any game is played
                _said(d.render(), sys.stderr)
            if any(d.severity == "error" for d in endless_found.values()):
                failed = True
                continue
            played = ""
            budget = default_budget(str(path), program) if args.budget is None else args.budget
            if budget > 0:
                report = exercise(
                    str(path),
                    budget,
                    variant_sets,
                    loaded,
                    functools.partial(arranged_positions, path),
                    shown=name,
                    programs=programs,
                    remembered=remembered,
                    jobs=min(2, default_jobs()),  # the lines shared with a forked copy, on a second core
                    digests={vs: key for vs, key in digested.items() if key is not None},
                )
                found = report.diagnostics(replay_command)
                errors = [d for d in found if d.severity == "error"]
                for d in found:
                    _said(d.render(), sys.stderr)
                played = f"; {report.summary()}"
                for whole, lines in report.records.items():  # checked again only when changed
                    verdicts.remember(named.get(whole), verdicts.Verdict(tuple(found_by_set[whole]), lines))
                for test_key, line in report.test_records.items():
                    verdicts.remember(test_key, verdicts.Verdict((), (line,)))
                if errors:
                    _said(f"{name}: failed in play{played}", sys.stdout)
                    failed = True
                    continue
            _said(f"{name}: ok ({len(program.all_variants)} variants){played}", sys.stdout)
        except GameDefError as err:
            _said(err.render(), sys.stderr)
            failed = True
    return 2 if failed else 0


def cmd_lsp(args) -> int:
    """The language server for editors (docs/editor.md); its libraries are an optional extra."""
    try:
        from interpreter.lsp.server import main as serve
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing not in ("pygls", "lsprotocol"):
            raise
        error(f"gamedef lsp needs the optional extra 'lsp' ({missing} is not installed)", LSP_HINT)
        return 2
    return serve()


LSP_HINT = "install it with: pip install 'gamedef[lsp]'"


def cmd_new(args) -> int:
    from interpreter.cli.new import make_skeleton

    path = make_skeleton(args.what, args.name, args.of, Path(args.dir))
    test = path.with_name(path.stem + ".test.game")
    print(
        f"wrote {path} and its tests {test}: check it with `gamedef check {path}`, test it with `gamedef test {test}`"
    )
    return 0


def cmd_cards(args) -> int:
    """The game's printed cards, filtered; exit 1 when no card matches."""
    from interpreter.runtime.cardlist import card_listing

    game = load_named(args)
    asked = asked_width()  # COLUMNS, on a terminal or piped
    width = min(88, asked or shutil.get_terminal_size((88, 24)).columns) if sys.stdout.isatty() or asked else 88
    lines = card_listing(game.compiled, args.kind, args.where or [], args.search, width=width)
    for line in lines:
        put(line)
    shown = sum(1 for line in lines if not line.startswith("    "))
    from interpreter.runtime.cardlist import card_kinds

    one, many = ("card", "cards") if card_kinds(game.compiled) else ("entry", "entries")
    print(f"({shown} {one if shown == 1 else many})", file=sys.stderr)
    return 0 if shown else 1


def cmd_rules(args) -> int:
    from interpreter.check.rules_index import rules_listing

    print(rules_listing(find_game(args.game), args.variant or []))
    return 0


def replay_command(replay: Replay) -> str:
    """The command that plays again the game in which `check` met a problem: the same
    random players, seed and variants (play/exercise.py)."""
    extra = "".join(f" --variant {v}" for v in replay.variants)
    return f"gamedef run {replay.file} --players {replay.players} --seed {replay.seed}{extra} --moves"
