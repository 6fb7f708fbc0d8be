"""Every game and every variant against the pyspiel contract (RULES.md §0.6)."""

import pickle

import numpy as np
import pyspiel
import pytest
from conftest import random_states

from skip_ai import IllegalActionError
from skip_ai.kernel.resample import PLAN_SIZE
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import LOC, MAX_CARDS, MAX_SEATS, hidden_from
from skip_ai.pyspiel_wrapper import REGISTRY


def test_random_sim_test_with_serialization(variant):
    game = pyspiel.load_game(variant)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_game_is_registered_with_its_original_name():
    names = {g.short_name: g for g in pyspiel.registered_games()}
    for short, spec in REGISTRY.items():
        assert short in names
        assert spec.original_name in names[short].long_name


def same_state(a, b):
    assert str(a) == str(b)
    assert a.history() == b.history()
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    np.testing.assert_array_equal(a.kernel_state(), b.kernel_state())
    for p in range(a.num_players()):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)


def test_clone_serialize_pickle_round_trips(variant):
    game = pyspiel.load_game(variant)
    states, final = random_states(game, seed=3)
    for state in [game.new_initial_state(), *states, final]:
        same_state(state, state.clone())
        same_state(state, game.deserialize_state(state.serialize()))
        same_state(state, pickle.loads(pickle.dumps(state)))
        g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert str(g2) == str(game)
        same_state(state, s2)
    # a clone is independent of its original
    state = states[0]
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    assert len(state.history()) + 1 == len(clone.history())


def test_game_pickles(variant):
    game = pyspiel.load_game(variant)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_illegal_actions_raise_and_leave_the_state_unchanged(variant):
    game = pyspiel.load_game(variant)
    states, final = random_states(game, seed=5)
    for state in [game.new_initial_state(), *states, final]:
        legal = set(state.legal_actions())
        bad = [a for a in range(game.num_distinct_actions() + 2) if a not in legal][:3]
        bad += [-2, 10**6]
        for a in bad:
            before = state.clone()
            with pytest.raises(IllegalActionError):
                state.apply_action(a)
            same_state(state, before)


def test_unknown_parameters_and_values_are_clear_errors():
    for spec in REGISTRY.values():
        with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'no_such'"):
            pyspiel.load_game(f"{spec.short_name}(no_such=1)")
        for p in spec.params:
            bad = 999 if isinstance(p.default, int) and not isinstance(p.default, bool) else None
            if bad is not None:
                with pytest.raises(ValueError, match=f"parameter {p.name}=999"):
                    pyspiel.load_game(f"{spec.short_name}({p.name}={bad})")


def hidden_cards(state, p):
    s = state.kernel_state()
    return [c for c in range(MAX_CARDS) if hidden_from(s, c, p)]


def holder(state, c):
    return int(state.kernel_state()[LOC + c])


def test_information_does_not_change_with_cards_hidden_from_the_player(variant):
    """Swap two cards hidden from p (between two other hands where possible, else within
    one): p's view is unchanged, while the players holding them see the difference."""
    game = pyspiel.load_game(variant)
    states, _ = random_states(game, seed=11, count=5)
    checked = 0
    for state in states:
        for p in range(game.num_players()):
            hidden = hidden_cards(state, p)
            pairs = sorted(
                ((a, b) for a in hidden for b in hidden if a < b),
                key=lambda ab: holder(state, ab[0]) == holder(state, ab[1]),
            )
            for a, b in pairs[:3]:
                sigma = np.arange(MAX_CARDS)
                sigma[a], sigma[b] = b, a
                try:
                    other = state.replay(sigma)
                except IllegalActionError:
                    continue  # that swap contradicts a public event; not a hidden change
                if other.current_player() != state.current_player():
                    continue  # so does one that changes who moves (e.g. Pyatki's opener)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                qa, qb = holder(state, a), holder(state, b)
                if 0 <= qa < MAX_SEATS:
                    assert other.information_state_string(qa) != state.information_state_string(qa)
                    if qa != qb:
                        assert other.observation_tensor(qa) != state.observation_tensor(qa)
                checked += 1
    assert checked > 0


def test_resample_keeps_the_information_and_replays_legally(variant):
    game = pyspiel.load_game(variant)
    kernel = REGISTRY[game.get_type().short_name].kernel
    states, _ = random_states(game, seed=13, count=4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in states:
        for p in range(game.num_players()):
            r = state.resample_from_infostate(p, sampler)
            assert type(r) is type(state)
            assert r.information_state_string(p) == state.information_state_string(p)
            assert r.observation_string(p) == state.observation_string(p)
            assert r.observation_tensor(p) == state.observation_tensor(p)
            assert r.current_player() == state.current_player()
            if p == state.current_player():
                assert r.legal_actions() == state.legal_actions()
            # the history, new chance outcomes included, replays legally from scratch
            fresh = game.new_initial_state()
            for a in r.history():
                assert a in fresh.legal_actions()
                fresh.apply_action(a)
            assert str(fresh) == str(r)
            # the kernel's own resample (what ISMCTS uses) is that very state
            world = state.kernel_state()
            kernel.resample(world, p, make_rng(99), np.empty(MAX_CARDS, np.int64))
            again = state.resample_from_infostate(p, rng=make_rng(99))
            np.testing.assert_array_equal(world, again.kernel_state())


def test_resample_actually_redeals_hidden_cards(variant):
    game = pyspiel.load_game(variant)
    states, _ = random_states(game, seed=17, count=2)
    state = states[0]
    p = state.current_player()
    worlds = {tuple(state.resample_from_infostate(p, rng=make_rng(i)).history()) for i in range(8)}
    if hidden_cards(state, p):
        assert len(worlds) > 1


def test_resample_depends_only_on_the_players_information(variant):
    """Two states that differ only in cards hidden from p resample to the very same world for
    the same generator (the canonical slot order of ``kernel.resample``): a search built on
    resampling cannot react to hidden cards."""
    game = pyspiel.load_game(variant)
    kernel = REGISTRY[game.get_type().short_name].kernel
    sigma = np.empty(MAX_CARDS, np.int64)
    states, _ = random_states(game, seed=19, count=4)
    for state in states:
        for p in range(game.num_players()):
            s = state.kernel_state()
            other = s.copy()
            kernel.resample(other, p, make_rng(5), sigma)
            a, b = s.copy(), other.copy()
            kernel.resample(a, p, make_rng(6), sigma)
            kernel.resample(b, p, make_rng(6), sigma)
            np.testing.assert_array_equal(a, b)


def test_planned_resample_is_the_resample(variant):
    """ISMCTS plans a root's resample once and redraws from the plan (``resample_plan`` /
    ``resample_planned``): each redraw is exactly the one-shot ``resample`` with the same
    generator, including the permutation ``sigma``."""
    game = pyspiel.load_game(variant)
    kernel = REGISTRY[game.get_type().short_name].kernel
    states, _ = random_states(game, seed=23, count=3)
    for state in states:
        for p in range(game.num_players()):
            root = state.kernel_state()
            plan = np.empty(PLAN_SIZE, np.int64)
            kernel.resample_plan(root, p, plan)
            one_rng, planned_rng = make_rng(7), make_rng(7)
            for _ in range(3):  # the plan is reused, as in a search
                one, planned = root.copy(), root.copy()
                sigma_one, sigma_planned = (np.empty(MAX_CARDS, np.int64) for _ in range(2))
                kernel.resample(one, p, one_rng, sigma_one)
                kernel.resample_planned(planned, plan, planned_rng, sigma_planned)
                np.testing.assert_array_equal(planned, one)
                np.testing.assert_array_equal(sigma_planned, sigma_one)


def test_openspiel_ismcts_runs_on_the_game():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("skip_columns(players=2,deck=36)")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=30, random_state=np.random.RandomState(0)
    )
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
