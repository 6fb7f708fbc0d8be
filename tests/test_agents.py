"""The agent factory (its table of kinds, bots built once and set up per game) and the random
agent."""

import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest

from agents import AGENTS, PreparedAgent, make_agent, parse_spec
from agents.human import HumanBot
from agents.ismcts import ISMCTSAgent
from agents.openspiel_bots import OpenSpielISMCTS
from agents.random_agent import RandomBot
from agents.search_config import SearchConfig
from skip_ai.kernel.rng import make_rng
from skip_ai.play import play
from skip_ai.pyspiel_wrapper import load

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


def test_the_table_of_agent_kinds():
    assert sorted(AGENTS) == [
        "heuristic",
        "human",
        "ismcts",
        "learned",
        "openspiel_ismcts",
        "random",
    ]
    assert all(maker.__module__.startswith("agents.") for maker in AGENTS.values())


# every kind of bot that can play a game of its own, and the search as a bot factory
REUSED = [
    "random",
    "heuristic",
    "ismcts(iterations=20)",
    "ismcts(iterations=20,heuristic_prior=true,rollout_eps=0.3)",
    "learned(model=skip_columns)",
    "openspiel_ismcts(iterations=4)",
    ISMCTSAgent(SearchConfig(iterations=20, rollout="random")),
]


def _seeded_worlds(bot: pyspiel.Bot) -> pyspiel.Bot:
    """OpenSpiel's ISMCTS resamples its worlds with an unseeded sampler of its own: draw them
    from the bot's generator instead, so that its play depends on its seed alone."""
    if isinstance(bot, OpenSpielISMCTS):
        rs = bot._random_state
        bot.set_resampler(
            lambda s, p: s.resample_from_infostate(p, rng=make_rng(rs.randint(1 << 31)))
        )
    return bot


def _one_game(bot: pyspiel.Bot, game, deal: int) -> list:
    """Every move of a game of ``deal`` with ``bot`` in every seat, with its search's visits."""
    moves = []

    def seen(d):
        stats = getattr(bot, "last_search", None)
        moves.append((d.action, None if stats is None else stats.visits.tolist()))

    play(game.new_initial_state(), [bot] * game.num_players(), make_rng(deal), on_decision=seen)
    return moves


@pytest.mark.parametrize("agent", REUSED, ids=str)
def test_a_bot_set_up_for_a_new_game_plays_as_one_built_for_it(agent):
    game = load("skip_columns")  # the default variant: the shipped model's
    prepared = PreparedAgent(agent, game)
    seeds_and_deals = [(1, 10), (2, 11), (1, 10)]
    reused = [_one_game(_seeded_worlds(prepared.bot(s)), game, d) for s, d in seeds_and_deals]
    fresh = [
        _one_game(_seeded_worlds(make_agent(agent, game, seed=s)), game, d)
        for s, d in seeds_and_deals
    ]
    assert reused == fresh
    assert prepared.bot(3) is prepared.bot(4)  # built once


def test_a_bot_without_new_game_is_built_for_each_game():
    built = []

    class Foreign(pyspiel.Bot):
        def __init__(self, seed):
            pyspiel.Bot.__init__(self)
            self.seed = seed

        def step(self, state):
            return state.legal_actions()[0]

    def factory(game, seed):
        built.append(seed)
        return Foreign(seed)

    prepared = PreparedAgent(factory, load("skip_columns"))
    a, b = prepared.bot(5), prepared.bot(6)
    assert a is not b and (a.seed, b.seed) == (5, 6) and built == [0, 5, 6]


def test_a_person_starts_each_game_afresh():
    bot = HumanBot()
    bot._seen[0] = 12  # the history's length at seat 0's last move
    bot.new_game(3)
    assert bot._seen == {}
