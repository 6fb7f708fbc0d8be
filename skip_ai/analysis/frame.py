"""The records as the analysis sees them: the finished games of a batch, and its deals.

A *deal unit* is one duplicate deal of one pair of agents on one game: its seatings share the
cards, so they are not independent, while different deal units are. Every interval of the
analysis therefore treats the deal unit, not the game, as the sample.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from skip_ai.records import read_records

UNIT = ["game", "agent_a", "agent_b", "deal"]
PAIR = ["game", "agent_a", "agent_b"]


def load_records(out: str | Path) -> pd.DataFrame:
    """The finished games (``status == "ok"``) of a batch folder ``out`` (its ``records``
    folder) or of a records folder itself. A missing, empty or damaged folder is a
    ``ValueError`` naming it; so is a bad record or another batch's shard
    (:class:`skip_ai.record_schema.RecordError`, naming the file, the row and what is wrong:
    :func:`skip_ai.records.read_records` checks every record it reads)."""
    path = Path(out)
    folder = path / "records" if (path / "records").is_dir() else path
    if not folder.exists():
        raise ValueError(
            f"no records at {folder} (expected a batch folder holding records/ "
            "or a records folder of Parquet shards)"
        )
    try:
        df = read_records(folder)
    except (OSError, pa.ArrowException) as e:
        raise ValueError(f"cannot read the records at {folder}: {e}") from e
    ok = df[df.status == "ok"].reset_index(drop=True)
    if ok.empty:
        raise ValueError(
            f"no finished games in the records at {folder} ({len(df)} records, none with status ok)"
        )
    return ok


def deal_scores(df: pd.DataFrame) -> pd.DataFrame:
    """One row per deal unit: A's duplicate score on the deal (``score``, the mean of
    ``score_a`` over the deal's seatings) and how many games it averages."""
    return df.groupby(UNIT, sort=True).score_a.agg(score="mean", games="size").reset_index()


@cache
def game_info(game: str) -> tuple[bool, np.ndarray, float, float]:
    """(team game, the team of each seat, min utility, max utility) of a game string."""
    import skip_ai  # noqa: F401  (registers the games)
    from skip_ai.pyspiel_wrapper import load

    g = load(game)
    return g.spec.team_game, g.teams(), g.min_utility(), g.max_utility()
