"""The state layout of Two Captains and Little Country: parameter indices, pile flags and the
game's own slots.

The game's slots follow the field slots of ``kernel.fields``:

- ``CP_MARRIAGE[suit]``  0 none, 1 married, 2 the child is laid;
- ``CP_PELICAN[team]``   0 fewer than two pelican piles, 1 the pelican child may be laid, 2 it
  is laid;
- kept from the piles for the move sampler (every pile change calls ``piles.refresh``; no
  hidden card is ever on a field, so the resampler leaves them right): ``CP_BEAT[b]`` the
  cards that may beat pile ``b``, ``CP_ADDABLE`` the piles that take an ADD, ``CP_GUARDED``
  the Queens laid as new piles whose layer has not had his next turn yet (protected unless
  married at once), ``CP_CHILDREN`` the cards that may be laid as a child.

Pile flags (``F_FLAGS``): ``MARRIED``, ``CHILD``, ``PROTECTED`` (with the protecting seat + 1
in the bits from ``GUARD_SHIFT``), ``PELICAN_CHILD``.
"""

from skip_ai.kernel.fields import FIELDS_END
from skip_ai.kernel.state import MAX_CARDS

P_PLAYERS, P_DECK, P_JOKERS, P_LITTLE, P_PELICANS = 0, 1, 2, 3, 4
P_FIRST, P_SEATING, P_KOMI = 5, 6, 7
"""The levers' slots (``spec``): the seat that moves first, partners side by side (0) or
alternately (1), the piles added to Red's count."""
MAX_PILE = 3

MARRIED, CHILD, PROTECTED, PELICAN_CHILD = 1, 2, 4, 8
"""Pile flags; a pelican's child is also a ``CHILD`` (nobody beats it, it takes no card)."""
GUARD_SHIFT = 4

CP_MARRIAGE = FIELDS_END
CP_BEAT = CP_MARRIAGE + 4
CP_ADDABLE = CP_BEAT + MAX_CARDS
CP_GUARDED = CP_ADDABLE + 1
CP_CHILDREN = CP_GUARDED + 1
CP_PELICAN = CP_CHILDREN + 1
STATE_SIZE = CP_PELICAN + 2
