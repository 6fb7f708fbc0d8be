"""skip-ai train (a tiny run completes, resumes after a crash, refuses a changed config),
heuristic tuning and search tuning."""

import dataclasses
import json

import numpy as np
import pandas as pd
import pyspiel
import pytest

from agents import make_agent
from agents.heuristics import heuristic_module
from agents.model import PolicyValueNet
from agents.search_config import FORMAT as SEARCH_FORMAT
from agents.search_config import load_search_config
from agents.weights import FORMAT as WEIGHTS_FORMAT
from agents.weights import load_weights
from skip_ai.cli import main
from skip_ai.training import load_train_config, loop, run_training
from skip_ai.training.config import TrainConfigError
from skip_ai.training.tuning import save_search, save_weights, tune_heuristic, tune_search

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
    assert [g.vs_plain for g in run_training(config, progress=False)] == [g.vs_plain for g in gens]


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


@pytest.mark.parametrize(
    "extra, message",
    [
        ("window = 0\n", "window must be a positive integer"),
        ('hidden = ["a"]\n', "hidden must be a list"),
        ("colour = 1\n", "unknown field"),
    ],
)
def test_bad_training_configs_are_refused(tmp_path, extra, message):
    with pytest.raises(TrainConfigError, match=message):
        _config(tmp_path, extra)


def test_bad_search_spec_is_refused(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(TINY.replace('search = "ismcts(iterations=40)"', 'search = "random"'))
    with pytest.raises(TrainConfigError, match="search must be an ismcts spec"):
        load_train_config(path)


def test_tuning_improves_brook_and_weights_load(tmp_path):
    r = tune_heuristic(GAME, rounds=2, population=6, elite=2, deals=150, seed=5, progress=False)
    assert r.score[1] > 0.5  # measured on fresh deals
    path = tmp_path / "w.json"
    save_weights(r, path)
    game = pyspiel.load_game(GAME)
    assert np.array_equal(load_weights(path, game), r.best)
    assert json.loads(path.read_text())["format"] == WEIGHTS_FORMAT
    make_agent(f"heuristic(weights={path})", game)
    make_agent(f"ismcts(iterations=10,weights={path})", game)
    with pytest.raises(ValueError, match="tuned for"):
        load_weights(path, pyspiel.load_game("skip_brook(players=2)"))
    bad = json.loads(path.read_text())
    untagged = {k: v for k, v in bad.items() if k != "format"}  # as written before the tag
    path.write_text(json.dumps(untagged))
    assert np.array_equal(load_weights(path, game), r.best)
    path.write_text(json.dumps({**bad, "format": "skip_ai.heuristic_weights/9"}))
    with pytest.raises(ValueError, match="not a weights file: format"):
        load_weights(path, game)
    bad["names"] = ["x"]
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="do not match"):
        load_weights(path, game)


def test_search_tuning_runs_saves_and_loads(tmp_path):
    """A tiny search tuning: every generation is scored, the file loads as ``tuned=FILE``
    (deterministically, like any ISMCTS), and a file for another game or a malformed one is
    refused."""
    r = tune_search(
        GAME,
        budget="iterations=30",
        rounds=2,
        population=3,
        elite=1,
        deals=1,
        eval_deals=1,
        seed=3,
        progress=False,
    )
    assert [g["round"] for g in r.rounds] == [0, 1]
    assert all(0 <= g["vs_plain"][0] <= 1 for g in r.rounds)
    s = r.config
    assert s.budget == "iterations=30" and s.heuristic_prior == (s.prior_c > 0)
    assert s.uct_c > 0 and 0 <= s.rollout_eps <= 1 and s.prior_c >= 0 and 0 <= r.score[0] <= 1
    path = tmp_path / "search.json"
    save_search(r, path)
    game = pyspiel.load_game(GAME)
    back = load_search_config(path, game)
    assert back == dataclasses.replace(s, iterations=None)  # the file holds all but the budget
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    a, b = (make_agent(f"ismcts(iterations=50,tuned={path})", game, seed=4) for _ in range(2))
    assert a.step(state) == b.step(state)
    assert a.config == dataclasses.replace(s, iterations=50)
    for extra in ("uct_c=2", "prior_c=2", "heuristic_prior=true", f"weights={path}"):
        with pytest.raises(ValueError, match="either tuned or those"):
            make_agent(f"ismcts(iterations=5,tuned={path},{extra})", game)
    with pytest.raises(ValueError, match="tuned for"):
        load_search_config(path, pyspiel.load_game("skip_brook(players=2)"))
    path.write_text("{}")
    with pytest.raises(ValueError, match="not a tuned search file"):
        make_agent(f"ismcts(iterations=5,tuned={path})", game)


def test_search_tuning_keeps_the_parameters_it_does_not_tune():
    game = pyspiel.load_game(GAME)
    r = tune_search(
        game,
        budget="iterations=20",
        rounds=2,
        population=3,
        elite=1,
        deals=1,
        seed=2,
        progress=False,
        tune=("rollout_eps",),
    )
    s = r.config
    assert s.uct_c == pytest.approx(0.7)
    assert np.array_equal(s.weights, heuristic_module(game.spec.kernel).WEIGHTS)
    assert s.effective_prior_c == 0
    with pytest.raises(ValueError, match="choose among"):
        tune_search(game, tune=("depth",))


def test_tune_search_command(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert (
        main(
            [
                "tune",
                GAME,
                "--search",
                "iterations=20",
                "--rounds",
                "1",
                "--population",
                "2",
                "--elite",
                "1",
                "--deals",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert "tuned=" in capsys.readouterr().out
    assert json.loads(out.read_text())["budget"] == "iterations=20"


def test_rollout_eps_is_checked_and_changes_the_search():
    game = pyspiel.load_game(GAME)
    with pytest.raises(ValueError, match="rollout_eps"):
        make_agent("ismcts(iterations=5,rollout_eps=1.5)", game)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    runs = [make_agent(f"ismcts(iterations=300,rollout_eps={e})", game, seed=1) for e in (0, 1)]
    for bot in runs:
        bot.step(state)
    assert not np.array_equal(runs[0].last_search.values, runs[1].last_search.values)


def test_search_file_without_prior_c_loads_without_a_heuristic_prior(tmp_path):
    """Files tuned before prior_c was a parameter (results/training/*-search.json) still
    load: no heuristic prior."""
    game = pyspiel.load_game(GAME)
    r = tune_search(
        game,
        budget="iterations=20",
        rounds=1,
        population=2,
        elite=1,
        deals=1,
        seed=2,
        progress=False,
        tune=("prior_c",),
    )
    path = tmp_path / "old.json"
    save_search(r, path)
    data = json.loads(path.read_text())
    del data["prior_c"]
    path.write_text(json.dumps(data))
    assert load_search_config(path, game).effective_prior_c == 0.0
    bot = make_agent(f"ismcts(iterations=20,tuned={path})", game)
    assert not bot.config.heuristic_prior and bot.settings.prior_c == 0.0


def test_committed_trained_files_load_for_their_games():
    """The tuned weights and searches in results/training (the README's trained opponents)
    still fit their games' heuristics."""
    from pathlib import Path

    files = sorted((Path(__file__).parent.parent / "results" / "training").glob("*.json"))
    assert len(files) >= 5
    for path in files:
        data = json.loads(path.read_text())
        game = pyspiel.load_game(data["game"])
        if data.get("format") == SEARCH_FORMAT:
            assert load_search_config(path, game).uct_c > 0
        else:
            assert len(load_weights(path, game)) == len(data["names"])
