"""The 24 cards of Sixty-six (RULES §12.1): order within a suit, card points, masks.

Within a suit A > 10 > K > Q > J > 9; points A 11, 10 10, K 4, Q 3, J 2, 9 0 (120 in all);
the pictures are K, Q, J.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest

# by c % 13 (rank - 2): strength within a suit (9 < J < Q < K < 10 < A) and card points
STRENGTH = np.array([0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 2, 3, 5], np.int64)
POINTS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11], np.int64)
NINE_RANK = 7
SUIT_BITS = np.int64(0b111111 << 7)
ALL_NINES = np.int64(1 << 7 | 1 << 20 | 1 << 33 | 1 << 46)
PICTURES = np.int64(0)
for _s in range(4):
    PICTURES |= np.int64(0b111 << (13 * _s + 9))
FULL_DECK = np.int64(0)
for _s in range(4):
    FULL_DECK |= SUIT_BITS << (13 * _s)


@njit(cache=True, inline="always")
def suit_mask(suit):
    return SUIT_BITS << (13 * suit)


@njit(cache=True, inline="always")
def beats(a, b, trump):
    """Does card ``a`` beat card ``b`` (the best so far of a trick)?"""
    sa, sb = a // 13, b // 13
    if sa == sb:
        return STRENGTH[a % 13] > STRENGTH[b % 13]
    return sa == trump


@njit(cache=True, inline="always")
def points_of(m):
    total = 0
    while m:
        c = lowest(m)
        m &= m - 1
        total += POINTS[c % 13]
    return total


@njit(cache=True, inline="always")
def catchable(six):
    """Mask of the catchable cards of a six-card hand: a higher card of the suit is missing."""
    out = np.int64(0)
    m = six
    while m:
        c = lowest(m)
        m &= m - 1
        rest = suit_mask(c // 13)
        while rest:
            h = lowest(rest)
            rest &= rest - 1
            if STRENGTH[h % 13] > STRENGTH[c % 13] and not (six >> h) & 1:
                out |= bit(c)
                break
    return out


@njit(cache=True, inline="always")
def has_suits_of(m, cards_):
    """Does mask ``m`` hold a card of the suit of each card of ``cards_``? (A beaten offer of
    nines; with one card per suit, ``ALL_NINES``: a hand of all four suits.)"""
    while cards_:
        c = lowest(cards_)
        cards_ &= cards_ - 1
        if (m & suit_mask(c // 13)) == 0:
            return False
    return True


@njit(cache=True, inline="always")
def lowest_of(m):
    """The weakest card of a non-empty mask of one suit."""
    best = lowest(m)
    m &= m - 1
    while m:
        c = lowest(m)
        m &= m - 1
        if STRENGTH[c % 13] < STRENGTH[best % 13]:
            best = c
    return best
