"""Chains' deal and blind draws: the initial state, the chance nodes, a card drawn from the
opposite seat."""

import numpy as np
from numba import njit

from skip_ai import cards
from skip_ai.kernel.bits import bit, sample_mask, to_list
from skip_ai.kernel.state import (
    CHANCE,
    DECK,
    H_CUR,
    H_DEALT,
    H_PLAYERS,
    HAND,
    MAX_SEATS,
    NUM_CARDS,
    dealing,
    init_common,
    move_to_hand,
    new_state,
    param,
    plan_round_robin,
    seat_teams,
    standard_deck,
    team_of,
    team_seats,
)

from .layout import (
    BLACK_CARDS,
    CH_CELL,
    CH_DRAWER,
    CH_LEFT,
    CH_NEAR,
    CH_NEAR_N,
    CH_PER_SEAT,
    P_DECK,
    P_FIRST,
    P_PLAYERS,
    P_SEATING,
    RED_CARDS,
    STATE_SIZE,
    draws_per_seat,
)


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    players, deck_size = params[P_PLAYERS], params[P_DECK]
    init_common(s, players, standard_deck(deck_size, False))
    seat_teams(s, params[P_SEATING])
    seats = np.empty(MAX_SEATS, np.int64)
    # Red's seats the red half, then Black's the black; extras: each team's first two seats
    # (side by side 0, 1 and k, k+1; alternately 0, 2 and 1, 3)
    for team in range(2):
        n = to_list(team_seats(s, team), seats)
        plan_round_robin(s, deck_size // 2, seats[:n], seats[:2])
    s[CH_PER_SEAT] = draws_per_seat(players, deck_size)
    s[CH_LEFT] = s[CH_PER_SEAT]
    for c in range(NUM_CARDS):
        s[CH_CELL + c] = -1
    centre = deck_size // 4 - 1
    s[CH_NEAR + centre] = bit(centre)  # the first card's cell
    s[CH_NEAR_N] = 1
    return s


@njit(cache=True, inline="always")
def _chance_mask(s):
    """The outcomes of the chance node: undealt cards of the colour being dealt, or the cards
    of the drawn-from seat's original hand it still holds."""
    if dealing(s):
        # the red cards are dealt first, half the deck
        return s[DECK] & (RED_CARDS if s[H_DEALT] < param(s, P_DECK) // 2 else BLACK_CARDS)
    n = s[H_PLAYERS]
    source = n - 1 - s[CH_DRAWER]
    return s[HAND + source] & (RED_CARDS if team_of(s, source) == cards.RED else BLACK_CARDS)


@njit(cache=True)
def chance_outcomes(s, out):
    return to_list(_chance_mask(s), out)


# The three kernel functions of a playout step (sample_chance, random_legal, apply_action) are
# inlined into the engine's playout loop, which makes whole playouts about 6% faster.
@njit(cache=True, inline="always")
def sample_chance(s, rng):
    return sample_mask(_chance_mask(s), rng)


@njit(cache=True, inline="always")
def draw_blind(s, a):
    """A blind draw: card ``a`` goes from the opposite seat's hand to the drawer's. The seat
    opposite seat i, n-1-i, is an opponent however the partners sit (i and n-1-i differ in
    parity, n being even), so the draws keep their sense under the ``seating`` lever."""
    n = s[H_PLAYERS]
    drawer = s[CH_DRAWER]
    source = n - 1 - drawer
    move_to_hand(s, a, drawer, 1 << source)
    left = s[CH_LEFT] - 1
    nxt = drawer
    if left == 0:  # the next seat draws
        nxt += 1
        left = s[CH_PER_SEAT]
    s[CH_LEFT] = left
    s[CH_DRAWER] = nxt
    # after the last draw the first seat starts (the rules: seat 0)
    s[H_CUR] = param(s, P_FIRST) if nxt == n else CHANCE
    return (1 << drawer) | (1 << source)
