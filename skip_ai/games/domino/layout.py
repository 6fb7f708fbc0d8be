"""Domino's state layout: parameter indices and the state's size. The game's own slots, after
the trick slots of ``kernel.tricks``, are the grid's (``grid``)."""

from .grid import GRID_END

P_PLAYERS, P_DECK, P_REMOVE4, P_VOLUNTARY = 0, 1, 2, 3
REMOVED = 4
"""The cards ``remove4`` lays face down, seen by nobody."""

STATE_SIZE = GRID_END
