"""Small statistics for batch summaries: Wilson intervals and mean intervals.

:func:`score_interval` is the one interval of a win rate or a score in [0, 1] (``skip-ai match``,
the tournament report, balance studies): Wilson's, over the sample's effective size."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); (0, 1) when n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(
    x: np.ndarray, z: float = Z95, bounds: tuple[float, float] = (-math.inf, math.inf)
) -> tuple[float, float, float]:
    """Mean and normal-approximation 95% interval of a sample, clipped to ``bounds`` (the
    range the quantity can take, e.g. a score in [0, 1])."""
    x = np.asarray(x, dtype=float)
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    half = z * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.inf
    return m, max(bounds[0], m - half), min(bounds[1], m + half)


def score_interval(x: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean and 95% interval of a sample of scores in [0, 1] (a game's 1, ½ or 0; a deal's
    mean score): Wilson's interval for the mean ``p``, with the effective sample size
    ``n·p(1−p)/s²`` (``s²`` the sample variance). Win/loss outcomes have ``s² = p(1−p)``, so
    it is exactly Wilson's over the games; scores that vary less (draws, duplicate deals whose
    seatings cancel the cards) count for more. Stays inside [0, 1], unlike a normal interval
    clipped there, and is not empty when every game ends alike."""
    x = np.asarray(x, dtype=float)
    if len(x) == 0:
        return math.nan, 0.0, 1.0
    p, var = float(x.mean()), float(x.var())
    n = len(x) * p * (1 - p) / var if var > 0 else len(x)
    lo, hi = wilson(p * n, n, z) if n > 0 else (0.0, 1.0)
    return p, min(lo, p), max(hi, p)  # (rounding can put p a hair outside)
