"""Variants side by side: each against its game's default (the first variant of that game in
the study), and ranked within its game by the designer's objective.

Tests, at the top rung of the ladder, paired by deal (deal ``d`` has the same seed in every
variant, so variants that deal alike — same players and deck — play the same cards; for the
others the pairing is harmless, the pairs are then merely independent):

- **fairness**: the change in unfairness |headline − fair| (team 0's score against ½, seat 0's
  win rate against 1/seats), variant minus default: negative when the variant is fairer.
  Unfairness is a property of the mean, not of a single game (every won or lost game is ½
  from ½), so its interval and p-value come from a bootstrap over the deals
  (:func:`~skip_ai.balance.metrics.paired_unfairness`);
- **moves**: the number of decisions, variant minus default (normal approximation to the
  paired mean).

The p-values are corrected for the number of comparisons by Holm's step-down method.

The objective is a penalty, smaller is better (weights from ``[objective]``):
``fairness·|headline − fair| − skill_depth·depth + length·|moves − target|/target
− drama·drama``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from skip_ai.balance.config import Objective
from skip_ai.balance.metrics import (
    headline_outcomes,
    paired_difference,
    paired_unfairness,
    sides,
)


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN)."""
    p = np.asarray(p, dtype=float)
    out = np.full(len(p), np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    order = ok[np.argsort(p[ok])]
    running = 0.0
    for i, k in enumerate(order):
        running = max(running, min(1.0, (len(order) - i) * p[k]))
        out[k] = running
    return out


def _moves(selfplay: pd.DataFrame, game: str, rung: int) -> pd.Series:
    g = selfplay[(selfplay.game == game) & (selfplay.rung == rung)].set_index("deal")
    return g.num_moves.astype(float)


def defaults(games: list[str]) -> dict[str, str]:
    """Each variant's default: the first variant of its game (family) in ``games``."""
    first: dict[str, str] = {}
    for game in games:
        first.setdefault(sides(game).family, game)
    return {game: first[sides(game).family] for game in games}


def compare_to_default(selfplay: pd.DataFrame, games: list[str], rung: int) -> pd.DataFrame:
    """One row per (variant other than a default, measure): the paired difference to its
    default with its interval, p-value and the p-value adjusted by Holm over every row."""
    rows = []
    for game, default in defaults(games).items():
        if game == default:
            continue
        fairness = paired_unfairness(
            headline_outcomes(selfplay, game, rung),
            headline_outcomes(selfplay, default, rung),
            sides(game).fair,
            sides(default).fair,
        )
        moves = paired_difference(
            _moves(selfplay, game, rung), _moves(selfplay, default, rung), bounded=False
        )
        for measure, (diff, lo, hi, p, deals) in (("fairness", fairness), ("moves", moves)):
            rows.append(
                {
                    "game": game,
                    "default": default,
                    "measure": measure,
                    "difference": diff,
                    "lo": lo,
                    "hi": hi,
                    "deals": deals,
                    "p": p,
                }
            )
    table = pd.DataFrame(
        rows, columns=["game", "default", "measure", "difference", "lo", "hi", "deals", "p"]
    )
    table["p_holm"] = holm(table.p.to_numpy())
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


def rank_variants(summary: pd.DataFrame, objective: Objective) -> pd.DataFrame:
    """``summary`` (one row per variant: ``headline``, ``fair``, ``skill_depth``, ``moves``,
    ``drama``) with its game's name ``family``, the objective's ``penalty`` and ``rank``
    among the variants of its game (1 = best)."""
    score = penalty(
        objective,
        (summary.headline - summary.fair).abs(),
        summary.skill_depth,
        length_deviation(summary.moves, objective.length_target),
        summary.drama.fillna(0.0),
    )
    ranked = summary.assign(family=[sides(g).family for g in summary.game], penalty=score)
    ranked["rank"] = ranked.groupby("family").penalty.rank(method="min").astype(int)
    return ranked.sort_values(["family", "rank"])
