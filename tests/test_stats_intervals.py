"""The intervals of :mod:`skip_ai.stats` used for balance studies: known values, edge cases and
input checks (their coverage with a known truth: ``test_stats_coverage.py``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from skip_ai.stats import (
    BETTING,
    betting_interval,
    betting_p_value,
    confidence_sequence,
    confidence_sequence_path,
    paired_interval,
)
from tests.stats_scenarios import (
    HALF,
    old_paired,
    pairs_from_counts,
)

# --- betting intervals: known values and edges -----------------------------------------------


def peak_log_capital(u: np.ndarray, alpha: float, fixed_n: bool, c: float, grid: np.ndarray):
    """By brute force, for every candidate m of ``grid``: the running maximum of the larger log
    capital of the two bettors (Waudby-Smith & Ramdas 2024: μ̂, σ̂² regularised by one fake
    observation of mean ½, variance ¼; bets truncated at c/m, c/(1 − m))."""
    n = len(u)
    t = np.arange(1, n + 1)
    mu = (0.5 + np.cumsum(u)) / (t + 1)
    var = (0.25 + np.cumsum((u - mu) ** 2)) / (t + 1)
    var_before = np.r_[0.25, var[:-1]]
    tuning = n if fixed_n else t * np.log(1 + t)
    lam = np.sqrt(2 * np.log(2 / alpha) / (var_before * tuning))
    m = grid[:, None]
    with np.errstate(divide="ignore"):
        up = np.minimum(lam, c / m)
        down = np.minimum(lam, c / (1 - m))
    k_up = np.cumsum(np.log1p(up * (u - m)), axis=1).max(axis=1)
    k_down = np.cumsum(np.log1p(-down * (u - m)), axis=1).max(axis=1)
    return np.maximum(k_up, k_down)


def hedged_grid(u: np.ndarray, alpha: float, fixed_n: bool, c: float, grid: np.ndarray):
    """The betting set over [0, 1] by brute force: the m whose capitals stay below 2/α."""
    return grid[peak_log_capital(u, alpha, fixed_n, c, grid) < np.log(2 / alpha)]


@pytest.mark.parametrize("fixed_n", [True, False])
def test_betting_ends_match_brute_force_capital(fixed_n):
    rng = np.random.default_rng(11)
    grid = np.linspace(0, 1, 5001)
    c = 0.75 if fixed_n else 0.5  # the documented truncations
    samples = [
        rng.random(30),
        (rng.random(200) < 0.3).astype(float),
        rng.choice(HALF, 100, p=[0.05, 0.9, 0.05]),
        np.full(40, 0.5),
        np.zeros(25),
        rng.beta(0.2, 3, 300),
    ]
    for u in samples:
        kept = hedged_grid(u, 0.05, fixed_n, c, grid)
        assert np.all(np.diff(kept) < 1.5 / 5000)  # an interval
        mean, lo, hi = (betting_interval if fixed_n else confidence_sequence)(u)
        assert lo == pytest.approx(min(kept[0], mean), abs=2e-4)
        assert hi == pytest.approx(max(kept[-1], mean), abs=2e-4)


def test_betting_degenerate_and_small_samples():
    for f in (betting_interval, confidence_sequence):
        mean, lo, hi = f([])
        assert math.isnan(mean) and (lo, hi) == (0.0, 1.0)
        assert f([], -1, 1)[1:] == (-1.0, 1.0)
        mean, lo, hi = f([0.3])
        assert 0 <= lo <= 0.3 <= hi <= 1
        widths = []
        for n in (10, 40, 400):  # every deal alike: symmetric, never empty, shrinking
            mean, lo, hi = f(np.zeros(n), -1, 1)
            assert mean == 0 and lo == pytest.approx(-hi) and 0 < hi < 1
            widths.append(hi - lo)
            assert f(np.zeros(n))[1] == 0.0  # at the bound, the bound
            assert 0 < f(np.zeros(n))[2] < 1
        assert widths == sorted(widths, reverse=True)


def test_betting_equivariance():
    rng = np.random.default_rng(5)
    x = rng.beta(2, 5, 200)
    mean, lo, hi = betting_interval(x)
    shifted = betting_interval(3 + 10 * x, 3, 13)
    assert shifted == pytest.approx((3 + 10 * mean, 3 + 10 * lo, 3 + 10 * hi), rel=1e-9)
    mirrored = betting_interval(1 - x)
    assert mirrored == pytest.approx((1 - mean, 1 - hi, 1 - lo), abs=1e-9)


def test_confidence_sequence_path():
    rng = np.random.default_rng(8)
    x = rng.choice(HALF, 600, p=[0.2, 0.5, 0.3])
    mean, lo, hi = confidence_sequence_path(x)
    assert len(mean) == len(lo) == len(hi) == 600
    assert mean == pytest.approx(np.cumsum(x) / np.arange(1, 601))
    for t in (1, 2, 20, 137, 600):  # each holds the exact interval, within the 1/4096 rounding
        _, exact_lo, exact_hi = confidence_sequence(x[:t])
        assert exact_lo - 1 / 4096 <= lo[t - 1] <= exact_lo + 1e-12
        assert exact_hi - 1e-12 <= hi[t - 1] <= exact_hi + 1 / 4096
    # fixed-n interval narrower than the anytime-valid one at that n
    _, lo_n, hi_n = betting_interval(x)
    _, lo_cs, hi_cs = confidence_sequence(x)
    assert hi_n - lo_n < hi_cs - lo_cs
    assert confidence_sequence_path([])[0].shape == (0,)


def test_large_samples_run():
    x = np.random.default_rng(2).random(20_000)
    for f in (betting_interval, confidence_sequence):
        mean, lo, hi = f(x)
        assert lo < 0.5 < hi and hi - lo < 0.03
    assert confidence_sequence_path(x)[1][-1] < 0.5


# --- p-values from the betting capital ------------------------------------------------------


def consistency_samples():
    """Samples of many kinds and sizes, with their bounds."""
    rng = np.random.default_rng(21)
    for n in (1, 2, 5, 12, 30, 80, 200):
        for _ in range(4):
            yield (rng.random(n) < rng.uniform(0.05, 0.95)).astype(float), 0.0, 1.0
            yield rng.choice(HALF, n, p=rng.dirichlet([1, 1, 1])), 0.0, 1.0
            yield rng.beta(0.3, 2.0, n), 0.0, 1.0
            d = rng.choice([-1.0, 0.0, 1.0], n, p=[0.1, 0.75, 0.15])
            yield d, -1.0, 1.0  # paired win/loss differences
            yield 3 + 10 * rng.random(n) ** 2, 3.0, 13.0
    yield np.zeros(40), 0.0, 1.0
    yield np.ones(40), 0.0, 1.0
    yield np.zeros(40), -1.0, 1.0


@pytest.mark.parametrize("sequential", [False, True])
def test_betting_p_value_agrees_with_the_interval(sequential):
    """p ≤ 0.05 exactly when the 95% interval leaves the null out — on a grid of nulls and
    just either side of each end. The one exception allowed is the documented widening of the
    interval to hold the mean, when the betting sets exclude the mean (p(mean) ≤ 0.05): an end
    of the interval is then the mean, and the nulls between it and the betting set are in the
    interval with p ≤ 0.05 (or all are, should the betting sets be empty)."""
    interval = confidence_sequence if sequential else betting_interval
    checked = widened = 0
    for x, lo, hi in consistency_samples():
        mean, low, high = interval(x, lo, hi)
        eps = 1e-7 * (hi - lo)
        grid = np.linspace(lo, hi, 41)
        p_grid = [betting_p_value(x, null, lo, hi, sequential=sequential) for null in grid]
        for null in [*grid, low - eps, low + eps, high - eps, high + eps]:
            if not lo <= null <= hi:
                continue
            p = betting_p_value(x, null, lo, hi, sequential=sequential)
            assert 0 <= p <= 1
            inside = low <= null <= high
            checked += 1
            if inside and p <= 0.05:
                assert betting_p_value(x, mean, lo, hi, sequential=sequential) <= 0.05
                assert mean in (low, high) or max(p_grid) <= 0.05
                widened += 1
            else:
                assert (p <= 0.05) == (not inside), (x, lo, hi, null, p, low, high)
    assert checked > 5000 and widened <= checked / 200


@pytest.mark.parametrize("sequential", [False, True])
def test_betting_p_value_matches_brute_force_capital(sequential):
    rng = np.random.default_rng(13)
    grid = np.linspace(0.0, 1.0, 201)[1:-1]
    c = 0.5 if sequential else 0.75
    for u in (rng.random(30), (rng.random(150) < 0.3).astype(float), rng.beta(0.2, 3, 100)):
        peak = peak_log_capital(u, 0.05, not sequential, c, grid)
        expected = np.minimum(1.0, 2 * np.exp(-np.maximum(peak, 0.0)))
        got = [betting_p_value(u, m, sequential=sequential) for m in grid]
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-300)


def null_draws():
    return {
        "binary p=0.5": lambda rng, n: (rng.random(n) < 0.5).astype(float),
        "halves sd 0.3": lambda rng, n: rng.choice(HALF, n, p=[0.18, 0.64, 0.18]),
        "halves skewed": lambda rng, n: rng.choice(HALF, n, p=[0.1, 0.3, 0.6]),
    }


NULL_MEANS = {"binary p=0.5": 0.5, "halves sd 0.3": 0.5, "halves skewed": 0.75}


@pytest.mark.parametrize("name", list(NULL_MEANS))
@pytest.mark.parametrize("n", [40, 400])
def test_betting_p_value_is_valid_under_the_null(name, n):
    """Sampled under the null: P(p ≤ q) ≤ q (within 3 standard errors) at q = 0.05 and 0.01, for
    the fixed-n and the sequential p-values."""
    rng = np.random.default_rng(n + len(name))
    reps, draw, null = 4000, null_draws()[name], NULL_MEANS[name]
    p = np.array(
        [
            [betting_p_value(x, null, sequential=seq) for seq in (False, True)]
            for x in (draw(rng, n) for _ in range(reps))
        ]
    )
    for q in (0.05, 0.01):
        rejected = (p <= q).mean(axis=0)
        assert np.all(rejected <= q + 3 * math.sqrt(q * (1 - q) / reps)), (q, rejected)


def test_betting_p_value_values_and_edges():
    assert betting_p_value(np.full(40, 0.5), 0.5) == 1.0  # centred on the null: no evidence
    assert betting_p_value(np.array([0.0, 1.0] * 20), 0.5) == 1.0
    assert betting_p_value(np.array([0.0, 1.0] * 200), 0.5, sequential=True) == 1.0
    assert betting_p_value([], 0.3) == 1.0 and betting_p_value([], 0.3, -1, 1) == 1.0
    x = (np.random.default_rng(3).random(400) < 0.5).astype(float)
    assert betting_p_value(x, 0.1) < 1e-10 and betting_p_value(x, 0.9, sequential=True) < 1e-10
    # at a bound: all values there leave it plausible; a null beyond is tested as the bound
    assert betting_p_value(np.zeros(30), 0.0) == 1.0 == betting_p_value(np.zeros(30), -2.0)
    assert betting_p_value(np.zeros(30), 1.0) < 1e-4
    assert betting_p_value(np.ones(30), 5.0, 0, 5) < 1e-4
    # equivariant under a change of scale, mirror-symmetric
    assert betting_p_value(3 + 10 * x, 4.0, 3, 13) == pytest.approx(betting_p_value(x, 0.1))
    assert betting_p_value(1 - x, 0.4) == pytest.approx(betting_p_value(x, 0.6), rel=1e-9)


@pytest.mark.parametrize("sequential", [False, True])
def test_betting_p_value_falls_away_from_the_data(sequential):
    """The capital on "above m" falls as m rises, on "below m" rises: p rises to a peak near the
    mean and falls on either side, to tiny values far off."""
    rng = np.random.default_rng(17)
    for x in (rng.choice(HALF, 200, p=[0.2, 0.5, 0.3]), (rng.random(60) < 0.3).astype(float)):
        p = np.array([betting_p_value(x, m, sequential=sequential) for m in np.linspace(0, 1, 201)])
        top = int(np.argmax(p))
        assert np.all(np.diff(p[: top + 1]) >= 0) and np.all(np.diff(p[top:]) <= 0)
        assert p[0] < 1e-4 and p[-1] < 1e-4 and p[top] == 1.0


def test_sequential_p_value_never_rises():
    """With the sequence's bets (not tuned to n), the p-value after each prefix never rises: the
    smallest p over all looks is the last, so stopping when p is small keeps it valid."""
    x = np.random.default_rng(9).choice(HALF, 300, p=[0.2, 0.45, 0.35])
    path = [betting_p_value(x[:t], 0.5, sequential=True) for t in range(1, 301)]
    assert np.all(np.diff(path) <= 0) and path[-1] < 0.05


# --- input checks ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: betting_interval([0.2, 1.5]), r"x has values outside \[0, 1\]: min 0.2, max 1.5"),
        (lambda: betting_interval([0.2, -0.1]), "outside"),
        (lambda: confidence_sequence([0.2, math.nan]), "x has NaN or infinite values"),
        (lambda: confidence_sequence_path([math.inf]), "NaN or infinite"),
        (lambda: betting_interval([0.5], 1, 0), "lo < hi"),
        (lambda: betting_interval([0.5], 0, math.inf), "finite"),
        (lambda: betting_interval([0.5], alpha=1.0), "alpha"),
        (lambda: betting_interval([[0.5]]), "one-dimensional"),
        (lambda: paired_interval([1, 0], [1]), "x and y must be paired: lengths 2 and 1"),
        (lambda: paired_interval([1, 2], [1, 0]), "outside"),
        (lambda: paired_interval([0.5, 0.2], [0.5, math.nan]), "y has NaN"),
        (lambda: paired_interval([5.0], [1.0], 0, 4), r"x has values outside \[0, 4\]"),
        (lambda: paired_interval([1.0], [1.0], alpha=0), "alpha must lie in"),
        (lambda: betting_p_value([0.2, 1.5], 0.5), r"x has values outside \[0, 1\]"),
        (lambda: betting_p_value([0.2, math.nan], 0.5), "NaN or infinite"),
        (lambda: betting_p_value([0.2], math.nan), "null must be finite, got nan"),
        (lambda: betting_p_value([0.2], 0.5, 1, 0), "lo < hi"),
        (lambda: betting_p_value([0.2], 0.5, alpha=1.5), "alpha must lie in"),
        (lambda: betting_p_value([[0.2]], 0.5), "one-dimensional"),
    ],
)
def test_bad_input_raises_one_line(call, message):
    with pytest.raises(ValueError, match=message) as error:
        call()
    assert "\n" not in str(error.value)


def test_paired_interval_is_betting_on_the_differences():
    rng = np.random.default_rng(4)
    binary = pairs_from_counts(6, 16, 161)
    halves = np.array([1.0, 0.5, 0.5, 0.0]), np.array([0.5, 0.5, 0.0, 0.0])
    random_halves = rng.choice(HALF, 60), rng.choice(HALF, 60)
    for x, y in (binary, halves, random_halves):
        for alpha in (0.05, 0.1):
            assert paired_interval(x, y, alpha=alpha) == (
                *betting_interval(x - y, -1, 1, alpha),
                BETTING,
            )
    margins = np.array([3.0, -2.0, 7.5]), np.array([1.0, 0.0, -4.0])
    diff, lo, hi, method = paired_interval(*margins, lo=-10, hi=10)
    assert method == BETTING and diff == pytest.approx(11.5 / 3) and -20 <= lo < hi <= 20
    assert paired_interval(*margins, lo=-10, hi=10)[:3] == betting_interval(
        margins[0] - margins[1], -20, 20
    )
    diff, lo, hi, method = paired_interval([], [])
    assert math.isnan(diff) and (lo, hi, method) == (-1.0, 1.0, BETTING)


def test_paired_interval_when_every_deal_agrees():
    # n = 40 win/loss deals, all agreeing: ±0.1165 (Tango's was ±0.0876, the old one ±0.30)
    x, y = pairs_from_counts(0, 0, 40)
    diff, lo, hi, method = paired_interval(x, y)
    assert method == BETTING and diff == 0 and lo == pytest.approx(-hi)
    assert hi == pytest.approx(0.1165, abs=1e-4)
    assert old_paired(x - y)[2] > 0.29


def test_paired_interval_one_disagreeing_deal():
    # one deal in 40 won by x alone: no evidence either way, and Δ = 0.1 is plausible
    # (P(b ≤ 1 | p10 = 0.1) = 0.08); the old interval's upper end excluded it
    x, y = pairs_from_counts(1, 0, 40)
    diff, lo, hi, _ = paired_interval(x, y)
    assert diff == 0.025 and lo < 0 and hi > 0.12
    assert old_paired(x - y)[2] < 0.08
