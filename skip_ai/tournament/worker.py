"""Play scheduled games and return their records: pure inputs in, plain dicts out.

:func:`play_games` touches no file and no global state beyond per-process caches of loaded
games and of one run's bots, so it runs the same in-process, in a process pool or as a Ray
task. Within a task (or a run, given its session), each (game, side, agent) has its bot built
once and reset for every game it plays (:class:`agents.PreparedAgent`): a spec is parsed and
its files read once, not once per game. A game that raises is recorded with status ``failed``
and its error, never dropped: the batch goes on and the record says what went wrong (and its
bots are built afresh for the next game).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence

import numpy as np

from agents import PreparedAgent, agent_name
from skip_ai.duplicate import score_a, seatings
from skip_ai.match import play_seating
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.sim import winners
from skip_ai.tournament.schedule import ScheduledGame

# The columns a failed game cannot fill.
_NO_RESULT = {
    "returns": None,
    "scores": None,
    "num_actions": None,
    "num_moves": None,
    "actions": None,
}


@functools.cache
def _game(game: str) -> tuple[KernelGame, list[np.ndarray]]:
    """A game loaded once per process, with its seatings."""
    g = load(game)
    return g, seatings(g)


_session: tuple[str | None, dict[tuple, PreparedAgent]] = (None, {})
"""The bots this process has built for one run (its ``session``), kept from task to task: a
run's tasks are single games, and building a bot (a spec parsed, a model read) per game would
cost more than many games."""


def play_games(
    batch: str, code_version: str, games: Sequence[ScheduledGame], session: str | None = None
) -> list[dict]:
    """One record (:data:`skip_ai.record_schema.SCHEMA`) per scheduled game, in the given order.

    Each side's bot is built once for the call, or, with ``session`` (a run's own token), once
    for all the calls of that run in this process: a new session drops the bots of the last
    one (its agents' files may have changed since)."""
    global _session
    if session is None:
        prepared: dict[tuple, PreparedAgent] = {}
    else:
        if _session[0] != session:
            _session = (session, {})
        prepared = _session[1]
    rows = [_play(batch, code_version, s, prepared) for s in games]
    # A's score and the winner for all games of a seating at once (per game they cost more
    # than recording the rest of the row)
    groups: dict[tuple[str, int], list[dict]] = {}
    for s, row in zip(games, rows):
        if row["status"] == "ok":
            groups.setdefault((s.game, s.seating), []).append(row)
    for (name, seating), group in groups.items():
        game, layouts = _game(name)
        returns = np.array([row["returns"] for row in group], dtype=np.float64)
        for row, a, w in zip(
            group,
            score_a(returns, layouts[seating], game).tolist(),
            winners(returns, game.spec.team_game).tolist(),
        ):
            row["score_a"], row["winner"] = a, w
    return rows


def forget_bots() -> None:
    """Drop the bots of the last session (a run played in this process has ended)."""
    global _session
    _session = (None, {})


def failed_record(
    batch: str, code_version: str, s: ScheduledGame, error: str, seconds: float = 0.0
) -> dict:
    """The record of a game that could not be played, with the reason."""
    return {
        **_describe(batch, code_version, s),
        **_NO_RESULT,
        "seconds": seconds,
        "status": "failed",
        "error": error,
    }


def _describe(batch: str, code_version: str, s: ScheduledGame) -> dict:
    """What a record says of a game before it is played."""
    game, layouts = _game(s.game)
    return {
        "batch": batch,
        "code_version": code_version,
        "match_id": s.match_id,
        "game": s.game,
        "game_name": game.spec.short_name,
        "team_game": bool(game.spec.team_game),
        "deal": s.deal,
        "seating": s.seating,
        "seed": s.seed,
        "mirrored": s.mirrored,
        "agent_a": s.agent_a.name,
        "agent_b": s.agent_b.name,
        "agents": [s.agent_a.name if a else s.agent_b.name for a in layouts[s.seating]],
        "score_a": None,
        "winner": None,
        "movers": None,
        "mover_values": None,
        "value_spreads": None,
    }


def _play(
    batch: str, code_version: str, s: ScheduledGame, prepared: dict[tuple, PreparedAgent]
) -> dict:
    """Play one scheduled game and describe it as a record (but A's score and the winner),
    with the bots in ``prepared`` (by game, side and agent, as records name them; built here
    when missing)."""
    game, layouts = _game(s.game)
    agents = {
        (s.game, side, a.name, agent_name(a.spec)): a
        for side, a in zip("ab", [s.agent_a, s.agent_b])
    }
    t0 = time.perf_counter()
    try:
        sides = []
        for key, agent in agents.items():
            if key not in prepared:
                prepared[key] = PreparedAgent(agent.spec, game)
            sides.append(prepared[key])
        r = play_seating(game, s.seed, layouts[s.seating], *sides, mirror=s.mirrored)
    except Exception as e:  # any failure of a game or an agent becomes a record
        for key in agents:  # a bot that raised may be left mid-move: the next game builds anew
            prepared.pop(key, None)
        return failed_record(
            batch, code_version, s, f"{type(e).__name__}: {e}", time.perf_counter() - t0
        )
    seconds = time.perf_counter() - t0
    return {
        **_describe(batch, code_version, s),
        "returns": r["returns"].tolist(),
        "scores": r["state"].scores(),
        **{key: r[key] for key in ("movers", "mover_values", "value_spreads")},
        "num_actions": r["num_actions"],
        "num_moves": r["moves_a"] + r["moves_b"],
        "seconds": seconds,
        "status": "ok",
        "error": None,
        "actions": r["state"].history(),
    }
