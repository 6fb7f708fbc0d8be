"""The kernel pattern: game states as flat integer arrays, rules as ``@njit`` functions.

- ``state``    the common layout every game state starts with (header, card locations, what
               each player knows) and the helpers that maintain it;
- ``rng``      the explicit random generator kernels use (splitmix64 in a uint64 array);
- ``resample`` re-dealing the cards hidden from one player consistently with public events;
- ``family``   building a generic loop once per game kernel (and policy) module;
- ``engine``   generic whole-game loops (checked steps, batches of games) built per game kernel.
"""
