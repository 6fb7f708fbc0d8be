"""Heuristic player of Harvest (``skip_ai.games.harvest``, RULES.md §10).

Pairing equal ranks removes as much from one side as from the other, so the winner is simply
the team whose stack tops add up to more. A card of the own colour can only be laid (+ its
value, some day: it is never lost), a card of the other colour can only cover an opponent stack
of its suit, and only the mover's team ever covers the opponents' stacks. So the bot plays:

- COVER an opponent stack for the cut: the top's value minus the covering card's, so it covers
  the highest tops with its lowest cards.
- LAY the cards the opponents cannot spoil: a laid card is spoiled when an opponent covers it
  with a lower card of its suit, which are cards of the own colour the mover cannot see. A lay
  scores ``lay`` minus ``risk`` × its value × the chance that such a lower card is with an
  opponent: a safe low card goes down at once (before all but the biggest cuts), a high card
  in a suit whose low cards are still out waits for later.
  No lay is at risk on the game's last move (under the ``end=team_out`` lever it may come
  while the opponents still hold cards).
- When every move loses something it takes the one that loses least. Ties at random.

Weights:

- ``lay``: score of a lay before its risk (how a safe lay ranks against a cover's gain).
- ``risk``: how much of a laid card's value the bot counts as lost when it is exposed.
"""

import numpy as np
from numba import njit

from skip_ai.games import harvest as K
from skip_ai.kernel.bits import popcount
from skip_ai.kernel.fields import F_TOP, exposure, opponent_share, unseen, value
from skip_ai.kernel.rng import uniform
from skip_ai.kernel.state import H_CUR, team_of

WEIGHTS = np.array([8.0, 1.0])
WEIGHT_NAMES = ("lay", "risk")
LAY, RISK = 0, 1

MAX_MOVES = K.PASS + 1
JITTER = 1e-6
"""Random tie-break added to each score, far below any real difference."""


@njit(cache=True, inline="always")
def lower_of_suit(c):
    """The cards of ``c``'s suit ranked below it."""
    return ((np.int64(1) << (c % 13)) - 1) << (13 * (c // 13))


@njit(cache=True)
def act(s, rng, w):
    moves = np.empty(MAX_MOVES, np.int64)
    n = K.legal_actions(s, moves)
    if moves[0] == K.PASS:
        return K.PASS
    # the opponents spoil our stacks with cards of our colour, which we only lay
    cur = s[H_CUR]
    ours = K.RED_MASK if team_of(s, cur) == 0 else K.BLACK_MASK
    spoilers = unseen(s, cur) & ours
    # a laid card is at risk only if an opponent moves again (the end lever may stop the game
    # while opponents still hold cards)
    share = 0.0 if K.ends_the_game(s) else opponent_share(s, cur)
    best, best_score = -1, -np.inf
    for i in range(n):
        a = moves[i]
        if a < K.COVER0:
            risk = exposure(popcount(spoilers & lower_of_suit(a)), share)
            score = w[LAY] - w[RISK] * value(a) * risk
        else:
            c, b = (a - K.COVER0) // 54, (a - K.COVER0) % 54
            score = value(s[F_TOP + b]) - value(c)
        score += JITTER * uniform(rng)
        if score > best_score:
            best, best_score = a, score
    return best
