"""What a run of the rules did, for tools that ask: which components' slots ran.

`gamedef balance` asks which cards actually acted in a game, not only which were chosen:
a card held and picked in a secret header phase, then played for its operations, never
ran its text. A tool sets `PERFORMED` to a list around one `apply`; each `perform c.SLOT()`
that finds the slot then appends `(c, SLOT)` to it. Unset (the default, and always in
search and play), a perform costs one lookup more. A context variable, so that threads
(the web server's) never see another's list.
"""

from __future__ import annotations

from contextvars import ContextVar

PERFORMED: ContextVar[list[tuple[str, str]] | None] = ContextVar("performed", default=None)
