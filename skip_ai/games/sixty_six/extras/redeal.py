"""The redeal (RULES §12.7.4): a weak or one-suited hand may ask for the deal to be abandoned
and dealt again by the same dealer."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import team_of

from ..actions import PASS, REDEAL
from ..deal import start_deal
from ..deck import points_of, suit_mask
from ..layout import R_REDEAL, SX_NINES_PLAYED
from ..phases import after_redeal, extras_turn_done
from ..scoring import set_last


@njit(cache=True, inline="always")
def redeal_hand(held):
    """At most 12 card points, or five cards of one suit."""
    if points_of(held) <= 12:
        return True
    for su in range(4):
        if popcount(held & suit_mask(su)) >= 5:
            return True
    return False


@njit(cache=True)
def redeal_legal(s, cur, held):
    """PASS, and REDEAL for such a hand when his team has not played nines (as bits
    ``a - 52``)."""
    one = np.int64(1)
    passing = one << (PASS - 52)
    if s[SX_NINES_PLAYED + team_of(s, cur)] == 0 and redeal_hand(held):
        return passing | one << (REDEAL - 52)
    return passing


@njit(cache=True)
def apply_redeal(s, cur, a):
    """``cur`` asks for a redeal (the same dealer deals anew) or passes."""
    if a == REDEAL:
        set_last(s, R_REDEAL, cur, 0)
        start_deal(s, 1)
    elif extras_turn_done(s):
        after_redeal(s)
