"""skip_two_captains — Two Captains («Два Капитана», СКИП-3), RULES.md §3, and
skip_little_country — Little Country («Маленькая Страна», СКИП-4), RULES.md §4.

One kernel serves both: Little Country is Two Captains plus four rules (the King never beats a
Queen; marriage; the child; the protected just-laid Queen), jokers and pelicans, switched on by
the ``P_LITTLE`` parameter slot. Each team (Red = team 0, Black = team 1) has a field of piles
(``kernel.fields``). A move is compulsory when one exists:

- LAY ``c`` (0..53): a card of the team's colour starts a new pile on its field;
- ADD ``54 + 54*c + b``: a card of the team's colour goes on own pile ``b`` (bottom card) of its
  suit, at most 3 cards a pile; a pile's value is the sum of its cards;
- BEAT ``2970 + 54*c + b``: a card of the suit of opponent pile ``b`` with a greater value; pile
  and card leave the game;
- PASS ``5886`` only when nothing else is possible;
- CHILD ``5887 + c`` (Little Country): a 2..10 of a married suit laid between the spouses;
- LAY_PELICAN ``5941 + (p - 54)`` (Little Country with pelicans, RULES §4.6): pelican ``p``
  (54..56; value 15, no suit, no colour) starts a pile on the own field that nobody beats and
  that takes no card;
- PELICAN_CHILD ``5944 + c``: once per team, when its field holds two pelican piles, a 2..10 of
  the team's colour laid between them as a pile nobody beats.

The game ends after n consecutive passes or when nobody holds a card; more piles wins, then
the higher total value of the piles, else a draw.

Knowledge: a pass while holding cards proves the passer holds no card of his colour (LAY is
always possible with one), no pelican, and no card that could beat an opponent pile; those
cards go to his proved-absent set for the resampler.

State: the field slots of ``kernel.fields``; ``CP_MARRIAGE[suit]`` (0 none, 1 married, 2 the
child is laid); ``CP_PELICAN[team]`` (0 fewer than two pelican piles, 1 the pelican child may be
laid, 2 it is laid). Pile flags: ``MARRIED``, ``CHILD``, ``PROTECTED`` (with the protecting seat + 1
in the bits from ``GUARD_SHIFT``). Kept from the piles for the move sampler (every pile change
calls ``_refresh``; no hidden card is ever on a field, so the resampler leaves them right):
``CP_BEAT[b]`` the cards that may beat pile ``b``, ``CP_ADDABLE`` the piles that take an ADD,
``CP_GUARDED`` the Queens laid as new piles whose layer has not had his next turn yet
(protected unless married at once), ``CP_CHILDREN`` the cards that may be laid as a child.

Observation tensor: ``[0, 72)`` common part (``kernel.state``); ``[72, 342)`` field part
(``kernel.fields.write_observation``, own field first); then, at a pile's bottom card,
``[342, 396)`` its value / 42, ``[396, 450)`` married, ``[450, 504)`` child (of a marriage or
of pelicans), ``[504, 558)`` protected Queen; ``[558]`` consecutive passes / players. With
pelicans, 13 more: ``[559, 562)`` pelican 1..3 in the own hand, ``[562, 565)`` on the own field,
``[565, 568)`` on the other field; ``[568]`` / ``[569]`` the own team's pelican child may be
laid / is laid, ``[570]`` / ``[571]`` the same for the other team.
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards
from skip_ai.games import text
from skip_ai.games.spec import DECK_36_52, PLAYERS_4_6, GameSpec, Param
from skip_ai.kernel.bits import bit, kth, lowest, popcount, to_list
from skip_ai.kernel.fields import (
    F_BELOW,
    F_BY_SUIT,
    F_FLAGS,
    F_PASSES,
    F_PILES,
    F_SIZE,
    F_SUIT,
    F_SUM,
    F_TOP,
    FIELDS_END,
    LOC_FIELD,
    NO_SUIT,
    OBS_FIELDS,
    add_to_pile,
    colour_of,
    discard,
    end_turn,
    field_count,
    field_sum,
    forced_pass,
    init_fields,
    lay_pile,
    piles_for,
    remove_pile,
    value,
)
from skip_ai.kernel.fields import write_observation as write_field_observation
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import (
    CHANCE,
    EXTRAS_3V3,
    H_CUR,
    H_MOVES,
    H_PLAYERS,
    HAND,
    LOC,
    MAX_CARDS,
    NUM_CARDS,
    OBS_COMMON,
    PELICAN0,
    all_seats,
    deal_card,
    dealing,
    new_state,
    next_seat,
    param,
    setup_deal,
    standard_deck,
    team_of,
    unplaced_cards,
    write_common_observation,
)

# the deal is the game's only chance event
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401  (kernel API)
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401  (kernel API)
from skip_ai.pyspiel_wrapper import register

P_PLAYERS, P_DECK, P_JOKERS, P_LITTLE, P_PELICANS = 0, 1, 2, 3, 4
ADD0, BEAT0, PASS, CHILD0 = 54, 2970, 5886, 5887
LAY_PELICAN0, PELICAN_CHILD0 = 5941, 5944
NUM_ACTIONS, NUM_ACTIONS_PELICANS = 5941, 5996
MAX_PILE = 3
LIST, COUNT = -1, -2
QUEEN, KING = 12, 13

MARRIED, CHILD, PROTECTED, PELICAN_CHILD = 1, 2, 4, 8
"""Pile flags; a pelican's child is also a ``CHILD`` (nobody beats it, it takes no card)."""
GUARD_SHIFT = 4

CP_MARRIAGE = FIELDS_END
CP_BEAT = CP_MARRIAGE + 4
CP_ADDABLE = CP_BEAT + MAX_CARDS
CP_GUARDED = CP_ADDABLE + 1
CP_CHILDREN = CP_GUARDED + 1
CP_PELICAN = CP_CHILDREN + 1
STATE_SIZE = CP_PELICAN + 2
OBS_SIZE = OBS_COMMON + OBS_FIELDS + 4 * NUM_CARDS + 1
OBS_PELICANS = 13
"""The pelicans' part of the observation, after ``OBS_SIZE`` (only with pelicans)."""

RED_MASK = ((np.int64(1) << 26) - 1) << 26 | (np.int64(1) << 53)
BLACK_MASK = ((np.int64(1) << 26) - 1) | (np.int64(1) << 52)
SUIT_CARDS = (np.int64(1) << 13) - 1
JOKERS = np.int64(3) << 52
_QKA = np.int64(0b111) << 10
HIGH = _QKA | _QKA << 13 | _QKA << 26 | _QKA << 39
"""The Queens, Kings and Aces: what beats a joker-only pile."""
_LOW = (np.int64(1) << 9) - 1
RANKS_2_10 = _LOW | _LOW << 13 | _LOW << 26 | _LOW << 39
PELICANS = np.int64(0b111) << PELICAN0


@njit(cache=True)
def extra_seats(players):
    """Who gets the extra cards with jokers or pelicans in the deck: 0, k, 1, k+1, 2, k+2 (§4)."""
    k = players // 2
    out = np.empty(players, np.int64)
    for i in range(k):
        out[2 * i] = i
        out[2 * i + 1] = k + i
    return out


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    players, jokers, pelicans = params[P_PLAYERS], params[P_JOKERS], params[P_PELICANS]
    plain = standard_deck(params[P_DECK], jokers != 0)
    deck = np.empty(len(plain) + pelicans, np.int64)
    deck[: len(plain)] = plain
    for i in range(pelicans):
        deck[len(plain) + i] = PELICAN0 + i
    extras = EXTRAS_3V3 if not (jokers or pelicans) else extra_seats(players)
    setup_deal(s, players, deck, 0, extras)
    init_fields(s)
    return s


@njit(cache=True, inline="always")
def _colour_mask(team):
    return RED_MASK if team == 0 else BLACK_MASK


@njit(cache=True, inline="always")
def _rank(c):
    return c % 13 + 2


@njit(cache=True, inline="always")
def _frozen(s, b):
    """A married King or Queen, a child or a pelican: never beaten, takes no ADD."""
    return b >= PELICAN0 or (s[F_FLAGS + b] & (MARRIED | CHILD)) != 0


@njit(cache=True, inline="always")
def can_add(s, c, b):
    """May card ``c`` (of the pile's colour) go on own pile ``b``?"""
    if s[F_SIZE + b] >= MAX_PILE or _frozen(s, b):
        return False
    suit = s[F_SUIT + b]
    # a joker goes on any pile of its colour; a joker-only pile takes any card of its colour
    return c >= 52 or suit < 0 or suit == c // 13


@njit(cache=True, inline="always")
def can_beat(s, c, b):
    """May card ``c`` (of the pile's colour) beat opponent pile ``b``?"""
    if param(s, P_LITTLE) and (_frozen(s, b) or (s[F_FLAGS + b] & PROTECTED) != 0):
        return False
    pile_value = s[F_SUM + b]
    if c >= 52:
        return pile_value < 11  # a joker beats a pile of its colour worth less than 11
    suit = s[F_SUIT + b]
    if suit < 0:
        return value(c) > 11  # a joker-only pile falls to Q, K or A of its colour
    if suit != c // 13 or value(c) <= pile_value:
        return False
    top = s[F_TOP + b]
    king_on_queen = _rank(c) == KING and s[F_SIZE + b] == 1 and top < 52 and _rank(top) == QUEEN
    return not (param(s, P_LITTLE) and king_on_queen)


@njit(cache=True, inline="always")
def _child_suits(s):
    """Mask of the cards of every suit whose marriage still awaits its child."""
    m = np.int64(0)
    if param(s, P_LITTLE):
        for suit in range(4):
            if s[CP_MARRIAGE + suit] == 1:
                m |= SUIT_CARDS << (13 * suit)
    return m


@njit(cache=True, inline="always")
def can_bear_child(s, c, team):
    """May card ``c`` be laid as the child of its suit's marriage on ``team``'s field?"""
    if not param(s, P_LITTLE) or c >= 52 or colour_of(c) != team:
        return False
    return s[CP_MARRIAGE + c // 13] == 1 and 2 <= _rank(c) <= 10


@njit(cache=True, inline="always")
def _moves(s, out, k):
    """The legal actions of the player to move, ascending.

    ``k == LIST``: write them into ``out`` and return their number; ``k == COUNT``: only
    count them; ``k >= 0``: return the k-th of them. One function for listing, counting and
    sampling keeps the legal list and the random sampler identical."""
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    own = held & _colour_mask(team)
    theirs = held & ~own & ~PELICANS
    write = k == LIST
    n = popcount(own)  # LAY: every card of the own colour
    if k >= 0 and k < n:
        return kth(own, k)
    if write:
        to_list(own, out)
    m = own
    while m:  # ADD
        c = lowest(m)
        m &= m - 1
        piles = piles_for(s, c, team)
        while piles:
            b = lowest(piles)
            piles &= piles - 1
            if can_add(s, c, b):
                if n == k:
                    return ADD0 + 54 * c + b
                if write:
                    out[n] = ADD0 + 54 * c + b
                n += 1
    m = theirs
    while m:  # BEAT
        c = lowest(m)
        m &= m - 1
        piles = piles_for(s, c, 1 - team)
        while piles:
            b = lowest(piles)
            piles &= piles - 1
            if can_beat(s, c, b):
                if n == k:
                    return BEAT0 + 54 * c + b
                if write:
                    out[n] = BEAT0 + 54 * c + b
                n += 1
    m = own & _child_suits(s)
    while m:  # CHILD
        c = lowest(m)
        m &= m - 1
        if can_bear_child(s, c, team):
            if n == k:
                return CHILD0 + c
            if write:
                out[n] = CHILD0 + c
            n += 1
    m = held & PELICANS  # LAY_PELICAN
    while m:
        a = LAY_PELICAN0 + lowest(m) - PELICAN0
        m &= m - 1
        if n == k:
            return a
        if write:
            out[n] = a
        n += 1
    m = _pelican_children(s, own, team)
    while m:  # PELICAN_CHILD
        a = PELICAN_CHILD0 + lowest(m)
        m &= m - 1
        if n == k:
            return a
        if write:
            out[n] = a
        n += 1
    if n == 0:
        if k == 0:
            return PASS
        if write:
            out[0] = PASS
        n = 1
    return n


@njit(cache=True, inline="always")
def _pelican_children(s, own, team):
    """The cards of ``own`` that may be laid as ``team``'s pelican child now."""
    return own & RANKS_2_10 if s[CP_PELICAN + team] == 1 else np.int64(0)


@njit(cache=True)
def legal_actions(s, out):
    return _moves(s, out, LIST)


@njit(cache=True)
def random_legal(s, rng):
    """Exactly ``legal_actions(s)[below(rng, n)]``, counted and picked from the masks kept in
    the state (``CP_BEAT`` ...): LAY and ADD by suit blocks (every card of a suit joins the
    same piles), BEAT pile by pile, then card by card when one is picked. ``legal_actions``
    lists the same moves the long way (``_moves``), which the tests compare."""
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    own = held & _colour_mask(team)
    theirs = held & ~own & ~PELICANS
    addable = s[CP_ADDABLE] & s[F_PILES + team]
    jokerless = popcount(addable & s[F_BY_SUIT + NO_SUIT])
    n_lay = popcount(own)
    n_add = popcount(own & JOKERS) * popcount(addable)
    first = 2 - 2 * team  # the suits of the team's colour: 2, 3 (red) or 0, 1 (black)
    for suit in range(first, first + 2):
        n_add += popcount(own & (SUIT_CARDS << (13 * suit))) * (
            popcount(addable & s[F_BY_SUIT + suit]) + jokerless
        )
    n_beat = 0
    beaters = np.int64(0)  # the cards in hand that beat some opponent pile
    opponents = s[F_PILES + 1 - team]
    m = opponents
    while m:
        x = theirs & s[CP_BEAT + lowest(m)]
        m &= m - 1
        n_beat += popcount(x)
        beaters |= x
    children = own & s[CP_CHILDREN]
    pelicans = held & PELICANS
    pelican_children = _pelican_children(s, own, team)
    n_children = popcount(children)
    n_pelicans = popcount(pelicans)
    total = n_lay + n_add + n_beat + n_children + n_pelicans + popcount(pelican_children)
    k = below(rng, total if total > 0 else 1)
    if total == 0:
        return PASS
    if k < n_lay:
        return kth(own, k)
    k -= n_lay
    if k < n_add:
        for suit in range(first, 5):
            if suit < 4:
                cards_ = own & (SUIT_CARDS << (13 * suit))
                piles = addable & (s[F_BY_SUIT + suit] | s[F_BY_SUIT + NO_SUIT])
            else:
                cards_ = own & JOKERS
                piles = addable
            per_card = popcount(piles)
            block = popcount(cards_) * per_card
            if k < block:
                while k >= per_card:  # the card, then the pile: no division
                    k -= per_card
                    cards_ &= cards_ - 1
                return ADD0 + 54 * lowest(cards_) + kth(piles, k)
            k -= block
    k -= n_add
    if k < n_beat:
        m = beaters
        while m:
            c = lowest(m)
            m &= m - 1
            piles = np.int64(0)  # the opponent piles ``c`` beats
            q = opponents
            while q:
                b = lowest(q)
                q &= q - 1
                piles |= ((s[CP_BEAT + b] >> c) & 1) << b
            cnt = popcount(piles)
            if k < cnt:
                return BEAT0 + 54 * c + kth(piles, k)
            k -= cnt
    k -= n_beat
    if k < n_children:
        return CHILD0 + kth(children, k)
    k -= n_children
    if k < n_pelicans:
        return LAY_PELICAN0 + kth(pelicans, k) - PELICAN0
    return PELICAN_CHILD0 + kth(pelican_children, k - n_pelicans)


@njit(cache=True, inline="always")
def _beaten_by(s, b, team):
    """The cards that may beat pile ``b`` on ``team``'s field now (``can_beat``), all of the
    field's colour."""
    little = param(s, P_LITTLE)
    if little and (_frozen(s, b) or (s[F_FLAGS + b] & PROTECTED) != 0):
        return np.int64(0)
    total = s[F_SUM + b]
    suit = s[F_SUIT + b]
    if suit < 0:
        m = HIGH  # a joker-only pile falls to Q, K or A
    else:
        m = (SUIT_CARDS & ~((np.int64(1) << (total - 1)) - 1)) << (13 * suit)
        top = s[F_TOP + b]
        if little and s[F_SIZE + b] == 1 and top < 52 and _rank(top) == QUEEN:
            m &= ~bit(13 * suit + KING - 2)  # the King never beats a Queen
    if total < 11:
        m |= JOKERS
    return m & _colour_mask(team)


@njit(cache=True, inline="always")
def _set_beat(s, b, new):
    """Pile ``b`` is now beaten by the cards of ``new``."""
    s[CP_BEAT + b] = new


@njit(cache=True, inline="always")
def _refresh(s, b, team):
    """Pile ``b`` on ``team``'s field changed: recompute its derived masks."""
    _set_beat(s, b, _beaten_by(s, b, team))
    if s[F_SIZE + b] < MAX_PILE and not _frozen(s, b):
        s[CP_ADDABLE] |= bit(b)
    else:
        s[CP_ADDABLE] &= ~bit(b)


@njit(cache=True, inline="always")
def playable_mask(s, team):
    """The cards still in play that would give ``team``'s player a move now: his colour (LAY),
    the pelicans (LAY_PELICAN) and the cards that could beat an opponent pile. A forced pass
    proves he holds none."""
    mask = _colour_mask(team) | PELICANS
    piles = s[F_PILES + 1 - team]
    while piles:
        mask |= s[CP_BEAT + lowest(piles)]
        piles &= piles - 1
    return mask & unplaced_cards(s)


@njit(cache=True, inline="always")
def _single_on_field(s, c, team):
    """Is card ``c`` a single-card pile on ``team``'s field?"""
    return (s[F_PILES + team] >> c) & 1 and s[F_SIZE + c] == 1


@njit(cache=True, inline="always")
def _lay(s, cur, team, c):
    lay_pile(s, c, team)
    if param(s, P_LITTLE) and c < 52:
        rank = _rank(c)
        married = False
        if rank == QUEEN or rank == KING:
            spouse = c + 1 if rank == QUEEN else c - 1
            if _single_on_field(s, spouse, team):
                s[F_FLAGS + c] |= MARRIED
                s[F_FLAGS + spouse] |= MARRIED
                s[CP_MARRIAGE + c // 13] = 1
                s[CP_CHILDREN] |= (SUIT_CARDS << (13 * (c // 13))) & RANKS_2_10
                married = True
                _refresh(s, spouse, team)
        if rank == QUEEN:
            # a married Queen needs no protection, but the end of it still restarts the
            # count of passes at her layer's next turn (RULES §4.4)
            s[F_FLAGS + c] |= (0 if married else PROTECTED) | ((cur + 1) << GUARD_SHIFT)
            s[CP_GUARDED] |= bit(c)
    _refresh(s, c, team)


@njit(cache=True, inline="always")
def _lay_pelican(s, team, c):
    """Pelican ``c`` starts a pile on ``team``'s field; the second one opens the team's
    pelican child (once per game)."""
    lay_pile(s, c, team)
    _refresh(s, c, team)
    if s[CP_PELICAN + team] == 0 and popcount(s[F_PILES + team] & PELICANS) >= 2:
        s[CP_PELICAN + team] = 1


@njit(cache=True, inline="always")
def _release_guards(s, seat):
    """``seat``'s turn begins: the Queens he laid lose their protection (a married one had
    none to lose); if he laid any, the count of consecutive passes starts again (RULES §4.4)."""
    released = False
    piles = s[CP_GUARDED]
    while piles:
        b = lowest(piles)
        piles &= piles - 1
        flags = s[F_FLAGS + b]
        if (flags >> GUARD_SHIFT) == seat + 1:
            s[F_FLAGS + b] = flags & ~PROTECTED & ((1 << GUARD_SHIFT) - 1)
            s[CP_GUARDED] &= ~bit(b)
            _refresh(s, b, 0 if (s[F_PILES] >> b) & 1 else 1)
            released = True
    if released:
        s[F_PASSES] = 0


@njit(cache=True, _nrt=False)
def apply_action(s, a):
    # no reference counting of ``s`` (``_nrt=False``: the caller owns it and nothing here
    # allocates), which otherwise costs about as much as the move itself
    s[H_MOVES] += 1
    cur = s[H_CUR]
    vis = all_seats(s)
    if cur == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = 0
    else:
        _move(s, cur, a)
    return vis


@njit(cache=True, inline="always")
def _move(s, cur, a):
    team = team_of(s, cur)
    if a == PASS:
        forced_pass(s, cur, playable_mask(s, team))
    else:
        s[F_PASSES] = 0
        if a < ADD0:
            _lay(s, cur, team, a)
        elif a < BEAT0:
            b = (a - ADD0) % 54
            add_to_pile(s, (a - ADD0) // 54, b, team)
            _refresh(s, b, team)
        elif a < PASS:
            b = (a - BEAT0) % 54
            remove_pile(s, b, 1 - team)
            discard(s, (a - BEAT0) // 54)
            _set_beat(s, b, np.int64(0))
            s[CP_ADDABLE] &= ~bit(b)
        elif a < LAY_PELICAN0:
            c = a - CHILD0
            lay_pile(s, c, team)
            s[F_FLAGS + c] |= CHILD
            s[CP_MARRIAGE + c // 13] = 2
            s[CP_CHILDREN] &= ~(SUIT_CARDS << (13 * (c // 13)))
            _refresh(s, c, team)
        elif a < PELICAN_CHILD0:
            _lay_pelican(s, team, PELICAN0 + a - LAY_PELICAN0)
        else:
            c = a - PELICAN_CHILD0
            lay_pile(s, c, team)
            s[F_FLAGS + c] |= CHILD | PELICAN_CHILD
            s[CP_PELICAN + team] = 2
            _refresh(s, c, team)
    nxt = next_seat(s, cur)
    if s[CP_GUARDED]:
        _release_guards(s, nxt)
    end_turn(s, nxt)


@njit(cache=True)
def scores(s, out):
    out[0] = field_count(s, 0)
    out[1] = field_count(s, 1)


@njit(cache=True)
def returns(s, out):
    d = field_count(s, 0) - field_count(s, 1)
    if d == 0:
        d = field_sum(s, 0) - field_sum(s, 1)
    sign = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
    for seat in range(s[H_PLAYERS]):
        out[seat] = sign if team_of(s, seat) == 0 else -sign


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_field_observation(s, p, out, OBS_COMMON, MAX_PILE)
    base = OBS_COMMON + OBS_FIELDS
    for team in range(2):
        piles = s[F_PILES + team] & ~PELICANS
        while piles:
            b = lowest(piles)
            piles &= piles - 1
            flags = s[F_FLAGS + b]
            out[base + b] = s[F_SUM + b] / 42.0
            out[base + 54 + b] = 1.0 if flags & MARRIED else 0.0
            out[base + 108 + b] = 1.0 if flags & CHILD else 0.0
            out[base + 162 + b] = 1.0 if flags & PROTECTED else 0.0
    out[base + 4 * NUM_CARDS] = s[F_PASSES] / s[H_PLAYERS]
    if param(s, P_PELICANS):
        _pelican_observation(s, p, out, OBS_SIZE)


@njit(cache=True)
def _pelican_observation(s, p, out, base):
    mine = team_of(s, p)
    for i in range(3):
        loc = s[LOC + PELICAN0 + i]
        out[base + i] = 1.0 if loc == p else 0.0
        out[base + 3 + i] = 1.0 if loc == LOC_FIELD + mine else 0.0
        out[base + 6 + i] = 1.0 if loc == LOC_FIELD + 1 - mine else 0.0
    for k in range(2):
        state = s[CP_PELICAN + (mine if k == 0 else 1 - mine)]
        out[base + 9 + 2 * k] = 1.0 if state == 1 else 0.0
        out[base + 10 + 2 * k] = 1.0 if state == 2 else 0.0


# ----- Python side: declaration and text --------------------------------------------------

TEAM_NAMES = ("Red", "Black")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0 or action < ADD0:
        return cards.to_str(action)
    if action < BEAT0:
        c, b = divmod(action - ADD0, 54)
        return f"{cards.to_str(c)} on {cards.to_str(b)}"
    if action < PASS:
        c, b = divmod(action - BEAT0, 54)
        return f"{cards.to_str(c)} beats {cards.to_str(b)}"
    if action == PASS:
        return "PASS"
    if action < LAY_PELICAN0:
        return f"child {cards.to_str(action - CHILD0)}"
    if action < PELICAN_CHILD0:
        return cards.to_str(PELICAN0 + action - LAY_PELICAN0)
    return f"pelican child {cards.to_str(action - PELICAN_CHILD0)}"


def _pile_text(s, b: int) -> str:
    chain, c = [], int(s[F_TOP + b])
    while c >= 0:  # top to bottom
        chain.append(cards.to_str(c))
        c = int(s[F_BELOW + c])
    body = "+".join(reversed(chain))
    flags = int(s[F_FLAGS + b])
    child = "pelican child" if flags & PELICAN_CHILD else "child"
    marks = [name for flag, name in ((MARRIED, "married"), (CHILD, child)) if flags & flag]
    if flags & PROTECTED:
        marks.append(f"protected until seat {(flags >> GUARD_SHIFT) - 1} plays")
    size = int(s[F_SIZE + b])
    return (
        body
        + (f"={int(s[F_SUM + b])}" if size > 1 else "")
        + (f"({', '.join(marks)})" if marks else "")
    )


def _field_lines(s) -> list[str]:
    lines = []
    for team in range(2):
        piles = [b for b in range(MAX_CARDS) if (int(s[F_PILES + team]) >> b) & 1]
        lines.append(
            f"  {TEAM_NAMES[team]} field ({len(piles)} piles, value "
            f"{int(field_sum(s, team))}): " + ("  ".join(_pile_text(s, b) for b in piles) or "-")
        )
    lines.append(f"  consecutive passes: {int(s[F_PASSES])}")
    return lines


def _title(s) -> str:
    name = "Little Country" if param(s, P_LITTLE) else "Two Captains"
    deck = int(param(s, P_DECK)) + (2 if param(s, P_JOKERS) else 0)
    pelicans = int(param(s, P_PELICANS))
    return f"{name}, {text.players(s)} players, {deck} cards" + (
        f" and {pelicans} pelicans" if pelicans else ""
    )


def _max_length(p: dict) -> int:
    # every move but a pass plays a card; n passes in a row end the game, except that the end
    # of a Queen's protection (4 Queens) restarts the count
    cards_in_play = p["deck"] + (2 if p.get("jokers") else 0) + p.get("pelicans", 0)
    return (cards_in_play + 5) * p["players"]


_COMMON = dict(
    kernel=sys.modules[__name__],
    num_players=lambda p: p["players"],
    max_chance_outcomes=lambda p: NUM_CARDS + p.get("pelicans", 0),
    max_game_length=_max_length,
    observation_size=lambda p: OBS_SIZE + (OBS_PELICANS if p.get("pelicans") else 0),
    action_to_string=action_to_string,
    title=_title,
    table_lines=_field_lines,
    team_names=TEAM_NAMES,
)


TWO_CAPTAINS = GameSpec(
    short_name="skip_two_captains",
    long_name="Two Captains",
    original_name="Два Капитана",
    rules_section="§3",
    params=(PLAYERS_4_6, DECK_36_52),
    num_distinct_actions=lambda p: 5887,
    kernel_params=lambda p: [p["players"], p["deck"], 0, 0, 0],
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
    ),
    num_distinct_actions=lambda p: NUM_ACTIONS_PELICANS if p["pelicans"] else NUM_ACTIONS,
    kernel_params=lambda p: [p["players"], p["deck"], int(p["jokers"]), 1, p["pelicans"]],
    **_COMMON,
)
register(TWO_CAPTAINS)
register(LITTLE_COUNTRY)
