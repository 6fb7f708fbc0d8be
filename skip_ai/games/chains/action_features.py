"""Chains' action features: what a legal move (card ``c`` placed on cell ``z``) does, as seen by
the seat to move.

A learned policy scores a move by its action id and by these ``SIZE`` numbers φ(s, a), which
relate the card to the cells around where it would go (DouZero-style). They depend only on
what the mover knows (``wants``): its own hand, the table, which cards are still in some hand,
and the cards whose place it knows (the blind draws to and from it). Values are small (about
0..1) so a network can use them raw. With any weights ``w`` of the heuristic player
(``agents.heuristics.chains``, ``WEIGHT_NAMES``), the linear score

    w[foreign]·(1 - own) + 2·w[seed_mine]·held_nb + 2·w[seed_other]·partner_nb
    + 16·w[link]·gain - 16·w[gift]·gift + w[block]·block - w[spoil]·spoil - w[keep]·keep

is exactly the heuristic's value of the move: it plays one the score rates best. The other
features (``links``, ``seal``, ``last``, ``their_nb`` ...) are what it does not weigh.

The features, in order (index: name — meaning, scale):

0: own — the card is of the mover's colour (1, else 0).
1: gain — the points our chains gain by the move (a card of our colour, exact), / 16.
2: gift — the points their chains gain by the move (a card of their colour, exact), / 16.
3: links — the links the card makes there (to its rank neighbours on cells next to z), / 2.
4: block — z is next to one of their cards whose rank neighbour is in play, not in my hand.
5: seal — z is the last open cell next to such a card of theirs (filling it blocks for good).
6: keep — z is next to one of our cards whose rank neighbour I hold, and the card does not
   link there (it fills a cell where I could link next turn).
7: spoil — z is next to one of our cards whose rank neighbour a partner may hold, and the card
   does not link there.
8: last — z is the last open cell next to one of our cards whose rank neighbour I or a partner
   may hold, and the card does not link there (that link is then lost for good).
9: held_nb — rank neighbours of our card that I hold, / 2 (0 for their card).
10: partner_nb — rank neighbours of our card that a partner may hold, / 2 (0 for their card).
11: their_nb — rank neighbours of their card in play and not mine, / 2 (0 for ours): they can
    link to it once it lies.
12: placed_nb — rank neighbours of the card already on the table, / 2.
13: occupied — occupied cells orthogonally next to z, / 4.
14: rank — the card's rank, (rank - 2) / 12.
15: face — the card's face bonus in a chain (J 2, Q 3, K 4, A 5), / 5.

Nothing that is the same for every move of a position (the cards in hand, on the table): a
policy's softmax over the moves cannot use it (the observation carries it).
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.state import HAND, team_of

from .layout import (
    BLACK_CARDS,
    CH_CELL,
    CH_ROWS,
    MAX_W,
    RED_CARDS,
    colour,
    grid_width,
)
from .scoring import links_of
from .table import decode, row_cells, spans
from .wants import (
    MINE,
    OTHER,
    THEIRS,
    chain_gain,
    in_play,
    links_with,
    low_rank,
    mark_wants,
    next_to,
    rank_neighbours,
)

VERSION = 1
SIZE = 16

(
    _OWN,
    _GAIN,
    _GIFT,
    _LINKS,
    _BLOCK,
    _SEAL,
    _KEEP,
    _SPOIL,
    _LAST,
    _HELD_NB,
    _PARTNER_NB,
    _THEIR_NB,
    _PLACED_NB,
    _OCCUPIED,
    _RANK,
    _FACE,
) = range(SIZE)

_SEALED, _LOST = 3, 4
"""The rows of the wanted cells (after ``wants``' ``MINE``, ``OTHER``, ``THEIRS``): the last
open cell next to one of their cards they may link to, next to one of ours we may link to."""
_POINTS = 1.0 / 16
"""Chain points to feature units: a link of two low cards is 4, a long chain's step 10-20."""


@njit(cache=True, inline="always")
def _mark_last(s, wanted, k, m, open_rows, width):
    """Mark in ``wanted[k]`` the only open cell next to each card of ``m`` (on the table) that
    has exactly one. A cell next to the table that is not open now never will be: the bounding
    box only grows."""
    while m:
        _, r, col = decode(s, s[CH_CELL + lowest(m)])
        m &= m - 1
        n, cr, cc = 0, 0, 0
        if col > 0 and open_rows[r] >> (col - 1) & 1:
            n, cr, cc = n + 1, r, col - 1
        if col < width - 1 and open_rows[r] >> (col + 1) & 1:
            n, cr, cc = n + 1, r, col + 1
        if r > 0 and open_rows[r - 1] >> col & 1:
            n, cr, cc = n + 1, r - 1, col
        if r < width - 1 and open_rows[r + 1] >> col & 1:
            n, cr, cc = n + 1, r + 1, col
        if n == 1:
            wanted[k, cr] |= bit(cc)


@njit(cache=True, inline="always")
def _occupied(s, r, col, width):
    """How many of the cells orthogonally next to (``r``, ``col``) hold a card."""
    row = s[CH_ROWS + r]
    n = (row >> (col + 1) & 1) + (row >> (col - 1) & 1 if col > 0 else 0)
    if r > 0:
        n += s[CH_ROWS + r - 1] >> col & 1
    if r < width - 1:
        n += s[CH_ROWS + r + 1] >> col & 1
    return n


@njit(cache=True)
def write(s, cur, legal, n, out):
    """Write into ``out[i, :SIZE]`` the features of move ``legal[i]`` of seat ``cur``, for
    i < n (``legal``: as ``moves.legal_actions`` lists them). Reads only what ``cur`` knows."""
    team = team_of(s, cur)
    held = s[HAND + cur]
    width = grid_width(s)
    low = low_rank(s)
    ours = RED_CARDS if team == 0 else BLACK_CARDS
    in_hands, maybe = in_play(s, cur, held, ours)
    wanted = np.zeros((5, MAX_W), np.int64)
    placed = mark_wants(s, wanted, ours, held, in_hands, maybe, width)
    open_rows = np.zeros(MAX_W, np.int64)
    top, bottom, inside, outside, _ = spans(s)
    for r in range(max(top - 1, 0), min(bottom + 1, width - 1) + 1):
        open_rows[r] = row_cells(s, r, top, bottom, inside, outside)
    theirs_in_play = in_hands & ~ours & ~held
    _mark_last(s, wanted, _SEALED, placed & ~ours & next_to(theirs_in_play), open_rows, width)
    _mark_last(s, wanted, _LOST, placed & ours & next_to((held & ours) | maybe), open_rows, width)
    links = links_of(s, CH_CELL, width)
    for i in range(n):
        c, r, col = decode(s, legal[i])
        z = r * width + col
        own = colour(c) == team
        lo, up = rank_neighbours(c, low)
        new = links_with(s, links, c, z, lo, up, width)
        made = popcount(new & ~links)
        points = chain_gain(new, c) * _POINTS if made else 0.0
        free = 0.0 if made else 1.0  # the card does not take the cell for itself
        held_nb, partner_nb, their_nb, placed_nb = 0, 0, 0, 0
        for y in (lo, up):
            if y >= 0:
                b = bit(y)
                if own:
                    held_nb += (held & b) != 0
                    partner_nb += (maybe & b) != 0
                else:
                    their_nb += (theirs_in_play & b) != 0
                placed_nb += (placed & b) != 0
        rank = c % 13
        o = out[i]
        o[_OWN] = 1.0 if own else 0.0
        o[_GAIN] = points if own else 0.0
        o[_GIFT] = 0.0 if own else points
        o[_LINKS] = made * 0.5
        o[_BLOCK] = wanted[THEIRS, r] >> col & 1
        o[_SEAL] = wanted[_SEALED, r] >> col & 1
        o[_KEEP] = free * (wanted[MINE, r] >> col & 1)
        o[_SPOIL] = free * (wanted[OTHER, r] >> col & 1)
        o[_LAST] = free * (wanted[_LOST, r] >> col & 1)
        o[_HELD_NB] = held_nb * 0.5
        o[_PARTNER_NB] = partner_nb * 0.5
        o[_THEIR_NB] = their_nb * 0.5
        o[_PLACED_NB] = placed_nb * 0.5
        o[_OCCUPIED] = _occupied(s, r, col, width) * 0.25
        o[_RANK] = rank / 12.0
        o[_FACE] = (rank - 7) / 5.0 if rank >= 9 else 0.0
