"""skip_columns — Columns («Столбики», СКИП-5), RULES.md §5.

Every card goes on top of its rank's column (row 1 at the bottom to row 4, the finish line);
when all cards are played each team scores the finish-line cards of its colour (Red = team 0).

Actions: ``c`` (0..51) plays card ``c``; every card in hand is legal. Chance outcomes are the
card ids of the deal. num_distinct_actions = 54.

State (after the common part of ``skip_ai.kernel.state``):

- ``COL_H[r]``          cards already in the column of rank ``r + 2``
- ``GRID[4*r + row]``   the card at ``row`` (0 = bottom .. 3 = finish line) of that column, -1 empty

Observation tensor (288 floats) for player ``p``; "relative seat" k means seat ``(p + k) % n``:

- ``[0, 54)``          1 for each card in ``p``'s hand
- ``[54, 270)``        ``54 + 54*row + c``: card ``c`` lies in row ``row`` (0 bottom .. 3 finish)
- ``[270, 276)``       hand size of relative seat k, divided by 26
- ``[276, 282)``       1 at the relative seat to move
- ``[282, 288)``       1 at ``p``'s own seat number
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards
from skip_ai.games.spec import GameSpec, Param
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.state import (CHANCE, GAME, H_CUR, H_MOVES, H_PARAMS, H_PLAYERS, LOC,
                                  LOC_TABLE, MAX_SEATS, NUM_CARDS, STATE_DTYPE, TERMINAL,
                                  all_seats, current_player, deal_card, dealing, hand,
                                  hand_size, init_common, next_seat_with_cards, param, plan_round_robin,
                                  play_public, sample_hand, sample_undealt, team_of,
                                  undealt_cards)
from skip_ai.pyspiel_wrapper import register

P_PLAYERS, P_DECK = 0, 1

COL_H = GAME
GRID = COL_H + 13
STATE_SIZE = GRID + 4 * 13
OBS_SIZE = 54 + 4 * 54 + 3 * MAX_SEATS
ROWS = 4
FINISH = ROWS - 1

EXTRA_SEATS_3V3 = np.array([0, 1, 3, 4], dtype=np.int64)


@njit(cache=True)
def init(params):
    s = np.zeros(STATE_SIZE, STATE_DTYPE)
    players, deck_size = params[P_PLAYERS], params[P_DECK]
    low = 6 if deck_size == 36 else 2
    deck = np.empty(deck_size, np.int64)
    k = 0
    for suit in range(4):
        for rank in range(low, 15):
            deck[k] = 13 * suit + rank - 2
            k += 1
    init_common(s, players, deck)
    s[H_PARAMS + P_PLAYERS] = players
    s[H_PARAMS + P_DECK] = deck_size
    plan_round_robin(s, deck_size, np.arange(players), EXTRA_SEATS_3V3)
    for i in range(4 * 13):
        s[GRID + i] = -1
    return s


@njit(cache=True)
def chance_outcomes(s, out):
    return undealt_cards(s, out)


@njit(cache=True)
def sample_chance(s, rng):
    return sample_undealt(s, rng)


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
            s[H_CUR] = 0
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
    finish_line(s, out)


@njit(cache=True)
def returns(s, out):
    team = np.zeros(2)
    finish_line(s, team)
    diff = np.sign(team[0] - team[1])
    for seat in range(s[H_PLAYERS]):
        out[seat] = diff if team_of(s, seat) == 0 else -diff


@njit(cache=True)
def observation(s, p, out):
    n = s[H_PLAYERS]
    for c in range(NUM_CARDS):
        if s[LOC + c] == p:
            out[c] = 1.0
    for r in range(13):
        for row in range(s[COL_H + r]):
            out[54 + 54 * row + s[GRID + 4 * r + row]] = 1.0
    base = 54 + 4 * 54
    for k in range(n):
        out[base + k] = hand_size(s, (p + k) % n) / 26.0
    cur = current_player(s)
    if cur >= 0:
        out[base + MAX_SEATS + (cur - p) % n] = 1.0
    out[base + 2 * MAX_SEATS + p] = 1.0


# ----- Python side: declaration and text --------------------------------------------------

TEAM_NAMES = ("Red", "Black")


def _players(s) -> int:
    return int(s[H_PLAYERS])


def _team(s, seat: int) -> str:
    return TEAM_NAMES[seat // (_players(s) // 2)]


def action_to_string(s, player: int, action: int) -> str:
    return cards.to_str(action)


def _grid_lines(s) -> list[str]:
    deck_size = int(param(s, P_DECK))
    ranks = range(6 if deck_size == 36 else 2, 15)
    lines = []
    for row in range(FINISH, -1, -1):
        cells = []
        for rank in ranks:
            c = int(s[GRID + 4 * (rank - 2) + row])
            cells.append(f"{cards.to_str(c) if c >= 0 else '..':>3}")
        lines.append(f"  row {row + 1}{' finish' if row == FINISH else '       '} |" + "".join(cells))
    lines.append("                   +" + "".join(f"{cards.RANK_CHARS[r - 2]:>3}" for r in ranks))
    return lines


def _hand_text(s, seat: int) -> str:
    held = [c for c in range(NUM_CARDS) if s[LOC + c] == seat]
    return cards.cards_to_str(held) or "-"


def _status(s) -> str:
    cur = int(s[H_CUR])
    if cur == TERMINAL:
        return "game over"
    if cur == CHANCE:
        return "dealing"
    return f"seat {cur} ({_team(s, cur)}) to play"


def _finish_text(s) -> str:
    team = np.zeros(2)
    finish_line(s, team)
    return f"finish line: Red {int(team[0])}, Black {int(team[1])}"


def render(s) -> str:
    n = _players(s)
    lines = [f"Columns, {n} players, {int(param(s, P_DECK))} cards — move {int(s[H_MOVES])}, "
             f"{_status(s)}"]
    for seat in range(n):
        lines.append(f"  seat {seat} ({_team(s, seat)}): {_hand_text(s, seat)}")
    lines += _grid_lines(s)
    lines.append("  " + _finish_text(s))
    return "\n".join(lines)


def render_observation(s, p: int) -> str:
    n = _players(s)
    sizes = " ".join(str(int(hand_size(s, q))) for q in range(n))
    return "\n".join([f"seat {p} ({_team(s, p)}), {_status(s)}",
                      f"  hand: {_hand_text(s, p)}",
                      f"  hand sizes: {sizes}",
                      *_grid_lines(s),
                      "  " + _finish_text(s)])


SPEC = GameSpec(
    short_name="skip_columns",
    long_name="Columns",
    original_name="Столбики",
    rules_section="§5",
    kernel=sys.modules[__name__],
    params=(Param("players", 4, (2, 4, 6), "2 (1v1), 4 (2v2) or 6 (3v3)"),
            Param("deck", 52, (36, 52), "36 or 52 cards")),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: 54,
    max_chance_outcomes=lambda p: 54,
    max_game_length=lambda p: p["deck"],
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    render=render,
    render_observation=render_observation,
    team_names=TEAM_NAMES,
)
register(SPEC)
