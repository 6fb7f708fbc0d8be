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

Sampling: up to ``REJECTION_TRIES`` uniform shuffles are tried (exactly uniform over the
consistent worlds when one is accepted); if none fits, a randomised augmenting-path matching
finds a consistent world, which always exists because the true one is.
"""

import numpy as np
from numba import njit

from .rng import below
from .state import KNOWN, LOC, MAX_SEATS, NOT_HOLD, NUM_CARDS, hidden_from, rebuild_masks

REJECTION_TRIES = 16


@njit(cache=True)
def hidden_slots(s, p, kind, cards, places, known, occupant):
    """The cards hidden from ``p``, ascending, in ``cards``, and their slots in canonical order:
    slot ``i`` is at ``places[i]`` with ``known[i]``, now holds ``occupant[i]``, and is sorted by
    (place, known, ``kind[occupant]``). ``kind`` is a per-card class that the slot keeps
    whichever card fills it (e.g. Chains' colours; zeros where a game has none). Returns the
    number of hidden cards."""
    m = 0
    for c in range(NUM_CARDS):
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
    for c in range(NUM_CARDS):
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


@njit(cache=True)
def resample_hidden(s, p, rng, sigma):
    """Resample in place every card hidden from ``p`` (the default for games whose only
    constraints are ``NOT_HOLD``); ``sigma`` receives the card permutation."""
    # one allocation for every scratch array: this runs once per ISMCTS iteration
    scratch = np.zeros(6 * NUM_CARDS, np.int64)
    kind = scratch[:NUM_CARDS]
    cards = scratch[NUM_CARDS:2 * NUM_CARDS]
    places = scratch[2 * NUM_CARDS:3 * NUM_CARDS]
    known = scratch[3 * NUM_CARDS:4 * NUM_CARDS]
    occupant = scratch[4 * NUM_CARDS:5 * NUM_CARDS]
    assign = scratch[5 * NUM_CARDS:]
    m = hidden_slots(s, p, kind, cards, places, known, occupant)
    # sample_assignment's rejection tries, checking NOT_HOLD directly instead of building the
    # m × m feasibility matrix, which only the (rare) matching fallback needs
    for _ in range(REJECTION_TRIES):
        shuffle(m, rng, assign)
        if _fits(s, cards, places, assign, m):
            break
    else:
        _random_matching(default_feasibility(s, cards, places, m), m, rng, assign)
    relabel(s, cards, places, known, occupant, assign, m, sigma)
