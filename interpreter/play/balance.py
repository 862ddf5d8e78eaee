"""`gamedef balance`: the balance report a designer acts on, across seats and player counts.

`gamedef simulate` answers one question at one player count; a designer asking "is my game
fair, and is my new card too strong?" needs the same games at every count the game allows,
the seat that moves first set against its fair share, and each card (or any component the
designer names) set against the games without it, each figure with its interval and a plain
warning where the games are too few to tell. This module plays those games with
`simulate`'s machinery (the same seeds, the same records, so the same figures on one
process, with `--jobs N` or on Ray) and writes the report: as terminal text, as JSON, and as
one self-contained HTML page (its charts inlined, and written beside it as PNG files when
matplotlib is installed).

Nothing here knows a game: seats, counts and components come from the game's declarations,
and every figure from the records `simulate.play_game` keeps.
"""

from __future__ import annotations

import base64
import html
import json
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from interpreter.core.errors import UsageError, did_you_mean
from interpreter.play import simulate as sim
from interpreter.runtime.game import Game

MIN_SEAT_GAMES = 10  # below this many seat-games on either side, a component's rate is not read at all
TOP_COMPONENTS = 15  # components listed in the text report (the JSON and the HTML have them all)
TOP_ENDINGS = 6  # endings listed per player count in the text report
MAX_KEEP_BYTES = 512 * 1024 * 1024  # a --keep file past this is refused: it is read whole into records

Watch = Callable[[int, int], AbstractContextManager[Callable[[], None]]]


def _no_watch(total: int, players: int) -> AbstractContextManager[Callable[[], None]]:
    return nullcontext(lambda: None)


# ---- the arguments -------------------------------------------------------------------------------
def parse_counts(text: str) -> list[int]:
    """`--players 2,4` (or `2-4`, or `3`): the player counts, each once, in increasing order."""
    import argparse

    counts: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            first, last = (int(low), int(high)) if dash else (int(part), int(part))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected player counts such as 2,4 or 2-4, not {text!r}") from None
        if first < 1 or last < first or last - first > 100:
            raise argparse.ArgumentTypeError(f"expected player counts such as 2,4 or 2-4, not {text!r}")
        counts.update(range(first, last + 1))
    return sorted(counts)


def game_counts(game: Game, wanted: Sequence[int] | None) -> list[int]:
    """The player counts to play: `wanted`, each checked against the game's range, or every
    count the game allows."""
    h = game.header
    if not wanted:
        return list(range(h.min_players, h.max_players + 1))
    for count in wanted:
        if not h.min_players <= count <= h.max_players:
            allowed = f"{h.min_players}" if h.min_players == h.max_players else f"{h.min_players} to {h.max_players}"
            raise UsageError(
                f"--players {count}: {h.title} is for {allowed} players",
                f"give counts from {allowed}, for example --players {h.min_players},{h.max_players}",
            )
    return list(wanted)


def check_components(game: Game, kinds: Sequence[str]) -> None:
    """Refuse a `--component KIND` the game does not declare, naming the kinds it does."""
    types = game.compiled.types
    for kind in kinds:
        if kind not in types or kind == "player" or not types[kind]:
            named = sorted(k for k, members in types.items() if members and k != "player")
            raise UsageError(
                f"--component {kind}: {game.header.title} has no kind of component named '{kind}'",
                did_you_mean(kind, named) or "kinds: " + ", ".join(named),
            )


def seat_agents(game: Game, seats: tuple[str, ...], items: Sequence[str]) -> list[str]:
    """The `--agent` items for one player count, as `simulate` takes them: `KIND` alone sets
    every seat (applied first), `SEAT=KIND` one seat, kept only where that seat plays (a
    two-player game has no `us`). A seat named that plays at no count is refused by the caller."""
    from interpreter.play.agents import resolve_seat

    out = [f"{seat}={item}" for item in items if "=" not in item for seat in seats]
    for item in items:
        if "=" in item:
            name, kind = item.split("=", 1)
            try:
                out.append(f"{resolve_seat(game, name, seats, '--agent')}={kind}")
            except UsageError:
                continue
    return out


def check_agent_seats(game: Game, counts: Sequence[int], items: Sequence[str]) -> None:
    """A `SEAT=KIND` whose seat plays at none of the counts is a mistake, said as `--agent` says it."""
    from interpreter.play.agents import resolve_seat

    everyone = tuple(dict.fromkeys(s for count in counts for s in game.seats_for(count)))
    for item in items:
        if "=" in item:
            resolve_seat(game, item.split("=", 1)[0], everyone, "--agent")


# ---- the figures ---------------------------------------------------------------------------------
def verdict(chose: dict[str, Any], others: dict[str, Any]) -> str:
    """What a component's two win rates allow a designer to say: `higher` or `lower` when
    the two 95% intervals are apart, else `too few games to tell` (the intervals overlap, or
    a side has fewer than MIN_SEAT_GAMES seat-games, too few for its rate to mean much)."""
    if chose["seat_games"] < MIN_SEAT_GAMES or others["seat_games"] < MIN_SEAT_GAMES:
        return "too few games to tell"
    if chose["low"] > others["high"]:
        return "higher"
    if chose["high"] < others["low"]:
        return "lower"
    return "too few games to tell"


def first_player(records: Sequence[sim.Record], players: int) -> dict[str, Any] | None:
    """The seat that moved first in each game against its fair share (1/players): its win
    rate (a shared win counted as a share) with a Wilson interval, and which seats moved
    first. None for a one-player game, which has nobody to be ahead of."""
    if players < 2 or not records:
        return None
    n = len(records)
    wins = sum(1 / len(r.winners) for r in records if r.first in r.winners)
    low, high = sim.wilson(wins, n)
    fair = 1 / players
    if low > fair:
        reading = "the first player wins more than its share"
    elif high < fair:
        reading = "the first player wins less than its share"
    else:
        reading = "no measurable first-player advantage at this number of games"
    movers = Counter(r.first for r in records)
    return {
        "games": n,
        "wins": wins,
        "rate": wins / n,
        "low": low,
        "high": high,
        "fair_share": fair,
        "advantage": wins / n - fair,
        "reading": reading,
        "first_seats": dict(movers.most_common()),
    }


def count_section(
    game: Game, setup: sim.Setup, records: Sequence[sim.Record], seats: tuple[str, ...], agents: dict[str, str]
) -> dict[str, Any]:
    """One player count's figures: `simulate`'s summary (win rates, payoffs, length,
    endings, the components' table, each with a verdict) and the first player's advantage."""
    catalogue = sim.component_catalogue(game, setup.components)
    summary = sim.summarise(records, seats, catalogue)
    for c in summary["cards"] or ():
        c["verdict"] = verdict(c["chose_it"], c["others"]) if c["times"] else "never chosen"
        c["share_of_games"] = c["games"] / len(records) if records else 0.0
    return {
        "players": len(seats),
        "seats": list(seats),
        "seat_titles": {s: game.seat_title(s) for s in seats},
        "agents": agents,
        **summary,
        "first_player": first_player(records, len(seats)),
    }


@dataclass(frozen=True)
class Plan:
    """What to play: the plain data `simulate` needs, and the counts and games."""

    setup: sim.Setup  # its `players` and `agents` are set per count
    counts: tuple[int, ...]
    games: int
    seed: int
    agent_items: tuple[str, ...]  # `--agent` items as typed: KIND or SEAT=KIND


def run(
    plan: Plan,
    jobs: int,
    game: Game | None = None,
    watch: Watch = _no_watch,
    ray_address: str | None = None,
    keep: Path | None = None,
) -> tuple[dict[str, Any], dict[int, list[sim.Record]]]:
    """Play every count's games and return the report's document with the records by count.

    The same seeds at every count (seed..seed+games-1), each count a `simulate` run, so
    each record is the game `gamedef run` plays with that seed, count and agents. On Ray one
    session serves every count (started here, unless the caller's is already open).

    With `keep` (`--keep FILE`), each game is written to that file as it ends, and a game
    already there (the same seed, count and setup) is read back instead of played: a long
    run stopped by a deadline or a crash keeps its games, and the same command goes on
    where it stopped. A game depends only on its seed, so the figures are the same."""
    game = game or plan.setup.load()
    sim.check_scale(plan.games, jobs)
    sections, by_count = [], {}
    kept = read_kept(keep) if keep is not None else {}
    with ray_session(ray_address, jobs) if ray_address is not None else nullcontext():
        for count in plan.counts:
            seats = game.seats_for(count)
            items = tuple(seat_agents(game, seats, plan.agent_items))
            setup = replace(plan.setup, players=count, agents=items)
            from interpreter.play.agents import parse_agents

            _, kinds = parse_agents(list(items), game, seats, plan.seed)
            start = time.perf_counter()
            if keep is None:
                records = sim.simulate(
                    setup,
                    plan.games,
                    plan.seed,
                    min(jobs, plan.games),
                    game=game,
                    watch=partial(_count_watch, watch, count),
                    ray_address=ray_address,
                )
            else:
                records = _play_kept(game, setup, plan, jobs, watch, ray_address, keep, kept.get(_key(setup), {}))
            section = count_section(game, setup, records, seats, kinds)
            section["seconds"] = round(time.perf_counter() - start, 1)
            sections.append(section)
            by_count[count] = records
    doc = {
        "game": game.name,
        "title": game.header.title,
        "first_seed": plan.seed,
        "games": plan.games,
        "agents": list(plan.agent_items),
        "variants": list(plan.setup.variants),
        "options": dict(plan.setup.options),
        "components": list(plan.setup.components) or None,  # None: the game's cards
        "chance_mode": plan.setup.chance,
        "counts": sections,
    }
    return doc, by_count


def _key(setup: sim.Setup) -> str:
    """What makes a kept game the game a plan would play: everything of the setup but the seed."""
    return json.dumps(asdict(setup), sort_keys=True, default=str)


def read_kept(path: Path) -> dict[str, dict[int, sim.Record]]:
    """The games of a `--keep` file, by setup and seed; none if the file does not exist yet.
    The file is this command's own, but read as untrusted: a line that is not a game is an
    error naming the line, and a file past MAX_KEEP_BYTES is refused before it is read."""
    if not path.exists():
        return {}
    if path.is_dir():
        raise UsageError(f"--keep {path}: that is a folder", "give a file name, e.g. games.jsonl")
    if path.stat().st_size > MAX_KEEP_BYTES:
        raise UsageError(f"--keep {path}: larger than {MAX_KEEP_BYTES:,} bytes", "start a new file")
    out: dict[str, dict[int, sim.Record]] = {}
    with path.open("rb") as f:  # bytes: a line that is not UTF-8 is named like any bad line
        for number, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            try:
                item = json.loads(raw.decode("utf-8"))
                r = item["record"]
                record = sim.Record(
                    int(r["seed"]),
                    tuple(str(w) for w in r["winners"]),
                    int(r["decisions"]),
                    None if r["rounds"] is None else int(r["rounds"]),
                    str(r["headline"]),
                    str(r["ending"]),
                    tuple((str(a), str(b), int(c)) for a, b, c in r["cards"]),
                    tuple((str(a), float(b)) for a, b in r["payoffs"]),
                    str(r["first"]),
                )
                out.setdefault(str(item["key"]), {})[record.seed] = record
            except (ValueError, KeyError, TypeError, RecursionError) as err:  # (bounded: MAX_KEEP_BYTES)
                raise UsageError(
                    f"--keep {path}:{number}: not a game this command wrote ({type(err).__name__}: {err})",
                    "give another file, or remove that line",
                ) from None
    return out


def _play_kept(
    game: Game,
    setup: sim.Setup,
    plan: Plan,
    jobs: int,
    watch: Watch,
    ray_address: str | None,
    keep: Path,
    kept: dict[int, sim.Record],
) -> list[sim.Record]:
    """One count's games: those kept read back, the others played in small batches (one
    game a batch on one process, two a worker otherwise), each batch written to `keep` as
    soon as it ends."""
    seeds = range(plan.seed, plan.seed + plan.games)
    missing = [s for s in seeds if s not in kept]
    batch = 1 if jobs <= 1 and ray_address is None else 2 * jobs
    key = _key(setup)
    with watch(plan.games, setup.players or 0) as advance:
        for _ in range(plan.games - len(missing)):
            advance()
        i = 0
        while i < len(missing):
            run_ = [missing[i]]  # a run of consecutive seeds, at most `batch` long
            while len(run_) < batch and i + len(run_) < len(missing) and missing[i + len(run_)] == run_[-1] + 1:
                run_.append(missing[i + len(run_)])
            i += len(run_)
            got = sim.simulate(
                setup,
                len(run_),
                run_[0],
                min(jobs, len(run_)),
                game=game,
                watch=lambda n: nullcontext(advance),
                ray_address=ray_address,
            )
            try:
                with keep.open("a", encoding="utf-8") as f:
                    for r in got:
                        f.write(json.dumps({"key": key, "record": asdict(r)}) + "\n")
                        kept[r.seed] = r
            except OSError as err:
                raise UsageError(
                    f"--keep {keep}: cannot write it ({err.strerror})", "give a path you may write"
                ) from None
    return [kept[s] for s in seeds]


def _count_watch(watch: Watch, count: int, games: int) -> AbstractContextManager[Callable[[], None]]:
    return watch(games, count)


@contextmanager
def ray_session(address: str, jobs: int) -> Iterator[None]:
    """One Ray session for every count of a report (a local instance started once, not once
    a count), closed at the end; `simulate` uses the session it finds open. A session the
    caller already opened is used as it is and left open."""
    ray = sim.import_ray()
    if ray.is_initialized():
        yield
        return
    sim.start_ray(address, jobs)
    try:
        yield
    finally:
        ray.shutdown()


def records_dict(by_count: dict[int, list[sim.Record]]) -> dict[str, list[dict[str, Any]]]:
    """Every game's record for `--json`, by player count."""
    return {str(count): [sim._record_dict(r) for r in records] for count, records in by_count.items()}


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
    if html_path is not None:
        parts += ["--html", str(html_path)]
    return " ".join(shlex.quote(part) for part in parts)


# ---- text ----------------------------------------------------------------------------------------
_pct = sim._pct


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
    """The report as text: the seats across counts, then each count's first player, length,
    endings and components (the `top` largest differences; None for all)."""
    lines = [_header(doc), "", "win rate per seat and player count (95% Wilson interval):"]
    head, rows = seat_table(doc)
    lines += sim._table([head, *rows], set(range(1, len(head))))
    for s in doc["counts"]:
        lines += ["", *_count_lines(s, top)]
    return lines


def _count_lines(s: dict[str, Any], top: int | None) -> list[str]:
    titles = s["seat_titles"]
    k = s["players"]
    agents = " ".join(f"{seat}={kind}" for seat, kind in s["agents"].items())
    lines = [f"== {k} player{'s' if k != 1 else ''} ({s['games']} games, agents {agents}, {s['seconds']}s)"]
    fp = s["first_player"]
    if fp:
        movers = ", ".join(f"{titles.get(seat, seat)} {n}" for seat, n in fp["first_seats"].items())
        lines.append(
            f"first player (moved first: {movers}): wins {_pct(fp['rate'])} ({_interval(fp)}) against a fair "
            f"share of {_pct(fp['fair_share'])}, {100 * fp['advantage']:+.1f} pts: {fp['reading']}"
        )
    d = s["decisions"]
    length = f"game length: {d['mean']:.1f} decisions (median {sim._num(d['median'])}, {d['min']}-{d['max']})"
    if s["rounds"]:
        r = s["rounds"]
        length += f"; final round {r['mean']:.1f} (median {sim._num(r['median'])}, {r['min']}-{r['max']})"
    lines.append(length)
    lines.append("how games ended:")
    rows = [["games", "share", "ending", "won by"]]
    for e in s["endings"][:TOP_ENDINGS]:
        won = sorted(e["won_by"].items(), key=lambda item: -item[1])
        by = ", ".join(f"{titles.get(seat, seat)} {sim._num(w)}" for seat, w in won) or "-"
        rows.append([str(e["games"]), _pct(e["share"]), e["ending"] or "(no line narrated)", by])
    lines += sim._table(rows, {0, 1})
    if len(s["endings"]) > TOP_ENDINGS:
        lines.append(f"  ... and {len(s['endings']) - TOP_ENDINGS} other endings (the HTML and --json list all)")
    if s["cards"] is not None:
        lines += _component_lines(s["cards"], top)
    return lines


def _component_lines(cards: list[dict[str, Any]], top: int | None) -> list[str]:
    chosen = sorted(
        (c for c in cards if c["times"]),
        key=lambda c: (c["difference"] is None, -abs(c["difference"] or 0), -c["games"]),
    )
    lines = [
        "components (played: chosen in a decision; win rate of the seats that chose it against the others,"
        " 95% intervals):"
    ]
    if not chosen:
        return [*lines, "  none was chosen in a decision"]
    shown = chosen if top is None else chosen[:top]
    rows = [["component", "games", "times", "chose it", "95% interval", "others", "95% interval", "difference", ""]]
    for c in shown:
        me, others = c["chose_it"], c["others"]
        rows.append(
            [
                c["title"],
                f"{c['games']} ({_pct(c['share_of_games'])})",
                str(c["times"]),
                _pct(me["rate"]),
                _interval(me),
                "-" if others["rate"] is None else _pct(others["rate"]),
                _interval(others),
                "-" if c["difference"] is None else f"{100 * c['difference']:+.1f} pts",
                "" if c["verdict"] in ("higher", "lower") else "! " + c["verdict"],
            ]
        )
    lines += sim._table(rows, {1, 2, 3, 4, 5, 6, 7})
    unclear = sum(1 for c in chosen if c["verdict"] == "too few games to tell")
    never = sum(1 for c in cards if not c["times"])
    notes = f"  ({len(shown)} of {len(chosen)} chosen, the largest differences first; {unclear} too few games to tell"
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
        f"<span class='warn'>Too few games to tell</span> marks a difference whose intervals overlap, or a side "
        f"with fewer than {MIN_SEAT_GAMES} seat-games.</p>"
    )
    head, rows = seat_table(doc)
    parts += ["<h2>Win rate per seat and player count</h2>", _html_table(head, rows, set(range(1, len(head))))]
    for s in doc["counts"]:
        parts.append(_html_count(s, (images or {}).get(s["players"], [])))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


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
                _esc(sim._num(w["wins"])),
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
        movers = ", ".join(f"{titles.get(seat, seat)} in {n}" for seat, n in fp["first_seats"].items())
        parts.append(
            f"<p><b>First player</b> (moved first: {_esc(movers)}): wins {_esc(_pct(fp['rate']))} "
            f"({_esc(_interval(fp))}) against a fair share of {_esc(_pct(fp['fair_share']))}, "
            f"{100 * fp['advantage']:+.1f} points: {_esc(fp['reading'])}.</p>"
        )
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
            rows.append([name, f"{d['mean']:.1f}", sim._num(d["median"]), sim._num(d["min"]), sim._num(d["max"])])
    parts += ["<h3>Game length</h3>", _html_table(["", "mean", "median", "min", "max"], rows, {1, 2, 3, 4})]
    rows = []
    for e in s["endings"]:
        won = sorted(e["won_by"].items(), key=lambda item: -item[1])
        by = ", ".join(f"{titles.get(seat, seat)} {sim._num(w)}" for seat, w in won) or "-"
        rows.append([str(e["games"]), _pct(e["share"]), e["ending"] or "(no line narrated)", by, e["example"]])
    parts += [
        "<h3>How games ended</h3>",
        _html_table(["games", "share", "ending", "won by", "for example"], rows, {0, 1}),
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
        style = c["verdict"] if c["verdict"] in ("higher", "lower") else "warn"
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
                f"<span class='{style}'>{_esc(c['verdict'])}</span>",
                _by_seat(c, titles),
            ]
        )
    never = [c["title"] for c in cards if not c["times"]]
    head = ["component", "kind", "games", "times", "chose it", "95% interval", "others", "95% interval", "pts", ""]
    head.append("each seat that chose it: its win rate with it / without it")
    out = [
        "<h3>Components</h3>",
        "<p>How often each was played (chosen in a decision: the games, with their share, and the times), and the "
        "win rate of the seats that played it against all the other seat-games.</p>",
        _html_table(head, rows, {2, 3, 4, 5, 6, 7, 8}, raw=True),
    ]
    if never:
        out.append(f"<p>Never chosen: {_esc(', '.join(never))}.</p>")
    return "\n".join(out)


def html_target(path: Path) -> Path:
    """Check the `--html` path before any game is played: a folder that exists, a name
    that is not a folder, so a mistake is said at once and not after an hour of games."""
    if path.is_dir():
        raise UsageError(f"--html {path}: that is a folder", "give the name of the page to write, e.g. report.html")
    if not path.parent.is_dir():
        raise UsageError(f"--html {path}: no folder {path.parent}", "make the folder first, or give another path")
    return path


def write_html(doc: dict[str, Any], by_count: dict[int, list[sim.Record]], path: Path, command: str = "") -> list[Path]:
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
                made = sim.plot(chart, by_count[k], Path(tmp))
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
