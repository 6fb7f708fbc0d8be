"""Chains' declarations for the generic pyspiel wrapper: names, parameters, sizes, the action
parts and features, text, the table in a browser."""

import sys
from dataclasses import replace

import numpy as np

from skip_ai.kernel.state import NUM_CARDS
from skip_ai.spec import (
    DECK_36_52,
    PLAYERS_4_6,
    SEATING,
    GameSpec,
    Mirror,
    check_first_seat,
    first_seat,
    komi,
)

from . import action_features
from .layout import draws_per_seat
from .observation_tensor import OBS_SIZE
from .text import TEAM_NAMES, _known_lines, _public_lines, _title, action_to_string, move_words
from .zones import layout, move_target


def _actions(p: dict) -> int:
    w = 2 * (p["deck"] // 4) - 1
    return NUM_CARDS * w * w


def _action_parts(p: dict) -> np.ndarray:
    """Each action id as three parts (``GameSpec.action_parts``): the card, the cell, and the
    card's suit at that cell (where a suit's chain can grow is what the cell is worth to it;
    the jokers, never dealt here, are a fifth suit)."""
    cells = (2 * (p["deck"] // 4) - 1) ** 2
    card, cell = np.divmod(np.arange(_actions(p)), cells)
    suit = np.minimum(card // 13, 4)
    return np.stack([card, NUM_CARDS + cell, NUM_CARDS + cells + suit * cells + cell], 1)


KOMI = (-12, -8, -4, 0, 4, 8, 12)
"""The komi's choices, in chain points, a two-card chain's 4 apart: between heuristic players
Red leads by 2.5 points on average, the margin spreads by some 30, and 4 points move Red's
share by about 6 points in 100 (Red wins 58% at the learned rung)."""


_KOMI = replace(komi(KOMI, "chain points"), variant_values=(-12, 12))
"""The extremes are enough for the contract tests."""


SPEC = GameSpec(
    short_name="skip_chains",
    long_name="Chains",
    original_name="Цепочки",
    rules_section="§11",
    kernel=sys.modules[__package__],  # the package is the game kernel module
    params=(PLAYERS_4_6, DECK_36_52, first_seat(), SEATING, _KOMI),
    check=lambda p: check_first_seat("skip_chains", p),
    num_players=lambda p: p["players"],
    num_distinct_actions=_actions,
    action_parts=_action_parts,
    action_features=action_features,
    max_chance_outcomes=lambda p: 54,
    max_game_length=lambda p: (
        2 * p["deck"] + p["players"] * draws_per_seat(p["players"], p["deck"])
    ),
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    move_words=move_words,
    title=_title,
    table_lines=_public_lines,
    layout=layout,
    move_target=move_target,
    private_lines=_known_lines,
    team_names=TEAM_NAMES,
    mirror=Mirror(swap_colours=True),
)
