"""Kernel families: generic ``@njit`` loops built once per process for the modules given.

A loop that works for every game (a batch of games, an ISMCTS search, playouts) is written once,
as closures inside a builder function, and built for a game kernel module ``K`` — and, where the
loop needs a player, for a policy module ``P`` handed in the same way (e.g. the game's heuristic,
``agents.heuristics.<game>``). So the core never imports agents: the driver that wants a policy
in a kernel loop chooses it and passes its module.

The closures capture modules only. Numba keys its on-disk cache of a closure by its pickled free
variables, and a module pickles by name, so each family compiles once per machine; a closure
capturing another closure (or an array) would compile again in every process.
:func:`kernel_family` is the one place that enforces this and caches the built family.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType, SimpleNamespace

import numba
from numba.core.dispatcher import Dispatcher


def kernel_family(build: Callable[..., SimpleNamespace]) -> Callable[..., SimpleNamespace]:
    """Decorator: ``build(*modules)`` returns a namespace of ``@njit`` closures over those
    modules; the decorated function builds it once per process and per modules, and refuses
    anything but modules."""

    @functools.cache
    def family(*modules: ModuleType) -> SimpleNamespace:
        for m in modules:
            if not isinstance(m, ModuleType):
                raise TypeError(
                    f"{build.__name__}: a kernel family is built over modules only (got {m!r})"
                )
        return build(*modules)

    return functools.update_wrapper(family, build)


def compile_for(function: Dispatcher, *args: object) -> None:
    """Compile the ``@njit`` ``function`` for the types of ``args`` now (or load it from Numba's
    cache), without running it. A bot does this when it is made: compiled at its first move, a
    cold compile (seconds for a model, a minute for a search) is counted as thinking time."""
    function.compile(tuple(numba.typeof(a) for a in args))
