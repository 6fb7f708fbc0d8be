"""One rule-of-thumb player per game kernel, as a kernel-level policy.

The module ``agents.heuristics.<name>`` serves the game kernel ``skip_ai.games.<name>``
(e.g. ``agents.heuristics.guess`` plays ``skip_guess``). It provides, all plain data or ``@njit``:

- ``act(s, rng, w) -> action``: a legal action for the seat to move, ``s[H_CUR]``. It reads only
  what that seat may know: its own hand, public places, hand sizes, ``NOT_HOLD`` and the game's
  public slots — never the ``LOC`` of a card hidden from it. ``rng`` breaks ties or randomises;
  ``w`` holds the weights of its rules of thumb.
- ``WEIGHTS``: the default weights (float64 array); ``WEIGHT_NAMES``: what each one means.

The module docstring says its rules of thumb in plain words. A heuristic module is a policy
module for the kernel loops (:mod:`skip_ai.kernel.engine`): the drivers hand it to them.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from skip_ai.pyspiel_wrapper import KernelGame


def heuristic_module(kernel: ModuleType) -> ModuleType:
    """The heuristic module of game kernel ``kernel`` (every game has one)."""
    name = kernel.__name__.rsplit(".", 1)[-1]
    try:
        return importlib.import_module(f"agents.heuristics.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"agents.heuristics.{name}":
            raise
        raise ImportError(
            f"game kernel {kernel.__name__} has no heuristic player: every game "
            f"needs agents/heuristics/{name}.py"
        ) from None


def heuristic_weights(game: KernelGame, weights: np.ndarray | None = None) -> np.ndarray:
    """The heuristic's weights for ``game``: ``weights`` checked, or the defaults."""
    default = heuristic_module(game.spec.kernel).WEIGHTS
    if weights is None:
        return np.asarray(default, np.float64)
    w = np.asarray(weights, np.float64)
    if w.shape != default.shape:
        raise ValueError(
            f"{game.spec.short_name}: the heuristic takes {default.shape[0]} weights, got {w.shape}"
        )
    if not np.isfinite(w).all():  # a NaN makes every move's score NaN: no move is best
        raise ValueError(
            f"{game.spec.short_name}: the heuristic's weights must be finite "
            f"numbers (got {w.tolist()})"
        )
    return w
