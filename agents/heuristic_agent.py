"""The heuristic agent: the game's rule-of-thumb kernel policy as a ``pyspiel.Bot``.

It calls the same ``act`` function (``agents.heuristics.<game>``) that batches and ISMCTS
rollouts call, on a copy of the state's kernel array, with the kernel generator.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from agents.heuristics import heuristic_module, heuristic_weights
from agents.weights import load_weights
from skip_ai.kernel.family import compile_for
from skip_ai.kernel.rng import make_rng
from skip_ai.pyspiel_wrapper import KernelGame


class HeuristicBot(pyspiel.Bot):
    """Plays the game's heuristic for whichever player is to move."""

    def __init__(self, game: KernelGame, seed: int = 0, weights: np.ndarray | None = None):
        pyspiel.Bot.__init__(self)
        self._act = heuristic_module(game.spec.kernel).act
        self._w = heuristic_weights(game, weights)
        self._rng = make_rng(seed)
        # compiled (or loaded from Numba's cache) now: a cold compile in the first move (5 s in
        # Pyatki) was reported as that move's thinking time
        compile_for(self._act, game.initial, self._rng, self._w)

    def new_game(self, seed: int) -> None:
        """Ready for a new game: the bot built with ``seed`` would be."""
        self._rng = make_rng(seed)

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        if state.is_terminal() or state.is_chance_node():
            return pyspiel.INVALID_ACTION
        return int(self._act(state.kernel_state(), self._rng, self._w))


def make_heuristic(game: pyspiel.Game, seed: int = 0, weights: str | None = None) -> HeuristicBot:
    """``heuristic`` or ``heuristic(weights=PATH.json)`` (tuned by ``skip-ai tune``)."""
    if not isinstance(game, KernelGame):
        raise ValueError(f"the heuristic agent plays skip_ai games only (got {game})")
    if weights is not None and not isinstance(weights, str):
        raise ValueError(f"heuristic: weights must be a file's path (got {weights!r})")
    return HeuristicBot(game, seed, None if weights is None else load_weights(weights, game))
