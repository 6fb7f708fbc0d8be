"""The public facts a resampled world must respect (RULES §12.10) beyond the plain "cannot
hold" masks (``NOT_HOLD``, ``SX_NOT1``): E's named suit, the offers beaten or not, ``NINES``
and the announced counts, three / four nines, the four-nines result, the pictures and
catchable cards that bids and discards proved. Each is checked on a world's cards."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, popcount
from skip_ai.kernel.state import (
    HAND,
    KNOWN,
    LOC,
    LOC_UNSEEN,
    NUM_CARDS,
    captain,
    partner_of,
)

from .actions import FOUR_NINES, THREE_NINES
from .deck import ALL_NINES, PICTURES, catchable, has_suits_of, suit_mask
from .layout import (
    SX_ASKED,
    SX_CATCHABLE,
    SX_COUNT,
    SX_FOUR_ALL,
    SX_FOUR_OPP,
    SX_NAMED,
    SX_OFFER_BEATEN,
    SX_OFFER_MASK,
    SX_OFFER_TO,
    SX_PICS_MIN,
    SX_PLAYED,
    SX_R1,
    SX_REVEALS,
    SX_TEAM_GAME,
    SX_USED,
)
from .seats import elder


@njit(cache=True, inline="always")
def owned(s, q):
    """Cards ``q`` holds or held in this deal: hand, played and his own face-down discard."""
    m = s[HAND + q] | s[SX_PLAYED + q]
    for c in range(NUM_CARDS):
        if s[LOC + c] == LOC_UNSEEN and s[KNOWN + c] == 1 << q:
            m |= bit(c)
    return m


@njit(cache=True)
def revealed_mask(s, q):
    """E's revealed cards (second-round cards he held at the offers). Kept as a mask of
    their own: other cards in E's hand may be public too (one the cut showed, a marriage
    half), and those were not held at the offers."""
    return s[SX_REVEALS] if q == elder(s) else np.int64(0)


@njit(cache=True)
def seat_facts_hold(s, q):
    """The public facts about the cards seat ``q`` holds or held in this deal that are not a
    plain "cannot hold" (``NOT_HOLD``, ``SX_NOT1``), §12.10. They read ``q``'s cards only, so
    a world can be checked seat by seat while it is being built."""
    own = owned(s, q)
    named = s[SX_NAMED]
    if q == elder(s) and named >= 0 and (own & s[SX_R1] & suit_mask(named)) == 0:
        return False
    if s[SX_PICS_MIN + q] and popcount(own & PICTURES) < s[SX_PICS_MIN + q]:
        return False
    if s[SX_CATCHABLE + q]:
        kept = own
        if s[SX_CATCHABLE + q] == 2:  # after his discard he kept a catchable card
            kept = s[HAND + q] | s[SX_PLAYED + q]
        if (catchable(own) & kept) == 0:
            return False
    unused = popcount(own & ALL_NINES & ~s[SX_USED])
    if s[SX_ASKED + q] and unused < 2:
        return False
    if s[SX_COUNT + q] >= 0 and unused != s[SX_COUNT + q]:
        return False
    for o in range(4):  # an offer to q that he did not beat: he lacked one of its suits
        if s[SX_OFFER_TO + o] == q and s[SX_OFFER_BEATEN + o] == 0:
            first = own & (s[SX_R1] | revealed_mask(s, q))
            if has_suits_of(first, s[SX_OFFER_MASK + o]):
                return False
    if s[SX_FOUR_OPP] == q and has_suits_of(own, ALL_NINES) != (s[SX_FOUR_ALL] == 1):
        return False
    return True


@njit(cache=True)
def team_facts_hold(s, t):
    """Three / four nines: team ``t`` held exactly that many unused nines."""
    g = s[SX_TEAM_GAME + t]
    if g == THREE_NINES or g == FOUR_NINES:
        q = captain(s, t)
        both = owned(s, q) | owned(s, partner_of(s, q))
        return popcount(both & ALL_NINES & ~s[SX_USED]) == (3 if g == THREE_NINES else 4)
    return True


@njit(cache=True)
def facts_hold(s):
    """Every public fact that is not a plain "cannot hold": checked on a resampled world."""
    for q in range(4):
        if not seat_facts_hold(s, q):
            return False
    return team_facts_hold(s, 0) and team_facts_hold(s, 1)


@njit(cache=True)
def counts_may_fit(w, left, unplaced):
    """Can the counted facts still hold once the slots left are filled? The search's bound,
    so that a choice that starves another seat fails at once: each seat's proved pictures
    (bids) and unused nines (``NINES``, the announced count) must fit in his slots left, and
    all of them among the ``unplaced`` cards, which the slots left (``left[q]`` per seat,
    ``left[4]`` nobody's) must also be able to take."""
    for k in range(2):
        cat = PICTURES if k == 0 else ALL_NINES & ~w[SX_USED]
        free = popcount(unplaced & cat)
        need = 0
        room = left[4]
        for q in range(4):
            have = popcount(owned(w, q) & cat)
            lo, hi = w[SX_PICS_MIN + q], 6
            if k == 1:
                lo, hi = (2 if w[SX_ASKED + q] else 0), 4
                if w[SX_COUNT + q] >= 0:
                    lo, hi = w[SX_COUNT + q], w[SX_COUNT + q]
            if have > hi or have + left[q] < lo:
                return False
            need += max(0, lo - have)
            room += min(left[q], hi - have)
        if need > free or free > room:
            return False
    return True
