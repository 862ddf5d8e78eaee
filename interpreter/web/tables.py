"""Tables in play: a game, its states so far, who plays each seat, and their private links.

Every request names a table and a token; the token says which seat (or a spectator) is
asking, and that decides what the answer may show: a seat's view and narration are
those the engine gives that seat, never the whole state.

The store holds the truth (web/store.py); what is here is a cache of replayed tables,
brought up to the store's moves each time one is used, so a table evicted, replayed after
a restart or moved by another process is never behind what a page is told. One process
replays a table once however many pages ask for it at the same moment. A move is checked
(the asker is the seat to move, the move is legal, the asker saw the latest position),
committed to the store, then applied; the AI seats are played elsewhere, in the
background (web/ai.py), never inside a request.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import attrs

from interpreter.core.errors import UsageError
from interpreter.runtime.game import Game
from interpreter.runtime.load import load_game
from interpreter.runtime.machine import State
from interpreter.runtime.observe import observe
from interpreter.web.board import Narration
from interpreter.web.store import Committed, MoveConflict, Store, TableRecord
from interpreter.web.undo import revealed

SPECTATOR = ""  # the seat a spectator's token stands for: nobody's secrets
MAX_TABLES_IN_MEMORY = 100  # tables kept replayed in memory; the others are replayed again when asked for
AI_KINDS = ("random", "first", "mcts:0.2s", "ismcts:0.2s", "mcts:1s", "ismcts:1s")
KEPT_GAMES = 32  # games (a game's rules with their variants and options) kept loaded
MAX_SEED = 2**63 - 1  # a seed is stored as a 64-bit integer
NO_LINK = "no such table, or this link is not one of its seats"


class WebError(Exception):
    """A request the table refuses: its HTTP status and a message for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class Table:
    """A table replayed in memory: its game and every state from the start."""

    def __init__(self, record: TableRecord, game: Game, start: State):
        self.record = record
        self.game = game
        self.states = [start]  # states[0] is the start; states[n] follows move n - 1
        self.moves: list[tuple[str, str]] = []  # (seat, label) of each move
        self.step = 0  # the store's step this copy is at (moves made plus moves taken back)
        self.lock = threading.Lock()
        self.drawn: dict[tuple[int, str], str] = {}  # a page part by (step, seat): the latest only
        self.narration = Narration()
        self._observed: dict[tuple[int, str | None], dict] = {}  # the latest positions' observations

    def observed(self, i: int, viewer: str | None) -> dict:
        """`viewer`'s observation of state number `i`, kept while it is one of the last two
        (a page draws the last position, and marks what changed since the one before)."""
        obs = self._observed.get((i, viewer))
        if obs is None:
            obs = observe(self.game.compiled, self.states[i], viewer)
            for key in [k for k in self._observed if k[0] < len(self.states) - 2]:
                del self._observed[key]
            self._observed[(i, viewer)] = obs
        return obs

    @property
    def state(self) -> State:
        return self.states[-1]

    def catch_up(self, store: Store) -> None:
        """Apply the moves the store has and this copy has not (made by another request,
        another process, or before a restart), after taking back those the store no longer
        has (an undo agreed anywhere). Called with the lock held."""
        news = store.news(self.record.id, since=len(self.moves))
        if news.step == self.step:
            return
        if news.count != len(self.moves) + len(news.moves) or news.step - self.step != len(news.moves):
            # Moves were taken back: the moves both agree on keep their states (a table is
            # replayed exactly from its seed), the rest are replayed from the store's.
            news = store.news(self.record.id, since=0)
            same = 0
            while same < min(len(self.moves), len(news.moves)) and self.moves[same] == news.moves[same]:
                same += 1
            del self.states[same + 1 :], self.moves[same:]
            self.narration.forget(same + 1)
            self._observed.clear()
            news = attrs.evolve(news, moves=news.moves[same:])
        for seat, label in news.moves:
            self.states.append(self.game.apply(self.state, label))
            self.moves.append((seat, label))
        self.step = news.step

    def remember(self, step: int, seat: str, page: str) -> None:
        """Keep a seat's drawing of the latest position (older ones are never asked again)."""
        if step != self.step:
            return
        for key in [k for k in self.drawn if k[0] != step]:
            del self.drawn[key]
        self.drawn[(step, seat)] = page

    def seat_of(self, token: str) -> str:
        """The seat a token stands for (SPECTATOR for the spectators' token)."""
        if secrets.compare_digest(token.encode(), self.record.spectator.encode()):
            return SPECTATOR
        for seat, own in self.record.tokens.items():
            if secrets.compare_digest(token.encode(), own.encode()):
                return seat
        raise WebError(404, NO_LINK)

    def ai_to_move(self, state: State | None = None) -> str | None:
        """The AI seat whose decision is pending, if one is."""
        state = self.state if state is None else state
        if state.result is not None or state.pending is None:
            return None
        seat = state.pending.player
        return seat if self.record.agents.get(seat, "human") != "human" else None


def every_seat_of(game: Game) -> list[str]:
    """The seats of every player count of the game, in the order they first appear."""
    h = game.header
    seats: dict[str, None] = {}
    for n in range(h.min_players, h.max_players + 1):
        seats.update(dict.fromkeys(game.seats_for(n)))
    return list(seats)


class Tables:
    """Every table: created here, kept in the store, replayed on demand, moved in turn.

    `moved(table_id, count)` is told after each committed move (the event streams and
    the AI players listen); `ai_turn(table_id)` when an AI seat is to move; `talked(table_id,
    count)` after a line of chat (or a seat taken)."""

    def __init__(
        self,
        store: Store,
        moved: Callable[[str, int], None] = lambda table_id, count: None,
        ai_turn: Callable[[str], None] = lambda table_id: None,
        talked: Callable[[str, int], None] = lambda table_id, count: None,
    ):
        self.store = store
        self.moved = moved
        self.ai_turn = ai_turn
        self.talked = talked
        self._open: OrderedDict[str, Table] = OrderedDict()
        self._games: OrderedDict[str, Game] = OrderedDict()  # one loaded game per rules, shared by its tables
        self._gates: dict[str, threading.Lock] = {}  # one replay at a time per table
        self._lock = threading.Lock()

    def create(
        self,
        game_name: str,
        players: int | None,
        seats: dict[str, str],
        variants: tuple[str, ...] = (),
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        listed: bool = False,
        name: str | None = None,
    ) -> Table:
        """A new table; `seats` gives each seat `human` or an AI kind. A seat not named is
        human; a seat named that is not in play at this player count is left out (the
        form offers the seats of every count); a table needs one human seat. With a
        `name`, its creator takes the first human seat (the first seat in play when the
        form made none a person's); `listed`: the other human seats
        are offered in the lobby."""
        game = self.game(game_name, variants, options or {})
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise UsageError(f"seed {seed} is out of range", f"a whole number from 0 to {MAX_SEED}")
        seed = secrets.randbelow(2**31) if seed is None else seed
        start = game.start(players=players, seed=seed)
        every_seat = every_seat_of(game)
        for seat, kind in seats.items():
            if seat not in every_seat:
                raise UsageError(f"no seat '{seat}' in this game", "seats: " + ", ".join(start.players))
            if kind != "human" and kind not in AI_KINDS:
                raise UsageError(f"unknown player kind '{kind}'", "kinds: human, " + ", ".join(AI_KINDS))
        agents = {seat: seats.get(seat, "human") for seat in start.players}
        if name is not None and all(kind != "human" for kind in agents.values()):
            agents[start.players[0]] = "human"  # the creator plays: the first seat in play, if none is a person's
        if all(kind != "human" for kind in agents.values()):
            raise UsageError(
                "a table needs at least one human seat",
                "the web table is for people; to watch AI players alone, run the game from the command line",
            )
        record = TableRecord(
            id=secrets.token_urlsafe(9),
            game=game_name,
            variants=tuple(variants),
            options=dict(options or {}),
            players=len(start.players),
            seed=seed,
            agents=agents,
            tokens={seat: secrets.token_urlsafe(18) for seat in start.players},
            spectator=secrets.token_urlsafe(18),
        )
        table = Table(record, game, start)
        ai_first = table.ai_to_move() is not None
        first_human = next(seat for seat, kind in agents.items() if kind == "human")
        names = {first_human: name} if name is not None else {}
        self.store.create(record, ai_first, listed=listed, names=names)
        self._keep(table)
        if ai_first:
            self.ai_turn(record.id)
        return table

    def get(self, table_id: str) -> Table:
        """The table, replayed up to the store's latest move."""
        with self._lock:
            table = self._open.get(table_id)
            if table is not None:
                self._open.move_to_end(table_id)
            else:
                gate = self._gates.setdefault(table_id, threading.Lock())
        if table is None:
            with gate:  # pages reconnecting together: the first replays, the others wait for it
                with self._lock:
                    table = self._open.get(table_id)
                if table is None:
                    table = self._replay(table_id)
                    self._keep(table)
                with self._lock:
                    self._gates.pop(table_id, None)
        with table.lock:
            table.catch_up(self.store)
        return table

    def _replay(self, table_id: str) -> Table:
        record = self.store.table(table_id)
        if record is None:
            raise WebError(404, NO_LINK)
        game = self.game(record.game, record.variants, record.options)
        return Table(record, game, game.start(players=record.players, seed=record.seed))

    def game(self, name: str, variants: tuple[str, ...], options: dict[str, Any]) -> Game:
        """The game with these rules, loaded once and shared by every table that plays them
        (a game holds no position: each table keeps its own states)."""
        key = json.dumps([name, list(variants), options], sort_keys=True)
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
                return game
        game = load_game(name, variants=variants, options=options)
        with self._lock:
            game = self._games.setdefault(key, game)
            while len(self._games) > KEPT_GAMES:
                self._games.popitem(last=False)
        return game

    def _keep(self, table: Table) -> None:
        with self._lock:
            self._open[table.record.id] = table
            self._open.move_to_end(table.record.id)
            while len(self._open) > MAX_TABLES_IN_MEMORY:
                self._open.popitem(last=False)

    def move(self, table: Table, token: str, index: int, seen: int, key: str | None = None) -> int:
        """The seat of `token` takes its option `index`, having seen the table at step `seen`;
        the table's step after it. The same `key` sent again plays nothing again."""
        seat = table.seat_of(token)
        with table.lock:
            table.catch_up(self.store)
            state = table.state
            if key is not None and seen < table.step:
                done = self.store.played(table.record.id, key)
                if done is not None:  # this very request was played before: its answer again
                    return done
            if seen != table.step:
                raise WebError(409, "the position has changed since you saw it: look again")
            if state.result is not None:
                raise WebError(409, "the game is over")
            if seat == SPECTATOR or state.pending is None or state.pending.player != seat:
                raise WebError(403, "it is not your turn")
            labels = table.game.labels(state)
            if not 0 <= index < len(labels):
                raise WebError(400, f"no move number {index}: there are {len(labels)}")
            committed = self.commit(table, seat, labels[index], index, key)
        return committed.step

    def commit(self, table: Table, seat: str, label: str, index: int, key: str | None = None) -> Committed:
        """Commit a checked move to the store, then apply it here. Called with the lock held."""
        after = table.game.apply_index(table.state, index)
        try:
            committed = self.store.add_move(
                table.record.id,
                len(table.moves),
                seat,
                label,
                key,
                table.ai_to_move(after) is not None,
                over=after.result is not None,
                step=table.step,
            )
        except MoveConflict:
            table.catch_up(self.store)
            raise WebError(409, "the position has changed since you saw it: look again") from None
        if not committed.played:  # this key was played before: the same request again
            table.catch_up(self.store)
            return committed
        table.states.append(after)
        table.moves.append((seat, label))
        table.step = committed.step
        self.moved(table.record.id, committed.step)
        if committed.lapsed:
            self._say(table, "the request to take back a move lapsed: a move was made")
        if table.ai_to_move() is not None:
            self.ai_turn(table.record.id)
        return committed

    def join(self, table: Table, seat: str, name: str) -> str:
        """Take a free human seat for `name`: its token (the seat's private link)."""
        if table.record.agents.get(seat) != "human":
            raise WebError(400, f"'{seat}' is not a seat for a person at this table")
        if table.state.result is not None:
            raise WebError(409, "the game is over")
        if not self.store.take_seat(table.record.id, seat, name):
            raise WebError(409, f"someone has taken {seat} already: choose another seat")
        self.talked(table.record.id, self.store.add_note(table.record.id, SPECTATOR, f"{name} takes {seat}"))
        return table.record.tokens[seat]

    def chat(self, table: Table, token: str, text: str) -> int:
        """A line of chat from the seat of `token` (spectators read, they do not write)."""
        seat = table.seat_of(token)
        if seat == SPECTATOR:
            raise WebError(403, "spectators read the chat; the seats write in it")
        count = self.store.add_note(table.record.id, seat, text)
        self.talked(table.record.id, count)
        return count

    def undo(self, table: Table, token: str, seen: int) -> str:
        """The seat of `token` asks to take back its last move (and every move after it),
        having seen the table at step `seen`. Every other human seat must agree (AI seats
        have no say): with none, it is done at once. Refused when the moves would take back
        something someone saw that was hidden (web/undo.py). What happened, in words."""
        seat = table.seat_of(token)
        if seat == SPECTATOR or table.record.agents.get(seat) != "human":
            raise WebError(403, "only a person at the table takes back their own move")
        with table.lock:
            table.catch_up(self.store)
            if seen != table.step:
                raise WebError(409, "the position has changed since you saw it: look again")
            if table.state.result is not None:
                raise WebError(409, "the game is over")
            mine = [n for n, (by, _label) in enumerate(table.moves) if by == seat]
            if not mine:
                raise WebError(409, "you have made no move to take back")
            to = mine[-1]
            why = revealed(table.game, table.states[to:], seat)
            if why is not None:
                raise WebError(409, why)
            title = table.game.seat_title(seat)
            # Named by its number, not its label: the others are told the story, not each
            # other's moves (a label may name what they do not see).
            what = f"{title}'s last move (move {to + 1})"
            later = len(table.moves) - to - 1
            if later:
                what += f" and the {later} move{'s' if later > 1 else ''} after it"
            # Every other person at the table: a human seat nobody has taken yet has seen nothing.
            taken = self.store.names(table.record.id)
            voters = [s for s, kind in table.record.agents.items() if kind == "human" and s != seat and s in taken]
            if not voters:
                if self.store.take_back(table.record.id, to, table.step) is None:
                    raise WebError(409, "the position has changed since you saw it: look again")
                self._taken_back(table, f"{what}: taken back")
                return "taken back"
            request = {"seat": seat, "to": to, "step": table.step, "voters": voters, "agreed": [], "what": what}
            if not self.store.ask_undo(table.record.id, request):
                raise WebError(409, "another request to take back a move is being answered, or the table moved")
        self._say(table, f"{title} asks to take back {what}: the other players are asked")
        return "asked"

    def vote(self, table: Table, token: str, agree: bool, seen: int) -> str:
        """A seat's answer to the request to take back moves made at step `seen` (the asker
        answering no withdraws it). The last agreement takes the moves back; a refusal
        ends the request. What happened, in words; a vote given twice counts once."""
        seat = table.seat_of(token)
        request = self.store.undo_request(table.record.id)
        if request is None or request["step"] != seen:
            raise WebError(409, "no request to take back a move is waiting for an answer now")
        asker = seat == request["seat"]
        if not asker and seat not in request["voters"]:
            raise WebError(403, "this request is not yours to answer")
        if asker and agree:
            return "asked"
        with table.lock:
            voted = self.store.vote_undo(table.record.id, seat, agree, seen)
            if voted.outcome == "done":
                self._taken_back(table, f"{request['what']}: taken back, every player agreeing")
                return "taken back"
        title = table.game.seat_title(seat)
        if voted.outcome == "gone":
            raise WebError(409, "no request to take back a move is waiting for an answer now")
        if voted.outcome == "refused":
            self._say(table, f"{title} {'withdraws' if asker else 'refuses'}: no move is taken back")
            return "refused"
        self._say(table, f"{title} agrees to take back {request['what']}")
        return "agreed"

    def _taken_back(self, table: Table, line: str) -> None:
        """Moves were taken back in the store: this copy follows, every page hears it. Called
        with the lock held."""
        table.catch_up(self.store)
        self.moved(table.record.id, table.step)
        self._say(table, line)
        if table.ai_to_move() is not None:
            self.ai_turn(table.record.id)

    def _say(self, table: Table, line: str) -> None:
        """A line of the table's own in the chat, heard by every page."""
        self.talked(table.record.id, self.store.add_note(table.record.id, SPECTATOR, line))

    def rematch(self, table: Table, token: str) -> tuple[Table, str]:
        """The table started again with the same settings and people (a new seed): made
        once, by the first seat that asks; each seat's token for it."""
        seat = table.seat_of(token)
        if seat == SPECTATOR:
            raise WebError(403, "a rematch is started by a seat")
        if table.state.result is None:
            raise WebError(409, "the game is not over")
        record = table.record
        made = self.store.rematch_of(record.id)
        if made is None:
            names = self.store.names(record.id)
            new = self.create(record.game, record.players, dict(record.agents), record.variants, record.options)
            for taken, name in names.items():
                self.store.take_seat(new.record.id, taken, name)
            made = self.store.set_rematch(record.id, new.record.id)
        rematch = self.get(made)
        return rematch, rematch.record.tokens[seat] if seat in rematch.record.tokens else rematch.record.spectator

    def waiting_for_ai(self) -> list[str]:
        """The tables whose AI seat is to move, as the store knows them (after a restart)."""
        return self.store.waiting_for_ai()
