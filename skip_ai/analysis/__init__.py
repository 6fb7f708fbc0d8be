"""Analysis of tournament records: win rates, ratings, balance metrics, plots and the report.

Every function takes a records DataFrame (:func:`load_records` of a batch folder), so the same
calls serve ``skip-ai report`` and notebooks.
"""

from skip_ai.analysis.balance import (
    CROSS_METRICS,
    METRICS,
    SIDE_METRICS,
    balance_table,
    balance_wide,
)
from skip_ai.analysis.frame import deal_scores, load_records
from skip_ai.analysis.plots import balance_plot, length_plot, ratings_plot, save, winrate_heatmap
from skip_ai.analysis.ratings import ALL_GAMES, elo_ratings
from skip_ai.analysis.report import write_report
from skip_ai.analysis.structure import structure, structure_table
from skip_ai.analysis.winrate import pair_scores, winrate_matrix

__all__ = [
    "ALL_GAMES",
    "CROSS_METRICS",
    "METRICS",
    "SIDE_METRICS",
    "balance_plot",
    "balance_table",
    "balance_wide",
    "deal_scores",
    "elo_ratings",
    "length_plot",
    "load_records",
    "pair_scores",
    "ratings_plot",
    "save",
    "structure",
    "structure_table",
    "winrate_heatmap",
    "winrate_matrix",
    "write_report",
]
