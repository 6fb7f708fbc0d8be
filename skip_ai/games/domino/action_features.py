"""Domino's action features: what a legal move (a card placed next to the last card, a lead on
an empty table, or PASS) does, as seen by the seat to move.

A learned policy scores a move by its action id and by these ``SIZE`` numbers φ(s, a)
(DouZero-style, :mod:`skip_ai.kernel.no_action_features`). The team whose card lies last takes
the table once the opponents have all passed, so a card is as good as the opponents' inability
to answer it. The *answers* to a card are the cards that could go next to it once it lies
(:func:`answers`: its suit neighbours, and its rank in the suits whose rows would touch it or
that have no row yet); the features sort them by where the mover knows they may be. They read
only what the mover knows (``kernel.tricks``' helpers): its hand, the cards played, hand sizes
and what forced passes proved a seat lacks (``NOT_HOLD``); every other card is *hidden*, and
an opponent *may hold* a hidden card unless it holds no card or was proved to lack it.
Counts of answers are / 5 (a card has at most 5), of cards on the table / 16.

With any weights ``w`` of the heuristic player (``agents.heuristics.domino``,
``WEIGHT_NAMES``) whose ``danger`` weight is positive, the linear score

    - 5·w[danger]·(danger - lead_danger) - 5·w[lead_danger]·lead_danger
    - 16·w[danger]·w[concede]·pass_stake + B·pass_ours

(B above any card's score, e.g. 1000) rates the heuristic's move best. The other features are
what it does not weigh.

The features, in order (index: name — meaning, scale):

0: pass — the move is PASS (1, else 0).
1: pass_ours — PASS while the last card on the table is our team's (it stands if nobody answers).
2: pass_stake — PASS on the opponents' card: the cards on the table, / 16 (what our team gives
   up if all of it passes).
3: pass_danger — PASS on our team's card: its answers the opponents may hold, / 5.
4: danger — the card's answers the opponents may hold, / 5 (the heuristic's danger).
5: lead_danger — the same when the card leads an empty table (else 0).
6: answer_chance — rough chance that some opponent holds an answer (each opponent holding each
   hidden card it may hold with chance its hand size / the hidden cards), 0..1.
7: partner_answers — the answers a partner still holding cards may hold (hidden, not proved
   absent), / 5.
8: hidden_safe — the hidden answers no opponent may hold (a partner's or unseen), / 5.
9: own_answers — the answers in the mover's own hand, / 5.
10: safe — no opponent may hold an answer (1, else 0): they must all pass on it.
11: safe_stake — when safe: the cards on the table with the card, / 16 (the trick it takes).
12: opens_row — the card opens its suit's row above or below the last card (1, else 0).
13: rank — the card's rank, (rank - 2) / 12.
14: suit_hidden — the other cards of its suit hidden from the mover, / 12.
15: rank_hidden — the other cards of its rank hidden from the mover, / 3.

Nothing that is the same for every move of a position (the cards in hand, the table's size
alone, whether the table is empty): a policy's softmax over the moves cannot use it (the
observation carries it).
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import H_PLAYERS, HAND, NOT_HOLD, team_of
from skip_ai.kernel.tricks import (
    TK_TABLE,
    hidden_cards,
    holds_one_chance,
    opponents_may_hold,
    table_is_ours,
)

from .grid import ABOVE, DM_NEXT, PASS, answers, spread

VERSION = 1
SIZE = 16

(
    _PASS,
    _PASS_OURS,
    _PASS_STAKE,
    _PASS_DANGER,
    _DANGER,
    _LEAD_DANGER,
    _ANSWER_CHANCE,
    _PARTNER_ANSWERS,
    _HIDDEN_SAFE,
    _OWN_ANSWERS,
    _SAFE,
    _SAFE_STAKE,
    _OPENS_ROW,
    _RANK,
    _SUIT_HIDDEN,
    _RANK_HIDDEN,
) = range(SIZE)

_ANSWERS = 1.0 / 5
_TABLE = 1.0 / 16
_SUIT = np.int64(0x1FFF)


@njit(cache=True, inline="always")
def _partners_may_hold(s, p, hidden):
    """The hidden cards that some partner of ``p`` still holding cards may hold."""
    m = np.int64(0)
    mine = team_of(s, p)
    for q in range(s[H_PLAYERS]):
        if q != p and team_of(s, q) == mine and s[HAND + q] != 0:
            m |= hidden & ~s[NOT_HOLD + q]
    return m


@njit(cache=True, inline="always")
def _answer_chance(s, p, f, hidden):
    """Rough chance that some opponent of ``p`` holds a card of ``f``
    (``kernel.tricks.holds_one_chance``, the opponents independent)."""
    none = 1.0
    mine = team_of(s, p)
    for q in range(s[H_PLAYERS]):
        if team_of(s, q) != mine and s[HAND + q] != 0:
            none *= 1.0 - holds_one_chance(s, q, f, hidden)
    return 1.0 - none


@njit(cache=True)
def write(s, cur, legal, n, out):
    """Write into ``out[i, :SIZE]`` the features of move ``legal[i]`` of seat ``cur``, for
    i < n (``legal``: as ``moves.legal_actions`` lists them). Reads only what ``cur`` knows."""
    held = s[HAND + cur]
    table = s[TK_TABLE]
    hidden = hidden_cards(s, cur)
    opp = opponents_may_hold(s, cur, hidden)
    partner = _partners_may_hold(s, cur, hidden)
    ours = table_is_ours(s, cur)
    stake = popcount(table) * _TABLE
    lead = table == 0
    for i in range(n):
        a = legal[i]
        o = out[i]
        for k in range(SIZE):
            o[k] = 0.0
        if a == PASS:
            o[_PASS] = 1.0
            if table != 0:
                if ours:
                    o[_PASS_OURS] = 1.0
                    last = s[DM_NEXT] | s[DM_NEXT + 1] | s[DM_NEXT + 2]
                    o[_PASS_DANGER] = popcount(last & opp) * _ANSWERS
                else:
                    o[_PASS_STAKE] = stake
            continue
        c = a % 54
        f = answers(s, a)
        danger = popcount(f & opp) * _ANSWERS
        o[_DANGER] = danger
        if lead:
            o[_LEAD_DANGER] = danger
        o[_ANSWER_CHANCE] = _answer_chance(s, cur, f, hidden)
        o[_PARTNER_ANSWERS] = popcount(f & partner) * _ANSWERS
        o[_HIDDEN_SAFE] = popcount(f & hidden & ~opp) * _ANSWERS
        o[_OWN_ANSWERS] = popcount(f & held) * _ANSWERS
        if danger == 0.0:
            o[_SAFE] = 1.0
            o[_SAFE_STAKE] = stake + _TABLE
        if a >= ABOVE:
            o[_OPENS_ROW] = 1.0
        suit = c // 13
        r = c - 13 * suit
        o[_RANK] = r / 12.0
        o[_SUIT_HIDDEN] = popcount(hidden & (_SUIT << (13 * suit))) / 12.0
        o[_RANK_HIDDEN] = popcount(hidden & spread(np.int64(15), r)) / 3.0
