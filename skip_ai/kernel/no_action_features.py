"""The action-features module of a game that has none (``GameSpec.action_features``).

A game's *action features* are a small vector per legal move, computed in the kernel from what
the mover knows (for Chains: what the card would add to each colour's chains at that cell, and
who wants the cell), which a model scores beside its observation (:mod:`agents.model`), as
DouZero feeds its action's cards to its network. A features module holds ``VERSION`` (raised
whenever the features change, so a model fitted to the old ones is refused), ``SIZE`` (features
per move) and ``write(s, cur, legal, n, out)``, which writes the features of move ``legal[i]``
of seat ``cur`` into ``out[i, :SIZE]`` for ``i < n``. Kernel loops take the module as they take
a game's (:mod:`skip_ai.kernel.family`), so this one stands in where there are none.
"""

from numba import njit

VERSION = 0
SIZE = 0


@njit(cache=True)
def write(s, cur, legal, n, out):
    """Nothing to write: no features."""
