"""The web table: an ASGI app (Starlette, templates with Jinja2) over the tables in a store.

Pages:
    GET  /                              the games, and a form that starts a table
    POST /tables                        start a table; answers with its seats' private links
    GET  /t/{table}/{token}             a seat's (or the spectators') page
    GET  /t/{table}/{token}/board       the part of that page that changes (HTML)
    GET  /t/{table}/{token}/events      server-sent events: the number of moves, when it changes
    POST /t/{table}/{token}/move        play option `index`, having seen `seen` moves (`key`: once)
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
import logging
import re
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from interpreter.core.errors import GameDefError, GameRuntimeError, UsageError
from interpreter.runtime.engine import IllegalMove
from interpreter.runtime.load import bundled_games
from interpreter.web.ai import AIPlayers
from interpreter.web.board import draw
from interpreter.web.defences import Defences
from interpreter.web.downloads import download
from interpreter.web.hub import Hub
from interpreter.web.store import Store, StoreUnavailable
from interpreter.web.stores import open_store
from interpreter.web.tables import AI_KINDS, SPECTATOR, Table, Tables, WebError, every_seat_of

MAX_BODY = 8192  # bytes of a form: a move or a new table needs a few hundred
MAX_FIELD = 400  # characters of one field of a form (a game's name, its variants, its options)
EVENT_WAIT = 15.0  # seconds an event stream waits before a keep-alive line (and a look at the store)
KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a move's idempotency key

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
    hub = Hub()
    store = open_store(db)
    tables = Tables(store, moved=hub.told)
    players = AIPlayers(tables, threads=ai_threads, processes=ai_processes)
    tables.ai_turn = players.wake
    offered = games or list(bundled_games())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start(asyncio.get_running_loop())
        store.listen(hub.told)
        players.start()
        try:
            yield
        finally:
            hub.stop()
            players.stop()
            store.close()

    async def index(request: Request) -> Response:
        listing = await run_in_threadpool(_listing, tables, offered)
        page = _templates.get_template("index.html").render(games=listing, kinds=("human", *AI_KINDS))
        return HTMLResponse(page)

    async def create(request: Request) -> Response:
        name, count, seats, variants, options, seed = _new_table(await _form(request), offered)
        try:
            table = await run_in_threadpool(tables.create, name, count, seats, variants, options, seed)
        except (GameDefError, UsageError, GameRuntimeError) as err:
            raise WebError(400, str(err)) from None
        return HTMLResponse(_templates.get_template("created.html").render(table=table, record=table.record))

    async def seat_page(request: Request) -> Response:
        table, seat = await _table_and_seat(request)
        drawn = await run_in_threadpool(_board, table, seat)
        page = _templates.get_template("table.html").render(
            record=table.record,
            seat=seat or "spectator",
            board=drawn,
            token=request.path_params["token"],
            over=table.state.result is not None,
        )
        return HTMLResponse(page)

    async def board(request: Request) -> Response:
        table, seat = await _table_and_seat(request)
        return HTMLResponse(await run_in_threadpool(_board, table, seat))

    async def move(request: Request) -> Response:
        table, _ = await _table_and_seat(request)
        form = await _form(request)
        try:
            index, seen = int(form.get("index", "")), int(form.get("seen", ""))
        except ValueError:
            raise WebError(400, "a move needs `index` and `seen`, whole numbers") from None
        key = form.get("key") or None
        if key is not None and not KEY.fullmatch(key):
            raise WebError(400, "a move's `key` is 1 to 64 letters, digits, - or _")
        try:
            count = await run_in_threadpool(tables.move, table, request.path_params["token"], index, seen, key)
        except (GameRuntimeError, IllegalMove) as err:
            raise WebError(400, str(err)) from None
        if "text/html" in request.headers.get("accept", ""):  # a form without the page's script
            here = "/t/" + "/".join(urllib.parse.quote(request.path_params[p], safe="") for p in ("table", "token"))
            return RedirectResponse(here, 303)  # a path of this server: never a host from the request
        return PlainTextResponse(str(count))

    async def events(request: Request) -> Response:
        await _table_and_seat(request)  # a valid link, or a 404 before the stream starts
        return StreamingResponse(_stream(hub, store, request.path_params["table"]), media_type="text/event-stream")

    async def transcript(request: Request) -> Response:
        table, seat = await _table_and_seat(request)

        def made() -> tuple[str, str]:
            with table.lock:
                return download(table, seat)

        name, text = await run_in_threadpool(made)
        headers = {"content-disposition": f'attachment; filename="{name}"'}
        return Response(text, media_type="application/toml", headers=headers)

    async def _table_and_seat(request: Request) -> tuple[Table, str]:
        table_id, token = request.path_params["table"], request.path_params["token"]
        if len(table_id) > 64 or len(token) > 64:
            raise WebError(404, "no such table, or this link is not one of its seats")
        table = await run_in_threadpool(tables.get, table_id)
        return table, table.seat_of(token)

    routes = [
        Route("/", _guarded(index)),
        Route("/tables", _guarded(create), methods=["POST"]),
        Route("/t/{table}/{token}", _guarded(seat_page), name="seat"),
        Route("/t/{table}/{token}/board", _guarded(board)),
        Route("/t/{table}/{token}/events", _guarded(events)),
        Route("/t/{table}/{token}/move", _guarded(move), methods=["POST"]),
        Route("/t/{table}/{token}/transcript", _guarded(transcript)),
        Mount("/static", StaticFiles(packages=[("interpreter.web", "static")]), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Defences, hosts=tuple(hosts))])
    app.state.tables = tables
    app.state.hub = hub
    app.state.players = players
    return app


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
    """A page's event stream: the table's count of moves each time it changes, from the
    store (through the hub); a keep-alive line when nothing happened for a while, after a
    look at the store itself. It ends when the server stops, or quietly when the store
    fails (the page's EventSource connects again)."""
    yield "retry: 1000\n\n"  # a page reconnects a second after the server is back
    sent = -1
    try:
        while hub.stopping is None or not hub.stopping.is_set():
            count = hub.known(table_id)
            if count is None or count <= sent:
                count = await run_in_threadpool(store.count, table_id)  # the truth, now and then
                hub.told(table_id, count)
            if count != sent:
                sent = count
                yield f"data: {count}\n\n"
                continue
            await hub.wait(table_id, sent, EVENT_WAIT)
            if hub.known(table_id) == sent:
                yield ": keep-alive\n\n"
    except StoreUnavailable as err:
        log.warning("gamedef serve: an event stream ended: %s", err)


def _listing(tables: Tables, offered: list[str]) -> list[dict[str, Any]]:
    """Each offered game as the start form needs it: its seats at each player count."""
    listing: list[dict[str, Any]] = []
    for name in offered:
        try:
            game = tables.game(name, (), {})
        except (GameDefError, UsageError) as err:
            listing.append({"name": name, "error": str(err)})
            continue
        h = game.compiled.header
        counts = list(range(h.min_players, h.max_players + 1))
        seats = [(seat, [n for n in counts if seat in game.seats_for(n)]) for seat in every_seat_of(game)]
        listing.append(
            {
                "name": name,
                "title": h.title,
                "players": counts,
                "default": h.default_players or h.min_players,
                "seats": seats,
                "variants": sorted(game.compiled.program.all_variants),
            }
        )
    return listing


def _board(table: Table, seat: str) -> str:
    """The part of a seat's page that changes: its view, board, log and moves. Drawn once
    per position and seat: the pages of a table all ask for it after each move."""
    viewer = seat or None
    with table.lock:
        state, states, moves_seen = table.state, list(table.states), len(table.moves)
        cached = table.drawn.get((moves_seen, seat))
    if cached is not None:
        return cached
    mine = state.result is None and state.pending is not None and seat != SPECTATOR and state.pending.player == seat
    labels = table.game.labels(state) if mine else []
    drawing = draw(table.game, state, viewer, labels)
    with table.lock:
        log_lines = table.narration.last(table.game, states, viewer)
    page = _templates.get_template("board.html").render(
        record=table.record,
        seat=seat or "spectator",
        to_move=state.pending.player if state.pending is not None and state.result is None else None,
        result=state.result,
        prompt=table.game.prompt(state) if mine else "",
        labels=labels,
        seen=moves_seen,
        map=drawing.map,
        parts=drawing.parts,
        log=log_lines,
    )
    with table.lock:
        table.remember(moves_seen, seat, page)
    return page


def _new_table(form: dict[str, str], offered: list[str]) -> tuple:
    """A new table's settings from its form: game, players, seats, variants, options, seed."""
    for field, value in form.items():
        if len(field) > 64 or len(value) > MAX_FIELD:
            raise WebError(400, f"the field '{field[:64]}' is too long (at most {MAX_FIELD} characters)")
    name = form.get("game", "")
    if name not in offered:
        raise WebError(400, f"no game '{name}' here")
    try:
        players = int(form["players"]) if form.get("players") else None
        seed = int(form["seed"]) if form.get("seed") else None
    except ValueError:
        raise WebError(400, "players and seed are whole numbers") from None
    seats = {k[5:]: v for k, v in form.items() if k.startswith("seat_")}
    variants = tuple(v.strip() for v in form.get("variants", "").split(",") if v.strip())
    options: dict[str, Any] = {}
    for item in form.get("options", "").split(","):
        if "=" in item:
            key, value = item.split("=", 1)
            options[key.strip()] = _option_value(value.strip())
        elif item.strip():
            raise WebError(400, f"the option '{item.strip()}' needs a value: NAME=VALUE")
    return name, players, seats, variants, options, seed


async def _form(request: Request) -> dict[str, str]:
    """The request's form, refused when too big or not a form."""
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
    return dict(pairs)


def _option_value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return int(text) if text.lstrip("-").isdigit() and len(text) < 10 else text
