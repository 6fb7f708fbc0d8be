"""Policy/value and Q models: a dense network held as two flat arrays, run inside Numba.

**The interface the search sees** is only ``(dims, params)`` and :func:`net_logits`:

- ``dims`` (int64): ``[D, h_1, …, h_k, A]`` — observation size, hidden widths (ReLU), action
  count. ``k = 0`` is the softmax-linear model.
- ``params`` (float64), in order: per hidden layer ``W_i`` (``h_i × h_{i-1}``, row-major) and
  ``b_i``; the policy head ``W`` (``A × h_k``) and ``b`` (``A``); the value head ``w``
  (``h_k``) and ``b`` (1). The value is ``tanh(w·h + b)``, the mover's return mapped to [-1, 1].

**Two kinds** share the layout. A ``policy_value`` model's action outputs are policy logits
(fitted by policy gradient). A ``q`` model (deep Monte-Carlo, or imitation of a teacher's
policy) reads them as Q(s, a): the mover's final return, mapped to [-1, 1] from the
game's utility range, after playing ``a`` in the position observed; its value head is fitted to
the same returns, so it estimates the value of the position under the policy that generated
the data. ISMCTS uses either kind unchanged: the softmax of the action outputs (for a ``q``
model, of Q / temperature) as its prior, the value head as its leaf value.

Any model that can be written in this layout plugs into the search unchanged: a PyTorch MLP
(``nn.Linear`` + ``ReLU`` layers, a policy and a value head) exports by concatenating its weight
tensors in that order and saving through :meth:`PolicyValueNet.save`. The project's own
trainers are plain numpy (``skip_ai.training.optimiser``, Adam), so training runs on a small
CPU machine; this module holds what a player needs: the file, the network and its forward.

**Action features** (``action_features`` > 0, the version of the game's
``GameSpec.action_features``, ``feature_size`` = F of them per move): the kernel writes a
small vector φ(s, a) for each legal move from what the mover knows, and the move's output
gains ``Σ_f φ_f(s, a) · (U_f · h + c_f)``, a bilinear term in the last hidden layer ``h``:
how much each feature counts depends on the position (DouZero feeds its actions' cards to the
network in the same spirit). ``U`` (``F × h_k``) and ``c`` (``F``) follow the value head at
the end of ``params``; a model without them is the layout above. Only the legal moves'
outputs exist then (they need the position's φ): :func:`net_logits` and the trainers that
list each row's legal moves read them; :meth:`PolicyValueNet.forward` refuses.

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
rows) and write it back with :meth:`PolicyValueNet.set_trainable`. A file without the key
(older ones) has one row per action id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np
import pyspiel
from numba import njit

from agents.model_file import npz_members
from skip_ai.kernel import no_action_features
from skip_ai.pyspiel_wrapper import load as load_kernel_game
from skip_ai.pyspiel_wrapper import same_game

FORMAT = "skip_ai.policy_value_net/2"
"""Version 2 added ``kind`` and ``features``; version 1 files (never committed) are refused."""
KINDS = ("policy_value", "q")
MAX_WIDTH = 4096
"""The widest hidden layer a model may have (a training config's ``hidden``)."""
MAX_LAYERS = 16
"""The most hidden layers a model may have (a training config's ``hidden``)."""
MAX_IO = 1 << 20
"""The largest observation size and action count a model may have (the games': hundreds of
observation values, at most tens of thousands of action ids)."""
MAX_PARAMS = 1 << 28
"""The most parameters a model file may hold (2 GB as float64): :data:`MAX_LAYERS` layers of
:data:`MAX_WIDTH` are about this many. Checked from the zip's directory before a byte is
inflated (an 8 MB file once inflated to 8.6 GB before it was refused)."""
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
    sum of its parts' rows, kept up to date by :meth:`set_trainable`. None: one row per action
    id."""
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
        return slice(policy_offset(self.dims), self.trainable_size - tail)

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
        off, end = policy_offset(self.dims), value_offset(self.dims)
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
        off, end, nh = policy_offset(self.dims), value_offset(self.dims), len(self.head)
        self.params[:off] = values[:off]
        self.head[:] = values[off : off + nh]
        self.params[end:] = values[off + nh :]
        if expand:
            self.expand_head()

    def head_rows(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The policy head's rows ``(len(actions), h)`` and biases of ``actions``, from the
        parts' rows where the head is factored (so they are current without
        :meth:`expand_head`)."""
        dims, off = self.dims, policy_offset(self.dims)
        a, h = dims[-1], dims[-2]
        if self.parts is None:
            rows = self.params[off : off + a * h].reshape(a, h)
            return rows[actions], self.params[off + a * h + actions]
        f = self.num_parts
        mine = self.parts[actions]
        return self.head[: f * h].reshape(f, h)[mine].sum(axis=1), self.head[f * h :][mine].sum(1)

    def expand_head(self) -> None:
        """Each action's row and bias of ``params`` as the sum of its parts'."""
        if self.parts is None:
            return
        dims, off = self.dims, policy_offset(self.dims)
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
            off, rows = policy_offset(dims), (net.num_parts or num_actions) * dims[-2]
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
        members = npz_members(path, MAX_PARAMS)  # sizes checked before anything is read
        try:
            with np.load(path, allow_pickle=False) as z:
                data = {k: z[k] for k in z.files if k != "params"}
        except Exception as e:  # not a zip, truncated, or holding pickled objects
            raise ValueError(f"{path} is not a model file (.npz without pickles): {e}") from None
        if "format" in data and str(data["format"]) != FORMAT:
            raise ValueError(
                f"{path}: unknown model format {str(data['format'])!r} (expected {FORMAT!r})"
            )
        missing = _KEYS - set(data) - ({"params"} & set(members))
        if missing:
            raise ValueError(f"{path} is not a model file: missing {', '.join(sorted(missing))}")
        if str(data["kind"]) not in KINDS:
            raise ValueError(f"{path}: unknown model kind {str(data['kind'])!r}")
        dims = np.asarray(data["dims"])
        if dims.ndim != 1 or len(dims) < 2 or dims.dtype.kind not in "iu" or (dims < 1).any():
            raise ValueError(f"{path}: malformed layer sizes {dims!r}")
        if len(dims) > MAX_LAYERS + 2 or (dims[1:-1] > MAX_WIDTH).any() or dims.max() > MAX_IO:
            raise ValueError(
                f"{path}: layer sizes {dims.tolist()[:8]}{'...' if len(dims) > 8 else ''} beyond "
                f"a model's bounds ({MAX_LAYERS} hidden layers of at most {MAX_WIDTH}, inputs "
                f"and outputs at most {MAX_IO})"
            )
        dims = dims.astype(np.int64)
        if (dims[0], dims[-1]) != (int(data["obs_size"]), int(data["num_actions"])):
            raise ValueError(
                f"{path}: layer sizes {dims.tolist()} disagree with obs_size "
                f"{int(data['obs_size'])} / num_actions {int(data['num_actions'])}"
            )
        version = int(data.get("action_parts", 0))
        parts = _parts_of(path, str(data["game"]), version) if version else None
        af, af_size = int(data.get("action_features", 0)), int(data.get("action_feature_size", 0))
        if af < 0 or not 0 <= af_size <= MAX_IO or (af == 0) != (af_size == 0):
            raise ValueError(f"{path}: action features version {af} with {af_size} features")
        expected = param_count(dims) + af_size * (int(dims[-2]) + 1)
        if parts is not None:
            if len(parts) != dims[-1]:
                raise ValueError(f"{path}: {len(parts)} action ids have parts, not {dims[-1]}")
            expected -= (dims[-1] - int(parts.max()) - 1) * (dims[-2] + 1)
        shape, dtype = members["params"]
        if len(shape) != 1 or dtype.kind != "f" or shape[0] != expected:
            raise ValueError(
                f"{path}: {shape} parameters of type {dtype}, "
                f"expected {expected} floats for layers {dims.tolist()}"
            )
        try:
            with np.load(path, allow_pickle=False) as z:
                params = np.asarray(z["params"])
        except Exception as e:  # truncated, or a bad checksum
            raise ValueError(f"{path} is not a model file (.npz without pickles): {e}") from None
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

    def tempered_params(self, temperature: float) -> np.ndarray:
        """A copy of the parameters with the action outputs divided by ``temperature``: the
        search's prior, the softmax of the outputs, becomes that of outputs / temperature
        (a ``q`` model's Q values lie in [-1, 1]: a small temperature sharpens its prior)."""
        params = self.params.copy()
        off = policy_offset(self.dims)
        params[off : off + self.dims[-1] * (self.dims[-2] + 1)] /= temperature
        params[self.feature_span] /= temperature
        return params

    def forward(
        self, obs: np.ndarray, policy: bool = True
    ) -> tuple[np.ndarray | None, np.ndarray, list[np.ndarray]]:
        """Batch forward in numpy: logits ``(N, A)`` (None without ``policy``), values
        ``(N,)`` and the activations (input and each hidden layer) that a trainer
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


def _take(params: np.ndarray, off: int, rows: int, cols: int):
    """Views of a ``rows × cols`` matrix and a ``rows`` bias at ``off``; the next offset."""
    W = params[off : off + rows * cols].reshape(rows, cols)
    off += rows * cols
    return W, params[off : off + rows], off + rows


def policy_offset(dims: np.ndarray) -> int:
    """Where the policy head starts in ``params``."""
    return param_count(dims) - (dims[-1] * dims[-2] + dims[-1] + dims[-2] + 1)


def value_offset(dims: np.ndarray) -> int:
    """Where the value head starts in ``params``."""
    return param_count(dims) - (dims[-2] + 1)


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
