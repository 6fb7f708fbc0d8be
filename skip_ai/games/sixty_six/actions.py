"""Sixty-six's action ids (RULES §12.9) and the contracts a bid names.

Below 52 an action is a card id: play it, discard it, or lay it as the target nine.
``52+s`` / ``56+s`` lead the Queen / King of suit s announcing the marriage; ``60+s``
TRUMP(s); ``64`` REVEAL; ``65`` DECLARE; ``66`` PASS; ``67`` / ``68`` the opponent on the
left / right; ``69`` NINES; ``70`` TWO_DARK; ``71`` THREE_NINES; ``72`` FOUR_NINES; ``73+s``
CATCH(s); ``77`` REDEAL; ``78+k`` BID(k). Chance outcomes are card ids.
"""

import numpy as np

Q_MARRIAGE, K_MARRIAGE, TRUMP0, REVEAL, DECLARE, PASS = 52, 56, 60, 64, 65, 66
LEFT, RIGHT, NINES, TWO_DARK, THREE_NINES, FOUR_NINES, CATCH0, REDEAL, BID0 = (
    67,
    68,
    69,
    70,
    71,
    72,
    73,
    77,
    78,
)
NUM_ACTIONS = 82

FIVE_PICTURES, SIX_PICTURES, PYATAK, SIX = 0, 1, 2, 3
"""The contracts, ``k`` of ``BID(k)``: a higher k is the higher contract (§12.7.5)."""
CONTRACT_WORTH = np.array([5, 6, 5, 6], np.int64)
