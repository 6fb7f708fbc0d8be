"""Simulation balancing: tuning the rollout policy to *judge* positions, not to play them.

An ISMCTS rollout is an evaluation: what the search needs from the rollout policy is that the
mean of its playouts from a position be close to what the position is really worth, not that the
policy win games (Silver & Tesauro 2009, "Monte-Carlo simulation balancing"; Huang, Coulom &
Lin 2010). A stronger heuristic can be a worse evaluator: its errors do not average out.

The data are **expert positions**: self-play games of a strong player (by default
``ismcts(iterations=1000)``), a few decisions kept per game, each with the mover's final return
— a noisy but unbiased sample of the position's worth under strong play. A rollout policy (the
heuristic's weights and the share ``eps`` of uniformly random moves) is scored by its **squared
bias**: from every position, ``rollouts`` playouts, each from a world re-dealt from the mover's
view as the search does, give a mean ``m``; the error is ``(m - z)² - var/rollouts`` averaged
over positions (the variance term removes the noise of the finite mean). Every candidate meets
the same positions and the same random numbers, so two candidates differ only by their policies.
The cross-entropy method (:func:`skip_ai.tuning.players.cross_entropy`) minimises it; the
result is a :class:`agents.search_config.SearchConfig` with the default ``uct_c`` and no prior,
saved as a tuned-search file (``ismcts(tuned=FILE)``).

(Not to be confused with :mod:`skip_ai.analysis.balance`, which measures how balanced a *game*
is.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyspiel
from numba import njit
from tqdm import tqdm

from agents import make_agent
from agents.heuristics import heuristic_module, heuristic_weights
from agents.search_config import DEFAULT_UCT_C, SearchConfig, save_search_config
from skip_ai.kernel.family import kernel_family
from skip_ai.kernel.resample import PLAN_SIZE
from skip_ai.kernel.rng import base_seed, below, derive, make_rng, uniform
from skip_ai.kernel.state import CHANCE, H_CUR, H_PLAYERS, MAX_CARDS, TERMINAL, copy_into
from skip_ai.play import play
from skip_ai.pyspiel_wrapper import KernelGame, load, same_game
from skip_ai.tuning.players import cross_entropy, search_config

POSITIONS_FORMAT = "skip_ai.expert_positions/1"


@dataclass
class Positions:
    """Expert positions: kernel states ``(N, L)``, the seat to move in each, and the mover's
    final return mapped to [0, 1]."""

    game: str
    expert: str
    states: np.ndarray
    movers: np.ndarray
    targets: np.ndarray

    def part(self, rows: slice) -> Positions:
        return Positions(
            self.game, self.expert, self.states[rows], self.movers[rows], self.targets[rows]
        )


@kernel_family
def _kernel(K, H) -> SimpleNamespace:
    """The balancing kernel for game kernel module ``K`` and its heuristic module ``H``."""

    @njit(cache=True)
    def squared_bias(states, movers, targets, w, eps, rollouts, base, lo, span, out):
        """``out[i]``: the unbiased squared error of the mean of ``rollouts`` playouts from
        position ``i`` (each from a world re-dealt from the mover's view) against its target."""
        rng = np.empty(1, np.uint64)
        plan = np.empty(PLAN_SIZE, np.int64)
        sigma = np.empty(MAX_CARDS, np.int64)
        ret = np.empty(states[0, H_PLAYERS], np.float64)
        s = states[0].copy()
        for i in range(states.shape[0]):
            root = states[i]
            p = movers[i]
            K.resample_plan(root, p, plan)
            total = 0.0
            sq = 0.0
            for r in range(rollouts):
                rng[0] = derive(base, i * rollouts + r)
                copy_into(s, root)
                K.resample_planned(s, plan, rng, sigma)
                while s[H_CUR] != TERMINAL:
                    if s[H_CUR] == CHANCE:
                        a = K.sample_chance(s, rng)
                    elif eps > 0.0 and uniform(rng) < eps:
                        a = K.random_legal(s, rng)
                    else:
                        a = H.act(s, rng, w)
                    K.apply_action(s, a)
                K.returns(s, ret)
                v = (ret[p] - lo) / span
                total += v
                sq += v * v
            m = total / rollouts
            var = (sq - rollouts * m * m) / (rollouts - 1)
            out[i] = (m - targets[i]) ** 2 - var / rollouts

    return SimpleNamespace(squared_bias=squared_bias)


def expert_positions(
    game: str | KernelGame,
    expert: str,
    n_games: int,
    per_game: int = 4,
    seed: int = 0,
    progress: bool = True,
) -> Positions:
    """``n_games`` of self-play by ``expert`` (an agent spec) with up to ``per_game`` decisions
    kept from each game, drawn among those with a choice (two or more legal actions); game
    ``i`` draws its deal, its players' seeds and the kept decisions from
    ``derive(base_seed(seed), i)``."""
    if n_games < 1 or per_game < 1:
        raise ValueError(f"games and per_game must be at least 1 (got {n_games}, {per_game})")
    g = load(game) if isinstance(game, str) else game
    lo, span = g.min_utility(), g.max_utility() - g.min_utility()
    base = np.uint64(base_seed(seed))
    states, movers, targets = [], [], []
    for i in tqdm(range(n_games), desc="expert games", unit="game", disable=not progress):
        game_seed = int(derive(base, i))
        rng = make_rng(game_seed)
        bot = make_agent(expert, g, seed=int(derive(np.uint64(game_seed), 1)))
        seen: list[tuple[np.ndarray, int]] = []

        def keep(state: pyspiel.State, player: int) -> None:
            if len(state.legal_actions()) > 1:
                seen.append((state.kernel_state(), player))

        # the generator that dealt goes on to pick the decisions kept
        returns = play(g.new_initial_state(), [bot] * g.num_players(), rng, on_turn=keep).returns()
        for k in sorted(set(int(below(rng, len(seen))) for _ in range(per_game))) if seen else []:
            s, p = seen[k]
            states.append(s)
            movers.append(p)
            targets.append((returns[p] - lo) / span)
    if not states:
        raise ValueError(f"{n_games} games of {expert} had no decision with a choice")
    return Positions(
        str(g), expert, np.array(states), np.array(movers, np.int64), np.array(targets, np.float64)
    )


def save_positions(pos: Positions, path: str | Path) -> None:
    """Expert positions as ``.npz`` (no pickled objects), written atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp.npz")
    np.savez_compressed(
        tmp,
        format=POSITIONS_FORMAT,
        game=pos.game,
        expert=pos.expert,
        states=pos.states,
        movers=pos.movers,
        targets=pos.targets,
    )
    tmp.replace(path)


def load_positions(path: str | Path, game: KernelGame) -> Positions:
    """Positions saved by :func:`save_positions`, checked against ``game``."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no expert positions file at {path}")
    try:
        with np.load(path, allow_pickle=False) as f:
            if str(f["format"]) != POSITIONS_FORMAT:
                raise ValueError(f"format is {str(f['format'])!r}, not {POSITIONS_FORMAT!r}")
            pos = Positions(
                str(f["game"]),
                str(f["expert"]),
                f["states"].astype(np.int64),
                f["movers"].astype(np.int64),
                f["targets"].astype(np.float64),
            )
    except (ValueError, KeyError, OSError) as e:
        raise ValueError(f"{path} is not an expert positions file: {e}") from None
    if not same_game(pos.game, game):
        raise ValueError(f"{path}: these positions are from {pos.game}, not {game}")
    if pos.states.ndim != 2 or pos.states.shape[1] != len(game.initial):
        raise ValueError(f"{path}: states of length {pos.states.shape[1:]} do not fit {game}")
    return pos


def rollout_error(
    game: KernelGame,
    pos: Positions,
    weights: np.ndarray,
    eps: float,
    rollouts: int = 16,
    seed: int = 0,
) -> float:
    """The mean squared bias of the rollout policy (``weights``, ``eps``) over ``pos``."""
    if rollouts < 2:
        raise ValueError(f"rollouts must be at least 2 (got {rollouts})")
    lo, span = game.min_utility(), game.max_utility() - game.min_utility()
    out = np.empty(len(pos.targets))
    K = game.spec.kernel
    _kernel(K, heuristic_module(K)).squared_bias(
        pos.states,
        pos.movers,
        pos.targets,
        heuristic_weights(game, weights),
        float(np.clip(eps, 0.0, 1.0)),
        rollouts,
        np.uint64(base_seed(seed)),
        lo,
        span,
        out,
    )
    return float(out.mean())


@dataclass
class Balancing:
    game: str
    expert: str  # the player whose self-play gave the positions
    names: tuple[str, ...]  # the heuristic's weight names
    config: SearchConfig  # the default uct_c, no prior, the balanced eps and weights
    rounds: list[dict]  # per round (generation): the mean as a tuned-search vector,
    # the best in-sample error removed, the mean's held-out error
    default_error: float  # held-out squared bias of the default rollouts (eps 0)
    error: float  # held-out squared bias of the balanced rollouts


def balance(
    game: str | KernelGame,
    pos: Positions,
    rounds: int = 5,
    population: int = 16,
    elite: int = 4,
    rollouts: int = 16,
    sigma: float = 0.5,
    holdout: float = 0.25,
    seed: int = 0,
    progress: bool = True,
) -> Balancing:
    """Cross-entropy search for the rollout policy (``eps`` and the heuristic's weights) whose
    playouts best match the expert outcomes of ``pos``. The last ``holdout`` share of the
    positions (the last games) is kept out of the search and gives the errors reported; the
    result is the last round's mean."""
    g = load(game) if isinstance(game, str) else game
    if not same_game(pos.game, g):
        raise ValueError(f"these positions are from {pos.game}, not {g}")
    if not 0 < holdout < 1:
        raise ValueError(f"holdout must be in (0, 1) (got {holdout})")
    cut = int(round(len(pos.targets) * (1 - holdout)))
    if cut < 2 or cut > len(pos.targets) - 2:
        raise ValueError(f"{len(pos.targets)} positions are too few to hold {holdout} out")
    fit, held = pos.part(slice(None, cut)), pos.part(slice(cut, None))
    default = heuristic_weights(g)

    def error(theta: np.ndarray, on: Positions) -> float:
        return rollout_error(g, on, theta[1:], theta[0], rollouts, seed)

    theta0 = np.concatenate([[0.0], default])
    spread = np.concatenate([[0.3], sigma * np.maximum(np.abs(default), 1.0)])
    reference = error(theta0, fit)
    # scored as the error removed, so 0 is "as good as the default rollouts"
    _, _, history = cross_entropy(
        lambda theta, r: reference - error(theta, fit),
        theta0,
        spread,
        rounds,
        population,
        elite,
        seed,
        f"balance {g.spec.short_name}",
        progress,
        lambda mean, r: {"held_out_error": error(mean, held)},
        reference=0.0,
    )
    final = np.array(history[-1]["mean"])
    for h in history:  # as tuned-search vectors [ln uct_c, eps, prior_c, *weights]
        h["mean"] = [float(np.log(DEFAULT_UCT_C)), h["mean"][0], 0.0, *h["mean"][1:]]
    return Balancing(
        str(g),
        pos.expert,
        tuple(heuristic_module(g.spec.kernel).WEIGHT_NAMES),
        search_config(np.array(history[-1]["mean"]), SearchConfig()),
        history,
        error(theta0, held),
        error(final, held),
    )


def save_balanced(result: Balancing, path: str | Path) -> None:
    """The balanced search as a tuned-search file (what ``ismcts(tuned=FILE)`` loads), with
    the expert and the held-out errors before and after."""
    save_search_config(
        path,
        load(result.game),
        result.config,
        {
            "score_vs_plain": None,
            "balanced_on": result.expert,
            "held_out_error": {"default": result.default_error, "balanced": result.error},
            "rounds": result.rounds,
        },
    )
