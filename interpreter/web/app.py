"""The web table: an ASGI app (Starlette, templates with Jinja2) over the tables in a store.

Pages:
    GET  /                              the games, and a form that starts a table
    POST /tables                        start a table; answers with its seats' private links
    GET  /t/{table}/{token}             a seat's (or the spectators') page
    GET  /t/{table}/{token}/board       the part of that page that changes (HTML)
    GET  /t/{table}/{token}/events      server-sent events: the table's step, when it changes
    POST /t/{table}/{token}/move        play option `index`, having seen step `seen` (`key`: once)
    POST /t/{table}/{token}/undo        ask to take back this seat's last move, having seen step `seen`
    POST /t/{table}/{token}/vote        answer (`agree`: yes or no) the request made at step `seen`
    GET  /t/{table}/{token}/transcript  what this seat may take away (web/downloads.py)
    GET  /static/{file}                 the pages' script and style sheet

A token is the only key to a seat: it is never shown to another seat, and every answer is
made from that seat's observation. A refused request changes nothing and says why; a
store that cannot be read is a 503 with the reason, never a traceback.

Nothing slow runs on the event loop: boards are drawn and moves applied in worker
threads, AI seats are played by their own pool (web/ai.py), and an event stream is a
coroutine waiting on the hub (web/hub.py), not a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import re
import threading
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from interpreter.core.errors import GameDefError, GameRuntimeError, SettingError, UsageError
from interpreter.core.options import option_value
from interpreter.runtime.engine import IllegalMove
from interpreter.runtime.load import bundled_games
from interpreter.runtime.machine import State
from interpreter.runtime.observe import observe
from interpreter.web.ai import AIPlayers
from interpreter.web.board import draw
from interpreter.web.cards import card_texts, marked_lines
from interpreter.web.defences import Defences
from interpreter.web.downloads import download
from interpreter.web.hub import Hub
from interpreter.web.lobby import GameCard, GameForm, game_card, game_form, picture
from interpreter.web.store import Store, StoreUnavailable
from interpreter.web.stores import open_store
from interpreter.web.tables import AI_KINDS, NO_LINK, SPECTATOR, Table, Tables, WebError

MAX_BODY = 8192  # bytes of a form: a move or a new table needs a few hundred
MAX_FIELD = 400  # characters of one field of a form (a game's name, its variants, its options)
EVENT_WAIT = 15.0  # seconds an event stream waits before a keep-alive line (and a look at the store)
KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a move's idempotency key
MAX_NAME = 40  # characters of a player's name
MAX_CHAT = 300  # characters of a line of chat

log = logging.getLogger("gamedef.web")

_templates = jinja2.Environment(
    loader=jinja2.PackageLoader("interpreter.web", "templates"),
    autoescape=jinja2.select_autoescape(["html"]),
)

Endpoint = Callable[[Request], Awaitable[Response]]


def create_app(
    db: str | Path = ":memory:",
    games: list[str] | None = None,
    *,
    hosts: Iterable[str] = (),
    ai_threads: int = 1,
    ai_processes: bool = False,
) -> Starlette:
    """The app, its tables in `db` (a SQLite file, or a `postgresql://` URL); `games` limits
    the games offered; `hosts` are the host names it answers to besides this machine's;
    the AI seats are played by `ai_threads` threads, in worker processes if `ai_processes`."""
    web = WebTable(db, games or list(bundled_games()), ai_threads, ai_processes)
    pages = [
        ("/", web.lobby, ["GET"]),
        ("/new/{game}", web.new_table_form, ["GET"]),
        ("/tables", web.create, ["POST"]),
        ("/t/{table}/join", web.join, ["POST"]),
        ("/t/{table}/{token}", web.seat_page, ["GET"]),
        ("/t/{table}/{token}/board", web.board, ["GET"]),
        ("/t/{table}/{token}/talk", web.talk, ["GET"]),
        ("/t/{table}/{token}/chat", web.chat, ["POST"]),
        ("/t/{table}/{token}/events", web.events, ["GET"]),
        ("/t/{table}/{token}/move", web.move, ["POST"]),
        ("/t/{table}/{token}/rematch", web.rematch, ["POST"]),
        ("/t/{table}/{token}/undo", web.undo, ["POST"]),
        ("/t/{table}/{token}/vote", web.vote, ["POST"]),
        ("/t/{table}/{token}/replay", web.replay, ["GET"]),
        ("/t/{table}/{token}/transcript", web.transcript, ["GET"]),
    ]
    routes: list[BaseRoute] = [Route(path, _guarded(page), methods=methods) for path, page, methods in pages]
    routes.append(Mount("/static", StaticFiles(packages=[("interpreter.web", "static")]), name="static"))
    app = Starlette(routes=routes, lifespan=web.lifespan, middleware=[Middleware(Defences, hosts=tuple(hosts))])
    app.state.tables = web.tables
    app.state.hub = web.hub
    app.state.players = web.players
    return app


class WebTable:
    """The web table's pages, over one store, one hub and one pool of AI players."""

    def __init__(self, db: str | Path, offered: list[str], ai_threads: int, ai_processes: bool):
        self.hub = Hub()
        self.store = open_store(db)
        self.tables = Tables(self.store, moved=self.hub.told, talked=self.hub.talked)
        self.players = AIPlayers(self.tables, threads=ai_threads, processes=ai_processes)
        self.tables.ai_turn = self.players.wake
        self.offered = offered
        self._cards: dict[str, GameCard] = {}
        self._forms: dict[str, GameForm] = {}
        self._pictures: dict[str, str] = {}

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.hub.start(asyncio.get_running_loop())
        self.store.listen(self.hub.told, self.hub.talked)
        self.players.start()
        threading.Thread(target=self._warm, name="gamedef-warm", daemon=True).start()
        try:
            yield
        finally:
            self.hub.stop()
            self.players.stop()
            self.store.close()

    def _warm(self) -> None:
        """Load each offered game and draw its picture, in the background, so the lobby's
        pictures and the first table of each game come at once (a first compile of a
        large game takes seconds)."""
        for name in self.offered:
            try:
                self._pictures.setdefault(name, picture(self.tables, name))
            except Exception as err:  # a game that cannot load says so in the lobby
                log.warning("gamedef serve: %s could not be loaded: %s", name, err)

    def _card(self, name: str) -> GameCard:
        card = self._cards.get(name)
        if card is None:
            card = self._cards[name] = game_card(name)
        return card

    def _form(self, name: str) -> GameForm:
        form = self._forms.get(name)
        if form is None:
            form = self._forms[name] = game_form(self.tables, self._card(name))
        return form

    def _lobby(self) -> tuple[list[Any], list[dict[str, Any]]]:
        games: list[Any] = []
        for name in self.offered:
            try:
                games.append(self._card(name))
            except (GameDefError, UsageError) as err:
                games.append({"name": name, "error": str(err)})
        titles = {g.name: g.title for g in games if isinstance(g, GameCard)}
        open_tables = []
        for listing in self.store.listed():
            humans = [s for s, kind in listing.agents.items() if kind == "human"]
            free = [s for s in humans if s not in listing.names]
            if free and listing.game in titles:
                seats = [(s, listing.agents[s], listing.names.get(s)) for s in listing.agents]
                open_tables.append({"listing": listing, "title": titles[listing.game], "free": free, "seats": seats})
        return games, open_tables

    async def lobby(self, request: Request) -> Response:
        games, open_tables = await run_in_threadpool(self._lobby)
        return _page("index.html", games=games, open_tables=open_tables, pictures=self._pictures)

    async def new_table_form(self, request: Request) -> Response:
        name = request.path_params["game"]
        if name not in self.offered:
            raise WebError(404, f"no game '{name[:64]}' here")
        form = await run_in_threadpool(self._form, name)
        return _page("new.html", g=form.card, f=form, kinds=("human", *AI_KINDS))

    async def create(self, request: Request) -> Response:
        form = await _form(request)
        name = _one(form, "game")
        if name not in self.offered:
            raise WebError(400, f"no game '{name[:64]}' here")
        settings = _new_table(form, await run_in_threadpool(self._form, name))
        try:
            table = await run_in_threadpool(lambda: self.tables.create(name, **settings))
        except (GameDefError, UsageError, GameRuntimeError) as err:
            raise WebError(400, _refused(err)) from None
        mine = next((s for s, kind in table.record.agents.items() if kind == "human"), None)
        return _page("created.html", table=table, record=table.record, mine=mine if settings["name"] else None)

    async def join(self, request: Request) -> Response:
        table_id = request.path_params["table"]
        if len(table_id) > 64:
            raise WebError(404, NO_LINK)
        form = await _form(request)
        seat, name = _one(form, "seat"), _name(form)
        table = await run_in_threadpool(self.tables.get, table_id)
        token = await run_in_threadpool(self.tables.join, table, seat, name)
        return RedirectResponse(_seat_path(table_id, token), 303)

    async def seat_page(self, request: Request) -> Response:
        table, seat = await self._table_and_seat(request)
        if seat != SPECTATOR and seat not in await run_in_threadpool(self.store.names, table.record.id):
            await run_in_threadpool(self.store.take_seat, table.record.id, seat, "")  # its link is in use
        drawn = await run_in_threadpool(_board, table, seat)
        talk = await run_in_threadpool(self._talk, table, seat)
        return _page(
            "table.html",
            record=table.record,
            title=table.game.compiled.header.title,
            seat=seat or "spectator",
            board=drawn,
            talk=talk,
            token=request.path_params["token"],
            over=table.state.result is not None,
        )

    async def board(self, request: Request) -> Response:
        table, seat = await self._table_and_seat(request)
        return HTMLResponse(await run_in_threadpool(_board, table, seat))

    def _talk(self, table: Table, seat: str) -> str:
        names = self.store.names(table.record.id)
        state = table.state
        to_move = state.pending.player if state.pending is not None and state.result is None else None
        players = [
            (s, kind, names.get(s), table.game.compiled.rt.seat_titles.get(s, s))
            for s, kind in table.record.agents.items()
        ]
        request = self.store.undo_request(table.record.id) if state.result is None else None
        return _templates.get_template("talk.html").render(
            players=players,
            seat=seat,
            human=seat != SPECTATOR and table.record.agents.get(seat) == "human" and state.result is None,
            undo=request,
            voter=request is not None and seat in request["voters"] and seat not in request["agreed"],
            asker=request is not None and seat == request["seat"],
            to_move=to_move,
            lines=self.store.notes(table.record.id),
            rematch=self.store.rematch_of(table.record.id),
        )

    async def talk(self, request: Request) -> Response:
        table, seat = await self._table_and_seat(request)
        return HTMLResponse(await run_in_threadpool(self._talk, table, seat))

    async def chat(self, request: Request) -> Response:
        table, _ = await self._table_and_seat(request)
        text = " ".join(_one(await _form(request), "text").split())
        if not text or len(text) > MAX_CHAT:
            raise WebError(400, f"a line of chat has 1 to {MAX_CHAT} characters")
        count = await run_in_threadpool(self.tables.chat, table, request.path_params["token"], text)
        return PlainTextResponse(str(count))

    async def move(self, request: Request) -> Response:
        table, _ = await self._table_and_seat(request)
        form = await _form(request)
        try:
            index, seen = int(_one(form, "index")), int(_one(form, "seen"))
        except ValueError:
            raise WebError(400, "a move needs `index` and `seen`, whole numbers") from None
        key = _one(form, "key") or None
        if key is not None and not KEY.fullmatch(key):
            raise WebError(400, "a move's `key` is 1 to 64 letters, digits, - or _")
        try:
            count = await run_in_threadpool(self.tables.move, table, request.path_params["token"], index, seen, key)
        except (GameRuntimeError, IllegalMove) as err:
            raise WebError(400, str(err)) from None
        if "text/html" in request.headers.get("accept", ""):  # a form without the page's script
            return RedirectResponse(_seat_path(table.record.id, request.path_params["token"]), 303)
        return PlainTextResponse(str(count))

    async def undo(self, request: Request) -> Response:
        table, _ = await self._table_and_seat(request)
        seen = _whole(await _form(request), "seen")
        done = await run_in_threadpool(self.tables.undo, table, request.path_params["token"], seen)
        return PlainTextResponse(done)

    async def vote(self, request: Request) -> Response:
        table, _ = await self._table_and_seat(request)
        form = await _form(request)
        seen, agree = _whole(form, "seen"), _one(form, "agree")
        if agree not in ("yes", "no"):
            raise WebError(400, "a vote's `agree` is yes or no")
        token = request.path_params["token"]
        return PlainTextResponse(await run_in_threadpool(self.tables.vote, table, token, agree == "yes", seen))

    async def rematch(self, request: Request) -> Response:
        table, _ = await self._table_and_seat(request)
        rematch, token = await run_in_threadpool(self.tables.rematch, table, request.path_params["token"])
        return RedirectResponse(_seat_path(rematch.record.id, token), 303)

    async def replay(self, request: Request) -> Response:
        table, seat = await self._table_and_seat(request)
        if table.state.result is None:
            raise WebError(409, "the replay opens once the game is over")
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            raise WebError(400, "`step` is a whole number") from None
        step = max(0, min(step, len(table.moves)))
        drawing, lines = await run_in_threadpool(_replay_step, table, step)
        return _page(
            "replay.html",
            record=table.record,
            title=table.game.compiled.header.title,
            token=request.path_params["token"],
            step=step,
            last=len(table.moves),
            map=drawing.map,
            parts=drawing.parts,
            lines=marked_lines(table.game.compiled, lines),
        )

    async def events(self, request: Request) -> Response:
        await self._table_and_seat(request)  # a valid link, or a 404 before the stream starts
        stream = _stream(self.hub, self.store, request.path_params["table"])
        return StreamingResponse(stream, media_type="text/event-stream")

    async def transcript(self, request: Request) -> Response:
        table, seat = await self._table_and_seat(request)

        def made() -> tuple[str, str]:
            with table.lock:
                return download(table, seat)

        name, text = await run_in_threadpool(made)
        headers = {"content-disposition": f'attachment; filename="{name}"'}
        return Response(text, media_type="application/toml", headers=headers)

    async def _table_and_seat(self, request: Request) -> tuple[Table, str]:
        table_id, token = request.path_params["table"], request.path_params["token"]
        if len(table_id) > 64 or len(token) > 64:
            raise WebError(404, NO_LINK)
        table = await run_in_threadpool(self.tables.get, table_id)
        return table, table.seat_of(token)


def _page(template: str, **values: Any) -> HTMLResponse:
    return HTMLResponse(_templates.get_template(template).render(**values))


def _seat_path(table_id: str, token: str) -> str:
    """A seat's page as a path of this server: never a host taken from the request."""
    return "/t/" + "/".join(urllib.parse.quote(part, safe="") for part in (table_id, token))


def _replay_step(table: Table, step: int) -> tuple[Any, list[str]]:
    """The public view of the position after `step` moves, and the public story up to it."""
    with table.lock:
        states = table.states[: step + 1]
    lines = [line for s in states for line in table.game.narrate(s, None, omniscient=False)]
    return draw(table.game, states[-1], None, [], states[-2] if step else None), lines[-40:]


def _guarded(endpoint: Endpoint) -> Endpoint:
    """The endpoint, its refusals and failures answered in words: a WebError with its
    status, an unreadable store with 503, anything else with 500 and one line in the
    server's log (no traceback, no token: the path holds a seat's key)."""

    async def guarded(request: Request) -> Response:
        try:
            return await endpoint(request)
        except WebError as err:
            return PlainTextResponse(err.message, status_code=err.status)
        except StoreUnavailable as err:
            log.warning("gamedef serve: %s", err)
            return PlainTextResponse(f"the tables cannot be reached now: {err}", status_code=503)
        except (GameDefError, GameRuntimeError) as err:
            log.warning("gamedef serve: %s failed: %s", endpoint.__name__, err)
            return PlainTextResponse(f"the game could not go on: {err}", status_code=500)
        except Exception as err:
            log.error("gamedef serve: %s failed: %s: %s", endpoint.__name__, type(err).__name__, err)
            return PlainTextResponse("the server failed on this request; it has been logged", status_code=500)

    guarded.__name__ = endpoint.__name__
    return guarded


async def _stream(hub: Hub, store: Store, table_id: str) -> AsyncIterator[str]:
    """A page's event stream: the table's step (its moves made, plus those taken back: it
    never goes down) each time it changes (`data: N`),
    from the store through the hub, and its count of chat lines (`event: talk`); a
    keep-alive line when nothing happened for a while, after a look at the store itself.
    It ends when the server stops, or quietly when the store fails (the page's
    EventSource connects again)."""
    yield "retry: 1000\n\n"  # a page reconnects a second after the server is back
    sent, talk = -1, hub.known_talk(table_id)
    try:
        while hub.stopping is None or not hub.stopping.is_set():
            count = hub.known(table_id)
            if count is None or count <= sent:
                count = await run_in_threadpool(store.step, table_id)  # the truth, now and then
                hub.told(table_id, count)
            if count != sent:
                sent = count
                yield f"data: {count}\n\n"
                continue
            if hub.known_talk(table_id) > talk:
                talk = hub.known_talk(table_id)
                yield f"event: talk\ndata: {talk}\n\n"
                continue
            await hub.wait(table_id, sent, EVENT_WAIT, talk)
            if hub.known(table_id) == sent and hub.known_talk(table_id) == talk:
                yield ": keep-alive\n\n"
    except StoreUnavailable as err:
        log.warning("gamedef serve: an event stream ended: %s", err)


def _board(table: Table, seat: str) -> str:
    """The part of a seat's page that changes: its view, board, log and moves. Drawn once
    per position and seat: the pages of a table all ask for it after each move. Every
    card title it shows carries its printed text (web/cards.py); the log's lines from the
    last move are marked as the newest."""
    viewer = seat or None
    with table.lock:
        state, states, step = table.state, list(table.states), table.step
        cached = table.drawn.get((step, seat))
    if cached is not None:
        return cached
    g = table.game.compiled
    mine = state.result is None and state.pending is not None and seat != SPECTATOR and state.pending.player == seat
    moves = table.game.legal_moves(state) if mine else []

    def observed(s: State) -> dict:  # kept by the table: the position before was observed as the last
        with table.lock:
            at = len(states) - 1 if s is state else len(states) - 2
            if at < len(table.states) and table.states[at] is s:
                return table.observed(at, viewer)
        return observe(table.game.compiled, s, viewer)

    drawing = draw(table.game, state, viewer, moves, states[-2] if len(states) > 1 else None, observed)
    texts = card_texts(g)
    with table.lock:
        log_lines = table.narration.last(table.game, states, viewer)
        newest = len(table.narration.of(table.game, states, len(states) - 1, viewer)) if len(states) > 1 else 0
    marked = marked_lines(g, log_lines)
    page = _templates.get_template("board.html").render(
        record=table.record,
        seat=seat or "spectator",
        seat_title=g.rt.seat_titles.get(seat, seat),
        to_move=state.pending.player if state.pending is not None and state.result is None else None,
        result=state.result,
        prompt=Markup(texts.mark(html.escape(table.game.question(state)))) if mine else "",
        moves=[(move.label, texts.about(move.label)) for move in moves],
        seen=step,
        map=drawing.map,
        parts=drawing.parts,
        log=[(line, i >= len(marked) - newest) for i, line in enumerate(marked)],
    )
    with table.lock:
        table.remember(step, seat, page)
    return page


Form = dict[str, list[str]]


def _one(form: Form, key: str) -> str:
    """The form's value for `key` ('' when it has none)."""
    values = form.get(key)
    return values[-1] if values else ""


def _whole(form: Form, key: str) -> int:
    """The form's whole number `key` (a step), refused in words when it is not one."""
    text = _one(form, key)
    if not text.isdigit() or len(text) > 18:
        raise WebError(400, f"`{key}` is a whole number")
    return int(text)


def _name(form: Form) -> str:
    name = " ".join(_one(form, "name").split())
    if not name or len(name) > MAX_NAME:
        raise WebError(400, f"a name has 1 to {MAX_NAME} characters")
    return name


def _refused(err: Exception) -> str:
    """Why a new table could not be made, in the page's words: a variant or an option the
    form chose that the game cannot take is said as the form offers them ("unknown variant
    'x': did you mean 'y'?"), never as a command line's flag or a position in no file."""
    if isinstance(err, SettingError):
        hint = err.advised()
        return f"{err.message}: {hint}" if hint else err.message
    return str(err)


def _new_table(form: Form, entry: GameForm) -> dict[str, Any]:
    """A new table's settings from its form: players, seats, variants, options, seed, and
    whether the creator takes a seat by name and offers the others in the lobby. Options
    the form leaves at their default are not passed (a default is the game's own), nor
    those of a variant not chosen."""
    for field, values in form.items():
        if len(field) > 64 or any(len(v) > MAX_FIELD for v in values):
            raise WebError(400, f"the field '{field[:64]}' is too long (at most {MAX_FIELD} characters)")
    try:
        players = int(_one(form, "players")) if _one(form, "players") else None
        seed = int(_one(form, "seed")) if _one(form, "seed") else None
    except ValueError:
        raise WebError(400, "players and seed are whole numbers") from None
    seats = {k[5:]: v[-1] for k, v in form.items() if k.startswith("seat_")}
    variants = [v.strip() for text in form.get("variants", []) for v in text.split(",") if v.strip()]
    variants += [v for v in form.get("variant", []) if v not in variants]
    options: dict[str, Any] = {}
    for item in _one(form, "options").split(","):  # NAME=VALUE, ... typed as on the command line
        if "=" in item:
            key, value = item.split("=", 1)
            options[key.strip()] = option_value(value.strip())
        elif item.strip():
            raise WebError(400, f"the option '{item.strip()}' needs a value: NAME=VALUE")
    for control in entry.controls:
        given = form.get("option_" + control.name)
        if given is None or (control.variant and control.variant not in variants):
            continue
        value = given[-1] if control.kind != "bool" else ("true" if "true" in given else "false")
        if value != control.default:
            options[control.name] = option_value(value)
    name = _name(form) if _one(form, "name") else None
    return {
        "players": players,
        "seats": seats,
        "variants": tuple(variants),
        "options": options,
        "seed": seed,
        "listed": bool(_one(form, "listed")),
        "name": name,
    }


async def _form(request: Request) -> Form:
    """The request's form, refused when too big or not a form; each key with its values."""
    size = request.headers.get("content-length")
    if size is None or not size.isdigit() or int(size) > MAX_BODY:
        raise WebError(413 if size and size.isdigit() else 411, f"a form of at most {MAX_BODY} bytes, with its length")
    kind = request.headers.get("content-type", "")
    if not kind.startswith("application/x-www-form-urlencoded"):
        raise WebError(415, "send the form as application/x-www-form-urlencoded")
    try:
        body = await asyncio.wait_for(request.body(), timeout=10)
        if len(body) > MAX_BODY:
            raise WebError(413, f"a form of at most {MAX_BODY} bytes")
        pairs = urllib.parse.parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=64)
    except (TimeoutError, ValueError, UnicodeDecodeError):
        raise WebError(400, "the form could not be read") from None
    form: Form = {}
    for key, value in pairs:
        form.setdefault(key, []).append(value)
    return form
