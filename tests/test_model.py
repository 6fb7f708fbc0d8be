"""The policy/value model: the Numba forward, the file format, and ISMCTS with a model
(reproducible, refusing another game's model). Its trainers: ``test_optimiser.py``."""

import numpy as np
import pyspiel
import pytest
from conftest import random_states

from agents import make_agent
from agents.ismcts_kernel import FIRST, KEY, M_EVALS, M_ITERATIONS, META_SIZE, NEXT, PRIOR
from agents.model import NO_FEATURES, PolicyValueNet, net_logits

GAME = "skip_brook(players=4)"


def _random_net(game, hidden=(), seed=0):
    net = PolicyValueNet.initial(str(game), game.obs_size, game.num_distinct_actions(), hidden)
    net.params[:] = np.random.default_rng(seed).normal(0, 0.2, len(net.params))
    return net


@pytest.mark.parametrize("hidden", [(), (8,)])
def test_numba_forward_equals_numpy(hidden):
    game = pyspiel.load_game(GAME)
    net = _random_net(game, hidden)
    obs = np.random.default_rng(3).random((2, game.obs_size)) * (np.arange(game.obs_size) % 3 == 0)
    logits, values, _ = net.forward(obs)
    legal = np.array([0, 7, 54], np.int64)
    out = np.empty(3)
    v = net_logits(
        net.dims, net.params, obs[1], legal, 3, out, np.empty(2 * net.dims.max()), NO_FEATURES
    )
    assert np.allclose(out, logits[1, legal]) and np.isclose(v, values[1])


def test_saved_model_loads_and_plays_identically(tmp_path):
    game = pyspiel.load_game(GAME)
    net = _random_net(game)
    net.generation = 5
    path = tmp_path / "gen5.npz"
    net.save(path)
    back = PolicyValueNet.load(path, str(game))
    assert back.generation == 5 and back.game == str(game)
    # stored as float32 (half the file), read back as float64: equal to float32 precision,
    # and saving what was read writes the same numbers again
    assert back.params.dtype == np.float64 and np.array_equal(back.dims, net.dims)
    assert np.array_equal(back.params, net.params.astype(np.float32))
    back.save(tmp_path / "again.npz")
    assert np.array_equal(PolicyValueNet.load(tmp_path / "again.npz").params, back.params)
    spec = f"ismcts(iterations=300,model={path})"
    states, _ = random_states(game, seed=4, count=3)
    for state in states:
        a = make_agent(spec, game, seed=11)
        b = make_agent(spec, game, seed=11)
        assert a.step(state) == b.step(state)
        assert np.array_equal(a.last_search.visits, b.last_search.visits)
    # the prior changes the search: visit counts differ from plain ISMCTS on the same seed
    plain = make_agent("ismcts(iterations=300)", game, seed=11)
    plain.step(states[0])
    a.step(states[0])
    assert not np.array_equal(plain.last_search.visits, a.last_search.visits)


def test_model_rollouts_are_reproducible(tmp_path):
    game = pyspiel.load_game(GAME)
    path = tmp_path / "m.npz"
    _random_net(game).save(path)
    state = random_states(game, seed=5, count=1)[0][0]
    spec = f"ismcts(iterations=100,model={path},rollout=model)"
    assert make_agent(spec, game, seed=2).step(state) == make_agent(spec, game, seed=2).step(state)


def test_model_for_another_game_is_refused(tmp_path):
    brook = pyspiel.load_game(GAME)
    path = tmp_path / "brook.npz"
    _random_net(brook).save(path)
    other = pyspiel.load_game("skip_brook(players=2)")
    with pytest.raises(ValueError, match="trained for skip_brook.*not skip_brook"):
        make_agent(f"ismcts(iterations=10,model={path})", other)
    with pytest.raises(ValueError, match="trained for"):
        PolicyValueNet.load(path, "skip_columns(deck=52,players=4)")


def test_missing_and_malformed_model_files_are_clear_errors(tmp_path):
    game = pyspiel.load_game(GAME)
    with pytest.raises(ValueError, match="no model file"):
        make_agent(f"ismcts(iterations=10,model={tmp_path / 'none.npz'})", game)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a model file"):
        PolicyValueNet.load(junk)
    partial = tmp_path / "partial.npz"
    np.savez(partial, dims=np.array([3, 2]))
    with pytest.raises(ValueError, match="missing .*params"):
        PolicyValueNet.load(partial)
    pickled = tmp_path / "pickled.npz"
    net = _random_net(game)
    np.savez(
        pickled,
        format=np.array("skip_ai.policy_value_net/1"),
        game=np.array(str(game)),
        obs_size=np.int64(net.obs_size),
        num_actions=np.int64(net.num_actions),
        generation=np.int64(0),
        dims=net.dims,
        params=np.array([{"x": 1}], dtype=object),
    )
    with pytest.raises(ValueError, match="not a model file"):
        PolicyValueNet.load(pickled)
    short = tmp_path / "short.npz"
    net.params = net.params[:-1]
    net.save(short)
    with pytest.raises(ValueError, match="parameters"):
        PolicyValueNet.load(short)


def test_value_after_backs_up_the_models_value(tmp_path):
    game = pyspiel.load_game(GAME)
    path = tmp_path / "v.npz"
    _random_net(game).save(path)
    state = random_states(game, seed=6, count=1)[0][0]
    spec = f"ismcts(iterations=300,model={path},prior_c=0,value_after=0)"
    a, b = make_agent(spec, game, seed=3), make_agent(spec, game, seed=3)
    assert a.step(state) == b.step(state)
    assert np.array_equal(a.last_search.visits, b.last_search.visits)
    rollouts = make_agent(f"ismcts(iterations=300,model={path},prior_c=0)", game, seed=3)
    rollouts.step(state)
    assert not np.array_equal(rollouts.last_search.values, a.last_search.values)
    # a zero model values every leaf at an even game: every root child's mean is 0.5
    zero = tmp_path / "zero.npz"
    PolicyValueNet.initial(str(game), game.obs_size, game.num_distinct_actions()).save(zero)
    z = make_agent(f"ismcts(iterations=300,model={zero},prior_c=0,value_after=0)", game)
    z.step(state)
    assert np.allclose(z.last_search.values, 0.5)


def test_value_after_is_checked(tmp_path):
    game = pyspiel.load_game(GAME)
    with pytest.raises(ValueError, match="value_after needs a model"):
        make_agent("ismcts(iterations=10,value_after=0)", game)
    path = tmp_path / "v.npz"
    _random_net(game).save(path)
    with pytest.raises(ValueError, match="integer ≥ 0"):
        make_agent(f"ismcts(iterations=10,model={path},value_after=-1)", game)
    pyatki = pyspiel.load_game("skip_pyatki(players=3)")
    p3 = tmp_path / "p3.npz"
    _random_net(pyatki).save(p3)
    with pytest.raises(ValueError, match="two sides"):
        make_agent(f"ismcts(iterations=10,model={p3},value_after=0)", pyatki)


def _run_search(spec, game, iterations):
    """One kernel run of ``iterations`` from a decision of a random game: the state, the
    tree, its statistics and the run's counters."""
    state = random_states(game, seed=6, count=1)[0][0]
    bot = make_agent(spec, game, seed=3)
    tree, stats = np.full((100_000, 5), -1, np.int64), np.zeros((100_000, 3))
    meta = np.zeros(META_SIZE, np.int64)
    rng = np.array([7], np.uint64)
    bot.kernel.run(state.kernel_state(), rng, iterations, tree, stats, meta, bot.settings)
    return state, tree, stats, meta


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_prior_depth_limits_where_the_model_guides_expansion(tmp_path, depth):
    """``prior_depth=1``: only the root's children carry the model's prior (the network is
    evaluated once a run: ``test_the_root_prior_is_evaluated_once_per_run``); 0: nodes below
    them too; 2: down to their children."""
    game = pyspiel.load_game(GAME)
    path = tmp_path / "m.npz"
    _random_net(game).save(path)
    spec = f"ismcts(iterations=400,model={path},prior_depth={depth})"
    _, tree, stats, _ = _run_search(spec, game, 400)

    def children(node):
        c = tree[node, FIRST]
        while c >= 0:
            yield c
            c = tree[c, NEXT]

    def decisions_below(node, level, out):  # each node's number of decisions above it
        for c in children(node):
            is_decision = (tree[c, KEY] & 7) > 0
            out[c] = level + is_decision
            decisions_below(c, level + is_decision, out)
        return out

    level = decisions_below(0, 0, {})
    guided = {n for n in level if stats[n, PRIOR] > 0}
    assert guided and all(stats[n, PRIOR] <= 1 for n in guided)
    if depth:
        assert max(level[n] for n in guided) == depth
    else:
        assert max(level[n] for n in guided) > 2


@pytest.mark.parametrize("depth", [0, 1])
def test_the_root_prior_is_evaluated_once_per_run(tmp_path, depth):
    """The observer's observation and legal moves are the same in every determinization, so
    a run evaluates the root's prior once, not once per root expansion: with
    ``prior_depth=1`` (the prior at the root only) 400 iterations make one network
    evaluation, and the root's children still carry the model's softmax at the root. Deeper
    priors are evaluated at each expansion below the root."""
    game = pyspiel.load_game(GAME)
    path = tmp_path / "m.npz"
    net = _random_net(game, hidden=(8,))
    net.save(path)
    spec = f"ismcts(iterations=400,model={path},prior_depth={depth})"
    state, tree, stats, meta = _run_search(spec, game, 400)
    if depth == 1:
        assert meta[M_EVALS] == 1
    else:
        assert meta[M_EVALS] > 20
    legal = np.array(state.legal_actions())
    assert len(legal) > 1  # else one evaluation is all there could be
    logits = net.forward(np.array([state.observation_tensor()]))[0][0, legal]
    softmax = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    c, seen = tree[0, FIRST], {}
    while c >= 0:
        seen[tree[c, KEY] // 8] = stats[c, PRIOR]
        c = tree[c, NEXT]
    assert sorted(seen) == sorted(legal.tolist())
    assert np.allclose([seen[a] for a in legal], softmax)


def test_a_search_without_a_model_evaluates_no_network():
    _, _, _, meta = _run_search("ismcts(iterations=200)", pyspiel.load_game(GAME), 200)
    assert meta[M_EVALS] == 0 and meta[M_ITERATIONS] == 200
