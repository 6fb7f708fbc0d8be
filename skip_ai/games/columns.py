"""skip_columns — Columns («Столбики», СКИП-5), RULES.md §5.

Every card goes on top of its rank's column (row 1 at the bottom to row 4, the finish line);
when all cards are played each team scores the finish-line cards of its colour (Red = team 0).

Actions: ``c`` (0..51) plays card ``c``; every card in hand is legal. Chance outcomes are the
card ids of the deal. num_distinct_actions = 54.

State (after the common part of ``skip_ai.kernel.state``):

- ``COL_H[r]``          cards already in the column of rank ``r + 2``
- ``GRID[4*r + row]``   the card at ``row`` (0 = bottom .. 3 = finish line) of that column, -1 empty

Observation tensor (288 floats) for player ``p``: ``[0, 72)`` the common part
(``kernel.state.write_common_observation``: own hand, hand sizes, seat to move, own seat);
then ``72 + 54*row + c`` is 1 when card ``c`` lies in ``row`` (0 bottom .. 3 finish line).
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards, text
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.state import (
    CHANCE,
    EXTRAS_3V3,
    GAME,
    H_CUR,
    H_MOVES,
    H_PLAYERS,
    LOC_TABLE,
    NUM_CARDS,
    OBS_COMMON,
    TERMINAL,
    all_seats,
    deal_card,
    dealing,
    hand,
    new_state,
    next_seat_with_cards,
    param,
    play_public,
    sample_hand,
    seat_teams,
    setup_deal,
    standard_deck,
    team_of,
    write_common_observation,
)

# the deal is the game's only chance event
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401  (kernel API)
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401  (kernel API)
from skip_ai.layout import Layout, deck_ranks
from skip_ai.pyspiel_wrapper import register
from skip_ai.spec import (
    DECK_36_52,
    PLAYERS_2_4_6,
    SEATING,
    TIE,
    TIE_DRAW,
    TIE_FIRST,
    GameSpec,
    Mirror,
    check_first_seat,
    first_seat,
    komi,
)

P_PLAYERS, P_DECK, P_FIRST, P_SEATING, P_KOMI, P_TIE = 0, 1, 2, 3, 4, 5

ROWS = 4
FINISH = ROWS - 1

COL_H = GAME
GRID = COL_H + 13
STATE_SIZE = GRID + 4 * 13
OBS_SIZE = OBS_COMMON + ROWS * NUM_CARDS


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    setup_deal(s, params[P_PLAYERS], standard_deck(params[P_DECK], False), 0, EXTRAS_3V3)
    seat_teams(s, params[P_SEATING])
    for i in range(4 * 13):
        s[GRID + i] = -1
    return s


@njit(cache=True)
def legal_actions(s, out):
    return hand(s, s[H_CUR], out)


@njit(cache=True)
def random_legal(s, rng):
    return sample_hand(s, s[H_CUR], rng)


@njit(cache=True)
def apply_action(s, a):
    s[H_MOVES] += 1
    if s[H_CUR] == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = param(s, P_FIRST)
        return vis
    r = a % 13
    s[GRID + 4 * r + s[COL_H + r]] = a
    s[COL_H + r] += 1
    play_public(s, a, LOC_TABLE)
    nxt = next_seat_with_cards(s, s[H_CUR])
    s[H_CUR] = TERMINAL if nxt < 0 else nxt
    return all_seats(s)


@njit(cache=True)
def finish_line(s, out):
    """Finish-line cards of each colour so far: ``out[0]`` Red, ``out[1]`` Black."""
    out[0] = 0.0
    out[1] = 0.0
    for r in range(13):
        c = s[GRID + 4 * r + FINISH]
        if c >= 0:
            out[1 if c < 26 else 0] += 1.0


@njit(cache=True)
def scores(s, out):
    """The finish-line counts, the komi added to Red's (the number the rules compare)."""
    finish_line(s, out)
    out[0] += param(s, P_KOMI)


@njit(cache=True)
def returns(s, out):
    team = np.zeros(2)
    scores(s, team)
    diff = np.sign(team[0] - team[1])
    if diff == 0 and param(s, P_TIE) != TIE_DRAW:  # only a komi makes equal counts
        diff = 1.0 if param(s, P_TIE) == TIE_FIRST else -1.0
    for seat in range(s[H_PLAYERS]):
        out[seat] = diff if team_of(s, seat) == 0 else -diff


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    for r in range(13):
        for row in range(s[COL_H + r]):
            out[OBS_COMMON + NUM_CARDS * row + s[GRID + 4 * r + row]] = 1.0


# ----- Python side: declaration, text and the table in a browser --------------------------

TEAM_NAMES = ("Red", "Black")


def action_to_string(s, player: int, action: int) -> str:
    return cards.to_str(action)


def _grid_lines(s) -> list[str]:
    ranks = range(6 if param(s, P_DECK) == 36 else 2, 15)
    lines = []
    for row in range(FINISH, -1, -1):
        cells = []
        for rank in ranks:
            c = int(s[GRID + 4 * (rank - 2) + row])
            cells.append(f"{cards.to_str(c) if c >= 0 else '..':>3}")
        label = f"row {row + 1}" + (" finish" if row == FINISH else "")
        lines.append(f"  {label:13s}|" + "".join(cells))
    lines.append(" " * 15 + "+" + "".join(f"{cards.RANK_CHARS[r - 2]:>3}" for r in ranks))
    return lines


def _finish_text(s) -> str:
    team = np.zeros(2)
    finish_line(s, team)
    k = int(param(s, P_KOMI))
    komi_text = f" with komi {k:+d}: {int(team[0]) + k}" if k else ""
    return f"  finish line: Red {int(team[0])}{komi_text}, Black {int(team[1])}"


def _result_note(s) -> str:
    """Equal counts (a komi made them) decided by the ``tie`` lever."""
    team = np.zeros(2)
    scores(s, team)
    tie = int(param(s, P_TIE))
    if team[0] != team[1] or tie == TIE_DRAW:
        return ""
    return f"equal counts with the komi: {TEAM_NAMES[0 if tie == TIE_FIRST else 1]} wins the tie"


def _title(s) -> str:
    return f"Columns, {text.players(s)} players, {int(param(s, P_DECK))} cards" + text.lever_words(
        int(param(s, P_FIRST)), bool(param(s, P_SEATING)), int(param(s, P_KOMI)), "starts"
    )


def _table_lines(s) -> list[str]:
    return [*_grid_lines(s), _finish_text(s)]


def _layout(s) -> Layout:
    """The columns as a grid, the finish row on top (``GameSpec.layout``)."""
    ranks = deck_ranks(int(param(s, P_DECK)))
    cells = [
        {"row": FINISH - row, "col": j, "card": int(s[GRID + 4 * (rank - 2) + row])}
        for j, rank in enumerate(ranks)
        for row in range(ROWS)
        if int(s[GRID + 4 * (rank - 2) + row]) >= 0
    ]
    return {
        "zones": [
            {
                "kind": "grid",
                "title": "columns",
                "cells": cells,
                "row_labels": ["finish", "3", "2", "1"],
                "col_labels": [cards.RANK_CHARS[r - 2] for r in ranks],
            }
        ],
        "facts": [],
    }


KOMI = (-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6)
"""The komi's choices, in finish-line cards: Black leads by 4.5 on average between heuristic
players at the rules' defaults (results/balance/fixes.md), so a fair komi may lie near 4."""


SPEC = GameSpec(
    short_name="skip_columns",
    long_name="Columns",
    original_name="Столбики",
    rules_section="§5",
    kernel=sys.modules[__name__],
    params=(
        PLAYERS_2_4_6,
        DECK_36_52,
        first_seat("the seat that places the first card, so the seat before it places the last"),
        SEATING,
        komi(KOMI, "finish-line cards"),
        TIE,
    ),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: 54,
    max_chance_outcomes=lambda p: 54,
    max_game_length=lambda p: p["deck"],
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_table_lines,
    layout=_layout,
    team_names=TEAM_NAMES,
    check=lambda p: check_first_seat("skip_columns", p),
    result_note=_result_note,
    mirror=Mirror(swap_colours=True),
)
register(SPEC)
