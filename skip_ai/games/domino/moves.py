"""Domino's moves (RULES §6 rules 3 and 4): which cards may be placed, passing, and applying an
action: a card next to the last one (or opening its suit's row above or below it), a pass,
or a dealt card."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import list_segments, sample_segments
from skip_ai.kernel.state import (
    CHANCE,
    H_CUR,
    H_MOVES,
    HAND,
    all_seats,
    deal_card,
    dealing,
    next_seat,
    param,
    prove_absent_mask,
)
from skip_ai.kernel.tricks import TK_LAST_CARD, TK_TABLE, pass_turn, put_on_table

from .grid import ABOVE, BELOW, CENTER, DM_NEXT, DM_OWNER, DM_ROW, PASS, clear_grid, placements
from .layout import P_FIRST, P_VOLUNTARY


@njit(cache=True, inline="always")
def _legal(s):
    """(cards to place with ``c``, to open a row above, below; PASS or -1) for the player
    to move (rules 3 and 4)."""
    # every slot is read before the first branch: Numba can then prune its reference counting
    # of ``s`` (an atomic incref/decref pair per call otherwise)
    held = s[HAND + s[H_CUR]]
    on_table = s[TK_TABLE]
    beside = s[DM_NEXT] & held
    above = s[DM_NEXT + 1] & held
    below = s[DM_NEXT + 2] & held
    voluntary = param(s, P_VOLUNTARY)
    none = np.int64(0)
    if held == 0:
        return none, none, none, PASS
    if on_table == 0:
        return held, none, none, -1
    stuck = (beside | above | below) == 0
    return beside, above, below, PASS if stuck or voluntary != 0 else -1


@njit(cache=True)
def legal_actions(s, out):
    beside, above, below, extra = _legal(s)
    return list_segments((beside, above, below), extra, out)


@njit(cache=True)
def random_legal(s, rng):
    beside, above, below, extra = _legal(s)
    return sample_segments((beside, above, below), extra, rng)


# One exit, which uses ``s`` last, and no exception paths (no division by a run-time value):
# Numba's reference-count pruning then removes the atomic incref/decref of ``s`` per call,
# a fifth of a random playout's time.
@njit(cache=True)
def apply_action(s, a):
    cur = s[H_CUR]
    vis = all_seats(s)
    if cur == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = param(s, P_FIRST)
    elif a == PASS:
        if s[HAND + cur] != 0 and not param(s, P_VOLUNTARY):
            # a forced pass: the passer holds none of the cards that could have been placed
            prove_absent_mask(s, cur, s[DM_NEXT] | s[DM_NEXT + 1] | s[DM_NEXT + 2])
        if pass_turn(s, cur):
            clear_grid(s)
    else:
        c = a % 54
        if s[TK_TABLE] == 0 or a >= ABOVE:
            row = CENTER
            if a >= BELOW:
                row = s[DM_ROW + s[TK_LAST_CARD] // 13] - 1
            elif a >= ABOVE:
                row = s[DM_ROW + s[TK_LAST_CARD] // 13] + 1
            s[DM_ROW + c // 13] = row
            s[DM_OWNER + row] = c // 13
        put_on_table(s, cur, c)
        s[DM_NEXT], s[DM_NEXT + 1], s[DM_NEXT + 2] = placements(s)
        s[H_CUR] = next_seat(s, cur)
    s[H_MOVES] += 1
    return vis
