"""Pyatki's moves: legal actions, a random legal action (both ``kernel.attack``'s), and
applying a decision or a chance outcome, dispatched by stage."""

from numba import njit

from skip_ai.kernel.attack import (
    AT_ATTACKER,
    AT_DEFENDING,
    ATTACK,
    answer,
    end_defence,
    list_legal,
    pick,
    sample_legal,
)
from skip_ai.kernel.state import CHANCE, H_CUR, H_MOVES, all_seats, param

from .deal import deal, turn_trump
from .exchanges import attack, draw, pairs_next, refill
from .layout import DEAL, P_PAIRS, PY_COVERED, PY_DRAWER, PY_STAGE, TURN


@njit(cache=True)
def legal_actions(s, out):
    return list_legal(s, out)


@njit(cache=True, inline="always")
def random_legal(s, rng):
    return sample_legal(s, rng)


@njit(cache=True, inline="always")
def _move(s, a):
    if not s[AT_DEFENDING]:
        if a == ATTACK:
            attack(s)
        else:
            pick(s, a)
    elif answer(s, a):
        s[PY_COVERED] = end_defence(s)
        if param(s, P_PAIRS):
            pairs_next(s)
        else:
            s[PY_DRAWER] = s[AT_ATTACKER]
            refill(s)


# The three kernel functions of a playout step are inlined into the engine's playout loop.
@njit(cache=True, inline="always")
def apply_action(s, a):
    s[H_MOVES] += 1
    vis = all_seats(s)
    if s[H_CUR] != CHANCE:
        _move(s, a)
    elif s[PY_STAGE] == DEAL:
        vis = deal(s, a)
    elif s[PY_STAGE] == TURN:
        turn_trump(s, a)
    else:
        vis = draw(s, a)
    return vis
