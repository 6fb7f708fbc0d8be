"""The order of a deal's phases after the second round (RULES §12.2): [nines games] →
[redeal] → [bids] → the standard play, each extra skipped when it is off or at 7:7, and the
one-decision-per-seat turns of the extras phases (§12.7)."""

from numba import njit

from skip_ai.kernel.state import H_CUR, param

from .layout import (
    P_CONTRACTS,
    P_NINES,
    P_REDEAL,
    PH_BID,
    PH_NINES,
    PH_PLAY,
    PH_REDEAL,
    SX_LEADER,
    SX_PHASE,
    SX_REDEALT,
    SX_TURN,
    extras_on,
)
from .seats import elder, seat_after


@njit(cache=True)
def after_second_round(s):
    """The phases after the second round, each skipped when off (§12.7)."""
    s[SX_TURN] = 0
    if param(s, P_NINES) and extras_on(s):
        s[SX_PHASE] = PH_NINES
    else:
        after_nines(s)
        return
    s[H_CUR] = elder(s)


@njit(cache=True)
def after_nines(s):
    s[SX_TURN] = 0
    s[H_CUR] = elder(s)
    if param(s, P_REDEAL) and extras_on(s) and not s[SX_REDEALT]:
        s[SX_PHASE] = PH_REDEAL
    else:
        after_redeal(s)


@njit(cache=True)
def after_redeal(s):
    s[SX_TURN] = 0
    s[H_CUR] = elder(s)
    if param(s, P_CONTRACTS) and extras_on(s):
        s[SX_PHASE] = PH_BID
    else:
        start_play(s)


@njit(cache=True)
def start_play(s):
    s[SX_PHASE] = PH_PLAY
    s[H_CUR] = elder(s)
    s[SX_LEADER] = elder(s)


@njit(cache=True)
def extras_turn_done(s):
    """The seat to move in an extras phase has acted: the next seat moves (False), or every
    seat has acted (True)."""
    s[SX_TURN] += 1
    if s[SX_TURN] < 4:
        s[H_CUR] = seat_after(elder(s), s[SX_TURN])
        return False
    return True
