"""Bad input never crashes and never silently changes a result (issue 21): the model's sizes,
a search's first iteration, non-finite weights, OpenSpiel's ISMCTS options, zero that is not a
default, and output paths checked before any work."""

import json

import pytest

from agents import make_agent
from agents.heuristics import heuristic_module
from agents.model import PolicyValueNet
from skip_ai.cli import main
from skip_ai.pyspiel_wrapper import load

G2 = "skip_columns(players=2,deck=36)"


def dealt(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("obs_size", [10, 289, 200000])
def test_a_model_of_another_observation_size_is_refused(tmp_path, obs_size):
    game = load(G2)
    path = tmp_path / "m.npz"
    PolicyValueNet.initial(str(game), obs_size, game.num_distinct_actions()).save(path)
    with pytest.raises(ValueError, match=f"reads {obs_size} observation values"):
        make_agent(f"ismcts(iterations=50,model={path})", game)


def test_a_search_runs_at_least_one_iteration_whatever_the_clock():
    game = load(G2)
    bot = make_agent("ismcts(seconds=0.000001)", game, seed=1)
    state = dealt(game)
    for _ in range(5):
        action = bot.step(state)
        assert action in state.legal_actions()
        assert bot.last_search.iterations >= 1
        state.apply_action(action)


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_weights_are_refused(tmp_path, bad):
    game = load("skip_chains")
    names = list(heuristic_module(game.spec.kernel).WEIGHT_NAMES)
    path = tmp_path / "w.json"
    weights = ", ".join([bad] * len(names))
    path.write_text(f'{{"game": "{game}", "names": {json.dumps(names)}, "weights": [{weights}]}}')
    with pytest.raises(ValueError, match="finite"):
        make_agent(f"heuristic(weights={path})", game)
    with pytest.raises(ValueError, match="finite"):
        make_agent(f"ismcts(iterations=10,weights={path})", game)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("openspiel_ismcts(iterations=0)", "iterations must be a positive integer"),
        ("openspiel_ismcts(iterations=-1)", "iterations must be a positive integer"),
        ("openspiel_ismcts(iterations=true)", "iterations must be a positive integer"),
        ("openspiel_ismcts(iterations=10,rollouts=0)", "rollouts must be a positive integer"),
        ("openspiel_ismcts(seconds=0)", "seconds must be a positive finite number"),
        ("openspiel_ismcts(seconds=inf)", "seconds must be a positive finite number"),
        ("openspiel_ismcts(iterations=10,uct_c=-1)", "uct_c must be a finite number ≥ 0"),
        ("ismcts(seconds=inf)", "seconds must be a positive finite number"),
        ("ismcts(iterations=true)", "iterations must be a positive integer"),
        ("ismcts(iterations=10,uct_c=-1)", "uct_c must be a finite number ≥ 0"),
    ],
)
def test_search_options_out_of_range_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, load(G2))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["tune", G2, "--rounds", "0", "--out", "x.json"], "--rounds: must be at least 1"),
        (["tune", G2, "--population", "0", "--out", "x.json"], "--population: must be at least 1"),
        (["tune", G2, "--deals", "0", "--out", "x.json"], "--deals: must be at least 1"),
        (["simulate", G2, "-n", "0"], "-n: must be at least 1"),
        (["report", "x", "--bootstrap", "0"], "--bootstrap: must be at least 1"),
        (["match", G2, "random", "random", "-n", "-3"], "-n: must be at least 1"),
    ],
)
def test_zero_is_refused_not_taken_for_the_default(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


def test_output_paths_are_checked_before_any_work(tmp_path, capsys):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    cases = [
        (["simulate", G2, "-n", "5", "--out", str(folder)], "is a folder; give a file name"),
        (["simulate", G2, "-n", "5", "--out", str(a_file / "x.parquet")], "is a file, not"),
        (["positions", G2, "--games", "1", "--out", str(folder)], "is a folder"),
        (["tune", G2, "--out", str(folder)], "is a folder"),
        (["report", str(tmp_path), "--to", str(a_file)], "is a file, not a folder"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (argv, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "a-folder"]
    assert not list(folder.iterdir())


@pytest.mark.parametrize(
    "line, message",
    [
        ("lr = nan", "lr must be a finite number"),
        ("lr = inf", "lr must be a finite number"),
        ("out = 3", "out must be a folder's path"),
    ],
)
def test_training_config_numbers_and_out(tmp_path, line, message):
    from skip_ai.training.config import TrainConfigError, load_train_config

    path = tmp_path / "t.toml"
    path.write_text(f'name = "t"\ngame = "{G2}"\ndecisions = 1000\n{line}\n')
    with pytest.raises(TrainConfigError, match=message):
        load_train_config(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]
