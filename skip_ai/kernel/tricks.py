"""Trick streams: the mechanism Domino, Brook, Guess and Fours share.

Cards go onto the table one by one; when the team that did not put down the last card has
all passed since (or a game's own rule says so), a team takes every card on the table. The
captain of the team that took it leads next (the next member with cards if the captain has
none); the game ends when that team has no cards. Cards taken are counted (and valued, for
Guess's tiebreak) per team.

Slots (the first game-specific slots of every trick game; a game's own start at
``TRICK_END``):

- ``TK_TAKEN[t]``   cards team ``t`` has taken
- ``TK_VALUE[t]``   their total value (rank; joker 11)
- ``TK_LAST``       the seat that put down the last card on the table, -1 if none
- ``TK_PASSED``     mask of the seats that passed since that card
- ``TK_TABLE``      mask of the cards on the table
- ``TK_LAST_CARD``  the last card put down on the table, -1 if none

Cards on the table are at ``LOC_TABLE``, cards taken by team ``t`` at ``LOC_TAKEN + t``.

What a seat may know in these games (the helpers at the end, which the heuristic players and
Domino's action features read): its own hand, every card played (table, tricks taken), hand
sizes and the cards public passes proved a seat lacks (``NOT_HOLD``). Everything else — other
hands, the unseen ``remove4`` pile — is one pool of *hidden* cards, and those helpers reason
only about that pool, so a re-deal of hidden cards never changes their answers.
"""

import numpy as np
from numba import njit

from .bits import bit, lowest, popcount
from .state import (
    GAME,
    H_CUR,
    H_PLAYERS,
    HAND,
    LOC,
    LOC_OUT,
    LOC_TABLE,
    MAX_SEATS,
    NOT_HOLD,
    NUM_CARDS,
    TERMINAL,
    hidden_from,
    next_seat,
    play_public,
    team_of,
    team_seats,
)

LOC_TAKEN = LOC_TABLE + 1

TK_TAKEN = GAME
TK_VALUE = GAME + 2
TK_LAST = GAME + 4
TK_PASSED = GAME + 5
TK_TABLE = GAME + 6
TK_LAST_CARD = GAME + 7
TRICK_END = GAME + 8

OBS_TRICKS = 4 * NUM_CARDS + 2 * MAX_SEATS
"""Size of :func:`write_observation`'s part of an observation tensor."""


@njit(cache=True, inline="always")
def init_tricks(s):
    s[TK_LAST] = -1
    s[TK_LAST_CARD] = -1


@njit(cache=True, inline="always")
def card_value(c):
    """A card's points: its rank, 11 for a joker."""
    return 11 if c >= 52 else c % 13 + 2


@njit(cache=True, inline="always")
def put_on_table(s, seat, c):
    """``seat`` puts card ``c`` from hand face up on the table."""
    play_public(s, c, LOC_TABLE)
    s[TK_TABLE] |= bit(c)
    s[TK_LAST] = seat
    s[TK_LAST_CARD] = c
    s[TK_PASSED] = 0


@njit(cache=True, inline="always")
def note_pass(s, seat):
    s[TK_PASSED] |= 1 << seat


@njit(cache=True, inline="always")
def opponents_all_passed(s):
    """Has every member of the team that did not put down the last card passed since?"""
    other = team_seats(s, 1 - team_of(s, s[TK_LAST]))
    return (s[TK_PASSED] & other) == other


@njit(cache=True, inline="always")
def take_table(s, team):
    """``team`` takes every card on the table."""
    m = s[TK_TABLE]
    while m:
        c = lowest(m)
        m &= m - 1
        s[LOC + c] = LOC_TAKEN + team
        s[TK_TAKEN + team] += 1
        s[TK_VALUE + team] += card_value(c)
    clear_table(s)


@njit(cache=True, inline="always")
def clear_table(s):
    s[TK_TABLE] = 0
    s[TK_LAST] = -1
    s[TK_LAST_CARD] = -1
    s[TK_PASSED] = 0


@njit(cache=True, inline="always")
def split_table(s):
    """The table is shared out in half between the teams (Fours' final 2:2); the cards go
    out of play, each team counting half of them."""
    n = popcount(s[TK_TABLE])
    m = s[TK_TABLE]
    while m:
        c = lowest(m)
        m &= m - 1
        s[LOC + c] = LOC_OUT
    s[TK_TAKEN] += n // 2
    s[TK_TAKEN + 1] += n // 2
    clear_table(s)


@njit(cache=True, inline="always")
def team_leader(s, team):
    """The captain of ``team`` if he holds cards, else the next member with cards; -1 if
    nobody in the team holds a card."""
    m = team_seats(s, team)
    while m:
        seat = lowest(m)
        m &= m - 1
        if s[HAND + seat] != 0:
            return seat
    return -1


@njit(cache=True, inline="always")
def pass_turn(s, seat):
    """``seat`` passes. If every member of the team that did not put down the last card has
    now passed since, the team that did takes the table and its leader (``team_leader``) moves
    next, or the game ends when that team holds no card; returns True. Otherwise the next seat
    clockwise moves; returns False. (The trick rule of Domino and Brook.)"""
    note_pass(s, seat)
    if s[TK_TABLE] != 0 and opponents_all_passed(s):
        team = team_of(s, s[TK_LAST])
        take_table(s, team)
        leader = team_leader(s, team)
        s[H_CUR] = TERMINAL if leader < 0 else leader
        return True
    s[H_CUR] = next_seat(s, seat)
    return False


@njit(cache=True, inline="always")
def taken_scores(s, out, komi):
    """``scores()`` of the trick games: cards taken per team, the ``komi`` lever added to
    team 0's (the numbers the rules compare)."""
    out[0] = s[TK_TAKEN] + komi
    out[1] = s[TK_TAKEN + 1]


@njit(cache=True)
def returns_by_taken(s, out, tiebreak_values, komi):
    """+1/-1 per seat by cards taken, ``komi`` added to team 0's (then by their value if
    ``tiebreak_values``), 0 on a draw."""
    d = s[TK_TAKEN] + komi - s[TK_TAKEN + 1]
    if d == 0 and tiebreak_values:
        d = s[TK_VALUE] - s[TK_VALUE + 1]
    sign = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
    for seat in range(s[H_PLAYERS]):
        out[seat] = sign if team_of(s, seat) == 0 else -sign


@njit(cache=True)
def write_observation(s, p, out, base):
    """The trick part of an observation tensor, from ``base`` (``OBS_TRICKS`` floats):
    ``[0,54)`` cards on the table; ``[54,108)`` taken by p's team; ``[108,162)`` taken by the
    other team; ``[162,216)`` the last card put down (one-hot, as a card); ``[216,222)`` the
    relative seats that passed since it; ``[222,228)`` the relative seat that put it down."""
    n = s[H_PLAYERS]
    mine = team_of(s, p)
    for c in range(NUM_CARDS):
        loc = s[LOC + c]
        if loc == LOC_TABLE:
            out[base + c] = 1.0
        elif loc == LOC_TAKEN + mine:
            out[base + 54 + c] = 1.0
        elif loc == LOC_TAKEN + 1 - mine:
            out[base + 108 + c] = 1.0
    if s[TK_LAST_CARD] >= 0:
        out[base + 162 + s[TK_LAST_CARD]] = 1.0
    for k in range(n):
        if (s[TK_PASSED] >> ((p + k) % n)) & 1:
            out[base + 216 + k] = 1.0
    if s[TK_LAST] >= 0:
        out[base + 222 + (s[TK_LAST] - p) % n] = 1.0


# ----- What a seat may know --------------------------------------------------------------


@njit(cache=True, inline="always")
def hidden_cards(s, p):
    """Mask of the cards whose place seat ``p`` does not know."""
    m = np.int64(0)
    for c in range(NUM_CARDS):
        if hidden_from(s, c, p):
            m |= bit(c)
    return m


@njit(cache=True, inline="always")
def opponents_may_hold(s, p, hidden):
    """The hidden cards that some opponent of ``p`` still holding cards may hold (not proved
    to lack by a public pass)."""
    m = np.int64(0)
    mine = team_of(s, p)
    for q in range(s[H_PLAYERS]):
        if team_of(s, q) != mine and s[HAND + q] != 0:
            m |= hidden & ~s[NOT_HOLD + q]
    return m


@njit(cache=True, inline="always")
def holds_one_chance(s, q, cards, hidden):
    """Rough chance that seat ``q`` holds at least one of ``cards`` (hidden from the mover):
    each hidden card ``q`` may hold is in its hand independently with probability
    hand size / hidden cards."""
    pool = popcount(hidden)
    m = popcount(cards & hidden & ~s[NOT_HOLD + q])
    if pool == 0 or m == 0:
        return 0.0
    share = min(1.0, popcount(s[HAND + q]) / pool)
    return 1.0 - (1.0 - share) ** m


@njit(cache=True, inline="always")
def table_is_ours(s, p):
    """Did a member of ``p``'s team put down the last card on the table?"""
    last = s[TK_LAST]
    return last >= 0 and team_of(s, last) == team_of(s, p)
