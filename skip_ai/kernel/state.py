"""The common layout every game state starts with, and the helpers that keep it right.

A game state is one flat ``int64`` array. Its first ``GAME`` slots are the same in every game:

======================  ====================================================================
slots                   meaning
======================  ====================================================================
``H_PLAYERS``           number of seats
``H_CUR``               seat to move, ``CHANCE`` (-1) or ``TERMINAL`` (-4), as in pyspiel
``H_MOVES``             actions applied so far (chance outcomes included)
``H_DEALT``             deal chance nodes applied so far
``H_DEAL_LEN``          deal chance nodes planned (``DEAL_PLAN`` entries in use)
``H_TEAMS``             bitmask of the seats of team 1 (who is whose partner)
``H_PARAMS`` ..         the game's parameters, ``NUM_PARAMS`` slots, in the order it declares
``LOC[c]``              where card ``c`` is (``LOC_*`` codes; 0..5 = in that seat's hand)
``KNOWN[c]``            bitmask of seats that know where ``c`` is, besides its holder
``HAND[s]``             mask of the cards in seat ``s``'s hand (``kernel.bits``)
``NOT_HOLD[s]``         mask of cards public events prove seat ``s`` does not hold
``DECK``                mask of the cards not dealt yet (deck or stock)
``DEAL_PLAN[i]``        where the i-th dealt card goes (a seat or ``LOC_UNSEEN``)
======================  ====================================================================

A game's own slots start at ``GAME``. ``LOC`` answers "where is this card", the masks "which
cards are there"; only the helpers below change either, so they always agree. The resampler
re-deals hidden cards by rewriting ``LOC`` (with ``KNOWN``) and rebuilding the masks.
"""

import numpy as np
from numba import njit

from .bits import bit, lowest, popcount, sample_mask, to_list

# The helpers here are a few instructions each; ``inline="always"`` merges them into their
# callers, which halves the cost of a kernel step compared with real calls (Numba passes
# arrays to a call with reference counting).
STATE_DTYPE = np.int64
MAX_SEATS = 6
NUM_CARDS = 54
"""The standard cards: 52 and the two jokers. Observations and the per-card action segments
(``54 * k + c``) are this wide."""
MAX_CARDS = 57
"""Card ids with a slot in the state: the standard cards and Little Country's three pelicans
(54..56, RULES §4.6). Every per-card slot array, loop and permutation is this long."""
PELICAN0 = NUM_CARDS
"""The first pelican's card id."""

CHANCE = -1
TERMINAL = -4

H_PLAYERS = 0
H_CUR = 1
H_MOVES = 2
H_DEALT = 3
H_DEAL_LEN = 4
H_TEAMS = 5
"""Bitmask of the seats of team 1: the one record of who is whose partner, read by
:func:`team_of` and :func:`team_seats` (kernels and Python alike). ``init_common`` sets
partners side by side (RULES §0.2, every SKIP game); a game seated otherwise overwrites it
in its ``init`` (Sixty-six: partners alternate)."""
H_PARAMS = 8
NUM_PARAMS = 8
HEADER = H_PARAMS + NUM_PARAMS

LOC = HEADER
KNOWN = LOC + MAX_CARDS
HAND = KNOWN + MAX_CARDS
NOT_HOLD = HAND + MAX_SEATS
DECK = NOT_HOLD + MAX_SEATS
DEAL_PLAN = DECK + 1
GAME = DEAL_PLAN + MAX_CARDS

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


@njit(cache=True, inline="always")
def param(s, i):
    """The game's i-th declared parameter."""
    return s[H_PARAMS + i]


@njit(cache=True, inline="always")
def current_player(s):
    return s[H_CUR]


@njit(cache=True, inline="always")
def num_players(s):
    return s[H_PLAYERS]


@njit(cache=True, inline="always")
def all_seats(s):
    """Bitmask with every seat's bit: the visibility of a public event."""
    return (1 << s[H_PLAYERS]) - 1


# None of the seat helpers divides: a division by the (run-time) seat count is a slow
# instruction and an exception path, which also keeps Numba from pruning the reference
# counting of ``s``. Hence teams as a mask (``H_TEAMS``), read with a shift.
@njit(cache=True, inline="always")
def team_of(s, seat):
    """Team of a seat: 0 or 1."""
    return (s[H_TEAMS] >> seat) & 1


@njit(cache=True, inline="always")
def team_seats(s, team):
    """Mask of the seats of ``team``."""
    # without a branch: a conditional here cost Brook's playouts 8%
    return s[H_TEAMS] ^ ((team - 1) & all_seats(s))  # team 0: the seats not in team 1


@njit(cache=True, inline="always")
def captain(s, team):
    """The captain of ``team``: its first seat (RULES §0.2)."""
    return lowest(team_seats(s, team))


@njit(cache=True, inline="always")
def partner_of(s, seat):
    """The partner of ``seat`` where teams have two seats (a game for four)."""
    return lowest(team_seats(s, team_of(s, seat)) & ~bit(seat))


@njit(cache=True, inline="always")
def side_by_side(players):
    """``H_TEAMS`` where partners sit side by side (RULES §0.2): team 1 holds the seats ``s``
    with ``2 s >= players``."""
    return ((1 << players) - 1) & ~((1 << ((players + 1) >> 1)) - 1)


@njit(cache=True, inline="always")
def alternately(players):
    """``H_TEAMS`` where partners sit alternately (the ``seating`` lever,
    :data:`skip_ai.spec.SEATING`): team 1 holds the odd seats."""
    return ((1 << players) - 1) & 0b101010


@njit(cache=True)
def seat_teams(s, seating):
    """Seat the teams as the ``seating`` lever says (0 side by side, as ``init_common`` left
    them; 1 alternately); call after ``init_common``/``setup_deal``."""
    if seating == 1:
        s[H_TEAMS] = alternately(s[H_PLAYERS])


@njit(cache=True, inline="always")
def next_seat(s, seat):
    """The seat clockwise after ``seat``."""
    nxt = seat + 1
    return 0 if nxt == s[H_PLAYERS] else nxt


EXTRAS_3V3 = np.array([0, 1, 3, 4], dtype=np.int64)
"""Who gets the extra cards where a 3-vs-3 deal does not divide evenly (RULES §0.3)."""


@njit(cache=True)
def new_state(size, params):
    """A zeroed state of ``size`` slots with the game's parameters in the header."""
    s = np.zeros(size, STATE_DTYPE)
    for i in range(len(params)):
        s[H_PARAMS + i] = params[i]
    return s


@njit(cache=True)
def standard_deck(deck_size, jokers):
    """Card ids of a 24/36/52-card deck (ranks from 9/6/2 up), plus both jokers if asked."""
    low = 15 - deck_size // 4
    out = np.empty(deck_size + (2 if jokers else 0), np.int64)
    k = 0
    for suit in range(4):
        for rank in range(low, 15):
            out[k] = 13 * suit + rank - 2
            k += 1
    if jokers:
        out[k] = 52
        out[k + 1] = 53
    return out


@njit(cache=True)
def setup_deal(s, players, deck, unseen, extras):
    """The usual deal: ``unseen`` cards face down out of play first, then the rest round
    robin from seat 0, the final partial round to ``extras`` (RULES §0.3)."""
    init_common(s, players, deck)
    plan_unseen(s, unseen)
    plan_round_robin(s, len(deck) - unseen, np.arange(players), extras)


@njit(cache=True, inline="always")
def init_common(s, players, deck):
    """Fill the common part: ``deck`` is the array of card ids in play, all undealt."""
    s[H_PLAYERS] = players
    s[H_TEAMS] = side_by_side(players)
    s[H_CUR] = CHANCE
    for c in range(MAX_CARDS):
        s[LOC + c] = LOC_NONE
    for c in deck:
        s[LOC + c] = LOC_DECK
        s[DECK] |= bit(c)


@njit(cache=True, inline="always")
def plan_round_robin(s, count, seats, extras):
    """Append ``count`` deal steps: round robin over ``seats`` while full rounds remain,
    then the final partial round to ``extras`` in order (RULES §0.3)."""
    n = len(seats)
    full = (count // n) * n
    k = s[H_DEAL_LEN]
    for i in range(count):
        s[DEAL_PLAN + k + i] = seats[i % n] if i < full else extras[i - full]
    s[H_DEAL_LEN] = k + count


@njit(cache=True, inline="always")
def plan_unseen(s, count):
    """Append ``count`` deal steps that go face down out of play (``remove4``)."""
    k = s[H_DEAL_LEN]
    for i in range(count):
        s[DEAL_PLAN + k + i] = LOC_UNSEEN
    s[H_DEAL_LEN] = k + count


@njit(cache=True, inline="always")
def dealing(s):
    """True while planned deal steps remain."""
    return s[H_DEALT] < s[H_DEAL_LEN]


@njit(cache=True, inline="always")
def undealt_cards(s, out):
    """The chance outcomes of a deal node: every card still in the deck, ascending."""
    return to_list(s[DECK], out)


@njit(cache=True, inline="always")
def sample_undealt(s, rng):
    """Exactly ``undealt_cards(s)[below(rng, n)]``, without the list."""
    return sample_mask(s[DECK], rng)


@njit(cache=True, inline="always")
def deal_card(s, c):
    """Apply one deal step with card ``c``; returns the bitmask of seats that saw it.

    Games write ``if not dealing(s): s[H_CUR] = 0`` after it in their own ``apply_action``:
    the same three lines in a shared helper (inlined or not) measured 30–40% slower
    playouts, as Numba then keeps the reference counting of the state array."""
    target = s[DEAL_PLAN + s[H_DEALT]]
    s[H_DEALT] += 1
    s[DECK] &= ~bit(c)
    if target == LOC_UNSEEN:
        s[LOC + c] = LOC_UNSEEN
        return 0
    give(s, c, target)
    return 1 << target


@njit(cache=True, inline="always")
def give(s, c, seat):
    """Card ``c`` joins ``seat``'s hand."""
    s[LOC + c] = seat
    s[HAND + seat] |= bit(c)


@njit(cache=True, inline="always")
def move_to_hand(s, c, seat, known):
    """Card ``c`` goes from its holder's hand into ``seat``'s (e.g. a blind draw from another
    hand); ``known`` is the new bitmask of the seats besides ``seat`` that know it is there."""
    s[HAND + s[LOC + c]] &= ~bit(c)
    give(s, c, seat)
    s[KNOWN + c] = known


@njit(cache=True, inline="always")
def play_public(s, c, place):
    """Card ``c`` leaves its holder's hand face up to the public place ``place``."""
    holder = s[LOC + c]
    if 0 <= holder < MAX_SEATS:
        s[HAND + holder] &= ~bit(c)
    s[LOC + c] = place
    s[KNOWN + c] = all_seats(s)


@njit(cache=True, inline="always")
def hand(s, seat, out):
    """Cards of ``seat``'s hand, ascending; returns their number."""
    return to_list(s[HAND + seat], out)


@njit(cache=True, inline="always")
def sample_hand(s, seat, rng):
    """Exactly ``hand(s, seat)[below(rng, n)]``, without the list."""
    return sample_mask(s[HAND + seat], rng)


@njit(cache=True, inline="always")
def next_seat_with_cards(s, seat):
    """First seat clockwise after ``seat`` holding cards, or -1 when all hands are empty."""
    q = seat
    for _ in range(s[H_PLAYERS]):
        q = next_seat(s, q)
        if s[HAND + q] != 0:
            return q
    return -1


@njit(cache=True, inline="always")
def hidden_from(s, c, p):
    """True when player ``p`` does not know where card ``c`` is."""
    loc = s[LOC + c]
    if loc == p or loc == LOC_NONE or loc >= LOC_OUT:
        return False
    return (s[KNOWN + c] >> p) & 1 == 0


@njit(cache=True, inline="always")
def unplaced_cards(s):
    """Every card still in a hand or undealt: the only ones a player can be proved to lack."""
    m = s[DECK]
    for seat in range(s[H_PLAYERS]):
        m |= s[HAND + seat]
    return m


@njit(cache=True, inline="always")
def prove_absent_mask(s, seat, mask):
    """Public events proved that ``seat`` holds none of the cards in ``mask`` (e.g. a forced
    pass proves the passer held no playable card: pass the mask of every playable card)."""
    s[NOT_HOLD + seat] |= mask


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[:] = src`` for two states of one length, as a plain loop: Numba's slice
    assignment costs ~7× more (78 ns against 11 ns for a 256-slot state), and ISMCTS copies
    its root once per iteration."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def rebuild_masks(s):
    """Recompute ``HAND`` and ``DECK`` from ``LOC`` (after the resampler moved cards)."""
    for seat in range(MAX_SEATS):
        s[HAND + seat] = 0
    s[DECK] = 0
    for c in range(MAX_CARDS):
        loc = s[LOC + c]
        if 0 <= loc < MAX_SEATS:
            s[HAND + loc] |= bit(c)
        elif loc == LOC_DECK:
            s[DECK] |= bit(c)


OBS_COMMON = NUM_CARDS + 3 * MAX_SEATS
"""Size of :func:`write_common_observation`'s part, at the start of every observation."""


@njit(cache=True)
def write_common_observation(s, p, out):
    """The part of every game's observation tensor, at ``[0, OBS_COMMON)``, for player ``p``
    ("relative seat" k is seat ``(p + k) % n``): ``[0,54)`` 1 per card in p's hand;
    ``[54,60)`` hand size of relative seat k / 13; ``[60,66)`` 1 at the relative seat to
    move; ``[66,72)`` 1 at p's own seat number."""
    n = s[H_PLAYERS]
    m = s[HAND + p]
    while m:
        out[lowest(m)] = 1.0
        m &= m - 1
    for k in range(n):
        out[NUM_CARDS + k] = popcount(s[HAND + (p + k) % n]) / 13.0
    cur = s[H_CUR]
    if cur >= 0:
        out[NUM_CARDS + MAX_SEATS + (cur - p) % n] = 1.0
    out[NUM_CARDS + 2 * MAX_SEATS + p] = 1.0
