"""skip_chains — Chains («Цепочки», СКИП-11), RULES.md §11.

Red (team 0, seats 0..k-1) and Black (team 1) build one table of cards together, a 4 × N
rectangle (N = 9 with 36 cards, 13 with 52) either way round, and score the chains of their
colour.

Deal: the red cards round robin to the Red seats (extras to seats 0, 1), then the black cards
to the Black seats (extras to k, k+1); the chance outcomes are the undealt cards of the colour
being dealt. Then seat 0, 1, .., n-1 in turn draws ``d`` cards blind, one chance node each,
from the original hand of the opposite seat n-1-i (d = 2, 3, 2, 1 for 36/4, 52/4, 52/6, 36/6
cards/players). The outcomes are the cards of that seat's own colour still in its hand (those
are exactly its original cards not taken yet, since it only ever receives cards of the other
colour); the drawer and the drawn-from seat see the card (``KNOWN``), nobody else.

Play: seat 0 first; each turn the player places one card; a player without cards is skipped.
The first card is cell (0, 0); every later card goes into an empty cell orthogonally adjacent
to a placed card such that the bounding box of the table still fits 4 × N or N × 4. A chain is a
maximal run of cards of one suit with consecutive ranks, each orthogonally adjacent to the
next, at least 2 long; it is worth length² plus 2 per J, 3 per Q, 4 per K, 5 per A. Each team
scores the chains of its colour; higher wins, equal is a draw.

Levers (RULES §0.7, ``spec``; their defaults are the rules above): ``first_seat``, the seat
that places the first card; ``seating``, partners alternately (Red on the even seats: the deal
by colour follows the teams' seats, and the seat opposite, n-1-i, is an opponent either way);
``komi``, chain points added to Red's score.

Actions: chance outcomes are card ids. Placing card ``c`` at (dr, dc) relative to the first
card is ``c * C + (dr + N - 1) * W + (dc + N - 1)`` with W = 2N - 1, C = W²;
num_distinct_actions = 54 * C.

This package is the game kernel module the engine and the wrapper use (``kernel.engine``):
its attributes below are the kernel functions and the names the heuristic player
(``agents.heuristics.chains``) reads. Its modules, from the bottom up:

- ``layout``: parameter indices, sizes, the state's slots, card masks;
- ``deal``: the initial state, the chance nodes and the blind draws; ``table``: where a card
  may go and placing it; ``moves``: legal actions and applying one;
- ``scoring``: links, chains and the outcome; ``observation_tensor``; ``worlds``: the
  resampler; ``wants``: who wants which open cell, and what a card adds to the chains (the
  heuristic's and the action features' arithmetic); ``action_features``: a few numbers per
  legal move for a learned model (``GameSpec.action_features``);
- ``text``, ``zones`` (the table in a browser) and ``spec``: the Python side, registered with
  pyspiel on import.
"""

from skip_ai.pyspiel_wrapper import register

# The kernel API (``kernel.engine``), and the names the heuristic player and the tests read.
from .deal import chance_outcomes, init, sample_chance  # noqa: F401
from .layout import (  # noqa: F401
    BLACK_CARDS,
    CH_CELL,
    MAX_W,
    RED_CARDS,
    colour,
    grid_width,
)
from .moves import apply_action, legal_actions, random_legal  # noqa: F401
from .observation_tensor import (  # noqa: F401
    OBS_BOX,
    OBS_COL,
    OBS_DRAWN,
    OBS_GIVEN,
    OBS_ROW,
    OBS_SIZE,
    OBS_TABLE,
    observation,
)
from .scoring import chain_value, chains, links_of, returns, scores  # noqa: F401
from .spec import SPEC
from .table import decode, row_cells, spans  # noqa: F401
from .worlds import resample, resample_plan, resample_planned  # noqa: F401

register(SPEC)
