"""OpenSpiel's own bots on our games, as the reference to beat.

``"openspiel_ismcts(iterations=N)"`` or ``"openspiel_ismcts(seconds=S)"`` (plus ``uct_c``,
default 2.0 as in OpenSpiel's examples, and ``rollouts``, default 1): OpenSpiel's Python
ISMCTS with random-rollout evaluation, resampling worlds through our games'
``resample_from_infostate``, final move by most visits.

OpenSpiel's plain MCTS is not offered: it searches the true state, which in these games means
reading the other players' hands.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from agents.search_config import MAX_ITERATIONS, MAX_SECONDS

MAX_ROLLOUTS = 1000
"""The most random rollouts one leaf may average."""


class _TimeUp(Exception):
    pass


class OpenSpielISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot with an optional wall-time budget per move."""

    def __init__(
        self,
        game: pyspiel.Game,
        seed: int,
        iterations: int | None,
        seconds: float | None,
        uct_c: float,
        rollouts: int,
    ):
        if (iterations is None) == (seconds is None):
            raise ValueError("openspiel_ismcts needs exactly one budget: iterations=N or seconds=S")
        _check(
            "iterations",
            iterations,
            f"a positive integer, at most {MAX_ITERATIONS:_}",
            lambda x: 1 <= x <= MAX_ITERATIONS,
            whole=True,
        )
        _check(
            "seconds",
            seconds,
            f"a positive finite number, at most {MAX_SECONDS:g}",
            lambda x: 0 < x <= MAX_SECONDS,
        )
        _check("uct_c", uct_c, "a finite number ≥ 0", lambda x: x >= 0)
        _check(
            "rollouts",
            rollouts,
            f"a positive integer, at most {MAX_ROLLOUTS:_}",
            lambda x: 1 <= x <= MAX_ROLLOUTS,
            whole=True,
        )
        rs = np.random.RandomState(seed % (1 << 32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rs)
        super().__init__(
            game,
            evaluator,
            uct_c=uct_c,
            max_simulations=iterations if iterations else 1 << 40,
            random_state=rs,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        self._seconds = seconds
        self._deadline = float("inf")
        self.last_iterations = 0

    def new_game(self, seed: int) -> None:
        """Ready for a new game: the bot built with ``seed`` would be (the search and its
        rollouts share one generator, seeded again in place)."""
        self._random_state.seed(seed % (1 << 32))
        self.reset()
        self._deadline = float("inf")
        self.last_iterations = 0

    def run_search(self, state):
        self.last_iterations = 0
        if self._seconds is not None:
            self._deadline = time.perf_counter() + self._seconds
        try:
            return super().run_search(state)
        except _TimeUp:
            return self.get_final_policy(state, self._root_node)

    def sample_root_state(self, state):
        # its first simulation only evaluates the new root: two give the root a visited child
        if self.last_iterations >= 2 and time.perf_counter() >= self._deadline:
            raise _TimeUp
        self.last_iterations += 1
        return super().sample_root_state(state)


def _check(
    name: str, value: object, what: str, ok: Callable[[float], bool], whole: bool = False
) -> None:
    """One line naming the option unless ``value`` (None: not given) is a finite number,
    whole if asked, that is ``ok``."""
    if value is None:
        return
    number = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, bool
    )
    try:
        finite = number and math.isfinite(value)
    except OverflowError:  # an int too large for a float
        finite = False
    if not finite or (whole and value != int(value)) or not ok(value):
        shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."
        raise ValueError(f"openspiel_ismcts: {name} must be {what} (got {shown})")


def make_openspiel_ismcts(
    game: pyspiel.Game,
    seed: int = 0,
    iterations: int | None = None,
    seconds: float | None = None,
    uct_c: float = 2.0,
    rollouts: int = 1,
) -> OpenSpielISMCTS:
    return OpenSpielISMCTS(game, seed, iterations, seconds, uct_c, rollouts)
