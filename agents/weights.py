"""The heuristic-weights file: a game's tuned rule-of-thumb weights (``skip-ai tune``), read by
``heuristic(weights=FILE)`` and ``ismcts(weights=FILE)``.

JSON with ``format`` :data:`FORMAT`, ``game`` (the full game string), ``names`` (the
heuristic's ``WEIGHT_NAMES``) and ``weights``, then whatever the tuning records (its score,
its rounds). Files written before the format tag existed have none and still load; a file
with another tag is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from agents.heuristics import heuristic_module, heuristic_weights
from skip_ai.pyspiel_wrapper import KernelGame, same_game

FORMAT = "skip_ai.heuristic_weights/1"


def save_weights(
    path: str | Path, game: KernelGame, weights: np.ndarray, extra: dict | None = None
) -> None:
    """``weights`` as a weights file for ``game`` (``extra``: whatever else the tuning
    records), written atomically."""
    w = heuristic_weights(game, weights)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(
        json.dumps(
            {
                "format": FORMAT,
                "game": str(game),
                "names": list(heuristic_module(game.spec.kernel).WEIGHT_NAMES),
                "weights": w.tolist(),
                **(extra or {}),
            },
            indent=1,
        )
    )
    tmp.replace(path)


def load_weights(path: str | Path, game: KernelGame) -> np.ndarray:
    """The weights of a weights file, checked against ``game``'s heuristic."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no weights file at {path}")
    try:
        data = json.loads(path.read_text())
        if data.get("format", FORMAT) != FORMAT:  # untagged: written before the tag
            raise ValueError(f"format is {data['format']!r}, not {FORMAT!r}")
        game_name, names, weights = data["game"], data["names"], data["weights"]
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{path} is not a weights file: {e}") from None
    if not same_game(game_name, game):
        raise ValueError(f"{path}: these weights were tuned for {game_name}, not {game}")
    expected = list(heuristic_module(game.spec.kernel).WEIGHT_NAMES)
    if list(names) != expected:
        raise ValueError(f"{path}: weights {names} do not match the heuristic's {expected}")
    try:
        return heuristic_weights(game, np.asarray(weights, np.float64))
    except OverflowError:  # an integer too large for a float: not a finite weight
        raise ValueError(f"{path}: the weights must be finite numbers (one is too large)") from None
    except (ValueError, TypeError) as e:
        raise ValueError(f"{path}: {e}") from None
