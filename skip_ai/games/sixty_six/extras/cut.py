"""The cut (RULES §12.7.1): chance turns the bottom card; a nine is cut again (the third
scores 3 for the dealer's team), a jack makes the dealer cut once himself."""

from numba import njit

from skip_ai.kernel.bits import bit
from skip_ai.kernel.state import DECK, KNOWN, LOC, LOC_DECK, all_seats, team_of

from ..deal import plan_first_round
from ..deck import NINE_RANK
from ..layout import LOC_BOTTOM, R_CUT3, SX_BOTTOM, SX_CUT_NINES, SX_DEALER, SX_DEALER_CUT
from ..scoring import score


@njit(cache=True)
def cut(s, c):
    """A cut turned ``c`` (§12.7.1)."""
    old = s[SX_BOTTOM]
    if old >= 0:
        s[LOC + old] = LOC_DECK
        s[DECK] |= bit(old)
    s[SX_BOTTOM] = c
    s[LOC + c] = LOC_BOTTOM
    s[KNOWN + c] = all_seats(s)
    if s[SX_DEALER_CUT]:
        plan_first_round(s)
        return
    if c % 13 == NINE_RANK:
        s[SX_CUT_NINES] += 1
        if s[SX_CUT_NINES] == 3:
            if score(s, R_CUT3, team_of(s, s[SX_DEALER]), 3):
                return
            plan_first_round(s)
        return
    if c % 13 == 9 and s[SX_CUT_NINES] < 3:  # a jack: the dealer cuts once himself
        s[SX_DEALER_CUT] = 1
        return
    plan_first_round(s)
