"""Pyatki's declarations for the generic pyspiel wrapper: names, parameters, sizes, text, the
table in a browser, for both games the kernel serves (``PYATKI`` and ``PYATKI_PAIRS``)."""

import sys

from skip_ai.kernel.attack import NUM_ACTIONS
from skip_ai.kernel.state import NUM_CARDS
from skip_ai.spec import TURN_CAPS, GameSpec, Param

from . import action_features
from .layout import HAND_SIZE
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
OPENERS = ("lowest_trump", "seat_0", "seat_1", "seat_2", "seat_3", "seat_4", "seat_5")
"""The ``opener`` lever's choices: the rules' holder of the lowest trump, or a fixed seat (the
kernel sees 0, or 1 + the seat)."""


def _opener(doc: str) -> Param:
    """Who attacks first, as a lever (the rules: the holder of the lowest trump)."""
    return Param(
        "opener",
        "lowest_trump",
        OPENERS,
        doc,
        variant_values=("seat_0", "seat_1"),
        lever=True,
    )


_HAND = Param(
    "hand_size",
    HAND_SIZE,
    (3, 4, 5, 6, 7),
    "cards dealt to each player and drawn up to after an exchange (the rules: 5); between "
    "heuristic players fewer make longer games, more of them stopped at the cap",
    variant_values=(3, 7),
    lever=True,
)
_TRUMP_CARD = Param(
    "trump_card",
    "last",
    ("last", "first"),
    "the dealt card whose suit is trump, shown to all: the last (the rules; seat 3 holds it) "
    "or the first (seat 0 holds it) — its holder has one trump more than the others on "
    "average",
    lever=True,
)
MIN_STOCK = 5
"""Pyatki's stock must hold a card that is not an Ace for the trump card (rule 1)."""


def _seat_check(game: str, p: dict, players: int) -> None:
    """The ``opener`` lever must name a seat of the game."""
    if p["opener"] != "lowest_trump" and int(p["opener"][5:]) >= players:
        raise ValueError(f"{game}: opener={p['opener']} is not a seat of {players} players")


def _check_pyatki(p: dict) -> None:
    _seat_check("skip_pyatki", p, p["players"])
    left = p["deck"] - p["hand_size"] * p["players"]
    if left < MIN_STOCK:
        raise ValueError(
            f"skip_pyatki: hand_size={p['hand_size']} for {p['players']} players leaves "
            f"{left} of {p['deck']} cards for the stock; the trump card needs at least "
            f"{MIN_STOCK} (all four Aces may be among them)"
        )


def _lever_slots(p: dict, trump_card: str) -> list[int]:
    """The levers' kernel slots (``layout.P_HAND``, ``P_OPENER``, ``P_TRUMP_CARD``)."""
    return [
        p.get("hand_size", HAND_SIZE),
        OPENERS.index(p["opener"]),
        _TRUMP_CARD.encode(trump_card),
    ]


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
        _HAND,
        _opener(
            "who attacks first: the holder of the lowest trump (the rules), or a fixed seat, "
            "who attacks the next one"
        ),
    ),
    num_players=lambda p: p["players"],
    kernel_params=lambda p: [
        p["players"],
        p["deck"],
        int(p["places"]),
        p["max_exchanges"],
        0,
        *_lever_slots(p, "last"),
    ],
    check=_check_pyatki,
    team_game=False,
    no_mirror="each for themselves: there are no teams to swap",
    **_COMMON,
)
PYATKI_PAIRS = GameSpec(
    short_name="skip_pyatki_pairs",
    long_name="Pyatki for pairs",
    original_name="Пятки двое на двое",
    rules_section="§2",
    params=(
        Param("deck", 52, (36, 52), "36 or 52 cards"),
        _MAX,
        _TRUMP_CARD,
        _opener(
            "who attacks first: the holder of the lowest trump (the rules), or a fixed seat, "
            "who attacks the seat opposite"
        ),
    ),
    num_players=lambda p: 4,
    kernel_params=lambda p: [
        4,
        p["deck"],
        0,
        p["max_exchanges"],
        1,
        *_lever_slots(p, p["trump_card"]),
    ],
    check=lambda p: _seat_check("skip_pyatki_pairs", p, 4),
    team_names=TEAM_NAMES,
    no_mirror=(
        "the trump is the suit of the last card dealt, which goes to seat 3: swapping the "
        "hands would change the trump"
    ),
    **_COMMON,
)
