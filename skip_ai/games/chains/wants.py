"""What a Chains player can still link to, and which empty cells each side wants (RULES §11).

The arithmetic every Chains player that looks at the table needs, seen from seat ``cur``:
which cards are one rank apart, which are still in play (in some hand: not on the table), which
of our cards a partner may still hold, what placing a card adds to the chains of its colour,
and which empty cells lie next to a placed card whose rank neighbour is still to come (a cell
*wanted* by me, by a partner, or by them). It reads only what ``cur`` knows: its own hand, the
table, which cards are in some hand (public), and the cards whose place ``cur`` knows
(``KNOWN``: the blind draws to and from it).

The heuristic player (``agents.heuristics.chains``) and the per-move features of a learned
policy (``action_features``) read the table through these, so both see it the same way.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest
from skip_ai.kernel.state import H_PLAYERS, HAND, KNOWN

from .layout import ACES, CH_CELL, columns_n
from .scoring import chain_value
from .table import decode

TWOS = np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39
"""The lowest card of each suit (rank 2): none lies one rank above an Ace."""
DECK_52 = (np.int64(1) << 52) - 1
DECK_36 = DECK_52 & ~(TWOS * 15)
"""The cards of each deck: the 36-card deck has no ranks 2..5."""

MINE, OTHER, THEIRS = 0, 1, 2
"""Who wants an empty cell (the rows of :func:`mark_wants`): it is next to our card whose rank
neighbour I hold, next to ours whose neighbour someone else may hold, next to theirs."""


@njit(cache=True, inline="always")
def low_rank(s):
    """The index (rank - 2) of the deck's lowest rank: 0 with 52 cards, 4 with 36."""
    return 0 if columns_n(s) == 13 else 4


@njit(cache=True, inline="always")
def deck_cards(s):
    """The cards of this game's deck (every one of them is dealt)."""
    return DECK_52 if columns_n(s) == 13 else DECK_36


@njit(cache=True, inline="always")
def rank_neighbours(c, low):
    """The cards one rank below and above ``c`` in its suit, -1 where the deck has none
    (``low``: the index of the deck's lowest rank, 0 or 4, :func:`low_rank`)."""
    r = c % 13
    return (c - 1 if r > low else -1), (c + 1 if r < 12 else -1)


@njit(cache=True, inline="always")
def next_to(m):
    """The cards one rank away, in their suit, from a card of ``m``."""
    return ((m >> 1) & ~ACES) | ((m << 1) & ~TWOS)


@njit(cache=True, inline="always")
def in_play(s, cur, held, ours):
    """(cards in some hand, ours that may still come from a partner: in play, not mine and
    not drawn from me by the opposite seat). ``held`` is ``cur``'s hand, ``ours`` the cards of
    its colour. Both depend only on what ``cur`` knows: which cards are in some hand is public
    (those not on the table), and ``KNOWN`` tells it where the cards it gave went."""
    in_hands = np.int64(0)
    for seat in range(s[H_PLAYERS]):
        in_hands |= s[HAND + seat]
    maybe = in_hands & ours & ~held
    m = maybe
    while m:
        y = lowest(m)
        m &= m - 1
        if (s[KNOWN + y] >> cur) & 1:
            maybe &= ~bit(y)
    return in_hands, maybe


@njit(cache=True, inline="always")
def mark(s, wanted, k, m, width):
    """Mark in ``wanted[k]`` (row masks) the cells next to the cards of ``m`` (on the table).
    Bits may also land on occupied cells or just off the grid: read them on open cells only."""
    while m:
        _, r, col = decode(s, s[CH_CELL + lowest(m)])
        m &= m - 1
        b = bit(col)
        wanted[k, r] |= (b << 1) | (b >> 1)  # only open (empty) cells are ever read
        if r > 0:
            wanted[k, r - 1] |= b
        if r < width - 1:
            wanted[k, r + 1] |= b


@njit(cache=True, inline="always")
def mark_wants(s, wanted, ours, held, in_hands, maybe, width):
    """Into the rows ``MINE``, ``OTHER``, ``THEIRS`` of ``wanted`` (row masks, zeroed by the
    caller): the cells next to our cards whose rank neighbour I hold, next to ours whose
    neighbour a partner may hold (``maybe``), next to theirs whose neighbour is in play and not
    mine. Returns the cards on the table."""
    placed = deck_cards(s) & ~in_hands
    mark(s, wanted, MINE, placed & ours & next_to(held & ours), width)
    mark(s, wanted, OTHER, placed & ours & next_to(maybe), width)
    mark(s, wanted, THEIRS, placed & ~ours & next_to(in_hands & ~ours & ~held), width)
    return placed


@njit(cache=True, inline="always")
def links_with(s, links, c, z, lo, up, width):
    """The table's ``links`` (``scoring.links_of``) once card ``c`` (rank neighbours ``lo``,
    ``up``: :func:`rank_neighbours`) lies on cell ``z``: it links to each rank neighbour on a
    cell next to ``z``. (Cells one apart are in one row: no table spans a whole grid row.)"""
    new = links
    if lo >= 0 and s[CH_CELL + lo] >= 0 and abs(z - s[CH_CELL + lo]) in (1, width):
        new |= bit(lo)
    if up >= 0 and s[CH_CELL + up] >= 0 and abs(z - s[CH_CELL + up]) in (1, width):
        new |= bit(c)
    return new


@njit(cache=True, inline="always")
def chain_gain(new, c):
    """The points card ``c`` adds to the chains of its colour once the table's links are
    ``new`` (:func:`links_with`): it joins the run of links below it (ending at link c - 1)
    and the one above it (from link c) into one chain, whose worth replaces theirs."""
    down = 0
    while down < c and new >> (c - 1 - down) & 1:
        down += 1
    up = lowest(~(new >> c))
    v = chain_value(c - down, down + up + 1) if down + up > 0 else 0
    if down >= 2:
        v -= chain_value(c - down, down)
    if up >= 2:
        v -= chain_value(c + 1, up)
    return v
