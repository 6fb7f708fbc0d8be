"""Rummy's start: the hand size (rule 1) and the initial state. Every chance node draws
uniformly from the undealt cards: the deal, the up-card, the stock draws
(``kernel.state.undealt_cards``)."""

import numpy as np
from numba import njit

from skip_ai.kernel.state import init_common, new_state, plan_round_robin, standard_deck

from .layout import DEAL, P_PLAYERS, RM_CLAIMED, RM_DISCARDER, RM_PHASE, RM_WINNER, STATE_SIZE


@njit(cache=True)
def hand_size_for(players):
    """h of rule 1."""
    if players == 2:
        return 10
    return 7 if players <= 4 else 6


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    n = params[P_PLAYERS]
    init_common(s, n, standard_deck(52, False))
    plan_round_robin(s, n * hand_size_for(n), np.arange(n), np.zeros(0, np.int64))
    s[RM_PHASE] = DEAL
    s[RM_WINNER] = -1
    s[RM_DISCARDER] = -1
    s[RM_CLAIMED] = -1
    return s
