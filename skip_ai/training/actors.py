"""Where a run's chunk parts are played (:mod:`.run`): in the learner's process, on local
processes, or as Ray tasks on a cluster.

Each is an executor with ``submit(fn, *args)`` returning an object whose ``result()`` is
``fn(*args)``, and ``shutdown()``. The chunk functions (:mod:`.chunks`) depend only on their
arguments, so where a part is played changes when it is ready, never what it holds: a run's
models are the same bit for bit on any of them.

On Ray a part whose worker dies (a node lost, a process killed) is run again once by Ray; if it
dies again the run stops with a message, and rerunning the command resumes it from its last
checkpoint (on either backend).
"""

from __future__ import annotations

import concurrent.futures
import functools
import multiprocessing
from collections.abc import Callable
from typing import Any

from skip_ai.tournament.cluster import RayCluster, ray_module

BACKENDS = ("local", "ray")


class _Done:
    """A finished future holding ``fn(*args)``: a part played in the learner's process."""

    def __init__(self, fn: Callable, *args: Any):
        self._value = fn(*args)

    def result(self) -> Any:
        return self._value


class InProcess:
    """Parts played in the learner's process, one after another (``actors = 0``)."""

    def submit(self, fn: Callable, *args: Any) -> _Done:
        return _Done(fn, *args)

    def shutdown(self) -> None:
        pass


class LocalProcesses:
    """Parts played by ``n`` processes of this machine (spawned: Numba and fork do not mix)."""

    def __init__(self, n: int):
        self._pool = concurrent.futures.ProcessPoolExecutor(
            n, mp_context=multiprocessing.get_context("spawn")
        )

    def submit(self, fn: Callable, *args: Any) -> concurrent.futures.Future:
        return self._pool.submit(fn, *args)

    def shutdown(self) -> None:
        self._pool.shutdown(cancel_futures=True)


@functools.cache
def _remote(fn: Callable) -> Any:
    # max_retries: re-runs after the worker died; an exception raised by fn is a bug or a bad
    # config, the same on every try, so it is not retried
    return ray_module().remote(num_cpus=1, max_retries=1, retry_exceptions=False)(fn)


class _RayPart:
    def __init__(self, ref: Any):
        self.ref = ref

    def result(self) -> Any:
        ray = ray_module()
        try:
            return ray.get(self.ref)
        except ray.exceptions.RayTaskError as e:  # fn raised: the same error as locally
            raise e.as_instanceof_cause() from None
        except ray.exceptions.RayError as e:  # a ValueError: the CLI's one line, as RayCluster's
            raise ValueError(
                f"a chunk part was lost on Ray twice ({type(e).__name__}); rerun the "
                "command to resume from the last checkpoint"
            ) from None


class RayTasks:
    """Parts played as Ray tasks: on the cluster at ``address``, or on a local Ray started
    here with ``cpus`` CPUs (stopped again by :meth:`shutdown`)."""

    def __init__(self, address: str | None, cpus: int):
        self._cluster = RayCluster(address, cpus)
        self._waiting: list[_RayPart] = []

    def submit(self, fn: Callable, *args: Any) -> _RayPart:
        self._waiting = [p for p in self._waiting if not _ready(p)]
        part = _RayPart(_remote(fn).remote(*args))
        self._waiting.append(part)
        return part

    def shutdown(self) -> None:
        ray = ray_module()
        for part in self._waiting if ray.is_initialized() else ():
            ray.cancel(part.ref, force=True)
        self._cluster.close()


def _ready(part: _RayPart) -> bool:
    ready, _ = ray_module().wait([part.ref], timeout=0)
    return bool(ready)


def chunk_players(
    backend: str, actors: int, parts: int, address: str | None = None
) -> InProcess | LocalProcesses | RayTasks:
    """The executor for a run's parts: ``backend`` "local" (``actors`` processes, at most one
    per part; 0: the learner's process) or "ray" (the cluster at ``address``, or a local Ray
    with ``max(actors, 1)`` CPUs)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)} (got {backend!r})")
    if backend == "ray":
        return RayTasks(address, max(actors, 1))
    if address is not None:
        raise ValueError("--address is for --backend ray")
    if actors == 0:
        return InProcess()
    return LocalProcesses(min(actors, parts))
