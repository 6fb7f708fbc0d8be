"""Chains' state layout: parameter indices, sizes, the game's own slots, card masks.

State (after the common part of ``skip_ai.kernel.state``), grid rows and columns counted
0..W-1 (the first card at N-1, N-1):

- ``CH_DRAWER``         the seat making the blind draws now; ``CH_LEFT`` draws it still
                        makes; ``CH_PER_SEAT`` draws per seat (d)
- ``CH_PLACED``         cards on the table
- ``CH_BOX``            bounding box of the table: top row, bottom row, left col, right col
- ``CH_ROWS[r]``        mask of the occupied columns of grid row ``r``
- ``CH_COLS[col]``      mask of the occupied rows of grid column ``col``
- ``CH_NEAR[r]``        mask of the empty columns of row ``r`` orthogonally next to a placed
                        card; ``CH_NEAR_N`` how many such cells there are
- ``CH_CELL[c]``        grid cell ``r * W + col`` of card ``c``, -1 while it is not on the table

Where a card came from needs no slot: a card of a seat's own colour in its hand is one of its
original cards; one of the other colour was drawn from the opposite seat (``worlds``).
"""

import numpy as np
from numba import njit

from skip_ai.kernel.state import GAME, NUM_CARDS, param

P_PLAYERS, P_DECK, P_FIRST, P_SEATING, P_KOMI = 0, 1, 2, 3, 4
"""The rule parameters, then the levers' slots (``spec``): the seat that moves first,
partners side by side (0) or alternately (1), the chain points added to Red's score."""
SHORT = 4
"""The short side of the table."""
MAX_N = 13
MAX_W = 2 * MAX_N - 1

CH_DRAWER = GAME
CH_LEFT = CH_DRAWER + 1
CH_PER_SEAT = CH_LEFT + 1
CH_PLACED = CH_PER_SEAT + 1
CH_BOX = CH_PLACED + 1
CH_ROWS = CH_BOX + 4
CH_COLS = CH_ROWS + MAX_W
CH_NEAR = CH_COLS + MAX_W
CH_NEAR_N = CH_NEAR + MAX_W
CH_CELL = CH_NEAR_N + 1
STATE_SIZE = CH_CELL + NUM_CARDS

BLACK_CARDS = (np.int64(1) << 26) - 1
RED_CARDS = BLACK_CARDS << 26
MAX_CHAINS = 4 * 6
"""At most 6 chains of at least 2 cards in a suit of 13."""
JACKS, QUEENS, KINGS, ACES = (
    (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39) << (rank - 2)
    for rank in (11, 12, 13, 14)
)


@njit(cache=True, inline="always")
def columns_n(s):
    """N: the long side of the table, 9 or 13 (a rank's worth of cards per column)."""
    return param(s, P_DECK) // 4


@njit(cache=True, inline="always")
def grid_width(s):
    return 2 * columns_n(s) - 1


@njit(cache=True)
def draws_per_seat(players, deck):
    """d of RULES §11.1: the cards each seat draws from the opposite seat."""
    if players == 4:
        return 2 if deck == 36 else 3
    return 1 if deck == 36 else 2


@njit(cache=True, inline="always")
def colour(c):
    """The team whose colour card ``c`` is: 0 red, 1 black."""
    return 0 if c >= 26 else 1
