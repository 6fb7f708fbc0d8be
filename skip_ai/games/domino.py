"""skip_domino — Domino («Домино», СКИП-6), RULES.md §6.

Cards are laid out on a grid, domino-like: a card's column is its rank, each suit gets its own
row when its first card reaches the table. On an empty table any card leads; after that a card
must go next to the last card placed: the same suit one rank lower or higher (same row), or the
same rank of another suit directly above or below it — into that suit's row if it has one
adjacent to the last card's row, or opening the suit's row there if that row is free. Who
cannot place a card passes (with ``voluntary_pass``, anyone may pass except the leader of an
empty table). When the team that did not place the last card has all passed since, the other
team takes the table; its captain (or the next member with cards) leads. The game ends when
the team that just took a trick holds no card; more cards taken wins.

Actions (num_distinct_actions = 163):

- ``c`` (0..53): place card ``c`` — any card on an empty table, else next to the last card
  (same suit ±1 rank, or same rank into an existing adjacent row);
- ``54 + c``: card ``c`` opens its suit's new row directly above the last card;
- ``108 + c``: card ``c`` opens its suit's new row directly below the last card;
- ``162``: PASS.

Text: ``Qc``, ``Qc-above``, ``Qc-below``, ``PASS``.

Knowledge: hand sizes are public, so a pass by a player holding cards without
``voluntary_pass`` is seen to be forced; it proves the passer holds none of the cards that
could have been placed (``prove_absent_mask``), and the default resampler respects that. With
``voluntary_pass`` a pass proves nothing. ``remove4``'s cards lie face down, seen by nobody.

State (after the trick slots of ``kernel.tricks``; these slots, the action ids and
``placements`` live in ``domino_grid``, which the action features read too): rows are numbered
upwards, the first card's suit at ``CENTER``; since every new row opens next to an existing one,
the rows in use stay within ``CENTER ± 3``.

- ``DM_ROW[suit]``   the row of that suit, ``NO_ROW`` (-1) while it has none
- ``DM_OWNER[row]``  the suit owning row 0..8, ``NO_ROW`` if none
- ``DM_NEXT[k]``     masks (over the whole deck) of the cards that may go next to the last card:
  k = 0 with action ``c``, 1 opening a row above, 2 below. Passes change neither the last
  card nor the grid, so they are computed once per card placed, not at every decision.

Observation tensor (328 floats) for player ``p``: ``[0, 72)`` the common part
(``kernel.state.write_common_observation``); ``[72, 300)`` the trick part
(``kernel.tricks.write_observation``: table cards, cards taken by each team, the last card,
who passed since it, who placed it); ``[300, 328)`` the grid: ``300 + 7 * suit + d + 3`` is 1
when ``suit`` has a row ``d`` rows above the last card's row (``d`` in -3..3; ``d = 0`` is the
last card's own suit). With the table cards this is the whole grid, relative to the last card.
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards
from skip_ai.games import domino_action_features, text
from skip_ai.games.domino_grid import (
    ABOVE,
    BELOW,
    CENTER,
    DM_NEXT,
    DM_OWNER,
    DM_ROW,
    GRID_END,
    NO_ROW,
    NUM_ROWS,
    PASS,
    REACH,
    clear_grid,
    placements,
)
from skip_ai.games.spec import DECK_36_FOR_1V1, PLAYERS_2_4_6, REMOVE4, GameSpec, Mirror, Param
from skip_ai.kernel.bits import list_segments, sample_segments
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.state import (
    CHANCE,
    EXTRAS_3V3,
    H_CUR,
    H_MOVES,
    HAND,
    OBS_COMMON,
    all_seats,
    deal_card,
    dealing,
    new_state,
    next_seat,
    param,
    prove_absent_mask,
    setup_deal,
    standard_deck,
    write_common_observation,
)

# the deal is the game's only chance event
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401  (kernel API)
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401  (kernel API)
from skip_ai.kernel.tricks import (
    OBS_TRICKS,
    TK_LAST_CARD,
    TK_TABLE,
    init_tricks,
    pass_turn,
    put_on_table,
    returns_by_taken,
)
from skip_ai.kernel.tricks import taken_scores as scores  # noqa: F401  (kernel API)
from skip_ai.kernel.tricks import write_observation as write_trick_observation
from skip_ai.pyspiel_wrapper import register

P_PLAYERS, P_DECK, P_REMOVE4, P_VOLUNTARY = 0, 1, 2, 3
REMOVED = 4

STATE_SIZE = GRID_END
OBS_GRID = OBS_COMMON + OBS_TRICKS
OBS_SIZE = OBS_GRID + 4 * (2 * REACH + 1)


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    unseen = REMOVED if params[P_REMOVE4] else 0
    setup_deal(s, params[P_PLAYERS], standard_deck(params[P_DECK], False), unseen, EXTRAS_3V3)
    init_tricks(s)
    clear_grid(s)
    return s


@njit(cache=True, inline="always")
def _legal(s):
    """(cards to place with ``c``, to open a row above, below; PASS or -1) for the player
    to move (rules 3 and 4)."""
    # every slot is read before the first branch: Numba can then prune its reference counting
    # of ``s`` (an atomic incref/decref pair per call otherwise)
    held = s[HAND + s[H_CUR]]
    on_table = s[TK_TABLE]
    beside = s[DM_NEXT] & held
    above = s[DM_NEXT + 1] & held
    below = s[DM_NEXT + 2] & held
    voluntary = param(s, P_VOLUNTARY)
    none = np.int64(0)
    if held == 0:
        return none, none, none, PASS
    if on_table == 0:
        return held, none, none, -1
    stuck = (beside | above | below) == 0
    return beside, above, below, PASS if stuck or voluntary != 0 else -1


@njit(cache=True)
def legal_actions(s, out):
    beside, above, below, extra = _legal(s)
    return list_segments((beside, above, below), extra, out)


@njit(cache=True)
def random_legal(s, rng):
    beside, above, below, extra = _legal(s)
    return sample_segments((beside, above, below), extra, rng)


# One exit, which uses ``s`` last, and no exception paths (no division by a run-time value):
# Numba's reference-count pruning then removes the atomic incref/decref of ``s`` per call,
# a fifth of a random playout's time.
@njit(cache=True)
def apply_action(s, a):
    cur = s[H_CUR]
    vis = all_seats(s)
    if cur == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = 0
    elif a == PASS:
        if s[HAND + cur] != 0 and not param(s, P_VOLUNTARY):
            # a forced pass: the passer holds none of the cards that could have been placed
            prove_absent_mask(s, cur, s[DM_NEXT] | s[DM_NEXT + 1] | s[DM_NEXT + 2])
        if pass_turn(s, cur):
            clear_grid(s)
    else:
        c = a % 54
        if s[TK_TABLE] == 0 or a >= ABOVE:
            row = CENTER
            if a >= BELOW:
                row = s[DM_ROW + s[TK_LAST_CARD] // 13] - 1
            elif a >= ABOVE:
                row = s[DM_ROW + s[TK_LAST_CARD] // 13] + 1
            s[DM_ROW + c // 13] = row
            s[DM_OWNER + row] = c // 13
        put_on_table(s, cur, c)
        s[DM_NEXT], s[DM_NEXT + 1], s[DM_NEXT + 2] = placements(s)
        s[H_CUR] = next_seat(s, cur)
    s[H_MOVES] += 1
    return vis


@njit(cache=True)
def returns(s, out):
    returns_by_taken(s, out, False)


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_trick_observation(s, p, out, OBS_COMMON)
    last = s[TK_LAST_CARD]
    if last < 0:
        return
    row = s[DM_ROW + last // 13]
    for suit in range(4):
        if s[DM_ROW + suit] != NO_ROW:
            out[OBS_GRID + (2 * REACH + 1) * suit + s[DM_ROW + suit] - row + REACH] = 1.0


# ----- Python side: declaration and text --------------------------------------------------

TEAM_NAMES = ("team 0", "team 1")
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0:
        return cards.to_str(action)
    if action == PASS:
        return "PASS"
    where = ("", "-above", "-below")[action // 54]
    return cards.to_str(action % 54) + where


def grid_lines(s) -> list[str]:
    """The table as a grid: one line per suit row, top row first, a column per rank of the
    deck; the last card in brackets."""
    table, last = int(s[TK_TABLE]), int(s[TK_LAST_CARD])
    ranks = range(cards.LOWEST_RANK[int(param(s, P_DECK))], 15)
    lines = [(" " * 14 + "".join(f" {cards.RANK_CHARS[r - 2]}  " for r in ranks)).rstrip()]
    for row in range(NUM_ROWS - 1, -1, -1):
        suit = int(s[DM_OWNER + row])
        if suit == NO_ROW:
            continue
        cells = []
        for r in ranks:
            c = 13 * suit + r - 2
            cells.append(
                f"[{cards.to_str(c)}]"
                if c == last
                else f" {cards.to_str(c)} "
                if (table >> c) & 1
                else " .. "
            )
        lines.append((f"    {SUIT_NAMES[suit]:10s}" + "".join(cells)).rstrip())
    return lines


def _table_lines(s) -> list[str]:
    lines = [text.table_line(s, "table", text.mask_text(s[TK_TABLE]) if s[TK_TABLE] else "")]
    if s[TK_TABLE]:
        lines += grid_lines(s)
    return lines + [text.taken_line(s, TEAM_NAMES)]


def _cards_in_play(p: dict) -> int:
    return p["deck"] - (REMOVED if p["remove4"] else 0)


def _title(s) -> str:
    return (
        f"Domino, {text.players(s)} players, {int(param(s, P_DECK))} cards"
        + (", 4 removed unseen" if param(s, P_REMOVE4) else "")
        + (", passing by choice" if param(s, P_VOLUNTARY) else "")
    )


SPEC = GameSpec(
    short_name="skip_domino",
    long_name="Domino",
    original_name="Домино",
    rules_section="§6",
    kernel=sys.modules[__name__],
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
    ),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: PASS + 1,
    max_chance_outcomes=lambda p: 54,
    # every card placed is followed by at most n - 1 passes before a card or a trick
    max_game_length=lambda p: _cards_in_play(p) * p["players"],
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_table_lines,
    team_names=TEAM_NAMES,
    mirror=Mirror(swap_colours=False),
    action_features=domino_action_features,
)
register(SPEC)
