"""The outcome of Two Captains and Little Country: more piles wins, then the higher total value
of the piles, else a draw (±1 per team); the scores are the piles per team, the ``komi`` lever
added to Red's."""

from numba import njit

from skip_ai.kernel.fields import field_count, field_sum
from skip_ai.kernel.state import H_PLAYERS, param, team_of

from .layout import P_KOMI


@njit(cache=True)
def scores(s, out):
    out[0] = field_count(s, 0) + param(s, P_KOMI)
    out[1] = field_count(s, 1)


@njit(cache=True)
def returns(s, out):
    # the komi counts as piles: where it evens the piles out, the piles' value decides (§3.4)
    d = field_count(s, 0) + param(s, P_KOMI) - field_count(s, 1)
    if d == 0:
        d = field_sum(s, 0) - field_sum(s, 1)
    sign = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
    for seat in range(s[H_PLAYERS]):
        out[seat] = sign if team_of(s, seat) == 0 else -sign
