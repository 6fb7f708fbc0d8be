"""The kernel's moves by phase: legal actions, a random legal action, applying a decision or a
chance outcome. Each phase's rules live in its own module; this one dispatches. (The helpers
of the most frequent nodes, a card played or dealt, are inlined into it: as calls they cost
random playouts 6%.)"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, kth, lowest, popcount, to_list
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import CHANCE, DECK, H_CUR, H_MOVES, HAND, all_seats

from .deal import deal_card
from .extras.contracts import (
    apply_bid,
    bids_legal,
    contract_play_legal,
    discard,
    discards_legal,
)
from .extras.cut import cut
from .extras.nines_games import apply_nines_game, nines_game_legal
from .extras.offers import apply_offer, offer_legal
from .extras.redeal import apply_redeal, redeal_legal
from .layout import (
    PH_BID,
    PH_CPLAY,
    PH_CUT,
    PH_DISCARD,
    PH_OFFER,
    PH_PLAY,
    PH_REDEAL,
    PH_REVEAL,
    PH_TRUMP,
    SX_PHASE,
)
from .play import play_card, play_legal
from .trump import choose_trump, reveal, trump_legal


@njit(cache=True)
def legal_masks(s):
    """(mask of legal card ids, mask of legal actions >= 52 as bits ``a - 52``)."""
    cur = s[H_CUR]
    ph = s[SX_PHASE]
    held = s[HAND + cur]
    none = np.int64(0)
    if ph == PH_PLAY:
        return play_legal(s, cur, held)
    if ph == PH_CPLAY:
        return contract_play_legal(s, cur, held), none
    if ph == PH_TRUMP:
        return none, trump_legal(s, held)
    if ph == PH_REDEAL:
        return none, redeal_legal(s, cur, held)
    if ph == PH_BID:
        return none, bids_legal(s, cur)
    if ph == PH_DISCARD:
        return discards_legal(s, cur, held), none
    if ph == PH_OFFER:
        return none, offer_legal(s, cur, held)
    return nines_game_legal(s, cur, held)


@njit(cache=True)
def legal_actions(s, out):
    cards_mask, extra = legal_masks(s)
    n = to_list(cards_mask, out)
    while extra:
        out[n] = 52 + lowest(extra)
        n += 1
        extra &= extra - 1
    return n


@njit(cache=True)
def random_legal(s, rng):
    cards_mask, extra = legal_masks(s)
    nc = popcount(cards_mask)
    k = below(rng, nc + popcount(extra))
    if k < nc:
        return kth(cards_mask, k)
    return 52 + kth(extra, k - nc)


@njit(cache=True)
def apply_chance(s, c):
    """A cut, a card revealed to E, or a dealt card; returns the seats that saw it."""
    s[DECK] &= ~bit(c)
    ph = s[SX_PHASE]
    if ph == PH_CUT:
        cut(s, c)
        return all_seats(s)
    if ph == PH_REVEAL:
        reveal(s, c)
        return all_seats(s)
    return deal_card(s, c)


@njit(cache=True)
def apply_action(s, a):
    s[H_MOVES] += 1
    cur = s[H_CUR]
    if cur == CHANCE:
        return apply_chance(s, a)
    ph = s[SX_PHASE]
    if ph == PH_PLAY or ph == PH_CPLAY:
        play_card(s, cur, a)
    elif ph == PH_TRUMP:
        choose_trump(s, a)
    elif ph == PH_REDEAL:
        apply_redeal(s, cur, a)
    elif ph == PH_BID:
        apply_bid(s, cur, a)
    elif ph == PH_DISCARD:
        discard(s, cur, a)
        return 1 << cur  # face down: only the discarder sees it
    elif ph == PH_OFFER:
        apply_offer(s, cur, a)
    else:
        return apply_nines_game(s, cur, a)
    return all_seats(s)
