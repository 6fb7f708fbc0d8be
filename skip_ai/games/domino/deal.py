"""The start of Domino: the deck, the cards removed unseen, the initial state. The deal is the
game's only chance event (``kernel.state.undealt_cards``)."""

from numba import njit

from skip_ai.kernel.state import EXTRAS_3V3, new_state, seat_teams, setup_deal, standard_deck
from skip_ai.kernel.tricks import init_tricks

from .grid import clear_grid
from .layout import P_DECK, P_PLAYERS, P_REMOVE4, P_SEATING, REMOVED, STATE_SIZE


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    unseen = REMOVED if params[P_REMOVE4] else 0
    setup_deal(s, params[P_PLAYERS], standard_deck(params[P_DECK], False), unseen, EXTRAS_3V3)
    seat_teams(s, params[P_SEATING])
    init_tricks(s)
    clear_grid(s)
    return s
