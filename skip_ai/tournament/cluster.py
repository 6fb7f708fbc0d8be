"""Tasks of a batch on a Ray cluster (``skip-ai tournament --backend ray [--address A]``).

Ray only schedules: each task is one game played by
:func:`skip_ai.tournament.worker.play_games`, the function the local pool runs, and its record
comes back to this process, which keeps it and writes the shards as with the local pool. So
records, resume and determinism are the local pool's, and a batch begun on one backend
continues on the other.

A game whose worker dies (a node lost, a process killed) is run again once by Ray; a game
that dies twice is recorded as failed with Ray's error, and the batch goes on.
"""

from __future__ import annotations

import functools
import logging
import socket
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from skip_ai.tournament.schedule import ScheduledGame
from skip_ai.tournament.worker import failed_record, play_games

INSTALL = "pip install 'skip-ai[ray]'"


def ray_module() -> ModuleType:
    """Ray, or a clear error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ValueError(
            f"the ray backend needs Ray, which is not installed: {INSTALL} "
            "(or pip install 'ray[default]')"
        ) from None
    return ray


@functools.cache
def _remote_play() -> Any:
    # max_retries counts re-runs after a worker died; an exception raised by play_games itself
    # (not by a game: those become records) is a bug and stops the batch, as in the local pool
    return ray_module().remote(num_cpus=1, max_retries=1, retry_exceptions=False)(play_games)


class RayCluster:
    """A connection to Ray for one run: to the cluster at ``address``, or to a local Ray
    started here with ``workers`` CPUs (stopped again by :meth:`close`)."""

    def __init__(self, address: str | None, workers: int):
        ray = ray_module()
        self._owned = False
        if ray.is_initialized():  # a caller (a notebook, a test) already connected: use it
            return
        try:
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.WARNING)
            else:
                _check_reachable(address)
                ray.init(address=address, logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError, ValueError) as e:
            where = f"at {address!r}" if address else "locally"
            raise ValueError(f"cannot start or reach Ray {where}: {e}") from None
        self._owned = True

    def cpus(self) -> int:
        return max(1, int(ray_module().cluster_resources().get("CPU", 1)))

    def close(self) -> None:
        if self._owned:
            ray_module().shutdown()
            self._owned = False

    def results(
        self, games: Iterator[ScheduledGame], batch: str, version: str, session: str
    ) -> Iterator[dict]:
        """Each game's record as soon as it finishes; at most two games per cluster CPU in
        flight, so the schedule is never materialised."""
        ray = ray_module()
        limit = 2 * self.cpus()
        waiting: dict[Any, ScheduledGame] = {}  # object ref → the game it plays

        def collect() -> Iterator[dict]:
            ready, _ = ray.wait(list(waiting), num_returns=1)
            for ref in ready:
                game = waiting.pop(ref)
                try:
                    yield from ray.get(ref)
                except ray.exceptions.RayTaskError:  # play_games raised: a bug
                    raise
                except ray.exceptions.RayError as e:  # its worker died, twice
                    yield failed_record(batch, version, game, _error(e))

        try:
            for game in games:
                waiting[_remote_play().remote(batch, version, [game], session)] = game
                while len(waiting) >= limit:
                    yield from collect()
            while waiting:
                yield from collect()
        finally:  # stopped early (an error, Ctrl-C): free the cluster's workers
            for ref in waiting if ray.is_initialized() else ():
                ray.cancel(ref, force=True)


def _check_reachable(address: str) -> None:
    """Ray waits forever for a head that does not answer: try ``HOST:PORT`` first."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # "auto", "ray://..." and the like: Ray resolves and reports them
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as e:
        raise ConnectionError(
            f"nothing answers at {address} ({e}); is the head started "
            "(ray start --head) and its port open?"
        ) from None


def _error(e: Exception) -> str:
    return f"{type(e).__name__}: {str(e).strip()}"
