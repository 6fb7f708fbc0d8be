"""The fallback of the resampler: a depth-first search for a world that fits every public
fact, for positions so constrained that uniform draws rarely fit (e.g. two picture bids)."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit
from skip_ai.kernel.resample import shuffle
from skip_ai.kernel.state import HAND, KNOWN, LOC, LOC_NONE, LOC_UNSEEN, captain, partner_of

from .facts import counts_may_fit, seat_facts_hold, team_facts_hold
from .layout import SX_R1


@njit(cache=True)
def fitting_assignment(s, f, cards_, places, known, occupant, first, hidden, m, rng, assign):
    """Into ``assign``, a world that fits every fact, for when ``TRIES`` uniform worlds did
    not (a few very constrained positions, e.g. two picture bids): a depth-first search over
    the slots in canonical order, each trying the hidden cards in one random order. Alike
    slots (same place, known bits and round) take their cards in that order, so a hand is
    tried once as a set, and a seat's facts (and its team's, once both partners are
    complete) are checked as soon as its last slot is filled. The true world fits, so one
    is always found; like the slots it depends only on what ``p`` knows and on ``rng``."""
    perm = np.empty(m, np.int64)
    shuffle(m, rng, perm)
    w = s.copy()  # the cards placed so far; the hidden ones nowhere yet
    w[SX_R1] = s[SX_R1] & ~hidden
    for q in range(4):
        w[HAND + q] &= ~hidden
    for j in range(m):
        w[LOC + cards_[j]] = LOC_NONE
        w[KNOWN + cards_[j]] = 0
    last = np.full(4, -1, np.int64)  # each seat's last slot
    owner = np.empty(m, np.int64)  # whose cards each slot holds; 4: nobody's
    left = np.zeros(5, np.int64)  # slots not filled yet, per owner
    for i in range(m):
        q = slot_owner(places[i], known[i])
        owner[i] = q if q >= 0 else 4
        left[owner[i]] += 1
        if q >= 0:
            last[q] = i
    unplaced = hidden
    used = np.zeros(m, np.bool_)
    pos = np.full(m, -1, np.int64)  # each filled slot's card, as a position in ``perm``
    i = 0
    while i < m:
        k = pos[i]
        if k >= 0:  # try this slot's next card
            take_card(w, cards_[perm[k]], places[i])
            used[perm[k]] = False
            unplaced |= bit(cards_[perm[k]])
            left[owner[i]] += 1
        elif (
            i > 0
            and places[i - 1] == places[i]
            and known[i - 1] == known[i]
            and first[occupant[i - 1]] == first[occupant[i]]
        ):
            k = pos[i - 1]
        k += 1
        left[owner[i]] -= 1
        while k < m:
            j = perm[k]
            if not used[j] and f[i, j]:
                c = cards_[j]
                put_card(w, c, places[i], known[i], first[occupant[i]])
                ok = counts_may_fit(w, left, unplaced & ~bit(c))
                for q in range(4):
                    if ok and last[q] == i and not seat_facts_hold(w, q):
                        ok = False
                for t in range(2):
                    q = captain(w, t)
                    if (
                        ok
                        and max(last[q], last[partner_of(w, q)]) == i
                        and not team_facts_hold(w, t)
                    ):
                        ok = False
                if ok:
                    break
                take_card(w, c, places[i])
            k += 1
        if k < m:
            used[perm[k]] = True
            unplaced &= ~bit(cards_[perm[k]])
            pos[i] = k
            i += 1
        else:
            left[owner[i]] += 1
            pos[i] = -1
            i -= 1
            if i < 0:
                raise ValueError("resample: no world fits the public facts")
    for i in range(m):
        assign[i] = perm[pos[i]]


@njit(cache=True, inline="always")
def slot_owner(place, kn):
    """The seat whose cards a slot holds: his hand, or his own face-down discard; else -1."""
    if 0 <= place < 4:
        return place
    if place == LOC_UNSEEN:
        for q in range(4):
            if kn == 1 << q:
                return q
    return -1


@njit(cache=True, inline="always")
def put_card(w, c, place, kn, is_first):
    w[LOC + c] = place
    w[KNOWN + c] = kn
    if 0 <= place < 4:
        w[HAND + place] |= bit(c)
    if is_first:
        w[SX_R1] |= bit(c)


@njit(cache=True, inline="always")
def take_card(w, c, place):
    w[LOC + c] = LOC_NONE
    w[KNOWN + c] = 0
    if 0 <= place < 4:
        w[HAND + place] &= ~bit(c)
    w[SX_R1] &= ~bit(c)
