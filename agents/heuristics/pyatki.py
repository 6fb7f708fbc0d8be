"""The heuristic player of Pyatki (skip_pyatki, RULES §1) and Pyatki for pairs
(skip_pyatki_pairs, §2): one kernel, one player.

Every card has a **worth** to its holder: its rank from 0 (the deck's lowest) to 1 (Ace),
plus ``trump`` for a trump. Getting rid of a card (attacking with it, or covering with it)
gains ``shed`` minus its worth: ``shed_stock`` while the stock lasts (a shed card is
replaced by a random one, so only weak cards are worth shedding: the seed's advice to keep
strong cards for the end) and ``shed_end`` once it is empty (every card gone brings the player
closer to going out). The pairs game has no stock.

Rules of thumb, in plain words:

1. **Attack** with the set that gains most: the best single card, the best pair with the
   best extra card, or the best two pairs with the best extra card (within the defender's
   hand size). Early that means the weakest cards, the more the better if they are weak; at
   the end, as many cards as allowed.
2. **Danger** — once the stock is empty and the defender holds at most ``danger`` cards, he
   may go out by covering: attack with the strongest cards instead (worth counts for them).
3. **Defend** with the cheapest card that covers; cover when shedding it gains more than
   accepting the attacking card costs (a card more in hand, worth its worth). Covering the
   last card of an attack with nothing accepted earns ``initiative``: the defender then
   attacks.

Weights (``WEIGHT_NAMES``): ``shed_stock``, ``shed_end``, ``trump``, ``danger`` (a hand size),
``initiative``.
"""

import numpy as np
from numba import njit

from skip_ai.games.pyatki import P_DECK
from skip_ai.kernel.attack import (
    AT_ATTACKER,
    AT_DEFENDER,
    AT_DEFENDING,
    AT_NEXT,
    AT_PICKED,
    AT_SIZE,
    AT_TAKEN,
    AT_TRUMP,
    ATTACK,
    COVER0,
    TAKE,
    addable,
    covers,
    current_card,
    limit,
    valid_attack,
)
from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.state import DECK, HAND, param

WEIGHT_NAMES = ("shed_stock", "shed_end", "trump", "danger", "initiative")
WEIGHTS = np.array([0.6, 1.5, 1.0, 2.0, 0.3])
SHED_STOCK, SHED_END, TRUMP, DANGER, INITIATIVE = range(5)


@njit(cache=True, inline="always")
def _worth(s, w, c):
    """0 for the deck's lowest rank .. 1 for an Ace, plus ``trump`` for a trump."""
    low = 0 if param(s, P_DECK) == 52 else 4
    v = (c % 13 - low) / (12 - low)
    return v + w[TRUMP] if c // 13 == s[AT_TRUMP] else v


@njit(cache=True, inline="always")
def _shed(s, w):
    return w[SHED_STOCK] if s[DECK] != 0 else w[SHED_END]


@njit(cache=True, inline="always")
def _best_card(s, w, m, sign, shed):
    """The card of ``m`` with the highest gain ``shed + sign * worth`` (-1 if ``m`` is empty),
    and that gain; the lowest id among equals."""
    best, gain = -1, -np.inf
    while m:
        c = lowest(m)
        m &= m - 1
        g = shed + sign * _worth(s, w, c)
        if g > gain:
            best, gain = c, g
    return best, gain


@njit(cache=True, inline="always")
def _best_pair(s, w, m, sign, shed):
    """The pair of equal rank in ``m`` with the highest gain (mask, gain); (0, -inf) if none."""
    best, gain = np.int64(0), -np.inf
    for r in range(13):
        of_rank = m & (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39) << r
        if popcount(of_rank) < 2:
            continue
        a, ga = _best_card(s, w, of_rank, sign, shed)
        b, gb = _best_card(s, w, of_rank & ~bit(a), sign, shed)
        if ga + gb > gain:
            best, gain = bit(a) | bit(b), ga + gb
    return best, gain


@njit(cache=True)
def _target(s, w):
    """The attack to build (a mask of the attacker's cards): rules 1 and 2."""
    held = s[HAND + s[AT_ATTACKER]]
    lim = limit(s)
    shed = _shed(s, w)
    danger = s[DECK] == 0 and popcount(s[HAND + s[AT_DEFENDER]]) <= w[DANGER]
    sign = 1.0 if danger else -1.0
    c, gain = _best_card(s, w, held, sign, shed)
    target = bit(c)
    if lim < 3 or popcount(held) < 3:
        return target
    pair, pg = _best_pair(s, w, held, sign, shed)
    if pair == 0:
        return target
    k, kg = _best_card(s, w, held & ~pair, sign, shed)
    if pg + kg > gain:
        target, gain = pair | bit(k), pg + kg
    if lim < 5 or popcount(held) < 5:
        return target
    pair2, pg2 = _best_pair(s, w, held & ~pair, sign, shed)
    if pair2 == 0:
        return target
    k, kg = _best_card(s, w, held & ~pair & ~pair2, sign, shed)
    if pg + pg2 + kg > gain:
        target = pair | pair2 | bit(k)
    return target


@njit(cache=True, inline="always")
def _build(s, w):
    """The next step of building the attack: the next card of the target, or ATTACK. The
    target does not change while it is built (the hand does not), so this only falls back to
    the best legal step when the picks so far did not follow it."""
    picked = s[AT_PICKED]
    target = _target(s, w)
    if picked & ~target == 0:
        rest = target & ~picked
        if rest == 0:
            return ATTACK
        c = lowest(rest)
        if picked < bit(c):  # every pick so far lies below c
            return c
    if picked != 0 and valid_attack(picked, limit(s)):
        return ATTACK
    c, _ = _best_card(s, w, addable(s), -1.0, _shed(s, w))
    return c


@njit(cache=True, inline="always")
def _defend(s, w):
    """Rule 3: the cheapest cover, or TAKE."""
    cov = covers(s)
    if cov == 0:
        return TAKE
    shed = _shed(s, w)
    d, cover = _best_card(s, w, cov, -1.0, shed)
    last = s[AT_NEXT] == s[AT_SIZE] - 1
    if last and s[AT_TAKEN] == 0:
        cover += w[INITIATIVE]
    take = _worth(s, w, current_card(s)) - shed
    return COVER0 + d if cover >= take else TAKE


@njit(cache=True)
def act(s, rng, w):
    return _defend(s, w) if s[AT_DEFENDING] else _build(s, w)
