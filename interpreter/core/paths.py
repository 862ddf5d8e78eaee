"""Where the interpreter finds its grammar and the bundled games, in a checkout and when
installed: `grammar/`, `gamedefs/`, `cards/` and `examples/` sit beside the `interpreter`
package in both (pyproject.toml installs them as packages of their own)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # interpreter/
ROOT = PACKAGE.parent  # the checkout, or site-packages
GRAMMAR = ROOT / "grammar" / "gamedef.lark"
BUNDLED = ROOT / "gamedefs"  # bundled games may be included by any game
BUNDLED_CARDS = ROOT / "cards"  # and the bundled card sets and tables (cards/twid/...)
EXAMPLES = ROOT / "examples"
