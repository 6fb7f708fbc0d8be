"""Rummy's observation tensor (772 floats) for player ``p`` (relative seat k = seat
(p + k) % n).

``[0, 72)`` the common part (``kernel.state.write_common_observation``); ``[72, 124)`` per
pile card its position from the bottom (i+1)/52; ``[124, 176)`` 1 at the pile's top card;
``[176, 228)`` 1 per card in a meld; ``[228, 384)`` 1 per card with lay-off target t (SET,
BELOW, ABOVE; 52 each); ``[384, 436)`` per card of a turned-over stock its place in the draw
order (j+1)/52; ``[436, 748)`` 1 per card publicly known in relative seat k's hand (52 each);
``[748, 757)`` the phase one-hot; ``[757, 760)`` stock size / 52, pile size / 52, turns /
max_turns; ``[760, 766)`` 1 where relative seat k has put cards on the table; ``[766, 772)``
1 at the relative seat whose discard is offered in a claim window.
"""

from numba import njit

from skip_ai.kernel.state import (
    H_PLAYERS,
    KNOWN,
    LOC,
    MAX_SEATS,
    OBS_COMMON,
    all_seats,
    param,
    write_common_observation,
)

from .layout import (
    ASK,
    LOC_MELD,
    NUM_PHASES,
    P_MAX_TURNS,
    RM_DISCARDER,
    RM_DOWN,
    RM_FIT,
    RM_PHASE,
    RM_PILE,
    RM_PILE_N,
    RM_STOCK,
    RM_STOCK_N,
    RM_STOCK_POS,
    RM_TURNS,
)
from .turns import stock_size

OBS_PILE = OBS_COMMON
OBS_TOP = OBS_PILE + 52
OBS_TABLE = OBS_TOP + 52
OBS_FIT = OBS_TABLE + 52
OBS_STOCK = OBS_FIT + 3 * 52
OBS_KNOWN = OBS_STOCK + 52
OBS_PHASE = OBS_KNOWN + MAX_SEATS * 52
OBS_SIZES = OBS_PHASE + NUM_PHASES
OBS_DOWN = OBS_SIZES + 3
OBS_DISCARDER = OBS_DOWN + MAX_SEATS
OBS_SIZE = OBS_DISCARDER + MAX_SEATS


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    n = s[H_PLAYERS]
    for i in range(s[RM_PILE_N]):
        out[OBS_PILE + s[RM_PILE + i]] = (i + 1) / 52.0
    if s[RM_PILE_N] > 0:
        out[OBS_TOP + s[RM_PILE + s[RM_PILE_N] - 1]] = 1.0
    for j in range(s[RM_STOCK_POS], s[RM_STOCK_N]):
        out[OBS_STOCK + s[RM_STOCK + j]] = (j - s[RM_STOCK_POS] + 1) / 52.0
    everyone = all_seats(s)
    for c in range(52):
        loc = s[LOC + c]
        if loc == LOC_MELD:
            out[OBS_TABLE + c] = 1.0
        elif 0 <= loc < MAX_SEATS and s[KNOWN + c] == everyone:
            out[OBS_KNOWN + 52 * ((loc - p) % n) + c] = 1.0
        for t in range(3):
            if (s[RM_FIT + t] >> c) & 1:
                out[OBS_FIT + 52 * t + c] = 1.0
    out[OBS_PHASE + s[RM_PHASE]] = 1.0
    out[OBS_SIZES] = stock_size(s) / 52.0
    out[OBS_SIZES + 1] = s[RM_PILE_N] / 52.0
    out[OBS_SIZES + 2] = s[RM_TURNS] / param(s, P_MAX_TURNS)
    for q in range(n):
        if s[RM_DOWN + q]:
            out[OBS_DOWN + (q - p) % n] = 1.0
    if s[RM_PHASE] == ASK:
        out[OBS_DISCARDER + (s[RM_DISCARDER] - p) % n] = 1.0
