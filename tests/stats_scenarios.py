"""Data with a known truth for the interval tests of :mod:`skip_ai.stats` (paired win/loss,
scores, margins) and the exact coverage of the intervals that depend only on counts."""

from __future__ import annotations

import math

import numpy as np

from skip_ai.stats import (
    score_interval,
)

# --- scenarios -------------------------------------------------------------------------------


def pairs_from_counts(b: int, c: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n paired 0/1 results: b deals won by x only, c by y only, the rest agreeing."""
    x, y = np.zeros(n), np.zeros(n)
    x[:b] = 1
    y[b : b + c] = 1
    x[b + c :: 2] = y[b + c :: 2] = 1  # half the agreeing deals both won
    return x, y


def binary_pairs(p10: float, p01: float):
    """Paired win/loss: x alone wins with p10, y alone with p01, both or neither otherwise."""
    agree = (1 - p10 - p01) / 2
    cells = np.array([[1, 0], [0, 1], [1, 1], [0, 0]], dtype=float)
    probs = [p10, p01, agree, agree]

    def draw(rng: np.random.Generator, n: int):
        k = rng.choice(4, n, p=probs)
        return cells[k, 0], cells[k, 1]

    return draw, p10 - p01


def table_pairs(cells: list[tuple[float, float]], probs: list[float]):
    """Paired per-deal values drawn from a joint table."""
    cells_ = np.array(cells, dtype=float)
    probs_ = np.array(probs, dtype=float) / sum(probs)

    def draw(rng: np.random.Generator, n: int):
        k = rng.choice(len(cells_), n, p=probs_)
        return cells_[k, 0], cells_[k, 1]

    return draw, float(probs_ @ (cells_[:, 0] - cells_[:, 1]))


HALF = [0.0, 0.5, 1.0]
HALF_CELLS = [(a, b) for a in HALF for b in HALF]


def halves_rare():
    """Duplicate scores in {0, ½, 1}: nearly every deal split alike on both sides."""
    probs = {(0.5, 0.5): 0.94, (1.0, 0.5): 0.02, (0.5, 0.0): 0.01}
    return table_pairs(HALF_CELLS, [probs.get(cell, 0.005) for cell in HALF_CELLS])


def halves_typical():
    return table_pairs(HALF_CELLS, [0.1, 0.05, 0.02, 0.1, 0.3, 0.05, 0.1, 0.1, 0.18])


def quarters(shift: float = 0.1):
    """Scores in {0, ¼, ½, ¾, 1} (four games a deal): a deal's chance q for y, q + shift for x."""
    q = np.array([0.2, 0.5, 0.8])

    def draw(rng: np.random.Generator, n: int):
        deal = q[rng.integers(0, 3, n)]
        return rng.binomial(4, deal) / 4, rng.binomial(4, deal - shift) / 4

    return draw, shift


def skewed_margins():
    """Bounded continuous per-deal margins in [0, 1], skewed: Beta(½, 5) against Beta(½, 4)."""

    def draw(rng: np.random.Generator, n: int):
        return rng.beta(0.5, 5, n), rng.beta(0.5, 4, n)

    return draw, 0.5 / 5.5 - 0.5 / 4.5


def old_paired(d: np.ndarray) -> tuple[float, float, float]:
    """The paired interval replaced (balance.metrics.paired_difference, bounded): the
    difference in [−1, 1] mapped onto [0, 1] and given score_interval (Wilson's over an
    effective n)."""
    mid, lo, hi = score_interval((d + 1) / 2)
    return 2 * mid - 1, 2 * lo - 1, 2 * hi - 1


def exact_coverage(n: int, p10: float, p01: float, interval) -> float:
    """The exact coverage of ``interval(x, y) -> (est, lo, hi, ...)`` for paired binary data
    whose interval depends only on (b, c): Σ P(b, c) [Δ in the interval] over the (b, c) of
    probability ≥ 1e-13 (the rest, < 1e-6 in all, counted as misses)."""
    truth, p00 = p10 - p01, 1 - p10 - p01
    total = covered = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            log_p = math.lgamma(n + 1) - math.lgamma(b + 1) - math.lgamma(c + 1)
            log_p -= math.lgamma(n - b - c + 1)
            for k, p in ((b, p10), (c, p01), (n - b - c, p00)):
                if k:
                    log_p += k * math.log(p) if p > 0 else -math.inf
            if log_p < math.log(1e-13):
                continue
            prob = math.exp(log_p)
            total += prob
            lo, hi = interval(*pairs_from_counts(b, c, n))[1:3]
            covered += prob * (lo <= truth <= hi)
    assert total > 1 - 1e-6
    return covered


SIZES = (20, 40, 100, 400)
BINARY = {  # name: (p10, p01) as a function of n
    "all deals agree": lambda n: (0.0, 0.0),
    "rare discordance p10=0.03": lambda n: (0.03, 0.0),
    "one disagreement expected": lambda n: (1 / n, 0.0),
    "typical p10=0.2 p01=0.1": lambda n: (0.2, 0.1),
    "Tango's worst p10=0.2 p01=0": lambda n: (0.2, 0.0),  # Tango's: 0.928 at n = 40
}
BINARY_CASES = [(name, n) for name in BINARY for n in SIZES]


def old_exact(n: int, p10: float, p01: float) -> float:
    return exact_coverage(n, p10, p01, lambda x, y: old_paired(x - y))
