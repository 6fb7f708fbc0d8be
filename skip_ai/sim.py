"""Batch simulation: whole games inside Numba, one row per game.

``simulate(game, n_games, seed, policy)`` deals and plays every game in the compiled kernel
(:func:`skip_ai.kernel.engine.batch`, handed the game's heuristic as its policy module).
Game ``i`` of a batch uses the generator seeded with ``derive(base_seed(seed), i)`` (recorded
in the ``seed`` column) for its deal and its moves, so the output is identical for identical
arguments however the batch is chunked, and :func:`play_game` replays any one game through
the pyspiel API with the same result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import pyspiel
from tqdm import tqdm

from agents.heuristics import heuristic_module, heuristic_weights
from agents.policies import POLICY_CODES
from agents.random_agent import RandomBot
from skip_ai.kernel.engine import batch
from skip_ai.kernel.rng import base_seed, derive_range, make_rng
from skip_ai.play import play
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.stats import mean_interval, wilson

CHUNK = 4096


def policy_codes(game: KernelGame, policy: str | Sequence[str]) -> np.ndarray:
    """Kernel policy code for every seat: one policy name for all seats, or one per seat."""
    n = game.num_players()
    names = [policy] * n if isinstance(policy, str) else list(policy)
    if len(names) != n:
        raise ValueError(f"{len(names)} policies given for {n} seats of {game}")
    for name in names:
        if name not in POLICY_CODES:
            raise ValueError(f"unknown policy {name!r}; kernel policies: {', '.join(POLICY_CODES)}")
    return np.array([POLICY_CODES[name] for name in names], dtype=np.int64)


def seat_weights(game: KernelGame, weights: np.ndarray | None = None) -> np.ndarray:
    """The heuristic's weights per seat, ``(players, len(WEIGHTS))``: one vector for every seat
    (``weights`` 1-D or None for the defaults) or one row per seat (2-D)."""
    n = game.num_players()
    if weights is not None and np.ndim(weights) == 2:
        if len(weights) != n:
            raise ValueError(f"{len(weights)} weight vectors given for {n} seats of {game}")
        return np.stack([heuristic_weights(game, w) for w in weights])
    return np.tile(heuristic_weights(game, weights), (n, 1))


def simulate(
    game: str | KernelGame,
    n_games: int,
    seed: int = 0,
    policy: str | Sequence[str] = "random",
    progress: bool = False,
    weights: np.ndarray | None = None,
    first: int = 0,
) -> pd.DataFrame:
    """Play games ``first .. first+n_games-1`` of ``game`` (a game string), every seat with
    ``policy`` (or seat ``p`` with ``policy[p]``); ``weights`` for the heuristic (one vector,
    or one row per seat: :func:`seat_weights`).

    Columns: ``game`` (the full game string), ``index``, ``seed`` (the game's own seed),
    ``return_<seat>``, ``score_<i>`` (per team, or per seat in games played each for
    themselves), ``winner``, ``num_actions`` (every node, chance included) and ``num_moves``
    (the players' decisions). ``winner`` is the winning team (-1 for a draw) in team games,
    else the seat with the highest return when it is the only one (Pyatki: the first out),
    else -1.
    """
    g = load(game) if isinstance(game, str) else game
    if n_games < 0:
        raise ValueError(f"n_games must be ≥ 0 (got {n_games})")
    n = g.num_players()
    seats = policy_codes(g, policy)
    w = seat_weights(g, weights)
    params = g.spec.encode(g.resolved)
    base = base_seed(seed)
    rets = np.zeros((n_games, n))
    scores = np.zeros((n_games, g.num_scores))
    lengths = np.zeros((n_games, 2), np.int64)
    kernel = batch(g.spec.kernel, heuristic_module(g.spec.kernel))
    bar = tqdm(total=n_games, unit="game", disable=not progress, desc=g.spec.short_name)
    for start in range(0, n_games, CHUNK):
        count = min(CHUNK, n_games - start)
        sl = slice(start, start + count)
        kernel.simulate(
            params,
            np.uint64(base),
            first + start,
            count,
            seats,
            w,
            rets[sl],
            scores[sl],
            lengths[sl],
        )
        bar.update(count)
    bar.close()
    seeds = derive_range(np.uint64(base), first + n_games)[first:]
    frame = {"game": str(g), "index": np.arange(first, first + n_games), "seed": seeds}
    frame.update({f"return_{p}": rets[:, p] for p in range(n)})
    frame.update({f"score_{i}": scores[:, i] for i in range(g.num_scores)})
    frame["winner"] = winners(rets, g.spec.team_game)
    frame["num_actions"] = lengths[:, 0]
    frame["num_moves"] = lengths[:, 1]
    return pd.DataFrame(frame)


def winners(rets: np.ndarray, team_game: bool) -> np.ndarray:
    """The winning team (team games: by seat 0's return) or the seat with the unique highest
    return; -1 for none."""
    if team_game:
        team0 = rets[:, 0]
        return np.where(team0 > 0, 0, np.where(team0 < 0, 1, -1))
    if len(rets) == 0:
        return np.zeros(0, np.int64)
    unique = (rets == rets.max(axis=1, keepdims=True)).sum(axis=1) == 1
    return np.where(unique, rets.argmax(axis=1), -1)


def play_game(
    game: KernelGame, game_seed: int, make_bot: Callable[[np.ndarray], pyspiel.Bot] | None = None
) -> pyspiel.State:
    """Play one game through the pyspiel API from a game's seed, drawing chance outcomes
    and (through one bot for every seat, sharing the generator) moves exactly as
    :func:`simulate` does with the random policy."""
    rng = make_rng(game_seed)
    bot = (make_bot or (lambda r: RandomBot(rng=r)))(rng)
    return play(game.new_initial_state(), [bot] * game.num_players(), rng)


def outcome_keys(game: str | KernelGame) -> list[tuple[str, int]]:
    """The outcomes :func:`summary` counts, as (key, ``winner`` value): per team (``team0``,
    ``team1``) or per seat (``seat0`` ..) by the game's kind, then ``draw`` (-1: no winner)."""
    g = load(game) if isinstance(game, str) else game
    if g.spec.team_game:
        return [("team0", 0), ("team1", 1), ("draw", -1)]
    return [(f"seat{q}", q) for q in range(g.num_players())] + [("draw", -1)]


def summary(df: pd.DataFrame) -> dict:
    """Win rates per team (or per seat, in games played each for themselves) with Wilson 95%
    intervals, the rate of games without a winner (``draw``) and the mean length."""
    n = len(df)
    out: dict = {"games": n}
    keys = outcome_keys(df.game.iloc[0]) if n else [("team0", 0), ("team1", 1), ("draw", -1)]
    for key, value in keys:
        mask = df.winner == value
        k = int(mask.sum())
        lo, hi = wilson(k, n)
        out[key] = (k / n if n else float("nan"), lo, hi)
    out["length"] = mean_interval(df.num_actions.to_numpy())
    out["moves"] = mean_interval(df.num_moves.to_numpy())
    return out
