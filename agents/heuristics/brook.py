"""Heuristic player of Brook («Ручеек», ``skip_ai.games.brook``).

The team that plays the last card of the stream takes it, so a card is as good as the
opponents' inability to follow it. After card ``c`` the followers are the higher cards of its
suit and every card of the deck's lowest rank; the bot counts the followers the opponents may
still hold (hidden cards not proved absent) — its *danger*.

Rules of thumb:

1. On the partner's card, pass: it stands as well as anything we could add, and every card
   kept is a later chance to end a stream (covering it measured clearly worse).
2. On the opponents' card, play the card with the least danger (an ace, or a card whose higher
   cards are all gone, is answered only by lowest-rank cards) — unless even that card is
   likely answered while the stream is short: then pass and let them have it.
3. Open a stream with the cheapest card, whatever its danger: a low lead invites the opponents
   to feed the stream that our safe cards will end.
4. Among otherwise equal cards, keep the lowest-rank cards (they answer anything) and the high
   cards (the next safe card): play the lowest other card.

Weights (``WEIGHT_NAMES``):

- ``danger``: penalty per follower the opponents may hold, on the opponents' card (rule 2).
- ``lead_danger``: the same when opening a stream (rule 3: 0, danger ignored).
- ``spend_lowest``: penalty for playing a lowest-rank card (rule 4).
- ``spend_rank``: penalty for the card's rank above the lowest, scaled to 0..1 (rule 4).
- ``concede``: pass on the opponents' card when the best card's danger exceeds this times the
  number of cards in the stream (rule 2).
"""

import numpy as np
from numba import njit

from agents.heuristics._pick import better
from skip_ai.games import brook as K
from skip_ai.kernel.bits import lowest, popcount
from skip_ai.kernel.state import H_CUR, param
from skip_ai.kernel.tricks import (
    TK_LAST_CARD,
    TK_TABLE,
    hidden_cards,
    opponents_may_hold,
    table_is_ours,
)

WEIGHT_NAMES = ("danger", "lead_danger", "spend_lowest", "spend_rank", "concede")
WEIGHTS = np.array([1.0, 0.0, 1.5, 0.5, 1.5], np.float64)


@njit(cache=True, inline="always")
def _followers(s, c):
    """Mask of every card that may follow card ``c`` in a stream (the kernel's rule 3): the
    last card is set to ``c`` for the query and put back."""
    last = s[TK_LAST_CARD]
    s[TK_LAST_CARD] = c
    m = K.playable(s)
    s[TK_LAST_CARD] = last
    return m


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    held, _ = K._legal(s)
    table = s[TK_TABLE]
    if held == 0 or table_is_ours(s, cur):
        return K.PASS
    opp = opponents_may_hold(s, cur, hidden_cards(s, cur))
    low = 15 - param(s, K.P_DECK) // 4
    w_danger = w[0] if table != 0 else w[1]
    best_card, best, ties, best_danger = -1, -np.inf, 0, 0
    m = held
    while m:
        c = lowest(m)
        m &= m - 1
        danger = popcount(_followers(s, c) & opp)
        step = c % 13 + 2 - low
        score = -w_danger * danger - (w[2] if step == 0 else w[3] * step / (14 - low))
        take, best, ties = better(score, best, ties, rng)
        if take:
            best_card, best_danger = c, danger
    if table != 0 and best_danger > w[4] * popcount(table):
        return K.PASS
    return best_card
