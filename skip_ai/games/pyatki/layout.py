"""Pyatki's state layout: parameter indices, stages and the game's own slots.

The game's slots follow those of ``kernel.attack`` (the exchange):

- ``PY_STAGE``          ``DEAL``, ``TURN`` (the trump card's chance node), ``PLAY``, ``DRAW``
- ``PY_TRUMP_CARD``     the trump card (Pyatki: under the stock; pairs: the last dealt card)
- ``PY_DRAWER``         the seat refilling now (-1 when refills are over)
- ``PY_COVERED``        1 when the defender of the last exchange covered every card
- ``PY_EXCHANGES``      exchanges completed
- ``PY_OUT``            mask of the seats out (Pyatki); ``PY_NOUT`` how many
- ``PY_PLACE[seat]``    the seat's finishing place from 0, -1 while in (Pyatki)
- ``PY_OPENER``         the seat that attacked first
- ``PY_INIT_HAND[seat]``  mask of the seat's initial hand (Pyatki; for the resampler)
- ``PY_WINNER``         the winning team (pairs), -1 none
- ``PY_CAPPED``         1 when the game stopped at ``max_exchanges``
"""

from skip_ai.kernel.attack import ATTACK_END
from skip_ai.kernel.state import MAX_SEATS

P_PLAYERS, P_DECK, P_PLACES, P_MAX, P_PAIRS = 0, 1, 2, 3, 4
P_HAND, P_OPENER, P_TRUMP_CARD = 5, 6, 7
"""The levers (RULES §0.7): the hand size (Pyatki), who attacks first (0: the holder of the
lowest trump, as the rules say; ``1 + k``: seat ``k``), which dealt card shows the trump
(pairs: 0 the last, as the rules say; 1 the first)."""
HAND_SIZE = 5
"""The rules' hand size; the ``hand_size`` lever's default."""
LAST, FIRST = 0, 1
"""The ``trump_card`` lever (pairs): the trump is the suit of the last (seat 3's) or the
first (seat 0's) dealt card."""
DEAL, TURN, PLAY, DRAW = 0, 1, 2, 3

PY_STAGE = ATTACK_END
PY_TRUMP_CARD = PY_STAGE + 1
PY_DRAWER = PY_TRUMP_CARD + 1
PY_COVERED = PY_DRAWER + 1
PY_EXCHANGES = PY_COVERED + 1
PY_OUT = PY_EXCHANGES + 1
PY_NOUT = PY_OUT + 1
PY_PLACE = PY_NOUT + 1
PY_OPENER = PY_PLACE + MAX_SEATS
PY_INIT_HAND = PY_OPENER + 1
PY_WINNER = PY_INIT_HAND + MAX_SEATS
PY_CAPPED = PY_WINNER + 1
STATE_SIZE = PY_CAPPED + 1
