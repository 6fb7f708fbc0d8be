"""Small statistics for batch summaries: Wilson intervals and mean intervals."""

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


def mean_interval(x: np.ndarray, z: float = Z95,
                  bounds: tuple[float, float] = (-math.inf, math.inf)) -> tuple[float, float, float]:
    """Mean and normal-approximation 95% interval of a sample, clipped to ``bounds`` (the
    range the quantity can take, e.g. a score in [0, 1])."""
    x = np.asarray(x, dtype=float)
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    half = z * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.inf
    return m, max(bounds[0], m - half), min(bounds[1], m + half)
