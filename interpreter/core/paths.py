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


def is_bundle(folder: Path) -> bool:
    """Whether `folder` holds a copy of gamedef's games: a checkout (or an installed
    copy) has the grammar beside its `gamedefs/` and `cards/` folders."""
    return (
        (folder / "grammar" / "gamedef.lark").is_file()
        and (folder / "gamedefs").is_dir()
        and (folder / "cards").is_dir()
    )


def bundle_of(path: Path) -> tuple[Path, Path]:
    """The bundled games and card sets a game file builds on: those of the checkout the
    file lies in (so a checkout's games and examples read the checkout's own files, even
    when another copy of gamedef is installed), else the installed ones.

    Only a folder laid out like gamedef itself counts, and only its `gamedefs/` and
    `cards/` become readable: a game's reads stay confined to its folder and the bundle."""
    for folder in Path(path).resolve().parents:
        if is_bundle(folder):
            return folder / "gamedefs", folder / "cards"
    return BUNDLED, BUNDLED_CARDS


def read_roots(path: Path) -> tuple[Path, ...]:
    """The folders a game file (and everything it includes) may read: its own folder
    and the bundled games and card sets it builds on."""
    path = Path(path).resolve()
    return (path.parent, *bundle_of(path))
