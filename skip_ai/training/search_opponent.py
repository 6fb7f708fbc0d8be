"""Policy-gradient games against a search: the model samples its moves, ISMCTS plays the rest.

The same games as :mod:`.reinforce_actor` (one side the model, game ``i`` giving it side
``i mod (number of sides)``, a ``self_play`` share with the model in every seat, the same rows
written into the same buffers), but every other seat is ``ismcts(iterations=N, …)`` instead of
the heuristic: the opponent the moonshot target is measured against, at a budget a training
run can afford. The loop runs in Python: a search (milliseconds) sits between two model moves,
so the interpreter's microseconds a move do not count, and a Numba loop cannot call the search
kernel without compiling again in every process (:mod:`skip_ai.kernel.family`).

Game ``i`` draws its chance events and the model's moves from the generator seeded with
``derive(base_seed, i)``, as the Numba actor does, and the searches from the bot seeded with
``derive(base_seed ^ SEARCH_FAMILY, i)``: an iteration budget makes a chunk depend only on the
model, the temperature, the seed, the search's settings and the first game's index (a timed
search would not, so the config refuses it).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from agents.ismcts import ISMCTSBot
from skip_ai.kernel.rng import derive, uniform
from skip_ai.kernel.state import CHANCE, H_CUR, H_PLAYERS, TERMINAL
from skip_ai.pyspiel_wrapper import KernelGame
from skip_ai.training.reinforce_actor import MAX_ACTIONS, SELF_PLAY_FAMILY, draw_and_write

SEARCH_FAMILY = np.uint64(0x0DD5_5EA2_C4ED_0001)
"""XOR-ed into the batch seed for the searches' seeds: apart from the games' own generators."""


def play_against_search(
    game: KernelGame,
    features: ModuleType,
    bot: ISMCTSBot,
    base_seed: np.uint64,
    first: int,
    dims: np.ndarray,
    params: np.ndarray,
    temperature: float,
    lo: float,
    span: float,
    sides: np.ndarray,
    self_play: float,
    obs: np.ndarray,
    offsets: np.ndarray,
    legal_out: np.ndarray,
    chosen: np.ndarray,
    target: np.ndarray,
    features_out: np.ndarray,
) -> tuple[int, int]:
    """Play games ``first, first+1, …`` until one no longer fits in the buffers (laid out as
    :func:`skip_ai.training.reinforce_actor.reinforce_actor`'s ``play``); ``features`` is the
    action-features module the model reads, ``bot`` the opponent. Returns (games played, rows
    written)."""
    K = game.spec.kernel
    params_k = game.spec.encode(game.resolved)
    cap, room = obs.shape[0], legal_out.shape[0]
    legal = np.empty(MAX_ACTIONS, np.int64)
    z = np.empty(MAX_ACTIONS, np.float64)
    scratch = np.empty(2 * dims.max(), np.float64)
    x = np.zeros(dims[0], np.float64)
    feats = np.zeros((MAX_ACTIONS if features.SIZE else 0, features.SIZE))
    rng = np.empty(1, np.uint64)
    pick = np.empty(1, np.uint64)
    initial = K.init(params_k)
    ret = np.empty(initial[H_PLAYERS], np.float64)
    every_seat = (1 << int(initial[H_PLAYERS])) - 1
    mover = np.empty(cap, np.int64)
    rows = games = 0
    offsets[0] = 0
    while True:
        i = first + games
        model_seats = int(sides[i % len(sides)])
        if self_play > 0.0:
            pick[0] = derive(base_seed ^ SELF_PLAY_FAMILY, i)
            if uniform(pick) < self_play:
                model_seats = every_seat
        bot.seed = int(derive(base_seed ^ SEARCH_FAMILY, i))
        rng[0] = derive(base_seed, i)
        s = initial.copy()
        start = rows
        while s[H_CUR] != TERMINAL:
            cur = int(s[H_CUR])
            if cur == CHANCE:
                K.apply_action(s, K.sample_chance(s, rng))
                continue
            n = K.legal_actions(s, legal)
            if n == 1:
                K.apply_action(s, legal[0])
                continue
            if not (model_seats >> cur) & 1:
                K.apply_action(s, bot.chosen(bot.search_kernel_state(s)))
                continue
            if rows == cap or offsets[rows] + n > room:
                return games, start  # the game is played again by the next chunk
            x[:] = 0.0
            K.observation(s, cur, x)
            features.write(s, cur, legal, n, feats)
            a = draw_and_write(
                dims, params, x, legal, n, feats, z, scratch, temperature, rng, rows,
                obs, offsets, legal_out, features_out, chosen,
            )  # fmt: skip
            mover[rows] = cur
            rows += 1
            K.apply_action(s, a)
        K.returns(s, ret)
        target[start:rows] = 2.0 * (ret[mover[start:rows]] - lo) / span - 1.0
        games += 1
