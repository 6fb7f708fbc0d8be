"""Balance metrics per game and variant (each distinct game string), with bootstrap intervals.

Ludii's outcome and duration metrics (Stephenson et al., the Ludii evaluation metrics) where
they apply to SKIP's games, plus ours. A *side* is a team in team games (team 0 holds the
first half of the seats, Red in the games with colours) and a seat in games played each for
themselves; its *utility* in a game is its return scaled to [-1, 1] by the game's utility
range (the mean over the team's seats in team games).

Side metrics describe the game only between equal players: :func:`skip_ai.analysis.report`
computes them on self-play games (the same agent on every seat) and never pools pairings of
unequal agents into them; ``skip-ai balance`` measures them along a skill ladder. Metrics (each
over the finished games given, every pairing and seating pooled):

- ``team0_win_rate`` (Ludii *AdvantageP1*; team games): the share of games won by team 0 (the
  first half of the seats, moving first; Red in the games with colours); draws are not wins.
- ``seat0_win_rate`` (games played each for themselves): the share of games won by seat 0.
- ``draw_rate`` (Ludii *Drawishness*): the share of games without a winner (a draw, or
  several seats sharing the best return). SKIP's games cannot time out.
- ``outcome_uniformity`` (Ludii *OutcomeUniformity*): 1 − the mean over sides of the variance
  of the side's utility; 1 when every game ends the same for each side, 0 for coin flips
  between a full win and a full loss.
- ``duration_actions`` / ``duration_moves`` (Ludii *DurationActions* / *DurationMoves*): the mean
  number of actions of a game, chance nodes (the deal) included / the mean number of the
  players' decisions.
- ``seat_advantage`` (games played each for themselves): (the best seat's mean utility − the
  worst seat's) / 2, in [0, 1].
- ``skill_gap`` (cross-play): the largest, over the pairs of agents that met, of 2·s − 1,
  where s is the stronger agent's duplicate score (A's score averaged over the seatings of a
  deal, then over the deals): 0 when no agent beats another on the same cards, 1 when one
  wins every deal. A game where strength shows has a large skill gap; one decided by the
  cards, a small one.

Ludii's *BranchingFactor* and *DecisionMoves* need the legal moves of every position, which
records do not keep: :func:`skip_ai.analysis.structure.structure` estimates them by play.

Intervals: 95% percentile bootstrap over deal units, resampled within each pair
(:mod:`skip_ai.analysis.bootstrap`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from skip_ai.analysis.bootstrap import percentile, resample, unit_codes
from skip_ai.analysis.frame import deal_scores, game_info

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


def balance_table(df: pd.DataFrame, n_boot: int = 200, seed: int = 0) -> pd.DataFrame:
    """One row per variant and metric: ``game``, ``game_name``, ``metric``, ``value`` and the
    95% interval ``lo``–``hi`` (NaN where the metric does not apply to the game's kind)."""
    rng = np.random.default_rng(seed)
    frames = []
    for game, sub in df.groupby("game", sort=True):
        sub = sub.reset_index(drop=True)
        sides = Sides.of(sub)
        units, strata = unit_codes(sub)
        deals = deal_scores(sub).score.to_numpy()
        point = sides.metrics(np.ones(len(sub)), deals, strata, np.ones(len(deals)))
        boots = []
        for _ in range(n_boot):
            counts = resample(strata, rng).astype(float)
            boots.append(sides.metrics(counts[units], deals, strata, counts))
        lo, hi = percentile(np.array(boots)) if n_boot else (np.full(len(point), np.nan),) * 2
        frames.append(
            pd.DataFrame(
                {
                    "game": game,
                    "game_name": sub.game_name.iloc[0],
                    "metric": METRICS,
                    "value": point,
                    "lo": lo,
                    "hi": hi,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


class Sides:
    """One variant's games as arrays over its sides (teams or seats)."""

    def __init__(
        self,
        team_game: bool,
        utility: np.ndarray,
        winner: np.ndarray,
        actions: np.ndarray,
        moves: np.ndarray,
    ):
        self.team_game = team_game
        self.utility = utility  # games × sides, in [-1, 1]
        self.winner = winner
        self.actions = actions
        self.moves = moves

    @classmethod
    def of(cls, df: pd.DataFrame) -> Sides:
        """The sides of the games of one variant (``df`` holds a single game string)."""
        team_game, teams, umin, umax = game_info(df.game.iloc[0])
        returns = np.stack(df.returns.to_numpy())
        scaled = 2 * (returns - umin) / (umax - umin) - 1
        if team_game:
            scaled = np.stack([scaled[:, teams == 0].mean(1), scaled[:, teams == 1].mean(1)], 1)
        return cls(
            team_game,
            scaled,
            df.winner.to_numpy(),
            df.num_actions.to_numpy(float),
            df.num_moves.to_numpy(float),
        )

    def metrics(
        self, w: np.ndarray, deals: np.ndarray, strata: np.ndarray, deal_w: np.ndarray
    ) -> np.ndarray:
        """Every metric of :data:`METRICS` with game weights ``w`` and deal-unit weights
        ``deal_w`` (all ones for the estimate, resampling counts for the bootstrap)."""
        total = w.sum()
        k = self.utility.shape[1]
        rates = np.array([w[self.winner == s].sum() for s in range(k)]) / total
        decided = w[self.winner >= 0].sum() / total
        mean_u = w @ self.utility / total
        var_u = w @ (self.utility - mean_u) ** 2 / total
        values = {
            "team0_win_rate": rates[0] if self.team_game else np.nan,
            "seat0_win_rate": np.nan if self.team_game else rates[0],
            "draw_rate": 1 - decided,
            "outcome_uniformity": 1 - var_u.mean(),
            "duration_actions": w @ self.actions / total,
            "duration_moves": w @ self.moves / total,
            "seat_advantage": np.nan if self.team_game else (mean_u.max() - mean_u.min()) / 2,
            "skill_gap": _skill_gap(deals, strata, deal_w),
        }
        return np.array([values[m] for m in METRICS])


def _skill_gap(deals: np.ndarray, strata: np.ndarray, w: np.ndarray) -> float:
    """The largest 2·s − 1 over pairs, s the stronger agent's mean deal score."""
    score = np.bincount(strata, w * deals) / np.bincount(strata, w)
    return float(np.abs(2 * score - 1).max())


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
