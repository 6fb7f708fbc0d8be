"""Rummy's state layout: parameter indices, phases, places and the game's own slots.

The game's slots follow the common part of ``kernel.state``:

- ``RM_PHASE``        DEAL, UPCARD, DRAW, STOCK (chance draw), PLAY (after the draw), ASK (a
                      claim window), CLAIM_LAYOFF (the claimer picks a target), CLAIM_DISCARD,
                      OVER
- ``RM_TURN``         the seat whose turn it is; ``RM_TURNS`` turns started so far
- ``RM_DISCARDER``    whose discard opened the current claim window
- ``RM_CLAIMED``      the claimed card while its claimer picks a target
- ``RM_PILE_N``, ``RM_PILE[i]``   the discard pile, bottom first
- ``RM_STOCK_N``, ``RM_STOCK_POS``, ``RM_STOCK[i]``   a turned-over stock, in draw order
- ``RM_FIT[t]``       mask of the cards that have target ``t`` on the table (rule 6)
- ``RM_MELD_N``, ``RM_MELD[i]``   the melds on the table as card masks, in meld order
- ``RM_DOWN[q]``      the turn in which seat ``q`` first put a card on the table (0: never)
- ``RM_WINNER``, ``RM_CLOTH``, ``RM_DEAD``, ``RM_TURNOVERS``

Places: the pile is ``LOC_PILE``, melds ``LOC_MELD``, a turned-over stock ``LOC_STOCK`` (all
public); a card taken from the pile or a turned-over stock keeps ``KNOWN`` = every seat, so the
resampler never moves it. No rule proves a card absent, so the default resampler fits.
"""

from skip_ai.kernel.state import GAME, LOC_TABLE, MAX_SEATS

P_PLAYERS, P_MAX_TURNS = 0, 1

DEAL, UPCARD, DRAW, STOCK, PLAY, ASK, CLAIM_LAYOFF, CLAIM_DISCARD, OVER = range(9)
NUM_PHASES = 9

LOC_PILE = LOC_TABLE
LOC_MELD = LOC_TABLE + 1
LOC_STOCK = LOC_TABLE + 2

MAX_MELDS = 17
"""A meld holds at least 3 of the 52 cards."""

RM_PHASE = GAME
RM_TURN = RM_PHASE + 1
RM_TURNS = RM_TURN + 1
RM_DISCARDER = RM_TURNS + 1
RM_CLAIMED = RM_DISCARDER + 1
RM_WINNER = RM_CLAIMED + 1
RM_CLOTH = RM_WINNER + 1
RM_DEAD = RM_CLOTH + 1
RM_TURNOVERS = RM_DEAD + 1
RM_PILE_N = RM_TURNOVERS + 1
RM_PILE = RM_PILE_N + 1
RM_STOCK_N = RM_PILE + 52
RM_STOCK_POS = RM_STOCK_N + 1
RM_STOCK = RM_STOCK_POS + 1
RM_FIT = RM_STOCK + 52
RM_MELD_N = RM_FIT + 3
RM_MELD = RM_MELD_N + 1
RM_DOWN = RM_MELD + MAX_MELDS
STATE_SIZE = RM_DOWN + MAX_SEATS
