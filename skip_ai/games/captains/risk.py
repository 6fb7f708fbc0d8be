"""How exposed an own pile of Two Captains or Little Country is, as the seat to move sees it:
the arithmetic the heuristic player (``agents.heuristics.captains``) scores its moves with and
the action features (``action_features``) show a learned model.

An own pile is beaten by a card of the own colour and of its suit worth more than it
(``piles.beaters``), held by an opponent. The mover cannot see the other hands: a card of the
own colour it cannot see (a *spoiler*, ``kernel.fields.unseen``) is with an opponent with
chance ``share`` (``kernel.fields.opponent_share``). A pile's **risk** is the chance that at
least one of its beaters among the spoilers is (``kernel.fields.exposure``); it is zero for a
pile worth 14 or more, and in Little Country for a married King or Queen, a child and a
pelican (a lone Queen fears only the Ace: the King never beats her). The just-laid Queen's
protection is not counted: it lasts one round.
"""

from numba import njit

from skip_ai.kernel.bits import popcount
from skip_ai.kernel.fields import F_FLAGS, F_SIZE, F_SUIT, F_SUM, F_TOP, exposure, value
from skip_ai.kernel.state import param

from .deck import KING, QUEEN, rank_of
from .layout import CHILD, MARRIED, P_LITTLE
from .little_country import single_on_field
from .piles import beaters


@njit(cache=True, inline="always")
def lone_queen(c):
    """Is ``c`` a Queen (so, alone in a pile, no King beats it in Little Country)?"""
    return c < 52 and rank_of(c) == QUEEN


@njit(cache=True, inline="always")
def pile_beaters(s, total, suit, lone_q):
    """The cards (of every colour) that would beat an own pile worth ``total`` of ``suit``
    (-1: jokers only), a lone Queen when ``lone_q``."""
    return beaters(total, suit, lone_q and param(s, P_LITTLE) != 0)


@njit(cache=True)
def risk(s, total, suit, lone_q, spoilers, share):
    """The chance that an own pile worth ``total`` of ``suit`` (-1: jokers only) is beaten,
    ``spoilers`` being the own-colour cards the mover cannot see."""
    return exposure(popcount(spoilers & pile_beaters(s, total, suit, lone_q)), share)


@njit(cache=True)
def pile_risk(s, b, spoilers, share):
    """The risk of own pile ``b`` as it lies."""
    if param(s, P_LITTLE) and s[F_FLAGS + b] & (MARRIED | CHILD):
        return 0.0
    single_queen = s[F_SIZE + b] == 1 and lone_queen(s[F_TOP + b])
    return risk(s, s[F_SUM + b], s[F_SUIT + b], single_queen, spoilers, share)


@njit(cache=True, inline="always")
def spouse(s, c, team):
    """In Little Country, the single-card pile on ``team``'s field that King or Queen ``c``
    would marry if laid now; else -1."""
    if not param(s, P_LITTLE) or c >= 52:
        return -1
    rank = rank_of(c)
    if rank != QUEEN and rank != KING:
        return -1
    other = c + 1 if rank == QUEEN else c - 1
    return other if single_on_field(s, other, team) else -1


@njit(cache=True)
def lay_risks(s, c, team, spoilers, share):
    """(the new pile's risk, the risk it takes off a pile already there) when card ``c`` (of
    the own colour, or a joker) starts a pile on ``team``'s field: a King or Queen that
    marries is safe and makes its spouse safe."""
    w = spouse(s, c, team)
    if w >= 0:
        return 0.0, pile_risk(s, w, spoilers, share)
    suit = -1 if c >= 52 else c // 13
    return risk(s, value(c), suit, lone_queen(c), spoilers, share), 0.0


@njit(cache=True, inline="always")
def suit_after_add(s, c, b):
    """The suit of own pile ``b`` once card ``c`` is on it (a joker-only pile takes its first
    card's suit)."""
    suit = s[F_SUIT + b]
    if suit < 0 and c < 52:
        suit = c // 13
    return suit


@njit(cache=True)
def add_risks(s, c, b, spoilers, share):
    """(own pile ``b``'s risk with card ``c`` on it, its risk now)."""
    after = risk(s, s[F_SUM + b] + value(c), suit_after_add(s, c, b), False, spoilers, share)
    return after, pile_risk(s, b, spoilers, share)
