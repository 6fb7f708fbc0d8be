"""The learner: the losses of the training methods, their gradients and Adam, in plain numpy.

A model (:class:`agents.model.PolicyValueNet`) is fitted over :meth:`~PolicyValueNet.trainable`
(``params`` itself, or with a factored head the parts' rows in place of the action rows): the
gradients below are taken over ``params`` and gathered onto the parts by :func:`reduce`, or
computed for the listed moves' rows alone and gathered by :func:`head_gradient`.

- **Deep Monte-Carlo** (:func:`fit_q`): Q(s, a) of the move taken and the value head regressed
  on the mover's final return by squared error, each batch's gradient clipped as DouZero's.
- **Imitation** (:func:`fit_imitation`): cross-entropy to a teacher's policy (the heuristic's
  moves as :func:`one_hot` targets over every action id, or a search's shares over each
  decision's legal moves as :class:`Choices`), plus the value head's squared error.
- **Policy gradient** (:func:`fit_reinforce`): REINFORCE over each decision's legal moves,
  weighted by the return minus the value head's estimate, plus the value head's squared error.

A trainer over the listed moves (:class:`Choices`) computes only their rows of the head (Chains:
~20 of 33 750), and only such a trainer scores a model that reads action features: their term
needs the position's moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from agents.model import PolicyValueNet, policy_offset, value_offset


class Choices(NamedTuple):
    """Sparse policy targets of a mini-batch (:func:`fit_imitation`, :func:`fit_reinforce`):
    entry ``e`` is the move ``action[e]`` of row ``row[e]`` with target share ``target[e]``;
    each row's entries are together, rows in order, and list its legal moves: the softmax runs
    over them only."""

    row: np.ndarray
    action: np.ndarray
    target: np.ndarray
    features: np.ndarray | None = None
    """The moves' action features ``(entries, F)``, for a model that reads them."""


class Adam:
    """Adam's moment estimates for ``n`` parameters (β = 0.9, 0.999), kept between calls so
    that a streaming learner (and its checkpoints) continues where it stopped."""

    def __init__(self, n: int):
        self.m = np.zeros(n)
        self.v = np.zeros(n)
        self.t = 0

    def step(self, grad: np.ndarray, lr: float) -> np.ndarray:
        """The update to subtract from the parameters for ``grad``."""
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        mhat = self.m / (1 - 0.9**self.t)
        vhat = self.v / (1 - 0.999**self.t)
        return lr * mhat / (np.sqrt(vhat) + 1e-8)


def fit_q(
    net: PolicyValueNet,
    obs: np.ndarray,
    actions: np.ndarray,
    target: np.ndarray,
    adam: Adam,
    lr: float,
    batch: int,
    rng: np.random.Generator,
    max_norm: float = 40.0,
) -> float:
    """One pass of deep Monte-Carlo over the samples, in shuffled mini-batches: Q(s, a) of the
    action taken regressed on the return ``target`` (in [-1, 1]) by squared error, and the
    value head on the same return (through its tanh); each batch's gradient is clipped to
    norm ``max_norm`` (as DouZero does) and applied by ``adam``. Returns the mean Q loss."""
    if net.feature_size:
        raise ValueError("deep Monte-Carlo here fits Q without action features")
    total = 0.0
    order = rng.permutation(len(obs))
    for start in range(0, len(obs), batch):
        idx = order[start : start + batch]
        x = obs[idx].astype(np.float64)  # one dtype: numpy's mixed products are slow
        grad, loss = q_gradient(net, x, actions[idx], target[idx].astype(np.float64))
        grad = reduce(net, grad)
        norm = np.sqrt(grad @ grad)
        if norm > max_norm:
            grad *= max_norm / norm
        _apply(net, adam.step(grad, lr))
        total += loss * len(idx)
    return total / max(len(obs), 1)


def fit_imitation(
    net: PolicyValueNet,
    obs: np.ndarray,
    targets: Callable[[np.ndarray], np.ndarray | Choices],
    value: np.ndarray,
    adam: Adam,
    lr: float,
    batch: int,
    rng: np.random.Generator,
) -> float:
    """One pass of behaviour cloning over the samples, in shuffled mini-batches: cross-entropy
    of the softmax to the target policy, plus the value head's squared error to ``value`` (in
    [-1, 1]), applied by ``adam``. ``targets(rows)`` gives the target policies of the sample
    rows ``rows``, made a batch at a time: either dense, ``(len(rows), A)``, with the softmax
    over every action id (:func:`one_hot` of the moves taken, where the legal moves are not
    kept: the model must also learn which moves are legal), or :class:`Choices`, each row's
    legal moves and their shares (a search's), with the softmax over those only, as the model
    is played; only their rows of the head are computed (Chains: ~20 of 33 750). Returns the
    mean cross-entropy."""
    total = 0.0
    order = rng.permutation(len(obs))
    for start in range(0, len(obs), batch):
        idx = order[start : start + batch]
        x, v = obs[idx].astype(np.float64), value[idx].astype(np.float64)
        t = targets(idx)
        if isinstance(t, Choices):
            grad, loss = _choice_gradient(net, x, t, v)
            _apply(net, adam.step(grad, lr), expand=False)  # the head's rows are read from parts
        else:
            grad, loss = _gradient(net, x, t, v)
            _apply(net, adam.step(reduce(net, grad), lr))
        total += loss * len(idx)
    net.expand_head()
    return total / max(len(obs), 1)


def fit_reinforce(
    net: PolicyValueNet,
    obs: np.ndarray,
    moves: Callable[[np.ndarray], Choices],
    returns: np.ndarray,
    adam: Adam,
    lr: float,
    batch: int,
    rng: np.random.Generator,
    temperature: float,
    features_lr: float | None = None,
) -> float:
    """One pass of policy gradient over samples of the model's own play, in shuffled
    mini-batches: REINFORCE on the softmax of the outputs / ``temperature`` over each
    decision's legal moves (``moves(rows)``: :class:`Choices` whose target is 1 at the move
    played), each weighted by the mover's final return minus the value head's estimate, plus
    the value head's squared error to the returns (the baseline learns as the policy does).
    Returns the mean weighted cross-entropy (the surrogate loss).

    The policy head's (and the action features' weights') steps are multiplied by
    ``temperature``: Adam's step is about ``lr`` whatever the gradient's scale, and the head's
    outputs are divided by the temperature before the softmax, so an unscaled step would move
    the sampled policy 1 / temperature times as far as the hidden layers' steps do (at 0.2,
    Brook's policy collapsed within a few chunks). Scaled, ``lr`` means the same at every
    temperature. ``features_lr``: the step of the action features' own weights ``c`` instead
    of ``lr`` (scaled alike; ``U``, which multiplies the hidden layer, keeps ``lr``): they are
    a few numbers that start at zero, and at the network's small ``lr`` they learn far slower
    than the rest (Chains: a tenth of their worth after 500 000 decisions at 1e-3)."""
    total = 0.0
    order = rng.permutation(len(obs))
    for start in range(0, len(obs), batch):
        idx = order[start : start + batch]
        x, v = obs[idx].astype(np.float64), returns[idx].astype(np.float64)
        c = moves(idx)
        grad, loss = _choice_gradient(net, x, c, v, temperature, advantage=True)
        step = adam.step(grad, lr)
        step[net.head_span] *= temperature
        step[net.feature_span] *= temperature  # the features add to the outputs as the head does
        if net.feature_size:
            step[-net.feature_size :] *= (features_lr or lr) / lr
        _apply(net, step, expand=False)
        total += loss * len(idx)
    net.expand_head()
    return total / max(len(obs), 1)


def one_hot(actions: np.ndarray, num_actions: int) -> Callable[[np.ndarray], np.ndarray]:
    """The targets of :func:`fit_imitation` for the moves ``actions`` taken."""

    def targets(rows: np.ndarray) -> np.ndarray:
        t = np.zeros((len(rows), num_actions))
        t[np.arange(len(rows)), actions[rows]] = 1.0
        return t

    return targets


def q_gradient(
    net: PolicyValueNet, obs: np.ndarray, actions: np.ndarray, target: np.ndarray
) -> tuple[np.ndarray, float]:
    """The gradient (over every parameter) of the mean of (Q(s, a) − target)² plus (V(s) −
    target)², and the Q part of that loss. Only the action rows taken are touched: a game
    can have tens of thousands of actions."""
    nb = len(obs)
    dims = net.dims
    _, val, acts = net.forward(obs, policy=False)
    h = acts[-1]
    off_p = policy_offset(dims)
    a_n, h_n = dims[-1], dims[-2]
    Wp = net.params[off_p : off_p + a_n * h_n].reshape(a_n, h_n)
    bp = net.params[off_p + a_n * h_n : off_p + a_n * h_n + a_n]
    wv = net.params[value_offset(dims) : value_offset(dims) + h_n]
    q = (Wp[actions] * h).sum(axis=1) + bp[actions]
    d_q = 2 * (q - target) / nb
    d_val = 2 * (val - target) * (1 - val**2) / nb
    d_wp = np.zeros((a_n, h_n))
    np.add.at(d_wp, actions, d_q[:, None] * h)
    d_bp = np.bincount(actions, weights=d_q, minlength=a_n)
    dh = d_q[:, None] * Wp[actions] + np.outer(d_val, wv)
    grads = _backprop_hidden(net, acts, dh)
    grad = np.concatenate([*grads, d_wp.ravel(), d_bp, d_val @ h, [d_val.sum()]])
    return grad, float(((q - target) ** 2).mean())


def _gradient(
    net: PolicyValueNet, obs: np.ndarray, target: np.ndarray, value: np.ndarray
) -> tuple[np.ndarray, float]:
    """The gradient over ``params`` of the mean cross-entropy of the softmax over every action
    id to the dense ``target`` plus the value's squared error, and the cross-entropy."""
    nb = len(obs)
    logits, val, acts = net.forward(obs)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    loss_p = -(target * np.log(np.maximum(p, 1e-300))).sum() / nb
    d_logits = (p - target) / nb
    d_val = 2 * (val - value) * (1 - val**2) / nb  # through tanh
    dims = net.dims
    h = acts[-1]  # the heads read the last hidden layer
    off_p = policy_offset(dims)
    Wp = net.params[off_p : off_p + dims[-1] * dims[-2]].reshape(dims[-1], dims[-2])
    wv = net.params[off_p + dims[-1] * dims[-2] + dims[-1] :][: dims[-2]]
    head = [(d_logits.T @ h).ravel(), d_logits.sum(axis=0), d_val @ h, [d_val.sum()]]
    dh = d_logits @ Wp + np.outer(d_val, wv)
    grads = _backprop_hidden(net, acts, dh)
    grad = np.concatenate(grads + [np.asarray(g, np.float64).ravel() for g in head])
    return grad, float(loss_p)


def _choice_gradient(
    net: PolicyValueNet,
    obs: np.ndarray,
    c: Choices,
    value: np.ndarray,
    temperature: float = 1.0,
    advantage: bool = False,
) -> tuple[np.ndarray, float]:
    """The gradient over :meth:`PolicyValueNet.trainable` of the mean cross-entropy of the
    softmax (of the outputs / ``temperature``) over each row's listed moves to their targets
    plus the value's squared error, and the cross-entropy; only the listed moves' rows of the
    head are computed. With ``advantage`` each row's cross-entropy is weighted by its return
    ``value`` minus the value head's estimate (held fixed): REINFORCE with the value as the
    baseline, the targets being the moves played."""
    nb = len(obs)
    _, val, acts = net.forward(obs, policy=False)
    h = acts[-1]
    rows, bias = net.head_rows(c.action)
    nf, d = net.feature_size, int(net.dims[-2])
    if nf and (c.features is None or c.features.shape != (len(c.action), nf)):
        raise ValueError(f"the model reads {nf} action features a move; the moves carry none")
    z = np.einsum("ij,ij->i", rows, h[c.row]) + bias
    if nf:
        U = net.params[net.feature_span][: nf * d].reshape(nf, d)
        cf = net.params[net.feature_span][nf * d :]
        g = h @ U.T + cf  # (rows, F): each feature's weight in each row's position
        phi = c.features.astype(np.float64)  # one dtype: numpy's mixed products are slow
        z += np.einsum("ij,ij->i", phi, g[c.row])
    z /= temperature
    starts = np.flatnonzero(np.r_[True, c.row[1:] != c.row[:-1]])
    sizes = np.diff(np.r_[starts, len(z)])
    z -= np.repeat(np.maximum.reduceat(z, starts), sizes)
    p = np.exp(z)
    p /= np.repeat(np.add.reduceat(p, starts), sizes)
    weight = (value - val)[c.row] if advantage else 1.0
    loss_p = -(weight * c.target * np.log(np.maximum(p, 1e-300))).sum() / nb
    dz = weight * (p - c.target) / (temperature * nb)
    d_val = 2 * (val - value) * (1 - val**2) / nb  # through tanh
    wv = net.params[value_offset(net.dims) :][: net.dims[-2]]
    dh = np.outer(d_val, wv)
    dh[c.row[starts]] += np.add.reduceat(dz[:, None] * rows, starts, axis=0)
    feature = []
    if nf:
        dg = np.add.reduceat(dz[:, None] * phi, starts, axis=0)  # (rows, F)
        dh[c.row[starts]] += dg @ U
        feature = [(dg.T @ h[c.row[starts]]).ravel(), dg.sum(axis=0)]
    grads = _backprop_hidden(net, acts, dh)
    head = head_gradient(net, c.action, dz[:, None] * h[c.row], dz)
    grad = np.concatenate([*grads, head, d_val @ h, [d_val.sum()], *feature])
    return grad, float(loss_p)


def _backprop_hidden(net: PolicyValueNet, acts: list[np.ndarray], dh: np.ndarray) -> list:
    """The gradients of the hidden layers (``W_1``, ``b_1``, …, in parameter order), given
    the loss's gradient ``dh`` with respect to the last hidden layer."""
    dims = net.dims
    grads = []
    off = policy_offset(dims)
    for i in range(len(dims) - 2, 0, -1):
        rows, cols = dims[i], dims[i - 1]
        off -= rows * cols + rows
        W = net.params[off : off + rows * cols].reshape(rows, cols)
        dz = dh * (acts[i] > 0)
        grads = [(dz.T @ acts[i - 1]).ravel(), dz.sum(axis=0)] + grads
        if i > 1:  # the input's gradient is not needed
            dh = dz @ W
    return grads


def head_gradient(
    net: PolicyValueNet, actions: np.ndarray, rows: np.ndarray, bias: np.ndarray
) -> np.ndarray:
    """The gradient over the head's part of :meth:`PolicyValueNet.trainable` given the
    gradients ``rows`` and ``bias`` of the listed actions' rows (an action may repeat)."""
    grad = np.concatenate([rows, bias[:, None]], 1)
    if net.parts is None:
        out = _sum_rows(actions, grad, int(net.dims[-1]))
    else:
        k = net.parts.shape[1]
        out = _sum_rows(net.parts[actions].ravel(), np.repeat(grad, k, 0), net.num_parts)
    return np.concatenate([out[:, :-1].ravel(), out[:, -1]])


def reduce(net: PolicyValueNet, grad: np.ndarray) -> np.ndarray:
    """A gradient over ``params`` as one over :meth:`PolicyValueNet.trainable`: each part's
    row gathers the rows of the actions it is a part of (the chain rule through the sum)."""
    if net.parts is None:
        return grad
    dims, off, end = net.dims, policy_offset(net.dims), value_offset(net.dims)
    a, h = dims[-1], dims[-2]
    rows, bias = grad[off : off + a * h].reshape(a, h), grad[off + a * h : end]
    head = head_gradient(net, np.arange(a), rows, bias)
    return np.concatenate([grad[:off], head, grad[end:]])


def _apply(net: PolicyValueNet, update: np.ndarray, expand: bool = True) -> None:
    """Subtract ``update`` (laid out as :meth:`PolicyValueNet.trainable`) from the parameters;
    without ``expand`` a factored head's action rows are left stale (see
    :meth:`PolicyValueNet.set_trainable`)."""
    net.set_trainable(net.trainable() - update, expand)


def _sum_rows(index: np.ndarray, rows: np.ndarray, n: int) -> np.ndarray:
    """``out[i]`` = the sum of ``rows[e]`` over the entries ``e`` with ``index[e] == i``,
    for ``i < n`` (sorted and summed in runs: several times faster than ``np.add.at``)."""
    out = np.zeros((n, rows.shape[1]))
    if len(index) == 0:
        return out
    order = np.argsort(index, kind="stable")
    sorted_index = index[order]
    starts = np.flatnonzero(np.r_[True, sorted_index[1:] != sorted_index[:-1]])
    out[sorted_index[starts]] = np.add.reduceat(rows[order], starts, axis=0)
    return out
