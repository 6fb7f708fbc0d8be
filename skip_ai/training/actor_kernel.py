"""The actors' games inside Numba: whole games of a game's kernel, the model in some seats and
the game's heuristic in the others, written as samples for the learner. Both training methods
play this one loop; their :class:`Knobs` say how the model picks its moves and where it sits.

- **Deep Monte-Carlo** (``greedy``): every seat plays the same ``q`` model. At each decision
  with more than one legal move it plays a uniformly random legal move with probability ``eps``,
  else the legal move of highest Q(s, a) (the action outputs evaluated by
  :func:`agents.model.net_logits` for the legal rows only), or with probability ``guide`` the
  heuristic's move (imitation of the heuristic plays with ``guide = 1``: every move is the
  heuristic's, drawn after the ε draw). With probability ``share`` a game is played against the
  game's heuristic instead: one *side* (a team, or one seat in a game played each for
  themselves), drawn uniformly, plays the model and every other seat the heuristic. Pure
  self-play (DouZero's, Zha et al. 2021) learns what wins against itself, which may not be what
  wins against a fixed style of play. With ``share = 0`` (or ``guide = 0``) nothing is drawn for
  it.
- **Policy gradient** (not ``greedy``): game ``i`` gives the model side ``i mod (number of
  sides)`` against the heuristic, so a chunk's games share the sides evenly; a ``self_play``
  share of the games (each decided by its own draw from a separate seed family, so a game is the
  same whatever the share of the others) has the model in every seat. At its decisions with a
  choice the model plays a move drawn from the softmax of its action outputs divided by
  ``temperature``, and each row also lists the legal moves (and their action features, for a
  model that reads them): what REINFORCE (Williams 1992) needs.

A decision of the model with a choice writes the mover's observation (``K.observation``) and the
move played; when its game ends, each of its rows gets the mover's final return mapped to
[-1, 1] from the game's utility range: the Monte-Carlo target. Forced moves and the heuristic's
moves are not written. Chance is drawn as the engine draws it (``K.sample_chance``).

Game ``i`` draws everything from the generator seeded with ``derive(base_seed, i)``, so a batch
of samples depends only on the model, the knobs, the seed and the first game's index. Games are
begun while ``margin`` rows are free; a game whose rows do not fit in what is left of the
buffers is dropped whole and ends the batch: the next batch plays it again from its seed
(nothing is written half).
"""

from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
from numba import njit

from agents.model import net_logits
from skip_ai.kernel.family import kernel_family
from skip_ai.kernel.rng import below, derive, uniform
from skip_ai.kernel.state import CHANCE, H_CUR, H_PLAYERS, TERMINAL

MAX_ACTIONS = 1 << 16
SELF_PLAY_FAMILY = np.uint64(0x5E1F_91A7_0DD5_EED5)
"""XOR-ed into the batch seed for the draw that makes a game self-play: apart from the games'
own generators."""


class Setting(NamedTuple):
    """The game and the model as an actor plays them."""

    params: np.ndarray  # the game's kernel parameters (``GameSpec.encode``)
    lo: float  # the game's minimum utility
    span: float  # and its utility range
    sides: np.ndarray  # seat masks, one per side the model can take against the heuristic
    hweights: np.ndarray  # the heuristic's weights
    dims: np.ndarray  # the model's layers (agents.model)
    weights: np.ndarray  # and its parameters


class Knobs(NamedTuple):
    """How the model picks its moves, and where it sits (see the module docstring)."""

    greedy: bool  # deep Monte-Carlo: ε-greedy over Q; else drawn from the policy
    eps: float
    share: float
    guide: float
    temperature: float
    self_play: float


class Buffers(NamedTuple):
    """The rows an actor writes: ``obs`` (rows × observation size, zeroed by the caller),
    ``actions`` (the move played), ``target`` (the mover's return); a policy gradient's rows
    also list their legal moves, row ``r``'s being ``legal[offsets[r]:offsets[r+1]]`` with
    their action features in the same rows of ``features`` (the arrays are empty otherwise)."""

    obs: np.ndarray
    actions: np.ndarray
    target: np.ndarray
    offsets: np.ndarray
    legal: np.ndarray
    features: np.ndarray


@kernel_family
def actor(K, P, A) -> SimpleNamespace:
    """The loop of game kernel module ``K`` with ``P`` as the heuristic and ``A`` the
    action-features module the model reads (``skip_ai.kernel.no_action_features`` for none)."""

    @njit(cache=True)
    def play(setting, knobs, base_seed, first, margin, out):
        """Play games ``first, first+1, …`` into ``out`` (:class:`Buffers`) while at least
        ``margin`` rows are free, until one no longer fits. Returns (games played, rows
        written)."""
        params, lo, span, sides, hweights, dims, weights = setting
        cap, room = out.obs.shape[0], out.legal.shape[0]
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
        out.offsets[0] = 0
        while cap - rows >= margin:
            i = first + games
            rng[0] = derive(base_seed, i)
            if knobs.greedy:
                model_seats = every_seat
                if knobs.share > 0.0 and uniform(rng) < knobs.share:
                    model_seats = sides[below(rng, sides.shape[0])]
            else:
                model_seats = sides[i % sides.shape[0]]
                if knobs.self_play > 0.0:
                    pick[0] = derive(base_seed ^ SELF_PLAY_FAMILY, i)
                    if uniform(pick) < knobs.self_play:
                        model_seats = every_seat
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
                if rows == cap or (not knobs.greedy and out.offsets[rows] + n > room):
                    return games, start  # the game is played again by the next batch
                x[:] = 0.0
                K.observation(s, cur, x)
                if knobs.greedy:
                    if uniform(rng) < knobs.eps:
                        a = legal[below(rng, n)]
                    elif knobs.guide > 0.0 and uniform(rng) < knobs.guide:
                        a = P.act(s, rng, hweights)
                    else:
                        net_logits(dims, weights, x, legal, n, z, scratch, feats)
                        a = legal[np.argmax(z[:n])]
                else:
                    A.write(s, cur, legal, n, feats)
                    net_logits(dims, weights, x, legal, n, z, scratch, feats)
                    a = legal[_draw(z, n, knobs.temperature, uniform(rng))]
                    m = out.offsets[rows]
                    out.legal[m : m + n] = legal[:n]
                    if A.SIZE:
                        out.features[m : m + n] = feats[:n]
                    out.offsets[rows + 1] = m + n
                out.obs[rows, :] = x
                out.actions[rows] = a
                mover[rows] = cur
                rows += 1
                K.apply_action(s, a)
            K.returns(s, ret)
            for r in range(start, rows):
                out.target[r] = 2.0 * (ret[mover[r]] - lo) / span - 1.0
            games += 1
        return games, rows

    return SimpleNamespace(play=play)


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
