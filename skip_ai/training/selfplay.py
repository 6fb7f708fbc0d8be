"""Self-play with the ISMCTS expert: one sample per decision, stored as Parquet.

A sample is what the mover saw and what the search concluded: the observation tensor, the legal
actions, the root visit share of each (``ISMCTSBot.step_with_policy``) and the mover's final
return mapped to [-1, 1]. Game ``i`` of generation ``g`` uses the seed
``derive(base_seed(seed), g · 2^20 + i)`` for its deal and its players, so a generation's samples
are the same whenever they are played.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from agents import make_agent
from skip_ai.kernel.rng import base_seed, derive, make_rng
from skip_ai.play import Decision, play
from skip_ai.pyspiel_wrapper import KernelGame

SAMPLE_SCHEMA = pa.schema(
    [
        ("game", pa.string()),
        ("generation", pa.int64()),
        ("game_index", pa.int64()),
        ("move", pa.int64()),
        ("player", pa.int64()),
        ("observation", pa.list_(pa.float32())),
        ("legal", pa.list_(pa.int64())),
        ("visits", pa.list_(pa.float32())),
        ("value", pa.float64()),
    ]
)
GAME_STRIDE = 1 << 20


def play_selfplay_game(
    game: KernelGame, spec: str, game_seed: int, generation: int, index: int
) -> list[dict]:
    """One self-play game: every seat is the expert ``spec``; one row per decision."""
    bot = make_agent(spec, game, seed=int(derive(np.uint64(game_seed), 1)))
    obs = np.zeros(game.obs_size, np.float32)
    rows = []

    def sample(d: Decision) -> None:
        legal = d.state.legal_actions()
        share = dict(d.policy)
        d.state.write_observation(d.player, obs)
        rows.append(
            {
                "game": str(game),
                "generation": generation,
                "game_index": index,
                "move": len(rows),
                "player": d.player,
                "observation": obs.copy(),
                "legal": legal,
                "visits": [share.get(a, 0.0) for a in legal],
            }
        )

    state = play(
        game.new_initial_state(),
        [bot] * game.num_players(),
        make_rng(game_seed),
        on_decision=sample,
        policies=True,
    )
    lo, span = game.min_utility(), game.max_utility() - game.min_utility()
    returns = state.returns()
    for r in rows:
        r["value"] = 2 * (returns[r["player"]] - lo) / span - 1
    return rows


def selfplay(
    game: KernelGame,
    spec: str,
    n_games: int,
    seed: int,
    generation: int,
    path: Path,
    progress: bool = True,
) -> Path:
    """Play ``n_games`` self-play games and write their samples to ``path`` (atomically)."""
    base = np.uint64(base_seed(seed))
    rows: list[dict] = []
    for i in tqdm(
        range(n_games), desc=f"gen {generation} self-play", unit="game", disable=not progress
    ):
        game_seed = int(derive(base, generation * GAME_STRIDE + i))
        rows.extend(play_selfplay_game(game, spec, game_seed, generation, i))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(pa.Table.from_pylist(rows, schema=SAMPLE_SCHEMA), tmp)
    tmp.replace(path)
    return path


def training_arrays(frames: list[pd.DataFrame], num_actions: int):
    """Samples as dense arrays for :func:`agents.model.fit`: observations ``(N, D)``, legal
    masks and visit targets ``(N, A)``, values ``(N,)``."""
    df = pd.concat(frames, ignore_index=True)
    n = len(df)
    obs = np.stack(df.observation.to_numpy()).astype(np.float64)
    legal = np.zeros((n, num_actions), bool)
    target = np.zeros((n, num_actions))
    for i, (acts, vis) in enumerate(zip(df.legal, df.visits)):
        legal[i, acts] = True
        target[i, acts] = vis
    target /= np.maximum(target.sum(axis=1, keepdims=True), 1e-12)
    return obs, legal, target, df.value.to_numpy(np.float64)
