"""Pyatki's start: the initial state, the chance nodes (the deal, the trump card, the stock
draws' outcomes) and the first exchange."""

import numpy as np
from numba import njit

from skip_ai.kernel.attack import AT_TRUMP, ROW, init_attack, start_exchange
from skip_ai.kernel.bits import bit, lowest, sample_mask, to_list
from skip_ai.kernel.state import (
    DECK,
    EXTRAS_3V3,
    H_PLAYERS,
    HAND,
    KNOWN,
    LOC,
    MAX_SEATS,
    all_seats,
    deal_card,
    dealing,
    init_common,
    new_state,
    param,
    plan_round_robin,
    standard_deck,
)

from .layout import (
    DEAL,
    FIRST,
    P_DECK,
    P_HAND,
    P_OPENER,
    P_PAIRS,
    P_PLAYERS,
    P_TRUMP_CARD,
    PLAY,
    PY_DRAWER,
    PY_INIT_HAND,
    PY_OPENER,
    PY_PLACE,
    PY_STAGE,
    PY_TRUMP_CARD,
    PY_WINNER,
    STATE_SIZE,
    TURN,
)
from .seats import next_in

ACES = np.int64(1) << 12 | np.int64(1) << 25 | np.int64(1) << 38 | np.int64(1) << 51


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    players = params[P_PLAYERS]
    deck = standard_deck(params[P_DECK], False)
    init_common(s, players, deck)
    dealt = len(deck) if params[P_PAIRS] else params[P_HAND] * players
    plan_round_robin(s, dealt, np.arange(players), EXTRAS_3V3)
    init_attack(s)
    s[PY_TRUMP_CARD] = -1
    s[PY_DRAWER] = -1
    s[PY_WINNER] = -1
    for seat in range(MAX_SEATS):
        s[PY_PLACE + seat] = -1
    return s


@njit(cache=True, inline="always")
def _chance_mask(s):
    """The deal: any undealt card; the trump card: any but an Ace; a draw: the stock without
    the trump card."""
    stage = s[PY_STAGE]
    if stage == DEAL:
        return s[DECK]
    if stage == TURN:
        return s[DECK] & ~ACES
    return s[DECK] & ~bit(s[PY_TRUMP_CARD])


@njit(cache=True)
def chance_outcomes(s, out):
    return to_list(_chance_mask(s), out)


@njit(cache=True, inline="always")
def sample_chance(s, rng):
    return sample_mask(_chance_mask(s), rng)


@njit(cache=True, inline="always")
def _first_exchange(s):
    """The holder of the lowest trump attacks (seat 0 if nobody holds a trump), or the seat
    the ``opener`` lever names: Pyatki's opener attacks the next seat, the pairs' opener the
    opposite one. In the pairs game the lowest trump is the deck's lowest, so by the rules
    everybody then knows where it is."""
    trumps = ROW << (13 * s[AT_TRUMP])
    held = np.int64(0)
    for seat in range(s[H_PLAYERS]):
        held |= s[HAND + seat]
    chosen = param(s, P_OPENER)
    if chosen:
        opener = chosen - 1
    elif held & trumps:
        opener = s[LOC + lowest(held & trumps)]
    else:
        opener = 0
    s[PY_OPENER] = opener
    s[PY_STAGE] = PLAY
    if param(s, P_PAIRS):
        if not chosen:
            s[KNOWN + lowest(held & trumps)] = all_seats(s)
        start_exchange(s, opener, s[H_PLAYERS] - 1 - opener)
    else:
        for seat in range(s[H_PLAYERS]):
            s[PY_INIT_HAND + seat] = s[HAND + seat]
        start_exchange(s, opener, next_in(s, opener))


@njit(cache=True, inline="always")
def _show_trump(s, c):
    """Card ``c`` is shown to all; its suit is trump."""
    s[PY_TRUMP_CARD] = c
    s[KNOWN + c] = all_seats(s)
    s[AT_TRUMP] = c // 13


@njit(cache=True, inline="always")
def _shows_trump(s):
    """Pairs: is the card just dealt the one whose suit is trump — the last dealt (seat 3's),
    or with the ``trump_card`` lever the first (seat 0's)?"""
    if param(s, P_TRUMP_CARD) == FIRST:
        return s[PY_TRUMP_CARD] < 0
    return not dealing(s)


@njit(cache=True, inline="always")
def deal(s, c):
    vis = deal_card(s, c)
    if param(s, P_PAIRS):
        if _shows_trump(s):
            _show_trump(s, c)
            vis = all_seats(s)
        if not dealing(s):
            _first_exchange(s)
    elif not dealing(s):
        s[PY_STAGE] = TURN
    return vis


@njit(cache=True, inline="always")
def turn_trump(s, c):
    """The trump card lies face up under the stock, drawn last."""
    _show_trump(s, c)
    _first_exchange(s)
