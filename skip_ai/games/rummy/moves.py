"""Rummy's moves: the legal actions (listed, counted and sampled by one scan), and applying a
decision or a chance outcome: draws, discards and claim windows (rules 7 to 9)."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import (
    CHANCE,
    DECK,
    H_CUR,
    H_MOVES,
    HAND,
    KNOWN,
    TERMINAL,
    all_seats,
    deal_card,
    dealing,
    give,
    next_seat,
    play_public,
)

from .actions import (
    ABOVE,
    BELOW,
    CLAIM,
    DECLINE,
    DRAW_DISCARD,
    DRAW_STOCK,
    LAYOFF0,
    MELD_SEQ0,
    MELD_SET0,
    SET,
)
from .deck import rank_mask, seq_index, suit_values
from .layout import (
    ASK,
    CLAIM_DISCARD,
    CLAIM_LAYOFF,
    DEAL,
    DRAW,
    LOC_PILE,
    OVER,
    PLAY,
    RM_CLAIMED,
    RM_CLOTH,
    RM_DISCARDER,
    RM_DOWN,
    RM_FIT,
    RM_PHASE,
    RM_PILE,
    RM_PILE_N,
    RM_STOCK,
    RM_STOCK_POS,
    RM_TURN,
    RM_TURNS,
    RM_WINNER,
    STOCK,
    UPCARD,
)
from .melds import fits, layoff, meld, targets
from .turns import mark_down, start_turn, stock_size


@njit(cache=True, inline="always")
def _scan(s, out, k):
    """The legal actions of the player to move, ascending. With ``out``, writes them there;
    with ``k`` ≥ 0 returns the k-th of them instead of their number. One function for listing,
    counting and sampling keeps ``legal_actions`` and ``random_legal`` identical."""
    phase = s[RM_PHASE]
    i = 0
    if phase == DRAW:
        if stock_size(s) > 0:
            if i == k:
                return DRAW_STOCK
            if out is not None:
                out[i] = DRAW_STOCK
            i += 1
        if i == k:
            return DRAW_DISCARD
        if out is not None:
            out[i] = DRAW_DISCARD
        return i + 1
    if phase == ASK:
        if k >= 0:
            return CLAIM + k
        if out is not None:
            out[0], out[1] = CLAIM, DECLINE
        return 2
    held = s[HAND + s[H_CUR]]
    size = popcount(held)
    if phase == CLAIM_LAYOFF:  # only the claimed card, on any of its targets
        layable = bit(s[RM_CLAIMED])
    else:
        m = held
        while m:  # DISCARD
            c = lowest(m)
            m &= m - 1
            if i == k:
                return c
            if out is not None:
                out[i] = c
            i += 1
        if phase == CLAIM_DISCARD:
            return i
        layable = 0
        if size >= 2:
            layable = held & (s[RM_FIT + SET] | s[RM_FIT + BELOW] | s[RM_FIT + ABOVE])
    m = layable
    while m:  # LAYOFF
        c = lowest(m)
        m &= m - 1
        tg = targets(s, c)
        for t in range(3):
            if (tg >> t) & 1:
                a = LAYOFF0 + 3 * c + t
                if i == k:
                    return a
                if out is not None:
                    out[i] = a
                i += 1
    if phase == CLAIM_LAYOFF:
        return i
    for rank in range(2, 15):  # MELD_SET, fewer cards than the hand
        of_rank = held & rank_mask(rank)
        cnt = popcount(of_rank)
        if cnt < 3 or size <= 3:
            continue
        for kk in range(5):
            if kk < 4:  # the three other than suit kk, all held
                ok = (of_rank | bit(13 * kk + rank - 2)) == rank_mask(rank)
            else:
                ok = cnt == 4 and size > 4
            if ok:
                a = MELD_SET0 + 5 * (rank - 2) + kk
                if i == k:
                    return a
                if out is not None:
                    out[i] = a
                i += 1
    for suit in range(4):  # MELD_SEQ, fewer cards than the hand
        vals = suit_values(held, suit)
        for lo in range(1, 12):
            hi = lo
            while (vals >> hi) & 1 and hi - lo + 1 < size:
                if hi - lo >= 2:
                    a = MELD_SEQ0 + 66 * suit + seq_index(lo, hi)
                    if i == k:
                        return a
                    if out is not None:
                        out[i] = a
                    i += 1
                hi += 1
    return i


@njit(cache=True)
def legal_actions(s, out):
    return _scan(s, out, -1)


@njit(cache=True)
def random_legal(s, rng):
    return _scan(s, None, below(rng, _scan(s, None, -1)))


# ----- applying actions ------------------------------------------------------------------


@njit(cache=True, inline="always")
def _to_hand(s, c, seat):
    """A public card (pile or turned-over stock) joins ``seat``'s hand, known to everyone."""
    give(s, c, seat)
    s[KNOWN + c] = all_seats(s)


@njit(cache=True)
def _end(s, winner, cloth):
    s[RM_WINNER] = winner
    s[RM_CLOTH] = cloth
    s[RM_PHASE] = OVER
    s[H_CUR] = TERMINAL


@njit(cache=True)
def _discard(s, seat, c):
    """Rule 7 / 8: ``c`` goes on the pile; the last card goes out, a fitting card opens a claim
    window, anything else ends the turn."""
    own_turn = s[RM_PHASE] == PLAY
    play_public(s, c, LOC_PILE)
    s[RM_PILE + s[RM_PILE_N]] = c
    s[RM_PILE_N] += 1
    if s[HAND + seat] == 0:
        down = s[RM_DOWN + seat]
        cloth = own_turn and (down == 0 or down == s[RM_TURNS])
        _end(s, seat, 1 if cloth else 0)
    elif fits(s, c):
        s[RM_DISCARDER] = seat
        s[RM_PHASE] = ASK
        s[H_CUR] = next_seat(s, seat)
    else:
        start_turn(s, next_seat(s, s[RM_TURN]))


@njit(cache=True)
def _claim(s, seat):
    """Rule 8: the pile's top card is laid off by ``seat`` (he picks among two or three
    targets), who then discards."""
    s[RM_PILE_N] -= 1
    c = s[RM_PILE + s[RM_PILE_N]]
    _to_hand(s, c, seat)
    mark_down(s, seat)
    tg = targets(s, c)
    if tg & (tg - 1):
        s[RM_CLAIMED] = c
        s[RM_PHASE] = CLAIM_LAYOFF
    else:
        layoff(s, seat, c, lowest(tg))
        s[RM_PHASE] = CLAIM_DISCARD
    s[H_CUR] = seat


@njit(cache=True)
def apply_action(s, a):
    s[H_MOVES] += 1
    cur = s[H_CUR]
    phase = s[RM_PHASE]
    if cur == CHANCE:
        if phase == DEAL:
            vis = deal_card(s, a)
            if not dealing(s):
                s[RM_PHASE] = UPCARD
            return vis
        s[DECK] &= ~bit(a)
        if phase == UPCARD:
            play_public(s, a, LOC_PILE)
            s[RM_PILE] = a
            s[RM_PILE_N] = 1
            start_turn(s, 0)
            return all_seats(s)
        seat = s[RM_TURN]  # a draw from the face-down stock, seen by the drawer alone
        give(s, a, seat)
        s[RM_PHASE] = PLAY
        s[H_CUR] = seat
        return np.int64(1) << seat
    if phase == DRAW:
        if a == DRAW_DISCARD:
            s[RM_PILE_N] -= 1
            _to_hand(s, s[RM_PILE + s[RM_PILE_N]], cur)
            s[RM_PHASE] = PLAY
        elif s[DECK] != 0:
            s[RM_PHASE] = STOCK
            s[H_CUR] = CHANCE
        else:  # a turned-over stock: its order is public
            _to_hand(s, s[RM_STOCK + s[RM_STOCK_POS]], cur)
            s[RM_STOCK_POS] += 1
            s[RM_PHASE] = PLAY
    elif phase == ASK:
        if a == CLAIM:
            _claim(s, cur)
        else:
            nxt = next_seat(s, cur)
            if nxt == s[RM_DISCARDER]:
                start_turn(s, next_seat(s, s[RM_TURN]))
            else:
                s[H_CUR] = nxt
    elif a < LAYOFF0:
        _discard(s, cur, a)
    elif a < MELD_SET0:
        layoff(s, cur, (a - LAYOFF0) // 3, (a - LAYOFF0) % 3)
        if phase == CLAIM_LAYOFF:
            s[RM_CLAIMED] = -1
            s[RM_PHASE] = CLAIM_DISCARD
    else:
        meld(s, cur, a)
    return all_seats(s)
