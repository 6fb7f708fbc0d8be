"""What a card is worth to its holder in Pyatki, and the attack that sheds most for it.

A card's **worth** is its rank from 0 (the deck's lowest) to 1 (Ace), plus ``w[TRUMP]`` for a
trump. Getting rid of a card (attacking or covering with it) gains ``shed`` minus its worth:
``w[SHED_STOCK]`` while the stock lasts, ``w[SHED_END]`` once it is empty (always in the
pairs game). An attack's gain is the sum over its cards; in **danger** (the stock is empty and
the defender holds at most ``w[DANGER]`` cards, so he may go out by covering) worth counts
for a card instead of against it: strong cards are what he cannot cover.

The weights ``w`` are the heuristic player's (``agents.heuristics.pyatki``: ``WEIGHT_NAMES``,
indexed by the constants below). The heuristic plays by these helpers, and the action
features (``action_features``) call :func:`next_step` with fixed weights to mark the attack it
would build, so both see the hand the same way. Everything here reads only what the seat to
move knows: its own hand, the hand sizes, the stock's size and the trump suit.
"""

import numpy as np
from numba import njit

from skip_ai.kernel.attack import (
    AT_ATTACKER,
    AT_DEFENDER,
    AT_PICKED,
    AT_TRUMP,
    ATTACK,
    addable,
    limit,
    valid_attack,
)
from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.state import DECK, HAND, param

from .layout import P_DECK

SHED_STOCK, SHED_END, TRUMP, DANGER, INITIATIVE = range(5)
"""The indices of the weights (the heuristic's ``WEIGHT_NAMES``, in that order)."""


@njit(cache=True, inline="always")
def rank_worth(s, c):
    """Card ``c``'s rank from 0 (the deck's lowest rank) to 1 (Ace)."""
    low = 0 if param(s, P_DECK) == 52 else 4
    return (c % 13 - low) / (12 - low)


@njit(cache=True, inline="always")
def worth(s, w, c):
    """0 for the deck's lowest rank .. 1 for an Ace, plus ``trump`` for a trump."""
    v = rank_worth(s, c)
    return v + w[TRUMP] if c // 13 == s[AT_TRUMP] else v


@njit(cache=True, inline="always")
def shed(s, w):
    """What getting rid of a card gains: ``shed_stock`` while the stock lasts, else
    ``shed_end``."""
    return w[SHED_STOCK] if s[DECK] != 0 else w[SHED_END]


@njit(cache=True, inline="always")
def best_card(s, w, m, sign, gain_one):
    """The card of ``m`` with the highest gain ``gain_one + sign * worth`` (-1 if ``m`` is
    empty), and that gain; the lowest id among equals. ``gain_one``: :func:`shed`; ``sign``:
    -1, or 1 in danger."""
    best, gain = -1, -np.inf
    while m:
        c = lowest(m)
        m &= m - 1
        g = gain_one + sign * worth(s, w, c)
        if g > gain:
            best, gain = c, g
    return best, gain


@njit(cache=True, inline="always")
def best_pair(s, w, m, sign, gain_one):
    """The pair of equal rank in ``m`` with the highest gain (mask, gain); (0, -inf) if none."""
    best, gain = np.int64(0), -np.inf
    for r in range(13):
        of_rank = m & (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39) << r
        if popcount(of_rank) < 2:
            continue
        a, ga = best_card(s, w, of_rank, sign, gain_one)
        b, gb = best_card(s, w, of_rank & ~bit(a), sign, gain_one)
        if ga + gb > gain:
            best, gain = bit(a) | bit(b), ga + gb
    return best, gain


@njit(cache=True)
def target(s, w):
    """The attack to build (a mask of the attacker's cards) with the highest gain among the
    best single card, the best pair with the best extra card, and the best two pairs with the
    best extra card (within the defender's hand size); in danger the strongest cards."""
    held = s[HAND + s[AT_ATTACKER]]
    lim = limit(s)
    gain_one = shed(s, w)
    danger = s[DECK] == 0 and popcount(s[HAND + s[AT_DEFENDER]]) <= w[DANGER]
    sign = 1.0 if danger else -1.0
    c, gain = best_card(s, w, held, sign, gain_one)
    aim = bit(c)
    if lim < 3 or popcount(held) < 3:
        return aim
    pair, pg = best_pair(s, w, held, sign, gain_one)
    if pair == 0:
        return aim
    k, kg = best_card(s, w, held & ~pair, sign, gain_one)
    if pg + kg > gain:
        aim, gain = pair | bit(k), pg + kg
    if lim < 5 or popcount(held) < 5:
        return aim
    pair2, pg2 = best_pair(s, w, held & ~pair, sign, gain_one)
    if pair2 == 0:
        return aim
    k, kg = best_card(s, w, held & ~pair & ~pair2, sign, gain_one)
    if pg + pg2 + kg > gain:
        aim = pair | pair2 | bit(k)
    return aim


@njit(cache=True, inline="always")
def next_step(s, w):
    """The next step of building the attack: the next card of the :func:`target`, or ATTACK.
    The target does not change while it is built (the hand does not), so this only falls back
    to the best legal step when the picks so far did not follow it."""
    picked = s[AT_PICKED]
    aim = target(s, w)
    if picked & ~aim == 0:
        rest = aim & ~picked
        if rest == 0:
            return ATTACK
        c = lowest(rest)
        if picked < bit(c):  # every pick so far lies below c
            return c
    if picked != 0 and valid_attack(picked, limit(s)):
        return ATTACK
    c, _ = best_card(s, w, addable(s), -1.0, shed(s, w))
    return c
