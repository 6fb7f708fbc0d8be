"""The learner's imitation gradients (``skip_ai.training.optimiser``): the dense one over every
action id, through a factored head, and the sparse one over each row's listed moves. Deep
Monte-Carlo's and the policy gradient's are tested in ``test_dmc.py`` and ``test_reinforce.py``."""

import numpy as np
import pytest

from agents.model import PolicyValueNet
from skip_ai.training.optimiser import Choices, _choice_gradient, _gradient, reduce

PARTS = np.array([[0, 2], [0, 3], [1, 2], [1, 3], [1, 4], [0, 4]])
"""Six actions made of two parts each (a factored head: ``GameSpec.action_parts``)."""


def _net(hidden, parts, seed):
    rng = np.random.default_rng(seed)
    net = PolicyValueNet.initial("g", 6, 6, hidden, seed=seed + 1, parts=parts)
    net.set_trainable(net.trainable() + rng.normal(0, 0.3, net.trainable_size))
    return net


@pytest.mark.parametrize("hidden, parts", [((), None), ((5, 4), None), ((5,), PARTS)])
def test_the_dense_gradient_matches_finite_differences(hidden, parts):
    """The gradient over the trained parameters (with ``parts``: the parts' rows, through
    :func:`reduce`) of the cross-entropy over every action id plus the value's squared
    error is the loss's derivative."""
    rng = np.random.default_rng(1)
    net = _net(hidden, parts, 1)
    obs = rng.normal(size=(7, 6))
    target = rng.random((7, 6))
    target /= target.sum(axis=1, keepdims=True)
    value = rng.uniform(-1, 1, 7)
    grad = reduce(net, _gradient(net, obs, target, value)[0])
    theta, eps = net.trainable().copy(), 1e-6

    def loss(t):
        net.set_trainable(t)
        _, v, _ = net.forward(obs, policy=False)
        return _gradient(net, obs, target, value)[1] + ((v - value) ** 2).mean()

    for i in range(len(theta)):
        step = np.zeros_like(theta)
        step[i] = eps
        assert abs((loss(theta + step) - loss(theta - step)) / (2 * eps) - grad[i]) < 1e-6


@pytest.mark.parametrize("parts", [None, PARTS])
def test_the_sparse_imitation_gradient_is_the_dense_one(parts):
    """Choices listing every move of each row (the head's rows computed only for the listed
    moves) give the gradient and loss of the dense softmax; a row's moves listed in any order
    give the same."""
    rng = np.random.default_rng(8)
    net = _net((5,), parts, 3)
    obs, value = rng.normal(size=(5, 6)), rng.uniform(-1, 1, 5)
    row = np.repeat(np.arange(5), 6)
    action = np.concatenate([rng.permutation(6) for _ in range(5)])
    dense = rng.random((5, 6))
    dense /= dense.sum(axis=1, keepdims=True)
    grad, loss = _choice_gradient(net, obs, Choices(row, action, dense[row, action]), value)
    want, want_loss = _gradient(net, obs, dense, value)
    assert np.allclose(grad, reduce(net, want)) and np.isclose(loss, want_loss)


@pytest.mark.parametrize("parts", [None, PARTS])
def test_the_sparse_gradient_over_some_moves_matches_finite_differences(parts):
    """Each row's softmax runs over its listed (legal) moves only."""
    rng = np.random.default_rng(9)
    net = _net((5,), parts, 5)
    obs, value = rng.normal(size=(5, 6)), rng.uniform(-1, 1, 5)
    row = np.array([0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4])
    action = np.array([1, 4, 0, 2, 5, 3, 4, 0, 1, 2, 5, 2, 3])
    target = rng.random(len(row))
    target /= np.bincount(row, target)[row]
    c = Choices(row, action, target)
    grad, _ = _choice_gradient(net, obs, c, value)
    theta, eps = net.trainable().copy(), 1e-6

    def loss(t):
        net.set_trainable(t)
        logits, v, _ = net.forward(obs)
        z = logits[row, action]
        log_norm = np.log(np.bincount(row, np.exp(z)))[row]
        return -(target * (z - log_norm)).sum() / 5 + ((v - value) ** 2).mean()

    for i in range(len(theta)):
        step = np.zeros_like(theta)
        step[i] = eps
        assert abs((loss(theta + step) - loss(theta - step)) / (2 * eps) - grad[i]) < 1e-6
