"""Domino's state layout: parameter indices and the state's size. The game's own slots, after
the trick slots of ``kernel.tricks``, are the grid's (``grid``)."""

from .grid import GRID_END

P_PLAYERS, P_DECK, P_REMOVE4, P_VOLUNTARY, P_FIRST, P_SEATING, P_KOMI = range(7)
"""The rules' parameters, then the levers (RULES §0.7): ``first_seat``, ``seating``, ``komi``."""
REMOVED = 4
"""The cards ``remove4`` lays face down, seen by nobody."""

STATE_SIZE = GRID_END
