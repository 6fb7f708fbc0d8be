"""Run a batch: schedule, skip what is recorded, play the rest game by game, keep each
finished game at once, write a shard per ``games_per_task`` games.

Each game is a task of its own. With one worker they are played in this process; with more,
in a local process pool with a bounded number of games in flight (memory stays flat however
long the batch); with the ``ray`` backend, as Ray tasks (:mod:`skip_ai.tournament.cluster`).
Every finished game goes to the store's journal as it arrives, so an interrupt, even
``kill -9``, loses only the games in flight: those still being played, and any whose record
was still on its way from its worker to this process; a worker keeps its bots from game to
game within a run (:func:`skip_ai.tournament.worker.play_games`), so single-game tasks cost
no rebuilding. The games are cut, in the order they are played, into shards of
``games_per_task``, each written once all its games are in, whatever order they finish in.
A game that kills its worker process costs only its own record, as on Ray: the games in
flight are played again each alone, and one that dies alone twice is recorded ``failed``.
The records depend neither on the worker count nor on the backend: each game's seed comes
from its identity (:mod:`skip_ai.tournament.schedule`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from skip_ai.tournament.cluster import RayCluster
from skip_ai.tournament.config import BatchConfig, TournamentConfig, check_workers
from skip_ai.tournament.progress import Progress
from skip_ai.tournament.schedule import ScheduledGame, schedule, schedule_size
from skip_ai.tournament.store import RecordStore, StoreError
from skip_ai.tournament.worker import failed_record, forget_bots, play_games

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
        config,
        lambda: schedule(config, interleaved=True),
        schedule_size(config),
        workers,
        backend,
        progress,
        address,
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
        shards = _Shards(store, config.games_per_task)
        todo = shards.games(s for s in games() if s.match_id not in done)
        session = uuid.uuid4().hex  # this run's: a worker's bots last as long as it
        bar = Progress(config.name, total, len(done), show=progress)
        results = (
            cluster.results(todo, config.name, version, session)
            if cluster
            else _results(todo, config.name, version, session, workers)
        )
        for row in results:
            shards.add(row)
            bar.update()
        shards.finish()
        bar.close()
    finally:
        store.close()
        if cluster:
            cluster.close()
    return BatchSummary(
        total, len(done), shards.played, shards.failed, time.perf_counter() - t0, store.records
    )


def _check_belong(done: set[str], games: Iterable[ScheduledGame], store: RecordStore) -> None:
    """Every recorded game must be one of this batch's (a stray one would be double
    counted by the analysis)."""
    known = sum(s.match_id in done for s in games)
    if known != len(done):
        raise StoreError(
            f"{store.records} holds {len(done) - known} games that are not in this batch's schedule"
        )


class _Shards:
    """The run's games cut, in the order they are played, into shards of ``size``: each game
    kept in the journal as it finishes, each shard written once all its games are in (so a
    batch run through has the same shards on any worker count and either backend)."""

    def __init__(self, store: RecordStore, size: int):
        self.store, self.size = store, size
        self.played = self.failed = 0
        self._shard_of: dict[str, int] = {}  # match id → its shard, for the games not yet in
        self._order: dict[int, list[str]] = {}  # shard → its games' match ids, in order
        self._rows: dict[int, dict[str, dict]] = {}  # shard → the records finished so far

    def games(self, todo: Iterable[ScheduledGame]) -> Iterator[ScheduledGame]:
        """``todo``, each game given its shard as it is handed out."""
        for i, game in enumerate(todo):
            self._shard_of[game.match_id] = i // self.size
            self._order.setdefault(i // self.size, []).append(game.match_id)
            yield game

    def add(self, row: dict) -> None:
        """A finished game: into the journal now, into a shard once its shard is whole."""
        self.store.keep(row)
        self.played += 1
        self.failed += row["status"] != "ok"
        shard = self._shard_of.pop(row["match_id"])
        rows = self._rows.setdefault(shard, {})
        rows[row["match_id"]] = row
        if len(rows) == self.size:
            self._write(shard)

    def finish(self) -> None:
        """Every game played: the last shard, short of ``size``."""
        for shard in sorted(self._rows):
            self._write(shard)

    def _write(self, shard: int) -> None:
        rows = self._rows.pop(shard)
        self.store.write([rows[match_id] for match_id in self._order.pop(shard)])


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
    games: Iterator[ScheduledGame], batch: str, version: str, session: str, workers: int
) -> Iterator[dict]:
    """Each game's record as soon as it finishes; in a pool, at most two games per worker
    are in flight, so the schedule is never materialised."""
    if workers == 1:
        try:
            for game in games:
                yield from play_games(batch, version, [game], session)
        finally:  # the bots of this run, built in this process
            forget_bots()
        return
    pool = _LocalPool(workers, batch, version, session)
    complete = False
    try:
        for game in games:
            pool.submit(game)
            while len(pool.pending) >= 2 * workers:
                yield from pool.finished()
        while pool.pending:
            yield from pool.finished()
        complete = True
    finally:
        pool.close(kill=not complete)


class _LocalPool:
    """A process pool that survives the death of a worker (a crash in native code, the
    kernel's OOM killer): every game in flight went down with the pool, so each is played
    again alone in a fresh process (:meth:`_alone`), the rest in a new pool."""

    def __init__(self, workers: int, batch: str, version: str, session: str):
        self.workers, self.batch, self.version, self.session = workers, batch, version, session
        self.pool = new_pool(workers)
        self.pending: dict[Future, ScheduledGame] = {}

    def submit(self, game: ScheduledGame) -> None:
        future = self.pool.submit(play_games, self.batch, self.version, [game], self.session)
        self.pending[future] = game

    def finished(self) -> Iterator[dict]:
        """The records of the games that finish next (at least one)."""
        done, _ = wait(self.pending, return_when=FIRST_COMPLETED)
        broken = []
        for future in done:
            game = self.pending.pop(future)
            try:
                yield from future.result()
            except BrokenProcessPool:
                broken.append(game)
        if broken:
            broken += self.pending.values()
            self.pending.clear()
            # wait for the broken pool's processes to be gone: a forked worker shares the
            # batch's lock (RecordStore), which would outlive the run otherwise
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = new_pool(self.workers)
            for game in broken:
                yield self._alone(game) or self._alone(game) or self._died(game)

    def _alone(self, game: ScheduledGame) -> dict | None:
        """The record of ``game`` played in a fresh process of its own; None if it died."""
        pool = new_pool(1)
        try:
            return pool.submit(play_games, self.batch, self.version, [game]).result()[0]
        except BrokenProcessPool:
            return None
        finally:  # waited for, as above: the process shares the batch's lock
            pool.shutdown(wait=True, cancel_futures=True)

    def _died(self, game: ScheduledGame) -> dict:
        return failed_record(
            self.batch,
            self.version,
            game,
            "BrokenProcessPool: the worker process died while playing this game alone, "
            "twice (a crash in native code, or the system ran out of memory)",
        )

    def close(self, kill: bool) -> None:
        """Let the workers go; with ``kill`` (an error, Ctrl-C) at once: they ignore Ctrl-C,
        and waiting for their tasks could take minutes."""
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=not kill, cancel_futures=True)
        if kill:
            for process in processes:
                process.terminate()
