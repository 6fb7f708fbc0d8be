"""The agent factory and the random agent."""

import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest

from agents import make_agent, parse_spec
from agents.random_agent import RandomBot

ROOT = Path(__file__).resolve().parents[1]


def test_parse_spec():
    assert parse_spec("random") == ("random", {})
    assert parse_spec("ismcts(iterations=1000)") == ("ismcts", {"iterations": 1000})
    assert parse_spec(" ismcts( seconds=1.5 , rollout=heuristic, final=visits, x=true) ") == (
        "ismcts",
        {"seconds": 1.5, "rollout": "heuristic", "final": "visits", "x": True},
    )


@pytest.mark.parametrize("bad", ["", "random(", "random(x)", "9lives", "a(b=1,b=2)"])
def test_malformed_specs_are_clear_errors(bad):
    with pytest.raises(ValueError, match="spec|argument"):
        parse_spec(bad)


def test_unknown_agent_and_arguments():
    game = pyspiel.load_game("skip_columns")
    with pytest.raises(ValueError, match="unknown agent 'genius'.*known agents: .*random"):
        make_agent("genius", game)
    with pytest.raises(ValueError, match="bad arguments"):
        make_agent("random(depth=3)", game)


def test_random_bot_is_a_pyspiel_bot_playing_legal_moves_deterministically():
    game = pyspiel.load_game("skip_columns(players=4,deck=36)")

    def play(seed):
        bot = make_agent("random", game, seed=seed)
        assert isinstance(bot, pyspiel.Bot) and isinstance(bot, RandomBot)
        state = game.new_initial_state()
        moves = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.legal_actions()[0])
                continue
            policy, action = bot.step_with_policy(state)
            assert action in state.legal_actions()
            assert sorted(a for a, _ in policy) == state.legal_actions()
            moves.append(action)
            state.apply_action(action)
        return moves

    assert play(1) == play(1)
    assert play(1) != play(2)


def test_random_bot_drives_openspiel_evaluation():
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("skip_columns(players=2,deck=36)")
    bots = [make_agent("random", game, seed=s) for s in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 1.0]


def test_kernel_bots_are_compiled_when_made_not_in_their_first_move():
    # a cold compile in the first move (5 s for Pyatki's heuristic) was reported as that move's
    # thinking time; a fresh interpreter, so no earlier test has compiled the kernels already
    script = """
import pyspiel
from agents import make_agent
from agents.heuristics import heuristic_module
from agents.policies import random_action

game = pyspiel.load_game("skip_pyatki")
act = heuristic_module(game.spec.kernel).act
assert not act.signatures and not random_action.signatures
bots = [make_agent("heuristic", game), make_agent("random", game)]
made = [list(act.signatures), list(random_action.signatures)]
assert all(made), made
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
for bot in bots:
    bot.step(state)
assert [list(act.signatures), list(random_action.signatures)] == made
"""
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT, timeout=600)
