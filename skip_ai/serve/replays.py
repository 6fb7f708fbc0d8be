"""Recorded games, replayed move by move: a tournament's records (``OUT/records``) given on
the command line, listed with filters, and any one game rebuilt by re-applying its
``actions`` to a new state of its ``game`` string.

Pages name a record by its row number in the folder read at start; no path ever comes from
a page. Records written before the ``actions`` column, and failed games, have no history:
they are listed but said to be not replayable. A record the page could not show (a NaN
score, a missing game string or agent, ...) is set aside when the folder is read, and named
with why in :meth:`Records.facets` (``skipped``), instead of breaking the list.

A record is listed in words, in the game's team order (team 0 first), never in agent A/B
order: who played which team ("Red: heuristic · Black: random"), the scores by team, and how
it ended ("heuristic (Red) beat random (Black) 8–5"; a batch's self-play: "self-play, random:
Red won 8–5"). A replay from a seat's view shows that seat's cards, in the third person.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.dataset as ds
import pyspiel

from skip_ai.pyspiel_wrapper import load
from skip_ai.record_checks import problems
from skip_ai.record_schema import SCHEMA
from skip_ai.records import read_records
from skip_ai.serve import views
from skip_ai.serve.errors import BadRequest, NotFound

PAGE = 50
SKIPPED_SHOWN = 20
"""Set-aside records named in the facets (all are counted)."""
RESULTS = ("A wins", "B wins", "draw", "failed")
RESULT_WORDS = {
    "A wins": "won by the pair's first agent (A)",
    "B wins": "won by the pair's second agent (B)",
    "draw": "a draw",
    "failed": "failed",
}
"""The result filter's values (by agent A, as ``score_a`` counts) in words for the page."""


def records_folder(out: str | Path) -> Path:
    """The records folder of a batch folder ``OUT`` (``OUT/records``), or ``out`` itself."""
    path = Path(out)
    return path / "records" if (path / "records").is_dir() else path


def _result(row: Any) -> str:
    """A record's result for agent A: ``A wins``, ``B wins``, ``draw`` or ``failed``."""
    if row.status != "ok":
        return "failed"
    if row.score_a > 0.5:
        return "A wins"
    return "B wins" if row.score_a < 0.5 else "draw"


class Records:
    """The records of one folder, read once."""

    def __init__(self, out: str | Path):
        self.folder = records_folder(out)
        df, bad = _read(self.folder)
        if df.empty:
            raise ValueError(
                f"no records in {self.folder}: give a tournament's output folder "
                "(OUT, holding records/) or its records folder"
            )
        for i, row in enumerate(df.itertuples()):  # what the page needs, besides the rules
            bad.setdefault(i, _problem(row))
        self.skipped = [
            {"match_id": str(m)[:80], "why": bad[i]}
            for i, m in enumerate(df.match_id.tolist())
            if bad[i]
        ]
        df = df[[not bad[i] for i in range(len(df))]].reset_index(drop=True)
        df["result"] = [_result(r) for r in df.itertuples()]
        df["replayable"] = [isinstance(a, np.ndarray) and len(a) > 0 for a in df.actions]
        self.df = df

    def facets(self) -> dict:
        """The values the filters offer."""
        df = self.df
        agents = sorted(set(df.agent_a) | set(df.agent_b))
        return {
            "agents": agents,
            "games": sorted(df.game.unique()),
            "results": list(RESULTS),
            "result_words": RESULT_WORDS,
            "total": len(df),
            "replayable": int(df.replayable.sum()),
            "folder": str(self.folder),
            "skipped": self.skipped[:SKIPPED_SHOWN],
            "skipped_total": len(self.skipped),
        }

    def listing(self, query: dict[str, str]) -> dict:
        """One page of the records matching ``agent`` (either side), ``game``, ``result``,
        from ``offset``."""
        df = self.df
        keep = np.ones(len(df), bool)
        if query.get("agent"):
            keep &= (df.agent_a == query["agent"]).to_numpy() | (
                df.agent_b == query["agent"]
            ).to_numpy()
        if query.get("game"):
            keep &= (df.game == query["game"]).to_numpy()
        if query.get("result"):
            if query["result"] not in RESULTS:
                raise BadRequest(f"result must be one of {', '.join(RESULTS)}")
            keep &= (df.result == query["result"]).to_numpy()
        offset = _int(query.get("offset", "0"), "offset")
        rows = df[keep]
        page = rows.iloc[offset : offset + PAGE]
        return {
            "total": int(keep.sum()),
            "offset": offset,
            "page": PAGE,
            "rows": [_summary(i, r) for i, r in zip(page.index.tolist(), page.itertuples())],
        }

    def row(self, index: int) -> Any:
        if not 0 <= index < len(self.df):
            raise NotFound(f"no record {index} (the folder holds {len(self.df)})")
        return self.df.iloc[index]

    def replay(self, index: int, position: int, seat: int | None) -> dict:
        """The view of record ``index`` before its ``position``-th decision (the last
        position: the end), from ``seat`` (None: every card open)."""
        row = self.row(index)
        if not row.replayable:
            why = (
                f"the game failed ({row.error})"
                if row.status != "ok"
                else "it was recorded without its action history (before the actions column)"
            )
            raise BadRequest(f"record {index} cannot be replayed: {why}")
        try:
            game = _game(row.game)
        except (ValueError, pyspiel.SpielError) as e:
            raise BadRequest(f"record {index} does not replay with this code: {e}") from None
        if seat is not None and not 0 <= seat < game.num_players():
            raise BadRequest(f"seat must be one of 0..{game.num_players() - 1}, or open")
        actions = row.actions.tolist()
        try:
            stops = _stops(row.game, tuple(actions))
        except (ValueError, OverflowError, TypeError, pyspiel.SpielError) as e:  # other rules
            raise BadRequest(f"record {index} does not replay with this code: {e}") from None
        if not 0 <= position < len(stops):
            raise BadRequest(f"position must be in 0..{len(stops) - 1}")
        state = game.new_initial_state()
        for a in actions[: stops[position]]:
            state.apply_action(a)
        view = views.table_view(state, seat, agents=list(row.agents), seated=False)
        ended = ""
        if position == len(stops) - 1 and list(state.returns()) != list(row.returns):
            ended = "this replay does not end as recorded: the code has changed since"
        return {
            **view,
            "record": _summary(index, row),
            "position": position,
            "positions": len(stops),
            "mismatch": ended,
        }


def _read(folder: Path) -> tuple[pd.DataFrame, dict[int, str]]:
    """The records of ``folder`` and, by row, why the page sets one aside: none when they
    pass :func:`skip_ai.records.read_records`' checks; else (a bad row, a game recorded
    twice) every shard read as it is, and each row that breaks a rule of
    :func:`skip_ai.record_checks.problems` named, instead of refusing the folder."""
    try:
        return read_records(folder).reset_index(drop=True), {}
    except FileNotFoundError:
        raise
    except ValueError as refused:
        try:
            table = ds.dataset(folder, format="parquet", schema=SCHEMA).to_table()
            bad = {b.row: b.problem for b in problems(table)}
        except Exception:  # noqa: BLE001 (shards that do not even read: the refusal stands)
            raise refused from None
    df = table.to_pandas()
    for i in np.flatnonzero(df.duplicated(["batch", "match_id"]).to_numpy()):
        bad.setdefault(int(i), "recorded twice (a copied shard)")
    return df, bad


def _finite(values: Any) -> bool:
    return all(
        isinstance(x, (int, float, np.integer, np.floating))
        and not isinstance(x, bool)
        and math.isfinite(x)
        for x in list(values)
    )


def _problem(row: Any) -> str:
    """Why the page cannot list record ``row`` (empty: it can)."""
    try:
        return _check_row(row)
    except (TypeError, ValueError) as e:
        return f"malformed: {e}"


def _check_row(row: Any) -> str:
    for name in ("match_id", "game", "agent_a", "agent_b", "status"):
        if not isinstance(getattr(row, name), str) or not getattr(row, name):
            return f"no {name}"
    agents = row.agents
    if agents is None or not all(isinstance(a, str) for a in list(agents)):
        return "no agent per seat"
    for name in ("scores", "returns"):
        values = getattr(row, name)
        if values is not None and not _finite(values):
            return f"its {name} are not all finite numbers ({', '.join(map(str, values))})"
    if row.status == "ok":
        if row.scores is None or not _finite([row.score_a]):
            return f"a finished game without its scores (score_a {row.score_a})"
    for name in ("winner", "num_moves"):
        value = getattr(row, name)
        if not pd.isna(value) and (not _finite([value]) or value < -1):
            return f"its {name} is {value}"
    if not (row.error is None or isinstance(row.error, str) or pd.isna(row.error)):
        return "a malformed error"
    return ""


def _summary(index: int, row: Any) -> dict:
    scores = None if row.scores is None else [float(x) for x in row.scores]
    sides = _sides(row, scores)
    return {
        "index": index,
        "match_id": row.match_id,
        "game": row.game,
        "agent_a": row.agent_a,
        "agent_b": row.agent_b,
        "agents": list(row.agents),
        "players": _players(row),
        "sides": sides,
        "outcome": _outcome(row, sides),
        "result": row.result,
        "winner": None if pd.isna(row.winner) else int(row.winner),
        "scores": scores,
        "moves": None if pd.isna(row.num_moves) else int(row.num_moves),
        "replayable": bool(row.replayable),
        "status": row.status,
        "error": None if pd.isna(row.error) else row.error,
    }


def _players(row: Any) -> str:
    """``self-play, random`` or ``heuristic vs random`` (agent A first)."""
    if row.agent_a == row.agent_b:
        return f"self-play, {row.agent_a}"
    return f"{row.agent_a} vs {row.agent_b}"


def _sides(row: Any, scores: list[float] | None) -> list[dict]:
    """Who played each team (team order), or each seat in a game played each for himself,
    with its score: ``{"name": "Red", "agents": "heuristic", "score": 8.0}``."""
    agents = list(row.agents)
    try:
        game = _game(row.game)
        spec = game.spec
        teams = [int(t) for t in game.teams()]
    except (ValueError, pyspiel.SpielError):  # a game this code no longer knows
        spec, teams = None, []
    if spec is not None and spec.team_game and len(teams) == len(agents):
        groups = [[a for a, t in zip(agents, teams) if t == team] for team in range(2)]
        names = list(spec.team_names)
    else:
        groups, names = [[a] for a in agents], [f"seat {q}" for q in range(len(agents))]
    return [
        {
            "name": name,
            "agents": " + ".join(dict.fromkeys(group)),
            "score": scores[i] if scores is not None and i < len(scores) else None,
        }
        for i, (name, group) in enumerate(zip(names, groups))
    ]


def _outcome(row: Any, sides: list[dict]) -> str:
    """How the game ended, in words, naming the sides by team (or seat) and agent."""
    if row.status != "ok":
        return "failed"
    winner = None if pd.isna(row.winner) else int(row.winner)
    self_play = row.agent_a == row.agent_b
    if winner is None or not 0 <= winner < len(sides):
        ended = "nobody won" if len(sides) > 2 else "a draw"
        both = [s for s in sides if s["score"] is not None]
        if len(sides) == 2 and len(both) == 2:
            ended += ", " + _score(both[0]["score"], both[1]["score"])
        return f"{_players(row)}: {ended}" if self_play else ended
    won = sides[winner]
    if self_play:
        line = f"{_players(row)}: {won['name']} won"
    elif len(sides) == 2:
        lost = sides[1 - winner]
        line = f"{won['agents']} ({won['name']}) beat {lost['agents']} ({lost['name']})"
    else:
        line = f"{won['name']} ({won['agents']}) won"
    if len(sides) == 2 and won["score"] is not None and sides[1 - winner]["score"] is not None:
        line += " " + _score(won["score"], sides[1 - winner]["score"])
    return line


def _score(a: float, b: float) -> str:
    dash = " to " if min(a, b) < 0 else "–"
    return f"{a:g}{dash}{b:g}".replace("-", "−")


@functools.lru_cache(maxsize=64)
def _game(game: str) -> pyspiel.Game:
    return load(game)


@functools.lru_cache(maxsize=16)
def _stops(game: str, actions: tuple[int, ...]) -> list[int]:
    """The replay's positions: the history length before each decision, then the end."""
    state = _game(game).new_initial_state()
    stops = []
    for a in actions:
        if state.is_player_node():
            stops.append(len(state.history()))
        state.apply_action(a)
    return stops + [len(actions)]


def _int(text: str, name: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise BadRequest(f"{name} must be a whole number from 0 (got {text!r:.20})")
    return int(text)
