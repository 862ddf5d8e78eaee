"""`resample`: a position a seat cannot tell from this one, what it cannot see redrawn,
for the information-set search (interpreter/play/mcts.py). The cards in the places it cannot
see (opponents' hands, the deck) are dealt again among those places, face-down
components exchanged among those that look alike, hidden numbers (secret research)
redrawn by replaying the record of the moves with the others' secret choices drawn
again, and the random generator is a fresh one (the real one would tell what comes
next). `unresampled` says what cannot be redrawn (hidden numbers without the record).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

from interpreter.core.errors import UsageError
from interpreter.runtime.chance import CHANCE, ChanceEngine, ChanceTrail
from interpreter.runtime.engine import Engine
from interpreter.runtime.machine import VM, State
from interpreter.runtime.observe import observation_key, observe
from interpreter.runtime.theory import information_state

# ---- resampling -------------------------------------------------------------------------------
#
# A seat's hidden information comes in three forms, redrawn in three ways (`resample`):
#   * components in places it cannot see (a hand, a deck): dealt again among those places;
#   * face-down components (an entity whose fields are `visible when ...`): renamed by a random
#     permutation among the components that look alike to the seat;
#   * hidden numbers (a hidden variable holding values other than components): redrawn by
#     replaying the record of the moves with the others' secret choices drawn again.

PARTICLES = 16  # worlds kept per seat while replaying the record (hidden numbers)
REPAIR_MOVES = 20_000  # moves replayed at most to repair the worlds when none matches the seat's view
SIDEWAYS = 16  # changes kept that bring a world no closer (`_repair`)
RESTARTS = 3  # new sets of worlds replayed from the start when the kept ones cannot go on
RETRY_AFTER = 100  # entries of the record before worlds are looked for again after that failed
# for measurements: positions whose worlds were sought, moves replayed, repairs, fallbacks
stats = {"positions": 0, "moves replayed": 0, "repairs": 0, "fallbacks": 0}


def _hidden_numbers(g) -> list:
    """The hidden variables whose values are not components (a number, a text)."""
    from interpreter.language import syntax as ast

    out = []
    for info in g.var_order:
        if info.seen_by == "all":
            continue
        t = info.decl.type
        while isinstance(t, ast.MapType):
            t = t.value
        while isinstance(t, ast.ListType | ast.OptionalType):
            t = t.element if isinstance(t, ast.ListType) else t.inner
        if not (isinstance(t, ast.NamedType) and t.name in g.entity_decls):
            out.append(info)
    return out


def unresampled(game: Engine, state: State | None = None) -> list[str]:
    """The hidden variables whose values `resample` cannot redraw in `state` (without a state:
    in a position of ordinary play, or none for a game loaded in chance mode). Components
    are always redrawn, hidden or face down; hidden numbers (values other than components,
    such as secret research boxes) only by replaying the record of the moves, which a state
    of chance mode carries (`load_game(..., chance=True)`) and a state of ordinary play
    does not."""
    if state is not None and state.chance is not None or isinstance(game, ChanceEngine):
        return []
    return [info.name for info in _hidden_numbers(game.compiled)]


def resample(game: Engine, state: State, seat: str, rng: random.Random) -> State:
    """A position `seat` cannot tell from `state`: what it cannot see, redrawn at random.

    1. Hidden numbers (`_replayed_world`): a value kept hidden that is not a component (a
       Power's secret research boxes) is what secret choices made it. The record of the
       moves (chance mode) is played again from the start, every move the seat saw and every
       draw as recorded, every secret choice of another seat drawn again among the options
       then legal; a world is kept only if the seat would have seen the same movers and the
       same lines logged to it, and now sees the same observation and options (the comment
       above `_CHANCE_TWINS`). Why a replay and not a permutation of the hidden values among
       their keys (counts per box kept): a permutation keeps the rules' invariants only by
       chance (a second level researched without the first, a tile a Power does not own, a
       tile shown to all and no longer in its box), so play going on from it meets positions
       no rule expects, and it disagrees with the evidence the seat has seen (a tile revealed
       in a combat, two missions gained, the number of tiles laid). A replayed world is a game
       the rules themselves played, so play continues from it without a rule error, and it
       agrees with everything the seat saw. Every world it gives is consistent; they are
       drawn with the others' choices uniform among their options and carried along the
       record as a particle filter, not sampled exactly from what the seat should believe.
       Draws are replayed as they fell (the components they dealt are redrawn by the next
       steps): a number drawn in secret would be kept, and no bundled game draws one. It
       needs the record: `unresampled` lists these variables for a state of ordinary play.
    2. Face-down components (`_face_down`): the seat sees a component whose fields it
       may not all see as the fields it may see (observe.py), its entries in maps keyed by
       components as hidden, and its name in a log line as "a hidden KIND". Components of one
       kind whose visible fields are equal are therefore interchangeable: a random
       permutation within each such class, applied to every occurrence in the state
       (values of variables, lists, map entries keyed by them, the procedures' locals, the
       pending options, the log, the record), gives a position with the same observation,
       and every arrangement of the face-down components the seat cannot rule out now comes
       out equally likely. It ignores perfect recall: a component the seat saw face up and
       later saw turned face down is redrawn as if never seen. The record cannot tell this
       cheaply (it keeps the moves and their log lines, not what was face up when), and the
       bundled games never turn a component face down (`face_up` only ever becomes true in
       Berlin Wall and Walls and Wonders), so there it is exact.
    3. Components in places the seat cannot see whose faces it would see (cards in an
       opponent's hand or the deck): dealt again at random among those places, each place
       keeping its count.

    Last, a fresh random generator (the real one would tell the dice and shuffles to come).
    """
    g = game.compiled
    numbers = _hidden_numbers(g)
    if numbers and state.chance is None:
        names = ", ".join(info.name for info in numbers)
        raise UsageError(
            f"{game.header.title} hides values that only a replay of the moves can redraw ({names}), "
            "and this position carries no record of them",
            "play the game in chance mode: load_game(name, chance=True)",
        )
    if numbers and _others_chose_in_secret(state.chance.trail, seat):
        state = _replayed_world(game, state, seat, rng)
    state, face_down = _face_down(g, state, seat, rng)
    state = _dealt_again(g, state, seat, face_down, rng)
    from interpreter.core import rng as game_rng

    return state._replace(rng=game_rng.seed_state(rng.randrange(1 << 62)), pins=())


# -- components in hidden places ------------------------------------------------------------------
def _dealt_again(g, state: State, seat: str, face_down: set, rng: random.Random) -> State:
    """The components the seat would see by face, in places it cannot see, dealt again."""
    places: list[tuple[int, tuple, int | None]] = []  # (variable slot, path of indices, place in a list)
    pool: list[str] = []
    for info in g.var_order:
        if info.seen_by == "all":
            continue
        raw = state.vars[info.slot]
        entries: list[tuple[tuple[int, ...], Any]]  # (path of indices, value)
        if info.keys is None:
            entries = [((), raw)]
        else:
            entries = [((i,), raw[i]) for i, k in enumerate(info.keys) if info.seen_by == "none" or k != seat]
        for path, value in entries:
            if isinstance(value, tuple) and all(isinstance(v, str) and v in g.kind_of for v in value):
                for i, c in enumerate(value):
                    if c not in face_down:
                        places.append((info.slot, path, i))
                        pool.append(c)
            elif isinstance(value, str) and value in g.kind_of and value not in face_down:
                places.append((info.slot, path, None))
                pool.append(value)
    if not places:
        return state
    pool.sort()  # the same pool in the same order whatever the hidden places held
    rng.shuffle(pool)
    by_kind: dict[str, list[str]] = {}
    for c in pool:
        by_kind.setdefault(g.kind_of[c], []).append(c)
    values = list(state.vars)
    for slot, path, at in places:
        old = values[slot] if not path else values[slot][path[0]]
        new = by_kind[g.kind_of[old if at is None else old[at]]].pop()
        if at is not None:
            new = old[:at] + (new,) + old[at + 1 :]
        if not path:
            values[slot] = new
        else:
            row = list(values[slot])
            row[path[0]] = new
            values[slot] = tuple(row)
    return state._replace(vars=tuple(values))


# -- face-down components -------------------------------------------------------------------------
def _face_down(g, state: State, seat: str, rng: random.Random) -> tuple[State, set]:
    """`state` with the components hidden from `seat` by their fields renamed at random
    within each class of one kind and equal visible fields; and the set of those components."""
    from interpreter.runtime.observe import visible_fields

    vm = VM(g, state)
    names: dict[str, str] = {}
    shown: dict[str, dict] = {}
    for kind, rules in g.visibility.items():
        if not rules:
            continue
        classes: dict[tuple, list[str]] = {}
        for c in g.types[kind]:  # in declaration order: the classes do not depend on where things are
            fields = visible_fields(g, vm, c, seat)
            if fields is not None:
                shown[c] = fields
                classes.setdefault(tuple(fields.items()), []).append(c)
        order = _first_seen(g, state, {c for members in classes.values() for c in members}, kind)
        for members in classes.values():
            if len(members) > 1:
                drawn = members[:]  # in declaration order, then shuffled: the names to give out
                rng.shuffle(drawn)
                where = sorted(members, key=lambda c: order.get(c, len(order)))  # as they lie
                names.update((c, d) for c, d in zip(where, drawn, strict=True) if c != d)
    if not names:
        return state, set(shown)
    renamed = _renamed_state(g, state, names)
    after = VM(g, renamed)  # a `visible when` reading a hidden field could tell them apart:
    changed = {g.kind_of[c] for c, d in names.items() if visible_fields(g, after, d, seat) != shown[c]}
    if changed:  # then that kind stays as it is
        names = {c: d for c, d in names.items() if g.kind_of[c] not in changed}
        renamed = _renamed_state(g, state, names) if names else state
    return renamed, set(shown)


def _first_seen(g, state: State, wanted: set, kind: str) -> dict[str, int]:
    """The components of `wanted` in the order of their first occurrence in the state (the
    variables in order, then the procedures' locals, the pending options, the log), skipping
    maps keyed by `kind`, whose order is their keys' names. So the names given out depend
    on where the face-down components lie, never on which is where: two positions that
    differ only in that get the same world from the same generator."""
    order: dict[str, int] = {}

    def walk(value):
        if isinstance(value, str):
            if value in wanted and value not in order:
                order[value] = len(order)
        elif value.__class__ is tuple:
            for v in value:
                walk(v)

    for info in g.var_order:
        if not any(keys and g.kind_of.get(keys[0]) == kind for keys, _ in info.levels):
            walk(state.vars[info.slot])
    for frame in state.frames:
        walk(frame[2])
    if state.pending is not None:
        walk(state.pending.values)
    walk(tuple(entry[2] for entry in state.log))
    return order


def _type_names(t) -> set[str]:
    from interpreter.language import syntax as ast

    if isinstance(t, ast.NamedType):
        return {t.name}
    if isinstance(t, ast.ListType):
        return _type_names(t.element)
    if isinstance(t, ast.OptionalType):
        return _type_names(t.inner)
    if isinstance(t, ast.MapType):
        return _type_names(t.key) | _type_names(t.value)
    return {"?"}


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if value.__class__ is tuple:
        return tuple([_renamed(v, names) for v in value])
    return value


def _renamed_entries(levels: tuple, value: tuple, names: dict[str, str]) -> Any:
    """A map variable's value renamed: its values, and its entries keyed by renamed components
    moved to their new keys (the entry of c becomes the entry of names[c])."""
    if not levels:
        return _renamed(value, names)
    keys, index = levels[0]
    entries = [_renamed_entries(levels[1:], v, names) for v in value]
    moved = [(index[k], index[names[k]]) for k in keys if k in names]
    if moved:
        old = entries[:]
        for i, j in moved:
            entries[j] = old[i]
    return tuple(entries)


def _renamed_state(g, state: State, names: dict[str, str]) -> State:
    """`state` with every occurrence of a component renamed as `names` says."""
    kinds = {g.kind_of[c] for c in names}
    values = list(state.vars)
    for info in g.var_order:
        types = _type_names(info.decl.type)
        if any(t in kinds or (t not in g.types and t not in ("int", "bool", "str")) for t in types):
            values[info.slot] = _renamed_entries(info.levels, values[info.slot], names)
    pending = state.pending
    if pending is not None:
        pending = pending._replace(values=_renamed(pending.values, names))
    record = state.chance
    if record is not None:
        node = record.node
        if node is not None:
            base = None if node.base is None else _renamed_state(g, node.base, names)
            node = node._replace(base=base, outcomes=_renamed(node.outcomes, names))
        trail = tuple((p, label, secret, _renamed_log(log, names)) for p, label, secret, log in record.trail)
        record = ChanceTrail(node, trail)
    return state._replace(
        vars=tuple(values),
        frames=tuple((code, pc, _renamed(local, names)) for code, pc, local in state.frames),
        pending=pending,
        pins=_renamed(state.pins, names),
        log=_renamed_log(state.log, names),
        chance=record,
    )


def _renamed_log(log: tuple, names: dict[str, str]) -> tuple:
    return tuple((audience, fmt, _renamed(values, names)) for audience, fmt, values in log)


# -- hidden numbers: worlds replayed from the record ----------------------------------------------
#
# The record (chance mode's trail) lists every move: who chose, the label, whether it was
# secret, and after each move the lines it logged. A *segment* is one decision, the draws it
# needed, and its log entry. A world is replayed segment by segment: the seat's own moves,
# every move it saw and every draw as recorded; another seat's secret choice drawn again,
# its options tried in a random order until the segment looks to the seat as recorded
# (the same player to move, the same secrecy, the same lines logged to it).
#
# A choice made early can be contradicted only much later (a tile researched in secret,
# revealed in a combat turns later; a count of tiles laid that the view shows and no line
# logs), so a world is not drawn afresh for every search iteration: `PARTICLES` worlds are
# carried along the record as it grows (a particle filter), kept for the caller's generator
# (a search agent's own) between its calls. A world that cannot go on is dropped and a
# surviving one copied; at each call, a world whose observation differs from the seat's is
# dropped too. When none is left, `_repair` changes one: one earlier secret choice at a time
# (latest first), then one seat's choices drawn again, keeping a change whenever the world
# then goes further or misses fewer lines, until it matches. Every random draw of the replay
# comes from a generator seeded by a digest of the seat's view of the record (the labels and
# lines it saw), so the worlds depend on what the seat saw and on the caller's earlier calls,
# never on what it could not see.

_CHANCE_TWINS: dict[int, tuple] = {}  # id(compiled game) -> (compiled game, its ChanceEngine)
# per caller's generator: (id(compiled), seat, players) -> (compiled, digest, index, particles)
_BELIEFS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_ROOT: list = []  # [state, seat, generator, worlds]: the last position asked about, for every iteration


def _others_chose_in_secret(trail: tuple, seat: str) -> bool:
    return any(secret and player not in (None, CHANCE, seat) for player, _, secret, _ in trail)


def _chance_twin(game: Engine):
    if isinstance(game, ChanceEngine):
        return game
    g = game.compiled
    twin = _CHANCE_TWINS.get(id(g))
    if twin is None or twin[0] is not g:
        twin = _CHANCE_TWINS[id(g)] = (g, ChanceEngine(g, game.name, game.variants, game.options))
        if len(_CHANCE_TWINS) > 8:  # the oldest let go
            del _CHANCE_TWINS[next(iter(_CHANCE_TWINS))]
    return twin[1]


class _View(NamedTuple):
    """The record as `seat` sees it: per trail entry, the log entries it may read (for a log
    entry); a digest of everything a replay reads up to each index (keys for kept worlds);
    and a digest of the seat's view up to each index (seeds for the replay's draws)."""

    trail: tuple
    seat: str
    lines: list
    digests: list
    seeds: list


# per seat: the last record a view was made of, its view, and the two running digests' bytes
_VIEWS: dict[str, tuple[tuple, _View, bytes, bytes]] = {}


def _view(state: State, seat: str) -> _View:
    """The record as `seat` sees it (`_View`). The record only grows during a game, and a
    seat asks at each of its decisions: the view of the record it last asked about is kept
    and extended by the entries added since, not digested again from the start (a whole
    record at each decision was 2% of a look-ahead game of Downfall of Empires)."""
    import hashlib

    trail = state.chance.trail
    kept = _VIEWS.get(seat)
    if kept is not None and len(kept[0]) <= len(trail) and trail[: len(kept[0])] == kept[0]:
        done, old, digest, seed = kept
        lines, digests, seeds = old.lines[:], old.digests[:], old.seeds[:]
    else:
        done, lines, digest, seed = (), [], b"", b""
        digests, seeds = [digest], [0]
    item: tuple  # what a replay reads of the entry, and what the seat sees of it
    seen: tuple
    blake = hashlib.blake2b
    for player, label, secret, log in trail[len(done) :]:
        if player is None:
            mine = tuple(e for e in log if e[0] is None or e[0] == seat)
            lines.append(mine)
            item, seen = ("log", mine), ("log", len(mine))
        else:
            lines.append(None)
            shown = label if not secret or player == seat else None
            item = (player, secret, label if player == CHANCE else shown)
            seen = (player, secret, shown)
        digest = blake(digest + repr(item).encode(), digest_size=16).digest()
        seed = blake(seed + repr(seen).encode(), digest_size=16).digest()
        digests.append(digest)
        seeds.append(int.from_bytes(seed, "big"))
    view = _View(trail, seat, lines, digests, seeds)
    _VIEWS[seat] = (trail, view, digest, seed)
    return view


def _lines_missed(g, s: State, log: tuple, expected: Sequence, seat: str) -> int:
    """How many lines a replayed move logged to the seat differ from what the recorded one
    logged (0: the same; hidden components read as the seat reads them in the replay)."""
    mine = [e for e in log if e[0] is None or e[0] == seat]
    if mine == list(expected):
        return 0
    if any(g.visibility.values()):
        from interpreter.runtime.observe import hidden_test

        hidden = hidden_test(g, s, seat)
        mine, expected = [g.render_log(e, hidden) for e in mine], [g.render_log(e, hidden) for e in expected]
    missed = list(expected)
    extra = 0
    for line in mine:
        if line in missed:
            missed.remove(line)
        else:
            extra += 1
    return extra + len(missed)


BLOCKED = 1000  # a replayed move that cannot be made as recorded, counted as that many lines


# A particle: (state, trail index reached, history of its redrawn choices as a linked list of
# (index, player, label, state before, earlier history)).
def _segment(cg, particle: tuple, view: _View, rng: random.Random, prefer=None, avoid=None) -> tuple | int:
    """The particle after the next segment of the record; or, if no option of its redrawn
    choice makes the segment look to the seat as recorded, the fewest lines missed (`BLOCKED`
    for a move that could not be made). `prefer` (trail index -> label): the redrawn choice
    there tries that label first; `avoid`: never that label."""
    g, seat, trail, lines = cg.compiled, view.seat, view.trail, view.lines
    s0, j0, history0 = particle
    end = j0
    while end < len(trail) and trail[end][0] is not None:
        end += 1
    stop = min(end + 1, len(trail))
    untried: list[int] | None = None  # the redrawn choice's options not yet tried
    fewest = BLOCKED
    while True:
        s, j, history = s0, j0, history0
        missed = 0
        while j < stop:
            player, label, secret, _ = trail[j]
            p = s.pending
            if player is None or p is None or p.player != player:
                missed = BLOCKED
                break
            labels = cg.labels(s)
            if player == CHANCE:  # a draw as it fell, unless a redrawn choice ruled it out
                i = labels.index(label) if label in labels else rng.randrange(len(labels))
            elif secret and player != seat:
                if untried is None:
                    untried = list(range(len(labels)))
                    rng.shuffle(untried)
                    want = prefer.get(j) if prefer is not None else None
                    if want in labels:
                        untried.remove(labels.index(want))
                        untried.append(labels.index(want))
                    shunned = avoid.get(j) if avoid is not None else None
                    if shunned in labels:
                        untried.remove(labels.index(shunned))
                if not untried:
                    return fewest
                i = untried.pop()
                if len(labels) > 1:
                    history = (j, player, labels[i], s, history)
            elif label in labels:
                i = labels.index(label)
            else:
                missed = BLOCKED
                break
            s = cg.apply_index(s, i)
            stats["moves replayed"] += 1
            replayed = s.chance.trail
            if replayed[j][2] != secret:
                missed = BLOCKED
                break
            j = len(replayed)
            if replayed[-1][0] is None:
                if trail[j - 1][0] is not None:
                    missed = BLOCKED
                    break
                missed = _lines_missed(g, s, replayed[-1][3], lines[j - 1], seat)
                if missed:
                    break
        if not missed:
            return (s, j, history)
        fewest = min(fewest, missed)
        if not untried:
            return fewest


def _chain(particle: tuple) -> list:
    """A particle's redrawn choices, oldest first."""
    chain, history = [], particle[2]
    while history is not None:
        chain.append(history)
        history = history[4]
    return chain[::-1]


def _proposals(cg, chain: list, mover: str | None, rng: random.Random, focus: tuple | None = None):
    """Changes to try in a world whose redrawn choices are `chain`, as (cut, prefer, avoid):
    first one choice changed (each other option in turn, every later choice kept where it
    still can be): after the last change made (`focus`: its index and seat), that seat's
    next choices first, then every choice latest first; then one seat's choices drawn
    again from its latest one back (1, 2, 4, ... choices; the mover of the failing move
    first), the others' kept."""
    first = [h for h in chain if focus is not None and h[0] > focus[0] and h[1] == focus[1]]
    for cut in first + [h for h in reversed(chain) if h not in first]:
        later = {h[0]: h[2] for h in chain if h[0] > cut[0]}
        others = [label for label in cg.labels(cut[3]) if label != cut[2]]
        rng.shuffle(others)
        for label in others:
            yield cut, {**later, cut[0]: label}, {cut[0]: cut[2]}
    seats = sorted({h[1] for h in chain})
    order = [mover] + [q for q in seats if q != mover] if mover in seats else seats
    for k in range(len(order) * 12):
        redo = order[k % len(order)]
        mine = [h for h in chain if h[1] == redo]
        depth = 2 ** (k // len(order))
        cut = mine[-depth] if depth <= len(mine) else mine[0]
        yield cut, {h[0]: h[2] for h in chain if h[0] > cut[0] and h[1] != redo}, None


def _replay_from(cg, cut: tuple, view: _View, stop: int, rng: random.Random, prefer, avoid, final=None):
    """(particle, score): the world replayed from `cut` to index `stop` (then scored by
    `final`, 0 for a world that passes), or as far as it went; a score is (-index reached,
    lines missed there), smaller being better, (0, 0) for a world that passes."""
    particle = (cut[3], cut[0], cut[4])
    while particle[1] < stop:
        went = _segment(cg, particle, view, rng, prefer, avoid)
        if not isinstance(went, tuple):
            return particle, (-particle[1], went)
        particle = went
    if final is None:
        return particle, (0, 0)
    missed = final(particle[0])
    return particle, ((0, 0) if missed == 0 else (-stop - 1, missed))


def _repair(cg, current: tuple, best: tuple, view: _View, stop: int, rng: random.Random, final=None):
    """A world that goes to `stop` (and passes `final`), from `current`, which went only as
    far as its score `best` says: `_proposals` made in it and replayed, the first that goes
    further or misses fewer lines becoming the world to change next (a combat can show two
    seats' research at once: one is fixed, then the other). A change that does as well is
    kept at times too (`SIDEWAYS`), that seat's next choices tried first: a tile must be
    started before it is finished, two changes before any shows. Up to `REPAIR_MOVES` moves
    replayed (a change whose own move shows it wrong costs one)."""
    stats["repairs"] += 1
    trail = view.trail
    sideways = 0
    focus = None
    budget = stats["moves replayed"] + REPAIR_MOVES
    while stats["moves replayed"] < budget:
        j = -best[0] if best[0] < 0 else len(trail)
        mover = trail[j][0] if j < len(trail) else None
        for cut, prefer, avoid in _proposals(cg, _chain(current), mover, rng, focus):
            if stats["moves replayed"] >= budget:
                return None
            particle, score = _replay_from(cg, cut, view, stop, rng, prefer, avoid, final)
            if score == (0, 0):
                return particle
            if score < best or (score == best and avoid and sideways < SIDEWAYS and rng.random() < 0.5):
                sideways += score == best
                best, current, focus = score, particle, cut[:2]
                break
        else:
            return None
    return None


def _segments(cg, particles: list, view: _View, rng: random.Random) -> list:
    """`_segment` of each particle in turn, with `rng` shared as it goes. Two worlds whose
    redrawn choices came to the same position (a few tiles to choose from, sixteen worlds)
    differ only in the record behind them, which a replayed move only appends to: a segment
    that draws nothing from `rng` takes them to the same position, so it is replayed once
    and the position given to the other with its own record (the same worlds as replaying
    each, at a third less of the replay's cost in Downfall of Empires)."""
    out: list = []
    done: dict[tuple, tuple] = {}  # a position and index -> (the particle replayed from it, where it went)
    for p in particles:
        s, j = p[0], p[1]
        key = None
        if s.chance.node is None:  # (a pending draw's node holds the position its move was made in)
            key = (s.players, s.vars, s.frames, s.pending, s.rng, s.pins, s.result, s.decisions, j)
            shared = done.get(key)
            if shared is not None:
                out.append(_moved(shared[0], shared[1], p))
                continue
        before = rng.getstate()
        went = _segment(cg, p, view, rng)
        out.append(went)
        if (
            key is not None
            and rng.getstate() == before
            and (not isinstance(went, tuple) or went[0].chance.node is None)
        ):
            done[key] = (p, went)
    return out


def _moved(first: tuple, went: tuple | int, other: tuple) -> tuple | int:
    """Where `other` goes in a segment that took `first`, at the same position and drawing
    nothing, to `went` (`_segments`): the same position, after `other`'s own record."""
    if not isinstance(went, tuple):
        return went
    s, j, _ = went
    added = s.chance.trail[first[1] :]
    return (s._replace(chance=ChanceTrail(None, other[0].chance.trail + added)), j, other[2])


def _advance(cg, particles: list, view: _View, stop: int, salt: int) -> list | None:
    """The particles carried segment by segment to index `stop` (a segment's end)."""
    trail = view.trail
    while particles[0][1] < stop:
        j = particles[0][1]
        rng = random.Random(view.seeds[j] ^ salt)
        went = _segments(cg, particles, view, rng)
        going = [q for q in went if isinstance(q, tuple)]
        if not going:
            k = min(range(len(went)), key=went.__getitem__)
            end = j
            while end < len(trail) and trail[end][0] is not None:
                end += 1
            rescued = _repair(cg, particles[k], (-j, went[k]), view, min(end + 1, len(trail)), rng)
            if rescued is None:
                return None
            going = [rescued]
        while len(going) < PARTICLES:
            going.append(going[rng.randrange(len(going))])
        particles = going
    return particles


def _differences(a: Any, b: Any) -> int:
    """How many values differ between two observations."""
    if isinstance(a, dict) and isinstance(b, dict):
        return sum(_differences(a.get(k), b.get(k)) for k in a.keys() | b.keys())
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return sum(_differences(x, y) for x, y in zip(a, b, strict=True))
    return int(a != b)


def _worlds(game: Engine, state: State, seat: str, owner: random.Random) -> list[State]:
    """The replayed worlds consistent with everything `seat` saw up to `state` (the comment
    above `_CHANCE_TWINS`), as `PARTICLES` states (a world may be there several times).
    They are kept for the caller's generator `owner` (a search agent's own) and carried on
    from its last call when the record has grown since. If they cannot be carried on, a new
    set is replayed from the start (its draws from other seeds), up to `RESTARTS` times;
    after that, none is looked for until the record has grown by `RETRY_AFTER` entries."""
    cg = _chance_twin(game)
    g = cg.compiled
    view = _view(state, seat)
    trail = view.trail
    try:
        beliefs = _BELIEFS.setdefault(owner, {})
    except TypeError:  # a generator that cannot be referred to weakly: nothing kept
        beliefs = {}
    key = (id(g), seat, len(state.players))
    kept = beliefs.get(key)
    if kept is not None and kept[0] is g and kept[3] is None and len(trail) < kept[2] + RETRY_AFTER:
        return []  # given up on lately
    # The seat's view now, beyond the lines it read: its observation (a count shown but never
    # logged), its options if it is to move, and with face-down components the whole
    # information state (past lines as it reads them now).
    seen: list[dict] = []  # the observation, made when a world is observed (`mismatch`)
    options = cg.labels(state) if state.pending is not None and state.pending.player == seat else None
    face_down = any(g.visibility.values())
    info = information_state(cg, state, seat) if face_down else None

    # Most worlds pass: without face-down components, the values the observation is made of
    # are compared first, and a world is observed only when they differ.
    looks_now = None if face_down else observation_key(g, state, seat)

    def mismatch(world: State) -> int:
        if looks_now is not None and observation_key(g, world, seat) == looks_now:
            n = 0
        else:
            if not seen:
                seen.append(observe(g, state, seat))
            looks = observe(g, world, seat)
            n = 0 if looks == seen[0] else _differences(looks, seen[0])
        n += options is not None and cg.labels(world) != options
        return n + (face_down and information_state(cg, world, seat) != info)

    for restart in range(RESTARTS + 1):
        salt = restart * 0x9E3779B97F4A7C15
        particles = None
        if restart == 0 and kept is not None and kept[0] is g and kept[3] is not None:
            if kept[2] <= len(trail) and view.digests[kept[2]] == kept[1]:
                particles = kept[3]
        if particles is None:
            s = cg.start(players=len(state.players))
            j = len(s.chance.trail)
            if j and (trail[0][0] is not None or _lines_missed(g, s, s.chance.trail[0][3], view.lines[0], seat)):
                break
            particles = [(s, j, None)] * PARTICLES
        good = _settled(cg, _advance(cg, particles, view, len(trail), salt), view, salt, mismatch)
        if good:
            if trail[-1][0] is None:  # not inside a move (a draw pending): kept for the next call
                beliefs[key] = (g, view.digests[-1], len(trail), good)
            return [p[0] for p in good]
    beliefs[key] = (g, None, len(trail), None)
    return []


def _settled(cg, particles: list | None, view: _View, salt: int, mismatch) -> list:
    """The particles that pass the check of the present position, `PARTICLES` of them
    again (survivors copied), or one repaired from the closest; [] if none."""
    if particles is None:
        return []
    rng = random.Random(view.seeds[-1] ^ salt)
    missed: dict[int, int] = {}
    for p in particles:
        if id(p[0]) not in missed:
            missed[id(p[0])] = mismatch(p[0])
    good = [p for p in particles if missed[id(p[0])] == 0]
    if not good:  # from the world that differs least
        closest = min(particles, key=lambda p: missed[id(p[0])])
        best = (-len(view.trail) - 1, missed[id(closest[0])])
        settled = _repair(cg, closest, best, view, len(view.trail), rng, mismatch)
        if settled is None:
            return []
        good = [settled]
    while len(good) < PARTICLES:
        good.append(good[rng.randrange(len(good))])
    return good


def _replayed_world(game: Engine, state: State, seat: str, rng: random.Random) -> State:
    """One of the replayed worlds (`_worlds`), drawn with `rng`, found once per position,
    seat and generator and reused by every later call. The fallback, when `_worlds` finds
    none: the position itself, whose hidden numbers the search then reads (counted in
    `stats["fallbacks"]`: 7 calls of 3,800 over 24 measured games, all late in one game)."""
    if not (_ROOT and _ROOT[0] is state and _ROOT[1] == seat and _ROOT[2] is rng):
        stats["positions"] += 1
        _ROOT[:] = [state, seat, rng, _worlds(game, state, seat, rng)]
    worlds = _ROOT[3]
    if not worlds:
        stats["fallbacks"] += 1
        return state
    return worlds[rng.randrange(len(worlds))]
