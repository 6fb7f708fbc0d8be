"""The table of Two Captains and Little Country in a browser (``GameSpec.layout``,
:mod:`skip_ai.layout`): each team's field of piles with Little Country's marks, and the pile an
ADD or a BEAT names."""

from skip_ai.layout import Layout, field_layout, pile_target

from .actions import ADD0, BEAT0
from .layout import CHILD, GUARD_SHIFT, MARRIED, PELICAN_CHILD, PROTECTED
from .text import TEAM_NAMES


def pile_marks(flags: int) -> list[str]:
    """A pile's marks (Little Country's; a Two Captains pile has none)."""
    notes = []
    if flags & MARRIED:
        notes.append("married")
    if flags & PELICAN_CHILD:
        notes.append("pelican child")
    elif flags & CHILD:
        notes.append("child")
    if flags & PROTECTED:
        notes.append(f"protected until seat {(flags >> GUARD_SHIFT) - 1} plays")
    return notes


def layout(s) -> Layout:
    return field_layout(s, TEAM_NAMES, pile_marks)


def move_target(s, action: int) -> str | None:
    """ADD and BEAT name a pile: its bottom card is ``(action - first) % 54`` in each segment
    of 54 × 54 actions."""
    return pile_target(action, (ADD0, BEAT0))
