"""The training methods, in one table: what each brings to the loop of :mod:`.run`.

- ``dmc``, **deep Monte-Carlo** (DouZero's, Zha et al. 2021, without its many actors): a fresh
  ``q`` model plays ε-greedily over Q in self-play, or one side against the heuristic in a
  ``heuristic_share`` of the games (:func:`.chunks.play_chunk`), and Q(s, a) and the value head
  are regressed on the movers' final returns (:func:`.optimiser.fit_q`). A fresh run may first
  imitate a teacher (``imitation``: :mod:`.run`). Fours' committed model is such a run
  (``experiments/training/session-10.toml``, ``heuristic_share = 0.5``), Harvest's the
  imitation of ISMCTS-1000 alone (``distil.toml``); imitation also made the models the other
  games' policy-gradient runs started from (``distil*.toml``; Columns imitated the heuristic).
- ``reinforce``, **policy gradient**: the model ``start`` (its outputs read as logits) plays one
  side against the heuristic, or every seat in a ``self_play`` share of the games, drawing its
  moves from its policy at ``temperature`` (:func:`.chunks.play_reinforce_chunk`), and learns by
  REINFORCE with its value head as the baseline (:func:`.optimiser.fit_reinforce`); with
  ``action_features`` the model first gains the game's action features. Nine of the eleven
  committed models came last from such runs (``experiments/training/reinforce*.toml``,
  ``features-*.toml``; results/learned.md).

A method's ``fields`` are the config fields only it reads: a config of another method naming
one is refused (:mod:`.config`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from agents.model import PolicyValueNet, factored_head
from skip_ai.pyspiel_wrapper import KernelGame
from skip_ai.training.chunks import Chunk, play_chunk, play_reinforce_chunk
from skip_ai.training.optimiser import Adam, fit_q, fit_reinforce

if TYPE_CHECKING:
    from skip_ai.training.config import TrainConfig


@dataclass(frozen=True)
class Method:
    """A training method: its own config fields, the model a run starts from, how an actor
    plays a chunk part, how the learner fits a chunk, and what the progress bar shows."""

    fields: tuple[str, ...]
    model: Callable[[TrainConfig, KernelGame], PolicyValueNet]
    play: Callable[..., Chunk]
    """Plays a chunk part in an actor's process: ``play(game, seed, first, size, dims, params,
    *knobs(config, decisions))``."""
    knobs: Callable[[TrainConfig, int], tuple]
    fit: Callable[[TrainConfig, PolicyValueNet, Adam, Chunk, np.random.Generator], float]
    shown: Callable[[TrainConfig, int, Chunk], dict[str, str]]


def _fresh_q_model(config: TrainConfig, game: KernelGame) -> PolicyValueNet:
    return PolicyValueNet.initial(
        config.game,
        game.obs_size,
        game.num_distinct_actions(),
        config.hidden,
        seed=config.seed,
        kind="q",
        features=game.spec.observation_version,
        **(factored_head(game) if config.action_parts else {}),
    )


def _start_model(config: TrainConfig, game: KernelGame) -> PolicyValueNet:
    net = PolicyValueNet.load(config.start, game)
    net.kind = "policy_value"  # its outputs are a policy's logits, whatever made them
    module = game.spec.action_features
    if config.action_features and not net.feature_size:
        net = net.with_action_features(module.VERSION, module.SIZE)
    return net


def _fit_q(config: TrainConfig, net: PolicyValueNet, adam: Adam, chunk: Chunk, rng) -> float:
    return fit_q(net, chunk.obs, chunk.actions, chunk.target, adam, config.lr, config.batch, rng)


def _fit_reinforce(
    config: TrainConfig, net: PolicyValueNet, adam: Adam, chunk: Chunk, rng
) -> float:
    moves = functools.partial(chunk.moves.choices, power=1.0)
    lr, batch, t = config.lr, config.batch, config.temperature
    return fit_reinforce(
        net, chunk.obs, moves, chunk.target, adam, lr, batch, rng, t, config.features_lr
    )


METHODS = {
    "dmc": Method(
        fields=(
            "hidden",
            "action_parts",
            "eps_start",
            "eps_end",
            "eps_decisions",
            "heuristic_share",
            "imitation",
            "imitation_epochs",
            "imitation_lr",
            "teacher",
            "teacher_power",
        ),
        model=_fresh_q_model,
        play=play_chunk,
        knobs=lambda config, decisions: (config.eps(decisions), config.heuristic_share),
        fit=_fit_q,
        shown=lambda config, decisions, chunk: {"eps": f"{config.eps(decisions):.3f}"},
    ),
    "reinforce": Method(
        fields=("start", "temperature", "self_play", "action_features", "features_lr"),
        model=_start_model,
        play=play_reinforce_chunk,
        knobs=lambda config, decisions: (config.temperature, config.self_play),
        fit=_fit_reinforce,
        shown=lambda config, decisions, chunk: {"return": f"{chunk.target.mean():+.3f}"},
    ),
}
"""Each method by its name in a config (``method = "…"``)."""
