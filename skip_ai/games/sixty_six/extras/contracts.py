"""Contracts (RULES §12.7.5): one round of bids (five pictures, six pictures, pyatak, six),
then the highest bid is played instead of the standard play: the declarer X against X+1 and
X+3, no trumps, discards for five pictures and pyatak, X leading every trick."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.state import (
    H_CUR,
    HAND,
    KNOWN,
    LOC,
    LOC_UNSEEN,
    NOT_HOLD,
    all_seats,
    team_of,
)
from skip_ai.kernel.tricks import TK_TABLE

from ..actions import BID0, CONTRACT_WORTH, FIVE_PICTURES, PASS, PYATAK, SIX, SIX_PICTURES
from ..deck import FULL_DECK, PICTURES, catchable
from ..layout import (
    PH_CPLAY,
    PH_DISCARD,
    R_CONTRACT,
    R_SIX_SHOWN,
    SX_BID,
    SX_BIDDER,
    SX_CATCHABLE,
    SX_CONTRACT,
    SX_DECL,
    SX_LEADER,
    SX_PHASE,
    SX_PICS_MIN,
    SX_PLAYED,
    SX_SEQ,
    SX_TRUMP,
    SX_TURN,
    show,
)
from ..phases import extras_turn_done, start_play
from ..scoring import score_and_end_deal
from ..seats import elder, seat_after
from ..tricks import playable, take, trick_winner


@njit(cache=True)
def bids_legal(s, cur):
    """PASS, and every bid ``cur`` may make (as bits ``a - 52``)."""
    one = np.int64(1)
    extra = one << (PASS - 52)
    for k in range(4):
        if bid_allowed(s, cur, k):
            extra |= one << (BID0 - 52 + k)
    return extra


@njit(cache=True)
def qualifies(six, k):
    """Does a six-card hand qualify for contract ``k`` (§12.7.5.1)?"""
    if k == FIVE_PICTURES:
        return popcount(six & PICTURES) >= 5
    if k == SIX_PICTURES:
        return popcount(six & PICTURES) == 6
    if k == PYATAK:
        return catchable(six) != 0
    return True


@njit(cache=True)
def bid_allowed(s, cur, k):
    """May ``cur`` bid ``k``: his hand qualifies and the bid beats the highest so far."""
    if not qualifies(s[HAND + cur], k):
        return False
    hk = s[SX_BID]
    if k > hk:
        return True
    e_team = team_of(s, elder(s))
    return k == hk and team_of(s, cur) == e_team and team_of(s, s[SX_BIDDER]) != e_team


@njit(cache=True)
def apply_bid(s, cur, a):
    """``cur`` bids or passes; after the fourth seat the contract (or the standard play)."""
    if a != PASS:
        s[SX_BID] = a - BID0
        s[SX_BIDDER] = cur
        bid_proves(s, cur, a - BID0)
    if extras_turn_done(s):
        start_contract(s)


@njit(cache=True)
def bid_proves(s, cur, k):
    """What a bid of ``k`` proves about ``cur``'s hand, for the resampler (§12.10)."""
    if k == FIVE_PICTURES:
        s[SX_PICS_MIN + cur] = max(s[SX_PICS_MIN + cur], 5)
    elif k == SIX_PICTURES:
        s[SX_PICS_MIN + cur] = 6
    elif k == PYATAK:
        s[SX_CATCHABLE + cur] = 1


@njit(cache=True)
def start_contract(s):
    """After the bids: the highest bid is played, else the standard play (§12.7.5.2)."""
    if s[SX_BIDDER] < 0:
        start_play(s)
        return
    x = s[SX_BIDDER]
    k = s[SX_BID]
    s[SX_DECL] = x
    s[SX_CONTRACT] = k
    s[SX_TRUMP] = -1
    if k == SIX and catchable(s[HAND + x]) == 0:
        show(s, s[HAND + x])
        score_and_end_deal(s, R_SIX_SHOWN, team_of(s, x), 6, False)
        return
    if k == SIX:
        s[SX_CATCHABLE + x] = 1  # a six played proves a catchable card
    if k == FIVE_PICTURES or k == PYATAK:
        s[SX_PHASE] = PH_DISCARD
        s[SX_TURN] = 0
        s[H_CUR] = x
    else:
        start_contract_play(s)


@njit(cache=True)
def discards_legal(s, cur, held):
    """The cards ``cur`` may discard: the declarer keeps what his contract needs."""
    if cur == s[SX_DECL]:
        return declarer_discards(s, held)
    return held


@njit(cache=True)
def declarer_discards(s, held):
    """The declarer's discards: keeping five pictures, or (pyatak) a catchable card."""
    out = np.int64(0)
    keep_from = catchable(held)
    m = held
    while m:
        c = lowest(m)
        m &= m - 1
        rest = held & ~bit(c)
        if s[SX_CONTRACT] == FIVE_PICTURES:
            ok = popcount(rest & PICTURES) >= 5
        else:
            ok = (rest & keep_from) != 0
        if ok:
            out |= bit(c)
    return out


@njit(cache=True)
def discard(s, cur, c):
    """A discard goes face down out of play, known to the discarder only (§12.7.5.3) —
    unless it was a shown card (a marriage half, a nine): its place stays public."""
    x = s[SX_DECL]
    s[HAND + cur] &= ~bit(c)
    s[LOC + c] = LOC_UNSEEN
    if s[KNOWN + c] != all_seats(s):
        s[KNOWN + c] = 1 << cur
    else:  # a shown card stays known wherever it goes: a public part of what he held
        s[SX_PLAYED + cur] |= bit(c)
    if cur == x:
        if s[SX_CONTRACT] == FIVE_PICTURES:
            s[NOT_HOLD + x] |= FULL_DECK & ~PICTURES  # he kept five pictures
        else:
            s[SX_CATCHABLE + x] = 2  # he kept a catchable card
        s[H_CUR] = seat_after(x, 1)
    elif cur == seat_after(x, 1):
        s[H_CUR] = seat_after(x, 3)
    else:
        start_contract_play(s)


@njit(cache=True)
def start_contract_play(s):
    """The declarer leads the first trick of the contract."""
    s[SX_PHASE] = PH_CPLAY
    s[H_CUR] = s[SX_DECL]
    s[SX_LEADER] = s[SX_DECL]


@njit(cache=True, inline="always")
def contract_play_legal(s, cur, held):
    """X leads any card; the opponents follow suit if they can (§12.7.5.4)."""
    return held if s[TK_TABLE] == 0 else playable(s, cur)


@njit(cache=True)
def collect_contract_trick(s):
    """The trick of three is taken; the contract is won or lost when its rule says so
    (§12.7.5.5, §12.7.5.6)."""
    x = s[SX_DECL]
    k = s[SX_CONTRACT]
    lead = s[SX_SEQ]
    # five / six pictures: an opponent "covered the last card with its suit"
    covered = s[SX_SEQ + 1] // 13 == lead // 13 or s[SX_SEQ + 2] // 13 == lead // 13
    w = trick_winner(s, 3)
    take(s, team_of(s, w))
    s[SX_LEADER] = x
    s[H_CUR] = x
    last = s[HAND + x] == 0
    if k == FIVE_PICTURES or k == SIX_PICTURES:
        if last:
            winner = 1 - team_of(s, x) if covered else team_of(s, x)
            score_and_end_deal(s, R_CONTRACT, winner, CONTRACT_WORTH[k], False)
        return
    if team_of(s, w) != team_of(s, x):
        score_and_end_deal(s, R_CONTRACT, team_of(s, w), CONTRACT_WORTH[k], False)
    elif last:
        score_and_end_deal(s, R_CONTRACT, team_of(s, x), CONTRACT_WORTH[k], False)
