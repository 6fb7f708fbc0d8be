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

from skip_ai.games.pyatki.worth import (  # the weights' indices too, for the weights' users
    DANGER,  # noqa: F401
    INITIATIVE,
    SHED_END,  # noqa: F401
    SHED_STOCK,  # noqa: F401
    TRUMP,  # noqa: F401
    best_card,
    next_step,
    shed,
    worth,
)
from skip_ai.kernel.attack import (
    AT_DEFENDING,
    AT_NEXT,
    AT_SIZE,
    AT_TAKEN,
    COVER0,
    TAKE,
    covers,
    current_card,
)

WEIGHT_NAMES = ("shed_stock", "shed_end", "trump", "danger", "initiative")
"""In the order of ``skip_ai.games.pyatki.worth``'s indices (``SHED_STOCK`` ...)."""
WEIGHTS = np.array([0.6, 1.5, 1.0, 2.0, 0.3])


@njit(cache=True, inline="always")
def _defend(s, w):
    """Rule 3: the cheapest cover, or TAKE."""
    cov = covers(s)
    if cov == 0:
        return TAKE
    gain_one = shed(s, w)
    d, cover = best_card(s, w, cov, -1.0, gain_one)
    last = s[AT_NEXT] == s[AT_SIZE] - 1
    if last and s[AT_TAKEN] == 0:
        cover += w[INITIATIVE]
    take = worth(s, w, current_card(s)) - gain_one
    return COVER0 + d if cover >= take else TAKE


@njit(cache=True)
def act(s, rng, w):
    """Rules 1 and 2 build the attack (``worth.next_step``), rule 3 defends."""
    return _defend(s, w) if s[AT_DEFENDING] else next_step(s, w)
