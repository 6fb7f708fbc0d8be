"""An explicit random generator for kernels: splitmix64 over a ``uint64[1]`` array.

Kernels never touch a global generator: every function that needs randomness takes the
generator array, so a seed fully determines a game, a playout or a search. splitmix64 is
small, fast and passes BigCrush, which is plenty for dealing cards and sampling moves.
"""

import numpy as np
from numba import njit

# The helpers here are a few instructions each; ``inline="always"`` merges them into their
# callers, which halves the cost of a kernel step compared with real calls (Numba passes
# arrays to a call with reference counting).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def mix64(z):
    """The splitmix64 finaliser: a bijective scramble of a uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def next_u64(rng):
    """Advance the generator and return 64 random bits."""
    rng[0] += _GOLDEN
    return mix64(rng[0])


@njit(cache=True, inline="always")
def below(rng, n):
    """A uniform integer in ``[0, n)`` for 1 ≤ n < 2**32.

    Lemire's multiply-shift on the top 32 bits instead of a division: each value's
    probability is off by less than n / 2**32 (under 2e-6 for the largest action sets here).
    """
    return np.int64(((next_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def below_split(rng, n, m):
    """``(k // m, k % m)`` for ``k = below(rng, n * m)`` (the same draw), without dividing:
    e.g. a card and a cell at once from an action list ordered card by card. With x the top 32
    random bits, k // m = ⌊⌊x·n·m / 2³²⌋ / m⌋ = ⌊x·n / 2³²⌋. Needs 1 ≤ n·m < 2**32."""
    x = next_u64(rng) >> np.uint64(32)
    k = np.int64((x * np.uint64(n * m)) >> np.uint64(32))
    i = np.int64((x * np.uint64(n)) >> np.uint64(32))
    return i, k - i * m


@njit(cache=True, inline="always")
def uniform(rng):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def derive(base, index):
    """Seed number ``index`` of a family: independent of how the family is split up."""
    return mix64(np.uint64(base) + np.uint64(index + 1) * _GOLDEN)


def make_rng(seed: int) -> np.ndarray:
    """A fresh generator array from any non-negative integer seed (reduced mod 2**64)."""
    return np.array([int(seed) % (1 << 64)], dtype=np.uint64)


def base_seed(seed: int) -> int:
    """The uint64 root of a batch, from a user seed, through ``numpy.random.SeedSequence``."""
    return int(np.random.SeedSequence(int(seed)).generate_state(1, np.uint64)[0])


@njit(cache=True, inline="always")
def derive_range(base, count):
    """``derive(base, i)`` for i in ``0 .. count-1``."""
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i] = derive(base, i)
    return out
