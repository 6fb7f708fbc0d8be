"""Imitation samples from a teacher's self-play: every seat plays the teacher (an agent spec,
usually a search such as ``ismcts(iterations=1000)``), and each decision with a choice gives
the mover's observation, the teacher's policy at it over every legal move (a search's root
visit shares, 0 for a move it never tried) and the mover's final return.

This is the AlphaZero-style target (a policy fitted to search visits) without the loop: the
search runs with its own heuristic rollouts, not the network. A search beats the heuristic
where the heuristic alone cannot be beaten by a network that imitates it: ISMCTS at 5000
iterations scores 0.70–0.95 against the heuristic in seven SKIP games (results/strength.md),
and a network fitted to it plays in a fraction of a millisecond.

Game ``i`` is dealt from ``derive(base_seed(seed), i)`` (the one play loop's chance draw) and
seat ``p``'s teacher is seeded from ``derive(that, p + 1)``, so the samples depend only on the
spec, the seed and the game numbers: the same on one worker process or several. Forced moves
(one legal action) teach nothing and are left out.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from agents.factory import make_agent
from skip_ai.kernel.rng import base_seed, derive, make_rng
from skip_ai.play import Decision, play
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.training.optimiser import Choices

_FIELDS = ("obs", "offsets", "actions", "probs", "value")

GAMES_PER_TASK = 4
"""Games a worker plays per task: enough to hide the task's overhead, few enough that the
last task of a run wastes little."""


@dataclass
class TeacherSamples:
    """Decisions of teacher self-play. Row ``i``'s policy is the sparse distribution
    ``probs[offsets[i]:offsets[i+1]]`` over ``actions[offsets[i]:offsets[i+1]]``."""

    obs: np.ndarray  # (N, D) float32: the mover's observation
    offsets: np.ndarray  # (N + 1,) int64
    actions: np.ndarray  # (M,) int64
    probs: np.ndarray  # (M,) float64, each row's sum 1
    value: np.ndarray  # (N,) float64: the mover's final return mapped to [-1, 1]
    cpu: float = 0.0  # CPU seconds spent playing them, in whichever process played them
    features: np.ndarray | None = None  # (M, F): each listed move's action features, if kept

    def __len__(self) -> int:
        return len(self.obs)

    def take(self, n: int) -> TeacherSamples:
        """The first ``n`` rows."""
        end = int(self.offsets[n])
        return TeacherSamples(
            self.obs[:n],
            self.offsets[: n + 1],
            self.actions[:end],
            self.probs[:end],
            self.value[:n],
            self.cpu,
            None if self.features is None else self.features[:end],
        )

    def save(self, path: Path) -> None:
        """Write the samples as ``.npz`` (no pickles), atomically (temporary name, rename)."""
        if self.features is not None:  # a teacher's samples never carry them
            raise ValueError("samples with action features are not saved to a file")
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, **{k: getattr(self, k) for k in _FIELDS}, cpu=np.float64(self.cpu))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, obs_size: int, num_actions: int) -> TeacherSamples:
        """Read samples saved by :meth:`save`, refusing a file whose shapes or values do not
        fit the game (observation size, action ids, probabilities, returns)."""
        try:
            with np.load(path, allow_pickle=False) as z:
                s = cls(**{k: z[k] for k in _FIELDS}, cpu=float(z["cpu"]))
        except Exception as e:
            raise ValueError(f"{path} is not a teacher-samples file: {e}") from None
        n, m = len(s.obs), len(s.actions)
        ok = (
            s.obs.shape == (n, obs_size)
            and s.offsets.shape == (n + 1,)
            and s.offsets[0] == 0
            and s.offsets[-1] == m
            and (np.diff(s.offsets) >= 1).all()
            and s.probs.shape == (m,)
            and s.value.shape == (n,)
            and ((s.actions >= 0) & (s.actions < num_actions)).all()
            and np.isfinite(s.obs).all()
            and ((s.probs >= 0) & (s.probs <= 1)).all()
            and (np.abs(s.value) <= 1).all()
        )
        if not ok:
            raise ValueError(f"{path}: teacher samples that do not fit this game (retrain)")
        return s

    def _entries(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For every (row, action) pair of the rows: its row's place in ``rows`` and its index
        in ``actions`` and ``probs``."""
        # every pair of a batch at once: 0.27 ms for 512 rows of Brook, where a Python loop
        # over the rows took 3.7 ms, a large part of each step of the fit
        lo, hi = self.offsets[rows], self.offsets[rows + 1]
        sizes = hi - lo
        which = np.repeat(np.arange(len(rows)), sizes)
        at = np.repeat(lo - np.cumsum(sizes) + sizes, sizes) + np.arange(sizes.sum())
        return which, at

    def choices(self, rows: np.ndarray, power: float = 1.0) -> Choices:
        """The policy targets of a mini-batch as :class:`.optimiser.Choices`: every legal
        move of each row (:func:`teacher_games` lists them all) with its share raised to
        ``power`` and renormalised (above 1, closer to the move the teacher plays)."""
        which, at = self._entries(rows)
        p = self.probs[at] ** power
        target = p / np.bincount(which, p, len(rows))[which]
        features = None if self.features is None else self.features[at]
        return Choices(which, self.actions[at], target, features)

    @staticmethod
    def concat(parts: list[TeacherSamples], obs_size: int) -> TeacherSamples:
        if not parts:
            return TeacherSamples(
                np.empty((0, obs_size), np.float32),
                np.zeros(1, np.int64),
                np.empty(0, np.int64),
                np.empty(0),
                np.empty(0),
            )
        shifts = np.cumsum([0] + [len(p.actions) for p in parts[:-1]])
        return TeacherSamples(
            np.concatenate([p.obs for p in parts]),
            np.concatenate([[0]] + [p.offsets[1:] + s for p, s in zip(parts, shifts)]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.probs for p in parts]),
            np.concatenate([p.value for p in parts]),
            sum(p.cpu for p in parts),
            None if parts[0].features is None else np.concatenate([p.features for p in parts]),
        )


def teacher_games(game: str, spec: str, seed: int, first: int, count: int) -> TeacherSamples:
    """Play games ``first .. first+count-1`` of teacher self-play (see the module docstring).
    Takes the game string, so that it can run in a worker process."""
    t0 = time.process_time()
    g = load(game)
    lo, span = g.min_utility(), g.max_utility() - g.min_utility()
    base = np.uint64(base_seed(seed))
    parts = []
    for i in range(first, first + count):
        deal = int(derive(base, i))
        bots = [
            make_agent(spec, g, seed=int(derive(np.uint64(deal), p + 1)))
            for p in range(g.num_players())
        ]
        obs, movers, policies = [], [], []

        def keep(d: Decision) -> None:
            legal = d.state.legal_actions()
            if len(legal) > 1:
                obs.append(np.asarray(d.state.observation_tensor(d.player), np.float32))
                movers.append(d.player)
                # every legal move, 0 where a small search never tried it: the fit's legal mask
                shares = dict(d.policy)
                policies.append([(a, shares.get(a, 0.0)) for a in legal])

        state = play(g.new_initial_state(), bots, make_rng(deal), on_decision=keep, policies=True)
        returns = 2.0 * (np.asarray(state.returns()) - lo) / span - 1.0
        sizes = [len(p) for p in policies]
        parts.append(
            TeacherSamples(
                np.array(obs, np.float32).reshape(len(obs), g.obs_size),
                np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                np.array([a for p in policies for a, _ in p], np.int64),
                np.array([q for p in policies for _, q in p], np.float64),
                returns[np.array(movers, np.int64)] if movers else np.empty(0),
            )
        )
    samples = TeacherSamples.concat(parts, g.obs_size)
    samples.cpu = time.process_time() - t0
    return samples


def teacher_samples(
    game: KernelGame,
    spec: str,
    n_samples: int,
    seed: int,
    first: int,
    workers: int = 1,
    progress: bool = True,
) -> TeacherSamples:
    """The first ``n_samples`` decisions of teacher self-play from game ``first`` on, played
    ``GAMES_PER_TASK`` games at a time by ``workers`` processes (0 or 1: this one). The rows
    are in game order whatever the number of workers."""
    make_agent(spec, game)  # a bad spec fails here, in one line, not in a worker
    name = str(game)
    pool = None
    if workers > 1:
        pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn")
        )
    parts: list[TeacherSamples] = []
    have = 0
    pending: deque = deque()  # tasks in flight, in game order: two per worker keeps each busy
    next_first = first
    bar = tqdm(total=n_samples, desc=f"teacher {spec}", unit="dec", disable=not progress)
    try:
        while have < n_samples:
            while pool is not None and len(pending) < 2 * workers:
                pending.append(
                    pool.submit(teacher_games, name, spec, seed, next_first, GAMES_PER_TASK)
                )
                next_first += GAMES_PER_TASK
            if pool is None:
                part = teacher_games(name, spec, seed, next_first, GAMES_PER_TASK)
                next_first += GAMES_PER_TASK
            else:
                part = pending.popleft().result()
            parts.append(part)
            have += len(part)
            bar.update(min(len(part), n_samples - bar.n))
    finally:
        bar.close()
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return TeacherSamples.concat(parts, game.obs_size).take(min(have, n_samples))
