"""Tuning players by the cross-entropy method over duplicate matches.

**A heuristic's weights** (:func:`tune_heuristic`). Each round draws ``population`` weight
vectors from a normal distribution (mean: the current best guess, starting at the game's
``WEIGHTS``; spread: ``sigma`` × max(|mean|, 1) at first), scores each by
:func:`skip_ai.duplicate.kernel_match` against the *default* weights on the same ``deals``
duplicate deals (common random numbers: every candidate meets the same cards), and refits mean
and spread to the ``elite`` best. Everything runs inside Numba, so a round of 16 candidates ×
500 deals takes seconds.

**An ISMCTS search** (:func:`tune_search`): the same method over the search's own parameters —
the exploration constant ``uct_c``, the rollouts' share of random moves ``rollout_eps``, the
weight ``prior_c`` of the heuristic's move as a prior (``heuristic_prior``; 0 for none) and the
heuristic's weights (for the rollouts and the prior) — scoring each candidate by ISMCTS matches
against the untuned search at the same budget. With a time budget the tuning aims at what
counts: strength at equal thinking time (a cheaper rollout buys more iterations). Each round's
mean is a *generation*; with ``eval_deals`` every generation is also scored against the untuned
search on fresh deals, the curve of strength by generation. A candidate is a
:class:`agents.search_config.SearchConfig`, handed to the matches as a bot factory
(:class:`agents.ismcts.ISMCTSAgent`); the result is saved in that config's file form, what
``ismcts(tuned=FILE)`` loads.

The files' formats belong to the agents that read them (:mod:`agents.weights`,
:mod:`agents.search_config`); this module only says what a tuning adds to them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from agents import parse_spec
from agents.heuristics import heuristic_module, heuristic_weights
from agents.ismcts import ISMCTSAgent
from agents.search_config import DEFAULT_UCT_C, SearchConfig, save_search_config
from agents.weights import save_weights as save_weights_file
from skip_ai.duplicate import kernel_match, match_summary
from skip_ai.match import match
from skip_ai.pyspiel_wrapper import KernelGame, load


@dataclass
class TuningResult:
    game: str
    names: tuple[str, ...]
    default: np.ndarray
    best: np.ndarray
    rounds: list[dict]  # per round: mean weights, best score of the round
    score: tuple[float, float, float]  # best vs default on fresh deals, with a 95% interval


def score_weights(
    game: KernelGame, weights: np.ndarray, deals: int, seed: int, against: np.ndarray | None = None
) -> tuple[float, float, float]:
    """The heuristic with ``weights`` vs the heuristic with ``against`` (default: the game's
    weights): mean duplicate score and 95% interval."""
    df = kernel_match(
        game, "heuristic", "heuristic", deals, seed=seed, weights_a=weights, weights_b=against
    )
    return match_summary(df)


def cross_entropy(
    score: Callable[[np.ndarray, int], float],
    mean: np.ndarray,
    spread: np.ndarray,
    rounds: int,
    population: int,
    elite: int,
    seed: int,
    desc: str,
    progress: bool,
    after_round: Callable[[np.ndarray, int], dict] | None = None,
    reference: float = 0.5,
) -> tuple[np.ndarray, float, list[dict]]:
    """The cross-entropy method: ``score(candidate, round)`` (higher is better; ``reference``:
    as good as the starting point) for ``population`` normal draws per round, refitted to the
    ``elite`` best. Returns the best candidate, its score, and per round the mean, the best
    score and whatever ``after_round(mean, round)`` adds."""
    if not 1 <= elite <= population:
        raise ValueError(f"elite must be between 1 and population ({population}), got {elite}")
    rng = np.random.default_rng(seed)
    free = spread > 0  # a coordinate with no spread stays where it is
    best, best_score = mean.copy(), reference
    history = []
    for r in tqdm(range(rounds), desc=desc, disable=not progress):
        cands = rng.normal(mean, spread, (population, len(mean)))
        scores = np.array([score(c, r) for c in cands])
        top = np.argsort(-scores)[:elite]
        mean = cands[top].mean(axis=0)
        spread = np.where(free, cands[top].std(axis=0) + 1e-3, 0.0)
        if scores[top[0]] > best_score:
            best, best_score = cands[top[0]].copy(), float(scores[top[0]])
        history.append(
            {
                "round": r,
                "mean": mean.tolist(),
                "best_score": float(scores[top[0]]),
                **(after_round(mean, r) if after_round else {}),
            }
        )
    return best, best_score, history


def tune_heuristic(
    game: str | KernelGame,
    rounds: int = 5,
    population: int = 16,
    elite: int = 4,
    deals: int = 500,
    sigma: float = 0.5,
    seed: int = 0,
    progress: bool = True,
) -> TuningResult:
    """Cross-entropy search for better heuristic weights of ``game``; the result's ``score``
    is measured on deals none of the rounds used."""
    g = load(game) if isinstance(game, str) else game
    default = heuristic_weights(g)
    best, _, history = cross_entropy(
        lambda w, r: score_weights(g, w, deals, seed + 1 + r)[0],
        default.copy(),
        sigma * np.maximum(np.abs(default), 1.0),
        rounds,
        population,
        elite,
        seed,
        f"tune {g.spec.short_name}",
        progress,
    )
    final = score_weights(g, best, deals, seed + 10_000)
    return TuningResult(
        str(g), tuple(heuristic_module(g.spec.kernel).WEIGHT_NAMES), default, best, history, final
    )


# ----- tuning a search -------------------------------------------------------------------


@dataclass
class SearchTuning:
    game: str
    budget: str  # e.g. "seconds=0.02": the budget of every match
    names: tuple[str, ...]  # the heuristic's weight names
    config: SearchConfig  # the result, at that budget
    rounds: list[dict]  # per round (generation): mean parameters, best score, and
    # with eval_deals "vs_plain": [score, lo, hi] on fresh deals
    score: tuple[float, float, float]  # the result vs the untuned search on fresh deals


def search_config(theta: np.ndarray, budget: SearchConfig) -> SearchConfig:
    """The search of the tuned vector ``[ln uct_c, eps, prior_c, *weights]`` (``eps``
    clipped to [0, 1], ``prior_c`` to ≥ 0; a heuristic prior when ``prior_c`` > 0) at the
    budget of ``budget``."""
    prior_c = float(max(theta[2], 0.0))
    return dataclasses.replace(
        budget,
        uct_c=float(np.exp(theta[0])),
        rollout_eps=float(np.clip(theta[1], 0.0, 1.0)),
        prior_c=prior_c,
        heuristic_prior=prior_c > 0,
        weights=tuple(float(w) for w in theta[3:]),
    )


def parse_budget(budget: str) -> SearchConfig:
    """An untuned search at ``budget`` (``iterations=N`` or ``seconds=S``)."""
    options = parse_spec(f"ismcts({budget})")[1]
    if set(options) - {"iterations", "seconds"} or len(options) != 1:
        raise ValueError(f"a search budget is iterations=N or seconds=S (got {budget!r})")
    return SearchConfig(**options)


SEARCH_PARAMS = ("uct_c", "rollout_eps", "prior_c", "weights")


def tune_search(
    game: str | KernelGame,
    budget: str = "seconds=0.02",
    rounds: int = 4,
    population: int = 8,
    elite: int = 2,
    deals: int = 10,
    sigma: float = 0.5,
    seed: int = 0,
    eval_deals: int = 0,
    progress: bool = True,
    tune: tuple[str, ...] = SEARCH_PARAMS,
) -> SearchTuning:
    """Cross-entropy search for ISMCTS parameters of ``game`` that beat the untuned search at
    the same ``budget`` (``iterations=N`` or ``seconds=S``). ``tune`` names the parameters
    that vary (the others keep their defaults): fewer parameters need fewer deals to tell
    candidates apart. The result is the last round's mean (steadier than the luckiest
    candidate when each is scored on few deals), scored against the untuned search on
    ``max(eval_deals, deals)`` fresh deals."""
    unknown = set(tune) - set(SEARCH_PARAMS)
    if unknown or not tune:
        raise ValueError(f"tune: choose among {', '.join(SEARCH_PARAMS)} (got {list(tune)})")
    g = load(game) if isinstance(game, str) else game
    plain = parse_budget(budget)
    default = heuristic_weights(g)

    def versus_plain(theta: np.ndarray, n: int, match_seed: int) -> tuple:
        r = match(
            g, ISMCTSAgent(search_config(theta, plain)), ISMCTSAgent(plain), n, seed=match_seed
        )
        return r.score, r.lo, r.hi

    def generation(mean: np.ndarray, r: int) -> dict:
        if not eval_deals:
            return {}
        return {"vs_plain": list(versus_plain(mean, eval_deals, seed + 5_000 + r))}

    theta0 = np.concatenate([[np.log(DEFAULT_UCT_C), 0.0, 0.0], default])
    spread = np.concatenate([[sigma, 0.3, 2 * sigma], sigma * np.maximum(np.abs(default), 1.0)])
    # a parameter not tuned keeps its default: no spread
    fixed = [i for i, name in enumerate(SEARCH_PARAMS[:3]) if name not in tune]
    if "weights" not in tune:
        fixed += list(range(3, len(theta0)))
    spread[fixed] = 0.0
    _, _, history = cross_entropy(
        lambda theta, r: versus_plain(theta, deals, seed + 1 + r)[0],
        theta0,
        spread,
        rounds,
        population,
        elite,
        seed,
        f"tune search {g.spec.short_name}",
        progress,
        generation,
    )
    final = np.array(history[-1]["mean"])
    score = versus_plain(final, max(eval_deals, deals), seed + 10_000)
    return SearchTuning(
        str(g),
        budget,
        tuple(heuristic_module(g.spec.kernel).WEIGHT_NAMES),
        search_config(final, plain),
        history,
        score,
    )


def save_search(result: SearchTuning, path: str | Path) -> None:
    """The tuned search as a tuned-search file (what ``ismcts(tuned=FILE)`` loads), with its
    score against the untuned search and each generation's parameters and scores."""
    save_search_config(
        path,
        load(result.game),
        result.config,
        {"score_vs_plain": list(result.score), "rounds": result.rounds},
    )


def save_weights(result: TuningResult, path: str | Path) -> None:
    """The tuned weights as a weights file (what ``heuristic(weights=FILE)`` loads), with
    their score vs the defaults on fresh deals, and each round's mean weights and best
    (in-sample) score."""
    save_weights_file(
        path,
        load(result.game),
        result.best,
        {"score_vs_default": list(result.score), "rounds": result.rounds},
    )
