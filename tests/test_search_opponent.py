"""Policy gradient against a search (``opponent = "ismcts(iterations=N)"``): the games replay
through pyspiel with the opponent's moves those of the search agent seeded as documented and
the model's drawn from its policy; a run with the option trains, and the option is checked and
is part of the run's identity."""

from types import SimpleNamespace

import numpy as np
import pytest

from agents import make_agent
from agents.learned import LearnedBot
from skip_ai.kernel.rng import base_seed, derive, make_rng, uniform
from skip_ai.pyspiel_wrapper import load
from skip_ai.training import run_training
from skip_ai.training.chunks import model_sides, play_reinforce_chunk
from skip_ai.training.config import TrainConfigError, load_train_config
from skip_ai.training.search_opponent import SEARCH_FAMILY
from tests.test_dmc import targets_are_returns
from tests.test_reinforce import GAME, _config, model

SEARCH = "ismcts(iterations=20)"


def _replay(game, c, seed, first, model_seat, check):
    """Game ``first`` of chunk ``c`` walked through pyspiel: chance from the game's generator,
    the search agent (seeded from the search family) at the other seats, forced moves, and at
    each model decision one uniform draw before ``check(state, k)`` looks at row ``k``."""
    rng = make_rng(int(derive(np.uint64(base_seed(seed)), first)))
    search_seed = int(derive(np.uint64(base_seed(seed)) ^ SEARCH_FAMILY, first))
    search = make_agent(SEARCH, game, search_seed)
    state, movers = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(game.spec.kernel.sample_chance(state.kernel_state(), rng)))
            continue
        seat = state.current_player()
        if len(state.legal_actions()) == 1:
            state.apply_action(state.legal_actions()[0])
            continue
        if not model_seat(seat):
            state.apply_action(search.step(state))
            continue
        uniform(rng)
        check(state, len(movers))
        state.apply_action(int(c.actions[len(movers)]))
        movers.append(seat)
    return state, movers


@pytest.mark.parametrize("first", [3, 4])
def test_the_other_side_plays_the_search_and_the_models_side_its_policy(first):
    """Game ``first``: the other side's moves are the search agent's, seeded from the search
    family and the game's index; at a low temperature the model side's move is the learned
    bot's; each row is its mover's observation, legal moves and final return."""
    game = load(GAME)
    net = model(game)
    c = play_reinforce_chunk(GAME, 7, first, 2000, net.dims, net.params, 0.01, opponent=SEARCH)
    side = model_sides(game)[first % 2]
    bot = LearnedBot(game, net)

    def check(state, k):
        assert np.array_equal(c.obs[k], np.asarray(state.observation_tensor(), np.float32))
        legal = c.moves.actions[c.moves.offsets[k] : c.moves.offsets[k + 1]]
        assert legal.tolist() == state.legal_actions()
        assert c.actions[k] == bot.step(state)

    state, movers = _replay(game, c, 7, first, lambda seat: side >> seat & 1, check)
    assert movers and all(side >> m & 1 for m in movers)
    n = len(movers)
    assert targets_are_returns(game, SimpleNamespace(target=c.target[:n]), state, movers)
    against_heuristic = play_reinforce_chunk(GAME, 7, first, 2000, net.dims, net.params, 0.01)
    assert not np.array_equal(against_heuristic.actions[:n], c.actions[:n])


def test_chunks_against_the_search_are_reproducible_and_go_on_game_by_game():
    game = load(GAME)
    net = model(game)
    args = (GAME, 1, 0, 800, net.dims, net.params, 0.5)
    a = play_reinforce_chunk(*args, opponent=SEARCH)
    b = play_reinforce_chunk(*args, opponent=SEARCH)
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.actions, b.actions)
    assert np.array_equal(a.target, b.target)
    rest = play_reinforce_chunk(GAME, 1, a.games, 800, net.dims, net.params, 0.5, opponent=SEARCH)
    both = play_reinforce_chunk(GAME, 1, 0, 1600, net.dims, net.params, 0.5, opponent=SEARCH)
    n = len(a.actions)
    assert np.array_equal(both.actions[:n], a.actions)
    assert np.array_equal(both.actions[n : n + len(rest.actions)], rest.actions)


def test_a_self_play_game_against_a_search_opponent_has_no_search():
    """``self_play = 1``: every seat is the model's, as with the heuristic as opponent."""
    game = load(GAME)
    net = model(game)
    args = (GAME, 7, 3, 2000, net.dims, net.params, 0.5)
    searched = play_reinforce_chunk(*args, self_play=1.0, opponent=SEARCH)
    plain = play_reinforce_chunk(*args, self_play=1.0)
    assert np.array_equal(searched.actions, plain.actions)
    assert np.array_equal(searched.obs, plain.obs)


def test_a_run_against_a_search_trains_and_its_opponent_is_in_its_identity(tmp_path):
    path = _config(tmp_path, "vs", decisions=1_000, opponent=f'opponent = "{SEARCH}"')
    config = load_train_config(path)
    assert config.opponent == SEARCH and config.identity()["opponent"] == SEARCH
    assert "opponent" not in load_train_config(_config(tmp_path, "plain")).identity()
    rows = run_training(config, progress=False)
    assert rows and (tmp_path / "vs" / "model.npz").exists()
    path.write_text(path.read_text().replace("iterations=20", "iterations=30"))
    with pytest.raises(ValueError, match="different config"):
        run_training(load_train_config(path), progress=False)


@pytest.mark.parametrize(
    "line, message",
    [
        ('opponent = "ismcts(seconds=0.1)"', "a timed search would make a run depend"),
        ('opponent = "random"', 'opponent must be "heuristic" or'),
        ('opponent = "ismcts(iterations=0)"', "opponent: "),
        ("opponent = 3", "opponent must be an agent spec"),
        (f'opponent = "{SEARCH}"\nbaseline = "duplicate"', "the heuristic's return"),
    ],
)
def test_bad_opponents_are_refused(tmp_path, line, message):
    with pytest.raises(TrainConfigError, match=message):
        load_train_config(_config(tmp_path, "bad", opponent=line))


def test_an_opponent_is_refused_with_dmc(tmp_path):
    path = _config(tmp_path, "bad", start="", method='method = "dmc"')
    path.write_text(path.read_text() + f'opponent = "{SEARCH}"\n')
    with pytest.raises(TrainConfigError, match="opponent is for method"):
        load_train_config(path)
