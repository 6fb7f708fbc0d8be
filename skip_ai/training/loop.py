"""The expert-iteration loop: self-play → fit → evaluate, one generation at a time.

Generation ``g`` (1 .. N): the expert (the config's ``search``, with model ``g − 1`` from
generation 2 on) plays ``games`` self-play games → ``OUT/samples/gen{g}.parquet``; model ``g`` is
fitted (starting from model ``g − 1``) on the samples of the last ``window`` generations →
``OUT/models/gen{g}.npz``; then ``eval_search`` with model ``g`` meets the same search with model
``g − 1`` and without a model on ``eval_deals`` duplicate deals → ``OUT/eval/gen{g}.json``.

Every output is written under a temporary name and renamed when whole, and every step is skipped
when its output exists, so running the same command again after a crash resumes where it stopped
(a self-play generation cut short is replayed whole: its games are seeded, so it gives the same
samples). ``OUT/run.json`` keeps the config's identity; a changed config is refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from agents.model import PolicyValueNet, fit
from skip_ai.match import match
from skip_ai.pyspiel_wrapper import load
from skip_ai.training.config import TrainConfig, with_model
from skip_ai.training.selfplay import selfplay, training_arrays


@dataclass
class Generation:
    generation: int
    samples: int
    policy_loss: float
    value_loss: float
    vs_previous: tuple[float, float, float]
    vs_plain: tuple[float, float, float]


def model_path(out: Path, g: int) -> Path:
    return out / "models" / f"gen{g:03d}.npz"


def run_training(config: TrainConfig, progress: bool = True) -> list[Generation]:
    """Run (or resume) the loop of ``config``; one :class:`Generation` per generation."""
    out = config.out
    _check_identity(config)
    game = load(config.game)
    results = []
    for g in range(1, config.generations + 1):
        eval_file = out / "eval" / f"gen{g:03d}.json"
        if not eval_file.exists():
            _generation(config, game, g, progress)
        results.append(Generation(**_read_json(eval_file)))
    return results


def _generation(config: TrainConfig, game, g: int, progress: bool) -> None:
    out = config.out
    prev = model_path(out, g - 1) if g > 1 else None
    samples = out / "samples" / f"gen{g:03d}.parquet"
    if not samples.exists():
        selfplay(
            game, with_model(config.search, prev), config.games, config.seed, g, samples, progress
        )
    losses = {}
    if not model_path(out, g).exists():
        first = max(1, g - config.window + 1)
        frames = [
            pd.read_parquet(out / "samples" / f"gen{k:03d}.parquet") for k in range(first, g + 1)
        ]
        obs, legal, target, value = training_arrays(frames, game.num_distinct_actions())
        net = (
            PolicyValueNet.load(prev, config.game)
            if prev
            else PolicyValueNet.initial(
                config.game,
                game.obs_size,
                game.num_distinct_actions(),
                config.hidden,
                seed=config.seed,
            )
        )
        losses = fit(
            net,
            obs,
            legal,
            target,
            value,
            epochs=config.epochs,
            lr=config.lr,
            l2=config.l2,
            seed=config.seed + g,
        )
        net.generation = g
        net.save(model_path(out, g))
        losses["samples"] = len(obs)
        _write_json(out / "fits" / f"gen{g:03d}.json", losses)
    losses = _read_json(out / "fits" / f"gen{g:03d}.json")
    trained = with_model(config.eval_search, model_path(out, g))
    seed = config.seed + 1000 + g
    scores = {"vs_plain": _score(game, trained, config.eval_search, config, seed, progress)}
    scores["vs_previous"] = (
        scores["vs_plain"]
        if prev is None
        else _score(game, trained, with_model(config.eval_search, prev), config, seed, progress)
    )
    _write_json(
        out / "eval" / f"gen{g:03d}.json",
        {
            "generation": g,
            "samples": int(losses["samples"]),
            "policy_loss": losses["policy"],
            "value_loss": losses["value"],
            **scores,
        },
    )


def _score(
    game, spec_a: str, spec_b: str, config: TrainConfig, seed: int, progress: bool
) -> tuple[float, float, float]:
    """A's duplicate-match score and its 95% interval (generation 0 is plain ISMCTS)."""
    r = match(game, spec_a, spec_b, config.eval_deals, seed=seed, progress=progress)
    return (r.score, r.lo, r.hi)


def _check_identity(config: TrainConfig) -> None:
    """Refuse to resume a folder written by a different config."""
    path = config.out / "run.json"
    ident = config.identity()
    if path.exists():
        old = _read_json(path)
        if old != ident:
            diff = [k for k in ident if old.get(k) != ident[k]]
            raise ValueError(
                f"{config.out} holds a run with a different config (changed: "
                f"{', '.join(diff)}); use another out folder or restore the config"
            )
        return
    _write_json(path, ident)


def _write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(path)


def _read_json(path: Path) -> dict:
    data = json.loads(path.read_text())
    for key in ("vs_previous", "vs_plain"):
        if key in data:
            data[key] = tuple(data[key])
    return data
