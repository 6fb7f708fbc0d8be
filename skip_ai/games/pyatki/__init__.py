"""skip_pyatki — Pyatki, each for themselves («Пятки», СКИП-1, RULES.md §1), and
skip_pyatki_pairs — Pyatki two against two («Пятки двое на двое», СКИП-2, RULES.md §2).

One kernel serves both (``P_PAIRS``); the exchange itself — building an attack card by card
with the completability rule, covering or taking card by card — is ``kernel.attack``.

Pyatki (§1): 5 cards each; a chance node turns the trump card (never an Ace), which lies face
up under the stock and is drawn last, without a chance node. The holder of the lowest trump
attacks first (seat 0 if nobody holds one); a player attacks the next player still in. After
an exchange the attacker, then the defender, draw up to 5 (one chance node per card, over the
stock without the trump card). Whoever covered everything attacks next, else the first
player still in after the defender. A player without cards while the stock is empty is out
(checked for the attacker at ATTACK, then for attacker and defender after the refills). Without
``places`` the first out wins (1, others -1/(n-1)); with ``places`` play goes on and place p
gets 1 - 2p/(n-1). After ``max_exchanges`` exchanges the players still in share the remaining
places (their mean return).

Pairs (§2): four players, teams {0, 1} and {2, 3}; the whole deck is dealt, the last dealt
card (shown to all) gives the trump suit; the holder of the lowest trump attacks the opposite
seat (n-1-i). No stock. Next: the defender's team attacks if he covered everything, else the
attacker's team; attacker and defender are the members who sat out the last exchange when they
hold cards, else their partners (§2.4). A team whose two players hold no cards wins (±1); the
cap is a draw.

Levers (RULES §0.7; ``layout.P_HAND`` …): ``hand_size`` (Pyatki; 5 by the rules), ``opener``
(both: the holder of the lowest trump by the rules, or a named seat, which reveals no card) and
``trump_card`` (pairs: the last dealt card by the rules, or the first, seat 0's).

Actions (both): ``c`` (0..53) adds card ``c`` to the attack; ``54`` ATTACK; ``55 + d`` covers
the current attacking card with ``d``; ``109`` TAKE. Chance outcomes are card ids.
num_distinct_actions = 110.

This package is the game kernel module the engine and the wrapper use (``kernel.engine``):
its attributes below are the kernel functions. Its modules, from the bottom up:

- ``layout``: parameter indices, stages, the state's slots; ``seats``: who is still in, who
  sat out an exchange;
- ``deal``: the initial state, the chance nodes and the first exchange; ``exchanges``: the
  attack launched, refills, going out, who attacks next; ``moves``: legal actions and applying
  one, dispatched by stage;
- ``scoring``; ``observation_tensor``; ``worlds``: the resampler, which keeps the public
  events that depend on hidden cards;
- ``worth``: what a card is worth to keep or shed, the attack to build (the heuristic's
  arithmetic); ``action_features``: a few numbers per legal move for a learned model
  (``GameSpec.action_features``);
- ``text``, ``zones`` (the table in a browser) and ``spec``: the Python side, registered with
  pyspiel on import.
"""

from skip_ai.pyspiel_wrapper import register

# The kernel API (``kernel.engine``).
from .deal import chance_outcomes, init, sample_chance  # noqa: F401
from .moves import apply_action, legal_actions, random_legal  # noqa: F401
from .observation_tensor import observation  # noqa: F401
from .scoring import returns, scores  # noqa: F401
from .spec import PYATKI, PYATKI_PAIRS
from .worlds import resample, resample_plan, resample_planned  # noqa: F401

register(PYATKI)
register(PYATKI_PAIRS)
