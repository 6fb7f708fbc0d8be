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
from skip_ai.record_schema import to_table
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


def study_selfplay(game: str, winners: list[tuple[int, ...]], agent: str = "x") -> list[dict]:
    """A balance study's self-play records of ``agent`` on every seat of ``game`` (rung 0 of
    variant 0): per deal, the winner of each of its games (-1: nobody won) — one game
    (``0/self/0/DEAL/0``), or two with the deal's mirror (``0/self/0/DEAL/m``)."""
    g = load(game)
    rows = []
    for deal, deal_winners in enumerate(winners):
        for k, won in enumerate(deal_winners):
            returns = np.array(_returns(g, won))
            rows.append(
                record(
                    match_id=f"0/self/0/{deal}/{'m' if k else 0}",
                    game=str(g),
                    game_name=g.spec.short_name,
                    team_game=g.spec.team_game,
                    deal=deal,
                    seating=0,
                    seed=deal,
                    mirrored=bool(k),
                    agent_a=agent,
                    agent_b=agent,
                    agents=[agent] * g.num_players(),
                    returns=returns.tolist(),
                    scores=[0.0] * (2 if g.spec.team_game else g.num_players()),
                    score_a=float(score_a(returns[None, :], seatings(g)[0], g)[0]),
                    winner=won,
                    num_actions=20 + deal,
                    num_moves=10 + deal,
                    seconds=0.0,
                )
            )
    return rows


def _returns(game, won: int) -> list[float]:
    """Returns where team (or seat) ``won`` won: +1 to the winners, -1 to the losing team, -½
    to each losing seat (a game played each for themselves); all 0 when nobody won."""
    n = game.num_players()
    if won < 0:
        return [0.0] * n
    if game.spec.team_game:
        return [1.0 if team == won else -1.0 for team in game.teams()]
    return [1.0 if seat == won else -0.5 for seat in range(n)]


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
