"""Policy/value and Q models: a dense network held as two flat arrays, run inside Numba.

**The interface the search sees** is only ``(dims, params)`` and :func:`net_logits`:

- ``dims`` (int64): ``[D, h_1, …, h_k, A]`` — observation size, hidden widths (ReLU), action
  count. ``k = 0`` is the softmax-linear model.
- ``params`` (float64), in order: per hidden layer ``W_i`` (``h_i × h_{i-1}``, row-major) and
  ``b_i``; the policy head ``W`` (``A × h_k``) and ``b`` (``A``); the value head ``w``
  (``h_k``) and ``b`` (1). The value is ``tanh(w·h + b)``, the mover's return mapped to [-1, 1].

**Two kinds** share the layout. A ``policy_value`` model's action outputs are policy logits
(fitted by :func:`fit` to search visits). A ``q`` model (deep Monte-Carlo, fitted by
:func:`fit_q`) reads them as Q(s, a): the mover's final return, mapped to [-1, 1] from the
game's utility range, after playing ``a`` in the position observed; its value head is fitted to
the same returns, so it estimates the value of the position under the policy that generated
the data. ISMCTS uses either kind unchanged: the softmax of the action outputs (for a ``q``
model, of Q / temperature) as its prior, the value head as its leaf value.

Any model that can be written in this layout plugs into the search unchanged: a PyTorch MLP
(``nn.Linear`` + ``ReLU`` layers, a policy and a value head) exports by concatenating its weight
tensors in that order and saving through :meth:`PolicyValueNet.save`. This module's own trainer
(:func:`fit`) is plain numpy (Adam), so training runs on a small CPU machine.

**Action features** (``action_features`` > 0, the version of the game's
``GameSpec.action_features``, ``feature_size`` = F of them per move): the kernel writes a
small vector φ(s, a) for each legal move from what the mover knows, and the move's output
gains ``Σ_f φ_f(s, a) · (U_f · h + c_f)``, a bilinear term in the last hidden layer ``h``:
how much each feature counts depends on the position (DouZero feeds its actions' cards to the
network in the same spirit). ``U`` (``F × h_k``) and ``c`` (``F``) follow the value head at
the end of ``params``; a model without them is the layout above. Only the legal moves'
outputs exist then (they need the position's φ): :func:`net_logits` and the trainers that
list each row's legal moves (:func:`fit_reinforce`) read them; the dense trainers refuse.

Files are ``.npz`` without pickles (``allow_pickle=False``), the parameters stored as float32
(half the size of float64: a Two Captains model with one output per each of 5 887 action ids
is 3.8 MB instead of 7.5; a model is read back into float64, the layout above), with the
metadata ``format``,
``kind``, ``game`` (the full game string), ``features`` (the game's observation version,
``GameSpec.observation_version``), ``obs_size``, ``num_actions``, ``generation``,
``action_parts``, ``action_features`` and ``action_feature_size``; a file for another game,
for other features, with the wrong sizes, or otherwise malformed is refused with a message
saying what is wrong.

**A factored policy head** (``action_parts`` > 0, the version of the game's
``GameSpec.action_parts``): the action outputs are sums of per-part rows, ``W[a] = Σ_j
V[parts[a, j]]`` and likewise the biases, so a game with thousands of action ids trains and
stores hundreds of rows (Chains: 3 804 for 33 750 ids). The file holds the parts' rows in
place of the head; reading it expands them into the layout above, so the search and the
kernel never see the difference. Trainers update :meth:`PolicyValueNet.trainable` (the parts'
rows) through :meth:`PolicyValueNet.reduce` (the gradient summed over each part's actions) and
:meth:`PolicyValueNet.apply`. A file without the key (older ones) has one row per action id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import numpy as np
import pyspiel
from numba import njit

from skip_ai.kernel import no_action_features
from skip_ai.pyspiel_wrapper import load as load_kernel_game
from skip_ai.pyspiel_wrapper import same_game

FORMAT = "skip_ai.policy_value_net/2"
"""Version 2 added ``kind`` and ``features``; version 1 files (never committed) are refused."""
KINDS = ("policy_value", "q")
MAX_WIDTH = 4096
"""The widest hidden layer a model may have (a training config's ``hidden``,
:meth:`PolicyValueNet.grown`)."""
_KEYS = {
    "format",
    "kind",
    "game",
    "features",
    "obs_size",
    "num_actions",
    "generation",
    "dims",
    "params",
}


class Choices(NamedTuple):
    """Sparse policy targets of a mini-batch (:func:`fit_imitation`): entry ``e`` is the move
    ``action[e]`` of row ``row[e]`` with target share ``target[e]``; each row's entries are
    together, rows in order, and list its legal moves: the softmax runs over them only."""

    row: np.ndarray
    action: np.ndarray
    target: np.ndarray
    features: np.ndarray | None = None
    """The moves' action features ``(entries, F)``, for a model that reads them."""


def param_count(dims: np.ndarray) -> int:
    """Length of ``params`` for the layer sizes ``dims``."""
    n = 0
    for i in range(1, len(dims) - 1):
        n += dims[i] * dims[i - 1] + dims[i]
    h, a = dims[-2], dims[-1]
    return int(n + a * h + a + h + 1)


@dataclass
class PolicyValueNet:
    """A policy/value network for one game (see the module docstring for the layout)."""

    game: str
    dims: np.ndarray
    params: np.ndarray
    generation: int = 0
    kind: str = "policy_value"
    features: int = 1
    """The observation version of the game the model reads (``GameSpec.observation_version``)."""
    parts: np.ndarray | None = None
    """A factored policy head: the game's ``GameSpec.action_parts``, ``(A, k)``; the head's
    trainable rows are then one per part (``head``), and each action's row of ``params`` is the
    sum of its parts' rows, kept up to date by :meth:`apply`. None: one row per action id."""
    parts_version: int = 0
    """``GameSpec.action_parts_version`` of ``parts`` (0 without them)."""
    head: np.ndarray | None = field(default=None, repr=False)
    """With ``parts``: the parts' rows ``(F × h)`` then their biases ``(F)``, flat."""
    action_features: int = 0
    """``GameSpec.action_features.VERSION`` of the action features the model reads (0: none)."""
    feature_size: int = 0
    """How many action features a move has (``GameSpec.action_features.SIZE``; 0: none)."""

    def __post_init__(self) -> None:
        if self.parts is not None and self.head is None:  # a head of zeros: a uniform prior
            self.head = np.zeros(self.num_parts * (self.dims[-2] + 1))
            self.expand_head()

    @property
    def num_parts(self) -> int:
        return 0 if self.parts is None else int(self.parts.max()) + 1

    @property
    def trainable_size(self) -> int:
        """Length of :meth:`trainable`: the parameters a trainer updates."""
        if self.parts is None:
            return len(self.params)
        return len(self.params) - (self.dims[-1] - self.num_parts) * (self.dims[-2] + 1)

    @property
    def head_span(self) -> slice:
        """Where the policy head (its rows and biases, or its parts') lies in
        :meth:`trainable`: between the hidden layers and the value head."""
        tail = (1 + self.feature_size) * (int(self.dims[-2]) + 1)  # value head, features
        return slice(_policy_offset(self.dims), self.trainable_size - tail)

    @property
    def feature_span(self) -> slice:
        """Where the action features' ``U`` and ``c`` lie: the end of both ``params`` and
        :meth:`trainable`; empty without them."""
        k = self.feature_size * (int(self.dims[-2]) + 1)
        return slice(-k, None) if k else slice(0, 0)

    def with_action_features(self, version: int, size: int) -> PolicyValueNet:
        """A copy that also reads ``size`` action features of ``version``, their weights zero:
        it plays as this model does until trained."""
        if self.feature_size:
            raise ValueError("this model already reads action features")
        if version < 1 or size < 1:
            raise ValueError(f"action features version {version}, size {size}: both must be ≥ 1")
        block = np.zeros(size * (int(self.dims[-2]) + 1))
        return PolicyValueNet(
            self.game,
            self.dims.copy(),
            np.concatenate([self.params, block]),
            self.generation,
            self.kind,
            self.features,
            None if self.parts is None else self.parts.copy(),
            self.parts_version,
            None if self.head is None else self.head.copy(),
            version,
            size,
        )

    def trainable(self) -> np.ndarray:
        """The parameters a trainer updates and a file stores: ``params`` itself, or with
        ``parts`` the hidden layers, ``head`` and the value head (a copy)."""
        if self.parts is None:
            return self.params
        off, end = _policy_offset(self.dims), _value_offset(self.dims)
        return np.concatenate([self.params[:off], self.head, self.params[end:]])

    def set_trainable(self, values: np.ndarray, expand: bool = True) -> None:
        """Set the parameters from a vector laid out as :meth:`trainable`; with ``parts`` and
        not ``expand``, the action rows of ``params`` are left stale until
        :meth:`expand_head` (a trainer that reads the parts' rows itself skips the cost)."""
        if len(values) != self.trainable_size:
            raise ValueError(f"{len(values)} parameters, expected {self.trainable_size}")
        if self.parts is None:
            self.params[:] = values
            return
        off, end, nh = _policy_offset(self.dims), _value_offset(self.dims), len(self.head)
        self.params[:off] = values[:off]
        self.head[:] = values[off : off + nh]
        self.params[end:] = values[off + nh :]
        if expand:
            self.expand_head()

    def apply(self, update: np.ndarray, expand: bool = True) -> None:
        """Subtract ``update`` (laid out as :meth:`trainable`) from the parameters."""
        self.set_trainable(self.trainable() - update, expand)

    def head_rows(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The policy head's rows ``(len(actions), h)`` and biases of ``actions``, from the
        parts' rows where the head is factored (so they are current without
        :meth:`expand_head`)."""
        dims, off = self.dims, _policy_offset(self.dims)
        a, h = dims[-1], dims[-2]
        if self.parts is None:
            rows = self.params[off : off + a * h].reshape(a, h)
            return rows[actions], self.params[off + a * h + actions]
        f = self.num_parts
        mine = self.parts[actions]
        return self.head[: f * h].reshape(f, h)[mine].sum(axis=1), self.head[f * h :][mine].sum(1)

    def head_gradient(self, actions: np.ndarray, rows: np.ndarray, bias: np.ndarray) -> np.ndarray:
        """The gradient over the head's part of :meth:`trainable` given the gradients
        ``rows`` and ``bias`` of the listed actions' rows (an action may repeat)."""
        grad = np.concatenate([rows, bias[:, None]], 1)
        if self.parts is None:
            out = _sum_rows(actions, grad, int(self.dims[-1]))
        else:
            k = self.parts.shape[1]
            out = _sum_rows(self.parts[actions].ravel(), np.repeat(grad, k, 0), self.num_parts)
        return np.concatenate([out[:, :-1].ravel(), out[:, -1]])

    def reduce(self, grad: np.ndarray) -> np.ndarray:
        """A gradient over ``params`` as one over :meth:`trainable`: each part's row gathers
        the rows of the actions it is a part of (the chain rule through the sum)."""
        if self.parts is None:
            return grad
        dims, off, end = self.dims, _policy_offset(self.dims), _value_offset(self.dims)
        a, h = dims[-1], dims[-2]
        rows, bias = grad[off : off + a * h].reshape(a, h), grad[off + a * h : end]
        head = self.head_gradient(np.arange(a), rows, bias)
        return np.concatenate([grad[:off], head, grad[end:]])

    def expand_head(self) -> None:
        """Each action's row and bias of ``params`` as the sum of its parts'."""
        if self.parts is None:
            return
        dims, off = self.dims, _policy_offset(self.dims)
        a, h, f = dims[-1], dims[-2], self.num_parts
        rows, bias = self.head[: f * h].reshape(f, h), self.head[f * h :]
        self.params[off : off + a * h] = rows[self.parts].sum(axis=1).ravel()
        self.params[off + a * h : off + a * h + a] = bias[self.parts].sum(axis=1)

    @property
    def obs_size(self) -> int:
        return int(self.dims[0])

    @property
    def num_actions(self) -> int:
        return int(self.dims[-1])

    @classmethod
    def initial(
        cls,
        game: str,
        obs_size: int,
        num_actions: int,
        hidden: tuple[int, ...] = (),
        seed: int = 0,
        kind: str = "policy_value",
        features: int = 1,
        parts: np.ndarray | None = None,
        parts_version: int = 0,
    ) -> PolicyValueNet:
        """A fresh network: hidden layers He-initialised, heads zero (a uniform prior and a
        value of 0), so generation 0 plays like plain ISMCTS. A ``q`` model's action head
        starts with small random weights instead, so that its greedy moves are not all the
        lowest action id. With ``parts`` (``GameSpec.action_parts``) the policy head is
        factored: one row per part."""
        if kind not in KINDS:
            raise ValueError(f"model kind must be one of {', '.join(KINDS)} (got {kind!r})")
        dims = np.array([obs_size, *hidden, num_actions], np.int64)
        if parts is not None and (parts.ndim != 2 or len(parts) != num_actions):
            raise ValueError(f"action parts of shape {parts.shape} for {num_actions} actions")
        rng = np.random.default_rng(seed)
        layers = []
        for i in range(1, len(dims) - 1):
            layers.append(rng.normal(0, np.sqrt(2 / dims[i - 1]), dims[i] * dims[i - 1]))
            layers.append(np.zeros(dims[i]))
        layers.append(np.zeros(param_count(dims) - sum(len(p) for p in layers)))
        params = np.concatenate(layers).astype(np.float64)
        net = cls(game, dims, params, 0, kind, int(features), parts, parts_version)
        if kind == "q":
            head = net.trainable()
            off, rows = _policy_offset(dims), (net.num_parts or num_actions) * dims[-2]
            head[off : off + rows] = rng.normal(0, 0.01, rows)
            net.set_trainable(head)
        return net

    def check_game(self, game: str | pyspiel.Game) -> None:
        """Refuse a model trained for another game (the full game strings must match); given
        the game itself, also a model whose input or output size is not the game's, which
        the search would read past the end of the observation or the moves."""
        if not same_game(self.game, game):
            raise ValueError(f"this model was trained for {self.game}, not {game}")
        version = getattr(getattr(game, "spec", None), "observation_version", self.features)
        if self.features != version:
            raise ValueError(
                f"this model reads observation version {self.features}; {game} now writes "
                f"version {version} (retrain it)"
            )
        module = getattr(getattr(game, "spec", None), "action_features", None)
        if self.feature_size and module is not None:
            if (self.action_features, self.feature_size) != (module.VERSION, module.SIZE):
                raise ValueError(
                    f"this model reads action features version {self.action_features} "
                    f"({self.feature_size} a move); {game} now has version {module.VERSION} "
                    f"({module.SIZE} a move) (retrain it)"
                )
        if isinstance(game, pyspiel.Game):
            sizes = (game.observation_tensor_size(), game.num_distinct_actions())
            if (self.obs_size, self.num_actions) != sizes:
                raise ValueError(
                    f"this model reads {self.obs_size} observation values and "
                    f"scores {self.num_actions} actions; {game} has {sizes[0]} "
                    f"and {sizes[1]}"
                )

    def save(self, path: str | Path) -> None:
        """Write the model as ``.npz`` (no pickles), atomically (temporary name, rename)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as f:
            np.savez(
                f,
                format=np.array(FORMAT),
                kind=np.array(self.kind),
                game=np.array(self.game),
                features=np.int64(self.features),
                obs_size=np.int64(self.obs_size),
                num_actions=np.int64(self.num_actions),
                generation=np.int64(self.generation),
                action_parts=np.int64(self.parts_version),
                action_features=np.int64(self.action_features),
                action_feature_size=np.int64(self.feature_size),
                dims=self.dims,
                params=self.trainable().astype(np.float32),
            )
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path, game: str | pyspiel.Game | None = None) -> PolicyValueNet:
        """Read a model saved by :meth:`save`; with ``game``, refuse a model for another (or,
        given the game itself, of other sizes)."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"no model file at {path}")
        try:
            with np.load(path, allow_pickle=False) as z:
                data = {k: z[k] for k in z.files}
        except Exception as e:  # not a zip, truncated, or holding pickled objects
            raise ValueError(f"{path} is not a model file (.npz without pickles): {e}") from None
        if "format" in data and str(data["format"]) != FORMAT:
            raise ValueError(
                f"{path}: unknown model format {str(data['format'])!r} (expected {FORMAT!r})"
            )
        missing = _KEYS - set(data)
        if missing:
            raise ValueError(f"{path} is not a model file: missing {', '.join(sorted(missing))}")
        if str(data["kind"]) not in KINDS:
            raise ValueError(f"{path}: unknown model kind {str(data['kind'])!r}")
        dims = np.asarray(data["dims"])
        params = np.asarray(data["params"])
        if dims.ndim != 1 or len(dims) < 2 or dims.dtype.kind not in "iu" or (dims < 1).any():
            raise ValueError(f"{path}: malformed layer sizes {dims!r}")
        dims = dims.astype(np.int64)
        if (dims[0], dims[-1]) != (int(data["obs_size"]), int(data["num_actions"])):
            raise ValueError(
                f"{path}: layer sizes {dims.tolist()} disagree with obs_size "
                f"{int(data['obs_size'])} / num_actions {int(data['num_actions'])}"
            )
        version = int(data.get("action_parts", 0))
        parts = _parts_of(path, str(data["game"]), version) if version else None
        af, af_size = int(data.get("action_features", 0)), int(data.get("action_feature_size", 0))
        if af < 0 or af_size < 0 or (af == 0) != (af_size == 0):
            raise ValueError(f"{path}: action features version {af} with {af_size} features")
        expected = param_count(dims) + af_size * (int(dims[-2]) + 1)
        if parts is not None:
            if len(parts) != dims[-1]:
                raise ValueError(f"{path}: {len(parts)} action ids have parts, not {dims[-1]}")
            expected -= (dims[-1] - int(parts.max()) - 1) * (dims[-2] + 1)
        if params.ndim != 1 or params.dtype.kind != "f" or len(params) != expected:
            raise ValueError(
                f"{path}: {params.shape} parameters of type {params.dtype}, "
                f"expected {expected} floats for layers {dims.tolist()}"
            )
        if not np.isfinite(params).all():
            raise ValueError(f"{path}: the parameters hold NaN or infinite values")
        net = cls(
            str(data["game"]),
            dims,
            np.zeros(param_count(dims) + af_size * (int(dims[-2]) + 1)),
            int(data["generation"]),
            str(data["kind"]),
            int(data["features"]),
            parts,
            version,
            action_features=af,
            feature_size=af_size,
        )
        net.set_trainable(params.astype(np.float64))
        if game is not None:
            try:
                net.check_game(game)
            except ValueError as e:
                raise ValueError(f"{path}: {e}") from None
        return net

    @classmethod
    def soup(cls, nets: list[PolicyValueNet]) -> PolicyValueNet:
        """The uniform mean of the trained parameters of ``nets`` (a *model soup*, Wortsman et
        al. 2022): meaningful for models fine-tuned from one start, which lie in one basin.
        They must be of one game, kind, feature version, layers and action parts."""
        if not nets:
            raise ValueError("a soup needs at least one model")
        first = nets[0]
        for net in nets[1:]:
            same = (
                same_game(net.game, first.game)
                and net.kind == first.kind
                and net.features == first.features
                and np.array_equal(net.dims, first.dims)
                and net.parts_version == first.parts_version
                and (net.parts is None) == (first.parts is None)
                and (net.action_features, net.feature_size)
                == (first.action_features, first.feature_size)
            )
            if not same:
                raise ValueError(
                    f"a soup's models must share game, kind, features, layers and parts: "
                    f"{first.game} {first.kind} {first.dims.tolist()} against {net.game} "
                    f"{net.kind} {net.dims.tolist()}"
                )
        out = cls(
            first.game,
            first.dims.copy(),
            first.params.copy(),
            kind=first.kind,
            features=first.features,
            parts=None if first.parts is None else first.parts.copy(),
            parts_version=first.parts_version,
            action_features=first.action_features,
            feature_size=first.feature_size,
        )
        out.set_trainable(np.mean([net.trainable() for net in nets], axis=0))
        return out

    def grown(self, hidden: tuple[int, ...], seed: int = 0) -> PolicyValueNet:
        """A copy with larger hidden layers that computes the same outputs (Net2Net, Chen et
        al. 2016), for training on from a model whose learning has levelled off. Each of this
        model's hidden layers may widen (``hidden[i]`` ≥ its width): a new unit's incoming
        weights are He-random and its outgoing weights zero, so it changes nothing until
        trained. Layers past this model's are appended before the heads as identities, which
        leave a ReLU layer's (non-negative) output as it is; they must be as wide as the last
        hidden layer of ``hidden``."""
        old = [int(d) for d in self.dims[1:-1]]
        hidden = tuple(int(h) for h in hidden)
        if not old:
            raise ValueError("a model without hidden layers cannot grow")
        if len(hidden) < len(old) or any(n < o for n, o in zip(hidden, old)):
            raise ValueError(
                f"hidden layers {list(hidden)} do not extend this model's {old}: each must "
                "be at least as wide, and none may be removed"
            )
        if any(h > MAX_WIDTH for h in hidden):
            raise ValueError(f"hidden layers {list(hidden)}: each at most {MAX_WIDTH} wide")
        last = hidden[len(old) - 1]
        if any(h != last for h in hidden[len(old) :]):
            raise ValueError(
                f"the appended layers of {list(hidden)} must be as wide as the last one "
                f"they follow ({last}): they start as identities"
            )
        rng = np.random.default_rng(seed)
        t, dims = self.trainable(), [int(d) for d in self.dims]
        blocks, off, cols = [], 0, dims[0]
        for i, width in enumerate(old):
            w = t[off : off + width * dims[i]].reshape(width, dims[i])
            b = t[off + width * dims[i] : off + width * dims[i] + width]
            off += width * dims[i] + width
            new = np.zeros((hidden[i], cols))
            new[:width, : dims[i]] = w  # the new inputs feed the old units nothing
            new[width:] = rng.normal(0, np.sqrt(2 / cols), (hidden[i] - width, cols))
            blocks += [new.ravel(), _padded(b, hidden[i])]
            cols = hidden[i]
        for _ in hidden[len(old) :]:
            blocks += [np.eye(last).ravel(), np.zeros(last)]
        h, rows, nf = dims[-2], self.num_parts or dims[-1], self.feature_size
        head = t[off : off + rows * h].reshape(rows, h)  # the policy head's (or parts') rows
        bias = t[off + rows * h : off + rows * h + rows]
        off += rows * h + rows
        value_w, value_b = t[off : off + h], t[off + h : off + h + 1]
        off += h + 1
        u, c = t[off : off + nf * h].reshape(nf, h), t[off + nf * h :]
        blocks += [_padded(head, last).ravel(), bias, _padded(value_w, last), value_b]
        blocks += [_padded(u, last).ravel(), c]
        new_dims = np.array([dims[0], *hidden, dims[-1]], np.int64)
        net = PolicyValueNet(
            self.game,
            new_dims,
            np.zeros(param_count(new_dims) + self.feature_size * (last + 1)),
            self.generation,
            self.kind,
            self.features,
            None if self.parts is None else self.parts.copy(),
            self.parts_version,
            action_features=self.action_features,
            feature_size=self.feature_size,
        )
        net.set_trainable(np.concatenate([np.asarray(b, np.float64).ravel() for b in blocks]))
        return net

    def tempered_params(self, temperature: float) -> np.ndarray:
        """A copy of the parameters with the action outputs divided by ``temperature``: the
        search's prior, the softmax of the outputs, becomes that of outputs / temperature
        (a ``q`` model's Q values lie in [-1, 1]: a small temperature sharpens its prior)."""
        params = self.params.copy()
        off = _policy_offset(self.dims)
        params[off : off + self.dims[-1] * (self.dims[-2] + 1)] /= temperature
        params[self.feature_span] /= temperature
        return params

    def forward(
        self, obs: np.ndarray, policy: bool = True
    ) -> tuple[np.ndarray | None, np.ndarray, list[np.ndarray]]:
        """Batch forward in numpy: logits ``(N, A)`` (None without ``policy``), values
        ``(N,)`` and the activations (input and each hidden layer) that :func:`fit`
        back-propagates through. A model that reads action features has no outputs without
        a position's moves: only ``policy=False`` then."""
        if policy and self.feature_size:
            raise ValueError("a model with action features scores only listed moves")
        acts = [obs]
        off = 0
        h = obs
        for i in range(1, len(self.dims) - 1):
            W, b, off = _take(self.params, off, self.dims[i], self.dims[i - 1])
            h = np.maximum(h @ W.T + b, 0.0)
            acts.append(h)
        Wp, bp, off = _take(self.params, off, self.dims[-1], self.dims[-2])
        wv, bv, off = _take(self.params, off, 1, self.dims[-2])
        logits = h @ Wp.T + bp if policy else None
        return logits, np.tanh(h @ wv[0] + bv[0]), acts


def features_module(game, size: int) -> ModuleType:
    """The action-features module kernel loops compute for a model reading ``size`` of them in
    ``game`` (a loaded game of ours): the game's, or with ``size`` 0 the one with none."""
    module = game.spec.action_features if size else no_action_features
    if size != module.SIZE:
        raise ValueError(f"the model reads {size} action features a move; {game} has {module.SIZE}")
    return module


def feature_size_of(dims: np.ndarray, params: np.ndarray) -> int:
    """How many action features a model ``(dims, params)`` reads, from its parameters' count
    (an actor receives the arrays, not the model)."""
    extra = len(params) - param_count(dims)
    if extra < 0 or extra % (int(dims[-2]) + 1):
        raise ValueError(f"{len(params)} parameters do not fit layers {dims.tolist()}")
    return extra // (int(dims[-2]) + 1)


def factored_head(game) -> dict:
    """The arguments of :meth:`PolicyValueNet.initial` for a head factored over the action
    parts of ``game`` (a loaded game of ours: ``GameSpec.action_parts``)."""
    spec = game.spec
    if spec.action_parts is None:
        raise ValueError(f"{game} declares no action parts")
    return {
        "parts": np.asarray(spec.action_parts(game.resolved), np.int64),
        "parts_version": spec.action_parts_version,
    }


def _parts_of(path: Path, game: str, version: int) -> np.ndarray:
    """The action parts of ``game`` that a model file with parts ``version`` was fitted to."""
    try:
        g = load_kernel_game(game)
    except (ValueError, pyspiel.SpielError) as e:
        raise ValueError(f"{path}: its game {game!r} does not load: {e}") from None
    if g.spec.action_parts is None or g.spec.action_parts_version != version:
        now = g.spec.action_parts_version if g.spec.action_parts else "none"
        raise ValueError(
            f"{path}: the model's head reads action parts version {version}; {game} now has "
            f"{now} (retrain it)"
        )
    return factored_head(g)["parts"]


def _padded(a: np.ndarray, width: int) -> np.ndarray:
    """``a`` with zero columns appended (zero entries, for a vector) up to ``width``."""
    pad = [(0, 0)] * (a.ndim - 1) + [(0, width - a.shape[-1])]
    return np.pad(a, pad)


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


def _take(params: np.ndarray, off: int, rows: int, cols: int):
    """Views of a ``rows × cols`` matrix and a ``rows`` bias at ``off``; the next offset."""
    W = params[off : off + rows * cols].reshape(rows, cols)
    off += rows * cols
    return W, params[off : off + rows], off + rows


def fit(
    net: PolicyValueNet,
    obs: np.ndarray,
    legal: np.ndarray | None,
    target: np.ndarray | None,
    value: np.ndarray,
    epochs: int = 20,
    lr: float = 0.01,
    l2: float = 1e-4,
    value_weight: float = 1.0,
    batch: int = 256,
    seed: int = 0,
) -> dict:
    """Fit ``net`` in place with Adam on cross-entropy to the visit distributions ``target``
    (softmax over the ``legal`` mask only) plus ``value_weight`` × squared error of the value
    to ``value`` (returns in [-1, 1]). Returns the last epoch's mean losses. Without
    ``legal`` and ``target`` only the value is fitted (the policy head is left as it is and
    not even computed: some games have thousands of actions)."""
    rng = np.random.default_rng(seed)
    # the parameters fitted (laid out as net.trainable()): all, or all but the policy head
    n_all, head = net.trainable_size, net.head_span
    sel = np.arange(n_all) if target is not None else np.r_[0 : head.start, head.stop : n_all]
    adam = Adam(len(sel))
    n = len(obs)
    losses = {"policy": float("nan"), "value": float("nan")}
    for _ in range(epochs):
        order = rng.permutation(n)
        tot_p = tot_v = 0.0
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            grad, lp, lv = _gradient(
                net,
                obs[idx],
                None if legal is None else legal[idx],
                None if target is None else target[idx],
                value[idx],
                value_weight,
            )
            if target is not None:
                grad = net.reduce(grad)
            grad += l2 * net.trainable()[sel]
            update = np.zeros(n_all)
            update[sel] = adam.step(grad, lr)
            net.apply(update)
            tot_p += lp * len(idx)
            tot_v += lv * len(idx)
        losses = {"policy": tot_p / n, "value": tot_v / n}
    return losses


def _policy_offset(dims: np.ndarray) -> int:
    """Where the policy head starts in ``params``."""
    return param_count(dims) - (dims[-1] * dims[-2] + dims[-1] + dims[-2] + 1)


def _value_offset(dims: np.ndarray) -> int:
    """Where the value head starts in ``params``."""
    return param_count(dims) - (dims[-2] + 1)


def _gradient(net, obs, legal, target, value, value_weight):
    """Gradient of the mean loss over one batch (without ``target``: over every parameter but
    the policy head's), and its policy and value parts."""
    nb = len(obs)
    logits, val, acts = net.forward(obs, policy=target is not None)
    loss_v = ((val - value) ** 2).mean()
    if target is None:
        loss_p = float("nan")
        d_logits = None
    else:
        logits = np.where(legal, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        safe = np.where(legal, np.log(np.maximum(p, 1e-300)), 0.0)
        loss_p = -(target * safe).sum() / nb
        d_logits = (p - target) / nb  # (N, A); zero where illegal
    d_val = value_weight * 2 * (val - value) * (1 - val**2) / nb  # through tanh
    dims = net.dims
    # heads, on the last hidden layer h
    h = acts[-1]
    off_p = _policy_offset(dims)
    Wp = net.params[off_p : off_p + dims[-1] * dims[-2]].reshape(dims[-1], dims[-2])
    wv = net.params[off_p + dims[-1] * dims[-2] + dims[-1] :][: dims[-2]]
    if d_logits is None:
        head = [d_val @ h, [d_val.sum()]]
        dh = np.outer(d_val, wv)
    else:
        head = [(d_logits.T @ h).ravel(), d_logits.sum(axis=0), d_val @ h, [d_val.sum()]]
        dh = d_logits @ Wp + np.outer(d_val, wv)
    grads = _backprop_hidden(net, acts, dh)
    grad = np.concatenate(grads + [np.asarray(g, np.float64).ravel() for g in head])
    return grad, float(loss_p), float(loss_v)


def _backprop_hidden(net: PolicyValueNet, acts: list[np.ndarray], dh: np.ndarray) -> list:
    """The gradients of the hidden layers (``W_1``, ``b_1``, …, in parameter order), given
    the loss's gradient ``dh`` with respect to the last hidden layer."""
    dims = net.dims
    grads = []
    off = _policy_offset(dims)
    for i in range(len(dims) - 2, 0, -1):
        rows, cols = dims[i], dims[i - 1]
        off -= rows * cols + rows
        W = net.params[off : off + rows * cols].reshape(rows, cols)
        dz = dh * (acts[i] > 0)
        grads = [(dz.T @ acts[i - 1]).ravel(), dz.sum(axis=0)] + grads
        if i > 1:  # the input's gradient is not needed
            dh = dz @ W
    return grads


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
        grad = net.reduce(grad)
        norm = np.sqrt(grad @ grad)
        if norm > max_norm:
            grad *= max_norm / norm
        net.apply(adam.step(grad, lr))
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
    everything = np.ones((batch, net.num_actions), bool)
    for start in range(0, len(obs), batch):
        idx = order[start : start + batch]
        x, v = obs[idx].astype(np.float64), value[idx].astype(np.float64)
        t = targets(idx)
        if isinstance(t, Choices):
            grad, loss = _choice_gradient(net, x, t, v)
            net.apply(adam.step(grad, lr), expand=False)  # the head's rows are read from parts
        else:
            grad, loss, _ = _gradient(net, x, everything[: len(idx)], t, v, 1.0)
            net.apply(adam.step(net.reduce(grad), lr))
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
    baseline: np.ndarray | None = None,
    features_lr: float | None = None,
) -> float:
    """One pass of policy gradient over samples of the model's own play, in shuffled
    mini-batches: REINFORCE on the softmax of the outputs / ``temperature`` over each
    decision's legal moves (``moves(rows)``: :class:`Choices` whose target is 1 at the move
    played), each weighted by the mover's final return minus ``baseline`` (one per row, e.g.
    what another player got on the same deal) or, without one, the value head's estimate, plus
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
        b = None if baseline is None else baseline[idx].astype(np.float64)
        c = moves(idx)
        grad, loss = _choice_gradient(net, x, c, v, temperature, advantage=True, baseline=b)
        step = adam.step(grad, lr)
        step[net.head_span] *= temperature
        step[net.feature_span] *= temperature  # the features add to the outputs as the head does
        if net.feature_size:
            step[-net.feature_size :] *= (features_lr or lr) / lr
        net.apply(step, expand=False)
        total += loss * len(idx)
    net.expand_head()
    return total / max(len(obs), 1)


def _choice_gradient(
    net: PolicyValueNet,
    obs: np.ndarray,
    c: Choices,
    value: np.ndarray,
    temperature: float = 1.0,
    advantage: bool = False,
    baseline: np.ndarray | None = None,
) -> tuple[np.ndarray, float]:
    """The gradient over :meth:`PolicyValueNet.trainable` of the mean cross-entropy of the
    softmax (of the outputs / ``temperature``) over each row's listed moves to their targets
    plus the value's squared error, and the cross-entropy; only the listed moves' rows of the
    head are computed. With ``advantage`` each row's cross-entropy is weighted by its return
    ``value`` minus the value head's estimate (held fixed): REINFORCE with the value as the
    baseline (or ``baseline``, one per row, where given), the targets being the moves played."""
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
    weight = (value - (val if baseline is None else baseline))[c.row] if advantage else 1.0
    loss_p = -(weight * c.target * np.log(np.maximum(p, 1e-300))).sum() / nb
    dz = weight * (p - c.target) / (temperature * nb)
    d_val = 2 * (val - value) * (1 - val**2) / nb  # through tanh
    wv = net.params[_value_offset(net.dims) :][: net.dims[-2]]
    dh = np.outer(d_val, wv)
    dh[c.row[starts]] += np.add.reduceat(dz[:, None] * rows, starts, axis=0)
    feature = []
    if nf:
        dg = np.add.reduceat(dz[:, None] * phi, starts, axis=0)  # (rows, F)
        dh[c.row[starts]] += dg @ U
        feature = [(dg.T @ h[c.row[starts]]).ravel(), dg.sum(axis=0)]
    grads = _backprop_hidden(net, acts, dh)
    head = net.head_gradient(c.action, dz[:, None] * h[c.row], dz)
    grad = np.concatenate([*grads, head, d_val @ h, [d_val.sum()], *feature])
    return grad, float(loss_p)


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
    off_p = _policy_offset(dims)
    a_n, h_n = dims[-1], dims[-2]
    Wp = net.params[off_p : off_p + a_n * h_n].reshape(a_n, h_n)
    bp = net.params[off_p + a_n * h_n : off_p + a_n * h_n + a_n]
    wv = net.params[_value_offset(dims) : _value_offset(dims) + h_n]
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


@njit(cache=True)
def net_logits(dims, params, x, legal, n, out, scratch, feats):
    """Logits of the legal actions ``legal[:n]`` into ``out[:n]`` for observation ``x``;
    returns the value. ``scratch`` holds ``2 × max(dims)`` floats; ``feats`` the moves'
    action features, ``(≥ n, F)`` for a model that reads F of them, ``(0, 0)`` for one that
    reads none. Only the policy rows of the legal actions are computed, and each layer reads
    only its non-zero inputs (observations are mostly zeros, and so are about half of the ReLU
    outputs), gathered once per layer."""
    layers = dims.shape[0]
    width = 0
    for i in range(layers):
        width = max(width, dims[i])
    h = scratch[:width]  # the layer's non-zero inputs, compacted
    nxt = scratch[width : 2 * width]
    idx = np.empty(width, np.int64)  # their positions
    nz = _compact(x, dims[0], h, idx)
    off = 0
    for i in range(1, layers - 1):
        rows, cols = dims[i], dims[i - 1]
        for r in range(rows):
            acc = params[off + rows * cols + r]
            base = off + r * cols
            for k in range(nz):
                acc += params[base + idx[k]] * h[k]
            nxt[r] = acc if acc > 0.0 else 0.0
        off += rows * cols + rows
        nz = _compact(nxt, rows, h, idx)
    d = dims[layers - 2]
    actions = dims[layers - 1]
    for i in range(n):
        a = legal[i]
        acc = params[off + actions * d + a]
        base = off + a * d
        for k in range(nz):
            acc += params[base + idx[k]] * h[k]
        out[i] = acc
    off += actions * d + actions
    acc = params[off + d]
    for k in range(nz):
        acc += params[off + idx[k]] * h[k]
    off += d + 1
    nf = feats.shape[1]
    if n > 0:  # the action features' term: each feature's weight, U_f · h + c_f, once
        for f in range(nf):
            g = params[off + nf * d + f]
            base = off + f * d
            for k in range(nz):
                g += params[base + idx[k]] * h[k]
            for i in range(n):
                out[i] += feats[i, f] * g
    return np.tanh(acc)


NO_FEATURES = np.zeros((0, 0))
"""The ``feats`` of :func:`net_logits` for a model without action features."""


@njit(cache=True, inline="always")
def _compact(v, d, values, idx):
    """The non-zero entries of ``v[:d]`` into ``values`` and their positions into ``idx``;
    returns how many."""
    nz = 0
    for j in range(d):
        if v[j] != 0.0:
            values[nz] = v[j]
            idx[nz] = j
            nz += 1
    return nz
