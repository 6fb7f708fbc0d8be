"""SearchConfig: one checked value for every ISMCTS setting, its file form, and the bot
factory that lets matches and tournaments play a config without a spec string."""

import dataclasses
import json
import math

import pyspiel
import pytest

from agents import make_agent
from agents.ismcts import ISMCTSAgent
from agents.search_config import SearchConfig, load_search_config, save_search_config
from skip_ai.match import match
from skip_ai.records import read_records
from skip_ai.tournament import run_tournament
from skip_ai.tournament.config import Agent, parse_config

GAME = "skip_columns(players=2,deck=36)"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"iterations": 5, "seconds": 1.0}, "exactly one budget"),
        ({"iterations": 0}, "iterations must be a positive integer"),
        ({"iterations": 2.5}, "iterations must be a positive integer"),
        ({"seconds": -1}, "seconds must be a positive finite number"),
        ({"seconds": math.inf}, "seconds must be a positive finite number"),
        ({"uct_c": math.nan}, "uct_c must be a finite number ≥ 0"),
        ({"uct_c": "wide"}, "uct_c must be a finite number ≥ 0"),
        ({"rollout_eps": 1.5}, "rollout_eps must be a finite number in \\[0, 1\\]"),
        ({"prior_c": -0.1}, "prior_c must be a finite number ≥ 0"),
        ({"rollout": "smart"}, "rollout must be random, heuristic or model"),
        ({"final": "best"}, "final must be visits or value"),
        ({"heuristic_prior": 2}, "heuristic_prior must be true or false"),
        ({"weights": (1.0, math.inf)}, "weights must be finite numbers"),
        ({"weights": "w.json"}, "weights must be a list of numbers"),
        ({"rollout": "model"}, "rollout=model needs a model=PATH"),
        ({"model": "m.npz", "heuristic_prior": True}, "two priors"),
        ({"value_after": 2}, "value_after needs a model"),
        ({"model": "m.npz", "value_after": -1}, "value_after must be an integer ≥ 0"),
        ({"prior_depth": 1}, "prior_depth needs a model"),
        ({"model": "m.npz", "prior_depth": 1.5}, "prior_depth must be an integer ≥ 0"),
    ],
)
def test_bad_settings_are_one_line_errors(options, message):
    with pytest.raises(ValueError, match=message) as e:
        SearchConfig(**options)
    assert "\n" not in str(e.value) and str(e.value).startswith("ismcts")


def test_a_config_is_normalised_once_and_says_what_differs():
    c = SearchConfig(seconds=1, uct_c=1, weights=[1, 2])
    assert (c.seconds, c.uct_c, c.weights) == (1.0, 1.0, (1.0, 2.0))
    assert c.budget == "seconds=1" and SearchConfig(seconds=0.02).budget == "seconds=0.02"
    assert str(c) == "ismcts(seconds=1.0,uct_c=1.0,weights=[1,2])"
    assert hash(c) == hash(SearchConfig(seconds=1.0, uct_c=1.0, weights=(1.0, 2.0)))
    assert (
        c.effective_prior_c == 0
        and dataclasses.replace(c, heuristic_prior=True).effective_prior_c == 1.0
    )


def test_the_file_form_round_trips_and_refuses_what_it_cannot_hold(tmp_path):
    game = pyspiel.load_game("skip_brook(players=4)")
    c = SearchConfig(
        iterations=9,
        uct_c=0.9,
        rollout_eps=0.25,
        prior_c=1.5,
        heuristic_prior=True,
        weights=(1.0, 0.0, 1.5, 0.5, 1.5),
    )
    path = tmp_path / "s.json"
    save_search_config(path, game, c, {"rounds": []})
    data = json.loads(path.read_text())
    assert list(data)[:8] == [
        "format",
        "game",
        "budget",
        "uct_c",
        "rollout_eps",
        "prior_c",
        "names",
        "weights",
    ]
    assert data["budget"] == "iterations=9" and data["rounds"] == []
    assert load_search_config(path, game) == dataclasses.replace(c, iterations=None)
    with pytest.raises(ValueError, match="heuristic rollouts and no model"):
        save_search_config(path, game, dataclasses.replace(c, rollout="random"))
    with pytest.raises(ValueError, match="takes 5 weights"):
        save_search_config(path, game, dataclasses.replace(c, weights=(1.0,)))
    data["uct_c"] = "wide"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="uct_c must be a finite number"):
        load_search_config(path, game)


def test_a_bot_needs_a_budget():
    with pytest.raises(ValueError, match="exactly one budget"):
        ISMCTSAgent(SearchConfig())(pyspiel.load_game(GAME), 0)


def test_a_factory_plays_as_its_spec_does():
    """The tuner hands candidate searches to matches as factories: the same games as the spec
    with the same settings."""
    spec = "ismcts(iterations=30,uct_c=0.9,rollout_eps=0.2)"
    agent = ISMCTSAgent(SearchConfig(iterations=30, uct_c=0.9, rollout_eps=0.2))
    assert (
        make_agent(agent, pyspiel.load_game(GAME), 3).config
        == make_agent(spec, pyspiel.load_game(GAME), 3).config
    )
    a = match(GAME, agent, "random", 2, seed=4)
    b = match(GAME, spec, "random", 2, seed=4)
    timing = ["seconds_a", "seconds_b", "choice_seconds_a", "choice_seconds_b"]
    assert a.games.drop(columns=timing).equals(b.games.drop(columns=timing))
    assert a.spec_a == str(agent.config) == "ismcts(iterations=30,uct_c=0.9,rollout_eps=0.2)"


def test_a_tournament_takes_a_factory(tmp_path):
    raw = {
        "name": "f",
        "deals": 1,
        "games": [{"game": GAME}],
        "agents": [{"name": "s", "spec": "ismcts(iterations=20)"}, {"name": "r", "spec": "random"}],
    }
    by_spec = parse_config({**raw, "out": str(tmp_path / "spec")})
    factory = ISMCTSAgent(SearchConfig(iterations=20))
    by_factory = dataclasses.replace(
        parse_config({**raw, "out": str(tmp_path / "factory")}),
        agents=(Agent("s", factory), Agent("r", "random")),
    )
    assert by_factory.identity()["agents"][0]["spec"] == "ismcts(iterations=20)"
    for config in (by_spec, by_factory):
        run_tournament(config, workers=1, progress=False)
    spec, fact = (
        read_records(tmp_path / out / "records")
        .drop(columns="seconds")
        .sort_values("match_id", ignore_index=True)
        for out in ("spec", "factory")
    )
    assert spec.equals(fact) and len(spec) == 2
