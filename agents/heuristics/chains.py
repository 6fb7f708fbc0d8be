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
    CH_ROWS,
    MAX_W,
    _colour,
    _decode,
    _row_cells,
    _spans,
    chain_value,
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
"""Who wants an empty cell (rows of the ``wanted`` masks): it is next to our card whose rank
neighbour I hold, next to ours whose neighbour someone else may hold, next to theirs."""
NF = 5
"""Free neighbours a cell can have: 0..4."""
MAX_CELLS = 4 * 52
"""Open cells are next to a card: at most four per card."""
# scratch layout (int64): wanted masks per kind and row, open masks per row, per open cell
# its id and free neighbours, per number of free neighbours the best cell and its ties
WANTED = 0
OPEN = WANTED + 3 * MAX_W
CELL = OPEN + MAX_W
FREE = CELL + MAX_CELLS
BEST = FREE + MAX_CELLS
TIES = BEST + NF
BUF = TIES + NF


@njit(cache=True, inline="always")
def _rank_neighbours(c, low):
    """The cards one rank below and above ``c`` in its suit, -1 where the deck has none
    (``low``: the index of the deck's lowest rank, 0 or 4)."""
    r = c % 13
    return (c - 1 if r > low else -1), (c + 1 if r < 12 else -1)


@njit(cache=True, inline="always")
def _adjacent(x, y, width):
    d = abs(x - y)
    return d == 1 or d == width


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


@njit(cache=True, inline="always")
def _mark_wanted(s, cur, team, held, low, width, buf):
    """The ``wanted`` masks: every empty cell next to a card whose rank neighbour is still in
    play, by who wants it. Returns the mask of the cards on the table."""
    for i in range(3 * width):
        buf[WANTED + i] = 0
    placed = np.int64(0)
    for c in range(52):
        if s[CH_CELL + c] >= 0:
            placed |= bit(c)
    m = placed
    while m:
        x = lowest(m)
        m &= m - 1
        for y in _rank_neighbours(x, low):
            if y < 0 or placed & bit(y):
                continue
            k = _kind(s, cur, team, _colour(x), y, held)
            if k < 0:
                continue
            _, r, col = _decode(s, s[CH_CELL + x])
            b = bit(col)
            row = WANTED + k * width + r
            buf[row] |= (b << 1) | (b >> 1)  # the empty ones only are read
            if r > 0:
                buf[row - 1] |= b
            if r < width - 1:
                buf[row + 1] |= b
    return placed


@njit(cache=True, inline="always")
def _cell(s, w, width, buf, r, col):
    """(value of occupying cell r, col by who wants it, its free neighbours)."""
    b = bit(col)
    nf = ((s[CH_ROWS + r] & (b >> 1)) == 0) + ((s[CH_ROWS + r] & (b << 1)) == 0)
    nf += r > 0 and (s[CH_ROWS + r - 1] & b) == 0
    nf += r < width - 1 and (s[CH_ROWS + r + 1] & b) == 0
    nf -= col == 0
    nf -= col == width - 1
    v = 0.0
    if buf[WANTED + THEIRS * width + r] & b:
        v += w[BLOCK]
    if buf[WANTED + OTHER * width + r] & b:
        v -= w[SPOIL]
    if buf[WANTED + MINE * width + r] & b:
        v -= w[KEEP]
    return v, nf


@njit(cache=True, inline="always")
def _open_cells(s, w, width, buf, val, rng):
    """List the open cells (``CELL``, ``FREE``, their values in ``val``) and, for each number
    of free neighbours, the best of them (``BEST``, -1 if none; value at ``val[MAX_CELLS+k]``).
    Returns their number."""
    for k in range(NF):
        buf[BEST + k] = -1
        buf[TIES + k] = 0
        val[MAX_CELLS + k] = -np.inf
    for r in range(width):
        buf[OPEN + r] = 0
    top, bottom, inside, outside, _ = _spans(s)
    n = 0
    for r in range(max(top - 1, 0), min(bottom + 1, width - 1) + 1):
        m = _row_cells(s, r, top, bottom, inside, outside)
        buf[OPEN + r] = m
        while m:
            col = lowest(m)
            m &= m - 1
            v, nf = _cell(s, w, width, buf, r, col)
            buf[CELL + n], buf[FREE + n], val[n] = r * width + col, nf, v
            take, val[MAX_CELLS + nf], buf[TIES + nf] = better(v, val[MAX_CELLS + nf],
                                                              buf[TIES + nf], rng)
            if take:
                buf[BEST + nf] = n
            n += 1
    return n


@njit(cache=True, inline="always")
def _is_open(s, buf, width, z):
    if z < 0 or z >= width * width:
        return False
    _, r, col = _decode(s, z)
    return (buf[OPEN + r] >> col) & 1 == 1


@njit(cache=True, inline="always")
def _linked(s, links, c, lo, up, z, width):
    """The links of the table once card ``c`` lies on cell ``z``."""
    if lo >= 0 and s[CH_CELL + lo] >= 0 and _adjacent(z, s[CH_CELL + lo], width):
        links |= bit(lo)
    if up >= 0 and s[CH_CELL + up] >= 0 and _adjacent(z, s[CH_CELL + up], width):
        links |= bit(c)
    return links


@njit(cache=True, inline="always")
def _gain(w, team, new, c):
    """What card ``c`` adds to the chains of its colour once the table's links are ``new``,
    weighted: for us (``link``) or against us (``gift``). It joins the run of links below it
    (ending at link c - 1) and the one above it (from link c)."""
    down = 0
    while new >> (c - 1 - down) & 1 and down < c:
        down += 1
    up = lowest(~(new >> c))
    v = chain_value(c - down, down + up + 1) if down + up > 0 else 0
    if down >= 2:
        v -= chain_value(c - down, down)
    if up >= 2:
        v -= chain_value(c + 1, up)
    return w[LINK] * v if _colour(c) == team else -w[GIFT] * v


@njit(cache=True, inline="always")
def _seed(s, w, cur, mine, lo, up, held, placed):
    """Worth per free neighbour of card ``c`` (rank neighbours ``lo``, ``up``): its neighbours
    still to come, ours (held by me, or unknown) for our card, theirs against us for theirs."""
    v = 0.0
    for y in (lo, up):
        if y < 0 or placed & bit(y):
            continue
        if not mine:
            if not held & bit(y):
                v -= w[SEED_OTHER]
        elif held & bit(y):
            v += w[SEED_MINE]
        elif not (s[KNOWN + y] >> cur) & 1:  # else the opposite seat drew it from me
            v += w[SEED_OTHER]
    return v


@njit(cache=True)
def act(s, rng, w):
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    width = grid_width(s)
    size = width * width
    low = 0 if columns_n(s) == 13 else 4
    buf = np.empty(BUF, np.int64)
    val = np.empty(MAX_CELLS + NF, np.float64)
    placed = _mark_wanted(s, cur, team, held, low, width, buf)
    n_cells = _open_cells(s, w, width, buf, val, rng)
    links = links_of(s, CH_CELL, width)

    best, n_best, action = -np.inf, 0, -1
    m = held
    while m:
        c = lowest(m)
        m &= m - 1
        mine = _colour(c) == team
        lo, up = _rank_neighbours(c, low)
        seed = _seed(s, w, cur, mine, lo, up, held, placed)
        base = 0.0 if mine else w[FOREIGN]
        near = (lo >= 0 and placed & bit(lo)) or (up >= 0 and placed & bit(up))
        if mine or not near:
            # away from its rank neighbours the best cell of each class will do; for our
            # card, a link cell scored so is only undervalued (it is scored below)
            for k in range(NF):
                i = buf[BEST + k]
                if i >= 0:
                    v = val[MAX_CELLS + k] + base + seed * k
                    take, best, n_best = better(v, best, n_best, rng)
                    if take:
                        action = c * size + buf[CELL + i]
        if mine and near:  # the cells next to its rank neighbours on the table
            for y in (lo, up):
                if y < 0 or not placed & bit(y):
                    continue
                cy = s[CH_CELL + y]
                for z in (cy - 1, cy + 1, cy - width, cy + width):
                    if not _is_open(s, buf, width, z):
                        continue
                    _, r, col = _decode(s, z)
                    _, nf = _cell(s, w, width, buf, r, col)
                    v = (_gain(w, team, _linked(s, links, c, lo, up, z, width), c) + base
                         + seed * nf + w[BLOCK] * (buf[WANTED + THEIRS * width + r] >> col & 1))
                    take, best, n_best = better(v, best, n_best, rng)
                    if take:
                        action = c * size + z
        elif near:  # their card near theirs: every cell, a gift where it links
            for i in range(n_cells):
                z = buf[CELL + i]
                new = _linked(s, links, c, lo, up, z, width)
                v = base + seed * buf[FREE + i] + (
                    _gain(w, team, new, c) if new != links else val[i])
                take, best, n_best = better(v, best, n_best, rng)
                if take:
                    action = c * size + z
    return action
