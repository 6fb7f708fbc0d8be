"""Domino's grid (RULES §6 rules 2–3): the state's slots that hold it, the action ids that place
a card on it, and which cards may go next to a card: the last one (``placements``, the
kernel's rule), or one a move would place (``answers``, for the heuristic and the features,
without playing the move).

The slots follow the trick slots of ``kernel.tricks``. Rows are numbered upwards, the first
card's suit at ``CENTER``; since every new row opens next to an existing one, the rows in use
stay within ``CENTER ± 3``.

- ``DM_ROW[suit]``   the row of that suit, ``NO_ROW`` (-1) while it has none
- ``DM_OWNER[row]``  the suit owning row 0..8, ``NO_ROW`` if none
- ``DM_NEXT[k]``     masks (over the whole deck) of the cards that may go next to the last card:
  k = 0 with action ``c``, 1 opening a row above, 2 below. Passes change neither the last
  card nor the grid, so they are computed once per card placed, not at every decision.

The moves (``moves``), the heuristic player and the action features (``action_features``) all
read the table through these.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit
from skip_ai.kernel.tricks import TK_LAST_CARD, TK_TABLE, TRICK_END

ABOVE = 54
BELOW = 108
PASS = 162

NO_ROW = -1
CENTER = 4
NUM_ROWS = 2 * CENTER + 1
REACH = 3
"""How far apart two rows in use can be (four suits, each row next to another)."""

DM_ROW = TRICK_END
DM_OWNER = DM_ROW + 4
DM_NEXT = DM_OWNER + NUM_ROWS
GRID_END = DM_NEXT + 3


@njit(cache=True, inline="always")
def clear_grid(s):
    for i in range(4 + NUM_ROWS):
        s[DM_ROW + i] = NO_ROW


@njit(cache=True, inline="always")
def spread(suits, r):
    """The cards of rank index ``r`` (0 = the 2) of the suits in the 4-bit set ``suits``."""
    return ((suits & 1) | ((suits & 2) << 12) | ((suits & 4) << 24) | ((suits & 8) << 36)) << r


@njit(cache=True, inline="always")
def _follow(s, c, row, with_row):
    """Masks over the whole deck of the cards that may go next to card ``c`` lying in row
    ``row`` (rule 3), with ``with_row`` the suits that have a row: (beside it or into an
    adjacent suit's row, opening a row above, opening a row below). Written without branches
    on the grid, which random play makes unpredictable."""
    suit = c // 13
    r = c - 13 * suit
    one = bit(c)
    beside = ((one << 1) | (one >> 1)) & (np.int64(0x1FFF) << (13 * suit))
    up = s[DM_OWNER + row + 1]
    down = s[DM_OWNER + row - 1]
    # suits whose rows are adjacent take the card into their row; suits without a row open
    # one on a free side
    adjacent = (np.int64(up != NO_ROW) << (up & 3)) | (np.int64(down != NO_ROW) << (down & 3))
    beside |= spread(adjacent, r)
    rowless = spread(~with_row & 15, r)
    above = rowless if up == NO_ROW else np.int64(0)
    below = rowless if down == NO_ROW else np.int64(0)
    return beside, above, below


@njit(cache=True, inline="always")
def _rows_in_use(s):
    """The 4-bit set of the suits that have a row."""
    with_row = np.int64(0)
    for t in range(4):
        with_row |= np.int64(s[DM_ROW + t] != NO_ROW) << t
    return with_row


@njit(cache=True, inline="always")
def placements(s):
    """Masks over the whole deck of the cards that may go next to the last card (rule 3;
    the table is not empty): (action ``c``, opening a row above, opening a row below).
    ``apply_action`` keeps them in ``DM_NEXT``."""
    last = s[TK_LAST_CARD]
    return _follow(s, last, s[DM_ROW + last // 13], _rows_in_use(s))


@njit(cache=True, inline="always")
def answers(s, a):
    """The cards that could go next to card ``a % 54`` once action ``a`` (not PASS) puts it on
    the table, without playing it: what :func:`placements` gives after ``a`` (``DM_NEXT``),
    for the row the card would lie in."""
    c = a % 54
    suit = c // 13
    if s[TK_TABLE] == 0:
        row = CENTER  # the grid is clear on an empty table
    elif a >= BELOW:
        row = s[DM_ROW + s[TK_LAST_CARD] // 13] - 1
    elif a >= ABOVE:
        row = s[DM_ROW + s[TK_LAST_CARD] // 13] + 1
    else:
        row = s[DM_ROW + suit]
    beside, above, below = _follow(s, c, row, _rows_in_use(s) | np.int64(1) << suit)
    return beside | above | below
