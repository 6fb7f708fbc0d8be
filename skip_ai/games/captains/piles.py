"""Which card may go on or beat which pile, and the masks kept from the piles for the move
sampler (``layout``: ``CP_BEAT``, ``CP_ADDABLE``), recomputed by ``refresh`` at every pile
change.

Knowledge: a pass while holding cards proves the passer holds no card of his colour (LAY is
always possible with one), no pelican, and no card that could beat an opponent pile
(``playable_mask``); those cards go to his proved-absent set for the resampler.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest
from skip_ai.kernel.fields import F_FLAGS, F_PILES, F_SIZE, F_SUIT, F_SUM, F_TOP, value
from skip_ai.kernel.state import PELICAN0, param, unplaced_cards

from .deck import HIGH, JOKERS, KING, PELICANS, QUEEN, SUIT_CARDS, colour_mask, rank_of
from .layout import CHILD, CP_ADDABLE, CP_BEAT, MARRIED, MAX_PILE, P_LITTLE, PROTECTED


@njit(cache=True, inline="always")
def frozen(s, b):
    """A married King or Queen, a child or a pelican: never beaten, takes no ADD."""
    return b >= PELICAN0 or (s[F_FLAGS + b] & (MARRIED | CHILD)) != 0


@njit(cache=True, inline="always")
def can_add(s, c, b):
    """May card ``c`` (of the pile's colour) go on own pile ``b``?"""
    if s[F_SIZE + b] >= MAX_PILE or frozen(s, b):
        return False
    suit = s[F_SUIT + b]
    # a joker goes on any pile of its colour; a joker-only pile takes any card of its colour
    return c >= 52 or suit < 0 or suit == c // 13


@njit(cache=True, inline="always")
def can_beat(s, c, b):
    """May card ``c`` (of the pile's colour) beat opponent pile ``b``?"""
    if param(s, P_LITTLE) and (frozen(s, b) or (s[F_FLAGS + b] & PROTECTED) != 0):
        return False
    pile_value = s[F_SUM + b]
    if c >= 52:
        return pile_value < 11  # a joker beats a pile of its colour worth less than 11
    suit = s[F_SUIT + b]
    if suit < 0:
        return value(c) > 11  # a joker-only pile falls to Q, K or A of its colour
    if suit != c // 13 or value(c) <= pile_value:
        return False
    top = s[F_TOP + b]
    king_on_queen = rank_of(c) == KING and s[F_SIZE + b] == 1 and top < 52 and rank_of(top) == QUEEN
    return not (param(s, P_LITTLE) and king_on_queen)


@njit(cache=True, inline="always")
def beaters(total, suit, no_king):
    """The cards of every colour that beat a pile worth ``total`` of ``suit`` (-1: jokers
    only) by their value: the higher cards of its suit, Q, K or A for a joker-only pile, a
    joker below 11; without the King when ``no_king`` (a lone Queen in Little Country). The
    cards of the pile's colour among them beat it unless it is frozen or protected."""
    if suit < 0:
        m = HIGH  # a joker-only pile falls to Q, K or A
    else:
        m = (SUIT_CARDS & ~((np.int64(1) << (total - 1)) - 1)) << (13 * suit)
        if no_king:
            m &= ~bit(13 * suit + KING - 2)  # the King never beats a Queen
    if total < 11:
        m |= JOKERS
    return m


@njit(cache=True, inline="always")
def _beaten_by(s, b, team):
    """The cards that may beat pile ``b`` on ``team``'s field now (``can_beat``), all of the
    field's colour."""
    little = param(s, P_LITTLE)
    if little and (frozen(s, b) or (s[F_FLAGS + b] & PROTECTED) != 0):
        return np.int64(0)
    top = s[F_TOP + b]
    lone_queen = little != 0 and s[F_SIZE + b] == 1 and top < 52 and rank_of(top) == QUEEN
    return beaters(s[F_SUM + b], s[F_SUIT + b], lone_queen) & colour_mask(team)


@njit(cache=True, inline="always")
def set_beat(s, b, new):
    """Pile ``b`` is now beaten by the cards of ``new``."""
    s[CP_BEAT + b] = new


@njit(cache=True, inline="always")
def refresh(s, b, team):
    """Pile ``b`` on ``team``'s field changed: recompute its derived masks."""
    set_beat(s, b, _beaten_by(s, b, team))
    if s[F_SIZE + b] < MAX_PILE and not frozen(s, b):
        s[CP_ADDABLE] |= bit(b)
    else:
        s[CP_ADDABLE] &= ~bit(b)


@njit(cache=True, inline="always")
def playable_mask(s, team):
    """The cards still in play that would give ``team``'s player a move now: his colour (LAY),
    the pelicans (LAY_PELICAN) and the cards that could beat an opponent pile. A forced pass
    proves he holds none."""
    mask = colour_mask(team) | PELICANS
    piles = s[F_PILES + 1 - team]
    while piles:
        mask |= s[CP_BEAT + lowest(piles)]
        piles &= piles - 1
    return mask & unplaced_cards(s)
