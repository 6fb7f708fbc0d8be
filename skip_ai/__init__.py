"""skip_ai: the Family Card Games (СКИП) as OpenSpiel games on Numba kernels.

``import skip_ai`` registers every game with pyspiel and makes ``pyspiel.load_game`` fill in
the parameters whose default depends on others, so
``pyspiel.load_game("skip_domino(players=2)")`` loads the 36-card game afterwards (why a
patch and not defaults resolved inside the game: :func:`skip_ai.pyspiel_wrapper.load_game`).
It also replaces ``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` for
these games with a checked text format that never unpickles
(:mod:`skip_ai.state_text`). These three are the package's only effects on the outside,
all made here.
"""

from skip_ai._numba_cache import configure as _configure_numba_cache

NUMBA_CACHE = _configure_numba_cache()  # before any kernel is decorated

from skip_ai import games  # noqa: E402,F401  (registers every game)
from skip_ai.pyspiel_wrapper import (  # noqa: E402
    REGISTRY,
    IllegalActionError,
    install_load_game,
    load,
)

install_load_game()

__version__ = "0.1.0"
__all__ = ["REGISTRY", "IllegalActionError", "load", "NUMBA_CACHE", "__version__"]
