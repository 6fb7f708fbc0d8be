"""Attack and defence: the exchange Pyatki and Pyatki for pairs share (any Durak-like game).

An **exchange**: the attacker builds an attack card by card, then the defender answers the
attacking cards one by one, covering or accepting each (RULES §1.4–§1.6).

- **Building** (action ``c`` < 54 adds card ``c``; ``ATTACK`` = 54 launches): the attack is 1
  card, or 3 cards of which at least two have equal rank, or 5 cards holding two disjoint
  pairs of equal rank (four of a kind is two pairs), never more cards than the defender holds
  nor 5. Cards are picked in increasing id order; adding ``c`` is legal when the picked set
  plus ``c`` can still be completed (possibly by nothing) to a valid attack within the limit
  with higher cards from the hand. ``ATTACK`` is legal when the picked set is a valid attack.
  Picked cards stay in the attacker's hand, publicly known (``KNOWN``), until ``ATTACK``
  puts them on the table.
- **Defence** (``COVER0 + d`` covers the current attacking card with ``d``; ``TAKE`` = 109
  accepts it): the attacking cards are answered in increasing id order. ``d`` covers ``a``
  when it has ``a``'s suit and a higher rank, or is a trump and ``a`` is not. A covered card
  and its cover go to the discard (``LOC_OUT``, public, out of play). Accepted cards wait on
  the table and join the defender's hand when the defence is over, known to every seat.

What happens around an exchange (who attacks whom, refills, going out) is the game's.

Slots (the first game-specific slots; a game's own start at ``ATTACK_END``):

- ``AT_TRUMP``       the trump suit, -1 while unknown
- ``AT_ATTACKER``    the seat attacking in this exchange (-1 before the first)
- ``AT_DEFENDER``    the seat defending
- ``AT_DEFENDING``   0 while the attack is built, 1 once it is launched
- ``AT_SIZE``        cards picked so far / in the attack
- ``AT_NEXT``        index (into ``AT_CARDS``) of the attacking card to answer next
- ``AT_PICKED``      mask of the attack's cards (picked, or launched)
- ``AT_TAKEN``       mask of the attacking cards accepted so far
- ``AT_CARDS[i]``    the attack's i-th card in increasing id order (``MAX_ATTACK`` slots)
- ``AT_ANSWER[i]``   its answer: the covering card, ``TAKEN``, or ``UNANSWERED``

Attacking cards on the table (launched, or accepted and waiting) are at ``LOC_TABLE``.
"""

import numpy as np
from numba import njit

from .bits import bit, kth, lowest, popcount
from .rng import below
from .state import (
    GAME,
    H_CUR,
    H_PLAYERS,
    HAND,
    KNOWN,
    LOC,
    LOC_OUT,
    LOC_TABLE,
    MAX_SEATS,
    NUM_CARDS,
    all_seats,
    give,
    play_public,
)

ATTACK = 54
COVER0 = 55
TAKE = 109
NUM_ACTIONS = 110
MAX_ATTACK = 5
TAKEN = -1
UNANSWERED = -2

AT_TRUMP = GAME
AT_ATTACKER = AT_TRUMP + 1
AT_DEFENDER = AT_ATTACKER + 1
AT_DEFENDING = AT_DEFENDER + 1
AT_SIZE = AT_DEFENDING + 1
AT_NEXT = AT_SIZE + 1
AT_PICKED = AT_NEXT + 1
AT_TAKEN = AT_PICKED + 1
AT_CARDS = AT_TAKEN + 1
AT_ANSWER = AT_CARDS + MAX_ATTACK
ATTACK_END = AT_ANSWER + MAX_ATTACK

ROW = (np.int64(1) << 13) - 1
"""One suit's 13 cards, shifted down to bits 0..12 (one bit per rank)."""
NEVER = 99
"""A cost no attack can pay."""


@njit(cache=True)
def init_attack(s):
    s[AT_TRUMP] = -1
    s[AT_ATTACKER] = -1
    s[AT_DEFENDER] = -1


@njit(cache=True, inline="always")
def start_exchange(s, attacker, defender):
    """A new exchange: ``attacker`` builds an attack on ``defender`` and moves next."""
    s[AT_ATTACKER] = attacker
    s[AT_DEFENDER] = defender
    s[AT_DEFENDING] = 0
    s[AT_SIZE] = 0
    s[AT_NEXT] = 0
    s[AT_PICKED] = 0
    s[AT_TAKEN] = 0
    s[H_CUR] = attacker


# ----- building: the completability rule -----------------------------------------------------


@njit(cache=True, inline="always")
def rank_sets(m):
    """Per rank, how many cards of mask ``m`` have it, as 13-bit rank masks:
    ``(at least 1, at least 2, at least 3, all 4, an odd number)``. A bit-sliced adder over the
    four suits: bit r of ``odd``, ``twos``, ``four`` is bit 0, 1, 2 of rank r's count."""
    a, b = m & ROW, (m >> 13) & ROW
    c, d = (m >> 26) & ROW, (m >> 39) & ROW
    x, y = a ^ b, a & b
    u, v = c ^ d, c & d
    odd = x ^ u
    carry = x & u
    twos = y ^ v ^ carry
    four = (y & v) | ((y ^ v) & carry)
    return a | b | c | d, twos | four, (twos & odd) | four, four, odd


@njit(cache=True, inline="always")
def pairs_in(m):
    """Disjoint pairs of equal rank in ``m`` (four of a kind is two)."""
    _, ge2, _, four, _ = rank_sets(m)
    return popcount(ge2) + popcount(four)


@njit(cache=True, inline="always")
def _cards_for_pairs(more, ones, twos):
    """The fewest cards that make ``more`` (≤ 2) further pairs, given ``ones`` ranks where one
    card makes a pair and ``twos`` further pairs that take two cards each; ``NEVER`` if none
    do. Taking the cheapest gains first is optimal: each rank's costs never decrease."""
    if more <= 0:
        return 0
    if more == 1:
        return 1 if ones > 0 else (2 if twos > 0 else NEVER)
    if ones >= 2:
        return 2
    if ones == 1 and twos > 0:
        return 3
    return 4 if twos >= 2 else NEVER


@njit(cache=True, inline="always")
def attack_sizes(q, h, limit):
    """(the fewest, the most) cards (1, 3 or 5; 0, 0 if none) of a valid attack of at most
    ``limit`` cards made of the picked set ``q`` and cards of ``h`` (possibly none).

    Per rank, with ``k`` of it in ``q``: if ``k`` is odd, one card of ``h`` makes a pair, then
    two cards each; if ``k`` is even, two cards each."""
    n, avail = popcount(q), popcount(h)
    _, q2, _, q4, odd = rank_sets(q)
    h1, h2, h3, h4, _ = rank_sets(h)
    have = popcount(q2) + popcount(q4)
    ones = popcount(odd & h1)
    twos = popcount((~odd & h2) | (odd & h3)) + popcount(~odd & h4)
    fewest, most = 0, 0
    for size in (1, 3, 5):
        extra = size - n
        if 0 <= extra <= avail and size <= limit:
            if _cards_for_pairs((size - 1) // 2 - have, ones, twos) <= extra:
                most = size
                if fewest == 0:
                    fewest = size
    return fewest, most


@njit(cache=True, inline="always")
def completable(q, h, limit):
    """Can the picked set ``q`` be completed to a valid attack of at most ``limit`` cards by
    adding cards of ``h`` (possibly none)?"""
    return attack_sizes(q, h, limit)[0] > 0


@njit(cache=True, inline="always")
def valid_attack(q, limit):
    """Is ``q`` an attack: 1 card; 3 with a pair; 5 with two disjoint pairs; ≤ ``limit``?"""
    n = popcount(q)
    return (n == 1 or n == 3 or n == 5) and n <= limit and pairs_in(q) >= (n - 1) // 2


@njit(cache=True, inline="always")
def limit(s):
    """The most cards the attack may have: the defender's hand size, at most 5."""
    return min(MAX_ATTACK, popcount(s[HAND + s[AT_DEFENDER]]))


@njit(cache=True, inline="always")
def _above(c):
    """Mask of the card ids greater than ``c`` (every card for ``c`` = -1)."""
    return ~((np.int64(2) << c) - 1)


@njit(cache=True, inline="always")
def addable(s):
    """Mask of the cards the attacker may add to the attack now."""
    held = s[HAND + s[AT_ATTACKER]]
    picked = s[AT_PICKED]
    if picked == 0:
        return held  # a single card is always an attack (the defender holds a card)
    top = s[AT_CARDS + s[AT_SIZE] - 1]
    lim = limit(s)
    cand = held & _above(top)
    if s[AT_SIZE] >= lim:
        return np.int64(0)
    out = np.int64(0)
    m = cand
    while m:
        c = lowest(m)
        m &= m - 1
        if completable(picked | bit(c), cand & _above(c), lim):
            out |= bit(c)
    return out


# ----- defence -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def current_card(s):
    """The attacking card to answer now."""
    return s[AT_CARDS + s[AT_NEXT]]


@njit(cache=True, inline="always")
def beaters(a, trump):
    """Mask of every card that covers ``a``: higher of its suit, or any trump if it is not one."""
    suit = a // 13
    m = (ROW << (13 * suit)) & _above(a)
    if suit != trump:
        m |= ROW << (13 * trump)
    return m


@njit(cache=True, inline="always")
def covers(s):
    """Mask of the defender's cards that cover the current attacking card."""
    return s[HAND + s[AT_DEFENDER]] & beaters(current_card(s), s[AT_TRUMP])


# ----- legal actions (one source for listing and sampling) -----------------------------------


@njit(cache=True, inline="always")
def legal(s):
    """The legal actions of the exchange as ``(mask, offset, extra)``: ``offset + c`` for every
    card ``c`` of ``mask``, then ``extra`` if ≥ 0 (ATTACK or TAKE)."""
    if s[AT_DEFENDING]:
        return covers(s), COVER0, TAKE
    picked = s[AT_PICKED]
    extra = ATTACK if picked != 0 and valid_attack(picked, limit(s)) else -1
    return addable(s), 0, extra


@njit(cache=True, inline="always")
def list_legal(s, out):
    """The legal actions, ascending, into ``out``; returns their number."""
    m, offset, extra = legal(s)
    n = 0
    while m:
        out[n] = offset + lowest(m)
        n += 1
        m &= m - 1
    if extra >= 0:
        out[n] = extra
        n += 1
    return n


@njit(cache=True, inline="always")
def sample_legal(s, rng):
    """Exactly ``list_legal(s)[below(rng, n)]``, without the list."""
    m, offset, extra = legal(s)
    n = popcount(m)
    k = below(rng, n + (1 if extra >= 0 else 0))
    return extra if k == n else offset + kth(m, k)


# ----- applying ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def pick(s, c):
    """The attacker adds card ``c``; it stays in his hand, now known to every seat."""
    s[AT_CARDS + s[AT_SIZE]] = c
    s[AT_ANSWER + s[AT_SIZE]] = UNANSWERED
    s[AT_SIZE] += 1
    s[AT_PICKED] |= bit(c)
    s[KNOWN + c] = all_seats(s)


@njit(cache=True, inline="always")
def launch(s):
    """ATTACK: the picked cards leave the attacker's hand for the table; the defender moves."""
    m = s[AT_PICKED]
    while m:
        play_public(s, lowest(m), LOC_TABLE)
        m &= m - 1
    s[AT_DEFENDING] = 1
    s[H_CUR] = s[AT_DEFENDER]


@njit(cache=True, inline="always")
def answer(s, a):
    """The defender covers the current card (``a`` = ``COVER0 + d``) or takes it (``TAKE``).
    Returns True when that was the last attacking card (the defence is over)."""
    i = s[AT_NEXT]
    c = s[AT_CARDS + i]
    if a == TAKE:
        s[AT_ANSWER + i] = TAKEN
        s[AT_TAKEN] |= bit(c)
    else:
        d = a - COVER0
        s[AT_ANSWER + i] = d
        s[LOC + c] = LOC_OUT
        play_public(s, d, LOC_OUT)
    s[AT_NEXT] = i + 1
    return i + 1 == s[AT_SIZE]


@njit(cache=True, inline="always")
def end_defence(s):
    """The accepted cards join the defender's hand, known to every seat. Returns True when
    the defender covered every card."""
    m = s[AT_TAKEN]
    seat = s[AT_DEFENDER]
    everyone = all_seats(s)
    while m:
        c = lowest(m)
        m &= m - 1
        give(s, c, seat)
        s[KNOWN + c] = everyone
    return s[AT_TAKEN] == 0


# ----- observation ---------------------------------------------------------------------------

OBS_ATTACK = 4 * NUM_CARDS + 4 + 2 * MAX_SEATS + 1 + MAX_SEATS * NUM_CARDS
"""Size of :func:`write_observation`'s part of an observation tensor."""


@njit(cache=True)
def write_observation(s, p, out, base):
    """The exchange part of an observation tensor, from ``base`` (``OBS_ATTACK`` floats);
    relative seat k is seat ``(p + k) % n``: ``[0,54)`` the attack's cards (picked or
    launched); ``[54,108)`` those still to answer; ``[108,162)`` those accepted so far;
    ``[162,216)`` the discard; ``[216,220)`` the trump suit; ``[220,226)`` the relative seat
    of the attacker, ``[226,232)`` of the defender; ``232`` 1 while defending; then 54 per
    relative seat from ``233``: the cards every seat knows to be in that seat's hand
    (accepted cards, picked cards, a drawn trump card)."""
    n = s[H_PLAYERS]
    everyone = all_seats(s)
    for i in range(s[AT_SIZE]):
        c = s[AT_CARDS + i]
        out[base + c] = 1.0
        if s[AT_DEFENDING] and i >= s[AT_NEXT]:
            out[base + 54 + c] = 1.0
    m = s[AT_TAKEN]
    while m:
        out[base + 108 + lowest(m)] = 1.0
        m &= m - 1
    for c in range(NUM_CARDS):
        loc = s[LOC + c]
        if loc == LOC_OUT:
            out[base + 162 + c] = 1.0
        elif 0 <= loc < MAX_SEATS and s[KNOWN + c] == everyone:
            out[base + 233 + NUM_CARDS * ((loc - p + n) % n) + c] = 1.0
    if s[AT_TRUMP] >= 0:
        out[base + 216 + s[AT_TRUMP]] = 1.0
    if s[AT_ATTACKER] >= 0:
        out[base + 220 + (s[AT_ATTACKER] - p + n) % n] = 1.0
        out[base + 226 + (s[AT_DEFENDER] - p + n) % n] = 1.0
    out[base + 232] = 1.0 if s[AT_DEFENDING] else 0.0
