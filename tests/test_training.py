"""skip-ai train (a tiny run completes, resumes after a crash, refuses a changed config) and
heuristic tuning."""

import json

import numpy as np
import pandas as pd
import pyspiel
import pytest

from agents import make_agent
from agents.model import PolicyValueNet
from skip_ai.cli import main
from skip_ai.training import load_train_config, run_training
from skip_ai.training import loop
from skip_ai.training.config import TrainConfigError
from skip_ai.training.tuning import load_weights, save_weights, tune_heuristic

GAME = "skip_brook(players=4)"
TINY = f"""
name = "tiny"
game = "{GAME}"
generations = 2
games = 2
search = "ismcts(iterations=40)"
eval_search = "ismcts(iterations=40)"
eval_deals = 2
epochs = 2
"""


def _config(tmp_path, extra=""):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY + f'out = "{tmp_path / "run"}"\n' + extra)
    return load_train_config(path)


def test_tiny_training_run_completes_and_resumes_after_a_crash(tmp_path, monkeypatch):
    config = _config(tmp_path)
    real_fit = loop.fit
    calls = []

    def crash_in_gen2(net, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("killed")
        return real_fit(net, *args, **kwargs)

    monkeypatch.setattr(loop, "fit", crash_in_gen2)
    with pytest.raises(RuntimeError, match="killed"):
        run_training(config, progress=False)
    out = config.out
    assert (out / "models" / "gen001.npz").exists() and (out / "eval" / "gen001.json").exists()
    assert (out / "samples" / "gen002.parquet").exists()
    assert not (out / "models" / "gen002.npz").exists()
    kept = {p: p.stat().st_mtime_ns for p in out.rglob("gen001*")}
    monkeypatch.setattr(loop, "fit", real_fit)
    gens = run_training(config, progress=False)
    assert [g.generation for g in gens] == [1, 2]
    assert {p: p.stat().st_mtime_ns for p in out.rglob("gen001*")} == kept  # not redone
    for g in gens:
        assert 0 <= g.vs_plain[1] <= g.vs_plain[0] <= g.vs_plain[2] <= 1
    model = PolicyValueNet.load(out / "models" / "gen002.npz", config.game)
    assert model.generation == 2
    samples = pd.read_parquet(out / "samples" / "gen001.parquet")
    row = samples.iloc[0]
    assert len(row.observation) == model.obs_size
    assert len(row.legal) == len(row.visits) and abs(sum(row.visits) - 1) < 1e-5
    assert set(samples.value) <= {-1.0, 1.0}
    # a finished run reruns without playing anything
    assert [g.vs_plain for g in run_training(config, progress=False)] == \
        [g.vs_plain for g in gens]


def test_train_cli_and_changed_config(tmp_path, capsys):
    config = _config(tmp_path, "")
    path = tmp_path / "tiny.toml"
    text = path.read_text().replace("generations = 2", "generations = 1")
    path.write_text(text)
    assert main(["train", str(path)]) == 0
    assert "gen 1:" in capsys.readouterr().out
    path.write_text(text.replace("games = 2", "games = 3"))
    assert main(["train", str(path)]) == 2
    assert "different config (changed: games)" in capsys.readouterr().err
    assert (config.out / "models" / "gen001.npz").exists()  # left intact


@pytest.mark.parametrize("extra, message", [
    ("window = 0\n", "window must be a positive integer"),
    ('hidden = ["a"]\n', "hidden must be a list"),
    ("colour = 1\n", "unknown field"),
])
def test_bad_training_configs_are_refused(tmp_path, extra, message):
    with pytest.raises(TrainConfigError, match=message):
        _config(tmp_path, extra)


def test_bad_search_spec_is_refused(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(TINY.replace('search = "ismcts(iterations=40)"', 'search = "random"'))
    with pytest.raises(TrainConfigError, match="search must be an ismcts spec"):
        load_train_config(path)


def test_tuning_improves_brook_and_weights_load(tmp_path):
    r = tune_heuristic(GAME, rounds=2, population=6, elite=2, deals=150, seed=5,
                       progress=False)
    assert r.score[1] > 0.5  # measured on fresh deals
    path = tmp_path / "w.json"
    save_weights(r, path)
    game = pyspiel.load_game(GAME)
    assert np.array_equal(load_weights(path, game), r.best)
    make_agent(f"heuristic(weights={path})", game)
    make_agent(f"ismcts(iterations=10,weights={path})", game)
    with pytest.raises(ValueError, match="tuned for"):
        load_weights(path, pyspiel.load_game("skip_brook(players=2)"))
    bad = json.loads(path.read_text())
    bad["names"] = ["x"]
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="do not match"):
        load_weights(path, game)
