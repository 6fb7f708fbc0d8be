"""Deep Monte-Carlo self-play inside Numba: whole games, ε-greedy over a Q model, as samples.

Every seat plays the same ``q`` model (:mod:`agents.model`): at each decision with more than one
legal move, a uniformly random legal move with probability ``eps``, else the legal move of
highest Q(s, a) (the action outputs evaluated by :func:`agents.model.net_logits` for the legal
rows only). Chance is drawn as the engine draws it (``K.sample_chance``). A decision writes the
mover's observation (``K.observation``) and the action; when its game ends, each of its rows
gets the mover's final return mapped to [-1, 1] from the game's utility range: the Monte-Carlo
target of DouZero (Zha et al. 2021). Forced moves are not written (nothing to learn there).

**Heuristic opponents.** With probability ``share`` a game is played against the game's
heuristic (the policy module ``P``, ``agents.heuristics.<game>``): one *side* (a team, or one
seat in a game played each for themselves), drawn uniformly from ``sides``, plays the model and
every other seat plays ``P.act``; only the model's decisions are written. Pure self-play
(DouZero's) learns what wins against itself, which may not be what wins against a fixed style of
play; these games show the learner that style. With ``share = 0`` nothing is drawn for it, so
the samples are those of pure self-play.

**Heuristic guidance.** With probability ``guide``, a model's move that is not an ε move is the
heuristic's move instead of the argmax of Q (and is learned like any other). Early in a run,
when the model's own choices are poor, Q is then learned for the heuristic's play and its
alternatives, so that its argmax may improve on the heuristic (the policy improvement of a
rollout algorithm; measured on Columns, a small gain: results/learned.md); the trainer lowers
``guide`` to 0 over the run. With ``guide = 0``
nothing is drawn for it.

Game ``i`` draws everything from the generator seeded with ``derive(base_seed, i)``, so a batch
of samples depends only on the model, ``eps``, the seed and the first game's index.
"""

from types import SimpleNamespace

import numpy as np
from numba import njit

from agents.model import net_logits
from skip_ai.kernel.family import kernel_family
from skip_ai.kernel.rng import below, derive, uniform
from skip_ai.kernel.state import CHANCE, H_CUR, H_PLAYERS, TERMINAL

MAX_ACTIONS = 1 << 16


@kernel_family
def dmc_actor(K, P) -> SimpleNamespace:
    """The self-play loop of game kernel module ``K``, with ``P`` as the heuristic opponent."""

    @njit(cache=True)
    def play(
        params,
        base_seed,
        first,
        margin,
        dims,
        qparams,
        eps,
        lo,
        span,
        sides,
        share,
        guide,
        hweights,
        obs,
        actions,
        target,
    ):
        """Play games ``first, first+1, …`` of the game with kernel params ``params`` while at
        least ``margin`` rows (the most one game can write) are free in the sample arrays:
        ``obs`` (rows × observation size, zeroed by the caller), ``actions`` and ``target``.
        ``lo``/``span``: the game's minimum utility and utility range. ``sides``: seat masks,
        one per side; ``share``: the probability of a game against ``P`` with weights
        ``hweights``; ``guide``: the probability of the heuristic's move at a model's turn.
        Returns (games played, rows written)."""
        cap = obs.shape[0]
        legal = np.empty(MAX_ACTIONS, np.int64)
        q = np.empty(MAX_ACTIONS, np.float64)
        scratch = np.empty(2 * dims.max(), np.float64)
        no_features = np.zeros((0, 0))  # deep Monte-Carlo fits no action features
        x = np.zeros(dims[0], np.float64)
        rng = np.empty(1, np.uint64)
        initial = K.init(params)
        ret = np.empty(initial[H_PLAYERS], np.float64)
        mover = np.empty(cap, np.int64)
        rows = 0
        games = 0
        while cap - rows >= margin:
            rng[0] = derive(base_seed, first + games)
            model_seats = -1  # every seat
            if share > 0.0 and uniform(rng) < share:
                model_seats = sides[below(rng, sides.shape[0])]
            s = initial.copy()
            start = rows
            while s[H_CUR] != TERMINAL:
                cur = s[H_CUR]
                if cur == CHANCE:
                    K.apply_action(s, K.sample_chance(s, rng))
                    continue
                if not (model_seats >> cur) & 1:
                    K.apply_action(s, P.act(s, rng, hweights))
                    continue
                n = K.legal_actions(s, legal)
                if n == 1:
                    K.apply_action(s, legal[0])
                    continue
                x[:] = 0.0
                K.observation(s, cur, x)
                if uniform(rng) < eps:
                    a = legal[below(rng, n)]
                elif guide > 0.0 and uniform(rng) < guide:
                    a = P.act(s, rng, hweights)
                else:
                    net_logits(dims, qparams, x, legal, n, q, scratch, no_features)
                    a = legal[np.argmax(q[:n])]
                if rows < cap:
                    obs[rows, :] = x
                    actions[rows] = a
                    mover[rows] = cur
                    rows += 1
                K.apply_action(s, a)
            K.returns(s, ret)
            for r in range(start, rows):
                target[r] = 2.0 * (ret[mover[r]] - lo) / span - 1.0
            games += 1
        return games, rows

    return SimpleNamespace(play=play)
