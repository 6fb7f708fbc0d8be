"""classic_rummy — Rummy («Рамми», J. Leeming), RULES.md §13.

Each for themselves, 2 to 6 players, one deal. Seat 0 plays first; a hand of h cards each
(10 for 2 players, 7 for 3–4, 6 for 5–6), then an up-card starts the face-up discard pile and
the rest is the face-down stock. A turn: draw (from the stock, or the pile's top card), then any
melds (sets of 3–4 of a rank, sequences of 3+ of a suit, Ace low) and lay-offs onto any meld
on the table, each leaving at least one card in hand, then one discard. Discarding the last
card goes out ("Rummy!") and ends the game. A discard that fits a meld opens a claim window:
the other players are asked clockwise; a claimer lays it off, discards, and may open a window
himself (chains); turn order is unchanged. An empty stock at the start of a turn is refilled by
turning the pile over without shuffling (its order is public from then on). Scores: the winner
gets the others' hand counts (Ace 1, pips, pictures 10), doubled for a tablecloth (all cards
down in one turn); each loser pays his own count. After ``max_turns`` turns: a dead hand, all 0.

Chance outcomes are card ids: the deal, the up-card, and every draw from the face-down stock
(uniform over its cards; seen by the drawer alone). Draws from a turned-over stock are
automatic and public. num_distinct_actions = 541 (``actions``).

This package is the game kernel module the engine and the wrapper use (``kernel.engine``):
its attributes below are the kernel functions and the names the heuristic player and the
tests read. Its modules, from the bottom up:

- ``layout``: parameter indices, phases, places, the state's slots; ``actions``: action ids;
  ``deck``: card values and masks;
- ``deal``: the initial state; ``turns``: the start of a turn, the turn-over, the cap;
  ``melds``: melds and lay-offs; ``moves``: legal actions and applying one;
- ``scoring``; ``observation_tensor``;
- ``text``, ``zones`` (the table in a browser) and ``spec``: the Python side, registered with
  pyspiel on import.
"""

# The kernel API (``kernel.engine``): every chance node draws uniformly from the undealt
# cards, and no rule proves a card absent, so the default resampler fits ...
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401
from skip_ai.pyspiel_wrapper import register

# ... and the names the heuristic player (``agents.heuristics.rummy``) and the tests read.
from .actions import (  # noqa: F401
    CLAIM,
    DECLINE,
    DRAW_DISCARD,
    DRAW_STOCK,
    LAYOFF0,
    MELD_SET0,
    NUM_ACTIONS,
)
from .deal import init  # noqa: F401
from .deck import card_of, points, rank_mask, seq_value, suit_values  # noqa: F401
from .layout import (  # noqa: F401
    ASK,
    CLAIM_LAYOFF,
    DRAW,
    PLAY,
    RM_PHASE,
    RM_PILE,
    RM_PILE_N,
)
from .melds import fits, meld_cards  # noqa: F401
from .moves import apply_action, legal_actions, random_legal  # noqa: F401
from .observation_tensor import OBS_KNOWN, OBS_STOCK, observation  # noqa: F401
from .scoring import returns, scores  # noqa: F401
from .spec import SPEC
from .turns import stock_size  # noqa: F401

register(SPEC)
