"""Where the interpreter finds its grammar and the bundled games: `data_folder` is the one
place that knows, in a checkout and when installed.

In a checkout, `grammar/`, `gamedefs/`, `cards/` and `examples/` are the repository's
top-level folders, beside the `interpreter` package. An install has them inside the package,
as `interpreter/data/FOLDER/` (setup.py maps the repository's folders there when the wheel is
built, so that an install adds no top-level name but `interpreter` to site-packages), found
through `importlib.resources`. Either way they are folders on disk: a game's reads are
confined by resolved paths (language/sources.py), so every read path is a real one."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # interpreter/
ROOT = PACKAGE.parent  # the checkout, or site-packages
DATA_FOLDERS = ("grammar", "gamedefs", "cards", "examples")


def _installed_data() -> Path | None:
    """`interpreter/data/` of an installed copy; None in a checkout, which has none."""
    data = resources.files("interpreter") / "data"
    return data.resolve() if isinstance(data, Path) and data.is_dir() else None


def data_folder(name: str) -> Path:
    """The folder `name` (one of DATA_FOLDERS) of this copy of gamedef: the installed
    package's own, else the checkout's, beside the package. The installed copy comes first
    so that a folder named like ours beside site-packages' `interpreter` (another
    distribution's `examples/`, say) is never taken for it."""
    if name not in DATA_FOLDERS:
        raise ValueError(f"no data folder named {name!r}: one of {', '.join(DATA_FOLDERS)}")
    installed = _installed_data()
    return (installed if installed is not None else ROOT) / name


GRAMMAR = data_folder("grammar") / "gamedef.lark"
BUNDLED = data_folder("gamedefs")  # bundled games may be included by any game
BUNDLED_CARDS = data_folder("cards")  # and the bundled card sets and tables (cards/twid/...)
EXAMPLES = data_folder("examples")
CHECKOUT = None if _installed_data() else ROOT  # the repository this copy runs from, if any


def is_bundle(folder: Path) -> bool:
    """Whether `folder` holds a copy of gamedef's games: a checkout, or an installed
    copy's `interpreter/data/`, has the grammar beside its `gamedefs/` and `cards/` folders."""
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
