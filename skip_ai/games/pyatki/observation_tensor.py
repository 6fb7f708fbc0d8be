"""Pyatki's observation tensor (697 floats) for player ``p``; relative seat k is seat
``(p + k) % n``.

``[0, 72)`` the common part (``kernel.state.write_common_observation``); ``[72, 629)`` the
exchange part (``kernel.attack.write_observation``); ``[629, 683)`` the trump card; ``683``
stock size / 52; ``[684, 690)`` 1 per relative seat out; ``[690, 696)`` its score
(n-1-place) / (n-1), Pyatki; ``696`` exchanges / ``max_exchanges``.
"""

from numba import njit

from skip_ai.kernel.attack import OBS_ATTACK
from skip_ai.kernel.attack import write_observation as write_attack_observation
from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import (
    DECK,
    H_PLAYERS,
    MAX_SEATS,
    NUM_CARDS,
    OBS_COMMON,
    param,
    write_common_observation,
)

from .layout import DEAL, P_MAX, PY_EXCHANGES, PY_PLACE, PY_STAGE, PY_TRUMP_CARD
from .seats import is_out

OBS_TRUMP = OBS_COMMON + OBS_ATTACK
OBS_STOCK = OBS_TRUMP + NUM_CARDS
OBS_OUT = OBS_STOCK + 1
OBS_SCORE = OBS_OUT + MAX_SEATS
OBS_EXCHANGES = OBS_SCORE + MAX_SEATS
OBS_SIZE = OBS_EXCHANGES + 1


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_attack_observation(s, p, out, OBS_COMMON)
    n = s[H_PLAYERS]
    if s[PY_TRUMP_CARD] >= 0:
        out[OBS_TRUMP + s[PY_TRUMP_CARD]] = 1.0
    out[OBS_STOCK] = popcount(s[DECK]) / 52.0 if s[PY_STAGE] != DEAL else 0.0
    for k in range(n):
        seat = (p + k) % n
        if is_out(s, seat):
            out[OBS_OUT + k] = 1.0
            out[OBS_SCORE + k] = (n - 1 - s[PY_PLACE + seat]) / (n - 1)
    out[OBS_EXCHANGES] = s[PY_EXCHANGES] / param(s, P_MAX)
