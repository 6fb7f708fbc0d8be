"""Layout hints: how a game arranges its *public* cards on the table in a browser.

The view builder (``skip_ai.serve.views``) knows where every card is from the kernel's common
``LOC`` slots; what it cannot know is the shape a game gives its public places: piles on two
fields, rank columns, a grid of suit rows, a stream, a chain table, an attack with its covers,
melds. A game declares that shape as ``GameSpec.layout``: a function of the state that reads
the game's public slots and returns zones of card ids; it never decides what the viewer may
see (``views`` checks every card it emits). ``GameSpec.move_target`` says where a move lands
(a pile's ``key``, a ``cell:r,c``), for games whose moves name a place on the table.

A layout is ``{"zones": [...], "facts": [...]}``. A zone is a dict with ``kind`` and ``title``
and, by kind (card ids are ints; ``views`` turns every ``card`` field and ``cards`` list into
card pictures):

- ``row``: ``cards`` in order; ``backs`` face-down cards after them; ``small`` thumbnails
- ``piles``: ``piles``: [{``cards`` bottom to top, ``key`` (a move target), ``note``}]
- ``grid``: ``cells``: [{``row``, ``col``, ``card``, ``last``}]; optional ``row_labels`` /
  ``col_labels`` (then the grid has exactly those rows and columns, row 0 on top), else the
  bounds of its cells and of the moves' ``cell:r,c`` targets (an open table: Chains)
- ``pairs``: ``pairs``: [{``card``, ``cover`` (or absent), ``note``}] (an attack)

``facts`` are short public notes (trump, passes, board). This module holds the pieces several
games share: fields of piles (Two Captains, Little Country, Harvest), the cards each team took
and the last card's facts (the trick games).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from skip_ai import cards
from skip_ai.kernel import fields, tricks
from skip_ai.kernel.state import H_PLAYERS, LOC, NUM_CARDS

Layout = dict


def mask_cards(m: int) -> list[int]:
    """The card ids in the mask ``m``, ascending."""
    m = int(m)
    return [c for c in range(64) if (m >> c) & 1]


def deck_ranks(deck: int) -> range:
    """The ranks of a deck of ``deck`` cards (2 = the two, 14 = the Ace)."""
    return range(cards.LOWEST_RANK[deck], 15)


# ----- fields of piles: Two Captains, Little Country, Harvest ---------------------------------


def pile_cards(s: np.ndarray, b: int) -> list[int]:
    """Pile ``b``'s cards, bottom to top."""
    chain, c = [], int(s[fields.F_TOP + b])
    while c >= 0:
        chain.append(c)
        c = int(s[fields.F_BELOW + c])
    return chain[::-1]


def field_layout(
    s: np.ndarray,
    team_names: tuple[str, str],
    marks: Callable[[int], list[str]] | None = None,
) -> Layout:
    """Each team's field of piles (``kernel.fields``), a pile's note its value when it has
    several cards, then ``marks(flags)`` of its flags (Little Country's)."""
    zones = []
    for team in range(2):
        bottoms = mask_cards(s[fields.F_PILES + team])
        value = sum(int(s[fields.F_SUM + b]) for b in bottoms)
        zones.append(
            {
                "kind": "piles",
                "title": f"{team_names[team]} field",
                "note": f"{len(bottoms)} pile{'' if len(bottoms) == 1 else 's'}, value {value}",
                "team": team,
                "piles": [
                    {"cards": pile_cards(s, b), "key": f"pile:{b}", "note": _pile_note(s, b, marks)}
                    for b in bottoms
                ],
            }
        )
    return {"zones": zones, "facts": [f"consecutive passes: {int(s[fields.F_PASSES])}"]}


def _pile_note(s: np.ndarray, b: int, marks: Callable[[int], list[str]] | None) -> str:
    notes = [f"={int(s[fields.F_SUM + b])}"] if int(s[fields.F_SIZE + b]) > 1 else []
    if marks is not None:
        notes += marks(int(s[fields.F_FLAGS + b]))
    return " ".join(notes)


def pile_target(action: int, firsts: tuple[int, ...]) -> str | None:
    """The pile a move names, for moves in segments of 54 × 54 action ids from each of
    ``firsts`` (card × pile): its bottom card is ``(action - first) % 54``."""
    for first in firsts:
        if first <= action < first + 54 * 54:
            return f"pile:{(action - first) % 54}"
    return None


# ----- trick games: Domino, Brook, Guess, Fours -------------------------------------------------


def taken_zones(s: np.ndarray, team_names: tuple[str, str]) -> list[dict]:
    """Each team's cards taken (``kernel.tricks``), as thumbnails, in card order."""
    out = []
    for team in range(2):
        taken = [c for c in range(NUM_CARDS) if s[LOC + c] == tricks.LOC_TAKEN + team]
        out.append(
            {
                "kind": "row",
                "title": f"taken by {team_names[team]}",
                "note": f"{int(s[tricks.TK_TAKEN + team])} cards",
                "cards": taken,
                "small": True,
                "team": team,
            }
        )
    return out


def trick_facts(s: np.ndarray) -> list[str]:
    """Who placed the last card on the table and who passed since."""
    last = int(s[tricks.TK_LAST])
    if last < 0 or not int(s[tricks.TK_TABLE]):
        return []
    passed = [str(q) for q in range(int(s[H_PLAYERS])) if (int(s[tricks.TK_PASSED]) >> q) & 1]
    return [f"last card by seat {last}; passed since: {', '.join(passed) or 'nobody'}"]
