"""Every loader of a file a user hands us, fed random bytes and random JSON, TOML and npz
shapes: each gives a clear error (a ``ValueError`` naming the file), never a crash, a hang or
another exception, and writes nothing."""

import io
import json
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents.model import PolicyValueNet
from agents.search_config import load_search_config
from agents.weights import load_weights
from skip_ai.analysis import load_records
from skip_ai.pyspiel_wrapper import load
from skip_ai.tournament import load_config
from skip_ai.training.config import load_train_config
from skip_ai.tuning.rollout_balancing import load_positions

GAME = load("skip_columns(players=2,deck=36)")

LOADERS = {
    "weights": lambda p: load_weights(p, GAME),
    "tuned search": lambda p: load_search_config(p, GAME),
    "model": lambda p: PolicyValueNet.load(p, GAME),
    "positions": lambda p: load_positions(p, GAME),
    "tournament config": load_config,
    "training config": load_train_config,
    "records": load_records,
}

VALUES = [
    None,
    True,
    -1,
    0,
    3,
    2.5,
    float("nan"),
    float("inf"),
    "",
    "x",
    "skip_columns",
    [],
    [1, "a"],
    {},
    {"a": 1},
    [float("nan")] * 3,
    10**30,
]
KEYS = [
    "format",
    "game",
    "names",
    "weights",
    "uct_c",
    "rollout_eps",
    "prior_c",
    "budget",
    "name",
    "seed",
    "deals",
    "games",
    "agents",
    "out",
    "generations",
    "lr",
    "dims",
    "params",
    "obs_size",
    "num_actions",
    "states",
    "movers",
    "targets",
    "expert",
]


def random_json(rng: random.Random) -> str:
    body = {k: rng.choice(VALUES) for k in rng.sample(KEYS, rng.randint(0, 8))}
    if rng.random() < 0.3:
        body["format"] = rng.choice(
            ["skip_ai.search_params/1", "skip_ai.weights/1", "skip_ai.model/1", "nope"]
        )
    if rng.random() < 0.3:
        body["game"] = str(GAME)
    if rng.random() < 0.2:
        return json.dumps(rng.choice(VALUES))
    return json.dumps(body)


def random_toml(rng: random.Random) -> str:
    lines = []
    for key in rng.sample(KEYS, rng.randint(0, 8)):
        value = rng.choice(
            [
                '"t"',
                "0",
                "-3",
                "1.5",
                "nan",
                "inf",
                "true",
                "[]",
                '["x"]',
                f'"{GAME}"',
                '"ismcts(iterations=0)"',
            ]
        )
        lines.append(f"{key} = {value}")
    if rng.random() < 0.5:
        lines.append('[[games]]\ngame = "' + rng.choice([str(GAME), "nope", ""]) + '"')
    if rng.random() < 0.5:
        lines.append(
            '[[agents]]\nname = "a"\nspec = "'
            + rng.choice(["random", "ismcts(seconds=-1)", "heuristic(weights=/nope)", ""])
            + '"'
        )
    return "\n".join(lines)


def random_npz(rng: random.Random) -> bytes:
    arrays = {}
    for key in rng.sample(KEYS, rng.randint(0, 10)):
        kind = rng.randrange(5)
        if kind == 0:
            arrays[key] = np.array(
                rng.choice(["skip_ai.model/1", "skip_ai.positions/1", str(GAME), "x"])
            )
        elif kind == 1:
            arrays[key] = np.array([rng.randint(-5, 300) for _ in range(rng.randint(0, 4))])
        elif kind == 2:
            arrays[key] = np.full(rng.randint(0, 5), rng.choice([np.nan, np.inf, 0.5]))
        elif kind == 3:
            arrays[key] = np.zeros((rng.randint(0, 3), rng.randint(0, 3)), np.int64)
        else:
            arrays[key] = np.int64(rng.randint(-2, 400))
    out = io.BytesIO()
    np.savez(out, **arrays)
    return out.getvalue()


def contents(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.mark.parametrize("loader", list(LOADERS))
def test_random_files_give_a_clear_error(loader, tmp_path):
    rng = random.Random(loader)
    load_file = LOADERS[loader]
    for i in range(40):
        kind = i % 4
        path = tmp_path / f"input-{i}"
        if kind == 0:
            path.write_bytes(rng.randbytes(rng.randint(0, 300)))
        elif kind == 1:
            path.write_text(random_json(rng))
        elif kind == 2:
            path.write_text(random_toml(rng))
        else:
            path.write_bytes(random_npz(rng))
        if loader == "records":  # a records folder holding one random "shard"
            folder = tmp_path / f"records-{i}"
            folder.mkdir()
            path = path.rename(folder / "shard.parquet")
            path = folder
        before = contents(tmp_path)
        with pytest.raises(ValueError) as error:
            load_file(path)
        assert str(error.value).strip() and "\n" not in str(error.value).strip()
        assert contents(tmp_path) == before, f"{loader} wrote files on bad input {i}"


def test_a_truncated_zip_model_is_a_clear_error(tmp_path):
    path = tmp_path / "m.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("dims.npy", b"\x93NUMPY garbage")
    with pytest.raises(ValueError, match="not a model file"):
        PolicyValueNet.load(path, GAME)
