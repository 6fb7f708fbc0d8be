"""Who sits where in Sixty-six for four (RULES §12): seats clockwise, partners alternate.

The opponent on the left of seat p is ``seat_after(p, 1)``, the partner ``seat_after(p, 2)``,
the opponent on the right ``seat_after(p, 3)``; the elder hand E sits after the dealer.
"""

from numba import njit

from .layout import SX_DEALER


@njit(cache=True, inline="always")
def team(seat):
    return seat & 1


@njit(cache=True, inline="always")
def seat_after(seat, k):
    return (seat + k) & 3


@njit(cache=True, inline="always")
def elder(s):
    return seat_after(s[SX_DEALER], 1)
