"""Kernel-level policies: ``@njit`` functions that pick an action inside Numba.

Policy codes name them in kernel loops (``seat_policy`` arrays, ISMCTS rollouts): batch
simulation, duplicate matches and ISMCTS rollouts all dispatch on these codes, and the
``pyspiel.Bot`` adapters call the very same functions, so a bot and a batch play identically for
the same generator.

- ``RANDOM``: uniform over the legal actions (the game kernel's ``random_legal``).
- ``HEURISTIC``: the game's rule-of-thumb player, ``agents.heuristics.<game module>.act``: the
  policy module the drivers hand to the core's batch loop (its code there is ``POLICY``).
"""

from numba import njit

from skip_ai.kernel.engine import POLICY, RANDOM
from skip_ai.kernel.rng import below

HEURISTIC = POLICY
"""The game's heuristic player (``agents/heuristics/``)."""
MODEL = 2
"""Sampling a policy/value model's policy (:mod:`agents.model`): ISMCTS rollouts only."""

POLICY_CODES = {"random": RANDOM, "heuristic": HEURISTIC}
"""The kernel policies a batch can seat, by name."""


@njit(cache=True)
def random_action(s, legal, n, rng):
    """A legal action uniformly at random (one generator draw)."""
    return legal[below(rng, n)]
