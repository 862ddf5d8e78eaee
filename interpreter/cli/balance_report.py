"""The words, tables and pages of `gamedef balance`: the report `interpreter.play.balance`
computes, as terminal text and as one self-contained HTML page (its charts inlined, and
written beside it as PNG files when matplotlib is installed).

The figures are all computed in `play/balance.py` and `play/stats.py`; this module only
says them, so a tool reading `--json` gets the same numbers the text and the page show.
"""

from __future__ import annotations

import base64
import html
import math
import textwrap
from pathlib import Path
from typing import Any

from interpreter.cli import charts
from interpreter.cli import simulation_report as simtext
from interpreter.core.errors import UsageError
from interpreter.play import simulate as sim
from interpreter.play.balance import MIN_SEAT_GAMES, TOP_COMPONENTS, TOP_ENDINGS, TOP_SOURCES


def command_line(game: str, doc: dict[str, Any], html_path: Path | None = None) -> str:
    """The `gamedef balance` command that plays the games of `doc` again (the arguments that
    decide the figures, written out in full), printed at the top of the page."""
    import shlex

    parts = ["gamedef", "balance", game, "--players", ",".join(str(s["players"]) for s in doc["counts"])]
    parts += ["--games", str(doc["games"]), "--seed", str(doc["first_seed"])]
    for flag, values in (("--variant", doc["variants"]), ("--agent", doc["agents"])):
        for value in values:
            parts += [flag, value]
    for name, value in doc["options"].items():
        parts += ["--option", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    for kind in doc["components"] or ():
        parts += ["--component", kind]
    if doc.get("against") is not None:
        parts += ["--against", doc["against"]["argument"]]
    if doc.get("score"):
        parts += ["--score", doc["score"]]
    if doc.get("correction", "holm") != "holm":
        parts += ["--correction", doc["correction"]]
    if html_path is not None:
        parts += ["--html", str(html_path)]
    return " ".join(shlex.quote(part) for part in parts)


# ---- text ----------------------------------------------------------------------------------------
_pct = simtext._pct


def _interval(d: dict[str, Any]) -> str:
    return f"{_pct(d['low'])} - {_pct(d['high'])}"


def _header(doc: dict[str, Any]) -> str:
    last = doc["first_seed"] + doc["games"] - 1
    agents = " ".join(doc["agents"]) or "random"
    extra = ""
    if doc["variants"]:
        extra += f", variants {', '.join(doc['variants'])}"
    if doc["options"]:
        extra += f", options {', '.join(f'{k}={v}' for k, v in doc['options'].items())}"
    counts = ", ".join(str(s["players"]) for s in doc["counts"])
    return (
        f"{doc['title']}: balance over {doc['games']} games at each count ({counts} players), "
        f"seeds {doc['first_seed']}..{last}, agents {agents}{extra}"
    )


def seat_table(doc: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Each seat's win rate at each player count (rate and 95% interval), seats in the order
    they first appear: the report's first table, the one to read across counts."""
    counts = [s["players"] for s in doc["counts"]]
    seats: dict[str, str] = {}
    cells: dict[tuple[str, int], str] = {}
    for section in doc["counts"]:
        for w in section["win_rates"]:
            seats.setdefault(w["seat"], section["seat_titles"].get(w["seat"], w["seat"]))
            cells[w["seat"], section["players"]] = f"{_pct(w['rate'])} ({_interval(w)})"
    head = ["seat", *(f"{k} player{'s' if k != 1 else ''}" for k in counts)]
    rows = [[title, *(cells.get((seat, k), "-") for k in counts)] for seat, title in seats.items()]
    rows.append(
        ["no winner", *(f"{_pct(s['no_winner']['rate'])} ({_interval(s['no_winner'])})" for s in doc["counts"])]
    )
    return head, rows


def text_report(doc: dict[str, Any], top: int | None = TOP_COMPONENTS) -> list[str]:
    """The report as text: the seats across counts, then each count's first player, length
    and endings, then the components' tests over every count (the `top` first: the flagged,
    then by adjusted p-value; None for all)."""
    lines = [_header(doc), "", "win rate per seat and player count (95% Wilson interval):"]
    head, rows = seat_table(doc)
    lines += simtext._table([head, *rows], set(range(1, len(head))))
    if doc.get("seat_imbalance") is not None:
        lines += ["", *imbalance_lines(doc["seat_imbalance"])]
    for s in doc["counts"]:
        lines += ["", *_count_lines(s)]
    if doc.get("component_tests") is not None:
        lines += ["", *_component_lines(doc["component_tests"], top)]
    if doc.get("against") is not None:
        lines += ["", *against_lines(doc["against"], doc["counts"], top)]
    return lines


def imbalance_method(imbalance: dict[str, Any]) -> str:
    """How the seat-imbalance alarm reads the seats, in one sentence."""
    m = imbalance["tested"]
    return (
        f"seat imbalance: each seat's share of the games someone won against its fair share (1/players), "
        f"its interval corrected for the {m} seat{'s' if m != 1 else ''} tested together "
        f"({imbalance['method']}, {100 * (1 - imbalance['alpha']):.0f}% for all at once)"
    )


def imbalance_sentence(row: dict[str, Any]) -> str:
    """One seat's alarm: "ALARM: at 4 players Russia wins 70.0% of the decided games (48.1% -
    85.4%, corrected), beyond its fair share of 25.0%: more than its share"."""
    k = row["players"]
    return (
        f"ALARM: at {k} player{'s' if k != 1 else ''} {row['title']} wins {_pct(row['rate'])} of the "
        f"{row['games']} decided games ({_interval(row)}, corrected), beyond its fair share of "
        f"{_pct(row['fair_share'])}: {row['alarm']} than its share"
    )


def imbalance_lines(imbalance: dict[str, Any]) -> list[str]:
    """The seat-imbalance alarm as text: the method, then each seat beyond its corrected
    interval, or a plain sentence that none is."""
    lines = textwrap.wrap(imbalance_method(imbalance) + ":", 110)
    alarms = [row for row in imbalance["seats"] if row["alarm"]]
    if not imbalance["seats"]:
        return [*lines, "  no game had a winner: nothing to compare"]
    for row in alarms:
        lines += textwrap.wrap(imbalance_sentence(row), 110, initial_indent="  ", subsequent_indent="    ")
    if not alarms:
        lines.append(
            "  no alarm: every seat's win rate is within its corrected interval of its fair share "
            "at this number of games"
        )
    return lines


def change_sentence(name: str, c: dict[str, Any], unit: str = "pts", scale: float = 100.0) -> str:
    """One paired difference as a designer reads it: "West +31.0 pts, 95%: +24.0 to +38.0
    (from 40.0% to 71.0%): changed"; a figure that no game changed, "West: no difference
    (40.0% under both)"; one not shown to change, with the smallest change these games
    would have shown."""
    before, after = (
        (_pct(c["before"]), _pct(c["after"])) if unit == "pts" else (f"{c['before']:.1f}", f"{c['after']:.1f}")
    )
    if c["verdict"] == "no difference":
        return f"{name}: no difference ({before} under both, in every game)"
    if not math.isfinite(c["low"]):
        span = "no interval (one game)"
    else:
        span = f"95%: {scale * c['low']:+.1f} to {scale * c['high']:+.1f}"
    verdict = c["verdict"]
    if verdict == "no change shown" and math.isfinite(c.get("detectable", math.inf)):
        verdict += f" (a change of {scale * c['detectable']:.1f} {unit} would show 4 times in 5)"
    return f"{name} {scale * c['difference']:+.1f} {unit}, {span} (from {before} to {after}): {verdict}"


def _more(name: str, c: dict[str, Any], more: str, less: str, unit: str = "pts", scale: float = 100.0) -> str:
    return f"{name} {more if c['difference'] > 0 else less} ({scale * c['difference']:+.1f} {unit})"


def against_verdict(a: dict[str, Any], titles: dict[str, str]) -> list[str]:
    """The comparison's verdict in plain words, first: no difference at all (every game
    ended alike), or what changed (the seats that win more or less, the length, the
    endings, and each component whose rules the change touched, named), or that nothing
    was shown to change, with the smallest change in a seat's win rate these games would
    have shown."""
    if a["same_everywhere"]:
        return [
            "verdict: no difference: every game ended alike under both rules (winners, length, last key event, "
            "cards chosen), so the change never altered a game on these seeds"
        ]
    parts = []
    multi = len(a["counts"]) > 1
    for c in a["counts"]:
        k = c["players"]
        at = f" at {k} players" if multi else ""
        for seat, change in c["seats"].items():
            if change["verdict"] == "changed":
                parts.append(_more(f"{titles.get(seat, seat)} wins", change, "more", "less") + at)
        if c["no_winner"]["verdict"] == "changed":
            parts.append(_more("games without a winner", c["no_winner"], "more often", "less often") + at)
        if c["decisions"]["verdict"] == "changed":
            parts.append(_more("games", c["decisions"], "longer", "shorter", "decisions", 1.0) + at)
        for e in c["endings"]:
            if e["verdict"] == "changed":
                parts.append(_more(f"'{e['ending'] or '(no line narrated)'}'", e, "more often", "less often") + at)
    for r in a.get("changed_components", ()):
        if r["verdict"] == "changed":
            parts.append(
                _more(f"{r['title']} (its rules changed) wins", r, "more", "less") + " for the seat that plays it"
            )
    if parts:
        return textwrap.wrap("verdict: " + "; ".join(parts), 110, subsequent_indent="  ")
    seats = [change for c in a["counts"] for change in c["seats"].values() if math.isfinite(change["detectable"])]
    if not seats:
        return ["verdict: too few games to tell"]
    smallest = 100 * max(change["detectable"] for change in seats)
    return textwrap.wrap(
        "verdict: no change shown at this number of games (some games ended otherwise, but no figure beyond "
        f"chance); a change of {smallest:.1f} pts in a seat's win rate would have shown 4 times in 5",
        110,
        subsequent_indent="  ",
    )


def rules_sentence(a: dict[str, Any]) -> str:
    """What differs in the rules, declaration by declaration, with each one's first citation:
    "what differs in the rules: procedure check_victory changed ("1. Goal ..."), def goal_of
    added"; or that nothing does as written (then every difference is the seeds')."""
    rules = a.get("changed_rules")
    if rules is None:
        return ""
    if not rules:
        return "what differs in the rules: nothing, declaration by declaration (wherever each is written)"
    parts = [
        f"{r['kind']} {r['name']} {r['change']}" + (f" (\u201c{r['rule']}\u201d)" if r["rule"] else "") for r in rules
    ]
    return "what differs in the rules: " + "; ".join(parts)


def against_lines(a: dict[str, Any], sections: list[dict[str, Any]], top: int | None) -> list[str]:
    """The changed rules against their base: the verdict in plain words, then per count each
    seat's win, no winner, the length and the endings as paired differences with a
    verdict; then the components whose rules changed, tested on the paired games, and the
    components whose effect changed the most."""
    titles = {seat: title for s in sections for seat, title in s["seat_titles"].items()}
    lines = [f"against {a['base']}:", *["  " + line for line in against_verdict(a, titles)]]
    lines += textwrap.wrap(rules_sentence(a), 110, initial_indent="  ", subsequent_indent="    ")
    lines += textwrap.wrap(a["method"], 110, initial_indent="  ", subsequent_indent="  ")
    for c in a["counts"]:
        k = c["players"]
        lines.append(
            f"  {k} player{'s' if k != 1 else ''} ({c['games']} games on the same seeds; "
            f"{c['same_games']} ended alike):"
        )
        for seat, change in c["seats"].items():
            lines.append("    " + change_sentence(titles.get(seat, seat), change))
        if c["no_winner"]["before"] or c["no_winner"]["after"]:
            lines.append("    " + change_sentence("no winner", c["no_winner"]))
        lines.append("    " + change_sentence("length", c["decisions"], "decisions", 1.0))
        if c["rounds"] is not None:
            lines.append("    " + change_sentence("final round", c["rounds"], "rounds", 1.0))
        for e in c["endings"][:TOP_ENDINGS]:
            lines.append("    " + change_sentence(f"ending '{e['ending'] or '(no line narrated)'}'", e))
    touched = a.get("changed_components", ())
    if touched:
        lines += textwrap.wrap(
            "components whose rules changed, on the paired games (in each seat-game in which the seat played it "
            "under either rules, its win under the changed rules minus under the base's):",
            110,
            initial_indent="  ",
            subsequent_indent="  ",
        )
        for r in touched:
            if r["verdict"] == "never played":
                lines.append(f"    {r['title']}: never played")
            else:
                games = f"{r['title']} ({r['seat_games']} seat-games, {r['differ']} differ)"
                lines.append("    " + change_sentence(games, r))
    changes = [r for r in a["components"] if r["only_in"] is not None or r["difference"] is not None]
    if changes:
        lines.append("  components (each one's effect under both rules; the change with its 95% interval):")
        shown = changes if top is None else changes[:top]
        rows = [["component", "base", "changed", "change", "95% interval", ""]]
        for r in shown:
            rows.append(
                [
                    r["title"],
                    "-" if r["before"] is None else _points(r["before"]),
                    "-" if r["after"] is None else _points(r["after"]),
                    "-" if r["difference"] is None else _points(r["difference"]),
                    "-" if r["low"] is None else f"{_points(r['low'])} to {_points(r['high'])}",
                    f"only in the {r['only_in']} rules" if r["only_in"] else r["verdict"],
                ]
            )
        lines += ["  " + line for line in simtext._table(rows, {1, 2, 3, 4})]
    return lines


def first_player_sentence(fp: dict[str, Any], titles: dict[str, str]) -> str:
    """The first player in one sentence: who moved first, the raw rate against the fair
    share, and the effect within seat, or why it cannot be measured."""
    movers = ", ".join(f"{titles.get(seat, seat)} {n}" for seat, n in fp["first_seats"].items())
    text = (
        f"first player (moved first: {movers}): wins {_pct(fp['rate'])} ({_interval(fp)}) against a fair "
        f"share of {_pct(fp['fair_share'])}, {100 * fp['advantage']:+.1f} pts"
    )
    within = fp.get("within_seat")
    if within is not None:
        text += (
            f"; within seat (each seat against itself when it did not move first): {_points(within['effect'])}, "
            f"95%: {_points(within['low'])} to {_points(within['high'])}"
        )
    return f"{text}: {fp['reading']}"


def _points(x: float) -> str:
    return f"{100 * x:+.1f} pts"


def _count_lines(s: dict[str, Any]) -> list[str]:
    titles = s["seat_titles"]
    k = s["players"]
    agents = " ".join(f"{seat}={kind}" for seat, kind in s["agents"].items())
    lines = [f"== {k} player{'s' if k != 1 else ''} ({s['games']} games, agents {agents}, {s['seconds']}s)"]
    fp = s["first_player"]
    if fp:
        lines += textwrap.wrap(first_player_sentence(fp, titles), 110, subsequent_indent="  ")
    d = s["decisions"]
    length = f"game length: {d['mean']:.1f} decisions (median {simtext._num(d['median'])}, {d['min']}-{d['max']})"
    if s["rounds"]:
        r = s["rounds"]
        length += f"; final round {r['mean']:.1f} (median {simtext._num(r['median'])}, {r['min']}-{r['max']})"
    lines.append(length)
    lines.append("how games ended:")
    rows = [["games", "share", "ending", "won by"]]
    for e in s["endings"][:TOP_ENDINGS]:
        won = sorted(e["won_by"].items(), key=lambda item: -item[1])
        by = ", ".join(f"{titles.get(seat, seat)} {simtext._num(w)}" for seat, w in won) or "-"
        rows.append([str(e["games"]), _pct(e["share"]), e["ending"] or "(no line narrated)", by])
    lines += simtext._table(rows, {0, 1})
    if len(s["endings"]) > TOP_ENDINGS:
        lines.append(f"  ... and {len(s['endings']) - TOP_ENDINGS} other endings (the HTML and --json list all)")
    if s.get("why"):
        lines += why_lines(s["why"], titles)
    return lines


def why_lines(why: dict[str, Any], titles: dict[str, str], top: int | None = TOP_SOURCES) -> list[str]:
    """Why a seat wins: the mean score per seat at the end of each round, the lead changes,
    and each seat's points by source (card or rule), the largest first."""
    seats = why["seats"]
    lines = ["why a seat wins:"]
    if why["rounds"]:
        rows = [["round", "games", *(titles.get(seat, seat) for seat in seats)]]
        for r in why["rounds"]:
            rows.append([str(r["round"]), str(r["games"]), *(f"{r['mean'][seat]:.1f}" for seat in seats)])
        lines.append("  mean score at the end of each round (over the games that reached it):")
        lines += ["  " + line for line in simtext._table(rows, set(range(len(rows[0]))))]
    lc = why["lead_changes"]
    lines.append(
        f"  the lead changed hands {lc['mean']:.2f} times a game (95%: {lc['low']:.2f} to {lc['high']:.2f}); "
        f"never in {_pct(lc['never'])} of the games"
    )
    for seat in seats:
        got = why["sources"].get(seat)
        if not got or not got["points"]:
            continue
        shown = got["sources"] if top is None else got["sources"][:top]
        parts = ", ".join(f"{x['title']} {_pct(x['share'])}" for x in shown)
        more = len(got["sources"]) - len(shown)
        lines += textwrap.wrap(
            f"{titles.get(seat, seat)}'s points ({got['per_game']:.1f} gained a game) by source: {parts}"
            + (f", and {more} other sources" if more > 0 else ""),
            110,
            initial_indent="  ",
            subsequent_indent="    ",
        )
    return lines


def method_sentence(tests: dict[str, Any]) -> str:
    """How the components were tested, in one sentence: the report says it, so a reader
    knows what a flag means."""
    return (
        f"each component's effect on the win rate of the seat that chose it in a decision, within {tests['strata']} "
        f"({tests['effect']}); test: {tests['test']}; {tests['tested']} tested, p-values adjusted by "
        f"{tests['correction']}, flagged below {tests['alpha']:g}: {tests['flagged']} flagged"
        + (
            f"; at this number of games a component is flagged 4 times in 5 when its effect is about "
            f"{100 * tests['detectable_median']:.0f} pts or more (the median of those tested; more games, less)"
            if tests.get("detectable_median") is not None
            else ""
        )
    )


def _p(x: float | None) -> str:
    return "-" if x is None else (f"{x:.2g}" if x >= 0.001 else f"{x:.1e}")


def _component_lines(tests: dict[str, Any], top: int | None) -> list[str]:
    lines = ["components:", *textwrap.wrap(method_sentence(tests), 110, initial_indent="  ", subsequent_indent="  ")]
    chosen = [c for c in tests["components"] if c["times"]]
    if not chosen:
        return [*lines, "  none was chosen in a decision"]
    shown = chosen if top is None else chosen[:top]
    rows = [["component", "games", "times", "effect", "95% interval", "p", "adjusted p", "verdict"]]
    for c in shown:
        interval = "-" if c["low"] is None else f"{_points(c['low'])} to {_points(c['high'])}"
        rows.append(
            [
                c["title"],
                str(c["games"]),
                str(c["times"]),
                "-" if c["effect"] is None else _points(c["effect"]),
                interval,
                _p(c["p"]),
                _p(c["p_adjusted"]),
                ("! " if c["verdict"] in ("higher", "lower") else "") + c["verdict"],
            ]
        )
    lines += simtext._table(rows, {1, 2, 3, 4, 5, 6})
    never = sum(1 for c in tests["components"] if not c["times"])
    notes = f"  ({len(shown)} of {len(chosen)} chosen, the flagged first, then by adjusted p"
    lines.append(notes + (f"; {never} never chosen)" if never else ")"))
    return lines


# ---- HTML ----------------------------------------------------------------------------------------
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.92em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.7em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th { background: #f3f3f3; }
.warn { color: #a35a00; }
.higher { color: #1a7f37; font-weight: 600; }
.lower { color: #b42318; font-weight: 600; }
.bar { display: inline-block; height: 0.8em; background: #4a78c2; vertical-align: middle; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.3em 0; }
code { background: #f5f5f5; padding: 0 0.2em; }
"""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _html_table(head: list[str], rows: list[list[str]], numeric: set[int], raw: bool = False) -> str:
    """A table; cells are escaped unless `raw` (then the caller has escaped them)."""
    out = ["<table>", "<tr>" + "".join(f"<th>{_esc(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            text = cell if raw else _esc(cell)
            cells.append(f'<td class="n">{text}</td>' if i in numeric else f"<td>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def html_report(doc: dict[str, Any], command: str = "", images: dict[int, list[Path]] | None = None) -> str:
    """The report as one HTML page: every figure of the text report, every component and
    ending (not only the top ones), and the charts inlined as data, so the page is one file
    to send or publish. `command` is printed at its top, to make it again."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_esc(doc['title'])}: balance report</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{_esc(doc['title'])}: balance report</h1>",
        f"<p>{_esc(_header(doc))}.</p>",
    ]
    if command:
        parts.append(f"<p>Made with <code>{_esc(command)}</code></p>")
    parts.append(
        "<p>Every rate is a share of games with its 95% Wilson interval; a win shared by <i>k</i> seats counts "
        "1/<i>k</i> to each. A component counts as played by a seat when the seat chose it in a decision. "
        "A component is flagged only when its test, corrected for the number of components tested, says so; "
        f"<span class='warn'>too few games to tell</span> marks one with fewer than {MIN_SEAT_GAMES} seat-games "
        "on either side.</p>"
    )
    head, rows = seat_table(doc)
    parts += ["<h2>Win rate per seat and player count</h2>", _html_table(head, rows, set(range(1, len(head))))]
    if doc.get("seat_imbalance") is not None:
        parts.append(_html_imbalance(doc["seat_imbalance"]))
    for s in doc["counts"]:
        parts.append(_html_count(s, (images or {}).get(s["players"], [])))
    if doc.get("component_tests") is not None:
        parts.append(_html_tests(doc["component_tests"]))
    if doc.get("against") is not None:
        lines = against_lines(doc["against"], doc["counts"], None)
        parts += [f"<h2>{_esc(lines[0][:-1].capitalize())}</h2>", f"<pre>{_esc(chr(10).join(lines[1:]))}</pre>"]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _html_imbalance(imbalance: dict[str, Any]) -> str:
    """The seat-imbalance alarm on the page: the method, each alarm in the warning's colour,
    and every seat's corrected interval in a table."""
    parts = [f"<p><b>{_esc(imbalance_method(imbalance).capitalize())}.</b></p>"]
    alarms = [row for row in imbalance["seats"] if row["alarm"]]
    for row in alarms:
        parts.append(f"<p class='warn'><b>{_esc(imbalance_sentence(row))}.</b></p>")
    if imbalance["seats"] and not alarms:
        parts.append("<p>No alarm: every seat's win rate is within its corrected interval of its fair share.</p>")
    rows = [
        [
            str(row["players"]),
            _esc(row["title"]),
            _esc(simtext._num(row["wins"])),
            str(row["games"]),
            _esc(_pct(row["rate"])),
            _esc(_interval(row)),
            _esc(_pct(row["fair_share"])),
            _esc(f"{row['alarm']} than its share" if row["alarm"] else "-"),
        ]
        for row in imbalance["seats"]
    ]
    head = ["players", "seat", "wins", "decided games", "rate", "corrected interval", "fair share", "alarm"]
    parts.append(_html_table(head, rows, {0, 2, 3, 4, 5, 6}, raw=True))
    return "\n".join(parts)


def _html_count(s: dict[str, Any], images: list[Path]) -> str:
    titles = s["seat_titles"]
    k = s["players"]
    agents = ", ".join(f"{titles.get(seat, seat)}: {kind}" for seat, kind in s["agents"].items())
    parts = [
        f"<h2>{k} player{'s' if k != 1 else ''}</h2>",
        f"<p>{s['games']} games in {s['seconds']} s; agents {_esc(agents)}.</p>",
    ]
    rows = []
    for w in s["win_rates"]:
        bar = f"<span class='bar' style='width:{200 * w['rate']:.0f}px'></span>"
        rows.append(
            [
                _esc(titles.get(w["seat"], w["seat"])),
                _esc(simtext._num(w["wins"])),
                _esc(_pct(w["rate"])),
                _esc(_interval(w)),
                bar,
            ]
        )
    nw = s["no_winner"]
    rows.append(["no winner", str(nw["games"]), _esc(_pct(nw["rate"])), _esc(_interval(nw)), ""])
    parts.append(_html_table(["seat", "wins", "rate", "95% interval", ""], rows, {1, 2, 3}, raw=True))
    fp = s["first_player"]
    if fp:
        sentence = first_player_sentence(fp, titles)
        parts.append(f"<p><b>First player</b> ({_esc(fp['method'])}): {_esc(sentence)}.</p>")
    if s["payoffs"]:
        rows = [
            [
                titles.get(p["seat"], p["seat"]),
                str(p["games"]),
                f"{p['mean']:+.3f}",
                f"{p['low']:+.3f} - {p['high']:+.3f}",
            ]
            for p in s["payoffs"]
        ]
        parts += ["<h3>Mean payoff</h3>", _html_table(["seat", "games", "mean", "95% interval"], rows, {1, 2, 3})]
    rows = []
    for name, key in (("decisions", "decisions"), ("final round", "rounds")):
        d = s[key]
        if d:
            rows.append(
                [name, f"{d['mean']:.1f}", simtext._num(d["median"]), simtext._num(d["min"]), simtext._num(d["max"])]
            )
    parts += ["<h3>Game length</h3>", _html_table(["", "mean", "median", "min", "max"], rows, {1, 2, 3, 4})]
    rows = []
    for e in s["endings"]:
        won = sorted(e["won_by"].items(), key=lambda item: -item[1])
        by = ", ".join(f"{titles.get(seat, seat)} {simtext._num(w)}" for seat, w in won) or "-"
        rows.append([str(e["games"]), _pct(e["share"]), e["ending"] or "(no line narrated)", by, e["example"]])
    parts += [
        "<h3>How games ended</h3>",
        _html_table(["games", "share", "ending", "won by", "for example"], rows, {0, 1}),
    ]
    if s.get("why"):
        parts += [
            "<h3>Why a seat wins</h3>",
            f"<pre>{_esc(chr(10).join(line[2:] for line in why_lines(s['why'], titles, None)[1:]))}</pre>",
        ]
    if s["cards"] is not None:
        parts.append(_html_components(s["cards"], titles))
    for path in images:
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        parts.append(f'<p><img alt="{_esc(path.stem)}" src="data:image/png;base64,{data}"></p>')
    return "\n".join(parts)


def _by_seat(c: dict[str, Any], titles: dict[str, str]) -> str:
    """Each seat that chose the component, set against itself: its win rate in the games it
    chose it and in the others (escaped). Free of the bias of a card one side plays more."""
    parts = []
    for seat, sides in c["by_seat"].items():
        me, other = sides["chose_it"], sides["did_not"]
        if not me["seat_games"]:
            continue
        without = "-" if other["rate"] is None else _pct(other["rate"])
        parts.append(
            f"{titles.get(seat, seat)} {_pct(me['rate'])} of {me['seat_games']} / {without} of {other['seat_games']}"
        )
    return _esc("; ".join(parts))


def _html_components(cards: list[dict[str, Any]], titles: dict[str, str]) -> str:
    chosen = sorted(
        (c for c in cards if c["times"]),
        key=lambda c: (c["difference"] is None, -abs(c["difference"] or 0), -c["games"]),
    )
    rows = []
    for c in chosen:
        me, others = c["chose_it"], c["others"]
        rows.append(
            [
                _esc(c["title"]),
                _esc(c["kind"]),
                f"{c['games']} ({_esc(_pct(c['share_of_games']))})",
                str(c["times"]),
                _esc(_pct(me["rate"])),
                _esc(_interval(me)),
                "-" if others["rate"] is None else _esc(_pct(others["rate"])),
                _esc(_interval(others)),
                "-" if c["difference"] is None else f"{100 * c['difference']:+.1f}",
                _by_seat(c, titles),
            ]
        )
    never = [c["title"] for c in cards if not c["times"]]
    head = ["component", "kind", "games", "times", "chose it", "95% interval", "others", "95% interval", "pts"]
    head.append("each seat that chose it: its win rate with it / without it")
    out = [
        "<h3>Components</h3>",
        "<p>How often each was played (chosen in a decision: the games, with their share, and the times), and the "
        "win rate of the seats that played it against all the other seat-games: description, not a test (a "
        "card a strong seat plays more takes on its rate); the tests are at the end of the report.</p>",
        _html_table(head, rows, {2, 3, 4, 5, 6, 7, 8}, raw=True),
    ]
    if never:
        out.append(f"<p>Never chosen: {_esc(', '.join(never))}.</p>")
    return "\n".join(out)


def _html_tests(tests: dict[str, Any]) -> str:
    """The components' tests over every count, flagged first."""
    rows = []
    for c in tests["components"]:
        if not c["times"]:
            continue
        style = c["verdict"] if c["verdict"] in ("higher", "lower") else ("warn" if c["p"] is None else "")
        interval = "-" if c["low"] is None else f"{_points(c['low'])} to {_points(c['high'])}"
        rows.append(
            [
                _esc(c["title"]),
                _esc(c["kind"]),
                str(c["games"]),
                str(c["times"]),
                "-" if c["effect"] is None else _esc(_points(c["effect"])),
                _esc(interval),
                _esc(_p(c["p"])),
                _esc(_p(c["p_adjusted"])),
                f"<span class='{style}'>{_esc(c['verdict'])}</span>",
            ]
        )
    head = ["component", "kind", "games", "times", "effect", "95% interval", "p", "adjusted p", "verdict"]
    return "\n".join(
        [
            "<h2>Components: tested within seat and player count</h2>",
            f"<p>{_esc(method_sentence(tests)[0].upper() + method_sentence(tests)[1:])}.</p>",
            _html_table(head, rows, {2, 3, 4, 5, 6, 7}, raw=True),
        ]
    )


def html_target(path: Path) -> Path:
    """Check the `--html` path before any game is played: a folder that exists, a name
    that is not a folder, so a mistake is said at once and not after an hour of games."""
    if path.is_dir():
        raise UsageError(f"--html {path}: that is a folder", "give the name of the page to write, e.g. report.html")
    if not path.parent.is_dir():
        raise UsageError(f"--html {path}: no folder {path.parent}", "make the folder first, or give another path")
    return path


def write_html(
    doc: dict[str, Any], by_count: dict[int, list[sim.GameRecord]], path: Path, command: str = ""
) -> list[Path]:
    """Write the page at `path`, and when matplotlib is installed each count's charts beside
    it (`NAME-Np-win_rates.png`, `NAME-Np-lengths.png`), inlined in the page as well.
    Returns the files written, the page first."""
    images: dict[int, list[Path]] = {}
    written = [path]
    try:
        import matplotlib  # noqa: F401

        plots = True
    except ImportError:
        plots = False
    if plots:
        import tempfile

        for s in doc["counts"]:
            k = s["players"]
            chart = {**s, "title": doc["title"]}
            with tempfile.TemporaryDirectory() as tmp:
                made = charts.plot(chart, by_count[k], Path(tmp))
                images[k] = []
                for made_path in made:
                    target = path.with_name(f"{path.stem}-{k}p-{made_path.name}")
                    target.write_bytes(made_path.read_bytes())
                    images[k].append(target)
        written += [p for k in sorted(images) for p in images[k]]
    try:
        path.write_text(html_report(doc, command, images), encoding="utf-8")
    except OSError as err:
        raise UsageError(f"--html {path}: cannot write it ({err.strerror})", "give a path you may write") from None
    return written


# ---- sweeps ------------------------------------------------------------------------------------
def sweep_lines(doc: dict[str, Any]) -> list[str]:
    """A sweep as text: per player count, one row per value with each seat's win rate and
    95% interval, `fair` where every seat's interval holds its fair share, then the fair
    values in one line."""
    what = "option" if doc["kind"] == "option" else "def"
    last = doc["first_seed"] + doc["games"] - 1
    lines = [
        f"{doc['title']}: {what} {doc['name']} from {doc['values'][0]} to {doc['values'][-1]}, "
        f"{doc['games']} games at each value and count, seeds {doc['first_seed']}..{last}",
        "win rate per seat (95% Wilson interval); fair: every seat's interval holds its fair share (1/players)",
    ]
    counts = [c["players"] for c in doc["points"][0]["counts"]]
    for k in counts:
        rows: list[list[str]] = []
        for point in doc["points"]:
            c = next(c for c in point["counts"] if c["players"] == k)
            if not rows:
                titles = [c["seat_titles"].get(w["seat"], w["seat"]) for w in c["win_rates"]]
                rows.append([doc["name"], *titles, "no winner", "length", ""])
            cells = [f"{_pct(w['rate'])} ({_interval(w)})" for w in c["win_rates"]]
            length = "-" if c["decisions"] is None else f"{c['decisions']:.1f}"
            rows.append(
                [str(point["value"]), *cells, _pct(c["no_winner"]["rate"]), length, "fair" if c["fair"] else ""]
            )
        lines += ["", f"{k} player{'s' if k != 1 else ''}:", *simtext._table(rows, set(range(0, len(rows[0]) - 1)))]
        fair = doc["fair_values"][str(k)]
        lines.append(
            f"  fair at {doc['name']} = {', '.join(map(str, fair))}"
            if fair
            else f"  fair at no value from {doc['values'][0]} to {doc['values'][-1]}"
        )
    return lines


def sweep_chart(doc: dict[str, Any], path: Path) -> list[Path]:
    """One PNG per player count beside `path` (`NAME-Np-sweep.png`): each seat's win rate
    against the value, with its interval as an error bar, the fair share as a line and the
    fair values shaded. Empty without matplotlib (the optional `plot` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    written = []
    values = doc["values"]
    counts = [c["players"] for c in doc["points"][0]["counts"]]
    for k in counts:
        at = [next(c for c in p["counts"] if c["players"] == k) for p in doc["points"]]
        fig, ax = plt.subplots(figsize=(7, 4))
        for i, w in enumerate(at[0]["win_rates"]):
            seat = w["seat"]
            rates = [100 * c["win_rates"][i]["rate"] for c in at]
            lows = [r - 100 * c["win_rates"][i]["low"] for r, c in zip(rates, at)]
            highs = [100 * c["win_rates"][i]["high"] - r for r, c in zip(rates, at)]
            label = at[0]["seat_titles"].get(seat, seat)
            ax.errorbar(values, rates, yerr=[lows, highs], marker="o", capsize=4, label=label)
        ax.axhline(100 / k, color="grey", linestyle="--", linewidth=1, label="fair share")
        for value, c in zip(values, at):
            if c["fair"]:
                ax.axvspan(value - 0.5, value + 0.5, color="#1a7f37", alpha=0.12, linewidth=0)
        ax.set_xlabel(f"{doc['name']} (shaded: fair)")
        ax.set_ylabel("win rate (%), 95% Wilson interval")
        ax.set_ylim(0, 100)
        ax.set_title(f"{doc['title']}, {k} players, {doc['games']} games a value", fontsize=10)
        ax.legend(fontsize=8)
        fig.tight_layout()
        target = path.with_name(f"{path.stem}-{k}p-sweep.png")
        fig.savefig(target, dpi=100)
        plt.close(fig)
        written.append(target)
    return written


def write_sweep_html(doc: dict[str, Any], path: Path) -> list[Path]:
    """The sweep as one page: its table per count and, with matplotlib, its charts inlined
    (and written beside it); without matplotlib, a note that says how to get them."""
    images = sweep_chart(doc, path)
    lines = sweep_lines(doc)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_esc(doc['title'])}: sweep of {_esc(doc['name'])}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{_esc(doc['title'])}: sweep of {_esc(doc['name'])}</h1>",
        f"<pre>{_esc(chr(10).join(lines))}</pre>",
    ]
    for image in images:
        data = base64.b64encode(image.read_bytes()).decode("ascii")
        parts.append(f'<p><img alt="{_esc(image.stem)}" src="data:image/png;base64,{data}"></p>')
    if not images:
        parts.append('<p class="warn">No chart: matplotlib is not installed (pip install "gamedef[plot]").</p>')
    parts.append("</body></html>")
    try:
        path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    except OSError as err:
        raise UsageError(f"--html {path}: cannot write it ({err.strerror})", "give a path you may write") from None
    return [path, *images]
