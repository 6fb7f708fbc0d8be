"""A training run's chunks played in parts (``parts = P``): each part its own games, learned in
part order; the same models in one process, on local actor processes and on Ray; resume; the
checks of the backend (the config's ``parts`` and ``actors``: ``test_dmc``)."""

import os
import signal
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from test_dmc import GAME, TINY, q_model

from skip_ai.cli import main
from skip_ai.pyspiel_wrapper import load
from skip_ai.training import run_training
from skip_ai.training.actors import InProcess, chunk_players
from skip_ai.training.chunks import Chunk, play_chunk
from skip_ai.training.config import PART_SHIFT, load_train_config
from skip_ai.training.run import State, _start, _submit


def _config(tmp_path, name, actors=0, parts=2, decisions=16_000):
    path = tmp_path / f"{name}.toml"
    text = TINY.format(game=GAME, actors=actors, out=tmp_path / name)
    text = text.replace("decisions = 40_000", f"decisions = {decisions}")
    path.write_text(text + f"parts = {parts}\n")
    return path


def _params(tmp_path, name):
    with np.load(tmp_path / name / "model.npz") as z:
        return {k: z[k] for k in z.files}


def _same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_each_part_plays_its_own_games_from_its_own_count(tmp_path):
    """Part ``j`` of a chunk plays from game ``j << PART_SHIFT`` plus the games it has already
    played, ``chunk // parts`` samples, and the chunk is the parts in order."""
    config = load_train_config(_config(tmp_path, "p", parts=2))
    game = load(GAME)
    net = q_model(game)
    dims, params = net.dims, net.params
    parts = [p.result() for p in _submit(InProcess().submit, config, [3, 5], dims, params, 0)]
    eps = config.eps(0)
    for j, start in enumerate((3, (1 << PART_SHIFT) + 5)):
        alone = play_chunk(GAME, config.seed, start, 4_000, dims, params, eps)
        assert np.array_equal(parts[j].obs, alone.obs)
        assert np.array_equal(parts[j].actions, alone.actions) and parts[j].games == alone.games
    whole = Chunk.concat(parts, game.obs_size)
    assert np.array_equal(whole.actions, np.concatenate([p.actions for p in parts]))
    assert whole.games == parts[0].games + parts[1].games


def test_the_models_do_not_depend_on_who_plays_the_parts(tmp_path):
    """In the learner's process or on two actor processes: the same models bit for bit; with
    one part instead of two, other models (the parts are the run's, not the machine's)."""
    run_training(load_train_config(_config(tmp_path, "here", actors=0)), progress=False)
    run_training(load_train_config(_config(tmp_path, "two", actors=2)), progress=False)
    run_training(load_train_config(_config(tmp_path, "one", parts=1)), progress=False)
    here, two = _params(tmp_path, "here"), _params(tmp_path, "two")
    assert _same(here, two)
    assert not _same(here, _params(tmp_path, "one"))
    with np.load(tmp_path / "two" / "checkpoint.npz") as z:
        assert z["next_games"].shape == (2,) and (z["next_games"] > 0).all()


def test_a_run_in_parts_resumes_to_the_same_end_and_refuses_other_parts(tmp_path):
    run_training(load_train_config(_config(tmp_path, "whole", decisions=24_000)), progress=False)
    short = _config(tmp_path, "cut", decisions=8_000)
    run_training(load_train_config(short), progress=False)
    longer = _config(tmp_path, "cut", decisions=24_000)  # the same folder, a larger budget
    run_training(load_train_config(longer), progress=False)
    assert _same(_params(tmp_path, "whole"), _params(tmp_path, "cut"))
    other = _config(tmp_path, "cut", parts=4, decisions=24_000)
    with pytest.raises(ValueError, match=r"different config \(changed: parts\)"):
        run_training(load_train_config(other), progress=False)


def test_a_checkpoint_from_before_the_parts_resumes_as_one_part(tmp_path):
    """Old checkpoints keep the one part's game count in ``counters`` only."""
    config = load_train_config(_config(tmp_path, "old", parts=1, decisions=8_000))
    run_training(config, progress=False)
    path = tmp_path / "old" / "checkpoint.npz"
    with np.load(path) as z:
        kept = {k: z[k] for k in z.files if k != "next_games"}
        games = z["next_games"]
    np.savez(path, **kept)
    state = _start(config, load(GAME))
    assert np.array_equal(state.next_games, games) and state.next_games.shape == (1,)
    with pytest.raises(ValueError, match="another number of parts"):
        State.load(path, state.net, 2)


def test_a_bad_backend_or_an_address_without_ray_is_refused():
    with pytest.raises(ValueError, match="backend must be one of local, ray"):
        chunk_players("spark", 1, 1)
    with pytest.raises(ValueError, match="--address is for --backend ray"):
        chunk_players("local", 1, 1, address="auto")


def test_without_ray_the_ray_backend_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    path = _config(tmp_path, "r")
    assert main(["train", str(path), "--backend", "ray"]) == 2
    assert "pip install 'skip-ai[ray]'" in capsys.readouterr().err


def test_ray_plays_the_parts_to_the_same_models(tmp_path):
    """The parts as Ray tasks on a local Ray with two CPUs: the models of the learner's own
    process, bit for bit."""
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    ray_run = load_train_config(_config(tmp_path, "ray", actors=2))
    run_training(ray_run, progress=False, backend="ray")
    assert not ray.is_initialized()  # the local Ray it started is stopped
    run_training(load_train_config(_config(tmp_path, "here", actors=0)), progress=False)
    assert _same(_params(tmp_path, "ray"), _params(tmp_path, "here"))


def _kill_one_part(killed: list[int], stop: threading.Event) -> None:
    """SIGKILL the first Ray worker seen playing a chunk part."""
    while not stop.is_set() and not killed:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                title = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(b"ray::play_chunk"):
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
                return
        time.sleep(0.01)


@pytest.mark.slow
def test_a_part_whose_ray_worker_is_killed_is_played_again_to_the_same_models(tmp_path):
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    killed: list[int] = []
    stop = threading.Event()
    killer = threading.Thread(target=_kill_one_part, args=(killed, stop))
    killer.start()
    try:
        config = load_train_config(_config(tmp_path, "ray", actors=2, decisions=40_000))
        run_training(config, progress=False, backend="ray")
    finally:
        stop.set()
        killer.join()
    assert killed, "no worker playing a part was found to kill"
    run_training(load_train_config(_config(tmp_path, "here", decisions=40_000)), progress=False)
    assert _same(_params(tmp_path, "ray"), _params(tmp_path, "here"))
