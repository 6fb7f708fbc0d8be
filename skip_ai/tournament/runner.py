"""Run a batch: schedule, skip what is recorded, play the rest in tasks, write a shard per task.

Tasks are chunks of ``games_per_task`` consecutive scheduled games. With one worker they are
played in this process; with more, in a local process pool with a bounded number of tasks in
flight (memory stays flat however long the batch); with the ``ray`` backend, as Ray tasks
(:mod:`skip_ai.tournament.cluster`). A game that kills its worker process costs only its own
record, as on Ray: the tasks that were in flight are played again alone, and a task that dies
alone game by game, so the game that dies alone twice is recorded ``failed``. The records
depend neither on the worker count nor on the backend: each game's seed comes from its
identity (:mod:`skip_ai.tournament.schedule`).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from skip_ai.tournament.cluster import RayCluster
from skip_ai.tournament.config import BatchConfig, TournamentConfig, check_workers
from skip_ai.tournament.schedule import ScheduledGame, schedule, schedule_size
from skip_ai.tournament.store import RecordStore, StoreError
from skip_ai.tournament.worker import failed_record, play_games

BACKENDS = ("local", "ray")


@dataclass
class BatchSummary:
    total: int  # games in the batch
    before: int  # games recorded before this run
    played: int  # games played by this run
    failed: int  # of those, games recorded as failed
    seconds: float  # this run's wall time
    records: Path


def code_version() -> str:
    """The package version and, when the code is a git checkout, its commit (``.dirty`` when
    tracked files differ from it)."""
    from skip_ai import __version__

    here = Path(__file__).resolve().parent
    try:

        def git(*args: str) -> str:
            return subprocess.run(
                ["git", "-C", str(here), *args],
                capture_output=True,
                text=True,
                timeout=10,
                check=True,
            ).stdout.strip()

        commit = git("rev-parse", "--short=12", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return __version__
    return f"{__version__}+g{commit}{'.dirty' if dirty else ''}"


def run_tournament(
    config: TournamentConfig,
    workers: int | None = None,
    backend: str = "local",
    progress: bool = True,
    address: str | None = None,
) -> BatchSummary:
    """Play every game of ``config`` not yet recorded under ``config.out``.

    ``backend="ray"`` runs the tasks on the Ray cluster at ``address`` (``workers`` is then
    the cluster's affair), or on a local Ray with ``workers`` CPUs when ``address`` is None.
    """
    return run_batch(
        config, lambda: schedule(config), schedule_size(config), workers, backend, progress, address
    )


def run_batch(
    config: BatchConfig,
    games: Callable[[], Iterator[ScheduledGame]],
    total: int,
    workers: int | None = None,
    backend: str = "local",
    progress: bool = True,
    address: str | None = None,
) -> BatchSummary:
    """Play every game that ``games()`` lists (``total`` of them, in a fixed order) and is not
    yet recorded under ``config.out``: the runner of tournaments and balance studies alike
    (any config with a name, an identity, ``out``, ``workers`` and ``games_per_task``)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; available: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ValueError("--address needs --backend ray")
    workers = config.workers if workers is None else check_workers(workers)
    t0 = time.perf_counter()
    version = code_version()
    cluster = RayCluster(address, workers) if backend == "ray" else None  # before any write
    store = RecordStore(config.out)
    try:
        store.open(config, version)
        done = store.done_ids()
        if done:
            _check_belong(done, games(), store)
        todo = (s for s in games() if s.match_id not in done)
        tasks = _chunks(todo, config.games_per_task)
        played = failed = 0
        bar = tqdm(
            total=total,
            initial=len(done),
            unit="game",
            desc=config.name,
            disable=not progress,
            smoothing=0.05,
        )
        results = (
            cluster.results(tasks, config.name, version)
            if cluster
            else _results(tasks, config.name, version, workers)
        )
        for rows in results:
            store.write(rows)
            played += len(rows)
            failed += sum(r["status"] != "ok" for r in rows)
            bar.update(len(rows))
        bar.close()
    finally:
        store.close()
        if cluster:
            cluster.close()
    return BatchSummary(total, len(done), played, failed, time.perf_counter() - t0, store.records)


def _check_belong(done: set[str], games: Iterable[ScheduledGame], store: RecordStore) -> None:
    """Every recorded game must be one of this batch's (a stray one would be double
    counted by the analysis)."""
    known = sum(s.match_id in done for s in games)
    if known != len(done):
        raise StoreError(
            f"{store.records} holds {len(done) - known} games that are not in this batch's schedule"
        )


def _chunks(games: Iterable[ScheduledGame], size: int) -> Iterator[list[ScheduledGame]]:
    it = iter(games)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _worker_init(parent: int) -> None:
    """A pool worker leaves Ctrl-C to the parent (which stops the batch with one line, not a
    traceback per worker), and leaves with the parent when it is killed (kill -9): it would
    otherwise wait for tasks forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def new_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers leave Ctrl-C to the parent and leave with it (the
    runner's, and the balance evaluator's)."""
    # fork: the workers inherit the imported package and its compiled kernels at no cost
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_worker_init,
        initargs=(os.getpid(),),
    )


def _results(
    tasks: Iterator[list[ScheduledGame]], batch: str, version: str, workers: int
) -> Iterator[list[dict]]:
    """Each task's records as soon as it finishes; in a pool, at most two tasks per worker
    are in flight, so the schedule is never materialised."""
    if workers == 1:
        for task in tasks:
            yield play_games(batch, version, task)
        return
    pool = _LocalPool(workers, batch, version)
    complete = False
    try:
        for task in tasks:
            pool.submit(task)
            while len(pool.pending) >= 2 * workers:
                yield from pool.finished()
        while pool.pending:
            yield from pool.finished()
        complete = True
    finally:
        pool.close(kill=not complete)


class _LocalPool:
    """A process pool that survives the death of a worker (a crash in native code, the
    kernel's OOM killer): every task in flight went down with the pool, so each is played
    again alone in a fresh process (:meth:`_alone`), the rest in a new pool."""

    def __init__(self, workers: int, batch: str, version: str):
        self.workers, self.batch, self.version = workers, batch, version
        self.pool = new_pool(workers)
        self.pending: dict[Future, list[ScheduledGame]] = {}

    def submit(self, games: list[ScheduledGame]) -> None:
        self.pending[self.pool.submit(play_games, self.batch, self.version, games)] = games

    def finished(self) -> Iterator[list[dict]]:
        """The records of the tasks that finish next (at least one)."""
        done, _ = wait(self.pending, return_when=FIRST_COMPLETED)
        broken = []
        for future in done:
            games = self.pending.pop(future)
            try:
                yield future.result()
            except BrokenProcessPool:
                broken.append(games)
        if broken:
            broken += self.pending.values()
            self.pending.clear()
            # wait for the broken pool's processes to be gone: a forked worker shares the
            # batch's lock (RecordStore), which would outlive the run otherwise
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = new_pool(self.workers)
            for games in broken:
                yield self._isolated(games)

    def _isolated(self, games: list[ScheduledGame]) -> list[dict]:
        """A task whose pool died, played alone; if it dies alone, game by game, and a game
        that dies alone twice is recorded as failed."""
        rows = self._alone(games)
        if rows is not None:
            return rows
        rows = []
        for game in games:
            one = self._alone([game]) or self._alone([game])
            rows += one or [
                failed_record(
                    self.batch,
                    self.version,
                    game,
                    "BrokenProcessPool: the worker process died while playing this game alone, "
                    "twice (a crash in native code, or the system ran out of memory)",
                )
            ]
        return rows

    def _alone(self, games: list[ScheduledGame]) -> list[dict] | None:
        """The records of ``games`` played in a fresh process of their own; None if it died."""
        pool = new_pool(1)
        try:
            return pool.submit(play_games, self.batch, self.version, games).result()
        except BrokenProcessPool:
            return None
        finally:  # waited for, as above: the process shares the batch's lock
            pool.shutdown(wait=True, cancel_futures=True)

    def close(self, kill: bool) -> None:
        """Let the workers go; with ``kill`` (an error, Ctrl-C) at once: they ignore Ctrl-C,
        and waiting for their tasks could take minutes."""
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=not kill, cancel_futures=True)
        if kill:
            for process in processes:
                process.terminate()
