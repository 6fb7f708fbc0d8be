"""``make_agent(agent, game, seed)``: every kind of player from one spec string.

A spec is a name with optional keyword arguments: ``"random"``, ``"ismcts(iterations=1000)"``,
``"ismcts(seconds=1.5,rollout=heuristic)"``. Values are ints, floats, ``true``/``false`` or bare
words. Unknown names and arguments are clear errors.

Where a caller holds a player's settings as a value rather than a spec (the tuner's candidate
searches), it passes a *bot factory* instead: ``factory(game, seed) -> pyspiel.Bot``, e.g.
:class:`agents.ismcts.ISMCTSAgent`. Matches and tournaments take either.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pyspiel

_SPEC = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)
_ARG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^=]+?)\s*$")

AgentMaker = Callable[..., pyspiel.Bot]
BotFactory = Callable[[pyspiel.Game, int], pyspiel.Bot]
"""A player as a value: ``factory(game, seed)`` builds its bot (plain data, to pickle)."""
Agent = str | BotFactory
"""A player: a spec string or a bot factory."""
AGENTS: dict[str, AgentMaker] = {}
"""Agent kinds by name: ``maker(game, seed, **kwargs) -> pyspiel.Bot``."""


def agent_kind(name: str) -> Callable[[AgentMaker], AgentMaker]:
    """Decorator that registers an agent maker under ``name``."""

    def deco(maker: AgentMaker) -> AgentMaker:
        AGENTS[name] = maker
        return maker

    return deco


def parse_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


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
            kwargs[am.group(1)] = parse_value(am.group(2))
    return name, kwargs


def make_agent(agent: Agent, game: pyspiel.Game, seed: int = 0) -> pyspiel.Bot:
    """A ``pyspiel.Bot`` for ``game`` built from a spec or a bot factory; it acts for whoever
    is to move."""
    if not isinstance(agent, str):
        return agent(game, seed)
    spec = agent
    _load_kinds()
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


def _load_kinds() -> None:
    from agents import (  # noqa: F401
        heuristic_agent,
        human,
        ismcts,
        learned,
        openspiel_bots,
        random_agent,  # (each registers its kinds)
    )
