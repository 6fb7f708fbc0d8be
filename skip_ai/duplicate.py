"""Duplicate deals: compare two players on the same cards with the seats swapped.

A *seating* says which seats player A takes in one game of a deal. Team games: A takes one
team, then the other (2 games per deal). Games played each for themselves: A takes every other
seat, in every rotation (``n`` games per deal for ``n`` seats; 2 for 1 v 1). Every game of a
deal starts from the same seed, so the same cards are dealt whoever sits where.

A's score in one game is ``1/2 + (mean return of A's seats − mean return of B's seats) /
(2·(max − min utility))``: 1 for a win, 0 for a loss, ½ for a draw in team games, and the same
scale for the average margin in individual games.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from agents.heuristics import heuristic_weights
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.sim import simulate
from skip_ai.stats import score_interval


def seatings(game: KernelGame) -> list[np.ndarray]:
    """For each game of a deal, the boolean mask of the seats player A takes."""
    n = game.num_players()
    if game.spec.team_game:
        first = game.teams() == 0
        return [first, ~first]
    pattern = np.arange(n) % 2 == 0
    if n == 2:
        return [pattern, ~pattern]
    return [np.roll(pattern, k) for k in range(n)]


def score_a(returns: np.ndarray, a_seats: np.ndarray, game: KernelGame) -> np.ndarray:
    """A's score per game (rows of ``returns``) for the seating ``a_seats``."""
    span = game.max_utility() - game.min_utility()
    diff = returns[:, a_seats].mean(axis=1) - returns[:, ~a_seats].mean(axis=1)
    return 0.5 + diff / (2 * span)


def kernel_match(
    game: str | KernelGame,
    policy_a: str,
    policy_b: str,
    n_deals: int,
    seed: int = 0,
    progress: bool = False,
    weights_a: np.ndarray | None = None,
    weights_b: np.ndarray | None = None,
) -> pd.DataFrame:
    """A duplicate match between two kernel policies (``random``, ``heuristic``), played
    inside Numba: one row per game with ``deal``, ``seating``, the returns and ``score_a``.
    ``weights_a``/``weights_b``: each side's heuristic weights (default: the game's)."""
    g = load(game) if isinstance(game, str) else game
    frames = []
    for k, a_seats in enumerate(seatings(g)):
        policy = [policy_a if a else policy_b for a in a_seats]
        w = np.stack([heuristic_weights(g, weights_a if a else weights_b) for a in a_seats])
        df = simulate(g, n_deals, seed=seed, policy=policy, progress=progress, weights=w)
        rets = df[[f"return_{p}" for p in range(g.num_players())]].to_numpy()
        df = df.rename(columns={"index": "deal"})
        df.insert(2, "seating", k)
        df["score_a"] = score_a(rets, a_seats, g)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def match_summary(df: pd.DataFrame) -> tuple[float, float, float]:
    """A's mean score with a 95% interval, from per-deal means (the games of one deal are
    not independent, the deals are)."""
    per_deal = df.groupby("deal").score_a.mean().to_numpy()
    return score_interval(per_deal)
