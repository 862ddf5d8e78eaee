"""A game option's value written as text: one reading for every way an option is given.

The command line (`--option NAME=VALUE`) and the web form know nothing of the game when
they read a value, so they read the text the one way written here; the compiler, which
knows each option's declared type, reads a text given for a number or truth option (from
`load_game(options=...)` in Python) the same way, so "true" and "5" mean the same
wherever they are written.
"""

from __future__ import annotations

from typing import Any

# A whole number longer than this stays a text (and is refused for a number option):
# int() of thousands of digits is slow, and no option counts that high.
MAX_DIGITS = 18

# What a number or truth option accepts, for the message refusing another value.
ACCEPTED = {
    "int": "a whole number (from Python, an int or its digits as a text: '5', '-2')",
    "bool": "true or false (from Python, a bool or the text 'true' or 'false', in any case)",
}


def option_value(text: str) -> Any:
    """The value `text` stands for: a whole number (`5`, `-2`), a truth (`true`, `false`,
    in any case), or else the text itself (an enum member's name, a text option's value)."""
    t = text.strip()
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    digits = t[1:] if t.startswith("-") else t
    if digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS:
        return int(t)
    return text
