"""The standard play (RULES §12.3–§12.5): leading, marriages announced when leading,
following, DECLARE, and the tricks of four; a card played in a contract goes through here
too."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit
from skip_ai.kernel.state import H_CUR, KNOWN, NOT_HOLD, all_seats, team_of
from skip_ai.kernel.tricks import TK_TABLE, put_on_table

from .actions import DECLARE, K_MARRIAGE, Q_MARRIAGE
from .deck import suit_mask
from .extras.contracts import collect_contract_trick
from .layout import (
    PH_CPLAY,
    R_LAST_TRICK,
    SX_LEADER,
    SX_MARR,
    SX_NSEQ,
    SX_PHASE,
    SX_PLAYED,
    SX_SEQ,
    SX_TRICKS,
    SX_TRUMP,
)
from .scoring import judge_declaration, score_66, score_and_end_deal, total
from .tricks import next_player, playable, take, trick_winner


@njit(cache=True, inline="always")
def play_legal(s, cur, held):
    """(mask of legal card ids, mask of legal actions >= 52 as bits ``a - 52``) in the
    standard play: any card to lead, with the marriages ``cur`` holds; else follow
    (``playable``); DECLARE once his team has taken a trick."""
    one = np.int64(1)
    declare = (one << (DECLARE - 52)) if s[SX_TRICKS + team_of(s, cur)] > 0 else np.int64(0)
    if s[TK_TABLE] == 0:
        extra = declare
        for su in range(4):
            q, k = 13 * su + 10, 13 * su + 11
            if (held >> q) & 1 and (held >> k) & 1:
                extra |= one << su | one << (4 + su)
        return held, extra
    return playable(s, cur), declare


@njit(cache=True)
def play_card(s, cur, a):
    """``cur`` declares, or plays a card (announcing a marriage); a void proves what he
    lacks; a full trick is collected."""
    if a == DECLARE:
        judge_declaration(s, team_of(s, cur))
        return
    c = a
    if a >= K_MARRIAGE:
        c = 13 * (a - K_MARRIAGE) + 11
        s[KNOWN + c - 1] = all_seats(s)
        marriage(s, cur, a - K_MARRIAGE)
    elif a >= Q_MARRIAGE:
        c = 13 * (a - Q_MARRIAGE) + 10
        s[KNOWN + c + 1] = all_seats(s)
        marriage(s, cur, a - Q_MARRIAGE)
    if s[TK_TABLE] != 0:
        led = s[SX_SEQ] // 13
        if c // 13 != led:  # a void in the led suit, and without trumps when not trumping
            s[NOT_HOLD + cur] |= suit_mask(led)
            tr = s[SX_TRUMP]
            if tr >= 0 and c // 13 != tr:
                s[NOT_HOLD + cur] |= suit_mask(tr)
    else:
        s[SX_LEADER] = cur
        s[SX_NSEQ] = 0
    put_on_table(s, cur, c)
    s[SX_PLAYED + cur] |= bit(c)
    s[SX_SEQ + s[SX_NSEQ]] = c
    s[SX_NSEQ] += 1
    contract = s[SX_PHASE] == PH_CPLAY
    size = 3 if contract else 4
    if s[SX_NSEQ] < size:
        s[H_CUR] = next_player(s, cur)
        return
    if contract:
        collect_contract_trick(s)
    else:
        collect_trick(s)


@njit(cache=True)
def marriage(s, cur, su):
    """A marriage in suit ``su``: 40 in trumps, else 20 (§12.4.2)."""
    s[SX_MARR + team_of(s, cur)] += 40 if su == s[SX_TRUMP] else 20


@njit(cache=True)
def collect_trick(s):
    """The trick of four is taken; after the sixth the last trick scores (§12.5.3)."""
    w = trick_winner(s, 4)
    t = team_of(s, w)
    take(s, t)
    s[SX_LEADER] = w
    s[H_CUR] = w
    if s[SX_TRICKS] + s[SX_TRICKS + 1] == 6:  # the last trick (§12.5.3)
        if total(s, t) >= 66:
            score_66(s, t, R_LAST_TRICK)
        else:
            score_and_end_deal(s, R_LAST_TRICK, t, 1, True)
