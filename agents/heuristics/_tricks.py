"""Rules-of-thumb helpers shared by the trick-stream games (Domino, Brook, Fours, Guess).

What a seat may know in these games: its own hand, every card played (table, tricks taken),
hand sizes and the cards public passes proved a seat lacks (``NOT_HOLD``). Everything else —
other hands, the unseen ``remove4`` pile — is one pool of *hidden* cards, and the helpers
below reason only about that pool, so a re-deal of hidden cards never changes their answers.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, popcount
from skip_ai.kernel.state import H_PLAYERS, HAND, NOT_HOLD, NUM_CARDS, hidden_from, team_of
from skip_ai.kernel.tricks import TK_LAST


@njit(cache=True, inline="always")
def hidden_cards(s, p):
    """Mask of the cards whose place seat ``p`` does not know."""
    m = np.int64(0)
    for c in range(NUM_CARDS):
        if hidden_from(s, c, p):
            m |= bit(c)
    return m


@njit(cache=True, inline="always")
def opponents_may_hold(s, p, hidden):
    """The hidden cards that some opponent of ``p`` still holding cards may hold (not proved
    to lack by a public pass)."""
    m = np.int64(0)
    mine = team_of(s, p)
    for q in range(s[H_PLAYERS]):
        if team_of(s, q) != mine and s[HAND + q] != 0:
            m |= hidden & ~s[NOT_HOLD + q]
    return m


@njit(cache=True, inline="always")
def holds_one_chance(s, q, cards, hidden):
    """Rough chance that seat ``q`` holds at least one of ``cards`` (hidden from the mover):
    each hidden card ``q`` may hold is in its hand independently with probability
    hand size / hidden cards."""
    pool = popcount(hidden)
    m = popcount(cards & hidden & ~s[NOT_HOLD + q])
    if pool == 0 or m == 0:
        return 0.0
    share = min(1.0, popcount(s[HAND + q]) / pool)
    return 1.0 - (1.0 - share) ** m


@njit(cache=True, inline="always")
def table_is_ours(s, p):
    """Did a member of ``p``'s team put down the last card on the table?"""
    last = s[TK_LAST]
    return last >= 0 and team_of(s, last) == team_of(s, p)
