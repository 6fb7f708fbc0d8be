"""Balance metrics per game and variant (each distinct game string), each with a 95% interval
that names its method.

Ludii's outcome and duration metrics (Stephenson et al., the Ludii evaluation metrics) where
they apply to SKIP's games, plus ours. The sides and the rates a balance study also reports
come from the study (:mod:`skip_ai.balance.metrics`), so ``skip-ai report`` and
``skip-ai balance`` give the same records the same numbers and intervals. A *side* is a team
in team games (team 0 holds the first half of the seats, Red in the games with colours) and a
seat in games played each for themselves; its *utility* in a game is its return scaled to
[-1, 1] by the game's utility range (the mean over the team's seats in team games).

**Units.** A *deal unit* is one deal of one pair of agents on one variant with all its games:
the seatings of a duplicate deal, or in a study's self-play a deal and its mirror — the
study's unit. Only complete units count (as many games as the variant's fullest unit), as in
the study: a failed game would otherwise tilt its deal. Every metric below is computed over
the complete units, every pairing and seating pooled.

Side metrics describe the game only between equal players: :func:`skip_ai.analysis.report`
computes them on self-play games (the same agent on every seat) and never pools pairings of
unequal agents into them; ``skip-ai balance`` measures them along a skill ladder. Metrics:

- ``team0_win_rate`` (Ludii *AdvantageP1*; team games): the share of games won by team 0 (the
  first half of the seats, moving first; Red in the games with colours); draws are not wins.
- ``seat0_win_rate`` (games played each for themselves): the share of games won by seat 0.
- ``draw_rate`` (Ludii *Drawishness*; the study's ``undecided_rate`` in games played each for
  themselves): the share of games without a winner (a draw, or several seats sharing the best
  return). SKIP's games cannot time out.
- ``outcome_uniformity`` (Ludii *OutcomeUniformity*): 1 − the mean over sides of the variance
  of the side's utility; 1 when every game ends the same for each side, 0 for coin flips
  between a full win and a full loss.
- ``duration_actions`` / ``duration_moves`` (Ludii *DurationActions* / *DurationMoves*): the mean
  number of actions of a game, chance nodes (the deal) included / the mean number of the
  players' decisions.
- ``seat_advantage`` (games played each for themselves): (the best seat's mean utility − the
  worst seat's) / 2, in [0, 1].
- ``skill_gap`` (cross-play): the largest, over the pairs of agents that met, of |2·s − 1|,
  where s is A's duplicate score (A's score averaged over the games of a deal unit, then over
  the units): 0 when no agent beats another on the same cards, 1 when one wins every deal. A
  game where strength shows has a large skill gap; one decided by the cards, a small one.

Ludii's *BranchingFactor* and *DecisionMoves* need the legal moves of every position, which
records do not keep: :func:`skip_ai.analysis.structure.structure` estimates them by play.

Intervals (95%; the table's ``method`` column names each):

- the three rates: the study's (:func:`skip_ai.balance.metrics.outcome_rates`), the betting
  interval (Waudby-Smith & Ramdas, :func:`skip_ai.stats.betting_interval`) of the per-unit
  shares; seat 0's is simultaneous over the seats (each at 1 − 0.05/seats), as the study's.
- ``seat_advantage`` and ``skill_gap``: from the betting intervals of the means they are made
  of, simultaneous by Bonferroni (every seat's mean utility per unit at 1 − 0.05/seats; every
  pair's duplicate score per unit at 1 − 0.05/pairs), carried through the range of the seats'
  means, or through |2·s − 1| and the maximum over pairs. Not a bootstrap: resampled absolute
  values stay above 0 whenever the estimate does, so the percentile interval misses a fair
  game's 0 (of 40 fair deals it held 0 in only 55–84% of simulated samples, as the deal scores
  spread).
- ``outcome_uniformity``: a variance, not a mean over units, so no betting interval applies:
  a percentile bootstrap over deal units, resampled within each pair
  (:mod:`skip_ai.analysis.bootstrap`) — an approximation.
- the durations (unbounded means over units): :func:`skip_ai.stats.mean_interval`, named
  Student's t as the study names it for its ``moves``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from skip_ai.analysis.bootstrap import percentile, resample, unit_codes
from skip_ai.analysis.frame import game_info
from skip_ai.balance.metrics import ALPHA, STUDENT, Sides, outcome_rates, sides, unit_means
from skip_ai.balance.variants import distance
from skip_ai.stats import BETTING, betting_interval, mean_interval

SIDE_METRICS = [
    "team0_win_rate",
    "seat0_win_rate",
    "draw_rate",
    "outcome_uniformity",
    "seat_advantage",
]
"""The metrics of the game between equal players (self-play only)."""
CROSS_METRICS = ["skill_gap", "duration_moves"]
"""The metrics of cross-play (unequal agents): how far strength shows, how long games last."""
METRICS = [*SIDE_METRICS, "duration_actions", "duration_moves", "skill_gap"]

COLUMNS = ["game", "game_name", "metric", "value", "lo", "hi", "method"]
BOOTSTRAP = "percentile bootstrap over deal units"
OVER_SEATS = f"{BETTING}, simultaneous over the seats (Bonferroni)"
OVER_PAIRS = f"{BETTING}, simultaneous over the pairs (Bonferroni)"
STUDY_RATES = {
    "team0_win_rate": "team0_win_rate",
    "seat0_win_rate": "seat0_win_rate",
    "draw_rate": "draw_rate",
    "undecided_rate": "draw_rate",
}
"""The study's rates (:func:`~skip_ai.balance.metrics.outcome_rates`) shown here, by the
study's name: our name."""

Row = tuple[float, float, float, str]  # value, lo, hi and the interval's method
MISSING: Row = (math.nan, math.nan, math.nan, "")  # a metric that does not apply


def balance_table(df: pd.DataFrame, n_boot: int = 200, seed: int = 0) -> pd.DataFrame:
    """One row per variant and metric: ``game``, ``game_name``, ``metric``, ``value``, the 95%
    interval ``lo``–``hi`` and its ``method`` (NaN and no method where the metric does not
    apply to the game's kind). ``n_boot`` bootstrap samples for outcome uniformity (none:
    no interval)."""
    rng = np.random.default_rng(seed)
    frames = [_variant_table(sub, n_boot, rng) for _, sub in df.groupby("game", sort=True)]
    return pd.concat(frames, ignore_index=True)


def _variant_table(sub: pd.DataFrame, n_boot: int, rng: np.random.Generator) -> pd.DataFrame:
    """The rows of :func:`balance_table` for one variant's games ``sub``."""
    game = sub.game.iloc[0]
    s = sides(game)
    g, pairs = _deal_units(sub)
    per_deal = len(g) // len(pairs)
    utility = _utilities(g, game, s)
    rows = dict.fromkeys(METRICS, MISSING) | _rates(g, s, per_deal)
    rows["outcome_uniformity"] = _uniformity_row(utility, g.deal.to_numpy(), pairs, n_boot, rng)
    if not s.team_game:
        rows["seat_advantage"] = _seat_advantage(unit_means(g, utility, per_deal))
    for metric, column in [("duration_actions", "num_actions"), ("duration_moves", "num_moves")]:
        length = unit_means(g, g[column].to_numpy(float), per_deal)[:, 0]
        rows[metric] = (*mean_interval(length), STUDENT)
    rows["skill_gap"] = _skill_gap(unit_means(g, g.score_a.to_numpy(), per_deal)[:, 0], pairs)
    name = sub.game_name.iloc[0]
    return pd.DataFrame([(game, name, m, *rows[m]) for m in METRICS], columns=COLUMNS)


def _deal_units(sub: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray]:
    """The games of one variant ``sub`` in complete deal units only, with ``deal`` set to
    their unit's number — what :func:`~skip_ai.balance.metrics.unit_means` groups by — in the
    order of :func:`~skip_ai.analysis.bootstrap.unit_codes` (a pair's deals in order, as the
    study reads them: betting intervals depend on the order), and each unit's pair."""
    units, strata = unit_codes(sub)
    size = np.bincount(units)
    complete = size == size.max()
    number = np.cumsum(complete) - 1  # a complete unit's number among the complete ones
    keep = complete[units]
    return sub[keep].assign(deal=number[units[keep]]).reset_index(drop=True), strata[complete]


def _rates(g: pd.DataFrame, s: Sides, per_deal: int) -> dict[str, Row]:
    """Team 0's or seat 0's win rate and the draw rate, as the study computes them."""
    found: dict[str, Row] = {}
    for measure, value, lo, hi, _ in outcome_rates(g, s, per_deal):
        if measure in STUDY_RATES:
            method = OVER_SEATS if measure == "seat0_win_rate" else BETTING
            found[STUDY_RATES[measure]] = (value, lo, hi, method)
    return found


def _utilities(g: pd.DataFrame, game: str, s: Sides) -> np.ndarray:
    """Games × sides: each side's return scaled to [-1, 1] by the game's utility range (a
    team's: the mean over its seats)."""
    umin, umax = game_info(game)[2:]
    scaled = 2 * (np.stack(g.returns.to_numpy()) - umin) / (umax - umin) - 1
    scaled = np.clip(scaled, -1.0, 1.0)  # rounding must not leave the betting interval's range
    if not s.team_game:
        return scaled
    return np.stack([scaled[:, s.teams == team].mean(1) for team in (0, 1)], 1)


def _uniformity(utility: np.ndarray, w: np.ndarray) -> float:
    """1 − the mean over sides of the variance of the side's utility (games × sides), each game
    weighted by ``w``."""
    mean = w @ utility / w.sum()
    return 1 - float((w @ (utility - mean) ** 2).mean() / w.sum())


def _uniformity_row(
    utility: np.ndarray,
    units: np.ndarray,
    pairs: np.ndarray,
    n_boot: int,
    rng: np.random.Generator,
) -> Row:
    """Outcome uniformity with its percentile bootstrap interval: each sample draws the deal
    units of every pair with replacement (``units``: each game's unit; ``pairs``: each unit's
    pair) and weighs every game by its unit's draws."""
    value = _uniformity(utility, np.ones(len(utility)))
    if not n_boot:
        return value, math.nan, math.nan, ""
    boots = [_uniformity(utility, resample(pairs, rng)[units].astype(float)) for _ in range(n_boot)]
    lo, hi = percentile(np.array(boots))
    return value, float(lo), float(hi), BOOTSTRAP


def _seat_advantage(means: np.ndarray) -> Row:
    """(The best seat's mean utility − the worst's) / 2, from units × seats mean utilities.
    Every seat's betting interval at 1 − 0.05/seats holds all the seats' means at once with
    95% (Bonferroni); the advantage then lies between the smallest and the largest range of
    means inside them."""
    seats = means.shape[1]
    m, lo, hi = np.array([betting_interval(x, -1.0, 1.0, ALPHA / seats) for x in means.T]).T
    low = max(lo.max() - hi.min(), 0.0)
    return (m.max() - m.min()) / 2, low / 2, (hi.max() - lo.min()) / 2, OVER_SEATS


def _skill_gap(scores: np.ndarray, pairs: np.ndarray) -> Row:
    """The largest |2·s − 1| over the pairs, s a pair's mean of A's duplicate ``scores`` per
    unit (``pairs``: each unit's pair). Every pair's betting interval of s at 1 − 0.05/pairs
    holds all of them at once with 95% (Bonferroni); mapped through |2·s − 1|, the largest
    gap lies between the largest lower end and the largest upper end."""
    pair_ids = np.unique(pairs)
    alpha = ALPHA / len(pair_ids)
    # |2·s − 1| is twice s's distance from ½, and so is its interval's image
    gaps = 2 * np.array(
        [distance(*betting_interval(scores[pairs == p], alpha=alpha), 0.5) for p in pair_ids]
    )
    value, lo, hi = gaps.max(0)
    return value, lo, hi, OVER_PAIRS


def balance_wide(table: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """The balance table as one row per variant and one column per metric, each cell
    ``value [lo, hi]`` (metrics that apply to none of the variants left out)."""
    fmt = f"{{:.{digits}f}}"
    cells = table.dropna(subset=["value"]).assign(
        cell=lambda t: [
            f"{fmt.format(v)} [{fmt.format(lo)}, {fmt.format(hi)}]"
            for v, lo, hi in zip(t.value, t.lo, t.hi)
        ]
    )
    wide = cells.pivot(index="game", columns="metric", values="cell")
    return wide[[m for m in METRICS if m in wide.columns]].fillna("—")


def methods(table: pd.DataFrame) -> str:
    """Which interval each metric of ``table`` has, as a sentence: "`a`, `b`: method; …"."""
    named = table[table.method != ""].drop_duplicates(["metric", "method"])
    by_method = named.groupby("method", sort=False).metric.agg(
        lambda m: ", ".join(f"`{x}`" for x in m)
    )
    return "; ".join(f"{metrics}: {method}" for method, metrics in by_method.items())
