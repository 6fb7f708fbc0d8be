"""Between exchanges: the attack launched, the refills from the stock, going out, the cap and
who attacks whom next (Pyatki §1, pairs §2.4). The exchange itself is ``kernel.attack``."""

import numpy as np
from numba import njit

from skip_ai.kernel.attack import AT_ATTACKER, AT_DEFENDER, launch, start_exchange
from skip_ai.kernel.bits import bit, popcount
from skip_ai.kernel.state import (
    CHANCE,
    DECK,
    H_CUR,
    H_PLAYERS,
    HAND,
    TERMINAL,
    give,
    param,
    team_of,
)

from .layout import (
    DRAW,
    P_HAND,
    P_MAX,
    P_PAIRS,
    P_PLACES,
    PLAY,
    PY_CAPPED,
    PY_COVERED,
    PY_DRAWER,
    PY_EXCHANGES,
    PY_NOUT,
    PY_OUT,
    PY_PLACE,
    PY_STAGE,
    PY_TRUMP_CARD,
    PY_WINNER,
)
from .seats import is_out, next_in, sat_out, team_empty


@njit(cache=True, inline="always")
def _go_out(s, seat):
    s[PY_PLACE + seat] = s[PY_NOUT]
    s[PY_NOUT] += 1
    s[PY_OUT] |= 1 << seat


@njit(cache=True, inline="always")
def _decided(s):
    """Without ``places`` one player out ends the game; with it, at most one still in (who
    takes the last place)."""
    n = s[H_PLAYERS]
    if not param(s, P_PLACES):
        return s[PY_NOUT] >= 1
    if n - s[PY_NOUT] > 1:
        return False
    last = next_in(s, 0)
    if last >= 0:
        _go_out(s, last)
    return True


@njit(cache=True, inline="always")
def attack(s):
    """ATTACK: the cards leave the attacker's hand; he may be out (or his team may win)."""
    launch(s)
    att = s[AT_ATTACKER]
    if s[HAND + att] != 0:
        return
    if param(s, P_PAIRS):
        team = team_of(s, att)
        if team_empty(s, team):
            s[PY_WINNER] = team
            s[H_CUR] = TERMINAL
    elif s[DECK] == 0:
        _go_out(s, att)
        if _decided(s):
            s[H_CUR] = TERMINAL


@njit(cache=True, inline="always")
def refill(s):
    """The attacker, then the defender, draw up to 5 (the ``hand_size`` lever) while the stock
    lasts: a chance node per card, except the trump card, drawn last in plain sight. Then the
    exchange ends."""
    while s[PY_DRAWER] >= 0:
        seat = s[PY_DRAWER]
        if s[DECK] != 0 and popcount(s[HAND + seat]) < param(s, P_HAND):
            trump_card = s[PY_TRUMP_CARD]
            if s[DECK] != bit(trump_card):
                s[PY_STAGE] = DRAW
                s[H_CUR] = CHANCE
                return
            s[DECK] = 0
            give(s, trump_card, seat)
        elif seat == s[AT_ATTACKER]:
            s[PY_DRAWER] = s[AT_DEFENDER]
        else:
            s[PY_DRAWER] = -1
    s[PY_STAGE] = PLAY
    _end_exchange(s)


@njit(cache=True, inline="always")
def draw(s, c):
    seat = s[PY_DRAWER]
    s[DECK] &= ~bit(c)
    give(s, c, seat)
    refill(s)
    return np.int64(1) << seat


@njit(cache=True, inline="always")
def _end_exchange(s):
    """Pyatki: going out after the refills, the cap, and who attacks whom next."""
    att, dfd = s[AT_ATTACKER], s[AT_DEFENDER]
    if s[DECK] == 0:
        for seat in (att, dfd):
            if not is_out(s, seat) and s[HAND + seat] == 0:
                _go_out(s, seat)
    s[PY_EXCHANGES] += 1
    if s[PY_NOUT] > 0 and _decided(s):
        s[H_CUR] = TERMINAL
    elif s[PY_EXCHANGES] >= param(s, P_MAX):
        s[PY_CAPPED] = 1
        s[H_CUR] = TERMINAL
    else:
        nxt = dfd if s[PY_COVERED] and not is_out(s, dfd) else next_in(s, dfd)
        start_exchange(s, nxt, next_in(s, nxt))


@njit(cache=True, inline="always")
def pairs_next(s):
    """Pairs: the defender's team wins with no cards left; else the cap, else §2.4."""
    att, dfd = s[AT_ATTACKER], s[AT_DEFENDER]
    if team_empty(s, team_of(s, dfd)):
        s[PY_WINNER] = team_of(s, dfd)
        s[H_CUR] = TERMINAL
        return
    s[PY_EXCHANGES] += 1
    if s[PY_EXCHANGES] >= param(s, P_MAX):
        s[PY_CAPPED] = 1
        s[H_CUR] = TERMINAL
        return
    team = team_of(s, dfd) if s[PY_COVERED] else team_of(s, att)
    busy = (1 << att) | (1 << dfd)
    start_exchange(s, sat_out(s, team, busy), sat_out(s, 1 - team, busy))
