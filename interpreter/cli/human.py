"""A person at the terminal as a player: the view, the numbered moves, answers by number
or by a part of a move's label, `undo`, `about`, `view`, `help`."""

from __future__ import annotations

import shutil

from interpreter.cli.terminal import say, show_view
from interpreter.core.errors import UsageError
from interpreter.runtime.cardlist import about_lines
from interpreter.runtime.game import Game
from interpreter.runtime.machine import Move, State
from interpreter.runtime.render import render, status_text


class UndoRequest(Exception):
    """The person asked to take back their last decision (`undo`)."""


class HumanAgent:
    """A person at the terminal: their view of the position (when it has changed), the
    legal moves numbered (in columns when there are many), and an answer by number, by
    label, or by a part of a label that names one move only, in any case (`d3` for
    `hammer on d3`). `undo` takes back their previous decision, where the game allows."""

    def __init__(self, seat: str, ask=None, say=None, width: int | None = None, compact: bool = False):
        self.seat, self.say = seat, say or _say_wrapped
        self.ask = ask or (lambda prompt: input(prompt))  # looked up at each call
        # `compact` (a person at a terminal): the status line and the question, not the whole
        # view at each decision (`view` shows it), answers read with line editing, history and
        # completion of the legal moves (prompt_toolkit; interpreter/cli/screen.py).
        self.compact = compact
        self.screen = None
        if compact and ask is None:
            from interpreter.cli.screen import Screen

            self.screen = Screen()
        self.width = width
        self.last_view: str | None = None
        self.asked_at: int | None = None  # the decision count when this seat was last asked

    def _show(self, text: str, style: str | None = None, view: bool = False) -> None:
        """Text for the person: styled on a terminal (the view's headings, the question in
        bold), as it is when another `say` was given (a test's list)."""
        if self.say is not _say_wrapped:
            self.say(text)
        elif view:
            show_view(text)
        else:
            _say_wrapped(text, style)

    def _position(self, game: Game, state: State) -> str:
        """Show the position (or, on a compact screen, the status line) when it should be
        shown; the seat's view, which `view` shows on demand."""
        view = render(game, state, self.seat)
        # The position is shown again when it changed since it was last shown, unless this
        # seat made the very last decision (the steps of one walk, one turn's several moves):
        # the question says what goes on, `view` shows the position, and what the other seats
        # just did does not scroll off.
        again = self.asked_at is not None and state.decisions == self.asked_at + 1
        if self.compact:  # the status line instead of the view; `view` shows the view
            if self.screen is None:  # with a screen it stands at the bottom while the answer is typed
                self._show(status_line(game, state, self.seat), style="reverse")
            if self.last_view is None:
                self._show("  (view: the whole position; help: the commands; Tab completes a move)", style="dim")
            self.last_view = view
        elif view != self.last_view and (self.last_view is None or not again):
            self._show(view, view=True)
            self.last_view = view
        self.asked_at = state.decisions
        return view

    def _menu(self, game: Game, state: State, labels: list[str]) -> list[str]:
        """The question and the moves, as the lines to show (the first one is the question)."""
        question = game.question(state) or "your move"  # named after the card being carried out
        # A prompt that names the seat already ("us: choose your header card") is not named twice.
        title = game.seat_title(self.seat)
        named = question.split(":")[0].strip().casefold() in (self.seat.casefold(), title.casefold())
        colon = "" if question.endswith(("?", ":")) else ":"  # "move whose hammer 3 spaces?", not "?:"
        menu = [f"\n{question}{colon}" if named else f"\n{title}, {question}{colon}"]
        board = moves_on_board(game, game.legal_moves(state))
        listed = board or numbered(labels, self.width or shutil.get_terminal_size((100, 24)).columns)
        if self.compact and len(listed) > COMPACT_MOVES:  # an 80x24 screen: the first moves, the rest by Tab
            more = len(labels) - sum(line.count(". ") for line in listed[:COMPACT_MOVES])
            listed = listed[:COMPACT_MOVES] + [f"  ... and {more} more: type part of one and press Tab, or `moves`"]
        menu.extend(listed)
        if len(labels) == 1:
            menu.append("  (the only move: press Enter to take it)")
        return menu

    def choose(self, game: Game, state: State, can_undo: bool = False) -> int:
        view = self._position(game, state)
        labels = game.labels(state)
        menu = self._menu(game, state, labels)
        for k, line in enumerate(menu):
            self._show(line, style="bold" if k == 0 else "")
        numbers = "1 or Enter" if len(labels) == 1 else f"a number from 1 to {len(labels)}"
        hint = f"{numbers}, a move, or a part of one" + (", or undo" if can_undo else "")
        while True:
            try:
                if self.screen is not None:
                    answer = self.screen.ask(labels, status_line(game, state, self.seat)).strip()
                else:
                    answer = self.ask("> ").strip()
            except EOFError:
                raise UsageError("input ended before the game did") from None
            except KeyboardInterrupt:  # Ctrl-C: save and quit, or go on
                if self.screen is None or self.screen.confirm("save the game and quit? [Y/n] "):
                    raise SaveRequest from None
                continue
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if not answer and len(labels) == 1:
                return 0
            if can_undo and answer.lower() == "undo":
                raise UndoRequest
            if answer.lower() == "quit":
                raise QuitRequest
            if answer in ("?", "help") or answer.lower() == "help":
                self.say(COMMANDS.format(hint=hint))
                continue
            if answer.lower() == "moves":  # every legal move, numbered
                for line in numbered(labels, self.width or shutil.get_terminal_size((100, 24)).columns):
                    self._show(line)
                continue
            if answer.lower() == "view":  # the position, then the question again (it scrolled off)
                self._show(view, view=True)
                for k, line in enumerate(menu):
                    self._show(line, style="bold" if k == 0 else "")
                continue
            if word in ("about", "card") and rest.strip():
                self.say("\n".join(about(game, rest.strip())))
                continue
            found = match(answer, labels)
            if isinstance(found, int):
                return found
            self._show(found or f"'{answer}' is not a legal move here: type {hint} (help: more)", style="yellow")


COMMANDS = """  {hint};
  view: the position again; moves: every legal move;
  about NAME: a card's printed text, or what a component is;
  undo: back to your previous decision (against AI players); quit: leave the game;
  Ctrl-C: save the game and quit (`play --from-state FILE` goes on)"""

COMPACT_MOVES = 10  # lines of moves shown on a terminal: with the status and the story, 80x24 holds them


def _say_wrapped(text: str, style: str | None = None) -> None:
    """Each line at the terminal's width, never cut inside a word (terminal.say)."""
    for line in text.split("\n"):
        say(line, style)


class QuitRequest(Exception):
    """The person typed `quit`: the game stops where it is."""


class SaveRequest(Exception):
    """The person pressed Ctrl-C and chose to save: the game is saved and play stops."""


def status_line(game: Game, state: State, seat: str, width: int = 79) -> str:
    """One line for the person at the terminal, beside the prompt: the status the game
    declares (`status` in its view: the round, the scores, one's own hand in brief), shown
    as `seat` may see it; a game that declares none gets whose turn it is. At most `width`
    columns (a longer status is cut, its end marked)."""
    line = status_text(game, state, seat)
    if not line:
        who = state.pending.player if state.pending is not None else None
        line = "your turn" if who == seat else f"{game.seat_title(who)} to play" if who else "game over"
    return line if len(line) <= width else line[: width - 1] + "…"


def about(game: Game, name: str) -> list[str]:
    """What the game says of the things whose title contains `name`: a card's printed
    text, a component's or an enum member's about text (cardlist.about_lines; cards' texts
    are public: printed on the card, whoever holds it); failing those, the components so
    named (a country, a zone) with their public properties."""
    width = min(84, shutil.get_terminal_size((88, 24)).columns - 4)  # indented by 2: never wrapped again
    lines = about_lines(game.compiled, name, width)
    if not lines:
        return [f"  nothing in {game.header.title} is called '{name}'"]
    heads = [line for line in lines if not line.startswith("    ")]
    if len(heads) > MAX_ABOUT:  # a name too short: the first few, and how to narrow it
        cut = lines.index(heads[MAX_ABOUT])
        return ["  " + line for line in lines[:cut]] + [
            f"  ... and {len(heads) - MAX_ABOUT} more: type more of the name"
        ]
    return ["  " + line for line in lines]


MAX_ABOUT = 12  # components listed for one `about`: more means the name was too short


def match(answer: str, labels: list[str]) -> int | str:
    """The move an answer names: its number, its label (any case), or the one label that
    starts or ends with it, or else contains it; otherwise why not (a message)."""
    if answer.isdigit():
        n = int(answer)
        if 1 <= n <= len(labels):
            return n - 1
        return f"there is one move, 1, not {n}" if len(labels) == 1 else f"there are moves 1 to {len(labels)}, not {n}"
    if not answer:
        return "type a move"
    low = answer.lower()
    exact = [i for i, label in enumerate(labels) if label.lower() == low]
    if exact:
        return exact[0]
    # A whole name typed in full names the move that ends with it, even when it starts a
    # longer one: 'missile' for '1 part on Missile', not '1 part on Missile Crisis'.
    whole = [i for i, label in enumerate(labels) if label.lower().endswith(" " + low)]
    if len(whole) == 1 and not any(label.lower().startswith(low) for label in labels):
        return whole[0]
    common = len(_common_words(labels))  # `header: ` on every move: 'e' means the part after it
    tests = [lambda x: x.startswith(low) or x.endswith(low), lambda x: low in x]
    if common:
        tests.insert(0, lambda x: x[common:].startswith(low))
    for test in tests:
        found = [i for i, label in enumerate(labels) if test(label.lower())]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            some = ", ".join(f"{i + 1}. {labels[i]}" for i in found[:6]) + (", ..." if len(found) > 6 else "")
            return f"'{answer}' could be {len(found)} moves: {some}; type more of it, or its number"
    return ""


def _common_words(labels: list[str]) -> str:
    """The words every label starts with (`header: ` in `header: OPEC`, `header: Katrina`)."""
    if len(labels) < 2:
        return ""
    first = labels[0].lower()
    n = 0
    for i, ch in enumerate(first):
        if any(len(x) <= i or x[i].lower() != ch for x in labels[1:]):
            break
        if ch == " ":
            n = i + 1
    return first[:n]


def moves_on_board(game: Game, moves: list[Move]) -> list[str] | None:
    """When many moves each choose a cell of one grid (`b2`, `hammer on d3`: the move's
    value is the cell), the grid drawn with each move's number on its cell (`.` where no
    move goes), the moves' common words said once: a choice of 48 places read as the board
    it is. None otherwise."""
    if len(moves) <= 9:
        return None
    coords = game.compiled.rt.coords
    cells = [m.value for m in moves]
    if any(not isinstance(c, str) or c not in coords for c in cells) or len(set(cells)) != len(cells):
        return None
    grid = next(cells_ for cells_ in game.compiled.types.values() if cells_ and cells[0] in cells_)
    if any(c not in grid for c in cells):
        return None
    # The words every label puts before its cell's name, said once ("hammer on CELL").
    shown = [game.compiled.rt.display(c) for c in cells]
    prefixes = {m.label[: len(m.label) - len(c)] if m.label.endswith(c) else None for m, c in zip(moves, shown)}
    prefix = next(iter(prefixes)) if len(prefixes) == 1 else None
    number = {c: str(i) for i, c in enumerate(cells, 1)}
    width = max(len(n) for n in number.values()) + 1
    columns = max(coords[c][0] for c in grid)
    rows = max(coords[c][1] for c in grid)
    out = [f"  moves: {prefix or ''}CELL, by number:" if prefix is not None else "  moves by number:"]
    out.append("     " + "".join(c[:-1].rjust(width) for c in grid[:columns]))
    for y in range(1, rows + 1):
        row = [number.get(c, ".") for c in grid if coords[c][1] == y]
        out.append(f"  {y:>2} " + "".join(t.rjust(width) for t in row))
    return out


def numbered(labels: list[str], width: int) -> list[str]:
    """The moves numbered, one a line, or in columns down the page when there are many."""
    items = [f"{i:>3}. {label}" for i, label in enumerate(labels, 1)]
    if len(items) <= 12:
        return [f"  {item}" for item in items]
    cell = max(len(item) for item in items) + 2
    columns = max(1, min(len(items) // 6, (width - 2) // cell))
    rows = -(-len(items) // columns)
    out = []
    for r in range(rows):
        row = [items[c * rows + r] for c in range(columns) if c * rows + r < len(items)]
        out.append("  " + "".join(item.ljust(cell) for item in row).rstrip())
    return out
