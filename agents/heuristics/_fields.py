"""What the field games' heuristics (Two Captains, Little Country, Harvest) share: how exposed
a card laid on the own field would be to the opponents' hands.

In these games the cards that can attack a pile of the own field are cards of the own colour
held by the opponents; the mover knows only how many cards each other hand holds, so a card
he cannot see is with an opponent with chance "opponents' cards / all other hands' cards".
"""

from numba import njit

from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import H_CUR, H_PLAYERS, HAND, team_of, unplaced_cards


@njit(cache=True, inline="always")
def unseen(s):
    """The cards still in play that the mover cannot see: those in the other hands."""
    return unplaced_cards(s) & ~s[HAND + s[H_CUR]]


@njit(cache=True)
def opponent_share(s):
    """The chance that a card the mover cannot see is in an opponent's hand."""
    cur = s[H_CUR]
    team = team_of(s, cur)
    theirs = 0
    others = 0
    for q in range(s[H_PLAYERS]):
        if q != cur:
            n = popcount(s[HAND + q])
            others += n
            theirs += n if team_of(s, q) != team else 0
    return theirs / others if others else 0.0


@njit(cache=True, inline="always")
def exposure(attackers, share):
    """The chance that at least one of ``attackers`` unseen cards is with an opponent."""
    return 1.0 - (1.0 - share) ** attackers
