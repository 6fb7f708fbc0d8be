"""Pyatki's resampler: the cards hidden from a player re-dealt consistently with the two
public events that depend on hidden cards.

What a player knows, beyond the common state: accepted cards, picked cards, a drawn trump
card and (pairs) the dealt card showing the trump and the lowest trump are known to every
seat (``KNOWN``); stock draws are seen by the drawer only. Two public events depend on hidden
cards, and ``resample`` keeps both: who attacked first (Pyatki: the opener held the lowest
trump of the initial hands, or nobody held one and he is seat 0 — unless the ``opener`` lever
named him, which reveals nothing; shown as the information state's ``public_record``), and,
while an attack is built, that the attacker holds higher cards completing his picks.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.attack import (
    AT_ATTACKER,
    AT_CARDS,
    AT_DEFENDING,
    AT_PICKED,
    AT_SIZE,
    AT_TRUMP,
    ROW,
    completable,
    limit,
)
from skip_ai.kernel.bits import bit, lowest
from skip_ai.kernel.resample import P_PLAYER, hidden_slots, relabel
from skip_ai.kernel.resample import plan_player_only as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.rng import below, uniform
from skip_ai.kernel.state import H_CUR, H_PLAYERS, HAND, LOC, MAX_SEATS, NUM_CARDS, param

from .layout import P_OPENER, P_PAIRS, PLAY, PY_INIT_HAND, PY_OPENER, PY_STAGE

WORLD_TRIES = 100
"""Resampled worlds drawn before the attacker's hidden cards are kept (see ``resample``)."""


@njit(cache=True, inline="always")
def _building_blocked(s, p):
    """Is an attack being built by a seat other than ``p`` (whose hand ``p`` cannot see)?"""
    att = s[AT_ATTACKER]
    return (
        s[PY_STAGE] == PLAY
        and s[H_CUR] == att
        and att != p
        and not s[AT_DEFENDING]
        and s[AT_PICKED] != 0
    )


@njit(cache=True, inline="always")
def _completes(s, cards_, places, occupant, assign, m):
    """In the world ``assign``, can the attacker still complete his picks (rule 4)?"""
    att = s[AT_ATTACKER]
    held = s[HAND + att]
    for i in range(m):
        if places[i] == att:
            held &= ~bit(occupant[i])
    for i in range(m):
        if places[i] == att:
            held |= bit(cards_[assign[i]])
    top = s[AT_CARDS + s[AT_SIZE] - 1]
    return completable(s[AT_PICKED], held & ~((np.int64(2) << top) - 1), limit(s))


@njit(cache=True, inline="always")
def _take_slot(slots, count, rng):
    """Remove and return a uniformly chosen entry of ``slots[:count]``."""
    i = below(rng, count)
    slot = slots[i]
    slots[i] = slots[count - 1]
    return slot


@njit(cache=True)
def _sample_world(s, cards_, places, initial, m, keep, rng, assign):
    """Fill ``assign`` (slot i gets card ``cards_[assign[i]]``): a slot with ``keep[i] ≥ 0``
    keeps card ``cards_[keep[i]]``, the other hidden cards go uniformly over the other slots
    among the worlds in which the opener still held the lowest trump of the initial hands
    (Pyatki §1.3; not when the ``opener`` lever named him, which reveals nothing).
    ``initial[i]``: slot ``i`` belongs to its seat's initial hand.

    Only the hidden trumps below every fixed initial trump ("low") can change the opener: the
    lowest of them that lands in an initial hand must land in the opener's. They are placed
    first, in increasing order, each either in one of the opener's initial slots (which
    settles it) or outside the initial hands, with the exact conditional odds ``g``; then the
    rest is shuffled over the remaining slots."""
    NONE = NUM_CARDS
    trumps = ROW << (13 * s[AT_TRUMP])
    opener = s[PY_OPENER]
    pinned = np.zeros(m, np.bool_)
    for i in range(m):
        if keep[i] >= 0:
            pinned[keep[i]] = True
    moving = np.int64(0)
    for j in range(m):
        if not pinned[j]:
            moving |= bit(cards_[j])
    # where the lowest fixed initial trumps are: the opener's, everybody else's
    own, other = NONE, NONE
    if not param(s, P_PAIRS) and not param(s, P_OPENER):
        for seat in range(s[H_PLAYERS]):
            fixed = s[PY_INIT_HAND + seat] & ~moving & trumps
            if fixed:
                if seat == opener:
                    own = lowest(fixed)
                else:
                    other = min(other, lowest(fixed))
        threshold = min(own, other)
        settled = own < other or (other == NONE and own == NONE and opener == 0)
    else:
        threshold, settled = -1, True
    opener_slots = np.empty(m, np.int64)
    outside = np.empty(m, np.int64)
    others = 0
    na, nn = 0, 0
    for i in range(m):
        assign[i] = keep[i]
        if keep[i] >= 0:
            continue
        seat = places[i]
        if initial[i]:
            if seat == opener:
                opener_slots[na] = i
                na += 1
            else:
                others += 1
        else:
            outside[nn] = i
            nn += 1
    low = np.empty(m, np.int64)  # indices into cards_, ascending card order
    k = 0
    for i in range(m):  # cards_ is ascending
        if not pinned[i] and (trumps >> cards_[i]) & 1 and cards_[i] < threshold:
            low[k] = i
            k += 1
    # g[j]: the chance that the opener keeps the lowest trump, given low[0..j) all landed
    # outside the initial hands
    g = np.empty(k + 1, np.float64)
    g[k] = 1.0 if settled else 0.0
    for j in range(k - 1, -1, -1):
        free_out = nn - j
        g[j] = 0.0 if free_out < 0 else (na + free_out * g[j + 1]) / (na + others + free_out)
    used = pinned.copy()
    left_out = nn
    for j in range(k):
        w_out = left_out * g[j + 1]
        if uniform(rng) * (na + w_out) < na:
            slot = opener_slots[below(rng, na)]
            assign[slot] = low[j]
            used[low[j]] = True
            break
        slot = _take_slot(outside, left_out, rng)
        left_out -= 1
        assign[slot] = low[j]
        used[low[j]] = True
    # everything else uniformly over the slots still empty
    rest = np.empty(m, np.int64)
    r = 0
    for j in range(m):
        if not used[j]:
            rest[r] = j
            r += 1
    for i in range(m):
        if assign[i] < 0:
            assign[i] = _take_slot(rest, r, rng)
            r -= 1


@njit(cache=True)
def resample(s, p, rng, sigma):
    """Re-deal every card hidden from ``p`` (slots as in ``kernel.resample``; no NOT_HOLD
    knowledge arises in these games) consistently with the public events: the opener held
    the lowest trump dealt (:func:`_sample_world`, exact), and the attacker of an attack
    being built can complete his picks (worlds where he cannot are redrawn, up to
    ``WORLD_TRIES`` times; then his hidden cards are kept and only the rest is redrawn).
    ``sigma`` receives the card permutation."""
    cards_ = np.empty(NUM_CARDS, np.int64)
    places = np.empty(NUM_CARDS, np.int64)
    known = np.empty(NUM_CARDS, np.int64)
    occupant = np.empty(NUM_CARDS, np.int64)
    in_initial = np.zeros(NUM_CARDS, np.int64)  # the slot kind: part of an initial hand
    for c in range(NUM_CARDS):
        seat = s[LOC + c]
        if 0 <= seat < MAX_SEATS and (s[PY_INIT_HAND + seat] >> c) & 1:
            in_initial[c] = 1
    m = hidden_slots(s, p, in_initial, cards_, places, known, occupant)
    initial = np.empty(m, np.bool_)
    for i in range(m):
        initial[i] = in_initial[occupant[i]] == 1
    assign = np.empty(m, np.int64)
    keep = np.full(m, -1, np.int64)
    check = _building_blocked(s, p)
    found = False
    for _ in range(WORLD_TRIES):
        _sample_world(s, cards_, places, initial, m, keep, rng, assign)
        if not check or _completes(s, cards_, places, occupant, assign, m):
            found = True
            break
    if not found:
        for i in range(m):
            if places[i] == s[AT_ATTACKER]:
                keep[i] = np.searchsorted(cards_[:m], occupant[i])
        _sample_world(s, cards_, places, initial, m, keep, rng, assign)
    # each initial hand keeps its slots, whichever cards now fill them
    hidden = np.int64(0)
    for i in range(m):
        hidden |= bit(cards_[i])
    for seat in range(s[H_PLAYERS]):
        init_hand = s[PY_INIT_HAND + seat]
        moved = init_hand & ~hidden
        for i in range(m):
            if (init_hand >> occupant[i]) & 1:
                moved |= bit(cards_[assign[i]])
        s[PY_INIT_HAND + seat] = moved
    relabel(s, cards_, places, known, occupant, assign, m, sigma)


@njit(cache=True)
def resample_planned(s, plan, rng, sigma):
    """``resample`` for the plan's player (``resample_plan`` is ``plan_player_only``)."""
    resample(s, plan[P_PLAYER], rng, sigma)
