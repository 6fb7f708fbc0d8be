"""Rummy's declaration for the generic pyspiel wrapper: names, parameters, sizes, text, the table
in a browser."""

import sys

from skip_ai.spec import TURN_CAPS, GameSpec, Param

from .actions import NUM_ACTIONS
from .observation_tensor import OBS_SIZE
from .text import action_to_string, chance_text, result_note, table_lines, title
from .zones import layout


def _max_length(p: dict) -> int:
    t, n = p["max_turns"], p["players"]
    return 52 + 2 * t + 3 * 52 + (n - 1) * (t + 52)


SPEC = GameSpec(
    short_name="classic_rummy",
    long_name="Rummy",
    original_name="Рамми",
    rules_section="§13",
    kernel=sys.modules[__package__],  # the package is the game kernel module
    params=(
        Param("players", 2, (2, 3, 4, 5, 6), "2 to 6, each for themselves"),
        Param(
            "max_turns",
            200,
            TURN_CAPS,
            "a dead hand after this many turns",
            variant_values=(50, 200),
        ),
    ),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: NUM_ACTIONS,
    max_chance_outcomes=lambda p: 52,
    max_game_length=_max_length,
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=title,
    table_lines=table_lines,
    result_note=result_note,
    layout=layout,
    chance_text=chance_text,
    team_game=False,
    no_mirror="each for themselves: there are no teams to swap",
    # the widest returns over all variants: a tablecloth against ten pictures (2 players:
    # -200), or against the 30 highest cards held by five losers (6 players: 2 × 268)
    min_utility=-200.0,
    max_utility=536.0,
)
