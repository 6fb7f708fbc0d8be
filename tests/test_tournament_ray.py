"""The tournament on Ray (a local Ray with 2 CPUs): the local pool's records, resume after the
driver is killed (on the other backend), a killed worker retried, a game that kills its
worker twice recorded as failed, the message when Ray is missing."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_tournament import ROOT, _group_ends, records, write_config

from agents.factory import AGENTS
from skip_ai.cli import main
from skip_ai.records import read_records
from skip_ai.tournament import load_config, run_tournament

TESTS = Path(__file__).resolve().parent
GAMES = ["skip_columns(players=2,deck=36)", "skip_pyatki(players=3)"]


def test_without_ray_the_backend_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    path = write_config(tmp_path)
    assert main(["tournament", str(path), "--backend", "ray"]) == 2
    assert "pip install 'skip-ai[ray]'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing begun


ray = pytest.importorskip("ray")


# Ray's two agent processes outlive a killed driver's local Ray (idle; `ray stop` ends them)
IDLE_LEFTOVERS = (b"ray::DashboardAgent", b"ray::RuntimeEnvAgent")


def _group(pgid: int) -> list[tuple[int, bytes]]:
    """(pid, command line) of the live processes of a process group."""
    found = []
    for pid in map(int, filter(str.isdigit, os.listdir("/proc"))):
        try:
            if os.getpgid(pid) == pgid:
                found.append((pid, Path(f"/proc/{pid}/cmdline").read_bytes()))
        except OSError:
            continue
    return found


def _only_idle_leftovers(pgid: int, within: float) -> bool:
    """Whether every process of the group but Ray's idle agents ends in time (the group is
    killed afterwards either way)."""
    deadline = time.monotonic() + within
    while (
        busy := [c for _, c in _group(pgid) if not c.startswith(IDLE_LEFTOVERS)]
    ) and time.monotonic() < deadline:
        time.sleep(0.2)
    _group_ends(pgid, within=0)
    return not busy


@pytest.mark.slow
def test_resume_after_the_ray_driver_is_killed_on_the_local_pool(tmp_path):
    # first in the file: no Ray of this process runs yet, the driver starts its own
    killed = write_config(tmp_path / "k", games=GAMES, deals=150, extra="games_per_task = 4")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "skip_ai.cli",
            "tournament",
            str(killed),
            "--backend",
            "ray",
            "--workers",
            "2",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    shards = tmp_path / "k" / "out" / "records"
    deadline = time.monotonic() + 180
    while len(list(shards.glob("*.parquet"))) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    assert _only_idle_leftovers(proc.pid, within=30)  # its Ray's workers leave with it
    total = 2 * 150 + 3 * 150
    partial = len(read_records(shards))
    assert 0 < partial < total  # the kill did land mid-batch

    s = run_tournament(load_config(killed), workers=2, progress=False)
    assert partial <= s.before and s.before + s.played == total  # the journal's games too
    resumed = records(tmp_path / "k" / "out")
    whole = load_config(write_config(tmp_path / "w", games=GAMES, deals=150))
    run_tournament(whole, workers=1, progress=False)
    assert resumed.match_id.is_unique and resumed.equals(records(whole.out))


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray with 2 CPUs whose workers know the killer agent; the runner uses it."""
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])
    )
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level="warning",
        runtime_env={"worker_process_setup_hook": "ray_helpers.register_killer"},
    )
    yield
    ray.shutdown()


def test_ray_gives_the_local_pools_records_and_shards(tmp_path, local_ray):
    on_ray = load_config(
        write_config(tmp_path / "r", games=GAMES, deals=4, extra="games_per_task = 3")
    )
    s = run_tournament(on_ray, backend="ray", progress=False)
    local = load_config(
        write_config(tmp_path / "l", games=GAMES, deals=4, extra="games_per_task = 3")
    )
    run_tournament(local, workers=2, progress=False)
    assert (s.played, s.failed) == (20, 0)
    assert records(on_ray.out).equals(records(local.out))
    names = [sorted(p.name for p in (c.out / "records").glob("*")) for c in (on_ray, local)]
    assert names[0] == names[1]  # the same shards: the same tasks


def _kill_a_busy_worker(shards: Path, killed: list[int]) -> None:
    """Once the batch is under way, SIGKILL a Ray worker while it runs a task."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not killed:
        if list(shards.glob("*.parquet")):
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    title = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if title.startswith(b"ray::play_games"):
                    os.kill(int(pid), signal.SIGKILL)
                    killed.append(int(pid))
                    return
        time.sleep(0.02)


@pytest.mark.slow
def test_a_worker_killed_mid_batch_is_retried_and_the_batch_completes(tmp_path, local_ray):
    cfg = load_config(
        write_config(tmp_path / "r", games=GAMES, deals=60, extra="games_per_task = 10")
    )
    killed: list[int] = []
    killer = threading.Thread(target=_kill_a_busy_worker, args=(cfg.out / "records", killed))
    killer.start()
    s = run_tournament(cfg, backend="ray", progress=False)
    killer.join()
    assert killed, "no busy worker was found to kill"
    assert (s.played, s.failed) == (5 * 60, 0)
    whole = load_config(write_config(tmp_path / "l", games=GAMES, deals=60))
    run_tournament(whole, workers=1, progress=False)
    assert records(cfg.out).equals(records(whole.out))


@pytest.mark.slow
def test_a_game_that_kills_its_worker_twice_is_recorded_as_failed(tmp_path, local_ray, monkeypatch):
    from ray_helpers import KILLER, register_killer

    monkeypatch.setitem(AGENTS, KILLER, None)  # restored after the test
    register_killer()  # the config builds every agent once here
    cfg = load_config(
        write_config(
            tmp_path,
            deals=2,
            extra="games_per_task = 4",
            agents={"rnd": "random", "killer": KILLER},
        )
    )
    s = run_tournament(cfg, backend="ray", progress=False)
    df = records(cfg.out)
    assert (s.played, s.failed, len(df)) == (4, 2, 4)
    failed = df[df.status == "failed"]
    assert [list(a) for a in failed.agents] == [["killer", "rnd"]] * 2  # killer at seat 0
    assert failed.error.str.startswith("WorkerCrashedError").all()
    assert failed.returns.isna().all() and (df[df.status == "ok"].num_moves > 0).all()
