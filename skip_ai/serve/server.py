"""The HTTP side of ``skip-ai serve``: the page, its three static files, and JSON endpoints,
as a Starlette application served by uvicorn.

=======================================  ==========================================================
``GET /``                                the page (``static/index.html``)
``GET /static/NAME``                     one of the page's files (a fixed list: no path is read)
``GET /api/games``                       every game with its parameters (levers marked) and
                                         its recommended variant; records
``GET /api/agents``                      the bots offered: kinds, options, caps, named files,
                                         each game's default opponent
``POST /api/tables``                     open a table: ``{game, seat, agents, seed?, pace?,
                                         auto_forced?}``
``GET /api/tables/ID?after=V``           its view for the person's seat, once newer than ``V``
``DELETE /api/tables/ID``                close it (its page left it): its bots stop
``POST /api/tables/ID/move``             the person's move: ``{action}``
``GET /api/tables/ID/why/I``             why the bot made the move at history index ``I``
``GET /api/records?agent=&game=&result=&offset=``   the recorded games (``--records``)
``GET /api/records/N?pos=K&seat=S|open``  record ``N`` replayed up to its ``K``-th decision
=======================================  ==========================================================

Every refusal is ``{"error": "one line"}`` with its status: 400 a malformed request (its
HTTP included), 403 a request from another site or for another host name, 404 nothing there,
408 a request's head or body that did not arrive in time, 410 a closed table (and why), 413
a body over :attr:`~skip_ai.serve.guards.Limits.body_bytes`, 415 a body that is not sent as
JSON, 503 every table in play; 431 a request's head over
:attr:`~skip_ai.serve.guards.Limits.header_bytes`.

What no request can do (the guards of the last two are :mod:`skip_ai.serve.guards`):

- **name a file**: the page's three files are a fixed list, records are named by row, and
  bots are chosen from what the server offers (:mod:`skip_ai.serve.offer`);
- **come from another site**: the ``Host`` must be one of this server's names (loopback,
  the ``--host`` address, ``--allow-host`` names: no DNS rebinding), an ``Origin`` must be
  the page's own, a ``Sec-Fetch-Site`` same-origin, and a POST's body JSON with its content
  type (which a cross-site form or ``fetch`` cannot send without asking first);
- **hold the server**: the event loop waits on slow clients and long polls without a thread;
  a request's head and body must arrive within :class:`~skip_ai.serve.guards.Limits`; the
  listen backlog is deep; the work of a request runs in a bounded thread pool; a table's
  search is capped per move and stops with its table (:mod:`skip_ai.serve.tables`).
"""

from __future__ import annotations

import errno
import functools
import re
import socket
import threading
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from skip_ai.pyspiel_wrapper import REGISTRY
from skip_ai.rules.recommended import recommended
from skip_ai.serve.errors import ApiError, BadRequest, NotFound
from skip_ai.serve.guards import (
    Guard,
    Limits,
    Protocol,
    allowed_hosts,
    error,
    json_object,
    max_connections,
)
from skip_ai.serve.offer import Offer
from skip_ai.serve.replays import Records
from skip_ai.serve.tables import IDLE, MAX_TABLES, TABLE_ID, WAIT, Tables

STATIC = Path(__file__).with_name("static")
FILES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}
"""The only files the server ever reads for a page."""


@functools.cache
def games_listing() -> list[dict]:
    """Every registered game in the rules' order, its parameters (choices, default, help,
    ``lever``: a change of the rules to try, RULES §0.7), its seats and its recommended variant
    (``skip_ai/rules/recommended.toml``: ``{variant, params, why}``, every parameter given;
    None for a game without one)."""
    advised = recommended()
    out = []
    for spec in sorted(REGISTRY.values(), key=lambda s: int(s.rules_section.strip("§"))):
        params = [
            {
                "name": p.name,
                "label": p.label,
                "default": p.default,
                "choices": list(p.choices),
                "doc": p.doc,
                "auto": p.auto_doc,
                "lever": p.lever,
            }
            for p in spec.params
        ]
        rec = advised.get(spec.short_name)
        out.append(
            {
                "name": spec.short_name,
                "long_name": spec.long_name,
                "original_name": spec.original_name,
                "rules": spec.rules_section,
                "params": params,
                "team_game": spec.team_game,
                "players": spec.num_players(spec.resolve({})),
                "recommended": (
                    {"variant": rec.game_string, "params": rec.params, "why": rec.why}
                    if rec
                    else None
                ),
            }
        )
    return out


class App:
    """What the endpoints share: the bots offered, the live tables and, with ``--records``,
    the records."""

    def __init__(
        self,
        records: str | Path | None = None,
        offer: Offer | None = None,
        max_tables: int = MAX_TABLES,
        idle: float = IDLE,
    ):
        self.offer = offer or Offer()
        self.tables = Tables(self.offer, max_tables=max_tables, idle=idle)
        self.records = Records(records) if records is not None else None

    def need_records(self) -> Records:
        if self.records is None:
            raise BadRequest(
                "no records folder: start the server with skip-ai serve "
                "--records OUT (a tournament's output folder)"
            )
        return self.records


# ----- answers ---------------------------------------------------------------------------------
async def _api_error(request: Request, e: Exception) -> Response:
    assert isinstance(e, ApiError)
    return error(e.status, str(e), close=e.close)


async def _http_error(request: Request, e: Exception) -> Response:
    assert isinstance(e, HTTPException)
    if e.status_code == 404:
        return error(404, f"nothing at {request.url.path[:100]}")
    if e.status_code == 405:
        return error(405, f"{request.method} is not answered at {request.url.path[:100]}")
    return error(e.status_code, str(e.detail))


async def _bug(request: Request, e: Exception) -> Response:
    # a bug: said to the page in one line; uvicorn logs its trace to the console
    return error(500, f"the server failed: {type(e).__name__}: {e}")


def _whole(text: str | None, name: str, signed: bool = False) -> int:
    """A query's whole number (at most 9 digits; ``signed``: a minus sign allowed)."""
    pattern = r"-?[0-9]{1,9}" if signed else r"[0-9]{1,9}"
    if text is None or not re.fullmatch(pattern, text, re.ASCII):
        raise BadRequest(f"{name} must be a whole number (got {str(text)[:20]!r})")
    return int(text)


def _table_id(request: Request) -> str:
    table_id = request.path_params["table_id"]
    if not re.fullmatch(f"[0-9a-f]{{{TABLE_ID}}}", table_id):
        raise NotFound(f"no table {table_id[:TABLE_ID]!r}")
    return table_id


def _app(request: Request) -> App:
    return request.app.state.skip


# ----- endpoints -------------------------------------------------------------------------------
async def page(request: Request) -> Response:
    name = request.path_params.get("name", "index.html")
    if name not in FILES:
        raise NotFound(f"no file {name[:60]!r}")
    body = await run_in_threadpool((STATIC / name).read_bytes)
    return Response(body, media_type=FILES[name] + "; charset=utf-8")


async def games(request: Request) -> Response:
    records = _app(request).records
    return JSONResponse(
        {
            "games": games_listing(),
            "records": records.facets() if records else None,
        }
    )


async def agents(request: Request) -> Response:
    return JSONResponse(_app(request).offer.listing([g["name"] for g in games_listing()]))


async def open_table(request: Request) -> Response:
    body = await json_object(request)
    tables = _app(request).tables
    table = await run_in_threadpool(tables.open, body)
    return JSONResponse(await run_in_threadpool(table.view))


async def table(request: Request) -> Response:
    table = _app(request).tables.get(_table_id(request))
    after = request.query_params.get("after")
    if after is not None:
        await table.wait_past(_whole(after, "after", signed=True), WAIT)
    if table.closed:
        return error(410, table.closed_because)
    return JSONResponse(await run_in_threadpool(table.view))


async def close_table(request: Request) -> Response:
    _app(request).tables.close(_table_id(request))
    return JSONResponse({"closed": True})


async def move(request: Request) -> Response:
    table = _app(request).tables.get(_table_id(request))
    body = await json_object(request)
    await run_in_threadpool(table.play, body.get("action"))
    return JSONResponse(await run_in_threadpool(table.view))


async def why(request: Request) -> Response:
    table = _app(request).tables.get(_table_id(request))
    index = _whole(request.path_params["index"], "a history index")
    return JSONResponse(await run_in_threadpool(table.search, index))


async def records(request: Request) -> Response:
    query = dict(request.query_params)
    listing = _app(request).need_records().listing
    return JSONResponse(await run_in_threadpool(listing, query))


async def replay(request: Request) -> Response:
    text = request.path_params["index"]
    if not re.fullmatch(r"[0-9]{1,9}", text, re.ASCII):
        raise NotFound(f"no record {text[:20]!r}")
    seat_text = request.query_params.get("seat", "open")
    if seat_text != "open" and not re.fullmatch(r"[0-9]{1,2}", seat_text, re.ASCII):
        raise BadRequest(f"seat must be a seat number or open (got {seat_text[:20]!r})")
    pos = request.query_params.get("pos", "0")
    if not re.fullmatch(r"[0-9]{1,9}", pos, re.ASCII):
        raise BadRequest(f"pos must be a whole number from 0 (got {pos[:20]!r})")
    seat = None if seat_text == "open" else int(seat_text)
    play = _app(request).need_records().replay
    return JSONResponse(await run_in_threadpool(play, int(text), int(pos), seat))


ROUTES = [
    Route("/", page),
    Route("/static/{name}", page),
    Route("/api/games", games),
    Route("/api/agents", agents),
    Route("/api/tables", open_table, methods=["POST"]),
    Route("/api/tables/{table_id}", table),
    Route("/api/tables/{table_id}", close_table, methods=["DELETE"]),
    Route("/api/tables/{table_id}/move", move, methods=["POST"]),
    Route("/api/tables/{table_id}/why/{index}", why),
    Route("/api/records", records),
    Route("/api/records/{index}", replay),
]


def asgi(app: App, hosts: frozenset[str], limits: Limits) -> Starlette:
    """The Starlette application of ``app``, answering to the host names ``hosts``."""
    web = Starlette(
        routes=ROUTES,
        middleware=[Middleware(Guard, hosts=hosts, header_bytes=limits.header_bytes)],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _bug},
    )
    web.router.redirect_slashes = False
    web.state.skip = app
    web.state.limits = limits
    return web


def bind(host: str, port: int, backlog: int) -> socket.socket:
    """A socket listening on ``host:port``; a busy port is a ``ValueError`` of one line."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise ValueError(f"--host {host}: not an address this machine can listen on") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise ValueError(f"port {port} is in use: choose another --port") from None
        if e.errno == errno.EACCES:
            raise ValueError(f"port {port} needs privileges: choose another --port") from None
        raise ValueError(
            f"cannot listen on {host}:{port} ({e.strerror}): choose another --host or --port"
        ) from None
    return sock


class Server:
    """A server listening on its socket: :meth:`serve_forever` answers until
    :meth:`shutdown`; :meth:`start` does so in a thread of its own."""

    def __init__(
        self,
        sock: socket.socket,
        app: App,
        hosts: frozenset[str],
        limits: Limits,
        verbose: bool = False,
    ):
        self.socket = sock
        self.app = app
        self.hosts = hosts
        self.limits = limits
        self.server_address = sock.getsockname()[:2]
        protocol = type("Protocol", (Protocol,), {"head_seconds": limits.head_seconds})
        config = uvicorn.Config(
            asgi(app, hosts, limits),
            http=protocol,
            ws="none",
            lifespan="off",
            backlog=limits.backlog,
            limit_concurrency=max_connections(limits.connections),
            timeout_keep_alive=limits.keep_alive,
            timeout_graceful_shutdown=2,
            h11_max_incomplete_event_size=limits.header_bytes,
            access_log=verbose,
            log_level="info" if verbose else "warning",
            server_header=False,
            proxy_headers=False,
        )
        self._uvicorn = uvicorn.Server(config)
        self._stopped = threading.Event()

    @property
    def url(self) -> str:
        host, port = self.server_address
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown` (or, in the main thread, Ctrl-C)."""
        try:
            self._uvicorn.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def start(self, timeout: float = 30.0) -> Server:
        """Serve in a thread of its own; returns once it answers."""
        threading.Thread(target=self.serve_forever, name="skip-ai-serve", daemon=True).start()
        for _ in range(int(timeout / 0.01)):
            if self._uvicorn.started or self._stopped.is_set():
                break
            self._stopped.wait(0.01)
        return self

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop serving: the tables close (their bots stop, their long polls end), then the
        server."""
        self.app.tables.close_all()
        self._uvicorn.should_exit = True
        if self._uvicorn.started:
            self._stopped.wait(timeout)

    def server_close(self) -> None:
        self.app.tables.close_all()
        self.socket.close()


def make_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    records: str | Path | None = None,
    verbose: bool = False,
    *,
    allow_hosts: list[str] | tuple[str, ...] = (),
    offer: Offer | None = None,
    limits: Limits | None = None,
    max_tables: int = MAX_TABLES,
    idle: float = IDLE,
) -> Server:
    """A server listening on ``host:port`` (port 0: any free port); call ``serve_forever``
    or ``start``. A busy port is a ``ValueError``: ``port P is in use: choose another
    --port``."""
    limits = limits or Limits()
    app = App(records, offer, max_tables=max_tables, idle=idle)
    sock = bind(host, port, limits.backlog)
    return Server(sock, app, allowed_hosts(host, allow_hosts), limits, verbose)
