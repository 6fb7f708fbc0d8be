"""What of a study is recorded: every record (failed games included), the games its schedule
expects so far, and per variant, kind (self-play or step) and rung how many of them are in.

A study stopped before its end (or still running) still builds a report; this is what labels
it *partial* and says which variants and rungs are complete.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from skip_ai.balance import halving, sequential
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.ladder import study_schedule
from skip_ai.record_schema import SCHEMA
from skip_ai.records import read_records
from skip_ai.tournament.schedule import ScheduledGame


def recorded(out: Path) -> pd.DataFrame:
    """Every record of the study at ``out``, failed games included (none yet: empty)."""
    folder = out / "records"
    return read_records(folder) if folder.exists() else SCHEMA.empty_table().to_pandas()


def expected(config: BalanceConfig, records: pd.DataFrame) -> Iterator[ScheduledGame]:
    """The games the study plays, as far as ``records`` decide them (with ``[halving]`` or
    ``[precision]``, the rounds or looks planned so far: later ones are not yet known)."""
    if config.precision is not None:
        return sequential.schedule(config, sequential.plan(config, records))
    if config.halving is None:
        return study_schedule(config)
    return halving.schedule(config, halving.plan(config, records))


def completeness(config: BalanceConfig, records: pd.DataFrame) -> pd.DataFrame:
    """One row per (variant, kind, rung): the games ``expected`` and ``recorded`` (failed
    ones included: they will not be played again)."""
    done = set(records.match_id)
    wanted, have = Counter(), Counter()
    for g in expected(config, records):
        v, kind, rung = g.match_id.split("/")[:3]
        key = (config.games[int(v)], kind, int(rung))
        wanted[key] += 1
        have[key] += g.match_id in done
    return pd.DataFrame(
        [(*key, n, have[key]) for key, n in wanted.items()],
        columns=["game", "kind", "rung", "expected", "recorded"],
    )
