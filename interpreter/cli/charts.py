"""The charts of `gamedef simulate --plot` and of the balance report's page: PNG files
drawn with matplotlib (an optional extra, `gamedef[plot]`) from the figures
`interpreter.play.simulate` computes. matplotlib's Agg backend draws without a display,
so the charts are drawn on a server or in CI too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interpreter.core.errors import ArgumentError
from interpreter.play.simulate import ROUND_VAR, GameRecord

PLOT_EXTRA = 'pip install "gamedef[plot]"'  # the charts' optional extra


def plot_folder(folder: Path) -> Path:
    """The folder for the charts, made if need be: checked before the games are played, so
    that a mistyped --plot is said at once and not after minutes of games."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ArgumentError("plot", "needs matplotlib", hint=PLOT_EXTRA) from None
    if folder.exists() and not folder.is_dir():
        raise ArgumentError(
            "plot", "a file of that name exists", given=folder, hint="give a folder name for the charts"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ArgumentError(
            "plot", f"cannot make the folder ({err.strerror})", given=folder, hint="give a folder you may write"
        ) from None
    return folder


def plot(doc: dict[str, Any], records: Sequence[GameRecord], folder: Path) -> list[Path]:
    """Two PNG charts in `folder`: win rates with their 95% intervals as error bars, and the
    distribution of game lengths (decisions; rounds beside it when the game counts them).

    matplotlib's Agg backend draws without a display, so this works on a server or in CI."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise ArgumentError("plot", "needs matplotlib", hint=PLOT_EXTRA) from None
    plot_folder(folder)
    title = f"{doc['title']}, {doc['players']} players, {doc['games']} games"
    rates = doc["win_rates"]
    labels = [w["seat"] for w in rates] + ["no winner"]
    values = [w["rate"] for w in rates] + [doc["no_winner"]["rate"]]
    lows = [w["low"] for w in rates] + [doc["no_winner"]["low"]]
    highs = [w["high"] for w in rates] + [doc["no_winner"]["high"]]
    errors = [[v - lo for v, lo in zip(values, lows)], [hi - v for v, hi in zip(values, highs)]]
    written = []

    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(labels) + 2), 4))
    ax.bar(labels, [100 * v for v in values], yerr=[[100 * e for e in side] for side in errors], capsize=6)
    ax.set_ylabel("win rate (%), 95% Wilson interval")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    path = folder / "win_rates.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path)

    with_rounds = doc["rounds"] is not None
    fig, axes = plt.subplots(1, 2 if with_rounds else 1, figsize=(10 if with_rounds else 6, 4), squeeze=False)
    ax = axes[0][0]
    ax.hist([r.decisions for r in records], bins=min(30, max(5, len({r.decisions for r in records}))))
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # games are counted whole
    ax.set_title(title, fontsize=10)
    if with_rounds:
        ax = axes[0][1]
        counts = Counter(r.rounds for r in records if r.rounds is not None)  # (with_rounds: every game has them)
        ax.bar([str(k) for k in sorted(counts)], [counts[k] for k in sorted(counts)])
        ax.set_xlabel(f"final `{ROUND_VAR}`")
        ax.set_ylabel("games")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    path = folder / "lengths.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path)
    return written
