"""Pyatki's outcome: returns per seat and scores (per seat, or per team in the pairs game)."""

from numba import njit

from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import H_PLAYERS, HAND, param, team_of

from .layout import P_PAIRS, PY_NOUT, PY_PLACE, PY_WINNER


@njit(cache=True)
def returns(s, out):
    n = s[H_PLAYERS]
    if param(s, P_PAIRS):
        w = s[PY_WINNER]
        sign = 0.0 if w < 0 else (1.0 if w == 0 else -1.0)
        for seat in range(n):
            out[seat] = sign if team_of(s, seat) == 0 else -sign
        return
    # place p is worth 1 - 2p/(n-1); the players still in share the places k..n-1 that are
    # left (their mean): -1/(n-1) each without ``places``, 0 for all when nobody is out
    k = s[PY_NOUT]
    rest = 1.0 - (k + n - 1) / (n - 1)
    for seat in range(n):
        p = s[PY_PLACE + seat]
        out[seat] = 1.0 - 2.0 * p / (n - 1) if p >= 0 else rest


@njit(cache=True)
def scores(s, out):
    """Pyatki: n-1-place per seat (0 while in); pairs: minus the cards each team holds."""
    n = s[H_PLAYERS]
    if param(s, P_PAIRS):
        for team in range(2):
            out[team] = -popcount(s[HAND + 2 * team] | s[HAND + 2 * team + 1])
        return
    for seat in range(n):
        p = s[PY_PLACE + seat]
        out[seat] = n - 1 - p if p >= 0 else 0.0
