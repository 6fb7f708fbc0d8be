"""classic_rummy — Rummy («Рамми», J. Leeming), RULES.md §13.

Each for themselves, 2 to 6 players, one deal. Seat 0 plays first; a hand of h cards each
(10 for 2 players, 7 for 3–4, 6 for 5–6), then an up-card starts the face-up discard pile and
the rest is the face-down stock. A turn: draw (from the stock, or the pile's top card), then any
melds (sets of 3–4 of a rank, sequences of 3+ of a suit, Ace low) and lay-offs onto any meld
on the table, each leaving at least one card in hand, then one discard. Discarding the last
card goes out ("Rummy!") and ends the game. A discard that fits a meld opens a claim window:
the other players are asked clockwise; a claimer lays it off, discards, and may open a window
himself (chains); turn order is unchanged. An empty stock at the start of a turn is refilled by
turning the pile over without shuffling (its order is public from then on). Scores: the winner
gets the others' hand counts (Ace 1, pips, pictures 10), doubled for a tablecloth (all cards
down in one turn); each loser pays his own count. After ``max_turns`` turns: a dead hand, all 0.

Actions (num_distinct_actions = 541):

- ``c`` (0..51) DISCARD card ``c``
- ``52 + 3c + t`` LAYOFF card ``c`` on target ``t`` (0 SET, 1 BELOW a sequence, 2 ABOVE it)
- ``208 + 5(rank-2) + k`` MELD_SET of ``rank``: the three cards other than suit ``k``
  (k = 0..3), or all four (k = 4)
- ``273 + 66 suit + j`` MELD_SEQ of ``suit`` from value lo to hi (Ace = 1, K = 13),
  j = (lo-1)(24-lo)/2 + (hi-lo-2)
- 537 DRAW_STOCK, 538 DRAW_DISCARD, 539 CLAIM_RUMMY, 540 DECLINE

Chance outcomes are card ids: the deal, the up-card, and every draw from the face-down stock
(uniform over its cards; seen by the drawer alone). Draws from a turned-over stock are
automatic and public.

State (after the common part of ``skip_ai.kernel.state``):

- ``RM_PHASE``        DEAL, UPCARD, DRAW, STOCK (chance draw), PLAY (after the draw), ASK (a
                      claim window), CLAIM_LAYOFF (the claimer picks a target), CLAIM_DISCARD,
                      OVER
- ``RM_TURN``         the seat whose turn it is; ``RM_TURNS`` turns started so far
- ``RM_DISCARDER``    whose discard opened the current claim window
- ``RM_CLAIMED``      the claimed card while its claimer picks a target
- ``RM_PILE_N``, ``RM_PILE[i]``   the discard pile, bottom first
- ``RM_STOCK_N``, ``RM_STOCK_POS``, ``RM_STOCK[i]``   a turned-over stock, in draw order
- ``RM_FIT[t]``       mask of the cards that have target ``t`` on the table (rule 6)
- ``RM_MELD_N``, ``RM_MELD[i]``   the melds on the table as card masks, in meld order
- ``RM_DOWN[q]``      the turn in which seat ``q`` first put a card on the table (0: never)
- ``RM_WINNER``, ``RM_CLOTH``, ``RM_DEAD``, ``RM_TURNOVERS``

Places: the pile is ``LOC_PILE``, melds ``LOC_MELD``, a turned-over stock ``LOC_STOCK`` (all
public); a card taken from the pile or a turned-over stock keeps ``KNOWN`` = every seat, so the
resampler never moves it. No rule proves a card absent, so the default resampler fits.

Observation tensor (772 floats) for player ``p`` (relative seat k = seat (p + k) % n):
``[0, 72)`` the common part (``kernel.state.write_common_observation``); ``[72, 124)`` per
pile card its position from the bottom (i+1)/52; ``[124, 176)`` 1 at the pile's top card;
``[176, 228)`` 1 per card in a meld; ``[228, 384)`` 1 per card with lay-off target t (SET,
BELOW, ABOVE; 52 each); ``[384, 436)`` per card of a turned-over stock its place in the draw
order (j+1)/52; ``[436, 748)`` 1 per card publicly known in relative seat k's hand (52 each);
``[748, 757)`` the phase one-hot; ``[757, 760)`` stock size / 52, pile size / 52, turns /
max_turns; ``[760, 766)`` 1 where relative seat k has put cards on the table; ``[766, 772)``
1 at the relative seat whose discard is offered in a claim window.
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards
from skip_ai.games import text
from skip_ai.games.spec import GameSpec, Param
from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import (
    CHANCE,
    DECK,
    GAME,
    H_CUR,
    H_MOVES,
    H_PLAYERS,
    HAND,
    KNOWN,
    LOC,
    LOC_TABLE,
    MAX_SEATS,
    OBS_COMMON,
    TERMINAL,
    all_seats,
    deal_card,
    dealing,
    give,
    init_common,
    new_state,
    next_seat,
    param,
    plan_round_robin,
    play_public,
    standard_deck,
    write_common_observation,
)

# every chance node draws uniformly from the undealt cards: deal, up-card, stock draws
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401  (kernel API)
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401  (kernel API)
from skip_ai.pyspiel_wrapper import register

P_PLAYERS, P_MAX_TURNS = 0, 1

LAYOFF0 = 52
MELD_SET0 = 208
MELD_SEQ0 = 273
DRAW_STOCK = 537
DRAW_DISCARD = 538
CLAIM = 539
DECLINE = 540
NUM_ACTIONS = 541
SET, BELOW, ABOVE = 0, 1, 2

DEAL, UPCARD, DRAW, STOCK, PLAY, ASK, CLAIM_LAYOFF, CLAIM_DISCARD, OVER = range(9)
NUM_PHASES = 9

LOC_PILE = LOC_TABLE
LOC_MELD = LOC_TABLE + 1
LOC_STOCK = LOC_TABLE + 2

MAX_MELDS = 17
"""A meld holds at least 3 of the 52 cards."""

RM_PHASE = GAME
RM_TURN = RM_PHASE + 1
RM_TURNS = RM_TURN + 1
RM_DISCARDER = RM_TURNS + 1
RM_CLAIMED = RM_DISCARDER + 1
RM_WINNER = RM_CLAIMED + 1
RM_CLOTH = RM_WINNER + 1
RM_DEAD = RM_CLOTH + 1
RM_TURNOVERS = RM_DEAD + 1
RM_PILE_N = RM_TURNOVERS + 1
RM_PILE = RM_PILE_N + 1
RM_STOCK_N = RM_PILE + 52
RM_STOCK_POS = RM_STOCK_N + 1
RM_STOCK = RM_STOCK_POS + 1
RM_FIT = RM_STOCK + 52
RM_MELD_N = RM_FIT + 3
RM_MELD = RM_MELD_N + 1
RM_DOWN = RM_MELD + MAX_MELDS
STATE_SIZE = RM_DOWN + MAX_SEATS

OBS_PILE = OBS_COMMON
OBS_TOP = OBS_PILE + 52
OBS_TABLE = OBS_TOP + 52
OBS_FIT = OBS_TABLE + 52
OBS_STOCK = OBS_FIT + 3 * 52
OBS_KNOWN = OBS_STOCK + 52
OBS_PHASE = OBS_KNOWN + MAX_SEATS * 52
OBS_SIZES = OBS_PHASE + NUM_PHASES
OBS_DOWN = OBS_SIZES + 3
OBS_DISCARDER = OBS_DOWN + MAX_SEATS
OBS_SIZE = OBS_DISCARDER + MAX_SEATS


# ----- cards ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def seq_value(c):
    """Sequence value, Ace low: A = 1, 2..10, J = 11, Q = 12, K = 13."""
    r = c % 13
    return 1 if r == 12 else r + 2


@njit(cache=True, inline="always")
def points(c):
    """A card's points: Ace 1, pips, pictures 10."""
    v = seq_value(c)
    return 10 if v > 10 else v


@njit(cache=True, inline="always")
def card_of(suit, v):
    """The card of ``suit`` with sequence value ``v`` (1..13)."""
    return 13 * suit + (12 if v == 1 else v - 2)


@njit(cache=True, inline="always")
def rank_mask(rank):
    """The four cards of ``rank`` (2..14)."""
    c = rank - 2
    return bit(c) | bit(c + 13) | bit(c + 26) | bit(c + 39)


@njit(cache=True, inline="always")
def suit_values(m, suit):
    """The cards of ``suit`` in mask ``m`` as a mask of sequence values (bit v)."""
    local = (m >> (13 * suit)) & 0x1FFF
    return ((local & 0xFFF) << 2) | (((local >> 12) & 1) << 1)


@njit(cache=True, inline="always")
def seq_index(lo, hi):
    """j of RULES §13 "Actions": the index of (lo, hi) in increasing order."""
    return (lo - 1) * (24 - lo) // 2 + (hi - lo - 2)


@njit(cache=True, inline="always")
def seq_mask(suit, lo, hi):
    m = np.int64(0)
    for v in range(lo, hi + 1):
        m |= bit(card_of(suit, v))
    return m


@njit(cache=True, inline="always")
def _highest(m):
    """The highest bit of a non-empty mask."""
    h = 0
    while m:
        h = lowest(m)
        m &= m - 1
    return h


@njit(cache=True, inline="always")
def hand_count(s, seat):
    """The points of the cards in ``seat``'s hand."""
    total = 0
    m = s[HAND + seat]
    while m:
        total += points(lowest(m))
        m &= m - 1
    return total


# ----- deal, turns, turn-over ---------------------------------------------------------------


@njit(cache=True)
def hand_size_for(players):
    """h of rule 1."""
    if players == 2:
        return 10
    return 7 if players <= 4 else 6


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    n = params[P_PLAYERS]
    init_common(s, n, standard_deck(52, False))
    plan_round_robin(s, n * hand_size_for(n), np.arange(n), np.zeros(0, np.int64))
    s[RM_PHASE] = DEAL
    s[RM_WINNER] = -1
    s[RM_DISCARDER] = -1
    s[RM_CLAIMED] = -1
    return s


@njit(cache=True, inline="always")
def stock_size(s):
    return popcount(s[DECK]) + s[RM_STOCK_N] - s[RM_STOCK_POS]


@njit(cache=True, inline="always")
def _turn_over(s):
    """Rule 9: the pile's bottom card stays as the new pile; the rest, in order, is the stock."""
    k = s[RM_PILE_N]
    for i in range(1, k):
        c = s[RM_PILE + i]
        s[RM_STOCK + i - 1] = c
        s[LOC + c] = LOC_STOCK
    s[RM_STOCK_N] = k - 1
    s[RM_STOCK_POS] = 0
    s[RM_PILE_N] = 1
    s[RM_TURNOVERS] += 1


@njit(cache=True, inline="always")
def _start_turn(s, seat):
    """The cap (rule 12), then a turn-over if the stock is empty (rule 9), then the draw."""
    if s[RM_TURNS] >= param(s, P_MAX_TURNS):
        s[RM_DEAD] = 1
        s[RM_PHASE] = OVER
        s[H_CUR] = TERMINAL
        return
    if stock_size(s) == 0 and s[RM_PILE_N] >= 2:
        _turn_over(s)
    s[RM_TURNS] += 1
    s[RM_TURN] = seat
    s[RM_PHASE] = DRAW
    s[H_CUR] = seat


@njit(cache=True, inline="always")
def _mark_down(s, seat):
    """Seat ``seat`` puts a card on the table (for the tablecloth, rule 10)."""
    if s[RM_DOWN + seat] == 0:
        s[RM_DOWN + seat] = s[RM_TURNS]


# ----- melds and lay-offs ------------------------------------------------------------------


@njit(cache=True, inline="always")
def targets(s, c):
    """Bitmask of the lay-off targets card ``c`` has on the table (bit t: SET, BELOW, ABOVE)."""
    return (
        ((s[RM_FIT + SET] >> c) & 1)
        | (((s[RM_FIT + BELOW] >> c) & 1) << 1)
        | (((s[RM_FIT + ABOVE] >> c) & 1) << 2)
    )


@njit(cache=True, inline="always")
def fits(s, c):
    return ((s[RM_FIT + SET] | s[RM_FIT + BELOW] | s[RM_FIT + ABOVE]) >> c) & 1


@njit(cache=True)
def meld_cards(a):
    """The card mask of meld action ``a``."""
    if a < MELD_SEQ0:
        rank, k = (a - MELD_SET0) // 5 + 2, (a - MELD_SET0) % 5
        m = rank_mask(rank)
        return m if k == 4 else m & ~bit(13 * k + rank - 2)
    suit, j = (a - MELD_SEQ0) // 66, (a - MELD_SEQ0) % 66
    lo = 1
    while j >= 12 - lo:  # lo has 12 - lo sequences (hi = lo+2 .. 13)
        j -= 12 - lo
        lo += 1
    return seq_mask(suit, lo, lo + 2 + j)


@njit(cache=True)
def _meld(s, seat, a):
    m = meld_cards(a)
    x = m
    while x:
        play_public(s, lowest(x), LOC_MELD)
        x &= x - 1
    s[RM_MELD + s[RM_MELD_N]] = m
    s[RM_MELD_N] += 1
    if a < MELD_SEQ0:
        if popcount(m) == 3:
            rank = (a - MELD_SET0) // 5 + 2
            s[RM_FIT + SET] |= rank_mask(rank) & ~m
    else:
        suit = (a - MELD_SEQ0) // 66
        vals = suit_values(m, suit)
        lo, hi = lowest(vals), _highest(vals)
        if lo >= 2:
            s[RM_FIT + BELOW] |= bit(card_of(suit, lo - 1))
        if hi <= 12:
            s[RM_FIT + ABOVE] |= bit(card_of(suit, hi + 1))
    _mark_down(s, seat)


@njit(cache=True)
def _layoff(s, seat, c, t):
    """Card ``c`` (in ``seat``'s hand) joins the meld of target ``t`` (rule 6)."""
    suit, v = c // 13, seq_value(c)
    if t == SET:
        anchor = lowest(rank_mask(c % 13 + 2) & ~bit(c))
    elif t == BELOW:
        anchor = card_of(suit, v + 1)
    else:
        anchor = card_of(suit, v - 1)
    for i in range(s[RM_MELD_N]):
        if (s[RM_MELD + i] >> anchor) & 1:
            s[RM_MELD + i] |= bit(c)
    s[RM_FIT + t] &= ~bit(c)
    if t == BELOW and v >= 2:
        s[RM_FIT + BELOW] |= bit(card_of(suit, v - 1))
    if t == ABOVE and v <= 12:
        s[RM_FIT + ABOVE] |= bit(card_of(suit, v + 1))
    play_public(s, c, LOC_MELD)
    _mark_down(s, seat)


# ----- legal actions ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _scan(s, out, k):
    """The legal actions of the player to move, ascending. With ``out``, writes them there;
    with ``k`` ≥ 0 returns the k-th of them instead of their number. One function for listing,
    counting and sampling keeps ``legal_actions`` and ``random_legal`` identical."""
    phase = s[RM_PHASE]
    i = 0
    if phase == DRAW:
        if stock_size(s) > 0:
            if i == k:
                return DRAW_STOCK
            if out is not None:
                out[i] = DRAW_STOCK
            i += 1
        if i == k:
            return DRAW_DISCARD
        if out is not None:
            out[i] = DRAW_DISCARD
        return i + 1
    if phase == ASK:
        if k >= 0:
            return CLAIM + k
        if out is not None:
            out[0], out[1] = CLAIM, DECLINE
        return 2
    held = s[HAND + s[H_CUR]]
    size = popcount(held)
    if phase == CLAIM_LAYOFF:  # only the claimed card, on any of its targets
        layable = bit(s[RM_CLAIMED])
    else:
        m = held
        while m:  # DISCARD
            c = lowest(m)
            m &= m - 1
            if i == k:
                return c
            if out is not None:
                out[i] = c
            i += 1
        if phase == CLAIM_DISCARD:
            return i
        layable = 0
        if size >= 2:
            layable = held & (s[RM_FIT + SET] | s[RM_FIT + BELOW] | s[RM_FIT + ABOVE])
    m = layable
    while m:  # LAYOFF
        c = lowest(m)
        m &= m - 1
        tg = targets(s, c)
        for t in range(3):
            if (tg >> t) & 1:
                a = LAYOFF0 + 3 * c + t
                if i == k:
                    return a
                if out is not None:
                    out[i] = a
                i += 1
    if phase == CLAIM_LAYOFF:
        return i
    for rank in range(2, 15):  # MELD_SET, fewer cards than the hand
        of_rank = held & rank_mask(rank)
        cnt = popcount(of_rank)
        if cnt < 3 or size <= 3:
            continue
        for kk in range(5):
            if kk < 4:  # the three other than suit kk, all held
                ok = (of_rank | bit(13 * kk + rank - 2)) == rank_mask(rank)
            else:
                ok = cnt == 4 and size > 4
            if ok:
                a = MELD_SET0 + 5 * (rank - 2) + kk
                if i == k:
                    return a
                if out is not None:
                    out[i] = a
                i += 1
    for suit in range(4):  # MELD_SEQ, fewer cards than the hand
        vals = suit_values(held, suit)
        for lo in range(1, 12):
            hi = lo
            while (vals >> hi) & 1 and hi - lo + 1 < size:
                if hi - lo >= 2:
                    a = MELD_SEQ0 + 66 * suit + seq_index(lo, hi)
                    if i == k:
                        return a
                    if out is not None:
                        out[i] = a
                    i += 1
                hi += 1
    return i


@njit(cache=True)
def legal_actions(s, out):
    return _scan(s, out, -1)


@njit(cache=True)
def random_legal(s, rng):
    return _scan(s, None, below(rng, _scan(s, None, -1)))


# ----- applying actions ------------------------------------------------------------------


@njit(cache=True, inline="always")
def _to_hand(s, c, seat):
    """A public card (pile or turned-over stock) joins ``seat``'s hand, known to everyone."""
    give(s, c, seat)
    s[KNOWN + c] = all_seats(s)


@njit(cache=True)
def _end(s, winner, cloth):
    s[RM_WINNER] = winner
    s[RM_CLOTH] = cloth
    s[RM_PHASE] = OVER
    s[H_CUR] = TERMINAL


@njit(cache=True)
def _discard(s, seat, c):
    """Rule 7 / 8: ``c`` goes on the pile; the last card goes out, a fitting card opens a claim
    window, anything else ends the turn."""
    own_turn = s[RM_PHASE] == PLAY
    play_public(s, c, LOC_PILE)
    s[RM_PILE + s[RM_PILE_N]] = c
    s[RM_PILE_N] += 1
    if s[HAND + seat] == 0:
        down = s[RM_DOWN + seat]
        cloth = own_turn and (down == 0 or down == s[RM_TURNS])
        _end(s, seat, 1 if cloth else 0)
    elif fits(s, c):
        s[RM_DISCARDER] = seat
        s[RM_PHASE] = ASK
        s[H_CUR] = next_seat(s, seat)
    else:
        _start_turn(s, next_seat(s, s[RM_TURN]))


@njit(cache=True)
def _claim(s, seat):
    """Rule 8: the pile's top card is laid off by ``seat`` (he picks among two or three
    targets), who then discards."""
    s[RM_PILE_N] -= 1
    c = s[RM_PILE + s[RM_PILE_N]]
    _to_hand(s, c, seat)
    _mark_down(s, seat)
    tg = targets(s, c)
    if tg & (tg - 1):
        s[RM_CLAIMED] = c
        s[RM_PHASE] = CLAIM_LAYOFF
    else:
        _layoff(s, seat, c, lowest(tg))
        s[RM_PHASE] = CLAIM_DISCARD
    s[H_CUR] = seat


@njit(cache=True)
def apply_action(s, a):
    s[H_MOVES] += 1
    cur = s[H_CUR]
    phase = s[RM_PHASE]
    if cur == CHANCE:
        if phase == DEAL:
            vis = deal_card(s, a)
            if not dealing(s):
                s[RM_PHASE] = UPCARD
            return vis
        s[DECK] &= ~bit(a)
        if phase == UPCARD:
            play_public(s, a, LOC_PILE)
            s[RM_PILE] = a
            s[RM_PILE_N] = 1
            _start_turn(s, 0)
            return all_seats(s)
        seat = s[RM_TURN]  # a draw from the face-down stock, seen by the drawer alone
        give(s, a, seat)
        s[RM_PHASE] = PLAY
        s[H_CUR] = seat
        return np.int64(1) << seat
    if phase == DRAW:
        if a == DRAW_DISCARD:
            s[RM_PILE_N] -= 1
            _to_hand(s, s[RM_PILE + s[RM_PILE_N]], cur)
            s[RM_PHASE] = PLAY
        elif s[DECK] != 0:
            s[RM_PHASE] = STOCK
            s[H_CUR] = CHANCE
        else:  # a turned-over stock: its order is public
            _to_hand(s, s[RM_STOCK + s[RM_STOCK_POS]], cur)
            s[RM_STOCK_POS] += 1
            s[RM_PHASE] = PLAY
    elif phase == ASK:
        if a == CLAIM:
            _claim(s, cur)
        else:
            nxt = next_seat(s, cur)
            if nxt == s[RM_DISCARDER]:
                _start_turn(s, next_seat(s, s[RM_TURN]))
            else:
                s[H_CUR] = nxt
    elif a < LAYOFF0:
        _discard(s, cur, a)
    elif a < MELD_SET0:
        _layoff(s, cur, (a - LAYOFF0) // 3, (a - LAYOFF0) % 3)
        if phase == CLAIM_LAYOFF:
            s[RM_CLAIMED] = -1
            s[RM_PHASE] = CLAIM_DISCARD
    else:
        _meld(s, cur, a)
    return all_seats(s)


# ----- outcome ------------------------------------------------------------------------------


@njit(cache=True)
def returns(s, out):
    n = s[H_PLAYERS]
    for q in range(n):
        out[q] = 0.0
    w = s[RM_WINNER]
    if w < 0:
        return
    mult = 2 if s[RM_CLOTH] else 1
    total = 0
    for q in range(n):
        if q != w:
            cnt = mult * hand_count(s, q)
            out[q] = -cnt
            total += cnt
    out[w] = total


@njit(cache=True)
def scores(s, out):
    returns(s, out)
    for q in range(s[H_PLAYERS]):
        if out[q] < 0:
            out[q] = 0.0


# ----- what a player knows ----------------------------------------------------------------


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    n = s[H_PLAYERS]
    for i in range(s[RM_PILE_N]):
        out[OBS_PILE + s[RM_PILE + i]] = (i + 1) / 52.0
    if s[RM_PILE_N] > 0:
        out[OBS_TOP + s[RM_PILE + s[RM_PILE_N] - 1]] = 1.0
    for j in range(s[RM_STOCK_POS], s[RM_STOCK_N]):
        out[OBS_STOCK + s[RM_STOCK + j]] = (j - s[RM_STOCK_POS] + 1) / 52.0
    everyone = all_seats(s)
    for c in range(52):
        loc = s[LOC + c]
        if loc == LOC_MELD:
            out[OBS_TABLE + c] = 1.0
        elif 0 <= loc < MAX_SEATS and s[KNOWN + c] == everyone:
            out[OBS_KNOWN + 52 * ((loc - p) % n) + c] = 1.0
        for t in range(3):
            if (s[RM_FIT + t] >> c) & 1:
                out[OBS_FIT + 52 * t + c] = 1.0
    out[OBS_PHASE + s[RM_PHASE]] = 1.0
    out[OBS_SIZES] = stock_size(s) / 52.0
    out[OBS_SIZES + 1] = s[RM_PILE_N] / 52.0
    out[OBS_SIZES + 2] = s[RM_TURNS] / param(s, P_MAX_TURNS)
    for q in range(n):
        if s[RM_DOWN + q]:
            out[OBS_DOWN + (q - p) % n] = 1.0
    if s[RM_PHASE] == ASK:
        out[OBS_DISCARDER + (s[RM_DISCARDER] - p) % n] = 1.0


# ----- Python side: declaration and text --------------------------------------------------

TARGET_NAMES = ("set", "below", "above")


def _seq_order(c: int) -> tuple[int, int]:
    return (c // 13, int(seq_value(c)))


def _mask_str(m: int) -> str:
    """A meld's cards, a sequence from its lowest value up."""
    return "".join(
        cards.to_str(c) for c in sorted((c for c in range(52) if (int(m) >> c) & 1), key=_seq_order)
    )


def action_to_string(s, player: int, action: int) -> str:
    if player < 0 or action < LAYOFF0:
        return cards.to_str(action)
    if action < MELD_SET0:
        c, t = divmod(action - LAYOFF0, 3)
        return f"lay {cards.to_str(c)} {TARGET_NAMES[t]}"
    if action < DRAW_STOCK:
        return f"meld {_mask_str(meld_cards(action))}"
    return ("DRAW_STOCK", "DRAW_DISCARD", "RUMMY", "DECLINE")[action - DRAW_STOCK]


def _cards(seq) -> str:
    return cards.cards_to_str(int(c) for c in seq) or "-"


def _table_lines(s) -> list[str]:
    n = text.players(s)
    pile = [int(s[RM_PILE + i]) for i in range(int(s[RM_PILE_N]))]
    lines = [f"  pile (bottom first): {_cards(pile)}"]
    stock = [int(s[RM_STOCK + j]) for j in range(int(s[RM_STOCK_POS]), int(s[RM_STOCK_N]))]
    if s[RM_TURNOVERS]:
        lines.append(f"  stock (turned over {int(s[RM_TURNOVERS])}×, next first): {_cards(stock)}")
    else:
        lines.append(f"  stock: {int(popcount(s[DECK]))} cards face down")
    melds = [_mask_str(s[RM_MELD + i]) for i in range(int(s[RM_MELD_N]))]
    lines.append(f"  melds: {' '.join(melds) or '-'}")
    everyone = (1 << n) - 1
    known = []
    for q in range(n):
        held = [c for c in range(52) if s[LOC + c] == q and s[KNOWN + c] == everyone]
        if held:
            known.append(f"seat {q}: {cards.cards_to_str(held)}")
    lines.append(f"  known in hands: {'; '.join(known) or '-'}")
    lines.append(
        f"  turn {int(s[RM_TURNS])} of at most {int(param(s, P_MAX_TURNS))}"
        + (f", seat {int(s[RM_TURN])}'s" if s[RM_TURNS] else "")
    )
    phase = int(s[RM_PHASE])
    if phase == ASK:
        lines.append(
            f"  claim window: seat {int(s[RM_DISCARDER])}'s discard "
            f"{cards.to_str(pile[-1])} fits a meld"
        )
    elif phase == CLAIM_LAYOFF:
        lines.append(f"  seat {int(s[H_CUR])} claimed {cards.to_str(int(s[RM_CLAIMED]))}")
    if phase == OVER:
        if s[RM_DEAD]:
            lines.append("  dead hand: the turn cap was reached, nobody scores")
        else:
            out = np.zeros(n)
            returns(s, out)
            cloth = " with a tablecloth (double)" if s[RM_CLOTH] else ""
            lines.append(
                f"  seat {int(s[RM_WINNER])} went out{cloth}: " + " ".join(f"{v:+.0f}" for v in out)
            )
    return lines


def _chance_text(s) -> str:
    phase = int(s[RM_PHASE])
    if phase == UPCARD:
        return "turning the up-card"
    if phase == STOCK:
        return f"seat {int(s[RM_TURN])} draws from the stock"
    return "dealing"


def _title(s) -> str:
    return f"Rummy, {text.players(s)} players"


def _max_length(p: dict) -> int:
    t, n = p["max_turns"], p["players"]
    return 52 + 2 * t + 3 * 52 + (n - 1) * (t + 52)


CAPS = (1, 2, 3, 5, 10, 20, 50, 100, 200, 300, 500, 1000)

SPEC = GameSpec(
    short_name="classic_rummy",
    long_name="Rummy",
    original_name="Рамми",
    rules_section="§13",
    kernel=sys.modules[__name__],
    params=(
        Param("players", 2, (2, 3, 4, 5, 6), "2 to 6, each for themselves"),
        Param(
            "max_turns", 200, CAPS, "a dead hand after this many turns", variant_values=(50, 200)
        ),
    ),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: NUM_ACTIONS,
    max_chance_outcomes=lambda p: 52,
    max_game_length=_max_length,
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_table_lines,
    chance_text=_chance_text,
    team_game=False,
    # the widest returns over all variants: a tablecloth against ten pictures (2 players:
    # -200), or against the 30 highest cards held by five losers (6 players: 2 × 268)
    min_utility=-200.0,
    max_utility=536.0,
)
register(SPEC)
