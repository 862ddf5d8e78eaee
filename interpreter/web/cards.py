"""Cards a player can read: the printed text of every component a page names.

A component with a printed text (a card's `text`, or an `about` line: what a zone or a
tile is) is marked wherever its title appears in what a seat is shown (its view, its log,
its move buttons), so the page can show the text on hover, on focus and on tap. Nothing
here knows a game: the titles and texts are the game's own declarations. Only titles
already on the page are marked, so no mark says more than the page already shows; a
printed text is the same for everyone.
"""

from __future__ import annotations

import html
import re
import threading
from typing import Any

from interpreter.compile.compiled import CompiledGame

_by_game: dict[int, tuple[CompiledGame, CardTexts]] = {}
_lock = threading.Lock()


class CardTexts:
    """A game's titles with a printed text, and a pattern that finds them in escaped text."""

    def __init__(self, g: CompiledGame):
        texts: dict[str, list[str]] = {}
        printed = [*g.fields.get("text", {}).items(), *g.fields.get("about", {}).items(), *g.about.items()]
        for name, text in printed:
            title = g.rt.titles.get(name)
            if title and isinstance(text, str) and text.strip():
                same = texts.setdefault(title, [])
                if text.strip() not in same:
                    same.append(text.strip())
        self.texts = {title: " / ".join(parts) for title, parts in texts.items()}
        escaped = sorted((html.escape(t) for t in self.texts), key=len, reverse=True)  # the longest title first
        self._pattern = (
            re.compile(r"(?<![\w-])(" + "|".join(re.escape(t) for t in escaped) + r")(?![\w-])") if escaped else None
        )

    def mark(self, escaped: str) -> str:
        """Escaped text with each title that has a printed text wrapped in a focusable
        mark carrying that text (the text escaped for an attribute)."""
        if self._pattern is None:
            return escaped
        return self._pattern.sub(self._wrap, escaped)

    def _wrap(self, found: re.Match[str]) -> str:
        title = found.group(1)
        text = self.texts.get(html.unescape(title), "")
        return f'<span class="card" tabindex="0" title="{html.escape(text, quote=True)}">{title}</span>'

    def about(self, label: str) -> str:
        """The printed texts of the titles a move's label names (for its button's tooltip)."""
        if self._pattern is None:
            return ""
        found = dict.fromkeys(html.unescape(m) for m in self._pattern.findall(html.escape(label)))
        return "\n".join(f"{title}: {self.texts[title]}" for title in found if title in self.texts)


def card_texts(g: CompiledGame) -> CardTexts:
    """The game's card texts, made once per compiled game."""
    with _lock:
        kept = _by_game.get(id(g))
        if kept is not None and kept[0] is g:
            return kept[1]
    texts = CardTexts(g)
    with _lock:
        _by_game[id(g)] = (g, texts)
        if len(_by_game) > 64:
            _by_game.pop(next(iter(_by_game)))
    return texts


def marked_lines(g: CompiledGame, lines: list[str]) -> list[Any]:
    """Lines of plain text, each escaped and its titles marked (safe to put in a page)."""
    from markupsafe import Markup

    texts = card_texts(g)
    return [Markup(texts.mark(html.escape(line))) for line in lines]
