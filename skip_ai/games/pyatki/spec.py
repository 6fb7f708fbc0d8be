"""Pyatki's declarations for the generic pyspiel wrapper: names, parameters, sizes, text, the
table in a browser, for both games the kernel serves (``PYATKI`` and ``PYATKI_PAIRS``)."""

import sys

from skip_ai.kernel.attack import NUM_ACTIONS
from skip_ai.kernel.state import NUM_CARDS
from skip_ai.spec import TURN_CAPS, GameSpec, Param

from . import action_features
from .observation_tensor import OBS_SIZE
from .text import (
    TEAM_NAMES,
    action_to_string,
    chance_text,
    public_record,
    result_note,
    seat_note,
    table_lines,
    title,
)
from .zones import layout


def _max_length(p: dict) -> int:
    # an exchange is at most 5 picks, ATTACK and 5 answers
    return (2 * 5 + 1) * p["max_exchanges"]


_MAX = Param(
    "max_exchanges",
    200,
    TURN_CAPS,
    "the game stops after this many exchanges",
    variant_values=(2, 200),
)
_COMMON = dict(
    kernel=sys.modules[__package__],  # the package is the game kernel module
    num_distinct_actions=lambda p: NUM_ACTIONS,
    max_chance_outcomes=lambda p: NUM_CARDS,
    max_game_length=_max_length,
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=title,
    table_lines=table_lines,
    result_note=result_note,
    layout=layout,
    seat_note=seat_note,
    chance_text=chance_text,
    public_record=public_record,
    action_features=action_features,
)

PYATKI = GameSpec(
    short_name="skip_pyatki",
    long_name="Pyatki",
    original_name="Пятки",
    rules_section="§1",
    params=(
        Param("players", 3, (2, 3, 4, 5, 6), "2 to 6, each for themselves"),
        Param("deck", 36, (36, 52), "36 or 52 cards"),
        Param(
            "places",
            False,
            (False, True),
            "play on for the other places after the first player is out",
        ),
        _MAX,
    ),
    num_players=lambda p: p["players"],
    kernel_params=lambda p: [p["players"], p["deck"], int(p["places"]), p["max_exchanges"], 0],
    team_game=False,
    no_mirror="each for themselves: there are no teams to swap",
    **_COMMON,
)
PYATKI_PAIRS = GameSpec(
    short_name="skip_pyatki_pairs",
    long_name="Pyatki for pairs",
    original_name="Пятки двое на двое",
    rules_section="§2",
    params=(Param("deck", 52, (36, 52), "36 or 52 cards"), _MAX),
    num_players=lambda p: 4,
    kernel_params=lambda p: [4, p["deck"], 0, p["max_exchanges"], 1],
    team_names=TEAM_NAMES,
    no_mirror=(
        "the trump is the suit of the last card dealt, which goes to seat 3: swapping the "
        "hands would change the trump"
    ),
    **_COMMON,
)
