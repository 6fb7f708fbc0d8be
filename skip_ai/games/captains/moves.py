"""The moves of Two Captains and Little Country: the legal actions (listed the long way, and
counted and sampled from the masks the state keeps; the tests compare the two), and applying a
move or a dealt card."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, kth, lowest, popcount, to_list
from skip_ai.kernel.fields import (
    F_BY_SUIT,
    F_PASSES,
    F_PILES,
    NO_SUIT,
    add_to_pile,
    discard,
    end_turn,
    forced_pass,
    lay_pile,
    piles_for,
    remove_pile,
)
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import (
    CHANCE,
    H_CUR,
    H_MOVES,
    HAND,
    PELICAN0,
    all_seats,
    deal_card,
    dealing,
    next_seat,
    param,
    team_of,
)

from .actions import ADD0, BEAT0, CHILD0, LAY_PELICAN0, PASS, PELICAN_CHILD0
from .deck import JOKERS, PELICANS, SUIT_CARDS, colour_mask
from .layout import CP_ADDABLE, CP_BEAT, CP_CHILDREN, CP_GUARDED, P_FIRST, P_LITTLE
from .little_country import (
    can_bear_child,
    child_suits,
    lay_child,
    lay_pelican,
    lay_pelican_child,
    pelican_children,
    release_guards,
    wed_or_guard,
)
from .piles import can_add, can_beat, playable_mask, refresh, set_beat

LIST, COUNT = -1, -2


@njit(cache=True, inline="always")
def _moves(s, out, k):
    """The legal actions of the player to move, ascending.

    ``k == LIST``: write them into ``out`` and return their number; ``k == COUNT``: only
    count them; ``k >= 0``: return the k-th of them. One function for listing, counting and
    sampling keeps the legal list and the random sampler identical."""
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    own = held & colour_mask(team)
    theirs = held & ~own & ~PELICANS
    write = k == LIST
    n = popcount(own)  # LAY: every card of the own colour
    if k >= 0 and k < n:
        return kth(own, k)
    if write:
        to_list(own, out)
    m = own
    while m:  # ADD
        c = lowest(m)
        m &= m - 1
        piles = piles_for(s, c, team)
        while piles:
            b = lowest(piles)
            piles &= piles - 1
            if can_add(s, c, b):
                if n == k:
                    return ADD0 + 54 * c + b
                if write:
                    out[n] = ADD0 + 54 * c + b
                n += 1
    m = theirs
    while m:  # BEAT
        c = lowest(m)
        m &= m - 1
        piles = piles_for(s, c, 1 - team)
        while piles:
            b = lowest(piles)
            piles &= piles - 1
            if can_beat(s, c, b):
                if n == k:
                    return BEAT0 + 54 * c + b
                if write:
                    out[n] = BEAT0 + 54 * c + b
                n += 1
    m = own & child_suits(s)
    while m:  # CHILD
        c = lowest(m)
        m &= m - 1
        if can_bear_child(s, c, team):
            if n == k:
                return CHILD0 + c
            if write:
                out[n] = CHILD0 + c
            n += 1
    m = held & PELICANS  # LAY_PELICAN
    while m:
        a = LAY_PELICAN0 + lowest(m) - PELICAN0
        m &= m - 1
        if n == k:
            return a
        if write:
            out[n] = a
        n += 1
    m = pelican_children(s, own, team)
    while m:  # PELICAN_CHILD
        a = PELICAN_CHILD0 + lowest(m)
        m &= m - 1
        if n == k:
            return a
        if write:
            out[n] = a
        n += 1
    if n == 0:
        if k == 0:
            return PASS
        if write:
            out[0] = PASS
        n = 1
    return n


@njit(cache=True)
def legal_actions(s, out):
    return _moves(s, out, LIST)


@njit(cache=True)
def random_legal(s, rng):
    """Exactly ``legal_actions(s)[below(rng, n)]``, counted and picked from the masks kept in
    the state (``CP_BEAT`` ...): LAY and ADD by suit blocks (every card of a suit joins the
    same piles), BEAT pile by pile, then card by card when one is picked. ``legal_actions``
    lists the same moves the long way (``_moves``), which the tests compare."""
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    own = held & colour_mask(team)
    theirs = held & ~own & ~PELICANS
    addable = s[CP_ADDABLE] & s[F_PILES + team]
    jokerless = popcount(addable & s[F_BY_SUIT + NO_SUIT])
    n_lay = popcount(own)
    n_add = popcount(own & JOKERS) * popcount(addable)
    first = 2 - 2 * team  # the suits of the team's colour: 2, 3 (red) or 0, 1 (black)
    for suit in range(first, first + 2):
        n_add += popcount(own & (SUIT_CARDS << (13 * suit))) * (
            popcount(addable & s[F_BY_SUIT + suit]) + jokerless
        )
    n_beat = 0
    beaters = np.int64(0)  # the cards in hand that beat some opponent pile
    opponents = s[F_PILES + 1 - team]
    m = opponents
    while m:
        x = theirs & s[CP_BEAT + lowest(m)]
        m &= m - 1
        n_beat += popcount(x)
        beaters |= x
    children = own & s[CP_CHILDREN]
    pelicans = held & PELICANS
    pelican_child_cards = pelican_children(s, own, team)
    n_children = popcount(children)
    n_pelicans = popcount(pelicans)
    total = n_lay + n_add + n_beat + n_children + n_pelicans + popcount(pelican_child_cards)
    k = below(rng, total if total > 0 else 1)
    if total == 0:
        return PASS
    if k < n_lay:
        return kth(own, k)
    k -= n_lay
    if k < n_add:
        for suit in range(first, 5):
            if suit < 4:
                cards_ = own & (SUIT_CARDS << (13 * suit))
                piles = addable & (s[F_BY_SUIT + suit] | s[F_BY_SUIT + NO_SUIT])
            else:
                cards_ = own & JOKERS
                piles = addable
            per_card = popcount(piles)
            block = popcount(cards_) * per_card
            if k < block:
                while k >= per_card:  # the card, then the pile: no division
                    k -= per_card
                    cards_ &= cards_ - 1
                return ADD0 + 54 * lowest(cards_) + kth(piles, k)
            k -= block
    k -= n_add
    if k < n_beat:
        m = beaters
        while m:
            c = lowest(m)
            m &= m - 1
            piles = np.int64(0)  # the opponent piles ``c`` beats
            q = opponents
            while q:
                b = lowest(q)
                q &= q - 1
                piles |= ((s[CP_BEAT + b] >> c) & 1) << b
            cnt = popcount(piles)
            if k < cnt:
                return BEAT0 + 54 * c + kth(piles, k)
            k -= cnt
    k -= n_beat
    if k < n_children:
        return CHILD0 + kth(children, k)
    k -= n_children
    if k < n_pelicans:
        return LAY_PELICAN0 + kth(pelicans, k) - PELICAN0
    return PELICAN_CHILD0 + kth(pelican_child_cards, k - n_pelicans)


@njit(cache=True, inline="always")
def _lay(s, cur, team, c):
    lay_pile(s, c, team)
    if param(s, P_LITTLE) and c < 52:
        wed_or_guard(s, cur, team, c)
    refresh(s, c, team)


@njit(cache=True, _nrt=False)
def apply_action(s, a):
    # no reference counting of ``s`` (``_nrt=False``: the caller owns it and nothing here
    # allocates), which otherwise costs about as much as the move itself
    s[H_MOVES] += 1
    cur = s[H_CUR]
    vis = all_seats(s)
    if cur == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = param(s, P_FIRST)
    else:
        _move(s, cur, a)
    return vis


@njit(cache=True, inline="always")
def _move(s, cur, a):
    team = team_of(s, cur)
    if a == PASS:
        forced_pass(s, cur, playable_mask(s, team))
    else:
        s[F_PASSES] = 0
        if a < ADD0:
            _lay(s, cur, team, a)
        elif a < BEAT0:
            b = (a - ADD0) % 54
            add_to_pile(s, (a - ADD0) // 54, b, team)
            refresh(s, b, team)
        elif a < PASS:
            b = (a - BEAT0) % 54
            remove_pile(s, b, 1 - team)
            discard(s, (a - BEAT0) // 54)
            set_beat(s, b, np.int64(0))
            s[CP_ADDABLE] &= ~bit(b)
        elif a < LAY_PELICAN0:
            lay_child(s, team, a - CHILD0)
        elif a < PELICAN_CHILD0:
            lay_pelican(s, team, PELICAN0 + a - LAY_PELICAN0)
        else:
            lay_pelican_child(s, team, a - PELICAN_CHILD0)
    nxt = next_seat(s, cur)
    if s[CP_GUARDED]:
        release_guards(s, nxt)
    end_turn(s, nxt)
