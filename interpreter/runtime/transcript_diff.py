"""What a rule change did: transcripts played against the edited rules (`gamedef diff`).

Each transcript is replayed move by move. With an edited game (`--game FILE`), the
same moves are played in step against the rules the transcript names (the baseline),
and the first decision where the seat deciding, the labels offered or what the move
then logged differ is reported; without one, the transcript's own game as it is now
is checked: each recorded move still offered to the same seat, and the same result.
A difference names the decision, what was and what is, and the rules in force there:
the procedures being run (innermost first), at their lines, each with the nearest
`rule` citation above it.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from interpreter.core.errors import ArgumentError, GameRuntimeError, Span, UsageError
from interpreter.language import syntax as ast
from interpreter.language.sources import confined
from interpreter.runtime.game import Game
from interpreter.runtime.load import load_game
from interpreter.runtime.machine import Move, State
from interpreter.runtime.saving import Transcript, load_state, read_transcript

SHOWN = 8  # labels or lines listed on each side of a difference


@attrs.frozen
class Difference:
    """The first decision where a transcript goes differently, and why."""

    decision: int  # 1-based: the move number in the transcript (past the last: the result)
    move: str  # the transcript's move there ("" for the result)
    what: list[str]  # lines saying what was and what is
    rules: list[str]  # the procedures in force at that decision, with their citations


def _beside(base: Path, name: str, field: str) -> Path:
    path = confined(base, name, (base.resolve(),))
    if path is None:
        raise UsageError(
            f"the transcript's {field} {name!r} is outside the transcript's folder",
            "name a file beside the transcript (or below it)",
        )
    return path


def _citations(game: Game) -> dict[str, list[tuple[int, str]]]:
    """Every `rule` citation of the game by file: (line, section), in line order."""
    found: dict[str, list[tuple[int, str]]] = {}
    for node in ast.walk(list(game.compiled.program.decls)):
        if isinstance(node, ast.Cite):
            found.setdefault(node.span.path, []).append((node.span.line, node.section))
    for lines in found.values():
        lines.sort()
    return found


def rules_in_force(game: Game, state: State, cites: dict[str, list[tuple[int, str]]]) -> list[str]:
    """The procedures being run at `state`'s decision, innermost first: each at the line
    it has reached, with the nearest `rule` citation at or above that line."""
    out = []
    for frame in reversed(state.frames):
        index, pc = (frame[0], frame[1]) if isinstance(frame, tuple) else (frame[0].index, frame[1])
        code = game.compiled.codes[index]
        if not code.spans:
            continue
        at = max(0, min(pc - 1, len(code.spans) - 1))  # the step that asked (the call or the choice)
        span: Span = code.spans[at]
        name = code.names[at] if code.names else code.name
        cited = [section for line, section in cites.get(span.path, []) if line <= span.line]
        rule = f' (rule "{cited[-1]}")' if cited else ""
        out.append(f"{span}: in {name}{rule}")
    return out


def _listed(items: list[str]) -> str:
    more = f"; ... ({len(items)} in all)" if len(items) > SHOWN else ""
    return "; ".join(items[:SHOWN]) + more if items else "nothing"


def _winners(game: Game, state: State) -> list[str] | None:
    """The winners as a list once the game is over (`is_over`: its result is set), else None."""
    result = game.result(state)
    return list(result) if result is not None else None


def _start(game: Game, t: Transcript, base: Path) -> State:
    if t.start:
        return load_state(game, _beside(base, t.start, "start"))
    return game.start(players=t.players, seed=t.seed, pins=tuple(t.dice))


def transcript_games(
    path: Path, t: Transcript, edited: str | Path | None = None, added: tuple[str, ...] = (), loaded: dict | None = None
) -> tuple[Game | None, Game]:
    """The games a transcript is played against: (the baseline, the edited rules). The
    baseline is the game the transcript names with its variants, None when there is nothing
    to compare with (no edited file, no variant added: the transcript's own game as it is
    now is checked); the edited rules are the edited file (or that game) with the
    transcript's variants and then `added`. `loaded` keeps games loaded by the same
    arguments, for the next transcript."""
    name = str(_beside(path.parent, t.game, "game")) if t.game.endswith(".game") else t.game
    memo = loaded if loaded is not None else {}

    def load(game: str | Path, variants: tuple[str, ...]) -> Game:
        key = (str(game), variants, tuple(sorted(t.options.items(), key=repr)), t.chance)
        if key not in memo:
            memo[key] = load_game(game, variants, t.options, chance=t.chance)
        return memo[key]

    now = load(edited if edited is not None else name, (*t.variants, *[v for v in added if v not in t.variants]))
    before = load(name, tuple(t.variants)) if edited is not None or added else None
    return before, now


def same_rules(before: Game, now: Game) -> bool:
    """Whether two loaded games have the same rules: the same declarations (as syntax
    trees, wherever written), the same tables' rows and the same options in force. (A tree
    too deep to compare is taken as different: no warning rather than a wrong one.)"""
    try:
        return _same_rules(before, now)
    except RecursionError:
        return False


def _same_rules(before: Game, now: Game) -> bool:
    a, b = before.compiled.program, now.compiled.program
    if before.options != now.options:
        return False
    if ast.shape(a.header) != ast.shape(b.header) or ast.shape(a.decls) != ast.shape(b.decls):
        return False
    tables = [ast.shape(tuple((t.decl, t.live()) for t in p.tables)) for p in (a, b)]
    return tables[0] == tables[1]


def diff_transcript(
    path: str | Path, edited: str | Path | None = None, added: tuple[str, ...] = (), loaded: dict | None = None
) -> Difference | None:
    """The first difference of the transcript at `path` against the edited game and the
    variants `added` (or against its own game as it is now), or None when it plays the
    same (`transcript_games`)."""
    path = Path(path)
    t = read_transcript(path)
    base = path.parent
    before, now = transcript_games(path, t, edited, added, loaded)
    if before is not None and before.name != now.name:
        raise ArgumentError(
            "game",
            f"{path} is a transcript of {before.name}, not of {now.name}",
            given=edited if edited is not None else now.name,
            hint="give transcripts of the game you edited (or none: its canonical ones)",
        )
    cites = _citations(now)
    s = _start(now, t, base)
    b = _start(before, t, base) if before is not None else None
    for n, text in enumerate(t.moves, 1):
        seat, sep, label = text.partition(": ")
        if not sep:
            raise UsageError(f"{path}: move {n} '{text}' is not 'seat: label'")
        rules = rules_in_force(now, s, cites)
        if now.is_over(s):
            result = _winners(now, s)
            return Difference(n, text, [f"the game is now over before this move, won by {result}"], rules)
        who, labels = now.current_player(s), now.labels(s)
        if before is not None and b is not None:  # (both or neither)
            was_who, was = before.current_player(b), before.labels(b)
            if (was_who, was) != (who, labels):
                what = [f"seat deciding: was {was_who}, is {who}"] if was_who != who else []
                gone = [x for x in was if x not in labels]
                new = [x for x in labels if x not in was]
                if gone or new:
                    what += [f"labels no longer offered: {_listed(gone)}", f"labels newly offered: {_listed(new)}"]
                else:
                    what.append(f"the same labels in another order: {_listed(labels)}")
                return Difference(n, text, what, rules)
        if seat != who or label not in labels:
            what = [f"the move recorded is no longer offered; {who} is offered: {_listed(labels)}"]
            return Difference(n, text, what, rules)
        try:
            after = now.apply(s, Move(seat, label))
        except GameRuntimeError as err:
            return Difference(n, text, ["the rules now stop with an error: " + err.render().splitlines()[0]], rules)
        if before is not None and b is not None:
            b = before.apply(b, Move(seat, label))
            was_lines, lines = before.narrate(b), now.narrate(after)
            if was_lines != lines:
                what = [
                    f"the move logged: {_listed([x for x in was_lines if x not in lines])}",
                    f"it now logs: {_listed([x for x in lines if x not in was_lines])}",
                ]
                return Difference(n, text, what, rules)
        s = after
    result = _winners(now, s)
    expected = t.result
    if before is not None and b is not None:
        expected = _winners(before, b)
    if result != expected:
        shown = "not over" if result is None else f"won by {result}"
        then = "not over" if expected is None else f"won by {expected}"
        return Difference(
            len(t.moves) + 1, "", [f"result: was {then}, is {shown}"], rules_in_force(now, s, cites) if s.frames else []
        )
    return None


def transcripts_in(items: list[str]) -> list[Path]:
    """The transcripts named: files, and every *.toml in a folder named (sorted)."""
    found: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            found.extend(sorted(p.glob("*.toml")))
        elif p.is_file():
            found.append(p)
        else:
            raise UsageError(f"no transcript or folder '{item}'", "name .toml transcripts or a folder of them")
    return found
