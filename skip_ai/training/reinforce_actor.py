"""Policy-gradient games against the heuristic, inside Numba: the model samples its moves.

One *side* (a team, or one seat in a game played each for themselves) plays the model, every
other seat the game's heuristic (the policy module ``P``, ``agents.heuristics.<game>``); game
``i`` gives the model side ``i mod (number of sides)``, so a chunk's games share the sides
evenly. At a model's decision with more than one legal move it plays a move drawn from the
softmax of its action outputs divided by ``temperature`` (:func:`agents.model.net_logits`, the
legal rows only). A decision writes the mover's observation (``K.observation``), its legal
moves, the move played and, when the game ends, the mover's final return mapped to [-1, 1]
from the game's utility range: what REINFORCE (Williams 1992) needs. Forced moves and the
heuristic's moves are not written.

With ``self_play`` > 0, that share of the games (each game decided by its own draw from a
separate seed family, so a game is the same whatever the share of the others) is played by
the model in every seat, and every seat's decisions are written: REINFORCE in self-play, so
the model also meets an opponent as strong as itself, not only the heuristic.

With ``duplicate``, each game is first played by the heuristic in every seat from the same
seed, and its rows' ``base`` is what the model's side got there: a baseline that knows the
deal (the cards decide much of a game's outcome; the model's moves did not choose the deal, so
the gradient stays unbiased), as duplicate bridge scores a table against the other table.

Game ``i`` draws everything from the generator seeded with ``derive(base_seed, i)``, so a chunk
depends only on the model, the temperature, the seed and the first game's index. A game whose
rows do not fit in what is left of the buffers is dropped whole and ends the chunk: the next
chunk plays it again from its seed (nothing is written half).
"""

from types import SimpleNamespace

import numpy as np
from numba import njit

from agents.model import net_logits
from skip_ai.kernel.family import kernel_family
from skip_ai.kernel.rng import derive, uniform
from skip_ai.kernel.state import CHANCE, H_CUR, H_PLAYERS, TERMINAL

MAX_ACTIONS = 1 << 16
SELF_PLAY_FAMILY = np.uint64(0x5E1F_91A7_0DD5_EED5)
"""XOR-ed into the batch seed for the draw that makes a game self-play: apart from the games'
own generators."""


@kernel_family
def reinforce_actor(K, P, A) -> SimpleNamespace:
    """The loop of game kernel module ``K`` with ``P`` as the heuristic opponent and ``A`` the
    action-features module the model reads (``skip_ai.kernel.no_action_features`` for none)."""

    @njit(cache=True)
    def play(
        params,
        base_seed,
        first,
        dims,
        wparams,
        temperature,
        lo,
        span,
        sides,
        hweights,
        obs,
        offsets,
        legal_out,
        chosen,
        target,
        duplicate,
        base,
        self_play,
        features_out,
    ):
        """Play games ``first, first+1, …`` of the game with kernel params ``params`` until
        one no longer fits in the buffers: ``obs`` (rows × observation size, zeroed by the
        caller), ``offsets`` (rows + 1: row ``r``'s legal moves are
        ``legal_out[offsets[r]:offsets[r+1]]``), ``legal_out``, ``chosen`` and ``target``;
        ``features_out`` (as many rows as ``legal_out``, ``A.SIZE`` columns): each listed
        move's action features.
        ``lo``/``span``: the game's minimum utility and utility range; ``sides``: seat masks,
        one per side; ``duplicate``: write ``base`` (rows) as above; ``self_play``: the share of
        games with the model in every seat. Returns (games played,
        rows written)."""
        cap, room = obs.shape[0], legal_out.shape[0]
        legal = np.empty(MAX_ACTIONS, np.int64)
        z = np.empty(MAX_ACTIONS, np.float64)
        scratch = np.empty(2 * dims.max(), np.float64)
        x = np.zeros(dims[0], np.float64)
        feats = np.zeros((MAX_ACTIONS if A.SIZE else 0, A.SIZE))
        rng = np.empty(1, np.uint64)
        pick = np.empty(1, np.uint64)
        initial = K.init(params)
        ret = np.empty(initial[H_PLAYERS], np.float64)
        every_seat = (1 << initial[H_PLAYERS]) - 1
        mover = np.empty(cap, np.int64)
        rows = 0
        games = 0
        offsets[0] = 0
        while True:
            model_seats = sides[(first + games) % sides.shape[0]]
            if self_play > 0.0:
                pick[0] = derive(base_seed ^ SELF_PLAY_FAMILY, first + games)
                if uniform(pick) < self_play:
                    model_seats = every_seat
            b = 0.0
            if duplicate:
                rng[0] = derive(base_seed, first + games)
                s = initial.copy()
                while s[H_CUR] != TERMINAL:
                    if s[H_CUR] == CHANCE:
                        K.apply_action(s, K.sample_chance(s, rng))
                    else:
                        K.apply_action(s, P.act(s, rng, hweights))
                K.returns(s, ret)
                seat = 0
                while not (model_seats >> seat) & 1:
                    seat += 1
                b = 2.0 * (ret[seat] - lo) / span - 1.0
            rng[0] = derive(base_seed, first + games)
            s = initial.copy()
            start = rows
            fits = True
            while fits and s[H_CUR] != TERMINAL:
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
                if rows == cap or offsets[rows] + n > room:
                    fits = False
                    break
                x[:] = 0.0
                K.observation(s, cur, x)
                A.write(s, cur, legal, n, feats)
                a = draw_and_write(
                    dims, wparams, x, legal, n, feats, z, scratch, temperature, rng, rows,
                    obs, offsets, legal_out, features_out, chosen,
                )  # fmt: skip
                mover[rows] = cur
                rows += 1
                K.apply_action(s, a)
            if not fits:
                return games, start  # the game is played again by the next chunk
            K.returns(s, ret)
            for r in range(start, rows):
                target[r] = 2.0 * (ret[mover[r]] - lo) / span - 1.0
                base[r] = b
            games += 1

    return SimpleNamespace(play=play)


@njit(cache=True)
def draw_and_write(
    dims, params, x, legal, n, feats, z, scratch, temperature, rng, row,
    obs, offsets, legal_out, features_out, chosen,
):  # fmt: skip
    """The model's move at a decision whose observation ``x`` and moves' features ``feats``
    are computed: drawn from its policy at ``temperature`` with one uniform draw from ``rng``,
    and written as row ``row`` (observation, legal moves and their features, the move).
    The one home of a row, for the actor against the heuristic and the one against a search
    (:mod:`skip_ai.training.search_opponent`)."""
    net_logits(dims, params, x, legal, n, z, scratch, feats)
    a = legal[_draw(z, n, temperature, uniform(rng))]
    obs[row, :] = x
    m = offsets[row]
    legal_out[m : m + n] = legal[:n]
    if feats.shape[1]:
        features_out[m : m + n] = feats[:n]
    offsets[row + 1] = m + n
    chosen[row] = a
    return a


@njit(cache=True)
def _draw(z, n, temperature, u):
    """The index drawn by ``u`` (uniform in [0, 1)) from the softmax of ``z[:n] / temperature``
    (``z`` is overwritten)."""
    top = z[:n].max()
    total = 0.0
    for i in range(n):
        z[i] = np.exp((z[i] - top) / temperature)
        total += z[i]
    u *= total
    for i in range(n - 1):
        if u < z[i]:
            return i
        u -= z[i]
    return n - 1
