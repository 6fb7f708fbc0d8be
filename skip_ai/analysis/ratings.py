"""Elo ratings with bootstrap intervals, per game and over all games.

The fit is OpenSpiel's (``open_spiel.python.algorithms.elo``: the C++ minorise–maximise
algorithm of Hunter 2004 for the Bradley–Terry model, with draws), a maintained
implementation, rather than one written here. Elo is Bradley–Terry on the 400·log10 scale: a
rating gap of 400 means 10-to-1 odds of winning a game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from open_spiel.python.algorithms.elo import compute_ratings_from_matrices

from skip_ai.analysis.bootstrap import percentile, resample, unit_codes

ALL_GAMES = "all games"


def outcomes(df: pd.DataFrame) -> np.ndarray:
    """Each game's result for A: 1 a win (``score_a`` above ½), -1 a loss, 0 a draw."""
    return np.sign(df.score_a.to_numpy() - 0.5).astype(np.int64)


def elo_ratings(df: pd.DataFrame, n_boot: int = 200, seed: int = 0) -> pd.DataFrame:
    """Every agent's Elo rating per game (and over ``ALL_GAMES`` when there are several),
    centred on the mean of the agents rated, with a 95% bootstrap interval.

    Each game counts as a win, draw or loss between the pair that played it; the duplicate
    seatings remove most card luck from the sums. The bootstrap resamples deal units within
    each pair (:mod:`skip_ai.analysis.bootstrap`) and refits; ratings are relative, so the
    interval is that of the agent's distance to the mean of the field.
    """
    rng = np.random.default_rng(seed)
    games = sorted(df.game.unique())
    scopes = [(g, df[df.game == g]) for g in games]
    if len(games) > 1:
        scopes.append((ALL_GAMES, df))
    frames = []
    for name, sub in scopes:
        agents = sorted(set(sub.agent_a) | set(sub.agent_b))
        index = {a: i for i, a in enumerate(agents)}
        ia = sub.agent_a.map(index).to_numpy()
        ib = sub.agent_b.map(index).to_numpy()
        result = outcomes(sub)
        units, strata = unit_codes(sub)
        point = _fit(ia, ib, result, np.ones(len(sub), np.int64), len(agents))
        boots = np.array(
            [_fit(ia, ib, result, resample(strata, rng)[units], len(agents)) for _ in range(n_boot)]
        )
        lo, hi = percentile(boots) if n_boot else (np.full_like(point, np.nan),) * 2
        played = np.bincount(ia, minlength=len(agents)) + np.bincount(ib, minlength=len(agents))
        frames.append(
            pd.DataFrame(
                {"game": name, "agent": agents, "elo": point, "lo": lo, "hi": hi, "games": played}
            )
        )
    return pd.concat(frames, ignore_index=True)


def _fit(
    ia: np.ndarray, ib: np.ndarray, result: np.ndarray, weight: np.ndarray, k: int
) -> np.ndarray:
    """Ratings of ``k`` agents from games (A index, B index, result) counted ``weight``
    times each, centred on their mean."""
    wins = np.zeros((k, k), np.int64)
    draws = np.zeros((k, k), np.int64)
    np.add.at(wins, (ia[result > 0], ib[result > 0]), weight[result > 0])
    np.add.at(wins, (ib[result < 0], ia[result < 0]), weight[result < 0])
    np.add.at(draws, (ia[result == 0], ib[result == 0]), weight[result == 0])
    draws = draws + draws.T  # a draw counts for both sides
    ratings = compute_ratings_from_matrices(wins, draws)
    return ratings - ratings.mean()
