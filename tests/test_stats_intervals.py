"""The intervals of :mod:`skip_ai.stats` used for balance studies: known values, edge cases, and
coverage with a known truth.

Coverage is the share of samples whose interval holds the true value. Every interval here is
a nominal 95% one and must reach 0.94 in every scenario. The old paired interval and
score_interval depend on the data only through counts, so their coverage is computed exactly,
summing multinomial probabilities (no Monte-Carlo error; the mass left out, < 1e-6, counts as a
miss). The betting intervals depend on the order of the values too (their bets are
predictable), so counts do not determine them and their coverage is simulated with fixed seeds:
the Monte-Carlo standard error of a coverage p over R samples is √(p(1−p)/R) — 0.0069 at
p = 0.95 and R = 1000, 0.0044 at p = 0.98, 0.0097 at p = 0.95 and R = 500. They cover at least
95% by construction; they measure 0.96–1.00 here, at least 3 standard errors above 0.94.

Tango's (1998) score interval for paired win/loss data was dropped: computed exactly over a
grid of true proportions its coverage falls to 0.928 (n = 40, p10 = 0.2, p01 = 0).
"""

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


# --- coverage: paired win/loss ---------------------------------------------------------------


def simulated(draw, truth: float, n: int, reps: int, seed: int, methods: dict) -> dict:
    """Coverage of each ``method(x, y) -> (est, lo, hi, ...)`` over the same samples."""
    rng = np.random.default_rng(seed)
    hits = dict.fromkeys(methods, 0)
    for _ in range(reps):
        x, y = draw(rng, n)
        for key, method in methods.items():
            lo, hi = method(x, y)[1:3]
            hits[key] += lo <= truth <= hi
    return {key: h / reps for key, h in hits.items()}


BETTING_ON_DIFFERENCES = {
    "betting": lambda x, y: betting_interval(x - y, -1, 1),
    "sequence": lambda x, y: confidence_sequence(x - y, -1, 1),
}


@pytest.mark.parametrize("name, n", BINARY_CASES)
def test_paired_interval_coverage_binary(name, n):
    """paired_interval (the betting interval of the differences) and the confidence sequence on
    paired win/loss data, including Tango's hard cases. Every deal agreeing, the sample is
    certain (all differences 0) and covered; the others are simulated."""
    p10, p01 = BINARY[name](n)
    methods = {"paired": paired_interval, **BETTING_ON_DIFFERENCES}
    if name == "all deals agree":
        x, y = pairs_from_counts(0, 0, n)
        assert all(method(x, y)[1] <= 0 <= method(x, y)[2] for method in methods.values())
        return
    coverage = simulated(*binary_pairs(p10, p01), n, 1000 if n < 400 else 500, n, methods)
    assert min(coverage.values()) >= 0.94, coverage


def test_old_paired_interval_undercovers():
    """Why the effective-n interval was replaced: with rare one-sided discordance its exact
    coverage is 0.85 (n = 100, p10 = 0.03, p01 = 0), and it is too wide when every deal agrees
    (±0.30 at n = 40, against the betting interval's ±0.117)."""
    assert old_exact(100, 0.03, 0.0) < 0.87
    worst = min(old_exact(n, *BINARY[name](n)) for name, n in BINARY_CASES if n <= 100)
    assert worst < 0.94


# --- coverage: scores and margins ------------------------------------------------------------

SCORES = {
    "halves, rare disagreement": halves_rare,
    "halves, typical": halves_typical,
    "quarters": quarters,
    "skewed margins": skewed_margins,
}


@pytest.mark.parametrize("name, n", [(name, n) for name in SCORES for n in (20, 40, 400)])
def test_coverage_scores(name, n):
    methods = {
        "paired": paired_interval,
        "sequence": BETTING_ON_DIFFERENCES["sequence"],
    }
    coverage = simulated(*SCORES[name](), n, 1000 if n < 400 else 500, n + 1, methods)
    assert min(coverage.values()) >= 0.94, coverage


def duplicate_scores(p0: float, p1: float):
    """One side's per-deal duplicate score: 1 (won both seatings) with p1, 0 with p0, else ½."""

    def draw(rng: np.random.Generator, n: int):
        return rng.choice(HALF, n, p=[p0, 1 - p0 - p1, p1])

    return draw, p1 + (1 - p0 - p1) / 2


def score_exact(n: int, p0: float, p1: float, interval) -> float:
    """Exact coverage for a per-deal score in {0, ½, 1} of an interval depending only on the
    counts."""
    truth, total, covered = p1 + (1 - p0 - p1) / 2, 0.0, 0.0
    for k0 in range(n + 1):
        for k1 in range(n + 1 - k0):
            kh = n - k0 - k1
            log_p = math.lgamma(n + 1) - math.lgamma(k0 + 1) - math.lgamma(k1 + 1)
            log_p -= math.lgamma(kh + 1)
            for k, p in ((k0, p0), (k1, p1), (kh, 1 - p0 - p1)):
                if k:
                    log_p += k * math.log(p) if p > 0 else -math.inf
            if log_p < math.log(1e-13):
                continue
            total += math.exp(log_p)
            lo, hi = interval(np.repeat(HALF, [k0, kh, k1]))[1:3]
            covered += math.exp(log_p) * (lo <= truth <= hi)
    assert total > 1 - 1e-6
    return covered


@pytest.mark.parametrize("n, p0, p1", [(20, 0.0, 0.15), (40, 0.0, 0.08), (40, 0.02, 0.05)])
def test_single_scores_rare_disagreement(n, p0, p1):
    """Per-deal duplicate scores in {0, ½, 1}, most deals split: score_interval (Wilson's over
    an effective n) covers 0.86, 0.87 and 0.92 here; the betting intervals are valid."""
    assert score_exact(n, p0, p1, score_interval) < 0.94  # documented, not wanted
    draw, truth = duplicate_scores(p0, p1)
    single = {
        "betting": lambda x, _: betting_interval(x),
        "sequence": lambda x, _: confidence_sequence(x),
    }
    coverage = simulated(lambda rng, n: (draw(rng, n), None), truth, n, 1000, n, single)
    assert min(coverage.values()) >= 0.94, coverage


@pytest.mark.parametrize("n", [20, 40, 400])
def test_single_skewed_continuous(n):
    """A skewed bounded mean (Beta(0.2, 3), mean 1/16): most values near 0, a few large."""
    single = {
        "betting": lambda x, _: betting_interval(x),
        "sequence": lambda x, _: confidence_sequence(x),
    }
    draw = lambda rng, n: (rng.beta(0.2, 3, n), None)  # noqa: E731
    coverage = simulated(draw, 0.2 / 3.2, n, 1000 if n < 400 else 500, n, single)
    assert min(coverage.values()) >= 0.94, coverage


# --- coverage: looking after every deal ------------------------------------------------------

CAP, FIRST_LOOK, TARGET = 2000, 20, 0.03


def stop_at(lo: np.ndarray, hi: np.ndarray) -> int:
    """The first look (from deal 20) with half-width ≤ 0.03 or 0.5 outside; else the cap."""
    stop = ((hi - lo) / 2 <= TARGET) | (lo > 0.5) | (hi < 0.5)
    stop[: FIRST_LOOK - 1] = False
    hits = np.flatnonzero(stop)
    return int(hits[0]) if len(hits) else CAP - 1


@pytest.mark.parametrize(
    "draw, truth, reps",
    [
        (lambda rng, n: (rng.random(n) < 0.5).astype(float), 0.5, 1000),
        (lambda rng, n: (rng.random(n) < 0.55).astype(float), 0.55, 500),
        (lambda rng, n: rng.choice(HALF, n, p=[0.18, 0.64, 0.18]), 0.5, 500),  # sd 0.3
        (lambda rng, n: rng.choice(HALF, n, p=[0.15, 0.64, 0.21]), 0.53, 500),
    ],
    ids=["binary 0.5", "binary 0.55", "halves sd 0.3", "halves 0.53"],
)
def test_confidence_sequence_covers_at_a_stopping_time(draw, truth, reps):
    """A study looks after every deal from the 20th and stops when the interval is ±0.03 or
    leaves out ½ (at the latest after 2000): the interval it stops on covers the truth."""
    rng = np.random.default_rng(int(truth * 100) + reps)
    hits = 0
    for _ in range(reps):
        _, lo, hi = confidence_sequence_path(draw(rng, CAP))
        k = stop_at(lo, hi)
        hits += lo[k] <= truth <= hi[k]
    assert hits / reps >= 0.94


def test_score_interval_fails_under_peeking():
    """The same stopping rule on score_interval, a fixed-n interval, with a fair coin: it
    claims an advantage about half the time (coverage 0.49 and 0.60 over 300 runs, two seeds)."""
    rng = np.random.default_rng(1)
    reps, hits = 100, 0
    for _ in range(reps):
        x = (rng.random(CAP) < 0.5).astype(float)
        for t in range(FIRST_LOOK, CAP + 1):
            _, lo, hi = score_interval(x[:t])
            if (hi - lo) / 2 <= TARGET or lo > 0.5 or hi < 0.5:
                break
        hits += lo <= 0.5 <= hi
    assert hits / reps < 0.8
