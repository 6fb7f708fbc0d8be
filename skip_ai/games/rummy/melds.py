"""Rummy's melds and lay-offs (rules 5 and 6): the targets a card has on the table, the cards
of a meld action, and putting a meld or a lay-off on the table."""

from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.state import play_public

from .actions import ABOVE, BELOW, MELD_SEQ0, MELD_SET0, SET
from .deck import card_of, highest, rank_mask, seq_mask, seq_value, suit_values
from .layout import LOC_MELD, RM_FIT, RM_MELD, RM_MELD_N
from .turns import mark_down


@njit(cache=True, inline="always")
def targets(s, c):
    """Bitmask of the lay-off targets card ``c`` has on the table (bit t: SET, BELOW, ABOVE)."""
    return (
        ((s[RM_FIT + SET] >> c) & 1)
        | (((s[RM_FIT + BELOW] >> c) & 1) << 1)
        | (((s[RM_FIT + ABOVE] >> c) & 1) << 2)
    )


@njit(cache=True, inline="always")
def fits(s, c):
    return ((s[RM_FIT + SET] | s[RM_FIT + BELOW] | s[RM_FIT + ABOVE]) >> c) & 1


@njit(cache=True)
def meld_cards(a):
    """The card mask of meld action ``a``."""
    if a < MELD_SEQ0:
        rank, k = (a - MELD_SET0) // 5 + 2, (a - MELD_SET0) % 5
        m = rank_mask(rank)
        return m if k == 4 else m & ~bit(13 * k + rank - 2)
    suit, j = (a - MELD_SEQ0) // 66, (a - MELD_SEQ0) % 66
    lo = 1
    while j >= 12 - lo:  # lo has 12 - lo sequences (hi = lo+2 .. 13)
        j -= 12 - lo
        lo += 1
    return seq_mask(suit, lo, lo + 2 + j)


@njit(cache=True)
def meld(s, seat, a):
    m = meld_cards(a)
    x = m
    while x:
        play_public(s, lowest(x), LOC_MELD)
        x &= x - 1
    s[RM_MELD + s[RM_MELD_N]] = m
    s[RM_MELD_N] += 1
    if a < MELD_SEQ0:
        if popcount(m) == 3:
            rank = (a - MELD_SET0) // 5 + 2
            s[RM_FIT + SET] |= rank_mask(rank) & ~m
    else:
        suit = (a - MELD_SEQ0) // 66
        vals = suit_values(m, suit)
        lo, hi = lowest(vals), highest(vals)
        if lo >= 2:
            s[RM_FIT + BELOW] |= bit(card_of(suit, lo - 1))
        if hi <= 12:
            s[RM_FIT + ABOVE] |= bit(card_of(suit, hi + 1))
    mark_down(s, seat)


@njit(cache=True)
def layoff(s, seat, c, t):
    """Card ``c`` (in ``seat``'s hand) joins the meld of target ``t`` (rule 6)."""
    suit, v = c // 13, seq_value(c)
    if t == SET:
        anchor = lowest(rank_mask(c % 13 + 2) & ~bit(c))
    elif t == BELOW:
        anchor = card_of(suit, v + 1)
    else:
        anchor = card_of(suit, v - 1)
    for i in range(s[RM_MELD_N]):
        if (s[RM_MELD + i] >> anchor) & 1:
            s[RM_MELD + i] |= bit(c)
    s[RM_FIT + t] &= ~bit(c)
    if t == BELOW and v >= 2:
        s[RM_FIT + BELOW] |= bit(card_of(suit, v - 1))
    if t == ABOVE and v <= 12:
        s[RM_FIT + ABOVE] |= bit(card_of(suit, v + 1))
    play_public(s, c, LOC_MELD)
    mark_down(s, seat)
