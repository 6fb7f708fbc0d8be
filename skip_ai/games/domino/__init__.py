"""skip_domino — Domino («Домино», СКИП-6), RULES.md §6.

Cards are laid out on a grid, domino-like: a card's column is its rank, each suit gets its own
row when its first card reaches the table. On an empty table any card leads; after that a card
must go next to the last card placed: the same suit one rank lower or higher (same row), or the
same rank of another suit directly above or below it — into that suit's row if it has one
adjacent to the last card's row, or opening the suit's row there if that row is free. Who
cannot place a card passes (with ``voluntary_pass``, anyone may pass except the leader of an
empty table). When the team that did not place the last card has all passed since, the other
team takes the table; its captain (or the next member with cards) leads. The game ends when
the team that just took a trick holds no card; more cards taken wins.

Levers (RULES §0.7, default: the rules): ``first_seat`` leads the first trick; ``seating`` seats
partners alternately; ``komi`` adds cards to team 0's count before the counts are compared.

Actions (num_distinct_actions = 163):

- ``c`` (0..53): place card ``c`` — any card on an empty table, else next to the last card
  (same suit ±1 rank, or same rank into an existing adjacent row);
- ``54 + c``: card ``c`` opens its suit's new row directly above the last card;
- ``108 + c``: card ``c`` opens its suit's new row directly below the last card;
- ``162``: PASS.

Text: ``Qc``, ``Qc-above``, ``Qc-below``, ``PASS``.

Knowledge: hand sizes are public, so a pass by a player holding cards without
``voluntary_pass`` is seen to be forced; it proves the passer holds none of the cards that
could have been placed (``prove_absent_mask``), and the default resampler respects that. With
``voluntary_pass`` a pass proves nothing. ``remove4``'s cards lie face down, seen by nobody.

This package is the game kernel module the engine and the wrapper use (``kernel.engine``):
its attributes below are the kernel functions and the names the heuristic player and the tests
read. Its modules, from the bottom up:

- ``grid``: the grid's slots (after the trick slots of ``kernel.tricks``), the action ids, and
  which cards may go next to a card (the kernel's rule, the heuristic's and the action
  features' arithmetic); ``layout``: parameter indices, the state's size;
- ``deal``: the initial state; ``moves``: legal actions and applying one;
- ``scoring``; ``observation_tensor``; ``action_features``: a few numbers per legal move for
  a learned model (``GameSpec.action_features``);
- ``text``, ``zones`` (the table in a browser) and ``spec``: the Python side, registered with
  pyspiel on import.
"""

# The kernel API (``kernel.engine``): the deal is the only chance event, and a forced pass's
# proof of absent cards is all the default resampler needs ...
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401
from skip_ai.pyspiel_wrapper import register

# ... and the names the heuristic player (``agents.heuristics.domino``) and the tests read.
from .deal import init  # noqa: F401
from .grid import ABOVE, BELOW, DM_NEXT, PASS  # noqa: F401
from .layout import P_VOLUNTARY  # noqa: F401
from .moves import _legal, apply_action, legal_actions, random_legal  # noqa: F401
from .observation_tensor import OBS_SIZE, observation  # noqa: F401
from .scoring import returns, scores  # noqa: F401
from .spec import SPEC

register(SPEC)
