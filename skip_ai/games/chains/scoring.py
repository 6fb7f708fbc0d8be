"""Chains' chains and the outcome (rule 3): the links of a table, each chain's worth, the
scores (the ``komi`` lever added to Red's) and the returns."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import lowest, popcount
from skip_ai.kernel.state import H_PLAYERS, param, team_of

from .layout import ACES, CH_CELL, JACKS, KINGS, P_KOMI, QUEENS, colour, grid_width


@njit(cache=True)
def links_of(cells, base, w):
    """The links of a table: bit c is set when card c and the next higher card of its suit
    (c + 1) both lie on it, orthogonally adjacent. ``cells[base + c]`` is card c's cell
    ``row * w + col`` on the grid of width ``w`` = 2N - 1, -1 off the table. (Cells one apart
    are in one row: no table is wide enough to hold both ends of a grid row.)"""
    links = np.int64(0)
    for c in range(51):  # no branches: the loop vectorises
        x, y = cells[base + c], cells[base + c + 1]
        d = abs(x - y)
        touch = (x >= 0) & (y >= 0) & ((d == 1) | (d == w))
        links |= np.int64(touch) << c
    return links & ~ACES  # an Ace has no higher card in its suit


@njit(cache=True, inline="always")
def chain_value(start, length):
    """length² plus 2 per J, 3 per Q, 4 per K, 5 per A."""
    run = ((np.int64(1) << length) - 1) << start
    return (
        length * length
        + 2 * popcount(run & JACKS)
        + 3 * popcount(run & QUEENS)
        + 4 * popcount(run & KINGS)
        + 5 * popcount(run & ACES)
    )


@njit(cache=True)
def chains(links, starts, lengths):
    """The chains of a table and what each colour scores (rule 3), from its links
    (:func:`links_of`): a maximal run of links c, c+1, .., c+k-1 is the chain of cards c..c+k
    (a chain is at least 2 long, and never crosses suits: an Ace links to nothing). Returns
    (Red's total, Black's total, the number of chains); given ``starts`` and ``lengths`` (else
    None) it also writes each chain's lowest card and length there."""
    red, black, n = 0, 0, 0
    m = links
    while m:
        start = lowest(m)
        k = lowest(~(m >> start))  # the run of links from ``start``
        v = chain_value(start, k + 1)
        if colour(start) == 0:
            red += v
        else:
            black += v
        if starts is not None:
            starts[n] = start
            lengths[n] = k + 1
        n += 1
        m &= ~(((np.int64(1) << k) - 1) << start)
    return red, black, n


@njit(cache=True)
def scores(s, out):
    red, black, _ = chains(links_of(s, CH_CELL, grid_width(s)), None, None)
    out[0] = red + param(s, P_KOMI)
    out[1] = black


@njit(cache=True)
def returns(s, out):
    red, black, _ = chains(links_of(s, CH_CELL, grid_width(s)), None, None)
    diff = np.sign(red + param(s, P_KOMI) - black)
    for seat in range(s[H_PLAYERS]):
        out[seat] = diff if team_of(s, seat) == 0 else -diff
