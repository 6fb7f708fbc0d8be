"""Fields of piles: the mechanism Two Captains, Little Country and Harvest share.

Each team has a field; a field holds piles (stacks) of face-up cards. A pile is named by its
bottom card ``b``; cards join it on top. Per pile the kernel keeps its top card, size, total
value and suit; per card the card under it, so a pile can be walked from the top down.

Slots (the first game-specific slots of every field game; a game's own start at
``FIELDS_END``):

- ``F_TOP[b]``     top card of pile ``b`` (-1: no pile has bottom ``b``)
- ``F_BELOW[c]``   the card under ``c`` in its pile (-1: ``c`` is a bottom card)
- ``F_SIZE[b]``    cards in pile ``b``
- ``F_SUM[b]``     total value of pile ``b`` (rank; joker 11; pelican 15)
- ``F_SUIT[b]``    suit of pile ``b``: that of its first non-joker card, -1 while it has none
- ``F_FLAGS[b]``   game-specific flags of pile ``b``
- ``F_PILES[t]``   mask of the bottom cards of the piles on team ``t``'s field
- ``F_BY_SUIT[s]``  mask of the bottom cards of the piles of suit ``s`` (``NO_SUIT``: joker only;
  a pelican pile, which has no suit and takes no card, is in none)
- ``F_PASSES``     consecutive passes (the games end when every player in turn passed)

Cards on team ``t``'s field are at ``LOC_FIELD + t``; removed piles go to ``LOC_OUT``.

How exposed an own pile is (``unseen``, ``opponent_share``, ``exposure``: the field games'
heuristics and the captains games' action features read it): the cards that can attack a pile of
the own field are cards of the own colour held by the opponents; a player knows only how many
cards each other hand holds, so a card he cannot see is with an opponent with chance
"opponents' cards / all other hands' cards".
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
    MAX_CARDS,
    MAX_SEATS,
    NUM_CARDS,
    PELICAN0,
    TERMINAL,
    play_public,
    prove_absent_mask,
    team_of,
    unplaced_cards,
)

LOC_FIELD = LOC_TABLE + 4

F_TOP = GAME
F_BELOW = F_TOP + MAX_CARDS
F_SIZE = F_BELOW + MAX_CARDS
F_SUM = F_SIZE + MAX_CARDS
F_SUIT = F_SUM + MAX_CARDS
F_FLAGS = F_SUIT + MAX_CARDS
F_PILES = F_FLAGS + MAX_CARDS
F_BY_SUIT = F_PILES + 2
F_PASSES = F_BY_SUIT + 5
FIELDS_END = F_PASSES + 1
NO_SUIT = 4

OBS_FIELDS = 5 * NUM_CARDS
"""Size of :func:`write_observation`'s part of an observation tensor."""


@njit(cache=True)
def init_fields(s):
    for b in range(MAX_CARDS):
        s[F_TOP + b] = -1
        s[F_BELOW + b] = -1
        s[F_SUIT + b] = -1


@njit(cache=True, inline="always")
def value(c):
    """A card's value: its rank, 11 for a joker, 15 for a pelican."""
    if c >= 52:
        return 15 if c >= PELICAN0 else 11
    return c % 13 + 2


@njit(cache=True, inline="always")
def suit_of(c):
    """The suit of a card, -1 for a joker or a pelican."""
    return -1 if c >= 52 else c // 13


@njit(cache=True, inline="always")
def colour_of(c):
    """0 red (diamonds, hearts, red joker), 1 black: the team whose colour it is; -1 for a
    pelican, which has none."""
    if c >= 52:
        return -1 if c >= PELICAN0 else (1 if c == 52 else 0)
    return 0 if c >= 26 else 1


@njit(cache=True, inline="always")
def _suit_slot(suit):
    return NO_SUIT if suit < 0 else suit


@njit(cache=True, inline="always")
def piles_for(s, c, team):
    """The piles on ``team``'s field that card ``c`` could join or beat by suit: those of its
    suit and the joker-only ones; for a joker, every pile there."""
    if c >= 52:
        return s[F_PILES + team]
    return (s[F_BY_SUIT + c // 13] | s[F_BY_SUIT + NO_SUIT]) & s[F_PILES + team]


@njit(cache=True, inline="always")
def lay_pile(s, c, team):
    """Card ``c`` from hand starts a new pile on ``team``'s field."""
    play_public(s, c, LOC_FIELD + team)
    s[F_TOP + c] = c
    s[F_BELOW + c] = -1
    s[F_SIZE + c] = 1
    s[F_SUM + c] = value(c)
    s[F_SUIT + c] = suit_of(c)
    s[F_FLAGS + c] = 0
    s[F_PILES + team] |= bit(c)
    if c < PELICAN0:
        s[F_BY_SUIT + _suit_slot(s[F_SUIT + c])] |= bit(c)


@njit(cache=True, inline="always")
def add_to_pile(s, c, b, team):
    """Card ``c`` from hand goes on top of pile ``b`` (on ``team``'s field)."""
    play_public(s, c, LOC_FIELD + team)
    s[F_BELOW + c] = s[F_TOP + b]
    s[F_TOP + b] = c
    s[F_SIZE + b] += 1
    s[F_SUM + b] += value(c)
    if s[F_SUIT + b] < 0 and c < 52:  # a joker-only pile takes its first card's suit
        s[F_BY_SUIT + NO_SUIT] &= ~bit(b)
        s[F_SUIT + b] = suit_of(c)
        s[F_BY_SUIT + s[F_SUIT + b]] |= bit(b)


@njit(cache=True, inline="always")
def remove_pile(s, b, team):
    """Pile ``b`` leaves the game (out of play, face up)."""
    c = s[F_TOP + b]
    while c >= 0:
        s[LOC + c] = LOC_OUT
        nxt = s[F_BELOW + c]
        s[F_BELOW + c] = -1
        c = nxt
    if b < PELICAN0:
        s[F_BY_SUIT + _suit_slot(s[F_SUIT + b])] &= ~bit(b)
    s[F_TOP + b] = -1
    s[F_SIZE + b] = 0
    s[F_SUM + b] = 0
    s[F_SUIT + b] = -1
    s[F_FLAGS + b] = 0
    s[F_PILES + team] &= ~bit(b)


@njit(cache=True, inline="always")
def discard(s, c):
    """Card ``c`` from hand leaves the game face up (e.g. the card that beat a pile)."""
    play_public(s, c, LOC_OUT)


@njit(cache=True, inline="always")
def forced_pass(s, seat, playable):
    """``seat`` passes, which the rules allow only without a move: if he holds cards, he
    holds none of ``playable`` (the cards that would have given him one)."""
    if s[HAND + seat] != 0:
        prove_absent_mask(s, seat, playable & unplaced_cards(s))
    s[F_PASSES] += 1


@njit(cache=True, inline="always")
def end_turn(s, nxt):
    """Hand the turn to ``nxt``, or end the game when nobody holds a card or every player in
    turn has passed (Two Captains §3.3, Harvest §10.4)."""
    # every seat's hand at once (the seats beyond the table's are always empty): no loop
    held = s[HAND] | s[HAND + 1] | s[HAND + 2] | s[HAND + 3] | s[HAND + 4] | s[HAND + MAX_SEATS - 1]
    s[H_CUR] = nxt if held != 0 and s[F_PASSES] < s[H_PLAYERS] else TERMINAL


@njit(cache=True, inline="always")
def field_count(s, team):
    return popcount(s[F_PILES + team])


@njit(cache=True)
def field_sum(s, team):
    """Total value of the piles on ``team``'s field."""
    total = 0
    m = s[F_PILES + team]
    while m:
        total += s[F_SUM + lowest(m)]
        m &= m - 1
    return total


@njit(cache=True)
def write_observation(s, p, out, base, max_size):
    """The field part of an observation tensor, from ``base`` (``OBS_FIELDS`` floats), with
    fields named relative to ``p``'s team (own first): ``[0,54)`` / ``[54,108)`` card lies on
    the own / other field; ``[108,162)`` / ``[162,216)`` card is the top of a pile on the own /
    other field; ``[216,270)`` at a pile's bottom card, its size / ``max_size``. Pelicans
    (Little Country) are not in this part: the game writes its own."""
    mine = team_of(s, p)
    for c in range(NUM_CARDS):
        loc = s[LOC + c]
        if loc == LOC_FIELD + mine:
            out[base + c] = 1.0
        elif loc == LOC_FIELD + 1 - mine:
            out[base + 54 + c] = 1.0
    standard = (np.int64(1) << NUM_CARDS) - 1
    for team in range(2):
        m = s[F_PILES + team] & standard
        while m:
            b = lowest(m)
            m &= m - 1
            out[base + (108 if team == mine else 162) + s[F_TOP + b]] = 1.0
            out[base + 216 + b] = s[F_SIZE + b] / max_size


@njit(cache=True, inline="always")
def unseen(s, p):
    """The cards still in play that seat ``p`` cannot see: those in the other hands."""
    return unplaced_cards(s) & ~s[HAND + p]


@njit(cache=True)
def opponent_share(s, p):
    """The chance that a card seat ``p`` cannot see is in an opponent's hand."""
    team = team_of(s, p)
    theirs = 0
    others = 0
    for q in range(s[H_PLAYERS]):
        if q != p:
            n = popcount(s[HAND + q])
            others += n
            theirs += n if team_of(s, q) != team else 0
    return theirs / others if others else 0.0


@njit(cache=True, inline="always")
def exposure(attackers, share):
    """The chance that at least one of ``attackers`` unseen cards is with an opponent."""
    return 1.0 - (1.0 - share) ** attackers
