"""Sixty-six's resampler (RULES §12.10): re-deal the cards of the current deal hidden from
player p and redraw the choices hidden from him.

The catchers' suits of an unresolved nines game that p did not make are redrawn uniformly
among the legal ones (a resolved game's catches are public and stay). Every public fact is
kept: first-round cards stay first-round cards, voids (``NOT_HOLD``, ``SX_NOT1``), and the
facts of ``facts.py``. Worlds are drawn uniformly until one fits (``TRIES``), else searched
for (``world_search``; never a world that contradicts a public event); either way they depend
only on p's information and the generator. ``remap`` writes the redrawn catches into the
replayed history.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, kth, popcount
from skip_ai.kernel.resample import (
    P_PLAYER,
    default_feasibility,
    hidden_slots,
    relabel,
    sample_assignment,
)
from skip_ai.kernel.resample import plan_player_only as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import CHANCE, H_MOVES, NUM_CARDS

from .actions import CATCH0
from .extras.nines_games import catch_suits
from .facts import facts_hold
from .layout import (
    PH_NG_CATCH,
    PH_NG_TARGET,
    SX_DEAL_START,
    SX_NG_CATCH,
    SX_NG_INIT,
    SX_NG_STEP,
    SX_NOT1,
    SX_PHASE,
    SX_R1,
)
from .seats import seat_after
from .world_search import fitting_assignment

TRIES = 4000
"""Uniform worlds drawn by ``resample`` before it searches for one that fits."""


@njit(cache=True)
def resample(s, p, rng, sigma):
    """Re-deal every card hidden from ``p`` and redraw the choices hidden from him,
    consistently with what is public (§12.10). The slots of first-round cards stay
    first-round slots (their own ``SX_NOT1`` facts) and ``NOT_HOLD`` (voids) is kept by
    construction; the other facts (``facts_hold``) by drawing up to ``TRIES`` uniform worlds
    until one fits, else by a search that always finds one (``fitting_assignment``): never
    a world that contradicts a public event. Then the catchers' suits that ``p`` did not see
    are drawn anew (``redraw_catches``). ``sigma`` receives the card permutation; the
    redrawn choices are read from the world (``remap``)."""
    resample_tries(s, p, rng, sigma, TRIES)


@njit(cache=True)
def resample_tries(s, p, rng, sigma, tries):
    """``resample`` with ``tries`` uniform worlds before the search (0: the search alone)."""
    cards_ = np.empty(NUM_CARDS, np.int64)
    places = np.empty(NUM_CARDS, np.int64)
    known = np.empty(NUM_CARDS, np.int64)
    occupant = np.empty(NUM_CARDS, np.int64)
    first = np.zeros(NUM_CARDS, np.int64)
    for c in range(NUM_CARDS):
        if (s[SX_R1] >> c) & 1:
            first[c] = 1
    m = hidden_slots(s, p, first, cards_, places, known, occupant)
    f = default_feasibility(s, cards_, places, m)
    hidden = np.int64(0)
    for i in range(m):
        hidden |= bit(cards_[i])
        seat = places[i]
        if first[occupant[i]] and 0 <= seat < 4:
            for j in range(m):
                if (s[SX_NOT1 + seat] >> cards_[j]) & 1:
                    f[i, j] = False
    assign = np.empty(m, np.int64)
    world = s.copy()
    for _ in range(tries):
        sample_assignment(f, m, rng, assign)
        place_cards(world, s, cards_, places, known, occupant, first, hidden, assign, m, sigma)
        if facts_hold(world):
            break
    else:
        fitting_assignment(s, f, cards_, places, known, occupant, first, hidden, m, rng, assign)
        place_cards(world, s, cards_, places, known, occupant, first, hidden, assign, m, sigma)
    s[:] = world
    redraw_catches(s, p, rng)


@njit(cache=True)
def place_cards(world, s, cards_, places, known, occupant, first, hidden, assign, m, sigma):
    """``world`` becomes ``s`` with card ``cards_[assign[i]]`` in slot ``i``; the cards of
    first-round slots are the first-round cards (``SX_R1``)."""
    world[:] = s
    r1 = s[SX_R1] & ~hidden
    for i in range(m):
        if first[occupant[i]]:
            r1 |= bit(cards_[assign[i]])
    relabel(world, cards_, places, known, occupant, assign, m, sigma)
    world[SX_R1] = r1


@njit(cache=True)
def redraw_catches(s, p, rng):
    """The catchers' suits of the nines game under way that ``p`` did not see, drawn anew,
    uniformly among the legal ones (§12.7.3: chosen secretly, revealed with the result).
    A resolved game's catches are public and stay."""
    ph = s[SX_PHASE]
    if ph != PH_NG_CATCH and ph != PH_NG_TARGET:
        return
    suits = catch_suits(s)
    for i in range(s[SX_NG_STEP]):
        if seat_after(s[SX_NG_INIT], 1 + 2 * i) != p:
            s[SX_NG_CATCH + i] = kth(suits, below(rng, popcount(suits)))


def remap(world: np.ndarray, before: np.ndarray, actor: int, action: int, sigma: np.ndarray) -> int:
    """``GameSpec.remap``: ``resample`` re-deals the current deal only, so the actions of
    earlier deals replay as played. In this deal chance outcomes and players' card actions go
    through ``sigma`` (a face-down discard may be a hidden card; a public card maps to
    itself), and a catch of the nines game under way in ``world`` is the suit that world drew
    (``redraw_catches``)."""
    if before[H_MOVES] < world[SX_DEAL_START]:
        return action
    if actor == CHANCE or action < NUM_CARDS:
        return int(sigma[action])
    if (
        world[SX_PHASE] in (PH_NG_CATCH, PH_NG_TARGET)
        and before[SX_PHASE] == PH_NG_CATCH
        and before[SX_NG_INIT] == world[SX_NG_INIT]
    ):
        return CATCH0 + int(world[SX_NG_CATCH + before[SX_NG_STEP]])
    return action


@njit(cache=True)
def resample_planned(s, plan, rng, sigma):
    """``resample`` for the plan's player (``resample_plan`` is ``plan_player_only``)."""
    resample(s, plan[P_PLAYER], rng, sigma)
