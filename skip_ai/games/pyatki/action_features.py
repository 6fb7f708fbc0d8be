"""Pyatki's action features (skip_pyatki and skip_pyatki_pairs): what a legal move does, as
seen by the seat to move.

A learned policy scores a move by its action id and by these ``SIZE`` numbers φ(s, a)
(DouZero-style). The moves are those of ``kernel.attack``: while an attack is built, adding a
card to it (a *pick*) or launching it (``ATTACK``); while defending, covering the current
attacking card with a card (a *cover*) or accepting it (``TAKE``). The features depend only on
what the mover knows: its own hand, the attack, the trump suit, the stock's and the hands'
sizes, the cards known to be in the defender's hand (accepted and picked cards are shown to
all) and which cards are hidden from the mover. Values lie in 0..1.

With any weights ``w`` of the heuristic player (``agents.heuristics.pyatki``, ``WEIGHT_NAMES``),
the linear score of a defence's moves

    2·w[shed_stock]·shed_stock + 2·w[shed_end]·shed_end - rank - w[trump]·trump
    + taken_rank + w[trump]·taken_trump + w[initiative]·initiative

is the heuristic's value of covering (shed - worth of the cover, plus the initiative) and of
taking (the accepted card's worth - shed), both shifted by shed: it plays a move the score
rates best. Building an attack, the heuristic's choice (a maximum over candidate attacks, not
a linear score) is ``plan``, computed with its default weights (``PLAN_WEIGHTS``). The other
features (``size``, ``pair``, ``cover_odds``, ``uncovered``, ``out``, ``exposes``) are what
it does not weigh.

The features, in order (index: name — meaning, scale):

0: take — the move is TAKE (1, else 0).
1: launch — the move is ATTACK (1, else 0).
2: shed_stock — the move puts one of my cards forward (a pick or a cover) while the stock
   lasts (1, else 0).
3: shed_end — the same once the stock is empty (always so in the pairs game).
4: rank — that card's rank, (rank - lowest) / (Ace - lowest) (0 for TAKE and ATTACK).
5: trump — that card is a trump (1, else 0).
6: taken_rank — TAKE: the accepted card's rank, as ``rank``.
7: taken_trump — TAKE: the accepted card is a trump.
8: initiative — a cover of the last attacking card with none accepted: the defender (in pairs,
   his team) attacks next, unless he goes out.
9: plan — building: the move is the heuristic's next step (``worth.next_step`` with
   ``PLAN_WEIGHTS``: the next card of its attack, or ATTACK once that is picked).
10: size — a pick: the most cards an attack through it can have (the picks, the card and
    higher cards of my hand, within the defender's hand size); ATTACK: the cards launched;
    / 5.
11: pair — a pick: the card makes a pair with a card picked before it.
12: cover_odds — a pick: the chance that the defender holds a card covering it: 1 if a card
    known to be in his hand covers it, else from how many of the cards hidden from me cover
    it (each of his unknown cards one of the hidden cards, uniformly).
13: uncovered — a cover or TAKE: how many of the attacking cards still to answer after this
    one the cards it leaves in my hand cannot cover (a best matching), / 4.
14: out — the move takes me out (an empty hand, the stock gone): ATTACK with my whole hand
    and the stock empty; a pick through which the attack can be my whole hand, the stock
    empty; a cover of the last attacking card with my last card, none accepted, the stock
    too short to reach me after the attacker's refill.
15: exposes — covering every card would take the defender out (the stock will not reach him
    after the attacker's refill): ATTACK of his whole hand; a pick through which every
    attack is as large as his hand.

Nothing that is the same for every move of a position (hand sizes, the stock): a policy's
softmax over the moves cannot use it (the observation carries it).
"""

import numpy as np
from numba import njit

from skip_ai.kernel.attack import (
    AT_ATTACKER,
    AT_CARDS,
    AT_DEFENDER,
    AT_DEFENDING,
    AT_NEXT,
    AT_PICKED,
    AT_SIZE,
    AT_TAKEN,
    AT_TRUMP,
    ATTACK,
    COVER0,
    TAKE,
    attack_sizes,
    beaters,
    current_card,
    limit,
)
from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.state import DECK, H_PLAYERS, HAND, KNOWN, param

from .layout import P_HAND
from .worth import next_step, rank_worth

VERSION = 1
SIZE = 16

(
    _TAKE,
    _LAUNCH,
    _SHED_STOCK,
    _SHED_END,
    _RANK,
    _TRUMP,
    _TAKEN_RANK,
    _TAKEN_TRUMP,
    _INITIATIVE,
    _PLAN,
    _SIZE,
    _PAIR,
    _COVER_ODDS,
    _UNCOVERED,
    _OUT,
    _EXPOSES,
) = range(SIZE)

PLAN_WEIGHTS = np.array([0.6, 1.5, 1.0, 2.0, 0.3])
"""The heuristic's default weights (``agents.heuristics.pyatki.WEIGHTS``) that ``plan``
builds with; a change here is a change of the features (raise ``VERSION``)."""
_SUITS = np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39
"""The four cards of the lowest rank: shifted by ``r``, the cards of rank index ``r``."""


@njit(cache=True, inline="always")
def _stock_skips_defender(s, attacker_left):
    """After this exchange the stock will not reach the defender: the attacker, holding
    ``attacker_left`` cards, refills first and takes what is left of it."""
    return popcount(s[DECK]) <= max(0, param(s, P_HAND) - attacker_left)


@njit(cache=True, inline="always")
def _view(s, cur, dfd):
    """(the cards hidden from ``cur``, the cards ``cur`` knows to be in ``dfd``'s hand)."""
    hidden = np.int64(0)
    known = np.int64(0)
    pool = s[DECK]
    for seat in range(s[H_PLAYERS]):
        if seat != cur:
            pool |= s[HAND + seat]
    m = pool
    while m:
        c = lowest(m)
        m &= m - 1
        if (s[KNOWN + c] >> cur) & 1:
            if (s[HAND + dfd] >> c) & 1:
                known |= bit(c)
        else:
            hidden |= bit(c)
    return hidden, known


@njit(cache=True, inline="always")
def _cover_odds(c, trump, hidden, pool, known, unknown):
    """The chance that the defender can cover ``c``: 1 if one of his ``known`` cards does,
    else that his ``unknown`` cards, drawn from the ``pool`` hidden cards, hit one of those
    of ``hidden`` that do."""
    b = beaters(c, trump)
    if b & known:
        return 1.0
    k = popcount(b & hidden)
    none = 1.0
    for i in range(unknown):
        if pool - k - i <= 0:
            return 1.0
        none *= (pool - k - i) / (pool - i)
    return 1.0 - none


@njit(cache=True)
def _build(s, cur, legal, n, out):
    """The features of the moves of an attack being built."""
    held = s[HAND + cur]
    dfd = s[AT_DEFENDER]
    trump = s[AT_TRUMP]
    picked = s[AT_PICKED]
    lim = limit(s)
    stock = 1.0 if s[DECK] != 0 else 0.0
    plan = next_step(s, PLAN_WEIGHTS)
    hidden, known = _view(s, cur, dfd)
    pool = popcount(hidden)
    held_n = popcount(held)
    dfd_n = popcount(s[HAND + dfd])
    unknown = dfd_n - popcount(known)
    for i in range(n):
        a = legal[i]
        o = out[i]
        o[_PLAN] = 1.0 if a == plan else 0.0
        if a == ATTACK:
            k = popcount(picked)
            o[_LAUNCH] = 1.0
            o[_SIZE] = k / 5.0
            o[_OUT] = 1.0 if s[DECK] == 0 and k == held_n else 0.0
            skips = _stock_skips_defender(s, held_n - k)
            o[_EXPOSES] = 1.0 if k == dfd_n and skips else 0.0
            continue
        o[_SHED_STOCK] = stock
        o[_SHED_END] = 1.0 - stock
        o[_RANK] = rank_worth(s, a)
        o[_TRUMP] = 1.0 if a // 13 == trump else 0.0
        higher = held & ~((np.int64(2) << a) - 1)
        fewest, most = attack_sizes(picked | bit(a), higher, lim)
        o[_SIZE] = most / 5.0
        o[_OUT] = 1.0 if s[DECK] == 0 and most == held_n else 0.0
        skips = _stock_skips_defender(s, held_n - fewest)
        o[_EXPOSES] = 1.0 if fewest == dfd_n and skips else 0.0
        o[_PAIR] = popcount(picked & (_SUITS << (a % 13))) & 1
        o[_COVER_ODDS] = _cover_odds(a, trump, hidden, pool, known, unknown)


@njit(cache=True)
def _defend(s, cur, legal, n, out):
    """The features of the answers to the current attacking card."""
    held = s[HAND + cur]
    trump = s[AT_TRUMP]
    a = current_card(s)
    nxt = s[AT_NEXT]
    stock = 1.0 if s[DECK] != 0 else 0.0
    clean = nxt == s[AT_SIZE] - 1 and s[AT_TAKEN] == 0
    alone = _stock_skips_defender(s, popcount(s[HAND + s[AT_ATTACKER]]))
    # the cards covering each subset of the attacking cards still to answer after this one
    rest = s[AT_SIZE] - 1 - nxt
    union = np.zeros(1 << rest, np.int64)
    count = np.zeros(1 << rest, np.int64)
    for sub in range(1, 1 << rest):
        j = lowest(sub)
        union[sub] = union[sub & (sub - 1)] | beaters(s[AT_CARDS + nxt + 1 + j], trump)
        count[sub] = count[sub & (sub - 1)] + 1
    for i in range(n):
        act = legal[i]
        o = out[i]
        if act == TAKE:
            left = held
            o[_TAKE] = 1.0
            o[_TAKEN_RANK] = rank_worth(s, a)
            o[_TAKEN_TRUMP] = 1.0 if a // 13 == trump else 0.0
        else:
            d = act - COVER0
            left = held & ~bit(d)
            o[_SHED_STOCK] = stock
            o[_SHED_END] = 1.0 - stock
            o[_RANK] = rank_worth(s, d)
            o[_TRUMP] = 1.0 if d // 13 == trump else 0.0
            o[_INITIATIVE] = 1.0 if clean else 0.0
            o[_OUT] = 1.0 if clean and left == 0 and alone else 0.0
        worst = 0
        for sub in range(1, 1 << rest):  # the uncovered: Hall's deficiency (König)
            worst = max(worst, count[sub] - popcount(union[sub] & left))
        o[_UNCOVERED] = worst / 4.0


@njit(cache=True)
def write(s, cur, legal, n, out):
    """Write into ``out[i, :SIZE]`` the features of move ``legal[i]`` of seat ``cur``, for
    i < n (``legal``: as ``moves.legal_actions`` lists them). Reads only what ``cur`` knows."""
    for i in range(n):
        out[i, :SIZE] = 0.0
    if s[AT_DEFENDING]:
        _defend(s, cur, legal, n, out)
    else:
        _build(s, cur, legal, n, out)
