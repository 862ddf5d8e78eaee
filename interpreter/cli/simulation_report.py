"""The words and tables of `gamedef simulate`: the summary `interpreter.play.simulate`
computes, as terminal text (win rates, length, endings, cards) and as CSV rows (one per
game, or one per card).

The figures are all computed in `play/simulate.py` (`summarise`, `document`); this module
only says them, so a tool reading `--json` gets the numbers the text and the CSV show.
`cli/balance_report.py` writes its tables with the helpers here.
"""

from __future__ import annotations

import csv
import re
import textwrap
from collections.abc import Sequence
from typing import IO, Any

from interpreter.play.simulate import GameRecord

TOP_ENDINGS = 10  # endings listed in the text table (JSON has them all)
TOP_CARDS = 15  # cards listed in the text table unless --cards says otherwise (JSON has them all)


def cards_shown(text: str) -> int | None:
    """`--cards N|all`: how many cards the text report lists (None: all of them)."""
    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"expected a number of cards or 'all', not {text!r}") from None
    if value <= 0:
        raise ValueError(f"expected a number above 0 or 'all', not {value}")
    return value


# ---- CSV --------------------------------------------------------------------------------------------
def write_csv(records: Sequence[GameRecord], out: IO[str]) -> None:
    """One row per game: seed, winners (space-separated; empty for none), decisions, rounds
    (empty if the game has no `round`), the ending's group and its line as narrated, and
    each seat's payoff as `seat:value` items, space-separated, in seat order."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seed", "winners", "decisions", "rounds", "ending", "headline", "payoffs"])
    for r in records:
        rounds = "" if r.rounds is None else r.rounds
        paid = " ".join(f"{seat}:{value:g}" for seat, value in r.payoffs)
        writer.writerow([r.seed, " ".join(r.winners), r.decisions, rounds, r.ending, r.headline, paid])


CARD_COLUMNS = [
    "card", "title", "kind", "games", "times", "chosen_by",
    "seat_games", "wins", "rate", "low", "high",
    "others_seat_games", "others_wins", "others_rate", "others_low", "others_high", "difference",
]  # fmt: skip


def write_cards_csv(doc: dict[str, Any], out: IO[str]) -> None:
    """One row per card (`--csv cards`), in the game's order: the columns of the JSON's
    `cards`, flattened; `chosen_by` as `seat:N` items space-separated; a rate with no
    seat-games behind it (a card nobody chose) is empty."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CARD_COLUMNS)
    for c in doc["cards"] or ():
        by = " ".join(f"{s}:{n}" for s, n in c["chosen_by"].items())
        sides = [
            c[side][key] for side in ("chose_it", "others") for key in ("seat_games", "wins", "rate", "low", "high")
        ]
        cells = [c["card"], c["title"], c["kind"], c["games"], c["times"], by, *sides, c["difference"]]
        writer.writerow(["" if v is None else v for v in cells])


# ---- text -------------------------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _num(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.1f}"


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def text_report(doc: dict[str, Any], top_cards: int | None = TOP_CARDS) -> list[str]:
    """The summary as text tables: win rates, length, endings, and cards for a game that has
    them (the `top_cards` with the largest difference either way, or all for None)."""
    n = doc["games"]
    agents = " ".join(f"{s}={k}" for s, k in doc["agents"].items())
    last = doc["first_seed"] + n - 1
    lines = [
        f"{doc['title']}: {n} games, {doc['players']} players, seeds {doc['first_seed']}..{last}, agents {agents}"
        + (f", variants {', '.join(doc['variants'])}" if doc["variants"] else "")
        + (f", options {', '.join(f'{k}={v}' for k, v in doc['options'].items())}" if doc["options"] else ""),
        "",
        "win rates (95% Wilson interval):",
    ]
    titles = doc.get("seat_titles") or {}  # seats as the game writes them ("West", not "west")
    rows = [["seat", "wins", "rate", "95% interval"]]
    for w in doc["win_rates"]:
        seat = titles.get(w["seat"], w["seat"])
        rows.append([seat, _num(w["wins"]), _pct(w["rate"]), f"{_pct(w['low'])} - {_pct(w['high'])}"])
    nw = doc["no_winner"]
    rows.append(["no winner", str(nw["games"]), _pct(nw["rate"]), f"{_pct(nw['low'])} - {_pct(nw['high'])}"])
    lines += _table(rows, {1, 2, 3})
    if doc["shared_wins"]:
        lines.append(f"  ({doc['shared_wins']} shared wins: a win shared by k seats counts 1/k to each)")
    if doc.get("payoffs"):
        lines += [
            "",
            "mean payoff (95% interval; a game without a payoff: +1 shared by winners, -1 by the others):",
        ]
        rows = [["seat", "games", "mean", "95% interval"]]
        for p in doc["payoffs"]:
            seat = titles.get(p["seat"], p["seat"])
            rows.append([seat, str(p["games"]), f"{p['mean']:+.3f}", f"{p['low']:+.3f} - {p['high']:+.3f}"])
        lines += _table(rows, {1, 2, 3})
    lines += ["", "game length:"]
    rows = [["", "mean", "median", "min", "max"]]
    for name, key in (("decisions", "decisions"), ("rounds", "rounds")):
        s = doc[key]
        if s:
            rows.append([name, f"{s['mean']:.1f}", _num(s["median"]), _num(s["min"]), _num(s["max"])])
    lines += _table(rows, {1, 2, 3, 4})
    lines += ["", "how games ended (each game's last key-event line; seats as SEAT, numbers as N):"]
    rows = [["games", "share", "ending", "won by", "for example"]]
    for e in doc["endings"][:TOP_ENDINGS]:
        won = sorted(e["won_by"].items(), key=lambda item: -item[1])
        by = ", ".join(f"{titles.get(seat, seat)} {_num(w)}" for seat, w in won)
        rows.append([str(e["games"]), _pct(e["share"]), e["ending"] or "(no line narrated)", by or "-", e["example"]])
    lines += _table(rows, {0, 1})
    rest = doc["endings"][TOP_ENDINGS:]
    if rest:
        lines.append(f"  ... and {len(rest)} other endings in {sum(e['games'] for e in rest)} games (--json lists all)")
    if doc.get("cards") is not None:
        lines += ["", *_card_lines(doc["cards"], top_cards)]
    return lines


def _words(kind: str) -> str:
    """An entity kind's name as words: `TwidCard` -> "twid card", `NwoSlot` -> "nwo slot"."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", kind).lower()


def _card_lines(cards: list[dict[str, Any]], top: int | None) -> list[str]:
    """The cards' table: the cards chosen at least once, the largest differences first.

    Sorted by the size of the difference whichever its sign, so that the cards that help
    and those that hurt come up together; the intervals say which of them are more than
    the noise of a few games."""
    lines = [
        "cards (a card counts as played by a seat when the seat chose it in a decision): the games it was",
        "chosen in, the times, the seats that chose it (once a game), and their win rate against the",
        "other seats' (95% Wilson intervals):",
    ]
    chosen = [c for c in cards if c["times"]]
    never = [c for c in cards if not c["times"]]
    if not chosen:
        return [*lines, "  no card was chosen in a decision"]
    order = sorted(
        range(len(chosen)),
        key=lambda i: (chosen[i]["difference"] is None, -abs(chosen[i]["difference"] or 0), -chosen[i]["games"], i),
    )
    shown = [chosen[i] for i in order[:top]] if top is not None else [chosen[i] for i in order]
    kinds = len({c["kind"] for c in cards}) > 1  # the kind column only when it tells cards apart
    head = ["card", *(["kind"] if kinds else []), "games", "times", "seats"]
    rows = [[*head, "chose it", "95% interval", "others", "95% interval", "difference"]]
    for c in shown:
        me, others = c["chose_it"], c["others"]
        rows.append(
            [
                c["title"],
                *([_words(c["kind"])] if kinds else []),
                str(c["games"]),
                str(c["times"]),
                str(me["seat_games"]),
                _pct(me["rate"]),
                f"{_pct(me['low'])} - {_pct(me['high'])}",
                "-" if others["rate"] is None else _pct(others["rate"]),
                f"{_pct(others['low'])} - {_pct(others['high'])}",
                "-" if c["difference"] is None else f"{100 * c['difference']:+.1f} pts",
            ]
        )
    first = len(head) - 3
    lines += _table(rows, set(range(first, len(rows[0]))))
    notes = []
    if len(shown) < len(chosen):
        notes.append(
            f"the {len(shown)} of the {len(chosen)} cards chosen with the largest differences either way;"
            " --cards all lists them all"
        )
    if never:
        names = ": " + ", ".join(c["title"] for c in never) if top is None else ""
        notes.append(f"{len(never)} of {len(cards)} cards never chosen{names}")
    for note in notes:
        lines += textwrap.wrap(f"({note})", 100, initial_indent="  ", subsequent_indent="   ")
    return lines
