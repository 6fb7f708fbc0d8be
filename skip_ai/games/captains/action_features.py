"""Two Captains' and Little Country's action features: what a legal move does, as seen by the
seat to move.

A learned policy scores a move by its action id and by these ``SIZE`` numbers φ(s, a)
(DouZero-style, :mod:`skip_ai.kernel.no_action_features`). A card of the mover's colour is
laid as a pile (LAY) or added to an own pile (ADD), a card of the other colour beats an
opponent pile (BEAT); an own pile is beaten by a card of the own colour held by an opponent
(``risk``: the heuristic's arithmetic). The features read only what the mover knows: its hand,
both fields, the cards out of play, how many cards each hand holds and what forced passes
proved a seat lacks (``NOT_HOLD``); every other card is *hidden*, and an opponent *may hold* a
hidden card unless it holds no card or was proved to lack it. The *pile* of a LAY, an ADD, a
CHILD, a pelican or a pelican child is the own pile the card starts or goes on, as it is after
the move. Values lie in 0..2.

With any weights ``w`` of the heuristic player (``agents.heuristics.captains``,
``WEIGHT_NAMES``), the linear score

    lay + sure + relief - risk + w[beat]·beat - 13·w[overkill]·overkill

is exactly the heuristic's value of a move: it plays one the score rates best. The other
features are what it does not weigh.

The features, in order (index: name — meaning, scale):

0: lay — the move is LAY: a card of my colour (or my joker) starts a pile (1, else 0).
1: add — the move is ADD (1, else 0).
2: beat — the move is BEAT (1, else 0).
3: sure — the move starts a pile nobody can ever beat: CHILD, LAY_PELICAN or PELICAN_CHILD.
4: pelican — the move is LAY_PELICAN (so it spends a pelican, a move always at hand).
5: card — the value of the card played (2..14, joker 11, pelican 15), / 15.
6: value — the pile's value, min(value, 30) / 15 (0 for BEAT).
7: cards — the pile's cards, / 3 (0 for BEAT).
8: risk — the pile's risk: the chance that an opponent holds a card that beats it (each card
   of my colour hidden from me with an opponent with chance "opponents' cards / all other
   hands' cards"; 0 for a pile nobody can beat), 0..1.
9: relief — the risk the move takes off a pile already on my field: ADD, that pile's risk
   before; a King or Queen that marries (Little Country), its spouse's risk.
10: locked — by the rules nobody can ever beat the pile: worth 14 or more, married, a child or
    a pelican (1, else 0).
11: threat — the cards that would beat the pile that an opponent may hold (not proved absent),
    / 13.
12: backup — the cards of my hand that could go on the pile later (its suit, my joker; any of
    my colour on a joker-only pile), while it takes cards and is not locked, up to 2, / 2.
13: marries — a King or Queen laid beside its single spouse (Little Country): both are safe.
14: prospect — a lone King or Queen laid whose spouse I hold (Little Country): I could marry it
    on a later turn.
15: beaten — BEAT: the beaten pile's value, / 15.
16: overkill — BEAT: the beating card's value minus the pile's, / 13.
17: cheaper — BEAT: a lower card of mine could beat the same pile (1, else 0).
18: spare — BEAT: my other cards that could beat the same pile, up to 2, / 2.
19: escape — BEAT: if I do not beat the pile now it may get out of my reach: it takes cards and
    an opponent may hold one that would lift it to at least the value of my best card beating
    it, or (Little Country) it is a lone King or Queen whose spouse an opponent may hold.

PASS (legal only when nothing else is) has all features 0. Nothing that is the same for every
move of a position (hand sizes, the fields' counts): a policy's softmax over the moves cannot
use it (the observation carries it).
"""

from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.fields import F_SIZE, F_SUIT, F_SUM, F_TOP, opponent_share, unseen, value
from skip_ai.kernel.state import HAND, PELICAN0, param, team_of
from skip_ai.kernel.tricks import opponents_may_hold

from .actions import ADD0, BEAT0, CHILD0, LAY_PELICAN0, PASS, PELICAN_CHILD0
from .deck import JOKERS, KING, QUEEN, SUIT_CARDS, colour_mask, rank_of
from .layout import CP_ADDABLE, CP_BEAT, MAX_PILE, P_LITTLE
from .risk import add_risks, lay_risks, lone_queen, pile_beaters, spouse, suit_after_add

VERSION = 1
SIZE = 20

(
    _LAY,
    _ADD,
    _BEAT,
    _SURE,
    _PELICAN,
    _CARD,
    _VALUE,
    _CARDS,
    _RISK,
    _RELIEF,
    _LOCKED,
    _THREAT,
    _BACKUP,
    _MARRIES,
    _PROSPECT,
    _BEATEN,
    _OVERKILL,
    _CHEAPER,
    _SPARE,
    _ESCAPE,
) = range(SIZE)

_LOCK = 14
"""A pile worth this much or more with a suit: no card beats it."""
_MAX_VALUE = 30


@njit(cache=True, inline="always")
def _fits(suit, colour):
    """The cards of ``colour`` that may go on a pile of ``suit`` (-1: jokers only)."""
    if suit < 0:
        return colour
    return ((SUIT_CARDS << (13 * suit)) | JOKERS) & colour


@njit(cache=True, inline="always")
def _max_value(m):
    best = 0
    while m:
        best = max(best, value(lowest(m)))
        m &= m - 1
    return best


@njit(cache=True, inline="always")
def _upto2(k):
    return min(k, 2) / 2.0


@njit(cache=True, inline="always")
def _pile(o, total, size, suit, backup_cards):
    """The features of the pile a LAY or ADD leaves (risk and relief aside)."""
    o[_VALUE] = min(total, _MAX_VALUE) / 15.0
    o[_CARDS] = size / MAX_PILE
    locked = suit >= 0 and total >= _LOCK
    o[_LOCKED] = 1.0 if locked else 0.0
    if size < MAX_PILE and not locked:
        o[_BACKUP] = _upto2(popcount(backup_cards))


@njit(cache=True, inline="always")
def _sure(o, c):
    o[_SURE] = 1.0
    o[_CARD] = value(c) / 15.0
    o[_VALUE] = value(c) / 15.0
    o[_CARDS] = 1.0 / MAX_PILE
    o[_LOCKED] = 1.0


@njit(cache=True)
def write(s, cur, legal, n, out):
    """Write into ``out[i, :SIZE]`` the features of move ``legal[i]`` of seat ``cur``, for
    i < n (``legal``: as ``moves.legal_actions`` lists them). Reads only what ``cur`` knows."""
    team = team_of(s, cur)
    held = s[HAND + cur]
    mine = colour_mask(team)
    hidden = unseen(s, cur)
    spoilers = hidden & mine
    share = opponent_share(s, cur)
    may = opponents_may_hold(s, cur, hidden)
    threats = may & mine  # cards an opponent may hold that beat my piles
    theirs = colour_mask(1 - team)
    little = param(s, P_LITTLE) != 0
    for i in range(n):
        a = legal[i]
        o = out[i]
        for k in range(SIZE):
            o[k] = 0.0
        if a == PASS:
            continue
        if a < ADD0:  # LAY
            c = a
            o[_LAY] = 1.0
            o[_CARD] = value(c) / 15.0
            after, relief = lay_risks(s, c, team, spoilers, share)
            o[_RISK] = after
            o[_RELIEF] = relief
            if spouse(s, c, team) >= 0:
                o[_MARRIES] = 1.0
                o[_VALUE] = value(c) / 15.0
                o[_CARDS] = 1.0 / MAX_PILE
                o[_LOCKED] = 1.0
                continue
            suit = -1 if c >= 52 else c // 13
            o[_THREAT] = popcount(threats & pile_beaters(s, value(c), suit, lone_queen(c))) / 13.0
            _pile(o, value(c), 1, suit, held & ~bit(c) & _fits(suit, mine))
            if little and c < 52:
                rank = rank_of(c)
                if rank == QUEEN and (held >> (c + 1)) & 1:
                    o[_PROSPECT] = 1.0
                elif rank == KING and (held >> (c - 1)) & 1:
                    o[_PROSPECT] = 1.0
        elif a < BEAT0:  # ADD
            c, b = (a - ADD0) // 54, (a - ADD0) % 54
            o[_ADD] = 1.0
            o[_CARD] = value(c) / 15.0
            after, before = add_risks(s, c, b, spoilers, share)
            o[_RISK] = after
            o[_RELIEF] = before
            total = s[F_SUM + b] + value(c)
            suit = suit_after_add(s, c, b)
            o[_THREAT] = popcount(threats & pile_beaters(s, total, suit, False)) / 13.0
            _pile(o, total, s[F_SIZE + b] + 1, suit, held & ~bit(c) & _fits(suit, mine))
        elif a < PASS:  # BEAT
            c, b = (a - BEAT0) // 54, (a - BEAT0) % 54
            v, pile = value(c), s[F_SUM + b]
            o[_BEAT] = 1.0
            o[_CARD] = v / 15.0
            o[_BEATEN] = pile / 15.0
            o[_OVERKILL] = (v - pile) / 13.0
            able = held & s[CP_BEAT + b]  # my cards that beat the pile
            others = able & ~bit(c)
            o[_SPARE] = _upto2(popcount(others))
            m = others
            while m:
                if value(lowest(m)) < v:
                    o[_CHEAPER] = 1.0
                    break
                m &= m - 1
            if (s[CP_ADDABLE] >> b) & 1:
                lift = may & _fits(s[F_SUIT + b], theirs)
                if lift and pile + _max_value(lift) >= _max_value(able):
                    o[_ESCAPE] = 1.0
            top = s[F_TOP + b]
            if little and s[F_SIZE + b] == 1 and top < 52:  # married: no BEAT
                rank = rank_of(top)
                if (rank == QUEEN and (may >> (top + 1)) & 1) or (
                    rank == KING and (may >> (top - 1)) & 1
                ):
                    o[_ESCAPE] = 1.0
        elif a < LAY_PELICAN0:  # CHILD
            _sure(o, a - CHILD0)
        elif a < PELICAN_CHILD0:  # LAY_PELICAN
            _sure(o, PELICAN0 + a - LAY_PELICAN0)
            o[_PELICAN] = 1.0
        else:  # PELICAN_CHILD
            _sure(o, a - PELICAN_CHILD0)
