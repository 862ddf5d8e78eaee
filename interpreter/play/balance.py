"""`gamedef balance`: the balance report a designer acts on, across seats and player counts.

`gamedef simulate` answers one question at one player count; a designer asking "is my game
fair, and is my new card too strong?" needs the same games at every count the game allows,
the seat that moves first set against its fair share, and each card (or any component the
designer names) set against the games without it, each figure with its interval and a plain
warning where the games are too few to tell. This module plays those games with
`simulate`'s machinery (the same seeds, the same records, so the same figures on one
process, with `--jobs N` or on workers the caller started, such as Ray) and computes the
report's figures; the command line writes them (cli/balance_report.py: terminal text, an
HTML page with its charts) and starts and stops Ray (cli/ray_workers.py).

Nothing here knows a game: seats, counts and components come from the game's declarations,
and every figure from the records `simulate.play_game` keeps.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import pickle
import statistics
import time
from collections import Counter
from collections.abc import Callable, Container, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from interpreter.core.errors import ArgumentError, NoBaseError, Span, UsageError, did_you_mean
from interpreter.language import syntax as ast
from interpreter.language.datatables import LoadedTable
from interpreter.language.sheets import Row
from interpreter.play import simulate as sim
from interpreter.play import stats
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
    counts: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            first, last = (int(low), int(high)) if dash else (int(part), int(part))
        except ValueError:
            raise ValueError(f"expected player counts such as 2,4 or 2-4, not {text!r}") from None
        if first < 1 or last < first or last - first > 100:
            raise ValueError(f"expected player counts such as 2,4 or 2-4, not {text!r}")
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
            raise ArgumentError(
                "players",
                f"{h.title} is for {allowed} players",
                given=count,
                hint=f"give counts from {allowed}",
                example=f"{h.min_players},{h.max_players}",
            )
    return list(wanted)


def check_components(game: Game, kinds: Sequence[str]) -> None:
    """Refuse a `--component KIND` the game does not declare, naming the kinds it does."""
    types = game.compiled.types
    for kind in kinds:
        if kind not in types or kind == "player" or not types[kind]:
            named = sorted(k for k, members in types.items() if members and k != "player")
            raise ArgumentError(
                "component",
                f"{game.header.title} has no kind of component named '{kind}'",
                given=kind,
                hint=did_you_mean(kind, named) or "kinds: " + ", ".join(named),
            )


def seat_agents(game: Game, seats: tuple[str, ...], items: Sequence[str]) -> list[str]:
    """The `--agent` items for one player count, as `simulate` takes them: `KIND` alone sets
    every seat (applied first), `SEAT=KIND` one seat, kept only where that seat plays (a
    two-player game has no `us`). A seat named that plays at no count is refused by the caller."""
    from interpreter.play.agents import resolve_seat, split_agent

    out = [f"{seat}={item}" for item in items if split_agent(item)[0] is None for seat in seats]
    for item in items:
        name, kind = split_agent(item)
        if name is not None:
            try:
                out.append(f"{resolve_seat(game, name, seats, 'agent')}={kind}")
            except UsageError:
                continue
    return out


def check_agent_seats(game: Game, counts: Sequence[int], items: Sequence[str]) -> None:
    """A `SEAT=KIND` whose seat plays at none of the counts is a mistake, said as `--agent` says it."""
    from interpreter.play.agents import resolve_seat, split_agent

    everyone = tuple(dict.fromkeys(s for count in counts for s in game.seats_for(count)))
    for item in items:
        name = split_agent(item)[0]
        if name is not None:
            resolve_seat(game, name, everyone, "agent")


# ---- the figures ---------------------------------------------------------------------------------
def _won(record: sim.GameRecord, seat: str) -> float:
    """A seat's share of a game's win: 1, 1/k for a win shared by k seats, or 0."""
    return 1 / len(record.winners) if seat in record.winners else 0.0


def first_player(
    records: Sequence[sim.GameRecord], players: int, seats: Sequence[str] = (), titles: Mapping[str, str] | None = None
) -> dict[str, Any] | None:
    """The seat that moved first in each game against its fair share (1/players), and, what
    a designer can act on, the first move's effect separated from the seat's own.

    The raw figure (the first mover's win rate, a shared win counted as a share, with a
    Wilson interval, against 1/players) mixes two things when the rules fix who starts: in
    a game where West always moves first, it is West's win rate. So the effect is measured
    within seat: for each seat, its win rate in the games it moved first against the games
    it did not (a Mantel–Haenszel difference over the seats, tested with Cochran–Mantel–
    Haenszel). `method` says which was possible: `within seat` when some seat both moved
    first and did not, else `confounded with seat` (the same seat moved first in every
    game: the rules fix the order, nothing rotates it, and no number of games can tell a
    first-move advantage from that seat's). None for a one-player game."""
    if players < 2 or not records:
        return None
    n = len(records)
    wins = sum(_won(r, r.first) for r in records)
    low, high = sim.wilson(wins, n)
    fair = 1 / players
    if low > fair:
        raw = "the first player wins more than its share"
    elif high < fair:
        raw = "the first player wins less than its share"
    else:
        raw = "no measurable first-player advantage at this number of games"
    movers = Counter(r.first for r in records)
    seats = tuple(seats) or tuple(movers)
    strata = []
    for seat in seats:
        first = [r for r in records if r.first == seat]
        other = [r for r in records if r.first != seat]
        strata.append(
            stats.Stratum(len(first), sum(_won(r, seat) for r in first), len(other), sum(_won(r, seat) for r in other))
        )
    effect = stats.mh_difference(strata)
    within: dict[str, Any] | None = None
    if effect is None:
        method = "confounded with seat"
        only = (titles or {}).get(next(iter(movers)), next(iter(movers)))
        reading = (
            f"{raw}, but the same seat ({only}) moved first in every game: a first-move advantage cannot be "
            "told from that seat's own"
        )
    else:
        method = "within seat"
        _, p = stats.cmh(strata)
        within = {"effect": effect.value, "low": effect.low, "high": effect.high, "p": p}
        if p < stats.ALPHA:
            side = "more" if effect.value > 0 else "less"
            reading = f"a seat wins {side} when it moves first (within seat, p = {p:.2g})"
        else:
            reading = "no measurable first-player advantage within seat at this number of games"
    return {
        "games": n,
        "wins": wins,
        "rate": wins / n,
        "low": low,
        "high": high,
        "fair_share": fair,
        "advantage": wins / n - fair,
        "method": method,
        "within_seat": within,
        "raw_reading": raw,
        "reading": reading,
        "first_seats": dict(movers.most_common()),
    }


def seat_imbalance(sections: Sequence[Mapping[str, Any]], alpha: float = stats.ALPHA) -> dict[str, Any]:
    """The seat-imbalance alarm: each seat at each count, its share of the games someone won
    (a shared win counted as a share) against its fair share, 1/players, with a Wilson
    interval corrected for every seat of every count tested together (Bonferroni: each at
    level 1 - alpha/m, so that the chance of any false alarm among the m seats stays under
    alpha). A seat whose corrected interval leaves out its fair share is an alarm: it wins
    more, or less, than its share beyond what chance explains at this number of games.

    The games nobody won are left out (a seat is not unfair because games are drawn); the
    uncorrected 95% intervals of the seat table read one seat at a time, so with four seats
    at three counts one of them would miss its share by chance every other report."""
    rows = []
    for section in sections:
        decided = section["games"] - section["no_winner"]["games"]
        if decided > 0:
            for w in section["win_rates"]:
                rows.append((section, w, decided))
    m = len(rows)
    z = statistics.NormalDist().inv_cdf(1 - alpha / (2 * m)) if m else sim.Z_95
    seats = []
    for section, w, decided in rows:
        fair = 1 / section["players"]
        low, high = sim.wilson(w["wins"], decided, z)
        verdict = "more" if low > fair else "less" if high < fair else None
        seats.append(
            {
                "players": section["players"],
                "seat": w["seat"],
                "title": section["seat_titles"].get(w["seat"], w["seat"]),
                "games": decided,
                "wins": w["wins"],
                "rate": w["wins"] / decided,
                "low": low,
                "high": high,
                "fair_share": fair,
                "alarm": verdict,
            }
        )
    return {"alpha": alpha, "tested": m, "method": "Bonferroni", "seats": seats}


TOP_SOURCES = 8  # sources of points listed per seat in the text (the JSON has them all)


def why_seats_win(
    records: Sequence[sim.GameRecord], seats: Sequence[str], titles: Mapping[str, str]
) -> dict[str, Any] | None:
    """Why a seat wins, from the scores the games kept (`Record.gains`, `score_by_round`,
    `lead_changes`; None for a game without a score variable): each seat's mean score at
    the end of each round (over the games that reached it), how often the lead (one seat
    strictly ahead) passed from a seat to another (mean per game with its 95% interval,
    and the share of games in which it never did), and each seat's points by source: the
    card whose text was running when they were scored, or the rule (the citation of the
    procedure that called the one that changed the score), as shares of the points it
    gained in all."""
    scored = [r for r in records if r.lead_changes is not None]
    if not scored:
        return None
    by_round: dict[int, list[tuple[float, ...]]] = {}
    order = scored[0].score_seats
    for r in scored:
        for number, scores in r.score_by_round:
            by_round.setdefault(number, []).append(scores)
    rounds = [
        {
            "round": number,
            "games": len(rows),
            "mean": {seat: statistics.fmean(row[i] for row in rows) for i, seat in enumerate(order)},
        }
        for number, rows in sorted(by_round.items())
    ]
    changes = [float(r.lead_changes or 0) for r in scored]
    mean, low, high = sim.mean_interval(changes)
    sources: dict[str, dict[str, float]] = {seat: {} for seat in seats}
    for r in scored:
        for seat, source, points in r.gains:
            if points > 0:
                sources.setdefault(seat, {})[source] = sources.get(seat, {}).get(source, 0.0) + points
    per_seat = {}
    for seat, got in sources.items():
        total = sum(got.values())
        rows = sorted(got.items(), key=lambda item: -item[1])
        per_seat[seat] = {
            "points": total,
            "per_game": total / len(scored),
            "sources": [
                {"source": source, "title": _source_title(source, titles), "points": p, "share": p / total}
                for source, p in rows
            ],
        }
    return {
        "games": len(scored),
        "seats": list(order),
        "rounds": rounds,
        "lead_changes": {
            "mean": mean,
            "low": low,
            "high": high,
            "never": sum(1 for c in changes if c == 0) / len(changes),
        },
        "sources": per_seat,
    }


def _source_title(source: str, titles: Mapping[str, str]) -> str:
    kind, _, name = source.partition(":")
    return f"card {titles.get(name, name)}" if kind == "card" else f"rule \u201c{name}\u201d"


def count_section(
    game: Game, setup: sim.Setup, records: Sequence[sim.GameRecord], seats: tuple[str, ...], agents: dict[str, str]
) -> dict[str, Any]:
    """One player count's figures: `simulate`'s summary (win rates, payoffs, length,
    endings, the components' descriptive table) and the first player's advantage. The
    components' tests span every count and are `component_tests`'."""
    catalogue = sim.component_catalogue(game, setup.components)
    summary = sim.summarise(records, seats, catalogue)
    for c in summary["cards"] or ():
        c["share_of_games"] = c["games"] / len(records) if records else 0.0
    titles = {name: title for name, (_, title) in sim.card_catalogue(game).items()}
    return {
        "players": len(seats),
        "seats": list(seats),
        "seat_titles": {s: game.seat_title(s) for s in seats},
        "agents": agents,
        **summary,
        "first_player": first_player(records, len(seats), seats, {s: game.seat_title(s) for s in seats}),
        "why": why_seats_win(records, seats, titles),
    }


def played(record: sim.GameRecord, acting: Container[str]) -> set[tuple[str, str]]:
    """The (seat, component) pairs of a game in which the seat played the component: the
    seat chose it in a decision and, for a component that acts (one of `acting`: some slot
    of it ran in some game of the report), a slot of it ran in that game, which is when its
    text resolved. A card merely held and picked in a secret phase, then used for
    something else, did not act, and is not counted as played; a component with no slot
    (an action, an enum member) is played when chosen. The seat is the one that chose it,
    not the one whose move happened to resolve it (both headers of a round resolve after
    the last seat's choice)."""
    ran = {card for _, card, _ in record.performed}
    return {(seat, card) for seat, card, _ in record.cards if card not in acting or card in ran}


def component_strata(
    by_count: Mapping[int, Sequence[sim.GameRecord]],
    seats_by_count: Mapping[int, Sequence[str]],
    given: Sequence[str] = (),
) -> dict[str, list[stats.Stratum]]:
    """Each component played in some game (`played`), its 2×2 tables, one per seat at each
    player count: the seat-games in which that seat played it (with that seat's wins in
    them) against its seat-games in which it did not. Within one seat at one count, a strong seat's win rate
    or a count's cannot pass for the component's. With `given` (components already found
    to matter), each of those tables is split further by which of them the seat played:
    a seat that plays a jackpot has one play fewer for every other card, and compared
    only with seat-games that played the jackpot alike, those cards no longer pass for weak."""
    out: dict[str, dict[tuple, list[float]]] = {}
    totals: dict[tuple, list[float]] = {}
    acting = {card for records in by_count.values() for r in records for _, card, _ in r.performed}
    for count, records in by_count.items():
        for r in records:
            pairs = played(r, acting)
            for seat in seats_by_count[count]:
                key = (count, seat, tuple((seat, g) in pairs for g in given))
                total = totals.setdefault(key, [0, 0.0])
                total[0] += 1
                total[1] += _won(r, seat)
            for seat, card in pairs:
                cell = out.setdefault(card, {}).setdefault(
                    (count, seat, tuple((seat, g) in pairs for g in given)), [0, 0.0]
                )
                cell[0] += 1
                cell[1] += _won(r, seat)
    strata: dict[str, list[stats.Stratum]] = {}
    for card, cells in out.items():
        rows = []
        for key, (games, wins) in totals.items():
            n1, w1 = cells.get(key, (0, 0.0))
            rows.append(stats.Stratum(int(n1), w1, int(games) - int(n1), wins - w1))
        strata[card] = rows
    return strata


MAX_GIVEN = 4  # components found to matter that the others' tests are split by, at most


def component_tests(
    by_count: Mapping[int, Sequence[sim.GameRecord]],
    seats_by_count: Mapping[int, Sequence[str]],
    catalogue: Mapping[str, tuple[str, str]],
    correction: str = "holm",
    alpha: float = stats.ALPHA,
) -> dict[str, Any]:
    """Each component's effect on the win rate of the seat that chose it, and which of them
    the games say are more than chance, all together.

    The effect is the Mantel–Haenszel difference of win rates (chose it minus did not)
    over the strata of `component_strata` (a seat at a player count), with its 95%
    interval; the test is Cochran–Mantel–Haenszel over the same strata. A component is
    tested when at least MIN_SEAT_GAMES seat-games chose it and as many did not; the
    p-values of those tested are adjusted together (`holm`: family-wise, so that a run of a
    fair game flags no component at 95% in 19 runs out of 20; `bh`: false discovery rate),
    and a component is flagged only when its adjusted p-value is below `alpha`. A flagged
    component is then set apart: the others are tested again with their strata split by
    whether the seat played it (`component_strata`'s `given`), the next flagged one in
    turn, up to MAX_GIVEN, so that the cards played instead of a jackpot do not pass for
    weak ones. Each tested row has `detectable`: the effect it needs to be flagged 4 times
    in 5. Listed the flagged first, then by adjusted p-value."""
    games: Counter[str] = Counter()  # games in which some seat played it
    times: Counter[str] = Counter()  # decisions that chose it
    acting = {card for records in by_count.values() for r in records for _, card, _ in r.performed}
    for records in by_count.values():
        for r in records:
            for _, card, k in r.cards:
                times[card] += k
            games.update({card for _, card in played(r, acting)})

    def test_all(given: Sequence[str]) -> list[dict[str, Any]]:
        """Every component's row, its strata split by the `given` components it is not."""
        strata = component_strata(by_count, seats_by_count, given)
        for g in given:
            strata[g] = component_strata(by_count, seats_by_count, [x for x in given if x != g]).get(g, [])
        rows: list[dict[str, Any]] = []
        for card, (kind, title) in catalogue.items():
            row: dict[str, Any] = {"card": card, "title": title, "kind": kind}
            row.update(games=games[card], times=times[card])
            row["played_as"] = "its slot ran in the seat's move" if card in acting else "chosen in a decision"
            tables = strata.get(card, [])
            n1, n0 = sum(s.n1 for s in tables), sum(s.n0 for s in tables)
            row["seat_games"], row["other_seat_games"] = n1, n0
            effect = stats.mh_difference(tables)
            if not times[card] and not games[card]:
                row.update(effect=None, low=None, high=None, p=None, p_adjusted=None, verdict="never chosen")
            elif effect is None or n1 < MIN_SEAT_GAMES or n0 < MIN_SEAT_GAMES:
                value = None if effect is None else effect.value
                row.update(effect=value, low=None, high=None, p=None, p_adjusted=None, verdict="too few games to tell")
            else:
                _, p = stats.cmh(tables)
                row.update(effect=effect.value, low=effect.low, high=effect.high, se=effect.se, p=p)
            rows.append(row)
        tested = [row for row in rows if row["p"] is not None]
        # The effect a component needs to be flagged 4 times in 5: the first of m tests is read
        # at alpha/m (Holm's, and the Benjamini-Hochberg threshold when one component stands out).
        z = statistics.NormalDist().inv_cdf(1 - alpha / (2 * len(tested))) if tested else stats.Z_95
        for row, adjusted in zip(tested, stats.adjust([row["p"] for row in tested], correction)):
            row["p_adjusted"] = adjusted
            row["detectable"] = (z + stats.Z_80) * row["se"]
            if adjusted < alpha:
                row["verdict"] = "higher" if row["effect"] > 0 else "lower"
            else:
                row["verdict"] = "no effect shown"
        return rows

    # A component found to matter is set apart before the others are read again: each
    # flagged one in turn (the strongest evidence first), until no other is flagged.
    given: list[str] = []
    while True:
        rows = test_all(given)
        fresh = sorted(
            (row for row in rows if row["verdict"] in ("higher", "lower") and row["card"] not in given),
            key=lambda row: row["p"],
        )
        if not fresh or len(given) >= MAX_GIVEN:
            break
        given.append(fresh[0]["card"])
    tested = [row for row in rows if row["p"] is not None]
    rows.sort(
        key=lambda row: (
            row["verdict"] not in ("higher", "lower"),
            row["p_adjusted"] is None,
            row["p_adjusted"] or 0.0,
            row["p"] or 0.0,
            -(row["times"]),
        )
    )
    names = {card: title for card, (_, title) in catalogue.items()}
    apart = ", and whether the seat played " + ", ".join(names.get(g, g) for g in given) if given else ""
    return {
        "strata": "seat and player count" + apart,
        "given": given,
        "test": "Cochran-Mantel-Haenszel (no continuity correction)",
        "effect": "Mantel-Haenszel difference of win rates, chose it minus did not, with a normal 95% interval",
        "correction": {"holm": "Holm", "bh": "Benjamini-Hochberg"}[correction],
        "alpha": alpha,
        "tested": len(tested),
        "flagged": sum(1 for row in tested if row["verdict"] in ("higher", "lower")),
        # half the components tested would be flagged 4 times in 5 with an effect this large
        "detectable_median": statistics.median(row["detectable"] for row in tested) if tested else None,
        "components": rows,
    }


@dataclass(frozen=True)
class Plan:
    """What to play: the plain data `simulate` needs, and the counts and games."""

    setup: sim.Setup  # its `players` and `agents` are set per count
    counts: tuple[int, ...]
    games: int
    seed: int
    agent_items: tuple[str, ...]  # `--agent` items as typed: KIND or SEAT=KIND
    correction: str = "holm"  # how the components' p-values are adjusted together: holm or bh


def run(
    plan: Plan,
    jobs: int,
    game: Game | None = None,
    watch: Watch = _no_watch,
    workers: sim.Workers | None = None,
    keep: Path | None = None,
) -> tuple[dict[str, Any], dict[int, list[sim.GameRecord]]]:
    """Play every count's games and return the report's document with the records by count.

    The same seeds at every count (seed..seed+games-1), each count a `simulate` run, so
    each record is the game `gamedef run` plays with that seed, count and agents. Given
    `workers` (a cluster the caller started, such as Ray), every count is played there.

    With `keep` (`--keep FILE`), each game is written to that file as it ends, and a game
    already there (the same seed, count and setup) is read back instead of played: a long
    run stopped by a deadline or a crash keeps its games, and the same command goes on
    where it stopped. A game depends only on its seed, so the figures are the same."""
    game = game or plan.setup.load()
    sim.check_scale(plan.games, jobs)
    sections, by_count = [], {}
    kept = read_kept(keep) if keep is not None else {}
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
                workers=workers,
            )
        else:
            kept_here = kept.get(_key(setup, game.rules_hash), {})
            records = _play_kept(game, setup, plan, jobs, watch, workers, keep, kept_here)
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
        "correction": plan.correction,
        "score": plan.setup.score,
        "rules_hash": game.rules_hash,
        "counts": sections,
    }
    doc["seat_imbalance"] = seat_imbalance(sections)
    catalogue = sim.component_catalogue(game, plan.setup.components)
    seats_by_count = {count: game.seats_for(count) for count in by_count}
    doc["component_tests"] = (
        component_tests(by_count, seats_by_count, catalogue, plan.correction) if catalogue else None
    )
    return doc, by_count


def _key(setup: sim.Setup, rules: str) -> str:
    """What makes a kept game the game a plan would play: everything of the setup but the
    seed, written without the fields at their defaults (`_normal_key`), and the digest of
    the rules it was played by (`Game.rules_hash`: the files' text and the variants), so
    that a game kept before the file was edited is played again under the rules as they
    are, not read back as if it were one of theirs."""
    return _normal_key({**asdict(setup), "rules": rules})


# Each field's default as JSON reads it back (a tuple as a list).
_SETUP_DEFAULTS = json.loads(json.dumps({k: v for k, v in asdict(sim.Setup(game="")).items() if k != "game"}))


def _normal_key(fields: dict[str, Any]) -> str:
    """A setup's key with the fields at their default value left out: a field added to
    `Setup` later (`score`, `constants`) has a default that plays the games as before, so
    a file kept before it existed still names the same games, and is read back."""
    plain = json.loads(json.dumps(fields, default=str))
    kept = {k: v for k, v in plain.items() if k not in _SETUP_DEFAULTS or v != _SETUP_DEFAULTS[k]}
    return json.dumps(kept, sort_keys=True)


def read_kept(path: Path) -> dict[str, dict[int, sim.GameRecord]]:
    """The games of a `--keep` file, by setup and seed; none if the file does not exist yet.
    The file is this command's own, but read as untrusted: a line that is not a game is an
    error naming the line, and a file past MAX_KEEP_BYTES is refused before it is read."""
    if not path.exists():
        return {}
    if path.is_dir():
        raise ArgumentError("keep", "that is a folder", given=path, hint="give a file name, e.g. games.jsonl")
    if path.stat().st_size > MAX_KEEP_BYTES:
        raise ArgumentError("keep", f"larger than {MAX_KEEP_BYTES:,} bytes", given=path, hint="start a new file")
    out: dict[str, dict[int, sim.GameRecord]] = {}
    with path.open("rb") as f:  # bytes: a line that is not UTF-8 is named like any bad line
        for number, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            try:
                item = json.loads(raw.decode("utf-8"))
                r = item["record"]
                record = sim.GameRecord(
                    int(r["seed"]),
                    tuple(str(w) for w in r["winners"]),
                    int(r["decisions"]),
                    None if r["rounds"] is None else int(r["rounds"]),
                    str(r["headline"]),
                    str(r["ending"]),
                    tuple((str(a), str(b), int(c)) for a, b, c in r["cards"]),
                    tuple((str(a), float(b)) for a, b in r["payoffs"]),
                    str(r["first"]),
                    tuple((str(a), str(b), int(c)) for a, b, c in r.get("performed", ())),
                    tuple((str(a), str(b), float(c)) for a, b, c in r.get("gains", ())),
                    None if r.get("lead_changes") is None else int(r["lead_changes"]),
                    tuple((int(a), tuple(float(x) for x in b)) for a, b in r.get("score_by_round", ())),
                    tuple(str(a) for a in r.get("score_seats", ())),
                )
                fields = json.loads(str(item["key"]))
                if not isinstance(fields, dict):
                    raise TypeError("the key is not a setup")
                out.setdefault(_normal_key(fields), {})[record.seed] = record
            except (ValueError, KeyError, TypeError, RecursionError) as err:  # (bounded: MAX_KEEP_BYTES)
                raise ArgumentError(
                    "keep",
                    f"not a game this command wrote ({type(err).__name__}: {err})",
                    given=f"{path}:{number}",
                    hint="give another file, or remove that line",
                ) from None
    return out


def _play_kept(
    game: Game,
    setup: sim.Setup,
    plan: Plan,
    jobs: int,
    watch: Watch,
    workers: sim.Workers | None,
    keep: Path,
    kept: dict[int, sim.GameRecord],
) -> list[sim.GameRecord]:
    """One count's games: those kept read back, the others played, each written to `keep`
    as soon as it ends. Each run of consecutive seeds not kept is one `simulate`, one pool
    of workers busy to its last game: played in batches of 2 x jobs, each batch waiting for
    its slowest game, the 40-game look-ahead report of Downfall of Empires left a core idle
    at every batch's end."""
    seeds = range(plan.seed, plan.seed + plan.games)
    missing = [s for s in seeds if s not in kept]
    key = _key(setup, game.rules_hash)

    def write(got: list[sim.GameRecord]) -> None:
        try:
            with keep.open("a", encoding="utf-8") as f:
                for r in got:
                    f.write(json.dumps({"key": key, "record": asdict(r)}) + "\n")
                    kept[r.seed] = r
        except OSError as err:
            raise ArgumentError(
                "keep", f"cannot write it ({err.strerror})", given=keep, hint="give a path you may write"
            ) from None

    with watch(plan.games, setup.players or 0) as advance:
        for _ in range(plan.games - len(missing)):
            advance()
        i = 0
        while i < len(missing):
            run_ = [missing[i]]  # a run of consecutive seeds
            while i + len(run_) < len(missing) and missing[i + len(run_)] == run_[-1] + 1:
                run_.append(missing[i + len(run_)])
            i += len(run_)
            sim.simulate(
                setup,
                len(run_),
                run_[0],
                min(jobs, len(run_)),
                game=game,
                watch=lambda n: nullcontext(advance),
                workers=workers,
                each=write,
            )
    return [kept[s] for s in seeds]


def _count_watch(watch: Watch, count: int, games: int) -> AbstractContextManager[Callable[[], None]]:
    return watch(games, count)


def records_dict(by_count: dict[int, list[sim.GameRecord]]) -> dict[str, list[dict[str, Any]]]:
    """Every game's record for `--json`, by player count."""
    return {str(count): [sim._record_dict(r) for r in records] for count, records in by_count.items()}


# ---- a change against its base ------------------------------------------------------------------
def base_setup(setup: sim.Setup, against: str) -> tuple[sim.Setup, str]:
    """What `--against AGAINST` plays, and how the report names it. `base`: the same game
    without the variants given (`--variant V --against base`), or, with no variant, the
    bundled game the file includes (a file of house rules that starts `include twid`).
    Any other value is a game (a bundled name or a file) played with the same options."""
    if against != "base":
        return replace(setup, game=against, variants=()), against
    if setup.variants:
        return replace(setup, variants=()), "the game without " + ", ".join(setup.variants)
    from interpreter.language.program import load_program
    from interpreter.play.exercise import included_games
    from interpreter.runtime.load import bundled_games, find_game

    path = find_game(setup.game)
    bundled = {target.resolve(): name for name, target in bundled_games().items()}
    for target in included_games(path, load_program(path, ())):
        if target.resolve() in bundled:
            name = bundled[target.resolve()]
            return replace(setup, game=name, variants=()), f"{name}, the game it includes"
    raise NoBaseError(setup.game)


def _verdict(est: stats.EstimatedDifference, p: float, differ: int) -> str:
    """A paired difference in words, before the correction for the report's other figures
    (`against` reads them again together): `no difference` when no game differs in it,
    `changed` when the normal 95% interval leaves out 0 and the exact sign test agrees (p
    below the level), else `no change shown`."""
    if differ == 0:
        return "no difference"
    if not math.isfinite(est.se):
        return "too few games to tell"
    apart = est.low > 0 or est.high < 0
    return "changed" if apart and p < stats.ALPHA else "no change shown"


def _change(diffs: Sequence[float], before: float, after: float) -> dict[str, Any]:
    """One figure's paired differences (changed minus base, game by game): the mean with its
    normal 95% interval, the games in which it differs, its p-value (the larger of the
    normal test's and the exact sign test's, so that a handful of differing games cannot
    pass for a change), and the smallest difference these games would show 4 times in 5
    (`detectable`): what a `no change shown` rules out."""
    est = stats.paired(diffs)
    differ = sum(1 for d in diffs if d != 0)
    if differ == 0:
        p = 1.0
    elif est.se > 0 and math.isfinite(est.se):
        p = max(stats.two_sided_p(est.value / est.se), stats.sign_test(diffs))
    else:
        p = stats.sign_test(diffs)
    sign = next((1.0 if d > 0 else -1.0 for d in diffs if d != 0), 1.0)
    return {
        "before": before,
        "after": after,
        "difference": est.value,
        "low": est.low,
        "high": est.high,
        "differ": differ,
        "p": p,
        "detectable": stats.detectable(est.se),
        "verdict": _verdict(est, p, differ),
        # the differences up to their sign: two figures with the same are one test (`against`)
        "_test": hashlib.sha256(repr([sign * d for d in diffs]).encode()).hexdigest(),
    }


def paired_count(
    base: Sequence[sim.GameRecord], changed: Sequence[sim.GameRecord], seats: Sequence[str]
) -> dict[str, Any]:
    """One player count's paired differences, game by game (the same seed under both
    rules: common random numbers, so the noise the two share cancels): each seat's win,
    no winner, the length in decisions and rounds, and each ending's share; each the
    mean difference (changed minus base) with its 95% normal interval (`_change`; its
    `_test` key is `against`'s, which reads every figure of the report together)."""
    if [r.seed for r in base] != [r.seed for r in changed]:
        raise ValueError("paired games need the same seeds")
    n = len(base)
    out: dict[str, Any] = {"games": n, "same_games": sum(1 for a, b in zip(base, changed) if a == b)}
    seats_out = {}
    for seat in seats:
        diffs = [_won(b, seat) - _won(a, seat) for a, b in zip(base, changed)]
        before = sum(_won(a, seat) for a in base) / n
        seats_out[seat] = _change(diffs, before, before + statistics.fmean(diffs))
    out["seats"] = seats_out
    nobody = [float(not b.winners) - float(not a.winners) for a, b in zip(base, changed)]
    out["no_winner"] = _change(nobody, sum(not a.winners for a in base) / n, sum(not b.winners for b in changed) / n)
    lengths = [float(b.decisions - a.decisions) for a, b in zip(base, changed)]
    out["decisions"] = _change(
        lengths,
        statistics.fmean(a.decisions for a in base),
        statistics.fmean(b.decisions for b in changed),
    )
    if all(r.rounds is not None for r in (*base, *changed)):
        rounds = [float(b.rounds - a.rounds) for a, b in zip(base, changed)]  # type: ignore[operator]
        out["rounds"] = _change(
            rounds,
            statistics.fmean(a.rounds for a in base),  # type: ignore[misc]
            statistics.fmean(b.rounds for b in changed),  # type: ignore[misc]
        )
    else:
        out["rounds"] = None
    endings = list(dict.fromkeys([r.ending for r in base] + [r.ending for r in changed]))
    ends = []
    for ending in endings:
        diffs = [float(b.ending == ending) - float(a.ending == ending) for a, b in zip(base, changed)]
        before = sum(a.ending == ending for a in base) / n
        ends.append({"ending": ending, **_change(diffs, before, before + statistics.fmean(diffs))})
    ends.sort(key=lambda e: -max(e["before"], e["after"]))
    out["endings"] = ends
    return out


def component_changes(
    base_tests: dict[str, Any] | None, tests: dict[str, Any] | None, correction: str = "holm"
) -> list[dict[str, Any]]:
    """Each component's effect under both rules and the change: the difference of the two
    stratified effects with the error of two independent estimates (sqrt(se1² + se2²); the
    games are paired but a card is played in different games under the two rules, so the
    pairing is not used), largest |change| / error first; a change is `changed` only when
    its p-value, adjusted with the others' by `correction`, is below the level. A component of one side only is
    listed with its effect there (a new card: its test in the changed rules' table)."""
    if tests is None and base_tests is None:
        return []
    before = {c["card"]: c for c in (base_tests or {}).get("components", ())}
    after = {c["card"]: c for c in (tests or {}).get("components", ())}
    out = []
    for card in dict.fromkeys([*after, *before]):
        a, b = before.get(card), after.get(card)
        row: dict[str, Any] = {
            "card": card,
            "title": (b or a)["title"],  # type: ignore[index]
            "before": None if a is None else a["effect"],
            "after": None if b is None else b["effect"],
            "only_in": "base" if b is None else "changed" if a is None else None,
        }
        if a is not None and b is not None and a.get("se") is not None and b.get("se") is not None:
            est = stats.EstimatedDifference(b["effect"] - a["effect"], math.hypot(a["se"], b["se"]))
            z = est.value / est.se if est.se else 0.0
            row.update(difference=est.value, low=est.low, high=est.high, z=z, p=stats.two_sided_p(z))
        else:
            row.update(difference=None, low=None, high=None, z=None, p=None, verdict="not tested on both sides")
        out.append(row)
    tested = [row for row in out if row["p"] is not None]
    for row, adjusted in zip(tested, stats.adjust([row["p"] for row in tested], correction)):
        row["p_adjusted"] = adjusted
        if row["before"] == row["after"]:
            row["verdict"] = "no difference"
        else:
            row["verdict"] = "changed" if adjusted < stats.ALPHA else "no change shown"
    out.sort(key=lambda r: (r["only_in"] is None, -(abs(r["z"]) if r["z"] is not None else -1)))
    return out


# ---- which components a change touched ---------------------------------------------------------------
def _unplaced(*values: object) -> None:
    """What `_RulesOnly` writes for a place: a digest is never read back."""


class _RulesOnly(pickle.Pickler):
    """A component's rules as bytes without where they are written: a `Span` is written as
    nothing and a table row without its line number, so the same card moved to a file of
    house rules, or a row moved in its table, reads the same."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Span):
            return _unplaced, ()
        if isinstance(obj, Row):
            return _unplaced, ("row", obj.cells)
        return NotImplemented


def component_rules(game: Game, names: Container[str]) -> dict[str, bytes]:
    """Each component of `names` (a card, or a member of a kind `--component` names), as a
    digest of its rules as written: its `card` declarations (its own, or the behaviour of a
    table's row) and its table row's cells, without their places. Two versions of a game
    give a component the same digest exactly when they give it the same rules."""
    parts: dict[str, list[object]] = {}
    program = game.compiled.program
    for decl in program.decls:
        if isinstance(decl, ast.Card) and decl.name in names:
            parts.setdefault(decl.name, []).append(decl)
    for table in program.tables:
        for row in table.live() if isinstance(table, LoadedTable) else ():
            if row.name in names:
                parts.setdefault(row.name, []).append((row.title, row.row))
    return {name: _digest(found) for name, found in parts.items()}


def _digest(value: object) -> bytes:
    """`value`'s syntax trees as a digest without their places (`_RulesOnly`)."""
    buffer = io.BytesIO()
    pickler = _RulesOnly(buffer, protocol=5)
    pickler.fast = True  # the bytes depend on the values alone
    pickler.dump(value)
    return hashlib.sha256(buffer.getbuffer()).digest()


def _declarations(game: Game) -> dict[tuple[str, str], tuple[object, bytes]]:
    """The game's declarations by kind and name (a trigger, which has none, by its event
    and its digest), each with its digest without places."""
    out: dict[tuple[str, str], tuple[object, bytes]] = {}
    for decl in game.compiled.program.decls:
        digest = _digest(decl)
        name = getattr(decl, "name", None)
        if isinstance(decl, ast.Trigger):
            key = ("when", f"{decl.event} #{digest.hex()[:8]}")
        else:
            key = (type(decl).__name__.lower(), name if isinstance(name, str) else digest.hex()[:8])
        out[key] = (decl, digest)
    return out


def _first_citation(decl: object) -> str | None:
    """The declaration's first `rule "..."` in the order written, if any."""
    cites = [n for n in ast.walk(decl) if isinstance(n, ast.Cite)]
    first = min(cites, key=lambda c: (c.span.line, c.span.column), default=None)
    return None if first is None else first.section


def changed_rules(game: Game, base_game: Game) -> list[dict[str, Any]]:
    """What differs between two versions of a game's rules, declaration by declaration and
    wherever each is written (a card moved to a file of house rules is the same card):
    each declaration replaced (`changed`), added or removed, by kind and name, with its
    first `rule "..."` citation. What the report names when it says what a change did:
    the rule, beside the seat or the card it moved."""
    after, before = _declarations(game), _declarations(base_game)
    out = []
    for key in dict.fromkeys([*after, *before]):
        a, b = before.get(key), after.get(key)
        if a is not None and b is not None and a[1] == b[1]:
            continue
        change = "added" if a is None else "removed" if b is None else "changed"
        decl = (b or a)[0]  # type: ignore[index]
        name = key[1].split(" #")[0]
        out.append({"kind": key[0], "name": name, "change": change, "rule": _first_citation(decl)})
    return out


def changed_components(game: Game, base_game: Game, components: Sequence[str] = ()) -> list[str]:
    """The components both versions have whose rules differ (`component_rules`), in the
    changed game's order: what the change touched, so what the paired test of
    `paired_components` is for. A component of one version only is not one of them (its
    games have no counterpart: a card added to the deck changes every shuffle)."""
    after = sim.component_catalogue(game, components)
    before = sim.component_catalogue(base_game, components)
    both = [name for name in after if name in before]
    new, old = component_rules(game, set(both)), component_rules(base_game, set(both))
    return [name for name in both if new.get(name) != old.get(name)]


def paired_components(
    base_by_count: Mapping[int, Sequence[sim.GameRecord]],
    by_count: Mapping[int, Sequence[sim.GameRecord]],
    seats_by_count: Mapping[int, Sequence[str]],
    names: Sequence[str],
    titles: Mapping[str, str],
    correction: str = "holm",
) -> list[dict[str, Any]]:
    """Each component whose rules the change touched (`changed_components`), tested on the
    games paired by seed: in every seat-game in which the seat played it under either
    rules, that seat's win under the changed rules minus its win under the base's. Until
    the card is played the two games are one game (the same seed, the same rules so far),
    so the difference is the card's change and not the luck of two different games: a card
    one point stronger is found where comparing its effect under each rules apart, with
    the error of two independent estimates, finds nothing. Each is a paired difference
    (`_change`, the seat-games' mean and its interval, its p the larger of the normal and
    the sign test's), adjusted together by `correction`; `changed` when the adjusted p is
    below the level."""
    rows = []
    for name in names:
        diffs: list[float] = []
        base_wins = changed_wins = 0.0
        for count, changed_records in by_count.items():
            base_records = base_by_count[count]
            acting_base = {card for r in base_records for _, card, _ in r.performed}
            acting = {card for r in changed_records for _, card, _ in r.performed}
            for a, b in zip(base_records, changed_records, strict=True):
                before, after = played(a, acting_base), played(b, acting)
                for seat in seats_by_count[count]:
                    if (seat, name) in before or (seat, name) in after:
                        diffs.append(_won(b, seat) - _won(a, seat))
                        base_wins += _won(a, seat)
                        changed_wins += _won(b, seat)
        row: dict[str, Any] = {"card": name, "title": titles.get(name, name), "seat_games": len(diffs)}
        if not diffs:
            row.update(before=None, after=None, difference=None, low=None, high=None, differ=0, p=None)
            row.update(detectable=None, verdict="never played")
        else:
            n = len(diffs)
            row.update(_change(diffs, base_wins / n, changed_wins / n))
            del row["_test"]
        rows.append(row)
    tested = [row for row in rows if row["p"] is not None and row["differ"]]
    for row, adjusted in zip(tested, stats.adjust([row["p"] for row in tested], correction)):
        row["p_adjusted"] = adjusted
        apart = row["low"] > 0 or row["high"] < 0
        row["verdict"] = "changed" if apart and adjusted < stats.ALPHA else "no change shown"
    rows.sort(key=lambda r: (r["verdict"] != "changed", r.get("p_adjusted", 2.0)))
    return rows


def against(
    base_doc: dict[str, Any],
    base_by_count: Mapping[int, Sequence[sim.GameRecord]],
    doc: dict[str, Any],
    by_count: Mapping[int, Sequence[sim.GameRecord]],
    base_name: str,
    argument: str = "base",
    changed: Sequence[str] = (),
    rules: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The changed rules against their base, played on the same seeds at each count: the
    paired differences per count, each component's change, and the components whose rules
    differ (`changed`, from `changed_components`) tested on the paired games; `rules`, the
    declarations that differ (`changed_rules`), is kept to be said beside them.

    The figures of every count (each seat's win, no winner, the length, each ending) are
    read together: their p-values are adjusted by Holm, so that a change that makes no
    difference in law (a die rolled and read by nothing, which deals every game afresh)
    says `changed` somewhere in the report in fewer than 1 run in 20, not in one of its
    figures out of 20."""
    counts = []
    for section in doc["counts"]:
        k = section["players"]
        base_section = next(s for s in base_doc["counts"] if s["players"] == k)
        if base_section["seats"] != section["seats"]:
            raise ArgumentError(
                "against",
                f"the seats at {k} players differ ({', '.join(base_section['seats'])} against "
                f"{', '.join(section['seats'])})",
                given=argument,
                hint="compare rules that seat the same players",
            )
        counts.append({"players": k, **paired_count(base_by_count[k], by_count[k], section["seats"])})
    figures = [
        figure
        for c in counts
        for figure in (*c["seats"].values(), c["no_winner"], c["decisions"], c["rounds"], *c["endings"])
        if figure is not None
    ]
    # One test per distinct set of differences: with two seats and a winner in every game,
    # East's differences are West's negated, and counting them twice would halve the level.
    tests: dict[str, float] = {f["_test"]: f["p"] for f in figures if f["differ"]}
    adjusted = dict(zip(tests, stats.holm(list(tests.values()))))
    for figure in figures:
        key = figure.pop("_test")
        if figure["differ"]:
            figure["p_adjusted"] = adjusted[key]
            if figure["verdict"] == "changed" and adjusted[key] >= stats.ALPHA:
                figure["verdict"] = "no change shown"
    titles = {c["card"]: c["title"] for c in (doc.get("component_tests") or {}).get("components", ())}
    seats_by_count = {section["players"]: section["seats"] for section in doc["counts"]}
    correction = doc.get("correction", "holm")
    return {
        "base": base_name,
        "argument": argument,
        "method": "the same seeds under both rules (common random numbers); each figure the mean of the per-game "
        "differences (changed minus base) with a normal 95% interval, read as changed when that interval leaves "
        "out 0 and its p-value (the larger of the normal test's and the exact sign test's), adjusted by Holm "
        "with every other figure of the report, is below 0.05",
        "same_everywhere": all(c["same_games"] == c["games"] for c in counts),
        "changed_rules": None if rules is None else list(rules),
        "counts": counts,
        "changed_components": paired_components(
            base_by_count, by_count, seats_by_count, list(changed), titles, correction
        ),
        "components": component_changes(base_doc.get("component_tests"), doc.get("component_tests"), correction),
    }


# ---- sweeps ----------------------------------------------------------------------------------------
MAX_SWEEP_VALUES = 41  # values of one --sweep: each is a whole report's games


def parse_sweep(text: str) -> tuple[str, int, int]:
    """`--sweep NAME=LO..HI`: the name and the whole numbers from LO to HI."""
    name, eq, span = text.partition("=")
    low, dots, high = span.partition("..")
    try:
        first, last = int(low), int(high)
    except ValueError:
        first = last = 0
        dots = ""
    if not eq or not dots or not name.strip().isidentifier():
        raise ValueError(f"expected NAME=LO..HI, such as victory_vp=6..12, not {text!r}")
    if last < first or last - first + 1 > MAX_SWEEP_VALUES:
        raise ValueError(
            f"{text}: from LO to HI, LO first, at most {MAX_SWEEP_VALUES} values (each one is a whole report)"
        )
    return name.strip(), first, last


def sweep_kind(game: Game, name: str) -> str:
    """Whether NAME is an option of the game (`option`) or a def without parameters
    (`def`); anything else is refused, naming what may be swept."""
    if name in game.compiled.options:
        return "option"

    defs = {d.name: d for d in game.compiled.program.decls if isinstance(d, ast.Def)}
    if name in defs and not defs[name].params:
        return "def"
    names = sorted(game.compiled.options) + sorted(n for n, d in defs.items() if not d.params)
    raise ArgumentError(
        "sweep",
        f"{game.header.title} has no option or def without parameters named '{name}'",
        given=name,
        hint=did_you_mean(name, names) or "options and constants: " + ", ".join(names[:20]),
    )


def fair_at(section: dict[str, Any]) -> bool:
    """A count's games read as fair: every seat's 95% interval of its win rate holds its fair
    share, 1/players (no seat is shown to win more or less than its share)."""
    share = 1 / section["players"]
    return all(w["low"] <= share <= w["high"] for w in section["win_rates"])


def sweep(
    plan: Plan,
    name: str,
    values: Sequence[int],
    kind: str,
    jobs: int,
    watch: Watch = _no_watch,
    workers: sim.Workers | None = None,
    keep: Path | None = None,
) -> dict[str, Any]:
    """Play the plan once for each value of NAME (an option, or a def constant) on the same
    seeds, and keep what a sweep reads: at each value and count, each seat's win rate with
    its interval, no winner, the mean length, and whether the count reads as fair
    (`fair_at`). Each value's game is loaded (and, for a def, compiled) afresh."""
    points: list[dict[str, Any]] = []
    for value in values:
        if kind == "option":
            setup = replace(plan.setup, options={**plan.setup.options, name: value})
        else:
            setup = replace(plan.setup, constants={**plan.setup.constants, name: value})
        doc, _ = run(replace(plan, setup=setup), jobs, watch=watch, workers=workers, keep=keep)
        counts = [
            {
                "players": sec["players"],
                "seat_titles": sec["seat_titles"],
                "win_rates": sec["win_rates"],
                "no_winner": sec["no_winner"],
                "decisions": sec["decisions"]["mean"] if sec["decisions"] else None,
                "fair": fair_at(sec),
            }
            for sec in doc["counts"]
        ]
        points.append({"value": value, "counts": counts})
    fair = {
        str(k): [p["value"] for p in points for c in p["counts"] if c["players"] == k and c["fair"]]
        for k in plan.counts
    }
    return {"name": name, "kind": kind, "values": list(values), "points": points, "fair_values": fair}
