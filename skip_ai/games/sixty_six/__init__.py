"""classic_sixty_six_4p — Sixty-six for four («Шуба вчетвером», RULES.md §12).

Four players, partners sitting alternately (team = seat mod 2, ``seats``), 24 cards (9..A; within a
suit A > 10 > K > Q > J > 9; points A 11, 10 10, K 4, Q 3, J 2, 9 0). A deal: [cut] → first
round (3 cards each in packets, from the elder hand E = dealer + 1) → E names the trump from
the suits of his three cards or reveals cards → [offers of nines] → second round → [nines
games] → [redeal] → [bids] → a contract or the standard play: follow suit, else trump, else
anything (no duty to win); marriages (K+Q, 20 / 40 in trumps) announced when leading and
counted once the team has taken a trick; DECLARE claims 66 (3 / 2 / 1 board points, a false
claim gives the opponents 3); without a claim the last trick's team scores its 66 or the
last-trick point. ``mode=match``: first team to 8 board points wins (shuba, klin, cross klin);
``mode=deal``: one deal. Extras (§12.7): ``cut``, ``nines``, ``nines_declarer``, ``redeal``,
``contracts``. num_distinct_actions = 82 (``actions``).

This package is the game kernel module the engine and the wrapper use (``kernel.engine``):
its attributes below are the kernel functions and the names the heuristic player and the tests
read. Its modules, from the bottom up:

- ``layout``: parameter indices, phases, the state's slots; ``actions``: action ids;
  ``deck``: the 24 cards; ``seats``: seat arithmetic;
- ``phases``: the order of phases; ``deal``: a deal's start and its dealt cards; ``trump``;
  ``scoring``: board points, the end of a deal or match, returns;
- ``extras``: ``cut``, ``offers``, ``nines_games``, ``redeal``, ``contracts``;
- ``tricks``: trick mechanics; ``play``: the standard play; ``moves``: legal actions and
  applying one, dispatched by phase;
- ``observation_tensor``; ``facts`` (public facts a resampled world keeps), ``world_search``
  and ``worlds`` (the resampler);
- ``text``, ``zones`` (the table in a browser) and ``spec``: the Python side, registered with
  pyspiel on import.
"""

# The kernel API (``kernel.engine``) ...
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401
from skip_ai.pyspiel_wrapper import register

# ... and the names the heuristic player (``agents.heuristics.sixty_six``) and the tests read.
from .actions import DECLARE, PASS, Q_MARRIAGE, REVEAL, TRUMP0  # noqa: F401
from .deal import (
    init,  # noqa: F401
    start_deal,  # noqa: F401
)
from .deck import (  # noqa: F401
    FULL_DECK,
    PICTURES,
    POINTS,
    STRENGTH,
    beats,
    points_of,
    suit_mask,
)
from .facts import facts_hold, revealed_mask  # noqa: F401
from .layout import (  # noqa: F401
    PH_CPLAY,
    PH_CUT,
    PH_DEAL1,
    PH_NG_TARGET,
    PH_PLAY,
    PH_TRUMP,
    R_LAST_TRICK,
    SX_BOARD,
    SX_BOTTOM,
    SX_COUNT,
    SX_DEALER,
    SX_LAST_A,
    SX_LAST_TEXT,
    SX_LEADER,
    SX_MARR,
    SX_NG_CATCH,
    SX_NOX,
    SX_NSEQ,
    SX_PHASE,
    SX_REDEALT,
    SX_SEQ,
    SX_TEAM_CATCH,
    SX_TRICKS,
    SX_TRUMP,
)
from .moves import (  # noqa: F401
    apply_action,
    legal_actions,
    legal_masks,  # noqa: F401
    random_legal,
)
from .observation_tensor import observation  # noqa: F401
from .scoring import (  # noqa: F401
    returns,
    scores,
    total,  # noqa: F401
)
from .seats import seat_after  # noqa: F401
from .spec import SPEC
from .worlds import (  # noqa: F401
    resample,
    resample_plan,
    resample_planned,
    resample_tries,  # noqa: F401
)

register(SPEC)
