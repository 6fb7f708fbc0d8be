"""Rummy's action ids (num_distinct_actions = 541):

- ``c`` (0..51) DISCARD card ``c``
- ``52 + 3c + t`` LAYOFF card ``c`` on target ``t`` (0 SET, 1 BELOW a sequence, 2 ABOVE it)
- ``208 + 5(rank-2) + k`` MELD_SET of ``rank``: the three cards other than suit ``k``
  (k = 0..3), or all four (k = 4)
- ``273 + 66 suit + j`` MELD_SEQ of ``suit`` from value lo to hi (Ace = 1, K = 13),
  j = (lo-1)(24-lo)/2 + (hi-lo-2)
- 537 DRAW_STOCK, 538 DRAW_DISCARD, 539 CLAIM_RUMMY, 540 DECLINE

Chance outcomes are card ids.
"""

LAYOFF0 = 52
MELD_SET0 = 208
MELD_SEQ0 = 273
DRAW_STOCK = 537
DRAW_DISCARD = 538
CLAIM = 539
DECLINE = 540
NUM_ACTIONS = 541
SET, BELOW, ABOVE = 0, 1, 2
"""The lay-off targets ``t``."""
