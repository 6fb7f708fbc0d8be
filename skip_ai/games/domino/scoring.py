"""The outcome of Domino: more cards taken wins (``kernel.tricks``); the scores are the cards
each team took, the ``komi`` lever added to team 0's."""

from numba import njit

from skip_ai.kernel.state import param
from skip_ai.kernel.tricks import returns_by_taken, taken_scores

from .layout import P_KOMI


@njit(cache=True)
def scores(s, out):
    taken_scores(s, out, param(s, P_KOMI))


@njit(cache=True)
def returns(s, out):
    returns_by_taken(s, out, False, param(s, P_KOMI))
