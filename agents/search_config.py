"""Every setting of an ISMCTS search in one frozen value, and its file form.

:class:`SearchConfig` is what the ``ismcts(...)`` spec, the search tuner (``skip-ai tune
--search``) and simulation balancing (``skip-ai tune --balance``) build, and what
:class:`agents.ismcts.ISMCTSBot` is made from. It is checked once, when made: a bad value is a
``ValueError`` of one line naming the option.

**The file form** (a *tuned search*: JSON, ``format`` :data:`FORMAT`) holds the settings a
tuning varies — ``uct_c``, ``rollout_eps``, ``prior_c`` (the weight of the heuristic prior; 0:
no heuristic prior) and the heuristic's ``weights`` with their ``names`` — for one ``game``, the
``budget`` it was tuned at (empty for none), then whatever the tuning records (scores, rounds).
``ismcts(seconds=S,tuned=FILE)`` plays it at the spec's budget.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.heuristics import heuristic_module, heuristic_weights
from skip_ai.pyspiel_wrapper import KernelGame, same_game

FORMAT = "skip_ai.search_params/1"
DEFAULT_UCT_C = 0.7
ROLLOUTS = ("random", "heuristic", "model")
FINALS = ("visits", "value")
TUNED = ("uct_c", "rollout_eps", "prior_c", "heuristic_prior", "weights")
"""The settings a tuned-search file sets (a spec with ``tuned=FILE`` may not give them)."""
MAX_ITERATIONS = 10**9
"""The largest iteration budget of one search (hours a move; the kernel counts in int64)."""
MAX_SECONDS = 3600.0
"""The largest time budget of one search, in seconds (an hour a move)."""
MAX_DEPTH = 10_000
"""The largest ``value_after`` and ``prior_depth``: moves, and no game lasts this long."""


@dataclass(frozen=True)
class SearchConfig:
    """An ISMCTS search's settings (the spec's options; see :mod:`agents.ismcts`).

    A search needs exactly one budget, ``iterations`` or ``seconds``; a config read from a
    tuned-search file has none until one is given (``dataclasses.replace``)."""

    iterations: int | None = None
    seconds: float | None = None
    uct_c: float = DEFAULT_UCT_C
    """Exploration, for rewards in [0, 1]."""
    rollout: str = "heuristic"
    """The rollout policy: ``heuristic`` (measured clearly stronger than random at equal
    iterations), ``random``, or ``model`` (sampling the model's policy)."""
    rollout_eps: float = 0.0
    """Each rollout move is uniformly random with this probability."""
    weights: tuple[float, ...] | None = None
    """The heuristic's weights (rollouts and heuristic prior); None: the game's defaults."""
    heuristic_prior: bool = False
    """Without a model: the heuristic's move is expanded first and has prior 1."""
    prior_c: float = 1.0
    """The weight of the prior (the model's or the heuristic's) in selection."""
    model: str | None = None
    """A model file (:mod:`agents.model`): the softmax of its action outputs (a ``q`` model's
    Q values, a ``policy_value`` model's logits) over the legal moves is the search's prior,
    and its value head the leaf value (``value_after``)."""
    temperature: float = 1.0
    """With a model: the prior is the softmax of the action outputs divided by this (a ``q``
    model's outputs lie in [-1, 1], so its useful temperatures are well below 1)."""
    value_after: int | None = None
    """With a model: a rollout stops at its first decision after this many of its moves and
    backs up the model's value of that position (0: at the new leaf itself)."""
    prior_depth: int = 0
    """With a model: its prior guides expansion only at the tree's first ``prior_depth``
    decisions below the root (1: the root alone, one network evaluation a search chunk, so
    the search keeps nearly all its iterations); 0: at every node."""
    final: str = "visits"
    """The move played: the most visited root action, or the best mean (``value``)."""

    def __post_init__(self) -> None:
        self._check_budget()
        self._check_numbers()
        self._check_choices()
        self._check_model()

    def _check_budget(self) -> None:
        if self.iterations is not None and self.seconds is not None:
            raise ValueError("ismcts needs exactly one budget: iterations=N or seconds=S")
        if self.iterations is not None:
            if not _is_int(self.iterations) or not 1 <= self.iterations <= MAX_ITERATIONS:
                raise ValueError(
                    f"ismcts: iterations must be a positive integer, at most {MAX_ITERATIONS:_} "
                    f"(got {_shown(self.iterations)})"
                )
            self._set("iterations", int(self.iterations))
        if self.seconds is not None:
            self._set(
                "seconds",
                _number(
                    "seconds",
                    self.seconds,
                    f"a positive finite number, at most {MAX_SECONDS:g}",
                    lambda x: 0 < x <= MAX_SECONDS,
                ),
            )

    def _check_numbers(self) -> None:
        self._set("uct_c", _number("uct_c", self.uct_c, "a finite number ≥ 0", lambda x: x >= 0))
        self._set(
            "rollout_eps",
            _number(
                "rollout_eps", self.rollout_eps, "a finite number in [0, 1]", lambda x: 0 <= x <= 1
            ),
        )
        self._set(
            "prior_c", _number("prior_c", self.prior_c, "a finite number ≥ 0", lambda x: x >= 0)
        )
        if self.weights is not None:
            if isinstance(self.weights, str) or not hasattr(self.weights, "__iter__"):
                raise ValueError(
                    f"ismcts: weights must be a list of numbers (got {self.weights!r})"
                )
            self._set(
                "weights",
                tuple(
                    _number("weights", w, "finite numbers", lambda x: True) for w in self.weights
                ),
            )

    def _check_choices(self) -> None:
        if self.rollout not in ROLLOUTS:
            raise ValueError(
                f"ismcts: rollout must be random, heuristic or model (got {self.rollout!r})"
            )
        if self.final not in FINALS:
            raise ValueError(f"ismcts: final must be visits or value (got {self.final!r})")
        if self.heuristic_prior not in (True, False):
            raise ValueError(
                f"ismcts: heuristic_prior must be true or false (got {self.heuristic_prior!r})"
            )
        self._set("heuristic_prior", bool(self.heuristic_prior))

    def _check_model(self) -> None:
        """What needs a model, and what cannot go with one."""
        self._set(
            "temperature",
            _number("temperature", self.temperature, "a finite number > 0", lambda x: x > 0),
        )
        if self.temperature != 1.0 and self.model is None:
            raise ValueError("ismcts: temperature needs a model=PATH (it tempers its prior)")
        if self.model is not None and not isinstance(self.model, str):
            raise ValueError(f"ismcts: model must be a file path (got {self.model!r})")
        if self.rollout == "model" and self.model is None:
            raise ValueError("ismcts: rollout=model needs a model=PATH")
        if self.heuristic_prior and self.model is not None:
            raise ValueError("ismcts: heuristic_prior and model=PATH are two priors; give one")
        if self.value_after is not None:
            if self.model is None:
                raise ValueError("ismcts: value_after needs a model=PATH (its value head)")
            if not _is_int(self.value_after) or not 0 <= self.value_after <= MAX_DEPTH:
                raise ValueError(
                    f"ismcts: value_after must be an integer ≥ 0, at most {MAX_DEPTH:_} "
                    f"(got {_shown(self.value_after)})"
                )
            self._set("value_after", int(self.value_after))
        if self.prior_depth != 0:
            if self.model is None:
                raise ValueError("ismcts: prior_depth needs a model=PATH (its prior)")
            if not _is_int(self.prior_depth) or not 0 <= self.prior_depth <= MAX_DEPTH:
                raise ValueError(
                    f"ismcts: prior_depth must be an integer ≥ 0, at most {MAX_DEPTH:_} "
                    f"(got {_shown(self.prior_depth)})"
                )

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)  # normalising a frozen field, once, when made

    @property
    def budget(self) -> str:
        """The budget as a spec option (``iterations=N``, ``seconds=S``), empty for none."""
        if self.iterations is not None:
            return f"iterations={self.iterations}"
        if self.seconds is None:
            return ""
        return f"seconds={int(self.seconds) if self.seconds.is_integer() else self.seconds}"

    @property
    def effective_prior_c(self) -> float:
        """The prior's weight in selection: ``prior_c`` when there is a prior, else 0."""
        return self.prior_c if self.model is not None or self.heuristic_prior else 0.0

    def __str__(self) -> str:
        """The settings that differ from the defaults, as an ``ismcts(...)`` spec would give
        them (weights as a list: a spec names a weights file instead)."""
        given = [
            f"{f.name}={_spec_value(getattr(self, f.name))}"
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != f.default
        ]
        return f"ismcts({','.join(given)})"


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _number(name: str, x: Any, what: str, ok: Callable[[float], bool]) -> float:
    """``x`` as a float if it is a finite number (numpy's included) that is ``ok``."""
    if (
        isinstance(x, bool)
        or not isinstance(x, (int, float, np.integer, np.floating))
        or not _finite(x)
        or not ok(x)
    ):
        raise ValueError(f"ismcts: {name} must be {what} (got {_shown(x)})")
    return float(x)


def _finite(x: Any) -> bool:
    """Is the number ``x`` finite as a float (an int too large for one is not)?"""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def _shown(x: Any) -> str:
    """``repr(x)``, cut for a one-line message."""
    text = repr(x)
    return text if len(text) <= 40 else f"{text[:18]}...{text[-18:]} ({len(text)} characters)"


def _spec_value(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    return f"[{','.join(f'{w:g}' for w in v)}]" if isinstance(v, tuple) else str(v)


def save_search_config(
    path: str | Path, game: KernelGame, config: SearchConfig, extra: dict | None = None
) -> None:
    """``config``'s tuned settings as a tuned-search file for ``game`` (``extra``: whatever
    else the tuning records), written atomically."""
    if config.model is not None or config.rollout != "heuristic":
        raise ValueError(
            "a tuned-search file holds a search with heuristic rollouts and no "
            f"model (got {config})"
        )
    weights = heuristic_weights(game, config.weights)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(
        json.dumps(
            {
                "format": FORMAT,
                "game": str(game),
                "budget": config.budget,
                "uct_c": config.uct_c,
                "rollout_eps": config.rollout_eps,
                "prior_c": config.effective_prior_c,
                "names": list(heuristic_module(game.spec.kernel).WEIGHT_NAMES),
                "weights": [float(x) for x in weights],
                **(extra or {}),
            },
            indent=1,
        )
    )
    tmp.replace(path)


def load_search_config(path: str | Path, game: KernelGame) -> SearchConfig:
    """The tuned settings of a tuned-search file, checked against ``game``, as a config
    without a budget (a file from before ``prior_c`` was tuned has none: no prior)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no tuned search file at {path}")
    try:
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT:
            raise ValueError(f"format is {data.get('format')!r}, not {FORMAT!r}")
        game_name, names = data["game"], data["names"]
        uct_c, eps = data["uct_c"], data["rollout_eps"]
        prior_c = data.get("prior_c", 0.0)
        weights = [float(w) for w in data["weights"]]
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError) as e:
        raise ValueError(f"{path} is not a tuned search file: {e}") from None
    if not same_game(game_name, game):
        raise ValueError(f"{path}: this search was tuned for {game_name}, not {game}")
    expected = list(heuristic_module(game.spec.kernel).WEIGHT_NAMES)
    if list(names) != expected or len(weights) != len(names):
        raise ValueError(f"{path}: weights {names} do not match the heuristic's {expected}")
    try:
        return SearchConfig(
            uct_c=uct_c,
            rollout_eps=eps,
            prior_c=prior_c,
            heuristic_prior=prior_c > 0,
            weights=tuple(weights),
        )
    except (ValueError, TypeError) as e:
        raise ValueError(f"{path}: {e}") from None
