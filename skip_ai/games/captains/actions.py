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

ADD0, BEAT0, PASS, CHILD0 = 54, 2970, 5886, 5887
LAY_PELICAN0, PELICAN_CHILD0 = 5941, 5944
NUM_ACTIONS, NUM_ACTIONS_PELICANS = 5941, 5996
