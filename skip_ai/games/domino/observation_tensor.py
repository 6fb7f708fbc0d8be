"""Domino's observation tensor (328 floats) for player ``p``: ``[0, 72)`` the common part
(``kernel.state.write_common_observation``); ``[72, 300)`` the trick part
(``kernel.tricks.write_observation``: table cards, cards taken by each team, the last card,
who passed since it, who placed it); ``[300, 328)`` the grid: ``300 + 7 * suit + d + 3`` is 1
when ``suit`` has a row ``d`` rows above the last card's row (``d`` in -3..3; ``d = 0`` is the
last card's own suit). With the table cards this is the whole grid, relative to the last card.
"""

from numba import njit

from skip_ai.kernel.state import OBS_COMMON, write_common_observation
from skip_ai.kernel.tricks import OBS_TRICKS, TK_LAST_CARD
from skip_ai.kernel.tricks import write_observation as write_trick_observation

from .grid import DM_ROW, NO_ROW, REACH

OBS_GRID = OBS_COMMON + OBS_TRICKS
OBS_SIZE = OBS_GRID + 4 * (2 * REACH + 1)


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_trick_observation(s, p, out, OBS_COMMON)
    last = s[TK_LAST_CARD]
    if last < 0:
        return
    row = s[DM_ROW + last // 13]
    for suit in range(4):
        if s[DM_ROW + suit] != NO_ROW:
            out[OBS_GRID + (2 * REACH + 1) * suit + s[DM_ROW + suit] - row + REACH] = 1.0
