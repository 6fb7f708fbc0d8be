"""skip_ai: the Family Card Games (СКИП) as OpenSpiel games on Numba kernels.

``import skip_ai`` registers every game with pyspiel, so
``pyspiel.load_game("skip_columns(players=6,deck=36)")`` works afterwards.
"""

from skip_ai._numba_cache import configure as _configure_numba_cache

NUMBA_CACHE = _configure_numba_cache()  # before any kernel is decorated

from skip_ai import games  # noqa: E402,F401  (registers every game)
from skip_ai.pyspiel_wrapper import REGISTRY, IllegalActionError, load  # noqa: E402

__version__ = "0.1.0"
__all__ = ["REGISTRY", "IllegalActionError", "load", "NUMBA_CACHE", "__version__"]
