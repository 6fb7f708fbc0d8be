"""Who is still in, and who sits out an exchange (Pyatki pairs, §2.4)."""

from numba import njit

from skip_ai.kernel.state import H_PLAYERS, HAND

from .layout import PY_OUT


@njit(cache=True, inline="always")
def is_out(s, seat):
    return (s[PY_OUT] >> seat) & 1 == 1


@njit(cache=True, inline="always")
def next_in(s, seat):
    """The first seat still in clockwise after ``seat``."""
    q = seat
    for _ in range(s[H_PLAYERS]):
        q = q + 1 if q + 1 < s[H_PLAYERS] else 0
        if not is_out(s, q):
            return q
    return -1


@njit(cache=True, inline="always")
def team_empty(s, team):
    return (s[HAND + 2 * team] | s[HAND + 2 * team + 1]) == 0


@njit(cache=True, inline="always")
def sat_out(s, team, busy):
    """Pairs §2.4: the member of ``team`` who did not take part in the last exchange (seats
    in ``busy``) if he holds cards, else the other member."""
    a, b = 2 * team, 2 * team + 1
    fresh, other = (b, a) if (busy >> a) & 1 else (a, b)
    return fresh if s[HAND + fresh] != 0 else other
