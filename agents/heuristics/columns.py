"""Heuristic player of Columns (``skip_ai.games.columns``, RULES.md §5).

The finish-line card of a rank is simply the last of its four cards to be played, so a column is
decided the moment its third card goes down: the fourth is then known to everyone. The bot plays
for the last card of each rank:

- For every rank it estimates the chance that the last card still to come is of its team's
  colour: each card of the rank not yet played counts with a weight — 1 for a card in another
  hand (nobody knows who holds it), ``keep`` for a card of its own colour in its own hand (it
  will hold that one back), ``dump`` for a card of the other colour in its own hand (it will
  play that one early).
- It plays the card that raises that chance the most (or lowers it the least): typically a card
  of the other colour into a column whose own-colour cards are still around, or the second-last
  card of a rank whose last card is of its colour. Playing the third card of a rank whose last
  card is of the other colour is what it avoids most.
- A card whose column is already decided changes nothing: it is the waiting move the bot plays
  when every other card would hurt. Ties are broken at random.

Weights:

- ``keep``: weight of an own-colour card in its own hand in the "who comes last" estimate.
- ``dump``: weight of an other-colour card in its own hand.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.rng import uniform
from skip_ai.kernel.state import H_CUR, HAND, team_of, unplaced_cards

WEIGHTS = np.array([3.0, 0.2])
WEIGHT_NAMES = ("keep", "dump")
KEEP, DUMP = 0, 1

RANK_CARDS = np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39
"""The four cards of rank 2; shift left by ``rank - 2`` for another rank."""
RED = ((np.int64(1) << 26) - 1) << 26
"""Diamonds and hearts: Red's colour (team 0)."""
JITTER = 1e-6
"""Random tie-break added to each score, far below any real difference."""


@njit(cache=True, inline="always")
def chance_last_is_ours(left, held, ours, w):
    """The estimated chance that the last of the cards ``left`` of one rank (not played yet) is
    of our colour (the cards of ``ours``), ``held`` being the mover's hand."""
    keep = popcount(left & held & ours)
    dump = popcount(left & held & ~ours)
    free_ours = popcount(left & ~held & ours)
    free = popcount(left & ~held)
    ours_weight = w[KEEP] * keep + free_ours
    return ours_weight / (ours_weight + w[DUMP] * dump + free - free_ours)


@njit(cache=True, inline="always")
def gain(c, left, held, ours, w):
    """How much playing ``c`` raises the chance that its column's finish card is ours."""
    rest = left & ~bit(c)
    if rest == 0:
        return 0.0  # the column is decided: its last card is known
    return chance_last_is_ours(rest, held, ours, w) - chance_last_is_ours(left, held, ours, w)


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    ours = RED if team_of(s, cur) == 0 else ~RED
    held = s[HAND + cur]
    unplayed = unplaced_cards(s)  # every card is dealt: the cards in all hands
    best, best_score = -1, -np.inf
    m = held
    while m:
        c = lowest(m)
        m &= m - 1
        left = unplayed & (RANK_CARDS << (c % 13))
        score = gain(c, left, held, ours, w) + JITTER * uniform(rng)
        if score > best_score:
            best, best_score = c, score
    return best
