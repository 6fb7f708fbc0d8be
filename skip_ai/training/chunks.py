"""Self-play chunks: the batches of samples an actor plays for the learner (:mod:`.run`).

A chunk is whole games, from game ``first`` of the run's seed family on, played by the model as
the actor holds it against the game's heuristic or itself, inside Numba
(:mod:`.actor_kernel`): ε-greedily over Q for deep Monte-Carlo (:func:`play_chunk`), or drawing
its moves from its policy for policy gradient (:func:`play_reinforce_chunk`). Both take the
game's string, not the game, so that they can run in the actor's process.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from agents.heuristics import heuristic_module, heuristic_weights
from agents.model import feature_size_of, features_module
from skip_ai.kernel.rng import base_seed
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.training.actor_kernel import Buffers, Knobs, Setting, actor
from skip_ai.training.teacher_data import TeacherSamples

ENTRIES_PER_ROW = 64
"""Room for legal moves per policy-gradient sample: a chunk's buffer holds this many per row
on average (a game that does not fit is played by the next chunk)."""


@functools.cache
def cached_game(game: str) -> KernelGame:
    """The game of a game string, loaded once per process."""
    return load(game)


@dataclass
class Chunk:
    """One self-play batch: its samples, how many games it took, and the actor's CPU time."""

    obs: np.ndarray
    actions: np.ndarray
    target: np.ndarray
    games: int
    cpu: float
    moves: TeacherSamples | None = None
    """Policy-gradient chunks: each decision's legal moves, 1 at the one played."""

    @staticmethod
    def concat(parts: list[Chunk], obs_size: int) -> Chunk:
        """A chunk played in parts (each its own games), as one: the rows in part order, the
        games and the CPU seconds summed. One part is returned as it is: a chunk's
        observations are hundreds of MB, not to be copied for nothing."""
        first = parts[0]
        if len(parts) == 1:
            return first
        return Chunk(
            np.concatenate([p.obs for p in parts]).reshape(-1, obs_size),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.target for p in parts]),
            sum(p.games for p in parts),
            sum(p.cpu for p in parts),
            None
            if first.moves is None
            else TeacherSamples.concat([p.moves for p in parts], obs_size),
        )


def play_chunk(
    game: str,
    seed: int,
    first: int,
    size: int,
    dims: np.ndarray,
    params: np.ndarray,
    eps: float,
    heuristic_share: float = 0.0,
    guide: float = 0.0,
) -> Chunk:
    """About ``size`` samples of self-play from game ``first`` of the family ``seed`` on
    (whole games: games are begun while at most ``size`` rows are written, so the last one
    may end past it, by less than one game's length), the model ``(dims, params)`` playing
    every seat ε-greedily, or, in a ``heuristic_share`` of the games, one side against the
    game's heuristic; with probability ``guide`` a model's greedy move is the heuristic's
    (1: the heuristic's self-play, which imitation copies)."""
    knobs = Knobs(True, float(eps), float(heuristic_share), float(guide), 1.0, 0.0)
    return _play(game, seed, first, size, dims, params, knobs)


def play_reinforce_chunk(
    game: str,
    seed: int,
    first: int,
    size: int,
    dims: np.ndarray,
    params: np.ndarray,
    temperature: float,
    self_play: float = 0.0,
) -> Chunk:
    """At most ``size`` samples (whole games) of the model ``(dims, params)`` playing one side
    against the game's heuristic from game ``first`` of the family ``seed`` on, each move
    drawn from the softmax of its outputs / ``temperature``: ``actions`` are the moves played,
    ``target`` the movers' returns, ``moves`` the legal moves with 1 at the one played; in a
    ``self_play`` share of the games the model plays every seat. A model that reads action
    features has its moves' features in ``moves.features``."""
    knobs = Knobs(False, 0.0, 0.0, 0.0, float(temperature), float(self_play))
    return _play(game, seed, first, size, dims, params, knobs)


def _play(
    game: str, seed: int, first: int, size: int, dims: np.ndarray, params: np.ndarray, knobs: Knobs
) -> Chunk:
    """The chunk the actor kernel plays with ``knobs``. Deep Monte-Carlo begins games while a
    whole game's rows are free past ``size`` (its targets kept as float32, as its models were
    fitted); policy gradient fills ``size`` rows and lists each row's legal moves."""
    t0 = time.process_time()
    g = cached_game(game)
    features = features_module(g, feature_size_of(dims, params))
    length = g.max_game_length()
    margin = length if knobs.greedy else 0
    rows = size + margin
    entries = 0 if knobs.greedy else (size + length) * ENTRIES_PER_ROW
    out = Buffers(
        np.zeros((rows, g.obs_size), np.float32),
        np.zeros(rows, np.int64),
        np.zeros(rows, np.float32 if knobs.greedy else np.float64),
        np.zeros(rows + 1, np.int64),
        np.zeros(entries, np.int64),
        np.zeros((entries, features.SIZE), np.float32),
    )
    lo = g.min_utility()
    setting = Setting(
        g.spec.encode(g.resolved),
        lo,
        g.max_utility() - lo,
        model_sides(g),
        heuristic_weights(g),
        dims,
        params,
    )
    kernel = actor(g.spec.kernel, heuristic_module(g.spec.kernel), features)
    games, n = kernel.play(setting, knobs, np.uint64(base_seed(seed)), first, margin, out)
    if games == 0:
        raise ValueError(f"a chunk of {size} samples cannot hold one game of {game}: raise chunk")
    moves = None
    if not knobs.greedy:
        end = int(out.offsets[n])
        sizes = np.diff(out.offsets[: n + 1])
        played = (out.legal[:end] == np.repeat(out.actions[:n], sizes)).astype(float)
        kept = out.features[:end] if features.SIZE else None
        moves = TeacherSamples(
            out.obs[:n],
            out.offsets[: n + 1],
            out.legal[:end],
            played,
            out.target[:n],
            features=kept,
        )
    cpu = time.process_time() - t0
    return Chunk(out.obs[:n], out.actions[:n], out.target[:n], int(games), cpu, moves)


def model_sides(g: KernelGame) -> np.ndarray:
    """The seat masks of the sides a model can take against the heuristic: the two teams, or
    every seat alone in a game played each for themselves."""
    seats = np.arange(g.num_players())
    if not g.spec.team_game:
        return (1 << seats).astype(np.int64)
    teams = g.teams()
    return np.array([np.sum(1 << seats[teams == t]) for t in (0, 1)], np.int64)
