"""Who sits where in Sixty-six for four (RULES §12): seats clockwise, partners alternate.

The opponent on the left of seat p is ``seat_after(p, 1)``, the one on his right
``seat_after(p, 3)``; the elder hand E sits after the dealer. Teams and partners come from the
state's ``H_TEAMS`` (``kernel.state.team_of``, ``partner_of``), which ``init`` sets to
``PARTNERS_ALTERNATE``.
"""

from numba import njit

from .layout import SX_DEALER

PARTNERS_ALTERNATE = 0b1010
"""``H_TEAMS``: team 1 is seats 1 and 3, so the team of seat s is s mod 2."""


@njit(cache=True, inline="always")
def seat_after(seat, k):
    """The seat ``k`` places clockwise after ``seat``."""
    return (seat + k) & 3


@njit(cache=True, inline="always")
def elder(s):
    """The elder hand E, after the dealer: he names the trump and leads."""
    return seat_after(s[SX_DEALER], 1)
