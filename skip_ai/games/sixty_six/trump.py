"""Naming the trump (RULES §12.2.3): E names a suit of his first three cards, or reveals a
card; a revealed nine lets him name its suit or reveal once more, any other revealed card's
suit is trump."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest
from skip_ai.kernel.state import CHANCE, H_CUR, KNOWN, all_seats, give, param

from .actions import REVEAL, TRUMP0
from .deal import plan_second_round
from .deck import NINE_RANK, suit_mask
from .layout import (
    P_NINES,
    PH_OFFER,
    PH_REVEAL,
    PH_TRUMP,
    SX_NAMED,
    SX_PHASE,
    SX_REVEALED,
    SX_REVEALS,
    SX_TRUMP,
    SX_TURN,
    extras_on,
)
from .seats import elder


@njit(cache=True)
def trump_legal(s, held):
    """E's choices (as bits ``a - 52``): REVEAL, or a suit of his three cards; after a REVEAL
    only the nine just revealed names a trump (§12.2.3)."""
    one = np.int64(1)
    extra = one << (REVEAL - 52)
    if s[SX_REVEALED] == 1:
        extra |= one << (TRUMP0 - 52 + lowest(s[SX_REVEALS]) // 13)
    else:
        for su in range(4):
            if held & suit_mask(su):
                extra |= one << (TRUMP0 - 52 + su)
    return extra


@njit(cache=True)
def choose_trump(s, a):
    """E names a trump (``TRUMP(s)``) or asks for a card to be revealed."""
    if a == REVEAL:
        s[SX_PHASE] = PH_REVEAL
        s[H_CUR] = CHANCE
        return
    if s[SX_REVEALED] == 0:
        s[SX_NAMED] = a - TRUMP0
    trump_fixed(s, a - TRUMP0)


@njit(cache=True)
def reveal(s, c):
    """The chance card ``c`` is revealed to E, face up: a first nine lets him choose again,
    else its suit is trump."""
    e = elder(s)
    give(s, c, e)
    s[KNOWN + c] = all_seats(s)
    s[SX_REVEALED] += 1
    s[SX_REVEALS] |= bit(c)
    if c % 13 == NINE_RANK and s[SX_REVEALED] == 1:
        s[SX_PHASE] = PH_TRUMP
        s[H_CUR] = e
    else:
        trump_fixed(s, c // 13)


@njit(cache=True)
def trump_fixed(s, suit):
    """The trump is ``suit``: the offers of nines follow (if on), else the second round."""
    s[SX_TRUMP] = suit
    s[SX_TURN] = 0
    if param(s, P_NINES) and extras_on(s):
        s[SX_PHASE] = PH_OFFER
        s[H_CUR] = elder(s)
    else:
        plan_second_round(s)
