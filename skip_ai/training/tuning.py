"""Tuning a heuristic's weights by the cross-entropy method over duplicate matches.

Each round draws ``population`` weight vectors from a normal distribution (mean: the current
best guess, starting at the game's ``WEIGHTS``; spread: ``sigma`` × max(|mean|, 1) at first),
scores each by :func:`skip_ai.duplicate.kernel_match` against the *default* weights on the same
``deals`` duplicate deals (common random numbers: every candidate meets the same cards), and
refits mean and spread to the ``elite`` best. Everything runs inside Numba, so a round of 16 candidates × 500 deals
takes seconds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from skip_ai.duplicate import kernel_match, match_summary
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


def tune_heuristic(game: str | KernelGame, rounds: int = 5, population: int = 16,
                   elite: int = 4, deals: int = 500, sigma: float = 0.5, seed: int = 0,
                   progress: bool = True) -> TuningResult:
    """Cross-entropy search for better heuristic weights of ``game``; the result's ``score``
    is measured on deals none of the rounds used."""
    g = load(game) if isinstance(game, str) else game
    default = heuristic_weights(g)
    if not 1 <= elite <= population:
        raise ValueError(f"elite must be between 1 and population ({population}), got {elite}")
    rng = np.random.default_rng(seed)
    mean = default.copy()
    spread = sigma * np.maximum(np.abs(mean), 1.0)
    best, best_score = default.copy(), 0.5
    history = []
    for r in tqdm(range(rounds), desc=f"tune {g.spec.short_name}", disable=not progress):
        cands = rng.normal(mean, spread, (population, len(mean)))
        scores = np.array([score_weights(g, w, deals, seed + 1 + r)[0] for w in cands])
        top = np.argsort(-scores)[:elite]
        mean = cands[top].mean(axis=0)
        spread = cands[top].std(axis=0) + 1e-3
        if scores[top[0]] > best_score:
            best, best_score = cands[top[0]].copy(), float(scores[top[0]])
        history.append({"round": r, "mean": mean.tolist(), "best_score": float(scores[top[0]])})
    final = score_weights(g, best, deals, seed + 10_000)
    return TuningResult(str(g), tuple(g.ops.heuristic.WEIGHT_NAMES), default, best, history,
                        final)


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
