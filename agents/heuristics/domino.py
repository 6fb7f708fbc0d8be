"""Heuristic player of Domino («Домино», ``skip_ai.games.domino``).

The team that placed the last card takes the table once the opponents have all passed, so a
card is as good as the opponents' inability to place a card next to it. For each candidate the
bot counts the cards that could go next to it once placed (``domino_grid.answers``: the
kernel's own rule, without playing the move) which the opponents may still hold (hidden cards
not proved absent by a forced pass) — the card's *danger*.

Rules of thumb:

1. On the opponents' card, place the card with the least danger (e.g. one whose neighbours are
   in our hand or already on the table).
2. On an empty table, lead an *inviting* card, one the opponents can likely place a card
   next to: a lead is seldom the last card (the partner or the opponents must answer it), and
   a stream the opponents feed is a bigger trick for our safe cards to end (measured better
   than a safe lead, clearly so in 1 v 1).
3. With ``voluntary_pass``: on the partner's card, pass (it stands, and a card kept is a later
   answer); on the opponents' card, pass rather than place a card that is likely answered
   while the table is short.
Without ``voluntary_pass`` a player who can place a card must, and rules 1–2 pick which; then
the game leaves little choice (with 4 or 6 players mostly the leads, and the partner's forced
answer replaces our card), and the rules gain little over random play.

Weights (``WEIGHT_NAMES``):

- ``danger``: penalty per card the opponents may hold that could go next to ours (rule 1).
- ``lead_danger``: the same when leading (rule 2; negative: a reward).
- ``concede``: with ``voluntary_pass``, pass on the opponents' card when the best card's danger
  exceeds this times the number of cards on the table (rule 3).
"""

import numpy as np
from numba import njit

from agents.heuristics._pick import better
from skip_ai.games import domino as K
from skip_ai.games.domino.grid import answers
from skip_ai.kernel.bits import lowest, popcount
from skip_ai.kernel.state import H_CUR, param
from skip_ai.kernel.tricks import TK_TABLE, hidden_cards, opponents_may_hold, table_is_ours

WEIGHT_NAMES = ("danger", "lead_danger", "concede")
WEIGHTS = np.array([1.0, -1.0, 1.5], np.float64)


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    beside, above, below, extra = K._legal(s)
    table = s[TK_TABLE]
    voluntary = param(s, K.P_VOLUNTARY) != 0
    if (beside | above | below) == 0 or (voluntary and table_is_ours(s, cur)):
        return K.PASS
    opp = opponents_may_hold(s, cur, hidden_cards(s, cur))
    w_danger = w[0] if table != 0 else w[1]
    best_action, best, ties, best_danger = -1, -np.inf, 0, 0
    for k, m in enumerate((beside, above, below)):
        while m:
            a = K.ABOVE * k + lowest(m)
            m &= m - 1
            danger = popcount(answers(s, a) & opp)
            take, best, ties = better(-w_danger * danger, best, ties, rng)
            if take:
                best_action, best_danger = a, danger
    if extra == K.PASS and table != 0 and best_danger > w[2] * popcount(table):
        return K.PASS
    return best_action
