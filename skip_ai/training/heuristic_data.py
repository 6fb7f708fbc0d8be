"""Value samples from heuristic self-play, played inside the kernel: a fast first generation
for the value head of the policy/value model.

ISMCTS self-play gives the best targets but few of them: ~100 games per generation on a small
machine (the expert-iteration trainer that used them learned nothing useful and was replaced
by deep Monte-Carlo, :mod:`skip_ai.training.dmc`). The heuristic plays ~10⁵ games a minute, so its
games give the value head enough (observation, final return) pairs to learn what a position is
worth under that play, which is what a heuristic rollout estimates one sample at a time. Each
move is uniformly random instead with probability ``eps``, so the samples also cover positions
the heuristic would not reach, as a search's leaves do. Each decision is kept with probability
``keep``: the positions of one game are alike, and their observations are large.

Game ``i`` draws everything from ``derive(base_seed, i)``, like the batch simulator, so the
samples do not depend on how the games are split into chunks.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import njit
from tqdm import tqdm

from agents.heuristics import heuristic_module, heuristic_weights
from skip_ai.kernel.family import kernel_family
from skip_ai.kernel.rng import base_seed, derive, uniform
from skip_ai.kernel.state import CHANCE, H_CUR, H_PLAYERS, TERMINAL
from skip_ai.pyspiel_wrapper import KernelGame

CHUNK = 64
"""Games per kernel call (the sample buffers hold one chunk)."""


@kernel_family
def _kernel(K, H) -> SimpleNamespace:
    """The sampling kernel for game kernel module ``K`` and its heuristic module ``H``."""

    @njit(cache=True)
    def play(params, base, first, count, w, eps, keep, lo, span, obs, value):
        """Play games ``first .. first+count-1``; a kept decision is a row of ``obs`` (the
        mover's observation) and ``value`` (the mover's final return in [-1, 1]). Returns
        the number of rows."""
        rng = np.empty(1, np.uint64)
        initial = K.init(params)
        ret = np.empty(initial[H_PLAYERS], np.float64)
        movers = np.empty(obs.shape[0], np.int64)
        rows = 0
        for g in range(count):
            rng[0] = derive(base, first + g)
            s = initial.copy()
            start = rows
            while s[H_CUR] != TERMINAL:
                cur = s[H_CUR]
                if cur == CHANCE:
                    K.apply_action(s, K.sample_chance(s, rng))
                    continue
                if eps > 0.0 and uniform(rng) < eps:
                    a = K.random_legal(s, rng)
                else:
                    a = H.act(s, rng, w)
                if uniform(rng) < keep and rows < obs.shape[0]:
                    obs[rows, :] = 0.0
                    K.observation(s, cur, obs[rows])
                    movers[rows] = cur
                    rows += 1
                K.apply_action(s, a)
            K.returns(s, ret)
            for r in range(start, rows):
                value[r] = 2.0 * (ret[movers[r]] - lo) / span - 1.0
        return rows

    return SimpleNamespace(play=play)


def heuristic_samples(
    game: KernelGame,
    n_games: int,
    seed: int = 0,
    eps: float = 0.1,
    keep: float = 0.25,
    weights: np.ndarray | None = None,
    progress: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """``n_games`` of heuristic self-play as arrays for :func:`agents.model.fit` (value only):
    observations ``(N, D)`` and the movers' final returns in [-1, 1] ``(N,)``."""
    for name, p in (("eps", eps), ("keep", keep)):
        if not 0 <= p <= 1:
            raise ValueError(f"{name} must be in [0, 1] (got {p})")
    kern = _kernel(game.spec.kernel, heuristic_module(game.spec.kernel))
    params = game.spec.encode(game.resolved)
    w = heuristic_weights(game, weights)
    lo, span = game.min_utility(), game.max_utility() - game.min_utility()
    cap = CHUNK * game.max_game_length()
    buf = (np.empty((cap, game.obs_size), np.float32), np.empty(cap))
    parts = []
    base = np.uint64(base_seed(seed))
    for first in tqdm(
        range(0, n_games, CHUNK), desc="heuristic games", unit="chunk", disable=not progress
    ):
        count = min(CHUNK, n_games - first)
        rows = kern.play(params, base, first, count, w, eps, keep, lo, span, *buf)
        parts.append([b[:rows].copy() for b in buf])
    obs, value = (np.concatenate(p) for p in zip(*parts))
    return obs, value
