"""Tricks, shared by the standard play and the contracts (RULES §12.3, §12.7.5.4): what may
be added to the trick on the table, who plays next, who wins it, and taking it."""

from numba import njit

from skip_ai.kernel.bits import lowest
from skip_ai.kernel.state import HAND, LOC
from skip_ai.kernel.tricks import LOC_TAKEN, TK_TABLE, clear_table

from .deck import beats, points_of, suit_mask
from .layout import (
    PH_CPLAY,
    SX_DECL,
    SX_LEADER,
    SX_NSEQ,
    SX_PHASE,
    SX_POINTS,
    SX_SEQ,
    SX_TRICKS,
    SX_TRUMP,
)
from .seats import seat_after


@njit(cache=True)
def playable(s, cur):
    """Cards ``cur`` may add to the trick on the table: follow suit, else trump (standard
    play), else anything (§12.3.2, §12.7.5.4)."""
    held = s[HAND + cur]
    led = s[SX_SEQ] // 13
    m = held & suit_mask(led)
    if m:
        return m
    tr = s[SX_TRUMP]
    if tr >= 0:
        m = held & suit_mask(tr)
        if m:
            return m
    return held


@njit(cache=True)
def next_player(s, cur):
    """The seat after ``cur`` in the trick on the table."""
    if s[SX_PHASE] == PH_CPLAY:  # X, X+1, X+3
        x = s[SX_DECL]
        return seat_after(x, 1) if cur == x else seat_after(x, 3)
    return seat_after(cur, 1)


@njit(cache=True)
def trick_winner(s, size):
    """The seat whose card wins the trick of ``size`` cards on the table."""
    best = 0
    for i in range(1, size):
        if beats(s[SX_SEQ + i], s[SX_SEQ + best], s[SX_TRUMP]):
            best = i
    leader = s[SX_LEADER]
    if s[SX_PHASE] == PH_CPLAY:
        return leader if best == 0 else seat_after(leader, 2 * best - 1)
    return seat_after(leader, best)


@njit(cache=True)
def take(s, t):
    """Team ``t`` takes the trick on the table: its cards and their points."""
    m = s[TK_TABLE]
    s[SX_POINTS + t] += points_of(m)
    s[SX_TRICKS + t] += 1
    while m:
        c = lowest(m)
        m &= m - 1
        s[LOC + c] = LOC_TAKEN + t
    clear_table(s)
    s[SX_NSEQ] = 0
