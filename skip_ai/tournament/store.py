"""A batch's folder: its manifest and its records as Parquet shards.

``OUT/batch.json`` holds the config's identity (what the records depend on) and its
fingerprint; a batch is only ever continued with the same identity. ``OUT/records/`` holds the
shards: each is written to a hidden temporary name and renamed once complete, so a shard under
its own name is always whole and readers (``pandas.read_parquet`` skips names starting with a
dot) never see a partial one. Each shard carries the batch's fingerprint in its Parquet
metadata. The match ids in the complete shards are the batch's progress: resuming skips
exactly those games, and refuses a shard of another batch.

Between shards, every finished game is appended to ``OUT/records/.journal`` as soon as it
arrives, one checked frame per game (its length, a CRC-32, its record as an Arrow IPC
stream): a killed run loses no game whose record reached it. The next run turns the
journal's whole frames into a shard before it plays anything (a frame cut short by the kill
is dropped: its game was never recorded, and is played again); a run that ends, even by
Ctrl-C, leaves no journal.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
import struct
import threading
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from skip_ai.record_schema import FINGERPRINT_KEY, MANIFEST, to_table
from skip_ai.tournament.config import BatchConfig

JOURNAL = ".journal"
"""The finished games not yet in a shard, under ``OUT/records`` (hidden from readers)."""
_FRAME = struct.Struct("<QI")  # a journal frame's head: the record's length and CRC-32


class StoreError(ValueError):
    """A batch folder that cannot be continued safely, with the reason."""


def fingerprint(identity: dict) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def read_identity(manifest: Path) -> dict:
    """The identity a batch folder's manifest (``OUT/batch.json``) holds; a damaged one is a
    :class:`StoreError` naming it."""
    try:
        before = json.loads(manifest.read_text())["identity"]
        if not isinstance(before, dict):
            raise TypeError(f"'identity' is a {type(before).__name__}, not a table")
    except (ValueError, KeyError, TypeError) as e:
        raise StoreError(f"damaged manifest {manifest}: {e}") from None
    return before


def changed_fields(before: dict, identity: dict) -> list[str]:
    """The fields of two identities that differ."""
    return [k for k in sorted(set(identity) | set(before)) if before.get(k) != identity.get(k)]


def check_identity(out: str | Path, config: BatchConfig, what: str = "batch") -> None:
    """Refuse, in one line, to read the folder ``out`` as the batch (or study) ``config``
    describes unless its manifest holds that identity: without the check a folder of another
    batch would be read under this config's names (the reading side of :meth:`RecordStore.open`,
    which refuses to continue it)."""
    out = Path(out)
    manifest = out / MANIFEST
    if not manifest.is_file():
        raise StoreError(
            f"{out} holds no {what} begun with this config: {manifest} is missing "
            f"(give the {what}'s own folder, or run the {what} to begin it there)"
        )
    before, identity = read_identity(manifest), config.identity()
    if fingerprint(before) != fingerprint(identity):
        changed = changed_fields(before, identity)
        raise StoreError(
            f"{out} holds another {what} ({before.get('name', '?')!r}: its {manifest.name} "
            f"differs from this config in {', '.join(changed) or 'its fields'}); give that "
            f"{what}'s config, or the folder of this one"
        )


class RecordStore:
    """The folder ``out`` of one batch."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.records = self.out / "records"
        self.journal = self.records / JOURNAL
        self._lock_file = None
        self._name = ""
        self._fingerprint = ""
        self._journal_file: io.BufferedWriter | None = None
        self._kept: dict[str, bytes] = {}  # match id → its journal frame, until in a shard

    def open(self, config: BatchConfig, code_version: str) -> None:
        """Start the batch here, or check that it is the one begun here; forget partial
        shards left by an interrupted run, and write the games of its journal as a shard."""
        self._lock(config)
        manifest = self.out / MANIFEST
        identity = config.identity()
        self._name, self._fingerprint = config.name, fingerprint(identity)
        if manifest.exists():
            self._check_manifest(manifest, identity)
        elif self.records.exists() and any(self.records.glob("*.parquet")):
            raise StoreError(
                f"{self.records} holds records but {manifest} is missing: "
                "this folder was not begun by this batch; choose another 'out'"
            )
        else:
            self.records.mkdir(parents=True, exist_ok=True)
            write_atomic(
                manifest,
                json.dumps(
                    {
                        "fingerprint": fingerprint(identity),
                        "identity": identity,
                        "code_version": code_version,
                        "created": datetime.now(UTC).isoformat(timespec="seconds"),
                    },
                    indent=2,
                ).encode(),
            )
        for partial in self.records.glob(".*.tmp"):
            partial.unlink()
        self._recover()

    def _recover(self) -> None:
        """The journal of a killed run: its whole frames, less the games already in a shard
        (a run killed between writing a shard and shortening the journal), become a shard."""
        if not self.journal.exists():
            return
        done = self.done_ids()
        games = _read_frames(self.journal.read_bytes())
        left = [t for t in games if t["match_id"][0].as_py() not in done]
        if left:
            self._write_table(pa.concat_tables(left).combine_chunks())
        self.journal.unlink()

    def _lock(self, config: BatchConfig) -> None:
        """Hold ``OUT/.lock`` while running: two runs of one batch would play the same games
        twice. The system releases the lock when the process ends, however it ends."""
        if self.out.exists() and not self.out.is_dir():
            raise StoreError(f"'out' {self.out} is a file, not a folder: choose another 'out'")
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            self._lock_file = open(self.out / ".lock", "w")
        except OSError as e:
            raise StoreError(f"cannot write the batch to {self.out}: {e.strerror or e}") from None
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.close()
            raise StoreError(
                f"another run of batch {config.name!r} is writing to {self.out}; "
                "wait for it to finish (or stop it) first"
            ) from None

    def close(self) -> None:
        """Write the games kept in the journal as a shard (a run stopped early) and let
        another run continue the batch."""
        if self._kept:
            kept = _read_frames(b"".join(self._kept.values()))
            self._write_table(pa.concat_tables(kept).combine_chunks())
            self._kept.clear()
        if self._journal_file is not None:
            self._journal_file.close()
            self._journal_file = None
            self.journal.unlink(missing_ok=True)
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None

    def _check_manifest(self, manifest: Path, identity: dict) -> None:
        before = read_identity(manifest)
        if fingerprint(before) != fingerprint(identity):
            changed = changed_fields(before, identity)
            raise StoreError(
                f"the config changed since the batch in {self.out} began (different "
                f"{', '.join(changed) or 'fields'}); refusing to mix two experiments. "
                f"Restore the config, or give a new 'out' to start another batch"
            )

    def shards(self) -> list[Path]:
        """The complete shards, in name order."""
        return sorted(self.records.glob("[!.]*.parquet"))

    def done_ids(self) -> set[str]:
        """The match ids of every recorded game. A shard that cannot be read, or that another
        batch wrote, is an error naming it; a game recorded twice is an error naming both
        shards."""
        seen: dict[str, Path] = {}
        for shard in self.shards():
            try:
                table = pq.read_table(shard, columns=["match_id", "batch"])
                ids = table.column("match_id").to_pylist()
            except (pa.ArrowException, OSError, KeyError) as e:
                raise StoreError(
                    f"damaged shard {shard}: {e}. Move it out of {self.records} "
                    "and run again to play its games again"
                ) from None
            self._check_ours(shard, table)
            for match_id in ids:
                if match_id in seen:
                    raise StoreError(
                        f"game {match_id} is recorded twice, in {seen[match_id]} and {shard}"
                    )
                seen[match_id] = shard
        return set(seen)

    def _check_ours(self, shard: Path, table: pa.Table) -> None:
        """A shard of another batch (copied in by hand) would pass for this batch's games."""
        batches = set(table.column("batch").to_pylist()) - {self._name}
        written_by = (table.schema.metadata or {}).get(FINGERPRINT_KEY)
        if batches:
            raise StoreError(
                f"{shard} holds games of batch {sorted(batches)[0]!r}, not "
                f"{self._name!r}: move it out of {self.records}"
            )
        if written_by is not None and written_by.decode() != self._fingerprint:
            raise StoreError(
                f"{shard} was written by another batch (fingerprint "
                f"{written_by.decode()}, this batch's is {self._fingerprint}): "
                f"move it out of {self.records}"
            )

    def keep(self, row: dict) -> None:
        """Append one finished game's record to the journal, at once (see the module)."""
        frame = _frame(to_table([row]))
        if self._journal_file is None:
            self._journal_file = open(self.journal, "ab")
        self._journal_file.write(frame)
        self._journal_file.flush()  # in the system's hands: a killed process loses nothing
        self._kept[row["match_id"]] = frame

    def write(self, rows: list[dict]) -> Path:
        """Write records as a shard named after the first one's game, and drop them from
        the journal (the shard first: a kill in between leaves a game twice, which the next
        run's recovery drops, never none)."""
        path = self._write_table(to_table(rows))
        kept = len(self._kept)
        for row in rows:
            self._kept.pop(row["match_id"], None)
        if self._journal_file is not None and len(self._kept) < kept:
            self._journal_file.close()
            write_atomic(self.journal, b"".join(self._kept.values()))
            self._journal_file = open(self.journal, "ab")
        return path

    def _write_table(self, table: pa.Table) -> Path:
        name = "shard-" + table["match_id"][0].as_py().replace("/", "-") + ".parquet"
        path = self.records / name
        metadata = {**(table.schema.metadata or {}), FINGERPRINT_KEY: self._fingerprint.encode()}
        write_atomic(path, table.replace_schema_metadata(metadata))
        return path


def _frame(table: pa.Table) -> bytes:
    """One journal frame: the length and CRC-32 of ``table`` as an Arrow IPC stream, then it."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    payload = sink.getvalue().to_pybytes()
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def _read_frames(data: bytes) -> Iterator[pa.Table]:
    """The tables of a journal's whole frames, up to the first one cut short or damaged."""
    at = 0
    while at + _FRAME.size <= len(data):
        size, crc = _FRAME.unpack_from(data, at)
        payload = data[at + _FRAME.size : at + _FRAME.size + size]
        if len(payload) < size or zlib.crc32(payload) != crc:
            return
        yield pa.ipc.open_stream(payload).read_all()
        at += _FRAME.size + size


def write_atomic(path: Path, content: bytes | pa.Table) -> None:
    """Write to a hidden temporary file next to ``path``, then rename: a killed process
    leaves either nothing or the whole file. (No fsync: it cost ~5 ms a shard, 4% of a batch
    of fast games; only an OS crash could then leave a damaged shard, which a resume reports
    by name.) The temporary file is this process's and thread's own: a report written beside
    a running study (``--report-to``) may write the same file at the same moment."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    if isinstance(content, pa.Table):
        pq.write_table(content, tmp)
    else:
        tmp.write_bytes(content)
    os.replace(tmp, path)
