"""What a Chains player knows, as the observation tensor.

Observation tensor (346 floats) for player ``p``: ``[0, 72)`` the common part
(``kernel.state.write_common_observation``); ``[72, 126)`` 1 per card on the table;
``[126, 180)`` / ``[180, 234)`` its row / column offset dr / (N-1), dc / (N-1) from the first
card; ``[234, 238)`` the bounding box (top, bottom, left, right offsets / (N-1)); ``[238, 292)``
1 per card of p's hand drawn from the opposite seat (known to it); ``[292, 346)`` 1 per card
the opposite seat drew from p and still holds.
"""

from numba import njit

from skip_ai.kernel.state import (
    H_PLAYERS,
    KNOWN,
    LOC,
    NUM_CARDS,
    OBS_COMMON,
    write_common_observation,
)

from .layout import CH_BOX, CH_CELL, CH_PLACED, columns_n, grid_width

OBS_TABLE = OBS_COMMON
OBS_ROW = OBS_TABLE + NUM_CARDS
OBS_COL = OBS_ROW + NUM_CARDS
OBS_BOX = OBS_COL + NUM_CARDS
OBS_DRAWN = OBS_BOX + 4
OBS_GIVEN = OBS_DRAWN + NUM_CARDS
OBS_SIZE = OBS_GIVEN + NUM_CARDS


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    n, w = columns_n(s), grid_width(s)
    scale = 1.0 / (n - 1)
    for c in range(NUM_CARDS):
        cell = s[CH_CELL + c]
        if cell >= 0:
            out[OBS_TABLE + c] = 1.0
            out[OBS_ROW + c] = (cell // w - (n - 1)) * scale
            out[OBS_COL + c] = (cell % w - (n - 1)) * scale
    if s[CH_PLACED] > 0:
        for i in range(4):
            out[OBS_BOX + i] = (s[CH_BOX + i] - (n - 1)) * scale
    opposite = s[H_PLAYERS] - 1 - p
    for c in range(NUM_CARDS):
        if (s[KNOWN + c] >> opposite) & 1 and s[LOC + c] == p:
            out[OBS_DRAWN + c] = 1.0
        if (s[KNOWN + c] >> p) & 1 and s[LOC + c] == opposite:
            out[OBS_GIVEN + c] = 1.0
