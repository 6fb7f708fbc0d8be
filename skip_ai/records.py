"""The game record: one row per played game, the unit of every batch, report and study.

Tournaments write records as Parquet shards; the analysis reads them back with pandas. This
module is the one place that says what a record holds (:data:`SCHEMA`) and checks it.

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

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds

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


def to_table(rows: list[dict]) -> pa.Table:
    """Records (dicts with every column of :data:`SCHEMA`, the :data:`OPTIONAL` ones
    aside) as an Arrow table; a missing or mistyped column is an error naming it."""
    for name in SCHEMA.names:
        missing = [i for i, r in enumerate(rows) if name not in r]
        if missing and name not in OPTIONAL:
            raise ValueError(f"record {missing[0]} has no column {name!r}")
    return pa.Table.from_pylist(rows, schema=SCHEMA)


def read_records(folder: str | Path) -> pd.DataFrame:
    """Every record under ``folder`` (a records folder of Parquet shards, or one file);
    shards written before the ``actions`` column read it as null. A game recorded twice (a
    shard copied by hand) is an error naming both shards: it would otherwise be counted
    twice."""
    path = Path(folder)
    if not path.exists():
        raise FileNotFoundError(f"no records at {path}")
    tables, origin = [], []
    # the dataset finds the shards as pandas would (skipping hidden and partial files)
    for fragment in ds.dataset(path, format="parquet", schema=SCHEMA).get_fragments():
        table = fragment.to_table(schema=SCHEMA)
        tables.append(table)
        origin += [fragment.path] * table.num_rows
    df = pa.concat_tables(tables or [SCHEMA.empty_table()]).to_pandas()
    again = df.duplicated(["batch", "match_id"]).to_numpy()
    if again.any():
        match_id = df.match_id.iloc[again.argmax()]
        first, second = [origin[i] for i in (df.match_id == match_id).to_numpy().nonzero()[0][:2]]
        raise ValueError(
            f"game {match_id} is recorded twice, in {first} and {second}: move "
            f"the copy out of {path}"
        )
    return df
