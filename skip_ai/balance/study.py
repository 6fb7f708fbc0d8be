"""Run a balance study: play its games (resuming what is recorded), then write its report.

The games go through the tournament's runner (:func:`skip_ai.tournament.runner.run_batch`):
the same worker, record store, shards, resume after ``kill -9``, process pool and Ray backend.
Every rung, random and heuristic included, is played through the pyspiel play loop rather
than the Numba batch (:func:`skip_ai.sim.simulate`): one record format and one store for the
whole ladder, the same deals for every rung, and the action history in every record. The
batch would be ~100× faster for those two rungs, but in a study they cost little beside the
searching rungs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

import pandas as pd

from skip_ai.balance import halving, sequential
from skip_ai.balance.config import BalanceConfig, load_balance_config
from skip_ai.balance.ladder import study_schedule, study_size
from skip_ai.balance.progress import recorded
from skip_ai.balance.report import printout, study_tables, write_balance_report
from skip_ai.tournament.runner import BatchSummary, run_batch
from skip_ai.tournament.schedule import ScheduledGame
from skip_ai.tournament.store import check_identity

QUICK = "quick.toml"
"""The embedded default study (``skip-ai balance`` without a config)."""


def quick_config_path() -> Path:
    """The path of the embedded default study's config."""
    return Path(str(resources.files("skip_ai.balance") / QUICK))


def run_study(
    config: BalanceConfig,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = True,
) -> tuple[BatchSummary, Path]:
    """Play what is left of the study and write ``OUT/report.md``; returns the batch's
    summary and the report's path."""
    if config.precision is not None:
        summary = _run_sequential(config, workers, backend, address, progress)
    elif config.halving is None:
        summary = run_batch(
            config,
            lambda: study_schedule(config),
            study_size(config),
            workers,
            backend,
            progress,
            address,
        )
    else:
        summary = _run_halving(config, workers, backend, address, progress)
    return summary, write_balance_report(config)


def _run_sequential(
    config: BalanceConfig, workers: int | None, backend: str, address: str | None, progress: bool
) -> BatchSummary:
    """Play look after look (:mod:`skip_ai.balance.sequential`) until every rung has
    stopped."""

    def stage(records: pd.DataFrame) -> Stage:
        plans = sequential.plan(config, records)
        return (
            lambda: sequential.schedule(config, plans),
            sequential.size(config, plans),
            sequential.done(plans),
        )

    return _run_in_stages(config, stage, workers, backend, address, progress)


def _run_halving(
    config: BalanceConfig, workers: int | None, backend: str, address: str | None, progress: bool
) -> BatchSummary:
    """Play the rounds of successive halving (:func:`skip_ai.balance.halving.plan`)."""

    def stage(records: pd.DataFrame) -> Stage:
        rounds = halving.plan(config, records)
        return (
            lambda: halving.schedule(config, rounds),
            halving.size(config, rounds),
            rounds[-1].number == config.halving.rounds,
        )

    return _run_in_stages(config, stage, workers, backend, address, progress)


Stage = tuple[Callable[[], Iterator[ScheduledGame]], int, bool]
"""A stage of a study: its games (all those planned so far), how many, whether it is the last."""


def _run_in_stages(
    config: BalanceConfig,
    stage: Callable[[pd.DataFrame], Stage],
    workers: int | None,
    backend: str,
    address: str | None,
    progress: bool,
) -> BatchSummary:
    """Play stage after stage, each planned by ``stage`` from the records of those before
    (so a resumed or parallel study replays the same decisions), until the last."""
    runs = []
    while True:
        games, size, last = stage(recorded(config.out))
        runs.append(run_batch(config, games, size, workers, backend, progress, address))
        if last:
            break
    return dataclasses.replace(
        runs[-1],
        before=runs[0].before,
        played=sum(r.played for r in runs),
        failed=sum(r.failed for r in runs),
        seconds=sum(r.seconds for r in runs),
    )


def findings_text(config: BalanceConfig, tables: dict | None = None) -> str:
    """The report's verdicts, answer table, evidence and who played, as plain text (for the
    terminal: :func:`~skip_ai.balance.report.printout`); ``tables``: the study's
    (:func:`~skip_ai.balance.report.study_tables`) if already computed."""
    return printout(config, tables)


def report_to(config: BalanceConfig, to: Path) -> tuple[Path, str]:
    """The report of the games recorded so far in the study's folder, written into ``to``
    (``--report-to``: nothing is played; a running or stopped study's too, labelled partial),
    and its findings as text. The folder must hold this study: its ``batch.json`` the identity
    of ``config`` (else a :class:`~skip_ai.tournament.store.StoreError` in one line), so
    another study's games are never reported under this config's names."""
    check_identity(config.out, config, "study")
    tables = study_tables(config)
    return write_balance_report(config, to, tables), findings_text(config, tables)


def load(path: str | Path | None) -> BalanceConfig:
    """The study at ``path``, or the embedded quick study."""
    return load_balance_config(path if path is not None else quick_config_path())
