"""The HTTP side of ``skip-ai serve``: the page, its three static files, and JSON endpoints.

Standard library only (``ThreadingHTTPServer``): each request has its own thread, so a long
poll or a bot's search at one table never holds up another request.

=======================================  ==========================================================
``GET /``                                the page (``static/index.html``)
``GET /static/NAME``                     one of the page's files (a fixed list: no path is read)
``GET /api/games``                       every game with its parameters; agent presets
``POST /api/tables``                     open a table: ``{game, seat, agents, seed?, pace?}``
``GET /api/tables/ID?after=V``           its view for the person's seat, once newer than ``V``
``POST /api/tables/ID/move``             the person's move: ``{action}``
``GET /api/tables/ID/why/I``             why the bot made the move at history index ``I``
``GET /api/records?agent=&game=&result=&offset=``   the recorded games (``--records``)
``GET /api/records/N?pos=K&seat=S|open``  record ``N`` replayed up to its ``K``-th decision
=======================================  ==========================================================

A bad request gets HTTP 400 with ``{"error": "one clear line"}``; an unknown table or
record 404.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from skip_ai.pyspiel_wrapper import REGISTRY
from skip_ai.serve.replays import Records
from skip_ai.serve.tables import BadRequest, Tables

STATIC = Path(__file__).with_name("static")
FILES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}
"""The only files the server ever reads for a page."""
MAX_BODY = 1 << 16
AGENT_PRESETS = [
    "random",
    "heuristic",
    "ismcts(iterations=200)",
    "ismcts(seconds=1)",
    "openspiel_ismcts(iterations=200)",
]


def games_listing() -> list[dict]:
    """Every registered game in the rules' order, its parameters (choices, default, help) and
    its seats."""
    out = []
    for spec in sorted(REGISTRY.values(), key=lambda s: int(s.rules_section.strip("§"))):
        params = [
            {
                "name": p.name,
                "default": p.default,
                "choices": list(p.choices),
                "doc": p.doc,
                "auto": p.auto_doc,
            }
            for p in spec.params
        ]
        out.append(
            {
                "name": spec.short_name,
                "long_name": spec.long_name,
                "original_name": spec.original_name,
                "rules": spec.rules_section,
                "params": params,
                "team_game": spec.team_game,
                "players": spec.num_players(spec.resolve({})),
            }
        )
    return out


class App:
    """What the handlers share: the live tables and, with ``--records``, the records."""

    def __init__(self, records: str | Path | None = None):
        self.tables = Tables()
        self.records = Records(records) if records is not None else None

    def need_records(self) -> Records:
        if self.records is None:
            raise BadRequest(
                "no records folder: start the server with skip-ai serve "
                "--records OUT (a tournament's output folder)"
            )
        return self.records


Route = tuple[str, re.Pattern, Callable[..., Any]]


class Handler(BaseHTTPRequestHandler):
    server: Server
    protocol_version = "HTTP/1.1"

    # ----- plumbing -------------------------------------------------------------------------
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        if self.server.verbose:
            super().log_message(format, *args)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self._dispatch("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            for verb, pattern, fn in ROUTES:
                m = pattern.fullmatch(url.path)
                if verb == method and m:
                    result = fn(self, query, *m.groups())
                    if result is not None:
                        self._json(HTTPStatus.OK, result)
                    return
            self._json(HTTPStatus.NOT_FOUND, {"error": f"nothing at {url.path}"})
        except BadRequest as e:
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(e)})
        except KeyError as e:
            self._json(HTTPStatus.NOT_FOUND, {"error": e.args[0] if e.args else str(e)})
        except (BrokenPipeError, ConnectionResetError):  # the page went away
            pass
        except Exception as e:  # a bug: said to the page, the trace to the console
            traceback.print_exc(file=sys.stderr)
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"{type(e).__name__}: {e}"})

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        # strict JSON (no NaN): what a browser's JSON.parse accepts
        self._send(status, json.dumps(data, allow_nan=False).encode(), "application/json")

    def body(self) -> dict:
        size = int(self.headers.get("Content-Length") or 0)
        if size > MAX_BODY:
            raise BadRequest(f"request body too large ({size} bytes)")
        try:
            data = json.loads(self.rfile.read(size) or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise BadRequest(f"the request body is not JSON: {e}") from None
        if not isinstance(data, dict):
            raise BadRequest("the request body must be a JSON object")
        return data

    # ----- endpoints ------------------------------------------------------------------------
    def page(self, query: dict, name: str = "index.html") -> None:
        if name not in FILES:
            raise KeyError(f"no file {name!r}")
        self._send(HTTPStatus.OK, (STATIC / name).read_bytes(), FILES[name] + "; charset=utf-8")

    def games(self, query: dict) -> dict:
        records = self.server.app.records
        return {
            "games": games_listing(),
            "agents": AGENT_PRESETS,
            "records": records.facets() if records else None,
        }

    def open_table(self, query: dict) -> dict:
        table = self.server.app.tables.open(self.body())
        return table.view()

    def table(self, query: dict, table_id: str) -> dict:
        after = query.get("after")
        if after is not None and not after.lstrip("-").isdigit():
            raise BadRequest(f"after must be a version number (got {after!r})")
        return self.server.app.tables.get(table_id).view(None if after is None else int(after))

    def move(self, query: dict, table_id: str) -> dict:
        table = self.server.app.tables.get(table_id)
        table.play(self.body().get("action"))
        return table.view()

    def why(self, query: dict, table_id: str, index: str) -> dict:
        return self.server.app.tables.get(table_id).search(int(index))

    def records(self, query: dict) -> dict:
        return self.server.app.need_records().listing(query)

    def replay(self, query: dict, index: str) -> dict:
        seat_text = query.get("seat", "open")
        if seat_text != "open" and not seat_text.isdigit():
            raise BadRequest(f"seat must be a seat number or open (got {seat_text!r})")
        pos = query.get("pos", "0")
        if not pos.isdigit():
            raise BadRequest(f"pos must be a whole number (got {pos!r})")
        seat = None if seat_text == "open" else int(seat_text)
        return self.server.app.need_records().replay(int(index), int(pos), seat)


ROUTES: list[Route] = [
    ("GET", re.compile(r"/"), Handler.page),
    ("GET", re.compile(r"/static/([A-Za-z0-9_.-]+)"), Handler.page),
    ("GET", re.compile(r"/api/games"), Handler.games),
    ("POST", re.compile(r"/api/tables"), Handler.open_table),
    ("GET", re.compile(r"/api/tables/([0-9a-f]+)"), Handler.table),
    ("POST", re.compile(r"/api/tables/([0-9a-f]+)/move"), Handler.move),
    ("GET", re.compile(r"/api/tables/([0-9a-f]+)/why/([0-9]+)"), Handler.why),
    ("GET", re.compile(r"/api/records"), Handler.records),
    ("GET", re.compile(r"/api/records/([0-9]+)"), Handler.replay),
]


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], app: App, verbose: bool = False):
        super().__init__(address, Handler)
        self.app = app
        self.verbose = verbose

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def server_close(self) -> None:
        self.app.tables.close_all()
        super().server_close()


def make_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    records: str | Path | None = None,
    verbose: bool = False,
) -> Server:
    """A server bound to ``host:port`` (port 0: any free port); call ``serve_forever``."""
    return Server((host, port), App(records), verbose)
