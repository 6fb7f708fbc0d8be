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

from importlib import resources
from pathlib import Path

from skip_ai.balance.config import BalanceConfig, load_balance_config
from skip_ai.balance.ladder import study_schedule, study_size
from skip_ai.balance.report import findings, study_tables, who_played, write_balance_report
from skip_ai.tournament.runner import BatchSummary, run_batch

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
    summary = run_batch(
        config,
        lambda: study_schedule(config),
        study_size(config),
        workers,
        backend,
        progress,
        address,
    )
    return summary, write_balance_report(config)


def findings_text(config: BalanceConfig) -> str:
    """Who played and the report's findings, as plain text (for the terminal)."""
    tables = study_tables(config)
    text = "\n".join([who_played(config, tables["records"]), "", *findings(config, tables)])
    return text.replace("**", "").replace("`", "")


def load(path: str | Path | None) -> BalanceConfig:
    """The study at ``path``, or the embedded quick study."""
    return load_balance_config(path if path is not None else quick_config_path())
