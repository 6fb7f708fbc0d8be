"""The heuristic player of Chains (skip_chains, RULES §11).

Every turn it places one card of its hand on one open cell, choosing the pair with the best
score. The rules of thumb, in plain words:

1. **Link** — a card next to a card one rank apart of its suit makes a link; count exactly
   what the placement adds to our chains (length², face bonuses: a long chain grows fast).
2. **No gifts** — a card of the other colour (drawn from the opposite seat) must not link to
   their cards: count what it would add to their chains, against us.
3. **Block** — an empty cell next to one of their cards whose rank neighbour is still in
   play (not on the table, not in my hand) is a cell they want: occupy it.
4. **Keep our cells free** — do not fill an empty cell next to one of our cards whose rank
   neighbour I hold (I can link there next turn), nor, less, one whose neighbour a partner
   may hold.
5. **Seed** — put our card where it has free neighbours when its rank neighbours are still to
   come (most when I hold them); put their card where it has few, so they cannot link to it.
6. **Dump foreign cards** — with nothing better to do, play a card of the other colour:
   our own cards are worth more later, when there is more to link to.

Weights (``WEIGHT_NAMES``): ``link`` per point our chains gain; ``gift`` per point theirs
gain; ``block`` for a cell they want; ``spoil`` for a cell a partner may want; ``keep`` for a
cell where I can link next; ``seed_mine`` / ``seed_other`` per free neighbour and rank
neighbour to come, held by me / by someone else (for their cards: against us); ``foreign``
for playing a card of the other colour.
"""

import numpy as np
from numba import njit

from agents.heuristics._pick import better
from skip_ai.games.chains import (
    CH_CELL,
    CH_PLACED,
    CH_ROWS,
    _colour,
    _row_cells,
    _spans,
    chains,
    columns_n,
    grid_width,
    links_of,
)
from skip_ai.kernel.bits import bit, lowest
from skip_ai.kernel.state import H_CUR, HAND, KNOWN, team_of

WEIGHT_NAMES = ("link", "gift", "block", "spoil", "keep", "seed_mine", "seed_other", "foreign")
WEIGHTS = np.array([1.0, 1.0, 2.0, 1.0, 4.0, 1.5, 0.5, 0.5])
LINK, GIFT, BLOCK, SPOIL, KEEP, SEED_MINE, SEED_OTHER, FOREIGN = range(8)

MINE, OTHER, THEIRS = 0, 1, 2
"""Kinds of wanted cells (rows of the ``wanted`` masks): next to our card whose neighbour I
hold, next to ours whose neighbour someone else may hold, next to theirs."""
NF = 5
"""Free neighbours a cell can have: 0..4."""


@njit(cache=True, inline="always")
def _rank_neighbours(c, low):
    """The cards one rank below and above ``c`` in its suit, -1 where the deck has none
    (``low``: the index of the deck's lowest rank, 0 or 4)."""
    r = c % 13
    return (c - 1 if r > low else -1), (c + 1 if r < 12 else -1)


@njit(cache=True, inline="always")
def _kind(s, cur, team, t, y, held):
    """Who wants a cell next to a placed card of colour ``t`` whose rank neighbour ``y`` is
    still in play: ``MINE``, ``OTHER``, ``THEIRS``, or -1 when nobody can use it (``y`` is
    theirs and in my hand, or ours and known to be in an opponent's hand)."""
    if held & bit(y):
        return MINE if t == team else -1
    if (s[KNOWN + y] >> cur) & 1:  # the opposite seat drew it from me
        return -1
    return OTHER if t == team else THEIRS


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    width = grid_width(s)
    size = width * width
    low = 0 if columns_n(s) == 13 else 4
    # scratch: the grid (read only where a card lies), the wanted masks per kind and row,
    # then per open cell its id, the cards next to it, its free neighbours and its kind flags
    buf = np.empty(size + 3 * width + 4 * size, np.int64)
    grid, wanted = 0, size
    cx, cadj, cnf, cflag = size + 3 * width, 2 * size + 3 * width, 3 * size + 3 * width, \
        4 * size + 3 * width
    term = np.empty(size + 2 * NF, np.float64)
    for i in range(3 * width):
        buf[wanted + i] = 0

    placed = np.int64(0)
    for c in range(52):
        if s[CH_CELL + c] >= 0:
            placed |= bit(c)
    m = placed
    while m:
        x = lowest(m)
        m &= m - 1
        cell = s[CH_CELL + x]
        buf[grid + cell] = x
        t = _colour(x)
        for y in _rank_neighbours(x, low):
            if y < 0 or placed & bit(y):
                continue
            k = _kind(s, cur, team, t, y, held)
            if k < 0:
                continue
            r, col = cell // width, cell % width
            b = bit(col)
            row = wanted + k * width
            buf[row + r] |= (b << 1) | (b >> 1)
            if r > 0:
                buf[row + r - 1] |= b
            if r < width - 1:
                buf[row + r + 1] |= b

    # the open cells; for each number of free neighbours, the best cell by its own terms
    best_in = size
    best_cell = size + NF
    for k in range(NF):
        term[best_in + k] = -np.inf
        term[best_cell + k] = -1
    top, bottom, inside, outside, _ = _spans(s)
    near = np.int64(0)  # every card next to an open cell
    n_cells = 0
    ties = np.zeros(NF, np.int64)
    for r in range(max(top - 1, 0), min(bottom + 1, width - 1) + 1):
        m = _row_cells(s, r, top, bottom, inside, outside)
        while m:
            col = lowest(m)
            m &= m - 1
            b = bit(col)
            adj, nf = np.int64(0), 0
            for rr, bb, off in ((r, b >> 1, -1), (r, b << 1, 1), (r - 1, b, -width),
                                (r + 1, b, width)):
                if rr < 0 or rr >= width or bb == 0 or bb >> width:
                    continue
                if s[CH_ROWS + rr] & bb:
                    adj |= bit(buf[grid + r * width + col + off])
                else:
                    nf += 1
            flags = 0
            for k in range(3):
                if buf[wanted + k * width + r] & b:
                    flags |= 1 << k
            v = (w[BLOCK] * (flags >> THEIRS & 1) - w[SPOIL] * (flags >> OTHER & 1)
                 - w[KEEP] * (flags >> MINE & 1))
            i = n_cells
            buf[cx + i], buf[cadj + i], buf[cnf + i], buf[cflag + i] = r * width + col, adj, nf, \
                flags
            term[i] = v
            n_cells += 1
            near |= adj
            take, term[best_in + nf], ties[nf] = better(v, term[best_in + nf], ties[nf], rng)
            if take:
                term[best_cell + nf] = i

    links = links_of(s, CH_CELL, width)
    red0, black0, _ = chains(links, None, None)
    best, n_best, action = -np.inf, 0, -1
    m = held
    while m:
        c = lowest(m)
        m &= m - 1
        mine = _colour(c) == team
        lo, up = _rank_neighbours(c, low)
        seed = 0.0
        nb = np.int64(0)
        for y in (lo, up):
            if y < 0:
                continue
            if placed & bit(y):
                nb |= bit(y)
            elif mine:
                seed += w[SEED_MINE] if held & bit(y) else (
                    0.0 if (s[KNOWN + y] >> cur) & 1 else w[SEED_OTHER])
            elif not held & bit(y):
                seed -= w[SEED_OTHER]
        base = 0.0 if mine else w[FOREIGN]
        if nb & near == 0:
            # no link possible: the best cell of each class will do
            for k in range(NF):
                i = np.int64(term[best_cell + k])
                if i < 0:
                    continue
                v = term[best_in + k] + base + seed * k
                take, best, n_best = better(v, best, n_best, rng)
                if take:
                    action = c * size + buf[cx + i]
            continue
        for i in range(n_cells):
            adj = buf[cadj + i]
            v = base + seed * buf[cnf + i]
            if adj & nb:
                new = links
                if lo >= 0 and adj & bit(lo):
                    new |= bit(lo)
                if up >= 0 and adj & bit(up):
                    new |= bit(c)
                red, black, _ = chains(new, None, None)
                d_red, d_black = red - red0, black - black0
                d_own, d_their = (d_red, d_black) if team == 0 else (d_black, d_red)
                v += w[LINK] * d_own - w[GIFT] * d_their + w[BLOCK] * (buf[cflag + i] >> THEIRS
                                                                       & 1)
            else:
                v += term[i]
            take, best, n_best = better(v, best, n_best, rng)
            if take:
                action = c * size + buf[cx + i]
    return action
