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
search on fresh deals, the curve of strength by generation. Its result file is what
``ismcts(tuned=FILE)`` loads.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
from tqdm import tqdm

from skip_ai.duplicate import kernel_match, match_summary
from skip_ai.match import match
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.sim import heuristic_weights


@dataclass
class TuningResult:
    game: str
    names: tuple[str, ...]
    default: np.ndarray
    best: np.ndarray
    rounds: list[dict]     # per round: mean weights, best score of the round
    score: tuple[float, float, float]  # best vs default on fresh deals, with a 95% interval


def score_weights(game: KernelGame, weights: np.ndarray, deals: int, seed: int,
                  against: np.ndarray | None = None) -> tuple[float, float, float]:
    """The heuristic with ``weights`` vs the heuristic with ``against`` (default: the game's
    weights): mean duplicate score and 95% interval."""
    df = kernel_match(game, "heuristic", "heuristic", deals, seed=seed, weights_a=weights,
                      weights_b=against)
    return match_summary(df)


def cross_entropy(score: Callable[[np.ndarray, int], float], mean: np.ndarray,
                  spread: np.ndarray, rounds: int, population: int, elite: int, seed: int,
                  desc: str, progress: bool,
                  after_round: Callable[[np.ndarray, int], dict] | None = None,
                  reference: float = 0.5) -> tuple[np.ndarray, float, list[dict]]:
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
        history.append({"round": r, "mean": mean.tolist(), "best_score": float(scores[top[0]]),
                        **(after_round(mean, r) if after_round else {})})
    return best, best_score, history


def tune_heuristic(game: str | KernelGame, rounds: int = 5, population: int = 16,
                   elite: int = 4, deals: int = 500, sigma: float = 0.5, seed: int = 0,
                   progress: bool = True) -> TuningResult:
    """Cross-entropy search for better heuristic weights of ``game``; the result's ``score``
    is measured on deals none of the rounds used."""
    g = load(game) if isinstance(game, str) else game
    default = heuristic_weights(g)
    best, _, history = cross_entropy(
        lambda w, r: score_weights(g, w, deals, seed + 1 + r)[0], default.copy(),
        sigma * np.maximum(np.abs(default), 1.0), rounds, population, elite, seed,
        f"tune {g.spec.short_name}", progress)
    final = score_weights(g, best, deals, seed + 10_000)
    return TuningResult(str(g), tuple(g.ops.heuristic.WEIGHT_NAMES), default, best, history,
                        final)


# ----- tuning a search -------------------------------------------------------------------

SEARCH_FORMAT = "skip_ai.search_params/1"
DEFAULT_UCT_C = 0.7


@dataclass
class SearchParams:
    """The parameters of a tuned search (what ``ismcts(tuned=FILE)`` sets)."""
    uct_c: float
    rollout_eps: float
    prior_c: float               # the heuristic prior's weight; 0: no heuristic prior
    weights: np.ndarray          # the heuristic's, for the rollouts and the prior


@dataclass
class SearchTuning:
    game: str
    budget: str                  # e.g. "seconds=0.02": the budget of every match
    names: tuple[str, ...]       # the heuristic's weight names
    params: SearchParams
    rounds: list[dict]           # per round (generation): mean parameters, best score, and
                                 # with eval_deals "vs_plain": [score, lo, hi] on fresh deals
    score: tuple[float, float, float]  # the result vs the untuned search on fresh deals


def search_params(theta: np.ndarray) -> SearchParams:
    """The parameters from the tuned vector ``[ln uct_c, eps, prior_c, *weights]`` (``eps``
    clipped to [0, 1], ``prior_c`` to ≥ 0)."""
    return SearchParams(float(np.exp(theta[0])), float(np.clip(theta[1], 0.0, 1.0)),
                        float(max(theta[2], 0.0)), theta[3:].copy())


SEARCH_PARAMS = ("uct_c", "rollout_eps", "prior_c", "weights")


def tune_search(game: str | KernelGame, budget: str = "seconds=0.02", rounds: int = 4,
                population: int = 8, elite: int = 2, deals: int = 10, sigma: float = 0.5,
                seed: int = 0, eval_deals: int = 0, progress: bool = True,
                tune: tuple[str, ...] = SEARCH_PARAMS) -> SearchTuning:
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
    plain = f"ismcts({budget})"
    names = tuple(g.ops.heuristic.WEIGHT_NAMES)
    default = heuristic_weights(g)
    with tempfile.TemporaryDirectory(prefix="tune-search-") as tmp:
        def versus_plain(theta: np.ndarray, n: int, match_seed: int) -> tuple:
            path = Path(tmp) / "candidate.json"
            write_search(path, str(g), budget, names, search_params(theta), [], None)
            r = match(g, f"ismcts({budget},tuned={path})", plain, n, seed=match_seed)
            return r.score, r.lo, r.hi

        def generation(mean: np.ndarray, r: int) -> dict:
            if not eval_deals:
                return {}
            return {"vs_plain": list(versus_plain(mean, eval_deals, seed + 5_000 + r))}

        theta0 = np.concatenate([[np.log(DEFAULT_UCT_C), 0.0, 0.0], default])
        spread = np.concatenate([[sigma, 0.3, 2 * sigma],
                                 sigma * np.maximum(np.abs(default), 1.0)])
        # a parameter not tuned keeps its default: no spread
        fixed = [i for i, name in enumerate(SEARCH_PARAMS[:3]) if name not in tune]
        if "weights" not in tune:
            fixed += list(range(3, len(theta0)))
        spread[fixed] = 0.0
        _, _, history = cross_entropy(
            lambda theta, r: versus_plain(theta, deals, seed + 1 + r)[0], theta0, spread,
            rounds, population, elite, seed, f"tune search {g.spec.short_name}", progress,
            generation)
        final = np.array(history[-1]["mean"])
        score = versus_plain(final, max(eval_deals, deals), seed + 10_000)
    return SearchTuning(str(g), budget, names, search_params(final), history, score)


def write_search(path: Path, game: str, budget: str, names: tuple[str, ...],
                 params: SearchParams, rounds: list[dict], score,
                 extra: dict | None = None) -> None:
    """A tuned-search file (``extra``: whatever else the tuning method records)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps({"format": SEARCH_FORMAT, "game": game, "budget": budget,
                               "uct_c": params.uct_c, "rollout_eps": params.rollout_eps,
                               "prior_c": params.prior_c, "names": list(names),
                               "weights": [float(x) for x in params.weights],
                               "score_vs_plain": None if score is None else list(score),
                               **(extra or {}), "rounds": rounds}, indent=1))
    tmp.replace(path)


def save_search(result: SearchTuning, path: str | Path) -> None:
    """The tuned search as JSON (what ``ismcts(tuned=FILE)`` loads), with its score against
    the untuned search and each generation's parameters and scores."""
    write_search(Path(path), result.game, result.budget, result.names, result.params,
                  result.rounds, result.score)


def load_search(path: str | Path, game: KernelGame) -> SearchParams:
    """The parameters saved by :func:`save_search`, checked against ``game`` (a file from
    before ``prior_c`` was tuned has none: 0)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no tuned search file at {path}")
    try:
        data = json.loads(path.read_text())
        if data.get("format") != SEARCH_FORMAT:
            raise ValueError(f"format is {data.get('format')!r}, not {SEARCH_FORMAT!r}")
        game_name, names = data["game"], data["names"]
        uct_c, eps = float(data["uct_c"]), float(data["rollout_eps"])
        prior_c = float(data.get("prior_c", 0.0))
        weights = np.asarray(data["weights"], np.float64)
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{path} is not a tuned search file: {e}") from None
    if game_name != str(game):
        raise ValueError(f"{path}: this search was tuned for {game_name}, not {game}")
    if tuple(names) != tuple(game.ops.heuristic.WEIGHT_NAMES) or len(weights) != len(names):
        raise ValueError(f"{path}: weights {names} do not match the heuristic's "
                         f"{list(game.ops.heuristic.WEIGHT_NAMES)}")
    return SearchParams(uct_c, eps, prior_c, heuristic_weights(game, weights))


def save_weights(result: TuningResult, path: str | Path) -> None:
    """The tuned weights as JSON: game, weight names, weights, score vs the defaults on fresh
    deals, and each round's mean weights and best (in-sample) score."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"game": result.game, "names": list(result.names),
                                "weights": result.best.tolist(),
                                "score_vs_default": list(result.score),
                                "rounds": result.rounds}, indent=1))


def load_weights(path: str | Path, game: KernelGame) -> np.ndarray:
    """Weights saved by :func:`save_weights`, checked against ``game``'s heuristic."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no weights file at {path}")
    try:
        data = json.loads(path.read_text())
        game_name, names, weights = data["game"], data["names"], data["weights"]
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path} is not a weights file: {e}") from None
    if game_name != str(game):
        raise ValueError(f"{path}: these weights were tuned for {game_name}, not {game}")
    if tuple(names) != tuple(game.ops.heuristic.WEIGHT_NAMES):
        raise ValueError(f"{path}: weights {names} do not match the heuristic's "
                         f"{list(game.ops.heuristic.WEIGHT_NAMES)}")
    return heuristic_weights(game, np.asarray(weights, np.float64))
