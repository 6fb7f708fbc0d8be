"""Reading the game records back (:data:`skip_ai.record_schema.SCHEMA` says what one holds).

Every reader goes through :func:`read_records` (``skip-ai report``, the analysis API of
notebooks, a balance study's report and its planning, ``skip-ai serve``), which refuses what
would change a report silently — a column missing or of another type, a shard of another
batch, a game recorded twice, a row whose values contradict each other (the rules of
:func:`skip_ai.record_checks.problems`) — with one line naming the file, the row, the match id
and what is wrong. This module checks the shards and the folder; :mod:`skip_ai.record_checks`
checks every row, on the Arrow table before it becomes a frame.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from skip_ai.record_checks import check_rows
from skip_ai.record_schema import FINGERPRINT_KEY, MANIFEST, OPTIONAL, SCHEMA, RecordError


def read_records(folder: str | Path) -> pd.DataFrame:
    """Every record under ``folder`` (a records folder of Parquet shards, or one file),
    checked (:func:`skip_ai.record_checks.problems` holds the rules): a bad row, a shard of
    another batch, a shard lacking a column or holding one of another type is a
    :class:`RecordError` naming the file, the row and what is wrong; a game recorded twice (a
    shard copied by hand) is an error naming both shards: it would otherwise be counted twice.
    Shards written before the ``actions`` or ``mirrored`` column read it as null. Valid records
    read as they always did: the same frame, the shards in name order and their rows in
    order."""
    path = Path(folder)
    if not path.exists():
        raise FileNotFoundError(f"no records at {path}")
    tables, files, fingerprints = [], [], []
    # the dataset finds the shards as pandas would (skipping hidden and partial files)
    for fragment in ds.dataset(path, format="parquet", schema=SCHEMA).get_fragments():
        physical = fragment.physical_schema
        _check_columns(fragment.path, physical)
        table = fragment.to_table(schema=SCHEMA)
        tables.append(table)
        files.append((fragment.path, table.num_rows))
        fingerprints.append((physical.metadata or {}).get(FINGERPRINT_KEY))
    table = pa.concat_tables(tables or [SCHEMA.empty_table()])
    where = _Origin(files)
    _check_batch(path, table, where, fingerprints)
    check_rows(table, f"refusing the records at {path}: mend the shard, or move it out", where)
    df = table.to_pandas()
    again = df.duplicated(["batch", "match_id"]).to_numpy()
    if again.any():
        match_id = df.match_id.iloc[again.argmax()]
        first, second = [where(i)[0] for i in (df.match_id == match_id).to_numpy().nonzero()[0][:2]]
        raise ValueError(
            f"game {match_id} is recorded twice, in {first} and {second}: move "
            f"the copy out of {path}"
        )
    return df


class _Origin:
    """Row number in the concatenated records → (file, row in the file)."""

    def __init__(self, files: list[tuple[str, int]]):
        self.files = [f for f, _ in files]
        self.starts = np.cumsum([0] + [n for _, n in files])

    def __call__(self, i: int) -> tuple[str, int]:
        k = int(np.searchsorted(self.starts, i, side="right")) - 1
        return self.files[k], i - int(self.starts[k])


def _kind(t: pa.DataType) -> str:
    """A type's kind: the schema is checked by kind (a string stored as large_string, an int64
    as int32, reads the same); a column of nulls (type null) fits any."""
    if pa.types.is_null(t):
        return "null"
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_integer(t):
        return "integer"
    if pa.types.is_floating(t):
        return "float"
    if pa.types.is_boolean(t):
        return "bool"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t):
        return f"list<{_kind(t.value_type)}>"
    return str(t)


def _check_columns(file: str, physical: pa.Schema) -> None:
    """A shard holds every column of :data:`~skip_ai.record_schema.SCHEMA` (the
    :data:`~skip_ai.record_schema.OPTIONAL` ones aside), each of its type."""
    if physical.equals(SCHEMA, check_metadata=False):
        return  # as the store writes them: quick to tell
    for field in SCHEMA:
        if field.name not in physical.names:
            if field.name in OPTIONAL:
                continue
            raise RecordError(
                f"bad shard: {file} has no column {field.name!r} (skip_ai.record_schema.SCHEMA); "
                "move it out of the records"
            )
        have = physical.field(field.name).type
        if _kind(have) not in (_kind(field.type), "null"):
            raise RecordError(
                f"bad shard: {file} column {field.name!r} holds {have}, not {field.type} "
                "(skip_ai.record_schema.SCHEMA); move it out of the records"
            )


def _check_batch(
    path: Path, table: pa.Table, where: _Origin, fingerprints: list[bytes | None]
) -> None:
    """One batch per folder: every row's ``batch`` the same, and every shard's fingerprint
    (written by :mod:`skip_ai.tournament.store`) the same — the ones of ``batch.json`` beside
    the records folder, when it is there (the resume path refuses the same shards)."""
    manifest = path.parent / MANIFEST if path.is_dir() else None
    name = fingerprint = None
    if manifest is not None and manifest.is_file():
        try:
            content = json.loads(manifest.read_text())
            name, fingerprint = content["identity"]["name"], content["fingerprint"]
        except (ValueError, KeyError, TypeError, OSError) as e:
            raise RecordError(f"damaged manifest {manifest}: {e}") from None
    batches = table.column("batch")
    if table.num_rows:
        names = pc.unique(batches.drop_null()).to_pylist()
        reference = name if name is not None else (names[0] if names else None)
        other = [b for b in names if b != reference]
        if other:
            i = int(np.flatnonzero(pc.equal(batches, other[0]).to_numpy(zero_copy_only=False))[0])
            file, row = where(i)
            if name is not None:
                said = f"the batch of {manifest} is {name!r}"
            else:
                first = int(np.flatnonzero(pc.equal(batches, reference).to_numpy(False))[0])
                said = f"{where(first)[0]} holds batch {reference!r}"
            raise RecordError(
                f"{file} holds games of batch {other[0]!r} (row {row}), but {said}: a "
                f"report reads one batch; move the other batch's shards out of {path}"
            )
    shards = [(file, fp) for file, fp in zip(where.files, fingerprints) if fp is not None]
    if fingerprint is not None:
        reference, source = fingerprint.encode(), str(manifest)
    elif shards:
        reference, source = shards[0][1], shards[0][0]
    else:
        return
    for file, written_by in shards:
        if written_by != reference:
            raise RecordError(
                f"{file} was written by another batch (fingerprint {written_by.decode()}; "
                f"{source}'s is {reference.decode()}): a report reads one batch; move it out "
                f"of {path}"
            )
