"""The web table: an ASGI app (Starlette, templates with Jinja2) over the tables in SQLite.

Pages:
    GET  /                              the games, and a form that starts a table
    POST /tables                        start a table; answers with its seats' private links
    GET  /t/{table}/{token}             a seat's (or the spectators') page
    GET  /t/{table}/{token}/board       the part of that page that changes (HTML)
    GET  /t/{table}/{token}/events      server-sent events: the number of moves, when it changes
    POST /t/{table}/{token}/move        play option `index`, having seen `seen` moves
    GET  /t/{table}/{token}/transcript  the table's moves as a transcript `gamedef replay` reads

A token is the only key to a seat: it is never shown to another seat, and every answer is
made from that seat's observation. A refused request changes nothing and says why.
"""

from __future__ import annotations

import asyncio
import tempfile
import urllib.parse
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from interpreter.core.errors import GameDefError, GameRuntimeError, UsageError
from interpreter.core.options import option_value
from interpreter.runtime.engine import IllegalMove
from interpreter.runtime.load import bundled_games, load_game
from interpreter.runtime.saving import Transcript, write_transcript
from interpreter.web.board import draw
from interpreter.web.store import Store
from interpreter.web.tables import AI_KINDS, SPECTATOR, Table, Tables, WebError

MAX_BODY = 8192  # bytes of a form: a move or a new table needs a few hundred
EVENT_WAIT = 15.0  # seconds an event stream waits before a keep-alive line

_templates = jinja2.Environment(
    loader=jinja2.PackageLoader("interpreter.web", "templates"),
    autoescape=jinja2.select_autoescape(["html"]),
)


def create_app(db: str | Path = ":memory:", games: list[str] | None = None) -> Starlette:
    """The app, its tables in the SQLite file `db`; `games` limits the games offered."""
    tables = Tables(Store(db))
    offered = games or list(bundled_games())

    async def index(request: Request) -> Response:
        listing: list[dict[str, Any]] = []
        for name in offered:
            try:
                game = await run_in_threadpool(load_game, name)
            except (GameDefError, UsageError) as err:
                listing.append({"name": name, "error": str(err)})
                continue
            h = game.compiled.header
            listing.append(
                {
                    "name": name,
                    "title": h.title,
                    "players": list(range(h.min_players, h.max_players + 1)),
                    "default": h.default_players or h.min_players,
                    "seats": list(game.seats_for(h.default_players or h.min_players)),
                    "variants": sorted(game.compiled.program.all_variants),
                }
            )
        page = _templates.get_template("index.html").render(games=listing, kinds=("human", *AI_KINDS))
        return HTMLResponse(page)

    async def create(request: Request) -> Response:
        name, players, seats, variants, options, seed = _new_table(await _form(request), offered)
        try:
            table = await run_in_threadpool(tables.create, name, players, seats, variants, options, seed)
        except (GameDefError, UsageError, GameRuntimeError) as err:
            raise WebError(400, str(err)) from None
        return HTMLResponse(_templates.get_template("created.html").render(table=table, record=table.record))

    async def seat_page(request: Request) -> Response:
        table, seat = await _table_and_seat(request)
        page = _templates.get_template("table.html").render(
            record=table.record,
            seat=seat or "spectator",
            board=_board(table, seat),
            token=request.path_params["token"],
        )
        return HTMLResponse(page)

    async def board(request: Request) -> Response:
        table, seat = await _table_and_seat(request)
        return HTMLResponse(_board(table, seat))

    async def move(request: Request) -> Response:
        table = await run_in_threadpool(tables.get, request.path_params["table"])
        form = await _form(request)
        try:
            index, seen = int(form.get("index", "")), int(form.get("seen", ""))
        except ValueError:
            raise WebError(400, "a move needs `index` and `seen`, whole numbers") from None
        try:
            await run_in_threadpool(tables.move, table, request.path_params["token"], index, seen)
        except (GameRuntimeError, IllegalMove) as err:
            raise WebError(400, str(err)) from None
        if "text/html" in request.headers.get("accept", ""):
            return RedirectResponse(
                request.url_for("seat", table=table.record.id, token=request.path_params["token"]), 303
            )
        return PlainTextResponse(str(len(table.moves)))

    async def events(request: Request) -> Response:
        table, _ = await _table_and_seat(request)

        async def stream() -> AsyncIterator[str]:
            seen = -1
            while not await request.is_disconnected():
                if len(table.moves) != seen:
                    seen = len(table.moves)
                    yield f"data: {seen}\n\n"
                    continue
                await run_in_threadpool(_wait, table, seen)
                yield ": keep-alive\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def transcript(request: Request) -> Response:
        table, _ = await _table_and_seat(request)
        record = table.record
        t = Transcript(
            game=record.game,
            players=record.players,
            seed=record.seed,
            moves=[f"{seat}: {label}" for seat, label in table.moves],
            variants=list(record.variants),
            options=dict(record.options),
            rules_hash=table.game.rules_hash,
            agents=dict(record.agents),
            result=list(table.state.result) if table.state.result is not None else None,
        )
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "transcript.toml"
            write_transcript(t, path)
            text = path.read_text(encoding="utf-8")
        headers = {"content-disposition": f'attachment; filename="{record.game}-{record.id}.toml"'}
        return Response(text, media_type="application/toml", headers=headers)

    async def _table_and_seat(request: Request) -> tuple[Table, str]:
        table = await run_in_threadpool(tables.get, request.path_params["table"])
        return table, table.seat_of(request.path_params["token"])

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        return PlainTextResponse(exc.message, status_code=exc.status)

    routes = [
        Route("/", index),
        Route("/tables", create, methods=["POST"]),
        Route("/t/{table}/{token}", seat_page, name="seat"),
        Route("/t/{table}/{token}/board", board),
        Route("/t/{table}/{token}/events", events),
        Route("/t/{table}/{token}/move", move, methods=["POST"]),
        Route("/t/{table}/{token}/transcript", transcript),
    ]
    app = Starlette(routes=routes, exception_handlers={WebError: refused})
    app.state.tables = tables
    return app


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
        log = table.narration.last(table.game, states, viewer)
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
        log=log,
    )
    with table.lock:
        table.remember(moves_seen, seat, page)
    return page


def _new_table(form: dict[str, str], offered: list[str]) -> tuple:
    """A new table's settings from its form: game, players, seats, variants, options, seed."""
    name = form.get("game", "")
    if name not in offered:
        raise WebError(400, f"no game '{name}' here")
    try:
        players = int(form["players"]) if form.get("players") else None
        seed = int(form["seed"]) if form.get("seed") else None
    except ValueError:
        raise WebError(400, "players and seed are whole numbers") from None
    seats = {k[5:]: v for k, v in form.items() if k.startswith("seat_")}
    variants = tuple(v for v in form.get("variants", "").split(",") if v.strip())
    options: dict[str, Any] = {}
    for item in form.get("options", "").split(","):
        if "=" in item:
            key, value = item.split("=", 1)
            options[key.strip()] = option_value(value.strip())
    return name, players, seats, variants, options, seed


def _wait(table: Table, seen: int) -> None:
    with table.changed:
        if len(table.moves) == seen:
            table.changed.wait(EVENT_WAIT)


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
