"""Tournaments under faults: a game that kills its worker, files that agents read changed
between runs, shards of another batch, records duplicated by hand, Ctrl-C with workers."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest
from terminal import ctrl_c_works
from test_tournament import ROOT, _group_ends, records, write_config

from agents.heuristics import heuristic_module
from skip_ai.analysis import load_records
from skip_ai.pyspiel_wrapper import load
from skip_ai.tournament import StoreError, load_config, run_tournament
from skip_ai.tournament import worker as worker_module
from skip_ai.tournament.schedule import schedule
from skip_ai.tournament.store import write_atomic


def test_a_game_that_kills_its_worker_is_recorded_failed_and_the_batch_goes_on(
    tmp_path, monkeypatch
):
    cfg = load_config(write_config(tmp_path / "k", deals=6, extra="games_per_task = 4"))
    victim = sorted(s.match_id for s in schedule(cfg))[5]
    parent = os.getpid()
    play = worker_module._play

    def deadly(batch, version, s, prepared):
        if s.match_id == victim and os.getpid() != parent:
            os._exit(9)  # as a segfault in native code would: no exception, no record
        return play(batch, version, s, prepared)

    monkeypatch.setattr(worker_module, "_play", deadly)
    summary = run_tournament(cfg, workers=2, progress=False)
    assert (summary.played, summary.failed) == (12, 1)
    got = records(cfg.out)
    dead = got[got.match_id == victim].iloc[0]
    assert dead.status == "failed" and "worker process died" in dead.error
    monkeypatch.setattr(worker_module, "_play", play)
    whole = load_config(write_config(tmp_path / "w", deals=6))
    run_tournament(whole, workers=1, progress=False)
    want = records(whole.out)
    pd.testing.assert_frame_equal(
        got[got.match_id != victim].reset_index(drop=True),
        want[want.match_id != victim].reset_index(drop=True),
        check_dtype=False,
    )
    # and the batch resumes like any other: nothing left to play
    assert run_tournament(cfg, workers=2, progress=False).played == 0


def test_a_changed_file_that_an_agent_reads_is_refused_on_resume(tmp_path):
    weights = tmp_path / "w.json"
    game = load("skip_columns(players=2,deck=36)")
    tuned = {"game": str(game), "names": list(heuristic_module(game.spec.kernel).WEIGHT_NAMES)}
    weights.write_text(json.dumps({**tuned, "weights": [3.0, 0.2]}))
    path = write_config(
        tmp_path, agents={"rnd": "random", "tuned": f"heuristic(weights={weights})"}
    )
    cfg = load_config(path)
    assert cfg.identity()["files"] == {str(weights): cfg.identity()["files"][str(weights)]}
    run_tournament(cfg, progress=False)
    weights.write_text(json.dumps({**tuned, "weights": [2.0, 0.5]}))
    with pytest.raises(StoreError, match=r"different files"):
        run_tournament(load_config(path), progress=False)


def test_shards_of_another_batch_are_refused_by_name(tmp_path):
    one = load_config(write_config(tmp_path / "a", name="t", seed=5))
    other = load_config(write_config(tmp_path / "b", name="t", seed=6))
    for cfg in (one, other):
        run_tournament(cfg, progress=False)
    stray = sorted((other.out / "records").glob("*.parquet"))[0]
    shutil.copy(stray, one.out / "records" / "shard-zz.parquet")
    for shard in sorted((one.out / "records").glob("shard-[!z]*.parquet")):
        shard.unlink()
    with pytest.raises(StoreError, match="shard-zz.parquet was written by another batch"):
        run_tournament(one, progress=False)
    renamed = load_config(write_config(tmp_path / "c", name="u", seed=5))
    run_tournament(renamed, progress=False)
    stray = sorted((renamed.out / "records").glob("*.parquet"))[0]
    shutil.copy(stray, one.out / "records" / "shard-zz.parquet")
    with pytest.raises(StoreError, match="of batch 'u', not 't'"):
        run_tournament(one, progress=False)


def test_the_report_refuses_a_game_recorded_twice(tmp_path):
    cfg = load_config(write_config(tmp_path, deals=2))
    run_tournament(cfg, progress=False)
    shard = sorted((cfg.out / "records").glob("*.parquet"))[0]
    shutil.copy(shard, shard.with_name("copy.parquet"))
    with pytest.raises(ValueError, match=r"recorded twice, in .*copy.parquet and .*shard-"):
        load_records(cfg.out / "records")


def test_ctrl_c_with_workers_prints_one_line(tmp_path):
    path = write_config(
        tmp_path, deals=300, games=["skip_pyatki(players=2)"], extra="games_per_task = 2"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "skip_ai.cli", "tournament", str(path), "--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=ctrl_c_works,
    )
    shards = tmp_path / "out" / "records"
    deadline = time.monotonic() + 300
    while len(list(shards.glob("*.parquet"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)  # as the terminal sends it: to the whole group
    try:
        out, err = proc.communicate(timeout=60)
    finally:  # a batch that ignored Ctrl-C must not go on using the machine's cores
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    said = [line for line in err.splitlines() if line.strip() and "%|" not in line]
    assert len(said) == 1 and "interrupted" in said[0], err  # no worker's traceback
    assert _group_ends(proc.pid, within=15)  # and the workers are gone


def test_bad_places_are_one_clear_line(tmp_path, capsys):
    from skip_ai.cli import main

    path = write_config(tmp_path)
    (tmp_path / "out").write_text("a file where the batch folder should be")
    assert main(["tournament", str(path)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["tournament", str(tmp_path)]) == 2
    assert "is a folder, not a config file" in capsys.readouterr().err


@pytest.mark.parametrize("manifest", ["[1, 2]", '{"identity": [1]}', '{"identity": 3}', "{"])
def test_a_hand_edited_manifest_is_named(tmp_path, manifest):
    cfg = load_config(write_config(tmp_path, deals=1))
    run_tournament(cfg, progress=False)
    (cfg.out / "batch.json").write_text(manifest)
    with pytest.raises(StoreError, match="damaged manifest"):
        run_tournament(cfg, progress=False)


def test_two_writers_of_one_file_never_meet_in_its_temporary_file(tmp_path):
    """A report written beside a running study may write the same file at the same moment:
    each writer has its own temporary file, so neither fails and the file is one writer's whole
    content (with one shared temporary name, a writer renamed the other's half-written file or
    found its own gone)."""
    target = tmp_path / "evaluations.bin"
    contents = [bytes([k]) * 200_000 for k in (1, 2)]
    errors = []

    def write(content: bytes) -> None:
        try:
            for _ in range(200):
                write_atomic(target, content)
        except OSError as e:
            errors.append(e)

    threads = [threading.Thread(target=write, args=(c,)) for c in contents]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert target.read_bytes() in contents
    assert not list(tmp_path.glob(".*.tmp"))
