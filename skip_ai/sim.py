"""Batch simulation: whole games inside Numba, one row per game.

``simulate(game, n_games, seed, policy)`` deals and plays every game in the compiled kernel.
Game ``i`` of a batch uses the generator seeded with ``derive(base_seed(seed), i)`` (recorded
in the ``seed`` column) for its deal and its moves, so the output is identical for identical
arguments however the batch is chunked, and :func:`play_game` replays any one game through
the pyspiel API with the same result.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd
import pyspiel
from tqdm import tqdm

from agents.policies import POLICY_CODES
from skip_ai.kernel.rng import base_seed, below, derive_range, make_rng
from skip_ai.pyspiel_wrapper import KernelGame, load

CHUNK = 4096


def policy_codes(policy: str, players: int) -> np.ndarray:
    """Kernel policy code for every seat (one policy name for all seats for now)."""
    if policy not in POLICY_CODES:
        raise ValueError(f"unknown policy {policy!r}; kernel policies: {', '.join(POLICY_CODES)}")
    return np.full(players, POLICY_CODES[policy], dtype=np.int64)


def simulate(game: str | KernelGame, n_games: int, seed: int = 0, policy: str = "random",
             progress: bool = False) -> pd.DataFrame:
    """Play ``n_games`` games of ``game`` (a game string) with ``policy`` at every seat.

    Columns: ``game`` (the full game string), ``index``, ``seed`` (the game's own seed),
    ``return_<seat>``, ``score_<team>``, ``winner`` (team, or -1 for a draw), ``num_actions``
    (every node, chance included) and ``num_moves`` (the players' decisions).
    """
    g = load(game) if isinstance(game, str) else game
    if n_games < 0:
        raise ValueError(f"n_games must be ≥ 0 (got {n_games})")
    n = g.num_players()
    seats = policy_codes(policy, n)
    params = g.spec.encode(g.resolved)
    base = base_seed(seed)
    rets = np.zeros((n_games, n))
    scores = np.zeros((n_games, 2))
    lengths = np.zeros((n_games, 2), np.int64)
    bar = tqdm(total=n_games, unit="game", disable=not progress, desc=g.spec.short_name)
    for first in range(0, n_games, CHUNK):
        count = min(CHUNK, n_games - first)
        sl = slice(first, first + count)
        g.ops.simulate(params, np.uint64(base), first, count, seats, rets[sl], scores[sl],
                       lengths[sl])
        bar.update(count)
    bar.close()
    seeds = derive_range(np.uint64(base), n_games)
    frame = {"game": str(g), "index": np.arange(n_games), "seed": seeds}
    frame.update({f"return_{p}": rets[:, p] for p in range(n)})
    frame.update({"score_0": scores[:, 0], "score_1": scores[:, 1]})
    team0 = rets[:, 0]
    frame["winner"] = np.where(team0 > 0, 0, np.where(team0 < 0, 1, -1))
    frame["num_actions"] = lengths[:, 0]
    frame["num_moves"] = lengths[:, 1]
    return pd.DataFrame(frame)


def play_game(game: KernelGame, game_seed: int,
              make_bot: Callable[[np.ndarray], pyspiel.Bot] | None = None) -> pyspiel.State:
    """Play one game through the pyspiel API from a game's seed, drawing chance outcomes
    and (through bots sharing the generator) moves exactly as :func:`simulate` does."""
    from agents.random_agent import RandomBot

    rng = make_rng(game_seed)
    bot = (make_bot or (lambda r: RandomBot(rng=r)))(rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[below(rng, len(outcomes))][0])
        else:
            state.apply_action(bot.step(state))
    return state


def summary(df: pd.DataFrame) -> dict:
    """Per-team win rates with Wilson 95% intervals, draw rate and mean length."""
    from skip_ai.stats import mean_interval, wilson

    n = len(df)
    out: dict = {"games": n}
    for key, mask in (("team0", df.winner == 0), ("team1", df.winner == 1),
                      ("draw", df.winner == -1)):
        k = int(mask.sum())
        lo, hi = wilson(k, n)
        out[key] = (k / n if n else float("nan"), lo, hi)
    out["length"] = mean_interval(df.num_actions.to_numpy())
    out["moves"] = mean_interval(df.num_moves.to_numpy())
    return out
