"""PettingZoo users: every game through Shimmy's OpenSpiel wrapper (``skip_ai.pettingzoo_env``)
passes PettingZoo's own API test and plays whole games with the game's returns as rewards.

Needs the ``pettingzoo`` extra; skipped without it.
"""

import pickle
import warnings

import pyspiel
import pytest

pytest.importorskip("shimmy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from skip_ai.pettingzoo_env import env as make_env  # noqa: E402
from skip_ai.pyspiel_wrapper import REGISTRY  # noqa: E402

UNBOUNDED_BOX = {
    "Agent's minimum observation space value is -infinity. This is probably too low.",
    "Agent's maximum observation space value is infinity. This is probably too high",
}
"""The API test's only warnings on our games: Shimmy declares every observation tensor as a
Box from -inf to inf."""

VARIANTS = ["skip_columns(players=6)", "skip_domino(players=2)", "classic_rummy(players=5)"]
"""Beyond the defaults: six players, parameters filled in from others, a five-seat game."""


@pytest.mark.parametrize("game", list(REGISTRY))
def test_pettingzoo_api_test(game):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make_env(game))  # plays one whole game with random legal moves
    assert {str(w.message) for w in caught} <= UNBOUNDED_BOX


def play(env, seed: int) -> tuple[dict, list[int]]:
    """One whole game with seeded random legal moves: the rewards each agent collected and
    the game's history."""
    env.reset(seed=seed)
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + i)
    collected = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, termination, truncation, info = env.last()
        collected[agent] += reward
        assert not truncation
        env.step(None if termination else int(env.action_space(agent).sample(info["action_mask"])))
    return collected, env.unwrapped.game_state.history()


@pytest.mark.parametrize("game", [*REGISTRY, *VARIANTS])
def test_whole_game_pays_the_returns_once(game):
    env = make_env(game)
    collected, history = play(env, seed=5)
    state = env.unwrapped.game_state
    assert state.is_terminal()
    assert list(collected.values()) == pytest.approx(state.returns())
    assert str(state.get_game()) == str(pyspiel.load_game(game))  # the variant survived reset
    assert len(env.possible_agents) == state.num_players()
    assert play(env, seed=5) == (collected, history)  # seeds of the deal and of the spaces


def test_pickled_env_keeps_its_variant():
    env = pickle.loads(pickle.dumps(make_env("skip_columns(players=6)")))
    env.reset(seed=0)
    assert env.unwrapped.game_state.num_players() == 6
    assert env.possible_agents == [f"player_{i}" for i in range(6)]


@pytest.mark.parametrize(
    "game, message", [("skip_columns(players=5)", "players=5"), ("tic_tac_toe", "unknown game")]
)
def test_bad_game_string(game, message):
    with pytest.raises(ValueError, match=message):
        make_env(game)
