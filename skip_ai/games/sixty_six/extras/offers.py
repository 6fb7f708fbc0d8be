"""Offers of nines (RULES §12.7.2): after the trump, a player whose first three cards hold two
or three nines may offer them to an opponent, who beats the offer by holding a card of each
offered nine's suit; either way the nines are shown and used."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.state import HAND, param, team_of

from ..actions import LEFT, PASS
from ..deal import plan_second_round
from ..deck import ALL_NINES, STRENGTH, has_suits_of, lowest_of, suit_mask
from ..layout import (
    P_NDECL,
    R_OFFER,
    SX_NINES_PLAYED,
    SX_NOT1,
    SX_OFFER_BEATEN,
    SX_OFFER_MASK,
    SX_OFFER_TO,
    SX_R1,
    SX_USED,
    extras_on,
    show,
)
from ..phases import extras_turn_done
from ..scoring import score
from ..seats import elder, seat_after


@njit(cache=True)
def offer_legal(s, cur, held):
    """PASS, and with two or three first-round nines the opponents they may be offered to
    (as bits ``a - 52``; not E with ``nines_declarer=false``)."""
    one = np.int64(1)
    passing = one << (PASS - 52)
    nines = held & s[SX_R1] & ALL_NINES
    if popcount(nines) < 2:
        return passing
    extra = passing
    for k in range(2):
        opp = seat_after(cur, 1 + 2 * k)
        if param(s, P_NDECL) or opp != elder(s):
            extra |= one << (LEFT - 52 + k)
    return extra


@njit(cache=True)
def apply_offer(s, cur, a):
    """``cur`` passes or offers; then the next seat, or the second round."""
    if a != PASS and offer(s, cur, seat_after(cur, 1 if a == LEFT else 3)):
        return
    if not extras_on(s) or extras_turn_done(s):
        plan_second_round(s)


@njit(cache=True)
def offer(s, cur, opp):
    """``cur`` offers his first-round nines to ``opp``; True when that ends the match."""
    nines = s[HAND + cur] & s[SX_R1] & ALL_NINES
    k = popcount(nines)
    show(s, nines)
    s[SX_USED] |= nines
    s[SX_NOT1 + cur] |= ALL_NINES & ~nines
    s[SX_NINES_PLAYED + team_of(s, cur)] = 1
    s[SX_OFFER_TO + cur] = opp
    s[SX_OFFER_MASK + cur] = nines
    held = s[HAND + opp]
    beaten = has_suits_of(held, nines)
    if beaten:
        m = nines
        while m:
            c = lowest(m)
            m &= m - 1
            cover = lowest_of(held & suit_mask(c // 13))
            show(s, bit(cover))
            for h in range(13 * (c // 13) + 7, 13 * (c // 13) + 13):
                if STRENGTH[h % 13] < STRENGTH[cover % 13]:
                    s[SX_NOT1 + opp] |= bit(h)
    elif k == 1:
        s[SX_NOT1 + opp] |= suit_mask(lowest(nines) // 13)
    s[SX_OFFER_BEATEN + cur] = 1 if beaten else 0
    winner = team_of(s, opp) if beaten else team_of(s, cur)
    return score(s, R_OFFER, winner, k)
