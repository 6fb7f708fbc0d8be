"""Chains' table: where a card may go now (rule 2), a placement's card and cell, and placing
a card."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, popcount
from skip_ai.kernel.state import LOC_TABLE, play_public

from .layout import (
    CH_BOX,
    CH_CELL,
    CH_COLS,
    CH_NEAR,
    CH_NEAR_N,
    CH_PLACED,
    CH_ROWS,
    SHORT,
    columns_n,
    grid_width,
)


@njit(cache=True, inline="always")
def _span_mask(lo, hi):
    """Mask of the columns lo..hi (empty when lo > hi)."""
    if lo > hi:
        return np.int64(0)
    return ((np.int64(1) << (hi + 1)) - 1) & ~((np.int64(1) << lo) - 1)


@njit(cache=True, inline="always")
def spans(s):
    """Where a card may go now (rule 2): ``(top row, bottom row, columns open in the table's
    rows, columns open in the rows just above and below it, number of open cells)``. A cell is
    open when it is empty, orthogonally next to a placed card (``CH_NEAR``) and the bounding
    box with it still fits 4 × N or N × 4. Before the first card: the first card's cell only.

    The count needs no scan: every cell next to the table is inside its bounding box, or in
    the row above or below it (one per card of the top or bottom row), or in the column left
    or right of it (one per card of the leftmost or rightmost column); the last two kinds are
    open or not all together."""
    n = columns_n(s)
    if s[CH_PLACED] == 0:
        return n - 1, n - 1, bit(n - 1), np.int64(0), np.int64(1)
    w = grid_width(s)
    top, bottom, left, right = s[CH_BOX], s[CH_BOX + 1], s[CH_BOX + 2], s[CH_BOX + 3]
    height, width = bottom - top + 1, right - left + 1
    # the widest table a height allows: N while it is at most 4 tall, else 4
    widest_in = n if height <= SHORT else SHORT
    widest_out = n if height + 1 <= SHORT else (SHORT if height + 1 <= n else 0)
    inside = _span_mask(right - widest_in + 1, left + widest_in - 1)
    outside = np.int64(0)
    if width <= widest_out:
        outside = _span_mask(right - widest_out + 1, left + widest_out - 1)
    # cells next to the table above / below it and left / right of it (none off the grid)
    ends = (popcount(s[CH_ROWS + top]) if top > 0 else 0) + (
        popcount(s[CH_ROWS + bottom]) if bottom < w - 1 else 0
    )
    sides = (popcount(s[CH_COLS + left]) if left > 0 else 0) + (
        popcount(s[CH_COLS + right]) if right < w - 1 else 0
    )
    cells = s[CH_NEAR_N] - ends - sides
    if outside != 0:
        cells += ends
    if width < widest_in:
        cells += sides
    return top, bottom, inside, outside, cells


@njit(cache=True, inline="always")
def row_cells(s, r, top, bottom, inside, outside):
    """Mask of the open columns of grid row ``r`` (see :func:`spans`)."""
    return s[CH_NEAR + r] & (inside if top <= r <= bottom else outside)


@njit(cache=True, inline="always")
def decode(s, a):
    """(card, grid row, grid column) of placement ``a``. Spelled out for the two grid sizes:
    division by a constant compiles to a multiplication (a hot path of every playout)."""
    if columns_n(s) == 13:
        return a // 625, a % 625 // 25, a % 25
    return a // 289, a % 289 // 17, a % 17


@njit(cache=True, inline="always")
def place(s, c, r, col):
    w = grid_width(s)
    if s[CH_PLACED] == 0:
        s[CH_BOX], s[CH_BOX + 1], s[CH_BOX + 2], s[CH_BOX + 3] = r, r, col, col
    else:
        s[CH_BOX] = min(s[CH_BOX], r)
        s[CH_BOX + 1] = max(s[CH_BOX + 1], r)
        s[CH_BOX + 2] = min(s[CH_BOX + 2], col)
        s[CH_BOX + 3] = max(s[CH_BOX + 3], col)
    b = bit(col)
    s[CH_ROWS + r] |= b
    s[CH_COLS + col] |= bit(r)
    # the empty cells next to a placed card: the new card's cell leaves (it was one), its
    # empty neighbours on the grid join
    near = s[CH_NEAR + r]
    grown = (near | (b << 1) | (b >> 1)) & ~s[CH_ROWS + r] & ((np.int64(1) << w) - 1)
    added = popcount(grown) - popcount(near)
    s[CH_NEAR + r] = grown
    if r > 0:
        new = b & ~s[CH_ROWS + r - 1] & ~s[CH_NEAR + r - 1]
        s[CH_NEAR + r - 1] |= new
        added += popcount(new)
    if r < w - 1:
        new = b & ~s[CH_ROWS + r + 1] & ~s[CH_NEAR + r + 1]
        s[CH_NEAR + r + 1] |= new
        added += popcount(new)
    s[CH_NEAR_N] += added
    s[CH_CELL + c] = r * w + col
    s[CH_PLACED] += 1
    play_public(s, c, LOC_TABLE)
