"""PettingZoo environments for our games: Shimmy's OpenSpiel wrapper, with its defects fixed.

``env("skip_columns(players=6)")`` is a ``shimmy.OpenSpielCompatibilityV0`` (a PettingZoo AEC
environment: agents ``player_0`` …, the game's observation tensor as a ``Box`` observation,
a ``Discrete`` action space with the legal moves in ``infos[agent]["action_mask"]``, chance
nodes — the deal — sampled inside the environment from ``reset(seed=...)``). The subclass
corrects what that wrapper (the same code from Shimmy 1.3.0 to 2.0.1) gets wrong for OpenSpiel
games with parameters, chance nodes or more than one player, OpenSpiel's own included:

* ``reset`` reloads the game by its short name, dropping a game string's parameters
  (``skip_columns(players=6)`` failed at its first reset, ``skip_columns(deck=36)`` quietly
  played 52 cards); here they go to Shimmy as its ``config``, which ``reset`` does keep.
* Shimmy truncates an episode once its step count exceeds ``max_game_length``, but counts the
  chance outcomes too, which OpenSpiel's ``max_game_length`` leaves out: Columns was cut off
  after its first move, the deal being 52 steps of a 52-move bound. An OpenSpiel game ends
  by itself within that bound, so here an episode ends exactly when the game is over.
* On each step of a finished agent, Shimmy adds the final rewards into the remaining agents'
  rewards again, so the k-th agent to leave collected its return k times; here each agent
  collects its return once.
* Pickling (used by vectorised and remote environments) recorded the arguments without the
  parameters, so an unpickled variant was the default game; here it records the game string.
* Every step built new observation and action spaces: a seed given to a space
  (``env.action_space(agent).seed(1)``) was lost at the next step, and building them took
  more than half of a step's time. A game's spaces never change, so here they are built once.

Needs the ``pettingzoo`` extra; core modules never import this one.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from gymnasium.utils import EzPickle
from shimmy.openspiel_compatibility import OpenSpielCompatibilityV0

from skip_ai.pyspiel_wrapper import load


class SkipAIEnv(OpenSpielCompatibilityV0):
    """Shimmy's PettingZoo environment for one of our games, given as a game string."""

    def __init__(self, game: str, render_mode: str | None = None):
        loaded = load(game)  # an unknown game or a bad parameter: one clear ValueError
        params = pyspiel.game_parameters_from_string(game)
        del params["name"]
        # as config, the parameters survive Shimmy's reload of the game at every reset
        super().__init__(env=loaded, render_mode=render_mode, config=params)
        EzPickle.__init__(self, game, render_mode)  # Shimmy's record lacks the parameters

    # Shimmy calls these two at every step and reset; they build only the first time.
    def _update_observation_spaces(self) -> None:
        if not self.observation_spaces:
            super()._update_observation_spaces()

    def _update_action_spaces(self) -> None:
        if not self.action_spaces:
            super()._update_action_spaces()

    def _update_termination_truncation(self) -> None:
        # over when the game is over: no truncation by a step count that includes the deal
        over = self.game_state.is_terminal()
        self.terminations = {a: over for a in self.agents}
        self.truncations = {a: False for a in self.agents}

    def step(self, action: int | np.integer | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # a finished agent's step: the final rewards were handed out once already, and
            # Shimmy would add these again into every agent still in the list
            self.rewards = dict.fromkeys(self.agents, 0.0)
        super().step(action)


def env(game: str, render_mode: str | None = None) -> SkipAIEnv:
    """The PettingZoo (AEC) environment of a game string, e.g. ``"skip_guess(players=6)"``."""
    return SkipAIEnv(game, render_mode)
