"""The outcome of Domino: more cards taken wins (``kernel.tricks``); the scores are the cards
each team took."""

from numba import njit

from skip_ai.kernel.tricks import returns_by_taken
from skip_ai.kernel.tricks import taken_scores as scores  # noqa: F401  (kernel API)


@njit(cache=True)
def returns(s, out):
    returns_by_taken(s, out, False)
