"""Action features in a model (``agents.model``): the bilinear term's gradient, the Numba
forward, the file, and what is refused; then a game's features end to end, a policy-gradient
run that learns them and both agents playing its model (Domino's features: this file takes
40 s with a cold Numba cache, 90 s with Chains')."""

import numpy as np
import pytest

from agents import make_agent
from agents.learned import LearnedBot
from agents.model import NO_FEATURES, PolicyValueNet, feature_size_of, net_logits
from skip_ai.kernel.rng import base_seed, derive, make_rng
from skip_ai.pyspiel_wrapper import load
from skip_ai.training import run_training
from skip_ai.training.chunks import model_sides, play_reinforce_chunk
from skip_ai.training.config import TrainConfigError, load_train_config
from skip_ai.training.optimiser import Adam, Choices, _choice_gradient, fit_q, fit_reinforce
from tests.test_dmc import replay

F = 3


def _net(hidden=(5,), seed=4, parts=None):
    """A small model of 6 actions reading ``F`` action features, all weights random."""
    rng = np.random.default_rng(seed)
    net = PolicyValueNet.initial("g", 6, 6, hidden, seed=seed, parts=parts)
    net = net.with_action_features(1, F)
    net.set_trainable(net.trainable() + rng.normal(0, 0.3, net.trainable_size))
    return net


def _logits(net, obs, row, action, phi):
    """The outputs of the listed moves, written out from the layout in the module docstring."""
    _, _, acts = net.forward(obs, policy=False)
    h = acts[-1][row]
    rows, bias = net.head_rows(action)
    d = int(net.dims[-2])
    U = net.params[net.feature_span][: F * d].reshape(F, d)
    c = net.params[net.feature_span][F * d :]
    return (rows * h).sum(1) + bias + (phi * (h @ U.T + c)).sum(1)


@pytest.mark.parametrize(
    "hidden, parts", [((), None), ((5, 4), None), ((5,), np.array([[0, 2], [0, 3], [1, 2]] * 2))]
)
def test_the_policy_gradient_through_the_features_matches_finite_differences(hidden, parts):
    rng = np.random.default_rng(3)
    net = _net(hidden, parts=parts)
    obs, ret = rng.normal(size=(4, 6)), rng.choice([-1.0, 1.0], 4)
    row = np.array([0, 0, 1, 1, 1, 2, 2, 3, 3, 3])
    action = np.array([1, 4, 0, 2, 5, 3, 4, 0, 1, 5])
    played = np.array([0, 1, 0, 0, 1, 1, 0, 0, 1, 0], float)
    phi = rng.normal(size=(len(row), F)).astype(np.float32)
    t = 0.5
    grad, _ = _choice_gradient(net, obs, Choices(row, action, played, phi), ret, t, advantage=True)
    theta = net.trainable().copy()
    weight = (ret - net.forward(obs, policy=False)[1])[row]

    def objective(x):
        net.set_trainable(x)
        z = _logits(net, obs, row, action, phi.astype(float)) / t
        log_norm = np.log(np.bincount(row, np.exp(z)))[row]
        val = net.forward(obs, policy=False)[1]
        return -(weight * played * (z - log_norm)).sum() / 4 + ((val - ret) ** 2).mean()

    eps = 1e-6
    assert len(grad) == len(theta)
    for i in range(len(theta)):
        step = np.zeros_like(theta)
        step[i] = eps
        fd = (objective(theta + step) - objective(theta - step)) / (2 * eps)
        assert abs(fd - grad[i]) < 1e-6


@pytest.mark.parametrize("hidden", [(), (8,)])
def test_numba_scores_the_features_as_numpy_does(hidden):
    net = _net(hidden)
    rng = np.random.default_rng(5)
    x = rng.random(6) * (np.arange(6) % 2 == 0)
    legal = np.array([0, 3, 5], np.int64)
    phi = rng.normal(size=(3, F))
    out = np.empty(3)
    scratch = np.empty(2 * int(net.dims.max()))
    v = net_logits(net.dims, net.params, x, legal, 3, out, scratch, phi)
    want = _logits(net, x[None], np.zeros(3, np.int64), legal, phi)
    assert np.allclose(out, want) and np.isclose(v, net.forward(x[None], policy=False)[1][0])
    bare = PolicyValueNet(net.game, net.dims, net.params[: -F * (int(net.dims[-2]) + 1)])
    net_logits(bare.dims, bare.params, x, legal, 3, out, scratch, NO_FEATURES)
    assert not np.allclose(out, want)  # the features' term is there


def test_fresh_features_change_nothing_until_trained():
    rng = np.random.default_rng(6)
    base = PolicyValueNet.initial("g", 6, 6, (5,), seed=1)
    base.params[:] = rng.normal(0, 0.3, len(base.params))
    net = base.with_action_features(2, F)
    x, legal = rng.random(6), np.arange(6, dtype=np.int64)
    a, b = np.empty(6), np.empty(6)
    scratch = np.empty(10)
    net_logits(base.dims, base.params, x, legal, 6, a, scratch, NO_FEATURES)
    net_logits(net.dims, net.params, x, legal, 6, b, scratch, rng.normal(size=(6, F)))
    assert np.array_equal(a, b)
    assert (
        feature_size_of(net.dims, net.params) == F and feature_size_of(base.dims, base.params) == 0
    )
    with pytest.raises(ValueError, match="already reads"):
        net.with_action_features(2, F)


def test_tempering_divides_the_features_term_too():
    net = _net((4,))
    x, legal, phi = np.ones(6), np.arange(6, dtype=np.int64), np.ones((6, F))
    a, b = np.empty(6), np.empty(6)
    scratch = np.empty(12)
    net_logits(net.dims, net.params, x, legal, 6, a, scratch, phi)
    net_logits(net.dims, net.tempered_params(0.25), x, legal, 6, b, scratch, phi)
    assert np.allclose(b, a / 0.25)


def test_a_file_keeps_the_features_and_a_game_with_other_ones_refuses_it(tmp_path):
    game = load("skip_brook")  # no action features
    base = PolicyValueNet.initial(str(game), game.obs_size, game.num_distinct_actions(), (4,))
    net = base.with_action_features(1, F)
    net.params[net.feature_span] = 0.5
    net.save(tmp_path / "m.npz")
    back = PolicyValueNet.load(tmp_path / "m.npz")
    assert (back.action_features, back.feature_size) == (1, F)
    assert np.allclose(back.params, net.params)
    with pytest.raises(ValueError, match="reads action features version 1 .* has version 0"):
        PolicyValueNet.load(tmp_path / "m.npz", game)
    base.save(tmp_path / "plain.npz")  # a model without them loads as before
    assert PolicyValueNet.load(tmp_path / "plain.npz", game).feature_size == 0


def test_trainers_that_cannot_score_listed_moves_refuse_a_model_with_features():
    net = _net()
    with pytest.raises(ValueError, match="only listed moves"):
        net.forward(np.zeros((1, 6)))
    with pytest.raises(ValueError, match="without action features"):
        fit_q(net, np.zeros((2, 6)), np.zeros(2, np.int64), np.zeros(2), None, 0.1, 2, None)
    c = Choices(np.array([0, 0]), np.array([1, 2]), np.array([1.0, 0.0]))
    with pytest.raises(ValueError, match="carry none"):
        _choice_gradient(net, np.zeros((1, 6)), c, np.zeros(1))


GAME = "skip_domino"


def _featured_model(game, spread=0.3, seed=0):
    """A small model reading the game's action features, weights random."""
    module = game.spec.action_features
    net = PolicyValueNet.initial(
        str(game),
        game.obs_size,
        game.num_distinct_actions(),
        (16,),
        seed=seed,
    ).with_action_features(module.VERSION, module.SIZE)
    rng = np.random.default_rng(seed)
    net.set_trainable(net.trainable() + rng.normal(0, spread, net.trainable_size))
    return net


def test_the_actor_lists_each_moves_features_and_plays_as_the_learned_bot():
    """A policy-gradient chunk with a model that reads the game's action features: each
    row's features are what the state gives for its legal moves, and at a low temperature the
    move drawn is the learned bot's (which scores them in Numba the same way)."""
    game = load(GAME)
    net = _featured_model(game)
    c = play_reinforce_chunk(GAME, 7, 3, 400, net.dims, net.params, 0.01)
    assert c.games >= 1 and c.moves.features.shape == (
        len(c.moves.actions),
        game.spec.action_features.SIZE,
    )
    side = model_sides(game)[3 % 2]
    bot = LearnedBot(game, net)

    def check(state, k):
        lo, hi = c.moves.offsets[k], c.moves.offsets[k + 1]
        legal = np.asarray(state.legal_actions(), np.int64)
        assert np.array_equal(c.moves.actions[lo:hi], legal)
        want = np.zeros((len(legal), game.spec.action_features.SIZE))
        state.write_action_features(legal, want)
        assert np.allclose(c.moves.features[lo:hi], want, atol=1e-6)  # float32 in the chunk
        assert c.actions[k] == bot.step(state)

    rng = make_rng(int(derive(np.uint64(base_seed(7)), 3)))
    _, movers = replay(game, c, rng, check, lambda seat: side >> seat & 1, whole=False)
    assert movers


def test_a_run_gives_its_start_the_features_and_learns_their_weights(tmp_path):
    """``action_features = true``: the start model (without them) gains them, and the run
    moves their weights; the model it writes plays in both agents."""
    game = load(GAME)
    start = PolicyValueNet.initial(str(game), game.obs_size, game.num_distinct_actions(), (8,))
    start.save(tmp_path / "start.npz")
    path = tmp_path / "run.toml"
    path.write_text(
        f'name = "af"\ngame = "{GAME}"\nmethod = "reinforce"\n'
        f'start = "{tmp_path / "start.npz"}"\n'
        "action_features = true\nself_play = 0.5\ndecisions = 1000\nchunk = 500\nlr = 0.01\n"
        f'eval_every = 1_000_000\neval_deals = 1\nreferences = ["random"]\nactors = 0\n'
        f'out = "{tmp_path / "out"}"\n'
    )
    config = load_train_config(path)
    assert config.identity()["action_features"] is True
    run_training(config, progress=False)
    net = PolicyValueNet.load(tmp_path / "out" / "model.npz", game)
    assert net.feature_size == game.spec.action_features.SIZE
    assert np.abs(net.params[net.feature_span]).max() > 0
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for spec in ("learned", "ismcts(iterations=30,"):
        model = f"model={tmp_path / 'out' / 'model.npz'})"
        bot = make_agent(f"{spec}({model}" if spec == "learned" else spec + model, game)
        assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize(
    "game, line, message",
    [
        (GAME, "action_features = 1", "action_features must be true or false"),
        ("skip_brook", "action_features = true", "action_features: skip_brook.* has none"),
        (GAME, 'action_features = true\nmethod = "dmc"\nhidden = [4]', "reinforce. only"),
        (GAME, "action_features = true\nfeatures_lr = 0", "features_lr must be a finite"),
        (GAME, 'features_lr = 0.01\nmethod = "dmc"\nhidden = [4]', "features_lr is for method"),
    ],
)
def test_bad_action_features_configs_are_refused(tmp_path, game, line, message):
    g = load(game)
    PolicyValueNet.initial(str(g), g.obs_size, g.num_distinct_actions(), (4,)).save(
        tmp_path / "s.npz"
    )
    start = "" if "dmc" in line else f'method = "reinforce"\nstart = "{tmp_path / "s.npz"}"\n'
    path = tmp_path / "bad.toml"
    path.write_text(f'name = "x"\ngame = "{game}"\n{start}decisions = 10\n{line}\n')
    with pytest.raises(TrainConfigError, match=message):
        load_train_config(path)


def test_features_lr_steps_the_features_weights_alone():
    """The same batch learned with ``features_lr`` ten times ``lr``: the features' own weights
    ``c`` move ten times as far, everything else as far as without it."""
    rng = np.random.default_rng(8)
    obs, ret = rng.normal(size=(4, 6)), np.array([1.0, -1.0, 1.0, -1.0])
    c = Choices(
        np.array([0, 0, 1, 1, 2, 2, 3, 3]),
        np.array([1, 4, 0, 2, 3, 4, 0, 1]),
        np.array([0, 1, 1, 0, 1, 0, 0, 1.0]),
        rng.normal(size=(8, F)),
    )
    moved = []
    for features_lr in (None, 1e-2):
        net = _net()
        before = net.trainable().copy()
        fit_reinforce(
            net, obs, lambda rows: c, ret, Adam(net.trainable_size), 1e-3, 4,
            np.random.default_rng(0), 0.5, features_lr=features_lr,
        )  # fmt: skip
        moved.append(net.trainable() - before)
    assert np.allclose(moved[1][-F:], 10 * moved[0][-F:])
    assert np.allclose(moved[1][:-F], moved[0][:-F])
