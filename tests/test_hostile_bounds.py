"""Hostile and careless inputs to the library (issue 47), part two: numbers beyond int64 or
beyond any sensible bound, a zip-bomb model, empty output paths and a game parameter given
twice. Each is refused with one line, before any work."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pyspiel
import pytest

from agents import make_agent, parse_spec
from agents.heuristics import heuristic_module
from agents.model import MAX_LAYERS, PolicyValueNet
from agents.search_config import SearchConfig, save_search_config
from skip_ai.analysis.bootstrap import MAX_SAMPLES, check_samples
from skip_ai.balance.config import parse_balance_config
from skip_ai.cli import main
from skip_ai.cli.report import MAX_BOOTSTRAP
from skip_ai.paths import output_file, output_folder
from skip_ai.pyspiel_wrapper import load, same_game
from skip_ai.tournament.config import MAX_WORKERS, ConfigError, check_workers, parse_config
from tests.test_hostile_inputs import one_line

G2 = "skip_columns(players=2,deck=36)"
BIG = 99999999999999999999  # beyond int64


# ----- 8. numbers beyond int64, and the agents' stated bounds -------------------------------


@pytest.mark.parametrize(
    "spec, message",
    [
        (f"ismcts(iterations={BIG})", "argument 'iterations'"),
        (f"ismcts(iterations=-{BIG})", "argument 'iterations'"),
        (f"ismcts(seconds={BIG})", "argument 'seconds'"),
        (f"ismcts(iterations=10,uct_c={'9' * 5000})", "argument 'uct_c'"),
        (f"openspiel_ismcts(iterations={BIG})", "argument 'iterations'"),
        (f"openspiel_ismcts(iterations=5,rollouts={BIG})", "argument 'rollouts'"),
        (f"heuristic(weights={BIG})", "argument 'weights'"),
        ("ismcts(iterations=1000000001)", "iterations must be a positive integer, at most"),
        ("ismcts(seconds=3601)", "seconds must be a positive finite number, at most 3600"),
        ("openspiel_ismcts(iterations=1000000001)", "iterations must be a positive integer"),
        ("openspiel_ismcts(seconds=3601)", "at most 3600"),
        ("openspiel_ismcts(iterations=5,rollouts=1001)", "rollouts must be a positive integer"),
        ("ismcts(iterations=10,model=skip_columns,value_after=10001)", "value_after must be"),
        ("ismcts(iterations=10,model=skip_columns,prior_depth=10001)", "prior_depth must be"),
        ("ismcts(iterations=10,weights=5)", "weights must be a file's path"),
        ("heuristic(weights=5)", "weights must be a file's path"),
    ],
)
def test_agent_numbers_beyond_int64_or_their_bound_are_one_line(spec, message):
    game = load("skip_columns")
    with pytest.raises(ValueError) as e:
        make_agent(spec, game)
    assert message in one_line(e.value)


def test_parse_spec_keeps_int64_numbers():
    top = (1 << 63) - 1
    assert parse_spec(f"x(a={top},b=-{top + 1},c=1_000)") == (
        "x",
        {"a": top, "b": -top - 1, "c": 1000},
    )


@pytest.mark.parametrize("field", ["iterations", "uct_c", "prior_c", "rollout_eps"])
def test_search_config_refuses_integers_too_large_for_a_float(field):
    with pytest.raises(ValueError) as e:
        SearchConfig(**{"iterations": 10, field: 10**400})
    assert field in one_line(e.value)


def test_files_holding_integers_too_large_for_a_float_are_refused(tmp_path):
    game = load(G2)
    names = list(heuristic_module(game.spec.kernel).WEIGHT_NAMES)
    weights = tmp_path / "w.json"
    data = {"game": str(game), "names": names, "weights": ["HUGE"] + [1] * (len(names) - 1)}
    weights.write_text(json.dumps(data).replace('"HUGE"', "9" * 400))
    tuned = tmp_path / "t.json"
    save_search_config(tuned, game, SearchConfig())
    tuned.write_text(tuned.read_text().replace('"uct_c": 0.7', f'"uct_c": {"9" * 400}'))
    for spec in (f"heuristic(weights={weights})", f"ismcts(iterations=5,tuned={tuned})"):
        with pytest.raises(ValueError) as e:
            make_agent(spec, game)
        one_line(e.value)


def test_a_batch_with_an_agent_beyond_int64_fails_before_any_game():
    agents = [{"name": "r", "spec": "random"}, {"name": "big", "spec": f"ismcts(iterations={BIG})"}]
    raw = {"name": "t", "deals": 2, "games": [{"game": G2}], "agents": agents}
    for parse in (parse_config, parse_balance_config):
        with pytest.raises(ConfigError) as e:
            parse(raw, source="b.toml")
        assert "argument 'iterations'" in one_line(e.value)


def test_a_balance_evaluator_beyond_its_bound_fails_before_any_game():
    raw = {
        "name": "t",
        "deals": 2,
        "games": [{"game": G2}],
        "agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "heuristic"}],
        "measures": {"evaluator": "ismcts(iterations=2000000000)"},
    }
    with pytest.raises(ConfigError) as e:
        parse_balance_config(raw, source="b.toml")
    assert "field 'evaluator' on" in one_line(e.value) and "at most" in str(e.value)


# ----- 9. upper bounds and empty paths -------------------------------------------------------

GOOD_BATCH = {
    "name": "t",
    "deals": 2,
    "games": [{"game": G2}],
    "agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "heuristic"}],
}


@pytest.mark.parametrize("parse", [parse_config, parse_balance_config])
@pytest.mark.parametrize(
    "change, message",
    [
        ({"workers": 100_000}, f"field 'workers' must be at most {MAX_WORKERS}"),
        ({"seed": 10**30}, "field 'seed' must fit a 64-bit integer"),
        ({"deals": 10**30}, "field 'deals' must fit a 64-bit integer"),
        ({"out": ""}, "field 'out' must be a folder's path, not empty"),
        ({"out": "  "}, "field 'out' must be a folder's path, not empty"),
    ],
)
def test_batch_config_bounds_are_one_line(parse, change, message):
    with pytest.raises(ConfigError) as e:
        parse(GOOD_BATCH | change, source="b.toml")
    assert message in one_line(e.value)


def test_workers_at_the_bound_are_taken():
    assert parse_config(GOOD_BATCH | {"workers": MAX_WORKERS}).workers == MAX_WORKERS
    assert check_workers(MAX_WORKERS) == MAX_WORKERS
    for bad in (0, MAX_WORKERS + 1, 100_000, True):
        with pytest.raises(ValueError) as e:
            check_workers(bad)
        one_line(e.value)


@pytest.mark.parametrize(
    "line, message",
    [
        ("eval_deals = 1_000_000_000_000_000", "eval_deals must be at most 10_000"),
        ("batch = 1_000_000_000", "batch must be at most"),
        ("chunk = 1_000_000_000", "chunk must be at most"),
        ("eval_every = 99999999999999999999", "eval_every must be at most"),
        ("imitation_epochs = 100_000", "imitation_epochs must be at most"),
        ("seed = 99999999999999999999", "seed must be at most"),
        ("eval_seed = 99999999999999999999", "eval_seed must be at most"),
        (f"lr = {'9' * 400}", "lr must be a finite number"),
        ("decisions = 99999999999999999999", "decisions must be a positive integer, at most"),
        (f"hidden = [{', '.join(['8'] * (MAX_LAYERS + 1))}]", f"list of 1 to {MAX_LAYERS}"),
        ('out = ""', "out must be a folder's path, not empty"),
        ('out = "   "', "out must be a folder's path, not empty"),
    ],
)
def test_training_config_bounds_are_one_line(tmp_path, monkeypatch, line, message):
    from skip_ai.training.config import TrainConfigError, load_train_configs

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "t.toml"
    for body in (f'game = "{G2}"', f'games = ["{G2}"]'):
        budget = "" if line.startswith("decisions") else "decisions = 1000\n"
        path.write_text(f'name = "t"\n{body}\n{budget}{line}\n')
        with pytest.raises(TrainConfigError) as e:
            load_train_configs(path)
        assert message in one_line(e.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["report", "x", "--bootstrap", "100000000"], "--bootstrap: must be at most 10_000"),
        (["simulate", G2, "-n", str(BIG)], "-n: must be at most"),
        (["simulate", G2, "-n", "9" * 5000], "-n: must be at most"),
    ],
)
def test_cli_whole_numbers_have_upper_bounds(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


def test_the_bootstrap_bound_is_one_number():
    assert MAX_BOOTSTRAP == MAX_SAMPLES
    assert check_samples(0) == 0 and check_samples(MAX_SAMPLES) == MAX_SAMPLES
    for bad in (-1, MAX_SAMPLES + 1, 10**8, 2.5, True):
        with pytest.raises(ValueError) as e:
            check_samples(bad)
        one_line(e.value)


@pytest.mark.parametrize("where", [output_folder, output_file])
@pytest.mark.parametrize("path", ["", "   "])
def test_an_empty_output_path_is_refused(tmp_path, monkeypatch, where, path):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as e:
        where(path, "out")
    assert "out is empty" in one_line(e.value)
    assert not list(tmp_path.iterdir())


def _model(tmp_path: Path) -> Path:
    game = load(G2)
    path = tmp_path / "m.npz"
    PolicyValueNet.initial(str(game), game.observation_tensor_size(), 8).save(path)
    return path


def _forbid_reading(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the model's arrays were read")

    monkeypatch.setattr(np, "load", refuse)


def test_a_model_whose_directory_claims_gigabytes_is_refused_before_reading(tmp_path, monkeypatch):
    path = _model(tmp_path)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("params.npy")
    # the uncompressed size, in the local header (offset 22) and the central directory (24)
    central = data.index(b"PK\x01\x02")
    while data[central + 46 : central + 56] != b"params.npy":
        central = data.index(b"PK\x01\x02", central + 4)
    data[central + 24 : central + 28] = (0xFFFFFFF0).to_bytes(4, "little")
    data[info.header_offset + 22 : info.header_offset + 26] = (0xFFFFFFF0).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    _forbid_reading(monkeypatch)
    with pytest.raises(ValueError) as e:
        PolicyValueNet.load(path)
    assert "inflates to 4,294,967,280 bytes" in one_line(e.value)


def test_a_zip_bomb_model_is_refused_before_it_inflates(tmp_path, monkeypatch):
    import agents.model as model

    monkeypatch.setattr(model, "MAX_PARAMS", 100_000)  # a bomb at the scale of a test
    good = _model(tmp_path)
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename != "params.npy":
                dst.writestr(info.filename, src.read(info))
        with dst.open("params.npy", "w") as f:
            np.lib.format.write_array(f, np.zeros(8_000_000, np.float32))
    assert bomb.stat().st_size < 200_000  # 32 MB of zeros in a small file
    _forbid_reading(monkeypatch)
    with pytest.raises(ValueError) as e:
        PolicyValueNet.load(bomb)
    assert "'params.npy' inflates to 32,000,128 bytes" in one_line(e.value)


def test_a_model_deeper_or_wider_than_a_model_may_be_is_refused(tmp_path):
    game = load(G2)
    path = tmp_path / "deep.npz"
    hidden = [2] * (MAX_LAYERS + 1)
    PolicyValueNet.initial(str(game), game.observation_tensor_size(), 8, hidden=hidden).save(path)
    with pytest.raises(ValueError) as e:
        PolicyValueNet.load(path)
    assert "beyond a model's bounds" in one_line(e.value)


def test_a_model_member_whose_header_lies_about_its_size_is_refused(tmp_path, monkeypatch):
    path = _model(tmp_path)
    lying = tmp_path / "lying.npz"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(lying, "w") as dst:
        for info in src.infolist():
            raw = src.read(info)
            if info.filename == "params.npy":  # declares 10**10 floats, holds a few
                header = np.lib.format.header_data_from_array_1_0(np.zeros(3, np.float32))
                header["shape"] = (10**10,)
                buffer = io.BytesIO()
                np.lib.format.write_array_header_1_0(buffer, header)
                raw = buffer.getvalue() + np.zeros(3, np.float32).tobytes()
            dst.writestr(info.filename, raw)
    _forbid_reading(monkeypatch)
    with pytest.raises(ValueError) as e:
        PolicyValueNet.load(lying)
    assert "does not match its size" in one_line(e.value)


# ----- 12. a game parameter given twice ------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    [
        "skip_columns(players=4,players=2)",
        "skip_domino(players=2,deck=36,players=2)",
        "classic_sixty_six_4p(mode=deal,mode=deal)",
    ],
)
def test_a_parameter_given_twice_is_refused(game):
    for loader in (load, pyspiel.load_game):
        with pytest.raises(ValueError) as e:
            loader(game)
        assert "is given twice" in one_line(e.value)
    assert not same_game(game, load(game.split("(")[0]))


def test_a_parameter_in_the_string_and_the_dict_is_refused():
    with pytest.raises(ValueError) as e:
        pyspiel.load_game("skip_columns(players=4)", {"players": 2})
    assert "is given twice" in one_line(e.value)
    # spaces make another name for pyspiel, which refuses it as unknown
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("skip_columns(players=4, players=2)")


def test_configs_refuse_a_parameter_given_twice(tmp_path):
    twice = "skip_columns(players=2,players=4)"
    with pytest.raises(ConfigError) as e:
        parse_config(GOOD_BATCH | {"games": [{"game": twice}]}, source="b.toml")
    assert "is given twice" in one_line(e.value)
    with pytest.raises(ConfigError) as e:
        parse_balance_config(GOOD_BATCH | {"games": [{"game": twice}]}, source="b.toml")
    assert "is given twice" in one_line(e.value)
    from skip_ai.training.config import TrainConfigError, load_train_config

    path = tmp_path / "t.toml"
    path.write_text(f'name = "t"\ngame = "{twice}"\ndecisions = 10\nout = "{tmp_path / "o"}"\n')
    with pytest.raises(TrainConfigError) as e:
        load_train_config(path)
    assert "is given twice" in one_line(e.value)
