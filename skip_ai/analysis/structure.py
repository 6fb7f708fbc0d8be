"""Ludii's *BranchingFactor* and *DecisionMoves*, which need every position's legal moves
(records keep only the outcome and length), estimated by playing games through the pyspiel
API with uniformly random moves."""

from __future__ import annotations

import numpy as np
import pandas as pd

from skip_ai.stats import mean_interval


def structure(game: str, n_games: int = 20, seed: int = 0) -> dict[str, tuple[float, float,
                                                                              float]]:
    """``branching_factor`` (the mean number of legal moves at a player's decision) and
    ``decision_moves`` (the share of the decisions with more than one legal move), each as
    (mean, lo, hi) over ``n_games`` random-play games of ``game`` (intervals over games)."""
    import skip_ai  # noqa: F401  (registers the games)
    from skip_ai.pyspiel_wrapper import load

    g = load(game)
    rng = np.random.default_rng(seed)
    branching, decisions = [], []
    for _ in range(n_games):
        state = g.new_initial_state()
        counts = []
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            legal = state.legal_actions()
            counts.append(len(legal))
            state.apply_action(int(rng.choice(legal)))
        counts = np.array(counts)
        branching.append(counts.mean())
        decisions.append((counts > 1).mean())
    return {"branching_factor": mean_interval(np.array(branching)),
            "decision_moves": mean_interval(np.array(decisions))}


def structure_table(games: list[str], n_games: int = 20, seed: int = 0) -> pd.DataFrame:
    """:func:`structure` of every game string, in the long form of the balance table."""
    rows = [(game, metric, *values) for game in games
            for metric, values in structure(game, n_games, seed).items()]
    return pd.DataFrame(rows, columns=["game", "metric", "value", "lo", "hi"])
