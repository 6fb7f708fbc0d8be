"""Rummy's outcome (rule 10): the winner gets the others' hand counts, doubled for a
tablecloth; each loser pays his own; a dead hand scores 0 for all."""

from numba import njit

from skip_ai.kernel.state import H_PLAYERS

from .deck import hand_count
from .layout import RM_CLOTH, RM_WINNER


@njit(cache=True)
def returns(s, out):
    n = s[H_PLAYERS]
    for q in range(n):
        out[q] = 0.0
    w = s[RM_WINNER]
    if w < 0:
        return
    mult = 2 if s[RM_CLOTH] else 1
    total = 0
    for q in range(n):
        if q != w:
            cnt = mult * hand_count(s, q)
            out[q] = -cnt
            total += cnt
    out[w] = total


@njit(cache=True)
def scores(s, out):
    returns(s, out)
    for q in range(s[H_PLAYERS]):
        if out[q] < 0:
            out[q] = 0.0
