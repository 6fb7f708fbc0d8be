"""skip_two_captains — Two Captains («Два Капитана», СКИП-3), RULES.md §3, and
skip_little_country — Little Country («Маленькая Страна», СКИП-4), RULES.md §4.

One kernel serves both: Little Country is Two Captains plus four rules (the King never beats a
Queen; marriage; the child; the protected just-laid Queen), jokers and pelicans, switched on by
the ``P_LITTLE`` parameter slot. Each team (Red = team 0, Black = team 1) has a field of piles
(``kernel.fields``). A move is compulsory when one exists: LAY a card of the team's colour as a
new pile, ADD it to an own pile of its suit (at most 3 cards; a pile's value is the sum of its
cards), BEAT an opponent pile of its suit with a card of greater value (pile and card leave the
game), PASS only when nothing else is possible; Little Country's CHILD, LAY_PELICAN and
PELICAN_CHILD (``actions``). The game ends after n consecutive passes or when nobody holds a
card; more piles wins, then the higher total value of the piles, else a draw.

Levers (RULES §0.7, ``spec``, the same in both games; their defaults are the rules):
``first_seat``, the seat that moves first; ``seating``, partners alternately (Red on the even
seats; the extra cards still go to the teams in turn, ``deal.extras_for``); ``komi``, piles
added to Red's count, the tiebreak deciding where it levels the counts.

This package is the game kernel module the engine and the wrapper use (``kernel.engine``):
its attributes below are the kernel functions and the names the heuristic player and the
tests read. Its modules, from the bottom up:

- ``layout``: parameter indices, pile flags, the state's slots; ``actions``: action ids;
  ``deck``: colours, ranks and card masks;
- ``deal``: the initial state; ``piles``: what may go on or beat a pile, the masks kept for
  the move sampler; ``little_country``: marriage, the child, the protected Queen, pelicans;
  ``moves``: legal actions and applying one;
- ``scoring``; ``observation_tensor``; ``risk``: how exposed an own pile is (the heuristic's
  and the action features' arithmetic); ``action_features``: a few numbers per legal move for
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

# ... and the names the heuristic player (``agents.heuristics.captains``) and the tests read.
from .actions import ADD0, BEAT0, NUM_ACTIONS_PELICANS, PASS  # noqa: F401
from .deal import init  # noqa: F401
from .deck import BLACK_MASK, JOKERS, KING, QUEEN, RED_MASK, SUIT_CARDS, rank_of  # noqa: F401
from .layout import MARRIED  # noqa: F401
from .little_country import single_on_field  # noqa: F401
from .moves import apply_action, legal_actions, random_legal  # noqa: F401
from .observation_tensor import OBS_PELICANS, OBS_SIZE, observation  # noqa: F401
from .scoring import returns, scores  # noqa: F401
from .spec import LITTLE_COUNTRY, TWO_CAPTAINS

register(TWO_CAPTAINS)
register(LITTLE_COUNTRY)
