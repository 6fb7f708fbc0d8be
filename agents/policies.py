"""Kernel-level policies: ``@njit`` functions that pick an action inside Numba.

Every policy has the signature ``policy(s, legal, n, rng) -> action`` where ``legal[:n]`` are
the legal actions of state ``s`` and ``rng`` is the kernel generator. Batch simulation and
(later) ISMCTS rollouts call them; the ``pyspiel.Bot`` adapters in this package call the very
same functions, so a bot and a batch play identically for the same generator.

Policy codes name them in kernel loops (``seat_policy`` arrays).
"""

from numba import njit

from skip_ai.kernel.rng import below

RANDOM = 0
"""Uniform over the legal actions."""

POLICY_CODES = {"random": RANDOM}


@njit(cache=True)
def random_action(s, legal, n, rng):
    """A legal action uniformly at random (one generator draw)."""
    return legal[below(rng, n)]
