"""Heuristic player of Sixty-six for four («Шуба вчетвером», ``skip_ai.games.sixty_six``).

It counts points and keeps trumps. It reads only its own hand, the cards played and the
public totals (card points and marriages of each team are public).

Rules of thumb:

1. Name as trump the suit of its first three cards worth most (cards count before points);
   never reveal.
2. Declare 66 as soon as the team's total (points taken, plus marriages once a trick is taken)
   reaches the threshold.
3. Leading: announce a marriage when it can (the trump one first); else lead a plain Ace; else
   the cheapest plain card; trumps last.
4. Following, partner winning the trick: add points (smear) from plain suits.
5. Following, an opponent winning: take the trick with the cheapest winning card (a plain
   card before a trump); when it cannot win, throw the cheapest card, keeping trumps.
6. The extras: pass everywhere a pass is allowed (no offers, nines games, redeals or bids);
   where it must act (catch, target, discard, contract play) it plays the cheapest card or the
   first legal action.

Weights (``WEIGHT_NAMES``):

- ``declare_at``: the total at which it declares (rule 2; 66 is the rules' threshold).
- ``keep_trump``: penalty, in card points, for spending a trump (rules 3–5).
- ``smear``: value per card point added to the partner's trick (rule 4).
- ``win``: value of taking a trick from the opponents (rule 5), in card points.
"""

import numpy as np
from numba import njit

from agents.heuristics._pick import better
from skip_ai.games import sixty_six as K
from skip_ai.kernel.bits import lowest, popcount
from skip_ai.kernel.state import H_CUR, HAND, team_of

WEIGHT_NAMES = ("declare_at", "keep_trump", "smear", "win")
WEIGHTS = np.array([66.0, 8.0, 1.0, 30.0], np.float64)


@njit(cache=True)
def _first_legal(s):
    cards_mask, extra = K.legal_masks(s)
    if cards_mask:
        return lowest(cards_mask)
    return 52 + lowest(extra)


@njit(cache=True)
def _cheapest(s, m, rng, keep_trump):
    trump = s[K.SX_TRUMP]
    best_card, best, ties = -1, -np.inf, 0
    while m:
        c = lowest(m)
        m &= m - 1
        score = (
            -K.POINTS[c % 13] - K.STRENGTH[c % 13] * 0.1 - (keep_trump if c // 13 == trump else 0.0)
        )
        take, best, ties = better(score, best, ties, rng)
        if take:
            best_card = c
    return best_card


@njit(cache=True)
def _trump(s, extra):
    held = s[HAND + s[H_CUR]]
    best, best_suit = -1.0, -1
    for su in range(4):
        if (extra >> (K.TRUMP0 - 52 + su)) & 1:
            m = held & K.suit_mask(su)
            v = popcount(m) * 100.0 + K.points_of(m)
            if v > best:
                best, best_suit = v, su
    return K.TRUMP0 + best_suit if best_suit >= 0 else K.REVEAL


@njit(cache=True)
def _play(s, rng, w, cards_mask, extra):
    cur = s[H_CUR]
    t = team_of(s, cur)
    if (extra >> (K.DECLARE - 52)) & 1 and K.total(s, t) >= w[0]:
        return K.DECLARE
    trump = s[K.SX_TRUMP]
    n = s[K.SX_NSEQ]
    if n == 0:
        for su in range(4):
            order = (trump + su) & 3  # the trump marriage first
            if (extra >> (order)) & 1:
                return K.Q_MARRIAGE + order
        best_card, best, ties = -1, -np.inf, 0
        m = cards_mask
        while m:
            c = lowest(m)
            m &= m - 1
            is_trump = c // 13 == trump
            score = -K.POINTS[c % 13] - (w[1] if is_trump else 0.0)
            if c % 13 == 12 and not is_trump:
                score += 20.0
            take, best, ties = better(score, best, ties, rng)
            if take:
                best_card = c
        return best_card
    best_i = 0
    for i in range(1, n):
        if K.beats(s[K.SX_SEQ + i], s[K.SX_SEQ + best_i], trump):
            best_i = i
    winner = K.seat_after(s[K.SX_LEADER], best_i)
    top = s[K.SX_SEQ + best_i]
    partner_wins = team_of(s, winner) == t
    best_card, best, ties = -1, -np.inf, 0
    m = cards_mask
    while m:
        c = lowest(m)
        m &= m - 1
        is_trump = c // 13 == trump
        pts = K.POINTS[c % 13]
        spend = w[1] if is_trump else 0.0
        if partner_wins:
            score = w[2] * pts - spend - 3.0 * spend
        elif K.beats(c, top, trump):
            score = w[3] - pts * 0.5 - spend
        else:
            score = -pts - spend
        take, best, ties = better(score, best, ties, rng)
        if take:
            best_card = c
    return best_card


@njit(cache=True)
def act(s, rng, w):
    cards_mask, extra = K.legal_masks(s)
    ph = s[K.SX_PHASE]
    if ph == K.PH_PLAY:
        return _play(s, rng, w, cards_mask, extra)
    if ph == K.PH_TRUMP:
        return _trump(s, extra)
    if (extra >> (K.PASS - 52)) & 1:
        return K.PASS
    if cards_mask:
        return _cheapest(s, cards_mask, rng, w[1])
    return _first_legal(s)
