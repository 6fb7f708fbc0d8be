"""The bootstrap over deal units: resample the deals of every pair of agents with replacement
(stratified by pair, so each pair keeps its number of deals, as the schedule fixed it)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from skip_ai.analysis.frame import PAIR, UNIT

LEVEL = 0.95
MAX_SAMPLES = 10_000
"""The most bootstrap samples an analysis draws (the default is 200; 10**8 ran silently for
minutes). :func:`check_samples` says so in one line."""


def check_samples(n_boot: int) -> int:
    """``n_boot``, a number of bootstrap samples, checked: a whole number in
    0..:data:`MAX_SAMPLES` (0: no intervals)."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)):
        raise ValueError(f"bootstrap samples must be a whole number (got {n_boot!r})")
    if not 0 <= n_boot <= MAX_SAMPLES:
        raise ValueError(f"bootstrap samples must be in 0..{MAX_SAMPLES:_} (got {n_boot})")
    return int(n_boot)


def unit_codes(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """For each row of ``df``, the number of its deal unit; for each unit, its pair's number."""
    units = df.groupby(UNIT, sort=True).ngroup().to_numpy()
    keys = df[UNIT].drop_duplicates().sort_values(UNIT)  # the units in ngroup's order
    strata = keys.groupby(PAIR, sort=True).ngroup().to_numpy()
    return units, strata


def resample(strata: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """How many times each unit is drawn in one bootstrap sample (integers summing, per
    stratum, to the stratum's size)."""
    counts = np.zeros(len(strata), np.int64)
    for s in np.unique(strata):
        members = np.flatnonzero(strata == s)
        counts[members] = rng.multinomial(len(members), np.full(len(members), 1 / len(members)))
    return counts


def percentile(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The percentile interval (95%) of bootstrap samples along axis 0, ignoring NaNs."""
    tail = 100 * (1 - LEVEL) / 2
    with warnings.catch_warnings():  # a metric that does not apply is NaN in every sample
        warnings.simplefilter("ignore", RuntimeWarning)
        return (
            np.nanpercentile(samples, tail, axis=0),
            np.nanpercentile(samples, 100 - tail, axis=0),
        )
