"""Simulation balancing (skip_ai.tuning.rollout_balancing): expert positions, the rollouts'
squared
bias, the tuning, its file and its commands."""

import json

import numpy as np
import pyspiel
import pytest

from agents import make_agent
from agents.heuristics import heuristic_module
from agents.search_config import load_search_config
from skip_ai.cli import main
from skip_ai.kernel.state import H_CUR
from skip_ai.tuning.rollout_balancing import (
    Positions,
    balance,
    expert_positions,
    load_positions,
    rollout_error,
    save_balanced,
    save_positions,
)

GAME = "skip_brook(players=4)"
EXPERT = "ismcts(iterations=30)"


@pytest.fixture(scope="module")
def positions() -> Positions:
    return expert_positions(GAME, EXPERT, n_games=6, per_game=5, seed=3, progress=False)


def test_expert_positions_are_decisions_with_their_movers_final_return(positions):
    game = pyspiel.load_game(GAME)
    pos = positions
    n = len(pos.targets)
    assert 6 < n <= 30 and pos.states.shape == (n, len(game.initial))
    assert np.array_equal(pos.states[:, H_CUR], pos.movers)
    assert set(np.unique(pos.targets)) <= {0.0, 0.5, 1.0}  # Brook: lost, drawn, won
    legal = np.empty(game.num_distinct_actions(), np.int64)
    for s in pos.states:  # every kept decision had a choice
        assert game.spec.kernel.legal_actions(s.copy(), legal) > 1
    again = expert_positions(GAME, EXPERT, n_games=6, per_game=5, seed=3, progress=False)
    assert np.array_equal(again.states, pos.states) and np.array_equal(again.targets, pos.targets)
    # one game's positions: partners share the outcome, and the two teams' add up to 1
    one = expert_positions(GAME, EXPERT, n_games=1, per_game=10, seed=3, progress=False)
    team = game.teams()[one.movers]
    by_team = [set(one.targets[team == t]) for t in (0, 1)]
    assert all(len(v) == 1 for v in by_team)
    assert by_team[0].pop() + by_team[1].pop() == 1.0


def test_expert_positions_refuse_empty_requests():
    with pytest.raises(ValueError, match="at least 1"):
        expert_positions(GAME, EXPERT, n_games=0)
    with pytest.raises(ValueError, match="at least 1"):
        expert_positions(GAME, EXPERT, n_games=2, per_game=0)


def test_positions_file_round_trips_and_refuses_other_games_and_damage(positions, tmp_path):
    path = tmp_path / "pos.npz"
    save_positions(positions, path)
    game = pyspiel.load_game(GAME)
    back = load_positions(path, game)
    assert back.expert == EXPERT and np.array_equal(back.states, positions.states)
    assert np.array_equal(back.targets, positions.targets)
    with pytest.raises(ValueError, match="not skip_brook\\(deck=36"):
        load_positions(path, pyspiel.load_game("skip_brook(players=2)"))
    with pytest.raises(ValueError, match="no expert positions file"):
        load_positions(tmp_path / "missing.npz", game)
    path.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not an expert positions file"):
        load_positions(path, game)


def test_rollout_error_is_reproducible_and_unbiased_in_the_number_of_rollouts(positions):
    """The variance correction makes the estimate of the squared bias independent of how many
    playouts average it (up to noise); without it, few playouts would look worse."""
    game = pyspiel.load_game(GAME)
    w = heuristic_module(game.spec.kernel).WEIGHTS
    assert rollout_error(game, positions, w, 0.2, 8, seed=1) == rollout_error(
        game, positions, w, 0.2, 8, seed=1
    )
    few = np.mean([rollout_error(game, positions, w, 0.2, 4, seed=s) for s in range(20)])
    many = rollout_error(game, positions, w, 0.2, 200, seed=99)
    assert abs(few - many) < 0.02
    # random rollouts judge positions worse than the heuristic's
    assert rollout_error(game, positions, w, 1.0, 64) > rollout_error(game, positions, w, 0.0, 64)
    with pytest.raises(ValueError, match="at least 2"):
        rollout_error(game, positions, w, 0.0, 1)


def test_balancing_gives_a_search_file_that_ismcts_loads(positions, tmp_path):
    game = pyspiel.load_game(GAME)
    r = balance(
        game, positions, rounds=2, population=4, elite=2, rollouts=4, seed=1, progress=False
    )
    assert [h["round"] for h in r.rounds] == [0, 1]
    assert all(len(h["mean"]) == 3 + len(r.names) and "held_out_error" in h for h in r.rounds)
    assert 0 <= r.config.rollout_eps <= 1 and r.config.effective_prior_c == 0
    path = tmp_path / "balanced.json"
    save_balanced(r, path)
    data = json.loads(path.read_text())
    assert data["balanced_on"] == EXPERT and data["held_out_error"]["default"] == r.default_error
    back = load_search_config(path, game)
    assert back.rollout_eps == r.config.rollout_eps
    assert back.weights == r.config.weights and not back.heuristic_prior
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    bot = make_agent(f"ismcts(iterations=40,tuned={path})", game, seed=2)
    assert bot.config.rollout_eps == r.config.rollout_eps and not bot.config.heuristic_prior
    assert bot.step(state) in state.legal_actions()
    with pytest.raises(ValueError, match="positions are from"):
        balance(pyspiel.load_game("skip_brook(players=2)"), positions, progress=False)
    with pytest.raises(ValueError, match="too few"):
        balance(game, positions.part(slice(0, 3)), progress=False)


def test_positions_and_balance_commands(tmp_path, capsys):
    pos, out = tmp_path / "pos.npz", tmp_path / "bal.json"
    assert (
        main(
            [
                "positions",
                GAME,
                "--expert",
                EXPERT,
                "--games",
                "3",
                "--per-game",
                "4",
                "--out",
                str(pos),
            ]
        )
        == 0
    )
    assert "positions from 3 games" in capsys.readouterr().out
    assert (
        main(
            [
                "tune",
                GAME,
                "--balance",
                str(pos),
                "--rounds",
                "1",
                "--population",
                "3",
                "--elite",
                "1",
                "--rollouts",
                "4",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert "held-out squared bias" in capsys.readouterr().out
    assert json.loads(out.read_text())["balanced_on"] == EXPERT
    assert (
        main(["tune", GAME, "--balance", str(pos), "--search", "iterations=5", "--out", str(out)])
        == 2
    )
    assert "give one" in capsys.readouterr().err
    assert main(["tune", "skip_harvest(players=4)", "--balance", str(pos), "--out", str(out)]) == 2
    assert "positions are from" in capsys.readouterr().err
