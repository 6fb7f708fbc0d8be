"""Training runs (``skip-ai train``): the loop every method runs, its checkpoints and its
learning curve. What a method brings (its model, its actors' games, its fit) is its entry in
:data:`skip_ai.training.methods.METHODS`.

The loop, as DouZero's (Zha et al. 2021) without its many actors: the actors play a *chunk* of
samples with the current model (:mod:`skip_ai.training.chunks`); the learner fits the chunk
once, in mini-batches (:mod:`skip_ai.training.optimiser`), and the chunk is dropped: no replay.

**Both cores, or a cluster.** Chunk ``k + 1`` is played by the model as it was *before* chunk
``k`` was fitted, so the actors (``actors`` processes, or Ray tasks with ``--backend ray``:
:mod:`.actors`) play chunk ``k + 1`` while the learner fits chunk ``k``. With ``parts = P`` a
chunk is ``P`` parts, each its own games, played side by side and learned in part order (as
DouZero's many actors feed one learner). The lag is part of the algorithm, not of the timing: a
run in one process (``actors = 0``), on local processes or on Ray gives the same models bit
for bit.

**Checkpoints and resume.** After each chunk, ``OUT/checkpoint.npz`` (the model, the actor's
model, Adam's moments, the counters) is written atomically; a rerun of the same command after
a crash or ``kill -9`` continues from it and ends with the same models as a run never
interrupted (the chunk cut short is played again from the same seed and model). What differs:
the CPU seconds recorded (the chunk played twice is counted once, only the second time).
``OUT/run.json`` keeps the config's identity; a changed config is refused (the budget may
grow).

**Imitation first** (``imitation = N``, deep Monte-Carlo's fresh models): a fresh run first
fits the model to ``N`` samples of a teacher's self-play (games numbered from
``IMITATION_FIRST`` in the run's seed family, never reached by the self-play) for
``imitation_epochs`` passes (:func:`skip_ai.training.optimiser.fit_imitation`), the value head
to their returns; self-play then starts from that model, which is the curve's first point (its
CPU time counted). The teacher is the game's heuristic (its moves, played in the kernel: a
softmax over every action id, so the model also learns which moves are legal) or a search
(``teacher = "ismcts(iterations=N)"``: its root visit shares over each decision's legal moves,
:mod:`skip_ai.training.teacher_data`, ``1 + actors`` processes, their CPU time counted): a copy
of a search can become stronger than the heuristic, which a copy of the heuristic cannot.
Measured on Columns (results/learned.md): the imitated heuristic scored 0.41 where 10 CPU
minutes of self-play from scratch scored 0.03, but self-play after it, regressing its outputs
(log-probabilities) on returns, brought it down to 0.09 in 4M samples: where imitation helps,
its snapshot ``models/d0000000000.npz`` is the model to keep, or to start a policy-gradient run
from (Columns' and, from a search, most games' committed models began so).

**The learning curve.** Every ``eval_every`` samples (and at 0 and at the end) the model is
saved as ``OUT/models/d<samples>.npz`` and plays ``learned(model=…)`` against each reference on
``eval_deals`` duplicate deals of the ``eval_seed`` family; ``OUT/curve.json`` holds the scores
with their 95% intervals against the training CPU seconds (learner and actor, evaluation not
counted: a shared machine's wall clock says little), and ``OUT/curve.png`` plots them.
``OUT/model.npz`` is the last model.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from agents.model import PolicyValueNet
from skip_ai.kernel.rng import base_seed, derive
from skip_ai.match import match
from skip_ai.pyspiel_wrapper import KernelGame
from skip_ai.training.actors import chunk_players
from skip_ai.training.chunks import Chunk, play_chunk
from skip_ai.training.chunks import cached_game as _game
from skip_ai.training.config import PART_SHIFT, TrainConfig
from skip_ai.training.curve import plot_curve
from skip_ai.training.methods import METHODS
from skip_ai.training.optimiser import Adam, fit_imitation, one_hot
from skip_ai.training.teacher_data import TeacherSamples, teacher_samples


@dataclass
class State:
    """Where a run stands after ``chunks`` chunks (what a checkpoint holds)."""

    net: PolicyValueNet
    actor_params: np.ndarray  # the model before the last fit: it plays the next chunk
    adam: Adam
    chunks: int
    next_games: np.ndarray  # per part, the games it has played (its next game's number)
    decisions: int
    cpu: float
    loss: float

    def save(self, path: Path) -> None:
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as f:
            np.savez(
                f,
                params=self.net.trainable(),
                actor_params=self.actor_params,
                adam_m=self.adam.m,
                adam_v=self.adam.v,
                counters=np.array(
                    [self.adam.t, self.chunks, self.next_games[0], self.decisions], np.int64
                ),
                next_games=self.next_games,
                floats=np.array([self.cpu, self.loss]),
            )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, net: PolicyValueNet, parts: int) -> State:
        """The checkpoint at ``path``, into the freshly made ``net`` (same layers), of a run
        of ``parts`` parts a chunk."""
        with np.load(path, allow_pickle=False) as z:
            if z["params"].shape != (net.trainable_size,):
                raise ValueError(f"{path}: a checkpoint for other layer sizes")
            # checkpoints from before the parts hold the one part's count in counters
            games = z["next_games"] if "next_games" in z.files else z["counters"][2:3]
            if games.shape != (parts,) or (games < 0).any() or (games >> PART_SHIFT).any():
                raise ValueError(f"{path}: a checkpoint for another number of parts")
            net.set_trainable(z["params"].copy())
            adam = Adam(net.trainable_size)
            adam.m, adam.v = z["adam_m"].copy(), z["adam_v"].copy()
            t, chunks, _, decisions = (int(x) for x in z["counters"])
            adam.t = t
            cpu, loss = (float(x) for x in z["floats"])
            next_games = games.astype(np.int64)
            return cls(
                net, z["actor_params"].copy(), adam, chunks, next_games, decisions, cpu, loss
            )


def run_training(
    config: TrainConfig, progress: bool = True, backend: str = "local", address: str | None = None
) -> list[dict]:
    """Run (or resume) the training of ``config``; returns the learning curve's rows. The
    chunks' parts are played by ``config.actors`` local processes, or with ``backend``
    "ray" as Ray tasks (on the cluster at ``address``, else on a local Ray)."""
    out = config.out
    out.mkdir(parents=True, exist_ok=True)
    _check_identity(config)
    game = _game(config.game)
    state = _start(config, game)
    if config.imitation and not (out / "checkpoint.npz").exists():
        _imitate(config, state, progress)
    _evaluate_missing(config, game)
    if state.decisions == 0 and not _snapshot(out, 0).exists():
        _snapshot_now(out, state)  # the untrained (or the imitated) model, and its CPU time
        _evaluate_missing(config, game)
    bar = tqdm(total=config.decisions, initial=state.decisions, unit="dec", disable=not progress)
    players = chunk_players(backend, config.actors, config.parts, address)
    try:
        _loop(config, state, players.submit, bar)
    finally:
        bar.close()
        players.shutdown()
    return _read_curve(out)


def _loop(config: TrainConfig, state: State, submit, bar: tqdm) -> None:
    out = config.out
    game = _game(config.game)
    method = METHODS[config.method]
    dims = state.net.dims
    pending = _submit(submit, config, state.next_games, dims, state.actor_params, state.decisions)
    wall = time.perf_counter()
    while not _done(config, state):
        parts = [p.result() for p in pending]
        chunk = Chunk.concat(parts, game.obs_size)
        played = np.array([p.games for p in parts], np.int64)
        # the next chunk is played by the model before this fit (see the module docstring)
        after = state.decisions + len(chunk.actions)
        pending = _submit(
            submit, config, state.next_games + played, dims, state.net.params.copy(), after
        )
        before = state.net.params.copy()
        t0 = time.process_time()
        rng = np.random.default_rng(int(derive(np.uint64(base_seed(config.seed)), state.chunks)))
        state.loss = method.fit(config, state.net, state.adam, chunk, rng)
        fit_cpu = time.process_time() - t0
        state.actor_params = before
        state.chunks += 1
        state.next_games = state.next_games + played
        previous = state.decisions
        state.decisions += len(chunk.actions)
        state.cpu += fit_cpu + chunk.cpu
        at_eval = state.decisions // config.eval_every > previous // config.eval_every
        if at_eval or _done(config, state):
            _snapshot_now(out, state)
        state.save(out / "checkpoint.npz")
        bar.update(state.decisions - previous)
        now = time.perf_counter()
        bar.set_postfix(
            {
                "games/s": f"{chunk.games / max(now - wall, 1e-9):.0f}",
                "dec/cpu-s": f"{len(chunk.actions) / max(fit_cpu + chunk.cpu, 1e-9):.0f}",
                "loss": f"{state.loss:.4f}",
                **method.shown(config, state.decisions, chunk),
            }
        )
        if at_eval or _done(config, state):
            _evaluate_missing(config, game)
        wall = time.perf_counter()
    if not _snapshot(out, state.decisions).exists():  # resumed with a smaller budget
        _snapshot_now(out, state)
        _evaluate_missing(config, game)


def _submit(submit, config: TrainConfig, next_games: np.ndarray, dims, params, decisions: int):
    """Start the chunk's parts, part ``j`` from its game ``next_games[j]`` on (numbered from
    ``j << PART_SHIFT``), played by the model ``params`` after ``decisions`` samples, as the
    run's method plays it; the parts' futures in part order."""
    method = METHODS[config.method]
    size = config.chunk // config.parts
    knobs = method.knobs(config, decisions)
    return [
        submit(
            method.play,
            config.game,
            config.seed,
            (j << PART_SHIFT) + int(n),
            size,
            dims,
            params,
            *knobs,
        )
        for j, n in enumerate(next_games)
    ]


IMITATION_FIRST = 1 << 48
"""The first game of the teacher's self-play that a run imitates (self-play counts from 0)."""


def _imitate(config: TrainConfig, state: State, progress: bool) -> None:
    """Fit the fresh model to ``config.imitation`` samples of the teacher's self-play, make it
    the actor's model too, and checkpoint (a resumed run does not imitate again)."""
    t0 = time.process_time()
    net = state.net
    if config.teacher == "heuristic":
        c = play_chunk(
            config.game,
            config.seed,
            IMITATION_FIRST,
            config.imitation,
            net.dims,
            net.params,
            0.0,
            guide=1.0,
        )
        obs, targets, value, cpu = c.obs, one_hot(c.actions, net.num_actions), c.target, c.cpu
        # the kernel's chunk keeps no legal moves: dense targets, a softmax over every action
    else:  # each decision's legal moves and shares: a softmax over those
        t = _teacher_samples(config, net, progress)
        targets = functools.partial(t.choices, power=config.teacher_power)
        obs, value, cpu = t.obs, t.value, t.cpu
    adam = Adam(net.trainable_size)
    rng = np.random.default_rng(int(derive(np.uint64(base_seed(config.seed)), IMITATION_FIRST)))
    lr, batch = config.imitation_lr, config.batch
    for _ in tqdm(range(config.imitation_epochs), desc="imitation", disable=not progress):
        state.loss = fit_imitation(net, obs, targets, value, adam, lr, batch, rng)
    state.actor_params = net.params.copy()
    state.cpu += cpu + time.process_time() - t0
    state.save(config.out / "checkpoint.npz")


def _teacher_samples(config: TrainConfig, net: PolicyValueNet, progress: bool) -> TeacherSamples:
    """The teacher's samples: played once and kept in ``OUT/teacher.npz`` (the search's
    self-play is the costly part of imitation: a run killed while fitting does not play it
    again)."""
    path = config.out / "teacher.npz"
    if path.exists():
        return TeacherSamples.load(path, net.obs_size, net.num_actions)
    t = teacher_samples(
        _game(config.game),
        config.teacher,
        config.imitation,
        config.seed,
        IMITATION_FIRST,
        workers=1 + config.actors,
        progress=progress,
    )
    t.save(path)
    return t


def _done(config: TrainConfig, state: State) -> bool:
    return (config.decisions is not None and state.decisions >= config.decisions) or (
        config.cpu_minutes is not None and state.cpu >= 60 * config.cpu_minutes
    )


def _start(config: TrainConfig, game: KernelGame) -> State:
    """The checkpoint's state, or a fresh one from the method's model."""
    net = METHODS[config.method].model(config, game)
    path = config.out / "checkpoint.npz"
    if path.exists():
        return State.load(path, net, config.parts)
    games = np.zeros(config.parts, np.int64)
    return State(net, net.params.copy(), Adam(net.trainable_size), 0, games, 0, 0.0, float("nan"))


def _snapshot(out: Path, decisions: int) -> Path:
    return out / "models" / f"d{decisions:010d}.npz"


def _save_model(net: PolicyValueNet, path: Path) -> None:
    net.generation = int(path.stem[1:]) if path.stem.startswith("d") else net.generation
    net.save(path)


def _snapshot_now(out: Path, state: State) -> None:
    """Save the model as the snapshot of this point and as ``model.npz``, and record the
    training CPU seconds it took (the curve's x axis)."""
    snap = _snapshot(out, state.decisions)
    _save_model(state.net, snap)
    _save_model(state.net, out / "model.npz")
    path = out / "cpu.json"
    times = json.loads(path.read_text()) if path.exists() else {}
    times.setdefault(snap.stem, state.cpu)
    _write_json(path, times)


def _evaluate_missing(config: TrainConfig, game: KernelGame) -> None:
    """Play every snapshot without its curve rows against the references."""
    out = config.out
    rows = _read_curve(out)
    done = {(r["decisions"], r["reference"]) for r in rows}
    cpu_path = out / "cpu.json"
    times = json.loads(cpu_path.read_text()) if cpu_path.exists() else {}
    for snap in sorted((out / "models").glob("d*.npz")):
        decisions = int(snap.stem[1:])
        for ref in config.references:
            if (decisions, ref) in done:
                continue
            r = match(game, f"learned(model={snap})", ref, config.eval_deals, seed=config.eval_seed)
            rows.append(
                {
                    "decisions": decisions,
                    "cpu_seconds": times.get(snap.stem, 0.0),
                    "reference": ref,
                    "score": r.score,
                    "lo": r.lo,
                    "hi": r.hi,
                }
            )
            _write_json(out / "curve.json", rows)
    if rows:
        plot_curve(rows, f"{config.name}: {config.game}", out / "curve.png")


def _read_curve(out: Path) -> list[dict]:
    path = out / "curve.json"
    return json.loads(path.read_text()) if path.exists() else []


def _check_identity(config: TrainConfig) -> None:
    """Refuse to resume a folder written by a different config."""
    path = config.out / "run.json"
    ident = config.identity()
    if path.exists():
        old = json.loads(path.read_text())
        if old != ident:
            diff = [k for k in ident if old.get(k) != ident[k]]
            raise ValueError(
                f"{config.out} holds a run with a different config (changed: "
                f"{', '.join(diff)}); use another out folder or restore the config"
            )
        return
    _write_json(path, ident)


def _write_json(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(path)
