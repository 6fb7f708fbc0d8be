"""The rules every game record keeps, checked on the Arrow table before it becomes a frame.

:func:`problems` lists the bad rows (each with the first thing wrong with it; its docstring
holds the rules), :func:`validate` refuses a frame already in memory (e.g. one a notebook or a
server built) and :func:`check_rows` refuses a table, as :func:`skip_ai.records.read_records`
does with every record it reads: with a :class:`~skip_ai.record_schema.RecordError` of one line
naming the file, the row, the match id and what is wrong. The checks take a small part of the
reading's time (100,000 records in 5,000 shards: about 0.5 s beside 8–9 s of reading, measured
by ``tests/test_records_hostile.py -m slow -s``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from skip_ai.record_schema import IDENTITY, RESULT, SCHEMA, RecordError, as_table


@dataclass(frozen=True)
class BadRecord:
    """One bad row: the file holding it (a shard; ``frame`` for a DataFrame checked by
    :func:`validate`), its row there (from 0, as ``pandas.read_parquet(file).iloc[row]``), its
    match id (None if it has none) and the first thing wrong with it."""

    file: str
    row: int
    match_id: str | None
    problem: str

    def __str__(self) -> str:
        return f"{self.file} row {self.row} (match {self.match_id}): {self.problem}"


def validate(records: pd.DataFrame | pa.Table, source: str = "records") -> None:
    """Refuse (:class:`RecordError`, one line naming the first bad row) records already in
    memory — a frame of :data:`~skip_ai.record_schema.SCHEMA`'s columns (more are ignored),
    e.g. one a notebook or a server built — by the rules of :func:`problems`.
    :func:`skip_ai.records.read_records` checks what it reads already."""
    check_rows(as_table(records, source), f"refusing the {source}")


def check_rows(
    table: pa.Table, then: str, where: Callable[[int], tuple[str, int]] | None = None
) -> None:
    """Refuse (:class:`RecordError`) a table of :data:`~skip_ai.record_schema.SCHEMA` holding
    a bad row, by the rules of :func:`problems`: one line naming the first (``where`` maps a
    row to its file and row there), how many more there are, and ``then`` (what to do)."""
    bad = problems(table, where, limit=1)
    if bad:
        raise RecordError(_refusal(bad[0], _count_bad(table), then))


def problems(
    records: pd.DataFrame | pa.Table,
    where: Callable[[int], tuple[str, int]] | None = None,
    limit: int | None = None,
) -> list[BadRecord]:
    """The bad rows of ``records`` (in row order, at most ``limit``), each with the first
    thing wrong with it; ``where`` maps a row to (file, row in the file), by default
    (``frame``, the row). The rules:

    - **every row**: ``status`` is ``ok`` or ``failed``; the columns that say what was played
      (batch, code_version, match_id, game, game_name, team_game, deal, seating, seed,
      agent_a, agent_b, agents, seconds) are not null; ``game`` loads, ``game_name`` and
      ``team_game`` are the game's; ``deal`` ≥ 0; ``seating`` one of the game's
      (:func:`skip_ai.duplicate.seatings`); ``agents`` names agent A on A's seats of that
      seating and agent B on the others; ``seconds`` finite and ≥ 0;
    - **finished games** (``ok``): ``error`` empty; ``returns`` one finite number per seat
      within the game's utilities, summing to 0 in a zero-sum game and equal within each team
      of a team game; ``scores`` (may be null) finite, one per team (per seat in a game played
      each for themselves); ``score_a`` agent A's duplicate score of those returns
      (:func:`skip_ai.duplicate.score_a`, so in [0, 1]); ``winner`` the team (or seat) the
      returns make the winner, -1 when nobody won (:func:`skip_ai.sim.winners`: a team game's
      by the sign of team 0's return, a game played each for themselves by the unique highest
      return), so in [-1, teams) or [-1, seats); ``num_actions`` ≥ ``num_moves`` ≥ 0;
      ``movers``, ``mover_values``, ``value_spreads`` (may be null) one per move, the movers
      seats, the values NaN or in [0, 1]; ``actions`` (may be null) one per action, each ≥ 0;
    - **failed games**: an ``error`` says why; no result (the columns of
      :data:`~skip_ai.record_schema.RESULT` null).
    """
    table = as_table(records, "frame")
    where = where or (lambda i: ("frame", i))
    rules = _rules(table)
    if not rules:
        return []
    bad = np.zeros(table.num_rows, bool)
    for mask, _ in rules:
        bad |= mask
    rows = np.flatnonzero(bad)[:limit]
    ids = table.column("match_id")
    out = []
    for i in rows:
        problem = next(say(i) for mask, say in rules if mask[i])
        file, row = where(int(i))
        out.append(BadRecord(file, row, ids[int(i)].as_py(), problem))
    return out


def _count_bad(table: pa.Table) -> int:
    bad = np.zeros(table.num_rows, bool)
    for mask, _ in _rules(table):
        bad |= mask
    return int(bad.sum())


def _refusal(first: BadRecord, count: int, then: str) -> str:
    """The one line that refuses records: the first bad row, how many more, what to do."""
    more = f" ({count - 1} more bad row{'s' * (count != 2)})" if count > 1 else ""
    return f"bad record: {first}{more}; {then}"


@dataclass(frozen=True)
class _Game:
    """What the rules need of a game string (``error``: why it does not load)."""

    error: str = ""
    short_name: str = ""
    team_game: bool = False
    seats: int = 0
    sides: int = 0  # teams, or seats in a game played each for themselves
    teams: np.ndarray | None = None
    layouts: np.ndarray | None = None  # seating × seat: A's seats
    lo: float = 0.0
    hi: float = 0.0
    zero_sum: bool = False
    kernel: object = None


@functools.cache
def _game(game: str) -> _Game:
    import pyspiel

    import skip_ai  # noqa: F401  (registers the games)
    from skip_ai.duplicate import seatings
    from skip_ai.pyspiel_wrapper import load

    try:
        g = load(game)
    except Exception as e:  # any failure to load is the record's problem, said in its line
        return _Game(error=f"{type(e).__name__}: {e}")
    team_game = bool(g.spec.team_game)
    return _Game(
        short_name=g.spec.short_name,
        team_game=team_game,
        seats=g.num_players(),
        sides=2 if team_game else g.num_players(),
        teams=np.asarray(g.teams()),
        layouts=np.stack(seatings(g)),
        lo=float(g.min_utility()),
        hi=float(g.max_utility()),
        zero_sum=g.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM,
        kernel=g,
    )


LONG = ("actions", "movers", "mover_values", "value_spreads")
"""The list columns of one value per action or move: checked in Arrow, by row only when a
value is bad (a batch holds millions of them)."""


class _List:
    """A list column: per row its length (0 when null) and whether it is null; its values
    flattened, as numbers (``fill`` for a null value) or left in Arrow (``fill`` None), each
    with its row."""

    def __init__(self, column: pa.ChunkedArray | pa.Array, fill=None):
        array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
        self.null = array.is_null().to_numpy(zero_copy_only=False)
        self.length = pc.list_value_length(array).fill_null(0).to_numpy()
        flat = pc.list_flatten(array)
        self.values = (
            flat.fill_null(fill).to_numpy(zero_copy_only=False) if fill is not None else flat
        )
        self.rows = pc.list_parent_indices(array).to_numpy()
        self.starts = np.concatenate([[0], np.cumsum(self.length)])[:-1]

    def any(self, flat: np.ndarray, n: int) -> np.ndarray:
        """Rows holding a value where ``flat`` (per value) is True."""
        out = np.zeros(n, bool)
        out[self.rows[flat]] = True
        return out

    def matrix(self, rows: np.ndarray, width: int) -> np.ndarray:
        """The lists of ``rows`` (each of length ``width``) as a rows × width array."""
        return self.values[self.starts[rows][:, None] + np.arange(width)]


def _outside(
    column: pa.ChunkedArray, lo: float, hi: float, n: int, row_hi: np.ndarray | None = None
) -> np.ndarray:
    """Rows of a long list column holding a value below ``lo`` or above ``hi`` (or its row's
    ``row_hi``); NaN and null pass. Found from the column's least and greatest value in Arrow;
    by row only when one of them is out (a batch holds millions of such values)."""
    if column.null_count == len(column):
        return np.zeros(n, bool)
    least = pc.min_max(pc.list_flatten(column)).as_py()  # NaN left out unless all are
    top = hi if row_hi is None else min(hi, float(row_hi.min()))
    if least["min"] is None or least["min"] != least["min"]:
        return np.zeros(n, bool)
    if lo <= least["min"] and least["max"] <= top:
        return np.zeros(n, bool)
    lst = _List(column)
    v = lst.values.to_numpy(zero_copy_only=False).astype(float)
    bad = (v < lo) | (v > hi)
    if row_hi is not None:
        bad |= v > row_hi[lst.rows]
    return lst.any(bad, n)


def _first_outside(name: str, values: list, lo: float, hi: float, what: str) -> str:
    """What to say of a long list holding a value outside [lo, hi]: the first such value
    and where (the list itself may hold thousands)."""
    at, x = next(
        (k, x) for k, x in enumerate(values) if x is not None and x == x and not lo <= x <= hi
    )
    return f"{name} hold {x} at position {at}: must be {what}"


def _rules(table: pa.Table) -> list[tuple[np.ndarray, Callable[[int], str]]]:
    """Every rule of :func:`problems` as (rows breaking it, what to say of row i), in the
    order a row's first problem is named."""
    # the producer's own definitions (imported here: reading records needs no game kernel)
    from skip_ai.duplicate import score_a
    from skip_ai.sim import winners

    n = table.num_rows
    if n == 0:
        return []
    col = table.column  # as read: a chunk per shard (combining them would copy the records)
    long = {c: col(c) for c in LONG}
    lengths = {c: pc.list_value_length(long[c]).fill_null(0).to_numpy() for c in LONG}
    rules: list[tuple[np.ndarray, Callable[[int], str]]] = []

    def rule(mask: np.ndarray, say: Callable[[int], str]) -> None:
        if mask.any():
            rules.append((mask, say))

    def value(name: str, i: int):
        return col(name)[i].as_py()

    def numbers(name: str, fill) -> np.ndarray:
        return col(name).fill_null(fill).to_numpy()

    null = {
        c: (
            np.zeros(n, bool)
            if col(c).null_count == 0
            else col(c).is_null().to_numpy(zero_copy_only=False)
        )
        for c in SCHEMA.names
    }
    ok = pc.equal(col("status"), "ok").fill_null(False).to_numpy(zero_copy_only=False)
    failed = pc.equal(col("status"), "failed").fill_null(False).to_numpy(zero_copy_only=False)
    rule(~(ok | failed), lambda i: f"status {value('status', i)!r} is neither 'ok' nor 'failed'")
    for c in IDENTITY:
        rule(null[c], lambda i, c=c: f"{c} is missing (null)")

    # the game, and what follows from it
    games = col("game").dictionary_encode()  # one dictionary for every chunk
    if games.num_chunks == 0 or any(
        not c.dictionary.equals(games.chunk(0).dictionary) for c in games.chunks
    ):
        games = pa.chunked_array([col("game").combine_chunks().dictionary_encode()])
    index = pa.chunked_array([c.indices for c in games.chunks]).fill_null(-1).to_numpy()
    info = [_game(g) for g in games.chunk(0).dictionary.to_pylist()]
    loads = np.array([not x.error for x in info] + [False])[index]  # -1: the null game
    rule(
        ~loads & ~null["game"],
        lambda i: f"game {value('game', i)!r} does not load: {info[index[i]].error}",
    )
    seats = np.array([x.seats for x in info] + [0])[index]
    sides = np.array([x.sides for x in info] + [0])[index]
    team_game = np.array([x.team_game for x in info] + [False])[index]
    layouts = np.array([len(x.layouts) if x.layouts is not None else 0 for x in info] + [0])[index]
    short = np.array([x.short_name for x in info] + [""], dtype=object)[index]
    rule(
        loads & ~null["game_name"] & (col("game_name").fill_null("").to_numpy(False) != short),
        lambda i: f"game_name {value('game_name', i)!r} is not the game's ({short[i]!r})",
    )
    rule(
        loads & ~null["team_game"] & (numbers("team_game", False) != team_game),
        lambda i: (
            f"team_game is {value('team_game', i)} but {value('game', i)} is "
            f"{'a team game' if team_game[i] else 'played each for themselves'}"
        ),
    )
    deal = numbers("deal", 0)
    rule(deal < 0, lambda i: f"deal is {deal[i]}: must be ≥ 0")
    seating = numbers("seating", 0)
    good_seating = loads & ~null["seating"] & (seating >= 0) & (seating < layouts)
    rule(
        loads & ~null["seating"] & ~good_seating,
        lambda i: f"seating is {seating[i]}: {value('game', i)} has seatings 0 to {layouts[i] - 1}",
    )
    seconds = numbers("seconds", 0.0)
    rule(
        ~np.isfinite(seconds) | (seconds < 0),
        lambda i: f"seconds is {seconds[i]}: must be finite and ≥ 0",
    )

    # the agents of each seat: A's seats of the seating, B's the others
    agents = _List(col("agents"), None)
    rule(
        loads & ~null["agents"] & (agents.length != seats),
        lambda i: f"agents names {agents.length[i]} seats; {value('game', i)} has {seats[i]}",
    )
    names = pa.concat_arrays(
        [col("agent_a").combine_chunks(), col("agent_b").combine_chunks(), agents.values]
    ).cast(pa.string())
    known = pc.unique(names)
    a = (
        pc.index_in(col("agent_a").combine_chunks().cast(pa.string()), known)
        .fill_null(-1)
        .to_numpy()
    )
    b = (
        pc.index_in(col("agent_b").combine_chunks().cast(pa.string()), known)
        .fill_null(-1)
        .to_numpy()
    )
    per_seat = pc.index_in(agents.values.cast(pa.string()), known).fill_null(-2).to_numpy()
    wrong_agents = np.zeros(n, bool)
    whole_agents = good_seating & ~null["agents"] & (agents.length == seats)
    for k, x in enumerate(info):
        rows = np.flatnonzero(whole_agents & (index == k))
        if len(rows):
            have = per_seat[agents.starts[rows][:, None] + np.arange(x.seats)]
            want = np.where(x.layouts[seating[rows]], a[rows, None], b[rows, None])
            wrong_agents[rows] = (have != want).any(axis=1)
    rule(
        wrong_agents,
        lambda i: (
            f"agents {value('agents', i)} are not seating {seating[i]}'s of agent_a "
            f"{value('agent_a', i)!r} and agent_b {value('agent_b', i)!r}"
        ),
    )

    # a failed game says why, and has no result
    error = col("error").fill_null("").to_numpy(zero_copy_only=False)
    rule(failed & (error == ""), lambda i: "status failed without an error saying why")
    for c in RESULT:
        rule(failed & ~null[c], lambda i, c=c: f"status failed but {c} holds a result")
    rule(ok & (error != ""), lambda i: f"status ok but error says {error[i]!r}")

    # a finished game: its returns, then what they decide (A's score, the winner)
    for c in ("returns", "score_a", "winner", "num_actions", "num_moves"):
        rule(ok & null[c], lambda i, c=c: f"{c} is missing (null) in a finished game")
    returns = _List(col("returns"), np.nan)
    rule(
        ok & loads & ~null["returns"] & (returns.length != seats),
        lambda i: (
            f"returns {value('returns', i)} hold {returns.length[i]} values; "
            f"{value('game', i)} has {seats[i]} seats"
        ),
    )
    lo = np.array([x.lo for x in info] + [np.nan])[index]
    hi = np.array([x.hi for x in info] + [np.nan])[index]
    tol = 1e-9 * np.maximum(1.0, hi - lo)
    r, at = returns.values, returns.rows
    outside = ~np.isfinite(r) | (r < lo[at] - tol[at]) | (r > hi[at] + tol[at])
    rule(
        ok & loads & returns.any(outside, n),
        lambda i: (
            f"returns {value('returns', i)} are not finite numbers within "
            f"{value('game', i)}'s utilities [{lo[i]:g}, {hi[i]:g}]"
        ),
    )
    whole = ok & loads & ~null["returns"] & (returns.length == seats) & ~returns.any(outside, n)
    zero_sum = np.array([x.zero_sum for x in info] + [False])[index]
    total = np.bincount(at, weights=np.nan_to_num(r), minlength=n)
    rule(
        whole & zero_sum & (np.abs(total) > tol),
        lambda i: (
            f"returns {value('returns', i)} sum to {total[i]:g}; {value('game', i)} is zero-sum"
        ),
    )
    split_team = np.zeros(n, bool)
    expected_score = np.full(n, np.nan)
    expected_winner = np.full(n, -2)
    for k, x in enumerate(info):
        rows = np.flatnonzero(whole & (index == k))
        if not len(rows):
            continue
        R = returns.matrix(rows, x.seats)
        if x.team_game:
            for t in np.unique(x.teams):
                team = R[:, x.teams == t]
                split_team[rows] |= team.max(axis=1) - team.min(axis=1) > tol[rows]
        expected_winner[rows] = winners(R, x.team_game)
        for s in range(len(x.layouts)):
            mine = seating[rows] == s
            if mine.any():
                expected_score[rows[mine]] = score_a(R[mine], x.layouts[s], x.kernel)
    rule(
        split_team,
        lambda i: (
            f"returns {value('returns', i)} differ within a team of {value('game', i)} "
            "(a team shares its return)"
        ),
    )
    winner = numbers("winner", -1)
    rule(
        ok & loads & ~null["winner"] & ((winner < -1) | (winner >= sides)),
        lambda i: (
            f"winner is {winner[i]}: must be -1 (nobody) or a "
            f"{'team' if team_game[i] else 'seat'} of {value('game', i)}, 0 to {sides[i] - 1}"
        ),
    )
    rule(
        ok
        & ~null["winner"]
        & (winner >= -1)
        & (winner < sides)
        & (expected_winner > -2)
        & (winner != expected_winner),
        lambda i: (
            f"winner is {winner[i]} but the returns {value('returns', i)} make it "
            f"{expected_winner[i]} (-1: nobody; skip_ai.sim.winners)"
        ),
    )
    score = numbers("score_a", np.nan)
    rule(
        ok & ~null["score_a"] & ~((score >= 0) & (score <= 1)),
        lambda i: f"score_a is {score[i]}: must be in [0, 1]",
    )
    rule(
        ok
        & (score >= 0)
        & (score <= 1)
        & np.isfinite(expected_score)
        & (np.abs(score - expected_score) > 1e-9),
        lambda i: (
            f"score_a is {score[i]:g} but the returns {value('returns', i)} give agent A "
            f"{expected_score[i]:g} in seating {seating[i]} (skip_ai.duplicate.score_a)"
        ),
    )

    # lengths: the game's, its moves', its history's
    actions_n, moves_n = numbers("num_actions", 0), numbers("num_moves", 0)
    rule(ok & (actions_n < 0), lambda i: f"num_actions is {actions_n[i]}: must be ≥ 0")
    rule(ok & (moves_n < 0), lambda i: f"num_moves is {moves_n[i]}: must be ≥ 0")
    rule(
        ok & ~null["num_actions"] & (moves_n > actions_n),
        lambda i: (
            f"num_moves {moves_n[i]} exceeds num_actions {actions_n[i]} (every node "
            "of the game, the moves included)"
        ),
    )
    scores = _List(col("scores"), np.nan)
    rule(
        ok & loads & ~null["scores"] & (scores.length != sides),
        lambda i: (
            f"scores {value('scores', i)} hold {scores.length[i]} values; "
            f"{value('game', i)} has {sides[i]} {'teams' if team_game[i] else 'seats'}"
        ),
    )
    rule(
        ok & scores.any(~np.isfinite(scores.values), n),
        lambda i: f"scores {value('scores', i)} are not all finite",
    )
    for name, least, most, row_hi, what in (
        ("movers", 0, np.inf, np.where(loads, seats - 1, -1), "a seat of the game"),
        ("mover_values", -1e-9, 1 + 1e-9, None, "NaN or in [0, 1]"),
        ("value_spreads", -1e-9, 1 + 1e-9, None, "NaN or in [0, 1]"),
        ("actions", 0, np.inf, None, "an action id (≥ 0)"),
    ):
        counted = "num_actions" if name == "actions" else "num_moves"
        length = lengths[name]
        rule(
            ok & ~null[name] & ~null[counted] & (length != numbers(counted, 0)),
            lambda i, name=name, length=length, counted=counted: (
                f"{name} holds {length[i]} values; {counted} is {value(counted, i)}"
            ),
        )
        rule(
            ok & _outside(long[name], least, most, n, row_hi),
            lambda i, name=name, least=least, most=most, row_hi=row_hi, what=what: _first_outside(
                name,
                value(name, i),
                least,
                most if row_hi is None else min(most, row_hi[i]),
                what,
            ),
        )
    return rules
