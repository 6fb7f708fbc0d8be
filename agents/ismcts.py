"""The ISMCTS agent: ``"ismcts(iterations=N)"`` or ``"ismcts(seconds=S)"``.

Options: ``uct_c`` (exploration, rewards in [0, 1]; default 0.7), ``rollout=heuristic|random``
(default heuristic: it measured clearly stronger than random rollouts at equal iterations; with a
model also ``model``), ``rollout_eps`` (each rollout move uniformly random with this
probability; default 0), ``model=PATH`` (a policy/value model, :mod:`agents.model`, trained by
``skip-ai train``: its policy is the prior of the search), ``prior_c`` (weight of that prior in
selection; default 1.0), ``weights=PATH.json`` (heuristic weights tuned by ``skip-ai tune``, for
the heuristic rollouts), ``tuned=PATH.json`` (``uct_c``, ``rollout_eps``, the heuristic
prior's ``prior_c`` and the heuristic's weights tuned together by ``skip-ai tune --search``),
``heuristic_prior=true`` (without a model: the heuristic's move, with ``weights``, is expanded
first and has prior 1 in selection, weighted by ``prior_c``),
``value_after=N`` (with a model: a rollout stops at the first decision after N of its moves,
0 at the new leaf itself, and the model's value of that position is backed up instead of the
game's result: cheaper iterations, AlphaZero-style; for two-sided games),
``final=visits|value`` (the most visited root action, or the best mean), ``seed``. The search
itself runs in Numba (:mod:`agents.ismcts_kernel`); this module drives it and keeps the
statistics of the last search in :attr:`ISMCTSBot.last_search`.

Each search draws from a generator seeded by the bot's seed and the number of actions played so
far, so a decision depends only on the seed, the budget and what the player knows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pyspiel

from agents.factory import agent_kind
from agents.ismcts_kernel import (
    M_ITERATIONS,
    M_NODES,
    META_SIZE,
    STAT_COLS,
    TREE_COLS,
    root_children,
    search_kernel,
)
from agents.model import PolicyValueNet
from agents.policies import MODEL, POLICY_CODES
from skip_ai.kernel.rng import derive
from skip_ai.kernel.state import H_MOVES
from skip_ai.pyspiel_wrapper import KernelGame

INITIAL_NODES = 1 << 14
TIME_CHUNK = 1
"""Iterations between two looks at the clock under a time budget, at first: chunks double
while they take under 10 ms, and a chunk that would run past the budget at the last chunk's
rate is cut to fit, so a search ends within about one iteration of its budget. It starts at
one iteration because one iteration can be long (a rollout of a long game)."""


@dataclass
class SearchStats:
    """What the last search did: its size, and per root action visits and mean value."""
    iterations: int
    seconds: float
    nodes: int
    actions: np.ndarray
    visits: np.ndarray
    values: np.ndarray

    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else float("nan")


class ISMCTSBot(pyspiel.Bot):
    """Single-observer ISMCTS for whichever player is to move."""

    def __init__(self, game: KernelGame, seed: int = 0, iterations: int | None = None,
                 seconds: float | None = None, uct_c: float = 0.7, rollout: str = "heuristic",
                 final: str = "visits", weights: np.ndarray | str | None = None,
                 model: str | PolicyValueNet | None = None, prior_c: float = 1.0,
                 rollout_eps: float = 0.0, tuned: str | None = None,
                 value_after: int | None = None, heuristic_prior: bool = False):
        pyspiel.Bot.__init__(self)
        from skip_ai.sim import heuristic_weights

        if tuned is not None:  # a search tuned by ``skip-ai tune --search``
            from skip_ai.training.tuning import load_search

            if (uct_c != 0.7 or rollout_eps != 0.0 or weights is not None or prior_c != 1.0
                    or heuristic_prior):
                raise ValueError("ismcts: tuned=FILE sets uct_c, rollout_eps, prior_c, "
                                 "heuristic_prior and weights; give either tuned or those")
            found = load_search(tuned, game)
            uct_c, rollout_eps, weights = found.uct_c, found.rollout_eps, found.weights
            prior_c, heuristic_prior = found.prior_c, found.prior_c > 0

        if (iterations is None) == (seconds is None):
            raise ValueError("ismcts needs exactly one budget: iterations=N or seconds=S")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"ismcts: iterations must be a positive integer (got {iterations})")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"ismcts: seconds must be positive (got {seconds})")
        if rollout not in ("random", "heuristic", "model"):
            raise ValueError(f"ismcts: rollout must be random, heuristic or model "
                             f"(got {rollout!r})")
        if rollout == "model" and model is None:
            raise ValueError("ismcts: rollout=model needs a model=PATH")
        if not prior_c >= 0:
            raise ValueError(f"ismcts: prior_c must be ≥ 0 (got {prior_c})")
        if final not in ("visits", "value"):
            raise ValueError(f"ismcts: final must be visits or value (got {final!r})")
        if not uct_c >= 0:
            raise ValueError(f"ismcts: uct_c must be ≥ 0 (got {uct_c})")
        if not 0 <= rollout_eps <= 1:
            raise ValueError(f"ismcts: rollout_eps must be in [0, 1] (got {rollout_eps})")
        self.game = game
        self.seed = int(seed)
        self.iterations, self.seconds = iterations, seconds
        self.uct_c, self.final = float(uct_c), final
        self.rollout_eps = float(rollout_eps)
        self.rollout = MODEL if rollout == "model" else POLICY_CODES[rollout]
        if model is not None and not isinstance(model, PolicyValueNet):
            model = PolicyValueNet.load(model)
        if model is not None:
            model.check_game(str(game))
        self.model = model
        self.dims = model.dims if model else np.zeros(0, np.int64)
        self.params = model.params if model else np.zeros(0, np.float64)
        if heuristic_prior not in (True, False):
            raise ValueError(f"ismcts: heuristic_prior must be true or false "
                             f"(got {heuristic_prior!r})")
        if heuristic_prior and model is not None:
            raise ValueError("ismcts: heuristic_prior and model=PATH are two priors; give one")
        self.heuristic_prior = heuristic_prior
        self.prior_c = float(prior_c) if model or heuristic_prior else 0.0
        self.value_after, self.side = _leaf_values(game, model, value_after)
        if isinstance(weights, str):
            from skip_ai.training.tuning import load_weights

            weights = load_weights(weights, game)
        self.weights = heuristic_weights(game, weights)
        self.lo = game.min_utility()
        self.span = game.max_utility() - game.min_utility()
        self.kernel = search_kernel(game.spec.kernel)
        self.last_search: SearchStats | None = None

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def provides_policy(self) -> bool:
        return True

    def step_with_policy(self, state: pyspiel.State):
        """The root visit distribution as the policy, and the chosen action."""
        legal = state.legal_actions()
        if not legal:
            return [], pyspiel.INVALID_ACTION
        if len(legal) == 1:  # a forced move: no thinking time spent on it
            self.last_search = SearchStats(0, 0.0, 0, np.array(legal, np.int64),
                                           np.zeros(1, np.int64), np.zeros(1))
            return [(legal[0], 1.0)], legal[0]
        stats = self.search(state)
        total = stats.visits.sum()
        policy = [(int(a), float(v) / total) for a, v in zip(stats.actions, stats.visits)]
        if self.final == "visits":
            best = np.lexsort((-stats.values, -stats.visits))[0]
        else:
            best = np.lexsort((-stats.visits, -stats.values))[0]
        return policy, int(stats.actions[best])

    def step(self, state: pyspiel.State) -> int:
        return self.step_with_policy(state)[1]

    def search(self, state: pyspiel.State) -> SearchStats:
        """Search from ``state`` for the player to move; the statistics are also kept in
        :attr:`last_search`."""
        root = state._s.copy()
        rng = np.array([derive(np.uint64(self.seed), int(root[H_MOVES]))], np.uint64)
        tree = np.empty((INITIAL_NODES, TREE_COLS), np.int64)
        stats = np.empty((INITIAL_NODES, STAT_COLS), np.float64)
        meta = np.zeros(META_SIZE, np.int64)
        run = self.kernel.run
        start = time.perf_counter()
        chunk = TIME_CHUNK
        rate = 0.0  # iterations per second of the last chunk
        while True:
            if self.iterations is not None:
                want = self.iterations - int(meta[M_ITERATIONS])
                if want <= 0:
                    break
            else:
                left = self.seconds - (time.perf_counter() - start)
                if left <= 0:
                    break
                want = chunk
                if rate > 0:  # a chunk that would run past the budget is cut to fit it
                    want = max(1, min(chunk, int(rate * left)))
            t0 = time.perf_counter()
            done = run(root, rng, want, tree, stats, meta, self.uct_c, self.rollout,
                       self.rollout_eps, self.weights, self.lo, self.span, self.dims,
                       self.params, self.prior_c, self.value_after, self.side,
                       self.heuristic_prior)
            spent = time.perf_counter() - t0
            if self.seconds is not None:
                rate = done / spent if spent > 0 else 0.0
                if spent < 0.01:
                    chunk *= 2
            if int(meta[M_NODES]) + 2 * 512 >= len(tree):  # nearly full: grow
                tree = np.concatenate([tree, np.empty_like(tree)])
                stats = np.concatenate([stats, np.empty_like(stats)])
        seconds = time.perf_counter() - start
        k_max = int(meta[M_NODES])
        actions = np.empty(k_max, np.int64)
        visits = np.empty(k_max, np.int64)
        values = np.empty(k_max, np.float64)
        k = root_children(tree, stats, actions, visits, values)
        self.last_search = SearchStats(int(meta[M_ITERATIONS]), seconds, k_max, actions[:k],
                                       visits[:k], values[:k])
        return self.last_search


def _leaf_values(game: KernelGame, model: PolicyValueNet | None,
                 value_after: int | None) -> tuple[int, np.ndarray]:
    """The kernel's ``value_after`` (-1: rollouts to the end) and each seat's side, checked:
    the model's value stands for the mover's side, so the game must have two sides whose
    returns are each other's negation."""
    n = game.num_players()
    if value_after is None:
        return -1, np.zeros(n, np.int64)
    if model is None:
        raise ValueError("ismcts: value_after needs a model=PATH (its value head)")
    if not isinstance(value_after, int) or value_after < 0:
        raise ValueError(f"ismcts: value_after must be an integer ≥ 0 (got {value_after})")
    if game.spec.team_game:
        side = game.teams()
    elif n == 2:
        side = np.arange(2, dtype=np.int64)
    else:
        raise ValueError(f"ismcts: value_after needs two sides; {game} has {n} players "
                         f"each for themselves")
    if game.min_utility() != -game.max_utility():
        raise ValueError(f"ismcts: value_after needs utilities symmetric about 0; {game} has "
                         f"[{game.min_utility()}, {game.max_utility()}]")
    return value_after, side


@agent_kind("ismcts")
def make_ismcts(game: pyspiel.Game, seed: int = 0, **kwargs) -> ISMCTSBot:
    if not isinstance(game, KernelGame):
        raise ValueError(f"the ismcts agent plays skip_ai games only (got {game})")
    return ISMCTSBot(game, seed, **kwargs)
