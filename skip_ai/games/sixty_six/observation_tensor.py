"""Sixty-six's observation tensor (``OBS_SIZE`` floats) for player p; relative seat k is seat
``(p + k) % 4``.

``[0, 72)`` the common part (``kernel.state.write_common_observation``); then ``[72, 126)``
cards on the table; ``[126, 180)`` taken by p's team; ``[180, 234)`` taken by the other team;
``[234, 288)`` cards of other hands known to p (shown); ``[288, 292)`` the trump suit;
``[292, 296)`` the dealer's relative seat; ``[296, 313)`` the phase one-hot; ``313, 314``
board of p's team / other team / 8; ``315, 316`` points / 120; ``317, 318`` marriages / 120;
``319, 320`` tricks / 6; ``[321, 325)`` the declarer's relative seat (contracts); ``[325,
329)`` the contract; ``[329, 333)`` the highest bid; ``333`` redealt deal; ``334`` no more
extras; ``[335, 497)`` per relative seat 1, 2, 3 the cards public events prove it does not hold
(``NOT_HOLD``: a suit not followed, a trump not played, what a contract showed), 54 each.

Version 2 (``observation_version``) added the last part: a seat's voids are what a player
knows and a model needs (version 1 could not tell them).
"""

from numba import njit

from skip_ai.kernel.bits import lowest
from skip_ai.kernel.state import (
    LOC,
    LOC_TABLE,
    NOT_HOLD,
    NUM_CARDS,
    OBS_COMMON,
    hidden_from,
    team_of,
    write_common_observation,
)
from skip_ai.kernel.tricks import LOC_TAKEN

from .layout import (
    NUM_PHASES,
    SX_BID,
    SX_BOARD,
    SX_CONTRACT,
    SX_DEALER,
    SX_DECL,
    SX_MARR,
    SX_NOX,
    SX_PHASE,
    SX_POINTS,
    SX_REDEALT,
    SX_TRICKS,
    SX_TRUMP,
)

OBS_GAME = 54 * 4 + 4 + 4 + NUM_PHASES + 8 + 4 + 4 + 4 + 2 + 3 * NUM_CARDS
OBS_SIZE = OBS_COMMON + OBS_GAME


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    b = OBS_COMMON
    mine = team_of(s, p)
    for c in range(NUM_CARDS):
        loc = s[LOC + c]
        if loc == LOC_TABLE:
            out[b + c] = 1.0
        elif loc == LOC_TAKEN + mine:
            out[b + 54 + c] = 1.0
        elif loc == LOC_TAKEN + 1 - mine:
            out[b + 108 + c] = 1.0
        elif 0 <= loc < 4 and loc != p and not hidden_from(s, c, p):
            out[b + 162 + c] = 1.0
    b += 216
    if s[SX_TRUMP] >= 0:
        out[b + s[SX_TRUMP]] = 1.0
    out[b + 4 + ((s[SX_DEALER] - p) & 3)] = 1.0
    b += 8
    out[b + s[SX_PHASE]] = 1.0
    b += NUM_PHASES
    for k in range(2):
        t = mine if k == 0 else 1 - mine
        out[b + k] = s[SX_BOARD + t] / 8.0
        out[b + 2 + k] = s[SX_POINTS + t] / 120.0
        out[b + 4 + k] = s[SX_MARR + t] / 120.0
        out[b + 6 + k] = s[SX_TRICKS + t] / 6.0
    b += 8
    if s[SX_DECL] >= 0:
        out[b + ((s[SX_DECL] - p) & 3)] = 1.0
        out[b + 4 + s[SX_CONTRACT]] = 1.0
    if s[SX_BID] >= 0:
        out[b + 8 + s[SX_BID]] = 1.0
    b += 12
    out[b] = float(s[SX_REDEALT])
    out[b + 1] = float(s[SX_NOX])
    b += 2
    for k in range(1, 4):
        m = s[NOT_HOLD + ((p + k) & 3)]
        while m:
            out[b + lowest(m)] = 1.0
            m &= m - 1
        b += NUM_CARDS
