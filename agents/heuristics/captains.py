"""Heuristic player of Two Captains and Little Country (``skip_ai.games.captains``, RULES.md
§3 and §4).

The team with more piles wins. A card of the own colour can only be laid or added (and so
counts at most once), a card of the other colour can only beat; an own pile is lost when an
opponent beats it, with a card of the own colour of its suit worth more than the pile. The bot
counts, for each move, the piles it expects its team to keep or the opponents to lose:

- A pile's **risk** (``skip_ai.games.captains.risk``) is the chance that one of the cards
  that could beat it (own colour, the mover cannot see them) is with an opponent; it is zero
  for a pile worth 14 or more (a lone Ace), and in Little Country for a married King or Queen
  and a child (a lone Queen fears only the Ace).
- LAY scores one pile minus its risk; ADD scores the risk it takes off the pile (2 + J = 13 is
  safer than a lone 2, but it is one pile, not two); in Little Country a King or Queen that
  marries also scores the risk it takes off its spouse, and a CHILD, a pelican and a pelican
  child are each one safe pile.
- BEAT scores ``beat``, a pile the opponents lose (a little less than a safe LAY, which goes
  first), less ``overkill`` per point the beating card is worth above the pile: the lowest
  card that does it goes, the higher ones wait for bigger piles.
- Ties at random.

Weights:

- ``beat``: score of beating an opponent pile (a safe LAY scores 1).
- ``overkill``: cost per point of value the beating card wastes.
"""

import numpy as np
from numba import njit

from skip_ai.games import captains as K
from skip_ai.games.captains.risk import add_risks, lay_risks
from skip_ai.kernel.fields import F_SUM, opponent_share, unseen, value
from skip_ai.kernel.rng import uniform
from skip_ai.kernel.state import H_CUR, team_of

WEIGHTS = np.array([0.8, 0.1])
WEIGHT_NAMES = ("beat", "overkill")
BEAT, OVERKILL = 0, 1

MAX_MOVES = K.NUM_ACTIONS_PELICANS
JITTER = 1e-6
"""Random tie-break added to each score, far below any real difference."""


@njit(cache=True)
def lay_score(s, c, team, spoilers, share):
    """One pile minus its risk; a marriage also makes the spouse safe."""
    after, relief = lay_risks(s, c, team, spoilers, share)
    return 1.0 + relief - after


@njit(cache=True)
def add_score(s, c, b, spoilers, share):
    """The risk the card takes off the pile."""
    after, before = add_risks(s, c, b, spoilers, share)
    return before - after


@njit(cache=True)
def act(s, rng, w):
    moves = np.empty(MAX_MOVES, np.int64)
    n = K.legal_actions(s, moves)
    if moves[0] == K.PASS:
        return K.PASS
    cur = s[H_CUR]
    team = team_of(s, cur)
    spoilers = unseen(s, cur) & (K.RED_MASK if team == 0 else K.BLACK_MASK)
    share = opponent_share(s, cur)
    best, best_score = -1, -np.inf
    for i in range(n):
        a = moves[i]
        if a < K.ADD0:
            score = lay_score(s, a, team, spoilers, share)
        elif a < K.BEAT0:
            score = add_score(s, (a - K.ADD0) // 54, (a - K.ADD0) % 54, spoilers, share)
        elif a < K.PASS:
            c, b = (a - K.BEAT0) // 54, (a - K.BEAT0) % 54
            score = w[BEAT] - w[OVERKILL] * (value(c) - s[F_SUM + b])
        else:
            score = 1.0  # a child, a pelican or a pelican child: one pile nobody can beat
        score += JITTER * uniform(rng)
        if score > best_score:
            best, best_score = a, score
    return best
