"""Tiny records folders for the analysis tests, played with ``skip_ai.match.play_seating`` so
the analysis is tested without the tournament runner."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from skip_ai.duplicate import score_a, seatings
from skip_ai.kernel.rng import base_seed, derive
from skip_ai.match import play_seating
from skip_ai.pyspiel_wrapper import load
from skip_ai.records import to_table
from skip_ai.sim import winners

GAMES = ["skip_columns", "skip_pyatki"]  # a team game and a game played each for itself
AGENTS = {"rnd": "random", "heur": "heuristic"}


def played_records(
    games: list[str] = GAMES, agents: dict[str, str] = AGENTS, deals: int = 3, seed: int = 5
) -> list[dict]:
    """One record per game of a round robin of ``agents`` on ``games``, ``deals`` duplicate
    deals per pair."""
    rows = []
    base = np.uint64(base_seed(seed))
    for gi, name in enumerate(games):
        game = load(name)
        for pi, (a, b) in enumerate(combinations(agents, 2)):
            for deal in range(deals):
                deal_seed = int(derive(base, 1000 * gi + 100 * pi + deal))
                for k, a_seats in enumerate(seatings(game)):
                    r = play_seating(game, deal_seed, a_seats, agents[a], agents[b])
                    rets = r["returns"]
                    rows.append(
                        record(
                            match_id=f"{gi}/{pi}/{deal}/{k}",
                            game=str(game),
                            game_name=game.spec.short_name,
                            team_game=game.spec.team_game,
                            deal=deal,
                            seating=k,
                            seed=deal_seed,
                            agent_a=a,
                            agent_b=b,
                            agents=[a if s else b for s in a_seats],
                            returns=rets.tolist(),
                            scores=list(r["state"].scores()),
                            score_a=float(score_a(rets[None, :], a_seats, game)[0]),
                            winner=int(winners(rets[None, :], game.spec.team_game)[0]),
                            num_actions=r["num_actions"],
                            num_moves=r["moves_a"] + r["moves_b"],
                            seconds=r["seconds_a"] + r["seconds_b"],
                        )
                    )
    return rows


def record(**fields) -> dict:
    """A record with defaults for the bookkeeping columns."""
    base = {
        "batch": "test",
        "code_version": "test",
        "status": "ok",
        "error": "",
        "movers": None,
        "mover_values": None,
        "value_spreads": None,
    }
    return base | fields


def write_records(rows: list[dict], out: Path, shards: int = 2) -> Path:
    """Write ``rows`` as Parquet shards under ``out/records`` and return ``out``."""
    folder = out / "records"
    folder.mkdir(parents=True, exist_ok=True)
    for i, part in enumerate(np.array_split(np.arange(len(rows)), shards)):
        pq.write_table(to_table([rows[j] for j in part]), folder / f"shard-{i:03d}.parquet")
    return out
