"""One module per game: its kernel and its registration with pyspiel.

Importing this package registers every game (``skip_ai.pyspiel_wrapper.REGISTRY``).
"""

from skip_ai.games import (  # noqa: F401
    brook,
    captains,
    chains,
    columns,
    domino,
    fours,
    guess,
    harvest,
    pyatki,
    rummy,
    sixty_six,
)
