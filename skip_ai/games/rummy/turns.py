"""Rummy's turns: the stock's size, the turn-over of the pile (rule 9), the start of a turn
with the cap (rule 12), and who has put cards on the table (the tablecloth, rule 10)."""

from numba import njit

from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import DECK, H_CUR, LOC, TERMINAL, param

from .layout import (
    DRAW,
    LOC_STOCK,
    OVER,
    P_MAX_TURNS,
    RM_DEAD,
    RM_DOWN,
    RM_PHASE,
    RM_PILE,
    RM_PILE_N,
    RM_STOCK,
    RM_STOCK_N,
    RM_STOCK_POS,
    RM_TURN,
    RM_TURNOVERS,
    RM_TURNS,
)


@njit(cache=True, inline="always")
def stock_size(s):
    return popcount(s[DECK]) + s[RM_STOCK_N] - s[RM_STOCK_POS]


@njit(cache=True, inline="always")
def _turn_over(s):
    """Rule 9: the pile's bottom card stays as the new pile; the rest, in order, is the stock."""
    k = s[RM_PILE_N]
    for i in range(1, k):
        c = s[RM_PILE + i]
        s[RM_STOCK + i - 1] = c
        s[LOC + c] = LOC_STOCK
    s[RM_STOCK_N] = k - 1
    s[RM_STOCK_POS] = 0
    s[RM_PILE_N] = 1
    s[RM_TURNOVERS] += 1


@njit(cache=True, inline="always")
def start_turn(s, seat):
    """The cap (rule 12), then a turn-over if the stock is empty (rule 9), then the draw."""
    if s[RM_TURNS] >= param(s, P_MAX_TURNS):
        s[RM_DEAD] = 1
        s[RM_PHASE] = OVER
        s[H_CUR] = TERMINAL
        return
    if stock_size(s) == 0 and s[RM_PILE_N] >= 2:
        _turn_over(s)
    s[RM_TURNS] += 1
    s[RM_TURN] = seat
    s[RM_PHASE] = DRAW
    s[H_CUR] = seat


@njit(cache=True, inline="always")
def mark_down(s, seat):
    """Seat ``seat`` puts a card on the table (for the tablecloth, rule 10)."""
    if s[RM_DOWN + seat] == 0:
        s[RM_DOWN + seat] = s[RM_TURNS]
