"""Chains' resampler: a hidden card keeps its colour when re-dealt.

A card of a seat's own colour in its hand is one of its original cards; one of the other colour
was drawn from the opposite seat. So a resampled world is consistent exactly when every hidden
card is replaced by a hidden card of its colour.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.resample import plan_hidden, resample_kinds
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.state import NUM_CARDS

from .layout import colour

COLOURS = np.array([colour.py_func(c) for c in range(NUM_CARDS)], np.int64)
"""Each card's colour: the class a hidden card keeps when re-dealt (see ``resample``)."""


@njit(cache=True)
def resample(s, p, rng, sigma):
    """Re-deal the cards hidden from ``p``, each colour among the hidden slots of that colour
    (uniformly): where every card came from, and so every deal and draw of the history, stays
    legal. ``sigma`` receives the card permutation (``kernel.resample``)."""
    resample_kinds(s, p, COLOURS, rng, sigma)


@njit(cache=True)
def resample_plan(s, p, plan):
    plan_hidden(s, p, COLOURS, plan)
