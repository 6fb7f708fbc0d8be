"""Win-rate matrices: every agent's duplicate score against every other, per game."""

from __future__ import annotations

import numpy as np
import pandas as pd

from skip_ai.analysis.frame import PAIR, deal_scores
from skip_ai.stats import score_interval


def pair_scores(df: pd.DataFrame) -> pd.DataFrame:
    """Per game and pair, seen from each side: ``agent``'s duplicate score against
    ``opponent`` with a 95% interval, and the number of deals.

    The score is duplicate-adjusted: A's score (1 a win, ½ a draw, 0 a loss in team games; the
    scaled margin in games played each for themselves) is averaged over the seatings of each
    deal, then over the deals. The interval is :func:`skip_ai.stats.score_interval` over the
    deals (Wilson's, over the effective number of deals), as ``skip-ai match`` and balance
    studies give it.
    """
    deals = deal_scores(df)
    rows = []
    for (game, a, b), d in deals.groupby(PAIR, sort=True):
        n = len(d)
        score, lo, hi = score_interval(d.score.to_numpy())
        rows.append((game, a, b, score, lo, hi, n))
        rows.append((game, b, a, 1 - score, 1 - hi, 1 - lo, n))
    return pd.DataFrame(rows, columns=["game", "agent", "opponent", "score", "lo", "hi", "deals"])


def winrate_matrix(df: pd.DataFrame, game: str) -> pd.DataFrame:
    """The square matrix of ``game``: row agent's duplicate score against column agent
    (NaN on the diagonal and for pairs that did not meet), agents in name order."""
    scores = pair_scores(df[df.game == game])
    agents = sorted(set(scores.agent))
    matrix = scores.pivot(index="agent", columns="opponent", values="score")
    return (
        matrix.reindex(index=agents, columns=agents)
        .astype(float)
        .rename_axis(index="agent", columns="opponent")
        .where(~np.eye(len(agents), dtype=bool))
    )
