"""Heuristic player of Rummy («Рамми», ``skip_ai.games.rummy``, RULES.md §13).

A hand is won by getting cards onto the table and lost by the points still held, so the bot
melds greedily and throws away its highest deadwood:

1. Draw the pile's top card when it is useful at once — it fits a meld on the table, or makes a
   meld with two cards of the hand; otherwise draw from the stock (the pile when the stock is
   empty).
2. After the draw, put down the biggest meld it can (most cards, ties at random), again and
   again; then lay off every card that fits the table.
3. Discard its highest *deadwood*: the card with the most points, less ``partner`` for every
   card of the hand it could meld with later (same rank, or same suit within two values), less
   ``feed`` if it fits a meld on the table (an opponent could claim it). Ties at random.
4. Always claim a "Rummy!" (a card onto the table for nothing); lay a claimed card off on any
   of its targets.

It reads only its hand, the table and the pile.

Weights (``WEIGHT_NAMES``):

- ``partner``: points a card is worth keeping per possible meld partner in the hand (rule 3).
- ``feed``: penalty for discarding a card an opponent may claim (rule 3).
"""

import numpy as np
from numba import njit

from agents.heuristics._pick import better
from skip_ai.games import rummy as K
from skip_ai.kernel.bits import lowest, popcount
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import H_CUR, HAND

WEIGHT_NAMES = ("partner", "feed")
WEIGHTS = np.array([4.0, 10.0], np.float64)

MAX_MOVES = K.NUM_ACTIONS


@njit(cache=True, inline="always")
def near(c):
    """The cards ``c`` could later meld with: its rank, and its suit within two values."""
    suit, v = c // 13, K.seq_value(c)
    m = K.rank_mask(c % 13 + 2)
    for d in (-2, -1, 1, 2):
        if 1 <= v + d <= 13:
            m |= np.int64(1) << K.card_of(suit, v + d)
    return m & ~(np.int64(1) << c)


@njit(cache=True, inline="always")
def completes_meld(held, c):
    """Does card ``c`` make a meld with two cards of ``held``?"""
    if popcount(held & K.rank_mask(c % 13 + 2)) >= 2:
        return True
    suit, v = c // 13, K.seq_value(c)
    vals = K.suit_values(held, suit) | (np.int64(1) << v)
    for lo in range(max(1, v - 2), min(v, 11) + 1):
        if (vals >> lo) & 7 == 7:
            return True
    return False


@njit(cache=True)
def _discard(s, rng, w, held):
    best_card, best, ties = -1, -np.inf, 0
    m = held
    while m:
        c = lowest(m)
        m &= m - 1
        score = K.points(c) - w[0] * popcount(near(c) & held) - w[1] * K.fits(s, c)
        take, best, ties = better(score, best, ties, rng)
        if take:
            best_card = c
    return best_card


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    phase = s[K.RM_PHASE]
    held = s[HAND + cur]
    if phase == K.ASK:
        return K.CLAIM
    if phase == K.DRAW:
        top = s[K.RM_PILE + s[K.RM_PILE_N] - 1]
        if K.stock_size(s) == 0 or K.fits(s, top) or completes_meld(held, top):
            return K.DRAW_DISCARD
        return K.DRAW_STOCK
    moves = np.empty(MAX_MOVES, np.int64)
    n = K.legal_actions(s, moves)
    if phase == K.CLAIM_LAYOFF:
        return moves[below(rng, n)]
    if phase == K.PLAY:
        best_meld, best, ties = -1, -np.inf, 0
        layoff = -1
        for i in range(n):
            a = moves[i]
            if a >= K.MELD_SET0:
                take, best, ties = better(popcount(K.meld_cards(a)), best, ties, rng)
                if take:
                    best_meld = a
            elif a >= K.LAYOFF0 and layoff < 0:
                layoff = a
        if best_meld >= 0:
            return best_meld
        if layoff >= 0:
            return layoff
    return _discard(s, rng, w, held)
