"""What a request may ask of ``skip-ai serve`` before an endpoint answers it, and how much
of the server it may take.

- **who may ask**: :class:`Guard`, the application's middleware, refuses a request for a host
  name the server does not answer to (:func:`allowed_hosts`: loopback, the ``--host``
  address, ``--allow-host`` names: no DNS rebinding), from another site (an ``Origin`` not the
  page's own, a ``Sec-Fetch-Site`` not same-origin) or a POST whose body is not sent as JSON
  (which a cross-site form or ``fetch`` cannot send without asking first), and adds the
  security headers to every answer;
- **how much**: :class:`Limits` — a request's head must arrive in time and within its size
  (:class:`Protocol`, uvicorn's HTTP/1.1 protocol, closes a connection whose head is late and
  answers a malformed request in JSON), its body likewise (:func:`json_body` reads it within
  them), and the open connections are capped (:func:`max_connections`).

Every refusal is one line of JSON, ``{"error": "..."}`` (:func:`error`), with its status.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import h11
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from uvicorn.protocols.http.h11_impl import H11Protocol

from skip_ai.serve.errors import ApiError, BadRequest

try:
    import resource
except ImportError:  # not on Windows: no limit on open files to read
    resource = None

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""The host names a server answers to unless told more (``--allow-host``)."""
MAX_BODY = 1 << 16
SECURITY_HEADERS = [
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; "
        b"form-action 'self'",
    ),
]


@dataclass(frozen=True)
class Limits:
    """What one connection may take."""

    body_bytes: int = MAX_BODY
    """The largest request body."""
    body_seconds: float = 10.0
    """A request's body must arrive within this."""
    head_seconds: float = 10.0
    """A request's line and headers must arrive within this of the connection (or of the
    last answer on it)."""
    header_bytes: int = 16 * 1024
    """The largest request head."""
    keep_alive: float = 5.0
    """An idle connection is closed after this."""
    backlog: int = 1024
    """Connections the kernel queues before the server takes them."""
    connections: int = 1000
    """Open connections at most (fewer if the process may open fewer files): past them, 503."""


def error(status: int, message: str, close: bool = False) -> JSONResponse:
    """``{"error": message}`` (one line); ``close``: the connection is closed after it (its
    request's body may be unread)."""
    headers = {"connection": "close"} if close else None
    return JSONResponse({"error": " ".join(message.split())}, status, headers=headers)


# ----- who may ask -----------------------------------------------------------------------------
def host_name(host: str) -> str:
    """The name of a ``Host`` header (``[::1]:8000`` -> ``::1``, ``LocalHost.:80`` ->
    ``localhost``)."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[1:end] if end > 0 else ""
    if host.count(":") == 1:
        host = host.split(":")[0]
    return host.rstrip(".")


def allowed_hosts(host: str, allow: list[str] | tuple[str, ...] = ()) -> frozenset[str]:
    """The host names a server on ``host`` answers to: loopback, ``host`` itself when it is
    one address (not every address), and ``allow``."""
    names = set(LOOPBACK) | {host_name(f"[{a}]" if ":" in a else a) for a in allow}
    if host not in ("", "0.0.0.0", "::"):
        names.add(host_name(f"[{host}]" if ":" in host else host))
    return frozenset(n for n in names if n)


class Guard:
    """Refuses, before any endpoint runs, a request for another host name, from another
    site, or with a body that is not JSON; adds the security headers to every answer."""

    def __init__(self, app: Any, hosts: frozenset[str], header_bytes: int):
        self.app = app
        self.hosts = hosts
        self.header_bytes = header_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: dict) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        refused = self.refusal(scope)
        if refused is not None:
            await error(*refused, close=True)(scope, receive, send_secured)
            return
        await self.app(scope, receive, send_secured)

    def refusal(self, scope: dict) -> tuple[int, str] | None:
        size = sum(len(k) + len(v) + 4 for k, v in scope["headers"])
        size += len(scope["raw_path"]) + len(scope["query_string"])
        if size > self.header_bytes:
            return 431, f"the request's head is larger than {self.header_bytes} bytes"
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return 403, (
                f"this server does not answer to the host name {host[:60]!r}: start it with "
                "--allow-host NAME to serve that name"
            )
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"http://{host}".lower():
            return 403, (
                f"a request from another site ({origin[:60]}) is refused: this server answers "
                "its own page only"
            )
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return 403, f"a {site[:20]} request is refused: this server answers its own page only"
        if scope["method"] == "POST":
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, (
                    "a request body must be JSON, sent with Content-Type: application/json "
                    f"(got {kind[:40] or 'none'!r})"
                )
        return None


# ----- the body --------------------------------------------------------------------------------
def _strict(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


async def json_body(request: Request) -> Any:
    """The request's body as JSON, read within the server's size and time limits
    (:attr:`Limits.body_bytes`, :attr:`Limits.body_seconds`)."""
    limits: Limits = request.app.state.limits
    length = request.headers.get("content-length")
    too_large = ApiError(f"the request body is larger than {limits.body_bytes} bytes", 413, True)
    if length is not None and (not length.isdigit() or int(length) > limits.body_bytes):
        raise too_large
    body = bytearray()
    try:
        async with asyncio.timeout(limits.body_seconds):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limits.body_bytes:
                    raise too_large
    except TimeoutError:
        late = f"the request body did not arrive within {limits.body_seconds:g} s"
        raise ApiError(late, 408, close=True) from None
    except ClientDisconnect:
        raise BadRequest("the request body ended early") from None
    try:
        return json.loads(body or b"{}", parse_constant=_strict)
    except (ValueError, UnicodeDecodeError) as e:
        raise BadRequest(f"the request body is not JSON: {e}") from None
    except RecursionError:
        raise BadRequest("the request body is JSON nested too deeply") from None


async def json_object(request: Request) -> dict:
    """The request's body (:func:`json_body`), which must be a JSON object."""
    data = await json_body(request)
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


# ----- the connection --------------------------------------------------------------------------
class Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, answering a malformed request in JSON (a bad
    ``Content-Length`` among them) and closing a connection whose request's head has not
    arrived within ``head_seconds``."""

    head_seconds = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self.loop.call_later(self.head_seconds, self._head_late, self.cycle)

    def _head_late(self, cycle: Any) -> None:
        """No request's head on this connection since ``cycle``'s answer (or its opening)."""
        if self.transport.is_closing() or self.cycle is not cycle:
            return  # closed, or a request came
        if cycle is not None and not cycle.response_complete:
            return  # a request being answered: its own limits hold
        if self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
            self.transport.close()  # nothing asked
            return
        self._refuse(408, f"the request's head did not arrive within {self.head_seconds:g} s")

    def send_400_response(self, msg: str) -> None:
        self._refuse(400, "malformed HTTP request (its request line, a header or its length)")

    def _refuse(self, status: int, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        head = (
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            "content-type: application/json\r\n"
            f"content-length: {len(body)}\r\n"
            "cache-control: no-store\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()


def max_connections(wanted: int) -> int:
    """``wanted`` connections, or fewer so that the process's open files suffice."""
    if resource is None:
        return wanted
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(16, min(wanted, soft - 128))
