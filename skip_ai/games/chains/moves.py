"""Chains' moves: the legal placements (listed, counted or sampled by one function) and
applying an action (a deal, a blind draw or a placement)."""

from numba import njit

from skip_ai.kernel.bits import kth, lowest, popcount
from skip_ai.kernel.rng import below_split
from skip_ai.kernel.state import (
    CHANCE,
    H_CUR,
    H_MOVES,
    HAND,
    TERMINAL,
    all_seats,
    deal_card,
    dealing,
    next_seat_with_cards,
)

from .deal import draw_blind
from .layout import grid_width
from .table import decode, place, row_cells, spans


@njit(cache=True, inline="always")
def _moves(s, out, rng):
    """The legal placements of the player to move, ascending (card, then row, then column).

    Returns their number; with ``out``, writes them into it; with ``rng`` instead, returns the
    one at ``below(rng, number)`` of that list. One function for listing, counting and
    sampling keeps the legal list and the random sampler identical."""
    held = s[HAND + s[H_CUR]]
    w = grid_width(s)
    size = w * w
    top, bottom, inside, outside, cells = spans(s)
    lo, hi = max(top - 1, 0), min(bottom + 1, w - 1)
    if rng is not None:
        i, j = below_split(rng, popcount(held), cells)
        r = lo
        m = row_cells(s, r, top, bottom, inside, outside)
        while j >= popcount(m):
            j -= popcount(m)
            r += 1
            m = row_cells(s, r, top, bottom, inside, outside)
        return kth(held, i) * size + r * w + kth(m, j)
    if out is not None:
        i = 0
        h = held
        while h:
            c = lowest(h)
            h &= h - 1
            for r in range(lo, hi + 1):
                m = row_cells(s, r, top, bottom, inside, outside)
                while m:
                    out[i] = c * size + r * w + lowest(m)
                    i += 1
                    m &= m - 1
    return popcount(held) * cells


@njit(cache=True)
def legal_actions(s, out):
    return _moves(s, out, None)


@njit(cache=True, inline="always")
def random_legal(s, rng):
    return _moves(s, None, rng)


@njit(cache=True, inline="always")
def _play(s, a):
    cur = s[H_CUR]
    c, r, col = decode(s, a)
    place(s, c, r, col)
    nxt = next_seat_with_cards(s, cur)
    s[H_CUR] = TERMINAL if nxt < 0 else nxt
    return all_seats(s)


@njit(cache=True, inline="always")
def apply_action(s, a):
    s[H_MOVES] += 1
    if s[H_CUR] != CHANCE:
        vis = _play(s, a)
    elif dealing(s):
        vis = deal_card(s, a)
    else:
        vis = draw_blind(s, a)
    return vis
