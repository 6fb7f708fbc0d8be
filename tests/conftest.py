import numpy as np
import pyspiel
import pytest

import skip_ai  # noqa: F401  (registers the games)
from skip_ai.pyspiel_wrapper import REGISTRY, variants

ALL_VARIANTS = [v for spec in REGISTRY.values() for v in variants(spec)]


def first_variants_fast() -> list:
    """Every variant, those after each game's first marked slow: agents' contract tests run
    on every game by default and on every variant with ``-m slow`` (the game API tests run
    on every variant always)."""
    out = []
    for spec in REGISTRY.values():
        for i, v in enumerate(variants(spec)):
            out.append(v if i == 0 else pytest.param(v, marks=pytest.mark.slow))
    return out


def random_states(game: pyspiel.Game, seed: int, count: int = 4):
    """Decision states of one random game, spread over its length."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    states = []
    while not state.is_terminal():
        if state.is_player_node():
            states.append(state.clone())
        actions = state.legal_actions()
        state.apply_action(int(rng.choice(actions)))
    idx = np.linspace(0, len(states) - 1, count).round().astype(int)
    return [states[i] for i in idx], state


@pytest.fixture(params=ALL_VARIANTS)
def variant(request) -> str:
    return request.param
