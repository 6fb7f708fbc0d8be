"""Self-play chunks: the batches of samples an actor plays for the learner (:mod:`.dmc`).

A chunk is whole games, from game ``first`` of the run's seed family on, played by the model
as the actor holds it: ε-greedily over Q for deep Monte-Carlo (:mod:`.dmc_actor`), or drawing
its moves from its policy for policy gradient, against the game's heuristic inside Numba
(:mod:`.reinforce_actor`) or against a search (:mod:`.search_opponent`). Both take the game's
string, not the game, so that they can run in the actor's process.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from agents import make_agent
from agents.heuristics import heuristic_module, heuristic_weights
from agents.model import feature_size_of, features_module
from skip_ai.kernel.rng import base_seed
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.training.dmc_actor import dmc_actor
from skip_ai.training.reinforce_actor import reinforce_actor
from skip_ai.training.search_opponent import play_against_search
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
    base: np.ndarray | None = None
    """Policy gradient with a duplicate baseline: what the heuristic in the model's seats got
    on each row's deal."""

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
            None if first.base is None else np.concatenate([p.base for p in parts]),
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
    heuristic_guide: float = 0.0,
) -> Chunk:
    """About ``size`` samples of self-play from game ``first`` of the family ``seed`` on
    (whole games: games are begun while at most ``size`` rows are written, so the last one
    may end past it, by less than one game's length), the model ``(dims, params)`` playing
    every seat ε-greedily, or, in a ``heuristic_share`` of the games, one side against the
    game's heuristic; with probability ``heuristic_guide`` a model's greedy move is the
    heuristic's (:mod:`skip_ai.training.dmc_actor`)."""
    t0 = time.process_time()
    g = cached_game(game)
    margin = g.max_game_length()
    obs = np.zeros((size + margin, g.obs_size), np.float32)
    actions = np.zeros(size + margin, np.int64)
    target = np.zeros(size + margin, np.float32)
    lo = g.min_utility()
    games, rows = dmc_actor(g.spec.kernel, heuristic_module(g.spec.kernel)).play(
        g.spec.encode(g.resolved),
        np.uint64(base_seed(seed)),
        first,
        margin,
        dims,
        params,
        eps,
        lo,
        g.max_utility() - lo,
        model_sides(g),
        heuristic_share,
        heuristic_guide,
        heuristic_weights(g),
        obs,
        actions,
        target,
    )
    return Chunk(obs[:rows], actions[:rows], target[:rows], int(games), time.process_time() - t0)


def model_sides(g: KernelGame) -> np.ndarray:
    """The seat masks of the sides a model can take against the heuristic: the two teams, or
    every seat alone in a game played each for themselves."""
    seats = np.arange(g.num_players())
    if not g.spec.team_game:
        return (1 << seats).astype(np.int64)
    teams = g.teams()
    return np.array([np.sum(1 << seats[teams == t]) for t in (0, 1)], np.int64)


def play_reinforce_chunk(
    game: str,
    seed: int,
    first: int,
    size: int,
    dims: np.ndarray,
    params: np.ndarray,
    temperature: float,
    duplicate: bool = False,
    self_play: float = 0.0,
    opponent: str = "heuristic",
) -> Chunk:
    """At most ``size`` samples (whole games) of the model ``(dims, params)`` playing one side
    against the game's heuristic, or the search ``opponent`` (an agent spec
    ``ismcts(iterations=N, …)``: :mod:`skip_ai.training.search_opponent`), from game
    ``first`` of the family ``seed`` on, each move
    drawn from the softmax of its outputs / ``temperature``
    (:mod:`skip_ai.training.reinforce_actor`): ``actions`` are the moves played, ``target``
    the movers' returns, ``moves`` the legal moves with 1 at the one played; with
    ``duplicate``, ``base`` the return of the heuristic in the model's seats on each deal; in a
    ``self_play`` share of the games the model plays every seat. A model that reads action
    features has its moves' features in ``moves.features``."""
    t0 = time.process_time()
    g = cached_game(game)
    features = features_module(g, feature_size_of(dims, params))
    margin = g.max_game_length()
    obs = np.zeros((size, g.obs_size), np.float32)
    offsets = np.zeros(size + 1, np.int64)
    legal = np.zeros((size + margin) * ENTRIES_PER_ROW, np.int64)
    feats = np.zeros((len(legal), features.SIZE), np.float32)
    chosen = np.zeros(size, np.int64)
    target = np.zeros(size, np.float64)
    base = np.zeros(size, np.float64)
    lo = g.min_utility()
    if opponent == "heuristic":
        actor = reinforce_actor(g.spec.kernel, heuristic_module(g.spec.kernel), features)
        games, rows = actor.play(
            g.spec.encode(g.resolved),
            np.uint64(base_seed(seed)),
            first,
            dims,
            params,
            temperature,
            lo,
            g.max_utility() - lo,
            model_sides(g),
            heuristic_weights(g),
            obs,
            offsets,
            legal,
            chosen,
            target,
            duplicate,
            base,
            self_play,
            feats,
        )
    else:
        games, rows = play_against_search(
            g,
            features,
            make_agent(opponent, g),
            np.uint64(base_seed(seed)),
            first,
            dims,
            params,
            temperature,
            lo,
            g.max_utility() - lo,
            model_sides(g),
            self_play,
            obs,
            offsets,
            legal,
            chosen,
            target,
            feats,
        )
    if games == 0:
        raise ValueError(f"a chunk of {size} samples cannot hold one game of {game}: raise chunk")
    end = int(offsets[rows])
    played = (legal[:end] == np.repeat(chosen[:rows], np.diff(offsets[: rows + 1]))).astype(float)
    kept = feats[:end] if features.SIZE else None
    moves = TeacherSamples(
        obs[:rows], offsets[: rows + 1], legal[:end], played, target[:rows], features=kept
    )
    cpu = time.process_time() - t0
    baseline = base[:rows] if duplicate else None
    return Chunk(obs[:rows], chosen[:rows], target[:rows], int(games), cpu, moves, baseline)
