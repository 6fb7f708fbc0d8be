"""Heuristic player of Guess («Угадайка», ``skip_ai.games.guess``).

A team loses the stream when one of its members cannot put a card into its column, so the
member who starts a column (or fills a middle cell, with three players a team) must leave the
next member room: for each candidate card and cell the bot puts it on a scratch copy of the
table (the kernel's own move), reads which cards the next member could then play (the kernel's
row masks), and estimates the chance the partner holds one of them (each hidden card he was not
proved to lack is his with probability his cards / hidden cards).

Rules of thumb:

1. Starting or continuing a column: choose the card and cell that give the next partner the
   best chance to follow — e.g. with "top higher", a high card on top, so that any lower card
   of the suit fits below; a suit the partner was seen to lack is avoided. Opening a column of
   three, both partners must follow: the two chances are multiplied.
2. Finishing a column (nobody of ours follows): keep the cards that leave room — the extreme
   ranks and the jokers — and play the card nearest the middle rank.

Weights (``WEIGHT_NAMES``):

- ``follow``: value of the partner's chance to follow (rule 1).
- ``extreme``: penalty for spending an extreme rank, 0 for the middle rank and 1 for a 2 or an
  ace (rules 1 and 2).
- ``joker``: penalty for spending a joker (rules 1 and 2).
"""

import numpy as np
from numba import njit

from agents.heuristics._pick import better
from skip_ai.games import guess as K
from skip_ai.kernel.bits import lowest
from skip_ai.kernel.state import H_CUR, H_PLAYERS, copy_into, param
from skip_ai.kernel.tricks import hidden_cards, holds_one_chance

WEIGHT_NAMES = ("follow", "extreme", "joker")
WEIGHTS = np.array([10.0, 2.0, 1.0], np.float64)


@njit(cache=True, inline="always")
def _spend_cost(c, low, w):
    """What playing card ``c`` gives up: an extreme rank or a joker (rule 2)."""
    if c >= 52:
        return w[2]
    half = (14 - low) / 2.0
    return w[1] * abs(c % 13 + 2 - (low + half)) / half


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    masks, extra = K._legal(s)
    if extra == K.PASS:
        return K.PASS
    k = s[H_PLAYERS] // 2
    finishing = s[K.GS_FILLED] == k - 1
    opening_three = k == 3 and s[K.GS_FILLED] == 0
    mate = K.next_member(s, cur)  # who plays next into our column, whatever the seating
    hidden = hidden_cards(s, cur)
    low = 15 - param(s, K.P_DECK) // 4
    t = s.copy()
    best_action, best, ties = -1, -np.inf, 0
    for row in range(K.MAX_ROWS):
        m = masks[row]
        while m:
            c = lowest(m)
            m &= m - 1
            a = row * 54 + c
            score = -_spend_cost(c, low, w)
            if not finishing:
                copy_into(t, s)
                K.apply_action(t, a)
                m0, m1, m2 = K._row_masks(t)
                room = m0 | m1 | m2
                chance = holds_one_chance(s, mate, room, hidden)
                if opening_three:
                    # the third member needs a card too, from about the same room
                    chance *= holds_one_chance(s, K.next_member(s, mate), room, hidden)
                score += w[0] * chance
            take, best, ties = better(score, best, ties, rng)
            if take:
                best_action = a
    return best_action
