"""The observation tensor of Two Captains and Little Country.

``[0, 72)`` common part (``kernel.state``); ``[72, 342)`` field part
(``kernel.fields.write_observation``, own field first); then, at a pile's bottom card,
``[342, 396)`` its value / 42, ``[396, 450)`` married, ``[450, 504)`` child (of a marriage or
of pelicans), ``[504, 558)`` protected Queen; ``[558]`` consecutive passes / players. With
pelicans, 13 more: ``[559, 562)`` pelican 1..3 in the own hand, ``[562, 565)`` on the own field,
``[565, 568)`` on the other field; ``[568]`` / ``[569]`` the own team's pelican child may be
laid / is laid, ``[570]`` / ``[571]`` the same for the other team.
"""

from numba import njit

from skip_ai.kernel.bits import lowest
from skip_ai.kernel.fields import F_FLAGS, F_PASSES, F_PILES, F_SUM, LOC_FIELD, OBS_FIELDS
from skip_ai.kernel.fields import write_observation as write_field_observation
from skip_ai.kernel.state import (
    H_PLAYERS,
    LOC,
    NUM_CARDS,
    OBS_COMMON,
    PELICAN0,
    param,
    team_of,
    write_common_observation,
)

from .deck import PELICANS
from .layout import CHILD, CP_PELICAN, MARRIED, MAX_PILE, P_PELICANS, PROTECTED

OBS_SIZE = OBS_COMMON + OBS_FIELDS + 4 * NUM_CARDS + 1
OBS_PELICANS = 13
"""The pelicans' part of the observation, after ``OBS_SIZE`` (only with pelicans)."""


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_field_observation(s, p, out, OBS_COMMON, MAX_PILE)
    base = OBS_COMMON + OBS_FIELDS
    for team in range(2):
        piles = s[F_PILES + team] & ~PELICANS
        while piles:
            b = lowest(piles)
            piles &= piles - 1
            flags = s[F_FLAGS + b]
            out[base + b] = s[F_SUM + b] / 42.0
            out[base + 54 + b] = 1.0 if flags & MARRIED else 0.0
            out[base + 108 + b] = 1.0 if flags & CHILD else 0.0
            out[base + 162 + b] = 1.0 if flags & PROTECTED else 0.0
    out[base + 4 * NUM_CARDS] = s[F_PASSES] / s[H_PLAYERS]
    if param(s, P_PELICANS):
        _pelican_observation(s, p, out, OBS_SIZE)


@njit(cache=True)
def _pelican_observation(s, p, out, base):
    mine = team_of(s, p)
    for i in range(3):
        loc = s[LOC + PELICAN0 + i]
        out[base + i] = 1.0 if loc == p else 0.0
        out[base + 3 + i] = 1.0 if loc == LOC_FIELD + mine else 0.0
        out[base + 6 + i] = 1.0 if loc == LOC_FIELD + 1 - mine else 0.0
    for k in range(2):
        state = s[CP_PELICAN + (mine if k == 0 else 1 - mine)]
        out[base + 9 + 2 * k] = 1.0 if state == 1 else 0.0
        out[base + 10 + 2 * k] = 1.0 if state == 2 else 0.0
