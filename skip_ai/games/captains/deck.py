"""The cards of Two Captains and Little Country: the colours' masks (Red = team 0, Black =
team 1, a joker of each), ranks, and the masks the rules name."""

import numpy as np
from numba import njit

from skip_ai.kernel.state import PELICAN0

QUEEN, KING = 12, 13

RED_MASK = ((np.int64(1) << 26) - 1) << 26 | (np.int64(1) << 53)
BLACK_MASK = ((np.int64(1) << 26) - 1) | (np.int64(1) << 52)
SUIT_CARDS = (np.int64(1) << 13) - 1
JOKERS = np.int64(3) << 52
_QKA = np.int64(0b111) << 10
HIGH = _QKA | _QKA << 13 | _QKA << 26 | _QKA << 39
"""The Queens, Kings and Aces: what beats a joker-only pile."""
_LOW = (np.int64(1) << 9) - 1
RANKS_2_10 = _LOW | _LOW << 13 | _LOW << 26 | _LOW << 39
PELICANS = np.int64(0b111) << PELICAN0


@njit(cache=True, inline="always")
def colour_mask(team):
    return RED_MASK if team == 0 else BLACK_MASK


@njit(cache=True, inline="always")
def rank_of(c):
    return c % 13 + 2
