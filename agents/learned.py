"""The learned agent: ``"learned(model=FILE)"`` plays a model's best legal move, no search.

``FILE`` is a model file's path, or a game's name for the model shipped with the package
(``learned(model=skip_columns)``, :mod:`agents.shipped`).

The model (:mod:`agents.model`, usually a ``q`` model trained by ``skip-ai train``) scores the
legal moves from the mover's observation (and their action features, for a model that reads
them), in Numba (:func:`agents.model.net_logits`, the same
evaluation as self-play's); the bot plays the highest (the lowest action id on a tie). A forced
move is played without evaluating anything. The bot is deterministic: its seed is unused.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from agents.model import NO_FEATURES, PolicyValueNet, net_logits
from agents.shipped import model_file
from skip_ai.kernel.family import compile_for
from skip_ai.pyspiel_wrapper import KernelGame


class LearnedBot(pyspiel.Bot):
    """Plays argmax of the model's action outputs over the legal moves, for whoever moves."""

    def __init__(self, game: KernelGame, model: PolicyValueNet):
        pyspiel.Bot.__init__(self)
        model.check_game(game)
        self.model = model
        self._x = np.zeros(model.obs_size, np.float64)
        self._scores = np.empty(model.num_actions, np.float64)
        self._scratch = np.empty(2 * int(model.dims.max()), np.float64)
        self._feats = NO_FEATURES
        if model.feature_size:
            self._feats = np.zeros((model.num_actions, model.feature_size))
        self._compile(game)

    def _compile(self, game: KernelGame) -> None:
        """The kernels of a move compiled now (or loaded from Numba's cache): at the first move
        a cold compile took 5 s in Pyatki in pairs, read as that move's time, 1.7 ms a move
        over a 150-deal match, where the model's own is 0.03."""
        legal = np.zeros(1, np.int64)
        compile_for(game.spec.kernel.observation, game.initial, 0, self._x)
        if self.model.feature_size:
            compile_for(game.spec.action_features.write, game.initial, 0, legal, 1, self._feats)
        compile_for(
            net_logits,
            self.model.dims,
            self.model.params,
            self._x,
            legal,
            1,
            self._scores,
            self._scratch,
            self._feats,
        )

    def new_game(self, seed: int) -> None:
        """Ready for a new game: as built (the bot is deterministic, ``seed`` is unused)."""
        self._x[:] = 0.0
        if self.model.feature_size:
            self._feats[:] = 0.0

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        legal = np.asarray(state.legal_actions(), np.int64)
        if len(legal) <= 1:
            return int(legal[0]) if len(legal) else pyspiel.INVALID_ACTION
        state.write_observation(state.current_player(), self._x)
        if self.model.feature_size:
            state.write_action_features(legal, self._feats)
        net_logits(
            self.model.dims,
            self.model.params,
            self._x,
            legal,
            len(legal),
            self._scores,
            self._scratch,
            self._feats,
        )
        return int(legal[np.argmax(self._scores[: len(legal)])])


def make_learned(game: pyspiel.Game, seed: int = 0, model: str | None = None) -> LearnedBot:
    """``learned(model=PATH.npz)``, or ``learned(model=GAME)`` for the model shipped for that
    game (:mod:`agents.shipped`): the model must be for this game, its features and sizes."""
    if not isinstance(game, KernelGame):
        raise ValueError(f"the learned agent plays skip_ai games only (got {game})")
    if model is None:
        raise ValueError("learned needs a model: learned(model=PATH.npz) or learned(model=GAME)")
    return LearnedBot(game, PolicyValueNet.load(model_file(model), game))
