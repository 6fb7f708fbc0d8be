"""What the field games' heuristics (Two Captains, Little Country, Harvest) share: how exposed
a card laid on the own field would be to the opponents' hands, for the seat to move.

The arithmetic lives in the core (``skip_ai.kernel.fields``: ``unseen``, ``opponent_share``,
``exposure``), where Little Country's action features read it too; these are its forms for
the seat to move, ``s[H_CUR]``.
"""

from numba import njit

from skip_ai.kernel.fields import exposure  # noqa: F401
from skip_ai.kernel.fields import opponent_share as seat_share
from skip_ai.kernel.fields import unseen as unseen_by
from skip_ai.kernel.state import H_CUR


@njit(cache=True, inline="always")
def unseen(s):
    """The cards still in play that the mover cannot see: those in the other hands."""
    return unseen_by(s, s[H_CUR])


@njit(cache=True, inline="always")
def opponent_share(s):
    """The chance that a card the mover cannot see is in an opponent's hand."""
    return seat_share(s, s[H_CUR])
