"""The terminal player's input line (prompt_toolkit): line editing, history, Tab
completion of the legal moves and of the commands, the status line at the bottom.

Used only when standard input and output are both a terminal; piped input (tests, scripts)
is read with `input()` as before, so nothing here is needed to drive `gamedef play`.
"""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import InMemoryHistory

WORDS = ("view", "moves", "help", "undo", "quit", "about ")


class MoveCompleter(Completer):
    """The legal moves (and the commands) that contain what is typed, in any case: `d3`
    offers `hammer on d3`, `pol` offers `1 influence in Poland`."""

    def __init__(self) -> None:
        self.labels: list[str] = []

    def get_completions(self, document, complete_event) -> Iterable[Completion]:
        typed = document.text_before_cursor
        low = typed.strip().lower()
        for word in (*self.labels, *WORDS):
            if not low or low in word.lower():
                yield Completion(word, start_position=-len(typed))


class Screen:
    """One prompt session for the whole game, so Up and Down recall earlier answers."""

    def __init__(self) -> None:
        self.completer = MoveCompleter()
        self.session: PromptSession = PromptSession(history=InMemoryHistory(), completer=self.completer)

    def ask(self, labels: list[str], status: str) -> str:
        """An answer, the status line shown at the bottom of the screen while it is typed."""
        self.completer.labels = list(labels)
        return self.session.prompt("> ", bottom_toolbar=status, complete_while_typing=False)

    def confirm(self, question: str) -> bool:
        """Yes unless the person answers no; a second Ctrl-C (or end of input) is a yes."""
        try:
            answer = self.session.prompt(question, completer=None)
        except (KeyboardInterrupt, EOFError):
            return True
        return not answer.strip().lower().startswith("n")
