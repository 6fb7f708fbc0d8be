"""Generic whole-game kernels, instantiated once per game kernel module.

A game kernel module ``K`` provides, all ``@njit``:

- ``init(params) -> state``            a fresh state (chance deals first) from the int64 params
- ``chance_outcomes(s, out) -> n``     the outcomes of a chance node, ascending, equally likely
- ``sample_chance(s, rng)``            exactly ``outcomes[below(rng, n)]`` of that list, but
                                       without building it (the batch fast path)
- ``legal_actions(s, out) -> n``       the legal actions of a decision node, ascending
- ``random_legal(s, rng)``             exactly ``legal[below(rng, n)]``, without the list
- ``apply_action(s, a) -> vis``        apply a legal action or outcome; returns the bitmask of
                                       seats that saw it in full (every seat: public)
- ``returns(s, out)``, ``scores(s, out)``  per seat / per team, float64
- ``observation(s, p, out)``           the observation tensor of player ``p``
- ``resample(s, p, rng, sigma)``       re-deal what ``p`` cannot see (see ``resample.py``)
- ``resample_plan(s, p, plan)``        the root-only part of ``resample`` into an int64
                                       ``plan`` of ``resample.PLAN_SIZE`` (ISMCTS does it once)
- ``resample_planned(s, plan, rng, sigma)``  ``resample`` of a copy of that root from the plan

``apply_action`` also counts the move in ``H_MOVES``.

A policy module ``P`` (for :func:`batch`) provides ``act(s, rng, w) -> action`` (``@njit``): a
legal action for the seat to move, ``w`` its weights. The drivers choose it (the game's
heuristic, ``agents.heuristics.<game>``); seats then play it or the game's own uniform
``random_legal`` by their code, :data:`RANDOM` or :data:`POLICY`.

Both families are closures over modules only (:mod:`skip_ai.kernel.family`), so Numba caches
them on disk per game.

Why a game's ``apply_action`` is compiled once per family that calls it (here ``engine`` and
``batch``; also the ISMCTS search and the training kernels), not once: Numba compiles a callee
once per signature (there is one, ``(int64[::1], int64)``), but links its IR into every
caller's module, which LLVM then optimises and turns into machine code as a whole, inlining
where it pays. That is where the speed comes from. The one way to a single compiled form is
to call it through a function pointer (a ``cfunc`` passed in as a first-class function): in
CPU time it made random playouts 1.1-1.6x slower (Domino 1.3x, Chains 1.15-1.2x, Sixty-six
1.25x, Columns 1.55x; ``experiments/speed/apply_copies.py``). The copies cost only cold-cache
compile time, once per version of the sources (:mod:`skip_ai._numba_cache`): a further caller
of ``apply_action`` costs 0.05 s more than a trivial function for Domino, 0.3 s for
Sixty-six, 1.3 s for Chains; with a warm cache every family loads in hundredths of a second.
"""

from types import SimpleNamespace

import numpy as np
from numba import njit

from .family import kernel_family
from .resample import PLAN_SIZE
from .rng import derive
from .state import CHANCE, H_CUR, MAX_CARDS, TERMINAL, copy_into

RANDOM = 0
"""Seat code of a kernel loop: the game's own uniform ``K.random_legal``."""
POLICY = 1
"""Seat code: the policy module handed to the loop's builder, ``P.act(s, rng, w)``."""


@kernel_family
def engine(K):
    """The policy-free kernels of game kernel module ``K``: checked steps for the pyspiel
    wrapper, random playouts for the benchmarks."""

    @njit(cache=True)
    def actions(s, out):
        """Chance outcomes at a chance node, legal actions at a decision node, none at the end."""
        cur = s[H_CUR]
        if cur == TERMINAL:
            return 0
        if cur == CHANCE:
            return K.chance_outcomes(s, out)
        return K.legal_actions(s, out)

    @njit(cache=True)
    def checked_apply(s, a, out):
        """Apply ``a`` if it is legal here and return its visibility; -1 (state untouched)
        if it is not."""
        cur = s[H_CUR]
        if cur == TERMINAL:
            return -1
        n = K.chance_outcomes(s, out) if cur == CHANCE else K.legal_actions(s, out)
        for i in range(n):
            if out[i] == a:
                return K.apply_action(s, a)
        return -1

    @njit(cache=True)
    def playouts(root, rng, count, observer):
        """Play ``count`` random games to the end from copies of ``root``, each from a fresh
        determinization for ``observer`` when ``observer >= 0`` (what playing out from an
        information state costs); returns the number of actions applied (the benchmark's
        yardstick for one ISMCTS iteration)."""
        plan = np.empty(PLAN_SIZE, np.int64)
        sigma = np.empty(MAX_CARDS, np.int64)
        if observer >= 0:
            K.resample_plan(root, observer, plan)
        s = root.copy()
        total = 0
        for _ in range(count):
            copy_into(s, root)
            if observer >= 0:
                K.resample_planned(s, plan, rng, sigma)
            while s[H_CUR] != TERMINAL:
                if s[H_CUR] == CHANCE:
                    a = K.sample_chance(s, rng)
                else:
                    a = K.random_legal(s, rng)
                K.apply_action(s, a)
                total += 1
        return total

    return SimpleNamespace(actions=actions, checked_apply=checked_apply, playouts=playouts)


@kernel_family
def batch(K, P):
    """Whole games of game kernel module ``K`` inside Numba, each seat playing the game's random
    policy or the policy module ``P``."""

    @njit(cache=True)
    def simulate(params, base_seed, first, count, seat_policy, weights, rets, scores, lengths):
        """Play games ``first .. first+count-1`` of the family ``base_seed`` to the end, seat
        ``p`` playing the policy coded ``seat_policy[p]`` (:data:`RANDOM` or :data:`POLICY`,
        with its weights ``weights[p]``); ``lengths[g]`` gets (actions, player moves): every
        node, and the decisions alone.

        Game ``i`` draws everything (deal and moves) from the generator seeded with
        ``derive(base_seed, i)``, so a game's record does not depend on how a batch is split,
        and games with the same seed start from the same deal whoever sits where.
        """
        rng = np.empty(1, np.uint64)
        team = np.empty(scores.shape[1], np.float64)
        initial = K.init(params)
        ret = np.empty(rets.shape[1], np.float64)
        for g in range(count):
            rng[0] = derive(base_seed, first + g)
            s = initial.copy()
            n_actions = 0
            n_moves = 0
            while s[H_CUR] != TERMINAL:
                cur = s[H_CUR]
                if cur == CHANCE:
                    a = K.sample_chance(s, rng)
                else:
                    code = seat_policy[cur]
                    if code == RANDOM:
                        a = K.random_legal(s, rng)
                    elif code == POLICY:
                        a = P.act(s, rng, weights[cur])
                    else:
                        raise ValueError("unknown seat policy code")
                n_moves += cur >= 0
                K.apply_action(s, a)
                n_actions += 1
            K.returns(s, ret)
            K.scores(s, team)
            rets[g, :] = ret
            scores[g, :] = team
            lengths[g, 0] = n_actions
            lengths[g, 1] = n_moves
        return count

    return SimpleNamespace(simulate=simulate)
