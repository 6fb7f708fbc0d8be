"""The random agent: uniform over the legal actions.

``RandomBot`` draws with the kernel generator and the kernel policy
(:func:`agents.policies.random_action`), exactly as ``skip_ai.sim.simulate`` does, so the
same seed gives the same choices in a batch and through the pyspiel API.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from agents.policies import random_action
from skip_ai.kernel.family import compile_for
from skip_ai.kernel.rng import make_rng

_NO_STATE = np.zeros(1, np.int64)
"""The random policy never reads the state; bots may drive games that are not kernels."""


class RandomBot(pyspiel.Bot):
    """Picks a legal action uniformly at random, for whichever player is to move."""

    def __init__(self, seed: int = 0, rng: np.ndarray | None = None):
        pyspiel.Bot.__init__(self)
        self._rng = make_rng(seed) if rng is None else rng
        # compiled (or loaded from Numba's cache) now, not in the first (timed) move
        compile_for(random_action, _NO_STATE, _NO_STATE, 1, self._rng)

    def new_game(self, seed: int) -> None:
        """Ready for a new game: the bot ``RandomBot(seed)`` would be."""
        self._rng = make_rng(seed)

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def provides_policy(self) -> bool:
        return True

    def step_with_policy(self, state: pyspiel.State):
        legal = state.legal_actions()
        if not legal:
            return [], pyspiel.INVALID_ACTION
        p = 1.0 / len(legal)
        action = int(
            random_action(_NO_STATE, np.asarray(legal, dtype=np.int64), len(legal), self._rng)
        )
        return [(a, p) for a in legal], action

    def step(self, state: pyspiel.State) -> int:
        return self.step_with_policy(state)[1]


def make_random(game: pyspiel.Game, seed: int = 0) -> RandomBot:
    return RandomBot(seed)
