"""What a rule change does to the outcome (`gamedef diff --games N`): the same seeded games
played under the rules before and after, side by side.

A transcript's first differing decision says where a change bites; whether it matters is
a question of many games. Game i of each side is the game `gamedef simulate` (and `gamedef
run --seed S+i`) plays with random players, so both sides see the same seeds, and where
the change does not touch a game the two games are the same game. Win rates carry Wilson
intervals and the length a normal interval of its mean (interpreter/play/simulate.py);
a figure whose two intervals do not overlap is marked, the sign of a real difference
rather than of the seeds drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpreter.play.simulate import GameRecord, Setup, mean_interval, simulate, summarise, wilson
from interpreter.runtime.game import Game

SHOWN_ENDINGS = 8  # endings listed, the most frequent (on either side) first


def outcomes(game: Game, setup: Setup, games: int, seed: int) -> list[GameRecord]:
    """The records of seeds seed..seed+games-1 of `game` as `setup` plays it (in this process)."""
    return simulate(setup, games, seed, jobs=1, game=game)


def _pct(low: float, rate: float, high: float) -> str:
    return f"{rate:.0%} [{low:.0%}, {high:.0%}]"


def _apart(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Two intervals that do not overlap."""
    return a[1] < b[0] or b[1] < a[0]


def _row(name: str, left: str, right: str, apart: bool) -> tuple[str, str, str, str]:
    return (name, left, right, "*" if apart else "")


def compare(before: Sequence[GameRecord], after: Sequence[GameRecord], seats: Sequence[str]) -> dict[str, Any]:
    """The figures of both sides (`summarise` of each) and the rows of the side-by-side table:
    (what, before, after, "*" when the intervals do not overlap)."""
    a, b = summarise(before, seats), summarise(after, seats)
    rows: list[tuple[str, str, str, str]] = []
    for x, y in zip(a["win_rates"], b["win_rates"], strict=True):
        rows.append(
            _row(
                f"{x['seat']} wins",
                _pct(x["low"], x["rate"], x["high"]),
                _pct(y["low"], y["rate"], y["high"]),
                _apart((x["low"], x["high"]), (y["low"], y["high"])),
            )
        )
    x, y = a["no_winner"], b["no_winner"]
    if x["games"] or y["games"]:
        rows.append(
            _row(
                "no winner",
                _pct(x["low"], x["rate"], x["high"]),
                _pct(y["low"], y["rate"], y["high"]),
                _apart((x["low"], x["high"]), (y["low"], y["high"])),
            )
        )
    for what, pick in (("decisions", lambda r: r.decisions), ("rounds", lambda r: r.rounds)):
        xs = [pick(r) for r in before if pick(r) is not None]
        ys = [pick(r) for r in after if pick(r) is not None]
        if not xs or not ys:
            continue
        (m1, l1, h1), (m2, l2, h2) = mean_interval(xs), mean_interval(ys)
        rows.append(
            _row(
                f"{what} (mean)",
                f"{m1:,.1f} [{l1:,.1f}, {h1:,.1f}]",
                f"{m2:,.1f} [{l2:,.1f}, {h2:,.1f}]",
                _apart((l1, h1), (l2, h2)),
            )
        )
    n1, n2 = len(before), len(after)
    c1 = {e["ending"]: e["games"] for e in a["endings"]}
    c2 = {e["ending"]: e["games"] for e in b["endings"]}
    ends = sorted(set(c1) | set(c2), key=lambda e: (-max(c1.get(e, 0), c2.get(e, 0)), e))
    endings = []
    for e in ends[:SHOWN_ENDINGS]:
        w1, w2 = wilson(c1.get(e, 0), n1), wilson(c2.get(e, 0), n2)
        endings.append(
            _row(
                e or "(no key event)",
                _pct(w1[0], c1.get(e, 0) / n1 if n1 else 0.0, w1[1]),
                _pct(w2[0], c2.get(e, 0) / n2 if n2 else 0.0, w2[1]),
                _apart(w1, w2),
            )
        )
    same = sum(1 for r, s in zip(before, after, strict=True) if r == s)
    return {"before": a, "after": b, "rows": rows, "endings": endings, "same_games": same, "more_endings": len(ends)}


def report_lines(doc: dict[str, Any], games: int, seed: int, players: int, before: str, after: str) -> list[str]:
    """The side-by-side table of `compare`'s figures, as text."""
    head = (
        f"outcomes of {games} games by random players, {players} players, seeds {seed}..{seed + games - 1} "
        "(95% intervals; * where they do not overlap):"
    )
    table = [("", before, after, ""), *doc["rows"]]
    if doc["endings"]:
        table.append(("endings (the last key event):", "", "", ""))
        table.extend(("  " + e[0], *e[1:]) for e in doc["endings"])
    w0 = max(len(r[0]) for r in table)
    w1 = max(len(r[1]) for r in table)
    w2 = max(len(r[2]) for r in table)
    lines = [head]
    for name, left, right, mark in table:
        lines.append(f"  {name:<{w0}}  {left:>{w1}}  {right:>{w2}} {mark}".rstrip())
    if doc["more_endings"] > SHOWN_ENDINGS:
        lines.append(f"  ... {doc['more_endings'] - SHOWN_ENDINGS} more endings")
    alike = "ended alike under both rules (winners, length, last key event, cards chosen)"
    lines.append(f"  {doc['same_games']} of {games} games {alike}")
    return lines
