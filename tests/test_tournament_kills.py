"""Kill -9 at random moments: a tournament killed and resumed several times records what one
run straight through records, and plays again only the games that were unfinished at a kill.

Each run is a subprocess whose workers log every game they finish (:data:`PLAY`); after a
kill, the games recorded are what the next run finds (its store's recovery included,
:data:`RECORDED`). A finished game is *lost* by a kill if it is not recorded after it: it will
be played again. With the journal (:mod:`skip_ai.tournament.store`) a game is kept as soon as
its record reaches the runner, so only a game whose record was still on its way from the
worker at the kill can be lost; before it, every finished game of the tasks in flight was.
``measure`` is also the measurement behind the numbers in docs/tournaments.md; to measure
another checkout, give ``env`` with it first on ``PYTHONPATH`` and point this module's ``ROOT``
(the runs' working folder) outside this repository.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_tournament import ROOT, _group_ends, records, write_config

from skip_ai.tournament import load_config, run_tournament

# a run of the batch whose workers append each game they finish to a log (one short line,
# one write: whole or absent)
PLAY = """
import sys
from skip_ai.tournament import worker
from skip_ai.cli import main

config, log, workers = sys.argv[1:4]
play = worker._play

def logged(batch, version, s, prepared):
    row = play(batch, version, s, prepared)
    with open(log, "a") as f:
        f.write(s.match_id + "\\n")
    return row

worker._play = logged
sys.exit(main(["tournament", config, "--workers", workers]))
"""

# the games a run of the batch would find recorded (the store recovers what a kill left)
RECORDED = """
import json, sys
from skip_ai.tournament import load_config
from skip_ai.tournament.store import RecordStore

cfg = load_config(sys.argv[1])
store = RecordStore(cfg.out)
store.open(cfg, "count")
try:
    print(json.dumps(sorted(store.done_ids())))
finally:
    store.close()
"""

GAMES = ["skip_columns(players=2,deck=36)", "skip_pyatki(players=2)"]
AGENTS = {"rnd": "random", "heur": "heuristic", "mcts": "ismcts(iterations=200)"}
WORKERS = 2
WARM = 10  # a kill falls after this many games of its run: not while its kernels load


@dataclass
class Kill:
    at: float  # seconds after the run's WARM-th finished game
    landed: bool  # the batch was not over yet
    finished: int  # games the run's workers finished
    lost: int  # of those, not recorded after the kill


def _python(script: str, *args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args], cwd=ROOT, env=env, start_new_session=True, **kw
    )


def _logged(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def measure(config: Path, kills: int, rng: random.Random, span: float, env=None):
    """Run the batch of ``config`` to its end, killing the run (every process of it, with
    SIGKILL) ``kills`` times at a moment drawn uniformly in ``span`` seconds after its
    :data:`WARM`-th finished game. The kills and every run's finished games, in order."""
    runs: list[list[str]] = []
    measured = []
    for k in range(kills + 1):
        log = config.parent / f"played-{k}.log"
        proc = _python(PLAY, str(config), str(log), str(WORKERS), env=env)
        if k == kills:
            assert proc.wait(timeout=1200) == 0
            runs.append(_logged(log))
            break
        deadline = time.monotonic() + 600
        while len(_logged(log)) < WARM and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        at = rng.uniform(0, span)
        time.sleep(at)
        landed = proc.poll() is None
        if landed:
            os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers at once
        proc.wait()
        assert _group_ends(proc.pid, within=15)
        finished = _logged(log)
        count = _python(RECORDED, str(config), env=env, stdout=subprocess.PIPE, text=True)
        recorded = set(json.loads(count.communicate(timeout=600)[0]))
        runs.append(finished)
        measured.append(Kill(at, landed, len(finished), len(set(finished) - recorded)))
    return measured, runs


QUICK = {"rnd": "random", "heur": "heuristic"}  # games of a few ms, no search to compile


@pytest.mark.parametrize(
    "kills, deals, agents, span",
    [
        (3, 400, QUICK, 1.0),
        pytest.param(10, 150, AGENTS, 3.0, marks=pytest.mark.slow),
    ],
)
def test_kills_at_random_moments_lose_no_finished_game(tmp_path, kills, deals, agents, span):
    extra = "games_per_task = 25"  # shards far larger than what is in flight at a kill
    config = write_config(tmp_path / "k", games=GAMES, agents=agents, deals=deals, extra=extra)
    seed = random.randrange(1 << 30)
    measured, runs = measure(config, kills, random.Random(seed), span)
    print(f"seed {seed}: {measured}")
    pairs = len(agents) * (len(agents) - 1) // 2
    total = len(GAMES) * pairs * deals * 2
    assert any(k.landed for k in measured), "no kill landed mid-batch"
    # (b) only a game on its way to the runner at a kill may be lost: at most the games in
    # flight, never a shard's worth (before the journal, every finished game of the tasks
    # in flight was lost: up to 2 tasks per worker of 25 games each)
    assert all(k.lost <= 2 * WORKERS for k in measured), measured
    played = Counter(match_id for run in runs for match_id in run)
    assert sum(played.values()) == total + sum(k.lost for k in measured)
    assert sum(n - 1 for n in played.values()) == sum(k.lost for k in measured)
    # (a) the records of the whole batch, run straight through on one worker
    whole = load_config(
        write_config(tmp_path / "w", games=GAMES, agents=agents, deals=deals, extra=extra)
    )
    run_tournament(whole, workers=1, progress=False)
    assert records(load_config(config).out).equals(records(whole.out))
