"""Little Country's own rules (RULES §4) on top of Two Captains: marriage, the child, the
protected just-laid Queen (the King never beating a Queen is ``piles.can_beat``'s), and the
pelicans with their child (§4.6)."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.fields import F_FLAGS, F_PASSES, F_PILES, F_SIZE, colour_of, lay_pile
from skip_ai.kernel.state import param

from .deck import KING, PELICANS, QUEEN, RANKS_2_10, SUIT_CARDS, rank_of
from .layout import (
    CHILD,
    CP_CHILDREN,
    CP_GUARDED,
    CP_MARRIAGE,
    CP_PELICAN,
    GUARD_SHIFT,
    MARRIED,
    P_LITTLE,
    PELICAN_CHILD,
    PROTECTED,
)
from .piles import refresh


@njit(cache=True, inline="always")
def child_suits(s):
    """Mask of the cards of every suit whose marriage still awaits its child."""
    m = np.int64(0)
    if param(s, P_LITTLE):
        for suit in range(4):
            if s[CP_MARRIAGE + suit] == 1:
                m |= SUIT_CARDS << (13 * suit)
    return m


@njit(cache=True, inline="always")
def can_bear_child(s, c, team):
    """May card ``c`` be laid as the child of its suit's marriage on ``team``'s field?"""
    if not param(s, P_LITTLE) or c >= 52 or colour_of(c) != team:
        return False
    return s[CP_MARRIAGE + c // 13] == 1 and 2 <= rank_of(c) <= 10


@njit(cache=True, inline="always")
def pelican_children(s, own, team):
    """The cards of ``own`` that may be laid as ``team``'s pelican child now."""
    return own & RANKS_2_10 if s[CP_PELICAN + team] == 1 else np.int64(0)


@njit(cache=True, inline="always")
def single_on_field(s, c, team):
    """Is card ``c`` a single-card pile on ``team``'s field?"""
    return (s[F_PILES + team] >> c) & 1 and s[F_SIZE + c] == 1


@njit(cache=True, inline="always")
def wed_or_guard(s, cur, team, c):
    """Card ``c``, laid by ``cur``, has just started a pile on ``team``'s field: a King or
    Queen beside a single-card pile of its spouse marries it; a Queen is guarded until her
    layer's next turn (protected unless married at once)."""
    rank = rank_of(c)
    married = False
    if rank == QUEEN or rank == KING:
        spouse = c + 1 if rank == QUEEN else c - 1
        if single_on_field(s, spouse, team):
            s[F_FLAGS + c] |= MARRIED
            s[F_FLAGS + spouse] |= MARRIED
            s[CP_MARRIAGE + c // 13] = 1
            s[CP_CHILDREN] |= (SUIT_CARDS << (13 * (c // 13))) & RANKS_2_10
            married = True
            refresh(s, spouse, team)
    if rank == QUEEN:
        # a married Queen needs no protection, but the end of it still restarts the
        # count of passes at her layer's next turn (RULES §4.4)
        s[F_FLAGS + c] |= (0 if married else PROTECTED) | ((cur + 1) << GUARD_SHIFT)
        s[CP_GUARDED] |= bit(c)


@njit(cache=True, inline="always")
def lay_child(s, team, c):
    """Card ``c`` is laid as the child of its suit's marriage."""
    lay_pile(s, c, team)
    s[F_FLAGS + c] |= CHILD
    s[CP_MARRIAGE + c // 13] = 2
    s[CP_CHILDREN] &= ~(SUIT_CARDS << (13 * (c // 13)))
    refresh(s, c, team)


@njit(cache=True, inline="always")
def lay_pelican(s, team, c):
    """Pelican ``c`` starts a pile on ``team``'s field; the second one opens the team's
    pelican child (once per game)."""
    lay_pile(s, c, team)
    refresh(s, c, team)
    if s[CP_PELICAN + team] == 0 and popcount(s[F_PILES + team] & PELICANS) >= 2:
        s[CP_PELICAN + team] = 1


@njit(cache=True, inline="always")
def lay_pelican_child(s, team, c):
    """Card ``c`` is laid as ``team``'s pelican child."""
    lay_pile(s, c, team)
    s[F_FLAGS + c] |= CHILD | PELICAN_CHILD
    s[CP_PELICAN + team] = 2
    refresh(s, c, team)


@njit(cache=True, inline="always")
def release_guards(s, seat):
    """``seat``'s turn begins: the Queens he laid lose their protection (a married one had
    none to lose); if he laid any, the count of consecutive passes starts again (RULES §4.4)."""
    released = False
    piles = s[CP_GUARDED]
    while piles:
        b = lowest(piles)
        piles &= piles - 1
        flags = s[F_FLAGS + b]
        if (flags >> GUARD_SHIFT) == seat + 1:
            s[F_FLAGS + b] = flags & ~PROTECTED & ((1 << GUARD_SHIFT) - 1)
            s[CP_GUARDED] &= ~bit(b)
            refresh(s, b, 0 if (s[F_PILES] >> b) & 1 else 1)
            released = True
    if released:
        s[F_PASSES] = 0
