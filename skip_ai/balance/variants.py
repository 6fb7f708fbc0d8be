"""Variants side by side: each against its game's default (the first variant of that game in
the study), and ranked within its game by the designer's objective.

Tests, at the highest rung both ladders share, paired by deal (deal ``d`` has the same seed in
every variant, so variants that deal alike — same players and deck — play the same cards; for
the others the pairing is harmless, the pairs are then merely independent):

- **headline**: the variant's headline minus the default's (team 0's score; seat 0's score in
  a game played each for themselves), by :func:`skip_ai.balance.metrics.paired_difference`.
  These are the study's *fairness comparisons*: their p-values are corrected by Holm's
  step-down method over all of them (and only them);
- **moves**: decisions per game, variant minus default (Student's t on the paired
  differences): descriptive, outside the family (variants differ in length by construction).

The objective is a penalty, smaller is better (weights from ``[objective]``):
``fairness·|headline − fair| − skill_depth·depth + length·|moves − target|/target
− drama·drama``. Every term's interval is carried through the penalty (which is monotone in
each), and variants are **ranked by their intervals**: a variant's rank is one more than the
number of variants of its game whose penalty interval lies wholly below (better than) its own,
so variants whose intervals overlap share a rank (a tie).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from skip_ai.balance.config import BalanceConfig, Objective
from skip_ai.balance.metrics import headline_series, holm, paired_difference, sides
from skip_ai.stats import mean_interval

TEST_COLUMNS = ["game", "default", "rung", "measure", "difference", "lo", "hi", "deals", "p"]


def defaults(games: list[str]) -> dict[str, str]:
    """Each variant's default: the first variant of its game (family) in ``games``."""
    first: dict[str, str] = {}
    for game in games:
        first.setdefault(sides(game).family, game)
    return {game: first[sides(game).family] for game in games}


def shared_rung(config: BalanceConfig, game: str, default: str) -> tuple[int, int, str] | None:
    """The highest rung of ``game``'s ladder that the default's ladder also holds (by name):
    (its index in each ladder, its name)."""
    v, d = config.games.index(game), config.games.index(default)
    mine, theirs = config.names(v), config.names(d)
    for r in range(len(mine) - 1, -1, -1):
        if mine[r] in theirs:
            return r, theirs.index(mine[r]), mine[r]
    return None


def _moves(selfplay: pd.DataFrame, game: str, rung: int) -> pd.Series:
    g = selfplay[(selfplay.game == game) & (selfplay.rung == rung)]
    return g.groupby("deal").num_moves.mean().astype(float)


def compare_to_default(selfplay: pd.DataFrame, config: BalanceConfig) -> pd.DataFrame:
    """One row per (variant other than a default, measure): the paired difference to its
    default with its interval and p-value; ``p_holm`` over the headline rows only."""
    rows = []
    for game, default in defaults(list(config.games)).items():
        shared = None if game == default else shared_rung(config, game, default)
        if shared is None:
            continue
        r, rd, name = shared
        d, lo, hi, p, n, _ = paired_difference(
            headline_series(selfplay, game, r), headline_series(selfplay, default, rd)
        )
        rows.append([game, default, name, "headline", d, lo, hi, n, p])
        x, y = _moves(selfplay, game, r), _moves(selfplay, default, rd)
        common = x.index.intersection(y.index)
        diff = (x[common] - y[common]).to_numpy()
        m, mlo, mhi = mean_interval(diff) if len(diff) > 1 else (math.nan,) * 3
        rows.append([game, default, name, "moves", m, mlo, mhi, len(diff), math.nan])
    table = pd.DataFrame(rows, columns=TEST_COLUMNS)
    headline = (table.measure == "headline").to_numpy()
    table["p_holm"] = np.nan
    table.loc[headline, "p_holm"] = holm(table.p[headline].to_numpy())
    return table


def length_deviation(moves, target: float):
    """|moves − target| / target, or 0 without a target (``moves`` a number or a Series)."""
    return abs(moves - target) / target if target > 0 else 0 * moves


def penalty(objective: Objective, unfairness, depth, deviation, drama):
    """The objective's penalty from its terms (numbers or Series): ``unfairness``
    |headline − fair|, ``depth`` the skill depth, ``deviation`` the length's
    (:func:`length_deviation`), ``drama`` (0 where unknown). It grows with unfairness and
    deviation and falls with depth and drama, so an interval's ends give the penalty's."""
    return (
        objective.fairness * unfairness
        - objective.skill_depth * depth
        + objective.length * deviation
        - objective.drama * drama
    )


def distance(value: float, lo: float, hi: float, centre: float) -> tuple[float, float, float]:
    """|x − centre| for x = value, and its smallest and largest over [lo, hi]."""
    nearest = 0.0 if lo <= centre <= hi else min(abs(lo - centre), abs(hi - centre))
    return abs(value - centre), nearest, max(abs(lo - centre), abs(hi - centre))


def penalty_interval(
    objective: Objective,
    fair: float,
    headline: tuple[float, float, float],
    moves: tuple[float, float, float],
    drama: tuple[float, float, float],
    depth: int,
) -> tuple[float, float, float]:
    """The penalty and its interval from each term's (value, lo, hi) (the skill depth counts
    as a point)."""
    unfair = distance(*headline, fair)
    target = objective.length_target
    deviation = [d / target for d in distance(*moves, target)] if target > 0 else [0.0, 0.0, 0.0]
    return (
        penalty(objective, unfair[0], depth, deviation[0], drama[0]),
        penalty(objective, unfair[1], depth, deviation[1], drama[2]),
        penalty(objective, unfair[2], depth, deviation[2], drama[1]),
    )


def rank_variants(summary: pd.DataFrame) -> pd.DataFrame:
    """``summary`` (one row per variant with ``penalty``, ``penalty_lo``, ``penalty_hi``) with
    its game's name ``family`` and its ``rank`` among the variants of its game by intervals
    (1 + the number whose interval lies wholly below its own)."""
    ranked = summary.assign(family=[sides(g).family for g in summary.game])
    ranks = []
    for row in ranked.itertuples():
        same = ranked[ranked.family == row.family]
        ranks.append(1 + int((same.penalty_hi < row.penalty_lo).sum()))
    ranked["rank"] = ranks
    return ranked.sort_values(["family", "rank", "penalty"], kind="stable")
