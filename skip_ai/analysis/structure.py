"""Ludii's *BranchingFactor* and *DecisionMoves*, which need every position's legal moves
(records keep only the outcome and length), estimated by playing games through the pyspiel
API with uniformly random moves: game ``i`` is game ``i`` of ``simulate(game, n_games, seed)``
with the random policy (:func:`skip_ai.sim.play_game` replays it)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from agents.random_agent import RandomBot
from skip_ai.kernel.rng import base_seed, derive, make_rng
from skip_ai.play import play
from skip_ai.pyspiel_wrapper import load
from skip_ai.stats import mean_interval


def structure(game: str, n_games: int = 20, seed: int = 0) -> dict[str, tuple[float, float, float]]:
    """``branching_factor`` (the mean number of legal moves at a player's decision) and
    ``decision_moves`` (the share of the decisions with more than one legal move), each as
    (mean, lo, hi) over ``n_games`` random-play games of ``game`` (intervals over games)."""
    g = load(game)
    base = np.uint64(base_seed(seed))
    branching, decisions = [], []
    for i in range(n_games):
        rng = make_rng(derive(base, i))
        legal: list[int] = []  # the number of legal moves at each decision
        play(
            g.new_initial_state(),
            [RandomBot(rng=rng)] * g.num_players(),
            rng,
            on_turn=lambda state, player: legal.append(len(state.legal_actions())),
        )
        counts = np.array(legal)
        branching.append(counts.mean())
        decisions.append((counts > 1).mean())
    return {
        "branching_factor": mean_interval(np.array(branching)),
        "decision_moves": mean_interval(np.array(decisions)),
    }


def structure_table(games: list[str], n_games: int = 20, seed: int = 0) -> pd.DataFrame:
    """:func:`structure` of every game string, in the long form of the balance table."""
    rows = [
        (game, metric, *values)
        for game in games
        for metric, values in structure(game, n_games, seed).items()
    ]
    return pd.DataFrame(rows, columns=["game", "metric", "value", "lo", "hi"])
