"""The game record: one row per played game, the unit of every batch, report and study.

Tournaments write records as Parquet shards (:func:`to_table`, :mod:`skip_ai.tournament.store`);
the analysis reads them back with pandas (:func:`skip_ai.records.read_records`, which checks
every row by :mod:`skip_ai.record_checks`). This module is the one place that says what a
record holds (:data:`SCHEMA`, with the columns a record may leave out, :data:`OPTIONAL`, and
those it must fill, :data:`IDENTITY`, or leave empty when its game failed, :data:`RESULT`) and
names the error that refuses records breaking it (:class:`RecordError`).

Columns (per seat lists are in seat order; team lists are team 0 then team 1, or per seat in
games played each for themselves):

=================  ========================================================================
``batch``          the batch's name (its config ``name``)
``code_version``   the skip-ai version and git commit the game was played with
``match_id``       unique within a batch: ``game index/pair index/deal/seating``
``game``           the full game string, every parameter spelled out
``game_name``      the game's short name (``skip_guess``)
``team_game``      True for team games, False for games played each for themselves
``deal``           the deal's number within its (game, pair of agents)
``seating``        which seating of the deal (``skip_ai.duplicate.seatings``)
``seed``           the deal's seed: every seating of a deal is dealt the same cards
``mirrored``       True when the game was dealt the deal's mirror (``skip_ai.mirror``: the
                   teams' hands swapped, colours too where they matter); null in records
                   written before this column, which were all dealt plainly
``agent_a``        the pair's first agent name; ``agent_b`` the second
``agents``         agent name per seat
``returns``        return per seat
``scores``         the rules' scores, per team (or per seat)
``score_a``        agent A's duplicate score in this game (``skip_ai.duplicate.score_a``)
``winner``         winning team (or seat); -1 when nobody won
``num_actions``    every node of the game, chance included
``num_moves``      the players' decisions
``movers``         per decision, the seat that moved
``mover_values``   per decision, the mover's own estimate of its result for the move it
                   chose (a search's root value: 0 = loss, ½ = draw, 1 = win); NaN when the
                   mover does not search or the move was forced
``value_spreads``  per decision, the mover's best root move value minus its worst (NaN
                   likewise): how much the choice mattered, in the mover's eyes
``seconds``        wall time of the game
``status``         ``ok``, or ``failed`` with the reason in ``error``
``actions``        every action id from the initial state, chance included: replaying them
                   on a new state of ``game`` gives the game again (``skip-ai serve``);
                   null for a failed game and in records written before this column
=================  ========================================================================
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

SCHEMA = pa.schema(
    [
        ("batch", pa.string()),
        ("code_version", pa.string()),
        ("match_id", pa.string()),
        ("game", pa.string()),
        ("game_name", pa.string()),
        ("team_game", pa.bool_()),
        ("deal", pa.int64()),
        ("seating", pa.int64()),
        ("seed", pa.uint64()),
        ("mirrored", pa.bool_()),
        ("agent_a", pa.string()),
        ("agent_b", pa.string()),
        ("agents", pa.list_(pa.string())),
        ("returns", pa.list_(pa.float64())),
        ("scores", pa.list_(pa.float64())),
        ("score_a", pa.float64()),
        ("winner", pa.int64()),
        ("num_actions", pa.int64()),
        ("num_moves", pa.int64()),
        ("movers", pa.list_(pa.int64())),
        ("mover_values", pa.list_(pa.float64())),
        ("value_spreads", pa.list_(pa.float64())),
        ("seconds", pa.float64()),
        ("status", pa.string()),
        ("error", pa.string()),
        ("actions", pa.list_(pa.int64())),
    ]
)


OPTIONAL = ("actions", "mirrored")
"""Columns a record may leave out (null): the history is kept when the producer has it."""

IDENTITY = (
    "batch",
    "code_version",
    "match_id",
    "game",
    "game_name",
    "team_game",
    "deal",
    "seating",
    "seed",
    "agent_a",
    "agent_b",
    "agents",
    "seconds",
)
"""The columns every record fills, failed games' too: what was played, by whom, how long."""

RESULT = ("returns", "scores", "score_a", "winner", "num_actions", "num_moves", "actions")
"""The columns a failed game leaves null: it has no result."""

FINGERPRINT_KEY = b"skip_ai.batch_fingerprint"
"""The key of a shard's Parquet metadata holding the fingerprint of the batch that wrote it
(:mod:`skip_ai.tournament.store`)."""

MANIFEST = "batch.json"
"""The batch's identity and fingerprint, beside its ``records`` folder."""


class RecordError(ValueError):
    """Records that would change a report silently: refused with one line naming where (the
    file, and for a bad row its row and match id) and what is wrong."""


def to_table(rows: list[dict]) -> pa.Table:
    """Records (dicts with every column of :data:`SCHEMA`, the :data:`OPTIONAL` ones
    aside) as an Arrow table; a missing or mistyped column is an error naming it."""
    for name in SCHEMA.names:
        missing = [i for i, r in enumerate(rows) if name not in r]
        if missing and name not in OPTIONAL:
            raise ValueError(f"record {missing[0]} has no column {name!r}")
    return pa.Table.from_pylist(rows, schema=SCHEMA)


def as_table(records: pd.DataFrame | pa.Table, source: str) -> pa.Table:
    """Records as an Arrow table of :data:`SCHEMA` (a frame's extra columns left out); a
    missing column, or one that does not convert, is a :class:`RecordError` naming it."""
    if isinstance(records, pa.Table) and records.schema.equals(SCHEMA):
        return records
    names = records.schema.names if isinstance(records, pa.Table) else list(records.columns)
    missing = [c for c in SCHEMA.names if c not in names and c not in OPTIONAL]
    if missing:
        raise RecordError(f"the records of {source} have no column {missing[0]!r}")
    columns = {}
    for field in SCHEMA:
        if field.name not in names:
            columns[field.name] = pa.nulls(len(records), field.type)
            continue
        try:
            if isinstance(records, pa.Table):
                columns[field.name] = records.column(field.name).cast(field.type)
            else:
                values = records[field.name]
                columns[field.name] = pa.array(
                    values.to_numpy(dtype=object) if values.dtype == object else values,
                    type=field.type,
                    from_pandas=True,
                )
        except (pa.ArrowException, TypeError, ValueError) as e:
            raise RecordError(
                f"the records of {source}: column {field.name!r} is not {field.type} "
                f"(skip_ai.record_schema.SCHEMA): {e}"
            ) from None
    return pa.table(columns, schema=SCHEMA)
