"""Heuristic tuning and search tuning (``skip-ai train``, deep Monte-Carlo, is tested in
``test_dmc.py``)."""

import dataclasses
import json

import numpy as np
import pyspiel
import pytest

from agents import make_agent
from agents.heuristics import heuristic_module
from agents.search_config import FORMAT as SEARCH_FORMAT
from agents.search_config import load_search_config
from agents.weights import FORMAT as WEIGHTS_FORMAT
from agents.weights import load_weights
from skip_ai.cli import main
from skip_ai.tuning.players import save_search, save_weights, tune_heuristic, tune_search

GAME = "skip_brook(players=4)"


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
    """The tuned weights and searches in results/training (docs/training.md's trained searches)
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
