"""The heuristic player of Chains (skip_chains, RULES §11).

Every turn it places one card of its hand on one open cell. Each open cell is worth something
by who wants it; each card by what it can still link to; a placement next to a rank
neighbour of the card is scored exactly. The rules of thumb, in plain words:

1. **Link** — a card next to a card one rank apart of its suit makes a link: count exactly
   what the placement adds to our chains (length², face bonuses: a long chain grows fast).
2. **No gifts** — a card of the other colour (drawn from the opposite seat) goes next to its
   rank neighbour only when nothing else is possible: what it adds to their chains counts
   against us.
3. **Block** — an empty cell next to one of their cards whose rank neighbour is still in play
   (not on the table, not in my hand) is a cell they want: occupy it.
4. **Keep our cells free** — do not fill an empty cell next to one of our cards whose rank
   neighbour I hold (I can link there next turn), nor, less, one whose neighbour a partner
   may hold.
5. **Seed** — among our cards, play first one whose rank neighbours are still to come (most
   when I hold them): it opens cells to link to.
6. **Dump foreign cards** — a card of the other colour can only block or gift: play it when
   blocking, or when nothing better is to be done.

Weights (``WEIGHT_NAMES``): ``link`` per point our chains gain; ``gift`` per point theirs
gain; ``block`` for a cell they want; ``spoil`` for a cell a partner may want; ``keep`` for a
cell where I can link next; ``seed_mine`` / ``seed_other`` per rank neighbour still to come
of our card, held by me / maybe by a partner; ``foreign`` for playing a card of the other
colour.
"""

import numpy as np
from numba import njit

from agents.heuristics._pick import better
from skip_ai.games.chains import (
    BLACK_CARDS,
    CH_CELL,
    MAX_W,
    RED_CARDS,
    colour,
    decode,
    grid_width,
    links_of,
    row_cells,
    spans,
)
from skip_ai.games.chains.wants import (
    MINE,
    OTHER,
    THEIRS,
    chain_gain,
    in_play,
    links_with,
    low_rank,
    mark_wants,
    rank_neighbours,
)
from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import H_CUR, HAND, team_of

WEIGHT_NAMES = ("link", "gift", "block", "spoil", "keep", "seed_mine", "seed_other", "foreign")
WEIGHTS = np.array([1.0, 1.0, 2.0, 1.0, 4.0, 0.6, 0.3, 0.5])
LINK, GIFT, BLOCK, SPOIL, KEEP, SEED_MINE, SEED_OTHER, FOREIGN = range(8)

KINDS = 8
"""A cell's *kind*: the set of who wants it (``skip_ai.games.chains.wants``), a 3-bit number
(bit ``MINE``, ``OTHER``, ``THEIRS``)."""
# scratch layout (int64): the open cells of each row by kind, how many of each kind, the kinds
# best first, the cells next to a card's rank neighbours
CELLS = 0
COUNT = KINDS * MAX_W
ORDER = COUNT + KINDS
EXCL = ORDER + KINDS
BUF = EXCL + 8


@njit(cache=True, inline="always")
def _kind_value(w, k):
    return w[BLOCK] * (k >> THEIRS & 1) - w[SPOIL] * (k >> OTHER & 1) - w[KEEP] * (k >> MINE & 1)


@njit(cache=True, inline="always")
def _sort_cells(s, width, wanted, buf):
    """The open cells of each row by kind (``buf[CELLS + k * MAX_W + r]``) and how many of
    each kind (``buf[COUNT + k]``)."""
    for k in range(KINDS):
        buf[COUNT + k] = 0
        for r in range(width):
            buf[CELLS + k * MAX_W + r] = 0
    top, bottom, inside, outside, _ = spans(s)
    for r in range(max(top - 1, 0), min(bottom + 1, width - 1) + 1):
        o = row_cells(s, r, top, bottom, inside, outside)
        mine, other, theirs = wanted[MINE, r], wanted[OTHER, r], wanted[THEIRS, r]
        for k in range(KINDS):
            m = (
                o
                & (mine if k >> MINE & 1 else ~mine)
                & (other if k >> OTHER & 1 else ~other)
                & (theirs if k >> THEIRS & 1 else ~theirs)
            )
            buf[CELLS + k * MAX_W + r] = m
            buf[COUNT + k] += popcount(m)


@njit(cache=True, inline="always")
def _kind_of(s, buf, z):
    _, r, col = decode(s, z)
    for k in range(KINDS):
        if (buf[CELLS + k * MAX_W + r] >> col) & 1:
            return k
    return -1


@njit(cache=True, inline="always")
def _gain(w, team, new, c):
    """What card ``c`` adds to the chains of its colour once the table's links are ``new``
    (``wants.chain_gain``), weighted: for us (``link``) or against us (``gift``)."""
    v = chain_gain(new, c)
    return w[LINK] * v if colour(c) == team else -w[GIFT] * v


@njit(cache=True, inline="always")
def _card_value(w, c, mine, lo, up, held, maybe):
    """Rules 5 and 6: a foreign card, or what our card can still link to."""
    if not mine:
        return w[FOREIGN]
    v = 0.0
    for y in (lo, up):
        if y >= 0:
            v += w[SEED_MINE] if held & bit(y) else (w[SEED_OTHER] if maybe & bit(y) else 0.0)
    return v


@njit(cache=True, inline="always")
def _excluded(s, lo, up, width, buf):
    """Into ``buf[EXCL:EXCL+8]``: the cells next to the rank neighbours ``lo``, ``up`` of a
    card on the table (-1 padded), which are scored apart (a link, or a gift)."""
    i = EXCL
    for y in (lo, up):
        cy = s[CH_CELL + y] if y >= 0 else -1
        for z in (cy - 1, cy + 1, cy - width, cy + width):
            ok = cy >= 0 and 0 <= z < width * width
            for j in range(EXCL, i):  # a cell next to both neighbours is listed once
                ok &= buf[j] != z
            buf[i] = z if ok else -1
            i += 1


@njit(cache=True, inline="always")
def _order_kinds(w, buf):
    """Into ``buf[ORDER:ORDER+KINDS]``: the kinds of cell, best first (an insertion sort)."""
    for i in range(KINDS):
        j = i
        while j > 0 and _kind_value(w, buf[ORDER + j - 1]) < _kind_value(w, i):
            buf[ORDER + j] = buf[ORDER + j - 1]
            j -= 1
        buf[ORDER + j] = i


@njit(cache=True, inline="always")
def _count_outside(s, buf, k):
    """Open cells of kind ``k`` outside the excluded ones."""
    n = buf[COUNT + k]
    for i in range(EXCL, EXCL + 8):
        if buf[i] >= 0 and _kind_of(s, buf, buf[i]) == k:
            n -= 1
    return n


@njit(cache=True, inline="always")
def _cell_of_kind(s, buf, k, width, rng):
    """A uniformly chosen open cell of kind ``k`` outside the excluded ones (-1 if none)."""
    n = _count_outside(s, buf, k)
    if n <= 0:
        return -1
    j = below(rng, n)
    for r in range(width):
        m = buf[CELLS + k * MAX_W + r]
        while m:
            col = lowest(m)
            m &= m - 1
            z = r * width + col
            skip = False
            for i in range(EXCL, EXCL + 8):
                skip |= buf[i] == z
            if skip:
                continue
            if j == 0:
                return z
            j -= 1
    return -1


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    width = grid_width(s)
    size = width * width
    low = low_rank(s)
    ours = RED_CARDS if team == 0 else BLACK_CARDS
    in_hands, maybe = in_play(s, cur, held, ours)
    wanted = np.zeros((3, MAX_W), np.int64)
    mark_wants(s, wanted, ours, held, in_hands, maybe, width)
    buf = np.empty(BUF, np.int64)
    _sort_cells(s, width, wanted, buf)
    _order_kinds(w, buf)
    links = links_of(s, CH_CELL, width)

    best, n_best, card, kind, cell = -np.inf, 0, -1, -1, -1
    m = held
    while m:
        c = lowest(m)
        m &= m - 1
        mine = colour(c) == team
        lo, up = rank_neighbours(c, low)
        base = _card_value(w, c, mine, lo, up, held, maybe)
        _excluded(s, lo, up, width, buf)
        for i in range(EXCL, EXCL + 8):  # next to a rank neighbour: a link, or a gift
            z = buf[i]
            k = _kind_of(s, buf, z) if z >= 0 else -1
            if k < 0:
                continue
            new = links_with(s, links, c, z, lo, up, width)
            v = base + _gain(w, team, new, c) + w[BLOCK] * (k >> THEIRS & 1)
            take, best, n_best = better(v, best, n_best, rng)
            if take:
                card, kind, cell = c, -1, z
        for i in range(ORDER, ORDER + KINDS):  # elsewhere: the best kind of cell there is
            k = buf[i]
            if _count_outside(s, buf, k) > 0:
                take, best, n_best = better(base + _kind_value(w, k), best, n_best, rng)
                if take:
                    card, kind, cell = c, k, -1
                break
    if kind >= 0:
        lo, up = rank_neighbours(card, low)
        _excluded(s, lo, up, width, buf)
        cell = _cell_of_kind(s, buf, kind, width, rng)
    return card * size + cell
