"""Picking the best-scored candidate with ties broken at random, in one pass."""

from numba import njit

from skip_ai.kernel.rng import below

EPS = 1e-9
"""Scores closer than this are a tie."""


@njit(cache=True, inline="always")
def better(score, best, ties, rng):
    """Streaming argmax: is ``score`` to replace the best so far (``best``, shared by ``ties``
    candidates)? Returns ``(take, best, ties)``; among equal scores each is kept with equal
    probability (reservoir sampling), with a generator draw only on a tie."""
    if score > best + EPS:
        return True, score, 1
    if score >= best - EPS:
        ties += 1
        return below(rng, ties) == 0, best, ties
    return False, best, ties
