"""The start of Two Captains and Little Country: the deck (jokers and pelicans when asked),
who gets the extra cards, the seating of the teams, the initial state. The deal is the game's
only chance event (``kernel.state.undealt_cards``)."""

import numpy as np
from numba import njit

from skip_ai.kernel.fields import init_fields
from skip_ai.kernel.state import (
    EXTRAS_3V3,
    PELICAN0,
    new_state,
    seat_teams,
    setup_deal,
    standard_deck,
)

from .layout import P_DECK, P_JOKERS, P_PELICANS, P_PLAYERS, P_SEATING, STATE_SIZE


@njit(cache=True)
def extra_seats(players):
    """Who gets the extra cards with jokers or pelicans in the deck: 0, k, 1, k+1, 2, k+2 (§4)."""
    k = players // 2
    out = np.empty(players, np.int64)
    for i in range(k):
        out[2 * i] = i
        out[2 * i + 1] = k + i
    return out


@njit(cache=True)
def extras_for(players, odd_cards, seating):
    """Who gets the extra cards of an uneven deal. Side by side: §0.3's seats, or with jokers
    or pelicans (``odd_cards``) §4's. Both rules give the extras to the teams in turn by the
    seats' places in their teams (captains first); with partners sitting alternately
    (``seating`` 1) that order is the seats' own, 0, 1, 2, ..."""
    if seating == 1:
        return np.arange(players)
    return extra_seats(players) if odd_cards else EXTRAS_3V3


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    players, jokers, pelicans = params[P_PLAYERS], params[P_JOKERS], params[P_PELICANS]
    plain = standard_deck(params[P_DECK], jokers != 0)
    deck = np.empty(len(plain) + pelicans, np.int64)
    deck[: len(plain)] = plain
    for i in range(pelicans):
        deck[len(plain) + i] = PELICAN0 + i
    seating = params[P_SEATING]
    setup_deal(s, players, deck, 0, extras_for(players, jokers != 0 or pelicans != 0, seating))
    seat_teams(s, seating)
    init_fields(s)
    return s
