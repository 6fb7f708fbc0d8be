"""Domino's declaration for the generic pyspiel wrapper: names, parameters, sizes, the action
features, text and the table in a browser."""

import sys

from skip_ai.spec import (
    DECK_36_FOR_1V1,
    PLAYERS_2_4_6,
    REMOVE4,
    SEATING,
    GameSpec,
    Mirror,
    Param,
    check_first_seat,
    first_seat,
    komi,
)

from . import action_features
from .grid import PASS
from .layout import REMOVED
from .observation_tensor import OBS_SIZE
from .text import TEAM_NAMES, action_to_string, table_lines, title
from .zones import layout


def _cards_in_play(p: dict) -> int:
    return p["deck"] - (REMOVED if p["remove4"] else 0)


KOMI = (-4, -3, -2, -1, 0, 1, 2, 3, 4)
"""The komi's choices, in cards taken: between heuristic players the second team leads by
about 2 cards on average (results/balance/report.md), so a few cards either way span the
question."""


SPEC = GameSpec(
    short_name="skip_domino",
    long_name="Domino",
    original_name="Домино",
    rules_section="§6",
    kernel=sys.modules[__package__],  # the package is the game kernel module
    params=(
        PLAYERS_2_4_6,
        DECK_36_FOR_1V1,
        REMOVE4,
        Param(
            "voluntary_pass",
            False,
            (False, True),
            "passing by choice allowed (except when leading an empty table)",
        ),
        first_seat("the seat that leads the first trick (the rules: seat 0)"),
        SEATING,
        komi(KOMI, "cards"),
    ),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: PASS + 1,
    max_chance_outcomes=lambda p: 54,
    # every card placed is followed by at most n - 1 passes before a card or a trick
    max_game_length=lambda p: _cards_in_play(p) * p["players"],
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=title,
    table_lines=table_lines,
    layout=layout,
    team_names=TEAM_NAMES,
    check=lambda p: check_first_seat("skip_domino", p),
    mirror=Mirror(swap_colours=False),
    action_features=action_features,
)
