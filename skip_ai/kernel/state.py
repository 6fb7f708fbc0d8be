"""The common layout every game state starts with, and the helpers that keep it right.

A game state is one flat ``int32`` array. Its first ``GAME`` slots are the same in every game:

======================  ====================================================================
slots                   meaning
======================  ====================================================================
``H_PLAYERS``           number of seats
``H_CUR``               seat to move, ``CHANCE`` (-1) or ``TERMINAL`` (-4), as in pyspiel
``H_MOVES``             actions applied so far (chance outcomes included)
``H_DEALT``             deal chance nodes applied so far
``H_DEAL_LEN``          deal chance nodes planned (``DEAL_PLAN`` entries in use)
``H_PARAMS`` ..         the game's parameters, ``NUM_PARAMS`` slots, in the order it declares
``LOC[c]``              where card ``c`` is (``LOC_*`` codes; 0..5 = in that seat's hand)
``KNOWN[c]``            bitmask of seats that know where ``c`` is, besides its holder
``NOT_HOLD[s*54 + c]``  1 when public events prove seat ``s`` does not hold ``c``
``HAND_N[s]``           number of cards in seat ``s``'s hand (public)
``DEAL_PLAN[i]``        where the i-th dealt card goes (a seat or ``LOC_UNSEEN``)
======================  ====================================================================

A game's own slots start at ``GAME``. Hands are stored only through ``LOC``, so the
resampler can re-deal hidden cards by rewriting ``LOC`` (and moving ``KNOWN`` with them).
"""

import numpy as np
from numba import njit

STATE_DTYPE = np.int32
MAX_SEATS = 6
NUM_CARDS = 54

CHANCE = -1
TERMINAL = -4

H_PLAYERS = 0
H_CUR = 1
H_MOVES = 2
H_DEALT = 3
H_DEAL_LEN = 4
H_PARAMS = 8
NUM_PARAMS = 8
HEADER = H_PARAMS + NUM_PARAMS

LOC = HEADER
KNOWN = LOC + NUM_CARDS
NOT_HOLD = KNOWN + NUM_CARDS
HAND_N = NOT_HOLD + MAX_SEATS * NUM_CARDS
DEAL_PLAN = HAND_N + MAX_SEATS
GAME = DEAL_PLAN + NUM_CARDS

LOC_NONE = -1
"""Not in this game's deck."""
LOC_DECK = 8
"""Not dealt yet: the deck or the stock, face down, order unknown."""
LOC_UNSEEN = 9
"""Out of play face down, seen by nobody (e.g. Domino's ``remove4``)."""
LOC_OUT = 10
"""Out of play face up (public)."""
LOC_TABLE = 16
"""First code of the game-specific public places (table, tricks taken, ...)."""


@njit(cache=True)
def param(s, i):
    """The game's i-th declared parameter."""
    return s[H_PARAMS + i]


@njit(cache=True)
def current_player(s):
    return s[H_CUR]


@njit(cache=True)
def num_players(s):
    return s[H_PLAYERS]


@njit(cache=True)
def all_seats(s):
    """Bitmask with every seat's bit: the visibility of a public event."""
    return (1 << s[H_PLAYERS]) - 1


@njit(cache=True)
def team_of(s, seat):
    """Team of a seat where partners sit side by side (RULES §0.2): 0 or 1."""
    return seat // (s[H_PLAYERS] // 2)


@njit(cache=True)
def init_common(s, players, deck):
    """Fill the common part: ``deck`` is the array of card ids in play, all undealt."""
    s[H_PLAYERS] = players
    s[H_CUR] = CHANCE
    for c in range(NUM_CARDS):
        s[LOC + c] = LOC_NONE
    for c in deck:
        s[LOC + c] = LOC_DECK


@njit(cache=True)
def plan_round_robin(s, count, seats, extras):
    """Append ``count`` deal steps: round robin over ``seats`` while full rounds remain,
    then the final partial round to ``extras`` in order (RULES §0.3)."""
    n = len(seats)
    full = (count // n) * n
    k = s[H_DEAL_LEN]
    for i in range(count):
        s[DEAL_PLAN + k + i] = seats[i % n] if i < full else extras[i - full]
    s[H_DEAL_LEN] = k + count


@njit(cache=True)
def plan_unseen(s, count):
    """Append ``count`` deal steps that go face down out of play (``remove4``)."""
    k = s[H_DEAL_LEN]
    for i in range(count):
        s[DEAL_PLAN + k + i] = LOC_UNSEEN
    s[H_DEAL_LEN] = k + count


@njit(cache=True)
def dealing(s):
    """True while planned deal steps remain."""
    return s[H_DEALT] < s[H_DEAL_LEN]


@njit(cache=True)
def undealt_cards(s, out):
    """The chance outcomes of a deal node: every card still in the deck, ascending."""
    n = 0
    for c in range(NUM_CARDS):
        if s[LOC + c] == LOC_DECK:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def deal_card(s, c):
    """Apply one deal step with card ``c``; returns the bitmask of seats that saw it."""
    target = s[DEAL_PLAN + s[H_DEALT]]
    s[H_DEALT] += 1
    if target == LOC_UNSEEN:
        s[LOC + c] = LOC_UNSEEN
        return 0
    give(s, c, target)
    return 1 << target


@njit(cache=True)
def give(s, c, seat):
    """Card ``c`` joins ``seat``'s hand."""
    s[LOC + c] = seat
    s[HAND_N + seat] += 1


@njit(cache=True)
def play_public(s, c, place):
    """Card ``c`` leaves its holder's hand face up to the public place ``place``."""
    holder = s[LOC + c]
    if 0 <= holder < MAX_SEATS:
        s[HAND_N + holder] -= 1
    s[LOC + c] = place
    s[KNOWN + c] = all_seats(s)


@njit(cache=True)
def holds(s, seat, c):
    return s[LOC + c] == seat


@njit(cache=True)
def hand(s, seat, out):
    """Cards of ``seat``'s hand, ascending; returns their number."""
    n = 0
    for c in range(NUM_CARDS):
        if s[LOC + c] == seat:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def next_seat_with_cards(s, seat):
    """First seat clockwise after ``seat`` holding cards, or -1 when all hands are empty."""
    n = s[H_PLAYERS]
    for k in range(1, n + 1):
        q = (seat + k) % n
        if s[HAND_N + q] > 0:
            return q
    return -1


@njit(cache=True)
def hidden_from(s, c, p):
    """True when player ``p`` does not know where card ``c`` is."""
    loc = s[LOC + c]
    if loc == p or loc == LOC_NONE or loc >= LOC_OUT:
        return False
    return (s[KNOWN + c] >> p) & 1 == 0


@njit(cache=True)
def prove_absent(s, seat, c):
    """Public events proved that ``seat`` does not hold ``c`` (the resampler respects it)."""
    s[NOT_HOLD + seat * NUM_CARDS + c] = 1
