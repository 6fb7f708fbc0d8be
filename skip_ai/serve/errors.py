"""The errors a request can get, each an HTTP status and one line said to the page as
``{"error": "..."}``."""

from __future__ import annotations


class ApiError(Exception):
    """A request the server refuses; ``str(e)`` is said to the page as is (one line)."""

    status = 400
    close = False
    """Close the connection after the answer (the request's body may be unread)."""

    def __init__(self, message: str, status: int | None = None, close: bool = False):
        super().__init__(" ".join(str(message).split()))  # one line, whatever it was given
        if status is not None:
            self.status = status
        self.close = close


class BadRequest(ApiError, ValueError):
    """400: a request the server cannot honour as asked."""


class NotFound(ApiError, KeyError):
    """404: no such table, record or page."""

    status = 404

    def __str__(self) -> str:  # a KeyError's str is its repr
        return self.args[0]


class Gone(ApiError):
    """410: a table that was closed, and why."""

    status = 410


class Full(ApiError):
    """503: every table slot holds a game in play."""

    status = 503
