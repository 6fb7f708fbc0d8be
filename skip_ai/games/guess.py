"""skip_guess — Guess («Угадайка», СКИП-9 and the long text with jokers), RULES.md §9.

A stream is a row of columns of k cells (k = players per team; rows 0 = top .. k-1 =
bottom). The team that starts a stream fills column 1, the other team column 2, and so on;
within a column the team's members play one card each in seat order from its captain, so
turns are plain clockwise while partners sit side by side (with ``seating=alternate``: 0, 2,
then 1, 3 for four). All cards of a column share one suit; the first column of a stream fixes
the orientation (top higher than bottom, or lower) and every later column keeps it. Every card is
checked only against the cards already in its column; in the first column only the last card
is checked (it must make the column monotone either way). Jokers (``jokers=true``): never in
a stream's first column; elsewhere a joker may join a column whose cards have its colour, in
any cell, exempt from the order; a column begun with a joker takes any card of its colour
next; two jokers never share a column. A player holding cards with no legal move must PASS:
the whole stream goes to the other team, whose captain starts the next one (a pass on an
empty table gives nothing; two in a row end the game). The game ends when the player to move
holds no card; the table is then discarded. More cards taken wins; on equal cards
``tiebreak=values`` compares their total value (joker 11), ``draw`` calls it a draw.

The designer's levers (RULES §0.7, each default the rules): ``first_seat`` the captain who
starts the first stream (a column is filled from its team's captain, so a captain's seat
only); ``seating`` 0 = side by side, 1 = alternately (the extra cards of an uneven deal still
go to the captains); ``komi`` cards added to team 0's cards taken before they are compared
(negative: to team 1's), the tiebreak deciding equal counts as before.

Actions: ``row * 54 + c`` puts card ``c`` into the empty cell ``row`` of the current column;
``162`` is PASS. num_distinct_actions = 163. Chance outcomes are the card ids of the deal.

State (after the trick slots of ``kernel.tricks``):

- ``GS_COL``         index of the current column in the stream (0 = the first column)
- ``GS_FILLED``      cells filled in the current column
- ``GS_ORIENT``      +1 top higher than bottom, -1 top lower, 0 not fixed yet (first column)
- ``GS_STARTER``     team that started the current stream, -1 on an empty table
- ``GS_EMPTY_PASS``  1 when the last action was a pass on an empty table (a second one ends
                     the game)
- ``GS_GRID[3*col + row]``  the card in that cell of the stream, -1 empty (each column is
                     cleared when it starts; the columns after ``GS_COL`` hold leftovers)

Observation tensor (466 floats) for player ``p``: ``[0, 72)`` the common part
(``kernel.state.write_common_observation``: own hand, hand sizes, seat to move, own seat);
``[72, 300)`` the trick part (``kernel.tricks.write_observation``: cards on the table, cards
taken by each team, the last card, who passed since it (always nobody here), who played it);
then, from 300: ``[300, 462)`` the current column, ``300 + 54*row + c`` = 1 when card ``c``
lies in ``row`` (rows 0..2, row 2 unused with k = 2); ``462`` / ``463`` the orientation is
top higher / top lower (both 0 while the first column is open); ``464`` the current column is
the stream's first; ``465`` the last action was a pass on an empty table.
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards, text
from skip_ai.kernel.bits import bit, list_segments, lowest, sample_segments
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.state import (
    CHANCE,
    EXTRAS_3V3,
    H_CUR,
    H_MOVES,
    H_PLAYERS,
    HAND,
    NUM_CARDS,
    OBS_COMMON,
    TERMINAL,
    all_seats,
    captain,
    deal_card,
    dealing,
    new_state,
    param,
    prove_absent_mask,
    seat_teams,
    setup_deal,
    standard_deck,
    team_of,
    team_seats,
    write_common_observation,
)

# the deal is the game's only chance event
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401  (kernel API)
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401  (kernel API)
from skip_ai.kernel.tricks import (
    OBS_TRICKS,
    TK_TABLE,
    TK_TAKEN,
    TK_VALUE,
    TRICK_END,
    init_tricks,
    put_on_table,
    returns_by_taken,
    take_table,
    taken_scores,
)
from skip_ai.kernel.tricks import write_observation as write_trick_observation
from skip_ai.layout import Layout, taken_zones
from skip_ai.pyspiel_wrapper import register
from skip_ai.spec import (
    DECK_36_52,
    PLAYERS_4_6,
    SEATING,
    GameSpec,
    Mirror,
    Param,
    first_seat,
    komi,
)

P_PLAYERS, P_DECK, P_JOKERS, P_TIEBREAK, P_FIRST, P_SEATING, P_KOMI = range(7)
TIEBREAKS = ("values", "draw")
TB_VALUES = 0

PASS = 162
MAX_ROWS = 3
MAX_COLUMNS = 27
"""Every column a stream can reach: at most 53 cards in columns of 2 (with 54 cards the game
ends before the last one is played), or 52 cards and the next, empty, column."""

SUIT = np.int64((1 << 13) - 1)
"""The 13 card ids of suit 0; shifted by 13 * suit for the others."""
COLOUR = np.int64((1 << 26) - 1)
"""The black cards (spades and clubs, ids 0..25); shifted by 26 for the red ones."""
PLAIN = np.int64((1 << 52) - 1)
JOKERS = np.int64(3 << 52)
EXTRAS_2V2 = np.array([0, 2], dtype=np.int64)
"""With jokers, 54 or 38 cards: the two extra cards go to the captains (RULES §9)."""
EXTRAS_2V2_ALTERNATE = np.array([0, 1], dtype=np.int64)
EXTRAS_3V3_ALTERNATE = np.array([0, 2, 1, 3], dtype=np.int64)
"""The extra seats where partners sit alternately: the same roles as ``EXTRAS_2V2`` and
``EXTRAS_3V3`` (the captains; each team's first and second member)."""

GS_COL = TRICK_END
GS_FILLED = GS_COL + 1
GS_ORIENT = GS_COL + 2
GS_STARTER = GS_COL + 3
GS_EMPTY_PASS = GS_COL + 4
GS_GRID = GS_COL + 5
STATE_SIZE = GS_GRID + MAX_ROWS * MAX_COLUMNS

OBS_COLUMN = OBS_COMMON + OBS_TRICKS
OBS_ORIENT = OBS_COLUMN + MAX_ROWS * NUM_CARDS
OBS_FIRST = OBS_ORIENT + 2
OBS_EMPTY_PASS = OBS_FIRST + 1
OBS_SIZE = OBS_EMPTY_PASS + 1


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    players = params[P_PLAYERS]
    if params[P_SEATING] == 0:
        extras = EXTRAS_2V2 if players == 4 else EXTRAS_3V3
    else:
        extras = EXTRAS_2V2_ALTERNATE if players == 4 else EXTRAS_3V3_ALTERNATE
    setup_deal(s, players, standard_deck(params[P_DECK], params[P_JOKERS] != 0), 0, extras)
    seat_teams(s, params[P_SEATING])
    init_tricks(s)
    _new_stream(s)
    return s


@njit(cache=True, inline="always")
def _new_stream(s):
    s[GS_COL] = 0
    s[GS_ORIENT] = 0
    s[GS_STARTER] = -1
    _new_column(s)


@njit(cache=True, inline="always")
def _new_column(s):
    s[GS_FILLED] = 0
    base = GS_GRID + MAX_ROWS * s[GS_COL]
    for r in range(MAX_ROWS):
        s[base + r] = -1


@njit(cache=True, inline="always")
def _higher(c):
    """Card ids above ``c``: within one suit, the higher ranks."""
    return ~((np.int64(2) << c) - 1)


@njit(cache=True, inline="always")
def _lower(c):
    return (np.int64(1) << c) - 1


@njit(cache=True, inline="always")
def _row_masks(s):
    """For each row 0..2, the mask of every card of the whole deck that may go into it now
    (0 for a filled row or a row beyond k): rules 3–5."""
    base = GS_GRID + MAX_ROWS * s[GS_COL]
    return _column_masks(
        s[base],
        s[base + 1],
        s[base + 2],
        s[GS_COL] == 0,
        s[GS_ORIENT],
        s[GS_FILLED],
        s[H_PLAYERS] // 2,
    )


@njit(cache=True, inline="always")
def _column_masks(c0, c1, c2, first, d, filled, k):
    """``_row_masks`` of the column ``c0, c1, c2`` (top to bottom, -1 empty) of ``k`` rows, the
    stream's first or not, with orientation ``d`` and ``filled`` cells."""
    # the bottom-most plain card (any of them gives the suit), -1 if none
    plain = c2 if 0 <= c2 < 52 else (c1 if 0 <= c1 < 52 else (c0 if 0 <= c0 < 52 else -1))
    highest = max(c0, c1, c2)
    # rules 3–5: one suit per column; a joker of the column's colour, never in a first
    # column; a joker alone takes any card of its colour. Two jokers never share a column
    # because they differ in colour.
    if plain >= 0:
        allowed = SUIT << (13 * (plain // 13))
        if not first:
            allowed |= bit(52 if plain < 26 else 53)
    elif highest >= 52:
        allowed = COLOUR << (26 * (highest - 52))
    elif first:
        allowed = PLAIN
    else:
        allowed = PLAIN | JOKERS
    # the order: fixed by the first column for later columns; inside the first column only
    # its last card is checked, in the direction its other cards already show (k = 3: the
    # first column holds no joker, so two filled cells are the top-most and bottom-most)
    if first and filled >= 2:
        top = c0 if c0 >= 0 else c1
        d = 1 if top > plain else -1
    m2 = _row_mask(c0, c1, c2, 2, d, allowed) if k == 3 else np.int64(0)
    return _row_mask(c0, c1, c2, 0, d, allowed), _row_mask(c0, c1, c2, 1, d, allowed), m2


@njit(cache=True, inline="always")
def _row_mask(c0, c1, c2, r, d, allowed):
    """``allowed`` narrowed for the row ``r`` of the column ``c0, c1, c2`` (-1 empty): 0 if
    the row is filled, else the cards that keep direction ``d`` (0: no order) against every
    plain card of the column; jokers are exempt."""
    if (c0, c1, c2)[r] >= 0:
        return np.int64(0)
    return _keep_order(_keep_order(_keep_order(allowed, r, 0, c0, d), r, 1, c1, d), r, 2, c2, d)


@njit(cache=True, inline="always")
def _keep_order(m, r, q, c, d):
    """``m`` narrowed to the cards that may lie in row ``r`` above or below card ``c`` of row
    ``q`` in direction ``d`` (+1: the top holds the higher ranks)."""
    if c < 0 or c >= 52 or d == 0:
        return m
    if (r < q) == (d > 0):
        return m & (_higher(c) | JOKERS)
    return m & (_lower(c) | JOKERS)


@njit(cache=True, inline="always")
def _legal(s):
    """(masks of the cards in hand legal in rows 0, 1, 2; PASS or -1): PASS exactly when the
    player to move holds no legal card (rule 6)."""
    held = s[HAND + s[H_CUR]]
    m0, m1, m2 = _row_masks(s)
    m0 &= held
    m1 &= held
    m2 &= held
    if (m0 | m1 | m2) == 0:
        return (m0, m1, m2), PASS
    return (m0, m1, m2), -1


@njit(cache=True)
def legal_actions(s, out):
    masks, extra = _legal(s)
    return list_segments(masks, extra, out)


@njit(cache=True)
def random_legal(s, rng):
    masks, extra = _legal(s)
    return sample_segments(masks, extra, rng)


@njit(cache=True, inline="always")
def next_member(s, seat):
    """The member of ``seat``'s team after it in seat order (-1 after the last): who plays
    next into the team's column (rule 1)."""
    later = team_seats(s, team_of(s, seat)) & ~((np.int64(2) << seat) - 1)
    return lowest(later) if later else -1


@njit(cache=True, inline="always")
def _to_move(s, seat):
    """Rule 7: the game ends when the player to move holds no card."""
    s[H_CUR] = seat if s[HAND + seat] != 0 else TERMINAL


@njit(cache=True)
def apply_action(s, a):
    s[H_MOVES] += 1
    cur = s[H_CUR]
    if cur == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = param(s, P_FIRST)
        return vis
    k = s[H_PLAYERS] // 2
    if a == PASS:
        # rule 6: forced, so it proves the passer holds no card that was legal anywhere
        m0, m1, m2 = _row_masks(s)
        prove_absent_mask(s, cur, m0 | m1 | m2)
        other = 1 - team_of(s, cur)
        if s[TK_TABLE] == 0:
            if s[GS_EMPTY_PASS]:
                s[H_CUR] = TERMINAL
                return all_seats(s)
            s[GS_EMPTY_PASS] = 1
        else:
            take_table(s, other)
            _new_stream(s)
        _to_move(s, captain(s, other))
        return all_seats(s)
    s[GS_EMPTY_PASS] = 0
    if s[TK_TABLE] == 0:
        s[GS_STARTER] = team_of(s, cur)
    c = a % 54
    put_on_table(s, cur, c)
    s[GS_GRID + MAX_ROWS * s[GS_COL] + a // 54] = c
    s[GS_FILLED] += 1
    if s[GS_FILLED] == k:
        base = GS_GRID + MAX_ROWS * s[GS_COL]
        if s[GS_COL] == 0:
            s[GS_ORIENT] = 1 if s[base] > s[base + k - 1] else -1
        s[GS_COL] += 1
        _new_column(s)
        # the other team's column, from its captain (side by side: the next seat clockwise)
        _to_move(s, captain(s, 1 - team_of(s, cur)))
    else:
        _to_move(s, next_member(s, cur))
    return all_seats(s)


@njit(cache=True)
def scores(s, out):
    taken_scores(s, out, param(s, P_KOMI))


@njit(cache=True)
def returns(s, out):
    """By the scores (komi included); on equal scores the tiebreak (rule 7)."""
    returns_by_taken(s, out, param(s, P_TIEBREAK) == TB_VALUES, param(s, P_KOMI))


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_trick_observation(s, p, out, OBS_COMMON)
    base = GS_GRID + MAX_ROWS * s[GS_COL]
    for r in range(MAX_ROWS):
        c = s[base + r]
        if c >= 0:
            out[OBS_COLUMN + NUM_CARDS * r + c] = 1.0
    if s[GS_ORIENT] > 0:
        out[OBS_ORIENT] = 1.0
    elif s[GS_ORIENT] < 0:
        out[OBS_ORIENT + 1] = 1.0
    if s[GS_COL] == 0:
        out[OBS_FIRST] = 1.0
    out[OBS_EMPTY_PASS] = float(s[GS_EMPTY_PASS])


# ----- Python side: declaration, text and the table in a browser --------------------------

TEAM_NAMES = ("team 0", "team 1")


def row_names(k: int) -> tuple[str, ...]:
    return ("top", "middle", "bottom") if k == 3 else ("top", "bottom")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0:
        return cards.to_str(action)
    if action == PASS:
        return "PASS"
    return f"{cards.to_str(action % 54)} {row_names(text.players(s) // 2)[action // 54]}"


def _stream_lines(s) -> list[str]:
    """The stream as columns, left to right, with the team that fills each; rows top to
    bottom."""
    k = text.players(s) // 2
    col, starter = int(s[GS_COL]), int(s[GS_STARTER])
    if starter < 0:
        passed = "   (the last player passed on the empty table)" if s[GS_EMPTY_PASS] else ""
        return [f"  stream: (empty){passed}"]
    shown = range(col + (1 if s[GS_FILLED] else 0))
    way = {1: "top higher than bottom", -1: "top lower than bottom", 0: "not fixed yet"}[
        int(s[GS_ORIENT])
    ]
    lines = [
        f"  stream: started by {TEAM_NAMES[starter]}; orientation: {way}",
        "    column " + "".join(f"{i + 1:>5}" for i in shown),
        "    team   " + "".join(f"{'t' + str((starter + i) % 2):>5}" for i in shown),
    ]
    for r, name in enumerate(row_names(k)):
        cells = (int(s[GS_GRID + MAX_ROWS * i + r]) for i in shown)
        lines.append(
            f"    {name:7s}" + "".join(f"{cards.to_str(c) if c >= 0 else '..':>5}" for c in cells)
        )
    return lines


def _status_lines(s) -> list[str]:
    taken = text.taken_line(s, TEAM_NAMES, values=True) + text.komi_note(int(param(s, P_KOMI)))
    lines = [*_stream_lines(s), taken]
    if int(s[H_CUR]) == TERMINAL and int(s[TK_TABLE]):
        lines.append("  (the cards on the table are discarded: they count for nobody)")
    return lines


def _tie_note(s) -> str:
    """The tiebreak's part of the result note; with a komi, the scores it made."""
    values = param(s, P_TIEBREAK) == TB_VALUES
    k = int(param(s, P_KOMI))
    if not k:
        return text.taken_tie_note(s, TEAM_NAMES, values)
    a, b = int(s[TK_TAKEN]) + k, int(s[TK_TAKEN + 1])
    note = f"with the komi ({k:+d}) {TEAM_NAMES[0]} counts {a} against {b}"
    if a == b:
        v0, v1 = int(s[TK_VALUE]), int(s[TK_VALUE + 1])
        note += f"; the tiebreak, the cards' total value: {v0} against {v1}" if values else ""
    return note


def _result_note(s) -> str:
    """How the game was decided (``GameSpec.result_note``, rules 6–7): the tiebreak on
    equal cards taken (with a komi, the scores), and an end on a pass at an empty table."""
    notes = [_tie_note(s)]
    if s[GS_EMPTY_PASS]:
        notes.append("the game ended after a pass on an empty table")
    return "; ".join(n for n in notes if n)


def _title(s) -> str:
    return (
        f"Guess, {text.players(s)} players, {int(param(s, P_DECK))} cards"
        + (" + 2 jokers" if param(s, P_JOKERS) else "")
        + f", tiebreak {TIEBREAKS[int(param(s, P_TIEBREAK))]}"
        + text.lever_words(
            int(param(s, P_FIRST)), bool(param(s, P_SEATING)), int(param(s, P_KOMI)), "starts"
        )
    )


def _layout(s) -> Layout:
    """The stream as a grid, a column per card and a row per team member, and the cards each
    team took (``GameSpec.layout``)."""
    rows = text.players(s) // 2
    col, starter = int(s[GS_COL]), int(s[GS_STARTER])
    shown = col + (1 if int(s[GS_FILLED]) else 0) if starter >= 0 else 0
    cells = [
        {"row": r, "col": i, "card": int(s[GS_GRID + MAX_ROWS * i + r])}
        for i in range(shown)
        for r in range(rows)
        if int(s[GS_GRID + MAX_ROWS * i + r]) >= 0
    ]
    grid = {
        "kind": "grid",
        "title": "stream",
        "cells": cells,
        "row_labels": list(row_names(rows)),
        "col_labels": [str(i + 1) for i in range(max(shown, 1))],
    }
    if starter >= 0:
        grid["note"] = f"odd columns {TEAM_NAMES[starter]}, even columns {TEAM_NAMES[1 - starter]}"
    way = {1: "top higher than bottom", -1: "top lower than bottom", 0: "not fixed yet"}[
        int(s[GS_ORIENT])
    ]
    facts = [f"orientation: {way}"] if starter >= 0 else []
    return {"zones": [grid, *taken_zones(s, TEAM_NAMES)], "facts": facts}


def captains(p: dict) -> tuple[int, int]:
    """The captains' seats of the variant ``p``: 0 and k side by side, 0 and 1 alternately."""
    return (0, 1) if p["seating"] == "alternate" else (0, p["players"] // 2)


def _check(p: dict) -> None:
    if p["jokers"] and p["players"] != 4:
        raise ValueError(f"skip_guess: jokers=true needs players=4 (got players={p['players']})")
    if p["first_seat"] not in captains(p):
        raise ValueError(
            f"skip_guess: first_seat={p['first_seat']} is not a captain's seat (a column is "
            f"filled from its team's captain): {' or '.join(map(str, captains(p)))} here"
        )


KOMI = (-8, -6, -4, -2, 0, 2, 4, 6, 8)
"""The komi's choices, in cards taken: between heuristic players the second team takes about
5 cards more on average (median 6.5, 2,000 games of the default variant), so a fair komi
lies near +6."""


def _cards_in_play(p: dict) -> int:
    return p["deck"] + (2 if p["jokers"] else 0)


SPEC = GameSpec(
    short_name="skip_guess",
    long_name="Guess",
    original_name="Угадайка",
    rules_section="§9",
    kernel=sys.modules[__name__],
    params=(
        PLAYERS_4_6,
        DECK_36_52,
        Param("jokers", False, (False, True), "both jokers join the deck (4 players only)"),
        Param(
            "tiebreak",
            "values",
            TIEBREAKS,
            "on equal cards taken: compare their values, or call it a draw",
            auto=lambda p: "draw" if p["jokers"] else "values",
            auto_doc="draw with jokers, else values",
        ),
        first_seat("the captain who starts the first stream (a captain's seat only)"),
        SEATING,
        komi(KOMI, "cards taken"),
    ),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: 163,
    max_chance_outcomes=lambda p: 54,
    # the deal, then at most one play per card, one pass taking each stream (each holds a
    # card) and one pass on an empty table before each stream and at the end
    max_game_length=lambda p: 4 * _cards_in_play(p) + 1,
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_status_lines,
    result_note=_result_note,
    layout=_layout,
    team_names=TEAM_NAMES,
    mirror=Mirror(swap_colours=False),
    check=_check,
)
register(SPEC)
