"""``make_agent(agent, game, seed)``: every kind of player from one spec string.

A spec is a name with optional keyword arguments: ``"random"``, ``"ismcts(iterations=1000)"``,
``"ismcts(seconds=1.5,rollout=heuristic)"``. Values are ints (int64: a larger one is refused
naming its argument), floats, ``true``/``false`` or bare words. Unknown names and arguments are
clear errors. The names are the keys of :data:`AGENTS`, one table of every kind's maker.

Where a caller holds a player's settings as a value rather than a spec (the tuner's candidate
searches), it passes a *bot factory* instead: ``factory(game, seed) -> pyspiel.Bot``, e.g.
:class:`agents.ismcts.ISMCTSAgent`. Matches and tournaments take either.

A driver that plays many games with one agent (a match, a tournament task) builds its bot once,
as a :class:`PreparedAgent`, and sets it up for each game with that game's seed: the spec is
parsed and its files (a model, weights, a tuned search) read once, not once per game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pyspiel

from agents.heuristic_agent import make_heuristic
from agents.human import make_human
from agents.ismcts import make_ismcts
from agents.learned import make_learned
from agents.openspiel_bots import make_openspiel_ismcts
from agents.random_agent import make_random

_SPEC = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)
_ARG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^=]+?)\s*$")

AgentMaker = Callable[..., pyspiel.Bot]
BotFactory = Callable[[pyspiel.Game, int], pyspiel.Bot]
"""A player as a value: ``factory(game, seed)`` builds its bot (plain data, to pickle)."""
Agent = str | BotFactory
"""A player: a spec string or a bot factory."""
AGENTS: dict[str, AgentMaker] = {
    "heuristic": make_heuristic,
    "human": make_human,
    "ismcts": make_ismcts,
    "learned": make_learned,
    "openspiel_ismcts": make_openspiel_ismcts,
    "random": make_random,
}
"""Agent kinds by name: ``maker(game, seed, **kwargs) -> pyspiel.Bot``, the spec's arguments
as keyword arguments."""


INT64 = (-(1 << 63), (1 << 63) - 1)
"""The integers a spec may give: every one reaches a Numba kernel or numpy as an int64 (a
larger one passed every check, then failed every game with a Numba TypingError)."""
_WHOLE = re.compile(r"^\s*[+-]?[0-9][0-9_]*\s*$")


def parse_value(text: str) -> Any:
    """A spec argument's value: ``true``/``false``, an int64, a float, else the text itself;
    a whole number beyond int64 is a ``ValueError``."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        value = int(text)
    except ValueError:  # not a whole number, or one of more than 4300 digits
        if _WHOLE.match(text):
            raise ValueError(f"{_cut(text)} is beyond a 64-bit integer") from None
    else:
        if not INT64[0] <= value <= INT64[1]:
            raise ValueError(f"{_cut(text)} is beyond a 64-bit integer")
        return value
    try:
        return float(text)
    except ValueError:
        return text


def _cut(text: str, keep: int = 30) -> str:
    """A long value cut for a one-line message."""
    text = text.strip()
    if len(text) <= keep:
        return text
    return f"{text[: keep // 2]}...{text[-(keep // 2) :]} ({len(text)} characters)"


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name(k=v,...)"`` -> ``("name", {"k": v, ...})``; malformed specs raise ValueError."""
    m = _SPEC.match(spec)
    if not m:
        raise ValueError(f"malformed agent spec {spec!r}: expected name or name(key=value,...)")
    name, body = m.group(1), m.group(2)
    kwargs: dict[str, Any] = {}
    if body and body.strip():
        for part in body.split(","):
            am = _ARG.match(part)
            if not am:
                raise ValueError(
                    f"malformed argument {part.strip()!r} in agent spec {spec!r}: "
                    "expected key=value"
                )
            if am.group(1) in kwargs:
                raise ValueError(f"argument {am.group(1)!r} given twice in agent spec {spec!r}")
            try:
                kwargs[am.group(1)] = parse_value(am.group(2))
            except ValueError as e:
                raise ValueError(
                    f"argument {am.group(1)!r} in agent spec {_cut(spec, 80)!r}: {e}"
                ) from None
    return name, kwargs


def make_agent(agent: Agent, game: pyspiel.Game, seed: int = 0) -> pyspiel.Bot:
    """A ``pyspiel.Bot`` for ``game`` built from a spec or a bot factory; it acts for whoever
    is to move."""
    if not isinstance(agent, str):
        return agent(game, seed)
    spec = agent
    name, kwargs = parse_spec(spec)
    if name not in AGENTS:
        raise ValueError(
            f"unknown agent {name!r} in spec {spec!r}; known agents: {', '.join(sorted(AGENTS))}"
        )
    try:
        return AGENTS[name](game, seed, **kwargs)
    except TypeError as e:  # an unexpected keyword argument
        raise ValueError(f"bad arguments in agent spec {spec!r}: {e}") from None


def agent_name(agent: Agent) -> str:
    """How a player is named in results: its spec, or its factory's ``str``."""
    return agent if isinstance(agent, str) else str(agent)


class PreparedAgent:
    """An agent made ready to play many games of ``game``: its bot is built once (spec parsed,
    files read, kernels compiled) and :meth:`bot` sets it up for each new game.

    ``bot(seed)`` plays exactly as ``make_agent(agent, game, seed)`` would: every bot of ours
    has ``new_game(seed)``, which puts it back in the state it was built in with that seed
    (its random stream seeded again, what it kept of the last game dropped). A bot without
    ``new_game`` (a bot factory's own) is built afresh for each game instead. Each side of a
    game needs its own: one bot holds one random stream."""

    def __init__(self, agent: Agent, game: pyspiel.Game):
        self.agent = agent
        self.game = game
        self._bot = make_agent(agent, game)  # a bad spec fails here, before any game

    def bot(self, seed: int) -> pyspiel.Bot:
        """The bot, ready for a new game with ``seed``."""
        new_game = getattr(self._bot, "new_game", None)
        if new_game is None:
            return make_agent(self.agent, self.game, seed)
        new_game(seed)
        return self._bot

    def __str__(self) -> str:
        return agent_name(self.agent)
