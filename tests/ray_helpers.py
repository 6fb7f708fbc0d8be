"""An agent that kills its own process, for the Ray backend's tests. Ray's workers are fresh
processes: they register it through ``worker_process_setup_hook`` (this folder on their
``PYTHONPATH``)."""

import os

import pyspiel

import skip_ai  # noqa: F401  (first: agents imports skip_ai's kernels)
from agents.factory import AGENTS
from agents.random_agent import RandomBot

KILLER = "kill_worker_test"


class KillerBot(RandomBot):
    """Plays randomly, but kills its process when it must move at seat 0 (a worker lost
    while playing that game, every time it is played)."""

    def step(self, state: pyspiel.State) -> int:
        if state.current_player() == 0:
            os._exit(1)
        return super().step(state)


def register_killer() -> None:
    AGENTS[KILLER] = lambda game, seed: KillerBot(seed)
