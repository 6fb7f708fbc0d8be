"""The action ids of Two Captains and Little Country. A move is compulsory when one exists:

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
"""

import numpy as np

ADD0, BEAT0, PASS, CHILD0 = 54, 2970, 5886, 5887
LAY_PELICAN0, PELICAN_CHILD0 = 5941, 5944
NUM_ACTIONS, NUM_ACTIONS_PELICANS = 5941, 5996

LAY, ADD, BEAT, PASS_KIND, CHILD, LAY_PELICAN, PELICAN_CHILD = range(7)
_KINDS = 7
_CARDS = 58  # cards 0..53, pelicans 54..56, and 57: no card (PASS) or no pile (LAY, CHILD)


def action_parts(num_actions: int) -> np.ndarray:
    """Each action id as three parts (``GameSpec.action_parts``): its kind, its card with that
    kind, and the pile it goes on with that kind (a card to lay and a card to beat with are
    worth different things, so the card's part depends on the kind)."""
    kind = np.empty(num_actions, np.int64)
    card = np.full(num_actions, _CARDS - 1, np.int64)
    pile = np.full(num_actions, _CARDS - 1, np.int64)
    a = np.arange(num_actions)
    for first, end, k in (
        (0, ADD0, LAY),
        (ADD0, BEAT0, ADD),
        (BEAT0, PASS, BEAT),
        (PASS, CHILD0, PASS_KIND),
        (CHILD0, LAY_PELICAN0, CHILD),
        (LAY_PELICAN0, PELICAN_CHILD0, LAY_PELICAN),
        (PELICAN_CHILD0, NUM_ACTIONS_PELICANS, PELICAN_CHILD),
    ):
        rows = a[first:end]
        kind[rows] = k
        if k in (ADD, BEAT):
            card[rows], pile[rows] = np.divmod(rows - first, 54)
        elif k == LAY_PELICAN:
            card[rows] = 54 + rows - first
        elif k != PASS_KIND:
            card[rows] = rows - first
    return np.stack(
        [kind, _KINDS + kind * _CARDS + card, _KINDS * (1 + _CARDS) + kind * _CARDS + pile], 1
    )
