"""The declarations of Two Captains and Little Country for the generic pyspiel wrapper (one
kernel, ``P_LITTLE``): names, parameters, sizes, text, action features, the table in a
browser."""

import sys
from functools import partial

from skip_ai.kernel.state import NUM_CARDS
from skip_ai.spec import (
    DECK_36_52,
    PLAYERS_4_6,
    SEATING,
    GameSpec,
    Mirror,
    Param,
    check_first_seat,
    first_seat,
    komi,
)

from . import action_features
from .actions import NUM_ACTIONS, NUM_ACTIONS_PELICANS, action_parts
from .observation_tensor import OBS_PELICANS, OBS_SIZE
from .text import TEAM_NAMES, action_to_string, field_lines, result_note, title
from .zones import layout, move_target


def _max_length(p: dict) -> int:
    # every move but a pass plays a card; n passes in a row end the game, except that the end
    # of a Queen's protection (4 Queens) restarts the count
    cards_in_play = p["deck"] + (2 if p.get("jokers") else 0) + p.get("pelicans", 0)
    return (cards_in_play + 5) * p["players"]


KOMI = (-1, 0, 1)
"""The komi's choices, in piles: a pile is a coarse step (between heuristic players the piles
end level in 23% of the games and one apart in 38%, so one pile moves Red's share by some 14
points in 100 against an edge of 3 to 5); with a pile's komi, equal counts go to the
tiebreak, the piles' value, as the rules say."""
LEVERS = (first_seat(), SEATING, komi(KOMI, "piles"))
"""The designer's levers of both games (RULES §0.7), after the rule parameters."""


def _levers(p: dict) -> list[int]:
    """The levers' kernel slots (``layout.P_FIRST`` ..)."""
    return [p["first_seat"], SEATING.encode(p["seating"]), p["komi"]]


_COMMON = dict(
    kernel=sys.modules[__package__],  # the package is the game kernel module
    num_players=lambda p: p["players"],
    max_chance_outcomes=lambda p: NUM_CARDS + p.get("pelicans", 0),
    max_game_length=_max_length,
    observation_size=lambda p: OBS_SIZE + (OBS_PELICANS if p.get("pelicans") else 0),
    action_to_string=action_to_string,
    title=title,
    table_lines=field_lines,
    result_note=result_note,
    layout=layout,
    move_target=move_target,
    team_names=TEAM_NAMES,
    action_features=action_features,
    mirror=Mirror(swap_colours=True),
)


TWO_CAPTAINS = GameSpec(
    short_name="skip_two_captains",
    long_name="Two Captains",
    original_name="Два Капитана",
    rules_section="§3",
    params=(PLAYERS_4_6, DECK_36_52, *LEVERS),
    num_distinct_actions=lambda p: 5887,
    action_parts=lambda p: action_parts(5887),
    kernel_params=lambda p: [p["players"], p["deck"], 0, 0, 0, *_levers(p)],
    check=partial(check_first_seat, "skip_two_captains"),
    **_COMMON,
)
LITTLE_COUNTRY = GameSpec(
    short_name="skip_little_country",
    long_name="Little Country",
    original_name="Маленькая Страна",
    rules_section="§4",
    params=(
        PLAYERS_4_6,
        DECK_36_52,
        Param("jokers", False, (False, True), "both jokers join the deck (54 or 38 cards)"),
        Param("pelicans", 0, (0, 2, 3), "pelicans (value 15, no suit) join the deck"),
        *LEVERS,
    ),
    num_distinct_actions=lambda p: NUM_ACTIONS_PELICANS if p["pelicans"] else NUM_ACTIONS,
    action_parts=lambda p: action_parts(NUM_ACTIONS_PELICANS if p["pelicans"] else NUM_ACTIONS),
    kernel_params=lambda p: [
        p["players"],
        p["deck"],
        int(p["jokers"]),
        1,
        p["pelicans"],
        *_levers(p),
    ],
    check=partial(check_first_seat, "skip_little_country"),
    **_COMMON,
)
