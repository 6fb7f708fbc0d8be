"""The ISMCTS agent: ``"ismcts(iterations=N)"`` or ``"ismcts(seconds=S)"``.

Options (every one a field of :class:`agents.search_config.SearchConfig`, which says what each
does and checks them): ``uct_c`` (default 0.7), ``rollout=heuristic|random|model``,
``rollout_eps``, ``heuristic_prior=true``, ``prior_c``, ``model=PATH`` (a model,
:mod:`agents.model`, e.g. a deep Monte-Carlo Q model trained by ``skip-ai train``, or a game's
name for its shipped model, :mod:`agents.shipped`: the softmax
of its outputs / ``temperature`` is the prior), ``temperature``, ``value_after=N`` (the model's
value head as the leaf value), ``prior_depth=K`` (the prior only down to the K-th decision of
the tree; 1: the root), ``final=visits|value``;
and two files: ``weights=PATH.json`` (heuristic weights tuned by ``skip-ai tune``, for the
heuristic rollouts and prior) and ``tuned=PATH.json`` (``uct_c``, ``rollout_eps``, the heuristic
prior's ``prior_c`` and the heuristic's weights, tuned together by ``skip-ai tune --search`` or
``--balance``). The search itself runs in Numba (:mod:`agents.ismcts_kernel`); this module
drives it and keeps the statistics of the last search in :attr:`ISMCTSBot.last_search`.

:class:`ISMCTSAgent` is the same player as a bot factory, for callers that hold a
:class:`SearchConfig` rather than a spec (the tuner hands candidates to matches this way).

Each search draws from a generator seeded by the bot's seed and the number of actions played so
far, so a decision depends only on the seed, the budget and what the player knows.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np
import pyspiel

from agents.heuristics import heuristic_module, heuristic_weights
from agents.ismcts_kernel import (
    M_ITERATIONS,
    M_NODES,
    META_SIZE,
    STAT_COLS,
    TREE_COLS,
    Settings,
    root_children,
    search_kernel,
)
from agents.model import PolicyValueNet, features_module
from agents.policies import MODEL, POLICY_CODES
from agents.search_config import TUNED, SearchConfig, load_search_config
from agents.shipped import model_file
from agents.weights import load_weights
from skip_ai.kernel.family import compile_for
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
    """Single-observer ISMCTS for whichever player is to move, with the settings ``config``."""

    def __init__(self, game: KernelGame, config: SearchConfig, seed: int = 0):
        pyspiel.Bot.__init__(self)
        if not isinstance(game, KernelGame):
            raise ValueError(f"the ismcts agent plays skip_ai games only (got {game})")
        if config.iterations is None and config.seconds is None:
            raise ValueError("ismcts needs exactly one budget: iterations=N or seconds=S")
        self.game = game
        self.config = config
        self.seed = int(seed)
        model = PolicyValueNet.load(model_file(config.model), game) if config.model else None
        value_after, side = _leaf_values(game, model, config.value_after)
        self.settings = Settings(
            uct_c=config.uct_c,
            rollout=MODEL if config.rollout == "model" else POLICY_CODES[config.rollout],
            eps=config.rollout_eps,
            weights=heuristic_weights(game, config.weights),
            lo=game.min_utility(),
            span=game.max_utility() - game.min_utility(),
            dims=model.dims if model else np.zeros(0, np.int64),
            params=model.tempered_params(config.temperature) if model else np.zeros(0),
            prior_c=config.effective_prior_c,
            value_after=value_after,
            side=side,
            heuristic_prior=config.heuristic_prior,
            prior_depth=config.prior_depth,
        )
        features = features_module(game, model.feature_size if model else 0)
        self.kernel = search_kernel(game.spec.kernel, heuristic_module(game.spec.kernel), features)
        if config.seconds is not None:
            self._compile()
        self.last_search: SearchStats | None = None

    def _compile(self) -> None:
        """A timed search's kernel, compiled for its argument types before its first move: a
        cold compile (a minute in Pyatki in pairs) inside that move was counted as thinking
        time, and its search ran one chunk. A search by iterations compiles at its first move,
        so that checking a spec (a tournament's, for every game) builds no kernel."""
        compile_for(
            self.kernel.run,
            self.game.initial,
            np.zeros(1, np.uint64),
            1,
            np.empty((1, TREE_COLS), np.int64),
            np.empty((1, STAT_COLS), np.float64),
            np.zeros(META_SIZE, np.int64),
            self.settings,
        )

    def new_game(self, seed: int) -> None:
        """Ready for a new game: the bot built with ``seed`` would be (a search's draws
        depend only on the seed and the moves played)."""
        self.seed = int(seed)
        self.last_search = None

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
            self.last_search = SearchStats(
                0, 0.0, 0, np.array(legal, np.int64), np.zeros(1, np.int64), np.zeros(1)
            )
            return [(legal[0], 1.0)], legal[0]
        stats = self.search(state)
        total = stats.visits.sum()
        policy = [(int(a), float(v) / total) for a, v in zip(stats.actions, stats.visits)]
        return policy, self.chosen(stats)

    def step(self, state: pyspiel.State) -> int:
        return self.step_with_policy(state)[1]

    def chosen(self, stats: SearchStats) -> int:
        """The action a search with ``stats`` plays: by visits (ties by value), or by value
        (ties by visits) with ``final=value``."""
        if self.config.final == "visits":
            best = np.lexsort((-stats.values, -stats.visits))[0]
        else:
            best = np.lexsort((-stats.visits, -stats.values))[0]
        return int(stats.actions[best])

    def search(self, state: pyspiel.State) -> SearchStats:
        """Search from ``state`` for the player to move; the statistics are also kept in
        :attr:`last_search`."""
        return self.search_kernel_state(state.kernel_state())

    def search_kernel_state(self, root: np.ndarray) -> SearchStats:
        """:meth:`search` from the kernel state ``root`` (a loop that plays games in the
        kernel's arrays, such as a training chunk against the search, calls this)."""
        rng = np.array([derive(np.uint64(self.seed), int(root[H_MOVES]))], np.uint64)
        tree = np.empty((INITIAL_NODES, TREE_COLS), np.int64)
        stats = np.empty((INITIAL_NODES, STAT_COLS), np.float64)
        meta = np.zeros(META_SIZE, np.int64)
        run = self.kernel.run
        budget = self.config
        start = time.perf_counter()
        chunk = TIME_CHUNK
        rate = 0.0  # iterations per second of the last chunk
        while True:
            if budget.iterations is not None:
                want = budget.iterations - int(meta[M_ITERATIONS])
                if want <= 0:
                    break
            else:
                left = budget.seconds - (time.perf_counter() - start)
                if left <= 0 and meta[M_ITERATIONS] > 0:  # at least one, whatever the clock
                    break
                want = chunk
                if rate > 0:  # a chunk that would run past the budget is cut to fit it
                    want = max(1, min(chunk, int(rate * left)))
            t0 = time.perf_counter()
            done = run(root, rng, want, tree, stats, meta, self.settings)
            spent = time.perf_counter() - t0
            if budget.seconds is not None:
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
        self.last_search = SearchStats(
            int(meta[M_ITERATIONS]), seconds, k_max, actions[:k], visits[:k], values[:k]
        )
        return self.last_search


def _leaf_values(
    game: KernelGame, model: PolicyValueNet | None, value_after: int | None
) -> tuple[int, np.ndarray]:
    """The kernel's ``value_after`` (-1: rollouts to the end) and each seat's side, checked:
    the model's value stands for the mover's side, so the game must have two sides whose
    returns are each other's negation."""
    n = game.num_players()
    if value_after is None:
        return -1, np.zeros(n, np.int64)
    if game.spec.team_game:
        side = game.teams()
    elif n == 2:
        side = np.arange(2, dtype=np.int64)
    else:
        raise ValueError(
            f"ismcts: value_after needs two sides; {game} has {n} players each for themselves"
        )
    if game.min_utility() != -game.max_utility():
        raise ValueError(
            f"ismcts: value_after needs utilities symmetric about 0; {game} has "
            f"[{game.min_utility()}, {game.max_utility()}]"
        )
    return value_after, side


@dataclass(frozen=True)
class ISMCTSAgent:
    """ISMCTS with ``config`` as a bot factory: ``ISMCTSAgent(config)(game, seed)`` is the
    bot ``ismcts(...)`` with these settings would be (plain data: it pickles to workers)."""

    config: SearchConfig

    def __call__(self, game: pyspiel.Game, seed: int = 0) -> ISMCTSBot:
        return ISMCTSBot(game, self.config, seed)

    def __str__(self) -> str:
        return str(self.config)


def make_ismcts(
    game: pyspiel.Game,
    seed: int = 0,
    tuned: str | None = None,
    weights: str | None = None,
    **options,
) -> ISMCTSBot:
    """``ismcts(...)``: ``options`` are :class:`SearchConfig` fields; ``weights`` and
    ``tuned`` name files (see the module docstring)."""
    if not isinstance(game, KernelGame):
        raise ValueError(f"the ismcts agent plays skip_ai games only (got {game})")
    for name, value in (("tuned", tuned), ("weights", weights)):
        if value is not None and not isinstance(value, str):
            raise ValueError(f"ismcts: {name} must be a file's path (got {value!r})")
    config = SearchConfig()
    if tuned is not None:
        if set(options) & set(TUNED) or weights is not None:
            raise ValueError(
                "ismcts: tuned=FILE sets uct_c, rollout_eps, prior_c, "
                "heuristic_prior and weights; give either tuned or those"
            )
        config = load_search_config(tuned, game)
    if weights is not None:
        options["weights"] = tuple(load_weights(weights, game))
    return ISMCTSBot(game, dataclasses.replace(config, **options), seed)
