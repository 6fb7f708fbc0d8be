"""Re-deal the cards hidden from one player, consistently with everything public.

The hidden cards of player ``p`` are the cards whose place ``p`` does not know: other hands
(except cards publicly known to be there), the undealt deck and face-down piles. Each hidden
card occupies a *slot* (its place, with the ``KNOWN`` bits of that slot). A resample is a
permutation of the hidden cards over the slots such that no card lands in the hand of a seat
that public events proved lacks it (``NOT_HOLD``). It is returned as ``sigma``: ``sigma[c]`` is
the card that now plays ``c``'s part, the identity on every card ``p`` knows, so rewriting a
history's card ids through ``sigma`` replays to the resampled state.

Canonical order: the candidate cards are listed by id and the slots by what ``p`` can see of
them (place, ``KNOWN`` bits, and a game's own slot ``kind``), never by the card now in them. So
the resampled world depends only on ``p``'s information and the generator: two states that
differ only in cards hidden from ``p`` resample to the same world for the same generator. That
is what keeps ISMCTS from ever reacting to hidden cards.

Planning: a search re-deals the same player's hidden cards from the same root thousands of
times, so the work that depends only on the root (finding the hidden cards, sorting their
slots) is done once by ``plan_hidden`` into a *plan*, and ``redeal`` draws each world from it.
A game whose hidden cards fall into classes that only swap among themselves (Chains' colours)
passes a per-card ``kind``: each class is shuffled over its own slots. ``resample_hidden`` is
the two together, with no classes.

Sampling: up to ``REJECTION_TRIES`` uniform shuffles are tried (exactly uniform over the
consistent worlds when one is accepted); if none fits, a randomised augmenting-path matching
finds a consistent world, which always exists because the true one is.
"""

import numpy as np
from numba import njit

from .bits import bit
from .rng import below
from .state import (
    DECK,
    HAND,
    KNOWN,
    LOC,
    LOC_DECK,
    MAX_CARDS,
    MAX_SEATS,
    NOT_HOLD,
    hidden_from,
    rebuild_masks,
)

REJECTION_TRIES = 16


@njit(cache=True)
def hidden_slots(s, p, kind, cards, places, known, occupant):
    """The cards hidden from ``p``, ascending, in ``cards``, and their slots in canonical order:
    slot ``i`` is at ``places[i]`` with ``known[i]``, now holds ``occupant[i]``, and is sorted by
    (place, known, ``kind[occupant]``). ``kind`` is a per-card class that the slot keeps
    whichever card fills it (e.g. Chains' colours; zeros where a game has none). Returns the
    number of hidden cards."""
    m = 0
    for c in range(MAX_CARDS):
        if hidden_from(s, c, p):
            cards[m] = c
            # insertion sort by key (``known`` holds the keys meanwhile); stable, as the cards
            # come in ascending order
            key = ((s[LOC + c] + 2) * 64 + s[KNOWN + c]) * 64 + kind[c]
            j = m
            while j > 0 and known[j - 1] > key:
                known[j] = known[j - 1]
                occupant[j] = occupant[j - 1]
                j -= 1
            known[j] = key
            occupant[j] = c
            m += 1
    for i in range(m):
        c = occupant[i]
        places[i] = s[LOC + c]
        known[i] = s[KNOWN + c]
    return m


@njit(cache=True)
def default_feasibility(s, cards, places, m):
    """``F[i, j]``: may card ``cards[j]`` fill slot ``i``? Only ``NOT_HOLD`` restricts it."""
    f = np.ones((m, m), dtype=np.bool_)
    for i in range(m):
        seat = places[i]
        if 0 <= seat < MAX_SEATS:
            absent = s[NOT_HOLD + seat]
            for j in range(m):
                if (absent >> cards[j]) & 1:
                    f[i, j] = False
    return f


@njit(cache=True, inline="always")
def shuffle(m, rng, assign):
    """A uniform permutation of ``0 .. m-1`` into ``assign`` (Fisher–Yates)."""
    for i in range(m):
        assign[i] = i
    for i in range(m - 1, 0, -1):
        j = below(rng, i + 1)
        assign[i], assign[j] = assign[j], assign[i]


@njit(cache=True)
def sample_assignment(f, m, rng, assign):
    """Fill ``assign[i]`` with the index of the card for slot ``i`` so that ``f`` allows it."""
    for _ in range(REJECTION_TRIES):
        shuffle(m, rng, assign)
        ok = True
        for i in range(m):
            if not f[i, assign[i]]:
                ok = False
                break
        if ok:
            return
    _random_matching(f, m, rng, assign)


@njit(cache=True)
def _random_matching(f, m, rng, assign):
    """A perfect matching of slots to cards by BFS augmenting paths in random order."""
    slot_order = np.arange(m)
    card_order = np.arange(m)
    for i in range(m - 1, 0, -1):
        j = below(rng, i + 1)
        slot_order[i], slot_order[j] = slot_order[j], slot_order[i]
        j = below(rng, i + 1)
        card_order[i], card_order[j] = card_order[j], card_order[i]
    card_slot = np.full(m, -1, np.int64)
    for i in range(m):
        assign[i] = -1
    parent = np.empty(m, np.int64)
    seen = np.empty(m, np.bool_)
    queue = np.empty(m, np.int64)
    for u in slot_order:
        seen[:] = False
        queue[0] = u
        head, tail, free = 0, 1, -1
        while head < tail and free < 0:
            x = queue[head]
            head += 1
            off = below(rng, m)
            for k in range(m):
                v = card_order[(k + off) % m]
                if seen[v] or not f[x, v]:
                    continue
                seen[v] = True
                parent[v] = x
                if card_slot[v] < 0:
                    free = v
                    break
                queue[tail] = card_slot[v]
                tail += 1
        if free < 0:
            raise ValueError("resample: no world is consistent with the public events")
        v = free
        while v >= 0:
            x = parent[v]
            prev = assign[x]
            assign[x] = v
            card_slot[v] = x
            v = prev


@njit(cache=True)
def relabel(s, cards, places, known, occupant, assign, m, sigma):
    """Put card ``cards[assign[i]]`` into slot ``i`` and record ``sigma``."""
    for c in range(MAX_CARDS):
        sigma[c] = c
    for i in range(m):
        new = cards[assign[i]]
        sigma[occupant[i]] = new
        s[LOC + new] = places[i]
        s[KNOWN + new] = known[i]
    rebuild_masks(s)


@njit(cache=True, inline="always")
def _fits(s, cards, places, assign, m):
    """Does every slot's new card respect ``NOT_HOLD``?"""
    for i in range(m):
        seat = places[i]
        if 0 <= seat < MAX_SEATS and (s[NOT_HOLD + seat] >> cards[assign[i]]) & 1:
            return False
    return True


# ----- plans: what a re-deal needs, computed once per root --------------------------------

P_PLAYER = 0  # the observer
P_M = 1  # hidden cards
P_HIDDEN = 2  # their mask
P_GROUPS = 3  # classes of cards that swap among themselves
P_CONSTRAINED = 4  # 1 when some slot's seat is proved to lack some hidden card
_HEAD = 8
(_CARDS, _PLACES, _KNOWN, _OCCUPANT, _SLOTS, _CANDS, _SLOT_GROUP, _CARD_GROUP, _ASSIGN, _PART) = (
    _HEAD + k * MAX_CARDS for k in range(10)
)
_BOUNDS = _HEAD + 10 * MAX_CARDS  # group g is slots[bounds[g]:bounds[g + 1]] (and cands)
PLAN_SIZE = _BOUNDS + MAX_CARDS + 1
"""Length of the int64 array a plan lives in (part of it is the re-deal's scratch)."""

NO_KIND = np.zeros(MAX_CARDS, np.int64)
"""The ``kind`` of a game whose hidden cards may go to any hidden slot."""


@njit(cache=True)
def plan_hidden(s, p, kind, plan):
    """Fill ``plan`` for re-dealing the cards hidden from ``p`` in ``s``: the canonical slots
    (``hidden_slots``) and, per ``kind`` class (``0 <= kind < MAX_CARDS``) in ascending order,
    its slots and its cards."""
    m = hidden_slots(s, p, kind, plan[_CARDS:], plan[_PLACES:], plan[_KNOWN:], plan[_OCCUPANT:])
    plan[P_PLAYER] = p
    plan[P_M] = m
    hidden = np.int64(0)
    constrained = 0
    for i in range(m):
        c = plan[_CARDS + i]
        hidden |= bit(c)
        plan[_SLOT_GROUP + i] = kind[plan[_OCCUPANT + i]]
        plan[_CARD_GROUP + i] = kind[c]
    for i in range(m):
        seat = plan[_PLACES + i]
        if 0 <= seat < MAX_SEATS and s[NOT_HOLD + seat] & hidden:
            constrained = 1
    plan[P_HIDDEN] = hidden
    plan[P_CONSTRAINED] = constrained
    # classes in ascending kind; within one, slots and cards keep their canonical order
    g = 0
    k = 0
    last = -1
    while k < m:
        low = MAX_CARDS
        for i in range(m):
            if last < plan[_SLOT_GROUP + i] < low:
                low = plan[_SLOT_GROUP + i]
        plan[_BOUNDS + g] = k
        j = k
        for i in range(m):
            if plan[_SLOT_GROUP + i] == low:
                plan[_SLOTS + k] = i
                k += 1
            if plan[_CARD_GROUP + i] == low:
                plan[_CANDS + j] = i
                j += 1
        last = low
        g += 1
    plan[_BOUNDS + g] = m
    plan[P_GROUPS] = g


@njit(cache=True)
def redeal(s, plan, rng, sigma):
    """Re-deal, in ``s`` (a copy of the plan's state), the hidden cards by ``plan``: a uniform
    world among those respecting ``NOT_HOLD`` (and the classes). ``sigma`` receives the card
    permutation."""
    m = plan[P_M]
    assign = plan[_ASSIGN : _ASSIGN + m]
    part = plan[_PART:]
    cards = plan[_CARDS:]
    places = plan[_PLACES:]
    for _ in range(REJECTION_TRIES):
        for g in range(plan[P_GROUPS]):
            lo = plan[_BOUNDS + g]
            k = plan[_BOUNDS + g + 1] - lo
            shuffle(k, rng, part)
            for i in range(k):
                assign[plan[_SLOTS + lo + i]] = plan[_CANDS + lo + part[i]]
        if plan[P_CONSTRAINED] == 0 or _fits(s, cards, places, assign, m):
            break
    else:
        _random_matching(_feasibility(s, plan), m, rng, assign)
    # the masks change only for the hidden cards
    hidden = plan[P_HIDDEN]
    for seat in range(MAX_SEATS):
        s[HAND + seat] &= ~hidden
    s[DECK] &= ~hidden
    for c in range(MAX_CARDS):
        sigma[c] = c
    for i in range(m):
        new = cards[assign[i]]
        sigma[plan[_OCCUPANT + i]] = new
        place = places[i]
        s[LOC + new] = place
        s[KNOWN + new] = plan[_KNOWN + i]
        if 0 <= place < MAX_SEATS:
            s[HAND + place] |= bit(new)
        elif place == LOC_DECK:
            s[DECK] |= bit(new)


@njit(cache=True)
def _feasibility(s, plan):
    """``default_feasibility`` restricted to the plan's classes."""
    m = plan[P_M]
    f = default_feasibility(s, plan[_CARDS:], plan[_PLACES:], m)
    for i in range(m):
        for j in range(m):
            if plan[_SLOT_GROUP + i] != plan[_CARD_GROUP + j]:
                f[i, j] = False
    return f


@njit(cache=True)
def resample_kinds(s, p, kind, rng, sigma):
    """Resample in place every card hidden from ``p``, each ``kind`` class over its own slots;
    ``sigma`` receives the card permutation."""
    plan = np.empty(PLAN_SIZE, np.int64)
    plan_hidden(s, p, kind, plan)
    redeal(s, plan, rng, sigma)


@njit(cache=True)
def resample_hidden(s, p, rng, sigma):
    """Resample in place every card hidden from ``p`` (the default for games whose only
    constraints are ``NOT_HOLD``); ``sigma`` receives the card permutation."""
    resample_kinds(s, p, NO_KIND, rng, sigma)


@njit(cache=True)
def plan_player_only(s, p, plan):
    """The plan of a game whose ``resample`` checks its constraints world by world (nothing
    to do once per root): only the player; its ``resample_planned`` calls ``resample``."""
    plan[P_PLAYER] = p


@njit(cache=True)
def plan_default(s, p, plan):
    """The plan of ``resample_hidden`` (the kernel API's ``resample_plan`` for such games)."""
    plan_hidden(s, p, NO_KIND, plan)
