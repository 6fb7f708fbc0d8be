"""Kernel-level policies: ``@njit`` functions that pick an action inside Numba.

Policy codes name them in kernel loops (``seat_policy`` arrays): batch simulation, duplicate
matches and ISMCTS rollouts all dispatch on these codes, and the ``pyspiel.Bot`` adapters call
the very same functions, so a bot and a batch play identically for the same generator.

- ``RANDOM``: uniform over the legal actions (the game kernel's ``random_legal``).
- ``HEURISTIC``: the game's rule-of-thumb player, ``agents.heuristics.<game module>.act``.
"""

from numba import njit

from skip_ai.kernel.rng import below

RANDOM = 0
"""Uniform over the legal actions."""
HEURISTIC = 1
"""The game's heuristic player (``agents/heuristics/``)."""

MODEL = 2
"""Sampling a policy/value model's policy (:mod:`agents.model`): ISMCTS rollouts only."""

POLICY_CODES = {"random": RANDOM, "heuristic": HEURISTIC}


@njit(cache=True)
def random_action(s, legal, n, rng):
    """A legal action uniformly at random (one generator draw)."""
    return legal[below(rng, n)]
