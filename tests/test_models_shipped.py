"""The models are part of the product: every SKIP game's model ships as package data with its
card, and ``learned(model=<game>)`` finds it from any working folder (agents/shipped.py)."""

from __future__ import annotations

import hashlib
import re
import shutil
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from agents import make_agent
from agents.shipped import model_file, shipped_models
from skip_ai.pyspiel_wrapper import REGISTRY, load
from skip_ai.tournament.config import spec_files

ROOT = Path(__file__).resolve().parents[1]
SKIP_GAMES = sorted(name for name in REGISTRY if name.startswith("skip_"))


def _first_decision(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_importlib_resources_finds_every_shipped_model_and_its_card():
    folder = resources.files("skip_ai") / "models"
    names = {f.name for f in folder.iterdir()}
    assert shipped_models() == SKIP_GAMES  # one model per SKIP game, by the game's name
    for game in SKIP_GAMES:
        assert f"{game}.npz" in names and f"{game}.md" in names, game
        card = (folder / f"{game}.md").read_text()
        assert card.startswith(f"# `{game}`")
        for field in ("**Made by**", "**Config**", "**Command**", "**Committed**", "**Held out**"):
            assert field in card, (game, field)
        assert re.search(r"\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\].*\n?.*seed \d+", card), game
        assert re.search(r"\*\*Committed\*\*: [0-9a-f]{7}", card), game
    assert sorted(names) == sorted(f"{g}.{ext}" for g in SKIP_GAMES for ext in ("npz", "md"))


def test_a_non_editable_install_ships_the_models():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert {"models/*.npz", "models/*.md"} <= set(data["package-data"]["skip_ai"])


def test_learned_plays_the_shipped_model_by_name_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = load("skip_columns")
    state = _first_decision(game)
    assert make_agent("learned(model=skip_columns)", game).step(state) in state.legal_actions()
    make_agent("ismcts(iterations=10,model=skip_columns,temperature=0.2)", game)  # a prior too


def test_a_path_still_names_a_model_file(tmp_path, monkeypatch):
    shipped = model_file("skip_columns")
    assert Path(shipped).is_file() and Path(shipped).parent.name == "models"
    shutil.copy(shipped, tmp_path / "mine.npz")
    monkeypatch.chdir(tmp_path)
    game = load("skip_columns")
    state = _first_decision(game)
    bots = [make_agent(f"learned(model={m})", game) for m in (shipped, "mine.npz")]
    assert bots[0].step(state) == bots[1].step(state)
    assert model_file("mine.npz") == "mine.npz"


def test_a_bad_model_name_is_one_line_listing_the_shipped_models(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = load("skip_columns")
    with pytest.raises(ValueError) as e:
        make_agent("learned(model=skip_colums)", game)
    message = str(e.value)
    assert "\n" not in message and "no shipped model 'skip_colums'" in message
    assert ", ".join(SKIP_GAMES) in message
    with pytest.raises(ValueError, match="no model file at nowhere/m.npz"):  # a path: the loader's
        make_agent("learned(model=nowhere/m.npz)", game)
    with pytest.raises(ValueError, match="trained for skip_brook"):  # another game's model
        make_agent("learned(model=skip_brook)", game)


def test_a_batch_counts_a_shipped_model_by_its_content():
    digest = hashlib.sha256(Path(model_file("skip_guess")).read_bytes()).hexdigest()
    assert spec_files(["learned(model=skip_guess)", "heuristic"]) == {"skip_guess": digest}
    assert spec_files(["learned(model=skip_nothing)"]) == {}  # building the agent says why
