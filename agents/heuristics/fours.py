"""Heuristic player of Fours («Четверки», ``skip_ai.games.fours``).

Every rank goes down whole when it is led, so who wins a rank (3:1 or 4:0) is fixed by the
deal, not by who leads it; what a lead decides is *when*: a 2:2 rank leaves its cards on the
table for the next decisive rank to take. Holding ``h`` cards of a rank, the other ``4 - h``
are somewhere in the three other hands (no rank is led twice); the bot takes each of them to be
the partner's with probability partner's cards / all other cards, which gives the chances that
our team ends with 3 or 4 (win), 2 (a 2:2) or 0–1 (loss) of the rank.

Rules of thumb:

1. Lead the rank with the best expected gain: (chance to win − chance to lose) × the cards it
   would decide (the table plus the four of the rank) — three or four of a kind is a sure win,
   a pair never loses, a single card mostly loses.
2. A 2:2 leaves the pot on the table for the next leader: good when that is the partner (who
   then leads a sure win onto it), bad when it is an opponent.
3. On an empty table, keep a sure win for later: it is worth more once a 2:2 has left a pot.

Weights (``WEIGHT_NAMES``):

- ``tie``: value per card of the pot a 2:2 leaves to the next leader, + for the partner,
  − for an opponent (rule 2).
- ``keep_sure``: penalty, in cards, for spending a sure win on an empty table (rule 3).
"""

import numpy as np
from numba import njit

from agents.heuristics._pick import better
from skip_ai.games import fours as K
from skip_ai.kernel.bits import lowest, popcount
from skip_ai.kernel.state import H_CUR, HAND, next_seat, param, partner_of
from skip_ai.kernel.tricks import TK_TABLE

WEIGHT_NAMES = ("tie", "keep_sure")
WEIGHTS = np.array([2.0, 8.0], np.float64)


@njit(cache=True, inline="always")
def _chances(h, p):
    """(win, 2:2, loss) chances of a rank of which we hold ``h``, each of the other ``4 - h``
    being the partner's with probability ``p``."""
    u = 4 - h
    win = tie = lose = 0.0
    comb = 1.0  # C(u, k)
    for k in range(u + 1):
        chance = comb * p**k * (1.0 - p) ** (u - k)
        comb = comb * (u - k) / (k + 1)
        if h + k >= 3:
            win += chance
        elif h + k == 2:
            tie += chance
        else:
            lose += chance
    return win, tie, lose


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    held = s[HAND + cur]
    mate = popcount(s[HAND + partner_of(s, cur)])
    others = 0  # the cards in the three other hands, whatever the seating
    for seat in range(K.PLAYERS):
        if seat != cur:
            others += popcount(s[HAND + seat])
    p = mate / others if others > 0 else 0.0
    table = popcount(s[TK_TABLE])
    pot = table + 4
    # a 2:2 hands the pot to the next leader: the partner, or the one after us clockwise
    # (the partner or an opponent, as the seating has it)
    mate_next = param(s, K.P_LEAD_ORDER) == K.TEAM or next_seat(s, cur) == partner_of(s, cur)
    tie_value = w[0] if mate_next else -w[0]
    best_rank, best, ties = -1, -np.inf, 0
    m = K._legal(s)
    while m:
        a = lowest(m)
        m &= m - 1
        win, tie, lose = _chances(popcount(held & (K.RANK_SUITS << a)), p)
        score = (win - lose + tie_value * tie) * pot
        if table == 0 and win == 1.0:
            score -= w[1]
        take, best, ties = better(score, best, ties, rng)
        if take:
            best_rank = a
    return best_rank
