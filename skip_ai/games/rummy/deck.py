"""Rummy's cards: sequence values (Ace low), points, the masks of a rank and of a sequence."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest
from skip_ai.kernel.state import HAND


@njit(cache=True, inline="always")
def seq_value(c):
    """Sequence value, Ace low: A = 1, 2..10, J = 11, Q = 12, K = 13."""
    r = c % 13
    return 1 if r == 12 else r + 2


@njit(cache=True, inline="always")
def points(c):
    """A card's points: Ace 1, pips, pictures 10."""
    v = seq_value(c)
    return 10 if v > 10 else v


@njit(cache=True, inline="always")
def card_of(suit, v):
    """The card of ``suit`` with sequence value ``v`` (1..13)."""
    return 13 * suit + (12 if v == 1 else v - 2)


@njit(cache=True, inline="always")
def rank_mask(rank):
    """The four cards of ``rank`` (2..14)."""
    c = rank - 2
    return bit(c) | bit(c + 13) | bit(c + 26) | bit(c + 39)


@njit(cache=True, inline="always")
def suit_values(m, suit):
    """The cards of ``suit`` in mask ``m`` as a mask of sequence values (bit v)."""
    local = (m >> (13 * suit)) & 0x1FFF
    return ((local & 0xFFF) << 2) | (((local >> 12) & 1) << 1)


@njit(cache=True, inline="always")
def seq_index(lo, hi):
    """j of RULES §13 "Actions": the index of (lo, hi) in increasing order."""
    return (lo - 1) * (24 - lo) // 2 + (hi - lo - 2)


@njit(cache=True, inline="always")
def seq_mask(suit, lo, hi):
    m = np.int64(0)
    for v in range(lo, hi + 1):
        m |= bit(card_of(suit, v))
    return m


@njit(cache=True, inline="always")
def highest(m):
    """The highest bit of a non-empty mask."""
    h = 0
    while m:
        h = lowest(m)
        m &= m - 1
    return h


@njit(cache=True, inline="always")
def hand_count(s, seat):
    """The points of the cards in ``seat``'s hand."""
    total = 0
    m = s[HAND + seat]
    while m:
        total += points(lowest(m))
        m &= m - 1
    return total
